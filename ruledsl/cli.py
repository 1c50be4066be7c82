"""The ruledsl command line: check, play, simulate, info, list. The only module that prints or exits."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import traceback
from collections.abc import Sequence
from typing import Any, TextIO

from ruledsl import __version__
from ruledsl.agents import AgentSpecError, make_agent, parse_spec
from ruledsl.errors import Diagnostic, OptionError, RuleDslError, RuleRuntimeError, SourceError
from ruledsl.game import Game, check_file, load_game, options_of, players_range
from ruledsl.interpreter import GameState
from ruledsl.render import render, summary
from ruledsl.resources import bundled_games
from ruledsl.simulate import agent_seed, run_games, summarize

EXIT_OK = 0
EXIT_INTERNAL = 1
EXIT_USAGE = 2
EXIT_INVALID = 65
EXIT_RUNTIME = 70

# Typing ♠♥♦♣ at a prompt is hard; these letters stand for them.
_SUIT_LETTERS = str.maketrans({"♠": "s", "♥": "h", "♦": "d", "♣": "c"})


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
    status = EXIT_OK
    all_diagnostics: list[Diagnostic] = []
    for name in args.files:
        try:
            checked = check_file(name)
            diagnostics: Sequence[Diagnostic] = checked.warnings
            ok = True
        except RuleDslError as exc:
            diagnostics = exc.diagnostics
            ok = False
            status = max(status, EXIT_INVALID if not isinstance(exc, OptionError) else EXIT_USAGE)
        all_diagnostics.extend(diagnostics)
        if args.format == "text":
            _print_diagnostics(diagnostics, sys.stderr if not ok else sys.stdout)
            path = diagnostics[0].path if diagnostics else name
            if ok:
                print(f"{checked.source.path}: ok" + (f" ({summary(diagnostics)})" if diagnostics else ""))
            else:
                print(f"{path}: {summary(diagnostics)}", file=sys.stderr)
    if args.format == "json":
        print(json.dumps([d.to_json() for d in all_diagnostics], ensure_ascii=False, indent=2))
    return status


# ============================================================================ play


def _parse_options(pairs: Sequence[str]) -> dict[str, str]:
    options: dict[str, str] = {}
    for pair in pairs:
        name, eq, value = pair.partition("=")
        if not eq or not name:
            raise _Usage(f"--option takes NAME=VALUE, not '{pair}'")
        options[name.strip()] = value.strip()
    return options


class _Usage(Exception):
    """A command-line mistake: printed as 'ruledsl: error: ...', exit 2."""


def _load(args: argparse.Namespace) -> Game:
    return load_game(args.game, players=args.players, options=_parse_options(args.option or []))


def _seats(args: argparse.Namespace, players: int, default: str) -> list[str]:
    if args.seats:
        seats = [s.strip() for s in args.seats.split(",")]
    else:
        seats = [default] + ["random"] * (players - 1)
    if len(seats) != players:
        raise _Usage(f"--seats names {len(seats)} seat{'s' if len(seats) != 1 else ''}, but the game has {players} players")
    for spec in seats:
        if parse_spec(spec)[0] != "human":
            make_agent(spec, 0)  # fail early on unknown agents
    return seats


def _describe_view(state: GameState, seat: int) -> list[str]:
    """Render what ``seat`` sees, from its observation alone."""
    obs = state.observation(seat)
    lines = [f"--- round {obs['round']}, phase {obs['phase']}, {obs['direction']}"]
    for name, zone in obs["zones"].items():
        if isinstance(zone, list):
            parts = []
            for q, z in enumerate(zone):
                who = "you" if q == seat else f"P{q}"
                if "cards" in z and q == seat:
                    continue
                if "cards" in z:
                    parts.append(f"{who}: {_cards(z)}")
                else:
                    parts.append(f"{who} {z['size']}")
            own = zone[seat]
            if "cards" in own:
                lines.append(f"your {name}: {_cards(own) or '(empty)'}")
            if parts:
                lines.append(f"{name}: " + ", ".join(parts))
        elif "cards" in zone:
            lines.append(f"{name}: {_cards(zone) or '(empty)'}" + (" (top last)" if zone["size"] > 1 else ""))
        else:
            lines.append(f"{name}: {zone['size']} card{'s' if zone['size'] != 1 else ''}")
    shown_vars = {k: v for k, v in obs["variables"].items() if v not in (None, [], False)}
    if shown_vars:
        lines.append("  " + ", ".join(f"{k} {_value(v)}" for k, v in shown_vars.items()))
    for name, values in obs["player_variables"].items():
        lines.append(f"  {name}: " + ", ".join(f"{'you' if q == seat else f'P{q}'} {_value(v)}" for q, v in enumerate(values) if v is not None))
    if obs["auction"]:
        a = obs["auction"]
        passed = [f"P{q}" for q, x in enumerate(a["passed"]) if x]
        standing = f"{a['standing']} by P{a['bidder']}" if a["standing"] else "no bid yet"
        lines.append(f"  auction: {standing}" + (f"; passed: {', '.join(passed)}" if passed else ""))
    if obs["finished"]:
        lines.append("  out: " + ", ".join(f"P{q}" for q in obs["finished"]))
    return lines


def _cards(zone: dict[str, Any]) -> str:
    return ", ".join(c if c is not None else "?" for c in zone.get("cards", []))


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, list):
        return ", ".join(str(x) for x in v) or "none"
    return "none" if v is None else str(v)


def _result_lines(state: GameState) -> list[str]:
    ret = state.returns()
    if state.truncated:
        return [f"Result: stopped after {len(state.hist)} actions without an end; counted as a draw"]
    best = max(ret)
    if min(ret) == best:
        return ["Result: a draw"]
    winners = [q for q, r in enumerate(ret) if r == best]
    lines = []
    if len(winners) == 1:
        lines.append(f"Result: P{winners[0]} wins")
    else:
        lines.append("Result: " + ", ".join(f"P{q}" for q in winners) + " share the win")
    if state.prog.ranking != "none" and len(set(ret)) > 2:
        order = state.ranking()
        lines.append("Ranking: " + "; ".join(", ".join(f"P{q}" for q in group) for group in order))
    lines.append("Returns: " + ", ".join(f"P{q} {r:+g}" for q, r in enumerate(ret)))
    return lines


def _choose_human(state: GameState, seat: int, out: TextIO, inp: TextIO) -> Any:
    """Show the human seat its view and legal actions; read a choice until one is valid."""
    for line in _describe_view(state, seat):
        print(line, file=out)
    legal = state.legal_actions()
    width = len(str(len(legal)))
    for i, a in enumerate(legal, 1):
        print(f"  {i:>{width}}) {a}", file=out)
    while True:
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
            print("Type the number of an action, or its text (♠♥♦♣ may be typed s h d c); 'v' shows your view again; 'q' quits.", file=out)
            continue
        if text.lower() in ("v", "view"):
            for view_line in _describe_view(state, seat):
                print(view_line, file=out)
            for i, a in enumerate(legal, 1):
                print(f"  {i:>{width}}) {a}", file=out)
            continue
        if text.isdigit():
            i = int(text)
            if 1 <= i <= len(legal):
                return legal[i - 1]
            print(f"There is no action {i}: choose from 1 to {len(legal)}.", file=out)
            continue
        wanted = _normal(text)
        matches = [a for a in legal if _normal(str(a)) == wanted]
        if not matches:
            matches = [a for a in legal if _normal(str(a)).startswith(wanted)]
        if len(matches) == 1:
            return matches[0]
        if len(matches) > 1:
            print(f"'{text}' could be: " + "; ".join(str(a) for a in matches[:6]) + ". Type more of it, or its number.", file=out)
        else:
            print(f"'{text}' is not one of your actions now. Type a number from 1 to {len(legal)}, or 'help'.", file=out)


def _normal(text: str) -> str:
    return " ".join(text.lower().translate(_SUIT_LETTERS).replace(",", " ").replace("(", " ").replace(")", " ").split())


def cmd_play(args: argparse.Namespace) -> int:
    game = _load(args)
    interactive = sys.stdin.isatty()
    seats = _seats(args, game.players, "human" if interactive else "random")
    humans = [q for q, spec in enumerate(seats) if parse_spec(spec)[0] == "human"]
    agents = {q: make_agent(spec, agent_seed(args.seed, q)) for q, spec in enumerate(seats) if q not in humans}
    out = sys.stdout
    viewer = humans[0] if len(humans) == 1 else None
    state = game.new_initial_state(seed=args.seed, log=True)
    label = ", ".join(f"P{q} {spec}" for q, spec in enumerate(seats))
    options = ", ".join(f"{k}={_value(v)}" for k, v in sorted(game.options.items()))
    print(f"{game.name}: {game.players} players ({label}), seed {args.seed}" + (f"; options: {options}" if options else ""), file=out)
    for line in state.take_log():
        print(f"  {line}", file=out)
    try:
        while not state.is_terminal():
            seat = state.current_player()
            if seat in humans:
                if len(humans) > 1:
                    print(f"=== P{seat}, your turn (pass the keyboard)", file=out)
                action = _choose_human(state, seat, out, sys.stdin)
            else:
                action = agents[seat].choose(state, seat)
            state.apply_action(action)
            print(f"P{seat}: {state.describe_last(viewer if seat != viewer else seat)}", file=out)
            for line in state.take_log():
                print(f"  {line}", file=out)
    except EOFError:
        print("\nGame left unfinished.", file=out)
        return EXIT_OK
    for line in _result_lines(state):
        print(line, file=out)
    if args.log:
        _append_record(args.log, game, args.seed, seats, state)
    return EXIT_OK


def _append_record(path: str, game: Game, seed: int, seats: Sequence[str], state: GameState) -> None:
    import hashlib

    record = {
        "game": game.name,
        "file": game.path,
        "rules_sha256": hashlib.sha256(game.source.text.encode("utf-8")).hexdigest(),
        "players": game.players,
        "options": game.options,
        "seed": seed,
        "seats": list(seats),
        "actions": [str(a) for a in state.hist],
        "returns": state.returns(),
    }
    with open(path, "a", encoding="utf-8") as f:
        f.write(json.dumps(record, ensure_ascii=False) + "\n")


# ============================================================================ simulate


def cmd_simulate(args: argparse.Namespace) -> int:
    game = _load(args)
    seats = _seats(args, game.players, "random")
    if any(parse_spec(s)[0] == "human" for s in seats):
        raise _Usage("simulate plays bots only; 'human' cannot take a seat")
    if args.n < 1:
        raise _Usage("-n must be at least 1")
    seeds = list(range(args.seed, args.seed + args.n))
    started = time.perf_counter()
    progress, close = _progress(args.n, not args.json and sys.stderr.isatty())
    try:
        records = run_games(game, seeds, seats, jobs=max(1, args.jobs), progress=progress)
    finally:
        close()
    elapsed = time.perf_counter() - started
    stats = summarize(records, game.players, seats)
    stats["game"] = game.name
    stats["options"] = game.options
    stats["seed"] = args.seed
    stats["seconds"] = round(elapsed, 3)
    if args.json:
        print(json.dumps(stats, ensure_ascii=False, indent=2))
        return EXIT_OK
    print(f"{game.name}: {stats['games']} games, {game.players} players, seeds {args.seed}..{args.seed + args.n - 1}")
    print(f"{'seat':<6}{'agent':<14}{'wins':>7}{'win rate':>10}{'mean return':>13}")
    for s in stats["seats"]:
        print(f"P{s['seat']:<5}{s['agent']:<14}{s['wins']:>7}{s['win_rate']:>10.3f}{s['mean_return']:>13.3f}")
    L = stats["length"]
    print(f"draws {stats['draws']}, shared wins {stats['shared_wins']}, stopped without an end {stats['truncated']}")
    print(f"game length (actions): mean {L['mean']:.1f}, sd {L['stdev']:.1f}, median {L['median']:g}, min {L['min']}, max {L['max']}")
    print(f"time {elapsed:.2f} s ({stats['games'] / elapsed:.0f} games/s)" if elapsed > 0 else "")
    return EXIT_OK


def _progress(total: int, enabled: bool) -> tuple[Any, Any]:
    if not enabled:
        return None, lambda: None
    done = [0]
    last = [0.0]

    def update(k: int) -> None:
        done[0] += k
        now = time.perf_counter()
        if now - last[0] > 0.1 or done[0] == total:
            last[0] = now
            width = 30
            filled = int(width * done[0] / total)
            sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done[0]}/{total} games")
            sys.stderr.flush()

    def close() -> None:
        sys.stderr.write("\r" + " " * 60 + "\r")
        sys.stderr.flush()

    return update, close


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
                kind = "true/false"
            elif o.kind == "number":
                kind = f"{o.low} to {o.high}" if o.low is not None else "a number"
            elif o.kind == "choice":
                kind = " | ".join(o.choices)
            else:
                kind = "text"
            print(f"  {o.name} = {_value(o.default)}  ({kind})")
            if o.doc:
                print(f"      {o.doc}")
    phases = ", ".join(checked.symbols.phases)
    print(f"phases: {phases}")
    print(f"zones: {', '.join(checked.symbols.zones)}")
    return EXIT_OK


def cmd_list(args: argparse.Namespace) -> int:
    for name, path in bundled_games().items():
        try:
            checked = check_file(str(path))
            low, high = players_range(checked)
            print(f"{name:<22} {checked.file.name} ({low}-{high} players)")
        except RuleDslError:
            print(f"{name:<22} (does not check: run 'ruledsl check {name}')")
    return EXIT_OK


# ============================================================================ main


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="ruledsl",
        description="Write card games as rule files; check, play and simulate them.",
        epilog="GAME is a path to a .game file or the name of a bundled game (see 'ruledsl list').",
    )
    parser.add_argument("--version", action="version", version=f"ruledsl {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    p = sub.add_parser("check", help="validate rule files", description="Check rule files and print every problem found.")
    p.add_argument("files", nargs="+", metavar="FILE", help="rule files (or bundled game names)")
    p.add_argument("--format", choices=("text", "json"), default="text", help="output for people (text) or tools (json)")
    p.set_defaults(func=cmd_check)

    def game_args(p: argparse.ArgumentParser) -> None:
        p.add_argument("game", metavar="GAME", help="a .game file or a bundled game's name")
        p.add_argument("--players", type=int, default=None, help="number of players (default: the least the game allows)")
        p.add_argument("--option", action="append", metavar="NAME=VALUE", help="set a game option (repeatable); see 'ruledsl info GAME'")
        p.add_argument("--seed", type=int, default=0, help="seed of all randomness (default 0)")
        p.add_argument("--seats", metavar="AGENT,...", help="one agent per seat: human, random, first, ... (agent options as ismcts:iterations=500)")

    p = sub.add_parser("play", help="play a game in the terminal", description="Play a game at the terminal against bots, or watch bots play.")
    game_args(p)
    p.add_argument("--log", metavar="FILE.jsonl", help="append a record of the game to this file")
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("simulate", help="play many games with bots", description="Play N seeded games with bots and report win rates and game lengths.")
    game_args(p)
    p.add_argument("-n", type=int, default=100, help="number of games (default 100)")
    p.add_argument("--jobs", type=int, default=1, help="processes to use (default 1)")
    p.add_argument("--json", action="store_true", help="print the statistics as JSON")
    p.set_defaults(func=cmd_simulate)

    p = sub.add_parser("info", help="show a game's players and options", description="Show a game's player counts, options and parts.")
    p.add_argument("game", metavar="GAME")
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
    except (_Usage, AgentSpecError) as exc:
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
