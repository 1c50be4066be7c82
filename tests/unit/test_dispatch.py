"""Adding a node class cannot be half done: every dispatcher over statements and expressions has a case for each.

The checker, the code generator, the unparser, the disclosure analysis, the trigger
cycles (which zones cards enter by a statement) and whether a game keeps faces (which
statements lay cards face up or down) each dispatch on
the class of a node. A class one of them lacks would fail only when a rule file first uses
it; this test names, for each dispatcher, the classes of ``syntax/nodes.py`` it has no case
for. (Proved able to fail: a class made here, known to none, is named for every dispatcher.)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest
from attrs import frozen

from ruledsl.analysis.disclosure import STATEMENT_CASES
from ruledsl.analysis.expressions import ExpressionChecker
from ruledsl.analysis.moves import CLASSIFIED
from ruledsl.analysis.statements import StatementChecker
from ruledsl.codegen.expressions import Expressions
from ruledsl.codegen.statements import Statements
from ruledsl.format.unparse import EXPRESSION_WRITERS, STATEMENT_WRITERS
from ruledsl.syntax import nodes as n
from tests.unit.test_node_examples import CLASSES


def _method(owner: type, prefix: str) -> Callable[[type], bool]:
    return lambda cls: callable(getattr(owner, f"{prefix}{cls.__name__}", None))


def _key(table: object) -> Callable[[type], bool]:
    return lambda cls: cls in table  # type: ignore[operator]


#: Each dispatcher: (the base of what it dispatches on, whether it has a case for a class).
DISPATCHERS: dict[str, tuple[type[n.Node], Callable[[type], bool]]] = {
    "analysis/statements.py StatementChecker._stmt_*": (n.Stmt, _method(StatementChecker, "_stmt_")),
    "analysis/expressions.py ExpressionChecker._expr_*": (n.Expr, _method(ExpressionChecker, "_expr_")),
    "codegen/statements.py Statements._st_*": (n.Stmt, _method(Statements, "_st_")),
    "codegen/expressions.py Expressions._ex_*": (n.Expr, _method(Expressions, "_ex_")),
    "format/unparse.py STATEMENT_WRITERS": (n.Stmt, _key(STATEMENT_WRITERS)),
    "format/unparse.py EXPRESSION_WRITERS": (n.Expr, _key(EXPRESSION_WRITERS)),
    "analysis/disclosure.py STATEMENT_CASES": (n.Stmt, _key(STATEMENT_CASES)),
    "analysis/moves.py CLASSIFIED": (n.Stmt, _key(CLASSIFIED)),
}


def missing_cases(classes: Sequence[type[n.Node]]) -> dict[str, list[str]]:
    """For each dispatcher, the classes among ``classes`` it has no case for (only dispatchers lacking some)."""
    missing = {
        where: sorted(cls.__name__ for cls in classes if issubclass(cls, base) and not has_case(cls))
        for where, (base, has_case) in DISPATCHERS.items()
    }
    return {where: names for where, names in missing.items() if names}


def test_every_dispatcher_has_a_case_for_every_statement_and_expression() -> None:
    assert missing_cases(CLASSES) == {}


def test_the_classes_checked_are_every_statement_and_expression() -> None:
    names = {cls.__name__ for cls in CLASSES}
    assert {"Move", "Deal", "If", "CallStmt"} <= names and {"TopOf", "Count", "Sorted", "ItemOf"} <= names


@pytest.mark.parametrize("base", [n.Stmt, n.Expr])
def test_a_new_class_known_to_no_dispatcher_is_named_for_each(base: type[n.Node]) -> None:
    # As a newcomer would add one: a subclass in nodes.py, and nothing else yet.
    @frozen(kw_only=True)
    class UnknownToAll(base):  # type: ignore[valid-type,misc]
        """A statement or expression no dispatcher knows."""

    before = missing_cases(CLASSES)
    after = missing_cases([*CLASSES, UnknownToAll])
    added = {where: sorted(set(names) - set(before.get(where, []))) for where, names in after.items()}
    assert {where for where, names in added.items() if names} == {w for w, (b, _) in DISPATCHERS.items() if b is base}
    assert all(names in ([], ["UnknownToAll"]) for names in added.values())
