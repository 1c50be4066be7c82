"""Compare the interpreter with hand-written Python on the same games, in one process.

    python benchmarks/compare.py                  # Crazy Eights and Quäsenbö, 4 players
    python benchmarks/compare.py --seconds 2 --repeats 7 --json

Each side plays uniform random playouts (every applied action counts as a move). After a
warm-up, the reference and the interpreter run in alternating timed rounds, so that a
machine's noise falls on both; the report gives the median moves/s of each side and the
median of the per-round ratios (interpreter / reference).
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import ruledsl  # noqa: E402
from benchmarks import reference_crazy_eights, reference_quasenbo  # noqa: E402
from benchmarks.harness import Playout, random_playout, run  # noqa: E402

#: game name -> (hand-written module, options that make the rule file play the same game)
GAMES = {
    "crazy_eights": (reference_crazy_eights, {}),
    "quasenbo": (reference_quasenbo, {}),
}


def interpreter_playout(game: ruledsl.Game) -> Playout:
    def playout(players: int, seed: int, rng: random.Random) -> int:
        return random_playout(game.new_initial_state(seed=seed), rng)

    return playout


def moves_per_s(playout: Playout, players: int, seconds: float, seed: int) -> float:
    games, moves, elapsed = run(playout, players, seconds, seed)
    return moves / elapsed


def compare(name: str, players: int, seconds: float, repeats: int) -> dict[str, object]:
    module, options = GAMES[name]
    game = ruledsl.load_game(name, players=players, options=options)
    interp = interpreter_playout(game)
    moves_per_s(module.playout, players, seconds / 4, 10_000)  # warm-up, both sides
    moves_per_s(interp, players, seconds / 4, 10_000)
    ref_rates, int_rates, ratios = [], [], []
    for r in range(repeats):
        ref = moves_per_s(module.playout, players, seconds, 1000 * r)
        ours = moves_per_s(interp, players, seconds, 1000 * r)
        ref_rates.append(ref)
        int_rates.append(ours)
        ratios.append(ours / ref)
    return {
        "game": name,
        "players": players,
        "reference_moves_per_s": round(statistics.median(ref_rates)),
        "interpreter_moves_per_s": round(statistics.median(int_rates)),
        "ratio": round(statistics.median(ratios), 3),
        "ratios": [round(x, 3) for x in ratios],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default=",".join(GAMES), help="comma-separated (default: all)")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--seconds", type=float, default=2.0, help="length of each timed round")
    parser.add_argument("--repeats", type=int, default=5, help="rounds per side")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    results = [compare(g, args.players, args.seconds, args.repeats) for g in args.games.split(",")]
    machine = f"{platform.python_implementation()} {platform.python_version()}, {platform.machine()}"
    if args.json:
        print(json.dumps({"machine": machine, "results": results}, indent=2))
        return 0
    print(f"{machine}; {args.players} players; {args.repeats} alternating rounds of {args.seconds:g} s per side")
    print(f"{'game':<14}{'hand-written':>14}{'ruledsl':>12}{'ratio':>8}   per round")
    for r in results:
        rounds = " ".join(f"{x:.2f}" for x in r["ratios"])  # type: ignore[union-attr]
        print(
            f"{r['game']:<14}{r['reference_moves_per_s']:>14,}{r['interpreter_moves_per_s']:>12,}"
            f"{r['ratio']:>8.2f}   {rounds}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
