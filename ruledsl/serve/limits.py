"""The limits of ``ruledsl serve`` and the checks made of every request before it reaches a route.

``ServeLimits`` holds every bound the server keeps (the command line's options set them, with
these defaults); ``RequestGuard`` refuses a request whose ``Host`` the server was not told to
answer to (a name rebound to this machine by someone's DNS) and a cross-site one (a ``POST`` or
a WebSocket whose ``Origin`` is another site's); ``RateLimit`` counts what each address may do.
``transport.py`` applies the limits that act on connections before HTTP is read.
"""

from __future__ import annotations

import ipaddress
import socket
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

if TYPE_CHECKING:
    from collections.abc import Sequence

    from starlette.types import ASGIApp, Receive, Scope, Send


@dataclass(frozen=True)
class HostRule:
    """The names a request's ``Host`` may give: these, and (``any_address``) any IP address written out."""

    names: frozenset[str] = frozenset()
    any_address: bool = False

    def allows(self, host: str) -> bool:
        """Whether the ``Host`` header ``host`` (``name``, ``name:port``, ``[v6]:port``) names this server."""
        name = host_name(host)
        if name in self.names or "*" in self.names:
            return True
        if self.any_address:
            try:
                ipaddress.ip_address(name)
            except ValueError:
                return False
            return True
        return False

    @classmethod
    def serving(cls, bind: str, extra: Sequence[str] = ()) -> HostRule:
        """The names a server bound to ``bind`` answers to: that address, this machine's own names when it listens
        on every address (and then any address written out), ``localhost`` on a loopback one, and ``extra``."""
        names = {bind.strip("[]").lower(), *(name.lower().rstrip(".") for name in extra)}
        wildcard = bind in ("", "0.0.0.0", "::")
        loopback = wildcard or bind == "localhost"
        try:
            loopback = loopback or ipaddress.ip_address(bind.strip("[]")).is_loopback
        except ValueError:
            pass
        if loopback:
            names |= {"localhost", "127.0.0.1", "::1"}
        if wildcard:
            names |= {socket.gethostname().lower(), socket.getfqdn().lower()}
        return cls(frozenset(names - {""}), any_address=wildcard)


def host_name(host: str) -> str:
    """The name a ``Host`` header (or an origin's address) gives, lower case, without its port."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1 : host.find("]")] if "]" in host else host
    if host.count(":") == 1:
        host = host.split(":")[0]
    return host.rstrip(".")


def same_origin(origin: str | None, host: str) -> bool:
    """Whether a request's ``Origin`` (None: a client that sent none, not a browser's cross-site request) is the
    site whose ``Host`` it was sent to."""
    if origin is None:
        return True
    parts = urlsplit(origin.strip())
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return False  # "null" (a sandboxed frame, a file), or nonsense
    try:
        origin_port = parts.port or (443 if parts.scheme == "https" else 80)
        ours = urlsplit(f"{parts.scheme}://{host}")
        port = ours.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        return False
    return host_name(parts.netloc) == host_name(host) and origin_port == port


@dataclass(frozen=True)
class ServeLimits:
    """Every bound ``ruledsl serve`` keeps; the defaults suit a few tables of friends on one machine's network."""

    #: The most tables open at once (each is a game in memory).
    max_tables: int = 100
    #: The most spectators' connections one table holds (the seats have their own room: spectators never fill it).
    max_spectators: int = 32
    #: The most connections one seat holds at once (its player's tabs and devices).
    max_per_seat: int = 8
    #: The most connections (HTTP and WebSocket) open from one address at once.
    max_per_address: int = 32
    #: The most connections open at once in all.
    max_connections: int = 1000
    #: The tables one address may open per minute (``POST /new``).
    new_per_minute: int = 10
    #: Seconds a client has to send a request's headers, from its connection or its last answer.
    header_timeout: float = 10.0
    #: Seconds an HTTP connection is kept open with no request (uvicorn's keep-alive).
    keep_alive: int = 5
    #: Seconds a page may read nothing it is sent (its socket full) before its connection is dropped.
    send_timeout: float = 30.0
    #: Seconds a table whose game is over stays open with no one connected.
    close_after: float = 600.0
    #: Seconds a table whose game is not over stays open with no one connected.
    abandon_after: float = 3600.0
    #: The messages a page may send per second, on average (beyond, the server reads it more slowly).
    messages_per_second: float = 20.0
    #: The frames waiting to be sent to one page beyond which it has fallen behind and is closed (a view waiting
    #: is replaced by a newer one: only refusals pile up).
    max_waiting: int = 32
    #: The names a request's Host may give (None: any, as in tests that serve no network).
    hosts: HostRule | None = field(default=None)


class RateLimit:
    """At most ``burst`` events at once and ``per_second`` on average, per key (a token bucket each)."""

    def __init__(self, per_second: float, burst: float) -> None:
        self.per_second = per_second
        self.burst = burst
        self.buckets: dict[str, tuple[float, float]] = {}  # key -> (tokens, when counted)

    def wait(self, key: str = "", now: float | None = None) -> float:
        """Take one event for ``key``: 0 if it may happen now, else the seconds until it may (nothing taken)."""
        now = time.monotonic() if now is None else now
        tokens, then = self.buckets.get(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - then) * self.per_second)
        if tokens < 1:
            self.buckets[key] = (tokens, now)
            return (1 - tokens) / self.per_second
        self.buckets[key] = (tokens - 1, now)
        if len(self.buckets) > 4096:  # forget the addresses whose buckets are full again: memory stays bounded
            full = [k for k, (t, w) in self.buckets.items() if t + (now - w) * self.per_second >= self.burst]
            for k in full:
                del self.buckets[k]
        return 0.0


_WRONG_HOST = "this server does not answer to that host name (its owner may allow it: ruledsl serve --allow-host NAME)"


class RequestGuard:
    """ASGI middleware: a request to a Host the server does not answer to gets 400, a cross-site POST or WebSocket
    403, before any route sees it."""

    def __init__(self, app: ASGIApp, hosts: HostRule | None = None) -> None:
        self.app = app
        self.hosts = hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            headers = {name.decode("latin-1"): value.decode("latin-1") for name, value in scope["headers"]}
            host = headers.get("host", "")
            if self.hosts is not None and not self.hosts.allows(host):
                await _refuse(scope, receive, send, 400, _WRONG_HOST)
                return
            unsafe = scope["type"] == "websocket" or scope["method"] not in ("GET", "HEAD", "OPTIONS")
            if unsafe and not same_origin(headers.get("origin"), host):
                await _refuse(scope, receive, send, 403, "a request from another site is refused")
                return
        await self.app(scope, receive, send)


async def _refuse(scope: Scope, receive: Receive, send: Send, status: int, why: str) -> None:
    from starlette.responses import PlainTextResponse

    if scope["type"] == "websocket" and "websocket.http.response" not in scope.get("extensions", {}):
        await send({"type": "websocket.close", "code": 4000 + status})
        return
    await PlainTextResponse(why, status, headers={"Connection": "close"})(scope, receive, send)
