"""Size tests: no class in ruledsl/ over 600 lines, no function over 120 (docs/architecture.md).

A class that grows past that has two jobs, and a function past that hides its steps; split
them rather than raise the bound. Generated code is not read here: it is not in the files.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import ruledsl

PACKAGE = Path(ruledsl.__file__).resolve().parent
MAX_CLASS_LINES = 600
MAX_FUNCTION_LINES = 120


def _sizes(kinds: tuple[type[ast.AST], ...]) -> dict[str, int]:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, kinds):
                where = f"{path.relative_to(PACKAGE.parent).as_posix()}:{node.lineno} {node.name}"  # type: ignore[attr-defined]
                found[where] = node.end_lineno - node.lineno + 1  # type: ignore[attr-defined]
    return found


def test_the_reader_sees_classes_and_functions() -> None:
    classes = _sizes((ast.ClassDef,))
    assert any(where.endswith(" GameState") for where in classes)
    assert any(where.endswith(" apply_action") for where in _sizes((ast.FunctionDef,)))


@pytest.mark.parametrize(
    ("kinds", "bound"),
    [((ast.ClassDef,), MAX_CLASS_LINES), ((ast.FunctionDef, ast.AsyncFunctionDef), MAX_FUNCTION_LINES)],
    ids=["classes", "functions"],
)
def test_nothing_is_over_its_bound(kinds: tuple[type[ast.AST], ...], bound: int) -> None:
    assert {where: size for where, size in _sizes(kinds).items() if size > bound} == {}
