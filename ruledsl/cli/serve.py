"""The serve command: a card table in the browser, for friends on a network and bots in the empty seats."""

from __future__ import annotations

import argparse
import socket
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from ruledsl.cli.arguments import add_load_arguments, add_max_actions_argument, check_max_actions, load_from
from ruledsl.cli.command import Command
from ruledsl.cli.exits import EXIT_OK, Usage
from ruledsl.cli.seats import agents_help, seats_of
from ruledsl.serve.limits import ServeLimits

if TYPE_CHECKING:
    from ruledsl.engine.game import Game
    from ruledsl.serve.journal import Journal
    from ruledsl.serve.tables import Table

#: The most tables --tables opens at the start (more are opened from the lobby, up to the server's bound).
MAX_TABLES = 100

#: The options of ``ServeLimits``' bounds: (flag, type, what it bounds); each defaults to ``ServeLimits``'.
LIMIT_OPTIONS = [
    ("--max-tables", int, "the most tables open at once"),
    ("--max-spectators", int, "the most spectators' connections per table (seats have room of their own)"),
    ("--max-per-seat", int, "the most connections per seat (its player's tabs)"),
    ("--max-per-address", int, "the most connections open from one address"),
    ("--max-connections", int, "the most connections open in all"),
    ("--new-per-minute", int, "the tables one address may open per minute (the lobby)"),
    ("--header-timeout", float, "seconds a client has to send a request's headers"),
    ("--keep-alive", int, "seconds an idle HTTP connection is kept open"),
    ("--send-timeout", float, "seconds a page may read nothing before its connection is dropped"),
    ("--close-after", float, "seconds a finished table stays open with no one connected"),
    ("--abandon-after", float, "seconds an unfinished table stays open with no one connected"),
]


def add_arguments(p: argparse.ArgumentParser) -> None:
    """Declare the game, its seats, where to listen, how many tables, and the folder of records."""
    add_load_arguments(p, "number of players (default: as many as --seats names, else the least the game allows)")
    p.add_argument(
        "--seats",
        metavar="AGENT,...",
        help="one agent per seat, 'human' for a person with a link (default: human, then greedy)",
    )
    p.add_argument(
        "--host",
        default="127.0.0.1",
        help="address to listen on (default 127.0.0.1: this machine only; 0.0.0.0 lets the network in)",
    )
    p.add_argument("--port", type=int, default=8000, help="port to listen on (default 8000)")
    p.add_argument("--tables", type=int, default=1, help=f"tables open at the start (default 1, at most {MAX_TABLES})")
    p.add_argument("--log", metavar="DIR", help="write each game played, once over, as a record in DIR (see replay)")
    p.add_argument(
        "--data",
        metavar="DIR",
        help="keep every table (rules, options, seats, secret links, seed, each move) in a SQLite file in DIR, "
        "so that a server restarted with the same --data comes back with every game where it was "
        "(each under its own options and seats; new tables under the flags)",
    )
    add_max_actions_argument(p)
    limits = p.add_argument_group("limits (a server others reach: see docs/serve.md and docs/security.md)")
    limits.add_argument(
        "--allow-host",
        metavar="NAME",
        action="append",
        default=[],
        help="a name this server is reached by (its Host header), besides the address it listens on "
        "(repeatable; needed behind a reverse proxy or for a DNS name: others are refused)",
    )
    for flag, kind, what in LIMIT_OPTIONS:
        default = getattr(ServeLimits, _field(flag))
        limits.add_argument(flag, type=kind, default=default, metavar="N", help=f"{what} (default {default})")


def _field(flag: str) -> str:
    """The ``ServeLimits`` field (and the argparse destination) of a limit's flag."""
    return flag[2:].replace("-", "_")


def run(args: argparse.Namespace) -> int:
    """Open the tables, print their links, and serve until Ctrl-C."""
    try:
        import uvicorn

        from ruledsl.serve.app import create_app
        from ruledsl.serve.limits import HostRule
        from ruledsl.serve.transport import uvicorn_config
    except ImportError as exc:
        raise Usage(f"serve needs the serve extra ({exc.name} is missing): pip install 'ruledsl[serve]'") from None
    from ruledsl.agents import parse_spec
    from ruledsl.text.render import one_line

    check_max_actions(args)
    bounds = {_field(flag): getattr(args, _field(flag)) for flag, _, _ in LIMIT_OPTIONS}
    for flag, _, _ in LIMIT_OPTIONS:
        if not 0 < bounds[_field(flag)] <= 1e9:
            raise Usage(f"{flag} takes a number above 0, not {bounds[_field(flag)]}")
    if not 1 <= args.tables <= MAX_TABLES:
        raise Usage(f"--tables takes 1 to {MAX_TABLES} tables, not {args.tables}")
    if not 0 < args.port < 65536:
        raise Usage(f"--port takes a port from 1 to 65535, not {args.port}")
    game, journal = _game_and_store(args)
    seats = seats_of(args, game.players, "human", "greedy")
    if not any(parse_spec(s)[0] == "human" for s in seats):
        raise Usage("--seats names no 'human': a table in the browser needs a player")
    if any(parse_spec(s)[0] == "process" for s in seats):
        raise Usage("serve seats no process agent (yet): play them with play, simulate or compare")
    if args.log:
        folder = Path(args.log)
        if folder.exists() and not folder.is_dir():
            raise Usage(f"--log {args.log}: not a folder")
        folder.mkdir(parents=True, exist_ok=True)
    listening = _listen(args.host, args.port)  # before the links are printed: a port in use is a clear error
    limits = ServeLimits(hosts=HostRule.serving(args.host, args.allow_host), **bounds)
    app = create_app(game, seats, args.tables, args.log, limits=limits, journal=journal)
    host = f"[{args.host}]" if ":" in args.host else args.host
    base = f"http://{host}:{args.port}"
    print(one_line(f"{game.name}: {', '.join(f'P{q} {s}' for q, s in enumerate(seats))}"))
    for table in app.state.server.tables.values():
        print(f"table {table.id}{_dealt_under(table, game, seats)}:")
        for who, url in table.links(base):
            print(f"  {who}: {url}")
    print(f"lobby (opens more tables): {base}/   Ctrl-C stops the server.", flush=True)
    config = uvicorn_config(app, host=args.host, port=args.port)
    try:
        uvicorn.Server(config).run(sockets=[listening])
    except KeyboardInterrupt:
        pass  # uvicorn closes the connections on Ctrl-C, then raises it again: the server has stopped as asked
    print("server stopped", file=sys.stderr)
    return EXIT_OK


def _game_and_store(args: argparse.Namespace) -> tuple[Game, Journal | None]:
    """The game the arguments name, and the store of --data if given (StoreError, E005, if it cannot be opened and
    written). A rule file gone (moved, deleted) whose rules the store keeps, its tables played with them, is served
    from the text kept, and said so; one the store never read is the error it was, with a hint naming those it did."""
    from ruledsl.serve.journal import FILE, Journal
    from ruledsl.text.errors import Diagnostic, SourceError
    from ruledsl.text.render import clip, one_line

    try:
        game = load_from(args)
    except SourceError as exc:
        if not args.data or exc.diagnostics[0].code != "E001" or _exists(args.game) or not _exists(args.data, FILE):
            raise  # (a store not made yet is not made for a mistyped path)
        journal = Journal(args.data)
        text = journal.rules_read_from(_absolute(args.game))
        if text is None:
            known = journal.files()
            if not known:
                raise
            first = exc.diagnostics[0]
            kept = ", ".join(f"'{clip(path, 200)}'" for path in known[:5]) + (", ..." if len(known) > 5 else "")
            hint = (
                f"the tables kept in '{args.data}' were played with {kept}: serve one of these "
                "(one moved or deleted since is served from the rules kept of it)"
            )
            raise SourceError([Diagnostic(first.code, first.message, None, hint, source=first.source)]) from None
        game = load_from(args, text=text)  # its hash is checked as ever: a table of other rules is not reopened
        print(
            one_line(
                f"ruledsl: warning: '{args.game}' is gone: serving the rules '{args.data}' keeps of it "
                "(put the file back to serve it as it is now)"
            ),
            file=sys.stderr,
        )
        return game, journal
    return game, Journal(args.data) if args.data else None


def _dealt_under(table: Table, game: Game, seats: list[str]) -> str:
    """How a table reopened from the store was dealt unlike the server's flags: its seats, its options, its bound on
    actions ('' if as the flags)."""
    from ruledsl.cli.arguments import options_text
    from ruledsl.text.render import one_line

    other = {k: v for k, v in table.game.options.items() if game.options.get(k) != v}
    said = [", ".join(table.seats)] if table.seats != seats else []
    said += [options_text(other)] if other else []
    said += [f"at most {table.game.max_actions:,} actions"] if table.game.max_actions != game.max_actions else []
    return one_line(f" (as it was dealt: {'; '.join(said)})") if said else ""


def _exists(*path: str) -> bool:
    """Whether the file (or folder) ``path`` names is there; False for a name the system refuses."""
    try:
        return Path(*path).exists()
    except (OSError, ValueError):
        return False


def _absolute(game: str) -> str:
    """The absolute path of a rule file, as the store keeps it ('' for a name the system refuses)."""
    try:
        return str(Path(game).resolve())
    except (OSError, ValueError):
        return ""


def _listen(host: str, port: int) -> socket.socket:
    """A socket listening on ``host``:``port``; Usage if it cannot be had (in use, no such address)."""
    try:
        family = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0][0]
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(128)  # from now on a browser may knock: it waits until the server answers
    except OSError as exc:
        raise Usage(f"cannot listen on {host} port {port}: {exc.strerror or exc}") from None
    return sock


COMMAND = Command(
    "serve",
    help="play a game in the browser, with friends on a network",
    description="Serve a card table in the browser: one private link per human seat, bots in the others.",
    add_arguments=add_arguments,
    run=run,
    epilog=lambda: agents_help(human=True),
    formatter_class=argparse.RawDescriptionHelpFormatter,
)
