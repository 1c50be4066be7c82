"""A game's setup is made once, not at every new initial state: OpenSpiel makes one at every
``observation_tensor`` call (to work out the tensor's size), and at every clone."""

from __future__ import annotations

import random

import pyspiel
import pytest

import ruledsl.openspiel  # noqa: F401  (registers "ruledsl")
from ruledsl.spaces import Spaces


@pytest.mark.parametrize("name", ["crazy_eights", "kuhn_poker"])
def test_reading_tensors_and_cloning_deal_no_setup_again(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    game = pyspiel.load_game("ruledsl", {"game": name, "players": 2})
    state, rng = game.new_initial_state(), random.Random(1)
    for _ in range(12):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    made: list[int] = []
    new_play = Spaces.new_play
    monkeypatch.setattr(Spaces, "new_play", lambda *a, **k: made.append(1) or new_play(*a, **k))
    before = state.observation_tensor(0)
    for _ in range(5):
        assert state.observation_tensor(0) == before
        assert state.clone().observation_tensor(0) == before
        assert game.new_initial_state().history() == []
    assert made == []


def test_a_new_state_is_the_setup_as_ever() -> None:
    """Shared setups are not changed by the plays that start from them."""
    game = pyspiel.load_game("ruledsl", {"game": "crazy_eights", "players": 2})
    first = game.new_initial_state()
    outcomes, text = first.chance_outcomes(), str(first)
    rng = random.Random(2)
    while not first.is_terminal():
        first.apply_action(rng.choice(first.legal_actions()))
    again = game.new_initial_state()
    assert again.chance_outcomes() == outcomes and str(again) == text
