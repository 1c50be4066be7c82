"""A window offered to one seat is invisible to the others: they read the state as if none were offered."""

from __future__ import annotations

import random

import pytest

import ruledsl
from ruledsl.engine.state import GameState
from tests.scenarios.test_cartes_magiques import A, B, C, D, position

#: Moves the turn player might type, legal and not (the refusals must read alike too).
TRIES = ["play J♠", "play J♠ J♦", "play Q♠", "play 4♠", "draw", "let it pass", "cut in with 9♥", "fly away"]


def all_passed(state: GameState) -> GameState:
    """The state after every seat offered the open windows lets them pass: where play goes on
    as it would have, had nobody been offered them."""
    after = state.clone()
    while after.windows is not None:
        (skip,) = [a for a in after.legal_actions() if a.defn.is_pass]
        after.apply_action(skip)
    return after


def cut_offered_to_c() -> GameState:
    """CM-T24's position: A plays 9♥; B is next; only C holds 9♥ and is offered the cut."""
    state = position(
        ["5♣"],
        {A: ["9♥", "4♠", "K♣", "Q♣"], B: ["J♠", "J♦", "Q♠"], C: ["9♥", "4♥", "5♥"], D: ["A♠", "A♦", "K♦"]},
        players=4,
        deck_top=["J♣"],
    )
    state.apply_action(state.action_from_string("play 9♥"))
    assert state.current_player() == C and state.windows is not None
    return state


def test_the_turn_player_sees_his_turn_as_if_no_cut_were_offered() -> None:
    state = cut_offered_to_c()
    state.legal_actions()  # listed for C, as play does before asking him: never shown to the others
    without = all_passed(state)
    seen = state.observation(B)
    assert seen == without.observation(B)
    assert seen["current_player"] == B and seen["window"] is None
    assert "play J♠ J♦" in seen["legal_actions"]


@pytest.mark.parametrize("move", TRIES)
def test_refusals_read_as_if_no_cut_were_offered(move: str) -> None:
    state = cut_offered_to_c()
    without = all_passed(state)
    for seat in (A, B, D):
        assert state.why_illegal(move, player=seat) == without.why_illegal(move, player=seat), seat
    assert state.why_illegal("play J♠", player=B) is None  # as it would be: his turn, his card
    assert state.why_illegal("play J♠", player=B) != "it is not your turn yet"


def test_the_seat_offered_the_window_sees_it() -> None:
    state = cut_offered_to_c()
    assert state.observation(C)["window"] == {"name": "cut", "player": C}
    assert state.observation(C)["legal_actions"] == ["cut in with 9♥", "let it pass"]


@pytest.mark.parametrize("seed", range(6))
def test_over_random_play_no_seat_but_the_one_offered_can_tell(seed: int) -> None:
    """Property: wherever a window is open, each seat but the one it is offered to reads the
    same view and the same refusals as in the state where every offered seat let it pass."""
    game = ruledsl.load_game("cartes_magiques", players=4)
    rng = random.Random(seed)
    state = game.new_initial_state(seed=seed)
    windows = 0
    while not state.is_terminal() and state.n_actions < 600:
        if state.windows is not None:
            windows += 1
            if seed % 2:
                state.legal_actions()  # listed for the player offered the window, or not yet
            without = all_passed(state)
            for seat in range(4):
                if seat == state.current_player():
                    continue
                assert state.observation(seat) == without.observation(seat)
                moves = [str(a) for a in without.legal_actions()[:5]] + ["let it pass", "draw"]
                for move in moves:
                    assert state.why_illegal(move, player=seat) == without.why_illegal(move, player=seat)
        state.apply_action(rng.choice(state.legal_actions()))
    assert windows or seed  # the first seed at least meets windows (the test is not empty)
