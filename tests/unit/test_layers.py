"""Layer tests: which module may import, print or execute what (read with the ast module)."""

from __future__ import annotations

import ast
import functools
import io
import itertools
import shutil
import subprocess
import sys
import sysconfig
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


def source_module(path: Path, node: ast.ImportFrom) -> str:
    """The absolute name of the module a ``from ... import`` in ``path`` reads, relative forms resolved."""
    package = module_name(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    base = package[: len(package) - node.level + 1] if node.level else []
    return ".".join([*base, *(node.module.split(".") if node.module else [])])


def imports(path: Path) -> set[str]:
    """Every module a file imports, anywhere in it (``from ruledsl import nodes`` counts as ruledsl.syntax.nodes)."""
    tree = syntax_tree(path)
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            module = source_module(path, node)
            found.add(module)
            # `from ruledsl import nodes`: the names may be submodules.
            for alias in node.names:
                if (PACKAGE.parent / module.replace(".", "/") / alias.name).with_suffix(".py").exists() or (
                    PACKAGE.parent / module.replace(".", "/") / alias.name / "__init__.py"
                ).exists():
                    found.add(f"{module}.{alias.name}")
    return found


def is_ruledsl(module: str) -> bool:
    return module == "ruledsl" or module.startswith("ruledsl.")


def ruledsl_imports(path: Path) -> set[str]:
    return {m for m in imports(path) if is_ruledsl(m)}


def imported_names(path: Path) -> set[tuple[str, str]]:
    """Every (module, name) a file takes with ``from module import name``, anywhere in it."""
    return {
        (source_module(path, node), alias.name)
        for node in ast.walk(syntax_tree(path))
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }


def is_private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


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
    transform = PACKAGE / "syntax" / "transform.py"
    assert {"lark", "lark.exceptions", "ruledsl.syntax.nodes", "ruledsl.text.errors", "ruledsl.text.source"} <= imports(
        transform
    )
    assert "ruledsl.engine" in imports(PACKAGE / "engine" / "ops.py")


def test_the_import_contract_holds() -> None:
    # pyproject.toml's [tool.importlinter]: the layers of the packages, what the engine and the
    # agents never import, and Lark for syntax/ alone; indirect imports count.
    lint_imports = shutil.which("lint-imports", path=sysconfig.get_path("scripts"))
    assert lint_imports is not None, "import-linter is a test dependency: pip install -e '.[test]'"
    done = subprocess.run([lint_imports, "--no-cache"], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_name_reader_sees_every_form() -> None:
    # Guard for the test below: it reads the names, and the module they come from.
    assert ("ruledsl.loading", "coerce_options") in imported_names(PACKAGE / "tools" / "bench.py")
    assert ("ruledsl.engine", "knowledge") in imported_names(PACKAGE / "agents" / "view.py")


def test_no_module_imports_another_ones_private_names() -> None:
    # A name starting with '_' is its module's own: one that others need is public, and named so.
    found = sorted(
        f"{rel(p)}: {name} from {module}"
        for p in MODULES
        for module, name in imported_names(p)
        if is_ruledsl(module) and is_private(name)
    )
    assert found == []


def test_only_syntax_imports_lark() -> None:
    users = [rel(p) for p in MODULES if any(m == "lark" or m.startswith("lark.") for m in imports(p))]
    assert users == [
        "ruledsl/syntax/diagnosis.py",
        "ruledsl/syntax/expected.py",
        "ruledsl/syntax/grammar.py",
        "ruledsl/syntax/limits.py",
        "ruledsl/syntax/mistakes.py",
        "ruledsl/syntax/parser.py",
        "ruledsl/syntax/spans.py",
        "ruledsl/syntax/transform.py",
    ]


def test_nodes_and_unparse_import_no_parser() -> None:
    # The engine's refusal reasons unparse nodes at run time: playing a game must not load the parser.
    front_end = {"ruledsl.syntax.parser", "ruledsl.syntax.transform", "ruledsl.syntax.grammar", "ruledsl.format.fmt"}
    for path in (
        PACKAGE / "syntax" / "nodes.py",
        PACKAGE / "format" / "unparse.py",
        PACKAGE / "syntax" / "__init__.py",
    ):
        assert ruledsl_imports(path) & front_end == set(), rel(path)


@pytest.mark.parametrize(
    "module",
    ["ruledsl.syntax.nodes", "ruledsl.format.unparse", "ruledsl.engine.state", "ruledsl.engine.game", "ruledsl.agents"],
)
def test_importing_loads_no_lark(module: str) -> None:
    # A fresh interpreter: this one has long loaded lark.
    check = f"import sys, {module}; sys.exit('lark' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", check], check=False).returncode == 0


#: What the engine must never import: the stages that read rule files, and the layers above it.
#: It plays a compiled Program and sees only text/ (sources, errors); lark would be loaded with syntax/.
ABOVE_THE_ENGINE = (
    "ruledsl.syntax",
    "ruledsl.analysis",
    "ruledsl.codegen",
    "ruledsl.format",
    "ruledsl.tools",
    "ruledsl.cli",
    "ruledsl.agents",
    "ruledsl.loading",
    "lark",
)


@pytest.mark.parametrize("path", [p for p in MODULES if p.parent.name == "engine"], ids=rel)
def test_the_engine_imports_nothing_above_it(path: Path) -> None:
    bad = {m for m in imports(path) for above in ABOVE_THE_ENGINE if m == above or m.startswith(above + ".")}
    assert bad == set()


def test_the_engine_imports_only_itself_and_text() -> None:
    engine = [p for p in MODULES if p.parent.name == "engine"]
    assert len(engine) >= 10  # the guard above has modules to read
    used = {m for p in engine for m in ruledsl_imports(p)}
    assert {m for m in used if not m.startswith(("ruledsl.engine", "ruledsl.text."))} == set()


def test_source_imports_nothing_from_ruledsl() -> None:
    assert ruledsl_imports(PACKAGE / "text" / "source.py") == set()


def test_errors_imports_only_source() -> None:
    assert ruledsl_imports(PACKAGE / "text" / "errors.py") == {"ruledsl.text.source"}


def test_render_imports_only_source_and_errors() -> None:
    assert ruledsl_imports(PACKAGE / "text" / "render.py") <= {"ruledsl.text.source", "ruledsl.text.errors"}


def test_only_the_cli_prints() -> None:
    printers = [rel(p) for p in MODULES if calls_to(p, "print")]
    # and the bridges' render_mode="human", which prints by PettingZoo's and Gymnasium's convention
    assert printers and all(p.startswith("ruledsl/cli/") or p == "ruledsl/spaces/loaded.py" for p in printers)


def test_no_eval_anywhere() -> None:
    assert {rel(p): text_calls(p, "eval") for p in MODULES if text_calls(p, "eval")} == {}


def test_exec_only_in_the_compiler() -> None:
    users = [rel(p) for p in MODULES if text_calls(p, "exec") or calls_to(p, "exec")]
    assert users == ["ruledsl/codegen/linking.py"]
