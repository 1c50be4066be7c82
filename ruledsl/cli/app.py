"""The command line's driver: build the parser from the commands, run the one named, and end as it ended."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from ruledsl import __version__
from ruledsl.cli import bench, catalog, check, compare, fmt, info, lsp, play, replay, serve, simulate, sweep
from ruledsl.cli.command import CommandParser
from ruledsl.cli.exits import EXIT_INTERNAL, EXIT_OK, EXIT_UNFINISHED, EXIT_USAGE, Usage, exit_code, print_diagnostics

#: The commands, in the order 'ruledsl --help' lists them.
COMMANDS = (
    check.COMMAND,
    fmt.COMMAND,
    play.COMMAND,
    simulate.COMMAND,
    compare.COMMAND,
    sweep.COMMAND,
    replay.COMMAND,
    serve.COMMAND,
    bench.COMMAND,
    info.COMMAND,
    catalog.COMMAND,
    lsp.COMMAND,
)


def build_parser() -> argparse.ArgumentParser:
    """Build the parser of the whole command line, each command's parser from its own module."""
    parser = argparse.ArgumentParser(
        prog="ruledsl",
        description="Write card games as rule files; check, format, play, simulate and measure them.",
        epilog="GAME is a path to a .game file or the name of a bundled game (see 'ruledsl list').",
    )
    parser.add_argument("--version", action="version", version=f"ruledsl {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=CommandParser)
    for command in COMMANDS:
        command.add_to(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line (``argv``, else the process's arguments); return the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "run", None):
        parser.print_help()
        return EXIT_USAGE
    try:
        return int(args.run(args))
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    except Exception as exc:
        return _failed(exc, parser)


def _failed(exc: Exception, parser: argparse.ArgumentParser) -> int:
    """End a command that raised ``exc``: a rule error, a usage mistake, a closed pipe, or a fault of ruledsl."""
    # Imported only now: a command that succeeds needs none of these, and the records' module loads the compiler.
    import traceback

    from ruledsl.agents import AgentSpecError, ProcessAgentError
    from ruledsl.text.errors import RuleDslError
    from ruledsl.text.render import one_line
    from ruledsl.tools.executors import ClusterError
    from ruledsl.tools.records import RecordError

    if isinstance(exc, RuleDslError):
        print_diagnostics(exc.diagnostics, sys.stderr)
        return exit_code(exc)
    if isinstance(exc, Usage | AgentSpecError | RecordError | ClusterError):
        # A record's texts (labels, the file it names) may hold line breaks: the message stays one line.
        parser.exit(EXIT_USAGE, f"ruledsl: error: {one_line(str(exc))}\n")
    if isinstance(exc, ProcessAgentError):  # a bot out of process broke the protocol: the games stop
        print(f"ruledsl: error: {one_line(str(exc))}", file=sys.stderr)
        return EXIT_UNFINISHED
    if isinstance(exc, BrokenPipeError):
        return EXIT_OK
    # A fault of ruledsl itself: say so, with the traceback to report.
    print("ruledsl: internal error (please report it, with this traceback):", file=sys.stderr)
    traceback.print_exc()
    return EXIT_INTERNAL
