"""The web server of ``ruledsl serve``: the lobby, the table pages, and the WebSocket each page plays through.

Routes: ``/`` (the lobby: a button that opens a table), ``POST /new`` (open one; the page
lists its private links), ``/t/{table}/{token}`` (the table page of the seat whose token it
is, or of the spectators), ``/t/{table}/{token}/ws`` (that page's WebSocket) and
``/static/...``. A token is checked on every request and every message: an unknown table
answers 404, a wrong token 403.

The protocol: the server sends ``{"type": "view", ...}`` frames (``frames.view_frame``) after
every change, and ``{"type": "error", "message": ...}`` to the one connection whose message
changed nothing. A page sends ``{"type": "move", "version": V, "index": I}`` (the I-th legal
action of view V) or ``{"type": "move", "version": V, "text": "play the castle"}``,
``{"type": "rematch"}`` and ``{"type": "view"}`` (send the view again). A view's version is
its seat's own (``Table.version_of``): it moves only when what that seat is shown does.
"""

from __future__ import annotations

import asyncio
import html
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ruledsl.serve.frames import view_frame
from ruledsl.serve.tables import SPECTATOR, MoveRefused, Table

if TYPE_CHECKING:
    from ruledsl.engine.game import Game

STATIC = Path(__file__).parent / "static"
#: The longest message a page may send, in bytes: a move is a few dozen.
MAX_MESSAGE = 2048
#: The longest move a page may type.
MAX_TEXT = 200
#: The most connections one table holds at once (seats in several tabs, spectators).
MAX_CONNECTIONS = 64
#: The most tables one server holds: each is a game in memory.
DEFAULT_MAX_TABLES = 100

_HEADERS = {
    # The token is in the address: never send it on as a referrer, nor keep the page in a cache.
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "default-src 'self'; connect-src 'self'; img-src 'self' data:; frame-ancestors 'none'",
}


class BadMessage(Exception):
    """A message a page sent that is not one of the protocol's: it changes nothing."""


class Server:
    """The tables of one server, the connections to each, and a lock per table (bots think in a thread)."""

    def __init__(
        self,
        game: Game,
        seats: Sequence[str],
        log_dir: str | Path | None = None,
        max_tables: int = DEFAULT_MAX_TABLES,
    ) -> None:
        self.game = game
        self.seats = list(seats)
        self.log_dir = log_dir
        self.max_tables = max_tables
        self.tables: dict[str, Table] = {}
        self.connections: dict[str, set[Connection]] = {}
        self.locks: dict[str, asyncio.Lock] = {}

    def open_table(self) -> Table:
        """Open a new table; LookupError when the server holds as many as it may."""
        if len(self.tables) >= self.max_tables:
            raise LookupError(f"this server holds {self.max_tables} tables already")
        table = Table(self.game, self.seats, self.log_dir)
        self.tables[table.id] = table
        self.connections[table.id] = set()
        self.locks[table.id] = asyncio.Lock()
        return table

    def find(self, table_id: str, token: str) -> tuple[Table, int]:
        """The table and seat a link names; raise KeyError (no such table) or PermissionError (a wrong token)."""
        table = self.tables[table_id]
        try:
            return table, table.seat_of(token)
        except KeyError:
            raise PermissionError(table_id) from None

    async def broadcast(self, table: Table) -> None:
        """Send every connection of ``table`` its seat's view."""
        for connection in list(self.connections[table.id]):
            await connection.send(view_frame(table, connection.seat))


class Connection:
    """One page connected to a table as one seat (or a spectator)."""

    def __init__(self, socket: WebSocket, seat: int) -> None:
        self.socket = socket
        self.seat = seat

    async def send(self, frame: dict[str, Any]) -> None:
        try:
            await self.socket.send_text(json.dumps(frame, ensure_ascii=False))
        except (RuntimeError, WebSocketDisconnect, OSError):
            pass  # gone: its handler removes it


def create_app(
    game: Game,
    seats: Sequence[str],
    tables: int = 1,
    log_dir: str | Path | None = None,
    max_tables: int = DEFAULT_MAX_TABLES,
) -> Starlette:
    """Build the server's ASGI app with ``tables`` tables open; ``app.state.server`` holds them."""
    server = Server(game, seats, log_dir, max(max_tables, tables))
    for _ in range(tables):
        server.open_table()
    app = Starlette(
        routes=[
            Route("/", _lobby),
            Route("/new", _new_table, methods=["POST"]),
            Route("/t/{table}/{token}", _table_page),
            WebSocketRoute("/t/{table}/{token}/ws", _table_socket),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ]
    )
    app.state.server = server
    return app


def _page(title: str, body: str, status: int = 200) -> HTMLResponse:
    return HTMLResponse(
        "<!doctype html><html lang=en><head><meta charset=utf-8>"
        '<meta name=viewport content="width=device-width, initial-scale=1">'
        f'<title>{html.escape(title)}</title><link rel=stylesheet href="/static/table.css"></head>'
        f"<body class=lobby>{body}</body></html>",
        status_code=status,
        headers=_HEADERS,
    )


async def _lobby(request: Request) -> Response:
    server: Server = request.app.state.server
    game = html.escape(server.game.name)
    seats = html.escape(", ".join(f"P{q} {spec}" for q, spec in enumerate(server.seats)))
    return _page(
        f"{server.game.name}: ruledsl serve",
        f"<h1>{game}</h1><p>{seats}</p>"
        "<p>Open a table, then give each player his own link: whoever has a link plays that seat.</p>"
        '<form method=post action="/new"><button type=submit>Open a new table</button></form>',
    )


async def _new_table(request: Request) -> Response:
    server: Server = request.app.state.server
    try:
        table = server.open_table()
    except LookupError as exc:
        return _page("No more tables", f"<p>{html.escape(str(exc))}</p>", 503)
    base = str(request.base_url).rstrip("/")
    links = "".join(
        f'<li>{html.escape(who)}: <a href="{html.escape(url)}">{html.escape(url)}</a></li>'
        for who, url in table.links(base)
    )
    return _page(
        f"{server.game.name}: a new table",
        f"<h1>{html.escape(server.game.name)}: a new table</h1>"
        "<p>Each link is a seat's secret: give it only to that player.</p>"
        f"<ul class=links>{links}</ul>",
    )


async def _table_page(request: Request) -> Response:
    server: Server = request.app.state.server
    try:
        server.find(request.path_params["table"], request.path_params["token"])
    except KeyError:
        return _page("No such table", "<p>There is no such table here.</p>", 404)
    except PermissionError:
        return _page("Not your table", "<p>This link opens no seat at this table.</p>", 403)
    return FileResponse(STATIC / "table.html", headers=_HEADERS)


async def _table_socket(socket: WebSocket) -> None:
    server: Server = socket.app.state.server
    try:
        table, seat = server.find(socket.path_params["table"], socket.path_params["token"])
    except (KeyError, PermissionError) as exc:
        await _deny(socket, 404 if isinstance(exc, KeyError) else 403)
        return
    connections = server.connections[table.id]
    if len(connections) >= MAX_CONNECTIONS:
        await _deny(socket, 503)
        return
    await socket.accept()
    connection = Connection(socket, seat)
    connections.add(connection)
    lock = server.locks[table.id]
    try:
        async with lock:
            await connection.send(view_frame(table, seat))
        while True:
            message = await socket.receive()
            if message["type"] == "websocket.disconnect":
                return
            if server.tables.get(table.id) is not table or table.seat_of(socket.path_params["token"]) != seat:
                await socket.close(code=1008)  # the table is closed, or the link no longer names this seat
                return
            try:
                request = _read(message)
                async with lock:
                    changed = await _handle(table, seat, request)
                    if changed:
                        await server.broadcast(table)
                    else:
                        await connection.send(view_frame(table, seat))
            except (BadMessage, MoveRefused) as refused:
                await connection.send({"type": "error", "message": str(refused), "version": table.version_of(seat)})
    except WebSocketDisconnect:
        return
    finally:
        connections.discard(connection)


async def _deny(socket: WebSocket, status: int) -> None:
    """Refuse a WebSocket before it opens: with an HTTP status where the server can send one, else a close code."""
    if "websocket.http.response" in socket.scope.get("extensions", {}):
        await socket.send_denial_response(Response(status_code=status))
    else:
        await socket.close(code=4000 + status)


def _read(message: Mapping[str, Any]) -> dict[str, Any]:
    """Check a message against the protocol; raise BadMessage for anything else."""
    raw = message.get("text")
    if raw is None:
        raw = message.get("bytes") or b""
        if len(raw) > MAX_MESSAGE:
            raise BadMessage(f"a message holds at most {MAX_MESSAGE} bytes")
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise BadMessage("a message is JSON text, in UTF-8") from None
    if len(raw.encode("utf-8", "replace")) > MAX_MESSAGE:
        raise BadMessage(f"a message holds at most {MAX_MESSAGE} bytes")
    try:
        request = json.loads(raw)
    except ValueError:
        raise BadMessage("a message is a JSON object") from None
    if not isinstance(request, dict) or request.get("type") not in ("move", "rematch", "view"):
        raise BadMessage("a message is a JSON object whose 'type' is 'move', 'rematch' or 'view'")
    allowed = {"move": {"type", "version", "index", "text"}}.get(request["type"], {"type"})
    if set(request) - allowed:
        raise BadMessage(f"a '{request['type']}' message has no field '{sorted(set(request) - allowed)[0]}'")
    if request["type"] == "move":
        if not _whole(request.get("version")):
            raise BadMessage("a move gives the 'version' of the view it was chosen in, a whole number")
        if ("index" in request) == ("text" in request):
            raise BadMessage("a move gives either the 'index' of a legal action or its 'text'")
        if "index" in request and not _whole(request["index"]):
            raise BadMessage("a move's 'index' is a whole number")
        if "text" in request and not (isinstance(request["text"], str) and 0 < len(request["text"]) <= MAX_TEXT):
            raise BadMessage(f"a move's 'text' is a text of 1 to {MAX_TEXT} characters")
    return request


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 1 << 62


async def _handle(table: Table, seat: int, request: dict[str, Any]) -> bool:
    """Do what a checked message asks; return whether the table changed (MoveRefused: it did not)."""
    kind = request["type"]
    if kind == "view":
        return False
    if seat == SPECTATOR:
        raise MoveRefused("spectators watch the game; they do not play")
    if kind == "rematch":
        await asyncio.to_thread(table.rematch)
        return True
    # The rules and the bots run in a thread (a bot may think for a while), the table's lock held.
    await asyncio.to_thread(table.move, seat, request["version"], request.get("index"), request.get("text"))
    return True
