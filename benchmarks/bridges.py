"""Measure the research bridges: moves/s through each against the native API, and IS-MCTS against IS-MCTS.

    python benchmarks/bridges.py speed                      # Crazy Eights and Quäsenbö, 2 players
    python benchmarks/bridges.py speed --seconds 2 --repeats 5 --json
    python benchmarks/bridges.py ismcts --games 1000        # ruledsl's ismcts vs OpenSpiel's, Quäsenbö
    python benchmarks/bridges.py ismcts --games 500 --first 500   # the second half, in another process

``speed`` plays uniform random playouts through each way in (every step applied counts as
a move): the native API (``legal_actions``/``apply_action``), integer ids
(``ruledsl.spaces.Decisions``), OpenSpiel (``pyspiel`` state from Python; with and without
``track``; and each again reading the mover's ``observation_tensor`` every move, as a
learner does), PettingZoo AEC
(``agent_iter``/``last``/``step``, no wrappers) and Gymnasium (one seat stepping, the other
played by the ``random`` bot). The ways run in alternating timed rounds, so that a loaded
machine's noise falls on all; the report gives each one's median moves/s and its median
ratio to native.

``ismcts`` plays 2-player Quäsenbö, ruledsl's ``ismcts`` against OpenSpiel's
``ISMCTSBot`` (random rollouts) at the same number of iterations per move, seats swapped
every other game; it reports ruledsl's score (win 1, draw 1/2) with a 95% Wilson interval.
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402
import pyspiel  # noqa: E402

import ruledsl  # noqa: E402
import ruledsl.openspiel  # noqa: E402, F401  (registers "ruledsl")
from benchmarks.harness import random_playout  # noqa: E402
from ruledsl.agents import decide, make_agent  # noqa: E402
from ruledsl.gymnasium import RuledslEnv as GymEnv  # noqa: E402
from ruledsl.pettingzoo import env as aec_env  # noqa: E402
from ruledsl.spaces import spaces_for  # noqa: E402

#: One playout: (seed, rng) -> moves.
Way = Callable[[int, random.Random], int]


def ways(name: str, players: int) -> dict[str, Way]:
    """Each way of playing ``name`` at random, from the native API to each bridge."""
    game = ruledsl.load_game(name, players=players)
    spaces = spaces_for(name, players)
    spiel = pyspiel.load_game("ruledsl", {"game": name, "players": players})
    untracked = pyspiel.load_game("ruledsl", {"game": name, "players": players, "track": False})
    aec = aec_env(name, players=players)
    gym = GymEnv(name, players=players, opponents="random")

    def native(seed: int, rng: random.Random) -> int:
        return random_playout(game.new_initial_state(seed=seed), rng)

    def ids(seed: int, rng: random.Random) -> int:
        return random_playout(spaces.new_play(seed, track=False), rng)

    def openspiel(seed: int, rng: random.Random) -> int:  # chance nodes' outcomes picked by rng too
        return random_playout(spiel.new_initial_state(), rng)

    def openspiel_untracked(seed: int, rng: random.Random) -> int:
        return random_playout(untracked.new_initial_state(), rng)

    def tensors(spiel_game: pyspiel.Game) -> Way:
        def playout(seed: int, rng: random.Random) -> int:  # as a learner does: the mover's tensor, every move
            state, moves = spiel_game.new_initial_state(), 0
            while not state.is_terminal():
                if not state.is_chance_node():
                    state.observation_tensor(state.current_player())
                state.apply_action(rng.choice(state.legal_actions()))
                moves += 1
            return moves

        return playout

    def pettingzoo(seed: int, rng: random.Random) -> int:
        aec.reset(seed=seed)
        moves = 0
        for _agent in aec.agent_iter():
            obs, _, termination, truncation, _ = aec.last()
            if termination or truncation:
                aec.step(None)
                continue
            aec.step(rng.choice(np.flatnonzero(obs["action_mask"])))
            moves += 1
        return moves

    def gymnasium(seed: int, rng: random.Random) -> int:
        _, info = gym.reset(seed=seed)
        done, moves = False, 0
        while not done:
            _, _, terminated, truncated, info = gym.step(rng.choice(np.flatnonzero(info["action_mask"])))
            done = terminated or truncated
            moves += 1
        # The bot's moves are moves too: count the whole game.
        return gym.play.state.n_actions if gym.play is not None else moves

    return {
        "native": native,
        "ids": ids,
        "openspiel": openspiel,
        "openspiel, track=False": openspiel_untracked,
        "openspiel + tensor": tensors(spiel),
        "openspiel, track=False + tensor": tensors(untracked),
        "pettingzoo": pettingzoo,
        "gymnasium": gymnasium,
    }


def timed(way: Way, seconds: float, seed: int) -> float:
    rng = random.Random(seed)
    moves, games = 0, 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        moves += way(seed + games, rng)
        games += 1
    return moves / (time.perf_counter() - start)


def speed(name: str, players: int, seconds: float, repeats: int, only: list[str] | None = None) -> dict[str, object]:
    every = {w: way for w, way in ways(name, players).items() if w == "native" or not only or w in only}
    for way in every.values():
        timed(way, 0.2, 0)  # warm up
    rounds: dict[str, list[float]] = {w: [] for w in every}
    for r in range(repeats):
        for w, way in every.items():
            rounds[w].append(timed(way, seconds, 1000 * r))
    ratios = {w: statistics.median(a / b for a, b in zip(rounds[w], rounds["native"])) for w in every}
    return {
        "game": name,
        "players": players,
        "moves_per_s": {w: statistics.median(v) for w, v in rounds.items()},
        "ratio_to_native": ratios,
    }


def wilson(score: float, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return (0.0, 1.0)
    p = score / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (centre - half, centre + half)


def ismcts_match(games: int, iterations: int, seed: int, first: int = 0) -> dict[str, object]:
    from open_spiel.python.algorithms import ismcts, mcts

    spiel = pyspiel.load_game("ruledsl", {"game": "quasenbo", "players": 2})
    space = spiel.spaces.actions
    score = 0.0
    start = time.perf_counter()
    for g in range(first, first + games):
        ours = g % 2  # seats swapped every other game
        rng = np.random.RandomState(seed + g)
        theirs = ismcts.ISMCTSBot(spiel, mcts.RandomRolloutEvaluator(1, rng), 2.0, iterations, random_state=rng)
        agent = make_agent(f"ismcts:iterations={iterations}", seed + g)
        state = spiel.new_initial_state()
        deal = random.Random(seed + g)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(deal.choice(state.chance_outcomes())[0])
            elif state.current_player() == ours:
                # Our agent searches by playing copies of the engine's state: one drawing from a seed.
                action = decide(agent, state.seeded_state(deal.getrandbits(63)), ours)
                # Apply through OpenSpiel, id by id, so both bots see the same state.
                for i in space.tokens(action):
                    state.apply_action(i)
            else:
                state.apply_action(theirs.step(state))
        r = state.returns()[ours]
        points = 1.0 if r > 0 else 0.5 if r == 0 else 0.0
        score += points
        # One line a game on stderr: a long run shows its progress, and shards can be added up.
        print(json.dumps({"game": g, "ours": ours, "points": points}), file=sys.stderr, flush=True)
    low, high = wilson(score, games)
    return {
        "games": games,
        "first": first,
        "iterations": iterations,
        "ruledsl_score": score / games if games else None,
        "interval_95": [low, high],
        "seconds": time.perf_counter() - start,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="what", required=True)
    s = sub.add_parser("speed")
    s.add_argument("--games", nargs="*", default=["crazy_eights", "quasenbo"])
    s.add_argument("--players", type=int, default=2)
    s.add_argument("--seconds", type=float, default=1.0)
    s.add_argument("--repeats", type=int, default=3)
    s.add_argument("--json", action="store_true")
    s.add_argument("--ways", nargs="*", help="only these ways in (and native), by the names the report gives")
    m = sub.add_parser("ismcts")
    m.add_argument("--games", type=int, default=1000)
    m.add_argument("--iterations", type=int, default=100)
    m.add_argument("--seed", type=int, default=0)
    m.add_argument("--first", type=int, default=0, help="index of the first game (to run a long match in shards)")
    args = parser.parse_args()
    machine = f"{platform.python_implementation()} {platform.python_version()}, {platform.machine()}"
    if args.what == "speed":
        results = [speed(name, args.players, args.seconds, args.repeats, args.ways) for name in args.games]
        if args.json:
            print(json.dumps({"machine": machine, "results": results}, indent=2))
            return
        print(f"# {machine}; median of {args.repeats} rounds of {args.seconds}s each, ways alternating")
        for r in results:
            print(f"{r['game']}, {r['players']} players:")
            for w, v in r["moves_per_s"].items():  # type: ignore[attr-defined]
                print(f"  {w:<32} {v:>10,.0f} moves/s   x{r['ratio_to_native'][w]:.2f} of native")  # type: ignore[index]
    else:
        result = ismcts_match(args.games, args.iterations, args.seed, args.first)
        print(json.dumps({"machine": machine, **result}, indent=2))


if __name__ == "__main__":
    main()
