"""Golden tests: the exact output of CLI runs, and diagnostics marked inline in rule files."""

from __future__ import annotations

import io
import os
import re
import shlex
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from ruledsl import cli

HERE = Path(__file__).parent
ROOT = HERE.parent.parent
CLI_CASES = sorted((HERE / "cli").glob("*.args"))
RULE_CASES = sorted((HERE / "cases").glob("*.game"))


def run_cli(argv: list[str], cwd: Path = ROOT, stdin: str | None = None) -> tuple[int, str, str]:
    """Run the command line in-process, from the repository root (or ``cwd``), without colour.

    ``stdin``, if given, is what is typed: a transcript, not a terminal.
    """
    out, err = io.StringIO(), io.StringIO()
    old = os.getcwd()
    os.chdir(cwd)
    os.environ["NO_COLOR"] = "1"
    old_stdin = sys.stdin
    if stdin is not None:
        sys.stdin = io.StringIO(stdin)
    try:
        with redirect_stdout(out), redirect_stderr(err):
            try:
                code = cli.main(argv)
            except SystemExit as exc:  # argparse exits on usage errors
                code = int(exc.code or 0)
    finally:
        os.chdir(old)
        sys.stdin = old_stdin
    return code, out.getvalue(), err.getvalue()


#: The one line of a run that differs from run to run: simulate's time taken (on stderr).
_TIME = re.compile(r"^time \d+\.\d+ s( \([\d.]+ games/s\))?$", re.MULTILINE)


def format_run(code: int, out: str, err: str) -> str:
    return f"exit: {code}\n--- stdout\n{out}--- stderr\n{_TIME.sub('time (not compared)', err)}"


@pytest.mark.parametrize("case", CLI_CASES, ids=[c.stem for c in CLI_CASES])
def test_cli_output_is_golden(case: Path, request: pytest.FixtureRequest) -> None:
    """NAME.args is the command line; NAME.stdin, if there is one, what is typed; NAME.out the output."""
    argv = shlex.split(case.read_text(encoding="utf-8"))
    typed = case.with_suffix(".stdin")
    actual = format_run(*run_cli(argv, stdin=typed.read_text(encoding="utf-8") if typed.exists() else None))
    golden = case.with_suffix(".out")
    if request.config.getoption("--update-golden"):
        golden.write_text(actual, encoding="utf-8")
    elif not golden.exists():
        # Written for review, but no pass: a case without its expected output checks nothing.
        golden.write_text(actual, encoding="utf-8")
        pytest.fail(f"{golden.name} was missing: written now from this run; read it, then commit it")
    assert actual == golden.read_text(encoding="utf-8")


_EXPECT = re.compile(r"#\s*expect (error|warning)\[(\w+)\]: (.*?)\s*$")


@pytest.mark.parametrize("case", RULE_CASES, ids=[c.stem for c in RULE_CASES])
def test_inline_expectations(case: Path) -> None:
    """Each '# expect error[CODE]: message' comment names a diagnostic reported on its line."""
    expected = set()
    for number, line in enumerate(case.read_text(encoding="utf-8").splitlines(), start=1):
        m = _EXPECT.search(line)
        if m:
            expected.add((number, m.group(1), m.group(2), m.group(3)))
    assert expected, f"{case.name} has no '# expect' comment"
    code, out, err = run_cli(["check", "--format", "json", str(case.relative_to(ROOT))])
    import json

    found = {(d["line"], d["severity"], d["code"], d["message"]) for d in json.loads(out)}
    assert found == expected
    assert code == (65 if any(e[1] == "error" for e in expected) else 0)
