"""The seats at the command line: the agents --seats names, their checks, and their help."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from ruledsl.cli.exits import Usage

CHEAT_NOTE = "note: 'cheat' sees every card, the deck's order included: a ceiling to measure against, not a player"


def check_specs(seats: str) -> None:
    """Raise AgentSpecError for an unknown agent or a bad option in --seats."""
    from ruledsl.agents import make_agent, parse_spec, split_seats

    for spec in split_seats(seats):
        if parse_spec(spec.strip())[0] != "human":
            make_agent(spec.strip(), 0)


def seats_of(args: argparse.Namespace, players: int, first: str, others: str = "random") -> list[str]:
    """The agents of ``--seats``; without it, ``first`` in seat 0 and ``others`` elsewhere."""
    from ruledsl.agents import canonical_spec, split_seats
    from ruledsl.text.render import counted

    if args.seats:
        seats = [canonical_spec(s) for s in split_seats(args.seats)]
    else:
        seats = [first] + [others] * (players - 1)
    if len(seats) != players:
        raise Usage(f"--seats names {counted(len(seats), 'seat')}, but the game has {counted(players, 'player')}")
    return seats  # load_from has checked every agent named


def bot_seats(args: argparse.Namespace, players: int) -> list[str]:
    """The agents of a batch of bot games (random for all without --seats); no human among them."""
    from ruledsl.agents import parse_spec

    seats = seats_of(args, players, "random")
    if any(parse_spec(s)[0] == "human" for s in seats):
        raise Usage(f"{args.command} plays bots only; 'human' cannot take a seat")
    return seats


def seatings(seats: Sequence[str], rotate: bool) -> list[list[str]]:
    """Every seating a batch of bot games uses: the one given, or with --rotate each rotation of it."""
    from ruledsl.tools.simulate import seats_for

    return [seats_for(i, seats, rotate) for i in range(len(seats) if rotate else 1)]


def agents_help(human: bool) -> str:
    """The agents --seats takes and their options with defaults, from the agents themselves."""
    # Imported when help is shown, not when the parser is built: 'ruledsl --help' needs no agent.
    from ruledsl.agents import AGENTS

    lines = ["agents for --seats (options after colons, as ismcts:iterations=500:c=0.5):"]
    if human:
        lines.append("  human     you, at the keyboard")
    shown: dict[int, str] = {}
    for name, factory in AGENTS.items():
        if name == "process":
            continue  # its entry reads otherwise: below
        doc = (factory.__doc__ or "").strip().splitlines()[0].rstrip(".")
        lines.append(f"  {name:<9} {doc[0].lower() + doc[1:]}")
        if id(factory.OPTIONS) in shown:
            lines.append(f"    the options of {shown[id(factory.OPTIONS)]}")
            continue
        shown[id(factory.OPTIONS)] = name
        for key, option in factory.OPTIONS.items():
            default = f"{option.default:g}" if option.kind is float else str(option.default)
            lines.append(f"    {key + '=' + default:<18} {option.doc}")
    lines.append("  process:COMMAND  a program of your own in another process, sent its seat's view alone")
    lines.append("    as JSON lines (process:my_agent.py, process:timeout=5:./bot --fast; no shell runs it)")
    timeout = AGENTS["process"].OPTIONS["timeout"]
    lines.append(f"    {'timeout=' + format(timeout.default, 'g'):<18} {timeout.doc}")
    lines.append("see docs/agents.md for what each does and how strong it is")
    return "\n".join(lines)
