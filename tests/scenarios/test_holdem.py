"""Scenario tests of Texas Hold'em (games/examples/holdem.game): side pots, and hands told apart by kickers.

With three players the first hand is dealt by seat 1: seat 2 posts the small blind (1),
seat 0 the big blind (2) and seat 1 acts first. With two, seat 1 deals and posts the small
blind, and acts first. The deal is then set by hand: the hole cards, and the top of the
deck (burn, flop, burn, turn, burn, river).
"""

from __future__ import annotations

import ruledsl
from ruledsl.tools.scenario import arrange, get_var, set_var, stack_top
from tests.scenarios.support import act


def dealt(players: int, holes: dict[int, str], board: str) -> ruledsl.GameState:
    state = ruledsl.load_game("holdem", players=players).new_initial_state(seed=0, log=True)
    for seat, cards in holes.items():
        arrange(state, "hand", cards.split(), owner=seat)
    flop, turn, river = board.split()[:3], board.split()[3], board.split()[4]
    stack_top(state, "deck", ["5♦", *flop, "6♦", turn, "8♦", river])  # burnt: 5♦, 6♦, 8♦
    state.take_log()
    return state


def chips(state: ruledsl.GameState) -> list[int]:
    return [get_var(state, "chips", owner=p) for p in range(3)]


def test_side_pots_are_won_level_by_level() -> None:
    # Seat 1 holds aces but has 3 chips; seat 0 kings with 7 in all; seat 2 queens, with most.
    board = "2♣ 7♦ 9♠ J♥ 4♣"
    state = dealt(3, {0: "K♠ K♥", 1: "A♠ A♥", 2: "Q♠ Q♥"}, board)
    set_var(state, "chips", 3, owner=1)
    set_var(state, "chips", 5, owner=0)  # and 2 in the big blind
    set_var(state, "chips", 20, owner=2)  # and 1 in the small blind
    before = sum(chips(state)) + get_var(state, "pot")
    act(state, "call")  # seat 1: 2, one chip left
    act(state, "raise")  # seat 2: to 4
    act(state, "raise")  # seat 0: to 6, one chip left
    act(state, "call")  # seat 1: all in with his last chip, 3 in the pot
    act(state, "call")  # seat 2: 6
    # The flop: seat 0 and seat 2 can still bet; seat 2 is first after the dealer (seat 1).
    assert state.current_player() == 2
    act(state, "bet")  # seat 2: 2
    act(state, "call")  # seat 0: all in with 1, 7 in the pot
    # Seat 2 alone can bet now: the turn and the river are dealt at once, then the showdown.
    log = state.take_log()
    assert "P1 shows A♠ A♥: a pair" in log
    # The main pot, 3 from each: seat 1's aces. The first side pot, 4 each from seats 0 and 2:
    # seat 0's kings. Seat 2's chip that nobody matched comes back to him.
    assert log[-4:-1] == ["P1 wins 9", "P0 wins 8", "P2 wins 1"]
    assert log[-1].startswith("hand 2:")
    assert get_var(state, "put", owner=2) == 0  # a new hand has begun
    assert sum(chips(state)) + get_var(state, "pot") == before


def test_a_pair_of_aces_is_decided_by_the_kickers() -> None:
    # Both hold an ace with the board's ace: the king kicks the queen; the board's 9 7 4 fill both.
    state = dealt(2, {0: "A♠ K♦", 1: "A♥ Q♦"}, "A♣ 9♦ 7♠ 4♥ 2♣")
    act(state, "call")  # seat 1, the small blind; then both check to the river
    while get_var(state, "hand_no") == 1:
        act(state, "check")
    log = state.take_log()
    assert "P0 shows A♠ K♦: a pair" in log and "P1 shows A♥ Q♦: a pair" in log
    assert "P0 wins 4" in log


def test_two_hands_that_play_the_board_share_the_pot() -> None:
    # The board is a straight, ten to ace, that no hole card improves: the pot is shared.
    state = dealt(2, {0: "2♠ 3♥", 1: "2♥ 4♦"}, "10♣ J♦ Q♠ K♥ A♣")
    act(state, "call")
    while get_var(state, "hand_no") == 1:
        act(state, "check")
    log = state.take_log()
    assert "P0 shows 2♠ 3♥: a straight" in log
    assert "P0, P1 share 4" in log
