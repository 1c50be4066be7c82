"""Scenario tests of Uno (games/examples/uno.game), on positions set by hand.

Seat 0 deals, so seat 1 plays first; each test sets the hands, the top of the discard
pile and the colour to play, then gives the turn to the player it is about.
"""

from __future__ import annotations

import ruledsl
from ruledsl.tools.scenario import arrange, get_var, give_turn, set_var, stack_top
from tests.scenarios.support import act, hand, labels

WD4_REFUSED = "you hold a card of the colour to play (red): Wild Draw Four may be played only without one"


def position(
    players: int, hands: dict[int, list[str]], top: str, colour: str, turn: int = 0, single_hand: bool = True
) -> ruledsl.GameState:
    options = {"single_hand": single_hand}
    state = ruledsl.load_game("uno", players=players, options=options).new_initial_state(seed=0)
    arrange(state, "discard", [top])
    set_var(state, "current", colour)
    for seat, cards in hands.items():
        arrange(state, "hand", cards, owner=seat)
    give_turn(state, turn, phase="play", direction=1)
    return state


def test_wild_draw_four_is_refused_to_a_player_holding_the_colour_to_play() -> None:
    state = position(2, {0: ["Wild Draw Four", "red 3", "blue 7"], 1: ["green 2"]}, top="red 5", colour="red")
    assert not any(a.startswith("play Wild Draw Four") for a in labels(state))
    assert state.why_illegal("play Wild Draw Four, naming blue") == WD4_REFUSED
    # a number that matches is no card of the colour: blue 5 on red 5 leaves Wild Draw Four legal
    state = position(2, {0: ["Wild Draw Four", "blue 5", "blue 7"], 1: ["green 2"]}, top="red 5", colour="red")
    assert "play blue 5" in labels(state)
    assert state.why_illegal("play Wild Draw Four, naming blue") is None


def test_wild_draw_four_makes_the_next_player_draw_four_and_lose_his_turn() -> None:
    state = position(3, {0: ["Wild Draw Four", "blue 7"], 1: ["green 2"], 2: ["yellow 1"]}, top="red 5", colour="red")
    act(state, "play Wild Draw Four, naming blue")
    assert len(hand(state, 1)) == 5
    assert state.current_player() == 2
    assert get_var(state, "current") == 3  # blue, the fourth colour


def test_the_colour_a_wild_names_is_the_one_to_match() -> None:
    state = position(2, {0: ["Wild", "blue 7"], 1: ["green 2", "green 9", "red 9"]}, top="red 5", colour="red")
    act(state, "play Wild, naming green")
    assert state.current_player() == 1
    assert "play green 2" in labels(state)
    assert "play red 9" not in labels(state)


def test_with_two_players_reverse_acts_as_skip() -> None:
    state = position(2, {0: ["red Reverse", "blue 7", "red 1"], 1: ["green 2", "green 3"]}, top="red 5", colour="red")
    act(state, "play red Reverse")
    assert state.current_player() == 0  # the other player is skipped: the same plays again
    act(state, "play red 1")
    assert state.current_player() == 1


def test_with_three_players_reverse_changes_the_direction_of_play() -> None:
    state = position(
        3, {0: ["red Reverse", "blue 7"], 1: ["green 2"], 2: ["red 2", "red 3"]}, top="red 5", colour="red"
    )
    act(state, "play red Reverse")
    assert state.current_player() == 2  # to the right now
    act(state, "play red 2")
    assert state.current_player() == 1  # and on to the right


def test_a_drawn_card_that_can_be_played_may_be_played_at_once_or_kept() -> None:
    state = position(2, {0: ["blue 7", "blue 8"], 1: ["green 2", "green 3"]}, top="red 5", colour="red")
    stack_top(state, "deck", ["red 9"])
    act(state, "draw a card")
    assert state.current_player() == 0
    assert labels(state) == ["play red 9", "keep the card drawn"]
    act(state, "play red 9")
    assert state.current_player() == 1


def test_the_winner_scores_the_cards_left_in_the_others_hands() -> None:
    hands = {0: ["red 1"], 1: ["green 7", "blue Skip"], 2: ["Wild", "yellow 0"]}
    state = position(3, hands, top="red 5", colour="red", single_hand=False)
    act(state, "play red 1")
    assert get_var(state, "score") == [77, 0, 0]  # 7 + 20 + 50 + 0
    assert [len(hand(state, p)) for p in range(3)] == [7, 7, 7]  # the next hand is dealt


def test_by_default_the_first_hand_wins_the_game() -> None:
    state = position(3, {0: ["red 1"], 1: ["green 7"], 2: ["Wild"]}, top="red 5", colour="red")
    act(state, "play red 1")
    assert state.is_terminal()
    assert state.returns() == [1.0, -1.0, -1.0]
