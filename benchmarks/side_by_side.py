"""Compare this checkout's engine with another revision's, side by side in one process.

The other revision is exported from git into a temporary folder and imported under another
name (``ruledsl_then``), so that both run in the same process, alternately, each timed in
CPU time: on a machine shared with other work, drift and load then fall on both alike. For
each game: listing the legal actions, applying an action (on the same states and actions,
recorded once), and resampling a state for a seat (``resample``); medians of ``--rounds``
alternations, and their ratio (now / then)::

    python -m benchmarks.side_by_side fdd61d5 crazy_eights quasenbo --rounds 25
"""

from __future__ import annotations

import argparse
import random
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

_ROOT = Path(__file__).resolve().parents[1]
#: A name of one of ruledsl's modules ("ruledsl.engine"), not a file name ("ruledsl.lark").
_MODULE = re.compile(
    r"\bruledsl\.(?=(analysis|codegen|engine|syntax|text|format|agents|tools|cli|loading|resources)\b)"
)


def import_revision(revision: str, folder: Path) -> ModuleType:
    """Export ``revision``'s ruledsl into ``folder`` as the package ``ruledsl_then`` and import it."""
    archive = subprocess.run(["git", "archive", revision, "ruledsl"], cwd=_ROOT, capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive.stdout, check=True)
    (folder / "ruledsl").rename(folder / "ruledsl_then")
    for name in ("grammar", "games"):
        (folder / name).symlink_to(_ROOT / name)
    for path in (folder / "ruledsl_then").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        text = _MODULE.sub("ruledsl_then.", text)  # imports, and module names in strings (lazy imports)
        text = text.replace("from ruledsl import", "from ruledsl_then import")
        path.write_text(text, encoding="utf-8")
    sys.path.insert(0, str(folder))
    import ruledsl_then  # type: ignore[import-not-found]

    return ruledsl_then  # type: ignore[no-any-return]


def timers(module: ModuleType, game: str) -> dict[str, Callable[[], float]]:
    """Timed parts for one game: each returns microseconds of CPU time per operation."""
    loaded = module.load_game(game)
    pairs = []
    for seed in range(15):
        state = loaded.new_initial_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            action = rng.choice(state.legal_actions())
            copy = state.clone()
            copy._legal = None
            pairs.append((copy, action))
            state.apply_action(action)
    tracked = []
    for seed in range(10):
        state = loaded.new_initial_state(seed=seed, track=True)
        rng = random.Random(seed)
        for _ in range(8):
            if not state.is_terminal():
                state.apply_action(rng.choice(state.legal_actions()))
        if not state.is_terminal():
            tracked.append(state)

    def legal() -> float:
        copies = [s.clone() for s, _ in pairs]
        start = time.process_time()
        for c in copies:
            c.legal_actions()
        return (time.process_time() - start) / len(copies) * 1e6

    def apply() -> float:
        copies = [(s.clone(), a) for s, a in pairs]
        for c, _ in copies:
            c.legal_actions()
        start = time.process_time()
        for c, a in copies:
            c.apply_action(a)
        return (time.process_time() - start) / len(copies) * 1e6

    def resample() -> float:
        rng = random.Random(1)
        start = time.process_time()
        for s in tracked:
            s.resample(s.current_player(), rng)
        return (time.process_time() - start) / max(1, len(tracked)) * 1e6

    return {"legal_actions": legal, "apply_action": apply, "resample": resample}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("revision", help="the git revision to compare with (such as main)")
    parser.add_argument("games", nargs="+")
    parser.add_argument("--rounds", type=int, default=25)
    args = parser.parse_args(argv)
    import ruledsl

    with tempfile.TemporaryDirectory() as folder:
        then = import_revision(args.revision, Path(folder))
        for game in args.games:
            old, new = timers(then, game), timers(ruledsl, game)
            parts = []
            for part in old:
                a, b = [], []
                for _ in range(args.rounds):
                    a.append(old[part]())
                    b.append(new[part]())
                ma, mb = sorted(a)[len(a) // 2], sorted(b)[len(b) // 2]
                parts.append(f"{part} {ma:.2f} -> {mb:.2f} us ({mb / ma:.2f})")
            print(f"{game}: " + "; ".join(parts), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
