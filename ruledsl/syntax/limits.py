"""The limits on a rule file's size, nesting and numbers, so that no later stage overflows; the nesting check."""

from __future__ import annotations

from lark import Tree

from ruledsl.syntax.spans import meta_span
from ruledsl.text.errors import Diagnostic, ParseError
from ruledsl.text.source import Pos, Source

#: A rule file is a page or two of text; anything this large is refused, not parsed.
MAX_SOURCE_BYTES = 1_000_000
#: Deeper nesting than this is refused, so that no later stage can overflow Python's stack.
MAX_DEPTH = 60
#: Numbers in a rule file are counts and scores; larger ones are refused.
MAX_NUMBER = 10**9

#: Operators whose chains nest one level per term: ``a and b and c`` is ``(a and b) and c``.
_CHAINED = {"and_op": "'and'", "or_op": "'or'", "arith": "arithmetic operators"}


def check_depth(source: Source, tree: Tree, base: Pos | None = None) -> None:
    """Raise ParseError (E108) if the tree nests deeper than MAX_DEPTH."""
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
            raise ParseError([Diagnostic("E108", message, meta_span(source, node.meta, base), hint, source=source)])
        for child in node.children:
            if isinstance(child, Tree):
                child_run = run + 1 if child.data == node.data and child.data in _CHAINED else 1
                stack.append((child, depth + 1, child_run, max((longest, op), (child_run, child.data))))
