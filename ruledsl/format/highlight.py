"""Name the words a highlighter colours, read from the grammar: the one source of the Pygments and TextMate grammars."""

from __future__ import annotations

import functools
import re

from ruledsl.syntax.grammar import grammar, keyword_of, keywords

#: A name of the language (the grammar's NAME terminal): a letter or '_', then letters, digits and '_'.
NAME = r"[^\W\d]\w*"
#: The operators, longest first so that '<=' is not read as '<' then '='.
OPERATORS = ("==", "!=", "<=", ">=", "<", ">", "+", "-", "*", "/", "%", "=", "×")
#: Punctuation: parentheses, braces (sets, and expressions in text), and the separators.
PUNCTUATION = "(){},:."


@functools.cache
def constants() -> frozenset[str]:
    """Return the keywords that are values alone ('yes', 'no', 'none'): an atom of one keyword, named after it."""
    return frozenset(
        word
        for rule in grammar().rules
        if rule.origin.name == "atom" and len(rule.expansion) == 1
        for word in [keyword_of(rule.expansion[0].name)]
        if word is not None and rule.alias == word
    )


@functools.cache
def plain_keywords() -> frozenset[str]:
    """Return every other keyword of the grammar."""
    return keywords() - constants()


@functools.cache
def declaring_keywords() -> frozenset[str]:
    """Return the keywords that open a declaration of a name ('phase play:', 'define top_card = ...')."""
    return frozenset(
        word
        for rule in grammar().rules
        if rule.origin.name.endswith("_decl") and len(rule.expansion) >= 2 and rule.expansion[1].name == "NAME"
        for word in [keyword_of(rule.expansion[0].name)]
        if word is not None
    )


def word_pattern(words: frozenset[str] | tuple[str, ...]) -> str:
    """Return a regular expression that matches exactly these whole words (longest first)."""
    alternatives = "|".join(re.escape(w) for w in sorted(words, key=lambda w: (-len(w), w)))
    return rf"\b(?:{alternatives})\b"
