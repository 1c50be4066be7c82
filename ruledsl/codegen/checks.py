"""Write what explains a refused move: each choice's domain, each condition and its reason."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ruledsl.analysis.refs import CardVarRef, DefineRef, GameVarRef, PlayerVarRef
from ruledsl.codegen import names
from ruledsl.codegen.actions import able_clauses, action_clauses, must_clauses
from ruledsl.codegen.context import ActionInfo, CompileContext, CompilerPart, Indent, Scope
from ruledsl.engine.values import ActionChecks, ChoiceCheck, ClauseCheck
from ruledsl.syntax import nodes as n
from ruledsl.text.source import Span

#: What each kind of choice is called in a ChoiceCheck.
_CHOICE_KINDS: dict[type, str] = {
    n.CardChoice: "card",
    n.CardsChoice: "cards",
    n.SameChoice: "same",
    n.ValuedChoice: "valued",
    n.DifferentChoice: "different",
    n.NumberChoice: "number",
    n.ValueChoice: "value",
    n.PlayerChoice: "player",
}

#: What a run is called in a ChoiceCheck, by its cards of each value.
_RUN_KINDS = {1: "run", 2: "run of pairs", 3: "run of triples"}


def _grouped_by(shape: n.ChoiceShape) -> str | None:
    """What a group's cards share or differ by, as a refusal names it: 'rank', or for a run
    'rank of one suit'."""
    attr = getattr(shape, "attr", None)
    if isinstance(shape, n.DifferentChoice) and shape.sequence and shape.sharing is not None:
        return f"{attr} of one {shape.sharing}"
    return attr


class Checks(CompilerPart):
    """The functions explaining a refused move, compiled when a move is first refused."""

    def __init__(self, cx: CompileContext) -> None:
        super().__init__(cx)
        self.exprs = cx.exprs
        self.actions = cx.actions

    def emit_checks(self, a: n.ActionDecl, info: ActionInfo) -> None:
        """Emit what explains a refused move: each choice's domain, given the choices before
        it, and each condition and reason, all read from ``args`` (the values chosen, None
        for those not known). None of it runs while actions are listed or applied."""
        em = self.em
        idx = info.index

        def open_function(name: str, params: list[str], span: Span | None, what: str) -> tuple[Indent, Scope]:
            block = self.cx.function(name, ["st", "p", "args", *params], span, f"{info.construct}: {what}")
            scope = Scope()
            for i, ch in enumerate(a.choices):
                py = self.fresh()
                scope.names[ch.name] = py
                em.line(f"{py} = args[{i}]")
            return block, scope

        kinds = []
        for i, ch in enumerate(a.choices):
            shape = ch.shape
            block, scope = open_function(names.DOMAIN(idx, i), [], ch.span, f"what {ch.name} may be")
            if isinstance(shape, n.CardChoice):
                em.line(f"return {self.exprs.cards(shape.pool, scope)}")
            elif isinstance(shape, n.NumberChoice):
                em.line(f"return ({self.exprs.ex(shape.low, scope)}, {self.exprs.ex(shape.high, scope)})")
            elif isinstance(shape, n.PlayerChoice):
                em.line(f"return list({self.exprs.ex(shape.pool, scope)})")
            elif isinstance(shape, n.ValueChoice):
                em.line("return None")
            else:
                assert isinstance(shape, n.POOLED_CHOICES)  # the shapes above are all those without a pool
                size = self.actions.group_size(shape, scope)
                value = self.exprs.ex(shape.value, scope) if isinstance(shape, n.ValuedChoice) else "None"
                em.line(f"return ({self.exprs.cards(shape.pool, scope)}, {size}, {value})")
            self.cx.end_function(block)
            if isinstance(shape, (n.CardsChoice, n.SameChoice, n.ValuedChoice, n.DifferentChoice)):
                block, scope = open_function(
                    names.GROUPS(idx, i), ["cards", "size"], ch.span, f"the groups {ch.name} may be"
                )
                em.line(f"return list({self.actions.groups(shape, 'cards', 'size', scope)})")
                self.cx.end_function(block)
            if isinstance(shape, n.DifferentChoice) and shape.sequence:
                block, scope = open_function(
                    names.RUN_PART(idx, i), ["cards", "size"], ch.span, f"whether cards may be part of {ch.name}"
                )
                em.line(f"return {self.actions.run_part(shape, 'cards', 'size', scope)}")
                self.cx.end_function(block)
                kinds.append(_RUN_KINDS[shape.width])
            else:
                kinds.append(_CHOICE_KINDS[type(shape)])
        clauses = []
        bound, able = action_clauses(a), able_clauses(a)
        for j, (cond, reason, level) in enumerate(bound + able + must_clauses(a)):
            block, scope = open_function(names.CHECK(idx, j), [], cond.span, f"condition {j}")
            em.line(f"return {self.exprs.ex(cond, scope)}")
            self.cx.end_function(block)
            if reason is not None:
                block, scope = open_function(names.REASON(idx, j), [], reason.span, f"the reason for condition {j}")
                # Read by the player refused, and by him alone: cards as he sees them.
                show = "st.show_card(p, {})"
                text = (
                    self.exprs.text(reason, scope, show)
                    if isinstance(reason, n.Text)
                    else self.exprs.show(reason, scope, show)
                )
                em.line(f"return {text}")
                self.cx.end_function(block)
            told = [cond] if reason is None else [cond, reason]
            is_open = not any(self._reads_hidden(e, set()) for e in told)
            clauses.append(
                (level, cond, is_open, len(bound) <= j < len(bound) + len(able), j >= len(bound) + len(able))
            )
        info.choice_kinds, info.clauses = kinds, clauses

    def _reads_hidden(self, e: n.Expr, seen: set[int]) -> bool:
        """Whether a condition or reason reads a variable its player may not know (a hidden
        one, or another's ``owner`` one), itself or through definitions: neither whether the
        condition holds nor the reason is then something to tell him."""
        for x in n.walk(e):
            ref = self.ref(x)
            if isinstance(ref, (GameVarRef, PlayerVarRef, CardVarRef)):
                v = ref.var
                someone_elses = v.visibility == "owner" and isinstance(ref, PlayerVarRef) and ref.owner is not None
                if v.visibility == "hidden" or someone_elses:
                    return True
            elif isinstance(ref, DefineRef) and ref.define.index not in seen:
                seen.add(ref.define.index)
                decl = ref.define.decl
                if isinstance(decl, n.DefineDecl) and self._reads_hidden(decl.body, seen):
                    return True
        return False

    def action_checks(
        self, a: n.ActionDecl, info: ActionInfo, functions: dict[str, Callable[..., Any]]
    ) -> ActionChecks:
        """An action's ActionChecks, its functions linked from those ``emit_checks`` wrote."""
        idx = info.index
        kinds, clauses = info.choice_kinds, info.clauses
        choices = [
            ChoiceCheck(
                ch.name,
                kind,
                functions[names.DOMAIN(idx, i)],
                functions.get(names.GROUPS(idx, i)),
                _grouped_by(ch.shape),
                getattr(ch.shape, "wild", None),
                functions.get(names.RUN_PART(idx, i)),
            )
            for i, (ch, kind) in enumerate(zip(a.choices, kinds))
        ]
        checks = [
            ClauseCheck(
                level, functions[names.CHECK(idx, j)], functions.get(names.REASON(idx, j)), cond, is_open, able, must
            )
            for j, (level, cond, is_open, able, must) in enumerate(clauses)
        ]
        return ActionChecks(choices, checks, a.otherwise, a)
