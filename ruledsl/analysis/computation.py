"""Check the computations on cards: sorting, the k-th element, sums of some cards, tuple shapes.

Each function is a method of the expression checker (``ExpressionChecker._expr_Sorted =
check_sorted``), kept here so that the computations on cards read in one place.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ruledsl.analysis.symbols import ANY, CARD, CARDS, FLAG, NUMBER, PLAYER, PLAYERS, LocalSym, Type, tuple_type
from ruledsl.syntax import nodes as n

if TYPE_CHECKING:
    from ruledsl.analysis.expressions import ExpressionChecker
    from ruledsl.analysis.scope import Scope

_ORDERED = ("number", "value", "tuple", "any")


def check_sorted(self: ExpressionChecker, e: n.Sorted, scope: Scope, want: Type | None) -> Type:
    """``cards c in X sorted by KEY``: cards (or players) again; KEY must be ordered."""
    t = self.check(e.iterable, scope)
    inner = self._binder(e.var, e.iterable, scope, e)
    key = self.check(e.key, inner)
    if key.kind not in _ORDERED:
        hint = f"sort by one of its attributes: sorted by {e.var}.rank, say" if key.kind == "card" else None
        self.error("E301", f"'sorted by' orders by numbers, ordered values or tuples, not {key}", e.key, hint)
    if t.kind == "players":
        return PLAYERS
    if t.kind not in ("zone", "cards", "any"):
        self.error("E301", f"'cards … sorted by' sorts cards or players, not {t}", e.iterable)
    return CARDS


def check_subset_sum(self: ExpressionChecker, e: n.SubsetSum, scope: Scope, want: Type | None) -> Type:
    """``some cards c in X with total KEY == N``: a flag; KEY a number of each card."""
    t = self.check(e.iterable, scope)
    if t.kind not in ("zone", "cards", "any"):
        self.error("E301", f"'some cards … with total' looks through cards, not {t}", e.iterable)
    self.expect(e.target, scope, NUMBER)
    if e.op != "==":
        self.error(
            "E301",
            f"'some cards … with total' tests a total equal to a number, not '{e.op}'",
            e,
            f"write '==', or compare the total of them all: total {e.var}.value for {e.var} in …",
        )
    inner = self._binder(e.var, e.iterable, scope, e)
    key = self.check(e.key, inner)
    if not self.fits(key, NUMBER, e.key):
        hint = f"add up a number of the card: with total {e.var}.value, say" if key.kind in ("card", "value") else None
        self.error("E301", f"'with total' adds numbers, not {key}", e.key, hint)
    return FLAG


def check_count_sets(self: ExpressionChecker, e: n.CountSets, scope: Scope, want: Type | None) -> Type:
    """``count sets s of cards in X where C``: a number; ``s`` is cards, each set of X's cards once."""
    t = self.check(e.iterable, scope)
    if t.kind not in ("zone", "cards", "card", "any"):
        self.error("E301", f"'count sets' looks through cards, not {t}", e.iterable)
    self.ctx.reserved(e.var, e)
    inner = scope.child()
    inner.locals[e.var] = LocalSym(e.var, e, CARDS, "loop")
    self.expect(e.where, inner, FLAG)
    return NUMBER


def check_item_of(self: ExpressionChecker, e: n.ItemOf, scope: Scope, want: Type | None) -> Type:
    """``the item K of X``: one card (or player) of X, or none."""
    self.expect(e.index, scope, NUMBER)
    t = self.check(e.operand, scope)
    if t.kind in ("zone", "cards"):
        return CARD.maybe_none()
    if t.kind == "players":
        return PLAYER.maybe_none()
    if t.kind != "any":
        self.error("E301", f"'the item … of' picks one of cards or players, not {t}", e.operand)
    return ANY


def tuple_shape(items: list[Type]) -> Type:
    """The type of a tuple from its items' types: its shape when every item's kind is known."""
    if any(t.kind not in ("number", "value") for t in items):
        return tuple_type(None)
    return tuple_type(tuple(t.of or "" if t.kind == "value" else "number" for t in items))


def pair_tuples(self: ExpressionChecker, left: n.TupleLiteral, right: n.Expr, scope: Scope) -> None:
    """Check a tuple written out against what it is compared with: a number stands for a value there.

    Two tuples written out are read item by item, as two single items would be: in
    ``(2, 1) > ((top of trick).rank, 1)`` the 2 is the rank 2."""
    if not isinstance(right, n.TupleLiteral) or len(right.items) != len(left.items):
        self.check(left, scope, self.check(right, scope))
        return
    for a, b in zip(left.items, right.items, strict=True):
        ta = self.check(a, scope)
        tb = self.check(b, scope, ta if ta.kind == "value" else None)
        if ta.kind == "number" and tb.kind == "value" and isinstance(a, n.Number):
            self.types[id(a)] = self._expr_Number(a, scope, tb)
    for t in (left, right):
        self.types[id(t)] = tuple_shape([self.types[id(i)] for i in t.items])


def check_tuple_order(self: ExpressionChecker, e: n.Compare, left: Type, right: Type) -> None:
    """Refuse an order comparison of two tuples of known, different shapes (E301)."""
    if left.kind == right.kind == "tuple" and left.of and right.of and left.of != right.of:
        self.error("E301", f"cannot order {left} against {right}", e, "compare tuples of the same shape")
