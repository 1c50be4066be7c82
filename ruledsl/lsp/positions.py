"""Positions between ruledsl (lines and columns from 1, in characters) and LSP (from 0, in UTF-16 units)."""

from __future__ import annotations

from attrs import frozen

from ruledsl.text.source import Pos, Source, Span


@frozen
class Place:
    """An LSP position: ``line`` from 0, ``character`` in UTF-16 code units from 0."""

    line: int
    character: int


def _utf16(text: str) -> int:
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


class Lines:
    """A document's lines, to turn character columns into UTF-16 ones and back."""

    def __init__(self, source: Source) -> None:
        self.source = source
        starts = [0]
        text = source.text
        i = 0
        while i < len(text):
            ch = text[i]
            if ch == "\r" and i + 1 < len(text) and text[i + 1] == "\n":
                i += 1
            if ch in "\r\n":
                starts.append(i + 1)
            i += 1
        self._starts = starts

    def place(self, pos: Pos) -> Place:
        """Return the LSP position of a ruledsl position (one without a line is the file's start)."""
        if not pos.line:
            return Place(0, 0)
        line = self.source.line_text(pos.line)
        return Place(pos.line - 1, _utf16(line[: max(pos.col - 1, 0)]))

    def range(self, span: Span | None) -> tuple[Place, Place]:
        """Return the LSP range of a span; a span of nothing still covers one character (so it shows)."""
        if span is None or not span.start.line:
            return Place(0, 0), Place(0, 1)
        start, end = self.place(span.start), self.place(span.end)
        if end == start:
            end = Place(start.line, start.character + 1)
        return start, end

    def offset(self, place: Place) -> int:
        """Return the character offset of an LSP position (clamped to the text)."""
        if place.line >= len(self._starts):
            return len(self.source.text)
        start = self._starts[max(place.line, 0)]
        line = self.source.line_text(place.line + 1)
        units = 0
        for k, ch in enumerate(line):
            if units >= place.character:
                return start + k
            units += 2 if ord(ch) > 0xFFFF else 1
        return start + len(line)
