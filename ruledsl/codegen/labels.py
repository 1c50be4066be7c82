"""Write the functions that name an action for people: its label, from its choices."""

from __future__ import annotations

from ruledsl.analysis.checked import CheckedGame
from ruledsl.analysis.refs import BuiltinRef, CardAttrRef, CardsAttrRef, LocalRef, MemberRef, OptionRef
from ruledsl.codegen import names
from ruledsl.codegen.context import ActionInfo, CompileContext, CompilerPart, Scope
from ruledsl.syntax import nodes as n


class Labels(CompilerPart):
    """An action's label functions: LBA from the chosen values, LB from its key."""

    def __init__(self, cx: CompileContext) -> None:
        super().__init__(cx)
        self.exprs = cx.exprs

    def emit_label(self, a: n.ActionDecl | n.PassDecl, info: ActionInfo, choices: tuple[n.Choice, ...]) -> None:
        """Emit LBA(args, show) — the label from the chosen values, ``show`` naming a card
        (None being one chosen by its place) — and LB(key, show), which reads the key."""
        em = self.em
        idx = info.index
        label_span = a.label.span if a.label is not None else a.span
        self.cx.header(names.LABEL_ARGS(idx), f"{info.construct}: its label, from the values chosen", label_span)
        em.line(f"def {names.LABEL_ARGS(idx)}(args, show=SHOW_NAME):")
        with em.block():
            scope = Scope()
            for i, ch in enumerate(choices):
                py = self.fresh()
                scope.names[ch.name] = py
                em.line(f"{py} = args[{i}]")
            self.cx.label_mode = True
            try:
                if a.label is None:
                    name = "pass" if isinstance(a, n.PassDecl) else a.name.replace("_", " ")
                    parts = [repr(name), *(self._show_choice(ch, scope) for ch in choices)]
                    em.line("return ' '.join((" + ", ".join(parts) + ",))")
                elif info.static_label:
                    # It may fail, as a rule may: an attribute of a card chosen by its place reads none.
                    em.line("try:")
                    with em.block():
                        em.line(f"return {self._static_text(a.label, scope)}")
                    em.line("except ANY_ERROR as exc_:")
                    with em.block():
                        em.line(f"LABEL_FAILED({idx}, exc_)")
                else:  # computed with the state when the action is listed
                    em.line(f"return {repr(info.name)}")
            finally:
                self.cx.label_mode = False
        em.line("")
        self.cx.header(names.LABEL(idx), f"{info.construct}: its label, from its key", label_span)
        em.line(f"def {names.LABEL(idx)}(key, show=SHOW_NAME):")
        with em.block():
            parts = []
            for i, ch in enumerate(choices):
                if isinstance(ch.shape, n.CardChoice):
                    # A card chosen by its place stays unnamed, but its place is told ('hidden card 2').
                    parts.append(f"REP[key[{i}]] if key[{i}] >= 0 else PLACE(-key[{i}])")
                elif isinstance(ch.shape, (n.NumberChoice, n.ValueChoice, n.PlayerChoice)):
                    parts.append(f"key[{i}]")
                else:
                    parts.append(f"[REP[k_] for k_ in key[{i}]]")
            em.line(f"return {names.LABEL_ARGS(idx)}((" + "".join(f"{x}, " for x in parts) + "), show)")
        em.line("")

    def _show_choice(self, ch: n.Choice, scope: Scope) -> str:
        py = scope.names[ch.name]
        shape = ch.shape
        if isinstance(shape, n.CardChoice):
            return f"show({py})"
        if isinstance(shape, (n.CardsChoice, n.SameChoice, n.ValuedChoice, n.DifferentChoice)):
            return f"' '.join(show(c_) for c_ in {py})"
        if isinstance(shape, n.ValueChoice):
            return f"{self.layout.display_table(shape.type_name)}[{py}]"
        if isinstance(shape, n.PlayerChoice):
            return f"op_show_player({py})"
        return f"str({py})"

    def _static_text(self, e: n.Expr, scope: Scope) -> str:
        """Python for a label that only uses choices, options and constants."""
        if isinstance(e, n.Text):
            return self.exprs.text(e, scope, "show({})")
        if isinstance(e, n.IfExpr):
            then, cond, else_ = (
                self._static_text(e.then, scope),
                self.exprs.ex(e.cond, scope),
                self._static_text(e.else_, scope),
            )
            return f"({then} if {cond} else {else_})"
        return self.exprs.show(e, scope, "show({})")


def label_is_static(label: n.Expr, checked: CheckedGame, item: n.ActionDecl | n.PassDecl) -> bool:
    """Whether a label depends only on the action's choices, options and constants."""
    choices = {c.name for c in item.choices} if isinstance(item, n.ActionDecl) else set()
    for x in n.walk(label):
        ref = checked.refs.get(id(x))
        if isinstance(x, n.Name):
            if not (isinstance(ref, (OptionRef, MemberRef)) or (isinstance(ref, LocalRef) and x.id in choices)):
                return False
        elif isinstance(x, n.Attribute):
            if not isinstance(ref, (CardAttrRef, CardsAttrRef, MemberRef)):
                return False
        elif isinstance(x, n.Call):
            if not isinstance(ref, BuiltinRef) or not getattr(ref, "static", True):
                return False
        elif not isinstance(
            x,
            (
                n.Text,
                n.Number,
                n.BoolLit,
                n.NoneLit,
                n.IfExpr,
                n.Compare,
                n.BoolOp,
                n.Not,
                n.Arith,
                n.Negate,
                n.SetLiteral,
                n.Member,
                n.SizeOf,
            ),
        ):
            return False
    return True
