"""How long Katzenjammer Blues takes to list the legal actions of a hand of 25 cards, 6 of them jokers.

    python benchmarks/katzenjammer_big_hand.py

The position of tests/scenarios/test_katzenjammer.py (test_legal_bids_of_a_25_card_hand_with_6_jokers):
four each of 1 to 4, three 5s and six jokers, 3 players. Bids are listed by counting each
value's cards and the jokers, never by enumerating subsets of the hand. Prints the number
of legal actions and the median time to list them afresh, with no bid standing, over a
standing "four 3s", and for paying a won "5 different".
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.scenarios.test_katzenjammer import A, B, C, J, give_turn, play, position  # noqa: E402


def listing_time(state, repeats: int = 200) -> tuple[int, float]:
    """The number of legal actions, and the median µs to list them afresh."""
    times = []
    for _ in range(repeats):
        probe = state.clone()
        probe._legal = None  # list afresh, as after an action
        start = time.perf_counter()
        listed = probe.legal_actions()
        times.append(time.perf_counter() - start)
    return len(listed), statistics.median(times) * 1e6


def main() -> int:
    big = ["1"] * 4 + ["2"] * 4 + ["3"] * 4 + ["4"] * 4 + ["5"] * 3 + [J] * 6
    state = position({A: ["3", "3", "3", "3"], B: big, C: []}, lot=["2", "2"], leader=C, turn=B)
    rows = [("no bid standing", *listing_time(state))]
    give_turn(state, A, "bidding")
    play(state, (A, "bid four 3s"))
    rows.append(('over "four 3s"', *listing_time(state)))
    play(state, (B, "bid 5 different"), (C, "pass"), (A, "pass"))
    rows.append(('paying "5 different"', *listing_time(state)))
    print("Katzenjammer Blues, a hand of 25 cards with 6 jokers, 3 players")
    for what, count, micros in rows:
        print(f"  {what:<22}{count:>4} legal actions, listed in {micros:,.0f} µs (median of 200)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
