"""The lsp command: run the language server over stdio, for editors (the ``lsp`` extra)."""

from __future__ import annotations

import argparse

from ruledsl.cli.command import Command
from ruledsl.cli.exits import EXIT_OK, Usage

_EXTRA = {"pygls", "lsprotocol", "cattrs"}


def add_arguments(p: argparse.ArgumentParser) -> None:
    """Declare how long typing must pause before a document is checked again."""
    p.add_argument(
        "--debounce",
        type=int,
        default=100,
        metavar="MS",
        help="milliseconds the text must stay unchanged before it is checked again (default: 100)",
    )


def run(args: argparse.Namespace) -> int:
    """Serve the Language Server Protocol on stdin and stdout until the editor says exit."""
    if args.debounce < 0:
        raise Usage("--debounce must be 0 or more milliseconds")
    try:
        from ruledsl.lsp.server import serve
    except ModuleNotFoundError as exc:
        if (exc.name or "").split(".")[0] not in _EXTRA:
            raise
        raise Usage(f"the language server needs '{exc.name}': pip install 'ruledsl[lsp]'") from None
    serve(args.debounce / 1000)
    return EXIT_OK


COMMAND = Command(
    "lsp",
    help="run the language server (for editors) on stdin and stdout",
    description="Serve the Language Server Protocol over stdio: diagnostics as you type, hover, completion, "
    "go to definition, references, rename, formatting and quick fixes for .game files. See docs/editors.md.",
    add_arguments=add_arguments,
    run=run,
)
