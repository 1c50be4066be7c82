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

from ruledsl.format.highlight import NAME, OPERATORS, PUNCTUATION, constants, plain_keywords


def _word(lexer: RegexLexer, match: re.Match[str]) -> Iterator[tuple[int, object, str]]:
    """Colour a name: a keyword, a constant ('yes', 'no', 'none') or a plain name."""
    word = match.group()
    if word in constants():
        yield match.start(), Keyword.Constant, word
    elif word in plain_keywords():
        yield match.start(), Keyword, word
    else:
        yield match.start(), Name, word


_OPERATOR = "|".join(re.escape(op) for op in OPERATORS)


class RuleDslLexer(RegexLexer):
    """Lex a ruledsl rule file: keywords, names, numbers, text with its {expressions}, comments."""

    name = "ruledsl"
    aliases = ["game", "ruledsl"]
    filenames = ["*.game"]
    mimetypes = ["text/x-ruledsl"]
    url = "https://github.com/ruledsl/ruledsl"
    flags = re.UNICODE

    tokens = {
        "root": [
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
