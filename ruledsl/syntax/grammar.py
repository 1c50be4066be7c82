"""Load the rule language's Lark parser, with its parse tables cached on disk, and name its keywords."""

from __future__ import annotations

import functools
import hashlib
import os
import tempfile
from pathlib import Path

import lark
from lark import Lark, Token
from lark.indenter import Indenter

from ruledsl.resources import grammar_path


class BlockIndenter(Indenter):
    """Turn a line's indentation into the _INDENT and _DEDENT tokens that open and close blocks."""

    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR", "LBRACE"]
    CLOSE_PAREN_types = ["RPAR", "RBRACE"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 8


@functools.cache
def grammar() -> Lark:
    """Return the (cached) Lark parser of the rule language."""
    text = grammar_path().read_text(encoding="utf-8")
    cached = _table_cache_path(text)
    if cached is not None and cached.exists():
        try:
            with cached.open("rb") as f:
                return Lark.load(f)
        except Exception:  # a stale or damaged cache is rebuilt below
            pass
    # strict=True (shift/reduce conflicts are errors) is checked by a test; it costs
    # half a second of grammar analysis that a user should not pay at every start.
    parser = Lark(
        text,
        parser="lalr",
        lexer="contextual",
        postlex=BlockIndenter(),
        start=["game_file", "expr"],
        propagate_positions=_counts_for_position,
        maybe_placeholders=True,
    )
    if cached is not None:
        _save_tables(parser, cached)
    return parser


#: Bump when the Lark(...) options in grammar() change, so that cached tables are rebuilt.
#: The saved tables name the indenter and _counts_for_position by module: moving them is a change.
_TABLE_OPTIONS = "lalr contextual indenter game_file,expr positions-without-layout placeholders v6"


def _counts_for_position(node: object) -> bool:
    """Spans end at the last real token: never at a newline, a comment or indentation."""
    return not (isinstance(node, Token) and node.type in ("_NL", "_INDENT", "_DEDENT"))


def _table_cache_path(grammar_text: str) -> Path | None:
    """Return where this grammar's parse tables are cached (like __pycache__), or None."""
    if os.environ.get("RULEDSL_NO_CACHE"):
        return None
    root = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    # The key covers everything the tables are built from: the grammar, Lark, and the options above.
    key = grammar_text + lark.__version__ + _TABLE_OPTIONS
    digest = hashlib.sha256(key.encode("utf-8")).hexdigest()[:20]
    return Path(root) / "ruledsl" / f"grammar-{digest}.lark-tables"


def _save_tables(parser: Lark, path: Path) -> None:
    # Building the LALR tables takes ~0.5 s; loading them takes ~30 ms. Write to a
    # private temporary file and rename, so that concurrent runs never see half a file.
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".grammar-")
        with os.fdopen(fd, "wb") as f:
            parser.save(f)
        os.replace(tmp, path)
    except OSError:
        pass  # an unwritable cache only costs time


@functools.cache
def keywords() -> frozenset[str]:
    """Return the words the grammar uses as keywords."""
    return frozenset(
        t.pattern.value for t in grammar().terminals if t.pattern.type == "str" and t.pattern.value.isidentifier()
    )


@functools.cache
def keyword_of(terminal: str) -> str | None:
    """Return the word a keyword terminal stands for ('MOVE' -> 'move'), or None."""
    for t in grammar().terminals:
        if t.name == terminal and t.pattern.type == "str" and t.pattern.value.isidentifier():
            return str(t.pattern.value)
    return None
