"""The VS Code folder (editors/vscode): its TextMate grammar is generated from the grammar's keywords and current,
its manifest wires the language, grammar and server together, and its indentation rules fit the shipped games.
docs/editors.md's Neovim configuration, as written there, gets Debian's Neovim the server's diagnostics."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from ruledsl.format.textmate import TARGET, render, textmate_grammar
from ruledsl.resources import bundled_games, example_games
from ruledsl.syntax.grammar import keywords
from tests.extras import require, require_program
from tests.unit.test_doc_blocks import blocks_of

ROOT = Path(__file__).resolve().parents[2]
VSCODE = ROOT / "editors" / "vscode"
EDITORS_DOC = ROOT / "docs" / "editors.md"
SHIPPED = sorted([*bundled_games().values(), *example_games().values()])


def _json(name: str) -> dict:
    return json.loads((VSCODE / name).read_text(encoding="utf-8"))


def test_the_committed_textmate_grammar_is_current() -> None:
    committed = (ROOT / TARGET).read_text(encoding="utf-8")
    assert committed == render(), f"run: python -m ruledsl.format.textmate > {TARGET}"


def test_the_generator_runs_as_a_module() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "ruledsl.format.textmate"], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert json.loads(done.stdout)["scopeName"] == "source.ruledsl"


def test_every_keyword_is_a_keyword_or_constant_scope_and_names_are_not() -> None:
    patterns = textmate_grammar()["patterns"]
    scopes = {p["name"]: re.compile(p["match"]) for p in patterns if "match" in p}
    keyword, constant = scopes["keyword.control.ruledsl"], scopes["constant.language.ruledsl"]
    assert [w for w in sorted(keywords()) if not (keyword.fullmatch(w) or constant.fullmatch(w))] == []
    assert not keyword.search("hand_size") and not keyword.search("stock") and constant.fullmatch("none")


def test_a_declaration_names_what_it_declares() -> None:
    declaration = re.compile(textmate_grammar()["repository"]["declaration"]["match"])
    assert declaration.match("phase play:").group(2) == "play"
    assert declaration.match("    action place(c: card from hand):").group(2) == "place"
    assert declaration.match("to go_out:").group(2) == "go_out"
    assert declaration.match("    when won by w: go to paying with w") is None  # 'won' is a keyword, not a name
    assert declaration.match("    move c to hand") is None


def test_the_manifest_wires_language_grammar_configuration_and_server() -> None:
    manifest = _json("package.json")
    (language,) = manifest["contributes"]["languages"]
    assert language["id"] == "ruledsl" and language["extensions"] == [".game"]
    (grammar,) = manifest["contributes"]["grammars"]
    assert grammar["language"] == "ruledsl" and grammar["scopeName"] == textmate_grammar()["scopeName"]
    for path in (grammar["path"], language["configuration"], manifest["main"]):
        assert (VSCODE / path).is_file(), path
    assert (VSCODE / grammar["path"]).resolve() == (ROOT / TARGET).resolve()
    assert "vscode-languageclient" in manifest["dependencies"]
    command = manifest["contributes"]["configuration"]["properties"]["ruledsl.server.command"]["default"]
    assert command == ["ruledsl", "lsp"]
    assert "node_modules/" in (VSCODE / ".gitignore").read_text(encoding="utf-8").split()


def _paren_depth_change(line: str) -> int:
    """How many more ( or { the line opens than it closes, outside text and comments."""
    depth, in_text, escaped = 0, False, False
    for ch in line:
        if in_text:
            escaped, in_text = (False, True) if escaped else (ch == "\\", ch != '"')
        elif ch == '"':
            in_text = True
        elif ch == "#":
            break
        elif ch in "({":
            depth += 1
        elif ch in ")}":
            depth -= 1
    return depth


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_the_editor_indents_after_exactly_the_lines_that_open_a_block(path: Path) -> None:
    rules = _json("language-configuration.json")["indentationRules"]
    increase = re.compile(rules["increaseIndentPattern"])
    code = [line for line in path.read_text(encoding="utf-8").split("\n") if line.strip() and line.strip()[0] != "#"]
    wrong, depth = [], 0
    for line, following in zip(code, [*code[1:], ""]):
        depth += _paren_depth_change(line)
        if depth > 0:
            continue  # inside ( ) or { }: the editor indents by the brackets
        opens = len(following) - len(following.lstrip()) > len(line) - len(line.lstrip())
        if line.lstrip().startswith("option ") and opens:
            continue  # an option's description, indented under it: no colon
        if bool(increase.match(line)) != opens:
            wrong.append(line)
    assert wrong == []


# ============================================================================ as VS Code reads it


@pytest.fixture(scope="module")
def node_modules(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where vscode-textmate and vscode-oniguruma are: editors/vscode after `npm install`, else a fresh install."""
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None:
        pytest.skip("needs Node.js and npm")
    if (VSCODE / "node_modules" / "vscode-textmate").is_dir():
        return VSCODE / "node_modules"
    manifest = _json("package.json")
    wanted = [f"{name}@{version}" for name, version in manifest["devDependencies"].items()]
    prefix = tmp_path_factory.mktemp("npm")
    try:
        subprocess.run(
            [npm, "install", "--no-audit", "--no-fund", "--prefix", str(prefix), *wanted],
            capture_output=True,
            check=True,
            timeout=180,
        )
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired) as error:
        pytest.skip(f"npm could not install {wanted} (offline?): {error}")
    return prefix / "node_modules"


def test_vscode_textmate_tokenises_every_shipped_game(node_modules: Path) -> None:
    done = subprocess.run(
        ["node", str(VSCODE / "tokenize.js"), *map(str, SHIPPED)],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "NODE_PATH": str(node_modules)},
        timeout=120,
    )
    report = json.loads(done.stdout)
    assert len(report) == len(SHIPPED)
    for path, scopes in report.items():
        # Text outside every rule of the grammar: names and brackets only, never a keyword, text or a comment.
        bare = {word for text in scopes.get("source.ruledsl", []) for word in re.findall(r"\w+|[\"#]", text)}
        assert bare & (keywords() | {'"', "#"}) == set(), path
        assert set(scopes["keyword.control.ruledsl"]) <= keywords(), path
        assert scopes["comment.line.number-sign.ruledsl"] and scopes["string.quoted.double.ruledsl"], path
        assert scopes["entity.name.function.ruledsl"], path


# ============================================================================ as Neovim reads it

#: Run after the file is opened: wait for the server's diagnostics, write them to the file named by the global
#: `out`, quit. Fields by name, as Neovim 0.7 and later all give them.
PROBE = """\
vim.wait(60000, function() return #vim.diagnostic.get(0) > 0 end, 50)
local found = {}
for _, d in ipairs(vim.diagnostic.get(0)) do
  table.insert(found, { line = d.lnum, col = d.col, code = d.code, severity = d.severity, message = d.message })
end
local clients = vim.lsp.get_active_clients and vim.lsp.get_active_clients() or vim.lsp.get_clients()
local names = {}
for _, c in ipairs(clients) do table.insert(names, c.name) end
local seen = { filetype = vim.bo.filetype, clients = names, diagnostics = found }
vim.fn.writefile({ vim.fn.json_encode(seen) }, vim.g.out)
vim.cmd("qa!")
"""


def neovim_config() -> str:
    """The Neovim configuration of docs/editors.md for the Neovim that Debian and Ubuntu ship: the one tested."""
    (config,) = [b.body for b in blocks_of(EDITORS_DOC) if b.tag == "lua" and "vim.lsp.start_client" in b.body]
    return config


def test_debian_neovim_shows_the_servers_diagnostics_with_the_documented_config(tmp_path: Path) -> None:
    require("pygls", "lsp")
    nvim = require_program("nvim", "neovim")
    config = tmp_path / "init.lua"
    config.write_text(neovim_config(), encoding="utf-8")
    probe = tmp_path / "probe.lua"
    probe.write_text(PROBE, encoding="utf-8")
    game = tmp_path / "eights.game"
    broken = bundled_games()["crazy_eights"].read_text(encoding="utf-8").replace("to each hand\n", "to each hnad\n")
    game.write_text(broken, encoding="utf-8")
    (line,) = [n for n, text in enumerate(broken.split("\n")) if text.endswith("to each hnad")]
    out = tmp_path / "out.json"
    # The config runs `ruledsl lsp`: the command of this environment, importing the code under test.
    bin_dir = Path(sys.executable).parent
    assert (bin_dir / "ruledsl").exists(), bin_dir
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}", "PYTHONPATH": str(ROOT)}
    env |= {
        f"XDG_{kind}_HOME": str(tmp_path / kind.lower()) for kind in ("CONFIG", "DATA", "STATE", "CACHE")
    }  # lsp.log
    done = subprocess.run(
        [nvim, "--headless", "--clean", "-u", str(config), "--cmd", f"let g:out = '{out}'"]
        + ["-c", f"luafile {probe}", str(game)],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=120,
    )
    assert done.returncode == 0 and out.exists(), done.stdout + done.stderr
    seen = json.loads(out.read_text(encoding="utf-8"))
    assert seen["filetype"] == "ruledsl" and seen["clients"] == ["ruledsl"], seen
    (diagnostic,) = seen["diagnostics"]
    assert diagnostic["code"] == "E201" and diagnostic["severity"] == 1  # vim.diagnostic.severity.ERROR
    assert (diagnostic["line"], diagnostic["col"]) == (line, broken.split("\n")[line].index("hnad"))
    assert diagnostic["message"].startswith("unknown zone 'hnad'\nhint: did you mean 'hand'?"), diagnostic


def test_the_latency_quoted_is_of_the_largest_shipped_game() -> None:
    largest = max(SHIPPED, key=lambda p: p.stat().st_size)
    assert largest == ROOT / "games" / "cartes_magiques.game"
    lines = len(largest.read_text(encoding="utf-8").splitlines())
    assert f"`games/cartes_magiques.game`, {lines} lines" in EDITORS_DOC.read_text(encoding="utf-8")
    assert 'GAME = ROOT / "games" / "cartes_magiques.game"' in (ROOT / "benchmarks" / "lsp_latency.py").read_text()
