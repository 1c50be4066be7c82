"""A server of tables on a free loopback port, in a thread or in a process of its own: for the tests, the screenshots
and the load benchmark."""

from __future__ import annotations

import asyncio
import os
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from starlette.applications import Starlette


class BackgroundServer:
    """Serve ``app`` with uvicorn in a daemon thread on 127.0.0.1, for as long as the ``with`` block lasts.

    ``base`` is its address (``http://127.0.0.1:PORT``), the port one the system chose free.
    """

    def __init__(self, app: Starlette) -> None:
        import uvicorn

        from ruledsl.serve.transport import uvicorn_config

        self.app = app
        self.socket = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.socket.bind(("127.0.0.1", 0))
        self.port = self.socket.getsockname()[1]
        self.base = f"http://127.0.0.1:{self.port}"
        self.server = uvicorn.Server(uvicorn_config(app))
        self.thread = threading.Thread(target=self._serve, name="ruledsl-serve", daemon=True)

    def _serve(self) -> None:
        asyncio.run(self.server.serve(sockets=[self.socket]))

    def __enter__(self) -> BackgroundServer:
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the server did not start")
            time.sleep(0.01)
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=30)
        self.socket.close()


class ServeProcess:
    """``ruledsl serve ARGV...`` in a process of its own on a free loopback port, for as long as the ``with`` block
    lasts: the command a user runs, for the tests and the load benchmark that need a real server.

    ``base`` is its address, ``tables`` each table's links as printed (``{"P0": url, ..., "spectators": url}``),
    ``pid`` the server's process (to read its memory), ``printed`` the lines it printed before the lobby's.
    """

    def __init__(self, *argv: str) -> None:
        import ruledsl

        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.base = f"http://127.0.0.1:{self.port}"
        self.argv = ["serve", *argv, "--port", str(self.port)]
        self.root = Path(ruledsl.__file__).resolve().parents[1]  # so that the child imports this ruledsl
        self.tables: list[dict[str, str]] = []
        self.printed: list[str] = []
        self.log = tempfile.TemporaryFile("w+", encoding="utf-8")

    def __enter__(self) -> ServeProcess:
        script = f"import sys\nfrom ruledsl.cli import main\nsys.exit(main({self.argv!r}))"
        self.child = subprocess.Popen(
            [sys.executable, "-c", script],
            cwd=self.root,
            stdout=subprocess.PIPE,
            stderr=self.log,  # a file, not a pipe: a server that logs much must not block on a pipe nobody reads
            text=True,
            env={
                **os.environ,
                "PYTHONPATH": os.pathsep.join(filter(None, [str(self.root), os.environ.get("PYTHONPATH")])),
            },
        )
        self.pid = self.child.pid
        assert self.child.stdout is not None
        while not (line := self.child.stdout.readline()).startswith("lobby"):
            self.printed.append(line.rstrip("\n"))
            if not line:
                self.child.wait(timeout=30)
                raise RuntimeError(f"the server did not start: {self.stderr()}")
            if line.startswith("table "):
                self.tables.append({})
            elif self.tables and ": " in line:
                who, url = line.strip().split(": ", 1)
                self.tables[-1][who] = url
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        if self.child.poll() is None:
            self.child.send_signal(signal.SIGINT)
            try:
                self.child.communicate(timeout=30)
            except subprocess.TimeoutExpired:
                self.child.kill()
                self.child.communicate()
        self.log.close()

    def stderr(self) -> str:
        """What the server has written on its standard error so far."""
        self.log.flush()
        self.log.seek(0)
        return self.log.read()

    def alive(self) -> bool:
        """Whether the server is still running."""
        return self.child.poll() is None
