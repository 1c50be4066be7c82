"""The bench command: how fast a game plays, and what loading and playing it cost."""

from __future__ import annotations

import argparse
from typing import Any

from ruledsl.cli.arguments import add_load_arguments, parse_options
from ruledsl.cli.command import Command
from ruledsl.cli.exits import EXIT_OK, Usage
from ruledsl.cli.progress import Progress

#: The longest a measure may take: a figure steadies within seconds, and 'inf' would never end.
MAX_SECONDS = 3600
#: The most rounds the time may be split into: each plays at least a game, whatever its share of the time.
MAX_REPEATS = 1000


def add_arguments(p: argparse.ArgumentParser) -> None:
    """Declare the game, and how long to time it for and in how many rounds."""
    add_load_arguments(p)
    p.add_argument(
        "--seconds", type=float, default=5.0, help="time to spend on the timed playouts (default 5, at most 3600)"
    )
    p.add_argument("--repeats", type=int, default=5, help="rounds the playout time is split into (default 5)")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")


def run(args: argparse.Namespace) -> int:
    """Measure the game and print the figures."""
    import json

    from ruledsl.text.render import one_line
    from ruledsl.tools.bench import bench

    if not args.seconds > 0:
        raise Usage(f"--seconds takes a positive number of seconds, not {args.seconds:g}")
    if args.seconds > MAX_SECONDS:  # inf among them, which would never end
        raise Usage(f"--seconds takes at most {MAX_SECONDS:,} seconds (an hour), not {args.seconds:g}")
    if args.repeats < 1:
        raise Usage(f"--repeats takes a number of at least 1, not {args.repeats}")
    if args.repeats > MAX_REPEATS:
        raise Usage(f"--repeats takes a number from 1 to {MAX_REPEATS:,}, not {args.repeats:,}")
    options = parse_options(args.option or [])
    with Progress("bench") as bar:
        figures = bench(args.game, args.players, options, args.seconds, args.repeats, bar.say)
    if args.json:
        print(json.dumps(figures, ensure_ascii=False, indent=2))
        return EXIT_OK
    for line in _bench_lines(figures):
        print(one_line(line))
    return EXIT_OK


def _bench_lines(f: dict[str, Any]) -> list[str]:
    """Render bench's figures for people."""
    from ruledsl.text.render import counted, show_value

    options = ", ".join(f"{k}={show_value(v)}" for k, v in sorted(f["options"].items()))
    rounds = " ".join(f"{x:,}" for x in f["moves_per_s_rounds"])
    lines = [
        f"{f['game']} ({f['file']}), {counted(f['players'], 'player')}" + (f"; options: {options}" if options else ""),
        f"method: a warm-up, then {f['repeats']} rounds of {f['seconds'] / f['repeats']:.3g} s of uniformly random "
        "games; medians of the rounds",
        f"playouts          {f['games_per_s']:,.1f} games/s, {f['moves_per_s']:,} moves/s (rounds: {rounds})",
        f"game length       {f['mean_moves_per_game']:,.1f} moves on average",
    ]
    for name in ("legal_actions", "apply_action", "clone"):
        us = f[f"us_{name}"]
        lines.append(
            f"{name:<18}" + (f"{us:,.2f} µs per call" if us is not None else "not measured (no state to act in)")
        )
    if f["clone_over_apply"] is not None:
        lines[-1] += f" ({f['clone_over_apply']:g} × apply_action)"
    lines.append(f"load              {f['load_ms']:,.1f} ms to read, parse, check and compile")
    lines.append(
        f"memory            {f['peak_memory_kib_during_playouts']:,} KiB at most allocated while playing "
        "(tracemalloc, in a pass of its own)"
    )
    if f["peak_rss_kib"] is not None:
        lines.append(f"peak RSS          {f['peak_rss_kib']:,} KiB (the whole process)")
    return lines


COMMAND = Command(
    "bench",
    help="measure a game's speed",
    description="Measure how fast a game plays: random playouts per second, the cost of listing, applying and "
    "cloning, load time and memory. A warm-up, then timed rounds; medians.",
    add_arguments=add_arguments,
    run=run,
)
