"""A server of tables run in a thread on a free loopback port: for the tests, the screenshots and the load benchmark."""

from __future__ import annotations

import asyncio
import socket
import threading
import time
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

        self.app = app
        self.socket = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.socket.bind(("127.0.0.1", 0))
        self.port = self.socket.getsockname()[1]
        self.base = f"http://127.0.0.1:{self.port}"
        config = uvicorn.Config(app, log_level="warning", ws_max_size=1 << 16, lifespan="off")
        self.server = uvicorn.Server(config)
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
