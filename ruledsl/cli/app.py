"""The ruledsl command line: check, fmt, play, simulate, replay, bench, info, list.

The only module that prints or exits.
"""

from __future__ import annotations

import argparse
import csv
import difflib
import importlib.util
import json
import os
import random
import sys
import time
import traceback
from collections.abc import Sequence
from pathlib import Path
from typing import Any, TextIO

from ruledsl import __version__
from ruledsl.agents import (
    AGENTS,
    AgentSpecError,
    agent_seed,
    canonical_spec,
    decide,
    make_agent,
    needs_tracking,
    parse_spec,
)
from ruledsl.cli.menu import Entry, Group, line_of, menu_entries, reading_in_any_order
from ruledsl.engine.failures import stuck_error
from ruledsl.engine.game import Game
from ruledsl.engine.reading import NO_REASON, normalise, shown_action
from ruledsl.engine.state import GameState
from ruledsl.format.fmt import format_source
from ruledsl.format.unparse import unparse
from ruledsl.loading import (
    DEFAULT_MAX_ACTIONS,
    check_file,
    load_game,
    options_of,
    players_range,
    read_source,
    resolve_path,
    shown_path,
)
from ruledsl.resources import bundled_games, example_games, named_games
from ruledsl.syntax.parser import parse
from ruledsl.text.errors import Diagnostic, OptionError, RuleDslError, RuleRuntimeError, sort_diagnostics
from ruledsl.text.render import clipped, render, summary
from ruledsl.tools.bench import bench
from ruledsl.tools.compare import compare, report_lines
from ruledsl.tools.records import (
    RecordError,
    another_run,
    build_record,
    describe_view,
    forced_line,
    labels_by_name,
    load_recorded_game,
    read_entries,
    record_of_game,
    record_of_state,
    render_replay,
    result_lines,
    rules_hash,
    show_value,
    version_note,
    view_due,
    write_records,
)
from ruledsl.tools.simulate import GameRecord as SimulatedGame
from ruledsl.tools.simulate import (
    declared_actions,
    game_columns,
    game_row,
    p_text,
    plot,
    run_games,
    seats_for,
    signed,
    summarize,
)
from ruledsl.tools.validate import Report, deal_diagnostics, validate_checked

EXIT_OK = 0
EXIT_INTERNAL = 1
EXIT_REFORMAT = 1  # fmt --check or --diff: a file would be reformatted
EXIT_USAGE = 2
EXIT_UNFINISHED = 3  # play: the player left before the end (q, end of input)
EXIT_INVALID = 65
EXIT_RUNTIME = 70

# Typing ♠♥♦♣ at a prompt is hard; these letters stand for them.


def _colour(stream: TextIO) -> bool:
    return stream.isatty() and "NO_COLOR" not in os.environ


def _print_diagnostics(diagnostics: Sequence[Diagnostic], stream: TextIO) -> None:
    colour = _colour(stream)
    for d in diagnostics:
        print(render(d, colour), file=stream)
        print(file=stream)


def _exit_code(exc: RuleDslError) -> int:
    if isinstance(exc, RuleRuntimeError):
        return EXIT_RUNTIME
    if isinstance(exc, OptionError):
        return EXIT_USAGE
    return EXIT_INVALID


# ============================================================================ check


def cmd_check(args: argparse.Namespace) -> int:
    simulate = args.simulate is not None
    if not simulate and (args.players is not None or args.option or args.seed is not None):
        raise _Usage("--players, --option and --seed choose how to play: they go with --simulate N")
    if simulate and args.simulate < 1:
        raise _Usage(f"--simulate takes a number of games of at least 1, not {args.simulate}")
    options = _parse_options(args.option or [])
    status = EXIT_OK
    all_diagnostics: list[Diagnostic] = []
    reports: list[Report] = []
    for name in args.files:
        report = None
        try:
            checked = check_file(name)
            # Deals larger than the deck are found by loading the game at each player count, not playing.
            deals = deal_diagnostics(checked, probes=simulate)
            diagnostics: Sequence[Diagnostic] = sort_diagnostics([*checked.warnings, *deals])
            if simulate:
                with _Progress(checked.source.path) as bar:
                    report = validate_checked(
                        checked, args.simulate, args.seed or 0, bar.count, players=args.players, options=options
                    )
                reports.append(report)
                # The validator finds those deals again (with --players or --option, for that configuration),
                # and a game that no player count can load.
                dealt = {(d.code, d.span) for d in deals}
                found = [d for d in report.to_diagnostics() if (d.code, d.span) not in dealt]
                diagnostics = sort_diagnostics([*diagnostics, *found])
            code = _check_code(diagnostics)
        except RuleDslError as exc:
            diagnostics = exc.diagnostics
            code = _exit_code(exc)
        status = max(status, code)
        all_diagnostics.extend(diagnostics)
        if args.format == "text":
            stream = sys.stdout if code == EXIT_OK else sys.stderr
            _print_diagnostics(diagnostics, stream)
            if code == EXIT_OK:
                print(f"{checked.source.path}: ok" + (f" ({summary(diagnostics)})" if diagnostics else ""))
            else:
                path = diagnostics[0].path if diagnostics else name
                print(f"{path}: {summary(diagnostics)}", file=sys.stderr)
            if report is not None:
                for line in _simulation_lines(report):
                    print(line)
    if args.format == "json":
        found = [d.to_json() for d in all_diagnostics]
        if simulate:
            simulations = [{k: v for k, v in r.to_json().items() if k != "diagnostics"} for r in reports]
            print(json.dumps({"diagnostics": found, "simulations": simulations}, ensure_ascii=False, indent=2))
        else:
            print(json.dumps(found, ensure_ascii=False, indent=2))
    return status


def _check_code(diagnostics: Sequence[Diagnostic]) -> int:
    """The exit code of a file that checked: 70 for a rule that failed in play, 65 for another error."""
    errors = [d for d in diagnostics if d.is_error]
    if any(d.code.startswith("R") for d in errors):
        return EXIT_RUNTIME
    return EXIT_INVALID if errors else EXIT_OK


def _simulation_lines(report: Report) -> list[str]:
    """Render what the random games of ``check --simulate`` came to, per configuration (no timings)."""
    n = report.games
    seeds = f"seed {report.seed}" if n == 1 else f"seeds {report.seed} to {report.seed + n - 1}"
    lines = [f"  random games: {n:,} per configuration, {seeds}"]
    rows: list[tuple[Any, ...]] = [("configuration", "games", "ended", "stopped", "stuck", "failed", "mean actions")]
    for r in report.results:
        rows.append((r.config.describe(), r.games, r.ended, r.truncated, r.stuck, r.failed, _mean(r.actions, r.games)))
    if len(report.results) > 1:
        totals = [
            sum(getattr(r, k) for r in report.results) for k in ("games", "ended", "truncated", "stuck", "failed")
        ]
        actions = sum(r.actions for r in report.results)
        rows.append((f"all {len(report.results)} configurations", *totals, _mean(actions, totals[0])))
    width = max(len(row[0]) for row in rows) + 2
    for row in rows:
        lines.append(f"    {row[0]:<{width}}" + "".join(f"{_thousands(v):>8}" for v in row[1:6]) + f"{row[6]:>14}")
    lines.append(
        f"  (stopped: at the bound of {report.max_actions:,} actions; stuck: the player to act had no legal action; "
        "failed: a rule failed)"
    )
    for s in report.skipped:
        lines.append(f"  not played: {s.what} ({s.reason})")
    return lines


def _mean(total: int, count: int) -> str:
    return f"{total / count:,.1f}" if count else "-"


def _thousands(v: Any) -> str:
    return f"{v:,}" if isinstance(v, int) else str(v)


# ============================================================================ fmt


def cmd_fmt(args: argparse.Namespace) -> int:
    write = not (args.check or args.diff)
    names = list(dict.fromkeys(args.files))
    if write:
        bundled = [name for name in names if not Path(name).is_file() and name in named_games()]
        if bundled:
            name = bundled[0]
            raise _Usage(
                f"'{name}' names a bundled game, not a file: fmt rewrites files in place, so give the file's path "
                f"({shown_path(name, resolve_path(name))}), or use --check or --diff, which write nothing"
            )
    status = EXIT_OK
    changed: list[str] = []
    unchanged = failed = 0
    for name in names:
        try:
            path = resolve_path(name)
            source = read_source(path, shown_path(name, path))
            formatted = format_source(source.text, source.path)
        except RuleDslError as exc:
            _print_diagnostics(exc.diagnostics, sys.stderr)
            failed += 1
            status = max(status, EXIT_INVALID)
            continue
        original = path.read_bytes()
        if formatted.encode("utf-8") == original:
            unchanged += 1
            continue
        if not _same_rules(source.text, formatted, source.path):
            print(
                f"ruledsl: internal error: formatting '{source.path}' would change its rules, so it is left as it is "
                "(please report it, with the file)",
                file=sys.stderr,
            )
            failed += 1
            status = max(status, EXIT_INTERNAL)
            continue
        if args.diff:
            before = original.decode("utf-8", "replace").splitlines(keepends=True)
            after = formatted.splitlines(keepends=True)
            sys.stdout.writelines(_diff_lines(before, after, source.path))
        if write:
            try:
                path.write_bytes(formatted.encode("utf-8"))
            except OSError as exc:
                print(f"ruledsl: error: cannot write '{source.path}': {exc.strerror or exc}", file=sys.stderr)
                failed += 1
                status = max(status, EXIT_INVALID)
                continue
            print(f"reformatted {source.path}", file=sys.stderr)
        else:
            print(f"would reformat {source.path}", file=sys.stderr)
        changed.append(source.path)
    print(_fmt_summary(len(changed), unchanged, failed, write), file=sys.stderr)
    if changed and not write:
        status = max(status, EXIT_REFORMAT)
    return status


def _same_rules(text: str, formatted: str, path: str) -> bool:
    """Whether the formatted text of a rule file parses to the rules of its text (a guard against fmt's bugs)."""
    try:
        return unparse(parse(formatted, path)) == unparse(parse(text, path))
    except RuleDslError:
        return False


def _diff_lines(before: list[str], after: list[str], name: str) -> list[str]:
    """A unified diff of a file's text, each line ending with a newline (even the file's last)."""
    lines = list(difflib.unified_diff(before, after, name, name))
    return [line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines]


def _fmt_summary(changed: int, unchanged: int, failed: int, write: bool) -> str:
    parts = []
    if changed:
        parts.append(f"{_files(changed)} {'reformatted' if write else 'would be reformatted'}")
    if unchanged:
        parts.append(f"{_files(unchanged)} {'left unchanged' if write else 'already formatted'}")
    if failed:
        parts.append(f"{_files(failed)} could not be formatted (see above)")
    return ", ".join(parts) if parts else "no file"


def _files(k: int) -> str:
    return f"{k} file{'s' if k != 1 else ''}"


# ============================================================================ play


def _parse_options(pairs: Sequence[str]) -> dict[str, str]:
    options: dict[str, str] = {}
    for pair in pairs:
        name, eq, value = pair.partition("=")
        if not eq or not name:
            raise _Usage(f"--option takes NAME=VALUE, not '{pair}'")
        if name.strip() in options:
            raise _Usage(f"--option {name.strip()} is given twice ({name.strip()}={options[name.strip()]}, {pair})")
        options[name.strip()] = value.strip()
    return options


class _Usage(Exception):
    """A command-line mistake: printed as 'ruledsl: error: ...', exit 2."""


def _load(args: argparse.Namespace, extra: dict[str, str] | None = None) -> Game:
    """Load the game the arguments name; ``extra`` adds options to --option's."""
    players = args.players
    seats = getattr(args, "seats", None)
    options = {**_parse_options(args.option or []), **(extra or {})}
    max_actions = args.max_actions
    if seats:
        _check_specs(seats)  # a mistyped agent is the mistake to report, not the count it implies
    if players is not None or not seats:
        return load_game(args.game, players=players, options=options, max_actions=max_actions)
    players = len(seats.split(","))  # '--seats human,random,random' says how many play
    try:
        return load_game(args.game, players=players, options=options, max_actions=max_actions)
    except OptionError as exc:
        if exc.diagnostics[0].code != "E603":
            raise
        s = "s" if players != 1 else ""
        raise _Usage(
            f"--seats names {players} seat{s}: {exc.diagnostics[0].message}; name one agent per player"
        ) from None


def _check_specs(seats: str) -> None:
    """Raise AgentSpecError for an unknown agent or a bad option in --seats."""
    for spec in seats.split(","):
        if parse_spec(spec.strip())[0] != "human":
            make_agent(spec.strip(), 0)


def _open_log(path: str | None) -> None:
    """Make sure the game log can be written before any game is played (and its record lost)."""
    if path is None:
        return
    try:
        with open(path, "a", encoding="utf-8"):
            pass
    except OSError as exc:
        raise _Usage(f"cannot write the game log '{path}': {exc.strerror or exc}") from None


def _warn_another_run(path: str, games: Sequence[Game], seatings: Sequence[Sequence[str]]) -> None:
    """Say once, before playing, that the game log holds records of another run.

    Appending runs is allowed; mixing games or settings in one file may not be meant.
    """
    difference = another_run(path, games, seatings)
    if difference is not None:
        print(f"warning: '{path}' already holds {difference}; appending anyway", file=sys.stderr)


def _seatings(seats: Sequence[str], rotate: bool) -> list[list[str]]:
    """Every seating a batch of bot games uses: the one given, or with --rotate each rotation of it."""
    return [seats_for(i, seats, rotate) for i in range(len(seats) if rotate else 1)]


def _write_log(path: str, records: list[dict[str, Any]]) -> None:
    try:
        write_records(path, records)
    except OSError as exc:
        raise _Usage(f"cannot write the game log '{path}': {exc.strerror or exc}") from None


def _seats(args: argparse.Namespace, players: int, first: str, others: str = "random") -> list[str]:
    """The agents of ``--seats``; without it, ``first`` in seat 0 and ``others`` elsewhere."""
    if args.seats:
        seats = [canonical_spec(s) for s in args.seats.split(",")]
    else:
        seats = [first] + [others] * (players - 1)
    if len(seats) != players:
        raise _Usage(
            f"--seats names {len(seats)} seat{'s' if len(seats) != 1 else ''}, but the game has {players} players"
        )
    return seats  # _load has checked every agent named


def _hand_over(seat: int, out: TextIO, inp: TextIO) -> None:
    """Between two humans at one keyboard: wait until the next one has it, with the last one's cards gone.

    On a terminal the screen is cleared; otherwise (a transcript) the cards were never
    on a screen to hide.
    """
    print(f"=== pass the keyboard to P{seat}; P{seat}, press Enter when the others cannot see", file=out, flush=True)
    if not inp.readline():
        raise EOFError
    if out.isatty():
        out.write("\033[2J\033[H")  # clear the screen, cursor to the top
        out.flush()
    print(f"=== P{seat}", file=out)


def _describe_view(state: GameState, seat: int) -> list[str]:
    """Render what ``seat`` sees, from its observation alone."""
    return describe_view(state.observation(seat), seat, labels_by_name(state.prog))


def _choose_human(state: GameState, seat: int, out: TextIO, inp: TextIO) -> Any:
    """Show the human seat its view and legal actions; read a choice until one is valid.

    A long menu is grouped (``ruledsl.cli.menu``): a number opens a group's own menu, 0 goes
    back; text is read against every legal action, whichever menu is shown.
    """
    for line in _describe_view(state, seat):
        print(line, file=out)
    legal = state.legal_actions()

    def shown(a: Any) -> str:
        return shown_action(a, state.prog)

    menus: list[tuple[str, list[Entry]]] = [("", menu_entries(legal, shown))]  # the menus opened, the last shown
    _print_menu(menus, shown, out)
    while True:
        entries = menus[-1][1]
        print(f"P{seat} (you)> ", end="", file=out, flush=True)
        line = inp.readline()
        if not line:
            raise EOFError
        text = line.strip()
        if not text:
            continue
        if text.lower() in ("q", "quit", "exit"):
            raise EOFError
        if text.lower() in ("?", "help", "h"):
            suits = " (♠♥♦♣ may be typed s h d c)" if any(ch in str(a) for a in legal for ch in "♠♥♦♣") else ""
            groups = (
                " A line ending in › holds several actions: its number shows them, 0 goes back."
                if len(menus) > 1 or any(isinstance(e, Group) for e in entries)
                else ""
            )
            print(
                f"Type the number of an action, or its text{suits}; 'v' shows your view again; 'q' quits.{groups} "
                "A move the rules do not allow now is refused with the reason, and the game goes on unchanged.",
                file=out,
            )
            continue
        if text.lower() in ("v", "view"):
            for view_line in _describe_view(state, seat):
                print(view_line, file=out)
            _print_menu(menus, shown, out)
            continue
        if text.isdigit():
            i = int(text)
            if i == 0 and len(menus) > 1:
                menus.pop()
                _print_menu(menus, shown, out)
                continue
            if 1 <= i <= len(entries):
                entry = entries[i - 1]
                if not isinstance(entry, Group):
                    return entry
                menus.append((entry.title, list(entry.entries)))
                _print_menu(menus, shown, out)
                continue
            back = ", or 0 to go back" if len(menus) > 1 else ""
            print(f"There is no action {i}: choose from 1 to {len(entries)}{back}.", file=out)
            continue
        wanted = normalise(text)
        matches = [a for a in legal if wanted in (normalise(str(a)), normalise(shown(a)))]
        if not matches:
            matches = reading_in_any_order(text, legal, shown)
        if not matches:
            matches = [a for a in legal if normalise(str(a)).startswith(wanted)]
        if len(matches) == 1:
            return matches[0]
        if len(matches) > 1:
            print(
                f"'{text}' could be: "
                + "; ".join(
                    [*(str(a) for a in matches[:6]), *([f"and {len(matches) - 6} more"] if len(matches) > 6 else [])]
                )
                + ". Type more of it, or its number.",
                file=out,
            )
        else:
            # Why not, in the rules' words (never about cards he cannot see); the game is unchanged.
            reason = state.why_illegal(text)
            why = f": {reason}" if reason and reason != NO_REASON else ""
            print(
                f"'{text}' is not one of your actions now{why}. Type a number from 1 to {len(entries)}, or 'help'.",
                file=out,
            )


def _print_menu(menus: list[tuple[str, list[Entry]]], shown: Any, out: TextIO) -> None:
    """Print the menu last opened: numbered lines, under the title of the group it shows, if any."""
    title, entries = menus[-1]
    if title:
        print(" › ".join(t for t, _ in menus[1:]) + ":", file=out)
    width = len(str(len(entries)))
    for i, entry in enumerate(entries, 1):
        print(f"  {i:>{width}}) {line_of(entry, shown)}", file=out)
    if title:
        print(f"  {0:>{width}}) back", file=out)


def _watch_the_rest(humans: int, out: TextIO, inp: TextIO) -> bool:
    """Ask the humans, all out of a game that goes on, whether to watch it; False: fast-forward."""
    who = "You are" if humans == 1 else "You are all"
    print(
        f"{who} out. Press Enter to watch the rest, or f to fast-forward to the result: ", end="", file=out, flush=True
    )
    line = inp.readline()
    if not line:
        raise EOFError
    answer = line.strip().lower()
    if answer in ("q", "quit", "exit"):
        raise EOFError
    return answer not in ("f", "fast-forward")


def cmd_play(args: argparse.Namespace) -> int:
    _check_max_actions(args)
    game = _load(args)
    _open_log(args.log)
    interactive = sys.stdin.isatty()
    # At a terminal, someone plays: a bot that looks ahead (under 0.1 s a move in the shipped
    # games) makes a game of it. Piped input is a transcript, kept as it always was.
    seats = _seats(args, game.players, "human", "greedy") if interactive else _seats(args, game.players, "random")
    if args.log:
        _warn_another_run(args.log, [game], [seats])
    humans = [q for q, spec in enumerate(seats) if parse_spec(spec)[0] == "human"]
    if args.seed is None:
        # A new deal each time; the header prints the seed, so the game can still be replayed.
        args.seed = random.SystemRandom().randrange(1_000_000)
    agents = {q: make_agent(spec, agent_seed(args.seed, q)) for q, spec in enumerate(seats) if q not in humans}
    out = sys.stdout
    viewer = humans[0] if len(humans) == 1 else None
    try:
        state = game.new_initial_state(seed=args.seed, log=True, track=needs_tracking(agents.values()))
    except RuleRuntimeError as exc:  # the setup failed: a game of no action
        return _stuck(exc, args.log, build_record(game, args.seed, seats, [], [], None, False, error=exc))
    label = ", ".join(f"P{q} {spec}" for q, spec in enumerate(seats))
    options = _options_text(game.options)
    print(
        f"{game.name}: {game.players} players ({label}), seed {args.seed}"
        + (f"; options: {options}" if options else "")
        + (f"; at most {game.max_actions:,} actions" if game.max_actions != DEFAULT_MAX_ACTIONS else ""),
        file=out,
    )
    if any(agent.omniscient for agent in agents.values()):
        print(_CHEAT_NOTE, file=out)
    for line in state.take_log():
        print(f"  {line}", file=out)
    actors: list[int] = []
    at_keyboard: int | None = None  # with several humans, who was last shown his cards
    last_seen: int | None = None  # the round a lone human last saw his view in
    thinking = _Progress()
    asked_out = False  # the humans, all out, are asked once whether to watch the rest
    skipped_from: int | None = None  # the number of actions before fast-forwarding, if they chose to
    try:
        while not state.is_terminal():
            legal = state.legal_actions()
            if not legal:
                raise stuck_error(state)
            seat = state.current_player()
            # A lone human's only move needs no keypress. With several at one keyboard it
            # does: playing it at once would show the others that he had no choice.
            forced = seat in humans and len(legal) == 1 and len(humans) == 1 and not args.confirm_forced
            if forced:
                action = legal[0]
                if view_due(forced, state, last_seen):  # a new deal is shown, even with nothing to choose
                    for line in _describe_view(state, seat):
                        print(line, file=out)
                    last_seen = state.round
            elif seat in humans:
                if len(humans) > 1 and seat != at_keyboard:
                    _hand_over(seat, out, sys.stdin)
                    at_keyboard = seat
                action = _choose_human(state, seat, out, sys.stdin)
                last_seen = state.round
            else:
                thinking.say(f"P{seat} ({seats[seat]}) is thinking…")
                action = decide(agents[seat], state, seat)
                thinking.close()
            state.apply_action(action)
            actors.append(seat)
            log = state.take_log()
            if skipped_from is None:
                seen = state.describe_last(viewer if seat != viewer else seat)
                if forced:
                    print(forced_line(seat, seen), file=out)
                elif seen:
                    print(f"P{seat}: {seen}", file=out)
                for line in log:
                    print(f"  {line}", file=out)
            if humans and not asked_out and not state.is_terminal() and set(humans) <= set(state.finished):
                asked_out = True
                # A transcript (input that is no terminal) has nobody to ask: it shows the game to its end.
                if sys.stdin.isatty() and not _watch_the_rest(len(humans), out, sys.stdin):
                    skipped_from = len(actors)
    except RuleRuntimeError as exc:
        thinking.close()
        return _stuck(exc, args.log, record_of_state(game, args.seed, seats, state, actors, exc))
    except (EOFError, KeyboardInterrupt) as stop:
        thinking.close()
        n = len(actors)
        print(f"\nGame left unfinished after {n} action{'s' if n != 1 else ''}.", file=out)
        if args.log:
            _write_log(args.log, [record_of_state(game, args.seed, seats, state, actors)])
            print(f"Its record, marked unfinished, is in {args.log}.", file=out)
        if isinstance(stop, KeyboardInterrupt):
            raise  # 'interrupted', exit 130
        return EXIT_UNFINISHED
    if skipped_from is not None:
        skipped = len(actors) - skipped_from
        print(f"({skipped} action{'s' if skipped != 1 else ''} fast-forwarded)", file=out)
    for line in result_lines(state):
        print(line, file=out)
    if args.log:
        _write_log(args.log, [record_of_state(game, args.seed, seats, state, actors)])
    return EXIT_OK


def _games(k: int) -> str:
    return f"{k} game{'s' if k != 1 else ''}"


def _stuck(error: RuleRuntimeError, log: str | None, record: dict[str, Any]) -> int:
    """Report the rule error that stopped a game played, and record the game with it; return exit code 70."""
    _print_diagnostics(error.diagnostics, sys.stderr)
    if log:
        _write_log(log, [record])
        print(f"Its record, marked stuck, is in {log}.")
    return EXIT_RUNTIME


# ============================================================================ simulate


def _check_max_actions(args: argparse.Namespace) -> None:
    """Refuse an action bound below 1: before loading the game."""
    if args.max_actions < 1:
        raise _Usage(f"--max-actions takes a number of actions of at least 1, not {args.max_actions}")


def _check_batch(args: argparse.Namespace) -> None:
    """Refuse the numbers of a batch of bot games that cannot be: before loading the game."""
    _check_max_actions(args)
    if args.n < 1:
        raise _Usage("-n must be at least 1")
    if args.jobs < 1:
        raise _Usage("--jobs must be at least 1")


def _bot_seats(args: argparse.Namespace, players: int) -> list[str]:
    seats = _seats(args, players, "random")
    if any(parse_spec(s)[0] == "human" for s in seats):
        raise _Usage(f"{args.command} plays bots only; 'human' cannot take a seat")
    return seats


def cmd_simulate(args: argparse.Namespace) -> int:
    _check_batch(args)
    game = _load(args)
    seats = _bot_seats(args, game.players)
    if args.rotate and args.n % game.players:
        print(
            f"warning: with --rotate, {args.n} games do not seat each agent in each seat equally often; "
            f"make -n a multiple of {game.players}",
            file=sys.stderr,
        )
    plot_path = _plot_path(args.plot) if args.plot else None
    _check_behind_after(args.behind_after)
    if args.csv:
        _check_writable(Path(args.csv), "--csv", "the table")
    _open_log(args.log)
    if args.log:
        _warn_another_run(args.log, [game], _seatings(seats, args.rotate))
    if args.csv:
        _write_table(args.csv, [game_columns(game.players)], "w")  # this run's table, header first
    seeds = list(range(args.seed, args.seed + args.n))
    started = time.perf_counter()
    done = 0

    def finished(r: SimulatedGame) -> None:
        # Each game is saved as it ends (in seed order), so that an interrupted run keeps it.
        nonlocal done
        done += 1
        if args.log:
            _write_log(args.log, [record_of_game(game, r, args.rotate)])
        if args.csv and r.error is None:  # a stuck game has no returns, no winner, no outcome to write
            _write_table(args.csv, [game_row(r, args.behind_after)], "a")
        if not args.json:
            bar.add(1, args.n)

    try:
        with _Progress() as bar:
            records = run_games(game, seeds, seats, args.jobs, finished, rotate=args.rotate, keep_labels=bool(args.log))
    except KeyboardInterrupt:
        kept = " and ".join(path for path in (args.log, args.csv) if path)
        if kept:
            print(f"\n{done} finished game{'s' if done != 1 else ''} of {args.n} kept in {kept}", file=sys.stderr)
        raise
    except RuleRuntimeError as exc:
        # Like play, the run stops at the first game the rules stop: the rules need mending first.
        _print_diagnostics(exc.diagnostics, sys.stderr)
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
    )
    stats = {**_run_facts(game, args, game.options), **stats}
    stats["seconds"] = round(elapsed, 3)
    if args.json:
        print(json.dumps(stats, ensure_ascii=False, indent=2))
    else:
        for line in _stats_lines(stats, plot_path):
            print(line)
        # On stderr: the report itself is the same, byte for byte, from one run to the next.
        rate = f" ({args.n / elapsed:.1f} games/s)" if elapsed > 0 else ""
        print(f"time {elapsed:.2f} s{rate}", file=sys.stderr)
    if plot_path is not None:
        try:
            plot(stats, plot_path)
        except OSError as exc:  # checked before playing, but the disk may have filled since
            raise _Usage(f"cannot write the plot '{plot_path}': {exc.strerror or exc}") from None
    return EXIT_OK


def cmd_compare(args: argparse.Namespace) -> int:
    _check_batch(args)
    name, values = _vary(args)
    games = [_load(args, {name: value}) for value in values]
    shown = [show_value(g.options[name]) for g in games]
    for i, value in enumerate(shown):
        if value in shown[:i]:
            raise _Usage(f"--vary gives {name}={value} twice ({values[shown.index(value)]}, {values[i]})")
    seats = _bot_seats(args, games[0].players)
    _open_log(args.log)
    if args.log:
        _warn_another_run(args.log, games, _seatings(seats, args.rotate))
    seeds = list(range(args.seed, args.seed + args.n))
    total = args.n * len(games)
    started = time.perf_counter()
    runs = []
    last: list[Any] = [None]  # the game the rules stopped, if they do: the last to reach the progress bar

    with _Progress() as bar:
        for value, game in zip(shown, games, strict=True):

            def finished(r: SimulatedGame, game: Game = game) -> None:
                last[0] = r
                if args.log:  # each game is saved as it ends, so that an interrupted run keeps it
                    _write_log(args.log, [record_of_game(game, r, args.rotate)])
                bar.add(1, total)

            try:
                runs.append(
                    run_games(game, seeds, seats, args.jobs, finished, rotate=args.rotate, keep_labels=bool(args.log))
                )
            except RuleRuntimeError as exc:
                bar.close()
                _print_diagnostics(exc.diagnostics, sys.stderr)
                seed = f" (seed {last[0].seed})" if last[0] is not None else ""
                stopped = f"the rules stopped a game with {name}={value}{seed}, and the comparison with it"
                print(stopped, file=sys.stderr)
                return EXIT_RUNTIME
    elapsed = time.perf_counter() - started
    result = compare(name, shown, runs, games[0].players, args.rotate)
    others = {k: v for k, v in games[0].options.items() if k != name}
    if args.json:
        result = {**_run_facts(games[0], args, others), "seats": seats, **result}
        print(json.dumps(result, ensure_ascii=False, indent=2))
    else:
        header = [
            f"{games[0].name}: {args.n} games for each value of {name} ({', '.join(shown)}), "
            f"{games[0].players} players, the same seeds {args.seed}..{args.seed + args.n - 1} for each"
            + ("; agents rotate through the seats" if args.rotate else ""),
            f"seats: {', '.join(seats)}",
        ]
        if others:
            header.append(f"other options: {_options_text(others)}")
        for line in report_lines(result, header):
            print(line)
        print(f"time {elapsed:.2f} s", file=sys.stderr)
    return EXIT_OK


def _run_facts(game: Game, args: argparse.Namespace, options: dict[str, Any]) -> dict[str, Any]:
    """What a JSON report names of its run: the rules and their hash, the version, options, seeds, bound."""
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


def _vary(args: argparse.Namespace) -> tuple[str, list[str]]:
    """The option --vary names and its values, as typed."""
    if args.vary is None:
        # Checked here, not by argparse: a user who listed the values to --option is told where they go.
        listed_to_option = [o for o in args.option or [] if "," in o]
        if listed_to_option:
            raise _Usage(f"compare varies one option: write --vary {listed_to_option[0].strip()}, not --option")
        raise _Usage("compare needs the option to vary and its values: --vary OPTION=V1,V2,..., as double=no,yes")
    name, eq, listed = args.vary.partition("=")
    name = name.strip()
    values = [v.strip() for v in listed.split(",") if v.strip()]
    if not eq or not name or len(values) < 2:
        raise _Usage(f"--vary takes an option and two values or more, as double=no,yes; not '{args.vary}'")
    if name in _parse_options(args.option or []):
        raise _Usage(f"--vary and --option both set '{name}'; give its values to --vary only")
    return name, values


def _plot_path(path: str) -> str:
    """Check, before any game is played, that --plot can draw to ``path``; return the file to write.

    A name without an extension gets '.png', as matplotlib would give it.
    """
    if importlib.util.find_spec("matplotlib") is None:
        raise _Usage("--plot needs matplotlib: pip install 'ruledsl[plot]' (or pip install matplotlib)")
    from matplotlib.backend_bases import FigureCanvasBase

    target = Path(path)
    if target.is_dir():
        raise _Usage(f"--plot names a file to draw into, and '{path}' is a directory")
    kinds = sorted(FigureCanvasBase.get_supported_filetypes())
    kind = target.suffix[1:].lower()
    if not kind:
        target, kind = target.with_name(target.name + ".png"), "png"
    if kind not in kinds:
        raise _Usage(f"--plot cannot draw a '.{kind}' file; name a file ending in one of: {', '.join(kinds)}")
    _check_writable(target, "--plot", "the plot")
    return str(target)


def _check_writable(target: Path, option: str, what: str) -> None:
    """Refuse, before any game is played, a file ``option`` names that could not be written."""
    if target.is_dir():
        raise _Usage(f"{option} names a file to write, and '{target}' is a directory")
    folder = target.parent
    if not folder.is_dir():
        raise _Usage(f"cannot write {what} '{target}': no folder '{folder}'")
    if not os.access(folder, os.W_OK) or (target.exists() and not os.access(target, os.W_OK)):
        raise _Usage(f"cannot write {what} '{target}': permission denied")


def _write_table(path: str, rows: Sequence[Sequence[Any]], mode: str) -> None:
    """Write rows of --csv's table: the header anew ("w"), then each game's row as it ends ("a")."""
    try:
        with open(path, mode, encoding="utf-8", newline="") as f:
            csv.writer(f, lineterminator="\n").writerows(rows)
    except OSError as exc:
        raise _Usage(f"cannot write the table '{path}': {exc.strerror or exc}") from None


_CHEAT_NOTE = "note: 'cheat' sees every card, the deck's order included: a ceiling to measure against, not a player"


def _options_text(options: dict[str, Any]) -> str:
    """The options a game is played with, as --option would give them: 'decks=1, double=no'."""
    return ", ".join(f"{k}={show_value(v)}" for k, v in sorted(options.items()))


def _agents_help(human: bool) -> str:
    """The agents --seats takes and their options with defaults, from the agents themselves."""
    lines = ["agents for --seats (options after colons, as ismcts:iterations=500:c=0.5):"]
    if human:
        lines.append("  human     you, at the keyboard")
    shown: dict[int, str] = {}
    for name, factory in AGENTS.items():
        doc = (factory.__doc__ or "").strip().splitlines()[0].rstrip(".")
        lines.append(f"  {name:<9} {doc[0].lower() + doc[1:]}")
        if id(factory.OPTIONS) in shown:
            lines.append(f"    the options of {shown[id(factory.OPTIONS)]}")
            continue
        shown[id(factory.OPTIONS)] = name
        for key, option in factory.OPTIONS.items():
            default = f"{option.default:g}" if option.kind is float else str(option.default)
            lines.append(f"    {key + '=' + default:<18} {option.doc}")
    lines.append("see docs/agents.md for what each does and how strong it is")
    return "\n".join(lines)


def _check_behind_after(text: str) -> None:
    body = text[:-1] if text.endswith("%") else text
    try:
        value = float(body) if text.endswith("%") else int(body)
    except ValueError:
        value = -1
    if value < 0 or (text.endswith("%") and value > 100):
        raise _Usage(f"--behind-after takes a number of actions or a percentage of the game (as 50%), not '{text}'")


def _interval(row: dict[str, Any]) -> str:
    lo, hi = row["ci95"]
    return f"{lo:.3f} to {hi:.3f}"


def _stats_lines(stats: dict[str, Any], plot_path: str | None) -> list[str]:
    """Render simulate's statistics for people (see docs/metrics.md for each one)."""
    n = stats["games"]
    first_seed = stats["seed"]
    lines = [
        f"{stats['game']}: {n} games, {stats['players']} players, seeds {first_seed}..{first_seed + n - 1}, "
        f"at most {stats['max_actions']:,} actions a game"
        + ("; agents rotate through the seats" if stats["rotate"] else "")
    ]
    if stats["options"]:
        lines.append(f"options: {_options_text(stats['options'])}")
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
    f = stats["first_player"]
    if f["games"]:
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
    lines.append(f"draws {stats['draws']}, {shared}, stopped at the action bound {stats['truncated']}")
    for what in ("actions", "turns"):
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
        lines.append(_CHEAT_NOTE)
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


class _Progress:
    """A progress line on stderr, drawn only when stderr is a terminal (never into a file or pipe).

    ``count(done, total)`` draws a bar of games (at most ten times a second), ``say(text)``
    a line of text; ``close()`` erases whatever was drawn. Used as a context manager, it
    erases on the way out, exceptions included.
    """

    def __init__(self, label: str = "") -> None:
        self.enabled = sys.stderr.isatty()
        self.label = label
        self.done = 0
        self.width = 0
        self.last = 0.0

    def count(self, done: int, total: int) -> None:
        self.done = done
        now = time.perf_counter()
        if self.enabled and (now - self.last > 0.1 or done == total):
            self.last = now
            filled = int(30 * done / total) if total else 30
            self.say(f"[{'#' * filled}{'.' * (30 - filled)}] {done:,}/{total:,} games")

    def add(self, k: int, total: int) -> None:
        self.count(self.done + k, total)

    def say(self, text: str) -> None:
        if self.enabled:
            line = f"{self.label}: {text}" if self.label else text
            sys.stderr.write("\r" + line.ljust(self.width))
            sys.stderr.flush()
            self.width = max(self.width, len(line))

    def close(self) -> None:
        if self.enabled and self.width:
            sys.stderr.write("\r" + " " * self.width + "\r")
            sys.stderr.flush()
            self.width = 0

    def __enter__(self) -> _Progress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# ============================================================================ replay


def cmd_replay(args: argparse.Namespace) -> int:
    entries = read_entries(args.file)
    if not entries:
        raise _Usage(f"'{args.file}' holds no game record")
    if not 1 <= args.game <= len(entries):
        raise _Usage(f"--game {args.game}: '{args.file}' holds games 1 to {len(entries)}")
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
            if not text.isdigit() or not 0 <= int(text) < game.players:
                last = game.players - 1
                raise _Usage(f"--as takes a seat from 0 to {last} (or P0 to P{last}), not '{args.as_}'")
            viewer = int(text)
        for line in render_replay(record, game, viewer):
            print(line)
    except RecordError as exc:
        # Another version is no reason to refuse a record, but may be why its replay failed.
        raise RecordError(f"{exc}{version_note(record)}") from None
    return EXIT_OK


# ============================================================================ bench


def cmd_bench(args: argparse.Namespace) -> int:
    if not args.seconds > 0:
        raise _Usage(f"--seconds takes a positive number of seconds, not {args.seconds:g}")
    if args.repeats < 1:
        raise _Usage(f"--repeats takes a number of at least 1, not {args.repeats}")
    options = _parse_options(args.option or [])
    with _Progress("bench") as bar:
        figures = bench(args.game, args.players, options, args.seconds, args.repeats, bar.say)
    if args.json:
        print(json.dumps(figures, ensure_ascii=False, indent=2))
        return EXIT_OK
    for line in _bench_lines(figures):
        print(line)
    return EXIT_OK


def _bench_lines(f: dict[str, Any]) -> list[str]:
    """Render bench's figures for people."""
    options = ", ".join(f"{k}={show_value(v)}" for k, v in sorted(f["options"].items()))
    rounds = " ".join(f"{x:,}" for x in f["moves_per_s_rounds"])
    lines = [
        f"{f['game']} ({f['file']}), {f['players']} players" + (f"; options: {options}" if options else ""),
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


# ============================================================================ info and list


def cmd_info(args: argparse.Namespace) -> int:
    checked = check_file(args.game)
    low, high = players_range(checked)
    print(f"{checked.file.name} ({checked.source.path})")
    print(f"players: {low} to {high}")
    infos = options_of(checked, args.players)
    if not infos:
        print("options: none")
    else:
        print("options (--option NAME=VALUE):")
        for o in infos:
            if o.kind == "flag":
                kind = "yes/no"  # as values are shown; true and false are typed too
            elif o.kind == "number":
                kind = f"{o.low} to {o.high}" if o.low is not None else "a number"
            elif o.kind == "choice":
                kind = " | ".join(o.choices)
            else:
                kind = "text"
            print(f"  {o.name} = {show_value(o.default)}  ({kind})")
            if o.doc:
                print(f"      {o.doc}")
    phases = ", ".join(checked.symbols.phases)
    print(f"phases: {phases}")
    print(f"zones: {', '.join(checked.symbols.zones)}")
    return EXIT_OK


def cmd_list(args: argparse.Namespace) -> int:
    _list_games(bundled_games())
    print("\nexamples, classic games written to learn from (games/examples; played by name too):")
    _list_games(example_games())
    return EXIT_OK


def _list_games(games: dict[str, Path]) -> None:
    for name, path in games.items():
        try:
            checked = check_file(str(path))
            low, high = players_range(checked)
            count = f"{low}" if low == high else f"{low}-{high}"
            print(f"{name:<22} {checked.file.name} ({count} players)")
        except RuleDslError:
            print(f"{name:<22} (does not check: run 'ruledsl check {name}')")


# ============================================================================ main


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="ruledsl",
        description="Write card games as rule files; check, format, play, simulate and measure them.",
        epilog="GAME is a path to a .game file or the name of a bundled game (see 'ruledsl list').",
    )
    parser.add_argument("--version", action="version", version=f"ruledsl {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser(
        "check", help="validate rule files", description="Check rule files and print every problem found."
    )
    p.add_argument("files", nargs="+", metavar="FILE", help="rule files (or bundled game names)")
    p.add_argument(
        "--format", choices=("text", "json"), default="text", help="output for people (text) or tools (json)"
    )
    p.add_argument(
        "--simulate",
        type=int,
        metavar="N",
        help="then play N random games with every player count and option variant, to find rules that fail "
        "in play, states where nobody can act, and rules that never come into play",
    )
    p.add_argument(
        "--players", type=int, help="with --simulate: play only this number of players (and no option variant)"
    )
    p.add_argument(
        "--option",
        action="append",
        metavar="NAME=VALUE",
        help="with --simulate: play only with this option set, the others at their defaults (repeatable)",
    )
    p.add_argument("--seed", type=int, help="with --simulate: the seed of the first game (default 0)")
    p.set_defaults(func=cmd_check)

    p = sub.add_parser(
        "fmt",
        help="write rule files in the canonical layout",
        description="Rewrite rule files in place in the canonical layout (comments kept); say which were reformatted.",
    )
    p.add_argument(
        "files", nargs="+", metavar="FILE", help="rule files (with --check or --diff, also bundled game names)"
    )
    p.add_argument(
        "--check",
        action="store_true",
        help="write nothing; list the files that would be reformatted, and exit 1 if there is any",
    )
    p.add_argument(
        "--diff",
        action="store_true",
        help="write nothing; print what would change as a unified diff, and exit 1 if anything would",
    )
    p.set_defaults(func=cmd_fmt)

    def load_args(
        p: argparse.ArgumentParser, players_help: str = "number of players (default: the least the game allows)"
    ) -> None:
        p.add_argument("game", metavar="GAME", help="a .game file or a bundled game's name")
        p.add_argument("--players", type=int, default=None, help=players_help)
        p.add_argument(
            "--option",
            action="append",
            metavar="NAME=VALUE",
            help="set a game option (repeatable); see 'ruledsl info GAME'",
        )

    def game_args(p: argparse.ArgumentParser, seed_help: str, seats_help: str, seed: int | None) -> None:
        load_args(p, "number of players (default: as many as --seats names, else the least the game allows)")
        p.add_argument("--seed", type=int, default=seed, help=seed_help)
        p.add_argument("--seats", metavar="AGENT,...", help=seats_help)

    def max_actions_arg(p: argparse.ArgumentParser) -> None:
        p.add_argument(
            "--max-actions",
            type=int,
            default=DEFAULT_MAX_ACTIONS,
            metavar="N",
            help="stop a game after N actions, counted as stopped at the action bound "
            f"(default {DEFAULT_MAX_ACTIONS:,})",
        )

    def batch_args(p: argparse.ArgumentParser, n: int, n_help: str, printed: str) -> None:
        """The arguments of a batch of bot games: how many, how long at most, in how many processes."""
        p.add_argument("-n", type=int, default=n, help=n_help)
        max_actions_arg(p)
        p.add_argument("--jobs", type=int, default=1, help="processes to use (default 1)")
        p.add_argument("--json", action="store_true", help=f"print {printed} as JSON")
        p.add_argument("--rotate", action="store_true", help="rotate the agents through the seats from game to game")

    p = sub.add_parser(
        "play",
        help="play a game in the terminal",
        description="Play a game at the terminal against bots, or watch bots play.",
        epilog=_agents_help(human=True),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    game_args(
        p,
        "seed of all randomness: the deal and the bots (default: a new one each game, printed first)",
        "one agent per seat, as human,ismcts:iterations=500 (default: human, then greedy; "
        "random for all when the input is not a terminal)",
        None,
    )
    p.add_argument(
        "--log",
        metavar="FILE.jsonl",
        help="append a record of the game to this file, even of one left unfinished (see replay)",
    )
    p.add_argument(
        "--confirm-forced",
        action="store_true",
        help="ask for your move even when it is your only one (by default it is played at once)",
    )
    max_actions_arg(p)
    p.set_defaults(func=cmd_play)

    p = sub.add_parser(
        "simulate",
        help="play many games with bots",
        description="Play N seeded games with bots and report win rates, lengths, leads and actions taken.",
        epilog=_agents_help(human=False),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    game_args(
        p,
        "seed of the first game: game i is played with seed S+i (default 0); "
        "runs of N games are independent when their seeds are N or more apart",
        "one agent per seat, as ismcts:iterations=500,random (default: random for all)",
        0,
    )
    batch_args(p, 100, "number of games (default 100)", "the statistics")
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
    p.set_defaults(func=cmd_simulate)

    p = sub.add_parser(
        "compare",
        help="compare a game under two values of an option or more",
        description="Play the same seeded games under each value of one option, and test, game by game,\n"
        "whether who wins and how long games last changed (the first value is the baseline).",
        epilog=_agents_help(human=False),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    game_args(
        p,
        "seed of the first game: game i of every value is played with seed S+i (default 0)",
        "one agent per seat, as ismcts:iterations=500,random (default: random for all)",
        0,
    )
    p.add_argument(
        "--vary", metavar="OPTION=V1,V2,...", help="the option to vary and its values, as double=no,yes (required)"
    )
    batch_args(p, 200, "games for each value (default 200)", "the comparison")
    p.add_argument(
        "--log", metavar="FILE.jsonl", help="append a record of each game, value after value, to this file (see replay)"
    )
    p.set_defaults(func=cmd_compare)

    p = sub.add_parser(
        "replay",
        help="replay a recorded game",
        description="Replay a game recorded with --log, as one player saw it (hidden cards stay hidden).",
    )
    p.add_argument("file", metavar="FILE.jsonl", help="a file written by play or simulate --log")
    p.add_argument("--game", type=int, default=1, metavar="K", help="which record of the file, from 1 (default 1)")
    p.add_argument(
        "--as",
        dest="as_",
        metavar="PLAYER",
        help="the seat whose view to show (0, 1, ... or P0, P1, ...); default: a spectator's",
    )
    p.add_argument("--rules", metavar="GAME", help="the rule file to replay with (default: the one the record names)")
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser(
        "bench",
        help="measure a game's speed",
        description="Measure how fast a game plays: random playouts per second, the cost of listing, applying and "
        "cloning, load time and memory. A warm-up, then timed rounds; medians.",
    )
    load_args(p)
    p.add_argument("--seconds", type=float, default=5.0, help="time to spend on the timed playouts (default 5)")
    p.add_argument("--repeats", type=int, default=5, help="rounds the playout time is split into (default 5)")
    p.add_argument("--json", action="store_true", help="print the figures as JSON")
    p.set_defaults(func=cmd_bench)

    p = sub.add_parser(
        "info", help="show a game's players and options", description="Show a game's player counts, options and parts."
    )
    p.add_argument("game", metavar="GAME", help="a .game file or a bundled game's name")
    p.add_argument("--players", type=int, default=None, help="show option defaults for this many players")
    p.set_defaults(func=cmd_info)

    p = sub.add_parser("list", help="list the bundled games", description="List the games that ship with ruledsl.")
    p.set_defaults(func=cmd_list)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return EXIT_USAGE
    try:
        return int(args.func(args))
    except RuleDslError as exc:
        _print_diagnostics(exc.diagnostics, sys.stderr)
        return _exit_code(exc)
    except (_Usage, AgentSpecError, RecordError) as exc:
        parser.exit(EXIT_USAGE, f"ruledsl: error: {exc}\n")
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return EXIT_OK
    except Exception:  # a fault of ruledsl itself: say so, with the traceback to report
        print("ruledsl: internal error (please report it, with this traceback):", file=sys.stderr)
        traceback.print_exc()
        return EXIT_INTERNAL
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
