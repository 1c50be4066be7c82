"""Scenario tests of 'require if able' (must follow suit if you can), on a small trick game.

While some card in the hand follows the suit led, only those are legal; with none, every card
is; a card that does not follow is refused with the rule's reason.
"""

from __future__ import annotations

import ruledsl
from ruledsl.codegen.refusal import why_illegal
from ruledsl.loading import check_source, load_checked
from ruledsl.text.source import Source
from ruledsl.tools.scenario import arrange
from tests.scenarios.support import labels

_FOLLOW = """game "Follow"

players 2

values suit: spades "S", hearts "H"
values rank: 2, 3, 4, 5, 6, 7, 8, 9

card rank: rank
card suit: suit

zone deck: shared, hidden
zone table: shared, public
zone hand: per player, owner

deck:
    card "{rank}{suit}" for rank in 2 to 9, suit in spades to hearts

setup:
    shuffle deck
    deal 3 from deck to each hand

phase play:
    action lay(c: card from hand):
        require if able table is empty or c.suit == (top of table).suit, "you must follow suit: you have one"
        move c to table
        if size of table == 6:
            end game
"""


def dealt(first: list[str], second: list[str]) -> ruledsl.GameState:
    state = load_checked(check_source(Source("follow.game", _FOLLOW)), 2).new_initial_state(seed=0)
    arrange(state, "hand", first, owner=0)
    arrange(state, "hand", second, owner=1)
    return state


def test_with_a_card_of_the_suit_led_only_those_are_legal() -> None:
    state = dealt(["5S", "2H", "3H"], ["7S", "4H", "8S"])
    state.apply_action(state.action_from_string("lay 5S"))
    assert sorted(labels(state)) == ["lay 7S", "lay 8S"]
    assert state.has_legal_action()


def test_without_a_card_of_the_suit_led_every_card_is_legal() -> None:
    state = dealt(["5S", "2S", "3H"], ["7H", "4H", "8H"])
    state.apply_action(state.action_from_string("lay 5S"))
    assert sorted(labels(state)) == ["lay 4H", "lay 7H", "lay 8H"]


def test_leading_is_free() -> None:
    state = dealt(["5S", "2H", "3H"], ["7S", "4H", "8S"])
    assert sorted(labels(state)) == ["lay 2H", "lay 3H", "lay 5S"]


def test_a_card_that_does_not_follow_is_refused_with_the_reason() -> None:
    state = dealt(["5S", "2H", "3H"], ["7S", "4H", "8S"])
    state.apply_action(state.action_from_string("lay 5S"))
    assert why_illegal(state, "lay 4H") == "you must follow suit: you have one"


def test_the_rule_reads_back_as_written() -> None:
    from ruledsl.format.unparse import unparse
    from ruledsl.syntax.parser import parse

    text = unparse(parse(_FOLLOW))
    assert "require if able (" in text  # too long for one line: the condition is broken at its or
    assert unparse(parse(text)) == text
