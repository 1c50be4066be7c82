"""A progress line on stderr while games are played or a bot thinks."""

from __future__ import annotations

import sys
import time


class Progress:
    """A progress line on stderr, drawn only when stderr is a terminal (never into a file or pipe).

    ``count(done, total)`` draws a bar of games (at most ten times a second), ``say(text)``
    a line of text; ``close()`` erases whatever was drawn. Used as a context manager, it
    erases on the way out, exceptions included.
    """

    def __init__(self, label: str = "") -> None:
        self.enabled = sys.stderr.isatty()
        self.label = label
        self.done = 0
        self.width = 0
        self.last = 0.0

    def count(self, done: int, total: int) -> None:
        self.done = done
        now = time.perf_counter()
        if self.enabled and (now - self.last > 0.1 or done == total):
            self.last = now
            filled = int(30 * done / total) if total else 30
            self.say(f"[{'#' * filled}{'.' * (30 - filled)}] {done:,}/{total:,} games")

    def add(self, k: int, total: int) -> None:
        self.count(self.done + k, total)

    def say(self, text: str) -> None:
        if self.enabled:
            line = f"{self.label}: {text}" if self.label else text
            sys.stderr.write("\r" + line.ljust(self.width))
            sys.stderr.flush()
            self.width = max(self.width, len(line))

    def close(self) -> None:
        if self.enabled and self.width:
            sys.stderr.write("\r" + " " * self.width + "\r")
            sys.stderr.flush()
            self.width = 0

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
