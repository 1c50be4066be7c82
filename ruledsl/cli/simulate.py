"""The simulate command: play many seeded games with bots, and report win rates, lengths, leads and actions."""

from __future__ import annotations

import argparse
import sys
import time
from typing import TYPE_CHECKING, Any

from ruledsl import __version__
from ruledsl.cli.arguments import (
    add_batch_arguments,
    add_game_arguments,
    check_batch,
    load_from,
    open_executor,
    options_text,
)
from ruledsl.cli.command import Command
from ruledsl.cli.exits import EXIT_OK, EXIT_RUNTIME, Usage, print_diagnostics
from ruledsl.cli.outputs import check_writable, open_log, plot_target, warn_another_run, write_log, write_table
from ruledsl.cli.progress import Progress
from ruledsl.cli.seats import CHEAT_NOTE, agents_help, bot_seats, seatings

if TYPE_CHECKING:
    from ruledsl.engine.game import Game
    from ruledsl.tools.simulate import GameRecord


def add_arguments(p: argparse.ArgumentParser) -> None:
    """Declare the game, the batch of games, and the files to write: log, plot, table."""
    add_game_arguments(
        p,
        "seed of the first game: game i is played with seed S+i (default 0); "
        "runs of N games are independent when their seeds are N or more apart",
        "one agent per seat, as ismcts:iterations=500,random (default: random for all)",
        0,
    )
    add_batch_arguments(p, 100, "number of games (default 100)", "the statistics")
    p.add_argument("--log", metavar="FILE.jsonl", help="append a record of each game to this file (see replay)")
    p.add_argument("--plot", metavar="FILE.png", help="draw the win rates and the game lengths (needs matplotlib)")
    p.add_argument(
        "--csv",
        metavar="FILE.csv",
        help="write one row per game to this file (replaced): seed, agents, returns, winners, length, leads",
    )
    p.add_argument(
        "--behind-after",
        default="50%",
        metavar="N|P%",
        help="look for a winner who was behind from N actions, or P%% of the game, on (default 50%%)",
    )


def run(args: argparse.Namespace) -> int:
    """Play the batch of games and print their statistics; return the exit code."""
    import json
    from pathlib import Path

    from ruledsl.text.errors import RuleRuntimeError
    from ruledsl.text.render import one_line
    from ruledsl.tools.records import record_of_game
    from ruledsl.tools.simulate import declared_actions, game_columns, game_row, plot, run_games, summarize

    check_batch(args)
    game = load_from(args)
    seats = bot_seats(args, game.players)
    if args.rotate and args.n % game.players:
        print(
            f"warning: with --rotate, {args.n} games do not seat each agent in each seat equally often; "
            f"make -n a multiple of {game.players}",
            file=sys.stderr,
        )
    plot_path = plot_target(args.plot) if args.plot else None
    _check_behind_after(args.behind_after)
    if args.csv:
        check_writable(Path(args.csv), "--csv", "the table")
    open_log(args.log)
    if args.log:
        warn_another_run(args.log, [game], seatings(seats, args.rotate))
    if args.csv:
        write_table(args.csv, [game_columns(game.players)], "w")  # this run's table, header first
    seeds = list(range(args.seed, args.seed + args.n))
    started = time.perf_counter()
    done = 0

    def finished(r: GameRecord) -> None:
        # Each game is saved as it ends (in seed order), so that an interrupted run keeps it.
        nonlocal done
        done += 1
        if args.log:
            write_log(args.log, [record_of_game(game, r, args.rotate)])
        if args.csv and r.error is None:  # a stuck game has no returns, no winner, no outcome to write
            write_table(args.csv, [game_row(r, args.behind_after)], "a")
        if not args.json:
            bar.add(1, args.n)

    try:
        with open_executor(args) as executor:
            with Progress() as bar:
                records = run_games(
                    game,
                    seeds,
                    seats,
                    progress=finished,
                    rotate=args.rotate,
                    keep_labels=bool(args.log),
                    executor=executor,
                )
            for note in executor.notes():  # a lost worker: the results are the same, the run says so
                print(note, file=sys.stderr)
    except KeyboardInterrupt:
        kept = " and ".join(path for path in (args.log, args.csv) if path)
        if kept:
            print(f"\n{done} finished game{'s' if done != 1 else ''} of {args.n} kept in {kept}", file=sys.stderr)
        raise
    except RuleRuntimeError as exc:
        # Like play, the run stops at the first game the rules stop: the rules need mending first.
        print_diagnostics(exc.diagnostics, sys.stderr)
        before = done - 1
        note = f"the rules stopped game {done} of {args.n} (seed {args.seed + before}), and the run with it"
        if args.log:
            note += f"; {args.log} holds its record, marked stuck" + (
                f", after those of the {_games(before)} before it" if before else ""
            )
        if args.csv:
            rows = f"the rows of the {_games(before)} before it" if before else "no row"
            note += f"; {args.csv} holds {rows} (a stuck game has no result)"
        print(note, file=sys.stderr)
        return EXIT_RUNTIME
    elapsed = time.perf_counter() - started
    stats = summarize(
        records,
        game.players,
        None if args.rotate else seats,
        declared_actions=declared_actions(game),
        declared_rules=game.program.events,
        behind_after=args.behind_after,
        scores=game.program.utility.scores,
    )
    stats = {**run_facts(game, args, game.options), **stats}
    stats["seconds"] = round(elapsed, 3)
    if args.json:
        print(json.dumps(stats, ensure_ascii=False, indent=2))
    else:
        for line in _stats_lines(stats, plot_path):
            print(one_line(line))
        # On stderr: the report itself is the same, byte for byte, from one run to the next.
        rate = f" ({args.n / elapsed:.1f} games/s)" if elapsed > 0 else ""
        print(f"time {elapsed:.2f} s{rate}", file=sys.stderr)
    if plot_path is not None:
        try:
            plot(stats, plot_path)
        except OSError as exc:  # checked before playing, but the disk may have filled since
            raise Usage(f"cannot write the plot '{plot_path}': {exc.strerror or exc}") from None
    return EXIT_OK


def run_facts(game: Game, args: argparse.Namespace, options: dict[str, Any]) -> dict[str, Any]:
    """What a JSON report names of its run: the rules and their hash, the version, options, seeds, bound."""
    from ruledsl.tools.records import rules_hash

    return {
        "game": game.name,
        "file": args.game,
        "rules_sha256": rules_hash(game),
        "ruledsl": __version__,
        "options": options,
        "seed": args.seed,
        "rotate": args.rotate,
        "max_actions": game.max_actions,
    }


def _games(k: int) -> str:
    """'1 game', '3 games'."""
    return f"{k} game{'s' if k != 1 else ''}"


def _check_behind_after(text: str) -> None:
    """Refuse a --behind-after that is neither a number of actions nor a percentage: before loading the game."""
    body = text[:-1] if text.endswith("%") else text
    try:
        value = float(body) if text.endswith("%") else int(body)
    except ValueError:
        value = -1
    if value < 0 or (text.endswith("%") and value > 100):
        raise Usage(f"--behind-after takes a number of actions or a percentage of the game (as 50%), not '{text}'")


def _score_lines(score: dict[str, Any] | None) -> list[str]:
    """The line of a one-player game's score: its mean with the mean's 95% interval, and its spread."""
    if score is None:
        return []
    ci = score["ci95"]
    interval = "" if ci is None else f" ({ci[0]:.1f} to {ci[1]:.1f})"
    sd = "n/a" if score["stdev"] is None else f"{score['stdev']:.1f}"
    return [
        f"score: mean {score['mean']:.1f}{interval}, sd {sd}, median {score['median']:g}, "
        f"min {score['min']:g}, max {score['max']:g}"
    ]


def _mean_interval(ci: list[float] | None) -> str:
    """', 95% interval -0.120 to +0.250' of a mean, or nothing from fewer than two games."""
    return "" if ci is None else f", 95% interval {ci[0]:+.3f} to {ci[1]:+.3f}"


def _interval(row: dict[str, Any]) -> str:
    """'0.412 to 0.588': a row's 95% interval."""
    lo, hi = row["ci95"]
    return f"{lo:.3f} to {hi:.3f}"


def _stats_lines(stats: dict[str, Any], plot_path: str | None) -> list[str]:
    """Render simulate's statistics for people (see docs/metrics.md for each one)."""
    from ruledsl.agents import AGENTS, parse_spec
    from ruledsl.text.render import counted
    from ruledsl.tools.simulate import p_text, signed

    n = stats["games"]
    first_seed = stats["seed"]
    lines = [
        f"{stats['game']}: {n} games, {counted(stats['players'], 'player')}, seeds {first_seed}..{first_seed + n - 1}, "
        f"at most {stats['max_actions']:,} actions a game"
        + ("; agents rotate through the seats" if stats["rotate"] else "")
    ]
    if stats["options"]:
        lines.append(f"options: {options_text(stats['options'])}")
    names = [s["agent"] for s in stats["seats"]] + [a["agent"] for a in stats["agents"]]
    width = max(len(name) for name in ["agent", *names]) + 2

    def row(first: str, agent: str, games: Any, wins: Any, rate: Any, interval: str, mean: Any) -> str:
        return f"{first:<6}{agent:<{width}}{games:>6}{wins:>6}{rate:>10}  {interval:<16}{mean:>11}"

    lines.append(row("seat", "agent", "games", "wins", "win rate", "95% interval", "mean return"))
    for s in stats["seats"]:
        lines.append(
            row(
                f"P{s['seat']}",
                s["agent"],
                s["games"],
                s["wins"],
                f"{s['win_rate']:.3f}",
                _interval(s),
                signed(s["mean_return"]),
            )
        )
    if stats["rotate"] or len(stats["agents"]) != len(stats["seats"]):
        lines.append(row("", "agent", "seats", "wins", "win rate", "95% interval", "mean return"))
        for a in stats["agents"]:
            lines.append(
                row(
                    "",
                    a["agent"],
                    a["seat_games"],
                    a["wins"],
                    f"{a['win_rate']:.3f}",
                    _interval(a),
                    signed(a["mean_return"]),
                )
            )
    for p in stats.get("payoffs") or []:
        lines.append(f"payoff P{p['seat']}: mean {signed(p['mean'])}" + _mean_interval(p["ci95"]))
    f = stats["first_player"]
    if stats["players"] == 1:
        pass  # one seat: it is always the first player, nothing to test
    elif f["games"]:
        lines.append(
            f"first player (who took the first action): won {f['wins']} of the {f['games']} games won alone "
            f"({f['win_rate']:.3f}, {_interval(f)}); expected {f['expected']:.3f}, binomial p = {p_text(f['p_value'])}"
        )
    else:
        lines.append("first player (who took the first action): no game was won alone, nothing to test")
    t = stats["seat_test"]
    if stats["players"] > 1 and t["games"]:
        lines.append(
            f"seats, single wins: chi-square {t['chi2']:.2f} ({t['df']} df, {t['games']} games), "
            f"p = {p_text(t['p_value'])}"
        )
    # A shared win is in the 'wins' of each of its winners (partners win together), so the
    # win rates then add up to more than one: say so where the count is given.
    shared = f"shared wins {stats['shared_wins']}"
    if stats["shared_wins"]:
        shared += " (counted in the wins of each of their winners)"
    if stats["players"] == 1:
        lines.append(
            f"losses {stats['losses']}, neither won nor lost {stats['draws']}, "
            f"stopped at the action bound {stats['truncated']}"
        )
        lines.extend(_score_lines(stats.get("score")))
    else:
        losses = f", every player lost {stats['losses']}" if stats["losses"] else ""
        lines.append(f"draws {stats['draws']}{losses}, {shared}, stopped at the action bound {stats['truncated']}")
    # Alone at the table, a player never hands the turn to anyone: his game is one long turn.
    for what in ("actions", "turns") if stats["players"] > 1 else ("actions",):
        d = stats["length"][what]
        sd = "n/a" if d["stdev"] is None else f"{d['stdev']:.1f}"
        lines.append(
            f"length in {what + ':':<8} mean {d['mean']:.1f}, sd {sd}, median {d['median']:g}, "
            f"10% {d['p10']:g}, 90% {d['p90']:g}, min {d['min']}, max {d['max']}"
        )
    lead = stats["lead"]
    if lead is None:
        lines.append("lead changes: none measured (the game declares no 'standing:')")
    else:
        c = lead["changes"]
        lines.append(
            f"lead changes: mean {c['mean']:.2f}, median {c['median']:g}, max {c['max']}; "
            f"in {lead['games_with_change']} of {lead['games']} games"
        )
        b = lead["winner_was_behind"]
        after = f"winner was behind after {b['after']} {'of the game' if b['after'].endswith('%') else 'actions'}: "
        if b["games"]:
            lines.append(after + f"{b['behind']} of {b['games']} decided games ({b['share']:.3f}, {_interval(b)})")
        else:
            lines.append(after + "no game had a winner")
    lines.append("actions, share of games taken (times per game): " + _shares_line(stats["actions"]))
    if stats["rules"]:
        lines.append("rules and announcements, share of games run (times per game):")
        lines.extend(f"  {name}: " + _share(row) for name, row in stats["rules"].items())
    if any(AGENTS[parse_spec(a["agent"])[0]].omniscient for a in stats["agents"]):
        lines.append(CHEAT_NOTE)
    if plot_path is not None:
        lines.append(f"plot: {plot_path}")
    return lines


def _shares_line(rows: dict[str, dict[str, Any]]) -> str:
    """'name 0.500 (1.5)' for each row, 'name never' for one that never happened; a lone row
    is named too (a game of one action printed '1.000 (35.2)', which said nothing of what)."""
    return ", ".join(f"{name} {_share(a)}" for name, a in rows.items())


def _share(a: dict[str, Any]) -> str:
    """'0.500 (1.5)': the share of games in which it happened (times per game), or 'never'."""
    return f"{a['share']:.3f} ({a['per_game']:.1f})" if a["games"] else "never"


COMMAND = Command(
    "simulate",
    help="play many games with bots",
    description="Play N seeded games with bots and report win rates, lengths, leads and actions taken.",
    add_arguments=add_arguments,
    run=run,
    epilog=lambda: agents_help(human=False),
    formatter_class=argparse.RawDescriptionHelpFormatter,
)
