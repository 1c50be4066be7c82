"""Where each declared name of a rule file is declared and used: the index behind definitions, references and renames.

Built from a checked game (``analysis.analyse``): the checker's ``refs`` say what every
name, attribute and call refers to; the index adds where, as the span of the word itself.
"""

from __future__ import annotations

import bisect
import re
from typing import Any

from attrs import frozen

from ruledsl.analysis.checked import CheckedGame
from ruledsl.analysis.refs import (
    CardAttrRef,
    CardsAttrRef,
    CardVarRef,
    DefineRef,
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
    ActionSym,
    AttributeSym,
    DefineSym,
    LocalSym,
    MemberSym,
    OptionSym,
    PhaseSym,
    ProcedureSym,
    Symbol,
    ValuesSym,
    VarSym,
    WindowSym,
    ZoneSym,
)
from ruledsl.syntax import nodes as n
from ruledsl.text.source import Pos, Source, Span


@frozen(eq=False)
class Occurrence:
    """One place a symbol's name is written: its declaration or a use."""

    symbol: Symbol
    span: Span
    is_declaration: bool


def symbol_of(ref: Ref) -> Symbol | None:
    """Return the declared symbol a reference names (None for what the language provides)."""
    if isinstance(ref, OptionRef):
        return ref.option
    if isinstance(ref, MemberRef):
        return ref.member
    if isinstance(ref, GameVarRef | PlayerVarRef | CardVarRef):
        return ref.var
    if isinstance(ref, ZoneRef | ZoneFamilyRef):
        return ref.zone
    if isinstance(ref, DefineRef):
        return ref.define
    if isinstance(ref, LocalRef):
        return ref.local
    if isinstance(ref, CardAttrRef | CardsAttrRef | RunKeyAttrRef):
        return ref.attr
    if isinstance(ref, Symbol):
        return ref
    return None


def kind_of(symbol: Symbol) -> str:
    """Return what a symbol is, in the language's words ('zone', 'player var', 'definition'...)."""
    if isinstance(symbol, VarSym):
        return "var" if symbol.scope == "game" else f"{symbol.scope} var"
    if isinstance(symbol, PhaseSym):
        return "auction" if symbol.is_auction else "phase"
    if isinstance(symbol, LocalSym):
        return {"let": "local (let)", "loop": "loop variable", "param": "parameter", "choice": "choice"}.get(
            symbol.kind, "local"
        )
    return _KINDS.get(type(symbol), "name")


_KINDS: dict[type, str] = {
    OptionSym: "option",
    ValuesSym: "values",
    MemberSym: "value",
    AttributeSym: "card attribute",
    ZoneSym: "zone",
    DefineSym: "definition",
    ProcedureSym: "procedure",
    WindowSym: "window",
    ActionSym: "action",
}

#: Nodes that begin with a keyword: their name is never their first word.
_KEYWORD_FIRST = (n.Decl, n.Let, n.ActionDecl, n.PassDecl)


class Spans:
    """Spans of a source's character offsets, each found by bisection (Source.span_at counts lines from the start)."""

    def __init__(self, source: Source) -> None:
        self.source = source
        text = source.text
        self._starts = [0] + [m.end() for m in re.finditer(r"\r\n|\r|\n", text)]

    def pos(self, offset: int) -> Pos:
        line = bisect.bisect_right(self._starts, offset)
        return Pos(line, offset - self._starts[line - 1] + 1, offset)

    def span(self, start: int, end: int) -> Span:
        return Span(self.pos(start), self.pos(end))


def word_span(spans: Spans, span: Span | None, word: str, last: bool = False, skip_first: bool = False) -> Span | None:
    """Return the span of ``word`` written whole inside ``span`` (its first, or last, occurrence)."""
    if span is None or not span.start.line or not word:
        return None
    text = spans.source.text[span.start.offset : span.end.offset]
    found = [m.start() for m in re.finditer(rf"(?<!\w){re.escape(word)}(?!\w)", text)]
    if skip_first and len(found) > 1 and found[0] == 0:
        found = found[1:]
    if not found:
        return None
    at = span.start.offset + (found[-1] if last else found[0])
    return spans.span(at, at + len(word))


class NameIndex:
    """Every declared name of a checked game, where it is declared, and every place it is used."""

    def __init__(self, checked: CheckedGame) -> None:
        self.source = checked.source
        self._spans = Spans(checked.source)
        self.occurrences: list[Occurrence] = []
        self.by_symbol: dict[int, list[Occurrence]] = {}
        self.symbols: list[Symbol] = []
        for declared in declared_symbols(checked):
            self._declare(declared)
        for node in n.walk(checked.file):
            ref = checked.refs.get(id(node))
            symbol = symbol_of(ref) if ref is not None else None
            if isinstance(symbol, MemberSym) and symbol.decl is None:
                # A member reached as 'rank.K' or through a number: one symbol per use; numbers are not names.
                symbol = checked.symbols.members.get(symbol.name)
            if symbol is None or symbol.decl is None:
                continue
            if id(symbol) not in self.by_symbol:
                self._declare(symbol)  # a local: declared where it is bound
            span = self._use_span(node, symbol.name)
            if span is not None and not self._is_declaration_at(symbol, span):
                self._add(Occurrence(symbol, span, False))
        self.occurrences.sort(key=lambda o: o.span.start.offset)

    def _declare(self, symbol: Symbol) -> None:
        self.symbols.append(symbol)
        self.by_symbol[id(symbol)] = []
        span = self.declaration_span(symbol)
        if span is not None:
            self._add(Occurrence(symbol, span, True))

    def _add(self, occurrence: Occurrence) -> None:
        self.occurrences.append(occurrence)
        self.by_symbol[id(occurrence.symbol)].append(occurrence)

    def _is_declaration_at(self, symbol: Symbol, span: Span) -> bool:
        return any(o.is_declaration and o.span == span for o in self.by_symbol[id(symbol)])

    def declaration_span(self, symbol: Symbol) -> Span | None:
        """Return the span of the name where ``symbol`` is declared (None for a name without a declaration)."""
        decl = symbol.decl
        if decl is None:
            return None
        return word_span(self._spans, decl.span, symbol.name, skip_first=isinstance(decl, _KEYWORD_FIRST))

    def _use_span(self, node: n.Node, name: str) -> Span | None:
        if isinstance(node, n.Name | n.Number):
            return node.span if node.span.start.line else None
        return word_span(self._spans, node.span, name, last=isinstance(node, n.Attribute))

    def at(self, offset: int) -> Occurrence | None:
        """Return the occurrence of a name at a character offset (the cursor at its end counts)."""
        for o in self.occurrences:
            if o.span.start.offset <= offset <= o.span.end.offset:
                return o
        return None

    def occurrences_of(self, symbol: Symbol) -> list[Occurrence]:
        """Return the declaration and the uses of a symbol, in file order."""
        return sorted(self.by_symbol.get(id(symbol), []), key=lambda o: o.span.start.offset)

    def declaration_of(self, symbol: Symbol) -> Occurrence | None:
        return next((o for o in self.by_symbol.get(id(symbol), []) if o.is_declaration), None)


def declared_symbols(checked: CheckedGame) -> list[Symbol]:
    """Return every name the rule file declares at its top level, with the actions of its phases and windows."""
    table = checked.symbols
    found: list[Symbol] = []
    names: dict[str, Any]
    for names in (
        table.options,
        table.values,
        table.members,
        table.attributes,
        table.zones,
        table.game_vars,
        table.player_vars,
        table.card_vars,
        table.defines,
        table.procedures,
        table.phases,
        table.windows,
    ):
        found.extend(names.values())
    for phase in table.phases.values():
        found.extend(phase.actions)
    for window in table.windows.values():
        found.extend(window.actions)
    return [s for s in found if s.decl is not None]
