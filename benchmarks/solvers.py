"""Measure OpenSpiel's solvers on Kuhn and Leduc poker as rule files against OpenSpiel's native games.

    python benchmarks/solvers.py                          # Kuhn: 200 iterations of Python CFR+
    python benchmarks/solvers.py --game leduc_poker --cpp --iterations 100

Each game is solved by the same solver, in the same run, as a rule file
(``pyspiel.load_game("ruledsl", {"game": ...})``) and as OpenSpiel's own game of that name
(Python CFR+, ``cfr.CFRPlusSolver``; with ``--cpp``, C++ CFR+, ``pyspiel.CFRPlusSolver``).
It reports the first player's value of the average policy, its exploitability and the
time an iteration takes, and the ratio of the times.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import open_spiel.python.games  # noqa: F401  (registers python_kuhn_poker)
import pyspiel
from open_spiel.python.algorithms import cfr, expected_game_score, exploitability

import ruledsl.openspiel  # noqa: F401  (registers "ruledsl")


def solve(game: Any, iterations: int, cpp: bool) -> dict[str, float]:
    solver = pyspiel.CFRPlusSolver(game) if cpp else cfr.CFRPlusSolver(game)
    start = time.perf_counter()
    for _ in range(iterations):
        solver.evaluate_and_update_policy()
    elapsed = time.perf_counter() - start
    policy = solver.average_policy()
    value = expected_game_score.policy_value(game.new_initial_state(), [policy] * 2)[0]
    return {
        "value": float(value),
        "exploitability": float(exploitability.exploitability(game, policy)),
        "seconds_per_iteration": elapsed / iterations,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="kuhn_poker", choices=["kuhn_poker", "leduc_poker"])
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument("--cpp", action="store_true", help="C++ CFR+ (pyspiel.CFRPlusSolver)")
    args = parser.parse_args()
    how = (args.iterations, args.cpp)
    result: dict[str, Any] = {"game": args.game, "iterations": args.iterations, "cpp": args.cpp}
    ours = result["ruledsl"] = solve(pyspiel.load_game("ruledsl", {"game": args.game, "players": 2}), *how)
    # OpenSpiel's C++ game, and for Kuhn its Python game too (open_spiel.python.games).
    for name in [args.game, *(["python_kuhn_poker"] if args.game == "kuhn_poker" else [])]:
        theirs = result[name] = solve(pyspiel.load_game(name), *how)
        theirs["ruledsl_time_ratio"] = round(ours["seconds_per_iteration"] / theirs["seconds_per_iteration"], 1)
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
