"""Name a syntax error: turn Lark's exception into the Diagnostic a user reads."""

from __future__ import annotations

import difflib
import functools
import re
from typing import Any, cast

from lark import Token, Tree, UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from ruledsl.syntax.grammar import grammar, keyword_of, keywords
from ruledsl.syntax.mistakes import (
    COLON,
    QUANTIFIERS,
    SYNTAX_MESSAGES,
    first_on_line,
    known_mistake,
    last_read,
    missing_word,
    parse_stack,
    stray_else,
)
from ruledsl.syntax.spans import line_span, token_span
from ruledsl.text.errors import Diagnostic
from ruledsl.text.source import Pos, Source, Span

#: Words of other languages that start a line where ruledsl has its own: (what to write, where).
_FOREIGN_STATEMENTS: dict[str, str] = {
    "elif": "write 'else if', indented like its 'if'",
    "elsif": "write 'else if', indented like its 'if'",
    "elseif": "write 'else if', indented like its 'if'",
}

#: Operators of other languages, and what ruledsl writes instead.
_FOREIGN_OPERATORS: dict[str, str] = {"&": "write 'and'", "|": "write 'or'", "!": "write 'not', or '!=' to compare"}


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


def describe_expected(expected: set[str]) -> str:
    """Return how the terminals the parser expected read in a hint: "a name, 'to' or 'from'"."""
    by_name = {t.name: t for t in grammar().terminals}
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


def syntax_diagnostic(source: Source, text: str, exc: UnexpectedInput, start: str) -> Diagnostic:
    """Return the diagnostic that names a syntax error: a known mistake if it is one, else what was expected.

    ``text`` is what was parsed (line ends made ``\\n``); ``start`` is the grammar's start symbol.
    """
    line = max(1, getattr(exc, "line", 1) or 1)
    column = max(1, getattr(exc, "column", 1) or 1)
    if isinstance(exc, UnexpectedCharacters):
        return _character_diagnostic(source, text, exc, line, column)

    token: Token | None = getattr(exc, "token", None)
    if start == "game_file" and not _has_content(text):
        _, message, hint = SYNTAX_MESSAGES["E111"]
        return Diagnostic("E111", message, Span(Pos(1, 1, 0), Pos(1, 2, 0)), hint, source=source)
    if isinstance(exc, UnexpectedEOF) or (token is not None and token.type == "$END"):
        last = source.line_count if source.text.endswith("\n") else max(1, source.line_count)
        return Diagnostic(
            "E107",
            "unexpected end of the file",
            line_span(source, min(line, last) if token is None else last),
            "a bracket or a block may be left open",
            source=source,
        )

    assert isinstance(exc, UnexpectedToken) and token is not None
    span = _error_span(source, token, line)
    if start == "game_file":
        mistake = _mistake_in_file(source, exc, span, line)
        if mistake is not None:
            return mistake
    return _token_diagnostic(source, text, exc, span, line)


def _character_diagnostic(source: Source, text: str, exc: UnexpectedCharacters, line: int, column: int) -> Diagnostic:
    """Name a character the lexer could not read: an unclosed string, or a character of no token."""
    pos = exc.pos_in_stream
    assert pos is not None  # the lexer always says where it stopped
    char = text[pos] if pos < len(text) else ""
    span = Span(Pos(line, column, pos), Pos(line, column + 1, pos + 1))
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


def _error_span(source: Source, token: Token, line: int) -> Span:
    """Return where to point for a token the parser could not take."""
    if token.type == "_INDENT":
        # The indent borrows the position of the new line before it; point at the indented line.
        return line_span(source, token.end_line or token.line or line)
    if token.type == "_DEDENT":
        # Point at the end of the offending line rather than at the next one.
        return line_span(source, token.line or line)
    if token.type == "_NL":
        end = len(source.line_text(token.line or line)) + 1
        return Span(Pos(token.line or line, end, token.start_pos or 0), Pos(token.line or line, end + 1, 0))
    return token_span(source, token)


def _mistake_in_file(source: Source, exc: UnexpectedToken, span: Span, line: int) -> Diagnostic | None:
    """Name a mistake in a rule file from its parser state and its words, or return None."""
    token = exc.token
    expected = set(exc.expected)
    label = known_mistake(exc)
    orphan = stray_else(source, exc) if label is None else None
    if orphan is not None:
        label, span = "else", token_span(source, orphan)
    if label is None and token.type == "_NL" and COLON in expected:
        label = "E103"  # a line that opens a block ends with ':'
    elif label is None and token.type != "_INDENT" and ("_INDENT" in expected or _after_block_opener(source, exc)):
        label = "E109"  # after ':' and a new line, the block's lines are indented
    if label is not None:
        return _labelled(source, exc, label, span, line)
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
    missing = missing_word(exc)
    if missing is not None:
        word, shape = missing
        return Diagnostic(
            "E101", f"expected '{word}' before {_describe_token(token)}", span, f"write '{shape}'", source=source
        )
    return None


def _labelled(source: Source, exc: UnexpectedToken, label: str, span: Span, line: int) -> Diagnostic:
    """Return the diagnostic of a known mistake, with its hint and span fitted to this occurrence."""
    token = exc.token
    code, message, hint = SYNTAX_MESSAGES[label]
    if label == "change-var":
        name = _changed_name(source, token)
        hint = f"write: set {name} = …, add 1 to {name}, or subtract 1 from {name}"
    last = last_read(exc)
    if label == "require-place" and isinstance(last, Token) and last.type == "NAME":
        span = token_span(source, last)  # the parser failed at the word after it
    if label == "deck-loop":
        # The parser fails after 'for'; point at the loop itself.
        line_no = token.line or line
        text_line = source.line_text(line_no)
        start = len(text_line) - len(text_line.lstrip()) + 1
        span = Span(Pos(line_no, start, 0), Pos(line_no, start + len("for"), 0))
    return Diagnostic(code, message, span, hint, source=source)


def _token_diagnostic(source: Source, text: str, exc: UnexpectedToken, span: Span, line: int) -> Diagnostic:
    """Name an unexpected token that is no known mistake: a bare keyword, a chained comparison, or what was expected."""
    token = exc.token
    if token.type == "_NL":
        # A line that is one bare keyword: most often a procedure named like a statement.
        words = source.line_text(token.line or line).split("#", 1)[0].split()
        if len(words) == 1 and words[0] in keywords():
            word = words[0]
            return Diagnostic(
                "E106",
                f"'{word}' is a keyword of the language: alone on a line it is an unfinished statement",
                line_span(source, token.line or line),
                f"to run a procedure, give it another name than '{word}'",
                source=source,
            )
    chained = _chained_comparison(source, text, exc)
    if chained is not None:
        return chained
    if token.type != "NAME" and token.value in keywords() and "NAME" in exc.expected:
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
        f"expected {describe_expected(set(exc.expected))}",
        source=source,
    )


def _chained_comparison(source: Source, text: str, exc: UnexpectedToken) -> Diagnostic | None:
    """Report a second comparison right after a first (`a == b == c`), or None.

    Comparisons do not chain. Inside the condition of a quantifier (`count c in hand where
    c.rank == r == 4`) the second one was most likely meant for the quantifier's value:
    that is E115, with the quantifier in parentheses.
    """
    stack = parse_stack(exc)
    token = exc.token
    test = _test_operator(stack) if token.type == "COMPARE" else None
    if test is None:
        return None
    span = token_span(source, token)
    rest = _operand_after(text, token.end_pos or 0)
    # The innermost quantifier still open, unless a bracket opened after it.
    for value in reversed(stack[:test]):
        if isinstance(value, Token) and value.type in ("_NL", "_INDENT", "_DEDENT", COLON, "LPAR", "LBRACE"):
            break
        if isinstance(value, Tree) and value.data == "aggregate_op":
            opener = cast(Token, value.children[0])  # the aggregate's keyword
        elif isinstance(value, Token) and value.type != "NAME" and str(value) in QUANTIFIERS:
            opener = value
        else:
            continue
        inner = text[opener.start_pos or 0 : token.start_pos or 0].strip()
        code, message, _ = SYNTAX_MESSAGES["E115"]
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
    before = last_read(exc)
    if token.type == "NAME" and "NAME" not in exc.expected and first_on_line(source, token):
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
    if str(word) in keywords() or not first_on_line(source, word) or _declares(source.text, str(word)):
        return None
    statements, others = _line_words()
    if str(word) in _FOREIGN_STATEMENTS and "if" in map(keyword_of, starters):
        return Diagnostic(
            "E101",
            f"unknown statement '{word}'",
            token_span(source, word),
            _FOREIGN_STATEMENTS[str(word)],
            source=source,
        )
    candidates = {k for k in map(keyword_of, starters) if k in statements or k in others}
    # Every keyword as close as the closest: 'lte' is as near 'let' as 'set'.
    scores = {k: difflib.SequenceMatcher(None, str(word), k).ratio() for k in candidates}
    best = max(scores.values(), default=0.0)
    if best < 0.6:
        return None
    close = sorted(k for k, score in scores.items() if score == best)
    kind = "statement" if close[0] in statements else "declaration"
    return Diagnostic(
        "E101",
        f"unknown {kind} '{word}'",
        token_span(source, word),
        "did you mean " + " or ".join(f"'{k}'" for k in close) + "?",
        source=source,
    )


@functools.cache
def _line_words() -> tuple[frozenset[str], frozenset[str]]:
    """Return the keywords that start a statement ('move', 'label'...) and the other keywords
    that start a line: a declaration, a phase's or a deck's item, the header ('phase', 'card'...).
    """
    rules = grammar().rules
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
                    elif (word := keyword_of(first.name)) is not None:
                        words.add(word)
        return frozenset(words)

    statements = first_words("action_item")
    others = first_words("game_header", "decl", "phase_item", "window_item", "deck_entry") - statements
    return statements, others


def _declares(text: str, name: str) -> bool:
    """Whether the file declares this name (a procedure, a definition, a zone...)."""
    kinds = "to|define|zone|(?:player |card )?var|values|option|card|phase|auction|window|action"
    pattern = rf"^[ \t]*(?:{kinds})[ \t]+{re.escape(name)}\b"
    return re.search(pattern, text, re.MULTILINE) is not None


def _has_content(text: str) -> bool:
    """Whether a file holds anything but blank lines and comments."""
    return any(line.strip() and not line.strip().startswith("#") for line in text.split("\n"))


def dedent_diagnostic(source: Source, text: str) -> Diagnostic:
    """Return the diagnostic of a line whose indentation matches no enclosing block (Lark's DedentError)."""
    return Diagnostic(
        "E104",
        "this line's indentation matches no enclosing block",
        line_span(source, _dedent_line(text)),
        "indent a block's lines alike, with spaces (a tab counts as 8 columns)",
        source=source,
    )


def _dedent_line(text: str) -> int:
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
