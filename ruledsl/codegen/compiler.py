"""Compile a checked game into Python functions, once per load: no tree walk per move.

The compiler writes Python source from the checked tree and compiles it. That source
holds only names the compiler makes up (``v3``, ``D2``, ``A0``...) and literals it
writes with ``repr``; no text of the rule file is ever executed as code. Each line of
the generated source remembers the rule it came from, so that a rule failing at run
time is reported at its place in the rule file.
"""

from __future__ import annotations

import functools
import itertools
import math
import operator
import re
from collections.abc import Callable, Iterator
from typing import Any

from attrs import define, field, frozen

from ruledsl.analysis.checker import CheckedGame
from ruledsl.analysis.loadtime import LoadTimeError, LoadTimeValues, load_error
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
    Ref,
    RunKeyAttrRef,
    ZoneFamilyRef,
    ZoneRef,
)
from ruledsl.analysis.symbols import (
    AttributeSym,
    DefineSym,
    PhaseSym,
    ProcedureSym,
    Type,
    VarSym,
    WindowSym,
    ZoneSym,
)
from ruledsl.codegen.probes import LineProbes, compile_with_probes
from ruledsl.codegen.refusal import RuleWords
from ruledsl.engine import ops
from ruledsl.engine.limits import STEP_BUDGET
from ruledsl.engine.program import PhaseInfo, Program, VarInfo, WindowInfo, ZoneLayout
from ruledsl.engine.values import (
    AGAIN,
    GO_TO,
    NEXT_TURN,
    Action,
    ActionCache,
    ActionChecks,
    ActionDef,
    ChoiceCheck,
    ClauseCheck,
    GameOver,
    Place,
    RoundOver,
    unseen,
)
from ruledsl.syntax import nodes as n
from ruledsl.text.errors import Diagnostic, OptionError, RuleRuntimeError
from ruledsl.text.source import Span

#: The most cards a deck may have.
MAX_DECK = 10_000
#: Definitions this small (in nodes) are written in place of their calls, up to this depth.
_MAX_INLINE_NODES = 40
_MAX_INLINE_DEPTH = 3
#: The most characters of rule text a simulate report shows to name a rule or an announcement.
_REPORT_WIDTH = 48


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

#: An attribute table read at a card, as the compiler writes it: ``A3[(v12)]``.
_ATTRIBUTE_READ = re.compile(r"(?<![\w.])A\d+\[\(\w+\)\]")

# ============================================================================ load-time values


# ============================================================================ the deck


@define
class _Card:
    name: str
    values: dict[str, Any]


def _build_deck(checked: CheckedGame, load: LoadTimeValues) -> list[_Card]:
    cards: list[_Card] = []
    attrs = checked.symbols.attributes

    def display(attr: str, value: Any) -> str:
        t = attrs[attr].type
        if value is None:
            return ""
        if t.kind == "value":
            return checked.symbols.values[t.of or ""].displays[value]
        return str(value)

    def walk(entries: tuple[n.Node, ...]) -> None:
        for entry in entries:
            if isinstance(entry, n.DeckIf):
                walk(entry.body if load.value(entry.cond) else entry.else_)
            elif isinstance(entry, n.DeckRepeat):
                for _ in range(max(0, load.value(entry.count))):
                    before = len(cards)
                    walk(entry.body)
                    if len(cards) == before:
                        break  # each round adds the same cards (it depends on nothing that changes): none
            elif isinstance(entry, n.CardEntry):
                copies = load.value(entry.copies) if entry.copies is not None else 1
                fixed = {a.name: load.value(a.value) for a in entry.assigns}
                loops = [(lp.name, range(load.value(lp.low), load.value(lp.high) + 1)) for lp in entry.loops]
                # How many cards the entry makes is known before they are made: refuse too many first.
                adding = max(0, copies) * math.prod(max(0, r.stop - r.start) for _, r in loops)
                if len(cards) + adding > MAX_DECK:
                    raise LoadTimeError(entry, f"the deck has more than {MAX_DECK:,} cards")
                combos = itertools.product(*(r for _, r in loops)) if loops else [()]
                for combo in combos:
                    values = dict(fixed)
                    for (name, _), v in zip(loops, combo):
                        values[name] = v
                    name = entry.name
                    for attr, v in values.items():
                        name = name.replace("{" + attr + "}", display(attr, v))
                    name = name.replace("{{", "{").replace("}}", "}")
                    for _ in range(max(0, copies)):
                        cards.append(_Card(name, values))

    walk(checked.deck.entries)
    return cards


# ============================================================================ code generation


@define
class _Naming:
    """All of a state a card's label may reach: each card shown by its name."""

    names: tuple[str, ...]

    def show_card(self, viewer: int | None, c: int) -> str:
        return self.names[c]


class _Ctx:
    """Python names of a rule's locals, and the expression for the acting player."""

    def __init__(
        self,
        names: dict[str, str] | None = None,
        player: str = "p",
        overrides: dict[int, str] | None = None,
        hoist: dict[str, str] | None = None,
        varying: frozenset[str] = frozenset(),
    ) -> None:
        self.names = dict(names or {})
        self.player = player
        self.overrides = overrides or {}  # node id -> Python expression to use instead
        self.hoist = hoist  # where loop-invariant values go (code: name), computed once before the loops
        self.varying = varying  # Python names that change inside those loops

    def child(self) -> _Ctx:
        return _Ctx(self.names, self.player, self.overrides, self.hoist, self.varying)

    def with_overrides(self, overrides: dict[int, str]) -> _Ctx:
        return _Ctx(self.names, self.player, overrides, self.hoist, self.varying)


class _Emitter:
    def __init__(self) -> None:
        self.lines: list[str] = []
        self.spans: list[Span | None] = []
        self.indent = 0
        self._span: Span | None = None

    def line(self, text: str, span: Span | None = None) -> None:
        self.lines.append("    " * self.indent + text)
        self.spans.append(span or self._span)

    def at(self, span: Span | None) -> None:
        self._span = span

    def block(self) -> _Indent:
        return _Indent(self)


class _Indent:
    def __init__(self, em: _Emitter) -> None:
        self.em = em

    def __enter__(self) -> None:
        self.em.indent += 1

    def __exit__(self, *exc: object) -> None:
        self.em.indent -= 1


@define(eq=False)
class ActionInfo:
    """What the compiler knows of one action (or pass) of a phase or window while it writes its code."""

    index: int  # its ActionDef's index, and the number in its functions' names (X3, LB3...)
    item: n.ActionDecl | n.PassDecl
    name: str
    owner: str  # the phase or window
    owner_kind: str  # "phase", "auction" or "window"
    is_pass: bool
    static_label: bool  # its label depends only on its choices, options and constants
    single: bool = False  # it chooses one card, and its ActionCache is keyed by the card alone
    # Filled in when a move is first refused (_emit_checks): each choice's kind, and each
    # condition's (level, condition, whether its player may be told why it is false).
    choice_kinds: list[str] = field(factory=list)
    clauses: list[tuple[int, n.Expr, bool]] = field(factory=list)


class _Compiler:
    def __init__(self, checked: CheckedGame, players: int, options: dict[str, Any], probes: bool = False) -> None:
        self.c = checked
        self.probes = probes  # compile the program's functions with line probes (ruledsl.codegen.probes)
        self.sy = checked.symbols
        self.players = players
        self.options = options
        self.load = LoadTimeValues(checked, players, options)
        self.em = _Emitter()
        self.counter = itertools.count()
        self.constants: dict[str, Any] = {}
        self.named: dict[str, str] = {}
        self.action_defs: list[ActionInfo] = []
        self.trigger_families: set[int] = set()
        self.owner_families: set[int] = set()  # those with a rule naming the owner (when cs enter p.hand)
        self.events: list[str] = []
        self.uses_faces = False
        # How a text being shown writes its cards (whose view), for texts nested in its value:
        # 'say if X then "{c}" else ...' is read by every player, not by the actor alone.
        self.text_show: str | None = None
        # In a label made from an action's key, a card chosen by its place is None.
        self._label_mode = False
        self._inline_depth = 0
        self._define_nodes: dict[int, list[n.Node]] = {}  # the nodes of each definition's body, by id(decl)
        self._listing = False  # compiling a function that lists legal actions
        self.listing_calls_defines = False  # ... and it calls a definition (which memoises)
        self._loop_rest: str | None = None  # the iterator of the 'for each' a 'stop' leaves, if that is the loop

    # ------------------------------------------------------------------ helpers

    def count_event(self, name: str) -> None:
        """Count, in a state that counts (``st.fired``), each time the code emitted next runs.

        A block compiled twice under one name is one rule, counted in one place.
        """
        if name not in self.events:
            self.events.append(name)
        self.em.line(f"if st.fired is not None: st.fired[{self.events.index(name)}] += 1")

    def source_of(self, node: n.Node, limit: int | None = None) -> str:
        """The rule file's text of a node, on one line (cut short to ``limit`` characters, if given)."""
        span = node.span
        text = "" if span is None else self.c.source.text[span.start.offset : span.end.offset]
        text = " ".join(text.split())
        return text if limit is None or len(text) <= limit else text[: limit - 1] + "…"

    def said(self, message: n.Expr) -> str:
        """How a report names a 'say': by its text, the first one when it chooses between texts."""
        if isinstance(message, n.Text):
            return self.source_of(message, _REPORT_WIDTH)
        first = min(_texts_in(message), key=lambda t: t.span.start.offset if t.span else 0, default=None)
        return self.source_of(message, _REPORT_WIDTH) if first is None else self.source_of(first, _REPORT_WIDTH) + " …"

    def fresh(self, prefix: str = "v") -> str:
        return f"{prefix}{next(self.counter)}"

    def type_of(self, e: n.Expr) -> Type:
        return self.c.types.get(id(e)) or Type("any")

    def ref(self, node: n.Node) -> Ref | None:
        return self.c.refs.get(id(node))

    def const(self, value: Any, prefix: str = "K") -> str:
        name = f"{prefix}{len(self.constants)}"
        self.constants[name] = value
        return name

    # ------------------------------------------------------------------ layout

    def layout(self) -> None:
        self.deck = _build_deck(self.c, self.load)
        kinds: dict[tuple[Any, ...], int] = {}
        self.card_kind: list[int] = []
        reps: list[int] = []
        attr_names = list(self.sy.attributes)
        for i, card in enumerate(self.deck):
            key = (card.name, *(_freeze(card.values.get(a)) for a in attr_names))
            if key not in kinds:
                kinds[key] = len(kinds)
                reps.append(i)
            self.card_kind.append(kinds[key])
        self.kind_reps = tuple(reps)
        self.unique = len(kinds) == len(self.deck)
        self.attr_tables: dict[str, tuple[Any, ...]] = {}
        for a in attr_names:
            t = self.sy.attributes[a].type
            default: Any = None
            if t.kind == "set":
                default = 0 if t.of not in (None, "number") else frozenset()
            elif t.kind == "flag":
                default = False
            self.attr_tables[a] = tuple(card.values.get(a, default) for card in self.deck)
        for a, table in self.attr_tables.items():
            self.constants[f"A{self.sy.attributes[a].index}"] = table
        self.constants["KIND"] = tuple(self.card_kind)
        self.constants["REP"] = self.kind_reps
        self.constants["NAMES"] = tuple(card.name for card in self.deck)
        # Zones: one list per shared zone, one per player for the others.
        self.zone_layout: list[ZoneLayout] = []
        base = 0
        families: list[int] = []
        owners: list[int] = []
        for family, z in enumerate(self.sy.zones.values()):
            self.zone_layout.append(ZoneLayout(z.name, z.per_player, z.visibility, base, family))
            count = self.players if z.per_player else 1
            families.extend([family] * count)
            owners.extend(range(count) if z.per_player else [-1])
            base += count
        self.zone_family = tuple(families)
        self.zone_owner = tuple(owners)
        self.constants["ZFAM"] = self.zone_family
        for vals in self.sy.values.values():
            self.constants[f"DISP_{_ident(vals.name)}"] = vals.displays

    def zone_base(self, z: ZoneSym) -> int:
        return self.zone_layout[z.index].base

    # ------------------------------------------------------------------ expressions

    def ex(self, e: n.Expr, ctx: _Ctx) -> str:
        override = ctx.overrides.get(id(e))
        if override is not None:
            return override
        if isinstance(e, _PyName):
            return e.code
        method = getattr(self, f"_ex_{type(e).__name__}")
        code = f"({method(e, ctx)})"
        if (
            ctx.hoist is not None
            and not isinstance(e, _TRIVIAL)
            and not _LITERAL.fullmatch(code)
            and self._total(e)
            and not _mentions(code, ctx.varying)
        ):
            # Inside the loops that list an action's choices, a value that depends on no
            # choice and cannot fail is computed once, before the loops; the same code twice
            # is the same value, since listing changes nothing.
            name = ctx.hoist.get(code)
            if name is None:
                name = ctx.hoist[code] = self.fresh("h")
            return name
        return code

    def _static(self, e: n.Expr) -> tuple[bool, Any]:
        """(True, value) when ``e`` depends only on options, literals and the player count."""
        if isinstance(e, (n.BoolLit, n.Number, n.NoneLit)):
            return True, self.load.value(e)
        if isinstance(e, n.Name):
            if isinstance(self.ref(e), (OptionRef, MemberRef)):
                return True, self.load.value(e)
            return False, None
        if isinstance(e, n.Not):
            known, value = self._static(e.operand)
            return (True, not value) if known else (False, None)
        if isinstance(e, n.BoolOp):
            lk, lv = self._static(e.left)
            if lk and ((e.op == "and" and not lv) or (e.op == "or" and lv)):
                return True, lv
            rk, rv = self._static(e.right)
            if lk and rk:
                return True, (lv and rv) if e.op == "and" else (lv or rv)
            return False, None
        if isinstance(e, n.Compare):
            lk, _ = self._static(e.left)
            rk, _ = self._static(e.right)
            if lk and rk:
                return True, self.load.value(e)
        return False, None

    def _total(self, e: n.Expr) -> bool:
        """Whether evaluating ``e`` can never fail (so it may be computed early)."""
        if isinstance(e, (n.Number, n.BoolLit, n.NoneLit, n.Text, n.ActingPlayer, n.AllPlayers, n.EveryCard, _PyName)):
            return True  # (a _PyName is a variable of the compiler's own)
        if isinstance(e, n.Name):
            ref = self.ref(e)
            if isinstance(ref, DefineRef):
                return self._define_total(ref.define)
            return True
        if isinstance(e, n.Attribute):
            ref = self.ref(e)
            if isinstance(ref, (CardAttrRef, CardVarRef)):
                return (not self.type_of(e.obj).nullable or isinstance(ref, CardAttrRef)) and self._total(e.obj)
            return not isinstance(ref, ZoneRef) or self._total(e.obj)
        if isinstance(e, (n.TopOf, n.BottomOf)):
            return e.count is None and self._total(e.zone)
        if isinstance(e, (n.SizeOf, n.IsEmpty)):
            return self._total(e.operand)
        if isinstance(e, n.Compare):
            return self._total(e.left) and self._total(e.right)
        if isinstance(e, n.BoolOp):
            return self._total(e.left) and self._total(e.right)
        if isinstance(e, n.Not):
            return self._total(e.operand)
        if isinstance(e, n.IfExpr):
            return self._total(e.cond) and self._total(e.then) and self._total(e.else_)
        if isinstance(e, n.Member):
            return self._total(e.element) and self._total(e.collection)
        if isinstance(e, n.Call):
            ref = self.ref(e)
            return isinstance(ref, DefineRef) and self._define_total(ref.define) and all(self._total(a) for a in e.args)
        if isinstance(e, n.Quantifier):
            return self._total(e.iterable) and self._total(e.cond)
        if isinstance(e, (n.SetLiteral, n.TupleLiteral)):
            return all(self._total(i) for i in e.items)
        if isinstance(e, n.Topmost):
            return self._total(e.iterable) and self._total(e.where)
        return False

    def _define_total(self, d: DefineSym) -> bool:
        decl = d.decl
        return isinstance(decl, n.DefineDecl) and self._total(decl.body)

    def cards(self, e: n.Expr, ctx: _Ctx) -> str:
        """Python for a list of cards (a zone's own list: do not change it)."""
        t = self.type_of(e)
        if t.kind == "zone":
            return f"Z[{self.ex(e, ctx)}]"
        if t.kind == "card":
            return f"op_one({self.ex(e, ctx)})"
        return self.ex(e, ctx)

    def iterable(self, e: n.Expr, ctx: _Ctx) -> str:
        t = self.type_of(e)
        if t.kind == "set" and t.of != "number":
            return f"op_bits({self.ex(e, ctx)})"
        if t.kind in ("zone", "card", "cards"):
            return self.cards(e, ctx)
        return self.ex(e, ctx)

    def _ex_Number(self, e: n.Number, ctx: _Ctx) -> str:
        ref = self.ref(e)
        if isinstance(ref, MemberRef):
            return repr(ref.member.index)
        return repr(e.value)

    def _ex_Text(self, e: n.Text, ctx: _Ctx) -> str:
        return self.text(e, ctx, self.text_show or f"st.show_card({ctx.player}, {{}})")

    def text(self, e: n.Text, ctx: _Ctx, show_card: str) -> str:
        parts: list[str] = []
        for part in e.parts:
            if isinstance(part, str):
                parts.append(repr(part))
            else:
                parts.append(self.show(part, ctx, show_card))
        if not parts:
            return "''"
        if len(parts) == 1:
            return parts[0]
        return "''.join((" + ", ".join(parts) + ",))"

    def show(self, e: n.Expr, ctx: _Ctx, show_card: str) -> str:
        """Python for the text of a value, as a person reads it (cards written by ``show_card``)."""
        t = self.type_of(e)
        outer, self.text_show = self.text_show, show_card
        try:
            x = self.ex(e, ctx)
        finally:
            self.text_show = outer
        if t.kind == "text":
            return f"str({x})"
        if t.kind == "number":
            return f"op_show_number({x})"
        if t.kind == "flag":
            return f"op_show_flag({x})"
        if t.kind == "value":
            return f"op_show_value(DISP_{_ident(t.of or '')}, {x})"
        if t.kind == "set" and t.of != "number":
            return f"op_show_bits(DISP_{_ident(t.of or '')}, {x})"
        if t.kind == "card":
            return show_card.format(x)
        if t.kind in ("cards", "zone"):
            v = self.fresh("s")
            return "op_show_cards([" + show_card.format(v) + f" for {v} in {self.cards(e, ctx)}])"
        if t.kind == "player":
            return f"op_show_player({x})"
        if t.kind == "players":
            return f"op_show_players({x})"
        return f"str({x})"

    def _ex_BoolLit(self, e: n.BoolLit, ctx: _Ctx) -> str:
        return repr(e.value)

    def _ex_NoneLit(self, e: n.NoneLit, ctx: _Ctx) -> str:
        return "None"

    def _ex_Name(self, e: n.Name, ctx: _Ctx) -> str:
        ref = self.ref(e)
        if isinstance(ref, LocalRef):
            return ctx.names[e.id]
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
            return f"st.pv[{ref.var.index}][{ctx.player}]"
        if isinstance(ref, (ZoneRef, ZoneFamilyRef)):
            z = ref.zone
            base = self.zone_base(z)
            if z.per_player:
                return f"{base} + {ctx.player}" if base else ctx.player
            return repr(base)
        if isinstance(ref, DefineRef):
            inlined = self._inline(ref.define, (), ctx)
            if inlined is not None:
                return inlined
            self.listing_calls_defines |= self._listing
            return f"D{ref.define.index}(st, {ctx.player})"
        raise AssertionError(f"unresolved name {e.id}: {ref}")

    def _inline(self, d: DefineSym, args: tuple[n.Expr, ...], ctx: _Ctx) -> str | None:
        """Python for a small definition's body written in place of its call, or None.

        A call costs more than a small body. Parameters are replaced, by node, only where
        the body's names really are those parameters, so nothing in the body is captured.
        An argument used more than once must be cheap to compute again (it has no effects).
        """
        decl = d.decl
        if not isinstance(decl, n.DefineDecl) or self._inline_depth >= _MAX_INLINE_DEPTH:
            return None
        body_nodes = self._define_nodes.get(id(decl))
        if body_nodes is None:  # walked once per definition, not at each call
            body_nodes = self._define_nodes[id(decl)] = list(n.walk(decl.body))
        if len(body_nodes) > _MAX_INLINE_NODES:
            return None
        if not d.params and any(isinstance(x, _LOOPING) for x in body_nodes):
            return None  # a costly value without arguments: the per-listing memo computes it once
        overrides = dict(ctx.overrides)
        for (pname, ptype), arg in zip(d.params, args):
            uses = [
                x for x in body_nodes if isinstance(x, n.Name) and x.id == pname and _is_param_of(self.ref(x), decl)
            ]
            if len(uses) > 1 and not _cheap(arg, self.c):
                return None
            if not self._total(arg):
                # Called, the definition gets the argument's value; written in place, the
                # argument could count as a value that cannot fail, computed ahead of its turn.
                return None
            code = (
                f"list({self.cards(arg, ctx)})"
                if ptype.kind == "cards" and self.type_of(arg).kind in ("card", "zone")
                else self.ex(arg, ctx)
            )
            for x in uses:
                overrides[id(x)] = code
        self._inline_depth += 1
        try:
            return self.ex(decl.body, ctx.with_overrides(overrides))
        finally:
            self._inline_depth -= 1

    def _ex_AllPlayers(self, e: n.AllPlayers, ctx: _Ctx) -> str:
        if isinstance(self.ref(e), CountRef):
            return repr(self.players)
        return "ALLP"

    def _ex_Call(self, e: n.Call, ctx: _Ctx) -> str:
        ref = self.ref(e)
        args = [self.ex(a, ctx) for a in e.args]
        if isinstance(ref, BuiltinRef):
            if e.name == "words":
                return f"op_words({args[0]})"
            return f"{e.name}({', '.join(args)})"
        assert isinstance(ref, DefineRef)
        d = ref.define
        inlined = self._inline(d, e.args, ctx)
        if inlined is not None:
            return inlined
        self.listing_calls_defines |= self._listing
        return f"D{d.index}(st, {ctx.player}{self._args(e.args, d.params, ctx)})"

    def _ex_Attribute(self, e: n.Attribute, ctx: _Ctx) -> str:
        ref = self.ref(e)
        if isinstance(ref, MemberRef):
            return repr(ref.member.index)
        if isinstance(ref, CardAttrRef):
            table = f"A{ref.attr.index}"
            if (
                isinstance(e.obj, n.TopOf)
                and e.obj.count is None
                and self.type_of(e.obj.zone).kind == "zone"
                and id(e.obj) not in ctx.overrides
            ):
                z = self.ex(e.obj.zone, ctx)
                if _simple_code(z):
                    return f"{table}[Z[{z}][-1]] if Z[{z}] else None"
            obj = self.ex(e.obj, ctx)
            if self._label_mode:  # a card chosen by its place is a Place there, whose attributes are none
                return f"op_label_attr({table}, {obj})"
            if self.type_of(e.obj).nullable:
                return f"op_attr({table}, {obj})"
            return f"{table}[{obj}]"
        if isinstance(ref, CardsAttrRef):
            return f"op_first_attr(A{ref.attr.index}, {self.cards(e.obj, ctx)})"
        if isinstance(ref, CardVarRef):
            obj = self.ex(e.obj, ctx)
            if self.type_of(e.obj).nullable:
                return f"op_attr(st.cv[{ref.var.index}], {obj})"
            return f"st.cv[{ref.var.index}][{obj}]"
        if isinstance(ref, PlayerVarRef):
            return f"st.pv[{ref.var.index}][{self.ex(e.obj, ctx)}]"
        if isinstance(ref, ZoneRef):
            base = self.zone_base(ref.zone)
            owner = self.ex(e.obj, ctx)
            return f"{base} + {owner}" if base else owner
        raise AssertionError(f"unresolved attribute {e.name}: {ref}")

    def _ex_TupleLiteral(self, e: n.TupleLiteral, ctx: _Ctx) -> str:
        return "(" + "".join(self.ex(i, ctx) + ", " for i in e.items) + ")"

    def _ex_SetLiteral(self, e: n.SetLiteral, ctx: _Ctx) -> str:
        t = self.type_of(e)
        if t.of == "number" or t.of is None:
            return "frozenset((" + "".join(self.ex(i, ctx) + ", " for i in e.items) + "))"
        if all(self._is_constant(i) for i in e.items):
            mask = 0
            for i in e.items:
                v = self.load.value(i)
                if v is not None:
                    mask |= 1 << v
            return repr(mask)
        return " | ".join(f"op_bit({self.ex(i, ctx)})" for i in e.items) or "0"

    def _is_constant(self, e: n.Expr) -> bool:
        if isinstance(e, n.Number):
            return True
        return isinstance(self.ref(e), (MemberRef, OptionRef))

    def _ex_RangeLiteral(self, e: n.RangeLiteral, ctx: _Ctx) -> str:
        # Counting, summing or testing over a range costs a step per number: a huge one is refused.
        return f"op_numbers({self.ex(e.low, ctx)}, {self.ex(e.high, ctx)})"

    def _ex_Negate(self, e: n.Negate, ctx: _Ctx) -> str:
        return f"-{self.ex(e.operand, ctx)}"

    def _ex_Arith(self, e: n.Arith, ctx: _Ctx) -> str:
        if self.type_of(e).kind == "cards":
            return f"{self.cards(e.left, ctx)} + {self.cards(e.right, ctx)}"
        op = "//" if e.op == "/" else e.op
        return f"{self.ex(e.left, ctx)} {op} {self.ex(e.right, ctx)}"

    def _ex_Compare(self, e: n.Compare, ctx: _Ctx) -> str:
        a, b = self.ex(e.left, ctx), self.ex(e.right, ctx)
        if e.op in ("==", "!="):
            return f"{a} {e.op} {b}"
        if self.type_of(e.left).kind == "tuple" or self.type_of(e.right).kind == "tuple":
            return f"op_tuple_order({a}, {e.op!r}, {b})"  # its items may be none, which no type tells
        if self.type_of(e.left).nullable or self.type_of(e.right).nullable:
            fn = {"<": "op_lt", "<=": "op_le", ">": "op_gt", ">=": "op_ge"}[e.op]
            return f"{fn}({a}, {b})"
        return f"{a} {e.op} {b}"

    def _ex_Member(self, e: n.Member, ctx: _Ctx) -> str:
        t = self.type_of(e.collection)
        x = self.ex(e.element, ctx)
        if t.kind == "set" and t.of != "number":
            test = f"op_has({self.ex(e.collection, ctx)}, {x})"
        elif isinstance(e.collection, n.RangeLiteral):  # a test of bounds, however long the range
            test = f"({self.ex(e.collection.low, ctx)} <= {x} <= {self.ex(e.collection.high, ctx)})"
        else:
            test = f"{x} in {self.iterable(e.collection, ctx)}"
        return f"not {test}" if e.negated else test

    def _ex_Overlaps(self, e: n.Overlaps, ctx: _Ctx) -> str:
        t = self.type_of(e.left)
        if t.of == "number":
            return f"not {self.ex(e.left, ctx)}.isdisjoint({self.ex(e.right, ctx)})"
        return f"{self.ex(e.left, ctx)} & {self.ex(e.right, ctx)} != 0"

    def _ex_IsEmpty(self, e: n.IsEmpty, ctx: _Ctx) -> str:
        t = self.type_of(e.operand)
        if t.kind == "set" and t.of != "number":
            test = f"{self.ex(e.operand, ctx)} == 0"
        else:
            test = f"not {self.iterable(e.operand, ctx)}"
        return f"not ({test})" if e.negated else test

    def _ex_IsOut(self, e: n.IsOut, ctx: _Ctx) -> str:
        test = f"st.out[{self.ex(e.operand, ctx)}]"
        return f"not {test}" if e.negated else test

    def _ex_IsNamed(self, e: n.IsNamed, ctx: _Ctx) -> str:
        ids = frozenset(i for i, card in enumerate(self.deck) if card.name == e.card_name)
        if e.card_name not in self.named:
            self.named[e.card_name] = self.const(ids, "NAMED")
        test = f"{self.ex(e.operand, ctx)} in {self.named[e.card_name]}"
        return f"not ({test})" if e.negated else test

    def _ex_Not(self, e: n.Not, ctx: _Ctx) -> str:
        return f"not {self.ex(e.operand, ctx)}"

    def _ex_BoolOp(self, e: n.BoolOp, ctx: _Ctx) -> str:
        known, value = self._static(e.left)
        if known:  # `option and x`: the option decides for this load
            if (e.op == "and" and not value) or (e.op == "or" and value):
                return repr(bool(value))
            return self.ex(e.right, ctx)
        return f"{self.ex(e.left, ctx)} {e.op} {self.ex(e.right, ctx)}"

    def _ex_IfExpr(self, e: n.IfExpr, ctx: _Ctx) -> str:
        known, value = self._static(e.cond)
        if known:  # an option fixes the branch for this load
            branch = e.then if value else e.else_
            return self.cards(branch, ctx) if self.type_of(e).kind == "cards" else self.ex(branch, ctx)
        t = self.type_of(e)
        if t.kind == "cards":
            return f"{self.cards(e.then, ctx)} if {self.ex(e.cond, ctx)} else {self.cards(e.else_, ctx)}"
        return f"{self.ex(e.then, ctx)} if {self.ex(e.cond, ctx)} else {self.ex(e.else_, ctx)}"

    def _bind(self, var: str, ctx: _Ctx) -> tuple[str, _Ctx]:
        py = self.fresh()
        inner = ctx.child()
        inner.names[var] = py
        inner.varying = ctx.varying | {py}
        return py, inner

    def _ex_Quantifier(self, e: n.Quantifier, ctx: _Ctx) -> str:
        v, inner = self._bind(e.var, ctx)
        gen = f"{self.ex(e.cond, inner)} for {v} in {self.iterable(e.iterable, ctx)}"
        if e.kind == "any":
            return f"any({gen})"
        if e.kind == "no":
            return f"not any({gen})"
        return f"all({gen})"

    def _ex_Count(self, e: n.Count, ctx: _Ctx) -> str:
        if e.where is None:
            return f"len({self.iterable(e.iterable, ctx)})"
        v, inner = self._bind(e.var, ctx)
        return f"sum(1 for {v} in {self.iterable(e.iterable, ctx)} if {self.ex(e.where, inner)})"

    def _ex_Filter(self, e: n.Filter, ctx: _Ctx) -> str:
        v, inner = self._bind(e.var, ctx)
        return f"[{v} for {v} in {self.iterable(e.iterable, ctx)} if {self.ex(e.where, inner)}]"

    def _ex_First(self, e: n.First, ctx: _Ctx) -> str:
        v, inner = self._bind(e.var, ctx)
        return f"next(({v} for {v} in {self.iterable(e.iterable, ctx)} if {self.ex(e.where, inner)}), None)"

    def _ex_Topmost(self, e: n.Topmost, ctx: _Ctx) -> str:
        v, inner = self._bind(e.var, ctx)
        return f"next(({v} for {v} in reversed({self.cards(e.iterable, ctx)}) if {self.ex(e.where, inner)}), None)"

    def _ex_Aggregate(self, e: n.Aggregate, ctx: _Ctx) -> str:
        v, inner = self._bind(e.var, ctx)
        cond = f" if {self.ex(e.where, inner)}" if e.where is not None else ""
        gen = f"{self.ex(e.value, inner)} for {v} in {self.iterable(e.iterable, ctx)}{cond}"
        if e.op == "total":
            return f"sum({gen})"
        if e.op == "distinct":
            return f"op_distinct({gen})"
        fn = "max" if e.op == "highest" else "min"
        return f"{fn}((x for x in ({gen}) if x is not None), default=None)"

    def _ex_Best(self, e: n.Best, ctx: _Ctx) -> str:
        v, inner = self._bind(e.var, ctx)
        cond = f" if {self.ex(e.where, inner)}" if e.where is not None else ""
        pairs = f"(({self.ex(e.key, inner)}, {v}) for {v} in {self.iterable(e.iterable, ctx)}{cond})"
        fn = "op_best_of_tuples" if self.type_of(e.key).kind == "tuple" else "op_best"
        return f"{fn}({pairs}, {e.op == 'highest'})"

    def _ex_TopOf(self, e: n.TopOf, ctx: _Ctx) -> str:
        if e.count is None:
            if self.type_of(e.zone).kind == "zone":
                z = self.ex(e.zone, ctx)
                if _simple_code(z):
                    return f"Z[{z}][-1] if Z[{z}] else None"
            return f"op_top({self.cards(e.zone, ctx)})"
        return f"op_top_n({self.cards(e.zone, ctx)}, {self.ex(e.count, ctx)})"

    def _ex_BottomOf(self, e: n.BottomOf, ctx: _Ctx) -> str:
        if e.count is None:
            return f"op_bottom({self.cards(e.zone, ctx)})"
        return f"op_bottom_n({self.cards(e.zone, ctx)}, {self.ex(e.count, ctx)})"

    def _ex_AllOf(self, e: n.AllOf, ctx: _Ctx) -> str:
        return f"{self.cards(e.zone, ctx)}[:]"

    def _ex_AllButTop(self, e: n.AllButTop, ctx: _Ctx) -> str:
        return f"op_all_but_top({self.cards(e.zone, ctx)}, {self.ex(e.count, ctx)})"

    def _ex_SizeOf(self, e: n.SizeOf, ctx: _Ctx) -> str:
        t = self.type_of(e.operand)
        if t.kind == "set" and t.of != "number":
            return f"{self.ex(e.operand, ctx)}.bit_count()"
        return f"len({self.iterable(e.operand, ctx)})"

    def _ex_PositionOf(self, e: n.PositionOf, ctx: _Ctx) -> str:
        return f"op_position(st, {self.ex(e.operand, ctx)})"

    def _ex_RunOf(self, e: n.RunOf, ctx: _Ctx) -> str:
        ref = self.ref(e)
        cards = self.cards(e.zone, ctx)
        if isinstance(ref, RunKeyAttrRef):
            attr = ref.attr
            if attr.type.kind == "set" and attr.type.of != "number":
                return f"op_run_sets({cards}, A{attr.index}.__getitem__)"
            return f"op_run({cards}, A{attr.index})"
        assert isinstance(ref, DefineRef)
        d = ref.define
        card = self.fresh("c")
        body = self._inline(d, (_PyName(code=card),), ctx) if d.params else None
        table = re.fullmatch(r"\(*A(\d+)\[\(*" + card + r"\)*\]\)*", body) if body is not None else None
        if table is not None:
            key = f"A{table.group(1)}.__getitem__"  # the key is an attribute: read its table directly
        elif body is not None:
            key = f"lambda {card}: {body}"
        else:
            key = f"lambda c_: D{d.index}(st, {ctx.player}, c_)"
        if d.type.kind == "set" and d.type.of != "number":
            return f"op_run_sets({cards}, {key})"
        return f"op_run_key({cards}, {key})"

    def _ex_EveryCard(self, e: n.EveryCard, ctx: _Ctx) -> str:
        return "ALLCARDS"

    def _ex_ActingPlayer(self, e: n.ActingPlayer, ctx: _Ctx) -> str:
        return ctx.player

    def _ex_PlayerStep(self, e: n.PlayerStep, ctx: _Ctx) -> str:
        return f"op_step(st, {self.ex(e.player, ctx)}, {e.step})"

    def _ex_PlayersAfter(self, e: n.PlayersAfter, ctx: _Ctx) -> str:
        return f"op_players_after(st, {self.ex(e.player, ctx)})"

    def _ex_PlayersStarting(self, e: n.PlayersStarting, ctx: _Ctx) -> str:
        return f"op_players_from(st, {self.ex(e.player, ctx)})"

    def _ex_Neighbour(self, e: n.Neighbour, ctx: _Ctx) -> str:
        d = 1 if e.side == "left" else -1
        return f"({self.ex(e.player, ctx)} + {d}) % {self.players}"

    def _ex_Seat(self, e: n.Seat, ctx: _Ctx) -> str:
        return f"op_seat(st, {self.ex(e.index, ctx)})"

    # ------------------------------------------------------------------ statements

    def body(self, stmts: tuple[n.Stmt, ...], ctx: _Ctx) -> None:
        if not stmts:
            self.em.line("pass")
            return
        for s in stmts:
            self.em.at(s.span)
            getattr(self, f"_st_{type(s).__name__}")(s, ctx)

    def _fire(self, dst: str, moved: str, ctx: _Ctx, static_family: int | None) -> None:
        if static_family is not None:
            if static_family in self.trigger_families:
                self.em.line(self._trig_call(static_family, ctx.player, dst, moved))
        elif self.trigger_families:
            self.em.line(f"FIRE(st, {ctx.player}, {dst}, {moved})")

    def _static_family(self, e: n.Expr) -> int | None:
        ref = self.ref(e)
        if isinstance(ref, (ZoneRef, ZoneFamilyRef)):
            return ref.zone.index
        return None

    def _st_Move(self, s: n.Move, ctx: _Ctx) -> None:
        em = self.em
        dst = self.fresh("z")
        em.line(f"{dst} = {self.ex(s.to, ctx)}")
        where = {"top": 0, "bottom": 1, "random": 2}[s.placement]
        family = self._static_family(s.to)
        needs_fire = bool(self.trigger_families) and (family is None or family in self.trigger_families)
        t = self.type_of(s.what)
        moved = self.fresh("m")
        if (
            isinstance(s.what, n.TopOf)
            and s.what.count is None
            and self.type_of(s.what.zone).kind == "zone"
            and where == 0
        ):
            src = self.fresh("z")
            c = self.fresh("c")
            em.line(f"{src} = Z[{self.ex(s.what.zone, ctx)}]")
            em.line(f"if {src}:")
            with em.block():
                self._emit_take_top(src, c, dst, "st.known is None")
                self._after_move(s, f"({c},)", ctx)
                if needs_fire:
                    self._fire(dst, f"[{c}]", ctx, family)
            return
        if isinstance(s.what, n.AllOf) and self.type_of(s.what.zone).kind == "zone" and where == 0:
            em.line(f"{moved} = op_move_zone(st, {self.ex(s.what.zone, ctx)}, {dst})")
        elif t.kind == "card":
            c = self.fresh("c")
            em.line(f"{c} = {self.ex(s.what, ctx)}")
            if t.nullable:
                em.line(f"if {c} is not None:")
                em.indent += 1
            if where == 0:
                em.line("if st.known is None:")
                with em.block():
                    em.line(f"Z[st.loc[{c}]].remove({c})")
                    em.line(f"Z[{dst}].append({c})")
                    em.line(f"st.loc[{c}] = {dst}")
                em.line("else:")
                with em.block():
                    em.line(f"op_move_card(st, {c}, {dst}, 0)")
            else:
                em.line(f"op_move_card(st, {c}, {dst}, {where})")
            self._after_move(s, f"({c},)", ctx)
            if needs_fire:
                self._fire(dst, f"[{c}]", ctx, family)
            if t.nullable:
                em.indent -= 1
            return
        else:
            em.line(f"{moved} = op_move_cards(st, {self.cards(s.what, ctx)}, {dst}, {where})")
        self._after_move(s, moved, ctx)
        if needs_fire:
            em.line(f"if {moved}:")
            with em.block():
                self._fire(dst, moved, ctx, family)

    def _after_move(self, s: n.Move, moved: str, ctx: _Ctx) -> None:
        if self.uses_faces:
            face = {"up": "True", "down": "False", None: "None"}[s.facing]
            self.em.line(f"st.set_faces({moved}, {face})")

    def _emit_take_top(self, src: str, c: str, dst: str, plain: str) -> None:
        """Move the top card of list ``src`` (named ``c``) onto zone ``dst``: by pop and append
        while ``plain`` (nobody's knowledge is tracked), else through op_move_card."""
        em = self.em
        em.line(f"if {plain}:")
        with em.block():
            em.line(f"{c} = {src}.pop()")
            em.line(f"Z[{dst}].append({c})")
            em.line(f"st.loc[{c}] = {dst}")
        em.line("else:")
        with em.block():
            em.line(f"{c} = {src}[-1]")
            em.line(f"op_move_card(st, {c}, {dst}, 0)")

    def _st_Deal(self, s: n.Deal, ctx: _Ctx) -> None:
        zone = self.ref(s)
        assert isinstance(zone, ZoneSym)
        base = self.zone_base(zone)
        src, q, i, order, c, plain = (self.fresh(x) for x in ("z", "q", "i", "o", "c", "plain"))
        start = self.ex(s.start, ctx) if s.start is not None else "0"
        em = self.em
        em.line(f"{src} = Z[{self.ex(s.source, ctx)}]")
        em.line(f"{plain} = st.known is None  # nobody's knowledge to keep: move the cards directly")
        em.line(f"{order} = [({start} + {i}) % {self.players} for {i} in range({self.players})]")
        em.line(f"for {i} in range({self.ex(s.count, ctx)}):")
        with em.block():
            em.line(f"for {q} in {order}:")
            with em.block():
                em.line(f"if not {src}:")
                with em.block():
                    em.line("break")
                self._emit_take_top(src, c, f"{base} + {q}", plain)
                if self.uses_faces:
                    face = {"up": "True", "down": "False", None: "None"}[s.facing]
                    em.line(f"st.set_faces(({c},), {face})")
                if zone.index in self.trigger_families:
                    em.line(self._trig_call(zone.index, ctx.player, f"{base} + {q}", f"[{c}]"))
            # Once the source is empty the rounds left deal nothing: a huge count costs no time.
            em.line(f"if not {src}:")
            with em.block():
                em.line("break")
            if zone.index in self.trigger_families:
                self._count_step()  # the rules set off may fill the source again, without end

    def _st_Shuffle(self, s: n.Shuffle, ctx: _Ctx) -> None:
        self.em.line(f"op_shuffle_zone(st, {self.ex(s.zone, ctx)})")

    def _st_Cut(self, s: n.Cut, ctx: _Ctx) -> None:
        self.em.line(f"op_cut_zone(st, {self.ex(s.zone, ctx)})")

    def _st_Reveal(self, s: n.Reveal, ctx: _Ctx) -> None:
        self.em.line(f"st.reveal({self.cards(s.what, ctx)})")

    def _st_TurnFace(self, s: n.TurnFace, ctx: _Ctx) -> None:
        self.em.line(f"st.set_faces({self.cards(s.what, ctx)}, {s.up!r})")

    def _st_Let(self, s: n.Let, ctx: _Ctx) -> None:
        py = self.fresh()
        self.em.line(f"{py} = {self.ex(s.value, ctx)}")
        ctx.names[s.name] = py

    def _target(self, e: n.Expr, ctx: _Ctx) -> str:
        ref = self.ref(e)
        if isinstance(ref, GameVarRef):
            return f"st.gv[{ref.var.index}]"
        if isinstance(ref, PlayerVarRef):
            owner = ctx.player if ref.owner is None else self.ex(ref.owner, ctx)
            return f"st.pv[{ref.var.index}][{owner}]"
        if isinstance(ref, CardVarRef):
            assert isinstance(e, n.Attribute)
            return f"st.cv[{ref.var.index}][{self.ex(e.obj, ctx)}]"
        if isinstance(ref, DirectionRef):
            return "st.direction"
        raise AssertionError(f"not assignable: {ref}")

    def _st_SetStmt(self, s: n.SetStmt, ctx: _Ctx) -> None:
        t = self.type_of(s.target)
        value = self.ex(s.value, ctx)
        if t.kind == "flag":
            value = f"bool({value})"
        elif t.kind == "cards":
            value = f"list({self.cards(s.value, ctx)})"
        if self._is_direction(s.target):
            value = f"op_direction({value})"
        self.em.line(f"{self._target(s.target, ctx)} = {value}")

    def _st_Add(self, s: n.Add, ctx: _Ctx) -> None:
        self._change(s.target, "+", s.value, ctx)

    def _st_Subtract(self, s: n.Subtract, ctx: _Ctx) -> None:
        self._change(s.target, "-", s.value, ctx)

    def _change(self, target: n.Expr, op: str, value: n.Expr, ctx: _Ctx) -> None:
        """'add' or 'subtract': the direction of play may only end up 1 or -1."""
        place = self._target(target, ctx)
        if self._is_direction(target):
            self.em.line(f"{place} = op_direction({place} {op} ({self.ex(value, ctx)}))")
        else:
            self.em.line(f"{place} {op}= {self.ex(value, ctx)}")

    def _is_direction(self, target: n.Expr) -> bool:
        return isinstance(self.ref(target), DirectionRef)

    def _st_Stop(self, s: n.Stop, ctx: _Ctx) -> None:
        if self._loop_rest is not None:
            self.em.line(f"st.steps -= length_hint({self._loop_rest})")  # the rounds of a 'for each' it skips
        self.em.line("break")

    def _st_Again(self, s: n.Again, ctx: _Ctx) -> None:
        self.em.line(f"st.next_kind = {AGAIN}")

    def _st_EndTurn(self, s: n.EndTurn, ctx: _Ctx) -> None:
        self.em.line(f"st.next_kind = {NEXT_TURN}")

    def _st_EndRound(self, s: n.EndRound, ctx: _Ctx) -> None:
        self.em.line("raise RoundOver()")

    def _st_EndGame(self, s: n.EndGame, ctx: _Ctx) -> None:
        if s.draw:
            self.em.line("raise GameOver(None, True)")
        elif s.winner is not None and self.type_of(s.winner).nullable:
            # No winner is a mistake of the rules, as an empty 'winners' is, not a silent fall
            # back to the ranking.
            message = f"'end game, winner {self.source_of(s.winner)}': there is no such player"
            hint = "a game nobody wins ends with 'end game, draw'; or guard the rule with 'if … != none:'"
            winner = self._failing_if(self.ex(s.winner, ctx), "{} is None", message, hint)
            self.em.line(f"raise GameOver({winner}, False)")
        elif s.winner is not None:
            self.em.line(f"raise GameOver({self.ex(s.winner, ctx)}, False)")
        elif s.winners is not None:
            # No winner at all is a mistake of the rules, not a draw: 'end game, draw' says that.
            message = f"'end game, winners {self.source_of(s.winners)}': there is no player among them"
            hint = "a game nobody wins ends with 'end game, draw'; or guard the rule with 'if … is not empty:'"
            winners = self._failing_if(f"frozenset({self.ex(s.winners, ctx)} or ())", "not {}", message, hint)
            self.em.line(f"raise GameOver(None, False, {winners})")
        else:
            self.em.line("raise GameOver(None, False)")

    def _failing_if(self, code: str, test: str, message: str, hint: str) -> str:
        """Give ``code``'s value a name, the rule failing (R504) where ``test`` (``{}`` for the
        name) holds of it; return the name."""
        name = self.fresh("w")
        self.em.line(f"{name} = {code}")
        self.em.line(f"if {test.format(name)}:")
        with self.em.block():
            self.em.line(f"op_fail({self.const(message)}, {self.const(hint)})")
        return name

    def _st_GoTo(self, s: n.GoTo, ctx: _Ctx) -> None:
        phase = self.ref(s)
        assert isinstance(phase, PhaseSym)
        player = "None"  # without 'with': the turn stays with its player
        if s.player is not None:
            # None must not slip through as if 'with' were left out: the same player would act again.
            player = self.fresh("p")
            text = self.source_of(s.player)
            message = f"'go to {s.phase} with {text}': the player is none"
            hint = f"give '{text}' a player before, or guard the 'go to' with 'if {text} != none:'"
            self.em.line(f"{player} = {self.ex(s.player, ctx)}")
            self.em.line(f"if {player} is None:")
            with self.em.block():
                self.em.line(f"op_fail({self.const(message)}, {self.const(hint)})")
        self.em.line(f"st.next_kind = {GO_TO}")
        # With its place in the file, for R502 when phases hand on to each other forever.
        self.em.line(f"st.next_goto = ({phase.index}, {player}, {self.const(s.span, 'S')})")

    def _st_Open(self, s: n.Open, ctx: _Ctx) -> None:
        window = self.ref(s)
        assert isinstance(window, WindowSym)
        self.em.line(f"st.open_window({window.index}, WHO{window.index}(st, {ctx.player}))")

    def _st_Reverse(self, s: n.Reverse, ctx: _Ctx) -> None:
        self.em.line("st.direction = -st.direction")

    def _st_Finish(self, s: n.Finish, ctx: _Ctx) -> None:
        self.em.line(f"op_finish(st, {self.ex(s.player, ctx)})")

    def _st_Say(self, s: n.Say, ctx: _Ctx) -> None:
        line = s.span.start.line if s.span is not None else 0
        self.count_event(f"line {line}: say {self.said(s.message)}")
        self.em.line("if st.log is not None:")
        with self.em.block():
            if isinstance(s.message, n.Text):
                text = self.text(s.message, ctx, "st.show_card(None, {})")
            else:
                text = self.show(s.message, ctx, "st.show_card(None, {})")
            self.em.line(f"st.log.append({text})")

    def _args(self, args: tuple[n.Expr, ...], params: tuple[tuple[str, Type], ...], ctx: _Ctx) -> str:
        """Python for call arguments, a card or a zone given where cards are wanted made into a list."""
        out = []
        for arg, (_, ptype) in zip(args, params):
            if ptype.kind == "cards" and self.type_of(arg).kind in ("card", "zone"):
                out.append(f"list({self.cards(arg, ctx)})")
            else:
                out.append(self.ex(arg, ctx))
        return "".join(", " + a for a in out)

    def _st_CallStmt(self, s: n.CallStmt, ctx: _Ctx) -> None:
        proc = self.ref(s)
        assert isinstance(proc, ProcedureSym)
        self.em.line(f"PR{proc.index}(st, {ctx.player}{self._args(s.args, proc.params, ctx)})")

    def _st_If(self, s: n.If, ctx: _Ctx) -> None:
        # Branches an option rules out for this load are not compiled at all.
        branches = []
        for cond, body in s.branches:
            known, value = self._static(cond)
            if known and not value:
                continue
            branches.append((cond, body))
            if known and value:
                if len(branches) == 1:
                    self.body(body, ctx.child())
                    return
                s = n.If(branches=tuple(branches), else_=(), span=s.span)
                break
        else:
            s = n.If(branches=tuple(branches), else_=s.else_, span=s.span)
        if not s.branches:
            if s.else_:
                self.body(s.else_, ctx.child())
            else:
                self.em.line("pass")
            return
        for i, (cond, body) in enumerate(s.branches):
            self.em.at(cond.span)
            self.em.line(f"{'if' if i == 0 else 'elif'} {self.ex(cond, ctx)}:")
            with self.em.block():
                self.body(body, ctx.child())
        if s.else_:
            self.em.line("else:")
            with self.em.block():
                self.body(s.else_, ctx.child())

    def _st_ForEach(self, s: n.ForEach, ctx: _Ctx) -> None:
        em = self.em
        v, inner = self._bind(s.var, ctx)
        t = self.type_of(s.iterable)
        if isinstance(s.iterable, n.RangeLiteral):  # its rounds are counted below, as R501
            seq = f"range({self.ex(s.iterable.low, ctx)}, {self.ex(s.iterable.high, ctx)} + 1)"
        else:
            seq = self.iterable(s.iterable, ctx)
        if t.kind in ("zone", "cards"):
            seq = f"list({seq})"  # the body may move these very cards
        rounds = self.fresh("seq")
        em.line(f"{rounds} = {seq}")
        # Its rounds count against the step budget all at once, before the first (a range
        # may be huge): no cost per round. A 'stop' gives back the rounds it skips.
        self._count_step(f"len({rounds})")
        outer_rest = self._loop_rest
        if _stops_its_loop(s.body):
            self._loop_rest = self.fresh("it")
            em.line(f"{self._loop_rest} = iter({rounds})")
            em.line(f"for {v} in {self._loop_rest}:")
        else:
            self._loop_rest = None
            em.line(f"for {v} in {rounds}:")
        with em.block():
            if s.where is not None:
                em.line(f"if not {self.ex(s.where, inner)}:")
                with em.block():
                    em.line("continue")
            self.body(s.body, inner)
        self._loop_rest = outer_rest

    def _count_step(self, steps: str = "1") -> None:
        self.em.line(f"st.steps += {steps}")
        self.em.line(f"if st.steps > {STEP_BUDGET}:")
        with self.em.block():
            self.em.line("st.over_budget()")

    def _count_call(self) -> None:
        """Count a call of a definition or procedure (the lines carry its declaration's span: R508 names it)."""
        self.em.line("st.calls += 1")
        self.em.line(f"if st.calls > {STEP_BUDGET}:")
        with self.em.block():
            self.em.line("st.too_many_calls()")

    def _st_While(self, s: n.While, ctx: _Ctx) -> None:
        self.em.line(f"while {self.ex(s.cond, ctx)}:")
        outer_rest, self._loop_rest = self._loop_rest, None
        with self.em.block():
            self._count_step()
            self.body(s.body, ctx.child())
        self._loop_rest = outer_rest

    def _st_Repeat(self, s: n.Repeat, ctx: _Ctx) -> None:
        if s.count is None:
            self.em.line("while True:")
        else:
            self.em.line(f"for _ in range({self.ex(s.count, ctx)}):")
        outer_rest, self._loop_rest = self._loop_rest, None
        with self.em.block():
            self._count_step()
            self.body(s.body, ctx.child())
        self._loop_rest = outer_rest

    # ------------------------------------------------------------------ functions

    def function(self, name: str, params: list[str], span: Span | None) -> _Indent:
        self.em.at(span)
        self.em.line(f"def {name}({', '.join(params)}):")
        block = self.em.block()
        block.__enter__()
        self.em.line("Z = st.zones")
        return block

    def end_function(self, block: _Indent) -> None:
        block.__exit__()
        self.em.line("")

    def _signature(self, params: tuple[tuple[str, Type], ...]) -> tuple[_Ctx, list[str]]:
        """Return the context binding a definition's or procedure's parameters, and their Python names."""
        ctx = _Ctx()
        names = ["st", "p"]
        for pname, _ in params:
            py = self.fresh()
            ctx.names[pname] = py
            names.append(py)
        return ctx, names

    def compile_defines(self) -> None:
        for d in self.sy.defines.values():
            decl = d.decl
            assert isinstance(decl, n.DefineDecl)
            ctx, params = self._signature(d.params)
            block = self.function(f"D{d.index}", params, decl.span)
            self._count_call()
            self.em.at(decl.body.span)
            body = self.ex(decl.body, ctx)
            if all(t.kind not in ("cards", "players", "set", "range", "tuple") for _, t in d.params):
                # While legal actions are listed the state cannot change: compute each
                # definition once per arguments (st.memo is None at all other times).
                # The body is written once: inlined definitions make it long, and a large
                # rule file's load time is mostly Python compiling the generated source.
                key = "(" + ", ".join([str(d.index), "p", *params[2:]]) + ",)"
                self.em.line("m_ = st.memo")
                self.em.line("if m_ is not None:")
                with self.em.block():
                    self.em.line(f"r_ = m_.get({key}, MISS)")
                    self.em.line("if r_ is not MISS:")
                    with self.em.block():
                        self.em.line("return r_")
                self.em.line(f"r_ = {body}")
                self.em.line("if m_ is not None:")
                with self.em.block():
                    self.em.line(f"m_[{key}] = r_")
                self.em.line("return r_")
            else:
                self.em.line(f"return {body}")
            self.end_function(block)

    def compile_procedures(self) -> None:
        for proc in self.sy.procedures.values():
            decl = proc.decl
            assert isinstance(decl, n.ProcedureDecl)
            ctx, params = self._signature(proc.params)
            block = self.function(f"PR{proc.index}", params, decl.span)
            self._count_call()
            self.count_event(f"to {decl.name}")
            self.body(decl.body, ctx)
            self.end_function(block)

    def _trig_call(self, family: int, player: str, dst: str, moved: str) -> str:
        """The call of the rules on cards entering zone ``family``: told which zone (``dst``)
        only when a rule names its owner (``when cs enter p.hand``), the rest as fast as before."""
        if family in self.owner_families:
            return f"TRIG{family}(st, {player}, {dst}, {moved})"
        return f"TRIG{family}(st, {player}, {moved})"

    def compile_triggers(self) -> None:
        by_family: dict[int, list[n.TriggerDecl]] = {}
        zone_of: dict[int, ZoneSym] = {}
        for t in self.c.triggers:
            zone = self.c.refs.get(id(t))
            if isinstance(zone, ZoneSym):
                by_family.setdefault(zone.index, []).append(t)
                zone_of[id(t)] = zone
        for family, triggers in by_family.items():
            parts: list[str] = []
            for t in triggers:
                fn = self.fresh("TR")
                ctx = _Ctx()
                moved = self.fresh()
                ctx.names[t.var] = moved
                params = ["st", "p", moved]
                if t.owner is not None:
                    owner = self.fresh()
                    ctx.names[t.owner] = owner
                    params.insert(2, owner)
                block = self.function(fn, params, t.span)
                line = t.span.start.line if t.span is not None else 0
                owner_text = "" if t.owner is None else t.owner + "."
                self.count_event(f"line {line}: when {t.var} enter {owner_text}{self.source_of(t.zone, _REPORT_WIDTH)}")
                self.body(t.body, ctx)
                self.end_function(block)
                base = self.zone_base(zone_of[id(t)])
                parts.append(f"{fn}(st, p, dst - {base}, moved)" if t.owner is not None else f"{fn}(st, p, moved)")
            self.em.at(None)  # dispatching is no rule of the file
            if family in self.owner_families:
                self.em.line(f"def TRIG{family}(st, p, dst, moved):")
            else:
                self.em.line(f"def TRIG{family}(st, p, moved):")
            with self.em.block():
                for call in parts:
                    self.em.line(call)
            self.em.line("")
        self.em.at(None)
        self.em.line("def FIRE(st, p, dst, moved):")
        with self.em.block():
            self.em.line("fam = ZFAM[dst]")
            for family in by_family:
                self.em.line(f"if fam == {family}:")
                with self.em.block():
                    self.em.line(self._trig_call(family, "p", "dst", "moved"))
            self.em.line("return None")
        self.em.line("")

    def compile_block_fn(
        self,
        name: str,
        body: tuple[n.Stmt, ...],
        span: Span | None,
        extra: list[str] | None = None,
        event: str | None = None,
    ) -> None:
        ctx = _Ctx()
        params = ["st", "p"]
        for rule_name in extra or []:
            py = self.fresh()
            ctx.names[rule_name] = py
            params.append(py)
        block = self.function(name, params, span)
        if event is not None:
            self.count_event(event)
        self.body(body, ctx)
        self.end_function(block)

    # ------------------------------------------------------------------ actions

    def _wild(self, shape: n.ChoiceShape, player: str) -> str:
        if getattr(shape, "wild", None) is None:
            return "None"
        wild = self.c.wilds[id(shape)]
        if isinstance(wild, AttributeSym):
            return f"A{wild.index}.__getitem__"
        return f"(lambda c_: D{wild.index}(st, {player}, c_))"

    def _new_action(self, item: n.ActionDecl | n.PassDecl, owner: str, owner_kind: str) -> ActionInfo:
        info = ActionInfo(
            index=len(self.action_defs),
            item=item,
            name=item.name if isinstance(item, n.ActionDecl) else "pass",
            owner=owner,
            owner_kind=owner_kind,
            is_pass=isinstance(item, n.PassDecl),
            static_label=item.label is None or _label_is_static(item.label, self.c, item),
        )
        self.action_defs.append(info)
        return info

    def _enumerate(self, a: n.ActionDecl, info: ActionInfo, bid: bool) -> None:
        """Emit, inside a legal function, the loops that list this action's legal choices."""
        ctx = _Ctx()
        names = [self.fresh() for _ in a.choices]
        for ch, py in zip(a.choices, names):
            ctx.names[ch.name] = py
        # Each condition is tested in the loop of the last choice it uses, so that
        # conditions on no choice are tested once, before any loop.
        levels: list[list[n.Expr]] = [[] for _ in range(len(a.choices) + 1)]
        for cond, _reason, level in _clauses(a):
            levels[level].append(cond)
        self.em.at(a.span)
        self._emit_level(a, info, bid, names, ctx, levels, 0, [])

    def _emit_level(
        self,
        a: n.ActionDecl,
        info: ActionInfo,
        bid: bool,
        names: list[str],
        ctx: _Ctx,
        levels: list[list[n.Expr]],
        i: int,
        key_parts: list[str],
    ) -> None:
        em = self.em
        opened = 0
        if levels[i]:
            test = " and ".join(self.ex(cj, ctx) for cj in levels[i])
            if i > 0 and isinstance(a.choices[i - 1].shape, n.CardChoice):
                test = self._read_attributes_once(test, names[i - 1])
            em.line("if " + test + ":")
            em.indent += 1
            opened += 1
        if i == len(a.choices):
            self._emit_emission(a, info, bid, ctx, key_parts)
        elif i == 0 and ctx.hoist is None:
            # Open the hoisting sink for everything inside the loops; its lines go here,
            # before the first loop, once the loops have been written.
            at, indent = len(em.lines), em.indent
            sink: dict[str, str] = {}
            loop_ctx = _Ctx(ctx.names, ctx.player, ctx.overrides, sink, frozenset(names))
            self._emit_level(a, info, bid, names, loop_ctx, [[], *levels[1:]], 0, key_parts)
            lines = ["    " * indent + f"{name} = {code}" for code, name in sink.items()]
            em.lines[at:at] = lines
            em.spans[at:at] = [a.span] * len(lines)
        else:
            ch, py = a.choices[i], names[i]
            em.at(ch.span)

            def inner(key: str) -> None:
                key_parts.append(key)
                self._emit_level(a, info, bid, names, ctx, levels, i + 1, key_parts)
                key_parts.pop()

            if isinstance(ch.shape, n.CardChoice):
                self._emit_card_loop(ch.shape, py, ctx, inner)
            else:
                value_ok = None
                if isinstance(ch.shape, n.SameChoice):
                    # Conditions that use the group only through its shared value are
                    # tested once per value, before any group of that value is built.
                    by_value = [cj for cj in levels[i + 1] if _only_through(cj, ch.name, ch.shape.attr)]
                    if by_value:
                        levels = [
                            *levels[: i + 1],
                            [cj for cj in levels[i + 1] if cj not in by_value],
                            *levels[i + 2 :],
                        ]
                        value_ok = self._value_filter(by_value, ch, ctx)
                opened += self._emit_loop(ch.shape, py, ctx, key_parts, value_ok)
                self._emit_level(a, info, bid, names, ctx, levels, i + 1, key_parts)
                key_parts.pop()
        em.indent -= opened

    def _read_attributes_once(self, test: str, card: str) -> str:
        """Read each attribute of the chosen card that a test reads twice or more once, before it."""
        for read in sorted(set(r for r in _ATTRIBUTE_READ.findall(test) if r.endswith(f"[({card})]"))):
            if test.count(read) > 1:
                name = self.fresh("t")
                self.em.line(f"{name} = {read}")  # a card's attribute is always there: safe before the test
                test = test.replace(read, name)
        return test

    def _emit_card_loop(self, shape: n.CardChoice, py: str, ctx: _Ctx, inner: Callable[[str], None]) -> None:
        """Loop over one card choice: by kind over cards the chooser sees, by place otherwise."""
        em = self.em
        pool = self.fresh("pool")
        em.line(f"{pool} = {self.cards(shape.pool, ctx)}")
        visible = self._pool_visibility(shape.pool)

        def by_kind() -> None:
            if self.unique and not self.uses_faces:
                em.line(f"for {py} in {pool}:")
                with em.block():
                    inner(py)
                return
            seen, k, j = self.fresh("seen"), self.fresh("k"), self.fresh("j")
            em.line(f"{seen} = set()")
            em.line(f"for {j}, {py} in enumerate(reversed({pool})):")
            with em.block():
                if self.uses_faces:
                    em.line(f"{k} = KIND[{py}] if st.sees({ctx.player}, {py}) else -1 - {j}")
                else:
                    em.line(f"{k} = KIND[{py}]")
                em.line(f"if {k} in {seen}:")
                with em.block():
                    em.line("continue")
                em.line(f"{seen}.add({k})")
                inner(k)

        def by_place() -> None:
            j = self.fresh("j")
            em.line(f"for {j}, {py} in enumerate(reversed({pool})):")
            with em.block():
                inner(f"-1 - {j}")

        if visible is True:
            by_kind()
        elif visible is False:
            by_place()
        else:
            if self.type_of(shape.pool).kind == "zone":
                em.line(f"if st.zone_visible({ctx.player}, {self.ex(shape.pool, ctx)}):")
            else:
                em.line(f"if st.all_visible({ctx.player}, {pool}):")
            with em.block():
                by_kind()
            em.line("else:")
            with em.block():
                by_place()

    def _value_filter(self, conjuncts: list[n.Expr], ch: n.Choice, ctx: _Ctx) -> str:
        """A lambda testing conditions on a group's shared value alone."""
        value = self.fresh("val")
        overrides = dict(ctx.overrides)
        for cj in conjuncts:
            for x in n.walk(cj):
                if isinstance(x, n.Attribute) and isinstance(x.obj, n.Name) and x.obj.id == ch.name:
                    overrides[id(x)] = value
        inner = _Ctx(ctx.names, ctx.player, overrides, ctx.hoist, ctx.varying | {value})
        return f"(lambda {value}: " + " and ".join(self.ex(cj, inner) for cj in conjuncts) + ")"

    def _emit_loop(
        self, shape: n.ChoiceShape, py: str, ctx: _Ctx, key_parts: list[str], value_ok: str | None = None
    ) -> int:
        """Open the loop of a non-card choice; push its key; return the blocks opened."""
        em = self.em
        if isinstance(shape, n.NumberChoice):
            # Every number is an action: they count against the step budget, once per loop.
            numbers = self.fresh("r")
            em.line(f"{numbers} = range({self.ex(shape.low, ctx)}, {self.ex(shape.high, ctx)} + 1)")
            em.line(f"st.steps += len({numbers})")
            em.line(f"if st.steps > {STEP_BUDGET}:")
            with em.block():
                em.line("st.too_many_choices()")
            em.line(f"for {py} in {numbers}:")
            em.indent += 1
            key_parts.append(py)
            return 1
        if isinstance(shape, n.ValueChoice):
            em.line(f"for {py} in range({len(self.sy.values[shape.type_name].members)}):")
            em.indent += 1
            key_parts.append(py)
            return 1
        if isinstance(shape, n.PlayerChoice):
            em.line(f"for {py} in {self.ex(shape.pool, ctx)}:")
            em.indent += 1
            key_parts.append(py)
            return 1
        pool = self.fresh("pool")
        em.line(f"{pool} = {self.cards(shape.pool, ctx)}")
        if self._pool_visibility(shape.pool) is not True:
            # A group is chosen by its kinds, which name its cards: never from cards the
            # chooser cannot see (a single card is chosen by its place instead).
            em.line(f"if not st.all_visible({ctx.player}, {pool}):")
            with em.block():
                em.line(f"st.hidden_group({ctx.player})")
        count = getattr(shape, "count", None)
        size = self.ex(count, ctx) if count is not None else "None"
        gen = self._groups(shape, pool, size, ctx, value_ok)
        em.line(f"for {py} in {gen}:")
        em.indent += 1
        # A hand's groups of cards may be countless (2 ** 30 subsets of 30 cards): each
        # counts against the step budget, as numbers do.
        em.line("st.steps += 1")
        em.line(f"if st.steps > {STEP_BUDGET}:")
        with em.block():
            em.line("st.too_many_choices(True)")
        # Sorted kinds: the same cards make the same action, whatever order they lie in.
        key_parts.append(f"tuple(sorted(map(KIND.__getitem__, {py})))")  # map: no generator per group
        return 1

    def _groups(self, shape: n.ChoiceShape, pool: str, size: str, ctx: _Ctx, value_ok: str | None = None) -> str:
        """Python for the groups of cards a choice of this shape offers from ``pool``."""
        wild = self._wild(shape, ctx.player)
        if isinstance(shape, n.CardsChoice):
            return f"op_combinations({pool}, KIND, {size})"
        if isinstance(shape, n.SameChoice):
            return f"op_same_groups({pool}, KIND, A{self.ref(shape).index}, {size}, {wild}, {value_ok or 'None'})"
        if isinstance(shape, n.ValuedChoice):
            return (
                f"op_valued_groups({pool}, KIND, A{self.ref(shape).index}, {self.ex(shape.value, ctx)}, {size}, {wild})"
            )
        assert isinstance(shape, n.DifferentChoice)
        return f"op_different_groups({pool}, KIND, A{self.ref(shape).index}, {size}, {wild})"

    def _pool_visibility(self, pool: n.Expr) -> bool | None:
        """Whether the acting player surely sees (True) or surely does not see (False) a pool's cards."""
        ref = self.ref(pool)
        if isinstance(ref, ZoneRef):
            z = ref.zone
            if z.visibility == "owner" and z.per_player and ref.owner is None:
                return True  # the acting player's own zone: he sees its cards, even face down
            if self.uses_faces:
                return None  # a card turned up or down lies otherwise than its zone shows it
            if z.visibility == "public":
                return True
            if z.visibility == "hidden":
                return False
        return None

    def _emit_emission(self, a: n.ActionDecl, info: ActionInfo, bid: bool, ctx: _Ctx, key_parts: list[str]) -> None:
        em = self.em
        idx = info.index
        opened = 0
        if bid:
            strength = self.fresh("s")
            assert a.strength is not None
            em.line(f"{strength} = {self.ex(a.strength, ctx)}")
            em.line(f"if st.auction[0] is None or {strength} > st.auction[0]:")
            em.indent += 1
            opened += 1
        key = "(" + "".join(k + ", " for k in key_parts) + ")"
        if info.static_label:
            if not key_parts:
                em.line(f"out.append(CONST{idx})")  # an action with no choice is always the same object
            else:
                # One card chosen: the card is the cache's key, with no tuple to build.
                info.single = len(key_parts) == 1 and isinstance(a.choices[0].shape, n.CardChoice)
                em.line(f"out.append(ACT{idx}[{key_parts[0] if info.single else key}])")
        else:
            assert a.label is not None
            labels = []
            ctx = self._unseen_choices_read_none(a, ctx, key_parts)
            for viewer in (ctx.player, "None"):
                show = f"st.show_card({viewer}, {{}})"
                labels.append(
                    self.text(a.label, ctx, show) if isinstance(a.label, n.Text) else self.show(a.label, ctx, show)
                )
            em.line(f"out.append(Action(AD{idx}, {key}, {labels[0]}, {labels[1]} if st.log is not None else None))")
        em.indent -= opened

    def _unseen_choices_read_none(self, a: n.ActionDecl, ctx: _Ctx, key_parts: list[str]) -> _Ctx:
        """``ctx`` for a label computed with the state, where each attribute of a card chosen
        by its place reads none, as in a label made from the choices alone: its chooser does
        not see the card, and the others read the label he was offered (the card itself
        already reads 'a hidden card')."""
        overrides = dict(ctx.overrides)
        assert a.label is not None
        for x in n.walk(a.label):
            if not isinstance(x, n.Attribute):
                continue
            ref = self.c.refs.get(id(x))
            chosen = self.c.refs.get(id(x.obj)) if isinstance(x.obj, n.Name) else None
            if not isinstance(ref, (CardAttrRef, CardVarRef)):
                continue
            if not isinstance(chosen, LocalRef):
                continue
            at = [i for i, ch in enumerate(a.choices) if chosen.local.decl is ch]
            if not at:
                continue
            key = key_parts[at[0]]
            if key == ctx.names[x.obj.id]:
                continue  # chosen by its kind, always: a card its chooser sees
            if key.startswith("-1 - "):
                overrides[id(x)] = "None"  # chosen by its place, always
            else:  # by its kind where he sees it (key >= 0), by its place where he does not
                overrides[id(x)] = f"({self.ex(x, ctx)} if {key} >= 0 else None)"
        return ctx.with_overrides(overrides)

    def _emit_resolve(self, choices: tuple[n.Choice, ...], ctx: _Ctx) -> None:
        """Emit code turning an action's key back into the values of its choices."""
        em = self.em
        for i, ch in enumerate(choices):
            py = self.fresh()
            shape = ch.shape
            em.at(ch.span)
            if isinstance(shape, (n.NumberChoice, n.ValueChoice, n.PlayerChoice)):
                em.line(f"{py} = key[{i}]")
            elif isinstance(shape, n.CardChoice):
                pool = self.cards(shape.pool, ctx)
                find = f"key[{i}]" if self.unique else f"op_find_kind({pool}, KIND, key[{i}])"
                if self._pool_visibility(shape.pool) is True:
                    em.line(f"{py} = {find}")  # a seen card is always chosen by its kind
                else:
                    em.line(f"{py} = {find} if key[{i}] >= 0 else {pool}[len({pool}) + key[{i}]]")
            else:
                pool = self.cards(shape.pool, ctx)
                em.line(f"{py} = list(key[{i}])" if self.unique else f"{py} = op_find_kinds({pool}, KIND, key[{i}])")
            ctx.names[ch.name] = py

    def _finish_action(self, item: n.ActionDecl | n.PassDecl, info: ActionInfo, bid: bool) -> None:
        """Emit the action's apply, label and (for a bid) strength functions."""
        idx = info.index
        choices = item.choices if isinstance(item, n.ActionDecl) else ()
        ctx = _Ctx()
        block = self.function(f"X{idx}", ["st", "p", "key"], item.span)
        self._emit_resolve(choices, ctx)
        # What was chosen, shown later (describe_last) as each player sees it.
        self.em.line("st.last_args = (" + "".join(ctx.names[ch.name] + ", " for ch in choices) + ")")
        self.body(item.body, ctx)
        self.end_function(block)
        self._emit_label(item, info, choices)
        if bid and isinstance(item, n.ActionDecl) and item.strength is not None:
            ctx = _Ctx()
            block = self.function(f"ST{idx}", ["st", "p", "key"], item.strength.span)
            self._emit_resolve(choices, ctx)
            self.em.line(f"return {self.ex(item.strength, ctx)}")
            self.end_function(block)

    def _emit_checks(self, a: n.ActionDecl, info: ActionInfo) -> None:
        """Emit what explains a refused move: each choice's domain, given the choices before
        it, and each condition and reason, all read from ``args`` (the values chosen, None
        for those not known). None of it runs while actions are listed or applied."""
        em = self.em
        idx = info.index

        def open_function(name: str, params: list[str], span: Span | None) -> tuple[_Indent, _Ctx]:
            block = self.function(name, ["st", "p", "args", *params], span)
            ctx = _Ctx()
            for i, ch in enumerate(a.choices):
                py = self.fresh()
                ctx.names[ch.name] = py
                em.line(f"{py} = args[{i}]")
            return block, ctx

        kinds = []
        for i, ch in enumerate(a.choices):
            shape = ch.shape
            block, ctx = open_function(f"DM{idx}_{i}", [], ch.span)
            if isinstance(shape, n.CardChoice):
                em.line(f"return {self.cards(shape.pool, ctx)}")
            elif isinstance(shape, n.NumberChoice):
                em.line(f"return ({self.ex(shape.low, ctx)}, {self.ex(shape.high, ctx)})")
            elif isinstance(shape, n.PlayerChoice):
                em.line(f"return list({self.ex(shape.pool, ctx)})")
            elif isinstance(shape, n.ValueChoice):
                em.line("return None")
            else:
                count = getattr(shape, "count", None)
                size = "None" if count is None else self.ex(count, ctx)
                value = self.ex(shape.value, ctx) if isinstance(shape, n.ValuedChoice) else "None"
                em.line(f"return ({self.cards(shape.pool, ctx)}, {size}, {value})")
            self.end_function(block)
            if isinstance(shape, (n.CardsChoice, n.SameChoice, n.ValuedChoice, n.DifferentChoice)):
                block, ctx = open_function(f"GR{idx}_{i}", ["cards", "size"], ch.span)
                em.line(f"return list({self._groups(shape, 'cards', 'size', ctx)})")
                self.end_function(block)
            kinds.append(_CHOICE_KINDS[type(shape)])
        clauses = []
        for j, (cond, reason, level) in enumerate(_clauses(a)):
            block, ctx = open_function(f"CK{idx}_{j}", [], cond.span)
            em.line(f"return {self.ex(cond, ctx)}")
            self.end_function(block)
            if reason is not None:
                block, ctx = open_function(f"RS{idx}_{j}", [], reason.span)
                # Read by the player refused, and by him alone: cards as he sees them.
                show = "st.show_card(p, {})"
                text = self.text(reason, ctx, show) if isinstance(reason, n.Text) else self.show(reason, ctx, show)
                em.line(f"return {text}")
                self.end_function(block)
            told = [cond] if reason is None else [cond, reason]
            clauses.append((level, cond, not any(self._reads_hidden(e, set()) for e in told)))
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

    def _emit_label(self, a: n.ActionDecl | n.PassDecl, info: ActionInfo, choices: tuple[n.Choice, ...]) -> None:
        """Emit LBA(args, show) — the label from the chosen values, ``show`` naming a card
        (None being one chosen by its place) — and LB(key, show), which reads the key."""
        em = self.em
        idx = info.index
        em.line(f"def LBA{idx}(args, show=SHOW_NAME):")
        with em.block():
            ctx = _Ctx()
            for i, ch in enumerate(choices):
                py = self.fresh()
                ctx.names[ch.name] = py
                em.line(f"{py} = args[{i}]")
            self._label_mode = True
            try:
                if a.label is None:
                    name = "pass" if isinstance(a, n.PassDecl) else a.name.replace("_", " ")
                    parts = [repr(name), *(self._show_choice(ch, ctx) for ch in choices)]
                    em.line("return ' '.join((" + ", ".join(parts) + ",))")
                elif info.static_label:
                    # It may fail, as a rule may: an attribute of a card chosen by its place reads none.
                    em.line("try:")
                    with em.block():
                        em.line(f"return {self._static_text(a.label, ctx)}")
                    em.line("except ANY_ERROR as exc_:")
                    with em.block():
                        em.line(f"LABEL_FAILED({idx}, exc_)")
                else:  # computed with the state when the action is listed
                    em.line(f"return {repr(info.name)}")
            finally:
                self._label_mode = False
        em.line("")
        em.line(f"def LB{idx}(key, show=SHOW_NAME):")
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
            em.line(f"return LBA{idx}((" + "".join(f"{x}, " for x in parts) + "), show)")
        em.line("")

    def _show_choice(self, ch: n.Choice, ctx: _Ctx) -> str:
        py = ctx.names[ch.name]
        shape = ch.shape
        if isinstance(shape, n.CardChoice):
            return f"show({py})"
        if isinstance(shape, (n.CardsChoice, n.SameChoice, n.ValuedChoice, n.DifferentChoice)):
            return f"' '.join(show(c_) for c_ in {py})"
        if isinstance(shape, n.ValueChoice):
            return f"DISP_{_ident(shape.type_name)}[{py}]"
        if isinstance(shape, n.PlayerChoice):
            return f"op_show_player({py})"
        return f"str({py})"

    def _static_text(self, e: n.Expr, ctx: _Ctx) -> str:
        """Python for a label that only uses choices, options and constants."""
        if isinstance(e, n.Text):
            return self.text(e, ctx, "show({})")
        if isinstance(e, n.IfExpr):
            return (
                f"({self._static_text(e.then, ctx)} if {self.ex(e.cond, ctx)} else {self._static_text(e.else_, ctx)})"
            )
        return self.show(e, ctx, "show({})")

    # ------------------------------------------------------------------ phases and windows

    def _actions_of(
        self, items: tuple[n.Node, ...], owner: str, owner_kind: str, needs_pass: bool
    ) -> list[tuple[n.ActionDecl | n.PassDecl, ActionInfo]]:
        listed: list[n.ActionDecl | n.PassDecl] = [i for i in items if isinstance(i, (n.ActionDecl, n.PassDecl))]
        if needs_pass and not any(isinstance(i, n.PassDecl) for i in listed):
            listed.append(n.PassDecl(label=None, body=()))
        return [(item, self._new_action(item, owner, owner_kind)) for item in listed]

    def _enumerate_all(self, actions: list[tuple[n.ActionDecl | n.PassDecl, ActionInfo]], bid: bool) -> None:
        """List the ordinary actions, then, if there is none, the 'otherwise' ones."""
        self._listing = True
        try:
            self._enumerate_all_(actions, bid)
        finally:
            self._listing = False

    def _enumerate_all_(self, actions: list[tuple[n.ActionDecl | n.PassDecl, ActionInfo]], bid: bool) -> None:
        ordinary = [(i, info) for i, info in actions if isinstance(i, n.ActionDecl) and not i.otherwise]
        fallback = [(i, info) for i, info in actions if isinstance(i, n.ActionDecl) and i.otherwise]
        if fallback:
            self.em.line("base_ = len(out)")
        for item, info in ordinary:
            self._enumerate(item, info, bid)  # type: ignore[arg-type]
        if fallback:
            self.em.line("if len(out) == base_:")
            with self.em.block():
                for item, info in fallback:
                    self._enumerate(item, info, bid)  # type: ignore[arg-type]
        self.em.line("return None")

    def compile_phases(self) -> None:
        for phase in self.sy.phases.values():
            decl = phase.decl
            assert isinstance(decl, n.PhaseDecl)
            actions = self._actions_of(
                decl.items, phase.name, "auction" if phase.is_auction else "phase", phase.is_auction
            )
            block = self.function(f"L{phase.index}", ["st", "p", "out"], decl.span)
            self._enumerate_all(actions, phase.is_auction)
            self.end_function(block)
            for item, info in actions:
                self._finish_action(item, info, bid=phase.is_auction)
            for item in decl.items:
                if isinstance(item, n.OnEnter):
                    self.compile_block_fn(f"E{phase.index}", item.body, item.span, event=f"{phase.name}: on enter")
                elif isinstance(item, n.WonHandler):
                    self.compile_block_fn(
                        f"W{phase.index}", item.body, item.span, [item.var], event=f"{phase.name}: when won"
                    )
                elif isinstance(item, n.UnsoldHandler):
                    self.compile_block_fn(f"U{phase.index}", item.body, item.span, event=f"{phase.name}: when unsold")
            self.phase_infos.append((phase, [info for _, info in actions]))

    def compile_windows(self) -> None:
        for window in self.sy.windows.values():
            decl = window.decl
            assert isinstance(decl, n.WindowDecl)
            actions = self._actions_of(decl.items, window.name, "window", True)
            block = self.function(f"WL{window.index}", ["st", "p", "out"], decl.span)
            self._enumerate_all(actions, False)
            self.end_function(block)
            for item, info in actions:
                self._finish_action(item, info, bid=False)
            # Who may act, in priority order; computed when the window opens.
            self._listing = True  # a window's players are listed as its actions are
            block = self.function(f"WHO{window.index}", ["st", "p"], decl.who.span)
            who = self.ex(decl.who, _Ctx())
            self.em.line(f"return [{who}]" if self.type_of(decl.who).kind == "player" else f"return list({who})")
            self.end_function(block)
            self._listing = False
            self.window_infos.append((window, [info for _, info in actions]))

    # ------------------------------------------------------------------ ranking

    def compile_ranking(self) -> str:
        ranking = self.c.ranking
        if self.c.standing is not None:
            self._key_function("STANDING_KEY", self.c.standing)
        if ranking is None:
            return "none"
        if all(k.order == "finishing" for k in ranking.keys):
            return "finishing"
        self._key_function("RANK_KEY", ranking)
        return "keys"

    def _key_function(self, name: str, decl: n.RankingDecl | n.StandingDecl) -> None:
        """Emit NAME(st, p): a player's sort key, best first (highest values negated)."""
        block = self.function(name, ["st", "p"], decl.span)
        parts = []
        ctx = _Ctx()
        for key in decl.keys:
            if key.order == "finishing":
                parts.append("(st.finished.index(p) if p in st.finished else len(st.finished))")
                continue
            assert key.value is not None
            # Through a function, not 'v is not None' inline: v may be a constant ('0 - 0'),
            # which 'is' must not meet.
            fn = "op_rank_highest" if key.order == "highest" else "op_rank_lowest"
            parts.append(f"{fn}({self.ex(key.value, ctx)})")
        self.em.line("return (" + "".join(part + ", " for part in parts) + ")")
        self.end_function(block)

    def compile_label(self) -> None:
        """Emit CARD_LABEL(st, p, c): how card c reads to people.

        The checker let it use only the card's attributes and the options: it is
        worked out once, when the game is loaded, with a state that can only name cards.
        """
        decl = self.c.label
        if decl is None:
            return
        ctx = _Ctx()
        ctx.names[decl.var] = "c"
        self.em.at(decl.span)
        self.em.line("def CARD_LABEL(st, p, c):")
        with self.em.block():
            self.em.at(decl.text.span)
            self.em.line(f"return {self.ex(decl.text, ctx)}")
        self.em.line("")

    # ------------------------------------------------------------------ the whole program

    def compile(self) -> Program:
        self.layout()
        self.load.deck_size = len(self.deck)
        for req in self.c.requires:
            if not self.load.value(req.cond):
                raise OptionError(
                    [
                        Diagnostic(
                            "E605",
                            self.load.value(req.message),
                            req.span,
                            f"with {self.players} players and these options this game cannot be played",
                            source=self.c.source,
                        )
                    ]
                )
        self.uses_faces = _uses_faces(self.c)
        for t in self.c.triggers:
            zone = self.c.refs.get(id(t))
            if isinstance(zone, ZoneSym):
                self.trigger_families.add(zone.index)
                if t.owner is not None:
                    self.owner_families.add(zone.index)
        self.phase_infos: list[tuple[PhaseSym, list[ActionInfo]]] = []
        self.window_infos: list[tuple[WindowSym, list[ActionInfo]]] = []
        self.compile_defines()
        self.compile_procedures()
        self.compile_triggers()
        self.compile_block_fn("SETUP", self.c.setup.body, self.c.setup.span)
        if self.c.round_end is not None:
            self.compile_block_fn("ROUND_END", self.c.round_end.body, self.c.round_end.span, event="round end")
        self.compile_phases()
        self.compile_windows()
        ranking = self.compile_ranking()
        self.compile_label()
        return self._link(ranking)

    def _run_source(self, namespace: dict[str, Any], filename: str, probes: bool = False) -> None:
        """Run the source written so far in ``namespace``, which gets the ops and constants first."""
        namespace["__builtins__"] = _SAFE_BUILTINS
        for name in dir(ops):
            if not name.startswith("_") and callable(getattr(ops, name)):
                namespace[f"op_{name}"] = getattr(ops, name)
        namespace.update(self.constants)
        names = self.constants["NAMES"]
        namespace.update(
            ANY_ERROR=Exception,
            ALLP=tuple(range(self.players)),
            ALLCARDS=tuple(range(len(self.deck))),
            MISS=object(),
            PLACE=Place,
            SHOW_NAME=lambda c: names[c] if type(c) is int else unseen(c),
        )
        source_code = "\n".join(self.em.lines) + "\n"
        code = compile_with_probes(source_code, filename) if probes else compile(source_code, filename, "exec")
        # The generated source names only identifiers this compiler made up; see the module docstring.
        exec(code, namespace)  # noqa: S102

    def _link(self, ranking: str) -> Program:
        source_code = "\n".join(self.em.lines) + "\n"
        filename = f"<ruledsl {self.c.source.path}>"
        namespace: dict[str, Any] = {}
        program_intern: dict[tuple[Any, ...], Action] = {}

        def intern(defn: ActionDef, key: tuple[Any, ...]) -> Action:
            k = (defn.index, key)
            a = program_intern.get(k)
            if a is None:
                a = program_intern[k] = Action(defn, key)
            return a

        names = self.constants["NAMES"]
        label_spans = {info.index: info.item.label.span for info in self.action_defs if info.item.label is not None}
        source = self.c.source

        def label_failed(idx: int, exc: Exception) -> None:
            none = isinstance(exc, TypeError) and "NoneType" in str(exc)
            message = "this label needs a value that is none here" if none else f"this label cannot be shown: {exc}"
            hint = (
                "an attribute of a card its chooser cannot see (chosen by its place) is none in a label: "
                "test it ('if c.value != none then ... else ...'), or leave it out"
            )
            raise RuleRuntimeError([Diagnostic("R504", message, label_spans.get(idx), hint, source=source)]) from None

        namespace.update(
            LABEL_FAILED=label_failed, Action=Action, INTERN=intern, GameOver=GameOver, RoundOver=RoundOver
        )
        probes = LineProbes(namespace) if self.probes else None
        self._run_source(namespace, filename, self.probes)

        defs: list[ActionDef] = []
        for info in self.action_defs:
            idx = info.index
            item = info.item
            d = ActionDef(
                index=idx,
                name=info.name,
                owner=info.owner,
                owner_kind=info.owner_kind,
                is_pass=info.is_pass,
                apply=namespace[f"X{idx}"],
                label=namespace[f"LB{idx}"],
                label_args=namespace[f"LBA{idx}"],
                label_is_static=info.static_label,
                strength=namespace.get(f"ST{idx}"),
                span=item.span,
                card_choices=tuple(
                    i
                    for i, ch in enumerate(item.choices if isinstance(item, n.ActionDecl) else ())
                    if isinstance(ch.shape, n.CardChoice)
                ),
            )
            namespace[f"AD{idx}"] = d
            namespace[f"CONST{idx}"] = intern(d, ())
            namespace[f"ACT{idx}"] = ActionCache(functools.partial(intern, d), info.single)
            defs.append(d)
        phases = []
        for phase, infos in self.phase_infos:
            actions = [defs[i.index] for i in infos if not i.is_pass]
            passes = [defs[i.index] for i in infos if i.is_pass]
            phases.append(
                PhaseInfo(
                    name=phase.name,
                    index=phase.index,
                    is_auction=phase.is_auction,
                    actions=actions,
                    legal=namespace[f"L{phase.index}"],
                    enter=namespace.get(f"E{phase.index}"),
                    won=namespace.get(f"W{phase.index}"),
                    unsold=namespace.get(f"U{phase.index}"),
                    pass_def=passes[0] if passes else None,
                    span=phase.decl.span,
                )
            )
        windows = []
        for window, infos in self.window_infos:
            actions = [defs[i.index] for i in infos if not i.is_pass]
            passes = [defs[i.index] for i in infos if i.is_pass]
            windows.append(
                WindowInfo(
                    name=window.name,
                    index=window.index,
                    actions=actions,
                    legal=namespace[f"WL{window.index}"],
                    who=namespace[f"WHO{window.index}"],
                    pass_def=passes[0],
                    span=window.decl.span,
                )
            )
        labels = self._card_labels(namespace.get("CARD_LABEL"), names)
        program = Program(
            name=self.c.file.name,
            players=self.players,
            options=dict(self.options),
            card_names=names,
            card_labels=labels,
            card_kinds=tuple(self.card_kind),
            kind_reps=self.kind_reps,
            unique_kinds=self.unique,
            attribute_tables=self.attr_tables,
            zones=self.zone_layout,
            zone_family=self.zone_family,
            zone_owner=self.zone_owner,
            phases=phases,
            windows=windows,
            setup=namespace["SETUP"],
            round_end=namespace.get("ROUND_END"),
            rank_key=namespace.get("RANK_KEY"),
            ranking=ranking,
            standing_key=namespace.get("STANDING_KEY"),
            game_var_init=self._var_inits("game"),
            player_var_init=self._var_inits("player"),
            card_var_init=self._var_inits("card"),
            game_vars=self._var_infos(self.sy.game_vars),
            player_vars=self._var_infos(self.sy.player_vars),
            card_vars=self._var_infos(self.sy.card_vars),
            uses_faces=self.uses_faces,
            uses_memo=self.listing_calls_defines,
            line_spans=self.em.spans,
            events=tuple(self.events),
            filename=filename,
            source_code=source_code,
            refusals=RuleWords(),
            intern=program_intern,
            probes=probes,
        )
        for d in defs:
            d.game = program
        # What explains a refused move is compiled when a move is first refused.
        explained = [(info, defs[info.index]) for info in self.action_defs if not info.is_pass]
        program.checks = functools.partial(
            _compile_checks, self.c, self.players, self.options, self.uses_faces, explained
        )
        return program

    def _action_checks(self, a: n.ActionDecl, info: ActionInfo, namespace: dict[str, Any]) -> ActionChecks:
        idx = info.index
        kinds, clauses = info.choice_kinds, info.clauses
        choices = [
            ChoiceCheck(
                ch.name,
                kind,
                namespace[f"DM{idx}_{i}"],
                namespace.get(f"GR{idx}_{i}"),
                getattr(ch.shape, "attr", None),
                getattr(ch.shape, "wild", None),
            )
            for i, (ch, kind) in enumerate(zip(a.choices, kinds))
        ]
        checks = [
            ClauseCheck(level, namespace[f"CK{idx}_{j}"], namespace.get(f"RS{idx}_{j}"), cond, is_open)
            for j, (level, cond, is_open) in enumerate(clauses)
        ]
        return ActionChecks(choices, checks, a.otherwise, a)

    def _card_labels(self, label: Callable[..., str] | None, names: tuple[str, ...]) -> tuple[str, ...]:
        """Each card's label, refused when two cards of one name read differently.

        People pick cards by name, and a view lists names: one name, one label.
        """
        if label is None:
            return names
        decl = self.c.label
        assert decl is not None
        labels: dict[str, str] = {}
        naming = _Naming(names)
        for c, name in enumerate(names):
            try:
                text = label(naming, None, c)
            except Exception as exc:  # a rule file's arithmetic: reported, never a traceback
                raise load_error(
                    self.c, LoadTimeError(decl.text, f"the label of '{name}' cannot be worked out ({exc})")
                ) from None
            first = labels.setdefault(name, text)
            if first != text:
                raise OptionError(
                    [
                        Diagnostic(
                            "E606",
                            f"two cards named '{name}' have different labels: '{first}' and '{text}'",
                            decl.span,
                            "people choose cards by name: give these cards different names",
                            source=self.c.source,
                        )
                    ]
                )
        return tuple(labels[name] for name in names)

    def _var_inits(self, scope: str) -> list[Any]:
        out = []
        for d in self.c.var_decls:
            if d.scope == scope:
                value = self.load.value(d.init)
                if isinstance(value, frozenset) and self._var_type(d).kind == "cards":
                    value = list(value)
                out.append(value)
        return out

    def _var_type(self, d: n.VarDecl) -> Type:
        table = {"game": self.sy.game_vars, "player": self.sy.player_vars, "card": self.sy.card_vars}[d.scope]
        return table[d.name].type

    def _var_infos(self, table: dict[str, VarSym]) -> list[VarInfo]:
        return [
            VarInfo(v.name, v.visibility, _shower(v.type, self.sy), v.type.kind, v.decl.unlisted)
            for v in table.values()
        ]


# ============================================================================ helpers


#: The only built-ins generated code may call.
_SAFE_BUILTINS = {
    "len": len,
    "range": range,
    "list": list,
    "tuple": tuple,
    "set": set,
    "frozenset": frozenset,
    "sum": sum,
    "max": max,
    "min": min,
    "abs": abs,
    "any": any,
    "all": all,
    "next": next,
    "reversed": reversed,
    "sorted": sorted,
    "map": map,
    "enumerate": enumerate,
    "str": str,
    "bool": bool,
    "None": None,
    "True": True,
    "False": False,
    "iter": iter,
    "length_hint": operator.length_hint,
}


def _ident(name: str) -> str:
    """A Python identifier for a values name (which may hold any Unicode letter)."""
    return "".join(ch if ch.isascii() and (ch.isalnum() or ch == "_") else f"_{ord(ch):x}_" for ch in name)


def _freeze(value: Any) -> Any:
    return tuple(sorted(value)) if isinstance(value, frozenset) else value


def _clauses(a: n.ActionDecl) -> list[tuple[n.Expr, n.Expr | None, int]]:
    """An action's conditions, in order: each with its reason (None: none given) and its
    level, the number of choices made when it is tested (the last one it or its reason uses)."""
    found: list[tuple[n.Expr, n.Expr | None]] = [(cj, None) for cj in _conjuncts(a.when)]
    found += [(r.cond, r.reason) for r in a.requires]
    out = []
    for cond, reason in found:
        used = _names_used(cond) | (set() if reason is None else _names_used(reason))
        level = 0
        for i, ch in enumerate(a.choices):
            if ch.name in used:
                level = i + 1
        out.append((cond, reason, level))
    return out


def _conjuncts(e: n.Expr | None) -> list[n.Expr]:
    if e is None:
        return []
    if isinstance(e, n.BoolOp) and e.op == "and":
        return _conjuncts(e.left) + _conjuncts(e.right)
    return [e]


def _stops_its_loop(body: tuple[n.Stmt, ...]) -> bool:
    """Whether a loop's body has a 'stop' of its own (not only those of loops inside it)."""
    stack = list(body)
    while stack:
        s = stack.pop()
        if isinstance(s, n.Stop):
            return True
        if isinstance(s, n.If):
            for _cond, branch in s.branches:
                stack.extend(branch)
            stack.extend(s.else_)
    return False


#: Expressions too simple to be worth computing ahead of a loop.
_TRIVIAL = (n.Number, n.BoolLit, n.NoneLit, n.ActingPlayer, n.AllPlayers)


_LITERAL = re.compile(r"\(*-?\d+\)*|\(*(None|True|False)\)*")


def _mentions(code: str, names: frozenset[str]) -> bool:
    """Whether generated code uses any of the (compiler-made) names."""
    return any(re.search(rf"\b{name}\b", code) for name in names)


#: Expressions that go through cards or players one by one.
_LOOPING = (n.Quantifier, n.Count, n.Filter, n.First, n.Topmost, n.Aggregate, n.Best, n.RunOf)


def _simple_code(code: str) -> bool:
    """Whether generated Python is a constant, a name or an index sum, cheap to repeat."""
    return all(ch.isalnum() or ch in " _+()" for ch in code) and code.count("(") < 4


@frozen(kw_only=True)
class _PyName(n.Expr):
    """A Python name standing for an argument, when a definition is written in place."""

    code: str


def _cheap(e: n.Expr, checked: CheckedGame) -> bool:
    """Whether an expression is cheap and harmless to compute twice (an argument to inline)."""
    if isinstance(e, (n.Number, n.BoolLit, n.NoneLit, n.ActingPlayer, n.Name, _PyName)):
        return True
    if isinstance(e, n.Attribute):
        return _cheap(e.obj, checked)
    return False


def _is_param_of(ref: Ref | None, decl: n.DefineDecl) -> bool:
    """Whether ``ref`` is a parameter of the definition ``decl``."""
    return isinstance(ref, LocalRef) and ref.local.kind == "param" and ref.local.decl is decl


def _only_through(e: n.Expr, name: str, attr: str) -> bool:
    """Whether ``e`` uses the choice ``name`` only as ``name.attr`` (and uses it at all)."""
    uses = sum(1 for x in n.walk(e) if isinstance(x, n.Name) and x.id == name)
    via = sum(
        1
        for x in n.walk(e)
        if isinstance(x, n.Attribute) and x.name == attr and isinstance(x.obj, n.Name) and x.obj.id == name
    )
    return uses > 0 and uses == via


def _names_used(e: n.Expr) -> set[str]:
    return {x.id for x in n.walk(e) if isinstance(x, n.Name)}


@functools.lru_cache(maxsize=16)
def _uses_faces(checked: CheckedGame) -> bool:
    """Whether any rule turns cards face up or down; asked once per game, not once per player count."""
    return any(
        isinstance(s, n.TurnFace)
        or (isinstance(s, n.Move) and s.facing is not None)
        or (isinstance(s, n.Deal) and s.facing is not None)
        for s in n.walk(checked.file)
    )


def _texts_in(e: n.Expr) -> Iterator[n.Text]:
    return (x for x in n.walk(e) if isinstance(x, n.Text))


def _label_is_static(label: n.Expr, checked: CheckedGame, item: n.ActionDecl | n.PassDecl) -> bool:
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
            if not isinstance(ref, BuiltinRef):
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


def _shower(t: Type, sy: Any) -> Callable[..., Any]:
    """Return how a variable's value appears in an observation (JSON)."""
    if t.kind == "value":
        displays = sy.values[t.of].displays
        return lambda st, viewer, v: None if v is None else displays[v]
    if t.kind == "set" and t.of != "number":
        displays = sy.values[t.of].displays
        return lambda st, viewer, v: [displays[i] for i in ops.bits(v)]
    if t.kind == "set":
        return lambda st, viewer, v: sorted(v)
    if t.kind == "card":
        return lambda st, viewer, v: None if v is None else st.show_card(viewer, v)
    if t.kind == "cards":
        return lambda st, viewer, v: [st.show_card(viewer, c) for c in v]
    if t.kind == "player":  # named as everywhere else a player is shown: P0, P1...
        return lambda st, viewer, v: None if v is None else ops.show_player(v)
    if t.kind == "players":
        return lambda st, viewer, v: [ops.show_player(q) for q in v]
    return lambda st, viewer, v: v


def _compile_checks(
    checked: CheckedGame,
    players: int,
    options: dict[str, Any],
    uses_faces: bool,
    explained: list[tuple[ActionInfo, ActionDef]],
) -> None:
    """Compile what explains a refused move and give each action its ActionChecks.

    A compiler of its own writes the definitions again (the conditions call them) and each
    action's checks; done once, on the first refusal, so that loading a game and playing
    it cost nothing for it.
    """
    comp = _Compiler(checked, players, options)
    comp.layout()
    comp.load.deck_size = len(comp.deck)
    comp.uses_faces = uses_faces
    comp.compile_defines()
    for info, _defn in explained:
        comp._emit_checks(info.item, info)  # type: ignore[arg-type]
    namespace: dict[str, Any] = {}
    comp._run_source(namespace, f"<ruledsl {checked.source.path} (reasons)>")
    for info, defn in explained:
        defn.checks = comp._action_checks(info.item, info, namespace)  # type: ignore[arg-type]


def compile_game(checked: CheckedGame, players: int, options: dict[str, Any], probes: bool = False) -> Program:
    """Compile a checked game for a player count and option values (already validated).

    With ``probes``, its functions tell which of their lines run (see ``Program.probes``).
    """
    try:
        return _Compiler(checked, players, options, probes).compile()
    except LoadTimeError as exc:
        raise load_error(checked, exc) from None
