"""Decide what is known at load time, what cannot fail, and what is written in place of a call."""

from __future__ import annotations

import re
from typing import Any

from attrs import frozen

from ruledsl.analysis.checked import CheckedGame
from ruledsl.analysis.refs import CardAttrRef, CardVarRef, DefineRef, LocalRef, MemberRef, OptionRef, Ref, ZoneRef
from ruledsl.analysis.symbols import DefineSym
from ruledsl.codegen.context import CompileContext, CompilerPart
from ruledsl.syntax import nodes as n

#: Definitions this small (in nodes) are written in place of their calls, up to this depth.
_MAX_INLINE_NODES = 40
_MAX_INLINE_DEPTH = 3


class Folding(CompilerPart):
    """Static values (options fix them for this load), totality, and whether to inline a definition."""

    def __init__(self, cx: CompileContext) -> None:
        super().__init__(cx)
        self._define_nodes: dict[int, list[n.Node]] = {}  # the nodes of each definition's body, by id(decl)

    def static(self, e: n.Expr) -> tuple[bool, Any]:
        """(True, value) when ``e`` depends only on options, literals and the player count."""
        if isinstance(e, (n.BoolLit, n.Number, n.NoneLit)):
            return True, self.load.value(e)
        if isinstance(e, n.Name):
            if isinstance(self.ref(e), (OptionRef, MemberRef)):
                return True, self.load.value(e)
            return False, None
        if isinstance(e, n.Not):
            known, value = self.static(e.operand)
            return (True, not value) if known else (False, None)
        if isinstance(e, n.BoolOp):
            lk, lv = self.static(e.left)
            if lk and ((e.op == "and" and not lv) or (e.op == "or" and lv)):
                return True, lv
            rk, rv = self.static(e.right)
            if lk and rk:
                return True, (lv and rv) if e.op == "and" else (lv or rv)
            return False, None
        if isinstance(e, n.Compare):
            lk, _ = self.static(e.left)
            rk, _ = self.static(e.right)
            if lk and rk:
                return True, self.load.value(e)
        return False, None

    def total(self, e: n.Expr) -> bool:
        """Whether evaluating ``e`` can never fail (so it may be computed early)."""
        if isinstance(e, (n.Number, n.BoolLit, n.NoneLit, n.Text, n.ActingPlayer, n.AllPlayers, n.EveryCard, PyName)):
            return True  # (a PyName is a variable of the compiler's own)
        if isinstance(e, n.Name):
            ref = self.ref(e)
            if isinstance(ref, DefineRef):
                return self.define_total(ref.define)
            return True
        if isinstance(e, n.Attribute):
            ref = self.ref(e)
            if isinstance(ref, (CardAttrRef, CardVarRef)):
                return (not self.type_of(e.obj).nullable or isinstance(ref, CardAttrRef)) and self.total(e.obj)
            return not isinstance(ref, ZoneRef) or self.total(e.obj)
        if isinstance(e, (n.TopOf, n.BottomOf)):
            return e.count is None and self.total(e.zone)
        if isinstance(e, (n.SizeOf, n.IsEmpty)):
            return self.total(e.operand)
        if isinstance(e, n.Compare):
            return self.total(e.left) and self.total(e.right)
        if isinstance(e, n.BoolOp):
            return self.total(e.left) and self.total(e.right)
        if isinstance(e, n.Not):
            return self.total(e.operand)
        if isinstance(e, n.IfExpr):
            return self.total(e.cond) and self.total(e.then) and self.total(e.else_)
        if isinstance(e, n.Member):
            return self.total(e.element) and self.total(e.collection)
        if isinstance(e, n.Call):
            ref = self.ref(e)
            return isinstance(ref, DefineRef) and self.define_total(ref.define) and all(self.total(a) for a in e.args)
        if isinstance(e, n.Quantifier):
            return self.total(e.iterable) and self.total(e.cond)
        if isinstance(e, (n.SetLiteral, n.TupleLiteral)):
            return all(self.total(i) for i in e.items)
        if isinstance(e, n.Topmost):
            return self.total(e.iterable) and self.total(e.where)
        return False

    def define_total(self, d: DefineSym) -> bool:
        decl = d.decl
        return isinstance(decl, n.DefineDecl) and self.total(decl.body)

    def is_constant(self, e: n.Expr) -> bool:
        """Whether ``e`` is a number this load fixes: a literal, a member of a values list, an option."""
        if isinstance(e, n.Number):
            return True
        return isinstance(self.ref(e), (MemberRef, OptionRef))

    def hoistable(self, e: n.Expr, code: str, varying: frozenset[str]) -> bool:
        """Whether ``e`` (written as ``code``) may be computed once, before the loops listing
        an action's choices: it is worth it, cannot fail, and uses no name those loops change."""
        return (
            not isinstance(e, _TRIVIAL)
            and not _LITERAL.fullmatch(code)
            and self.total(e)
            and not _mentions(code, varying)
        )

    def inline_body(self, d: DefineSym, depth: int) -> list[n.Node] | None:
        """The nodes of a definition's body if it may be written in place of its call at
        this depth of inlining, else None."""
        decl = d.decl
        if not isinstance(decl, n.DefineDecl) or depth >= _MAX_INLINE_DEPTH:
            return None
        body_nodes = self._define_nodes.get(id(decl))
        if body_nodes is None:  # walked once per definition, not at each call
            body_nodes = self._define_nodes[id(decl)] = list(n.walk(decl.body))
        if len(body_nodes) > _MAX_INLINE_NODES:
            return None
        if not d.params and any(isinstance(x, _LOOPING) for x in body_nodes):
            return None  # a costly value without arguments: the per-listing memo computes it once
        return body_nodes

    def parameter_uses(self, body_nodes: list[n.Node], name: str, decl: n.DefineDecl) -> list[n.Name]:
        """The names in a definition's body that really are its parameter ``name`` (none captured)."""
        return [x for x in body_nodes if isinstance(x, n.Name) and x.id == name and _is_param_of(self.ref(x), decl)]

    def may_substitute(self, arg: n.Expr, uses: list[n.Name]) -> bool:
        """Whether an argument may be written at each use of its parameter: used more than once,
        it must be cheap to compute again (it has no effects)."""
        if len(uses) > 1 and not _cheap(arg, self.c):
            return False
        # Called, the definition gets the argument's value; written in place, the
        # argument could count as a value that cannot fail, computed ahead of its turn.
        return self.total(arg)


#: Expressions too simple to be worth computing ahead of a loop.
_TRIVIAL = (n.Number, n.BoolLit, n.NoneLit, n.ActingPlayer, n.AllPlayers)


_LITERAL = re.compile(r"\(*-?\d+\)*|\(*(None|True|False)\)*")


def _mentions(code: str, names: frozenset[str]) -> bool:
    """Whether generated code uses any of the (compiler-made) names."""
    return any(re.search(rf"\b{name}\b", code) for name in names)


#: Expressions that go through cards or players one by one.
_LOOPING = (
    n.Quantifier,
    n.Count,
    n.CountSets,
    n.Filter,
    n.First,
    n.Topmost,
    n.Aggregate,
    n.Best,
    n.RunOf,
    n.Sorted,
    n.SubsetSum,
)


def simple_code(code: str) -> bool:
    """Whether generated Python is a constant, a name or an index sum, cheap to repeat."""
    return all(ch.isalnum() or ch in " _+()" for ch in code) and code.count("(") < 4


@frozen(kw_only=True)
class PyName(n.Expr):
    """A Python name standing for an argument, when a definition is written in place."""

    code: str


def _cheap(e: n.Expr, checked: CheckedGame) -> bool:
    """Whether an expression is cheap and harmless to compute twice (an argument to inline)."""
    if isinstance(e, (n.Number, n.BoolLit, n.NoneLit, n.ActingPlayer, n.Name, PyName)):
        return True
    if isinstance(e, n.Attribute):
        return _cheap(e.obj, checked)
    return False


def _is_param_of(ref: Ref | None, decl: n.DefineDecl) -> bool:
    """Whether ``ref`` is a parameter of the definition ``decl``."""
    return isinstance(ref, LocalRef) and ref.local.kind == "param" and ref.local.decl is decl
