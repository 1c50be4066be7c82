"""The compare command: the same seeded games under each value of one option, tested game by game."""

from __future__ import annotations

import argparse
import sys
import time
from typing import TYPE_CHECKING, Any

from ruledsl.cli.arguments import (
    add_batch_arguments,
    add_game_arguments,
    check_batch,
    load_from,
    open_executor,
    options_text,
    parse_options,
    parse_vary,
)
from ruledsl.cli.command import Command
from ruledsl.cli.exits import EXIT_OK, EXIT_RUNTIME, Usage, print_diagnostics
from ruledsl.cli.outputs import open_log, warn_another_run, write_log
from ruledsl.cli.progress import Progress
from ruledsl.cli.seats import agents_help, bot_seats, seatings
from ruledsl.cli.simulate import run_facts

if TYPE_CHECKING:
    from ruledsl.engine.game import Game
    from ruledsl.tools.simulate import GameRecord


def add_arguments(p: argparse.ArgumentParser) -> None:
    """Declare the game, the option to vary and its values, and the batch of games for each."""
    add_game_arguments(
        p,
        "seed of the first game: game i of every value is played with seed S+i (default 0)",
        "one agent per seat, as ismcts:iterations=500,random (default: random for all)",
        0,
    )
    p.add_argument(
        "--vary", metavar="OPTION=V1,V2,...", help="the option to vary and its values, as double=no,yes (required)"
    )
    add_batch_arguments(p, 200, "games for each value (default 200)", "the comparison")
    p.add_argument(
        "--log", metavar="FILE.jsonl", help="append a record of each game, value after value, to this file (see replay)"
    )


def run(args: argparse.Namespace) -> int:
    """Play the same games under each value and print the comparison; return the exit code."""
    import json

    from ruledsl.text.errors import RuleRuntimeError
    from ruledsl.text.render import counted, one_line, show_value
    from ruledsl.tools.compare import compare, report_lines
    from ruledsl.tools.records import record_of_game
    from ruledsl.tools.simulate import run_games

    check_batch(args)
    name, values = _vary(args)
    games = [load_from(args, {name: value}) for value in values]
    shown = [show_value(g.options[name]) for g in games]
    for i, value in enumerate(shown):
        if value in shown[:i]:
            raise Usage(f"--vary gives {name}={value} twice ({values[shown.index(value)]}, {values[i]})")
    seats = bot_seats(args, games[0].players)
    open_log(args.log)
    if args.log:
        warn_another_run(args.log, games, seatings(seats, args.rotate))
    seeds = list(range(args.seed, args.seed + args.n))
    total = args.n * len(games)
    started = time.perf_counter()
    runs = []
    last: list[Any] = [None]  # the game the rules stopped, if they do: the last to reach the progress bar

    with open_executor(args) as executor:
        with Progress() as bar:
            for value, game in zip(shown, games, strict=True):

                def finished(r: GameRecord, game: Game = game) -> None:
                    last[0] = r
                    if args.log:  # each game is saved as it ends, so that an interrupted run keeps it
                        write_log(args.log, [record_of_game(game, r, args.rotate)])
                    bar.add(1, total)

                try:
                    runs.append(
                        run_games(
                            game,
                            seeds,
                            seats,
                            progress=finished,
                            rotate=args.rotate,
                            keep_labels=bool(args.log),
                            executor=executor,
                        )
                    )
                except RuleRuntimeError as exc:
                    bar.close()
                    print_diagnostics(exc.diagnostics, sys.stderr)
                    seed = f" (seed {last[0].seed})" if last[0] is not None else ""
                    stopped = f"the rules stopped a game with {name}={value}{seed}, and the comparison with it"
                    print(stopped, file=sys.stderr)
                    return EXIT_RUNTIME
        for note in executor.notes():  # a lost worker: the results are the same, the run says so
            print(note, file=sys.stderr)
    elapsed = time.perf_counter() - started
    result = compare(name, shown, runs, games[0].players, args.rotate, scores=games[0].program.utility.scores)
    others = {k: v for k, v in games[0].options.items() if k != name}
    if args.json:
        result = {**run_facts(games[0], args, others), "seats": seats, **result}
        print(json.dumps(result, ensure_ascii=False, indent=2))
    else:
        header = [
            f"{games[0].name}: {args.n} games for each value of {name} ({', '.join(shown)}), "
            f"{counted(games[0].players, 'player')}, the same seeds {args.seed}..{args.seed + args.n - 1} for each"
            + ("; agents rotate through the seats" if args.rotate else ""),
            f"seats: {', '.join(seats)}",
        ]
        if others:
            header.append(f"other options: {options_text(others)}")
        for line in report_lines(result, header):
            print(one_line(line))
        print(f"time {elapsed:.2f} s", file=sys.stderr)
    return EXIT_OK


def _vary(args: argparse.Namespace) -> tuple[str, list[str]]:
    """The option --vary names and its values, as typed."""
    if args.vary is None:
        # Checked here, not by argparse: a user who listed the values to --option is told where they go.
        listed_to_option = [o for o in args.option or [] if "," in o]
        if listed_to_option:
            raise Usage(f"compare varies one option: write --vary {listed_to_option[0].strip()}, not --option")
        raise Usage("compare needs the option to vary and its values: --vary OPTION=V1,V2,..., as double=no,yes")
    name, values = parse_vary(args.vary, 2)
    if name in parse_options(args.option or []):
        raise Usage(f"--vary and --option both set '{name}'; give its values to --vary only")
    return name, values


COMMAND = Command(
    "compare",
    help="compare a game under two values of an option or more",
    description="Play the same seeded games under each value of one option, and test, game by game,\n"
    "whether who wins and how long games last changed (the first value is the baseline).",
    add_arguments=add_arguments,
    run=run,
    epilog=lambda: agents_help(human=False),
    formatter_class=argparse.RawDescriptionHelpFormatter,
)
