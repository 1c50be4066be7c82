"""The replay command: a recorded game replayed, as one seat or a spectator saw it."""

from __future__ import annotations

import argparse
import sys

from ruledsl.cli.command import Command
from ruledsl.cli.exits import EXIT_OK, Usage


def add_arguments(p: argparse.ArgumentParser) -> None:
    """Declare the file of records, which record, whose view, and the rules to replay with."""
    p.add_argument("file", metavar="FILE.jsonl", help="a file written by play or simulate --log")
    p.add_argument("--game", type=int, default=1, metavar="K", help="which record of the file, from 1 (default 1)")
    p.add_argument(
        "--as",
        dest="as_",
        metavar="PLAYER",
        help="the seat whose view to show (0, 1, ... or P0, P1, ...); default: a spectator's",
    )
    p.add_argument("--rules", metavar="GAME", help="the rule file to replay with (default: the one the record names)")


def run(args: argparse.Namespace) -> int:
    """Replay a recorded game as a seat or a spectator saw it."""
    from pathlib import Path

    from ruledsl.text.render import clipped, one_line
    from ruledsl.tools.records import RecordError, load_recorded_game, read_entries, render_replay, version_note

    entries = read_entries(args.file)
    if not entries:
        raise Usage(f"'{args.file}' holds no game record")
    if not 1 <= args.game <= len(entries):
        raise Usage(f"--game {args.game}: '{args.file}' holds games 1 to {len(entries)}")
    entry = entries[args.game - 1]
    if entry.problem is not None:
        raise entry.problem
    assert entry.record is not None
    record = entry.record
    # A damaged line (a game cut short by a crash) leaves the intact ones readable.
    damaged = [str(e.line) for e in entries if e.problem is not None]
    if damaged:
        s = "s" if len(damaged) > 1 else ""
        print(
            f"ruledsl: warning: '{args.file}': line{s} {', '.join(clipped(damaged, 10))} hold{'' if s else 's'} "
            f"no readable record; record {args.game} (line {entry.line}) is intact",
            file=sys.stderr,
        )
    try:
        game = load_recorded_game(record, args.rules, Path(args.file).parent)
        viewer = None
        if args.as_ is not None:
            text = args.as_.strip().upper().removeprefix("P")
            if not (text.isascii() and text.isdigit() and len(text) <= 6) or not 0 <= int(text) < game.players:
                last = game.players - 1
                raise Usage(f"--as takes a seat from 0 to {last} (or P0 to P{last}), not '{args.as_}'")
            viewer = int(text)
        for line in render_replay(record, game, viewer):
            print(one_line(line))  # a record's texts (seats, labels) and the rules' may hold line breaks
    except RecordError as exc:
        # Another version is no reason to refuse a record, but may be why its replay failed.
        raise RecordError(f"{exc}{version_note(record)}") from None
    return EXIT_OK


COMMAND = Command(
    "replay",
    help="replay a recorded game",
    description="Replay a game recorded with --log, as one player saw it (hidden cards stay hidden).",
    add_arguments=add_arguments,
    run=run,
)
