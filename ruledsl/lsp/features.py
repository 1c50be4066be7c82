"""The answers of the language server, from an analysed document: hover, completion, names, fixes, formatting.

Each function takes a Document and a character offset and returns lsprotocol values;
the server (``server.py``) only turns requests into these calls.
"""

from __future__ import annotations

import re

from lsprotocol import types as t

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
    VarSym,
    WindowSym,
    ZoneSym,
)
from ruledsl.lsp.cards import DeckCard, deck_cards
from ruledsl.lsp.document import Document
from ruledsl.lsp.index import Occurrence, kind_of
from ruledsl.lsp.keywords import keyword_meanings
from ruledsl.lsp.positions import Place
from ruledsl.syntax.expected import expected_keywords
from ruledsl.syntax.grammar import keywords, reserved_words
from ruledsl.text.errors import Diagnostic, Severity
from ruledsl.text.source import Span

_DID_YOU_MEAN = re.compile(r"did you mean ('[^']+'(?: or '[^']+')*)\?")
_WORD = re.compile(r"\w+")
_NAME = re.compile(r"[A-Za-z_]\w*")
_TEXT = re.compile(r'"(?:[^"\\]|\\.)*"?')


def lsp_range(doc: Document, span: Span | None) -> t.Range:
    start, end = doc.lines.range(span)
    return t.Range(t.Position(start.line, start.character), t.Position(end.line, end.character))


def offset_of(doc: Document, position: t.Position) -> int:
    return doc.lines.offset(Place(position.line, position.character))


# ---------------------------------------------------------------------------- diagnostics


def lsp_diagnostics(doc: Document, uri: str) -> list[t.Diagnostic]:
    """Return the document's diagnostics as ``check`` reports them: code, range, message and hint."""
    return [_lsp_diagnostic(doc, uri, d) for d in doc.diagnostics]


def _lsp_diagnostic(doc: Document, uri: str, d: Diagnostic) -> t.Diagnostic:
    message = d.message + (f"\nhint: {d.hint}" if d.hint else "")
    related = []
    for name in suggestions(d):
        declared = _declared(doc, name)
        if declared is not None:
            where = t.Location(uri, lsp_range(doc, declared.span))
            related.append(t.DiagnosticRelatedInformation(where, f"'{name}' is declared here"))
    return t.Diagnostic(
        range=lsp_range(doc, d.span),
        message=message,
        severity=t.DiagnosticSeverity.Error if d.severity is Severity.ERROR else t.DiagnosticSeverity.Warning,
        code=d.code,
        source="ruledsl",
        related_information=related or None,
    )


def suggestions(d: Diagnostic) -> list[str]:
    """Return the names a diagnostic's hint suggests ("did you mean 'deal'?"), if any."""
    m = _DID_YOU_MEAN.search(d.hint or "")
    return re.findall(r"'([^']+)'", m[1]) if m else []


def _declared(doc: Document, name: str) -> Occurrence | None:
    if doc.index is None:
        return None
    for symbol in doc.index.symbols:
        if symbol.name == name and not isinstance(symbol, LocalSym):
            return doc.index.declaration_of(symbol)
    return None


def code_actions(doc: Document, uri: str, diagnostics: list[t.Diagnostic]) -> list[t.CodeAction]:
    """Return a quick fix for each suggested name of the diagnostics the editor asks about."""
    actions = []
    for wanted in diagnostics:
        for d in doc.diagnostics:
            if d.code != wanted.code or lsp_range(doc, d.span) != wanted.range or d.span is None:
                continue
            written = doc.source.text[d.span.start.offset : d.span.end.offset]
            # Only a word the message names is replaced: the fix changes that word and nothing else.
            if not _NAME.fullmatch(written) or f"'{written}'" not in d.message:
                continue
            for name in suggestions(d):
                edit = t.TextEdit(lsp_range(doc, d.span), name)
                actions.append(
                    t.CodeAction(
                        title=f"Change '{written}' to '{name}'",
                        kind=t.CodeActionKind.QuickFix,
                        diagnostics=[wanted],
                        edit=t.WorkspaceEdit(changes={uri: [edit]}),
                        is_preferred=len(suggestions(d)) == 1,
                    )
                )
    return actions


# ---------------------------------------------------------------------------- hover


def hover(doc: Document, offset: int) -> t.Hover | None:
    """Say what the word under the cursor is: a declared name, a card in quotes, or a keyword."""
    occurrence = doc.index.at(offset) if doc.index else None
    if occurrence is not None:
        return _hover(doc, occurrence.span, describe(doc, occurrence.symbol))
    text = _text_at(doc, offset)
    if text is not None and doc.checked is not None:
        content, span = text
        card = next((c for c in deck_cards(doc.checked) if c.name == content), None)
        if card is not None:
            return _hover(doc, span, describe_card(doc, card))
        return None
    word = _word_at(doc, offset)
    if word is not None and word[0] in keyword_meanings():
        return _hover(doc, word[1], f"**{word[0]}** (keyword)\n\n{keyword_meanings()[word[0]]}")
    return None


def _hover(doc: Document, span: Span, markdown: str) -> t.Hover:
    return t.Hover(t.MarkupContent(t.MarkupKind.Markdown, markdown), lsp_range(doc, span))


def describe(doc: Document, symbol: Symbol) -> str:
    """Return a name's kind, its declaration as written, and its type."""
    lines = [f"**{kind_of(symbol)}** `{symbol.name}`"]
    declared = doc.index.declaration_of(symbol) if doc.index else None
    if declared is not None:
        line = doc.source.line_text(declared.span.start.line)
        written = line.split(" #", 1)[0].strip() if not line.lstrip().startswith("#") else line.strip()
        lines.append(f"```\n{written}\n```\nline {declared.span.start.line}")
    kind = _type_of(symbol)
    if kind:
        lines.append(kind)
    return "\n\n".join(lines)


def _type_of(symbol: Symbol) -> str | None:
    if isinstance(symbol, VarSym | AttributeSym | OptionSym | LocalSym):
        return f"type: {symbol.type}"
    if isinstance(symbol, DefineSym):
        params = ", ".join(f"{name}: {kind}" for name, kind in symbol.params)
        return f"type: {symbol.type}" + (f"; parameters: {params}" if params else "")
    if isinstance(symbol, ProcedureSym) and symbol.params:
        return "parameters: " + ", ".join(f"{name}: {kind}" for name, kind in symbol.params)
    if isinstance(symbol, MemberSym):
        return f"a value of '{symbol.values.name}' (number {symbol.index + 1} of {len(symbol.values.members)})"
    if isinstance(symbol, ZoneSym):
        seen = {"mover": "seen by mover", "others": "seen by others", "told": "public"}.get(
            symbol.visibility, symbol.visibility
        )
        return f"{'one per player' if symbol.per_player else 'shared'}, {seen}"
    if isinstance(symbol, PhaseSym | WindowSym) and symbol.actions:
        return "actions: " + ", ".join(a.name for a in symbol.actions)
    return None


def describe_card(doc: Document, card: DeckCard) -> str:
    """Return a card's attributes as the deck gives them, and the deck line that makes it."""
    line = doc.source.line_text(card.entry.span.start.line).split(" #", 1)[0].strip()
    attributes = "\n".join(f"- {name}: {value}" for name, value in card.attributes) or "- no attributes"
    return f"**card** `{card.name}`\n\n{attributes}\n\n```\n{line}\n```\nline {card.entry.span.start.line}"


def _word_at(doc: Document, offset: int) -> tuple[str, Span] | None:
    pos = doc.source.pos_at(offset)
    line = doc.source.line_text(pos.line)
    start = offset - (pos.col - 1)
    for m in _WORD.finditer(line):
        if m.start() <= pos.col - 1 <= m.end():
            return m[0], doc.source.span_at(start + m.start(), start + m.end())
    return None


def _text_at(doc: Document, offset: int) -> tuple[str, Span] | None:
    """The content of the quoted text the cursor is in, and its span; None outside quotes."""
    pos = doc.source.pos_at(offset)
    line = doc.source.line_text(pos.line)
    start = offset - (pos.col - 1)
    comment = _comment_start(line)
    for m in _TEXT.finditer(line[:comment]):
        if m.start() < pos.col - 1 <= m.end() - (1 if m[0].endswith('"') and len(m[0]) > 1 else 0):
            content = m[0][1:-1] if m[0].endswith('"') and len(m[0]) > 1 else m[0][1:]
            return content, doc.source.span_at(start + m.start(), start + m.end())
    return None


def _comment_start(line: str) -> int:
    """Where a line's comment starts (its length if it has none): the first # outside quotes."""
    quoted = False
    k = 0
    while k < len(line):
        ch = line[k]
        if ch == "\\" and quoted:
            k += 2
            continue
        if ch == '"':
            quoted = not quoted
        elif ch == "#" and not quoted:
            return k
        k += 1
    return len(line)


# ---------------------------------------------------------------------------- completion


def completion(doc: Document, offset: int) -> list[t.CompletionItem]:
    """Offer card names inside quotes; elsewhere the keywords the grammar expects here, and the declared names."""
    if _text_at(doc, offset) is not None:
        if doc.checked is None:
            return []
        return [
            t.CompletionItem(c.name, kind=t.CompletionItemKind.Constant, detail="card") for c in deck_cards(doc.checked)
        ]
    start = offset
    while start > 0 and (doc.source.text[start - 1].isalnum() or doc.source.text[start - 1] == "_"):
        start -= 1
    expected = expected_keywords(doc.text_before(start))
    words = sorted(expected.keywords if expected is not None else keywords())
    items = [t.CompletionItem(w, kind=t.CompletionItemKind.Keyword, detail=keyword_meanings().get(w)) for w in words]
    if (expected is None or expected.names) and doc.index is not None:
        seen: set[str] = set()
        for symbol in doc.index.symbols:
            if symbol.name in seen or isinstance(symbol, ActionSym):
                continue  # an action is never written by name in the rules
            if isinstance(symbol, LocalSym) and not _in_scope(doc, symbol, offset):
                continue
            seen.add(symbol.name)
            items.append(t.CompletionItem(symbol.name, kind=_ITEM_KINDS.get(type(symbol)), detail=kind_of(symbol)))
    return items


def _in_scope(doc: Document, symbol: LocalSym, offset: int) -> bool:
    """Whether a local is declared in the top-level block the cursor is in (before it)."""
    declared = doc.index.declaration_of(symbol) if doc.index else None
    if declared is None or declared.span.start.offset > offset:
        return False
    between = doc.source.text[declared.span.start.offset : offset]
    return re.search(r"[\r\n][^\s#]", between) is None


_ITEM_KINDS: dict[type, t.CompletionItemKind] = {
    ZoneSym: t.CompletionItemKind.Field,
    VarSym: t.CompletionItemKind.Variable,
    DefineSym: t.CompletionItemKind.Function,
    ProcedureSym: t.CompletionItemKind.Method,
    PhaseSym: t.CompletionItemKind.Module,
    WindowSym: t.CompletionItemKind.Module,
    OptionSym: t.CompletionItemKind.Constant,
    MemberSym: t.CompletionItemKind.EnumMember,
    AttributeSym: t.CompletionItemKind.Property,
    LocalSym: t.CompletionItemKind.Variable,
}


# ---------------------------------------------------------------------------- names


def definition(doc: Document, uri: str, offset: int) -> t.Location | None:
    """Return where the name under the cursor is declared."""
    occurrence = doc.index.at(offset) if doc.index else None
    if occurrence is None or doc.index is None:
        return None
    declared = doc.index.declaration_of(occurrence.symbol)
    return t.Location(uri, lsp_range(doc, declared.span)) if declared else None


def references(doc: Document, uri: str, offset: int, with_declaration: bool) -> list[t.Location]:
    """Return every place the name under the cursor is written (its declaration too, if asked)."""
    occurrence = doc.index.at(offset) if doc.index else None
    if occurrence is None or doc.index is None:
        return []
    return [
        t.Location(uri, lsp_range(doc, o.span))
        for o in doc.index.occurrences_of(occurrence.symbol)
        if with_declaration or not o.is_declaration
    ]


class RenameRefused(Exception):
    """A rename that would break the rules: the message says why."""


def rename(doc: Document, uri: str, offset: int, new_name: str) -> t.WorkspaceEdit | None:
    """Rename the declared name under the cursor everywhere it is written; RenameRefused for a bad new name."""
    occurrence = doc.index.at(offset) if doc.index else None
    if occurrence is None or doc.index is None:
        return None
    if doc.has_syntax_error:
        raise RenameRefused("the file has a syntax error: fix it first, so that every use of the name is found")
    if not _NAME.fullmatch(new_name):
        raise RenameRefused(f"'{new_name}' is not a name: letters, digits and _, not starting with a digit")
    if new_name in reserved_words() or new_name in keywords():
        raise RenameRefused(f"'{new_name}' is a keyword of the language")
    taken = {s.name for s in doc.index.symbols if not isinstance(s, LocalSym)}
    if new_name in taken and new_name != occurrence.symbol.name:
        raise RenameRefused(f"'{new_name}' is already declared")
    edits = [t.TextEdit(lsp_range(doc, o.span), new_name) for o in doc.index.occurrences_of(occurrence.symbol)]
    return t.WorkspaceEdit(changes={uri: edits})


def document_symbols(doc: Document) -> list[t.DocumentSymbol]:
    """Return the file's declared names in order: phases and windows with their actions, definitions, zones..."""
    if doc.index is None:
        return []
    symbols = []
    owned = {id(a) for s in doc.index.symbols if isinstance(s, PhaseSym | WindowSym) for a in s.actions}
    for symbol in doc.index.symbols:
        if isinstance(symbol, LocalSym | MemberSym) or id(symbol) in owned:
            continue
        made = _document_symbol(doc, symbol)
        if made is None:
            continue
        if isinstance(symbol, PhaseSym | WindowSym):
            made.children = [c for c in (_document_symbol(doc, a) for a in symbol.actions) if c is not None]
        symbols.append(made)
    return sorted(symbols, key=lambda s: (s.range.start.line, s.range.start.character))


def _document_symbol(doc: Document, symbol: Symbol) -> t.DocumentSymbol | None:
    declared = doc.index.declaration_of(symbol) if doc.index else None
    if declared is None or symbol.decl is None:
        return None
    return t.DocumentSymbol(
        name=symbol.name,
        detail=kind_of(symbol),
        kind=_SYMBOL_KINDS.get(kind_of(symbol), t.SymbolKind.Variable),
        range=lsp_range(doc, symbol.decl.span),
        selection_range=lsp_range(doc, declared.span),
    )


_SYMBOL_KINDS = {
    "phase": t.SymbolKind.Module,
    "auction": t.SymbolKind.Module,
    "window": t.SymbolKind.Module,
    "action": t.SymbolKind.Event,
    "definition": t.SymbolKind.Function,
    "procedure": t.SymbolKind.Method,
    "zone": t.SymbolKind.Field,
    "option": t.SymbolKind.Constant,
    "values": t.SymbolKind.Enum,
    "card attribute": t.SymbolKind.Property,
}


# ---------------------------------------------------------------------------- formatting


def formatting(doc: Document) -> list[t.TextEdit] | None:
    """Return the edit that writes the file in the canonical layout (``ruledsl fmt``); None with a syntax error."""
    from ruledsl.format.fmt import format_source
    from ruledsl.text.errors import RuleDslError

    if doc.has_syntax_error:
        return None
    try:
        formatted = format_source(doc.source.text, doc.source.path)
    except RuleDslError:
        return None
    if formatted == doc.source.text:
        return []
    last = doc.lines.place(doc.source.pos_at(len(doc.source.text)))
    whole = t.Range(t.Position(0, 0), t.Position(last.line, last.character))
    return [t.TextEdit(whole, formatted)]
