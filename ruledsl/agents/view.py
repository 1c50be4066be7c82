"""What an agent is given of a game: one seat's view (observation, legal actions, resampling).

An agent never holds the true state. ``SeatView`` hands out only what the seat may know:
its observation, its legal actions when it is to act, and ``resample(rng)``, a complete
state for search in which every card the seat cannot see is dealt anew, consistently
with what it has seen, and whose history holds each action as the seat saw it. The true
state is kept in a closure made for each view, reachable from no attribute of the view
or of this module; the answers do not depend on the cards the seat cannot see
(``tests/unit/test_agents.py`` and the leak harness, ``ruledsl.tools.leaks``, check both).

In-process Python is no sandbox: an agent that goes looking (``gc.get_objects()``, a
caller's frame, a closure's cells) finds the true state. Where that matters, run the
agent in another process (``ruledsl.agents.process``: it is sent the seat's view alone).

``OmniscientView`` is the same interface over the true state, for the ``cheat`` agent
only: a ceiling to measure honest agents against, never a default.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ruledsl.engine import knowledge

if TYPE_CHECKING:
    from ruledsl.engine.fields import History
    from ruledsl.engine.game import Game
    from ruledsl.engine.state import GameState
    from ruledsl.engine.values import Action


class SeatView:
    """One seat's view of a game in progress: what an honest agent is given.

    ``seat``, ``num_players`` and ``game`` (the loaded rules, not a play of them) are
    plain attributes; the rest are methods that answer from the seat's point of view.
    """

    __slots__ = ("seat", "num_players", "game", "_ask")

    omniscient = False

    def __init__(self, state: GameState, seat: int) -> None:
        self.seat = seat
        self.num_players: int = state.num_players
        self.game: Game = state.game
        self._ask: Callable[[str, Any], Any] = _asker(state, seat)

    def observation(self) -> dict[str, Any]:
        """Return what the seat sees now (``GameState.observation``)."""
        return self._ask("observation", None)

    def legal_actions(self) -> list[Action]:
        """Return the seat's legal actions, or none when it is not the seat's turn.

        While a window he cannot see is open to another seat, they are the actions he will have
        if it is let pass (``GameState.actions_seen_by``): what he is shown does not tell that a
        window is open. He is asked to act only once it has closed."""
        return self._ask("legal_actions", None)

    def is_terminal(self) -> bool:
        return self._ask("is_terminal", None)

    def why_illegal(self, move: str) -> str | None:
        """Return why a move, as typed, is not legal for the seat now, or None if it is
        (``GameState.why_illegal``: a reason that tells nothing of the cards it cannot see)."""
        return self._ask("why_illegal", move)

    def resample(self, rng: random.Random) -> GameState:
        """Return a state for search: the seat's own view, its hidden cards dealt anew from ``rng``.

        The result is the agent's to change. It depends only on what the seat knows and
        on ``rng``: two true states that look the same to the seat give the same result.
        Its ``history()`` holds each action as the seat saw it (``history_seen_by``).
        """
        return self._ask("resample", rng)

    def __repr__(self) -> str:
        return f"<SeatView P{self.seat} of {self.game.name!r}>"


def _asker(state: GameState, seat: int) -> Callable[[str, Any], Any]:
    """Return the one function through which a view reaches its state: it answers the
    seat's questions and nothing else (the state lives in its closure)."""
    base: list[Any] = [-1, None]  # (actions played when made, the seat's canonical state)

    def ask(question: str, rng: Any) -> Any:  # rng: the generator of a resample, the move of why_illegal
        if question == "observation":
            return state.observation(seat)
        if question == "legal_actions":
            return state.actions_seen_by(seat)
        if question == "is_terminal":
            if state.windows is not None and state.current_player() != seat:
                return state.shown_to(seat)[0].is_terminal()  # as it reads to him: gone on, maybe to the end
            return state.is_terminal()
        if question == "why_illegal" and isinstance(rng, str):
            return state.why_illegal(rng, player=seat)
        if question == "resample":
            if base[0] != state.n_actions:
                base[:] = [state.n_actions, canonical_state(state, seat)]
            return base[1].resample(seat, rng)
        raise ValueError(f"a seat's view does not answer {question!r}")

    return ask


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

    def why_illegal(self, move: str) -> str | None:
        return self._state.why_illegal(move, player=self.seat)

    def resample(self, rng: random.Random) -> GameState:
        del rng
        return self._state.clone()


def canonical_state(state: GameState, seat: int) -> GameState:
    """Return the copy resamples are dealt from: the cards hidden from ``seat`` dealt from his
    knowledge alone (``knowledge.resample`` shuffles them in the order they lie, so with a
    known rng its result would tell that order), and the history as he saw it."""
    if state.windows is not None and state.current_player() != seat:
        state = state.shown_to(seat)[0]  # a window offered to another is not his to know of
    base = knowledge.canonical(state, seat)
    hist: History = None
    for action in base.history_seen_by(seat):
        hist = (action, hist)
    base._hist = hist
    base.seen = None
    # Who acted last may be a player who let a window pass, which only he knows of: the
    # history as the seat saw it (and last_shown, below) tells what he may know of it.
    base.last_actor = None
    if base.terminal:  # the actor a game ended with may be the last to let a window pass
        base.actor = base.turn
    if hist is not None:  # describe_last reads the last action as the seat saw it
        base.last_shown = (hist, [str(hist[0])] * (base.n + 1))
    # Cards turned up by the last action are kept with the true history (its labels as their
    # chooser saw them), and the state rolls back to its origin (the true deal): neither is his.
    base.last_revealed = None
    base.rebase()
    return base
