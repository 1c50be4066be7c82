"""docs/integrations.md: every Python example runs as written, and its table of sizes is the truth."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from ruledsl.resources import named_games
from ruledsl.spaces import spaces_for
from tests.extras import require

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "integrations.md").read_text(encoding="utf-8")
EXAMPLES = re.findall(r"```python\n(.*?)```", DOC, re.S)


def test_there_is_an_example_for_each_bridge() -> None:
    assert len(EXAMPLES) == 7
    assert [("pyspiel" in e, "ismcts" in e, "pettingzoo" in e, "gymnasium" in e) for e in EXAMPLES] == [
        (True, False, False, False),
        (True, True, False, False),
        (True, False, False, False),
        (True, False, False, False),
        (False, False, True, False),
        (False, False, False, True),
        (False, False, False, True),
    ]


@pytest.mark.parametrize(
    ("index", "expected"),
    [
        (0, r"^254 352 \["),
        (1, r"^IS-MCTS seat 0 returns \["),
        (2, r"^public view \(352,\) True$"),
        (3, r"^seat 0 recalls \d+ views and choices$"),
        (4, r"'player_0': -?[01]\.0"),
        (5, r"^43 45 \(45,\)$"),  # Kuhn poker: the information state adds its two action ids
        (6, r"^trained on \d+ steps"),
    ],
)
def test_the_example_runs(index: int, expected: str, tmp_path: Path) -> None:
    require("pyspiel" if index < 4 else "pettingzoo", "openspiel" if index < 4 else "pettingzoo")
    script = tmp_path / "example.py"
    script.write_text(EXAMPLES[index], encoding="utf-8")
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stderr
    assert re.search(expected, done.stdout, re.M), done.stdout


def test_the_table_of_sizes_is_true() -> None:
    sizes = r"\d+: \d+ / \d+ / \d+"  # players: ids / observation / information state
    rows = re.findall(rf"^\| (?:examples/)?(\w+) \| [^|]+ \| ({sizes}(?:; {sizes})*) \|$", DOC, re.M)
    assert len(rows) == len(named_games())  # one row per game
    for name, cells in rows:
        for cell in cells.split(";"):
            players, sizes = cell.strip().split(": ")
            spaces = spaces_for(name, int(players))
            shown = [spaces.actions.num_distinct_actions, spaces.tensors.observation_size]
            shown.append(spaces.tensors.information_state_size)
            assert sizes == " / ".join(map(str, shown)), (name, players)
