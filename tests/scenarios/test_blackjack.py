"""Scenario tests of Blackjack (games/examples/blackjack.game), on a shoe stacked by hand.

Its two hardest rules: totals with an Ace counted 1 or 11 (soft), for the player and for the
dealer, who hits a soft 16 and stands on every 17; and a pair split into two hands, each
played and paid on its own bet.
"""

from __future__ import annotations

import ruledsl
from ruledsl.tools.scenario import cards_in, get_var, stack_top
from tests.scenarios.support import act, labels


def dealt(shoe: list[str], bet: str = "bet 10") -> ruledsl.GameState:
    """One player's game whose shoe starts with these cards, the first on top, once he bet.

    The deal gives the player the first and third, the dealer the second (face up) and the
    fourth (his hole card, face down)."""
    state = ruledsl.load_game("blackjack").new_initial_state(seed=0, log=True)
    stack_top(state, "shoe", shoe)
    act(state, bet)
    return state


def test_an_ace_counts_eleven_until_it_would_bust_and_the_dealer_hits_soft_16() -> None:
    # player A♠ 6♥ (soft 17); dealer A♦ 5♦ (soft 16): he must hit
    state = dealt(["A♠", "A♦", "6♥", "5♦", "9♣", "K♠", "2♠"])
    assert "stand on 17" in labels(state)
    act(state, "hit")  # the 9: the Ace counts 1 now, a hard 16
    assert cards_in(state, "hand", owner=0) == ["A♠", "6♥", "9♣"]
    assert "stand on 16" in labels(state)
    act(state, "stand on 16")
    # soft 16 hits: the King makes a hard 16, which hits again: the 2 makes 18, and he stands
    assert cards_in(state, "dealer") == []  # paid and gathered
    assert cards_in(state, "discard")[-3:] == ["5♦", "K♠", "2♠"]
    assert get_var(state, "bankroll", owner=0) == 190  # 16 against 18: the bet is lost
    log = state.take_log()
    assert "the dealer stands with 18" in log


def test_the_dealer_stands_on_a_soft_17() -> None:
    # player 10♠ 9♥ (19); dealer 6♦ A♦ (soft 17): he stands, and 19 wins
    state = dealt(["10♠", "6♦", "9♥", "A♦", "2♣"])
    act(state, "stand on 19")
    assert "the dealer stands with 17" in state.take_log()
    assert cards_in(state, "shoe")[-1] == "2♣"  # not drawn
    assert get_var(state, "bankroll", owner=0) == 210


def test_a_split_pair_makes_two_hands_each_played_and_paid_on_its_own_bet() -> None:
    # player 8♠ 8♥; dealer 10♦ 7♣ (17); the split gives 3♦ to the first hand, K♣ to the second
    state = dealt(["8♠", "10♦", "8♥", "7♣", "3♦", "K♣", "10♠"])
    assert "split the 8s" in labels(state)
    act(state, "split the 8s")
    assert cards_in(state, "hand", owner=0) == ["8♠", "3♦"]
    assert cards_in(state, "split_hand", owner=0) == ["8♥", "K♣"]
    assert get_var(state, "bankroll", owner=0) == 180  # the second hand's bet
    assert "split the 8s" not in labels(state)  # once
    act(state, "double 10")  # the first hand: 11, doubled, draws the 10 to 21
    assert state.current_player() == 0 and "stand on 18" in labels(state)  # now the split hand
    act(state, "stand on 18")
    log = state.take_log()
    assert "P0 wins 20" in log and "P0 wins 10" in log  # 21 and 18 against 17
    assert get_var(state, "bankroll", owner=0) == 170 + 2 * 20 + 2 * 10
    assert cards_in(state, "split_hand", owner=0) == []


def test_a_blackjack_pays_three_to_two() -> None:
    state = dealt(["A♠", "9♦", "K♥", "7♣"], bet="bet 20")
    act(state, "stand on 21")
    assert get_var(state, "bankroll", owner=0) == 180 + 20 + 30
