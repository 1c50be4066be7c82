"""What every part of one compilation shares: the game, its layout, the lines written, names made."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from attrs import define, field

from ruledsl.analysis.loadtime import LoadTimeValues
from ruledsl.analysis.refs import Ref
from ruledsl.analysis.symbols import Type
from ruledsl.codegen import names
from ruledsl.codegen.layout import Layout, lay_out
from ruledsl.syntax import nodes as n
from ruledsl.text.source import Span

if TYPE_CHECKING:
    from ruledsl.analysis.checked import CheckedGame
    from ruledsl.analysis.symbols import PhaseSym, WindowSym
    from ruledsl.codegen.actions import Actions
    from ruledsl.codegen.checks import Checks
    from ruledsl.codegen.expressions import Expressions
    from ruledsl.codegen.folding import Folding
    from ruledsl.codegen.labels import Labels
    from ruledsl.codegen.phases import Phases
    from ruledsl.codegen.statements import Statements

#: The most characters of rule text a simulate report shows to name a rule or an announcement.
REPORT_WIDTH = 48


class Output:
    """The generated lines, each with the rule span it came from, and the current indentation."""

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

    def comment(self, text: str) -> None:
        """A comment line: no rule's code, so it has no span (a rule failing is never there)."""
        self.lines.append("    " * self.indent + names.comment(text))
        self.spans.append(None)

    def block(self) -> Indent:
        return Indent(self)


class Indent:
    """One more level of indentation for the lines written inside a ``with``."""

    def __init__(self, em: Output) -> None:
        self.em = em

    def __enter__(self) -> None:
        self.em.indent += 1

    def __exit__(self, *exc: object) -> None:
        self.em.indent -= 1


class Scope:
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

    def child(self) -> Scope:
        return Scope(self.names, self.player, self.overrides, self.hoist, self.varying)

    def with_overrides(self, overrides: dict[int, str]) -> Scope:
        return Scope(self.names, self.player, overrides, self.hoist, self.varying)


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
    # Filled in when a move is first refused (Checks.emit_checks): each choice's kind, and each
    # condition's (level, condition, whether its player may be told why it is false, whether
    # it is a 'require if able', whether it is a 'must if able').
    choice_kinds: list[str] = field(factory=list)
    clauses: list[tuple[int, n.Expr, bool, bool, bool]] = field(factory=list)

    @property
    def construct(self) -> str:
        """How a listing names it: ``action place``, or a phase's or window's pass."""
        return f"{self.owner_kind} {self.owner}: pass" if self.is_pass else f"action {self.name}"


class CompileContext:
    """The state one compilation shares: its parts reach each other through it (``cx.exprs.ex``)."""

    def __init__(self, checked: CheckedGame, players: int, options: dict[str, Any], probes: bool = False) -> None:
        self.checked = checked
        self.players = players
        self.options = options
        self.probes = probes  # compile the program's functions with line probes (ruledsl.codegen.probes)
        self.load = LoadTimeValues(checked, players, options)
        self.em = Output()
        self.counter = itertools.count()
        self.constants: dict[str, Any] = {}
        self.named: dict[str, str] = {}  # a card name -> the constant holding the cards of that name
        self.layout: Layout = lay_out(checked, self.load, players, self.constants)
        self.load.deck_size = len(self.layout.deck)
        self.action_defs: list[ActionInfo] = []
        self.phase_infos: list[tuple[PhaseSym, list[ActionInfo]]] = []
        self.window_infos: list[tuple[WindowSym, list[ActionInfo]]] = []
        self.trigger_families: set[int] = set()
        self.owner_families: set[int] = set()  # those with a rule naming the owner (when cs enter p.hand)
        self.events: list[str] = []
        self.functions: dict[str, str] = {}  # each generated function written -> the construct it is for
        self.uses_faces = False
        # In a label made from an action's key, a card chosen by its place is None.
        self.label_mode = False
        self.listing = False  # compiling a function that lists legal actions
        self.listing_calls_defines = False  # ... and it calls a definition (which memoises)
        # The parts, each writing one kind of construct (attached by compiler.start, in this order).
        self.folding: Folding
        self.exprs: Expressions
        self.stmts: Statements
        self.labels: Labels
        self.actions: Actions
        self.checks: Checks
        self.phases: Phases

    def fresh(self, prefix: names.Prefix = names.LOCAL) -> str:
        """A new name, never made before in this compilation."""
        return prefix(next(self.counter))

    def type_of(self, e: n.Expr) -> Type:
        return self.checked.types.get(id(e)) or Type("any")

    def ref(self, node: n.Node) -> Ref | None:
        return self.checked.refs.get(id(node))

    def const(self, value: Any, prefix: names.Prefix = names.CONSTANT) -> str:
        """The name of a new constant of the generated code, holding ``value``."""
        name = prefix(len(self.constants))
        self.constants[name] = value
        return name

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
        text = "" if span is None else self.checked.source.text[span.start.offset : span.end.offset]
        text = " ".join(text.split())
        return text if limit is None or len(text) <= limit else text[: limit - 1] + "…"

    def said(self, message: n.Expr) -> str:
        """How a report names a 'say': by its text, the first one when it chooses between texts."""
        if isinstance(message, n.Text):
            return self.source_of(message, REPORT_WIDTH)
        first = min(texts_in(message), key=lambda t: t.span.start.offset if t.span else 0, default=None)
        return self.source_of(message, REPORT_WIDTH) if first is None else self.source_of(first, REPORT_WIDTH) + " …"

    def header(self, name: str, construct: str, span: Span | None) -> None:
        """The comment opening generated function ``name``: the rule file's line and what is there.

        The function goes in the table of those written, by which linking finds it.
        """
        self.functions[name] = construct
        where = self.checked.source.path if span is None else f"{self.checked.source.path}:{span.start.line}"
        self.em.comment(f"{where}: {construct}")

    def function(self, name: str, params: list[str], span: Span | None, construct: str) -> Indent:
        """Open a generated function for ``construct`` (its body indented until ``end_function``)."""
        self.header(name, construct, span)
        self.em.at(span)
        self.em.line(f"def {name}({', '.join(params)}):")
        block = self.em.block()
        block.__enter__()
        self.em.line("Z = st.zones")
        return block

    def end_function(self, block: Indent) -> None:
        block.__exit__()
        self.em.line("")


class CompilerPart:
    """One part of the compiler: the shared context, and what every part reads most, at hand."""

    def __init__(self, cx: CompileContext) -> None:
        self.cx = cx
        self.c = cx.checked
        self.sy = cx.checked.symbols
        self.players = cx.players
        self.options = cx.options
        self.load = cx.load
        self.layout = cx.layout
        self.em = cx.em
        self.fresh = cx.fresh
        self.type_of = cx.type_of
        self.ref = cx.ref

    def failing_if(self, code: str, test: str, message: str, hint: str) -> str:
        """Give ``code``'s value a name, the rule failing (R504) where ``test`` (``{}`` for the
        name) holds of it; return the name."""
        name = self.fresh(names.CHECKED)
        self.em.line(f"{name} = {code}")
        self.em.line(f"if {test.format(name)}:")
        with self.em.block():
            self.em.line(f"op_fail({self.cx.const(message)}, {self.cx.const(hint)})")
        return name


def texts_in(e: n.Expr) -> Iterator[n.Text]:
    return (x for x in n.walk(e) if isinstance(x, n.Text))
