"""Warn of rules that do what they say but most likely not what their designer meant.

Each trap here is a rule that checks, runs, and surprises
the newcomer who wrote it: a label that reads a variable its action changes (a label is
worked out when the action is offered, before its effects: W407), and the turn passing on
to the next player in a phase whose every action is for one given player (W408).
"""

from __future__ import annotations

from ruledsl.analysis.constants import constant_number
from ruledsl.analysis.context import CheckerPart
from ruledsl.analysis.refs import CardVarRef, GameVarRef, PlayerVarRef
from ruledsl.syntax import nodes as n

_VAR_REFS = (GameVarRef, PlayerVarRef, CardVarRef)

#: Statements after which the turn does not silently pass to the next player (anywhere in an
#: action), and those that end the play at once (when the action always runs one).
_HANDS_ON = (n.GoTo, n.Again, n.EndTurn, n.Open)
_ENDS = (n.EndRound, n.EndGame)


class TrapChecker(CheckerPart):
    """Warn of labels that read what their action writes, and of turns passing silently."""

    def check(self) -> None:
        """Look for both traps in every phase and window of the game."""
        for d in self.ctx.file.decls:
            if isinstance(d, (n.PhaseDecl, n.WindowDecl)):
                for item in d.items:
                    if isinstance(item, n.ActionDecl) and item.label is not None:
                        self._label_reads_written(item, item.label)
        self._turn_passes_silently()

    def _label_reads_written(self, a: n.ActionDecl, label: n.Expr) -> None:
        """W407: a label reading a variable its own action changes reads the value before the change."""
        written = set()
        for s in self.ctx.structure.reachable_stmts(a.body):
            if isinstance(s, (n.SetStmt, n.Add, n.Subtract)):
                ref = self.refs.get(id(s.target))
                if isinstance(ref, _VAR_REFS):
                    written.add(ref.var.name)
        warned: set[str] = set()
        for x in n.walk(label):
            ref = self.refs.get(id(x))
            if isinstance(ref, _VAR_REFS) and ref.var.name in written and ref.var.name not in warned:
                warned.add(ref.var.name)
                self.warning(
                    "W407",
                    f"the label of '{a.name}' reads '{ref.var.name}', which the action changes: it shows the value "
                    "before the change",
                    x,
                    "a label is worked out when the action is offered, before its effects; to tell the new value, "
                    "'say' it after the change (or, to mean the value before, read it through a definition)",
                )

    def _turn_passes_silently(self) -> None:
        """W408: in a phase whose every action is for one given player (``when player == X``), an
        action that neither hands on nor says 'end turn' passes the turn to the next player."""
        players = next((d for d in self.ctx.file.decls if isinstance(d, n.PlayersDecl)), None)
        if players is not None and constant_number(players.high) == 1:
            return  # alone at the table, the next player is the same one
        for phase in self.symbols.phases.values():
            decl = phase.decl
            if not isinstance(decl, n.PhaseDecl) or decl.is_auction or decl.together:
                continue
            actions = [i for i in decl.items if isinstance(i, n.ActionDecl)]
            actors = [_one_actor(a) for a in actions]
            if not actions or any(x is None for x in actors) or len(set(actors)) != 1:
                continue
            for item in actions:
                reached = self.ctx.structure.reachable_stmts(item.body)
                if not any(isinstance(s, _HANDS_ON) for s in reached) and not any(
                    isinstance(s, _ENDS) for s in item.body
                ):
                    self.warning(
                        "W408",
                        f"after '{item.name}' the turn passes to the next player, but every action of phase "
                        f"'{decl.name}' is for {actors[0]} alone",
                        item,
                        "for the same player to go on, write 'again'; to move on, 'go to PHASE with PLAYER'; "
                        "if the turn is meant to pass, write 'end turn'",
                    )


def _one_actor(a: n.ActionDecl) -> str | None:
    """The player an action is for, as written (``when player == declarer``: 'declarer'), or None."""
    conds = [a.when] if a.when is not None else []
    conds += [r.cond for r in a.requires]
    for cond in conds:
        for x in n.walk(cond):
            if isinstance(x, n.Compare) and x.op == "==":
                for side, other in ((x.left, x.right), (x.right, x.left)):
                    if isinstance(side, n.ActingPlayer) and isinstance(other, n.Name):
                        return f"'{other.id}'"
    return None
