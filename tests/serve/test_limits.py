"""`ruledsl serve` against slow, greedy and hostile clients: a real server process, real sockets.

Each test starts `ruledsl serve` in a process of its own (``ServeProcess``) and talks to it as
clients on the network would, some of them through raw sockets that misbehave on purpose (a
page that never reads, a message no page sends). No test times anything: each asserts what
was answered, with generous timeouts.
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from tests.extras import require

require("uvicorn", "serve")
require("websockets", "serve")

from websockets.exceptions import InvalidStatus  # noqa: E402
from websockets.sync.client import ClientConnection, connect  # noqa: E402

from ruledsl.serve.background import ServeProcess  # noqa: E402

#: Long enough for a loaded 2-core machine; a test that waits this long has failed anyway.
PATIENCE = 60


def socket_url(link: str) -> str:
    return link.replace("http://", "ws://") + "/ws"


@contextmanager
def page(link: str, origin: str | None = None) -> Iterator[ClientConnection]:
    """A well-behaved page's WebSocket to ``link``: it reads what it is sent."""
    with connect(socket_url(link), origin=origin, open_timeout=PATIENCE, max_size=1 << 22) as ws:  # type: ignore[arg-type]
        yield ws


def receive(ws: ClientConnection) -> dict[str, Any]:
    frame = json.loads(ws.recv(timeout=PATIENCE))
    assert isinstance(frame, dict)
    return frame


def raw_socket(link: str, source: str = "127.0.0.1", receive_buffer: int | None = None) -> tuple[socket.socket, int]:
    """Open ``link``'s WebSocket by hand from the address ``source``; return the socket and the answer's status.

    The socket reads nothing more than the handshake's answer unless the test reads it.
    """
    url = urllib.parse.urlsplit(link)
    sock = socket.socket()
    if receive_buffer is not None:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    sock.bind((source, 0))
    sock.settimeout(PATIENCE)
    sock.connect((url.hostname, url.port))
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        f"GET {url.path}/ws HTTP/1.1\r\nHost: {url.netloc}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    head = b""
    while not head.endswith(b"\r\n\r\n"):
        byte = sock.recv(1)  # one at a time: not a byte of the frames that follow
        if not byte:
            return sock, 0
        head += byte
    return sock, int(head.split()[1])


def text_frame(text: str) -> bytes:
    """A client's WebSocket text frame (masked, as a client's must be)."""
    data = text.encode()
    mask = os.urandom(4)
    size = bytes([0x80 | len(data)]) if len(data) < 126 else bytes([0x80 | 126]) + len(data).to_bytes(2, "big")
    return b"\x81" + size + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data))


def post(url: str, headers: dict[str, str] | None = None) -> int:
    """POST to ``url``; the status of the answer."""
    request = urllib.request.Request(url, data=b"", method="POST", headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=PATIENCE) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as refused:
        refused.close()
        return int(refused.code)


class Players:
    """The two human seats of a table, each through its page, playing each his first legal action on his turn."""

    def __init__(self, seats: dict[int, ClientConnection]) -> None:
        self.seats = seats
        self.views = {q: receive(ws) for q, ws in seats.items()}

    def play(self, moves: int) -> int:
        """Play ``moves`` moves (a rematch after a game); return the moves answered, each seen by both seats."""
        answered = 0
        while answered < moves:
            over = self.views[0]["over"]
            mover = 0 if over else self.views[0]["current"]
            version = self.views[mover]["version"]
            if over:  # a new game is dealt once every human seat has asked for it
                for ws in self.seats.values():
                    ws.send(json.dumps({"type": "rematch"}))
            else:
                self.seats[mover].send(json.dumps({"type": "move", "version": version, "index": 0}))
            for q, ws in self.seats.items():
                while (view := receive(ws))["type"] != "view" or view["version"] <= version:
                    pass
                self.views[q] = view
            answered += 1
        return answered


class TestBackPressure:
    def test_a_client_that_never_reads_does_not_stop_two_seats_playing(self) -> None:
        with ServeProcess("quasenbo", "--seats", "human,human") as server:
            links = server.tables[0]
            flooder, status = raw_socket(links["spectators"], receive_buffer=4096)
            assert status == 101
            burst = text_frame('{"type": "view"}') * 500
            flooder.settimeout(5)
            try:
                for _ in range(40):  # 20,000 view requests, none of whose answers it reads
                    flooder.sendall(burst)
            except (TimeoutError, OSError):
                pass  # the server reads it no faster than it allows, or has closed it: either is its right
            with page(links["P0"]) as zero, page(links["P1"]) as one:
                assert Players({0: zero, 1: one}).play(20) == 20
            with page(links["spectators"]) as fresh:
                assert receive(fresh)["type"] == "view"  # a fresh connection is answered too
            flooder.close()

    def test_a_page_that_reads_nothing_is_dropped_and_its_place_freed(self) -> None:
        argv = ("--seats", "human,human", "--max-spectators", "1", "--send-timeout", "1")
        with ServeProcess("quasenbo", *argv) as server:
            links = server.tables[0]
            silent, status = raw_socket(links["spectators"], receive_buffer=2048)
            assert status == 101
            with page(links["P0"]) as zero, page(links["P1"]) as one:
                players = Players({0: zero, 1: one})
                for _ in range(100):  # each move sends it a view it never reads, until its socket is full
                    players.play(20)
                    fresh, status = raw_socket(links["spectators"], source="127.0.0.2")
                    fresh.close()
                    if status == 101:  # the only spectator's place is free: the silent one was dropped
                        break  # (its socket full for --send-timeout, or its ping unanswered: stock uvicorn, neither)
                assert status == 101
            silent.close()

    def test_seats_get_in_however_many_spectators_are_connected(self) -> None:
        with ServeProcess("quasenbo", "--seats", "human,human") as server:
            links = server.tables[0]
            spectators = [raw_socket(links["spectators"], source=f"127.0.0.{2 + k}") for k in range(70)]
            statuses = [status for _, status in spectators]
            assert statuses.count(101) >= 1 and statuses.count(503) >= 1  # spectators have a bound of their own
            with page(links["P0"]) as zero, page(links["P1"]) as one:
                assert Players({0: zero, 1: one}).play(2) == 2
            for sock, _ in spectators:
                sock.close()


HOSTILE = [
    "[" * 1020,  # nested deeper than the JSON reader recurses
    json.dumps({"type": "move", "version": 1, "text": "\ud800"}),  # a lone surrogate, escaped as JSON allows
    json.dumps({"type": "view", "\udfff": 1}),  # one in a field's name
    "{" * 2000,
]


class TestHostileMessages:
    def test_each_gets_an_error_and_the_connection_and_server_go_on(self) -> None:
        with ServeProcess("quasenbo", "--seats", "human,random") as server:
            with page(server.tables[0]["P0"]) as ws:
                view = receive(ws)
                for raw in HOSTILE:
                    ws.send(raw)
                    answer = receive(ws)
                    assert answer["type"] == "error" and answer["message"], raw[:40]
                ws.send(json.dumps({"type": "view"}))
                assert receive(ws) == view
            assert "Traceback" not in server.stderr()


class TestOrigins:
    def test_cross_site_posts_and_sockets_are_refused(self) -> None:
        with ServeProcess("quasenbo", "--seats", "human,random") as server:
            assert post(f"{server.base}/new", {"Origin": "http://evil.example"}) == 403
            assert post(f"{server.base}/new", {"Origin": "null"}) == 403
            assert post(f"{server.base}/new", {"Origin": server.base}) == 200
            assert post(f"{server.base}/new") == 200  # no Origin: not a browser's cross-site request
            link = server.tables[0]["P0"]
            with pytest.raises(InvalidStatus) as refused:
                with page(link, origin="http://evil.example"):
                    pass
            assert refused.value.response.status_code == 403
            with page(link, origin=server.base) as ws:
                assert receive(ws)["type"] == "view"

    def test_a_host_the_server_was_not_told_is_refused(self) -> None:
        with ServeProcess("quasenbo", "--seats", "human,random", "--allow-host", "games.example") as server:
            # A page of rebound.example whose name was made to point at this server (DNS rebinding).
            assert post(f"{server.base}/new", {"Host": "rebound.example"}) == 400
            assert post(f"{server.base}/new", {"Host": f"localhost:{server.port}"}) == 200
            assert post(f"{server.base}/new", {"Host": "games.example"}) == 200


class TestLimits:
    def test_new_tables_are_rate_limited_per_address(self) -> None:
        with ServeProcess("quasenbo", "--seats", "human,random", "--new-per-minute", "3") as server:
            assert [post(f"{server.base}/new") for _ in range(4)] == [200, 200, 200, 429]

    def test_a_client_slow_to_send_its_headers_is_cut_off(self) -> None:
        with ServeProcess("quasenbo", "--seats", "human,random", "--header-timeout", "1") as server:
            with socket.create_connection(("127.0.0.1", server.port), timeout=PATIENCE) as slow:
                slow.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # and never the rest
                assert slow.recv(1024) == b""  # closed by the server
            assert post(f"{server.base}/new") == 200

    def test_connections_are_bounded_per_address(self) -> None:
        with ServeProcess("quasenbo", "--seats", "human,random", "--max-per-address", "4") as server:
            held = [socket.create_connection(("127.0.0.1", server.port), timeout=PATIENCE) for _ in range(4)]
            assert not get_lobby(server.port, "127.0.0.1").startswith(b"HTTP/1.1 200")
            assert get_lobby(server.port, "127.0.0.2").startswith(b"HTTP/1.1 200")  # another address is served
            for sock in held:
                sock.close()
            # And this one once it has let go (the server may not have seen them close yet: ask again).
            assert any(get_lobby(server.port, "127.0.0.1").startswith(b"HTTP/1.1 200") for _ in range(PATIENCE * 10))


def get_lobby(port: int, source: str) -> bytes:
    """GET / from the address ``source``: the whole answer, until the server closes the connection."""
    with socket.create_connection(("127.0.0.1", port), timeout=PATIENCE, source_address=(source, 0)) as sock:
        sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        answer = b""
        try:
            while chunk := sock.recv(65536):
                answer += chunk
        except ConnectionResetError:
            pass  # refused before it read the request
        return answer


class TestClosingTables:
    def test_a_table_no_one_is_at_closes_after_a_while_sooner_once_its_game_is_over(self) -> None:
        from ruledsl import load_game
        from ruledsl.serve.app import Server
        from ruledsl.serve.limits import ServeLimits

        limits = ServeLimits(close_after=60, abandon_after=600, max_tables=2)
        server = Server(load_game("quasenbo", players=2), ["human", "random"], limits=limits)
        done, playing = server.open_table(), server.open_table()
        while not done.is_over():
            done.move(0, done.version, index=0)
        with pytest.raises(LookupError):
            server.open_table()
        now = time.monotonic()
        assert server.reap(now + 59) == []
        assert server.reap(now + 61) == [done.id]
        assert server.reap(now + 599) == []
        assert server.reap(now + 601) == [playing.id]
        assert server.open_table().id not in (done.id, playing.id)  # room again

    def test_a_new_table_is_dealt_off_the_event_loop(self, monkeypatch: pytest.MonkeyPatch) -> None:
        import threading

        from ruledsl import load_game
        from ruledsl.serve import app as served

        dealt = threading.Event()
        real = served.Table

        def slow_table(*args: Any) -> Any:
            dealt.wait(PATIENCE)  # a bot thinking over its first move
            return real(*args)

        monkeypatch.setattr(served, "Table", slow_table)

        async def scenario() -> str:
            server = served.Server(load_game("quasenbo", players=2), ["human", "random"])
            opening = asyncio.create_task(server.open_table_aside())
            await asyncio.sleep(0.01)  # the loop runs on while the table is dealt
            assert not opening.done()
            dealt.set()
            return (await opening).id

        assert asyncio.run(scenario())
