"""Load the rule language's Lark parser, with its parse tables cached on disk, and name its keywords."""

from __future__ import annotations

import functools
import hashlib
import io
import os
import tempfile
from pathlib import Path
from typing import Any

import lark
from lark import Lark, Token
from lark.indenter import Indenter
from lark.parsers.lalr_analysis import Reduce, Shift

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
    loaded = _load_tables(cached) if cached is not None else None
    if loaded is not None:
        return loaded
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
_TABLE_OPTIONS = "lalr contextual indenter game_file,expr positions-without-layout placeholders v7 sealed"


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


def _private(st: os.stat_result) -> bool:
    """Whether a file (or directory) is the user's own and no one else may write it."""
    getuid = getattr(os, "getuid", None)  # none on Windows: no cache is trusted there
    return getuid is not None and st.st_uid == getuid() and st.st_mode & 0o022 == 0


def _seal(payload: bytes) -> bytes:
    """The cache file of ``payload``: its sha256 (hex) on the first line, then the payload."""
    return hashlib.sha256(payload).hexdigest().encode("ascii") + b"\n" + payload


def _load_tables(path: Path) -> Lark | None:
    """Return the parser whose tables are cached at ``path``, or None to build them anew.

    The tables are a pickle, and unpickling runs code: whoever could write the file could run
    code in every ruledsl process. So it is read only when it and its directory are the user's
    and no one else may write them (the real guard), and whole (its hash, against a file cut
    short or damaged); a stale or damaged cache is rebuilt.
    """
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    with os.fdopen(fd, "rb") as f:
        try:
            if not (_private(os.fstat(fd)) and _private(os.stat(path.parent))):
                return None
            digest, _, payload = f.read().partition(b"\n")
        except OSError:
            return None
    if _seal(payload) != digest + b"\n" + payload:
        return None
    try:
        return Lark.load(io.BytesIO(payload))
    except Exception:  # tables of another Lark, say: rebuilt
        return None


def _save_tables(parser: Lark, path: Path) -> None:
    # Building the LALR tables takes ~0.5 s; loading them takes ~30 ms. Write to a
    # private temporary file (0o600) and rename, so that concurrent runs never see half a
    # file; only into a directory that _load_tables would trust.
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        if not _private(os.stat(path.parent)):
            return
        buffer = io.BytesIO()
        parser.save(buffer)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".grammar-")
        with os.fdopen(fd, "wb") as f:
            f.write(_seal(buffer.getvalue()))
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


def _table() -> dict[Any, dict[str, tuple[Any, Any]]]:
    """The LALR parse table: for each parser state, what each terminal does there."""
    states: dict[Any, dict[str, tuple[Any, Any]]] = grammar().parser.parser.parser.parse_table.states
    return states


def _reduces_to_name(state: Any) -> bool:
    """Whether the word just read in ``state`` is an expression's name (``atom -> name``), and nothing else
    (a choice's ``NAME`` is a list of values, or a number of cards: the word after it tells)."""
    reduced = {(rule.origin.name, rule.alias) for action, rule in _table()[state].values() if action is Reduce}
    return reduced == {("atom", "name")}


def _starts_a_call(state: Any) -> bool:
    """Whether the word just read in ``state`` is a procedure's name, at the start of a statement."""
    return any(action is Reduce and rule.origin.name == "call_stmt" for action, rule in _table()[state].values())


@functools.cache
def name_keywords() -> frozenset[str]:
    """Return the keywords that are a name too where the keyword cannot be meant (``count + 1``)."""
    return frozenset(
        word
        for actions in _table().values()
        for terminal, (action, target) in actions.items()
        if action is Shift and terminal != "NAME" and _reduces_to_name(target)
        for word in [keyword_of(terminal)]
        if word is not None
    )


@functools.cache
def reserved_words() -> frozenset[str]:
    """Return the keywords that cannot name anything: where an expression reads a name, the
    parser would read the keyword (the contextual lexer reads a word as a keyword wherever the
    grammar may take that keyword), unless the grammar takes the word as a name there too."""
    # After a word that may be a name ('top'), a name may follow ('top n of'): not where one is read alone.
    after_name_word = {
        target
        for actions in _table().values()
        for terminal, (action, target) in actions.items()
        if action is Shift and terminal != "NAME" and _reduces_to_name(target)
    }
    words: set[str] = set()
    for state, actions in _table().items():
        shift = actions.get("NAME")
        if shift is not None and shift[0] is Shift and _reduces_to_name(shift[1]) and state not in after_name_word:
            # The keywords read there (a keyword only looked at, to end what was read before,
            # is left out: after 'top', read as a name, a word may end it or begin 'top N of').
            words.update(w for t, (a, _) in actions.items() if a is Shift for w in [keyword_of(t)] if w is not None)
    return frozenset(words - name_keywords())


@functools.cache
def statement_keywords() -> frozenset[str]:
    """Return the keywords that cannot name a procedure: read as the keyword where a line may
    call one (the statements', and those of what may follow a line: 'deck', 'pass', 'strength'...)."""
    words: set[str] = set()
    for actions in _table().values():
        step = actions.get("NAME")
        # A name read as a call's name, or after a finished line (a reduction, where a block may end too).
        if step is not None and (_starts_a_call(step[1]) if step[0] is Shift else "_DEDENT" in actions):
            words.update(w for t in actions for w in [keyword_of(t)] if w is not None)
    # A deck's line may begin with a number of copies, where a name keyword is a name.
    return frozenset(words - name_keywords())


def keyword_as_name(word: str, what: str | None = None) -> tuple[str, str]:
    """The message and hint of E106 for a keyword given as a name (of ``what``, if only that kind may not take it)."""
    if what is None:
        return (
            f"'{word}' is a keyword of the language and cannot be used as a name",
            f"choose another name, such as '{word}_'",
        )
    return (
        f"'{word}' is a keyword of the language and cannot name {what}",
        f"choose another name, such as '{word}_cards'",
    )


#: The rules whose name no expression reads (a phase's, a window's, an action's: read after
#: 'go to', 'open', or by nobody), so that any word may name them.
_NAMES_NO_EXPRESSION_READS = frozenset(
    {"action_decl", "phase_decl", "together_decl", "auction_decl", "window_decl", "go_to_stmt", "open_stmt"}
)


@functools.cache
def name_declarations() -> frozenset[tuple[tuple[str, ...], str | None, bool]]:
    """Return the forms that declare (or name) a name after keywords: the keywords before it,
    the keyword after it if one follows, and whether the form opens a line (a declaration, a
    statement: 'var x', 'for each x', 'to x'; else a part of an expression: 'count x in')."""
    forms = set()
    for rule in grammar().rules:
        words: list[str] = []
        for symbol in rule.expansion:
            word = keyword_of(symbol.name)
            if word is None:
                break
            words.append(word)
        rest = rule.expansion[len(words) :]
        if words and rest and rest[0].name == "NAME" and rule.origin.name not in _NAMES_NO_EXPRESSION_READS:
            after = keyword_of(rest[1].name) if len(rest) > 1 else None
            opens_a_line = rule.origin.name.endswith(("_decl", "_stmt", "_handler"))
            forms.add((tuple(words), after, opens_a_line))
    return frozenset(forms)
