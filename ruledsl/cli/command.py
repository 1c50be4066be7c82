"""What a subcommand is: its name and help, the arguments it declares, and the function that runs it."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import Any


class CommandParser(argparse.ArgumentParser):
    """An argument parser whose epilog may be written when its help is shown, not when it is built.

    Building every command's parser is what any run does; an epilog such as the agents of
    --seats needs imports that only that command's help should pay for.
    """

    def __init__(self, *args: Any, epilog_from: Callable[[], str] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.epilog_from = epilog_from

    def format_help(self) -> str:
        if self.epilog_from is not None:
            self.epilog, self.epilog_from = self.epilog_from(), None
        return super().format_help()


class Command:
    """One subcommand of ``ruledsl``: its help, ``add_arguments(parser)``, and ``run(args)``, which returns
    the exit code.

    A command module imports what its run needs inside ``run``, so that building the
    parser (and ``--help``) loads no parser, checker or compiler.
    """

    __slots__ = ("add_arguments", "description", "epilog", "formatter_class", "help", "name", "run")

    def __init__(
        self,
        name: str,
        help: str,
        description: str,
        add_arguments: Callable[[argparse.ArgumentParser], None],
        run: Callable[[argparse.Namespace], int],
        epilog: Callable[[], str] | None = None,
        formatter_class: type[argparse.HelpFormatter] = argparse.HelpFormatter,
    ) -> None:
        self.name = name
        self.help = help
        self.description = description
        self.add_arguments = add_arguments
        self.run = run
        self.epilog = epilog
        self.formatter_class = formatter_class

    def add_to(self, commands: Any) -> None:
        """Add this command's parser to ``commands``, the subparsers of the ``ruledsl`` parser."""
        parser = commands.add_parser(
            self.name,
            help=self.help,
            description=self.description,
            epilog_from=self.epilog,
            formatter_class=self.formatter_class,
        )
        self.add_arguments(parser)
        parser.set_defaults(run=self.run)
