"""What a run loads: help and ``import ruledsl`` load neither Lark nor the compiler (each run in a fresh process)."""

from __future__ import annotations

import importlib.metadata
import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import ruledsl

ROOT = Path(__file__).resolve().parents[2]

#: Run in a fresh interpreter: print, last, the lark and ruledsl modules loaded by then.
_CHILD = """
import json, sys
{code}
print(json.dumps(sorted(m for m in sys.modules if m.split(".")[0] in ("lark", "ruledsl"))))
"""

_RUN_CLI = """
sys.argv = ["ruledsl", *{argv!r}]
from ruledsl.cli import main
try:
    main()
except SystemExit:
    pass
"""

COMMANDS = ["check", "fmt", "play", "simulate", "compare", "replay", "serve", "bench", "info", "list"]


def loaded_by(code: str) -> set[str]:
    """The lark and ruledsl modules a fresh interpreter has loaded after running ``code``."""
    done = subprocess.run(
        [sys.executable, "-c", _CHILD.format(code=code)],
        cwd=ROOT,
        env={**os.environ, "NO_COLOR": "1"},
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return set(json.loads(done.stdout.splitlines()[-1]))


def loaded_by_cli(*argv: str) -> set[str]:
    return loaded_by(_RUN_CLI.format(argv=list(argv)))


def heavy(modules: set[str]) -> set[str]:
    """The modules among ``modules`` that help must not load: Lark, and the code generator."""
    return {m for m in modules if m.split(".")[0] == "lark" or m.startswith("ruledsl.codegen")}


def test_the_child_sees_what_is_loaded() -> None:
    # Guard for the tests below: an empty answer would pass them all.
    assert {"lark", "ruledsl.codegen.compiler"} <= loaded_by("import ruledsl; ruledsl.load_game('quasenbo')")


def test_import_ruledsl_loads_neither_lark_nor_the_compiler() -> None:
    assert heavy(loaded_by("import ruledsl")) == set()


def test_help_loads_neither_lark_nor_the_compiler() -> None:
    loaded = loaded_by_cli("--help")
    assert "ruledsl.cli.app" in loaded
    assert heavy(loaded) == set()
    assert "ruledsl.agents" not in loaded  # only the help of play, simulate and compare lists the agents
    # Nor what commands need only when they run: diagnostics (and attrs with them), records, the engine's state.
    assert {m for m in loaded if m.startswith(("ruledsl.text", "ruledsl.tools", "ruledsl.engine."))} == {
        "ruledsl.engine.limits"
    }


@pytest.mark.parametrize("command", COMMANDS)
def test_a_commands_help_loads_neither_lark_nor_the_compiler(command: str) -> None:
    assert heavy(loaded_by_cli(command, "--help")) == set()


@pytest.mark.parametrize("argv", [["list"], ["info", "quasenbo"]], ids=["list", "info"])
def test_list_and_info_do_not_load_the_code_generator(argv: list[str]) -> None:
    loaded = loaded_by_cli(*argv)
    assert "ruledsl.analysis.checker" in loaded  # the game was checked
    assert {m for m in loaded if m.startswith("ruledsl.codegen")} == set()


class TestPublicApi:
    def test_every_name_of_all_is_there_and_listed_by_dir(self) -> None:
        for name in ruledsl.__all__:
            assert getattr(ruledsl, name) is not None
        assert set(ruledsl.__all__) <= set(dir(ruledsl))

    def test_names_are_those_of_their_modules(self) -> None:
        from ruledsl.engine.state import GameState
        from ruledsl.loading import load_game

        assert ruledsl.load_game is load_game
        assert ruledsl.GameState is GameState and ruledsl.State is GameState

    def test_an_unknown_name_is_an_attribute_error(self) -> None:
        with pytest.raises(AttributeError, match="has no attribute 'load_gmae'"):
            ruledsl.load_gmae  # noqa: B018

    def test_submodules_still_import_by_name(self) -> None:
        from ruledsl import cli, resources

        assert callable(cli.main) and callable(resources.bundled_games)


def test_the_version_is_written_once() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" not in project["project"] and project["project"]["dynamic"] == ["version"]
    assert project["tool"]["hatch"]["version"]["path"] == "ruledsl/__init__.py"
    assert importlib.metadata.version("ruledsl") == ruledsl.__version__  # as installed, from that one place


def test_the_package_says_it_is_typed() -> None:
    assert (Path(ruledsl.__file__).parent / "py.typed").is_file()
