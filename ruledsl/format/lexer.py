"""Highlight rule files with Pygments: the lexer behind ```game blocks in the docs and `pygmentize -l game`.

Registered as a Pygments plugin (``[project.entry-points."pygments.lexers"]`` in pyproject.toml),
so that Pygments finds it by its aliases (``game``, ``ruledsl``) and by ``*.game``. Pygments
loads every plugin lexer whenever it looks one up by name: this module therefore reads the
grammar only when a text is highlighted (the keyword set is looked up lazily), not on import.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from pygments.lexer import RegexLexer, bygroups, include
from pygments.token import (
    Comment,
    Error,
    Keyword,
    Name,
    Number,
    Operator,
    Punctuation,
    String,
    Text,
    Whitespace,
)

from ruledsl.format.highlight import NAME, OPERATORS, PUNCTUATION, constants, declaring_keywords, plain_keywords


def _kind(word: str) -> object:
    """Return the token of a word: a keyword, a constant ('yes', 'no', 'none') or a plain name."""
    if word in constants():
        return Keyword.Constant
    return Keyword if word in plain_keywords() else Name


def _word(lexer: RegexLexer, match: re.Match[str]) -> Iterator[tuple[int, object, str]]:
    yield match.start(), _kind(match.group()), match.group()


def _line_start(lexer: RegexLexer, match: re.Match[str]) -> Iterator[tuple[int, object, str]]:
    """Colour the first two words of a line; the second is a declared name after 'phase', 'define'..."""
    indent, first, space, second = match.groups()
    if indent:
        yield match.start(1), Whitespace, indent
    yield match.start(2), _kind(first), first
    yield match.start(3), Whitespace, space
    declares = first in declaring_keywords() and _kind(second) is Name
    yield match.start(4), Name.Function if declares else _kind(second), second


_OPERATOR = "|".join(re.escape(op) for op in OPERATORS)


class RuleDslLexer(RegexLexer):
    """Lex a ruledsl rule file: keywords, names, numbers, text with its {expressions}, comments."""

    name = "ruledsl"
    aliases = ["game", "ruledsl"]
    filenames = ["*.game"]
    mimetypes = ["text/x-ruledsl"]
    url = "https://github.com/ruledsl/ruledsl"
    flags = re.UNICODE | re.MULTILINE

    tokens = {
        "root": [
            (rf"^([\t ]*)({NAME})([\t ]+)({NAME})", _line_start),
            (r"\n", Whitespace),
            (r"[\t \f]+", Whitespace),
            (r"\\[\t \f]*\r?\n", Text),  # a line continued on the next
            (r"#[^\n]*", Comment.Single),
            # An elision in the docs' fragments ("on enter: …"): never valid in a rule file.
            (r"…", Comment.Special),
            include("expression"),
        ],
        "expression": [
            (r'"', String.Double, "text"),
            (r"\d+", Number.Integer),
            (NAME, _word),
            (_OPERATOR, Operator),
            (f"[{re.escape(PUNCTUATION)}]", Punctuation),
        ],
        # Text: "{expr}" is an expression, "{{" and "}}" are braces, a backslash escapes one character.
        "text": [
            (r'"', String.Double, "#pop"),
            (r"\{\{|\}\}|\\.", String.Escape),
            (r"\{", String.Interpol, "interpolation"),
            (r'[^"\\{}\n]+|\}', String.Double),
            (r"\n", Error),  # text ends on its line
        ],
        "interpolation": [
            (r"\}", String.Interpol, "#pop"),
            (r"\{", Punctuation, "braces"),
            (r"[\t \f]+", Whitespace),
            (r"(\\)(\")", bygroups(String.Escape, String.Escape)),
            include("expression"),
        ],
        "braces": [
            (r"\}", Punctuation, "#pop"),
            (r"\{", Punctuation, "#push"),
            (r"\s+", Whitespace),
            include("expression"),
        ],
    }
