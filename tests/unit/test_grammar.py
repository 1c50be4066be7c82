"""Grammar tests: the LALR tables build without conflicts, and reserved words are keywords."""

from __future__ import annotations

import os
import pickle
import re
import stat
from pathlib import Path

import interegular  # noqa: F401  (Lark's strict=True needs it; a missing one must fail, not skip)
import pytest
from lark import Lark
from lark.exceptions import GrammarError

from ruledsl.resources import grammar_path
from ruledsl.syntax.grammar import BlockIndenter, grammar, name_keywords, reserved_words, statement_keywords

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
    assert sorted(reserved_words() - _keywords_of(GRAMMAR)) == []


def test_keyword_scan_finds_keywords() -> None:
    # Guard for the test above: the scan sees quoted words, and only those.
    assert {"move", "satisfies", "overlaps", "game"} <= _keywords_of(GRAMMAR)
    assert "NAME" not in _keywords_of(GRAMMAR) and "expr" not in _keywords_of(GRAMMAR)


def test_the_reserved_words_are_those_the_parser_would_read_as_keywords_where_a_name_is_read() -> None:
    # Derived from the parse table (issue 37): a word opening an expression cannot name anything...
    assert {"size", "every", "the", "any", "player", "yes"} <= reserved_words()
    # ...but a word of card games the grammar also takes as a name may, and so may words that
    # never open an expression (statements' words, words that follow an expression).
    assert name_keywords() == {"count", "top", "run", "card"}
    assert not reserved_words() & {"count", "top", "run", "draw", "strength", "move", "and", "where", "then"}


def test_a_procedure_may_not_take_a_word_that_can_open_a_line() -> None:
    assert {"move", "strength", "deck", "pass", "label", "require"} <= statement_keywords()
    assert not statement_keywords() & {"count", "top", "run", "draw", "where"}


def test_every_keyword_opening_a_statement_or_a_declaration_has_its_meaning_in_keywords_md() -> None:
    # ruledsl/lsp/keywords.md: the language server's hover, docs/language.md section 11, and
    # the shape a syntax error's hint quotes ('write \'move CARDS to ZONE\'').
    from ruledsl.resources import keyword_meanings
    from ruledsl.syntax.grammar import keyword_of

    openers = {
        keyword_of(rule.expansion[0].name)
        for rule in grammar().rules
        if rule.expansion and rule.origin.name.endswith(("_stmt", "_decl"))
    } - {None}
    assert {"move", "deal", "zone", "phase"} <= openers
    assert sorted(openers - set(keyword_meanings())) == []


class _Planted:
    """A pickle whose loading makes the directory it names: code run by whoever reads the cache."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (os.mkdir, (str(self.marker),))


@pytest.mark.parametrize("sealed", [False, True], ids=["raw", "sealed"])
@pytest.mark.parametrize("how", ["dir-writable", "file-writable", "not-mine"])
def test_a_parse_table_cache_others_could_write_is_never_loaded(
    how: str, sealed: bool, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The tables are a pickle: one planted where another user can write would run in every ruledsl
    process. A cache is read only when it and its directory are the user's and no one else may
    write them; else the tables are built anew, and the parser works as ever."""
    from ruledsl.syntax import grammar as module

    monkeypatch.delenv("RULEDSL_NO_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    path = module._table_cache_path(GRAMMAR)
    assert path is not None
    path.parent.mkdir(parents=True)
    marker = tmp_path / "ran"
    payload = pickle.dumps(_Planted(marker))
    path.write_bytes(module._seal(payload) if sealed else payload)
    os.chmod(path, 0o666 if how == "file-writable" else 0o600)
    os.chmod(path.parent, 0o777 if how == "dir-writable" else 0o700)
    if how == "not-mine":
        uid = os.getuid()
        monkeypatch.setattr(os, "getuid", lambda: uid + 1)
    grammar.cache_clear()
    try:
        assert grammar().parse("1 + 2", start="expr") is not None
        assert not marker.exists()
    finally:
        grammar.cache_clear()


def test_the_cache_is_private_and_read_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Written 0o600 in a 0o700 directory, sealed with its hash: read back whole, refused if damaged."""
    from ruledsl.syntax import grammar as module

    monkeypatch.delenv("RULEDSL_NO_CACHE", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    grammar.cache_clear()
    try:
        grammar()
        path = module._table_cache_path(GRAMMAR)
        assert path is not None
        assert stat.S_IMODE(path.stat().st_mode) == 0o600 and stat.S_IMODE(path.parent.stat().st_mode) == 0o700
        assert module._load_tables(path) is not None
        path.write_bytes(path.read_bytes()[:-10])  # truncated
        assert module._load_tables(path) is None
    finally:
        grammar.cache_clear()
