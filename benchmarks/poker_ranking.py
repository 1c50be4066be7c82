"""How long the poker ranking written in the rule language takes, beside a reference evaluator in Python.

    python benchmarks/poker_ranking.py [DEALS]

The "Showdown" rule file of docs/language.md values two hands of seven cards (a 'show'
action: two 'say' lines, then the winner, which values them again); the reference of
tests/unit/test_poker_ranking.py tries the 21 five-card hands of each. Both run on the same
random deals in one process, one after the other; prints the median µs to value one hand
with each, and their ratio. The rule file's time includes applying the action (the log, the
end of the game), shared over its four valuations.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import ruledsl  # noqa: E402
from ruledsl.tools.scenario import arrange  # noqa: E402
from tests.unit.test_language_doc import doc_games  # noqa: E402
from tests.unit.test_poker_ranking import DECK, reference  # noqa: E402


def main() -> int:
    deals = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    path = Path("/tmp") / "showdown_bench.game"
    path.write_text(doc_games()["Showdown"], encoding="utf-8")
    game = ruledsl.load_game(path, players=2)
    rng = random.Random(0)
    hands = [rng.sample(DECK, 14) for _ in range(deals)]
    rules, python = [], []
    for cards in hands:
        state = game.new_initial_state(seed=0, log=True)
        arrange(state, "hand", cards[:7], owner=0)
        arrange(state, "hand", cards[7:], owner=1)
        show = state.action_from_string("show")
        start = time.perf_counter()
        state.apply_action(show)
        rules.append(time.perf_counter() - start)
        start = time.perf_counter()
        reference(tuple(cards[:7]))
        reference(tuple(cards[7:]))
        python.append(time.perf_counter() - start)
    # The action values each hand twice (its 'say', then 'with highest'); the reference once.
    a, b = statistics.median(rules) * 1e6 / 4, statistics.median(python) * 1e6 / 2
    print(f"{deals} deals of two hands of seven; median µs to value one hand of seven")
    print(f"  rule file (Showdown's hand_value)         {a:10.0f}")
    print(f"  reference in Python (best of 21 fives)    {b:10.0f}")
    print(f"  ratio rule file / reference               {a / b:10.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
