"""Scenario tests of Cribbage (games/examples/cribbage.game): the show's count and the play's pegging,
each checked against a scorer written here in Python, over many random hands and plays.

The scorers count as a player would, not as the rule file does: fifteens over the combinations of
cards, pairs over the pairs, runs from the number of cards of each rank (a run of consecutive ranks
counted once per way of choosing one card of each rank), a flush and his nobs; in the play, the
total, the cards of the same rank on top, the longest run among the last cards, the go and the last
card.
"""

from __future__ import annotations

import itertools
import math
import re
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

import ruledsl
from ruledsl.tools.scenario import arrange
from tests.scenarios.support import act

RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
SUITS = ["♠", "♥", "♦", "♣"]
DECK = [r + s for r in RANKS for s in SUITS]


def rank(card: str) -> int:
    return RANKS.index(card[:-1]) + 1


def value(card: str) -> int:
    return min(rank(card), 10)


def hand_score(hand: list[str], starter: str, is_crib: bool) -> int:
    """A hand's (or the crib's) count with the starter, as the rules of the show say."""
    cards = [*hand, starter]
    points = 0
    for size in range(2, 6):
        points += 2 * sum(1 for combo in itertools.combinations(cards, size) if sum(map(value, combo)) == 15)
    points += 2 * sum(1 for a, b in itertools.combinations(cards, 2) if rank(a) == rank(b))
    counts = Counter(rank(c) for c in cards)
    r = 1
    while r <= 13:  # each stretch of consecutive ranks held, three long at least
        length = 0
        while r + length <= 13 and counts[r + length]:
            length += 1
        if length >= 3:
            points += length * math.prod(counts[r + i] for i in range(length))
        r += max(length, 1)
    suits = {c[-1] for c in hand}
    if len(suits) == 1:
        points += 5 if starter[-1] in suits else 0 if is_crib else 4
    points += sum(1 for c in hand if c[:-1] == "J" and c[-1] == starter[-1])
    return points


def laying_score(count: list[str]) -> int:
    """What laying the last card of ``count`` (the cards since the total was 0) pegs."""
    total = sum(map(value, count))
    points = 2 if total in (15, 31) else 0
    same = 1
    while same < len(count) and rank(count[-1 - same]) == rank(count[-1]):
        same += 1
    points += same * (same - 1)
    for k in range(len(count), 2, -1):
        ranks = sorted(rank(c) for c in count[-k:])
        if ranks == list(range(ranks[0], ranks[0] + k)):
            return points + k
    return points


def test_the_scorer_of_this_test_knows_its_hands() -> None:
    assert hand_score(["5♠", "5♥", "5♦", "J♣"], "5♣", False) == 29
    assert hand_score(["3♠", "3♥", "4♦", "5♣"], "K♠", False) == 2 * 2 + 2 + 3 * 2  # 3+3+4+5: double run
    assert hand_score(["2♥", "4♥", "6♥", "8♥"], "K♠", False) == 4  # a flush of four; no fifteen
    assert hand_score(["2♥", "4♥", "6♥", "8♥"], "K♥", True) == 5  # a crib's flush, with the starter
    assert hand_score(["2♥", "4♥", "6♥", "8♥"], "K♠", True) == 0  # a crib's flush needs the starter
    assert hand_score(["J♥", "4♠", "6♥", "8♦"], "K♥", False) == 1  # his nobs
    assert laying_score(["7♠", "8♥"]) == 2
    assert laying_score(["4♠", "4♥", "4♦"]) == 6
    assert laying_score(["5♠", "3♥", "4♦"]) == 3
    assert laying_score(["A♠", "2♥", "3♦", "4♣", "2♠"]) == 3  # 3 4 2: the longest run on top
    assert laying_score(["K♠", "Q♥", "A♦", "5♣"]) == 0  # a total of 26


def dealt(seed: int) -> ruledsl.GameState:
    """A deal of cribbage past the crib laid away: the non-dealer (seat 1) is to lay first."""
    state = ruledsl.load_game("cribbage").new_initial_state(seed=seed, log=True)
    while state.phase_name() == "discarding":
        state.apply_action(state.legal_actions()[0])
    return state


def pegged(lines: list[str]) -> list[tuple[str, int, str]]:
    """The pegs of a log: (who, how many, what for)."""
    found = [re.fullmatch(r"(P\d) pegs (\d+) for (.*): \d+", line) for line in lines]
    return [(m[1], int(m[2]), m[3]) for m in found if m]


@settings(max_examples=150, deadline=None)
@given(st.permutations(DECK))
def test_the_show_counts_as_the_scorer_of_the_test(cards: list[str]) -> None:
    state = dealt(0)
    pone, dealer, crib, starter = cards[0:4], cards[4:8], cards[8:12], cards[12]
    arrange(state, "hand", pone, owner=1)
    arrange(state, "hand", dealer, owner=0)
    arrange(state, "crib", crib)
    arrange(state, "starter", [starter])
    state.take_log()
    lines: list[str] = []
    while not any(line.endswith(" deals") for line in lines) and not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
        lines += state.take_log()
    shown = [(who, n, why) for who, n, why in pegged(lines) if why in ("his hand", "the crib")]
    expected = [
        ("P1", hand_score(pone, starter, False), "his hand"),
        ("P0", hand_score(dealer, starter, False), "his hand"),
        ("P0", hand_score(crib, starter, True), "the crib"),
    ]
    assert shown == [e for e in expected if e[1] > 0]


@settings(max_examples=60, deadline=None)
@given(st.permutations(DECK), st.randoms(use_true_random=False))
def test_the_play_pegs_as_the_scorer_of_the_test(cards: list[str], rng: object) -> None:
    state = dealt(0)
    hands = {1: cards[0:4], 0: cards[4:8]}
    arrange(state, "hand", hands[1], owner=1)
    arrange(state, "hand", hands[0], owner=0)
    arrange(state, "starter", [cards[8]])
    state.take_log()
    count: list[str] = []
    expected: list[tuple[str, int, str]] = []
    got: list[tuple[str, int, str]] = []
    while state.phase_name() == "play":
        p = state.current_player()
        options = state.legal_actions()
        action = options[rng.randrange(len(options))]  # type: ignore[attr-defined]
        card = str(action).removeprefix("play ")
        assert sum(map(value, count)) + value(card) <= 31
        assert card in hands[p]
        hands[p].remove(card)
        count.append(card)
        expected.append((f"P{p}", laying_score(count), "the play"))
        total = sum(map(value, count))
        o = 1 - p
        if not any(total + value(c) <= 31 for c in hands[o] + hands[p]):
            if total != 31:
                last = not hands[o] and not hands[p]
                expected.append((f"P{p}", 1, "last card" if last else "the go"))
            count = []
        state.apply_action(action)
        got += [g for g in pegged(state.take_log()) if g[2] in ("the play", "the go", "last card")]
    assert got == [e for e in expected if e[1] > 0]
    assert not hands[0] and not hands[1]


def test_a_twenty_nine_hand_a_run_of_five_and_a_crib_without_a_flush() -> None:
    state = dealt(0)
    arrange(state, "hand", ["5♠", "5♥", "5♦", "J♣"], owner=1)
    arrange(state, "hand", ["A♠", "2♠", "3♠", "4♠"], owner=0)
    arrange(state, "crib", ["6♥", "7♥", "8♥", "9♥"])
    arrange(state, "starter", ["5♣"])
    state.take_log()
    lines: list[str] = []
    while not any(line.endswith(" deals") for line in lines):
        act(state, str(state.legal_actions()[0]))
        lines += state.take_log()
    shown = [g for g in pegged(lines) if g[2] in ("his hand", "the crib")]
    # A♠-5♣ is a run of five, one fifteen and a flush of four; 6♥-9♥ with 5♣ a run of five and two fifteens.
    assert shown == [("P1", 29, "his hand"), ("P0", 5 + 2 + 4, "his hand"), ("P0", 5 + 4, "the crib")]
