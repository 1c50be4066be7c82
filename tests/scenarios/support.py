"""Helpers shared by the scenario tests of every game."""

from __future__ import annotations

import ruledsl
from ruledsl.tools.scenario import cards_in


def hand(state: ruledsl.GameState, p: int) -> list[str]:
    return cards_in(state, "hand", owner=p)


def deck(state: ruledsl.GameState) -> list[str]:
    return cards_in(state, "deck")


def labels(state: ruledsl.GameState) -> list[str]:
    """The current player's legal actions, as they read."""
    return [str(a) for a in state.legal_actions()]


def act(state: ruledsl.GameState, label: str) -> None:
    """Apply the legal action that reads ``label``."""
    state.apply_action(state.action_from_string(label))
