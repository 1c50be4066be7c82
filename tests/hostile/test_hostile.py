"""Every file of the hostile corpus under a time and a memory cap: a clear error or a game, never a traceback.

For each file one process of its own, capped at MEMORY bytes of address space, runs the
commands ``check``, ``play`` (bots at every seat) and ``simulate -n 2`` one after the other,
and times each (issue 31: none may take more than SECONDS or 500 MB). README.md says what
each file attacks.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
FILES = sorted(HERE.glob("*.game"))

MEMORY = 500 * 1024 * 1024
SECONDS = 10

#: What a command may end with: done, a bad option or player count (2), a rule file refused (65), a
#: rule stopped while playing (70).
CLEAR_EXITS = {0, 2, 65, 70}

COMMANDS = [["check"], ["play"], ["simulate", "-n", "2"]]

#: Run in the capped process: each command in turn, its exit code, time and error output as JSON.
_DRIVER = """
import contextlib, io, json, sys, time
from ruledsl.cli.app import main
results = []
for argv in json.loads(sys.argv[1]):
    err = io.StringIO()
    start = time.perf_counter()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 2
    results.append({"argv": argv, "code": code, "seconds": time.perf_counter() - start, "stderr": err.getvalue()})
print(json.dumps(results))
"""


def _python(args: list[str], timeout: float, **options: Any) -> subprocess.CompletedProcess[str]:
    """Run Python with ``args`` at the repository's root: no input, no colours, its output as text."""
    return subprocess.run(
        [sys.executable, *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, "NO_COLOR": "1"},
        stdin=subprocess.DEVNULL,
        **options,
    )


def _cap_memory() -> None:
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_AS caps memory on Linux")
@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_a_hostile_file_ends_clearly_within_the_caps(path: Path) -> None:
    shown = str(path.relative_to(ROOT))
    argvs = [[*command, shown] for command in COMMANDS]
    try:
        # The interpreter's start besides.
        done = _python(["-c", _DRIVER, json.dumps(argvs)], SECONDS * len(COMMANDS) + 10, preexec_fn=_cap_memory)
    except subprocess.TimeoutExpired:
        pytest.fail(f"the commands on {path.name} ran past {SECONDS * len(COMMANDS)} s")
    assert done.returncode == 0, done.stderr[-3000:]
    for result in json.loads(done.stdout):
        command, err = " ".join(result["argv"][:-1]), result["stderr"]
        assert "Traceback" not in err and "internal error" not in err, (command, err[-3000:])
        assert "MemoryError" not in err, (command, err[-3000:])
        assert result["code"] in CLEAR_EXITS, (command, result["code"], err[-3000:])
        assert result["seconds"] <= SECONDS, (command, result["seconds"])
        if result["code"]:
            # A positioned error, or the one-line error of a file that cannot be read.
            assert f"{shown}:" in err or err.startswith("ruledsl: error:"), (command, err[-3000:])


def test_the_readme_names_every_file() -> None:
    readme = (HERE / "README.md").read_text(encoding="utf-8")
    assert sorted(p.name for p in FILES) == sorted(
        line.split("`")[1] for line in readme.splitlines() if line.startswith("- `")
    )


#: The files whose rules work inside one expression (sorting, sums, counts, tuples, subset searches,
#: the picks of a set chosen card by card), each loop round within every limit, and where each stops.
WORK = {
    "work_sorted_item.game": "12:9: error[R511]",
    "work_subset_sum.game": "12:12: error[R511]",
    "work_best_tuple.game": "13:9: error[R511]",
    "work_count.game": "12:9: error[R511]",
    "work_picks.game": "14:5: error[R507]",
    "work_moves.game": "12:9: error[R511]",
    "work_shuffle.game": "11:9: error[R511]",
    "work_say.game": "11:9: error[R511]",
}

#: A guard only: the budget stops each in about a second; before it, each ran for minutes.
WORK_GUARD = 120


@pytest.mark.parametrize("name", sorted(WORK))
def test_work_inside_one_expression_counts_against_the_budget(name: str) -> None:
    shown = str((HERE / name).relative_to(ROOT))
    try:
        done = _python(["-m", "ruledsl", "play", shown], WORK_GUARD)
    except subprocess.TimeoutExpired:
        pytest.fail(f"play {name} ran past {WORK_GUARD} s: its work is not counted")
    assert done.returncode == 70, done.stderr[-3000:]
    assert f"{shown}:{WORK[name]}" in done.stderr, done.stderr[-3000:]
