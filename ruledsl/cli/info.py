"""The info command: a game's player counts, its options with their defaults, its phases and zones."""

from __future__ import annotations

import argparse

from ruledsl.cli.command import Command
from ruledsl.cli.exits import EXIT_OK


def add_arguments(p: argparse.ArgumentParser) -> None:
    """Declare the game, and a player count for the option defaults."""
    p.add_argument("game", metavar="GAME", help="a .game file or a bundled game's name")
    p.add_argument("--players", type=int, default=None, help="show option defaults for this many players")


def run(args: argparse.Namespace) -> int:
    """Print the game's player counts, options, phases and zones."""
    from ruledsl.loading import check_file, options_of, players_range
    from ruledsl.text.render import from_to, one_line, show_value

    checked = check_file(args.game)
    low, high = players_range(checked)
    print(one_line(f"{checked.file.name} ({checked.source.path})"))
    print(f"players: {from_to(low, high)}")
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
            print(one_line(f"  {o.name} = {show_value(o.default)}  ({kind})"))
            if o.doc:
                print(f"      {one_line(o.doc)}")
    if checked.payoff is not None:
        from ruledsl.format.unparse import unparse

        print(one_line(f"returns: each player's payoff, {unparse(checked.payoff.value)} (not places)"))
    phases = ", ".join(checked.symbols.phases)
    print(f"phases: {phases}")
    print(f"zones: {', '.join(checked.symbols.zones)}")
    return EXIT_OK


COMMAND = Command(
    "info",
    help="show a game's players and options",
    description="Show a game's player counts, options and parts.",
    add_arguments=add_arguments,
    run=run,
)
