"""What a document's text means: its diagnostics (as ``check`` gives them; a syntax error hides no other) and names.

A syntax error stops the parser. To go on, the top-level block holding it is blanked out
(its characters made spaces, so every line and column stays where it was), and the text
is parsed again, until it parses; the checker then reports what lies outside the blanked
blocks. Whatever the blanked blocks may have declared is unknown, so a complaint about an
unknown name written in them, or about a missing declaration, is left out.
"""

from __future__ import annotations

import re

import attrs

from ruledsl.analysis.checked import CheckedGame
from ruledsl.analysis.checker import analyse
from ruledsl.lsp.index import NameIndex
from ruledsl.lsp.positions import Lines
from ruledsl.syntax.parser import check_size, parse_source
from ruledsl.text.errors import Diagnostic, ParseError, RuleDslError, sort_diagnostics
from ruledsl.text.source import Source

#: How many broken blocks are blanked out before giving up on the rest of the file.
_MAX_BLANKED = 20
#: A line that starts a top-level block: not indented, not blank, not a comment.
_TOP_LEVEL = re.compile(r"^[^\s#]", re.MULTILINE)
_QUOTED = re.compile(r"'([^']+)'")


class Document:
    """One version of a rule file's text, analysed: diagnostics, the checked game and its name index."""

    def __init__(self, path: str, text: str) -> None:
        self.text = text[1:] if text.startswith("\ufeff") else text  # the text analysed (without a BOM)
        self.source = Source(path, self.text)
        self.has_syntax_error = False
        self.checked: CheckedGame | None = None
        self.index: NameIndex | None = None
        self.blanked: list[tuple[int, int]] = []  # the offsets of the blocks set aside
        try:
            check_size(self.source)  # first: even the line table of 20 MB takes seconds
        except ParseError as exc:
            # Too large: nothing of it is analysed, nor answered about (an empty text to the features).
            self.source = Source(path, "")
            self.lines = Lines(self.source)
            self.has_syntax_error = True
            self.diagnostics: tuple[Diagnostic, ...] = tuple(_placed(d, self.source) for d in exc.diagnostics)
            return
        self.lines = Lines(self.source)
        self.diagnostics = self._analyse()

    def text_before(self, offset: int) -> str:
        """The text before ``offset`` with the broken blocks before the cursor's own set aside (for completion)."""
        text = self.source.text
        for start, end in self.blanked:
            if end <= offset:
                text = _blank(text, start, end)
        return text[:offset]

    def _analyse(self) -> tuple[Diagnostic, ...]:
        syntax: list[Diagnostic] = []
        text = self.source.text
        blanked = self.blanked
        while True:
            source = Source(self.source.path, text)
            try:
                file = parse_source(source)
                break
            except ParseError as exc:
                first = exc.diagnostics[0]
                syntax.append(_placed(first, self.source))
                self.has_syntax_error = True
                # An error about the whole file (too large) has no block to set aside.
                block = _block_at(text, first.span.start.offset) if first.span else None
                if block is None or len(blanked) >= _MAX_BLANKED:
                    return sort_diagnostics(syntax)
                blanked.append(block)
                text = _blank(text, *block)
        try:
            checked, found = analyse(file, source)
        except RuleDslError as exc:  # a check that fails as a whole (a file too large, say)
            return sort_diagnostics([*syntax, *(_placed(d, self.source) for d in exc.diagnostics)])
        # Spans of the blanked copy are spans of the document: blanking moves nothing.
        self.checked, self.index = checked, NameIndex(checked)
        kept = [_placed(d, self.source) for d in found if not _hidden_by(d, blanked, self.source.text)]
        return sort_diagnostics([*syntax, *kept])


def _placed(d: Diagnostic, source: Source) -> Diagnostic:
    """The diagnostic about the document's own text (not the blanked copy that was checked)."""
    return attrs.evolve(d, source=source)


def _block_at(text: str, offset: int) -> tuple[int, int] | None:
    """Return the offsets of the top-level block holding ``offset``: from its first line to the next block's."""
    starts = [m.start() for m in _TOP_LEVEL.finditer(text)]
    before = [s for s in starts if s <= offset]
    if not before:
        return None
    start = before[-1]
    after = [s for s in starts if s > offset]
    end = after[0] if after else len(text)
    if not text[start:end].strip():
        return None
    return start, end


def _blank(text: str, start: int, end: int) -> str:
    """The text with the characters from ``start`` to ``end`` made spaces, line ends kept."""
    return text[:start] + re.sub(r"[^\r\n]", " ", text[start:end]) + text[end:]


def _hidden_by(d: Diagnostic, blanked: list[tuple[int, int]], text: str) -> bool:
    """Whether a diagnostic of the blanked copy may be due to the blanking, or lies in a blanked block."""
    if not blanked:
        return False
    at = d.span.start.offset if d.span else 0
    if any(start <= at < end for start, end in blanked):
        return True
    if d.code == "E401":  # a declaration missing: it may be in a blanked block
        return True
    names = _QUOTED.findall(d.message)
    if d.code.startswith("E2") and names:
        return any(re.search(rf"(?<!\w){re.escape(names[0])}(?!\w)", text[s:e]) for s, e in blanked)
    return False
