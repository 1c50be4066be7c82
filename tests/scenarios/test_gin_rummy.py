"""Scenario tests of Gin Rummy (games/examples/gin_rummy.game), on deals set by hand.

Seat 1 deals, so seat 0 draws first. Each test sets both hands (in the order the cards
are listed, so that a meld's label lists them so) and the top of the stock, then plays
the knock and its answer through the players' own choices of melds.
"""

from __future__ import annotations

import ruledsl
from ruledsl.tools.scenario import arrange, cards_in, get_var, stack_top
from tests.scenarios.support import act, labels


def dealt(hand0: str, hand1: str, stock_top: str) -> ruledsl.GameState:
    state = ruledsl.load_game("gin_rummy").new_initial_state(seed=0)
    arrange(state, "discard", ["K♦"])
    arrange(state, "hand", hand0.split(), owner=0)
    arrange(state, "hand", hand1.split(), owner=1)
    stack_top(state, "stock", [stock_top])
    return state


OTHER = "2♠ 4♠ 6♠ 8♠ 10♣ Q♣ 2♥ 10♥ J♥ Q♥"  # no two cards meld together: 72 of deadwood


def test_the_deadwood_is_what_the_declared_melds_leave() -> None:
    state = dealt("4♥ 5♥ 6♥ 7♥ 7♠ 7♦ 9♠ 9♦ 9♣ A♣", OTHER, stock_top="2♣")
    act(state, "draw from the stock")
    act(state, "knock: lay out your melds")
    # the 7♥ ends the run or makes the set: declaring the long run leaves 7♠ 7♦ as deadwood
    act(state, "lay out the run of 4 from 4♥")
    assert not any(a.startswith("lay out the set 7") for a in labels(state))
    act(state, "lay out the set 9♠ 9♦ 9♣")
    assert state.why_illegal("discard A♣ and spread your deadwood") == (
        "after discarding A♣ your deadwood would be more than 10"
    )
    act(state, "discard 7♠ and spread your deadwood")
    assert cards_in(state, "deadwood", owner=0) == ["7♦", "A♣", "2♣"]


def test_declaring_the_set_instead_leaves_less_deadwood() -> None:
    state = dealt("4♥ 5♥ 6♥ 7♥ 7♠ 7♦ 9♠ 9♦ 9♣ A♣", OTHER, stock_top="2♣")
    act(state, "draw from the stock")
    act(state, "knock: lay out your melds")
    act(state, "lay out the set 7♠ 7♥ 7♦")
    assert "lay out the run of 3 from 4♥" in labels(state)
    assert "lay out the run of 4 from 4♥" not in labels(state)
    act(state, "lay out the run of 3 from 4♥")
    act(state, "lay out the set 9♠ 9♦ 9♣")
    act(state, "discard 2♣ and spread your deadwood")
    assert cards_in(state, "deadwood", owner=0) == ["A♣"]
    act(state, "spread your deadwood")  # the opponent has nothing to meld or lay off
    assert get_var(state, "score") == [72 - 1, 0]


def test_a_knocker_whose_melds_leave_too_much_takes_the_knock_back() -> None:
    state = dealt("4♥ 5♥ 6♥ 7♥ 7♠ 7♦ 9♠ 9♦ 9♣ A♣", OTHER, stock_top="K♣")
    act(state, "draw from the stock")
    act(state, "knock: lay out your melds")
    act(state, "lay out the run of 4 from 4♥")
    act(state, "lay out the set 9♠ 9♦ 9♣")
    assert labels(state) == ["take the knock back"]  # 7♠ 7♦ A♣ K♣: no discard leaves 10
    act(state, "take the knock back")
    assert len(cards_in(state, "hand", owner=0)) == 11
    assert "knock: lay out your melds" not in labels(state)
    act(state, "discard K♣")
    assert state.current_player() == 1


KNOCKER = "4♥ 5♥ 6♥ 9♠ 9♦ 9♣ J♠ Q♠ K♠ 8♦"  # with A♣ drawn and discarded: 8 of deadwood
DEFENDER = "7♥ 8♥ 9♥ 2♦ 3♦ 4♦ 5♠ 5♦ 5♣ 3♠"


def knock_with_eight(state: ruledsl.GameState) -> None:
    act(state, "draw from the stock")
    act(state, "knock: lay out your melds")
    act(state, "lay out the run of 3 from 4♥")
    act(state, "lay out the set 9♠ 9♦ 9♣")
    act(state, "lay out the run of 3 from J♠")
    act(state, "discard A♣ and spread your deadwood")


def test_the_opponent_lays_off_on_the_knockers_melds_and_undercuts() -> None:
    state = dealt(KNOCKER, DEFENDER, stock_top="A♣")
    knock_with_eight(state)
    assert state.current_player() == 1
    assert "lay off 8♥ on 6♥" not in labels(state)  # a run grows one card at a time
    act(state, "lay off 7♥ on 6♥")
    act(state, "lay off 8♥ on 7♥")
    act(state, "lay off 9♥ on 9♠")  # the fourth 9: the set takes it
    act(state, "lay out the run of 3 from 2♦")
    act(state, "lay out the set 5♠ 5♦ 5♣")
    act(state, "spread your deadwood")
    # 3 against 8: the opponent undercuts, and scores the difference and 25
    assert get_var(state, "score") == [0, 25 + 8 - 3]
    assert get_var(state, "hands_won") == [0, 1]
    assert get_var(state, "dealer") == 0  # the loser deals the next hand


def test_nothing_is_laid_off_on_gin() -> None:
    state = dealt("4♥ 5♥ 6♥ 9♠ 9♦ 9♣ J♠ Q♠ K♠ 7♥", DEFENDER.replace("7♥", "10♠"), stock_top="A♣")
    act(state, "draw from the stock")
    act(state, "knock: lay out your melds")
    act(state, "lay out the run of 4 from 4♥")
    act(state, "lay out the set 9♠ 9♦ 9♣")
    act(state, "lay out the run of 3 from J♠")
    act(state, "discard A♣ and spread your deadwood")
    assert get_var(state, "gin") is True
    assert not any(a.startswith("lay off") for a in labels(state))
    act(state, "lay out the run of 3 from 2♦")
    act(state, "lay out the set 5♠ 5♦ 5♣")
    act(state, "spread your deadwood")  # 8♥ 9♥ 10♠ 3♠: 30
    assert get_var(state, "score") == [25 + 30, 0]


def test_a_discard_leaving_two_cards_in_the_stock_voids_the_hand() -> None:
    state = dealt(KNOCKER, DEFENDER, stock_top="A♣")
    arrange(state, "stock", ["2♣", "3♣", "A♣"], rest="discard")
    act(state, "draw from the stock")
    act(state, "discard A♣")
    assert get_var(state, "score") == [0, 0]
    assert state.observation(0)["round"] == 2
    assert len(cards_in(state, "stock")) == 52 - 21  # dealt anew
    assert get_var(state, "dealer") == 1  # by the same dealer
    assert state.current_player() == 0
