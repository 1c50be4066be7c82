"""Layer tests: which module may import, print or execute what (read with the ast module)."""

from __future__ import annotations

import ast
import functools
import io
import itertools
import tokenize
from pathlib import Path

import pytest

import ruledsl

PACKAGE = Path(ruledsl.__file__).resolve().parent
ROOT = PACKAGE.parent
MODULES = sorted(PACKAGE.rglob("*.py"))


def rel(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@functools.cache
def syntax_tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


@functools.cache
def code_tokens(path: Path) -> tuple[tokenize.TokenInfo, ...]:
    return tuple(tokenize.generate_tokens(io.StringIO(path.read_text(encoding="utf-8")).readline))


def imports(path: Path) -> set[str]:
    """Every module a file imports, anywhere in it (``from ruledsl import nodes`` counts as ruledsl.syntax.nodes)."""
    tree = syntax_tree(path)
    package = module_name(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *(node.module.split(".") if node.module else [])])
            found.add(module)
            # `from ruledsl import nodes`: the names may be submodules.
            for alias in node.names:
                if (PACKAGE.parent / module.replace(".", "/") / alias.name).with_suffix(".py").exists() or (
                    PACKAGE.parent / module.replace(".", "/") / alias.name / "__init__.py"
                ).exists():
                    found.add(f"{module}.{alias.name}")
    return found


def ruledsl_imports(path: Path) -> set[str]:
    return {m for m in imports(path) if m == "ruledsl" or m.startswith("ruledsl.")}


def calls_to(path: Path, name: str) -> list[int]:
    """Lines where a file calls the built-in ``name`` (as ``name(...)`` or ``builtins.name(...)``)."""
    tree = syntax_tree(path)
    lines = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        f = node.func
        if (isinstance(f, ast.Name) and f.id == name) or (
            isinstance(f, ast.Attribute)
            and f.attr == name
            and isinstance(f.value, ast.Name)
            and f.value.id == "builtins"
        ):
            lines.append(node.lineno)
    return lines


def text_calls(path: Path, name: str) -> list[int]:
    """Lines where the code (not a comment or string) has ``name(`` anywhere, method calls included."""
    tokens = code_tokens(path)
    return [
        a.start[0]
        for a, b in itertools.pairwise(tokens)
        if a.type == tokenize.NAME and a.string == name and b.type == tokenize.OP and b.string == "("
    ]


def test_the_modules_are_found() -> None:
    names = {rel(p) for p in MODULES}
    assert {
        "ruledsl/syntax/parser.py",
        "ruledsl/cli/app.py",
        "ruledsl/text/source.py",
        "ruledsl/engine/values.py",
    } <= names


def test_import_reader_sees_every_form() -> None:
    # Guard for the tests below: absolute, relative and `from package import module` forms.
    parser = PACKAGE / "syntax" / "parser.py"
    assert {"lark", "lark.exceptions", "ruledsl.syntax.nodes", "ruledsl.text.errors", "ruledsl.text.source"} <= imports(
        parser
    )
    assert "ruledsl.engine" in imports(PACKAGE / "engine" / "ops.py")


def test_only_the_parser_imports_lark() -> None:
    users = [rel(p) for p in MODULES if any(m == "lark" or m.startswith("lark.") for m in imports(p))]
    assert users == ["ruledsl/syntax/parser.py"]


@pytest.mark.parametrize(
    "path",
    [p for p in MODULES if p.parent.name == "engine" and p.stem in {"values", "ops", "chance", "knowledge"}],
    ids=rel,
)
def test_runtime_imports_only_runtime_source_and_errors(path: Path) -> None:
    allowed = {"ruledsl.text.source", "ruledsl.text.errors"}
    bad = {
        m
        for m in ruledsl_imports(path)
        if m not in allowed and m != "ruledsl.engine" and not m.startswith("ruledsl.engine.")
    }
    assert bad == set()


def test_source_imports_nothing_from_ruledsl() -> None:
    assert ruledsl_imports(PACKAGE / "text" / "source.py") == set()


def test_errors_imports_only_source() -> None:
    assert ruledsl_imports(PACKAGE / "text" / "errors.py") == {"ruledsl.text.source"}


def test_render_imports_only_source_and_errors() -> None:
    assert ruledsl_imports(PACKAGE / "text" / "render.py") <= {"ruledsl.text.source", "ruledsl.text.errors"}


def test_only_the_cli_prints() -> None:
    printers = [rel(p) for p in MODULES if calls_to(p, "print")]
    assert printers and all(p.startswith("ruledsl/cli/") for p in printers)


def test_no_eval_anywhere() -> None:
    assert {rel(p): text_calls(p, "eval") for p in MODULES if text_calls(p, "eval")} == {}


def test_exec_only_in_the_compiler() -> None:
    users = [rel(p) for p in MODULES if text_calls(p, "exec") or calls_to(p, "exec")]
    assert users == ["ruledsl/codegen/compiler.py"]
