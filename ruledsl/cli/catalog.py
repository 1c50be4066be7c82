"""The list command: the bundled games and the examples, each with its player counts."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from ruledsl.cli.command import Command
from ruledsl.cli.exits import EXIT_OK

if TYPE_CHECKING:
    from pathlib import Path


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The list command takes no argument."""


def run(args: argparse.Namespace) -> int:
    """Print the bundled games, then the examples, with their player counts."""
    from ruledsl.resources import bundled_games, example_games

    _list_games(bundled_games())
    print("\nexamples, classic games written to learn from (games/examples; played by name too):")
    _list_games(example_games())
    return EXIT_OK


def _list_games(games: dict[str, Path]) -> None:
    from ruledsl.loading import check_file, players_range
    from ruledsl.text.errors import RuleDslError
    from ruledsl.text.render import counted

    for name, path in games.items():
        try:
            checked = check_file(str(path))
            low, high = players_range(checked)
            count = f"{low}" if low == high else f"{low}-{high}"
            print(f"{name:<22} {checked.file.name} ({counted(count, 'player')})")
        except RuleDslError:
            print(f"{name:<22} (does not check: run 'ruledsl check {name}')")


COMMAND = Command(
    "list",
    help="list the bundled games",
    description="List the games that ship with ruledsl.",
    add_arguments=add_arguments,
    run=run,
)
