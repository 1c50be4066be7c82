"""Diagnostics to text: the header line, the source line, carets and the hint."""

from __future__ import annotations

import difflib
import re
import unicodedata
from collections.abc import Iterable

from ruledsl.text.errors import Diagnostic, Severity
from ruledsl.text.source import showable

_COLOURS = {Severity.ERROR: "\x1b[1;31m", Severity.WARNING: "\x1b[1;33m"}
_BOLD = "\x1b[1m"
_BLUE = "\x1b[1;34m"
_RESET = "\x1b[0m"


#: What a text from a rule file, a record or the command line may not print as it is: any character
#: a terminal obeys or that breaks the line (control characters, tabs and line ends included), and
#: the marks that reverse the direction of text.
_NOT_ONE_LINE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
_ESCAPES = {"\n": "\\n", "\t": "\\t", "\r": "\\r"}


def one_line(text: str) -> str:
    """``text`` as it may be printed on a line of its own: each character of _NOT_ONE_LINE escaped as in
    Python (``\\n``, ``\\x1b``, ``\\u202e``), so that no card name or label can forge a line of output."""
    return _NOT_ONE_LINE.sub(lambda m: _ESCAPES.get(m[0]) or repr(m[0])[1:-1], text)


def or_list(items: Iterable[object]) -> str:
    """Items for a message: "3", "3 or 4", "2, 3 or 4"."""
    words = [str(i) for i in items]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def counted(n: object, noun: str, high: object = None) -> str:
    """A count and its noun, plural unless it is one: "1 player", "2 players", "3 or 4 players";
    with ``high`` a range, "2 to 4 players" (or "1 player" when it is ``n`` again)."""
    if high is not None:
        n = from_to(n, high)
    return f"{n} {noun}" if str(n) == "1" else f"{n} {noun}s"


def from_to(low: object, high: object) -> str:
    """A range of counts in words: "2 to 4", or "4" alone when it goes from 4 to 4."""
    return str(low) if low == high else f"{low} to {high}"


def clipped(items: Iterable[str], limit: int) -> list[str]:
    """The first ``limit`` items, then "…" if there were more: a list in a message never ends silently."""
    words = list(items)
    return words[:limit] + (["…"] if len(words) > limit else [])


def clip(text: str, limit: int) -> str:
    """The first ``limit`` characters of ``text``, then "…" if there were more: a text a user typed,
    quoted in a message, is never longer than the message."""
    return text if len(text) <= limit else text[:limit] + "…"


def show_value(v: object) -> str:
    """Render a variable's value for people: yes/no, lists joined, none."""
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, list):
        return ", ".join(str(x) for x in v) or "none"
    return "none" if v is None else str(v)


def did_you_mean(name: str, candidates: Iterable[str], kind: str = "names") -> str | None:
    """Return a hint naming the closest candidates to a misspelt name, or None."""
    known = sorted(set(candidates))
    # Above difflib's 0.6: 'total' is 60% like 'tally', and 'hand_sise' 62% like 'hand', unrelated.
    close = difflib.get_close_matches(name, known, n=3, cutoff=0.65)
    if not close:
        lowered = {k.lower(): k for k in known}
        if name.lower() in lowered:
            close = [lowered[name.lower()]]
    listing = ""
    if 0 < len(known) <= 12:
        listing = f"known {kind}: " + ", ".join(known)
    if close:
        guess = " or ".join(f"'{c}'" for c in close)
        return f"did you mean {guess}?" + (f" {listing}" if listing else "")
    return listing or None


def render(diagnostic: Diagnostic, colour: bool = False) -> str:
    """Return a diagnostic as the lines a person reads: header, excerpt, caret, hint."""
    sev = diagnostic.severity
    if colour:
        where = f"{diagnostic.path}:{diagnostic.line}:{diagnostic.column}:"
        head = (
            f"{_BOLD}{where}{_RESET} {_COLOURS[sev]}{sev.value}[{diagnostic.code}]{_RESET}"
            f"{_BOLD}: {one_line(diagnostic.message)}{_RESET}"
        )
    else:
        head = one_line(diagnostic.header())  # a message may quote a rule's text, line breaks and all
    lines = [head]
    source = diagnostic.source
    if source is not None and diagnostic.span is not None and diagnostic.span.start.line >= 1:
        line_no = diagnostic.span.start.line
        text = showable(source.line_text(line_no))  # the line of a hostile file must not drive the terminal
        gutter = " " * len(str(line_no))
        first = max(0, diagnostic.span.start.col - 1)
        # A span over several lines marks only its first line.
        last = diagnostic.span.end.col - 1 if diagnostic.span.end.line == line_no else max(first, len(text))
        shown, at, width = excerpt(text, first, last)
        caret = " " * at + "^" * width
        bar = f"{_BLUE}|{_RESET}" if colour else "|"
        lines.append(f"{gutter} {bar}")
        lines.append(f"{line_no} {bar} {shown}")
        lines.append(f"{gutter} {bar} {(_COLOURS[sev] + caret + _RESET) if colour else caret}")
        if diagnostic.hint:
            lines.append(f"{gutter} = hint: {one_line(diagnostic.hint)}")
    elif diagnostic.hint:
        lines.append(f"  = hint: {one_line(diagnostic.hint)}")
    return "\n".join(lines)


#: The most terminal columns of a source line a diagnostic shows: a longer line is cut around the caret.
SHOWN_WIDTH = 120

_ZERO_WIDTH = frozenset("\u200b\u200c\u200d\u2060\ufeff")


def _cells(ch: str, column: int) -> int:
    """The terminal columns a character takes at ``column`` (0-based): a tab up to the next stop of 8,
    two for an East Asian wide character, none for a combining mark. (The core depends on Lark and
    attrs only; this is the part of ``wcwidth`` a caret needs.)"""
    if ch == "\t":
        return 8 - column % 8
    if ch in _ZERO_WIDTH or unicodedata.category(ch) in ("Mn", "Me"):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def excerpt(text: str, first: int, last: int) -> tuple[str, int, int]:
    """Return the part of a source line to show, the column its caret starts at and the caret's width.

    ``first`` and ``last`` are the 0-based character offsets of the span on the line (``last``
    excluded; either may lie past its end). Tabs are expanded and wide characters count two
    columns. A line wider than SHOWN_WIDTH is cut around the caret, with "…" on each side cut,
    so a diagnostic on a line of 5,000 characters prints a line of 120: only the characters
    near the caret are measured.
    """
    first = min(first, len(text))
    lo, hi = max(0, first - SHOWN_WIDTH), min(len(text), first + 2 * SHOWN_WIDTH)
    starts: list[int] = []  # the column each character of text[lo:hi] starts at (tab stops counted from lo)
    pieces: list[str] = []
    column = 0
    for ch in text[lo:hi]:
        starts.append(column)
        n = _cells(ch, column)
        pieces.append(" " * n if ch == "\t" else ch)
        column += n
    starts.append(column)
    at = starts[first - lo]
    width = max(1, starts[min(max(last, first), hi) - lo] - at + max(0, last - max(hi, first)))
    if lo == 0 and hi == len(text) and column <= SHOWN_WIDTH:
        return "".join(pieces), at, width
    left = 0 if lo == 0 and at + width < SHOWN_WIDTH else max(0, at - SHOWN_WIDTH // 3)
    right = left + SHOWN_WIDTH - (1 if left or lo else 0) - 1
    if right >= column and hi == len(text):  # the line's end fits: show it, and more before the caret
        right = column
        left = max(0, min(left, column - (SHOWN_WIDTH - 1)))
    keep = [i for i in range(len(pieces)) if starts[i] >= left and starts[i + 1] <= right]
    i, j = (keep[0], keep[-1] + 1) if keep else (first - lo, first - lo)
    cut_left = i > 0 or lo > 0
    cut_right = j < len(pieces) or hi < len(text)
    shown = ("…" if cut_left else "") + "".join(pieces[i:j]) + ("…" if cut_right else "")
    at_shown = at - starts[i] + cut_left
    if cut_right:
        width = max(1, min(width, starts[j] - at))
    return shown, at_shown, width


def render_all(diagnostics: Iterable[Diagnostic], colour: bool = False) -> str:
    """Return several diagnostics separated by blank lines."""
    return "\n\n".join(render(d, colour) for d in diagnostics)


def summary(diagnostics: Iterable[Diagnostic]) -> str:
    """Return '2 errors, 1 warning' style counts."""
    diagnostics = list(diagnostics)
    errors = sum(d.is_error for d in diagnostics)
    warnings = len(diagnostics) - errors
    parts = []
    if errors:
        parts.append(f"{errors} error{'s' if errors != 1 else ''}")
    if warnings:
        parts.append(f"{warnings} warning{'s' if warnings != 1 else ''}")
    return ", ".join(parts) or "no problems"
