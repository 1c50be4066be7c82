"""Turn Lark's positions (of a token, a subtree or a whole line) into Spans of the source."""

from __future__ import annotations

from typing import Any

from lark import Token

from ruledsl.text.source import Pos, Source, Span


def meta_span(source: Source, meta: Any, base: Pos | None = None) -> Span:
    """Return the span of a subtree from its Lark meta; ``base`` is where an expression inside a string starts."""
    if getattr(meta, "empty", True):
        return Span(base or Pos(1, 1, 0), base or Pos(1, 1, 0))
    if base is None:
        return Span(Pos(meta.line, meta.column, meta.start_pos), Pos(meta.end_line, meta.end_column, meta.end_pos))
    # An expression inside a string: Lark counted from the start of that fragment.
    return Span(
        Pos(base.line, base.col + meta.column - 1, base.offset + meta.start_pos),
        Pos(base.line, base.col + meta.end_column - 1, base.offset + meta.end_pos),
    )


def token_span(source: Source, token: Token) -> Span:
    """Return the span of a token."""
    return Span(
        Pos(token.line or 1, token.column or 1, token.start_pos or 0),
        Pos(token.end_line or token.line or 1, token.end_column or token.column or 1, token.end_pos or 0),
    )


def line_span(source: Source, line: int) -> Span:
    """Return the span of a line's text, after its indentation (at least one column)."""
    text = source.line_text(line)
    indent = len(text) - len(text.lstrip())
    return Span(Pos(line, indent + 1, 0), Pos(line, max(indent + 2, len(text) + 1), 0))
