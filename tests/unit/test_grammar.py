"""Grammar tests: the LALR tables build without conflicts, and reserved words are keywords."""

from __future__ import annotations

import re

import interegular  # noqa: F401  (Lark's strict=True needs it; a missing one must fail, not skip)
import pytest
from lark import Lark
from lark.exceptions import GrammarError

from ruledsl.analysis.context import RESERVED
from ruledsl.resources import grammar_path
from ruledsl.syntax.grammar import BlockIndenter, grammar

GRAMMAR = grammar_path().read_text(encoding="utf-8")


def _strict(text: str, **options: object) -> Lark:
    return Lark(text, parser="lalr", lexer="contextual", strict=True, maybe_placeholders=True, **options)


def _keywords_of(text: str) -> set[str]:
    """The quoted words of a grammar (outside its comments): its keywords."""
    code = re.sub(r"//[^\n]*", "", text)
    return set(re.findall(r'"([^\W\d]\w*)"', code))


def test_grammar_builds_with_strict() -> None:
    # strict=True turns every shift/reduce conflict (and every terminal collision) into an error.
    parser = _strict(GRAMMAR, postlex=BlockIndenter(), start=["game_file", "expr"], propagate_positions=True)
    assert parser.parse("1 + 2", start="expr").data == "arith"


def test_strict_does_reject_a_conflict() -> None:
    # The check above means something: the dangling 'else' is a shift/reduce conflict.
    ambiguous = """
        start: stmt
        stmt: "if" NAME "then" stmt ["else" stmt] | NAME
        NAME: /[a-z]+/
        %ignore " "
    """
    with pytest.raises(GrammarError, match="Shift/Reduce"):
        _strict(ambiguous)


def test_parser_uses_the_grammar_file() -> None:
    assert {t.pattern.value for t in grammar().terminals if t.pattern.type == "str"} >= _keywords_of(GRAMMAR)


def test_every_reserved_word_is_a_keyword_of_the_grammar() -> None:
    assert sorted(RESERVED - _keywords_of(GRAMMAR)) == []


def test_keyword_scan_finds_keywords() -> None:
    # Guard for the test above: the scan sees quoted words, and only those.
    assert {"move", "satisfies", "overlaps", "game"} <= _keywords_of(GRAMMAR)
    assert "NAME" not in _keywords_of(GRAMMAR) and "expr" not in _keywords_of(GRAMMAR)
    assert len(RESERVED) > 50
