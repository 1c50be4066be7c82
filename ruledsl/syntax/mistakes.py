"""Recognise common syntax mistakes from the parser's state and the words around the error."""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Iterator
from typing import Any

from lark import Token, Tree, UnexpectedInput, UnexpectedToken
from lark.indenter import DedentError

from ruledsl.resources import keyword_meanings
from ruledsl.syntax.grammar import grammar, keyword_of, keywords
from ruledsl.text.source import Source

# Common mistakes, each written as complete failing inputs; Lark's match_examples picks
# the one whose parser state matches the real error (Lark's error_reporting_lalr example).
# The keys are labels of SYNTAX_MESSAGES.
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

SYNTAX_MESSAGES: dict[str, tuple[str, str, str | None]] = {
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
    # The hint names the variable: see syntax_diagnostic.
    "change-var": ("E101", "a variable changes with 'set', 'add' or 'subtract'", None),
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
                grammar().parse(example, start="game_file")
            except UnexpectedToken as exc:
                if exc.state is not None:
                    by_word = signatures.setdefault((exc.state.position, exc.token.type), {})
                    by_word.setdefault(_word_before(exc), label)
            except (UnexpectedInput, DedentError):
                pass
    return signatures


def parse_stack(exc: UnexpectedToken) -> list[Any]:
    """What the parser had read when it failed: tokens, and subtrees of the rules it finished."""
    return exc.state.value_stack if exc.state is not None else []


def last_read(exc: UnexpectedToken) -> Any:
    """The token or subtree read just before the failing token, or None."""
    stack = parse_stack(exc)
    return stack[-1] if stack else None


def _word_before(exc: UnexpectedToken) -> str | None:
    """Return the keyword just before the failing token (even when read as a name), or None."""
    before = last_read(exc)
    if isinstance(before, Token) and str(before) in keywords():
        return str(before)
    return None


def known_mistake(exc: UnexpectedInput) -> str | None:
    """Return the label (a key of SYNTAX_MESSAGES) of the sample mistake this error matches, or None."""
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
    token, stack = exc.token, parse_stack(exc)
    last = stack[-1] if stack else None
    before = stack[-2] if len(stack) > 1 else None
    if _is_keyword(token, "require") or (isinstance(last, Token) and last.type == "NAME" and last == "require"):
        return "require-place"  # a keyword where statements go; read as a procedure's name among them
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
    last = last_read(exc)
    if not (isinstance(last, Tree) and exc.token.type != "NAME" and str(exc.token).isidentifier()):
        return False
    word = next(_tokens(last, reverse=True), None)
    return word is not None and word.type == "NAME" and str(word) in QUANTIFIERS


def _tokens(tree: Tree, reverse: bool = False) -> Iterator[Token]:
    """The tokens of a tree in order (last first with ``reverse``), without recursion: the tree
    of a file that fails to parse may nest deeper than Python's stack (its depth is checked
    only once it parses)."""
    stack: list[Any] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, Tree):
            stack.extend(node.children if reverse else reversed(node.children))
        elif isinstance(node, Token):
            yield node


def _is_keyword(value: object, word: str) -> bool:
    """Whether a value on the parser's stack is this keyword, read as the keyword."""
    return isinstance(value, Token) and value.type != "NAME" and str(value) == word


#: The keywords that open a quantifier or an aggregate, which reads to the end of the expression.
QUANTIFIERS = frozenset(
    {"any", "no", "every", "count", "cards", "first", "topmost", "highest", "lowest", "total", "distinct", "the"}
)


#: The terminal Lark names ':' (an anonymous string terminal).
COLON = "COLON"


@functools.cache
def statement_shapes() -> dict[str, tuple[tuple[str, ...], str]]:
    """The words that join the parts of a statement, in order, and how the statement is written, by its keyword.

    The words are the grammar's (a statement's shortest form: each keyword after an expression,
    'deal N from ZONE to each ZONE' gives 'from', 'to'); the shape is keywords.md's (its first
    code, without the parts in brackets).
    """
    shortest: dict[str, list[Any]] = {}
    for rule in grammar().rules:
        if rule.origin.name.endswith("_stmt") and rule.expansion and keyword_of(rule.expansion[0].name):
            known = shortest.get(rule.origin.name)
            if known is None or len(rule.expansion) < len(known):
                shortest[rule.origin.name] = list(rule.expansion)
    shapes = {}
    for expansion in shortest.values():
        opener = keyword_of(expansion[0].name)
        words = tuple(
            word
            for before, symbol in itertools.pairwise(expansion)
            for word in [keyword_of(symbol.name)]
            if word is not None and not before.is_term
        )
        meaning = keyword_meanings().get(opener or "", "")
        written = re.match(r"`([^`]+)`", meaning)
        if opener and words and written:
            shapes[opener] = (words, re.sub(r" \[[^]]*\]", "", written[1]))
    return shapes


def missing_word(exc: UnexpectedToken) -> tuple[str, str] | None:
    """Return the joining word ('to', 'from') a statement lacks where it failed, and its shape."""
    if exc.token.type in ("_NL", "_INDENT", "_DEDENT", "$END"):
        return None
    values = _statement_values(exc)
    # Statements that came before in the block are subtrees; the open one is still tokens.
    starts = [i for i, v in enumerate(values) if any(_is_keyword(v, opener) for opener in statement_shapes())]
    if not starts:
        return None
    words, shape = statement_shapes()[str(values[starts[-1]])]
    rest = values[starts[-1] + 1 :]
    missing = next((w for w in words if not any(_is_keyword(v, w) for v in rest)), None)
    if missing is None or str(exc.token) == missing or missing not in map(keyword_of, exc.expected):
        return None
    return missing, shape


def stray_else(source: Source, exc: UnexpectedToken) -> Token | None:
    """Return the 'else' that starts the failing line if it has no 'if' to continue, or None.

    Wherever an 'else' cannot continue an 'if', the parser reads it as the keyword and fails
    at it, or, where a line may start with a name, as a name and fails just after it.
    """
    if str(exc.token) == "else" and first_on_line(source, exc.token):
        return exc.token
    first = last_read(exc)
    if isinstance(first, Tree):
        first = next(_tokens(first), None)
    if isinstance(first, Token) and first.type == "NAME" and str(first) == "else" and first_on_line(source, first):
        return first
    return None


def _statement_values(exc: UnexpectedToken) -> list[Any]:
    """Return what the parser has read of the failing statement: its tokens and subtrees.

    A statement starts after a new line, an indent or a dedent, or after the ':' of a
    block written on one line.
    """
    stack = parse_stack(exc)
    start = len(stack)
    while start > 0:
        value = stack[start - 1]
        if isinstance(value, Token) and value.type in ("_NL", "_INDENT", "_DEDENT", COLON):
            break
        start -= 1
    return list(stack[start:])


def first_on_line(source: Source, token: Token) -> bool:
    """Whether only blanks stand before the token on its line."""
    return not source.line_text(token.line or 1)[: max(0, (token.column or 1) - 1)].strip()
