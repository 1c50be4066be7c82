"""The Pygments lexer colours every shipped game without an error token, and every keyword of the grammar as one."""

from __future__ import annotations

from pathlib import Path

import pytest

from ruledsl.resources import bundled_games, example_games
from ruledsl.syntax.grammar import keywords
from tests.extras import require

pygments = require("pygments", "docs")
from pygments.lexers import get_lexer_by_name, get_lexer_for_filename  # noqa: E402
from pygments.token import Error, Keyword, Name, String, Token  # noqa: E402

from ruledsl.format.lexer import RuleDslLexer  # noqa: E402

SHIPPED = sorted([*bundled_games().values(), *example_games().values()])


def tokens(text: str) -> list[tuple[object, str]]:
    return [(kind, value) for kind, value in RuleDslLexer().get_tokens(text) if value.strip()]  # blanks left out


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_a_shipped_game_lexes_without_an_error_token(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    errors = [value for kind, value in RuleDslLexer().get_tokens(text) if kind in Error]
    assert errors == []


def test_there_are_shipped_games() -> None:
    assert len(SHIPPED) >= 10


@pytest.mark.parametrize("word", sorted(keywords()))
def test_every_keyword_of_the_grammar_is_coloured_as_a_keyword(word: str) -> None:
    ((kind, value),) = tokens(word)
    assert value == word and kind in Keyword


def test_names_values_and_text_with_expressions() -> None:
    found = tokens('label "play {c.rank} {{x}}" # why\nset named = none')
    assert found == [
        (Keyword, "label"),
        (String.Double, '"'),
        (String.Double, "play "),
        (String.Interpol, "{"),
        (Name, "c"),
        (Token.Punctuation, "."),
        (Name, "rank"),
        (String.Interpol, "}"),
        (String.Escape, "{{"),
        (String.Double, "x"),
        (String.Escape, "}}"),
        (String.Double, '"'),
        (Token.Comment.Single, "# why"),
        (Keyword, "set"),
        (Name, "named"),
        (Token.Operator, "="),
        (Keyword.Constant, "none"),
    ]


def test_text_left_open_at_the_end_of_its_line_is_an_error() -> None:
    assert (Error, "\n") in list(RuleDslLexer().get_tokens('say "no end\nmove'))


def test_pygments_finds_the_lexer_by_alias_and_file_name() -> None:
    # The entry point in pyproject.toml: docs' ```game blocks and `pygmentize x.game` use it.
    assert type(get_lexer_by_name("game")) is RuleDslLexer
    assert type(get_lexer_by_name("ruledsl")) is RuleDslLexer
    assert type(get_lexer_for_filename("crazy_eights.game")) is RuleDslLexer


def test_a_declaration_colours_the_name_it_declares() -> None:
    found = tokens("phase play:\n    action place(c: card from hand):\n        move c to hand\nto go_out:\n")
    declared = [value for kind, value in found if kind is Name.Function]
    assert declared == ["play", "place", "go_out"]
    # a keyword after 'when' ('when won by w:') stays a keyword
    assert (Keyword, "won") in tokens("    when won by w: go to paying with w\n")
