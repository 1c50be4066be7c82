"""Profile random playouts of a game: the functions that take the most time of their own.

    python benchmarks/profile_playouts.py crazy_eights                 # 2,000 games of 4 players
    python benchmarks/profile_playouts.py quasenbo --games 500 --players 2 --top 15

Compiled rules show up under the rule file's name: ``L0`` lists the legal actions of the
first phase, ``X3`` applies the fourth action, ``D2`` computes a definition, ``PR1`` runs
a procedure. Times under cProfile are inflated, and vary with a machine's load: read the
shares.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import ruledsl  # noqa: E402
from benchmarks.harness import random_playout  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", help="a .game file or a bundled game's name")
    parser.add_argument("--games", type=int, default=2000, help="random games to profile (default 2000)")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--top", type=int, default=8, help="how many functions to list (default 8)")
    args = parser.parse_args(argv)
    try:
        game = ruledsl.load_game(args.game, players=args.players)
    except ruledsl.RuleDslError as exc:
        print(exc, file=sys.stderr)
        return 65

    def play() -> int:
        rng = random.Random(1)
        return sum(random_playout(game.new_initial_state(seed=s), rng) for s in range(args.games))

    play()  # warm-up: the same games, so that both passes do the same work
    profiler = cProfile.Profile()
    profiler.enable()
    moves = play()
    profiler.disable()
    stats = pstats.Stats(profiler)
    total = stats.total_tt  # type: ignore[attr-defined]
    print(f"{game.name}, {args.players} players: {args.games:,} games, {moves:,} actions, {total:.2f} s under cProfile")
    rows = sorted(stats.stats.items(), key=lambda kv: -kv[1][2])[: args.top]  # type: ignore[attr-defined]
    for (filename, line, function), (_, calls, own, _, _) in rows:
        where = filename if filename.startswith("<") else Path(filename).name
        print(f"  {own:6.3f} s {100 * own / total:5.1f}%  {calls:>9,} calls  {function} ({where}:{line})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
