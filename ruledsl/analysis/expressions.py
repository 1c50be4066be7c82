"""Check expressions: the type of each, and what it may be used as (fits, unify, coercions)."""

from __future__ import annotations

from ruledsl.analysis import computation
from ruledsl.analysis.constants import constant_number
from ruledsl.analysis.context import CheckContext, CheckerPart
from ruledsl.analysis.refs import CountRef, DefineRef, MemberRef, RunKeyAttrRef
from ruledsl.analysis.scope import Scope
from ruledsl.analysis.symbols import (
    ANY,
    CARD,
    CARDS,
    FLAG,
    NONE,
    NUMBER,
    PLAYER,
    PLAYERS,
    TEXT,
    LocalSym,
    MemberSym,
    Type,
    element_type,
    range_type,
    set_type,
    value_type,
)
from ruledsl.syntax import nodes as n
from ruledsl.text.render import did_you_mean
from ruledsl.text.source import Span


class ExpressionChecker(CheckerPart):
    """Check each expression (``_expr_<Node>``) and record its type in the context's ``types``."""

    def __init__(self, ctx: CheckContext) -> None:
        super().__init__(ctx)
        self.looped: dict[int, str | None] = {}  # what a loop goes through: the variable of a 'for each', or None
        self.zone_end: dict[int, str] = {}  # a zone's attribute under 'top of' or 'bottom of': which end
        self.seats: dict[int, tuple[n.Seat, bool]] = {}  # every 'seat N', and whether it is under a test of 'players'

    # The computations on cards (sorting, the k-th element, sums of some cards) live in computation.py.
    _expr_Sorted = computation.check_sorted
    _expr_SubsetSum = computation.check_subset_sum
    _expr_CountSets = computation.check_count_sets
    _expr_ItemOf = computation.check_item_of

    def check(self, e: n.Expr, scope: Scope, want: Type | None = None) -> Type:
        """Check an expression and return its type; ``want`` is the type the context expects, if any."""
        method = getattr(self, f"_expr_{type(e).__name__}")
        t: Type = method(e, scope, want)
        if id(e) not in self.types or self.types[id(e)].kind == "any":
            self.types[id(e)] = t
        return self.types[id(e)]

    def expect(self, e: n.Expr, scope: Scope, want: Type) -> Type:
        """Check an expression that must be of type ``want`` (E301 if not); return its type."""
        t = self.check(e, scope, want)
        if not self.fits(t, want, e):
            self.error("E301", f"expected {want}, found {t}", e, _mismatch_hint(t, want))
        return t

    def expect_zone(self, e: n.Expr, scope: Scope) -> None:
        """Check an expression that must be a zone."""
        if isinstance(e, n.Name) and self.ctx.names.is_unknown(e.id, scope):
            zones = [z for z, sym in self.symbols.zones.items() if not sym.per_player or scope.has_player]
            self.ctx.undeclared_name("zone", e.id, e, did_you_mean(e.id, zones, "zones"))
            self.types[id(e)] = ANY
            return
        t = self.check(e, scope)
        if t.kind not in ("zone", "any"):
            hint = None
            if isinstance(e, n.Attribute):
                hint = "to name a player's zone, write p.hand"
            self.error("E303", f"expected a zone, found {t}", e, hint)

    def fits(self, t: Type, want: Type | None, node: n.Expr | None = None) -> bool:
        """Whether a value of type ``t`` may stand where ``want`` is expected, coercing ``node`` if it must."""
        if want is None or t.kind == "any" or want.kind == "any":
            return True
        if t.kind == "none":
            return True
        if t.kind == want.kind and (t.of == want.of or not t.of or not want.of):
            return True
        if want.kind == "cards" and t.kind in ("zone", "card"):
            return True
        if want.kind == "cards" and isinstance(node, n.SetLiteral) and not node.items:
            return True  # {} is also no cards
        if want.kind == "value" and t.kind == "number" and isinstance(node, n.Number):
            return self.coerce_number(node, want)
        if want.kind == "set" and t.kind == "set" and (not t.of or not want.of):
            return True
        if want.kind == "number" and t.kind == "players" and isinstance(node, n.AllPlayers):
            self.refs[id(node)] = CountRef()
            self.types[id(node)] = NUMBER
            return True
        return False

    def coerce_number(self, node: n.Number, want: Type) -> bool:
        """Read a number as a member of a values list (rank 10), if that list has it."""
        values = self.symbols.values.get(want.of or "")
        if values is None:
            return False
        idx = values.index_of(str(node.value))
        if idx is None:
            return False
        self.refs[id(node)] = MemberRef(MemberSym(str(node.value), None, values, idx))
        self.types[id(node)] = want.sure()
        return True

    def iterable(self, e: n.Expr, scope: Scope, for_each: str | None = None) -> Type:
        """The type of what a loop goes through; ``for_each`` is the variable of a 'for each'."""
        self.looped[id(e)] = for_each
        t = self.check(e, scope)
        elem = element_type(t)
        if elem is None:
            self.error(
                "E301", f"cannot go through {t} one by one", e, "go through a zone, cards, players, a set or a range"
            )
            return ANY
        return elem

    def _expr_Number(self, e: n.Number, scope: Scope, want: Type | None) -> Type:
        if want is not None and want.kind == "value" and self.coerce_number(e, want):
            return want.sure()
        return NUMBER

    def _expr_Text(self, e: n.Text, scope: Scope, want: Type | None) -> Type:
        for part in e.parts:
            if isinstance(part, n.Expr):
                self.check(part, scope)
        return TEXT

    def _expr_BoolLit(self, e: n.BoolLit, scope: Scope, want: Type | None) -> Type:
        return FLAG

    def _expr_NoneLit(self, e: n.NoneLit, scope: Scope, want: Type | None) -> Type:
        return NONE

    # What a name, an attribute or a call refers to is the resolver's concern.

    def _expr_Name(self, e: n.Name, scope: Scope, want: Type | None) -> Type:
        return self.ctx.names.name(e, scope, want)

    def _expr_Call(self, e: n.Call, scope: Scope, want: Type | None) -> Type:
        return self.ctx.names.call(e, scope, want)

    def _expr_Attribute(self, e: n.Attribute, scope: Scope, want: Type | None) -> Type:
        return self.ctx.names.attribute(e, scope, want)

    def _expr_TupleLiteral(self, e: n.TupleLiteral, scope: Scope, want: Type | None) -> Type:
        items = []
        shape = want.of.split(",") if want is not None and want.kind == "tuple" and want.of else []
        for i, item in enumerate(e.items):
            # (0, 2, 0) where a tuple (number, rank, number) is wanted: the 2 is a rank.
            of = shape[i] if len(shape) == len(e.items) else "number"
            t = self.check(item, scope, None if of == "number" else value_type(of))
            items.append(t)
            if t.kind not in ("number", "value", "any"):
                self.error("E301", f"a tuple holds numbers or values, not {t}", item)
        return computation.tuple_shape(items)

    def _expr_SetLiteral(self, e: n.SetLiteral, scope: Scope, want: Type | None) -> Type:
        # The element type comes from the context, else from the first item that is not a
        # bare number: in {2, 3, 10, Joker} the numbers are ranks.
        of: str | None = None
        if want is not None and want.kind == "set" and want.of:
            of = want.of
        elif want is not None and want.kind == "value":
            of = want.of
        if of is None:
            for item in e.items:
                if not isinstance(item, n.Number):
                    t = self.check(item, scope)
                    if t.kind == "value":
                        of = t.of
                        break
                    if t.kind == "number":
                        of = "number"
                        break
        if of is None and e.items:
            of = "number"
        expected = NUMBER if of == "number" else value_type(of) if of else None
        for item in e.items:
            t = self.check(item, scope, expected)
            if t.kind not in ("number", "value", "any"):
                self.error("E301", f"a set holds numbers or values, not {t}", item)
            elif expected is not None and not self.fits(t, expected, item):
                self.error("E301", f"this set holds {_plural(expected)}, not {t}", item)
        return set_type(of) if of else Type("set")

    def _expr_RangeLiteral(self, e: n.RangeLiteral, scope: Scope, want: Type | None) -> Type:
        low = self.check(e.low, scope)
        high = self.check(e.high, scope, low if low.kind == "value" else None)
        if low.kind == "number" and high.kind == "value" and isinstance(e.low, n.Number):
            low = self._expr_Number(e.low, scope, high)
            self.types[id(e.low)] = low
        for t, node in ((low, e.low), (high, e.high)):
            if t.kind not in ("number", "value", "any"):
                self.error("E301", f"a range goes over numbers or ordered values, not {t}", node)
        if low.kind == "value" and high.kind == "value" and low.of != high.of:
            self.error("E301", f"a range cannot go from {low} to {high}", e)
        else:
            self.check_range_order(e.low, e.high)
        of = low.of if low.kind == "value" else high.of if high.kind == "value" else "number"
        return range_type(of or "number")

    def check_range_order(self, low: n.Expr, high: n.Expr) -> None:
        """Refuse a range written with constant bounds the wrong way round (``K to A``): it holds nothing."""
        lref, href = self.refs.get(id(low)), self.refs.get(id(high))
        if isinstance(lref, MemberRef) and isinstance(href, MemberRef) and lref.member.values is href.member.values:
            first, last = lref.member, href.member
            if first.index > last.index:
                self.error(
                    "E305",
                    f"the range {first.name} to {last.name} is empty: "
                    f"{first.name} comes after {last.name} in '{first.values.name}'",
                    Span(low.span.start, high.span.end),
                    f"write {last.name} to {first.name} (a range runs in the order of the 'values' list)",
                )
            return
        a, b = constant_number(low), constant_number(high)
        if a is not None and b is not None and a > b and self.types.get(id(low), NUMBER).kind == "number":
            self.error(
                "E305",
                f"the range {a} to {b} is empty: {a} is more than {b}",
                Span(low.span.start, high.span.end),
                f"write {b} to {a} (a range counts upwards)",
            )

    def _expr_Negate(self, e: n.Negate, scope: Scope, want: Type | None) -> Type:
        self.expect(e.operand, scope, NUMBER)
        return NUMBER

    def _operand(self, e: n.Expr, scope: Scope, want: Type | None = None) -> Type:
        # `players` in arithmetic or an ordering means how many players there are.
        return self.check(e, scope, NUMBER if isinstance(e, n.AllPlayers) else want)

    def _expr_Arith(self, e: n.Arith, scope: Scope, want: Type | None) -> Type:
        left = self._operand(e.left, scope, NUMBER if want is not None and want.kind == "number" else None)
        right = self._operand(e.right, scope)
        if e.op == "+" and (left.kind in ("zone", "cards", "card") or right.kind in ("zone", "cards", "card")):
            for t, node in ((left, e.left), (right, e.right)):
                if t.kind not in ("zone", "cards", "card", "any"):
                    self.error("E301", f"'+' joins cards with cards, not with {t}", node)
            return CARDS
        if e.op in "+-" and "set" in (left.kind, right.kind):
            return self._set_arith(e, left, right)
        for t, node in ((left, e.left), (right, e.right)):
            if not self.fits(t, NUMBER, node):
                self.error("E301", f"'{e.op}' works on numbers, not on {t}", node, _mismatch_hint(t, NUMBER))
        return NUMBER

    def _set_arith(self, e: n.Arith, left: Type, right: Type) -> Type:
        """``S + T`` (the values of either) or ``S - T`` (those of S not in T), of two sets of one kind."""
        if left.kind == right.kind == "set" and (self.fits(right, left, e.right) or self.fits(left, right, e.left)):
            return left if left.of else right
        # The operand at fault: the one that is no set, or the second of two sets of different values.
        other, node = (left, e.left) if left.kind != "set" else (right, e.right)
        what = "joins a set with a set of the same values, not with" if e.op == "+" else "takes a set from a set of"
        if e.op == "-":
            what += " the same values, not"
        self.error("E301", f"'{e.op}' {what} {other}", node)
        return ANY

    def _expr_Compare(self, e: n.Compare, scope: Scope, want: Type | None) -> Type:
        if isinstance(e.left, n.TupleLiteral):
            computation.pair_tuples(self, e.left, e.right, scope)  # (1, 2) < best: best tells what 2 is
        left = self._operand(e.left, scope)
        right = self._operand(e.right, scope, left if left.kind in ("value", "number", "tuple") else None)
        if left.kind == "number" and right.kind == "value" and isinstance(e.left, n.Number):
            left = self._expr_Number(e.left, scope, right)
            self.types[id(e.left)] = left
        if left.kind == "any" or right.kind == "any":
            return FLAG
        if e.op in ("==", "!="):
            if not (self.fits(right, left, e.right) or self.fits(left, right, e.left)):
                self.error("E301", f"cannot compare {left} with {right}", e, _mismatch_hint(right, left))
        else:
            for t, node in ((left, e.left), (right, e.right)):
                if t.kind not in ("number", "value", "tuple", "none"):
                    self.error("E301", f"'{e.op}' compares numbers, ordered values or tuples, not {t}", node)
            if left.kind == "value" and right.kind == "value" and left.of != right.of:
                self.error("E301", f"cannot order {left} against {right}", e)
            computation.check_tuple_order(self, e, left, right)
        return FLAG

    def _expr_Member(self, e: n.Member, scope: Scope, want: Type | None) -> Type:
        if isinstance(e.collection, n.SetLiteral):
            # `r in {2, 3, 10, Joker}`: the element tells what the set holds.
            elem = self.check(e.element, scope)
            coll = self.check(e.collection, scope, Type("set", elem.of) if elem.kind == "value" else None)
        else:
            coll = self.check(e.collection, scope)
        elem_want = element_type(coll)
        t = self.check(e.element, scope, elem_want)
        if coll.kind not in ("set", "cards", "zone", "players", "range", "any"):
            self.error("E301", f"'in' looks in a set, cards, players or a range, not in {coll}", e.collection)
        elif elem_want is not None and not self.fits(t, elem_want, e.element):
            self.error("E301", f"{coll} cannot hold {t}", e.element)
        return FLAG

    def _expr_Overlaps(self, e: n.Overlaps, scope: Scope, want: Type | None) -> Type:
        left = self.check(e.left, scope)
        right = self.check(e.right, scope, left)
        for t, node in ((left, e.left), (right, e.right)):
            if t.kind not in ("set", "any"):
                self.error("E301", f"'overlaps' compares two sets, not {t}", node)
        if left.kind == right.kind == "set" and left.of and right.of and left.of != right.of:
            self.error("E301", f"{left} and {right} cannot share values", e)
        return FLAG

    def _expr_IsEmpty(self, e: n.IsEmpty, scope: Scope, want: Type | None) -> Type:
        t = self.check(e.operand, scope)
        if t.kind not in ("zone", "cards", "set", "players", "any"):
            self.error("E301", f"{t} cannot be empty", e.operand, "write '== none' to test for no value")
        return FLAG

    def _expr_IsOut(self, e: n.IsOut, scope: Scope, want: Type | None) -> Type:
        self.expect(e.operand, scope, PLAYER)
        return FLAG

    def _expr_IsSeen(self, e: n.IsSeen, scope: Scope, want: Type | None) -> Type:
        self.expect(e.operand, scope, CARD)
        if e.viewer is not None:
            self.expect(e.viewer, scope, PLAYER)
        return FLAG

    def _expr_IsNamed(self, e: n.IsNamed, scope: Scope, want: Type | None) -> Type:
        self.expect(e.operand, scope, CARD)
        if e.card_name not in self.symbols.card_names and not self.symbols.has_card_templates:
            self.error(
                "E207",
                f"no card is named '{e.card_name}'",
                e,
                did_you_mean(e.card_name, self.symbols.card_names, "cards"),
            )
        return FLAG

    def _expr_Not(self, e: n.Not, scope: Scope, want: Type | None) -> Type:
        self.expect(e.operand, scope, FLAG)
        return FLAG

    def _expr_BoolOp(self, e: n.BoolOp, scope: Scope, want: Type | None) -> Type:
        self.expect(e.left, scope, FLAG)
        self.expect(e.right, scope, FLAG)
        return FLAG

    def _expr_IfExpr(self, e: n.IfExpr, scope: Scope, want: Type | None) -> Type:
        self.expect(e.cond, scope, FLAG)
        if mentions_players(e.cond):
            scope = scope.child(players_guard=True)
        a = self.check(e.then, scope, want)
        b = self.check(e.else_, scope, want if want is not None else (a if a.kind != "none" else None))
        return self._unify(a, b, e)

    def _unify(self, a: Type, b: Type, e: n.Node) -> Type:
        if a.kind == "any" or b.kind == "any":
            return ANY
        if a.kind == "none":
            return b.maybe_none()
        if b.kind == "none":
            return a.maybe_none()
        if a.kind == b.kind and (a.of == b.of or not a.of or not b.of):
            return a if (a.nullable or not b.nullable) else b
        if {a.kind, b.kind} <= {"zone", "cards", "card"}:
            return CARDS
        self.error(
            "E301",
            f"the two branches give {a} and {b}",
            e,
            "both branches of 'if … then … else' must give the same kind of value",
        )
        return ANY

    def _binder(self, var: str, iterable: n.Expr, scope: Scope, owner: n.Node) -> Scope:
        self.ctx.reserved(var, owner)
        elem = self.iterable(iterable, scope)
        inner = scope.child()
        inner.locals[var] = LocalSym(var, owner, elem, "loop")
        return inner

    def _expr_Quantifier(self, e: n.Quantifier, scope: Scope, want: Type | None) -> Type:
        inner = self._binder(e.var, e.iterable, scope, e)
        self.expect(e.cond, inner, FLAG)
        return FLAG

    def _expr_Count(self, e: n.Count, scope: Scope, want: Type | None) -> Type:
        inner = self._binder(e.var, e.iterable, scope, e)
        if e.where is not None:
            self.expect(e.where, inner, FLAG)
        return NUMBER

    def _expr_Filter(self, e: n.Filter, scope: Scope, want: Type | None) -> Type:
        t = self.check(e.iterable, scope)
        inner = self._binder(e.var, e.iterable, scope, e)
        self.expect(e.where, inner, FLAG)
        if t.kind == "players":
            return PLAYERS
        if t.kind not in ("zone", "cards", "any"):
            self.error("E301", f"'cards … where' filters cards or players, not {t}", e.iterable)
        return CARDS

    def _expr_First(self, e: n.First, scope: Scope, want: Type | None) -> Type:
        inner = self._binder(e.var, e.iterable, scope, e)
        self.expect(e.where, inner, FLAG)
        return inner.locals[e.var].type.maybe_none()

    def _expr_Topmost(self, e: n.Topmost, scope: Scope, want: Type | None) -> Type:
        t = self.check(e.iterable, scope)
        if t.kind not in ("zone", "cards", "any"):
            self.error("E301", f"'topmost' looks through a zone or cards, not {t}", e.iterable)
        inner = self._binder(e.var, e.iterable, scope, e)
        self.expect(e.where, inner, FLAG)
        return CARD.maybe_none()

    def _expr_Aggregate(self, e: n.Aggregate, scope: Scope, want: Type | None) -> Type:
        inner = self._binder(e.var, e.iterable, scope, e)
        if e.where is not None:
            self.expect(e.where, inner, FLAG)
        t = self.check(e.value, inner)
        if e.op == "distinct":
            return NUMBER
        if e.op == "total":
            if not self.fits(t, NUMBER, e.value):
                self.error("E301", f"'total' adds numbers, not {t}", e.value)
            return NUMBER
        if t.kind not in ("number", "value", "tuple", "any"):
            self.error("E301", f"'{e.op}' compares numbers, ordered values or tuples, not {t}", e.value)
        return t.maybe_none()

    def _expr_Best(self, e: n.Best, scope: Scope, want: Type | None) -> Type:
        inner = self._binder(e.var, e.iterable, scope, e)
        if e.where is not None:
            self.expect(e.where, inner, FLAG)
        t = self.check(e.key, inner)
        if t.kind not in ("number", "value", "tuple", "any"):
            hint = f"compare one of its attributes: with {e.op} {e.var}.rank, say" if t.kind == "card" else None
            self.error("E301", f"'with {e.op}' compares numbers, ordered values or tuples, not {t}", e.key, hint)
        return inner.locals[e.var].type.maybe_none()

    def _zone_arg(self, e: n.Expr, scope: Scope, what: str) -> Type:
        if what in ("top of", "bottom of"):  # `bottom of pile.rank` is `bottom of (pile.rank)`
            self.zone_end[id(e)] = what.split()[0]
        t = self.check(e, scope)
        if t.kind not in ("zone", "cards", "any"):
            self.error("E301", f"'{what}' takes a zone or cards, not {t}", e)
            return ANY
        return t

    def _expr_TopOf(self, e: n.TopOf, scope: Scope, want: Type | None) -> Type:
        if self._zone_arg(e.zone, scope, "top of").kind == "any":
            return ANY
        if e.count is not None:
            self.expect(e.count, scope, NUMBER)
            return CARDS
        return CARD.maybe_none()

    def _expr_BottomOf(self, e: n.BottomOf, scope: Scope, want: Type | None) -> Type:
        if self._zone_arg(e.zone, scope, "bottom of").kind == "any":
            return ANY
        if e.count is not None:
            self.expect(e.count, scope, NUMBER)
            return CARDS
        return CARD.maybe_none()

    def _expr_AllOf(self, e: n.AllOf, scope: Scope, want: Type | None) -> Type:
        self._zone_arg(e.zone, scope, "all of")
        return CARDS

    def _expr_AllButTop(self, e: n.AllButTop, scope: Scope, want: Type | None) -> Type:
        self.expect(e.count, scope, NUMBER)
        self._zone_arg(e.zone, scope, "all but top")
        return CARDS

    def _expr_SizeOf(self, e: n.SizeOf, scope: Scope, want: Type | None) -> Type:
        t = self.check(e.operand, scope)
        if t.kind not in ("zone", "cards", "set", "players", "range", "any"):
            self.error("E301", f"'size of' counts cards, players or a set, not {t}", e.operand)
        return NUMBER

    def _expr_PositionOf(self, e: n.PositionOf, scope: Scope, want: Type | None) -> Type:
        t = self.check(e.operand, scope)
        if t.kind == "value":  # its place in its 'values' list, from 1
            return NUMBER.maybe_none() if t.nullable else NUMBER
        if e.as_number and t.kind != "any":
            self.error(
                "E301",
                f"'as number' gives the place of a value in its list, not of {t}",
                e,
                "write it of an attribute ('c.rank as number'); a card's place in its zone is 'position of c'",
            )
            return NUMBER
        if not self.fits(t, CARD, e.operand):
            self.error("E301", f"expected {CARD}, found {t}", e.operand, _mismatch_hint(t, CARD))
        return NUMBER

    def _expr_RunOf(self, e: n.RunOf, scope: Scope, want: Type | None) -> Type:
        self._zone_arg(e.zone, scope, "run of")
        attr = self.symbols.attributes.get(e.key)
        if attr is not None:
            self.refs[id(e)] = RunKeyAttrRef(attr)
        elif e.key in self.symbols.defines:
            d = self.symbols.defines[e.key]
            self.ctx.decls.define_type(d)
            if len(d.params) != 1 or d.params[0][1].kind != "card":
                self.error("E302", f"'{e.key}' must take one card to key a run", e)
            self.refs[id(e)] = DefineRef(d)
        else:
            self.error(
                "E203",
                f"'{e.key}' is neither a card attribute nor a definition of one card",
                e,
                did_you_mean(e.key, [*self.symbols.attributes, *self.symbols.defines], "names"),
            )
        return CARDS

    def _expr_EveryCard(self, e: n.EveryCard, scope: Scope, want: Type | None) -> Type:
        return CARDS  # at load time: the deck as built for the options chosen

    def _need_player(self, e: n.Node, scope: Scope, what: str) -> None:
        if scope.load_time:
            self.error("E211", f"'{what}' is not known when the game is loaded", e)

    def _expr_ActingPlayer(self, e: n.ActingPlayer, scope: Scope, want: Type | None) -> Type:
        if not scope.has_player:
            self.error("E212", "'player' (the player acting) has no meaning here", e)
            return ANY
        return PLAYER

    def _expr_PlayerStep(self, e: n.PlayerStep, scope: Scope, want: Type | None) -> Type:
        self._need_player(e, scope, "player after")
        self.expect(e.player, scope, PLAYER)
        return PLAYER

    def _expr_AllPlayers(self, e: n.AllPlayers, scope: Scope, want: Type | None) -> Type:
        if want is not None and want.kind == "number":
            self.refs[id(e)] = CountRef()
            return NUMBER
        return PLAYERS

    def _expr_PlayersAfter(self, e: n.PlayersAfter, scope: Scope, want: Type | None) -> Type:
        self._need_player(e, scope, "players after")
        self.expect(e.player, scope, PLAYER)
        return PLAYERS

    def _expr_PlayersStarting(self, e: n.PlayersStarting, scope: Scope, want: Type | None) -> Type:
        self._need_player(e, scope, "players starting with")
        self.expect(e.player, scope, PLAYER)
        return PLAYERS

    def _expr_Neighbour(self, e: n.Neighbour, scope: Scope, want: Type | None) -> Type:
        self.expect(e.player, scope, PLAYER)
        return PLAYER

    def _expr_Seat(self, e: n.Seat, scope: Scope, want: Type | None) -> Type:
        self.expect(e.index, scope, NUMBER)
        seen = self.seats.get(id(e))
        self.seats[id(e)] = (e, scope.players_guard and (seen is None or seen[1]))
        return PLAYER


def mentions_players(e: n.Node) -> bool:
    """Whether an expression uses 'players' (a test of how many play, most likely)."""
    return isinstance(e, n.AllPlayers) or any(mentions_players(c) for c in e.children())


def _plural(t: Type) -> str:
    if t.kind == "value":
        return f"{t.of} values"
    return "numbers" if t.kind == "number" else str(t)


def _mismatch_hint(t: Type, want: Type) -> str | None:
    if want.kind == "cards" and t.kind == "zone":
        return None
    if want.kind == "card" and t.kind == "zone":
        return "for its top card, write 'top of' before the zone"
    if want.kind == "number" and t.kind in ("zone", "cards"):
        return "for how many cards, write 'size of' before it"
    if want.kind == "flag" and t.kind in ("zone", "cards"):
        return "to test for cards, write 'is empty' or 'is not empty'"
    if want.kind == "player" and t.kind == "players":
        return "pick one player, such as 'first p in players where …'"
    return None
