"""The sweep command: the same seeded games under every combination of option values and player counts."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ruledsl import __version__
from ruledsl.cli.arguments import (
    MAX_GAMES,
    add_max_actions_argument,
    add_placement_arguments,
    check_max_actions,
    check_placement,
    open_executor,
    parse_options,
    parse_vary,
)
from ruledsl.cli.command import Command
from ruledsl.cli.exits import EXIT_OK, EXIT_RUNTIME, Usage, print_diagnostics
from ruledsl.cli.outputs import check_writable, plot_target
from ruledsl.cli.progress import Progress
from ruledsl.cli.seats import agents_help, check_specs

if TYPE_CHECKING:
    from ruledsl.engine.game import Game
    from ruledsl.tools.simulate import GameRecord

#: The most combinations one sweep plays: each is a row, a compiled game, and a point on the plot.
MAX_COMBINATIONS = 1000


def add_arguments(p: argparse.ArgumentParser) -> None:
    """Declare the game, the options to vary, the player counts, the games for each, and the files to write."""
    p.add_argument("game", metavar="GAME", help="a .game file or a bundled game's name")
    p.add_argument(
        "--vary",
        action="append",
        metavar="OPTION=V1,V2,...",
        help="an option and the values to play it with, as hand_size=5,7 (repeatable: every combination is played)",
    )
    p.add_argument(
        "--option", action="append", metavar="NAME=VALUE", help="set an option for every combination (repeatable)"
    )
    p.add_argument(
        "--players", metavar="N,...", help="the player counts to play, as 2,3,4 (default: the least the game allows)"
    )
    p.add_argument("-n", type=int, default=200, help=f"games for each combination (default 200); at most {MAX_GAMES:,}")
    p.add_argument("--seed", type=int, default=0, help="seed of the first game: game i of every combination has S+i")
    p.add_argument("--agent", default="random", metavar="AGENT", help="the agent in every seat (default random)")
    add_max_actions_argument(p)
    add_placement_arguments(p)
    p.add_argument("--out", metavar="FILE.csv|FILE.json", help="write the table, one row per combination")
    p.add_argument(
        "--plot", metavar="FILE.png", help="draw win rates, first-player advantage and length per combination"
    )
    p.add_argument("--json", action="store_true", help="print the table as JSON")


def run(args: argparse.Namespace) -> int:
    """Play every combination and print its row; return the exit code."""
    from ruledsl.text.errors import RuleRuntimeError
    from ruledsl.text.render import show_value
    from ruledsl.tools.executors import Batch, play_batches
    from ruledsl.tools.sweep import combinations

    check_max_actions(args)
    check_placement(args)
    if not 1 <= args.n <= MAX_GAMES:
        raise Usage(f"-n takes 1 to {MAX_GAMES:,} games, not {args.n:,}")
    _check_agent(args.agent)
    varied = _varied(args)
    out = _out_target(args.out) if args.out else None
    plot_path = plot_target(args.plot) if args.plot else None
    combos = combinations(_players(args.players), varied)
    if len(combos) > MAX_COMBINATIONS:
        raise Usage(f"the sweep has {len(combos):,} combinations, more than {MAX_COMBINATIONS:,}; vary fewer values")
    fixed = parse_options(args.option or [])
    # Every combination is loaded before any is played: a bad option value stops the sweep at once.
    games = [_load(args, players, {**fixed, **options}) for players, options in combos]
    # As the games read them ('true' is 'yes'), and with the player count the default gave.
    played: list[tuple[int, dict[str, str]]] = [
        (g.players, {name: show_value(g.options[name]) for name in varied}) for g in games
    ]
    for i, one in enumerate(played):
        if one in played[:i]:
            raise Usage(f"--vary gives {_combo_text(*one)} twice: list each value once")
    seeds = range(args.seed, args.seed + args.n)
    batches = [Batch(g, tuple((seed, (args.agent,) * g.players) for seed in seeds)) for g in games]
    total = args.n * len(batches)
    done: list[list[GameRecord]] = [[] for _ in batches]
    started = time.perf_counter()

    with open_executor(args) as executor:
        with Progress() as bar:

            def finished(batch: int, record: GameRecord) -> None:
                done[batch].append(record)
                bar.add(1, total)

            try:
                runs = play_batches(batches, executor, finished)
            except KeyboardInterrupt:
                bar.close()
                # The combinations finished so far, each with all its games: their rows are what they will be.
                ended = [(one, records) for one, records in zip(played, done, strict=True) if len(records) == args.n]
                print(file=sys.stderr)
                if ended:  # their table, and plot, as a run of these alone would write them, marked partial
                    _report(args, _result(args, games[0], varied, fixed, ended, len(batches)), out, plot_path)
                written = ", ".join(path for path in (out, plot_path) if path is not None)
                note = f": the table holds their rows only ({written})" if ended and written else ""
                print(f"{len(ended)} of {len(batches)} combinations finished{note}", file=sys.stderr)
                raise
            except RuleRuntimeError as exc:
                bar.close()
                print_diagnostics(exc.diagnostics, sys.stderr)
                where = next(i for i, records in enumerate(done) if records and records[-1].error is not None)
                stopped = f"the rules stopped a game with {_combo_text(*played[where])} (seed {done[where][-1].seed})"
                print(stopped + ", and the sweep with it", file=sys.stderr)
                return EXIT_RUNTIME
        for note in executor.notes():  # a lost worker: the results are the same, the run says so
            print(note, file=sys.stderr)
    elapsed = time.perf_counter() - started
    _report(
        args, _result(args, games[0], varied, fixed, list(zip(played, runs, strict=True)), len(batches)), out, plot_path
    )
    print(f"time {elapsed:.2f} s", file=sys.stderr)
    return EXIT_OK


def _result(
    args: argparse.Namespace,
    game: Game,
    varied: dict[str, list[str]],
    fixed: dict[str, str],
    ended: list[tuple[tuple[int, dict[str, str]], list[GameRecord]]],
    combinations: int,
) -> dict[str, Any]:
    """The sweep's table as JSON: one row per combination finished; ``partial`` when not all of them were."""
    from ruledsl.tools.records import rules_hash
    from ruledsl.tools.sweep import sweep_row

    return {
        "game": game.name,
        "file": args.game,
        "rules_sha256": rules_hash(game),
        "ruledsl": __version__,
        "options": fixed,
        "varied": varied,
        "agent": args.agent,
        "seed": args.seed,
        "games": args.n,
        "max_actions": args.max_actions,
        "combinations": combinations,
        "partial": len(ended) < combinations,
        "rows": [sweep_row(p, options, records, game.program.utility.scores) for (p, options), records in ended],
    }


def _report(args: argparse.Namespace, result: dict[str, Any], out: str | None, plot_path: str | None) -> None:
    """Write the table (--out) and the plot (--plot), and print the rows (or the JSON, with --json)."""
    import json

    from ruledsl.text.render import counted, one_line
    from ruledsl.tools.sweep import label, plot

    if out is not None:
        _write(out, result)
    if plot_path is not None:
        try:
            plot(result, plot_path)
        except OSError as exc:
            raise Usage(f"cannot write the plot '{plot_path}': {exc.strerror or exc}") from None
    if args.json:
        print(json.dumps(result, ensure_ascii=False, indent=2))
        return
    rows = result["rows"]
    seeds_text = f"seeds {args.seed}..{args.seed + args.n - 1}"
    partial = f" (partial: {len(rows)} finished)" if result["partial"] else ""
    print(
        one_line(
            f"{result['game']}: {counted(args.n, 'game')} for each of "
            f"{counted(result['combinations'], 'combination')}{partial}, "
            f"{args.agent} in every seat, the same {seeds_text} for each"
        )
    )
    if result["options"]:
        print(one_line("options: " + ", ".join(f"{k}={v}" for k, v in sorted(result["options"].items()))))
    widest = max(len(label(row)) for row in rows)
    for row in rows:
        print(one_line(f"{label(row):<{widest}}  {_row_text(row)}"))
    for path in (out, plot_path):
        if path is not None:
            print(f"{'plot' if path == plot_path else 'table'}: {path}")


def _varied(args: argparse.Namespace) -> dict[str, list[str]]:
    """The options --vary names, each with its values; an option may be varied once, and not also set."""
    varied: dict[str, list[str]] = {}
    fixed = parse_options(args.option or [])
    for text in args.vary or []:
        name, values = parse_vary(text, 1)
        if name in varied:
            raise Usage(f"--vary gives '{name}' twice; list all its values once, as {name}=V1,V2,...")
        if name in fixed:
            raise Usage(f"--vary and --option both set '{name}'; give its values to --vary only")
        varied[name] = values
    return varied


def _players(text: str | None) -> list[int | None]:
    """The player counts of --players ('2,3,4'); None (the least the game allows) without it."""
    if text is None:
        return [None]
    counts: list[int | None] = []
    for part in text.split(","):
        try:
            counts.append(int(part.strip()))
        except ValueError:
            raise Usage(f"--players takes player counts separated by commas, as 2,3,4; not '{text}'") from None
    if len(set(counts)) != len(counts):
        raise Usage(f"--players names a player count twice: {text}")
    return counts


def _load(args: argparse.Namespace, players: int | None, options: dict[str, str]) -> Game:
    from ruledsl.loading import load_game

    return load_game(args.game, players=players, options=options, max_actions=args.max_actions)


def _out_target(path: str) -> str:
    """Check, before playing, that --out names a .csv or .json file that can be written."""
    if Path(path).suffix.lower() not in (".csv", ".json"):
        raise Usage(f"--out writes a table to a .csv or a .json file, not '{path}'")
    check_writable(Path(path), "--out", "the table")
    return path


def _write(path: str, result: dict[str, Any]) -> None:
    import json

    from ruledsl.cli.outputs import write_table
    from ruledsl.tools.sweep import table_columns, table_row

    if path.lower().endswith(".json"):
        try:
            Path(path).write_text(json.dumps(result, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
        except OSError as exc:
            raise Usage(f"cannot write the table '{path}': {exc.strerror or exc}") from None
        return
    varied = list(result["varied"])
    most = max(row["players"] for row in result["rows"])
    rows = [table_row(row, varied, most) for row in result["rows"]]
    write_table(path, [table_columns(varied, most), *rows], "w")


def _combo_text(players: int, options: dict[str, str]) -> str:
    return ", ".join([f"{players} player{'s' if players != 1 else ''}", *(f"{k}={v}" for k, v in options.items())])


def _check_agent(spec: str) -> None:
    """Refuse an unknown agent, a bad option of one, or a human: before loading the game."""
    from ruledsl.agents import parse_spec

    check_specs(spec)
    if "," in spec or parse_spec(spec.strip())[0] == "human":
        raise Usage(f"--agent names the one bot that plays every seat, not '{spec}'")


def _row_text(row: dict[str, Any]) -> str:
    """'P0 0.412 P1 0.588 | first +0.088 (-0.010 to +0.184) p 0.08 | 41.3 actions': a row for people."""
    from ruledsl.tools.simulate import p_text, signed

    seats = " ".join(f"P{s['seat']} {s['win_rate']:.3f}" for s in row["seats"])
    first = row["first_player"]
    if first["advantage"] is None:
        first_text = "first n/a"
    else:
        low, high = first["advantage_ci95"]
        first_text = (
            f"first {signed(first['advantage'])} ({signed(low)} to {signed(high)}) p {p_text(first['p_value'])}"
        )
    actions = "" if row["mean_actions"] is None else f" | {row['mean_actions']:.1f} actions"
    return f"{seats} | {first_text}{actions}"


COMMAND = Command(
    "sweep",
    help="play a game under every combination of options and player counts",
    description="Play the same seeded games under every combination of option values (--vary) and player\n"
    "counts (--players), and report one row per combination: win rates per seat, the first player's\n"
    "advantage and the length, with 95% intervals; as a table (--out) and a plot (--plot).",
    add_arguments=add_arguments,
    run=run,
    epilog=lambda: agents_help(human=False).replace("--seats", "--agent"),
    formatter_class=argparse.RawDescriptionHelpFormatter,
)
