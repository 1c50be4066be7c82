"""How a command ends: its exit code, and the errors it prints on the way out."""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TYPE_CHECKING, TextIO

if TYPE_CHECKING:
    from ruledsl.text.errors import Diagnostic, RuleDslError

EXIT_OK = 0
EXIT_INTERNAL = 1
EXIT_REFORMAT = 1  # fmt --check or --diff: a file would be reformatted
EXIT_USAGE = 2
EXIT_UNFINISHED = 3  # play: the player left before the end (q, end of input)
EXIT_INVALID = 65
EXIT_RUNTIME = 70


class Usage(Exception):
    """A command-line mistake: printed as 'ruledsl: error: ...', exit 2."""


def _colour(stream: TextIO) -> bool:
    return stream.isatty() and "NO_COLOR" not in os.environ


def print_diagnostics(diagnostics: Sequence[Diagnostic], stream: TextIO) -> None:
    """Print each diagnostic as the style guide shows it, in colour only on a terminal without NO_COLOR."""
    from ruledsl.text.render import render

    colour = _colour(stream)
    for d in diagnostics:
        print(render(d, colour), file=stream)
        print(file=stream)


def exit_code(exc: RuleDslError) -> int:
    """The exit code of a rule error: 70 for a rule that failed in play, 2 for a bad option, else 65."""
    from ruledsl.text.errors import OptionError, RuleRuntimeError

    if isinstance(exc, RuleRuntimeError):
        return EXIT_RUNTIME
    if isinstance(exc, OptionError):
        return EXIT_USAGE
    return EXIT_INVALID
