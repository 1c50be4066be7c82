"""What an agent is given of a game: one seat's view (observation, legal actions, resampling).

An agent never holds the true state. ``SeatView`` keeps it out of its own attributes
(in a private table of this module), and hands out only what the seat may know: its
observation, its legal actions when it is to act, and ``resample(rng)``, a complete
state for search in which every card the seat cannot see is dealt anew, consistently
with what it has seen. Python cannot stop deliberate introspection; the point is that
no attribute path leads from a view to the true state, and that a view's answers do
not depend on the cards the seat cannot see (``tests/unit/test_agents.py`` checks both).

``OmniscientView`` is the same interface over the true state, for the ``cheat`` agent
only: a ceiling to measure honest agents against, never a default.
"""

from __future__ import annotations

import random
import weakref
from typing import TYPE_CHECKING, Any

from ruledsl.engine import knowledge

if TYPE_CHECKING:
    from ruledsl.engine.game import Game
    from ruledsl.engine.state import GameState
    from ruledsl.engine.values import Action

# view -> the true state; view -> (actions played when made, canonical base state).
_TRUE_STATE: weakref.WeakKeyDictionary[Any, GameState] = weakref.WeakKeyDictionary()
_BASE: weakref.WeakKeyDictionary[Any, tuple[int, GameState]] = weakref.WeakKeyDictionary()


class SeatView:
    """One seat's view of a game in progress: what an honest agent is given.

    ``seat``, ``num_players`` and ``game`` (the loaded rules, not a play of them) are
    plain attributes; the rest are methods that answer from the seat's point of view.
    """

    __slots__ = ("seat", "num_players", "game", "__weakref__")

    omniscient = False

    def __init__(self, state: GameState, seat: int) -> None:
        self.seat = seat
        self.num_players: int = state.num_players
        self.game: Game = state.game
        _TRUE_STATE[self] = state

    def observation(self) -> dict[str, Any]:
        """Return what the seat sees now (``GameState.observation``)."""
        return _TRUE_STATE[self].observation(self.seat)

    def legal_actions(self) -> list[Action]:
        """Return the seat's legal actions, or none when it is not the seat's turn."""
        state = _TRUE_STATE[self]
        return state.legal_actions() if state.current_player() == self.seat else []

    def is_terminal(self) -> bool:
        return _TRUE_STATE[self].is_terminal()

    def resample(self, rng: random.Random) -> GameState:
        """Return a state for search: the seat's own view, its hidden cards dealt anew from ``rng``.

        The result is the agent's to change. It depends only on what the seat knows and
        on ``rng``: two true states that look the same to the seat give the same result.
        """
        state = _TRUE_STATE[self]
        made = state.n_actions
        cached = _BASE.get(self)
        if cached is None or cached[0] != made:
            cached = (made, _canonical(state, self.seat))
            _BASE[self] = cached
        return cached[1].resample(self.seat, rng)

    def __repr__(self) -> str:
        return f"<SeatView P{self.seat} of {self.game.name!r}>"


class OmniscientView:
    """The true state behind the seat interface, for the ``cheat`` ceiling only.

    ``resample`` returns a copy of the true state: every card, the order of the deck
    and the outcome of later shuffles included.
    """

    __slots__ = ("seat", "num_players", "game", "_state")

    omniscient = True

    def __init__(self, state: GameState, seat: int) -> None:
        self.seat = seat
        self.num_players = state.num_players
        self.game = state.game
        self._state = state

    def observation(self) -> dict[str, Any]:
        return self._state.observation(self.seat)

    def legal_actions(self) -> list[Action]:
        state = self._state
        return state.legal_actions() if state.current_player() == self.seat else []

    def is_terminal(self) -> bool:
        return self._state.is_terminal()

    def resample(self, rng: random.Random) -> GameState:
        del rng
        return self._state.clone()


def _canonical(state: GameState, seat: int) -> GameState:
    """Return a copy of ``state`` whose cards hidden from ``seat`` are dealt in a fixed way.

    ``knowledge.resample`` shuffles the hidden cards in the order they lie, so with a
    known rng its result would tell that order (an agent could undo the shuffle). Dealing
    them first in card order, with a fixed rng, from what the seat knows alone, makes
    resampling depend on the seat's knowledge only. (Reported: once knowledge.resample
    sorts the hidden cards itself, this step can go.)
    """
    base = state.clone()
    # The last action's chosen values may name a card the seat never saw (a face-down card
    # taken into a hand): they only label that action, and the view does not pass them on.
    base.last_args = ()
    slots = [(z, i) for z, cards in enumerate(base.zones) for i, c in enumerate(cards) if not base.sees(seat, c)]
    if not slots:
        return base
    cards = sorted(base.zones[z][i] for z, i in slots)
    if base.known is not None:
        masks = {c: base.known[seat][c] for c in cards}
    else:
        anywhere = 0
        for z, _ in slots:
            anywhere |= 1 << z
        masks = {c: anywhere for c in cards}
    assignment = knowledge._match(cards, slots, masks, random.Random(0))
    replaced = {}
    for (z, i), c in zip(slots, assignment, strict=True):
        replaced[base.zones[z][i]] = c
        base.zones[z][i] = c
        base.loc[c] = z
    knowledge._remap_variables(base, replaced)
    base._legal = None
    return base
