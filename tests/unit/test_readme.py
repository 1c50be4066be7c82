"""The README's Python example runs as written, so the API it shows cannot drift from the code."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_readme_python_example_runs(tmp_path: Path) -> None:
    (example,) = re.findall(r"```python\n(.*?)```", (ROOT / "README.md").read_text(encoding="utf-8"), re.S)
    script = tmp_path / "example.py"
    script.write_text(example, encoding="utf-8")
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, cwd=ROOT, check=True)
    lines = done.stdout.splitlines()
    assert lines[:2] == ["the Author is not in your hand", "True"]
    assert sorted(ast.literal_eval(lines[2])) == [-1.0, -1.0, 1.0]  # one winner of three
    assert lines[3].startswith("{")  # seat 0's observation
