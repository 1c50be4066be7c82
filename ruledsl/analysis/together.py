"""Check a phase played together: who chooses, what each may choose, and what happens once all have chosen."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ruledsl.analysis.scope import Scope
from ruledsl.syntax import nodes as n

if TYPE_CHECKING:
    from ruledsl.analysis.structure import StructureChecker

#: What a held action may not do: its effects run one after another once all have chosen,
#: so none of them may decide alone where play goes (that is 'when all chosen:'s job).
_TURN_STMTS: dict[type, str] = {
    n.GoTo: "go to",
    n.Again: "again",
    n.EndTurn: "end turn",
    n.EndRound: "end round",
    n.EndGame: "end game",
    n.Open: "open",
}


def check_together(part: StructureChecker, d: n.PhaseDecl, scope: Scope) -> None:
    """Check what is particular to a phase played together (E499), or a 'when all chosen:' outside one."""
    handlers = [i for i in d.items if isinstance(i, n.AllChosenHandler)]
    if not d.together:
        for h in handlers:
            part.error(
                "E499",
                "'when all chosen' belongs in a phase played together",
                h,
                f"declare the phase with 'phase {d.name} together:'",
            )
        return
    if d.who is not None:
        t = part.ctx.exprs.check(d.who, scope)
        if t.kind not in ("player", "players", "any"):
            part.error("E301", f"a phase is played together by players, not {t}", d.who)
    for extra in handlers[1:]:
        part.error("E202", f"phase '{d.name}' has a second 'when all chosen:'", extra)
    for h in handlers:
        part.ctx.stmts.block(h.body, scope.child())
    if not handlers:
        part.error(
            "E499",
            f"phase '{d.name}' is played together but has no 'when all chosen:'",
            d,
            "say where play goes once every choice has taken effect: when all chosen: go to <phase>",
        )
    actions = [i for i in d.items if isinstance(i, n.ActionDecl)]
    if len(actions) == 1 and not actions[0].choices:
        part.error(
            "E499",
            f"phase '{d.name}' is played together, but its one action '{actions[0].name}' has no choices: "
            "there is nothing to choose in secret",
            actions[0],
            "give the action a choice, action bid(n: number 0 to 10), or offer several actions",
        )
    for action in actions:
        for s in part.reachable_stmts(action.body):
            word = _TURN_STMTS.get(type(s))
            if word is not None:
                part.error(
                    "E499",
                    f"'{word}' in action '{action.name}' of phase '{d.name}', played together: its effects are "
                    "held until all have chosen, and then run one after another",
                    s,
                    "decide where play goes in 'when all chosen:'",
                )
