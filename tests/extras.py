"""Tests of optional front doors: skip on a machine without the extra, fail in CI.

`.ci/run` installs every extra, Debian's chromium and neovim, and sets RULEDSL_CI=1, so there a missing
part is a failure, never a silent skip (a test that cannot fail is a defect).
"""

from __future__ import annotations

import importlib
import os
import shutil
from types import ModuleType

import pytest

IN_CI = os.environ.get("RULEDSL_CI") == "1"


def require(module: str, extra: str) -> ModuleType:
    """Import `module` (installed by `pip install 'ruledsl[extra]'`), or skip outside CI."""
    try:
        return importlib.import_module(module)
    except ImportError as error:
        if IN_CI:
            raise AssertionError(f"CI installs ruledsl[{extra}], yet {module} is missing: {error}") from error
        # At a module's top (a whole file of tests needs it) as well as in a test: allow_module_level,
        # without which pytest turns the skip at a module's top into a collection error.
        pytest.skip(f"needs ruledsl[{extra}] ({module})", allow_module_level=True)


def require_program(name: str, package: str) -> str:
    """The path of the program `name` from Debian's `package` (installed by `.ci/run`), or skip outside CI."""
    path = shutil.which(name) or (f"/usr/bin/{name}" if os.path.exists(f"/usr/bin/{name}") else None)
    if path is None:
        if IN_CI:
            raise AssertionError(f".ci/run installs Debian's {package}, yet {name} is missing")
        pytest.skip(f"needs Debian's {package} (apt-get install {package})", allow_module_level=True)
    return path


def require_chromium() -> str:
    """The path of Debian's chromium for Playwright, or skip outside CI."""
    return require_program("chromium", "chromium")
