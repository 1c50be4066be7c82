"""Refusal reasons come from what the seat knows: swapping cards hidden from him never changes his reason."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import ruledsl
from ruledsl.engine.reading import NO_REASON
from ruledsl.tools.leaks import twins

JOKER = Path(__file__).with_name("joker.game")


def test_swapping_hidden_cards_never_changes_a_reason() -> None:
    game = ruledsl.load_game(str(JOKER))
    compared = given = 0
    for seed in range(60):
        state = game.new_initial_state(seed=seed, track=True)
        rng = random.Random(seed)
        for _ in range(3):
            p = state.current_player()
            reason = state.why_illegal("show")
            given += reason != NO_REASON
            for twin, _cards in twins(state, p, rng, 6):
                compared += 1
                assert twin.why_illegal("show") == reason, seed
            state.apply_action(state.action_from_string("draw"))
    assert compared > 500 and given  # the reason is told where he sees the Joker


def test_a_reason_he_can_know_is_told() -> None:
    """He holds the Joker: it is in no deal of the deck, and he is told so."""
    game = ruledsl.load_game(str(JOKER))
    for seed in range(40):
        state = game.new_initial_state(seed=seed, track=True)
        if "0" in state.observation(0)["zones"]["hand"][0]["cards"]:
            assert state.why_illegal("show") == "the Joker has not come out yet"
            return
    pytest.fail("no deal gave P0 the Joker")


def test_a_reason_that_hangs_on_a_hidden_card_is_withheld() -> None:
    game = ruledsl.load_game(str(JOKER))
    for seed in range(40):
        state = game.new_initial_state(seed=seed, track=True)
        if "0" not in state.observation(0)["zones"]["hand"][0]["cards"]:
            assert state.why_illegal("show") == NO_REASON
            return
    pytest.fail("every deal gave P0 the Joker")
