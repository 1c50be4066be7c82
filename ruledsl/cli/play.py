"""The play command: a game at the terminal, humans against bots, or bots watched."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING, Any

from ruledsl.cli.arguments import (
    add_game_arguments,
    add_max_actions_argument,
    check_max_actions,
    load_from,
    options_text,
)
from ruledsl.cli.command import Command
from ruledsl.cli.exits import EXIT_OK, EXIT_RUNTIME, EXIT_UNFINISHED, print_diagnostics
from ruledsl.cli.outputs import open_log, warn_another_run, write_log
from ruledsl.cli.progress import Progress
from ruledsl.cli.seats import CHEAT_NOTE, agents_help, seats_of
from ruledsl.engine.limits import DEFAULT_MAX_ACTIONS

if TYPE_CHECKING:
    from ruledsl.agents import Agent
    from ruledsl.engine.game import Game
    from ruledsl.engine.state import GameState
    from ruledsl.text.errors import RuleRuntimeError


def add_arguments(p: argparse.ArgumentParser) -> None:
    """Declare the game, its seats and seed, the game log, and --confirm-forced."""
    add_game_arguments(
        p,
        "seed of all randomness: the deal and the bots (default: a new one each game, of 64 bits, printed "
        "first when bots play alone, else when the game is over)",
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
    add_max_actions_argument(p)


def run(args: argparse.Namespace) -> int:
    """Seat the players, draw a seed if none is given, and play the game; return the exit code."""
    from ruledsl.agents import parse_spec

    check_max_actions(args)
    game = load_from(args)
    open_log(args.log)
    interactive = sys.stdin.isatty()
    # At a terminal, someone plays: a bot that looks ahead (under 0.1 s a move in the shipped
    # games) makes a game of it. Piped input is a transcript, kept as it always was.
    seats = seats_of(args, game.players, "human", "greedy") if interactive else seats_of(args, game.players, "random")
    if args.log:
        warn_another_run(args.log, [game], [seats])
    humans = [q for q, spec in enumerate(seats) if parse_spec(spec)[0] == "human"]
    # A seed drawn here is a secret: it gives away every card. A human is told it once the game
    # is over (the record keeps it); bots alone have nothing to hide, and one given was known.
    secret = args.seed is None and bool(humans)
    if args.seed is None:
        args.seed = new_seed()
    try:
        return _deal_and_play(args, game, seats, humans, secret)
    finally:
        if secret:
            print(f"Seed: {args.seed} (--seed {args.seed} deals this game again)")


def new_seed() -> int:
    """A new seed of 64 bits from the system's randomness: too many to try them all from what a seat sees."""
    import secrets

    return secrets.randbits(64)


def _viewer(humans: list[int]) -> int | None:
    """Whose eyes the table is shown through: a lone human's, else a spectator's (None)."""
    return humans[0] if len(humans) == 1 else None


def _deal_and_play(args: argparse.Namespace, game: Game, seats: list[str], humans: list[int], secret: bool) -> int:
    """Deal the game, print its header, and play it out; return the exit code."""
    from ruledsl.agents import close_agents, needs_tracking, seat_agent
    from ruledsl.text.errors import RuleRuntimeError
    from ruledsl.text.render import counted, one_line
    from ruledsl.tools.records import build_record

    agents = {q: seat_agent(spec, args.seed, q) for q, spec in enumerate(seats) if q not in humans}
    out = sys.stdout
    try:
        state = game.new_initial_state(seed=args.seed, log=True, track=needs_tracking(agents.values()))
    except RuleRuntimeError as exc:  # the setup failed: a game of no action
        return _stuck(exc, args.log, build_record(game, args.seed, seats, [], [], None, False, error=exc))
    label = ", ".join(f"P{q} {spec}" for q, spec in enumerate(seats))
    options = options_text(game.options)
    header = (
        f"{game.name}: {counted(game.players, 'player')} ({label}), "
        + ("seed shown at the end" if secret else f"seed {args.seed}")
        + (f"; options: {options}" if options else "")
        + (f"; at most {game.max_actions:,} actions" if game.max_actions != DEFAULT_MAX_ACTIONS else "")
    )
    print(one_line(header), file=out)
    if any(agent.omniscient for agent in agents.values()):
        print(CHEAT_NOTE, file=out)
    for line in state.take_log(_viewer(humans)):
        print(f"  {one_line(line)}", file=out)
    try:
        return _play_out(args, game, state, seats, humans, agents)
    finally:
        close_agents(agents.values())


def _play_out(
    args: argparse.Namespace,
    game: Game,
    state: GameState,
    seats: list[str],
    humans: list[int],
    agents: dict[int, Agent],
) -> int:
    """Play a dealt game to its end, or until the humans leave it; print what the table sees, and log it."""
    from ruledsl.agents import ProcessAgentError, decide
    from ruledsl.cli.keyboard import choose_human, hand_over, view_lines, watch_the_rest
    from ruledsl.engine.failures import stuck_error
    from ruledsl.text.errors import RuleRuntimeError
    from ruledsl.text.render import one_line
    from ruledsl.tools.records import forced_line, record_of_state, result_lines, view_due

    out = sys.stdout
    viewer = _viewer(humans)
    actors: list[int] = []
    at_keyboard: int | None = None  # with several humans, who was last shown his cards
    last_seen: int | None = None  # the round a lone human last saw his view in
    thinking = Progress()
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
                    for line in view_lines(state, seat):
                        print(line, file=out)  # view_lines escapes them
                    last_seen = state.round
            elif seat in humans:
                if len(humans) > 1 and seat != at_keyboard:
                    hand_over(seat, out, sys.stdin)
                    at_keyboard = seat
                action = choose_human(state, seat, out, sys.stdin)
                last_seen = state.round
            else:
                thinking.say(f"P{seat} ({seats[seat]}) is thinking…")
                action = decide(agents[seat], state, seat)
                thinking.close()
            state.apply_action(action)
            if action.defn.step_role in ("begin", "pick"):
                continue  # a card picked for a set: the set is played, and told, when it is done
            actors.append(seat)
            log = state.take_log(viewer)
            if skipped_from is None:
                seen = one_line(state.describe_last(viewer if seat != viewer else seat))
                if forced:
                    print(forced_line(seat, seen), file=out)
                elif seen:
                    print(f"P{seat}: {seen}", file=out)
                for line in log:
                    print(f"  {one_line(line)}", file=out)
            if humans and not asked_out and not state.is_terminal() and set(humans) <= set(state.finished):
                asked_out = True
                # A transcript (input that is no terminal) has nobody to ask: it shows the game to its end.
                if sys.stdin.isatty() and not watch_the_rest(len(humans), out, sys.stdin):
                    skipped_from = len(actors)
    except RuleRuntimeError as exc:
        thinking.close()
        return _stuck(exc, args.log, record_of_state(game, args.seed, seats, state, actors, exc))
    except (EOFError, KeyboardInterrupt, ProcessAgentError) as stop:
        thinking.close()
        if isinstance(stop, ProcessAgentError):  # a bot out of process broke the protocol: it leaves the game
            print(f"ruledsl: error: {one_line(str(stop))}", file=sys.stderr)
        n = len(actors)
        print(f"\nGame left unfinished after {n} action{'s' if n != 1 else ''}.", file=out)
        if args.log:
            write_log(args.log, [record_of_state(game, args.seed, seats, state, actors)])
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
        write_log(args.log, [record_of_state(game, args.seed, seats, state, actors)])
    return EXIT_OK


def _stuck(error: RuleRuntimeError, log: str | None, record: dict[str, Any]) -> int:
    """Report the rule error that stopped a game played, and record the game with it; return exit code 70."""
    print_diagnostics(error.diagnostics, sys.stderr)
    if log:
        write_log(log, [record])
        print(f"Its record, marked stuck, is in {log}.")
    return EXIT_RUNTIME


COMMAND = Command(
    "play",
    help="play a game in the terminal",
    description="Play a game at the terminal against bots, or watch bots play.",
    add_arguments=add_arguments,
    run=run,
    epilog=lambda: agents_help(human=True),
    formatter_class=argparse.RawDescriptionHelpFormatter,
)
