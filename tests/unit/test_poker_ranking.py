"""The poker ranking of docs/language.md ("Showdown", best five of seven) against a reference evaluator.

The reference tries the 21 five-card hands of seven cards with the textbook evaluation of
five cards; the rule file works on the seven cards at once with sorting, the k-th item and
tuples. Both must order any two hands alike, and agree on each hand's category.
"""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import ruledsl
from ruledsl.tools.scenario import arrange
from tests.unit.test_language_doc import doc_games

RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
SUITS = ["♠", "♥", "♦", "♣"]
DECK = [r + s for r in RANKS for s in SUITS]

Hand = tuple[str, ...]


def reference_five(cards: Hand) -> tuple[int, ...]:
    """The textbook value of five cards: (category, ranks that break ties), 2 = 1 ... A = 13."""
    ranks = sorted((RANKS.index(c[:-1]) + 1 for c in cards), reverse=True)
    flush = len({c[-1] for c in cards}) == 1
    groups = sorted(((n, r) for r, n in Counter(ranks).items()), reverse=True)
    by_group = [r for _, r in groups]
    straight = None
    if len(groups) == 5:
        if ranks[0] - ranks[4] == 4:
            straight = ranks[0]
        elif ranks == [13, 4, 3, 2, 1]:  # A-2-3-4-5: the five is high
            straight = 4
    if straight is not None and flush:
        return (8, straight)
    if groups[0][0] == 4:
        return (7, *by_group)
    if groups[0][0] == 3 and groups[1][0] == 2:
        return (6, *by_group)
    if flush:
        return (5, *ranks)
    if straight is not None:
        return (4, straight)
    if groups[0][0] == 3:
        return (3, *by_group)
    if groups[0][0] == 2 and groups[1][0] == 2:
        return (2, *by_group)
    if groups[0][0] == 2:
        return (1, *by_group)
    return (0, *ranks)


def reference(cards: Hand) -> tuple[int, ...]:
    return max(reference_five(five) for five in itertools.combinations(cards, 5))


@pytest.fixture(scope="module")
def showdown(tmp_path_factory: pytest.TempPathFactory) -> ruledsl.Game:
    path = tmp_path_factory.mktemp("poker") / "showdown.game"
    path.write_text(doc_games()["Showdown"], encoding="utf-8")
    return ruledsl.load_game(path, players=2)


def ranked(game: ruledsl.Game, a: Hand, b: Hand) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The values the rule file gives two hands of seven, from its log."""
    state = game.new_initial_state(seed=0, log=True)
    arrange(state, "hand", a, owner=0)
    arrange(state, "hand", b, owner=1)
    state.apply_action(state.action_from_string("show"))
    lines = state.take_log()
    return tuple(_values(lines[0])), tuple(_values(lines[1]))


def _values(line: str) -> list[int]:
    return [int(x) for x in line.split(": ", 1)[1].strip("()").split(", ")]


def _sign(x: tuple[int, ...], y: tuple[int, ...]) -> int:
    return (x > y) - (x < y)


def _check(game: ruledsl.Game, a: Hand, b: Hand) -> None:
    va, vb = ranked(game, a, b)
    ra, rb = reference(a), reference(b)
    assert (va[0], vb[0]) == (ra[0], rb[0]), (a, b)
    assert _sign(va, vb) == _sign(ra, rb), (a, b, va, vb, ra, rb)


# Fourteen distinct cards, two hands of seven: from the whole deck, from few ranks (pairs,
# trips, quads, full houses and straights come often) or from two suits (flushes).
_FEW_RANKS = st.integers(0, 8).flatmap(
    lambda lo: st.just([c for c in DECK if RANKS.index(c[:-1]) in range(lo, lo + 5)])
)
_POOLS = st.one_of(
    st.just(DECK),
    _FEW_RANKS,
    st.just([c for c in DECK if c[-1] in "♠♥"]),
    st.just([c for c in DECK if c[:-1] in ("A", "2", "3", "4", "5", "6", "K")]),
)
_DEALS = _POOLS.flatmap(lambda pool: st.lists(st.sampled_from(pool), min_size=14, max_size=14, unique=True))


@settings(max_examples=150)
@given(deal=_DEALS)
@example(deal=["A♠", "A♥", "K♠", "9♦", "7♣", "4♥", "2♠", "A♦", "A♣", "Q♠", "9♥", "7♦", "4♣", "2♥"])  # the kicker
@example(deal=["A♠", "2♥", "3♠", "4♦", "5♣", "K♥", "K♠", "6♠", "2♦", "3♣", "4♣", "5♥", "9♥", "9♠"])  # wheel < 6-high
@example(deal=["Q♠", "Q♥", "8♠", "8♦", "5♣", "5♥", "2♠", "Q♦", "Q♣", "8♥", "8♣", "3♦", "4♣", "2♥"])  # 3 pairs
def test_the_ranking_orders_hands_as_the_reference_does(showdown: ruledsl.Game, deal: list[str]) -> None:
    _check(showdown, tuple(deal[:7]), tuple(deal[7:]))


@pytest.mark.parametrize(
    ("a", "b", "category"),
    [
        ("A♠ K♠ Q♠ J♠ 10♠ 2♥ 3♦", "9♥ 9♦ 9♣ 9♠ A♥ 2♣ 3♣", 8),  # royal flush beats four nines
        ("5♥ 4♥ 3♥ 2♥ A♥ K♣ K♦", "6♣ 5♣ 4♣ 3♣ 2♣ A♦ K♥", 8),  # a steel wheel, below a 6-high straight flush
        ("K♠ K♥ K♦ 2♠ 2♥ 2♦ 7♣", "K♣ Q♠ Q♥ Q♦ 3♠ 3♥ 7♦", 6),  # two trips: kings full of twos
        ("A♦ J♦ 9♦ 6♦ 4♦ 2♦ K♣", "A♣ J♣ 9♣ 6♣ 3♣ 2♣ K♦", 5),  # six diamonds: the best five count
        ("Q♠ Q♥ 8♠ 8♦ 5♣ 5♥ K♠", "Q♦ Q♣ 8♥ 8♣ 4♣ 3♥ 2♥", 2),  # two pair, the king kicks
    ],
)
def test_hands_that_need_care(showdown: ruledsl.Game, a: str, b: str, category: int) -> None:
    va, _ = ranked(showdown, tuple(a.split()), tuple(b.split()))
    assert va[0] == category
    _check(showdown, tuple(a.split()), tuple(b.split()))
