"""Counting (issue 39, item 7): how many sets of cards meet a condition (cribbage's fifteens, pairs and
runs), bounded for a large zone; and set variables that grow (``add k to s``, ``subtract``, ``+``)."""

from __future__ import annotations

from pathlib import Path

import pytest

import ruledsl
from ruledsl.text.errors import RuleRuntimeError
from tests.unit.test_computation import errors, said

# P0 holds 3s 5h 5s (values 3, 5, 5), P1 2h 4s Ks (2, 4, 10), the table the joker (no rank, no value).
P1 = "define p1_hand = (seat 1).hand\n"
RUN = (
    "size of s == {k} and (distinct c.value for c in s) == {k}"
    " and (highest c.value for c in s) - (lowest c.value for c in s) == {k} - 1"
)


@pytest.mark.parametrize(
    ("expr", "expected"),
    [
        ("count sets s of cards in hand where (total c.value for c in s) == 10", "1"),  # 5 + 5
        ("count sets s of cards in hand where (total c.value for c in s) == 8", "2"),  # 3 + 5, twice
        ("count sets s of cards in hand + p1_hand where (total c.value for c in s) == 15", "4"),
        ("count sets s of cards in hand where yes", "7"),  # every set of one card at least
        ("count sets s of cards in hand where s is empty", "0"),  # the empty set is not counted
        ("count sets s of cards in table where yes", "1"),
        ("count sets s of cards in (cards c in table where c.value == 3) where yes", "0"),  # no cards, no sets
        ("count sets s of cards in hand where size of s == 2 and (distinct c.rank for c in s) == 1", "1"),
        # Runs of four in 2 3 4 5 5 K: two of them, one with each five.
        (f"count sets s of cards in hand + p1_hand where {RUN.format(k=4)}", "2"),
        (f"count sets s of cards in hand + p1_hand where {RUN.format(k=5)}", "0"),
        # A set is cards: its first card's attribute, a test of one of its cards.
        ("count sets s of cards in hand where any c in s where c.suit == hearts", "4"),
        ("(count sets s of cards in hand where yes) + 1", "8"),
    ],
)
def test_counting_sets_of_cards(tmp_path: Path, expr: str, expected: str) -> None:
    assert said(tmp_path, expr, P1) == expected


def test_fifteens_of_a_cribbage_hand(tmp_path: Path) -> None:
    # 5 5 5 J + a 5 starter: every pair of fives with the jack, and every three fives.
    source = """\
game "Fifteens"
players 2
card value: number
deck:
    4 × card "5": value 5
    card "J": value 10
zone deck: shared, public
setup:
    shuffle deck
phase play:
    action go:
        say "{count sets s of cards in deck where (total c.value for c in s) == 15}"
        end game, draw
"""
    path = tmp_path / "f.game"
    path.write_text(source, encoding="utf-8")
    state = ruledsl.load_game(path).new_initial_state(seed=0, log=True)
    state.apply_action(state.legal_actions()[0])
    assert state.take_log()[-1] == "8"  # 6 pairs of fives with the jack, 4 sets of three fives


def many_cards(tmp_path: Path, where: str) -> ruledsl.GameState:
    """Thirty cards valued 0 to 29, and an action that says how many sets of them meet ``where``."""
    deck = "".join(f'    card "c{i}": value {i}\n' for i in range(30))
    source = f"""\
game "Many"
players 2
card value: number
deck:
{deck}zone deck: shared, public
setup:
    shuffle deck
phase play:
    action go:
        say "{{count sets s of cards in deck where {where}}}"
        end game, draw
"""
    path = tmp_path / "many.game"
    path.write_text(source, encoding="utf-8")
    return ruledsl.load_game(path).new_initial_state(seed=0, log=True)


@pytest.mark.parametrize(
    ("where", "expected"),
    [
        ("size of s == 2 and (total c.value for c in s) == 15", "8"),  # 0 + 15 ... 7 + 8
        ("2 == size of s and (total c.value for c in s) == 15", "8"),
        ("size of s == 3 and (total c.value for c in s) == 3", "1"),  # 0 + 1 + 2
        ("size of s == none", "0"),
        ("size of s == 40", "0"),
    ],
)
def test_the_sets_of_one_size_of_many_cards_are_counted(tmp_path: Path, where: str, expected: str) -> None:
    # 435 pairs of 30 cards, not their 2^30 sets: a condition that opens with the size goes through that size only.
    state = many_cards(tmp_path, where)
    state.apply_action(state.legal_actions()[0])
    assert state.take_log()[-1] == expected


def test_counting_the_sets_of_many_cards_stops_with_a_positioned_r511(tmp_path: Path) -> None:
    state = many_cards(tmp_path, "(total c.value for c in s) == 15")
    with pytest.raises(RuleRuntimeError) as info:
        state.apply_action(state.legal_actions()[0])
    d = info.value.diagnostics[0]
    assert d.code == "R511"
    assert "the sets of 30 cards" in d.message
    assert d.span is not None and d.span.start.line == 40


@pytest.mark.parametrize(
    ("expr", "expected"),
    [
        ("count sets s of cards in 5 where yes", "E301: 'count sets' looks through cards, not a number"),
        ("count sets s of cards in players where yes", "E301: 'count sets' looks through cards, not players"),
        ("count sets s of cards in hand where 3", "E301: expected yes or no, found a number"),
    ],
)
def test_errors_of_counting_sets(tmp_path: Path, expr: str, expected: str) -> None:
    found = errors(tmp_path, expr)
    assert any(e.startswith(expected) for e in found), found


# ---------------------------------------------------------------- set variables that grow

SETS = """\
game "Sets"
players 2
values suit: spades, hearts, clubs
card suit: suit
deck:
    card "a": suit spades
    card "b": suit hearts
zone deck: shared, public
var seen: set of suit = {}
var nums: set of number = {}
player var mine: set of number = {7}
card var marks: set of suit = {}
setup:
    shuffle deck
phase play:
    action go:
BODY
        say "{seen} | {nums} | {player.mine} | {(top of deck).marks}"
        end game, draw
"""


def sets_said(tmp_path: Path, body: str) -> str:
    path = tmp_path / "sets.game"
    path.write_text(SETS.replace("BODY", body), encoding="utf-8")
    state = ruledsl.load_game(path).new_initial_state(seed=0, log=True)
    state.apply_action(state.legal_actions()[0])
    return state.take_log()[-1]


@pytest.mark.parametrize(
    ("body", "expected"),
    [  # an empty set reads "none"
        ("add hearts to seen", "hearts | none | 7 | none"),
        (
            "add hearts to seen\n        add hearts to seen\n        add spades to seen",
            "spades, hearts | none | 7 | none",
        ),
        ("for each c in deck:\n            add c.suit to seen", "spades, hearts | none | 7 | none"),
        ("add {spades, clubs} to seen\n        subtract spades from seen", "clubs | none | 7 | none"),
        ("add 3 to nums\n        add {4, 3} to nums\n        add 1 to player.mine", "none | 3, 4 | 1, 7 | none"),
        (
            "add {1, 2} to nums\n        subtract {2, 9} from nums\n        subtract 7 from player.mine",
            "none | 1 | none | none",
        ),
        ("set seen = {hearts} + {clubs}\n        set nums = {1, 2, 3} - {2}", "hearts, clubs | 1, 3 | 7 | none"),
        ("add clubs to (top of deck).marks", "none | none | 7 | clubs"),
        ("add none to seen", "none | none | 7 | none"),  # a value of none adds nothing
    ],
)
def test_a_set_variable_grows_and_shrinks(tmp_path: Path, body: str, expected: str) -> None:
    assert sets_said(tmp_path, "        " + body) == expected


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("add 3 to seen", "E301: 'add' puts a suit or a set of suit into this set, not a number"),
        ("add {1} to seen", "E301: this set holds suit values, not a number"),
        ("subtract hearts from nums", "E301: 'subtract' takes a number or a set of number from this set, not a suit"),
        ("set seen = seen + 1", "E301: '+' joins a set with a set of the same values, not with a number"),
        ("set seen = seen - nums", "E301: '-' takes a set from a set of the same values, not a set of number"),
    ],
)
def test_errors_of_set_variables(tmp_path: Path, body: str, expected: str) -> None:
    from ruledsl.text.errors import CheckError

    path = tmp_path / "sets.game"
    path.write_text(SETS.replace("BODY", "        " + body), encoding="utf-8")
    with pytest.raises(CheckError) as info:
        ruledsl.load_game(path)
    found = [f"{d.code}: {d.message}" for d in info.value.diagnostics if d.is_error]
    assert any(e.startswith(expected) for e in found), found


def test_a_set_of_numbers_grown_past_the_range_limit_is_r510() -> None:
    from ruledsl.engine import ops
    from ruledsl.engine.limits import MAX_RANGE

    assert ops.set_size(frozenset(range(MAX_RANGE))) == frozenset(range(MAX_RANGE))
    with pytest.raises(ops.TooLarge, match="grew to 100,001 numbers"):
        ops.set_size(frozenset(range(MAX_RANGE + 1)))
