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
``{"type": "rematch"}`` (this seat agrees to a new game: dealt once every human seat has) and
``{"type": "view"}`` (send the view again). Every page is sent the view again when a seat's first page
opens or its last closes (the frame's ``present``). A view's version is its seat's own
(``Table.version_of``): it moves only when what that seat is shown does.
"""

from __future__ import annotations

import asyncio
import html
import json
import logging
import time
from collections import deque
from collections.abc import Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ruledsl.serve.frames import view_frame
from ruledsl.serve.limits import RateLimit, RequestGuard, ServeLimits
from ruledsl.serve.tables import SPECTATOR, MoveRefused, Table, Unreplayable

if TYPE_CHECKING:
    from ruledsl.engine.game import Game
    from ruledsl.serve.journal import Journal, Stored

STATIC = Path(__file__).parent / "static"
#: The longest message a page may send, in bytes: a move is a few dozen.
MAX_MESSAGE = 2048
#: The longest move a page may type.
MAX_TEXT = 200
#: The most tables one server holds: each is a game in memory.
DEFAULT_MAX_TABLES = ServeLimits.max_tables
#: The tables being dealt at once beyond which ``POST /new`` answers 503 (dealing runs in a thread of its own).
MAX_DEALING = 8

_log = logging.getLogger("ruledsl.serve")

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
    """The tables of one server, the connections to each, and a lock per table (bots think in a thread).

    A table's lock is held while its game changes and its frames are built, never while a frame
    is sent: each connection sends from a queue of its own (``Connection``), so a page that
    reads slowly, or not at all, holds up no one but itself.
    """

    def __init__(
        self,
        game: Game,
        seats: Sequence[str],
        log_dir: str | Path | None = None,
        max_tables: int | None = None,
        limits: ServeLimits | None = None,
        journal: Journal | None = None,
    ) -> None:
        self.game = game
        self.journal = journal
        self.seats = list(seats)
        self.log_dir = log_dir
        self.limits = limits or ServeLimits()
        if max_tables is not None:
            self.limits = replace(self.limits, max_tables=max_tables)
        self.max_tables = self.limits.max_tables
        self.tables: dict[str, Table] = {}
        self.connections: dict[str, set[Connection]] = {}
        self.locks: dict[str, asyncio.Lock] = {}
        self.active: dict[str, float] = {}  # when each table last had a message, a page come or go
        # Each table's frames as last built, per seat (SPECTATOR: the spectators), with what they were built from.
        self.frames: dict[str, tuple[tuple[int, int, int], dict[int, str]]] = {}
        self.new_tables = RateLimit(self.limits.new_per_minute / 60, self.limits.new_per_minute)
        self.dealer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="ruledsl-deal")
        self.dealing = 0
        # The tables the store keeps closed, with the game each was dealt in: reopened when their link is visited.
        self.stored: dict[str, tuple[Stored, Game]] = {}
        self.reopening: dict[str, asyncio.Future[Table]] = {}  # those being reopened, in the dealer's thread

    def restore(self) -> int:
        """Open again the tables the store keeps (those closed: when their link is visited), each with its own seats
        and options, whatever the server's now; return how many."""
        from ruledsl.tools.records import rules_hash

        if self.journal is None:
            return 0
        digest = rules_hash(self.game)
        for stored in self.journal.tables():
            game = self._dealt_in(stored, digest)  # None: left in the store, said in the log
            if game is not None and stored.closed:
                self.stored[stored.id] = (stored, game)
            elif game is not None:
                try:
                    self.add(Table(game, stored.seats, self.log_dir, journal=self.journal, stored=stored))
                except Unreplayable as exc:
                    _unopened(stored.id, str(exc))
        return len(self.tables)

    def _dealt_in(self, stored: Stored, digest: str) -> Game | None:
        """The game a stored table was dealt in: the server's rules for its seats' count under its options and bound
        on actions (the server's, for a table kept before options were: its seats must be the server's). None, and
        a warning in the log, for one that cannot be reopened (other rules; options these rules cannot take)."""
        from ruledsl.loading import load_checked
        from ruledsl.text.errors import RuleDslError
        from ruledsl.text.render import one_line

        if stored.rules != digest or (stored.options is None and stored.seats != self.seats):
            _log.warning("table %s was played with other rules or seats: not reopened", stored.id)
            return None
        game = self.game
        dealt = (stored.options, len(stored.seats), stored.max_actions)
        if stored.options is None or dealt == (game.options, game.players, game.max_actions):
            return game
        try:
            return load_checked(game.checked, len(stored.seats), stored.options, stored.max_actions, game.file)
        except RuleDslError as exc:
            _unopened(stored.id, one_line(exc.diagnostics[0].message))
            return None

    def open_table(self) -> Table:
        """Open a new table; LookupError when the server holds as many as it may."""
        self.reap()
        if len(self.tables) + self.dealing >= self.max_tables:
            raise LookupError(f"this server holds {self.max_tables} tables already")
        return self.add(Table(self.game, self.seats, self.log_dir, journal=self.journal))

    async def open_table_aside(self) -> Table:
        """Open a new table, dealt (and its bots' first moves played) in a thread: the server answers meanwhile."""
        self.reap()
        if len(self.tables) + self.dealing >= self.max_tables:
            raise LookupError(f"this server holds {self.max_tables} tables already")
        if self.dealing >= MAX_DEALING:
            raise LookupError("this server is busy opening tables: try again in a moment")
        self.dealing += 1
        try:
            table = await asyncio.get_running_loop().run_in_executor(
                self.dealer, Table, self.game, self.seats, self.log_dir, None, self.journal
            )
        finally:
            self.dealing -= 1
        return self.add(table)

    def add(self, table: Table) -> Table:
        self.tables[table.id] = table
        self.connections[table.id] = set()
        self.locks[table.id] = asyncio.Lock()
        self.active[table.id] = time.monotonic()
        return table

    def close_table(self, table_id: str) -> None:
        """Forget a table (its game, once over, is in the --log folder if there is one)."""
        for place in (self.tables, self.connections, self.locks, self.active, self.frames):
            place.pop(table_id, None)
        if self.journal is not None:
            self.journal.closed(table_id)

    def reap(self, now: float | None = None) -> list[str]:
        """Close the tables no one has been connected to for a while (``close_after`` once the game is over,
        ``abandon_after`` before); return their ids. Run whenever a table is opened or a page comes."""
        now = time.monotonic() if now is None else now
        closed = []
        for table_id, table in list(self.tables.items()):
            if self.connections[table_id] or self.locks[table_id].locked():
                continue
            idle = self.limits.close_after if table.is_over() else self.limits.abandon_after
            if now - self.active[table_id] >= idle:
                self.close_table(table_id)
                closed.append(table_id)
        return closed

    async def reopen(self, table_id: str) -> None:
        """Open again a table the store keeps closed (closed while idle), when its link is visited. Its moves are
        replayed, the bots' decisions with them, in a thread: the server answers the other tables meanwhile, and a
        second page of the same table waits for the same reopening."""
        pending = self.reopening.get(table_id)
        if pending is None:
            kept = self.stored.pop(table_id, None)
            if kept is None:
                return
            stored, game = kept
            pending = self.reopening[table_id] = asyncio.get_running_loop().run_in_executor(
                self.dealer, partial(Table, game, stored.seats, self.log_dir, journal=self.journal, stored=stored)
            )
            try:
                table = await pending
            except Unreplayable as exc:
                _unopened(table_id, str(exc))  # left closed in the store: its links find no table
                return
            except BaseException:
                self.stored[table_id] = kept  # kept closed, as it was: the next visit tries again
                raise
            finally:
                del self.reopening[table_id]
            self.add(table)
            assert self.journal is not None
            self.journal.closed(table_id, False)
        else:
            await asyncio.shield(pending)

    def find(self, table_id: str, token: str) -> tuple[Table, int]:
        """The table and seat a link names; raise KeyError (no such table) or PermissionError (a wrong token)."""
        table = self.tables[table_id]
        try:
            return table, table.seat_of(token)
        except KeyError:
            raise PermissionError(table_id) from None

    def admit(self, table: Table, seat: int) -> bool:
        """Whether ``table`` has room for one more connection of ``seat``: the spectators have a bound of their own,
        and each seat his, so that spectators never lock the players out."""
        bound = self.limits.max_spectators if seat == SPECTATOR else self.limits.max_per_seat
        return sum(c.seat == seat for c in self.connections[table.id]) < bound

    def view_text(self, table: Table, seat: int) -> str | None:
        """The view of ``seat`` as last built, if the table has not changed since (else None: build it, locked)."""
        stamp, texts = self.frames.get(table.id, ((-1, -1, -1), {}))
        return texts.get(seat) if stamp == _stamp(table) else None

    def build_view(self, table: Table, seat: int) -> str:
        """Build ``seat``'s view of ``table`` (the table's lock held) and keep it for the next to ask."""
        stamp, texts = self.frames.get(table.id, ((-1, -1, -1), {}))
        if stamp != _stamp(table):
            texts = {}
            self.frames[table.id] = (_stamp(table), texts)
        if seat not in texts:
            texts[seat] = encode(view_frame(table, seat))
        return texts[seat]

    async def broadcast(self, table: Table) -> None:
        """Queue every connection of ``table`` its seat's view (the table's lock held): each seat's built once."""
        self.frames.pop(table.id, None)
        for connection in list(self.connections.get(table.id, ())):
            text = self.build_view(table, connection.seat)
            # A page is not sent its view again unchanged: how many frames come must not tell a
            # seat of what he cannot see (a bot passing a window offered to it alone).
            if text != connection.last_view:
                connection.push(text, view=True)


def _unopened(table_id: str, why: str) -> None:
    """Say in the log that a stored table cannot be reopened, and why: it is left in the store as it was."""
    _log.warning("table %s cannot be reopened: %s: left in the store", table_id, why)


def _stamp(table: Table) -> tuple[int, int, int]:
    """What a table's frames were built from: they are built anew once it changes."""
    return table.version, table.games, len(table.actors)


def encode(frame: dict[str, Any]) -> str:
    """A frame as JSON text: UTF-8 as it is, or escaped where a text holds what UTF-8 cannot (a lone surrogate)."""
    text = json.dumps(frame, ensure_ascii=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = json.dumps(frame)
    return text


class Connection:
    """One page connected to a table as one seat (or a spectator), and the frames waiting to be sent to it.

    ``push`` queues a frame and returns at once; a task of the connection's own sends them in
    order. A view waiting is replaced by a newer one (only the table as it is now matters), so
    the queue of a page that does not read holds one view and its refusals; past
    ``max_waiting`` frames the page has fallen ``behind`` and its connection is closed.
    """

    def __init__(self, socket: WebSocket, seat: int, limits: ServeLimits | None = None) -> None:
        self.socket = socket
        self.seat = seat
        self.limits = limits or ServeLimits()
        self.waiting: deque[tuple[bool, str]] = deque()  # (a view?, the frame's text)
        self.last_view: str | None = None  # the last view queued
        self.ready = asyncio.Event()
        self.behind = False
        self.messages = RateLimit(self.limits.messages_per_second, 2 * self.limits.messages_per_second)
        self.sender = asyncio.get_running_loop().create_task(self._send_waiting())

    def push(self, text: str, view: bool = False) -> None:
        """Queue a frame's text (``view``: it replaces any view still waiting)."""
        if view:
            self.last_view = text
            if self.view_waiting():
                self.waiting = deque(waiting for waiting in self.waiting if not waiting[0])
        self.waiting.append((view, text))
        if len(self.waiting) > self.limits.max_waiting:
            self.behind = True
        self.ready.set()

    async def send(self, frame: dict[str, Any]) -> None:
        """Queue ``frame`` (a view replaces the one waiting, if any)."""
        self.push(encode(frame), view=frame.get("type") == "view")

    def view_waiting(self) -> bool:
        return any(view for view, _ in self.waiting)

    async def _send_waiting(self) -> None:
        try:
            while True:
                await self.ready.wait()
                self.ready.clear()
                while self.waiting:
                    _, text = self.waiting.popleft()
                    await self.socket.send_text(text)
        except (RuntimeError, WebSocketDisconnect, OSError):
            pass  # gone: its handler removes it

    async def stop(self) -> None:
        """Stop sending (the page is gone or closed)."""
        self.sender.cancel()
        try:
            await self.sender
        except asyncio.CancelledError:
            pass


def create_app(
    game: Game,
    seats: Sequence[str],
    tables: int = 1,
    log_dir: str | Path | None = None,
    max_tables: int | None = None,
    limits: ServeLimits | None = None,
    journal: Journal | None = None,
) -> Starlette:
    """Build the server's ASGI app with ``tables`` tables open (those the store ``journal`` keeps first);
    ``app.state.server`` holds them."""
    limits = limits or ServeLimits()
    server = Server(game, seats, log_dir, max(max_tables or limits.max_tables, tables), limits, journal)
    for _ in range(tables - server.restore()):
        server.open_table()
    app = Starlette(
        routes=[
            Route("/", _lobby),
            Route("/new", _new_table, methods=["POST"]),
            Route("/t/{table}/{token}", _table_page),
            WebSocketRoute("/t/{table}/{token}/ws", _table_socket),
            Route("/favicon.ico", _favicon),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ],
        middleware=[Middleware(RequestGuard, hosts=limits.hosts)],
    )
    app.state.server = server
    return app


def _page(title: str, body: str, status: int = 200) -> HTMLResponse:
    return HTMLResponse(
        "<!doctype html><html lang=en><head><meta charset=utf-8>"
        '<meta name=viewport content="width=device-width, initial-scale=1">'
        f'<title>{html.escape(title)}</title><link rel=stylesheet href="/static/table.css">'
        '<link rel="icon" type="image/svg+xml" href="/static/favicon.svg"></head>'
        f"<body class=lobby>{body}</body></html>",
        status_code=status,
        headers=_HEADERS,
    )


async def _favicon(request: Request) -> Response:
    """The icon a browser asks for at /favicon.ico, whatever page it shows."""
    return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")


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
    wait = server.new_tables.wait(request.client.host if request.client else "")
    if wait:
        page = _page("Too many tables", "<p>This address has opened tables enough for now: try again later.</p>", 429)
        page.headers["Retry-After"] = str(int(wait) + 1)
        return page
    try:
        table = await server.open_table_aside()
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
    await server.reopen(request.path_params["table"])
    try:
        server.find(request.path_params["table"], request.path_params["token"])
    except KeyError:
        return _page("No such table", "<p>There is no such table here.</p>", 404)
    except PermissionError:
        return _page("Not your table", "<p>This link opens no seat at this table.</p>", 403)
    return FileResponse(STATIC / "table.html", headers=_HEADERS)


async def _table_socket(socket: WebSocket) -> None:
    server: Server = socket.app.state.server
    server.reap()
    await server.reopen(socket.path_params["table"])
    try:
        table, seat = server.find(socket.path_params["table"], socket.path_params["token"])
    except (KeyError, PermissionError) as exc:
        await _deny(socket, 404 if isinstance(exc, KeyError) else 403)
        return
    if not server.admit(table, seat):
        await _deny(socket, 503)
        return
    await socket.accept()
    connection = Connection(socket, seat, server.limits)
    server.connections[table.id].add(connection)
    server.active[table.id] = time.monotonic()
    try:
        async with server.locks[table.id]:
            await _arrive(server, table, connection, 1)
        await _serve(server, table, connection)
    except WebSocketDisconnect:
        return
    finally:
        server.connections.get(table.id, set()).discard(connection)
        if table.id in server.active:  # still open: the others are told if its seat has gone
            server.active[table.id] = time.monotonic()
            async with server.locks[table.id]:
                await _arrive(server, table, connection, -1)
        await connection.stop()


async def _serve(server: Server, table: Table, connection: Connection) -> None:
    """Answer a connection's messages until it goes, the table is closed, or the page falls behind."""
    socket, seat = connection.socket, connection.seat
    while not connection.behind:
        message = await socket.receive()
        if message["type"] == "websocket.disconnect":
            return
        if server.tables.get(table.id) is not table or table.seat_of(socket.path_params["token"]) != seat:
            await socket.close(code=1008)  # the table is closed, or the link no longer names this seat
            return
        server.active[table.id] = time.monotonic()
        wait = connection.messages.wait()
        if wait:
            await asyncio.sleep(wait)  # more messages than a page sends: read them no faster than that
        try:
            await _answer(server, table, connection, _read(message))
        except (BadMessage, MoveRefused) as refused:
            await connection.send(
                {"type": "error", "message": str(refused), "version": table.version_of(connection.seat)}
            )
        except Exception:
            _log.exception("a message to table %s could not be answered", table.id)
            await socket.close(code=1011)  # the server's fault: said with a close frame, and logged
            return
    # Its frames pile up unread: close it (if it reads nothing at all, the transport drops it).
    await connection.stop()
    try:
        await asyncio.wait_for(socket.close(code=1008, reason="too many frames unread"), server.limits.send_timeout)
    except (TimeoutError, RuntimeError, OSError):
        pass


async def _answer(server: Server, table: Table, connection: Connection, request: dict[str, Any]) -> None:
    """Answer one checked message: a view from the frames last built, a move or a rematch under the table's lock."""
    seat = connection.seat
    if request["type"] == "view":
        if not connection.view_waiting():  # else the view waiting to be sent is the table as it is now
            connection.push(await _view(server, table, seat), view=True)
        return
    async with server.locks[table.id]:
        if await _handle(table, seat, request):
            await server.broadcast(table)
            # The bots answer one move at a time, each shown to every page before the next is
            # thought of: meanwhile a page says which seat is thinking.
            while await asyncio.to_thread(table.play_bot):
                await server.broadcast(table)
        else:
            connection.push(server.build_view(table, seat), view=True)


async def _view(server: Server, table: Table, seat: int) -> str:
    """``seat``'s view of ``table`` now: as last built if it has not changed since, else built (locked)."""
    text = server.view_text(table, seat)
    if text is None:
        async with server.locks[table.id]:
            text = server.build_view(table, seat)
    return text


async def _arrive(server: Server, table: Table, connection: Connection, change: int) -> None:
    """Count a page of a seat that opens (``change`` 1: it is sent its view) or closes (-1); when a seat comes
    or goes (its first page opens, its last closes), every page is told (presence). The table's lock held."""
    if connection.seat == SPECTATOR:
        if change > 0:
            connection.push(server.build_view(table, connection.seat), view=True)
        return
    before = table.present[connection.seat] > 0
    table.present[connection.seat] += change
    if before != (table.present[connection.seat] > 0):
        await server.broadcast(table)  # the frames carry who is here: built anew for every page
    elif change > 0:
        connection.push(server.build_view(table, connection.seat), view=True)


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
    except (ValueError, RecursionError):  # RecursionError: nested deeper than the reader goes
        raise BadMessage("a message is a JSON object") from None
    if not isinstance(request, dict) or request.get("type") not in ("move", "rematch", "view"):
        raise BadMessage("a message is a JSON object whose 'type' is 'move', 'rematch' or 'view'")
    if not all(_encodable(name) for name in request):
        raise BadMessage("a message's fields are named in Unicode text (a lone surrogate is not)")
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
        if "text" in request and not _encodable(request["text"]):
            raise BadMessage("a move's 'text' is Unicode text (a lone surrogate is not)")
    return request


def _encodable(text: str) -> bool:
    """Whether ``text`` can be written in UTF-8 (a lone surrogate, which JSON may escape, cannot)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


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
        await asyncio.to_thread(table.rematch, seat)
        return True
    # The rules run in a thread, the table's lock held; the bots answer after (``_answer``).
    await asyncio.to_thread(table.move, seat, request["version"], request.get("index"), request.get("text"), False)
    return True
