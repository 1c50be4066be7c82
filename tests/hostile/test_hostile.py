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


def _cap_memory() -> None:
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_AS caps memory on Linux")
@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_a_hostile_file_ends_clearly_within_the_caps(path: Path) -> None:
    shown = str(path.relative_to(ROOT))
    argvs = [[*command, shown] for command in COMMANDS]
    try:
        done = subprocess.run(
            [sys.executable, "-c", _DRIVER, json.dumps(argvs)],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=SECONDS * len(COMMANDS) + 10,  # the interpreter's start besides
            preexec_fn=_cap_memory,
            env={**os.environ, "NO_COLOR": "1"},
            stdin=subprocess.DEVNULL,
        )
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
