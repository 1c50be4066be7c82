"""The code type-checks: mypy over ruledsl/, as pyproject.toml configures it (the engine and text/ strict)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.extras import require

ROOT = Path(__file__).resolve().parent.parent.parent


#: The libraries of the optional front doors mypy reads the types of (pyproject.toml ignores only
#: those that ship none): without them it cannot check the modules that import them.
TYPED_EXTRAS = [
    ("starlette", "serve"),
    ("uvicorn", "serve"),
    ("matplotlib", "plot"),
    ("dask", "cluster"),
    ("distributed", "cluster"),
    ("lsprotocol", "lsp"),
    ("pygls", "lsp"),
    ("numpy", "openspiel"),
    ("gymnasium", "pettingzoo"),
]


def test_mypy_finds_nothing() -> None:
    for module, extra in TYPED_EXTRAS:
        require(module, extra)  # skipped with the [test] extra alone; a failure in CI, which installs them all
    # About 6 s cold (a fresh clone, as in CI); well under 1 s from the cache it keeps in .mypy_cache/.
    done = subprocess.run([sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
