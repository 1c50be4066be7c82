"""Parse rule-file text into nodes: the front door of the syntax stage; every Lark error becomes a ParseError."""

from __future__ import annotations

import contextlib
import functools
import gc
import re
from collections.abc import Iterator

from lark import Tree, UnexpectedInput
from lark.indenter import DedentError

from ruledsl.syntax import nodes as n
from ruledsl.syntax.diagnosis import dedent_diagnostic, syntax_diagnostic
from ruledsl.syntax.grammar import (
    grammar,
    keyword_as_name,
    keywords,
    name_declarations,
    reserved_words,
    statement_keywords,
)
from ruledsl.syntax.limits import MAX_DEPTH, MAX_NUMBER, MAX_SOURCE_BYTES, check_depth
from ruledsl.syntax.transform import to_nodes
from ruledsl.text.errors import Diagnostic, ParseError
from ruledsl.text.source import UNSHOWABLE, Pos, Source, Span

# The limits (limits.py) and the grammar's keywords (grammar.py) are asked of the parser: they are named here too.
__all__ = [
    "MAX_DEPTH",
    "MAX_NUMBER",
    "MAX_SOURCE_BYTES",
    "gc_paused",
    "keywords",
    "parse",
    "parse_expr",
    "parse_source",
]


def parse(text: str, path: str = "<input>") -> n.GameFile:
    """Parse the text of a rule file into a GameFile node, or raise ParseError."""
    if text.startswith("\ufeff"):
        text = text[1:]  # an editor's byte-order mark is not part of the rules
    return parse_source(Source(path, text))


def check_size(source: Source) -> None:
    """Raise ParseError (E002) for a text of more than MAX_SOURCE_BYTES bytes: it is refused, not parsed."""
    size = len(source.text.encode("utf-8", "surrogatepass"))
    if size > MAX_SOURCE_BYTES:
        raise ParseError(
            [
                Diagnostic(
                    "E002",
                    f"file too large ({size:,} bytes; a rule file may have at most {MAX_SOURCE_BYTES:,})",
                    source=source,
                    hint="a rule file describes one game; split generated data out of it",
                )
            ]
        )


def parse_source(source: Source) -> n.GameFile:
    """Parse a Source into a GameFile node, or raise ParseError."""
    check_size(source)
    unshowable = UNSHOWABLE.search(source.text)
    if unshowable:
        raise ParseError(
            [
                Diagnostic(
                    "E102",
                    f"unexpected character 'U+{ord(unshowable[0]):04X}'",
                    source.span_at(unshowable.start(), unshowable.end()),
                    "a rule file holds no control characters, even in text or a comment "
                    "(they would reach the players' terminals): remove it",
                    source=source,
                )
            ]
        )
    with gc_paused():
        tree = _parse_tree(source, source.text, "game_file")
        check_depth(source, tree)
        return to_nodes(source, tree)


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """Pause Python's cycle collector while a file is parsed and checked.

    Parsing allocates hundreds of thousands of trees and tokens, few of them in cycles;
    the collector runs again and again over them, and took half the time of parsing a
    large rule file. The cycles left are collected once it is enabled again.
    """
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def parse_expr(text: str, path: str = "<input>") -> n.Expr:
    """Parse one expression (used by tests and the formatter)."""
    source = Source(path, text)
    tree = _parse_tree(source, text, "expr")
    check_depth(source, tree)
    result = to_nodes(source, tree)
    assert isinstance(result, n.Expr)
    return result


def _parse_tree(source: Source, text: str, start: str) -> Tree:
    # The indenter needs a final newline to close the last block.
    body = text.replace("\r\n", "\n").replace("\r", "\n")
    if start == "game_file" and not body.endswith("\n"):
        body += "\n"
    try:
        return grammar().parse(body, start=start)
    except UnexpectedInput as exc:
        named = _keywords_named(source, body, start, getattr(exc, "line", 0))
        raise ParseError(named or [syntax_diagnostic(source, body, exc, start)]) from None
    except DedentError:
        raise ParseError([dedent_diagnostic(source, body)]) from None


def _keywords_named(source: Source, body: str, start: str, failed_at: int) -> list[Diagnostic]:
    """E106 at each keyword declared as a name that the line where the parser failed holds: it
    read the word as a name where it is declared (``var size = 0``), then as the keyword where
    it is used, and failed there (before or after the declaration)."""
    lines = [_STRING_OR_COMMENT.sub(lambda m: " " * len(m[0]), line) for line in body.split("\n")]
    if start != "game_file" or not 0 < failed_at <= len(lines):
        return []
    on_failing_line = set(re.findall(_NAME, lines[failed_at - 1]))
    found = []
    for line_no, code in enumerate(lines, 1):
        at = {m.start("name"): m for pattern in _declarations() for m in pattern.finditer(code)}
        for declared in (at[col] for col in sorted(at)):
            word = declared["name"]
            procedure = declared.groupdict().get("procedure") is not None
            refused = word in reserved_words() or (procedure and word in statement_keywords())
            if refused and word in on_failing_line:
                message, hint = keyword_as_name(word, "a procedure" if procedure else None)
                col = declared.start("name") + 1
                span = Span(Pos(line_no, col, 0), Pos(line_no, col + len(word), 0))
                found.append(Diagnostic("E106", message, span, hint, source=source))
    return found


_STRING_OR_COMMENT = re.compile(r'"(?:\\.|[^"\\])*"?|#.*')


@functools.cache
def _declarations() -> list[re.Pattern[str]]:
    """Where a line declares a name, as the grammar does: 'var x' opening a line (after 'player'
    or 'card'), 'count x in' anywhere, with the keyword that follows the name if one does; a
    procedure's name ('to x' at the top level) is 'procedure'."""
    forms = []
    for words, after, opens_a_line in sorted(name_declarations(), key=str):
        keywords_before = r"\s+".join(words)
        if words == ("to",) and opens_a_line:
            forms.append(rf"^(?P<procedure>to)\s+(?P<name>{_NAME})\b")
        else:
            opening = rf"^\s*(?:{_NAME}\s+)?" if opens_a_line else r"(?<![\w.])"
            following = rf"\s+{after}\b" if after is not None else r"\b"
            forms.append(rf"{opening}{keywords_before}\s+(?P<name>{_NAME}){following}")
    return [re.compile(f) for f in forms]  # each by itself: the forms name the same groups


_NAME = r"[^\W\d]\w*"
