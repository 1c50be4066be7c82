"""Scenario tests of 'must if able' (a phase-wide "must if able": Tichu's wish), on a small shedding game.

While some legal choice of the action meets the condition, only those choices are legal in the
phase: the other actions (pass too) are not. With none, every move is, as without the line. It
holds for groups of cards listed whole and for groups offered card by card.
"""

from __future__ import annotations

import pytest

import ruledsl
from ruledsl.codegen.refusal import why_illegal
from ruledsl.loading import check_source, load_checked
from ruledsl.text.errors import CheckError
from ruledsl.text.source import Source
from ruledsl.tools.scenario import arrange
from tests.scenarios.support import act, labels

_WISH = """game "Wish"

players 2

values suit: spades "S", hearts "H", clubs "C", diamonds "D"
values rank: 2, 3, 4, 5, 6, 7, 8, 9

card rank: rank
card suit: suit

zone deck: shared, hidden
zone pile: shared, public
zone hand: per player, owner

var wish: rank = 5
var wishing = yes

define other(p: player) = first q in players where q != p

deck:
    card "{rank}{suit}" for rank in 2 to 9, suit in spades to diamonds

setup:
    shuffle deck
    deal 4 from deck to each hand

phase play:
    action play(cs: cards of one rank from hand):
        require pile is empty or cs.rank > (top of pile).rank, "you must beat {pile}"
        must if able wishing and cs.rank == wish, "you must play a {wish}: you can"
        label "play {cs}"
        if cs.rank == wish:
            set wishing = no
        move cs to pile
        if hand is empty:
            end game
        go to play with other(player)
    action pass when pile is not empty:
        go to play with other(player)
"""


def dealt(text: str, first: list[str], second: list[str]) -> ruledsl.GameState:
    state = load_checked(check_source(Source("wish.game", text)), 2).new_initial_state(seed=0)
    arrange(state, "hand", first, owner=0)
    arrange(state, "hand", second, owner=1)
    return state


def test_with_the_wished_rank_playable_only_its_plays_are_legal_and_passing_is_not() -> None:
    state = dealt(_WISH, ["3S", "2H", "2C", "9H"], ["5S", "5H", "4H", "8S"])
    act(state, "play 3S")
    assert sorted(labels(state)) == ["play 5H", "play 5S", "play 5S 5H"]
    assert why_illegal(state, "pass") == "you must play a 5: you can"
    assert why_illegal(state, "play 8S") == "you must play a 5: you can"


def test_without_the_wished_rank_every_move_is_legal() -> None:
    state = dealt(_WISH, ["3S", "2H", "2C", "9H"], ["6S", "7H", "4H", "8S"])
    act(state, "play 3S")
    assert sorted(labels(state)) == ["pass", "play 4H", "play 6S", "play 7H", "play 8S"]


def test_a_wished_rank_that_cannot_beat_the_pile_does_not_bind() -> None:
    state = dealt(_WISH, ["7S", "2H", "2C", "9H"], ["5S", "5H", "4H", "8S"])
    act(state, "play 7S")
    assert sorted(labels(state)) == ["pass", "play 8S"]
    assert why_illegal(state, "play 5S") == "you must beat 7S"


def test_once_the_wish_is_met_it_no_longer_binds() -> None:
    state = dealt(_WISH, ["3S", "2H", "2C", "9H"], ["5S", "5H", "4H", "8S"])
    act(state, "play 3S")
    act(state, "play 5S")
    assert sorted(labels(state)) == ["pass", "play 9H"]


_ANY = (
    _WISH.replace("cs: cards of one rank from hand", "cs: cards from hand")
    .replace("cs.rank > (top of pile).rank", "size of pile < 40")
    .replace("cs.rank == wish:", "any c in cs where c.rank == wish:")
    .replace("and cs.rank == wish,", "and (any c in cs where c.rank == wish),")
    .replace("deal 4 from deck", "deal 14 from deck")
)

_FOURTEEN = ["2S", "2H", "2C", "2D", "3S", "3H", "3C", "3D", "4S", "4H", "4C", "4D", "6S", "6H"]
_THIRTEEN = ["7S", "7H", "7C", "7D", "8S", "8H", "8C", "8D", "9S", "9H", "9C", "9D", "6C"]


def test_sets_offered_card_by_card_lead_only_to_sets_meeting_it() -> None:
    # 14 different cards: 16,383 sets, too many to list; the second player holds a 5.
    second = [*_THIRTEEN, "5S"]
    state = dealt(_ANY, _FOURTEEN, second)
    assert labels(state) == ["play: pick the cards"]  # no 5: offered, and no pass (the pile is empty)
    act(state, "play: pick the cards")
    act(state, "pick 2S")
    assert "done" in labels(state)
    act(state, "done")
    assert labels(state) == ["play: pick the cards"]  # the 5 binds: passing is not legal
    assert why_illegal(state, "pass") == "you must play a 5: you can"
    act(state, "play: pick the cards")
    act(state, "pick 7S")
    offered = labels(state)
    assert "done" not in offered  # 7S alone holds no 5
    assert "pick 5S" in offered and "pick 8H" in offered  # an 8 may still go with the 5
    act(state, "pick 5S")
    assert "done" in labels(state)
    act(state, "done")
    assert state.describe_last(None) == "play 5S 7S"


def test_a_set_offered_card_by_card_without_the_rank_lets_him_pass() -> None:
    state = dealt(_ANY, _FOURTEEN, [*_THIRTEEN, "6D"])
    act(state, "play: pick the cards")
    act(state, "pick 2S")
    act(state, "done")
    assert labels(state) == ["play: pick the cards", "pass"]


def test_the_rule_reads_back_as_written() -> None:
    from ruledsl.format.unparse import unparse
    from ruledsl.syntax.parser import parse

    text = unparse(parse(_WISH))
    assert 'must if able wishing and cs.rank == wish, "you must play a {wish}: you can"' in text
    assert unparse(parse(text)) == text


_ONE = _WISH.replace("cs: cards of one rank from hand", "cs: card from hand")


@pytest.mark.parametrize(
    ("old", "new"),
    [
        # an 'otherwise' action is listed only when nothing else is: it cannot bind the others
        ("action pass when pile is not empty:", 'action pass otherwise:\n        must if able yes, "x"'),
        # with 'require if able' on the same action, which binds first would be unclear
        ("must if able", 'require if able cs.rank > 2, "low"\n        must if able'),
        # the reason is also that of a refused pass, where nothing is chosen
        ('"you must play a {wish}: you can"', '"you must play {cs}"'),
        # a window has no other actions of the phase to bind
        ("phase play:", "window bomb for players:\n    offer play from play\n\nphase play:"),
        ("phase play:", 'window bomb for players:\n    action b:\n        must if able yes, "x"\n\nphase play:'),
    ],
)
def test_misplaced_must_is_refused(old: str, new: str) -> None:
    assert old in _ONE
    with pytest.raises(CheckError) as found:
        check_source(Source("wish.game", _ONE.replace(old, new)))
    assert "E412" in [d.code for d in found.value.diagnostics]
