"""Source text and positions: where in a rule file something is."""

from __future__ import annotations

import bisect
import re

from attrs import field, frozen

#: Characters a rule file may not hold, even in text or a comment: control characters
#: (but tab and line ends), which a terminal may obey (clear the screen, rename the
#: window), and the marks that reverse the direction of text, which make a line read
#: otherwise than it is.
UNSHOWABLE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")

_LINE_END = re.compile("\r\n?|\n")


def _line_breaks(text: str) -> tuple[list[int], list[int]]:
    """The offset after each \\r or \\n of ``text`` and the line (from 1) that goes on there."""
    breaks: list[int] = []
    lines: list[int] = []
    line = 1
    for m in _LINE_END.finditer(text):
        line += 1
        breaks.append(m.start() + 1)  # after the \r of a \r\n the next line has begun (column 1) ...
        lines.append(line)
        if m.end() - m.start() == 2:  # ... and after its \n it is the same line, at column 1 again
            breaks.append(m.end())
            lines.append(line)
    return breaks, lines


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
    #: The offset after each \r or \n, and the line (from 1) that goes on there: pos_at bisects
    #: them. Made on the first pos_at (most sources are never asked for one).
    _breaks: tuple[list[int], list[int]] | None = field(init=False, default=None, eq=False, repr=False)

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
        # By bisection over the line ends, not by counting them: a file with many diagnostics
        # (or an editor asking at every keystroke) costs a logarithm each, not the whole text.
        if self._breaks is None:
            object.__setattr__(self, "_breaks", _line_breaks(self.text))
        assert self._breaks is not None
        breaks, lines = self._breaks
        k = bisect.bisect_right(breaks, offset) - 1
        if k < 0:
            return Pos(1, offset + 1, offset)
        return Pos(lines[k], offset - breaks[k] + 1, offset)

    def span_at(self, start: int, end: int) -> Span:
        """Return the span of the character offsets ``start`` to ``end``."""
        return Span(self.pos_at(start), self.pos_at(max(start, end)))
