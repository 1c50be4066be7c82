"""Fuzz rule files on demand: mutate the shipped games and the hostile corpus, check and play each, report the worst.

Each generated file is checked (``check_source``); one that checks clean is loaded for its
least player count and two random games of at most 200 actions are played (as ``check
--simulate 2`` and ``simulate -n 2`` do). Only a RuleDslError may come out; anything else,
or a file that takes more than ``--cap`` seconds of CPU, is a finding, written to ``--out`` with
the file that caused it. The process runs under a cap on its address space (``--memory``,
MB), so that a file that would take the machine's memory fails here with a MemoryError
(a finding) instead. The report gives the count, the outcomes, the slowest file and the
largest growth of the process's peak memory, with the files::

    python -m benchmarks.fuzz_rules --seconds 600 --seed 1
    python -m benchmarks.fuzz_rules --count 100000 --out /tmp/fuzz

Mutations are token-level (delete, duplicate, swap, replace a number by a huge or odd one,
a name by another of the file, insert ``* name`` or ``"{name}{name}"``), line-level (delete,
duplicate, wrap in ``repeat 40 times:``) and whole-file (truncate, append a block of
another file); several are applied in a row. Grammar-based generation is in
``tests/property/test_fuzz.py`` (``hypothesis.extra.lark``), run long with
``RULEDSL_FUZZ_EXAMPLES``.
"""

from __future__ import annotations

import argparse
import collections
import random
import re
import resource
import signal
import sys
import time
import traceback
from pathlib import Path
from typing import Any

import ruledsl
from ruledsl.loading import check_source, load_checked, players_range
from ruledsl.resources import bundled_games
from ruledsl.text.errors import RuleDslError
from ruledsl.text.source import Source

_ROOT = Path(__file__).resolve().parents[1]
_TOKEN = re.compile(r"[A-Za-z_][A-Za-z_0-9]*|\d+|\"[^\"\n]*\"|\s+|.", re.S)
_ODD_NUMBERS = ["0", "-1", "999999999", "1000000000", "99999999999999999999", "²", "1" + "0" * 40, "4294967296"]


class Slow(Exception):
    """The file ran past the time cap."""


def _on_alarm(signum: int, frame: Any) -> None:
    raise Slow()


def sources() -> list[str]:
    """The texts mutated: every bundled game and every file of the hostile corpus."""
    texts = [Path(path).read_text(encoding="utf-8") for path in bundled_games().values()]
    for path in sorted((_ROOT / "tests" / "hostile").glob("*.game")):
        texts.append(path.read_bytes().decode("utf-8", "replace"))
    return texts


def mutate(text: str, rng: random.Random, others: list[str]) -> str:
    """Apply one to four mutations to ``text``."""
    for _ in range(rng.randint(1, 4)):
        text = rng.choice(_MUTATIONS)(text, rng, others)
    return text


def _tokens(text: str) -> list[str]:
    return _TOKEN.findall(text)


def _delete_token(text: str, rng: random.Random, others: list[str]) -> str:
    tokens = _tokens(text)
    if tokens:
        del tokens[rng.randrange(len(tokens))]
    return "".join(tokens)


def _duplicate_token(text: str, rng: random.Random, others: list[str]) -> str:
    tokens = _tokens(text)
    if tokens:
        i = rng.randrange(len(tokens))
        tokens.insert(i, tokens[i])
    return "".join(tokens)


def _swap_tokens(text: str, rng: random.Random, others: list[str]) -> str:
    tokens = _tokens(text)
    if len(tokens) > 1:
        i, j = rng.randrange(len(tokens)), rng.randrange(len(tokens))
        tokens[i], tokens[j] = tokens[j], tokens[i]
    return "".join(tokens)


def _odd_number(text: str, rng: random.Random, others: list[str]) -> str:
    tokens = _tokens(text)
    numbers = [i for i, t in enumerate(tokens) if t.isdigit()]
    if numbers:
        tokens[rng.choice(numbers)] = rng.choice(_ODD_NUMBERS)
    return "".join(tokens)


def _other_name(text: str, rng: random.Random, others: list[str]) -> str:
    tokens = _tokens(text)
    names = [i for i, t in enumerate(tokens) if t[0].isalpha() or t[0] == "_"]
    if names:
        tokens[rng.choice(names)] = tokens[rng.choice(names)]
    return "".join(tokens)


def _grow(text: str, rng: random.Random, others: list[str]) -> str:
    """Make a value grow: ``x`` becomes ``x * x``, a text ``"{x}"`` becomes ``"{x}{x}"``."""
    tokens = _tokens(text)
    names = [i for i, t in enumerate(tokens) if t[0].isalpha() and t not in _KEYWORDS]
    if names:
        i = rng.choice(names)
        tokens[i] = rng.choice([f"{tokens[i]} * {tokens[i]}", f"({tokens[i]} + {tokens[i]})"])
    texts = [i for i, t in enumerate(tokens) if t.startswith('"') and "{" in t]
    if texts and rng.random() < 0.5:
        i = rng.choice(texts)
        tokens[i] = tokens[i][:-1] + tokens[i][1:]
    return "".join(tokens)


def _line(text: str, rng: random.Random, others: list[str]) -> str:
    lines = text.split("\n")
    if not lines:
        return text
    i = rng.randrange(len(lines))
    kind = rng.randrange(3)
    if kind == 0:
        del lines[i]
    elif kind == 1:
        lines.insert(i, lines[i])
    else:
        indent = lines[i][: len(lines[i]) - len(lines[i].lstrip())]
        if indent:
            lines[i : i + 1] = [f"{indent}repeat 40 times:", "    " + lines[i]]
    return "\n".join(lines)


def _splice(text: str, rng: random.Random, others: list[str]) -> str:
    if rng.random() < 0.3:
        return text[: rng.randrange(len(text) + 1)]
    other = rng.choice(others).split("\n")
    start = rng.randrange(len(other))
    return text + "\n" + "\n".join(other[start : start + rng.randint(1, 15)])


_MUTATIONS = [_delete_token, _duplicate_token, _swap_tokens, _odd_number, _other_name, _grow, _line, _splice]
_KEYWORDS = {"game", "players", "values", "card", "zone", "deck", "setup", "phase", "action", "if", "else", "for"}


def run_one(text: str, seed: int) -> str:
    """Check a file and, if it checks clean, play two short random games; return the outcome."""
    try:
        checked = check_source(Source("fuzz.game", text))
    except RuleDslError as exc:
        return "refused " + (exc.diagnostics[0].code if exc.diagnostics else "?")
    try:
        low, _ = players_range(checked)
        game = load_checked(checked, low, {}, max_actions=200)
        for s in (seed, seed + 1):
            state = game.new_initial_state(seed=s)
            rng = random.Random(s)
            while not state.is_terminal():
                legal = state.legal_actions()
                if not legal:
                    return "stuck"
                state.apply_action(rng.choice(legal))
    except RuleDslError as exc:
        return "stopped " + (exc.diagnostics[0].code if exc.diagnostics else "?")
    return "played"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--seconds", type=float, default=60.0, help="stop after this long (default 60)")
    parser.add_argument("--count", type=int, default=None, help="stop after this many files")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--cap", type=float, default=10.0, help="seconds one file may take (default 10)")
    parser.add_argument("--memory", type=int, default=1500, help="address space of the process, MB (default 1500)")
    parser.add_argument("--out", type=Path, default=None, help="write each finding's file here")
    args = parser.parse_args(argv)
    limit = args.memory * 1024 * 1024
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    # Time is CPU time (the profiling timer): on a shared machine a wall clock would count
    # the other programs' turns against a file.
    signal.signal(signal.SIGPROF, _on_alarm)
    rng = random.Random(args.seed)
    texts = sources()
    ruledsl.load_game("crazy_eights")  # the grammar and the compiler, loaded before anything is timed
    outcomes: collections.Counter[str] = collections.Counter()
    findings: list[tuple[str, str]] = []
    worst_time: tuple[float, str] = (0.0, "")
    worst_memory: tuple[int, str] = (0, "")
    start = time.perf_counter()
    n = 0
    while (args.count is None or n < args.count) and time.perf_counter() - start < args.seconds:
        text = mutate(rng.choice(texts), rng, texts)
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        began = time.process_time()
        signal.setitimer(signal.ITIMER_PROF, args.cap)
        try:
            outcome = run_one(text, n)
        except Slow:
            outcome = "FINDING slow"
        except BaseException as exc:  # noqa: BLE001 - every other way out is a finding
            if isinstance(exc, KeyboardInterrupt):
                raise
            outcome = f"FINDING {type(exc).__name__}"
            findings.append((outcome, text + "\n# " + traceback.format_exc().replace("\n", "\n# ")))
        finally:
            signal.setitimer(signal.ITIMER_PROF, 0)
        took = time.process_time() - began
        grew = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - peak
        if outcome == "FINDING slow":
            findings.append((outcome, text))
        if took > worst_time[0]:
            worst_time = (took, text)
        if grew > worst_memory[0]:
            worst_memory = (grew, text)
        outcomes[outcome.split(" ")[0] if not outcome.startswith("FINDING") else outcome] += 1
        n += 1
        if n % 1000 == 0:
            print(f"{n:,} files, {len(findings)} findings, slowest {worst_time[0]:.2f} s", file=sys.stderr, flush=True)
    elapsed = time.perf_counter() - start
    print(f"{n:,} files in {elapsed:.0f} s ({n / elapsed:.0f} a second), seed {args.seed}")
    for outcome, count in outcomes.most_common():
        print(f"  {outcome}: {count:,}")
    print(f"slowest file: {worst_time[0]:.2f} s of CPU")
    print(
        f"largest growth of peak memory: {worst_memory[0] / 1024:.1f} MB (whole process peak: "
        f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB)"
    )
    print(f"findings: {len(findings)}")
    if args.out is not None:
        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "slowest.game").write_text(worst_time[1], encoding="utf-8")
        (args.out / "largest.game").write_text(worst_memory[1], encoding="utf-8")
        for i, (outcome, text) in enumerate(findings):
            (args.out / f"finding_{i}.game").write_text(f"# {outcome}\n{text}", encoding="utf-8")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
