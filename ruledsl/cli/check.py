"""The check command: check rule files, with --simulate play random games to find rules that fail in play,
with --show-code print the Python they compile to."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ruledsl.cli.arguments import add_placement_arguments, check_placement, open_executor, parse_options
from ruledsl.cli.command import Command
from ruledsl.cli.exits import EXIT_INVALID, EXIT_OK, EXIT_RUNTIME, Usage, exit_code, print_diagnostics
from ruledsl.cli.progress import Progress

if TYPE_CHECKING:
    from ruledsl.text.errors import Diagnostic
    from ruledsl.tools.executors import Executor
    from ruledsl.tools.validate import Report


#: Seconds of play a file gets with --simulate, unless --time-budget says otherwise.
DEFAULT_TIME_BUDGET = 50.0


def add_arguments(p: argparse.ArgumentParser) -> None:
    """Declare the files to check, the output format, and what --simulate plays."""
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
        "--show-code",
        action="store_true",
        help="then print the Python each file compiles to (for --players, default the fewest; and --option), "
        "each function under the rule-file line it comes from",
    )
    p.add_argument(
        "--players",
        type=int,
        help="with --simulate: play only this number of players (and no option variant); "
        "with --show-code: compile for this number",
    )
    p.add_argument(
        "--option",
        action="append",
        metavar="NAME=VALUE",
        help="with --simulate: play only with this option set, the others at their defaults (repeatable); "
        "with --show-code: compile with it",
    )
    p.add_argument("--seed", type=int, help="with --simulate: the seed of the first game (default 0)")
    p.add_argument(
        "--time-budget",
        type=float,
        metavar="SECONDS",
        help=f"with --simulate: stop playing after about this many seconds a file, shared among its "
        f"configurations (default {DEFAULT_TIME_BUDGET:g}; 0: no limit); the games not played are reported",
    )
    add_placement_arguments(p)  # with --simulate: where its games are played


def run(args: argparse.Namespace) -> int:
    """Check each file and print what was found; return the worst exit code of them."""
    simulate = args.simulate is not None
    chosen = args.players is not None or args.option
    if not simulate and (args.seed is not None or (chosen and not args.show_code)):
        raise Usage("--players, --option and --seed choose how to play: they go with --simulate N")
    if args.show_code and args.format == "json":
        raise Usage("--show-code prints the code as text: it does not go with --format json")
    if simulate and args.simulate < 1:
        raise Usage(f"--simulate takes a number of games of at least 1, not {args.simulate}")
    if args.time_budget is not None and not (args.time_budget >= 0 and simulate):
        raise Usage(f"--time-budget takes seconds (0 or more) and goes with --simulate N, not {args.time_budget:g}")
    if not simulate and (args.jobs is not None or args.cluster is not None):
        raise Usage("--jobs and --cluster say where to play: they go with --simulate N")
    check_placement(args)
    budget = DEFAULT_TIME_BUDGET if args.time_budget is None else args.time_budget or None
    options = parse_options(args.option or [])
    if not simulate:
        return _check_files(args, options, budget, None)
    with open_executor(args) as executor:
        status = _check_files(args, options, budget, executor)
        for note in executor.notes():  # a lost worker: the findings are the same, the run says so
            print(note, file=sys.stderr)
    return status


def _check_files(
    args: argparse.Namespace, options: dict[str, str], budget: float | None, executor: Executor | None
) -> int:
    """Check (and with --simulate play) each file, print what was found; return the worst exit code."""
    import json

    from ruledsl.loading import check_file, load_checked
    from ruledsl.text.errors import RuleDslError, sort_diagnostics
    from ruledsl.text.render import one_line, summary
    from ruledsl.tools.validate import deal_diagnostics, validate_checked

    simulate = args.simulate is not None
    status = EXIT_OK
    all_diagnostics: list[Diagnostic] = []
    reports: list[Report] = []
    for name in args.files:
        report = None
        code_listing = None
        try:
            checked = check_file(name)
            # Deals larger than the deck are found by loading the game at each player count, not playing.
            deals = deal_diagnostics(checked, probes=simulate)
            diagnostics: Sequence[Diagnostic] = sort_diagnostics([*checked.warnings, *deals])
            if simulate:
                with Progress(checked.source.path) as bar:
                    report = validate_checked(
                        checked,
                        args.simulate,
                        args.seed or 0,
                        bar.count,
                        players=args.players,
                        options=options,
                        time_budget=budget,
                        executor=executor,
                    )
                reports.append(report)
                # The validator finds those deals again (with --players or --option, for that configuration),
                # and a game that no player count can load.
                dealt = {(d.code, d.span) for d in deals}
                found = [d for d in report.to_diagnostics() if (d.code, d.span) not in dealt]
                diagnostics = sort_diagnostics([*diagnostics, *found])
            code = _check_code(diagnostics)
            if args.show_code and code == EXIT_OK:
                from ruledsl.codegen.compiler import listing_of  # only --show-code needs the compiler's listing

                code_listing = listing_of(load_checked(checked, args.players, options).program)
        except RuleDslError as exc:
            diagnostics = exc.diagnostics
            code = exit_code(exc)
        status = max(status, code)
        all_diagnostics.extend(diagnostics)
        if args.format == "text":
            stream = sys.stdout if code == EXIT_OK else sys.stderr
            print_diagnostics(diagnostics, stream)
            if code == EXIT_OK:
                print(f"{checked.source.path}: ok" + (f" ({summary(diagnostics)})" if diagnostics else ""))
            else:
                path = diagnostics[0].path if diagnostics else name
                print(f"{path}: {summary(diagnostics)}", file=sys.stderr)
            if report is not None:
                for line in _simulation_lines(report):
                    print(one_line(line))
            if code_listing is not None:
                print(code_listing, end="")
    if args.format == "json":
        as_json = [d.to_json() for d in all_diagnostics]
        if simulate:
            simulations = [{k: v for k, v in r.to_json().items() if k != "diagnostics"} for r in reports]
            print(json.dumps({"diagnostics": as_json, "simulations": simulations}, ensure_ascii=False, indent=2))
        else:
            print(json.dumps(as_json, ensure_ascii=False, indent=2))
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
    cut = [r for r in report.results if r.cut]
    if cut:
        planned = sum(r.games + r.cut for r in report.results)
        lines.append(
            f"  time budget of {report.time_budget:g} s spent: played {report.total_games:,} of {planned:,} games "
            f"({'; '.join(f'{r.games} of {r.games + r.cut} with {r.config.describe()}' for r in cut)}); "
            "give more time with --time-budget SECONDS (0: no limit)"
        )
    return lines


def _mean(total: int, count: int) -> str:
    return f"{total / count:,.1f}" if count else "-"


def _thousands(v: Any) -> str:
    return f"{v:,}" if isinstance(v, int) else str(v)


COMMAND = Command(
    "check",
    help="validate rule files",
    description="Check rule files and print every problem found.",
    add_arguments=add_arguments,
    run=run,
)
