"""Write the Python for the computations on cards: sorting, the k-th element, sums of some cards.

Each function is a method of the expression writer (``Expressions._ex_Sorted = write_sorted``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ruledsl.syntax import nodes as n

if TYPE_CHECKING:
    from ruledsl.codegen.context import Scope
    from ruledsl.codegen.expressions import Expressions


def write_sorted(self: Expressions, e: n.Sorted, scope: Scope) -> str:
    v, inner = self.bind(e.var, scope)
    pairs = f"(({self.ex(e.key, inner)}, {v}) for {v} in {self.gone_through(e.iterable, scope, sorted_=True)})"
    return f"op_sorted_by({pairs}, {e.descending})"


def write_subset_sum(self: Expressions, e: n.SubsetSum, scope: Scope) -> str:
    v, inner = self.bind(e.var, scope)
    keys = f"({self.ex(e.key, inner)} for {v} in {self.iterable(e.iterable, scope)})"
    return f"op_adds_up(st, {keys}, {self.ex(e.target, scope)})"


def write_count_sets(self: Expressions, e: n.CountSets, scope: Scope) -> str:
    v, inner = self.bind(e.var, scope)
    cards = self.iterable(e.iterable, scope)
    size = size_asked(e)
    sets = f"op_sets(st, {cards})" if size is None else f"op_sets_of(st, {cards}, {self.ex(size, scope)})"
    return f"sum(1 for {v} in {sets} if {self.ex(e.where, inner)})"


def size_asked(e: n.CountSets) -> n.Expr | None:
    """The K of a condition that opens with ``size of s == K`` (K not naming s): only sets of K cards can meet it."""
    first = e.where
    while isinstance(first, n.BoolOp) and first.op == "and":
        first = first.left
    if not (isinstance(first, n.Compare) and first.op == "=="):
        return None
    for side, other in ((first.left, first.right), (first.right, first.left)):
        if isinstance(side, n.SizeOf) and isinstance(side.operand, n.Name) and side.operand.id == e.var:
            if not any(isinstance(x, n.Name) and x.id == e.var for x in n.walk(other)):
                return other
    return None


def write_item_of(self: Expressions, e: n.ItemOf, scope: Scope) -> str:
    return f"op_item({self.iterable(e.operand, scope)}, {self.ex(e.index, scope)})"
