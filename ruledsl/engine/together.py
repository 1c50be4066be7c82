"""Phases played together: each chooser's choice held in secret, then every choice applied at once.

Under the hood the choosers act one after another, in seat order (the engine, OpenSpiel,
PettingZoo, records and ``play`` expect one actor at a time), but a choice made is held,
not applied: the state does not change, so nothing any seat reads (its observation, the
labels, a refusal's reason, what the rules say) can depend on it. Others are told only
"choose in secret" (read "P1: choose in secret"). Once the last has chosen, the held
actions are applied in seat order, then the phase's 'when all chosen:' runs.
``GameState.held`` is ``[waiting, chosen]`` meanwhile: the seats still to choose, and the
(seat, action) pairs chosen so far.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Any

from ruledsl.engine.fields import StateFields
from ruledsl.engine.values import Action
from ruledsl.text.errors import Diagnostic, RuleRuntimeError

if TYPE_CHECKING:
    from ruledsl.engine.state import GameState


class Together(StateFields):
    """The part of a GameState that plays phases together (see ``ruledsl.engine.state``)."""

    __slots__ = ()

    if TYPE_CHECKING:

        def _resolve(self) -> None: ...

    def _start_together(self) -> None:
        """Enter a phase played together: its choosers wait, the first in seat order acts."""
        phase = self.prog.phases[self.phase]
        who = range(self.n) if phase.who is None else phase.who(self, self.turn)
        waiting = sorted({q for q in who if q is not None and not self.out[q]})
        if not waiting:
            raise RuleRuntimeError(
                [
                    Diagnostic(
                        "R599",
                        f"phase '{phase.name}' is played together, but nobody is left to choose",
                        phase.span,
                        "name players who are still in the game after 'together for'",
                        source=self.game.source,
                    )
                ]
            )
        self.held = [waiting, []]
        self.turn = self.actor = waiting[0]

    def _hold(self, p: int, action: Action) -> None:
        """Hold ``p``'s choice; once the last chooser has chosen, apply them all and go on."""
        assert self.held is not None  # a held action is only offered in a phase played together
        waiting, chosen = self.held
        # Copies: a clone shares nothing it could see change.
        waiting = [q for q in waiting if q != p]
        chosen = [*chosen, (p, action)]
        if waiting:
            self.held = [waiting, chosen]
            self.turn = self.actor = waiting[0]
            return
        self.held = None
        phase = self.prog.phases[self.phase]
        for q, held in sorted(chosen, key=lambda pair: pair[0]):
            held.defn.apply(self, q, held.key)
        assert phase.all_chosen is not None  # the checker asks every phase played together for one
        self.turn = chosen[-1][0]
        phase.all_chosen(self, self.turn)
        self._resolve()


def waiting_for(st: StateFields) -> dict[str, list[int]] | None:
    """Who has chosen and who is still awaited in a phase played together (None outside one)."""
    if st.held is None:
        return None
    return {"chosen": sorted(q for q, _ in st.held[1]), "waiting": list(st.held[0])}


def legal_for(st: Any, q: int) -> list[Action]:
    """The actions seat ``q`` may choose now in the phase played together (the state as it is)."""
    out: list[Action] = []
    memo, st.memo = st.memo, {} if st.prog.uses_memo else None
    try:
        st.prog.phases[st.phase].legal(st, q, out)
    finally:
        st.memo = memo
    return out


def rechoose(st: GameState, seat: int, pick: Any) -> None:
    """Replace every choice held for another seat than ``seat`` by ``pick(legal actions)``.

    A seat does not know what the others chose: a copy made for him (a resample, his
    canonical state) must not keep it. Each other chooser's choice is made again, legally,
    in the copy as it is (its hidden cards dealt anew).
    """
    if st.held is None:
        return
    waiting, chosen = st.held
    again = []
    for q, action in chosen:
        if q != seat:
            offered = legal_for(st, q)
            action = pick(offered) if offered else action
        again.append((q, action))
    st.held = [waiting[:], again]
    st._legal = None


def rechoose_at_random(st: GameState, seat: int, rng: random.Random) -> None:
    """``rechoose`` with a random legal action for each other chooser (a resample's)."""
    rechoose(st, seat, rng.choice)
