"""`the x in X with highest|lowest KEY [where C]`: the element itself, as a trick's winner or a best player."""

from __future__ import annotations

from pathlib import Path

import pytest

import ruledsl
from ruledsl.engine.state import GameState
from ruledsl.text.errors import CheckError

# The deck is dealt unshuffled from its top (the last card listed): P0 holds 3s 5h 5s (in that
# order), P1 2h 4s Ks, and the trick the joker, which has no rank: a key that is none is passed over.
TRICK = """\
game "Trick"
players 2
values rank: 2, 3, 4, 5, K
values suit: spades, hearts
card rank: rank
card suit: suit
deck:
    card "joker"
    card "Ks": rank K, suit spades
    card "5s": rank 5, suit spades
    card "4s": rank 4, suit spades
    card "5h": rank 5, suit hearts
    card "2h": rank 2, suit hearts
    card "3s": rank 3, suit spades
zone deck: shared, public
zone hand: per player, public
zone trick: shared, public
setup:
    deal 3 from deck to each hand
    move all of deck to trick
phase play:
    action show:
        say "{SHOWN}"
        end game, draw
"""


def said(tmp_path: Path, expr: str, rules: str = TRICK) -> str:
    """What the rules say about ``expr``, in the log everybody reads."""
    path = tmp_path / "trick.game"
    path.write_text(rules.replace("SHOWN", expr), encoding="utf-8")
    state: GameState = ruledsl.load_game(path, players=2).new_initial_state(seed=0, log=True)
    state.apply_action(state.legal_actions()[0])
    return state.take_log()[-1]


@pytest.mark.parametrize(
    ("expr", "expected"),
    [
        ("the c in hand with highest c.rank", "5h"),  # 5h and 5s tie: the first in the hand's order
        ("the c in hand with highest c.rank where c.suit == spades", "5s"),
        ("the c in hand with lowest c.rank", "3s"),
        ("the c in hand with lowest c.rank where c.suit == hearts", "5h"),
        ("the c in p1_hand with highest c.rank", "Ks"),
        ("the c in trick with lowest c.rank", "none"),  # the joker alone, rank none: passed over
        ("the c in hand with highest c.rank where c.rank > K", "none"),  # nothing qualifies
        ("the p in players with highest size of p.hand", "P0"),  # a tie: the first seat
        ("the p in players with lowest (the c in p.hand with highest c.rank).rank", "P0"),  # 5 < K
        ("the n in (1 to 5) with highest n % 3", "2"),
    ],
)
def test_the_element_with_the_highest_or_lowest_key(tmp_path: Path, expr: str, expected: str) -> None:
    assert said(tmp_path, expr.replace("p1_hand", "(seat 1).hand")) == expected


@pytest.mark.parametrize(
    ("expr", "expected"),
    [
        ("the c in hand with highest c.suit where c.suit == spades", "3s"),  # one key: a tie, the first
        ("the c in hand with highest (c.suit, c.rank) where c.suit == spades", "5s"),  # the rank breaks it
        ("the c in hand with highest (c.suit, c.rank)", "5h"),  # hearts come after spades
        ("the c in hand with lowest (c.suit, c.rank)", "3s"),
        ("the c in hand with highest (c.rank, 0)", "5h"),  # whole tuples tied: the first in the hand
        ("the p in players with highest (size of p.hand, 1)", "P0"),
        # The joker has no rank: a tuple holding none is passed over, as a key that is none.
        ("the c in trick + hand with lowest (c.rank, 0)", "3s"),
        ("the c in trick + hand with highest (0, c.rank)", "5h"),
        ("the c in trick with lowest (c.rank, 0)", "none"),
    ],
)
def test_a_tuple_key_compares_item_by_item(tmp_path: Path, expr: str, expected: str) -> None:
    assert said(tmp_path, expr) == expected


@pytest.mark.parametrize(
    ("expr", "expected"),
    [
        ("(1, 2) < (1, 3)", "yes"),
        ("((top of trick).rank, 1) < (2, 1)", "no"),  # the joker's rank is none: false, as none < 2 is
        ("((top of trick).rank, 1) >= (2, 1)", "no"),
        ("(2, 1) > ((top of trick).rank, 1)", "no"),
    ],
)
def test_an_order_comparison_of_tuples_holding_none_is_false(tmp_path: Path, expr: str, expected: str) -> None:
    assert said(tmp_path, expr) == expected


def test_a_tuple_key_holds_numbers_or_values(tmp_path: Path) -> None:
    found = check_error(tmp_path, "define best = the c in hand with highest (c.rank, c)")
    assert "E301: a tuple holds numbers or values, not a card" in found


def test_a_card_it_finds_in_a_hand_only_its_owner_sees_stays_hidden(tmp_path: Path) -> None:
    expr = "the c in (seat 1).hand with highest c.rank"
    assert said(tmp_path, expr) == "Ks"
    owner = TRICK.replace("zone hand: per player, public", "zone hand: per player, owner")
    assert said(tmp_path, expr, owner) == "a hidden card"


def check_error(tmp_path: Path, define: str) -> str:
    path = tmp_path / "bad.game"
    path.write_text(TRICK.replace("SHOWN", "x") + define + "\n", encoding="utf-8")
    with pytest.raises(CheckError) as info:
        ruledsl.load_game(path, players=2)
    return "\n".join(f"{d.code}: {d.message}" for d in info.value.diagnostics)


def test_the_key_must_be_ordered(tmp_path: Path) -> None:
    found = check_error(tmp_path, "define best = the p in players with highest p.hand")
    assert "E301: 'with highest' compares numbers, ordered values or tuples, not a zone" in found


def test_the_condition_must_be_a_flag(tmp_path: Path) -> None:
    found = check_error(tmp_path, "define best = the c in hand with lowest c.rank where c.suit")
    assert "E301" in found


def test_the_name_it_binds_is_not_seen_outside(tmp_path: Path) -> None:
    found = check_error(
        tmp_path, "define best = the c in hand with lowest c.rank where c.suit == spades\ndefine worse = c.rank"
    )
    assert "E201" in found


def test_the_is_a_keyword(tmp_path: Path) -> None:
    found = check_error(tmp_path, "var the = 1")
    assert "E106: 'the' is a keyword of the language and cannot be used as a name" in found
