"""Parse rule-file text into nodes; every Lark error becomes a ParseError."""

from __future__ import annotations

import contextlib
import difflib
import functools
import gc
import hashlib
import os
import re
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import lark
from lark import (
    Lark,
    Token,
    Transformer,
    Tree,
    UnexpectedCharacters,
    UnexpectedEOF,
    UnexpectedInput,
    UnexpectedToken,
    v_args,
)
from lark.exceptions import VisitError
from lark.indenter import DedentError, Indenter

from ruledsl.resources import grammar_path
from ruledsl.syntax import nodes as n
from ruledsl.text.errors import Diagnostic, ParseError
from ruledsl.text.source import UNSHOWABLE, Pos, Source, Span

#: A rule file is a page or two of text; anything this large is refused, not parsed.
MAX_SOURCE_BYTES = 1_000_000
#: Deeper nesting than this is refused, so that no later stage can overflow Python's stack.
MAX_DEPTH = 60
#: Numbers in a rule file are counts and scores; larger ones are refused.
MAX_NUMBER = 10**9


class _Indenter(Indenter):
    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR", "LBRACE"]
    CLOSE_PAREN_types = ["RPAR", "RBRACE"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 8


@functools.cache
def _lark() -> Lark:
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
        postlex=_Indenter(),
        start=["game_file", "expr"],
        propagate_positions=_counts_for_position,
        maybe_placeholders=True,
    )
    if cached is not None:
        _save_tables(parser, cached)
    return parser


#: Bump when the Lark(...) options in _lark change, so that cached tables are rebuilt.
_TABLE_OPTIONS = "lalr contextual indenter game_file,expr positions-without-layout placeholders v5"


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


def grammar() -> Lark:
    """Return the (cached) Lark parser of the rule language."""
    return _lark()


# ============================================================================ entry points


def parse(text: str, path: str = "<input>") -> n.GameFile:
    """Parse the text of a rule file into a GameFile node, or raise ParseError."""
    if text.startswith("\ufeff"):
        text = text[1:]  # an editor's byte-order mark is not part of the rules
    return parse_source(Source(path, text))


def parse_source(source: Source) -> n.GameFile:
    """Parse a Source into a GameFile node, or raise ParseError."""
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
        _check_depth(source, tree)
        return _transform(source, tree)


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
    _check_depth(source, tree)
    result = _transform(source, tree)
    assert isinstance(result, n.Expr)
    return result


def _parse_tree(source: Source, text: str, start: str) -> Tree:
    # The indenter needs a final newline to close the last block.
    body = text.replace("\r\n", "\n").replace("\r", "\n")
    if start == "game_file" and not body.endswith("\n"):
        body += "\n"
    try:
        return _lark().parse(body, start=start)
    except UnexpectedInput as exc:
        raise ParseError([_syntax_diagnostic(source, body, exc, start)]) from None
    except DedentError as exc:
        line = _dedent_line(body, exc)
        raise ParseError(
            [
                Diagnostic(
                    "E104",
                    "this line's indentation matches no enclosing block",
                    _line_span(source, line),
                    "indent a block's lines alike, with spaces (a tab counts as 8 columns)",
                    source=source,
                )
            ]
        ) from None


def _transform(source: Source, tree: Tree) -> Any:
    try:
        return _ToNodes(source).transform(tree)
    except VisitError as exc:
        if isinstance(exc.orig_exc, ParseError):
            raise exc.orig_exc from None
        raise


#: Operators whose chains nest one level per term: ``a and b and c`` is ``(a and b) and c``.
_CHAINED = {"and_op": "'and'", "or_op": "'or'", "arith": "arithmetic operators"}


def _check_depth(source: Source, tree: Tree, base: Pos | None = None) -> None:
    # Each entry: a node, its depth, the run of one chained operator ending at it, and the
    # longest such run on its path as (length, operator).
    stack: list[tuple[Tree, int, int, tuple[int, str]]] = [(tree, 1, 1, (1, ""))]
    while stack:
        node, depth, run, (longest, op) = stack.pop()
        if depth > MAX_DEPTH:
            message, hint = f"nested more than {MAX_DEPTH} levels deep", "name the inner parts with 'define' or 'to'"
            if longest > MAX_DEPTH // 2:  # mostly one long chain: say so, since it does not look nested
                message += f": a chain of {_CHAINED[op]} counts one level per term"
                hint = "split the chain: name parts of it with 'define' and join the names"
            raise ParseError([Diagnostic("E108", message, _meta_span(source, node.meta, base), hint, source=source)])
        for child in node.children:
            if isinstance(child, Tree):
                child_run = run + 1 if child.data == node.data and child.data in _CHAINED else 1
                stack.append((child, depth + 1, child_run, max((longest, op), (child_run, child.data))))


# ============================================================================ positions


def _meta_span(source: Source, meta: Any, base: Pos | None = None) -> Span:
    if getattr(meta, "empty", True):
        return Span(base or Pos(1, 1, 0), base or Pos(1, 1, 0))
    if base is None:
        return Span(Pos(meta.line, meta.column, meta.start_pos), Pos(meta.end_line, meta.end_column, meta.end_pos))
    # An expression inside a string: Lark counted from the start of that fragment.
    return Span(
        Pos(base.line, base.col + meta.column - 1, base.offset + meta.start_pos),
        Pos(base.line, base.col + meta.end_column - 1, base.offset + meta.end_pos),
    )


def _token_span(source: Source, token: Token) -> Span:
    return Span(
        Pos(token.line or 1, token.column or 1, token.start_pos or 0),
        Pos(token.end_line or token.line or 1, token.end_column or token.column or 1, token.end_pos or 0),
    )


def _line_span(source: Source, line: int) -> Span:
    text = source.line_text(line)
    indent = len(text) - len(text.lstrip())
    return Span(Pos(line, indent + 1, 0), Pos(line, max(indent + 2, len(text) + 1), 0))


def _dedent_line(text: str, exc: DedentError) -> int:
    # DedentError carries no position; find the first line whose indent is not on the
    # stack, as the indenter does: lines inside brackets or after a backslash continue
    # the line before and do not count.
    stack = [0]
    depth = 0
    continued = False
    for number, raw in enumerate(text.split("\n"), start=1):
        stripped = raw.lstrip(" \t\f")
        inside = depth > 0 or continued
        code = stripped.split("#", 1)[0] if '"' not in stripped else stripped
        depth = max(0, depth + code.count("(") + code.count("{") - code.count(")") - code.count("}"))
        continued = code.rstrip().endswith("\\")
        if inside or not stripped or stripped.startswith("#"):
            continue
        indent = len(raw[: len(raw) - len(stripped)].expandtabs(8))
        if indent > stack[-1]:
            stack.append(indent)
        else:
            while indent < stack[-1]:
                stack.pop()
            if indent != stack[-1]:
                return number
    return 1


# ============================================================================ syntax errors


def keywords() -> frozenset[str]:
    """Return the words the grammar uses as keywords."""
    return _keywords()


@functools.cache
def _keywords() -> frozenset[str]:
    return frozenset(
        t.pattern.value for t in _lark().terminals if t.pattern.type == "str" and t.pattern.value.isidentifier()
    )


# Common mistakes, each written as complete failing inputs; Lark's match_examples picks
# the one whose parser state matches the real error (Lark's error_reporting_lalr example).
# The keys are labels of _SYNTAX_MESSAGES.
_SYNTAX_EXAMPLES: dict[str, list[str]] = {
    "E103": [
        'game "g"\nsetup\n    shuffle deck\n',
        'game "g"\nphase play\n    action a:\n        again\n',
        'game "g"\nphase play:\n    action a\n        again\n',
        'game "g"\nphase play:\n    action a when x\n        again\n',
        'game "g"\nto refill\n    again\n',
        'game "g"\nsetup:\n    if x\n        again\n',
        'game "g"\nsetup:\n    while x\n        again\n',
        'game "g"\nsetup:\n    for each c in hand\n        again\n',
        'game "g"\nsetup:\n    if x:\n        again\n    else\n        again\n',
        'game "g"\nround end\n    again\n',
        'game "g"\ndeck\n    card "x"\n',
        'game "g"\nwhen cs enter tas\n    again\n',
        'game "g"\nwindow w for players\n    pass:\n        label "p"\n',
        'game "g"\nphase play:\n    on enter\n        again\n',
    ],
    "E109": [
        'game "g"\nsetup:\nagain\n',
        'game "g"\nsetup:\n\n',
        'game "g"\nphase play:\n    action a:\n    again\n',
        'game "g"\nsetup:\n    if x:\n    again\n',
        'game "g"\nphase play:\naction a:\n',
        'game "g"\ndeck:\ncard "x"\n',
    ],
    "E110": [
        'game "g"\nsetup:\n    if x = 1:\n        again\n',
        'game "g"\nphase p:\n    action a when x = 1:\n        again\n',
        'game "g"\nsetup:\n    while x = 1:\n        again\n',
        'game "g"\ndefine d = x = 1\n',
    ],
    "E111": [
        "setup:\n    again\n",
        "players 2 to 4\n",
        "zone deck: shared, hidden\n",
        "option x = 1\n",
    ],
    "E113": [
        'game "g"\nmove top of deck to hand\n',
        'game "g"\nshuffle deck\n',
        'game "g"\nagain\n',
        'game "g"\nset x = 1\n',
        'game "g"\ndeal 3 from deck to each hand\n',
    ],
    "E115": [
        'game "g"\ndefine d = a and every c in hand satisfies c.x\n',
        'game "g"\ndefine d = a and any c in hand where c.x\n',
        'game "g"\ndefine d = a or any c in hand where c.x\n',
        'game "g"\ndefine d = a or no c in hand where c.x\n',
        'game "g"\ndefine d = not any c in hand where c.x\n',
        'game "g"\ndefine d = 1 + count c in hand where c.x\n',
        'game "g"\ndefine d = a and count c in hand\n',
        'game "g"\ndefine d = 1 < count c in hand\n',
        'game "g"\ndefine d = a and first c in hand where c.x\n',
        'game "g"\ndefine d = a and topmost c in hand where c.x\n',
        'game "g"\ndefine d = a and cards c in hand where c.x\n',
        'game "g"\ndefine d = 1 + total c.x for c in hand\n',
        'game "g"\ndefine d = 1 + highest c.x for c in hand\n',
        'game "g"\ndefine d = 1 + lowest c.x for c in hand\n',
        'game "g"\ndefine d = 1 + distinct c.x for c in hand\n',
    ],
    "E114": [
        'game "g"\ndefine d = if y then 1\n',
        'game "g"\ndefine d = if y 1 else 2\n',
    ],
    "any-satisfies": [
        'game "g"\ndefine d = any c in hand satisfies c.x\n',
        'game "g"\ndefine d = no c in hand satisfies c.x\n',
    ],
    "every-where": ['game "g"\ndefine d = every c in hand where c.x\n'],
    "deck-loop": [
        'game "g"\ndeck:\n    for each r in A to K:\n        card "x"\n',
        'game "g"\ndeck:\n    for r in A to K:\n        card "x"\n',
    ],
    "change-var": [
        'game "g"\nsetup:\n    n += 1\n',
        'game "g"\nsetup:\n    n -= 1\n',
        'game "g"\nsetup:\n    n = 1\n',
        'game "g"\nsetup:\n    set n += 1\n',
        'game "g"\nsetup:\n    set p.n -= 1\n',
    ],
    "size-of": ['game "g"\ndefine d = size(hand)\n'],
    "deal-all": ['game "g"\nsetup:\n    deal all from deck to each hand\n'],
}

#: Mistakes that can only be made in a statement holding this keyword: `define d = a 1`
#: fails where `define d = if a 1 else 2` does, but lacks no 'then'.
_MISTAKE_NEEDS: dict[str, str] = {"E114": "if"}

_SYNTAX_MESSAGES: dict[str, tuple[str, str, str | None]] = {
    # label: (code, message, hint)
    "E103": ("E103", "expected ':' at the end of this line", "a line that opens a block ends with ':'"),
    "E109": ("E109", "expected an indented block after ':'", "indent the lines that belong to the block"),
    "E110": ("E110", "'=' cannot compare; use '=='", "'=' gives a value, in 'let', 'set' and 'option'"),
    "E111": ("E111", 'a rule file must start with: game "Name"', 'add a first line such as: game "Crazy Eights"'),
    "E113": (
        "E113",
        "a statement cannot stand at the top of the file",
        "effects go inside a block: setup:, an action of a phase, or a procedure (to name:)",
    ),
    "E114": ("E114", "an 'if' value needs 'then' and 'else'", "write: if condition then value else other_value"),
    "E115": (
        "E115",
        "'any', 'no', 'every', 'count', 'first' and the like need parentheses inside a larger expression",
        "write, for example: a and (any c in hand where c.rank == 7)",
    ),
    "any-satisfies": (
        "E101",
        "'any' and 'no' take 'where'; 'satisfies' goes with 'every'",
        "write: any c in hand where c.rank == 7, or every c in hand satisfies c.rank == 7",
    ),
    "every-where": (
        "E101",
        "'every' takes 'satisfies'; 'where' goes with 'any', 'no', 'count' and the like",
        "write: every c in hand satisfies c.rank == 7",
    ),
    "deck-loop": (
        "E101",
        "a deck has no loops: a card line takes its ranges at its end",
        'for example: card "{rank}{suit}" for rank in A to K, suit in spades to clubs',
    ),
    "otherwise-place": (
        "E101",
        "'otherwise' goes right after the action's name and choices",
        "write: action draw otherwise:, or action draw otherwise when deck is not empty:",
    ),
    "else": (
        "E101",
        "'else' without an 'if' before it",
        "an 'else' stands right after the block of its 'if', indented like that 'if'",
    ),
    "require-place": (
        "E101",
        "'require' stands only among the first lines of an action, or at the top of the file",
        "to require something only in some cases, put the case in the condition: "
        'require not CASE or CONDITION, "reason"',
    ),
    # The hint names the variable: see _syntax_diagnostic.
    "change-var": ("E101", "a variable changes with 'set', 'add' or 'subtract'", None),
    "loser": (
        "E101",
        "a game ends with a winner, a draw, or its ranking: there is no 'loser'",
        "for one loser, write 'end game' and rank the players by what tells him apart (ranking: lowest size of hand)",
    ),
    "next-player": (
        "E101",
        "the next player is written 'player after player'",
        "'player after P' and 'player before P' are P's neighbours in turn order",
    ),
    "seat-number": (
        "E101",
        "a seat is written 'seat 1'",
        "'player' is the player acting now; seats are numbered from 0",
    ),
    "count-of": (
        "E101",
        "'count' counts the elements of a collection that meet a condition",
        "write: size of hand, or count c in hand where c.rank == 7",
    ),
    "size-of": ("E101", "'size' takes 'of', without brackets", "write: size of hand"),
    "deal-all": (
        "E101",
        "'deal' takes a number of rounds",
        "to deal the whole deck, one card at a time: while deck is not empty: deal 1 from deck to each hand",
    ),
}

#: Words of other languages that start a line where ruledsl has its own: (what to write, where).
_FOREIGN_STATEMENTS: dict[str, str] = {
    "elif": "write 'else if', indented like its 'if'",
    "elsif": "write 'else if', indented like its 'if'",
    "elseif": "write 'else if', indented like its 'if'",
}

#: Operators of other languages, and what ruledsl writes instead.
_FOREIGN_OPERATORS: dict[str, str] = {"&": "write 'and'", "|": "write 'or'", "!": "write 'not', or '!=' to compare"}

#: A mistake's signature: the parser state and the type of the token it could not take.
_Signature = tuple[int, str]


@functools.cache
def _mistake_signatures() -> dict[_Signature, dict[str | None, str]]:
    """Return, for the (parser state, token type) at which sample mistakes fail, their labels.

    The labels are keyed by the keyword just before the failing token (None when that is
    not a keyword): one parser state serves every place a name can stand in an expression,
    so `a and count c` and `move c discard` fail in the same state, and only the word
    before ('count' against 'c') tells them apart.
    """
    signatures: dict[_Signature, dict[str | None, str]] = {}
    for label, examples in _SYNTAX_EXAMPLES.items():
        for example in examples:
            try:
                _lark().parse(example, start="game_file")
            except UnexpectedToken as exc:
                if exc.state is not None:
                    by_word = signatures.setdefault((exc.state.position, exc.token.type), {})
                    by_word.setdefault(_word_before(exc), label)
            except (UnexpectedInput, DedentError):
                pass
    return signatures


def _stack(exc: UnexpectedToken) -> list[Any]:
    """What the parser had read when it failed: tokens, and subtrees of the rules it finished."""
    return exc.state.value_stack if exc.state is not None else []


def _last_read(exc: UnexpectedToken) -> Any:
    """The token or subtree read just before the failing token, or None."""
    stack = _stack(exc)
    return stack[-1] if stack else None


def _word_before(exc: UnexpectedToken) -> str | None:
    """Return the keyword just before the failing token (even when read as a name), or None."""
    before = _last_read(exc)
    if isinstance(before, Token) and str(before) in _keywords():
        return str(before)
    return None


def _known_mistake(exc: UnexpectedInput) -> str | None:
    # Like Lark's match_examples, but on the LALR state and the failing token's type, not
    # the stack depth, which differs between a sample and a real file where the same
    # mistake sits among other rules. A sample whose failing token came after a keyword
    # matches only after that keyword; the others match whatever came before.
    if not isinstance(exc, UnexpectedToken) or exc.state is None:
        return None
    if _is_keyword(exc.token, "otherwise"):
        return "otherwise-place"  # it has one place only, wherever else it was written
    targeted = _misplaced_word(exc)
    if targeted is not None:
        return targeted
    if _quantifier_read_as_name(exc):
        return "E115"
    by_word = _mistake_signatures().get((exc.state.position, exc.token.type))
    word = _word_before(exc)
    if not by_word and exc.token.type != "NAME" and str(exc.token).isidentifier():
        # A keyword that is also a plain name ('card') where the samples have a name:
        # `a and any card in …` is the mistake of `a and any c in …`, after the same word.
        by_name = _mistake_signatures().get((exc.state.position, "NAME"), {})
        by_word = {word: by_name[word]} if word is not None and word in by_name else None
    if not by_word:
        return None
    label = by_word[word] if word is not None and word in by_word else by_word.get(None)
    needed = _MISTAKE_NEEDS.get(label or "")
    if needed is not None and not any(_is_keyword(v, needed) for v in _statement_values(exc)):
        return None
    return label


def _misplaced_word(exc: UnexpectedToken) -> str | None:
    """The label of a word written where ruledsl writes another, found by the words themselves.

    These fail in parser states shared with other mistakes (any name may follow
    'end game,'), so the words tell them apart, not the state.
    """
    token, stack = exc.token, _stack(exc)
    last = stack[-1] if stack else None
    before = stack[-2] if len(stack) > 1 else None
    if _is_keyword(token, "require") or (isinstance(last, Token) and last.type == "NAME" and last == "require"):
        return "require-place"  # a keyword where statements go; read as a procedure's name among them
    if token.type == "NAME" and token in ("loser", "losers") and _is_keyword(before, "game"):
        return "loser"
    if _is_keyword(token, "player") and isinstance(last, Token) and last.type == "NAME" and last == "next":
        return "next-player"
    if token.type == "INT" and _is_keyword(last, "player"):
        return "seat-number"
    if isinstance(last, Token) and last == "of" and _is_keyword(before, "count"):
        return "count-of"
    return None


def _quantifier_read_as_name(exc: UnexpectedToken) -> bool:
    """Whether the parser read 'any', 'count', 'total'... as a name, and a word follows it.

    Where a quantifier cannot stand (`a and any c in …`), its keyword is read as a name,
    and the parser fails at the word after it. When that word is a keyword that may
    follow a whole value (`x`, as in `2 x card`), the parser first takes what it read
    for a value, so the state differs from the samples of _SYNTAX_EXAMPLES.
    """
    last = _last_read(exc)
    if not (isinstance(last, Tree) and exc.token.type != "NAME" and str(exc.token).isidentifier()):
        return False
    words = list(last.scan_values(lambda v: isinstance(v, Token)))
    return bool(words) and words[-1].type == "NAME" and str(words[-1]) in _QUANTIFIERS


def _is_keyword(value: object, word: str) -> bool:
    """Whether a value on the parser's stack is this keyword, read as the keyword."""
    return isinstance(value, Token) and value.type != "NAME" and str(value) == word


def _describe_token(token: Token) -> str:
    """How an unexpected token reads after 'unexpected'."""
    if token.type == "$END":
        return "end of the file"
    if token.type == "_NL":
        return "end of the line"
    if token.type == "_INDENT":
        return "indentation"
    if token.type == "_DEDENT":
        return "end of the block"
    if token.type == "STRING":
        return f"text {token.value}" if len(token.value) <= 30 else "text"
    if token.type == "INT":
        return f"number {token.value}"
    return f"'{token.value}'"


_TERMINAL_WORDS = {
    "NAME": "a name",
    "INT": "a number",
    "STRING": "a string",
    "_NL": "a new line",
    "_INDENT": "an indented block",
    "_DEDENT": "the end of the block",
    "COMPARE": "a comparison",
    "ADD_OP": "'+' or '-'",
    "MUL_OP": "'*', '/' or '%'",
    "$END": "the end of the file",
}


def _describe_expected(expected: set[str]) -> str:
    by_name = {t.name: t for t in _lark().terminals}
    words: set[str] = set()
    for name in expected:
        if name in _TERMINAL_WORDS:
            words.add(_TERMINAL_WORDS[name])
        elif name in by_name and by_name[name].pattern.type == "str":
            words.add(f"'{by_name[name].pattern.value}'")
        else:
            words.add(name.lower())
    ordered = sorted(words, key=lambda w: (not w.startswith("a"), w))
    if len(ordered) > 8:
        return ", ".join(ordered[:8]) + f" or {len(ordered) - 8} more"
    if len(ordered) > 1:
        return ", ".join(ordered[:-1]) + " or " + ordered[-1]
    return ordered[0] if ordered else "something else"


def _syntax_diagnostic(source: Source, text: str, exc: UnexpectedInput, start: str) -> Diagnostic:
    line = max(1, getattr(exc, "line", 1) or 1)
    column = max(1, getattr(exc, "column", 1) or 1)

    if isinstance(exc, UnexpectedCharacters):
        char = text[exc.pos_in_stream] if exc.pos_in_stream < len(text) else ""
        span = Span(Pos(line, column, exc.pos_in_stream), Pos(line, column + 1, exc.pos_in_stream + 1))
        if char == '"':
            return Diagnostic(
                "E105",
                "this string has no closing '\"' on its line",
                span,
                'close it on the same line; write \\" for a quote inside it',
                source=source,
            )
        shown = repr(char)[1:-1] if char.isprintable() else f"U+{ord(char):04X}" if char else "end of file"
        return Diagnostic(
            "E102",
            f"unexpected character '{shown}'",
            span,
            _FOREIGN_OPERATORS.get(char, "names are letters, digits and '_'; text goes between double quotes"),
            source=source,
        )

    token: Token | None = getattr(exc, "token", None)
    if start == "game_file" and not _has_content(text):
        _, message, hint = _SYNTAX_MESSAGES["E111"]
        return Diagnostic("E111", message, Span(Pos(1, 1, 0), Pos(1, 2, 0)), hint, source=source)
    if isinstance(exc, UnexpectedEOF) or (token is not None and token.type == "$END"):
        last = source.line_count if source.text.endswith("\n") else max(1, source.line_count)
        return Diagnostic(
            "E107",
            "unexpected end of the file",
            _line_span(source, min(line, last) if token is None else last),
            "a bracket or a block may be left open",
            source=source,
        )

    assert isinstance(exc, UnexpectedToken) and token is not None
    span = _token_span(source, token)
    if token.type == "_INDENT":
        # The indent borrows the position of the new line before it; point at the indented line.
        span = _line_span(source, token.end_line or token.line or line)
    elif token.type in ("_NL", "_DEDENT"):
        # Point at the end of the offending line rather than at the next one.
        span = _line_span(source, token.line or line)
        if token.type == "_NL":
            end = len(source.line_text(token.line or line)) + 1
            span = Span(Pos(token.line or line, end, token.start_pos or 0), Pos(token.line or line, end + 1, 0))

    expected = set(exc.expected)
    if start == "game_file":
        label = _known_mistake(exc)
        stray_else = _stray_else(source, exc) if label is None else None
        if stray_else is not None:
            label, span = "else", _token_span(source, stray_else)
        if label is None and token.type == "_NL" and _COLON in expected:
            label = "E103"  # a line that opens a block ends with ':'
        elif label is None and token.type != "_INDENT" and ("_INDENT" in expected or _after_block_opener(source, exc)):
            label = "E109"  # after ':' and a new line, the block's lines are indented
        if label is not None:
            code, message, hint = _SYNTAX_MESSAGES[label]
            if label == "change-var":
                name = _changed_name(source, token)
                hint = f"write: set {name} = …, add 1 to {name}, or subtract 1 from {name}"
            last = _last_read(exc) if isinstance(exc, UnexpectedToken) else None
            if label == "require-place" and isinstance(last, Token) and last.type == "NAME":
                span = _token_span(source, last)  # the parser failed at the word after it
            if label == "deck-loop":
                # The parser fails after 'for'; point at the loop itself.
                line_no = token.line or line
                text_line = source.line_text(line_no)
                start = len(text_line) - len(text_line.lstrip()) + 1
                span = Span(Pos(line_no, start, 0), Pos(line_no, start + len("for"), 0))
            return Diagnostic(code, message, span, hint, source=source)
        if token.type == "_INDENT" and not _ends_block_opener(source, token.line or line):
            return Diagnostic(
                "E101",
                "unexpected indentation",
                span,
                "this line is indented more than the one before; only a line ending with ':' opens a block",
                source=source,
            )
        misspelt = _misspelt_keyword(source, exc)
        if misspelt is not None:
            return misspelt
        missing = _missing_word(exc)
        if missing is not None:
            word, shape = missing
            return Diagnostic(
                "E101", f"expected '{word}' before {_describe_token(token)}", span, f"write '{shape}'", source=source
            )

    if token.type == "_NL":
        # A line that is one bare keyword: most often a procedure named like a statement.
        words = source.line_text(token.line or line).split("#", 1)[0].split()
        if len(words) == 1 and words[0] in _keywords():
            word = words[0]
            return Diagnostic(
                "E106",
                f"'{word}' is a keyword of the language: alone on a line it is an unfinished statement",
                _line_span(source, token.line or line),
                f"to run a procedure, give it another name than '{word}'",
                source=source,
            )
    chained = _chained_comparison(source, text, exc)
    if chained is not None:
        return chained
    if token.type != "NAME" and token.value in _keywords() and "NAME" in exc.expected:
        return Diagnostic(
            "E106",
            f"'{token.value}' is a keyword of the language and cannot be used as a name here",
            span,
            f"choose another name, such as '{token.value}_'",
            source=source,
        )

    return Diagnostic(
        "E101",
        f"unexpected {_describe_token(token)}",
        span,
        f"expected {_describe_expected(expected)}",
        source=source,
    )


#: The keywords that open a quantifier or an aggregate, which reads to the end of the expression.
_QUANTIFIERS = frozenset(
    {"any", "no", "every", "count", "cards", "first", "topmost", "highest", "lowest", "total", "distinct", "the"}
)


def _chained_comparison(source: Source, text: str, exc: UnexpectedToken) -> Diagnostic | None:
    """Report a second comparison right after a first (`a == b == c`), or None.

    Comparisons do not chain. Inside the condition of a quantifier (`count c in hand where
    c.rank == r == 4`) the second one was most likely meant for the quantifier's value:
    that is E115, with the quantifier in parentheses.
    """
    stack = _stack(exc)
    token = exc.token
    test = _test_operator(stack) if token.type == "COMPARE" else None
    if test is None:
        return None
    span = _token_span(source, token)
    rest = _operand_after(text, token.end_pos or 0)
    # The innermost quantifier still open, unless a bracket opened after it.
    for value in reversed(stack[:test]):
        if isinstance(value, Token) and value.type in ("_NL", "_INDENT", "_DEDENT", _COLON, "LPAR", "LBRACE"):
            break
        if isinstance(value, Tree) and value.data == "aggregate_op":
            opener = value.children[0]
        elif isinstance(value, Token) and value.type != "NAME" and str(value) in _QUANTIFIERS:
            opener = value
        else:
            continue
        inner = text[opener.start_pos or 0 : token.start_pos or 0].strip()
        code, message, _ = _SYNTAX_MESSAGES["E115"]
        hint = f"'{opener}' reads to the end of the expression; write ({inner}) {token} {rest}"
        return Diagnostic(code, message, span, hint, source=source)
    hint = "compare two values at a time, and join the tests with 'and'"
    if test == len(stack) - 2 and stack[test].type == "COMPARE":
        a, b = (_read_text(text, v) for v in (stack[-3], stack[-1]))
        if a and b:
            hint += f": {a} {stack[-2]} {b} and {b} {token} {rest}"
    return Diagnostic("E101", "comparisons do not chain", span, hint, source=source)


#: The words of a test, after its left operand: `a == b`, `p is not out`, `c in S`, `s overlaps t`.
_TEST_OPERATORS = frozenset({"COMPARE", "IS", "IN", "OVERLAPS"})


def _test_operator(stack: list[Any]) -> int | None:
    """The place on the parser's stack of the operator of the test just read, or None.

    A test is whole once its right side is read (`b`, `out`, `empty`, `"A"`), maybe after a
    'not' (`is not out`): a comparison after it is a second test chained to the first.
    """
    i = len(stack) - 2
    while i >= 1 and isinstance(stack[i], Token) and stack[i].type == "NOT":
        i -= 1
    if i >= 1 and isinstance(stack[i], Token) and stack[i].type in _TEST_OPERATORS:
        return i
    return None


def _changed_name(source: Source, token: Token) -> str:
    """The variable a line changes as in other languages (`n += 1`, `set p.n -= 1`), as written."""
    line = source.line_text(token.line or 1)[: (token.column or 1) - 1].split()
    words = line[1:] if line and line[0] == "set" else line
    return " ".join(words) or "x"


def _operand_after(text: str, start: int) -> str:
    """The rest of an expression on its line after a position, for a hint; '…' if unclear."""
    line = text[start:].split("\n", 1)[0]
    depth = 0
    for i, char in enumerate(line):
        depth += {"(": 1, "{": 1, ")": -1, "}": -1}.get(char, 0)
        if depth < 0 or char in '#:"' or (char == "," and depth == 0):
            line = line[:i]
            break
    return line.strip() if line.strip() and depth <= 0 else "…"


def _read_text(text: str, value: Any) -> str | None:
    """The text the parser read as a token or subtree of its stack (with its brackets), or None."""
    if isinstance(value, Token):
        start, end = value.start_pos, value.end_pos
    elif isinstance(value, Tree) and not getattr(value.meta, "empty", True):
        start, end = value.meta.start_pos, value.meta.end_pos
    else:
        return None
    if start is None or end is None:
        return None
    while text[:start].rstrip().endswith("(") and text[end:].lstrip().startswith(")"):
        start, end = len(text[:start].rstrip()) - 1, len(text) - len(text[end:].lstrip()) + 1
    return text[start:end]


#: The terminal Lark names ':' (an anonymous string terminal).
_COLON = "COLON"


def _after_block_opener(source: Source, exc: UnexpectedInput) -> bool:
    """Whether the token before the error ended a line that opens a block (ends with ':').

    The contextual lexer reports such errors itself, where only a newline could be read,
    so the parser's wish for an indented line is not among the expected tokens.
    """
    history = getattr(exc, "token_history", None) or []
    newline = history[-1] if history else None
    if newline is None or newline.type != "_NL" or not _ends_block_opener(source, newline.line or 0):
        return False
    # When the next line is indented further, the block is there and the mistake is in it.
    opener = source.line_text(newline.line or 0)
    opener_indent = len(opener[: len(opener) - len(opener.lstrip(" \t\f"))].expandtabs(8))
    return len(str(newline).rsplit("\n", 1)[-1].expandtabs(8)) <= opener_indent


def _ends_block_opener(source: Source, line: int) -> bool:
    """Whether a line, without its comment, ends with ':'."""
    return source.line_text(line).split("#", 1)[0].rstrip().endswith(":")


def _misspelt_keyword(source: Source, exc: UnexpectedToken) -> Diagnostic | None:
    """Report a line that starts with a name close to a keyword that could start it.

    At the top of the file (or in a phase, a deck...) a name cannot start a line, and the
    parser fails at it: that is an unknown declaration. In a block a name starts a
    procedure call, and the parser fails at what follows it: that is an unknown statement.
    A name the file declares itself is left alone: that is a call with a mistake further on.
    """
    token = exc.token
    before = _last_read(exc)
    if token.type == "NAME" and "NAME" not in exc.expected and _first_on_line(source, token):
        word, starters = token, set(exc.expected)
    elif isinstance(before, Token) and before.type == "NAME" and exc.state is not None:
        if len(exc.state.state_stack) < 2 or token.type in ("_NL", "$END"):
            return None
        # What the parser could read where the name stands: the state before it was shifted.
        word = before
        starters = set(exc.state.parse_conf.states[exc.state.state_stack[-2]])
        if "NAME" not in starters or before.line != token.line:
            return None
    else:
        return None
    if str(word) in _keywords() or not _first_on_line(source, word) or _declares(source.text, str(word)):
        return None
    statements, others = _line_words()
    if str(word) in _FOREIGN_STATEMENTS and "if" in map(_keyword_of, starters):
        return Diagnostic(
            "E101",
            f"unknown statement '{word}'",
            _token_span(source, word),
            _FOREIGN_STATEMENTS[str(word)],
            source=source,
        )
    keywords = {k for k in map(_keyword_of, starters) if k in statements or k in others}
    # Every keyword as close as the closest: 'lte' is as near 'let' as 'set'.
    scores = {k: difflib.SequenceMatcher(None, str(word), k).ratio() for k in keywords}
    best = max(scores.values(), default=0.0)
    if best < 0.6:
        return None
    close = sorted(k for k, score in scores.items() if score == best)
    kind = "statement" if close[0] in statements else "declaration"
    return Diagnostic(
        "E101",
        f"unknown {kind} '{word}'",
        _token_span(source, word),
        "did you mean " + " or ".join(f"'{k}'" for k in close) + "?",
        source=source,
    )


@functools.cache
def _line_words() -> tuple[frozenset[str], frozenset[str]]:
    """Return the keywords that start a statement ('move', 'label'...) and the other keywords
    that start a line: a declaration, a phase's or a deck's item, the header ('phase', 'card'...).
    """
    rules = _lark().rules
    # Expressions start with many keywords ('top', 'all'...) that never start a line.
    in_expr: set[str] = set()
    todo = ["expr"]
    while todo:
        name = todo.pop()
        if name not in in_expr:
            in_expr.add(name)
            todo += [s.name for r in rules if r.origin.name == name for s in r.expansion if not s.is_term]

    def first_words(*starts: str) -> frozenset[str]:
        words: set[str] = set()
        seen: set[str] = set()
        todo = list(starts)
        while todo:
            name = todo.pop()
            if name in seen or name in in_expr:
                continue
            seen.add(name)
            for rule in rules:
                if rule.origin.name == name and rule.expansion:
                    first = rule.expansion[0]
                    if not first.is_term:
                        todo.append(first.name)
                    elif (word := _keyword_of(first.name)) is not None:
                        words.add(word)
        return frozenset(words)

    statements = first_words("action_item")
    others = first_words("game_header", "decl", "phase_item", "window_item", "deck_entry") - statements
    return statements, others


@functools.cache
def _keyword_of(terminal: str) -> str | None:
    """Return the word a keyword terminal stands for ('MOVE' -> 'move'), or None."""
    for t in _lark().terminals:
        if t.name == terminal and t.pattern.type == "str" and t.pattern.value.isidentifier():
            return str(t.pattern.value)
    return None


def _declares(text: str, name: str) -> bool:
    """Whether the file declares this name (a procedure, a definition, a zone...)."""
    kinds = "to|define|zone|(?:player |card )?var|values|option|card|phase|auction|window|action"
    pattern = rf"^[ \t]*(?:{kinds})[ \t]+{re.escape(name)}\b"
    return re.search(pattern, text, re.MULTILINE) is not None


#: The words that join the parts of a statement, in order, and how the statement is written.
_STATEMENT_SHAPES: dict[str, tuple[tuple[str, ...], str]] = {
    "move": (("to",), "move CARDS to ZONE"),
    "deal": (("from", "to"), "deal COUNT from ZONE to each ZONE"),
    "add": (("to",), "add NUMBER to VARIABLE"),
    "subtract": (("from",), "subtract NUMBER from VARIABLE"),
}


def _missing_word(exc: UnexpectedToken) -> tuple[str, str] | None:
    """Return the joining word ('to', 'from') a statement lacks where it failed, and its shape."""
    if exc.token.type in ("_NL", "_INDENT", "_DEDENT", "$END"):
        return None
    values = _statement_values(exc)
    # Statements that came before in the block are subtrees; the open one is still tokens.
    starts = [i for i, v in enumerate(values) if any(_is_keyword(v, opener) for opener in _STATEMENT_SHAPES)]
    if not starts:
        return None
    words, shape = _STATEMENT_SHAPES[str(values[starts[-1]])]
    rest = values[starts[-1] + 1 :]
    missing = next((w for w in words if not any(_is_keyword(v, w) for v in rest)), None)
    if missing is None or str(exc.token) == missing or missing not in map(_keyword_of, exc.expected):
        return None
    return missing, shape


def _stray_else(source: Source, exc: UnexpectedToken) -> Token | None:
    """Return the 'else' that starts the failing line if it has no 'if' to continue, or None.

    Wherever an 'else' cannot continue an 'if', the parser reads it as the keyword and fails
    at it, or, where a line may start with a name, as a name and fails just after it.
    """
    if str(exc.token) == "else" and _first_on_line(source, exc.token):
        return exc.token
    first = _last_read(exc)
    if isinstance(first, Tree):
        first = next(first.scan_values(lambda v: isinstance(v, Token)), None)
    if isinstance(first, Token) and first.type == "NAME" and str(first) == "else" and _first_on_line(source, first):
        return first
    return None


def _statement_values(exc: UnexpectedToken) -> list[Any]:
    """Return what the parser has read of the failing statement: its tokens and subtrees.

    A statement starts after a new line, an indent or a dedent, or after the ':' of a
    block written on one line.
    """
    stack = _stack(exc)
    start = len(stack)
    while start > 0:
        value = stack[start - 1]
        if isinstance(value, Token) and value.type in ("_NL", "_INDENT", "_DEDENT", _COLON):
            break
        start -= 1
    return list(stack[start:])


def _first_on_line(source: Source, token: Token) -> bool:
    """Whether only blanks stand before the token on its line."""
    return not source.line_text(token.line or 1)[: max(0, (token.column or 1) - 1)].strip()


def _has_content(text: str) -> bool:
    """Whether a file holds anything but blank lines and comments."""
    return any(line.strip() and not line.strip().startswith("#") for line in text.split("\n"))


# ============================================================================ tree -> nodes


def _fail(source: Source, code: str, message: str, span: Span, hint: str | None = None) -> ParseError:
    return ParseError([Diagnostic(code, message, span, hint, source=source)])


def _with_meta(method: Callable[..., Any]) -> Callable[..., Any]:
    return v_args(meta=True, inline=True)(method)


class _ToNodes(Transformer):
    """Turn Lark trees into nodes; one method per grammar rule or alias."""

    def __init__(self, source: Source, base: Pos | None = None) -> None:
        super().__init__(visit_tokens=False)
        self.source = source
        self.base = base

    def _span(self, meta: Any) -> Span:
        return _meta_span(self.source, meta, self.base)

    # ------------------------------------------------------------- tokens

    def _name(self, token: Token) -> str:
        return str(token)

    def _string(self, token: Token) -> str:
        raw = str(token)[1:-1]
        out = []
        i = 0
        while i < len(raw):
            ch = raw[i]
            if ch == "\\" and i + 1 < len(raw):
                nxt = raw[i + 1]
                out.append({"n": "\n", "t": "\t"}.get(nxt, nxt))
                i += 2
                continue
            out.append(ch)
            i += 1
        return "".join(out)

    def _template(self, token: Token) -> n.Text:
        """Split a string token into literal text and ``{expr}`` parts."""
        raw = str(token)[1:-1]
        parts: list[str | n.Expr] = []
        literal: list[str] = []
        i = 0
        base_col = (token.column or 1) + 1
        base_offset = (token.start_pos or 0) + 1
        while i < len(raw):
            ch = raw[i]
            if ch == "\\" and i + 1 < len(raw):
                nxt = raw[i + 1]
                literal.append({"n": "\n", "t": "\t"}.get(nxt, nxt))
                i += 2
            elif ch in "{}" and raw[i + 1 : i + 2] == ch:
                literal.append(ch)
                i += 2
            elif ch == "{":
                end = self._closing_brace(raw, i, token)
                if literal:
                    parts.append("".join(literal))
                    literal = []
                inner = raw[i + 1 : end]
                base = Pos(token.line or 1, base_col + i + 1, base_offset + i + 1)
                parts.append(self._inner_expr(inner, base, token))
                i = end + 1
            elif ch == "}":
                span = Span(
                    Pos(token.line or 1, base_col + i, base_offset + i), Pos(token.line or 1, base_col + i + 1, 0)
                )
                raise _fail(
                    self.source,
                    "E110",
                    "'}' without an opening '{' in this string",
                    span,
                    "write '}}' for a '}' in text",
                )
            else:
                literal.append(ch)
                i += 1
        if literal:
            parts.append("".join(literal))
        return n.Text(
            parts=tuple(parts),
            span=_token_span(self.source, token) if self.base is None else self._token_span_in_base(token),
        )

    def _token_span_in_base(self, token: Token) -> Span:
        assert self.base is not None
        return Span(
            Pos(self.base.line, self.base.col + (token.column or 1) - 1, self.base.offset + (token.start_pos or 0)),
            Pos(self.base.line, self.base.col + (token.end_column or 1) - 1, self.base.offset + (token.end_pos or 0)),
        )

    def _closing_brace(self, raw: str, start: int, token: Token) -> int:
        depth = 0
        for j in range(start, len(raw)):
            if raw[j] == "{":
                depth += 1
            elif raw[j] == "}":
                depth -= 1
                if depth == 0:
                    return j
        col = (token.column or 1) + 1 + start
        span = Span(Pos(token.line or 1, col, 0), Pos(token.line or 1, col + 1, 0))
        raise _fail(
            self.source, "E110", "'{' without a closing '}' in this string", span, "write '{{' for a '{' in text"
        )

    def _inner_expr(self, inner: str, base: Pos, token: Token) -> n.Expr:
        if not inner.strip():
            span = Span(base, Pos(base.line, base.col + 1, base.offset + 1))
            raise _fail(
                self.source,
                "E110",
                "empty '{}' in this string",
                span,
                "put an expression between the braces, such as {c}",
            )
        try:
            tree = _lark().parse(inner, start="expr")
        except UnexpectedInput as exc:
            col = base.col + max(0, (getattr(exc, "column", 1) or 1) - 1)
            span = Span(Pos(base.line, col, base.offset), Pos(base.line, col + 1, base.offset))
            if isinstance(exc, UnexpectedCharacters) and inner[exc.pos_in_stream : exc.pos_in_stream + 1] == '"':
                hint = "an expression in a string cannot contain another string; name it with 'define'"
            elif isinstance(exc, UnexpectedToken):
                hint = f"expected {_describe_expected(set(exc.expected))}"
            else:
                hint = None
            raise _fail(
                self.source, "E110", f"cannot read the expression '{{{inner}}}' in this string", span, hint
            ) from None
        except DedentError:
            span = Span(base, Pos(base.line, base.col + len(inner), base.offset))
            raise _fail(self.source, "E110", f"cannot read the expression '{{{inner}}}' in this string", span) from None
        _check_depth(self.source, tree, base)
        try:
            result = _ToNodes(self.source, base).transform(tree)
        except VisitError as exc:
            if isinstance(exc.orig_exc, ParseError):
                raise exc.orig_exc from None
            raise
        assert isinstance(result, n.Expr)
        return result

    def _int(self, token: Token) -> int:
        text = str(token)
        if len(text) > 10 or int(text) > MAX_NUMBER:
            span = _token_span(self.source, token) if self.base is None else self._token_span_in_base(token)
            raise _fail(self.source, "E112", f"number too large (at most {MAX_NUMBER:,})", span)
        return int(text)

    # ------------------------------------------------------------- file and declarations

    @_with_meta
    def game_file(self, meta: Any, header: n.GameHeader, *decls: n.Decl) -> n.GameFile:
        return n.GameFile(header=header, decls=tuple(decls), span=self._span(meta))

    @_with_meta
    def game_header(self, meta: Any, name: Token) -> n.GameHeader:
        return n.GameHeader(name=self._string(name), span=self._span(meta))

    @_with_meta
    def players_decl(self, meta: Any, low: n.Expr, high: n.Expr | None) -> n.PlayersDecl:
        # 'players 4' is 'players 4 to 4': one node for both ends, so that fmt writes it back as it was.
        return n.PlayersDecl(low=low, high=low if high is None else high, span=self._span(meta))

    @_with_meta
    def option_decl(self, meta: Any, name: Token, domain: Any, default: n.Expr, doc: str | None) -> n.OptionDecl:
        return n.OptionDecl(name=self._name(name), domain=domain, default=default, doc=doc, span=self._span(meta))

    @_with_meta
    def range_domain(self, meta: Any, low: n.Expr, high: n.Expr) -> n.RangeDomain:
        return n.RangeDomain(low=low, high=high, span=self._span(meta))

    @_with_meta
    def choice_domain(self, meta: Any, *choices: Token) -> n.ChoiceDomain:
        return n.ChoiceDomain(choices=tuple(self._string(c) for c in choices), span=self._span(meta))

    @_with_meta
    def doc_block(self, meta: Any, text: Token) -> str:
        return self._string(text)

    @_with_meta
    def values_decl(self, meta: Any, name: Token, *members: n.ValueMember) -> n.ValuesDecl:
        return n.ValuesDecl(name=self._name(name), members=tuple(members), span=self._span(meta))

    @_with_meta
    def value_member(self, meta: Any, name: Token, display: Token | None) -> n.ValueMember:
        return n.ValueMember(
            name=str(name), display=self._string(display) if display is not None else None, span=self._span(meta)
        )

    @_with_meta
    def attribute_decl(self, meta: Any, name: Token, type_: n.TypeRef) -> n.AttributeDecl:
        return n.AttributeDecl(name=self._name(name), type=type_, span=self._span(meta))

    @_with_meta
    def named_type(self, meta: Any, name: Token) -> n.NamedType:
        return n.NamedType(name=self._name(name), span=self._span(meta))

    @_with_meta
    def card_type(self, meta: Any) -> n.CardType:
        return n.CardType(span=self._span(meta))

    @_with_meta
    def cards_type(self, meta: Any) -> n.CardsType:
        return n.CardsType(span=self._span(meta))

    @_with_meta
    def player_type(self, meta: Any) -> n.PlayerType:
        return n.PlayerType(span=self._span(meta))

    @_with_meta
    def set_type(self, meta: Any, element: n.TypeRef) -> n.SetType:
        return n.SetType(element=element, span=self._span(meta))

    @_with_meta
    def deck_decl(self, meta: Any, *entries: n.Node) -> n.DeckDecl:
        return n.DeckDecl(entries=tuple(entries), span=self._span(meta))

    @_with_meta
    def card_entry(self, meta: Any, copies: n.Expr | None, _mark: Any, name: Token, *rest: Any) -> n.CardEntry:
        assigns = tuple(x for x in rest if isinstance(x, n.CardAssign))
        loops = tuple(x for x in rest if isinstance(x, n.CardLoop))
        return n.CardEntry(name=self._string(name), copies=copies, assigns=assigns, loops=loops, span=self._span(meta))

    def copies(self, children: list[Token]) -> str:
        return str(children[0])

    @_with_meta
    def card_assign(self, meta: Any, name: Token, value: n.Expr) -> n.CardAssign:
        return n.CardAssign(name=self._name(name), value=value, span=self._span(meta))

    @_with_meta
    def card_loop(self, meta: Any, name: Token, low: n.Expr, high: n.Expr) -> n.CardLoop:
        return n.CardLoop(name=self._name(name), low=low, high=high, span=self._span(meta))

    @_with_meta
    def deck_if(self, meta: Any, cond: n.Expr, *rest: Any) -> n.DeckIf:
        else_ = rest[-1] if rest and isinstance(rest[-1], tuple) else ()
        body = tuple(x for x in rest if isinstance(x, n.Node))
        return n.DeckIf(cond=cond, body=body, else_=else_, span=self._span(meta))

    def deck_else(self, children: list[Any]) -> tuple[n.Node, ...]:
        return tuple(children)

    @_with_meta
    def deck_repeat(self, meta: Any, count: n.Expr, *body: n.Node) -> n.DeckRepeat:
        return n.DeckRepeat(count=count, body=tuple(body), span=self._span(meta))

    @_with_meta
    def zone_decl(self, meta: Any, name: Token, scope: str, visibility: str) -> n.ZoneDecl:
        return n.ZoneDecl(
            name=self._name(name), per_player=scope == "per player", visibility=visibility, span=self._span(meta)
        )

    def zone_scope(self, children: list[Token]) -> str:
        return " ".join(str(c) for c in children)

    def visibility(self, children: list[Token]) -> str:
        return str(children[0])

    def var_scope(self, children: list[Token]) -> str:
        return str(children[0])

    def unlisted(self, children: list[Token]) -> bool:
        return True

    @_with_meta
    def var_decl(
        self,
        meta: Any,
        scope: str | None,
        name: Token,
        type_: n.TypeRef | None,
        init: n.Expr,
        visibility: str | None,
        unlisted: bool | None,
    ) -> n.VarDecl:
        return n.VarDecl(
            scope=scope or "game",
            name=self._name(name),
            type=type_,
            init=init,
            visibility=visibility or "public",
            unlisted=bool(unlisted),
            span=self._span(meta),
        )

    @_with_meta
    def define_decl(
        self, meta: Any, name: Token, params: tuple[n.TypedParam, ...] | None, body: n.Expr
    ) -> n.DefineDecl:
        return n.DefineDecl(name=self._name(name), params=params or (), body=body, span=self._span(meta))

    @_with_meta
    def procedure_decl(
        self, meta: Any, name: Token, params: tuple[n.TypedParam, ...] | None, body: tuple[n.Stmt, ...]
    ) -> n.ProcedureDecl:
        return n.ProcedureDecl(name=self._name(name), params=params or (), body=body, span=self._span(meta))

    def param_list(self, children: list[n.TypedParam]) -> tuple[n.TypedParam, ...]:
        return tuple(children)

    @_with_meta
    def typed_param(self, meta: Any, name: Token, type_: n.TypeRef) -> n.TypedParam:
        return n.TypedParam(name=self._name(name), type=type_, span=self._span(meta))

    @_with_meta
    def trigger_decl(self, meta: Any, var: Token, zone: n.Expr, body: tuple[n.Stmt, ...]) -> n.TriggerDecl:
        owner = None
        if isinstance(zone, n.Attribute) and isinstance(zone.obj, n.Name):
            # `when cs enter p.hand`: p is not looked up but bound, to the zone's owner.
            owner = zone.obj.id
            end = zone.span.end
            width = len(zone.name)  # a NAME token ends the attribute, on one line
            start = Pos(end.line, end.col - width, end.offset - width)
            zone = n.Name(id=zone.name, span=Span(start, end))
        return n.TriggerDecl(var=self._name(var), zone=zone, body=body, owner=owner, span=self._span(meta))

    @_with_meta
    def setup_decl(self, meta: Any, body: tuple[n.Stmt, ...]) -> n.SetupDecl:
        return n.SetupDecl(body=body, span=self._span(meta))

    @_with_meta
    def phase_decl(self, meta: Any, name: Token, *items: n.Node) -> n.PhaseDecl:
        return n.PhaseDecl(name=self._name(name), items=tuple(items), span=self._span(meta))

    @_with_meta
    def auction_decl(self, meta: Any, name: Token, *items: n.Node) -> n.PhaseDecl:
        return n.PhaseDecl(name=self._name(name), items=tuple(items), is_auction=True, span=self._span(meta))

    @_with_meta
    def on_enter(self, meta: Any, body: tuple[n.Stmt, ...]) -> n.OnEnter:
        return n.OnEnter(body=body, span=self._span(meta))

    @_with_meta
    def won_handler(self, meta: Any, var: Token, body: tuple[n.Stmt, ...]) -> n.WonHandler:
        return n.WonHandler(var=self._name(var), body=body, span=self._span(meta))

    @_with_meta
    def unsold_handler(self, meta: Any, body: tuple[n.Stmt, ...]) -> n.UnsoldHandler:
        return n.UnsoldHandler(body=body, span=self._span(meta))

    @_with_meta
    def window_decl(self, meta: Any, name: Token, who: n.Expr, *items: n.Node) -> n.WindowDecl:
        return n.WindowDecl(name=self._name(name), who=who, items=tuple(items), span=self._span(meta))

    def _split_items(
        self, items: tuple[Any, ...]
    ) -> tuple[n.Expr | None, n.Expr | None, tuple[n.RequireClause, ...], tuple[n.Stmt, ...]]:
        found: dict[str, n.Expr] = {}
        requires: list[n.RequireClause] = []
        body: list[n.Stmt] = []
        for item in items:
            if isinstance(item, n.RequireClause):
                if body:
                    # A condition written after an effect would read as tested after it.
                    raise _fail(
                        self.source,
                        "E406",
                        "'require' after an effect: an action's conditions come before its effects",
                        item.span,
                        "they are tested before the action is taken: write the 'require' lines first",
                    )
                requires.append(item)
            elif isinstance(item, tuple) and item and item[0] in ("label", "strength"):
                kind, value, span = item
                if kind in found:
                    raise _fail(
                        self.source,
                        "E202",
                        f"a second '{kind}' in this action",
                        span,
                        f"an action has one {kind}; "
                        f"for a {kind} that depends on the choices, write 'if ... then ... else ...'",
                    )
                found[kind] = value
            else:
                body.append(item)
        return found.get("label"), found.get("strength"), tuple(requires), tuple(body)

    @_with_meta
    def action_decl(
        self,
        meta: Any,
        name: Token,
        choices: tuple[n.Choice, ...] | None,
        otherwise: Any,
        when: n.Expr | None,
        *items: Any,
    ) -> n.ActionDecl:
        label, strength, requires, body = self._split_items(items)
        return n.ActionDecl(
            name=self._name(name),
            choices=choices or (),
            when=when,
            requires=requires,
            label=label,
            strength=strength,
            body=body,
            otherwise=otherwise is not None,
            span=self._span(meta),
        )

    def otherwise(self, children: list[Any]) -> bool:
        return True

    @_with_meta
    def pass_decl(self, meta: Any, *items: Any) -> n.PassDecl:
        label, _strength, requires, body = self._split_items(items)
        if requires:
            raise _fail(
                self.source,
                "E406",
                "a pass has no conditions: 'require' belongs to an action",
                requires[0].span,
                "passing is always possible; move the condition to the action it is about",
            )
        return n.PassDecl(label=label, body=body, span=self._span(meta))

    @_with_meta
    def require_clause(self, meta: Any, cond: n.Expr, reason: n.Expr) -> n.RequireClause:
        return n.RequireClause(cond=cond, reason=reason, span=self._span(meta))

    @_with_meta
    def label_clause(self, meta: Any, value: n.Expr) -> tuple[str, n.Expr, Span]:
        return ("label", value, self._span(meta))

    @_with_meta
    def strength_clause(self, meta: Any, value: n.Expr) -> tuple[str, n.Expr, Span]:
        return ("strength", value, self._span(meta))

    def choice_list(self, children: list[n.Choice]) -> tuple[n.Choice, ...]:
        return tuple(children)

    @_with_meta
    def choice(self, meta: Any, name: Token, shape: n.ChoiceShape) -> n.Choice:
        return n.Choice(name=self._name(name), shape=shape, span=self._span(meta))

    @_with_meta
    def card_choice(self, meta: Any, pool: n.Expr, wild: str | None) -> n.CardChoice:
        return n.CardChoice(pool=pool, wild=wild, span=self._span(meta))

    @_with_meta
    def number_choice(self, meta: Any, low: n.Expr, high: n.Expr) -> n.NumberChoice:
        return n.NumberChoice(low=low, high=high, span=self._span(meta))

    @_with_meta
    def player_choice(self, meta: Any, pool: n.Expr) -> n.PlayerChoice:
        return n.PlayerChoice(pool=pool, span=self._span(meta))

    @_with_meta
    def value_choice(self, meta: Any, name: Token) -> n.ValueChoice:
        return n.ValueChoice(type_name=self._name(name), span=self._span(meta))

    @_with_meta
    def cards_choice(self, meta: Any, count: n.Expr | None, pool: n.Expr, wild: str | None) -> n.CardsChoice:
        return n.CardsChoice(count=count, pool=pool, wild=wild, span=self._span(meta))

    @_with_meta
    def same_choice(self, meta: Any, count: n.Expr | None, attr: Token, pool: n.Expr, wild: str | None) -> n.SameChoice:
        return n.SameChoice(count=count, attr=self._name(attr), pool=pool, wild=wild, span=self._span(meta))

    @_with_meta
    def valued_choice(
        self, meta: Any, count: n.Expr | None, attr: Token, value: n.Expr, pool: n.Expr, wild: str | None
    ) -> n.ValuedChoice:
        return n.ValuedChoice(
            count=count, attr=self._name(attr), value=value, pool=pool, wild=wild, span=self._span(meta)
        )

    @_with_meta
    def different_choice(
        self, meta: Any, count: n.Expr | None, attr: Token, pool: n.Expr, wild: str | None
    ) -> n.DifferentChoice:
        return n.DifferentChoice(count=count, attr=self._name(attr), pool=pool, wild=wild, span=self._span(meta))

    def wild(self, children: list[Token]) -> str:
        return self._name(children[0])

    @_with_meta
    def round_end_decl(self, meta: Any, body: tuple[n.Stmt, ...]) -> n.RoundEndDecl:
        return n.RoundEndDecl(body=body, span=self._span(meta))

    @_with_meta
    def require_decl(self, meta: Any, cond: n.Expr, message: Token) -> n.RequireDecl:
        return n.RequireDecl(cond=cond, message=self._template(message), span=self._span(meta))

    @_with_meta
    def label_decl(self, meta: Any, var: Token, text: n.Expr) -> n.LabelDecl:
        return n.LabelDecl(var=self._name(var), text=text, span=self._span(meta))

    @_with_meta
    def ranking_decl(self, meta: Any, *keys: n.RankingKey) -> n.RankingDecl:
        return n.RankingDecl(keys=tuple(keys), span=self._span(meta))

    @_with_meta
    def standing_decl(self, meta: Any, *keys: n.RankingKey) -> n.StandingDecl:
        return n.StandingDecl(keys=tuple(keys), span=self._span(meta))

    @_with_meta
    def highest_key(self, meta: Any, value: n.Expr) -> n.RankingKey:
        return n.RankingKey(order="highest", value=value, span=self._span(meta))

    @_with_meta
    def lowest_key(self, meta: Any, value: n.Expr) -> n.RankingKey:
        return n.RankingKey(order="lowest", value=value, span=self._span(meta))

    @_with_meta
    def finishing_key(self, meta: Any) -> n.RankingKey:
        return n.RankingKey(order="finishing", span=self._span(meta))

    # ------------------------------------------------------------- statements

    def block(self, children: list[n.Stmt]) -> tuple[n.Stmt, ...]:
        return tuple(children)

    @_with_meta
    def move_stmt(self, meta: Any, what: n.Expr, to: n.Expr, placement: str | None, facing: str | None) -> n.Move:
        return n.Move(what=what, to=to, placement=placement or "top", facing=facing, span=self._span(meta))

    def placement(self, children: list[Token]) -> str:
        return str(children[1])

    def facing(self, children: list[Token]) -> str:
        return str(children[1])

    @_with_meta
    def deal_stmt(
        self, meta: Any, count: n.Expr, source: n.Expr, target: Token, start: n.Expr | None, facing: str | None
    ) -> n.Deal:
        return n.Deal(
            count=count, source=source, target=self._name(target), start=start, facing=facing, span=self._span(meta)
        )

    @_with_meta
    def shuffle_stmt(self, meta: Any, zone: n.Expr) -> n.Shuffle:
        return n.Shuffle(zone=zone, span=self._span(meta))

    @_with_meta
    def cut_stmt(self, meta: Any, zone: n.Expr) -> n.Cut:
        return n.Cut(zone=zone, span=self._span(meta))

    @_with_meta
    def reveal_stmt(self, meta: Any, what: n.Expr) -> n.Reveal:
        return n.Reveal(what=what, span=self._span(meta))

    @_with_meta
    def turn_face_stmt(self, meta: Any, _turn: Token, way: Token, what: n.Expr) -> n.TurnFace:
        return n.TurnFace(up=str(way) == "up", what=what, span=self._span(meta))

    @_with_meta
    def let_stmt(self, meta: Any, name: Token, value: n.Expr) -> n.Let:
        return n.Let(name=self._name(name), value=value, span=self._span(meta))

    @_with_meta
    def set_stmt(self, meta: Any, target: n.Expr, value: n.Expr) -> n.SetStmt:
        return n.SetStmt(target=target, value=value, span=self._span(meta))

    @_with_meta
    def add_stmt(self, meta: Any, value: n.Expr, target: n.Expr) -> n.Add:
        return n.Add(value=value, target=target, span=self._span(meta))

    @_with_meta
    def subtract_stmt(self, meta: Any, value: n.Expr, target: n.Expr) -> n.Subtract:
        return n.Subtract(value=value, target=target, span=self._span(meta))

    @_with_meta
    def stop_stmt(self, meta: Any) -> n.Stop:
        return n.Stop(span=self._span(meta))

    @_with_meta
    def again_stmt(self, meta: Any) -> n.Again:
        return n.Again(span=self._span(meta))

    @_with_meta
    def end_turn_stmt(self, meta: Any) -> n.EndTurn:
        return n.EndTurn(span=self._span(meta))

    @_with_meta
    def end_round_stmt(self, meta: Any) -> n.EndRound:
        return n.EndRound(span=self._span(meta))

    @_with_meta
    def end_game_stmt(self, meta: Any, outcome: Any) -> n.EndGame:
        if outcome == "draw":
            return n.EndGame(draw=True, span=self._span(meta))
        if isinstance(outcome, tuple):
            return n.EndGame(winners=outcome[1], span=self._span(meta))
        return n.EndGame(winner=outcome, span=self._span(meta))

    @_with_meta
    def winner_outcome(self, meta: Any, player: n.Expr) -> n.Expr:
        return player

    @_with_meta
    def winners_outcome(self, meta: Any, players: n.Expr) -> tuple[str, n.Expr]:
        return ("winners", players)

    @_with_meta
    def draw_outcome(self, meta: Any) -> str:
        return "draw"

    @_with_meta
    def go_to_stmt(self, meta: Any, phase: Token, player: n.Expr | None) -> n.GoTo:
        return n.GoTo(phase=self._name(phase), player=player, span=self._span(meta))

    @_with_meta
    def open_stmt(self, meta: Any, window: Token) -> n.Open:
        return n.Open(window=self._name(window), span=self._span(meta))

    @_with_meta
    def reverse_stmt(self, meta: Any) -> n.Reverse:
        return n.Reverse(span=self._span(meta))

    @_with_meta
    def finish_stmt(self, meta: Any, player: n.Expr) -> n.Finish:
        return n.Finish(player=player, span=self._span(meta))

    @_with_meta
    def say_stmt(self, meta: Any, message: n.Expr) -> n.Say:
        return n.Say(message=message, span=self._span(meta))

    @_with_meta
    def call_stmt(self, meta: Any, name: Token, args: tuple[n.Expr, ...] | None) -> n.CallStmt:
        return n.CallStmt(name=self._name(name), args=args or (), span=self._span(meta))

    @_with_meta
    def if_stmt(self, meta: Any, cond: n.Expr, body: tuple[n.Stmt, ...], *rest: Any) -> n.If:
        branches = [(cond, body)]
        else_: tuple[n.Stmt, ...] = ()
        for item in rest:
            if item is None:
                continue
            if item[0] == "elif":
                branches.append((item[1], item[2]))
            else:
                else_ = item[1]
        return n.If(branches=tuple(branches), else_=else_, span=self._span(meta))

    def elif_clause(self, children: list[Any]) -> tuple[str, n.Expr, tuple[n.Stmt, ...]]:
        return ("elif", children[0], children[1])

    def else_clause(self, children: list[Any]) -> tuple[str, tuple[n.Stmt, ...]]:
        return ("else", children[0])

    @_with_meta
    def for_stmt(
        self, meta: Any, var: Token, iterable: n.Expr, where: n.Expr | None, body: tuple[n.Stmt, ...]
    ) -> n.ForEach:
        return n.ForEach(var=self._name(var), iterable=iterable, where=where, body=body, span=self._span(meta))

    @_with_meta
    def while_stmt(self, meta: Any, cond: n.Expr, body: tuple[n.Stmt, ...]) -> n.While:
        return n.While(cond=cond, body=body, span=self._span(meta))

    @_with_meta
    def repeat_stmt(self, meta: Any, count: n.Expr | None, body: tuple[n.Stmt, ...]) -> n.Repeat:
        return n.Repeat(count=count, body=body, span=self._span(meta))

    # ------------------------------------------------------------- expressions

    @_with_meta
    def if_expr(self, meta: Any, cond: n.Expr, then: n.Expr, else_: n.Expr) -> n.IfExpr:
        return n.IfExpr(cond=cond, then=then, else_=else_, span=self._span(meta))

    def _quantifier(self, kind: str, meta: Any, var: Token, iterable: n.Expr, cond: n.Expr) -> n.Quantifier:
        return n.Quantifier(kind=kind, var=self._name(var), iterable=iterable, cond=cond, span=self._span(meta))

    @_with_meta
    def any_expr(self, meta: Any, var: Token, iterable: n.Expr, cond: n.Expr) -> n.Quantifier:
        return self._quantifier("any", meta, var, iterable, cond)

    @_with_meta
    def no_expr(self, meta: Any, var: Token, iterable: n.Expr, cond: n.Expr) -> n.Quantifier:
        return self._quantifier("no", meta, var, iterable, cond)

    @_with_meta
    def every_expr(self, meta: Any, var: Token, iterable: n.Expr, cond: n.Expr) -> n.Quantifier:
        return self._quantifier("every", meta, var, iterable, cond)

    @_with_meta
    def count_expr(self, meta: Any, var: Token, iterable: n.Expr, where: n.Expr | None) -> n.Count:
        return n.Count(var=self._name(var), iterable=iterable, where=where, span=self._span(meta))

    @_with_meta
    def filter_expr(self, meta: Any, var: Token, iterable: n.Expr, where: n.Expr) -> n.Filter:
        return n.Filter(var=self._name(var), iterable=iterable, where=where, span=self._span(meta))

    @_with_meta
    def first_expr(self, meta: Any, var: Token, iterable: n.Expr, where: n.Expr) -> n.First:
        return n.First(var=self._name(var), iterable=iterable, where=where, span=self._span(meta))

    @_with_meta
    def topmost_expr(self, meta: Any, var: Token, iterable: n.Expr, where: n.Expr) -> n.Topmost:
        return n.Topmost(var=self._name(var), iterable=iterable, where=where, span=self._span(meta))

    @_with_meta
    def aggregate_expr(
        self, meta: Any, op: str, value: n.Expr, var: Token, iterable: n.Expr, where: n.Expr | None
    ) -> n.Aggregate:
        return n.Aggregate(
            op=op, value=value, var=self._name(var), iterable=iterable, where=where, span=self._span(meta)
        )

    def aggregate_op(self, children: list[Token]) -> str:
        return str(children[0])

    @_with_meta
    def best_expr(self, meta: Any, var: Token, iterable: n.Expr, op: str, key: n.Expr, where: n.Expr | None) -> n.Best:
        return n.Best(var=self._name(var), iterable=iterable, op=op, key=key, where=where, span=self._span(meta))

    def best_op(self, children: list[Token]) -> str:
        return str(children[0])

    @_with_meta
    def range_literal(self, meta: Any, low: n.Expr, high: n.Expr) -> n.RangeLiteral:
        return n.RangeLiteral(low=low, high=high, span=self._span(meta))

    @_with_meta
    def or_op(self, meta: Any, left: n.Expr, right: n.Expr) -> n.BoolOp:
        return n.BoolOp(op="or", left=left, right=right, span=self._span(meta))

    @_with_meta
    def and_op(self, meta: Any, left: n.Expr, right: n.Expr) -> n.BoolOp:
        return n.BoolOp(op="and", left=left, right=right, span=self._span(meta))

    @_with_meta
    def not_op(self, meta: Any, operand: n.Expr) -> n.Not:
        return n.Not(operand=operand, span=self._span(meta))

    @_with_meta
    def compare(self, meta: Any, left: n.Expr, op: Token, right: n.Expr) -> n.Compare:
        return n.Compare(op=str(op), left=left, right=right, span=self._span(meta))

    @_with_meta
    def member(self, meta: Any, element: n.Expr, collection: n.Expr) -> n.Member:
        return n.Member(element=element, collection=collection, span=self._span(meta))

    @_with_meta
    def not_member(self, meta: Any, element: n.Expr, collection: n.Expr) -> n.Member:
        return n.Member(element=element, collection=collection, negated=True, span=self._span(meta))

    @_with_meta
    def overlaps(self, meta: Any, left: n.Expr, right: n.Expr) -> n.Overlaps:
        return n.Overlaps(left=left, right=right, span=self._span(meta))

    @_with_meta
    def is_empty(self, meta: Any, operand: n.Expr) -> n.IsEmpty:
        return n.IsEmpty(operand=operand, span=self._span(meta))

    @_with_meta
    def is_not_empty(self, meta: Any, operand: n.Expr) -> n.IsEmpty:
        return n.IsEmpty(operand=operand, negated=True, span=self._span(meta))

    @_with_meta
    def is_out(self, meta: Any, operand: n.Expr) -> n.IsOut:
        return n.IsOut(operand=operand, span=self._span(meta))

    @_with_meta
    def is_not_out(self, meta: Any, operand: n.Expr) -> n.IsOut:
        return n.IsOut(operand=operand, negated=True, span=self._span(meta))

    @_with_meta
    def is_named(self, meta: Any, operand: n.Expr, name: Token) -> n.IsNamed:
        return n.IsNamed(operand=operand, card_name=self._string(name), span=self._span(meta))

    @_with_meta
    def is_not_named(self, meta: Any, operand: n.Expr, name: Token) -> n.IsNamed:
        return n.IsNamed(operand=operand, card_name=self._string(name), negated=True, span=self._span(meta))

    @_with_meta
    def arith(self, meta: Any, left: n.Expr, op: Token, right: n.Expr) -> n.Arith:
        return n.Arith(op=str(op), left=left, right=right, span=self._span(meta))

    @_with_meta
    def negate(self, meta: Any, operand: n.Expr) -> n.Negate:
        return n.Negate(operand=operand, span=self._span(meta))

    @_with_meta
    def attribute(self, meta: Any, obj: n.Expr, name: Token) -> n.Attribute:
        return n.Attribute(obj=obj, name=self._name(name), span=self._span(meta))

    @_with_meta
    def number(self, meta: Any, token: Token) -> n.Number:
        return n.Number(value=self._int(token), span=self._span(meta))

    @_with_meta
    def text(self, meta: Any, token: Token) -> n.Text:
        return self._template(token)

    @_with_meta
    def yes(self, meta: Any) -> n.BoolLit:
        return n.BoolLit(value=True, span=self._span(meta))

    @_with_meta
    def no(self, meta: Any) -> n.BoolLit:
        return n.BoolLit(value=False, span=self._span(meta))

    @_with_meta
    def none(self, meta: Any) -> n.NoneLit:
        return n.NoneLit(span=self._span(meta))

    @_with_meta
    def name(self, meta: Any, token: Token) -> n.Name:
        return n.Name(id=self._name(token), span=self._span(meta))

    @_with_meta
    def call(self, meta: Any, name: Token, args: tuple[n.Expr, ...]) -> n.Call:
        return n.Call(name=self._name(name), args=args, span=self._span(meta))

    def arg_list(self, children: list[n.Expr | None]) -> tuple[n.Expr, ...]:
        return tuple(c for c in children if c is not None)

    @_with_meta
    def tuple_literal(self, meta: Any, *items: n.Expr) -> n.TupleLiteral:
        return n.TupleLiteral(items=tuple(items), span=self._span(meta))

    @_with_meta
    def set_literal(self, meta: Any, *items: n.Expr | None) -> n.SetLiteral:
        return n.SetLiteral(items=tuple(i for i in items if i is not None), span=self._span(meta))

    @_with_meta
    def top_of(self, meta: Any, zone: n.Expr) -> n.TopOf:
        return n.TopOf(zone=zone, span=self._span(meta))

    @_with_meta
    def top_n_of(self, meta: Any, count: n.Expr, zone: n.Expr) -> n.TopOf:
        return n.TopOf(zone=zone, count=count, span=self._span(meta))

    @_with_meta
    def bottom_of(self, meta: Any, zone: n.Expr) -> n.BottomOf:
        return n.BottomOf(zone=zone, span=self._span(meta))

    @_with_meta
    def bottom_n_of(self, meta: Any, count: n.Expr, zone: n.Expr) -> n.BottomOf:
        return n.BottomOf(zone=zone, count=count, span=self._span(meta))

    @_with_meta
    def all_of(self, meta: Any, zone: n.Expr) -> n.AllOf:
        return n.AllOf(zone=zone, span=self._span(meta))

    @_with_meta
    def all_but_top(self, meta: Any, count: n.Expr, zone: n.Expr) -> n.AllButTop:
        return n.AllButTop(count=count, zone=zone, span=self._span(meta))

    @_with_meta
    def size_of(self, meta: Any, operand: n.Expr) -> n.SizeOf:
        return n.SizeOf(operand=operand, span=self._span(meta))

    @_with_meta
    def position_of(self, meta: Any, operand: n.Expr) -> n.PositionOf:
        return n.PositionOf(operand=operand, span=self._span(meta))

    @_with_meta
    def run_of(self, meta: Any, zone: n.Expr, key: Token) -> n.RunOf:
        return n.RunOf(zone=zone, key=self._name(key), span=self._span(meta))

    @_with_meta
    def every_card(self, meta: Any) -> n.EveryCard:
        return n.EveryCard(span=self._span(meta))

    @_with_meta
    def acting_player(self, meta: Any) -> n.ActingPlayer:
        return n.ActingPlayer(span=self._span(meta))

    @_with_meta
    def player_after(self, meta: Any, player: n.Expr) -> n.PlayerStep:
        return n.PlayerStep(player=player, step=1, span=self._span(meta))

    @_with_meta
    def player_before(self, meta: Any, player: n.Expr) -> n.PlayerStep:
        return n.PlayerStep(player=player, step=-1, span=self._span(meta))

    @_with_meta
    def all_players(self, meta: Any) -> n.AllPlayers:
        return n.AllPlayers(span=self._span(meta))

    @_with_meta
    def players_after(self, meta: Any, player: n.Expr) -> n.PlayersAfter:
        return n.PlayersAfter(player=player, span=self._span(meta))

    @_with_meta
    def players_starting(self, meta: Any, player: n.Expr) -> n.PlayersStarting:
        return n.PlayersStarting(player=player, span=self._span(meta))

    @_with_meta
    def left_of(self, meta: Any, player: n.Expr) -> n.Neighbour:
        return n.Neighbour(side="left", player=player, span=self._span(meta))

    @_with_meta
    def right_of(self, meta: Any, player: n.Expr) -> n.Neighbour:
        return n.Neighbour(side="right", player=player, span=self._span(meta))

    @_with_meta
    def seat(self, meta: Any, index: n.Expr) -> n.Seat:
        return n.Seat(index=index, span=self._span(meta))
