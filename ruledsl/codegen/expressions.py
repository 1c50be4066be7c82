"""Write the Python expression for each rule expression (the ``_ex_*`` methods)."""

from __future__ import annotations

import re

from ruledsl.analysis.refs import (
    BuiltinRef,
    CardAttrRef,
    CardsAttrRef,
    CardVarRef,
    CountRef,
    DefineRef,
    DirectionRef,
    GameVarRef,
    LocalRef,
    MemberRef,
    OptionRef,
    PlayerVarRef,
    RunKeyAttrRef,
    RunSpanRef,
    ZoneFamilyRef,
    ZoneRef,
)
from ruledsl.analysis.symbols import AttributeSym, DefineSym, Type
from ruledsl.codegen import computation, names
from ruledsl.codegen.context import CompileContext, CompilerPart, Scope
from ruledsl.codegen.folding import PyName, simple_code
from ruledsl.engine.ops import SHOWN_UNITS
from ruledsl.syntax import nodes as n


class Expressions(CompilerPart):
    """Python for rule expressions: one ``_ex_<Node>`` method per kind of expression."""

    def __init__(self, cx: CompileContext) -> None:
        super().__init__(cx)
        self.folding = cx.folding
        # How a text being shown writes its cards (whose view), for texts nested in its value:
        # 'say if X then "{c}" else ...' is read by every player, not by the actor alone.
        self.text_show: str | None = None
        self._inline_depth = 0
        # Whether the elements expressions go through count against the action's work (not in a
        # card's label, worked out once when the game is loaded: ``gone_through``).
        self.counting = True

    # The computations on cards (sorting, the k-th element, sums of some cards) live in computation.py.
    _ex_Sorted = computation.write_sorted
    _ex_SubsetSum = computation.write_subset_sum
    _ex_CountSets = computation.write_count_sets
    _ex_ItemOf = computation.write_item_of

    def ex(self, e: n.Expr, scope: Scope) -> str:
        """Python for ``e`` in ``scope``, in parentheses (or the name of its value, computed before the loops)."""
        override = scope.overrides.get(id(e))
        if override is not None:
            return override
        if isinstance(e, PyName):
            return e.code
        method = getattr(self, f"_ex_{type(e).__name__}")
        code = f"({method(e, scope)})"
        if scope.hoist is not None and self.folding.hoistable(e, code, scope.varying):
            # Inside the loops that list an action's choices, a value that depends on no
            # choice and cannot fail is computed once, before the loops; the same code twice
            # is the same value, since listing changes nothing.
            name = scope.hoist.get(code)
            if name is None:
                name = scope.hoist[code] = self.fresh(names.HOISTED)
            return name
        return code

    def cards(self, e: n.Expr, scope: Scope) -> str:
        """Python for a list of cards (a zone's own list: do not change it)."""
        t = self.type_of(e)
        if t.kind == "zone":
            return f"Z[{self.ex(e, scope)}]"
        if t.kind == "card":
            return f"op_one({self.ex(e, scope)})"
        return self.ex(e, scope)

    def iterable(self, e: n.Expr, scope: Scope) -> str:
        t = self.type_of(e)
        if t.kind == "set" and t.of != "number":
            return f"op_bits({self.ex(e, scope)})"
        if t.kind in ("zone", "card", "cards"):
            return self.cards(e, scope)
        return self.ex(e, scope)

    def gone_through(self, e: n.Expr, scope: Scope, sorted_: bool = False, units: int = 1) -> str:
        """Python for the elements of ``e`` an expression goes through (counts, sums, tests, searches,
        shows), ``units`` each, counted against the action's work (``op_work``: R511 past WORK_BUDGET),
        n·log2(n) for a sort. The players (16 at most) and one card are not counted; nor are an action's label, worked
        out from the values chosen (a handful), and a card's, worked out when the game is loaded: no state
        is at hand."""
        code = self.iterable(e, scope)
        if self.cx.label_mode or not self.counting or (not sorted_ and self.type_of(e).kind in ("players", "card")):
            return code
        if sorted_:
            return f"op_work_sorted(st, {code})"
        return f"op_work(st, {code})" if units == 1 else f"op_work(st, {code}, {units})"

    def _ex_Number(self, e: n.Number, scope: Scope) -> str:
        ref = self.ref(e)
        if isinstance(ref, MemberRef):
            return repr(ref.member.index)
        return repr(e.value)

    def _ex_Text(self, e: n.Text, scope: Scope) -> str:
        return self.text(e, scope, self.text_show or f"st.show_card({scope.player}, {{}})")

    def text(self, e: n.Text, scope: Scope, show_card: str) -> str:
        parts: list[str] = []
        for part in e.parts:
            if isinstance(part, str):
                parts.append(repr(part))
            else:
                parts.append(self.show(part, scope, show_card))
        if not parts:
            return "''"
        if len(parts) == 1:
            return parts[0]
        joined = "''.join((" + ", ".join(parts) + ",))"
        # Only a text put in a text can make it grow past the limit ("{t}{t}", set again and again).
        if any(not isinstance(p, str) and self.type_of(p).kind == "text" for p in e.parts):
            return f"op_text({joined})"
        return joined

    def show(self, e: n.Expr, scope: Scope, show_card: str) -> str:
        """Python for the text of a value, as a person reads it (cards written by ``show_card``)."""
        t = self.type_of(e)
        outer, self.text_show = self.text_show, show_card
        try:
            x = self.ex(e, scope)
        finally:
            self.text_show = outer
        if t.kind == "text":
            return f"str({x})"
        if t.kind == "number":
            return f"op_show_number({x})"
        if t.kind == "flag":
            return f"op_show_flag({x})"
        if t.kind == "value":
            return f"op_show_value({self.layout.display_table(t.of)}, {x})"
        if t.kind == "set" and t.of == "number":
            return f"op_show_numbers({x})"
        if t.kind == "set":
            return f"op_show_bits({self.layout.display_table(t.of)}, {x})"
        if t.kind == "card":
            return show_card.format(x)
        if t.kind in ("cards", "zone"):
            v = self.fresh(names.SHOWN)
            shown = self.gone_through(e, scope, units=SHOWN_UNITS)
            return "op_show_cards([" + show_card.format(v) + f" for {v} in {shown}])"
        if t.kind == "player":
            return f"op_show_player({x})"
        if t.kind == "players":
            return f"op_show_players({x})"
        if t.kind == "tuple" and t.of:
            tables = "".join(
                ("None" if of == "number" else self.layout.display_table(of)) + ", " for of in t.of.split(",")
            )
            return f"op_show_tuple(({tables}), {x})"
        return f"str({x})"

    def _ex_BoolLit(self, e: n.BoolLit, scope: Scope) -> str:
        return repr(e.value)

    def _ex_NoneLit(self, e: n.NoneLit, scope: Scope) -> str:
        return "None"

    def _ex_Name(self, e: n.Name, scope: Scope) -> str:
        ref = self.ref(e)
        if isinstance(ref, LocalRef):
            return scope.names[e.id]
        if isinstance(ref, OptionRef):
            return repr(self.options[ref.option.name])
        if isinstance(ref, MemberRef):
            return repr(ref.member.index)
        if isinstance(ref, BuiltinRef):
            return "st.round" if e.id == "round" else "st.direction"
        if isinstance(ref, DirectionRef):
            return "st.direction"
        if isinstance(ref, GameVarRef):
            return f"st.gv[{ref.var.index}]"
        if isinstance(ref, PlayerVarRef):
            return f"st.pv[{ref.var.index}][{scope.player}]"
        if isinstance(ref, (ZoneRef, ZoneFamilyRef)):
            z = ref.zone
            base = self.layout.zone_base(z)
            if z.per_player:
                return f"{base} + {scope.player}" if base else scope.player
            return repr(base)
        if isinstance(ref, DefineRef):
            inlined = self.inline(ref.define, (), scope)
            if inlined is not None:
                return inlined
            self.cx.listing_calls_defines |= self.cx.listing
            return f"{names.DEFINE(ref.define.index)}(st, {scope.player})"
        raise AssertionError(f"unresolved name {e.id}: {ref}")

    def inline(self, d: DefineSym, args: tuple[n.Expr, ...], scope: Scope) -> str | None:
        """Python for a small definition's body written in place of its call, or None.

        A call costs more than a small body. Parameters are replaced, by node, only where
        the body's names really are those parameters, so nothing in the body is captured.
        An argument used more than once must be cheap to compute again (it has no effects).
        """
        body_nodes = self.folding.inline_body(d, self._inline_depth)
        if body_nodes is None:
            return None
        decl = d.decl
        assert isinstance(decl, n.DefineDecl)
        overrides = dict(scope.overrides)
        for (pname, ptype), arg in zip(d.params, args):
            uses = self.folding.parameter_uses(body_nodes, pname, decl)
            if not self.folding.may_substitute(arg, uses):
                return None
            code = (
                f"list({self.cards(arg, scope)})"
                if ptype.kind == "cards" and self.type_of(arg).kind in ("card", "zone")
                else self.ex(arg, scope)
            )
            for x in uses:
                overrides[id(x)] = code
        self._inline_depth += 1
        try:
            return self.ex(decl.body, scope.with_overrides(overrides))
        finally:
            self._inline_depth -= 1

    def _ex_AllPlayers(self, e: n.AllPlayers, scope: Scope) -> str:
        if isinstance(self.ref(e), CountRef):
            return repr(self.players)
        return "ALLP"

    def _ex_Call(self, e: n.Call, scope: Scope) -> str:
        ref = self.ref(e)
        args = [self.ex(a, scope) for a in e.args]
        if isinstance(ref, RunSpanRef):
            return self._run_span(ref, args[0], scope)
        if isinstance(ref, BuiltinRef):
            if e.name == "words":
                return f"op_words({args[0]})"
            return f"{e.name}({', '.join(args)})"
        assert isinstance(ref, DefineRef)
        d = ref.define
        inlined = self.inline(d, e.args, scope)
        if inlined is not None:
            return inlined
        self.cx.listing_calls_defines |= self.cx.listing
        return f"{names.DEFINE(d.index)}(st, {scope.player}{self.call_args(e.args, d.params, scope)})"

    def _run_span(self, ref: RunSpanRef, cards: str, scope: Scope) -> str:
        """The lowest or highest value a run chosen in the action spans, its wild cards read as standing in."""
        shape = ref.shape
        attribute = self.ref(shape)
        assert isinstance(attribute, AttributeSym)  # the checker resolves a run's attribute
        wild = self.cx.actions.wild(shape, scope.player)
        end = 0 if ref.name == "run_low" else 1
        return f"op_run_span({cards}, {names.ATTRIBUTE(attribute.index)}, {wild}, {shape.width})[{end}]"

    def _ex_Attribute(self, e: n.Attribute, scope: Scope) -> str:
        ref = self.ref(e)
        if isinstance(ref, MemberRef):
            return repr(ref.member.index)
        if isinstance(ref, CardAttrRef):
            table = names.ATTRIBUTE(ref.attr.index)
            if (
                isinstance(e.obj, n.TopOf)
                and e.obj.count is None
                and self.type_of(e.obj.zone).kind == "zone"
                and id(e.obj) not in scope.overrides
            ):
                z = self.ex(e.obj.zone, scope)
                if simple_code(z):
                    return f"{table}[Z[{z}][-1]] if Z[{z}] else None"
            obj = self.ex(e.obj, scope)
            if self.cx.label_mode:  # a card chosen by its place is a Place there, whose attributes are none
                return f"op_label_attr({table}, {obj})"
            if self.type_of(e.obj).nullable:
                return f"op_attr({table}, {obj})"
            return f"{table}[{obj}]"
        if isinstance(ref, CardsAttrRef):
            return f"op_first_attr({names.ATTRIBUTE(ref.attr.index)}, {self.cards(e.obj, scope)})"
        if isinstance(ref, CardVarRef):
            obj = self.ex(e.obj, scope)
            if self.type_of(e.obj).nullable:
                return f"op_attr(st.cv[{ref.var.index}], {obj})"
            return f"st.cv[{ref.var.index}][{obj}]"
        if isinstance(ref, PlayerVarRef):
            return f"st.pv[{ref.var.index}][{self.ex(e.obj, scope)}]"
        if isinstance(ref, ZoneRef):
            base = self.layout.zone_base(ref.zone)
            owner = self.ex(e.obj, scope)
            return f"{base} + {owner}" if base else owner
        raise AssertionError(f"unresolved attribute {e.name}: {ref}")

    def _ex_TupleLiteral(self, e: n.TupleLiteral, scope: Scope) -> str:
        return "(" + "".join(self.ex(i, scope) + ", " for i in e.items) + ")"

    def _ex_SetLiteral(self, e: n.SetLiteral, scope: Scope) -> str:
        t = self.type_of(e)
        if t.of == "number" or t.of is None:
            return "frozenset((" + "".join(self.ex(i, scope) + ", " for i in e.items) + "))"
        if all(self.folding.is_constant(i) for i in e.items):
            mask = 0
            for i in e.items:
                v = self.load.value(i)
                if v is not None:
                    mask |= 1 << v
            return repr(mask)
        return " | ".join(f"op_bit({self.ex(i, scope)})" for i in e.items) or "0"

    def set_arith(self, left: str, op: str, right: n.Expr, t: Type, scope: Scope) -> str:
        """Python for the set ``left`` (code) with ``right`` (a set, or one of its values) added (``op`` '+')
        or taken away ('-'): a set of numbers is a frozenset, bounded in size (R510); one of values a mask."""
        code = self.ex(right, scope)
        one = self.type_of(right).kind != "set"
        if t.of == "number" or t.of is None:
            other = f"op_one_number({code})" if one else code
            return f"op_set_size({left} | {other})" if op == "+" else f"{left} - {other}"
        other = f"op_bit({code})" if one else code
        return f"{left} | {other}" if op == "+" else f"{left} & ~({other})"

    def _ex_RangeLiteral(self, e: n.RangeLiteral, scope: Scope) -> str:
        # Counting, summing or testing over a range costs a step per number: a huge one is refused.
        return f"op_numbers({self.ex(e.low, scope)}, {self.ex(e.high, scope)})"

    def _ex_Negate(self, e: n.Negate, scope: Scope) -> str:
        return f"-{self.ex(e.operand, scope)}"

    def _ex_Arith(self, e: n.Arith, scope: Scope) -> str:
        t = self.type_of(e)
        if t.kind == "cards":
            return f"{self.cards(e.left, scope)} + {self.cards(e.right, scope)}"
        if t.kind == "set":
            return self.set_arith(self.ex(e.left, scope), e.op, e.right, t, scope)
        op = "//" if e.op == "/" else e.op
        code = f"{self.ex(e.left, scope)} {op} {self.ex(e.right, scope)}"
        # Only a product, or a sum of two values that may be large, can leave the limits
        # (ruledsl.engine.limits): a division shrinks, and a literal is small.
        constant = self.folding.is_constant
        if op == "*" or (op in "+-" and not constant(e.left) and not constant(e.right)):
            return f"op_num({code})"
        return code

    def _ex_Compare(self, e: n.Compare, scope: Scope) -> str:
        a, b = self.ex(e.left, scope), self.ex(e.right, scope)
        if e.op in ("==", "!="):
            return f"{a} {e.op} {b}"
        if self.type_of(e.left).kind == "tuple" or self.type_of(e.right).kind == "tuple":
            return f"op_tuple_order({a}, {e.op!r}, {b})"  # its items may be none, which no type tells
        if self.type_of(e.left).nullable or self.type_of(e.right).nullable:
            fn = {"<": "op_lt", "<=": "op_le", ">": "op_gt", ">=": "op_ge"}[e.op]
            return f"{fn}({a}, {b})"
        return f"{a} {e.op} {b}"

    def _ex_Member(self, e: n.Member, scope: Scope) -> str:
        t = self.type_of(e.collection)
        x = self.ex(e.element, scope)
        if t.kind == "set" and t.of != "number":
            test = f"op_has({self.ex(e.collection, scope)}, {x})"
        elif isinstance(e.collection, n.RangeLiteral):  # a test of bounds, however long the range
            test = f"({self.ex(e.collection.low, scope)} <= {x} <= {self.ex(e.collection.high, scope)})"
        elif t.kind == "set":  # numbers, hashed: one look, however many
            test = f"{x} in {self.ex(e.collection, scope)}"
        elif (z := self._in_zone(e, x, scope)) is not None:
            test = z
        else:
            test = f"{x} in {self.gone_through(e.collection, scope)}"
        return f"not {test}" if e.negated else test

    def _in_zone(self, e: n.Member, x: str, scope: Scope) -> str | None:
        """Python testing that the card ``x`` (maybe none) lies in the zone ``e.collection`` by the zone it
        lies in (one look, where looking through the zone goes through its cards: ``c in column1``), or None."""
        element = self.type_of(e.element)
        if self.type_of(e.collection).kind != "zone" or element.kind != "card" or self.cx.label_mode:
            return None
        z = self.ex(e.collection, scope)
        if not element.nullable:
            return f"st.loc[{x}] == {z}"
        return f"({x} is not None and st.loc[{x}] == {z})" if simple_code(x) else f"op_lies_in(st, {x}, {z})"

    def _ex_Overlaps(self, e: n.Overlaps, scope: Scope) -> str:
        t = self.type_of(e.left)
        if t.of == "number":
            return f"not {self.ex(e.left, scope)}.isdisjoint({self.ex(e.right, scope)})"
        return f"{self.ex(e.left, scope)} & {self.ex(e.right, scope)} != 0"

    def _ex_IsEmpty(self, e: n.IsEmpty, scope: Scope) -> str:
        t = self.type_of(e.operand)
        if t.kind == "set" and t.of != "number":
            test = f"{self.ex(e.operand, scope)} == 0"
        else:
            test = f"not {self.iterable(e.operand, scope)}"
        return f"not ({test})" if e.negated else test

    def _ex_IsOut(self, e: n.IsOut, scope: Scope) -> str:
        test = f"st.out[{self.ex(e.operand, scope)}]"
        return f"not {test}" if e.negated else test

    def _ex_IsSeen(self, e: n.IsSeen, scope: Scope) -> str:
        viewer = "None" if e.viewer is None else self.ex(e.viewer, scope)
        test = f"st.sees({viewer}, {self.ex(e.operand, scope)})"
        return f"not {test}" if e.negated else test

    def _ex_IsNamed(self, e: n.IsNamed, scope: Scope) -> str:
        ids = frozenset(i for i, card in enumerate(self.layout.deck) if card.name == e.card_name)
        if e.card_name not in self.cx.named:
            self.cx.named[e.card_name] = self.cx.const(ids, names.NAMED)
        test = f"{self.ex(e.operand, scope)} in {self.cx.named[e.card_name]}"
        return f"not ({test})" if e.negated else test

    def _ex_Not(self, e: n.Not, scope: Scope) -> str:
        return f"not {self.ex(e.operand, scope)}"

    def _ex_BoolOp(self, e: n.BoolOp, scope: Scope) -> str:
        known, value = self.folding.static(e.left)
        if known:  # `option and x`: the option decides for this load
            if (e.op == "and" and not value) or (e.op == "or" and value):
                return repr(bool(value))
            return self.ex(e.right, scope)
        return f"{self.ex(e.left, scope)} {e.op} {self.ex(e.right, scope)}"

    def _ex_IfExpr(self, e: n.IfExpr, scope: Scope) -> str:
        known, value = self.folding.static(e.cond)
        if known:  # an option fixes the branch for this load
            branch = e.then if value else e.else_
            return self.cards(branch, scope) if self.type_of(e).kind == "cards" else self.ex(branch, scope)
        t = self.type_of(e)
        if t.kind == "cards":
            return f"{self.cards(e.then, scope)} if {self.ex(e.cond, scope)} else {self.cards(e.else_, scope)}"
        return f"{self.ex(e.then, scope)} if {self.ex(e.cond, scope)} else {self.ex(e.else_, scope)}"

    def bind(self, var: str, scope: Scope) -> tuple[str, Scope]:
        py = self.fresh()
        inner = scope.child()
        inner.names[var] = py
        inner.varying = scope.varying | {py}
        return py, inner

    def _ex_Quantifier(self, e: n.Quantifier, scope: Scope) -> str:
        v, inner = self.bind(e.var, scope)
        gen = f"{self.ex(e.cond, inner)} for {v} in {self.gone_through(e.iterable, scope)}"
        if e.kind == "any":
            return f"any({gen})"
        if e.kind == "no":
            return f"not any({gen})"
        return f"all({gen})"

    def _ex_Count(self, e: n.Count, scope: Scope) -> str:
        if e.where is None:
            return f"len({self.iterable(e.iterable, scope)})"
        v, inner = self.bind(e.var, scope)
        return f"sum(1 for {v} in {self.gone_through(e.iterable, scope)} if {self.ex(e.where, inner)})"

    def _ex_Filter(self, e: n.Filter, scope: Scope) -> str:
        v, inner = self.bind(e.var, scope)
        return f"[{v} for {v} in {self.gone_through(e.iterable, scope)} if {self.ex(e.where, inner)}]"

    def _ex_First(self, e: n.First, scope: Scope) -> str:
        v, inner = self.bind(e.var, scope)
        return f"next(({v} for {v} in {self.gone_through(e.iterable, scope)} if {self.ex(e.where, inner)}), None)"

    def _ex_Topmost(self, e: n.Topmost, scope: Scope) -> str:
        v, inner = self.bind(e.var, scope)
        cards = self.gone_through(e.iterable, scope)
        return f"next(({v} for {v} in reversed({cards}) if {self.ex(e.where, inner)}), None)"

    def _ex_Aggregate(self, e: n.Aggregate, scope: Scope) -> str:
        v, inner = self.bind(e.var, scope)
        cond = f" if {self.ex(e.where, inner)}" if e.where is not None else ""
        gen = f"{self.ex(e.value, inner)} for {v} in {self.gone_through(e.iterable, scope)}{cond}"
        if e.op == "total":
            return f"sum({gen})"
        if e.op == "distinct":
            return f"op_distinct({gen})"
        if self.type_of(e.value).kind == "tuple":  # the key 'the x in X with highest E' finds
            return f"op_best_of_tuples(((x, x) for x in ({gen})), {e.op == 'highest'})"
        fn = "max" if e.op == "highest" else "min"
        return f"{fn}((x for x in ({gen}) if x is not None), default=None)"

    def _ex_Best(self, e: n.Best, scope: Scope) -> str:
        v, inner = self.bind(e.var, scope)
        cond = f" if {self.ex(e.where, inner)}" if e.where is not None else ""
        pairs = f"(({self.ex(e.key, inner)}, {v}) for {v} in {self.gone_through(e.iterable, scope)}{cond})"
        fn = "op_best_of_tuples" if self.type_of(e.key).kind == "tuple" else "op_best"
        return f"{fn}({pairs}, {e.op == 'highest'})"

    def _ex_TopOf(self, e: n.TopOf, scope: Scope) -> str:
        if e.count is None:
            if self.type_of(e.zone).kind == "zone":
                z = self.ex(e.zone, scope)
                if simple_code(z):
                    return f"Z[{z}][-1] if Z[{z}] else None"
            return f"op_top({self.cards(e.zone, scope)})"
        return f"op_top_n({self.cards(e.zone, scope)}, {self.ex(e.count, scope)})"

    def _ex_BottomOf(self, e: n.BottomOf, scope: Scope) -> str:
        if e.count is None:
            return f"op_bottom({self.cards(e.zone, scope)})"
        return f"op_bottom_n({self.cards(e.zone, scope)}, {self.ex(e.count, scope)})"

    def _ex_AllOf(self, e: n.AllOf, scope: Scope) -> str:
        return f"{self.cards(e.zone, scope)}[:]"

    def _ex_AllButTop(self, e: n.AllButTop, scope: Scope) -> str:
        return f"op_all_but_top({self.cards(e.zone, scope)}, {self.ex(e.count, scope)})"

    def _ex_SizeOf(self, e: n.SizeOf, scope: Scope) -> str:
        t = self.type_of(e.operand)
        if t.kind == "set" and t.of != "number":
            return f"{self.ex(e.operand, scope)}.bit_count()"
        return f"len({self.iterable(e.operand, scope)})"

    def _ex_PositionOf(self, e: n.PositionOf, scope: Scope) -> str:
        if self.type_of(e.operand).kind == "value":
            return f"op_position_in_values({self.ex(e.operand, scope)})"
        return f"op_position(st, {self.ex(e.operand, scope)})"

    def _ex_RunOf(self, e: n.RunOf, scope: Scope) -> str:
        ref = self.ref(e)
        cards = self.gone_through(e.zone, scope)
        if isinstance(ref, RunKeyAttrRef):
            attr = ref.attr
            if attr.type.kind == "set" and attr.type.of != "number":
                return f"op_run_sets({cards}, {names.ATTRIBUTE(attr.index)}.__getitem__)"
            return f"op_run({cards}, {names.ATTRIBUTE(attr.index)})"
        assert isinstance(ref, DefineRef)
        d = ref.define
        card = self.fresh(names.CARD)
        body = self.inline(d, (PyName(code=card),), scope) if d.params else None
        table = re.fullmatch(rf"\(*{names.ATTRIBUTE.text}(\d+)\[\(*{card}\)*\]\)*", body) if body is not None else None
        if table is not None:
            # The key is an attribute: read its table directly.
            key = f"{names.ATTRIBUTE(int(table.group(1)))}.__getitem__"
        elif body is not None:
            key = f"lambda {card}: {body}"
        else:
            key = f"lambda c_: {names.DEFINE(d.index)}(st, {scope.player}, c_)"
        if d.type.kind == "set" and d.type.of != "number":
            return f"op_run_sets({cards}, {key})"
        return f"op_run_key({cards}, {key})"

    def _ex_EveryCard(self, e: n.EveryCard, scope: Scope) -> str:
        return "ALLCARDS"

    def _ex_ActingPlayer(self, e: n.ActingPlayer, scope: Scope) -> str:
        return scope.player

    def _ex_PlayerStep(self, e: n.PlayerStep, scope: Scope) -> str:
        return f"op_step(st, {self.ex(e.player, scope)}, {e.step})"

    def _ex_PlayersAfter(self, e: n.PlayersAfter, scope: Scope) -> str:
        return f"op_players_after(st, {self.ex(e.player, scope)})"

    def _ex_PlayersStarting(self, e: n.PlayersStarting, scope: Scope) -> str:
        return f"op_players_from(st, {self.ex(e.player, scope)})"

    def _ex_Neighbour(self, e: n.Neighbour, scope: Scope) -> str:
        d = 1 if e.side == "left" else -1
        return f"({self.ex(e.player, scope)} + {d}) % {self.players}"

    def _ex_Seat(self, e: n.Seat, scope: Scope) -> str:
        return f"op_seat(st, {self.ex(e.index, scope)})"

    def call_args(self, args: tuple[n.Expr, ...], params: tuple[tuple[str, Type], ...], scope: Scope) -> str:
        """Python for call arguments, a card or a zone given where cards are wanted made into a list."""
        out = []
        for arg, (_, ptype) in zip(args, params):
            if ptype.kind == "cards" and self.type_of(arg).kind in ("card", "zone"):
                out.append(f"list({self.cards(arg, scope)})")
            else:
                out.append(self.ex(arg, scope))
        return "".join(", " + a for a in out)
