"""Random valid rule files, played under every engine invariant (issue 37): on demand, for long runs.

Draws ``--files`` games that check clean (``tests/generate/rules.py``: hypothesis strategies
over the nodes, written with the unparser, the same ``--seed`` giving the same files), plays
each with random moves for a player count drawn from its range (at most 200 actions a
game), and checks after every action each invariant of ``tests/generate/invariants.py``
(cards conserved, a live state can go on, clone and replay, a group chosen card by card is
the whole group, knowledge and resampling, swap twins, the bots' choices, ``fmt``). Prints one
JSON object (``--json``) or a line per figure::

    python benchmarks/random_rules.py --files 200 --seed 7 --json
    nice python benchmarks/random_rules.py --files 1000 --seed 1 --out /tmp/random_rules
    nice python benchmarks/random_rules.py --files 10000 --seed 101 --jobs 2 --json

``--jobs N`` plays the files in N processes; the figures are the same as with one (files are
drawn once, in the parent, and the outcomes are gathered in file order).

Each break is written to ``--out`` (default: a new temporary directory, printed on stderr)
as ``break_N.game``: the file, with the seed, the player count, the invariant and what
broke in comments at its top, so that it can be replayed. Progress goes to stderr.
"""

from __future__ import annotations

import argparse
import collections
import concurrent.futures
import contextlib
import json
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

_ROOT = Path(__file__).resolve().parents[1]
if str(_ROOT) not in sys.path:
    sys.path.insert(0, str(_ROOT))  # run as a script: the generator lives under tests/

from ruledsl.cli.progress import Progress  # noqa: E402
from tests.generate.invariants import play_file  # noqa: E402
from tests.generate.rules import drawn_texts  # noqa: E402


def _play(job: tuple[int, str, int]) -> tuple[int, Any, float]:
    """Play file ``i`` (in a worker process when ``--jobs`` > 1); return it with its outcome and time."""
    i, text, games = job
    began = time.perf_counter()
    outcome = play_file(text, i, games=games)
    return i, outcome, time.perf_counter() - began


def run(files: int, seed: int, out: Path, games: int = 1, jobs: int = 1) -> dict[str, Any]:
    """Draw and play ``files`` rule files from ``seed``; write each break under ``out``; return the figures."""
    start = time.perf_counter()
    texts = drawn_texts(files, seed)
    figures: dict[str, Any] = {
        "files": len(texts),
        "games": 0,
        "actions": 0,
        "breaks": [],
        "seed": seed,
        "slowest": [],
    }
    times: list[tuple[float, int]] = []
    by_invariant: collections.Counter[str] = collections.Counter()
    work = [(i, text, games) for i, text in enumerate(texts)]
    with Progress("random rules") as progress, _pool(jobs) as pool:
        for i, outcome, took in pool.map(_play, work) if pool is not None else map(_play, work):
            times.append((took, i))
            figures["games"] += outcome.games
            figures["actions"] += outcome.actions
            for found in outcome.breaks:
                _save_break(figures, found, out, i, seed, texts[i])
                by_invariant[found["invariant"]] += 1
            progress.say(
                f"{i + 1:,}/{len(texts):,} files, {figures['actions']:,} actions, {len(figures['breaks'])} breaks"
            )
    # The files that cost the most: where the harness (or the engine) spends its time.
    figures["slowest"] = [[i, round(took, 2)] for took, i in sorted(times, reverse=True)[:5]]
    figures["by_invariant"] = dict(by_invariant)
    figures["seconds"] = round(time.perf_counter() - start, 1)
    return figures


def _pool(jobs: int) -> Any:
    """Worker processes for ``jobs`` > 1, else a context that gives none (play in this process)."""
    if jobs <= 1:
        return contextlib.nullcontext(None)
    return concurrent.futures.ProcessPoolExecutor(max_workers=jobs)


def _save_break(figures: dict[str, Any], found: dict[str, Any], out: Path, i: int, seed: int, text: str) -> None:
    """Write the file that broke, what broke in comments at its top, so that it can be replayed."""
    path = out / f"break_{len(figures['breaks'])}.game"
    out.mkdir(parents=True, exist_ok=True)
    header = "".join(f"# {key}: {line}\n" for key, value in found.items() for line in str(value).splitlines()[:40])
    path.write_text(f"# file {i} of --seed {seed}\n{header}{text}", encoding="utf-8")
    figures["breaks"].append(
        {
            "file": i,
            **{k: v for k, v in found.items() if k != "detail"},
            "detail": found["detail"].splitlines()[0],
            "saved": str(path),
        }
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n", 1)[0])
    parser.add_argument("--files", type=int, default=200, help="rule files to draw (default 200)")
    parser.add_argument("--seed", type=int, default=0, help="the same seed draws the same files")
    parser.add_argument("--games", type=int, default=1, help="games played of each file (default 1)")
    parser.add_argument("--out", type=Path, default=None, help="where breaks are written (default: a temp dir)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--jobs", type=int, default=1, help="processes that play the files (default 1)")
    args = parser.parse_args(argv)
    out = args.out if args.out is not None else Path(tempfile.mkdtemp(prefix="random_rules_"))
    print(f"breaks are written to {out}", file=sys.stderr)
    figures = run(args.files, args.seed, out, args.games, args.jobs)
    if args.json:
        print(json.dumps(figures, indent=1))
    else:
        print(
            f"{figures['files']:,} files, {figures['games']:,} games, {figures['actions']:,} actions, "
            f"{len(figures['breaks'])} breaks in {figures['seconds']} s (seed {args.seed})"
        )
        for b in figures["breaks"]:
            print(f"  file {b['file']} ({b['saved']}): {b['invariant']}: {b['detail']}")
    return 1 if figures["breaks"] else 0


if __name__ == "__main__":
    sys.exit(main())
