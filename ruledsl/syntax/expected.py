"""What may come next at a place in a rule file, as the grammar says: which keywords, and whether a name may."""

from __future__ import annotations

import copy

from attrs import frozen
from lark import Token
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken

from ruledsl.syntax.grammar import grammar, keyword_of

#: A character no terminal of the grammar matches: the parser stops on it and says what it expected there.
_PROBE = "\x01"


@frozen
class Expected:
    """The keywords the grammar accepts next, and whether a name is accepted too."""

    keywords: frozenset[str]
    names: bool


def expected_keywords(before: str) -> Expected | None:
    """Return what the grammar expects after the text ``before``; None if the text before has a syntax error."""
    try:
        grammar().parse(before + _PROBE, start="game_file")
    except UnexpectedCharacters as exc:
        if exc.pos_in_stream != len(before):
            return None
        return _expected(_accepted(exc) or exc.allowed or set())
    except UnexpectedToken as exc:
        if exc.token.start_pos is not None and exc.token.start_pos < len(before.rstrip()):
            return None
        return _expected(_accepted(exc) or exc.accepts or exc.expected)
    except UnexpectedInput:
        return None
    return None


def _accepted(exc: UnexpectedInput) -> set[str]:
    """The terminals the parser's state accepts: each tried on a copy of the state, through every reduction.

    A state of the parse table also lists terminals it would only reduce on (LALR merges
    lookaheads); feeding each to a copy weeds those out, as Lark's ``accepts()`` does.
    """
    state = getattr(exc, "state", None)
    try:
        table = state.parse_conf.parse_table.states[state.position]  # type: ignore[union-attr]
    except (AttributeError, KeyError):
        return set()
    accepted = set()
    for name in table:
        if not name.isupper():
            continue  # a rule, not a terminal
        trial = copy.copy(state)
        try:
            trial.feed_token(Token(name, ""))  # type: ignore[union-attr]
        except UnexpectedToken:
            continue
        accepted.add(name)
    return accepted


def _expected(terminals: set[str]) -> Expected:
    words = frozenset(word for word in (keyword_of(name) for name in terminals) if word is not None)
    return Expected(words, "NAME" in terminals)
