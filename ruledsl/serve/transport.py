"""The connections of ``ruledsl serve`` below HTTP: how many each address may hold, how long a client may take to
send its headers or to read what it is sent, and the uvicorn configuration that puts them in place.

uvicorn bounds neither the connections of one address nor the time a client takes to send a
request's headers (a "slowloris" holds a connection forever, a byte at a time), and a WebSocket
whose client reads nothing keeps its buffered frames forever. ``protocols`` makes uvicorn's own
HTTP and WebSocket protocols do both, sharing one ``ConnectionCount`` per server.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import uvicorn
    from starlette.applications import Starlette

    from ruledsl.serve.limits import ServeLimits

#: The largest WebSocket message read (uvicorn closes the connection, 1009, on a larger one); the app refuses
#: any message over ``app.MAX_MESSAGE`` with an error anyway.
WS_MAX_SIZE = 1 << 14
#: The largest request head (request line and headers) read, in bytes.
MAX_HEAD = 1 << 14
#: A WebSocket is pinged this often (seconds), and closed if the pong takes longer (a client gone without a word).
PING = 20.0

_BUSY = b"HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Length: 0\r\n\r\n"


class ConnectionCount:
    """The connections open from each address and in all, against their bounds."""

    def __init__(self, limits: ServeLimits) -> None:
        self.limits = limits
        self.per_address: Counter[str] = Counter()
        self.held: dict[int, str] = {}  # id(transport) -> its address

    def admit(self, transport: asyncio.BaseTransport) -> bool:
        """Count a new connection in, or say it is one too many (it is not counted)."""
        peer = transport.get_extra_info("peername")
        address = str(peer[0]) if isinstance(peer, tuple) and peer else ""
        if len(self.held) >= self.limits.max_connections or self.per_address[address] >= self.limits.max_per_address:
            return False
        self.per_address[address] += 1
        self.held[id(transport)] = address
        return True

    def release(self, transport: asyncio.BaseTransport) -> None:
        """Count a connection out (once: the HTTP protocol and the WebSocket one it became both may say it)."""
        address = self.held.pop(id(transport), None)
        if address is not None:
            self.per_address[address] -= 1
            if not self.per_address[address]:
                del self.per_address[address]


def protocols(limits: ServeLimits) -> tuple[type[asyncio.Protocol], type[asyncio.Protocol]]:
    """uvicorn's HTTP (h11) and WebSocket protocols, bounded by ``limits``: the connections per address and in all,
    the time to send a request's headers, and the time a WebSocket may go without reading."""
    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol
    from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

    count = ConnectionCount(limits)

    class BoundedHTTP(H11Protocol):
        refused = upgraded = False
        header_timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            super().connection_made(transport)  # type: ignore[arg-type]
            if not count.admit(transport):
                self.refused = True
                self.transport.write(_BUSY)
                self.transport.close()
                return
            self.arm()

        def data_received(self, data: bytes) -> None:
            if not self.refused:
                super().data_received(data)

        def arm(self) -> None:
            """From now, the client has ``header_timeout`` seconds to send a whole request head."""
            self.disarm()
            self.header_timer = self.loop.call_later(limits.header_timeout, self.too_slow)

        def disarm(self) -> None:
            if self.header_timer is not None:
                self.header_timer.cancel()
                self.header_timer = None

        def too_slow(self) -> None:
            self.header_timer = None
            if not self.upgraded and self.conn.their_state is h11.IDLE and not self.transport.is_closing():
                self.transport.close()  # no whole request in time: a slow or half-open client

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self.arm()

        def handle_websocket_upgrade(self, event: Any) -> None:
            self.upgraded = True
            self.disarm()
            super().handle_websocket_upgrade(event)

        def connection_lost(self, exc: Exception | None) -> None:
            self.disarm()
            count.release(self.transport)
            super().connection_lost(exc)

    class BoundedWebSocket(WebSocketsSansIOProtocol):
        stalled: asyncio.TimerHandle | None = None

        def pause_writing(self) -> None:
            super().pause_writing()
            if self.stalled is None:  # the client reads nothing: drop it if it goes on so
                self.stalled = self.loop.call_later(limits.send_timeout, self.transport.abort)

        def resume_writing(self) -> None:
            if self.stalled is not None:
                self.stalled.cancel()
                self.stalled = None
            super().resume_writing()

        def keepalive_timeout(self) -> None:
            super().keepalive_timeout()
            self.loop.call_later(limits.send_timeout, self.transport.abort)  # its close frame may never be read

        async def run_asgi(self) -> None:
            await super().run_asgi()
            # The app is done and the transport closing: if the client never reads what is left, abort it.
            self.loop.call_later(limits.send_timeout, self.transport.abort)

        def connection_lost(self, exc: Exception | None) -> None:
            if self.stalled is not None:
                self.stalled.cancel()
                self.stalled = None
            count.release(self.transport)
            super().connection_lost(exc)

    return BoundedHTTP, BoundedWebSocket


def uvicorn_config(app: Starlette, **options: Any) -> uvicorn.Config:
    """The uvicorn configuration of a ``ruledsl serve`` app (its limits are ``app.state.server.limits``)."""
    import uvicorn

    limits: ServeLimits = app.state.server.limits
    http, ws = protocols(limits)
    return uvicorn.Config(
        app,
        http=http,
        ws=ws,
        log_level="warning",
        lifespan="off",
        ws_max_size=WS_MAX_SIZE,
        ws_ping_interval=PING,
        ws_ping_timeout=PING,
        timeout_keep_alive=limits.keep_alive,
        h11_max_incomplete_event_size=MAX_HEAD,
        **options,
    )
