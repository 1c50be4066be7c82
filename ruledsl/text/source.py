"""Source text and positions: where in a rule file something is."""

from __future__ import annotations

import re

from attrs import field, frozen

#: Characters a rule file may not hold, even in text or a comment: control characters
#: (but tab and line ends), which a terminal may obey (clear the screen, rename the
#: window), and the marks that reverse the direction of text, which make a line read
#: otherwise than it is.
UNSHOWABLE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def showable(text: str) -> str:
    """``text`` with each character of UNSHOWABLE drawn as one harmless sign (a C0 control
    as its Unicode picture, ␛ for ESC; any other as �), so that columns still line up."""
    return UNSHOWABLE.sub(lambda m: chr(0x2400 + ord(m[0])) if m[0] < " " else "\N{REPLACEMENT CHARACTER}", text)


@frozen
class Pos:
    """A position in a source text; ``line`` and ``col`` count from 1, ``offset`` from 0."""

    line: int
    col: int
    offset: int


@frozen
class Span:
    """The half-open range of source text a node or diagnostic covers."""

    start: Pos
    end: Pos

    @property
    def line(self) -> int:
        return self.start.line

    @property
    def col(self) -> int:
        return self.start.col


#: The span of nodes built by hand (tests, the formatter); it compares equal to nothing useful.
NO_SPAN = Span(Pos(0, 0, 0), Pos(0, 0, 0))


@frozen
class Source:
    """A rule file's path (as the user named it) and its text."""

    path: str
    text: str
    _lines: tuple[str, ...] = field(init=False, eq=False, repr=False)

    def __attrs_post_init__(self) -> None:
        # Line ends as the parser counts them: \r\n, \r or \n. (splitlines() would also
        # split on \x0c, \x1c and friends, which the lexer does not take as line ends.)
        object.__setattr__(self, "_lines", tuple(self.text.replace("\r\n", "\n").replace("\r", "\n").split("\n")))

    def line_text(self, line: int) -> str:
        """Return the text of a 1-based line without its line ending ('' past the end)."""
        if 1 <= line <= len(self._lines):
            return self._lines[line - 1].rstrip("\r")
        return ""

    @property
    def line_count(self) -> int:
        return len(self._lines)

    def pos_at(self, offset: int) -> Pos:
        """Return the position of a 0-based character offset (clamped to the text).

        Lines end as the parser counts them (\\r\\n, \\r or \\n); columns count characters.
        """
        offset = max(0, min(offset, len(self.text)))
        text = self.text
        line = text.count("\n", 0, offset) + text.count("\r", 0, offset) - text.count("\r\n", 0, offset) + 1
        line_start = max(text.rfind("\n", 0, offset), text.rfind("\r", 0, offset)) + 1
        return Pos(line, offset - line_start + 1, offset)

    def span_at(self, start: int, end: int) -> Span:
        """Return the span of the character offsets ``start`` to ``end``."""
        return Span(self.pos_at(start), self.pos_at(max(start, end)))
