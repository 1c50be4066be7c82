"""tests/extras.py: a test file that needs an optional extra is skipped without it, except in CI, where it fails.

A skip that hides a missing part in CI is a test that cannot fail; an error outside CI makes the
`[test]` extra alone unable to run the suite.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

NEEDS_AT_THE_TOP = """\
from tests.extras import require

require("ruledsl_no_such_module", "nothing")


def test_never_runs() -> None:
    raise AssertionError("the module should have stopped at its top")
"""

NEEDS_IN_A_TEST = """\
from tests.extras import require


def test_needs_it() -> None:
    require("ruledsl_no_such_module", "nothing")
    raise AssertionError("require should have stopped the test")
"""


NEEDS_A_PROGRAM = """\
from tests.extras import require_program


def test_needs_it() -> None:
    require_program("ruledsl-no-such-program", "ruledsl-no-such-package")
    raise AssertionError("require_program should have stopped the test")
"""


def _run(tmp_path: Path, text: str, ci: bool) -> subprocess.CompletedProcess[str]:
    test = tmp_path / "test_needs_extra.py"
    test.write_text(text, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k != "RULEDSL_CI"}
    env["PYTHONPATH"] = str(ROOT)
    if ci:
        env["RULEDSL_CI"] = "1"
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "--rootdir", str(tmp_path), str(test)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize(
    "text", [NEEDS_AT_THE_TOP, NEEDS_IN_A_TEST, NEEDS_A_PROGRAM], ids=["module", "test", "program"]
)
def test_a_missing_extra_skips_outside_ci(tmp_path: Path, text: str) -> None:
    done = _run(tmp_path, text, ci=False)
    assert done.returncode in (0, 5), done.stdout + done.stderr  # 5: a module skipped whole collects no test
    assert "1 skipped" in done.stdout and "error" not in done.stdout.lower(), done.stdout


@pytest.mark.parametrize("text", [NEEDS_AT_THE_TOP, NEEDS_IN_A_TEST], ids=["module", "test"])
def test_a_missing_extra_fails_in_ci(tmp_path: Path, text: str) -> None:
    done = _run(tmp_path, text, ci=True)
    assert done.returncode != 0
    assert "CI installs ruledsl[nothing], yet ruledsl_no_such_module is missing" in done.stdout, done.stdout


def test_a_missing_program_fails_in_ci(tmp_path: Path) -> None:
    done = _run(tmp_path, NEEDS_A_PROGRAM, ci=True)
    assert done.returncode != 0
    assert ".ci/run installs Debian's ruledsl-no-such-package, yet ruledsl-no-such-program is missing" in done.stdout
