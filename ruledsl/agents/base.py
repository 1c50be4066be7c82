"""The agent interface, agent options from --seats, and the playouts search agents share."""

from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

from attrs import frozen

from ruledsl.engine.ops import place_values

if TYPE_CHECKING:
    from ruledsl.agents.view import SeatView
    from ruledsl.engine.state import GameState
    from ruledsl.engine.values import Action


class Agent(Protocol):
    """Something that picks one of its legal actions from its seat's view."""

    name: ClassVar[str]
    #: Whether it is given the true state (only the ``cheat`` ceiling).
    omniscient: ClassVar[bool]
    #: Whether it calls ``view.resample`` (the game then tracks what each seat has seen).
    resamples: ClassVar[bool]

    def choose(self, view: SeatView) -> Action: ...


class AgentSpecError(ValueError):
    """A --seats entry that names no agent or gives it bad options."""


@frozen
class Option:
    """An option an agent takes in --seats (``ismcts:iterations=500``)."""

    kind: type  # int, float or str
    default: Any
    doc: str
    low: float | None = None  # the least value allowed, for numbers
    choices: tuple[str, ...] = ()  # the values allowed, for text

    def parse(self, agent: str, name: str, text: str) -> Any:
        """Turn the text of a --seats option into a value, or raise AgentSpecError."""
        if self.kind is str:
            if self.choices and text not in self.choices:
                raise AgentSpecError(f"{agent} option '{name}' takes {' or '.join(self.choices)}, not '{text}'")
            return text
        try:
            value = self.kind(text)
        except ValueError:
            value = None
        if value is None or (self.kind is float and not math.isfinite(value)):  # nan and inf compare false
            what = "a whole number" if self.kind is int else "a number"
            raise AgentSpecError(f"{agent} option '{name}' takes {what}, not '{text}'") from None
        if self.low is not None and value < self.low:
            raise AgentSpecError(f"{agent} option '{name}' must be at least {self.low:g}, not {text}")
        return value


#: How much a bot may do for each second of its ``budget`` (an option of greedy and ismcts): work
#: counted, never timed, so that a seed replays the same game on any machine. A unit of work is
#: one legal action listed (each listing counts its length); a deal of the hidden cards counts
#: ``deal_work``, a copy of a state CLONE_WORK. Calibrated on Hearts' pass, the costliest move of
#: the bundled games (286 ways to pass three cards): on the reference machine (2 cores shared by
#: many jobs) 30,000 units took 0.6-0.9 s of CPU; elsewhere a unit costs less.
WORK_PER_SECOND = 30_000
#: The work of dealing the hidden cards anew (a resample) beside the listing it makes, and of
#: copying a state (a clone).
COPY_WORK = 25
CLONE_WORK = 2


def deal_work(state: GameState) -> int:
    """The work of a deal of the hidden cards, ``state``: COPY_WORK, and the listing of its legal
    actions that dealing makes (as costly again where they are many: Hearts' pass)."""
    return COPY_WORK + len(state.legal_actions())


def work_budget(seconds: float) -> int:
    """The work a bot may do in a move of ``seconds`` (``WORK_PER_SECOND`` a second)."""
    return int(seconds * WORK_PER_SECOND)


def budget_option() -> Option:
    """The ``budget`` option of the bots that search: seconds a move, counted as work."""
    return Option(float, 1.0, "seconds a move, counted as work (the same game on any machine)", low=0)


def evaluate(state: GameState) -> list[float]:
    """Return each player's value of a state, from -1 (worst) to +1 (best).

    A finished game gives its returns. A game still going gives a guess from its
    'standing:' (leaders +1 down to last -1, tied players averaging their places), at
    half weight so that a real win counts more; a game without one gives 0 to all.
    """
    if state.terminal:
        return state.returns()
    groups = state.standings()
    if groups is None:
        return [0.0] * state.n
    return [0.5 * v for v in place_values(groups, state.n)]


def rollout(state: GameState, rng: random.Random, depth: int) -> int:
    """Play random legal actions on ``state`` until the end, or for ``depth`` actions (0: no limit).

    Return the work done: the actions listed (see ``WORK_PER_SECOND``)."""
    choice = rng.choice
    steps = work = 0
    while not state.terminal:
        legal = state.legal_actions()
        work += len(legal)
        if not legal:  # a resampled state whose player to move is stuck: judge it as it is
            return work
        state.apply_action(choice(legal))
        steps += 1
        if steps == depth:
            return work
    return work


def rollout_by_standing(
    state: GameState, rng: random.Random, depth: int, tries: int = 3, only: int | None = None
) -> int:
    """Like ``rollout``, but each player keeps the best for his standing of a few random actions.

    At each step up to ``tries`` legal actions, drawn at random, are tried on copies; the
    mover takes the first after which he stands best (a win beats any standing). A cheap
    default policy: it avoids the plain blunders (a penalty, a card given away) that make
    random playouts a noisy judge. With ``only``, that seat alone chooses so and the
    others play at random. A game without 'standing:' gets random actions. Return the work done.
    """
    if state.standings() is None:
        return rollout(state, rng, depth)
    steps = work = 0
    while not state.terminal:
        legal = state.legal_actions()
        work += len(legal)
        if not legal:
            return work
        mover = state.current_player()
        if len(legal) == 1:
            state.apply_action(legal[0])
        elif only is not None and mover != only:
            state.apply_action(legal[rng.randrange(len(legal))])
        else:
            picks = rng.sample(legal, tries) if len(legal) > tries else legal
            best = picks[0]
            best_place = None
            for action in picks:
                work += CLONE_WORK
                trial = state.clone()
                trial.apply_action(action)
                if trial.terminal:
                    place = -1000.0 * trial.returns()[mover]  # a win first, a loss last
                else:
                    groups = trial.standings() or []
                    place = next((float(i) for i, g in enumerate(groups) if mover in g), 0.0)
                if best_place is None or place < best_place:
                    best, best_place = action, place
            state.apply_action(best)
        steps += 1
        if steps == depth:
            return work
    return work
