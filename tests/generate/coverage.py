"""Which constructs of the grammar rule files use: derived from grammar/ruledsl.lark, never listed by hand.

A construct is a rule of the grammar as it shows in a parse tree (its name, or its alias:
``if_expr``, ``winner_outcome``), or a keyword or symbol the grammar spells out (``"move"``,
``"×"``, ``"!="``, quoted). ``grammar_constructs()`` lists those of the grammar; ``constructs_met(texts)``
those the texts use, read by the same parser as ``ruledsl.syntax`` (``grammar()``, or another
Lark parser given, built alike). tests/property/test_random_rules.py asserts that the files
the random-rules generator draws use every one, but for a short list of exceptions.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from lark import Lark
from lark.grammar import Rule

from ruledsl.syntax.grammar import grammar


def grammar_constructs(parser: Lark | None = None) -> frozenset[str]:
    """Every rule name (or alias) a parse tree may hold, and every keyword or symbol, quoted."""
    parser = parser or grammar()
    names = {_shown_as(rule) for rule in parser.rules}
    words = {f'"{w}"' for t in parser.terminals for w in _spellings(t.pattern)}
    return frozenset(name for name in names if name is not None) | words


def constructs_met(texts: Iterable[str], parser: Lark | None = None) -> frozenset[str]:
    """The constructs of ``grammar_constructs`` the texts use (each a whole rule file that parses)."""
    parser = parser or grammar()
    spelt = {t.name: set(_spellings(t.pattern)) for t in parser.terminals}
    met: set[str] = set()
    for text in texts:
        # As ruledsl.syntax.parser reads a file: the indenter needs a final newline.
        step = parser.parse_interactive(text if text.endswith("\n") else text + "\n", start="game_file")
        for token in step.iter_parse():
            if token.value in spelt.get(token.type, ()):
                met.add(f'"{token.value}"')
        met.update(str(tree.data) for tree in step.feed_eof().iter_subtrees())
    return frozenset(met)


def _shown_as(rule: Rule) -> str | None:
    """The name a rule's tree bears, or None where it never shows: Lark's inner rules (``_...``)
    and a pass-through (``?rule``) alternative that keeps one child (its child shows instead)."""
    name = str(rule.alias or rule.origin.name)
    if name.startswith("_"):
        return None
    if rule.options.expand1 and not rule.alias:
        kept = [
            s
            for s in rule.expansion
            if not s.name.startswith("_") and not (s.is_term and s.filter_out and not rule.options.keep_all_tokens)
        ]
        return name if len(kept) > 1 else None
    return name


def _spellings(pattern: object) -> list[str]:
    """What a terminal is spelt as: its string, or each of the strings of one made of alternatives
    (``COMPARE: "==" | "!=" | ...``, which Lark writes as one pattern ``(?:==|!=|...)``); none for
    a pattern of another shape (a name, a number, a text)."""
    value = str(getattr(pattern, "value", ""))
    if getattr(pattern, "type", None) == "str":
        return [value]
    whole = re.fullmatch(r"\(\?:((?:\\.|[^\\()\[\]*+?{}|^$.])+(?:\|(?:\\.|[^\\()\[\]*+?{}|^$.])+)*)\)", value)
    alternatives = re.findall(r"(?:\\.|[^|\\])+", whole[1]) if whole else []
    return [re.sub(r"\\(.)", r"\1", alt) for alt in alternatives]
