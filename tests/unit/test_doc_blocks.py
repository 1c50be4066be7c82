"""Every code block of every doc is checked, by its tag (the conventions are in docs/index.md, "Writing these pages").

```game: a complete rule file that checks, or a fragment (``<!-- fragment -->`` on the line
before) that highlights without an error token. ```sh: each ``ruledsl`` command is accepted by
the command line's parser. ```console: ``$ ruledsl ...`` commands, parsed, then run and their
output compared (a line ``…`` stands for any lines), unless ``<!-- output abridged -->`` stands
before the block; a ```game block with ``title="NAME.game"`` (or a ```python one with
``title="NAME.py"``) is written to that file first, so that the commands below it run on it.
```python: compiles. ```text: shown as it is.
docs/errors.md's game and python blocks are run by test_errors_doc.py, the README's python
block by test_readme.py: here they only need their tag.
"""

from __future__ import annotations

import contextlib
import io
import re
import shlex
from pathlib import Path

import pytest
from attrs import frozen

from ruledsl.cli.app import build_parser, main
from ruledsl.format.fmt import format_source
from ruledsl.loading import check_file
from ruledsl.text.errors import RuleDslError

ROOT = Path(__file__).resolve().parents[2]
TUTORIAL = ROOT / "docs" / "tutorial.md"
DOCS = sorted([ROOT / "README.md", *(ROOT / "docs").glob("*.md"), *(ROOT / "editors").rglob("*.md")])
# Other editors' configuration is shown as is, highlighted in its own language.
SHOWN = {"text", "lua", "elisp", "toml", "json"}
TAGS = {"game", "sh", "console", "python", *SHOWN}
FRAGMENT = "<!-- fragment -->"
ABRIDGED = "<!-- output abridged -->"

#: The commands a console block may run in the tests: they end on their own. A session with another (a server,
#: say: 'ruledsl serve' or 'ruledsl lsp' run until stopped) stands in a block marked ABRIDGED, shown, not run.
RUNNABLE = {"check", "fmt", "play", "simulate", "compare", "replay", "bench", "info", "list"}

_FENCE = re.compile(r"^(?P<indent>\s*)(?P<fence>```+)(?P<tag>[\w-]*)(?P<info>.*)$")
_TITLE = re.compile(r'title="([^"]+)"')


@frozen
class Block:
    doc: Path
    line: int  # of the opening fence, from 1
    tag: str
    body: str
    marker: str  # the line before the block, stripped
    title: str | None

    @property
    def where(self) -> str:
        return f"{self.doc.relative_to(ROOT)}:{self.line}"

    @property
    def is_fragment(self) -> bool:
        return self.marker == FRAGMENT


def blocks_of(doc: Path) -> list[Block]:
    """Return the fenced code blocks of a Markdown file, in order."""
    lines = doc.read_text(encoding="utf-8").split("\n")
    found = []
    i = 0
    while i < len(lines):
        m = _FENCE.match(lines[i])
        if m is None:
            i += 1
            continue
        indent, fence = m.group("indent"), m.group("fence")
        end = next(j for j in range(i + 1, len(lines)) if lines[j].strip() == fence)
        body = "\n".join(line.removeprefix(indent) for line in lines[i + 1 : end]) + "\n"
        before = next((lines[j].strip() for j in range(i - 1, -1, -1) if lines[j].strip()), "")
        title = _TITLE.search(m.group("info"))
        found.append(Block(doc, i + 1, m.group("tag"), body, before, title.group(1) if title else None))
        i = end + 1
    return found


BLOCKS = [block for doc in DOCS for block in blocks_of(doc)]


def _runs_elsewhere(block: Block) -> bool:
    """Whether another test runs the block in full: the README's python, and docs/errors.md's entries."""
    if block.doc.name == "README.md":
        return block.tag == "python"
    if block.doc == ROOT / "docs" / "errors.md" and block.tag in ("game", "python"):
        lines = block.doc.read_text(encoding="utf-8").split("\n")
        first_entry = next(i + 1 for i, line in enumerate(lines) if line.startswith("### "))
        return block.line > first_entry  # before the entries: the page's "Mini" game, checked here
    return False


def _of(tag: str) -> list[Block]:
    return [b for b in BLOCKS if b.tag == tag and not _runs_elsewhere(b)]


def _id(block: Block) -> str:
    return f"{block.doc.relative_to(ROOT)}:{block.line}"


# ============================================================================ commands


def commands_in(text: str) -> list[list[str]]:
    """Return the commands of shell text: lines joined at a final backslash, split at &&, ||, ; and |."""
    commands: list[list[str]] = []
    for line in text.replace("\\\n", " ").split("\n"):
        current: list[str] = []
        for word in shlex.split(line, comments=True):
            if word in ("&&", "||", ";", "|"):
                commands.append(current)
                current = []
            else:
                current.append(word)
        commands.append(current)
    return [c for c in commands if c]


def ruledsl_arguments(command: list[str]) -> list[str] | None:
    """Return the arguments of a ``ruledsl`` command (also ``.venv/bin/ruledsl``), or None for another program."""
    return command[1:] if command and Path(command[0]).name == "ruledsl" else None


def parse_error(arguments: list[str]) -> str | None:
    """Return what the command line's parser says against these arguments, or None if it accepts them."""
    err = io.StringIO()
    try:
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            build_parser().parse_args(arguments)
    except SystemExit as exit_:
        return err.getvalue().strip() or f"exit {exit_.code}"
    return None


@frozen
class Session:
    """One ``$ command`` of a console block and the output shown under it."""

    command: str
    output: list[str]


def sessions_of(block: Block) -> list[Session]:
    sessions: list[Session] = []
    for line in block.body.rstrip("\n").split("\n"):
        if line.startswith("$ "):
            sessions.append(Session(line[2:], []))
        else:
            assert sessions, f"{block.where}: output before the first '$ ' command"
            sessions[-1].output.append(line)
    return sessions


def matches(expected: list[str], actual: list[str]) -> bool:
    """Whether the output matches, a line '…' standing for any lines (none included)."""
    if not expected:
        return not actual
    if expected[0].strip() == "…":
        return any(matches(expected[1:], actual[k:]) for k in range(len(actual) + 1))
    return bool(actual) and expected[0] == actual[0] and matches(expected[1:], actual[1:])


def run(command: str, cwd: Path) -> list[str]:
    """Run a ``ruledsl`` command in ``cwd`` as a user would see it (stdout and stderr in one stream); its lines."""
    arguments = ruledsl_arguments(shlex.split(command))
    assert arguments is not None, f"only ruledsl commands run here: {command}"
    # In this process (a new one per command costs a second on a loaded machine); no colour: not a terminal.
    seen = io.StringIO()
    with contextlib.chdir(cwd), contextlib.redirect_stdout(seen), contextlib.redirect_stderr(seen):
        try:
            main(arguments)
        except SystemExit:  # a usage error ends through argparse
            pass
    return [line.rstrip() for line in seen.getvalue().rstrip("\n").split("\n")] if seen.getvalue() else []


# ============================================================================ the tests


def test_the_blocks_are_found() -> None:
    # Guard for the tests below.
    assert len(BLOCKS) >= 100
    assert {b.tag for b in BLOCKS} >= {"game", "sh", "console", "text"}
    assert len([b for b in blocks_of(TUTORIAL) if b.title]) >= 5


def test_every_block_has_a_known_tag() -> None:
    assert [(b.where, b.tag) for b in BLOCKS if b.tag not in TAGS] == []


def test_markers_stand_only_before_blocks_they_fit() -> None:
    assert [b.where for b in BLOCKS if b.is_fragment and b.tag != "game"] == []
    assert [b.where for b in BLOCKS if b.marker == ABRIDGED and b.tag != "console"] == []


@pytest.mark.parametrize("block", [b for b in _of("game") if not b.is_fragment], ids=_id)
def test_a_game_block_checks(block: Block, tmp_path: Path) -> None:
    path = tmp_path / (block.title or "block.game")
    path.write_text(block.body, encoding="utf-8")
    try:
        check_file(str(path))
    except RuleDslError as error:
        pytest.fail(f"{block.where}: {error}\n(mark it '{FRAGMENT}' if it is part of a rule file)")


@pytest.mark.parametrize("block", [b for b in _of("game") if b.is_fragment], ids=_id)
def test_a_fragment_highlights_without_an_error_token(block: Block) -> None:
    from tests.extras import require

    require("pygments", "docs")
    from pygments.token import Error

    from ruledsl.format.lexer import RuleDslLexer

    errors = [value for kind, value in RuleDslLexer().get_tokens(block.body) if kind in Error]
    assert errors == [], block.where


@pytest.mark.parametrize("block", _of("sh") + _of("console"), ids=_id)
def test_ruledsl_commands_are_accepted_by_the_command_line(block: Block) -> None:
    if block.tag == "console":
        found = [shlex.split(s.command) for s in sessions_of(block)]
    else:
        found = commands_in(block.body)
    refused = {
        shlex.join(command): error
        for command in found
        if (arguments := ruledsl_arguments(command)) is not None and (error := parse_error(arguments))
    }
    assert refused == {}, block.where


@pytest.mark.parametrize("block", _of("python"), ids=_id)
def test_a_python_block_compiles(block: Block) -> None:
    compile(block.body, block.where, "exec")


SESSION_DOCS = [d for d in DOCS if any(b.tag == "console" for b in blocks_of(d))]


@pytest.mark.parametrize("doc", SESSION_DOCS, ids=lambda d: d.name)
def test_console_sessions_print_what_the_doc_shows(doc: Path, tmp_path: Path) -> None:
    (tmp_path / "games").symlink_to(ROOT / "games")  # paths such as games/quasenbo.game work as in the repository
    wrong = []
    for block in blocks_of(doc):
        if block.tag in ("game", "python") and block.title:  # a rule file, an agent (process:my_agent.py)
            (tmp_path / block.title).write_text(block.body, encoding="utf-8")
        if block.tag != "console" or block.marker == ABRIDGED:
            continue
        for session in sessions_of(block):
            if (ruledsl_arguments(shlex.split(session.command)) or ["?"])[0] not in RUNNABLE:
                continue  # test_console_blocks_run_only_commands_that_end says so
            actual = run(session.command, tmp_path)
            expected = [line.rstrip() for line in session.output]
            while expected and not expected[-1]:
                expected.pop()
            if not matches(expected, actual):
                wrong.append(f"{block.where}: $ {session.command}\n" + "\n".join(actual))
    assert wrong == [], "\n\n".join(wrong)


def test_console_blocks_run_only_commands_that_end() -> None:
    endless = [
        f"{b.where}: $ {s.command}"
        for b in _of("console")
        if b.marker != ABRIDGED
        for s in sessions_of(b)
        if (ruledsl_arguments(shlex.split(s.command)) or ["?"])[0] not in RUNNABLE
    ]
    assert endless == [], f"mark these blocks '{ABRIDGED}' (they are shown, not run), or make RUNNABLE run them"


def test_matching_output_with_elisions() -> None:
    assert matches(["a", "…", "d"], ["a", "b", "c", "d"])
    assert matches(["a", "…"], ["a"])
    assert not matches(["a", "…", "d"], ["a", "b"])
    assert not matches(["a"], ["a", "b"])


def test_commands_are_found_in_shell_text() -> None:
    text = "python3 -m venv .venv && .venv/bin/ruledsl play x \\\n  --players 3   # a comment\nruledsl list\n"
    assert commands_in(text) == [
        ["python3", "-m", "venv", ".venv"],
        [".venv/bin/ruledsl", "play", "x", "--players", "3"],
        ["ruledsl", "list"],
    ]
    assert parse_error(["play", "x", "--players", "3"]) is None
    assert parse_error(["play", "x", "--no-such-flag"]) is not None


# ============================================================================ the tutorial


def test_the_tutorials_final_game_passes_check_simulate_50(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    final = [b for b in blocks_of(TUTORIAL) if b.tag == "game" and b.title][-1]
    path = tmp_path / "shed.game"
    path.write_text(final.body, encoding="utf-8")
    assert main(["check", "--simulate", "50", str(path)]) == 0
    out = capsys.readouterr().out
    # Every random game of every configuration ended: none stopped, stuck or failed.
    summary = re.search(r"all \d+ configurations\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)", out)
    assert summary is not None, out
    games, ended, stopped, stuck, failed = map(int, summary.groups())
    assert games >= 150 and ended == games and stopped == stuck == failed == 0


def test_each_step_of_the_tutorial_is_in_the_canonical_layout() -> None:
    steps = [b for b in blocks_of(TUTORIAL) if b.tag == "game" and b.title]
    assert [b.where for b in steps if format_source(b.body) != b.body] == []
