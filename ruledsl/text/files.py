"""Read a file a user names, which may be anything: only a regular file, and never more than a size cap."""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import BinaryIO

# Opening a FIFO for reading waits for a writer, and opening a terminal may make it ours: neither.
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0)

_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISFIFO, "a named pipe"),
    (stat.S_ISSOCK, "a socket"),
)


class NotRegularFileError(OSError):
    """The path names something other than a regular file (a device, a pipe, a folder), which is never read."""

    def __init__(self, kind: str) -> None:
        super().__init__(f"it is {kind}, not a regular file")
        self.kind = kind
        self.strerror = str(self)


class FileTooLargeError(OSError):
    """The file holds more bytes than the cap; ``size`` is how many (at least the cap and one)."""

    def __init__(self, size: int) -> None:
        super().__init__(f"{size:,} bytes")
        self.size = size


def read_regular_file(path: str | Path, limit: int) -> bytes:
    """Return the bytes of the regular file ``path`` (symlinks followed), at most ``limit`` of them.

    Raise NotRegularFileError for anything else (``/dev/zero`` would never end, a FIFO would
    wait for ever), FileTooLargeError past ``limit``, and OSError when it cannot be read.
    """
    _refuse_irregular(os.stat(path).st_mode)  # before opening: opening a device may itself do something
    fd = os.open(path, _OPEN_FLAGS)
    with os.fdopen(fd, "rb") as f:
        info = os.fstat(fd)
        _refuse_irregular(info.st_mode)  # the path may have been swapped since
        if info.st_size > limit:
            raise FileTooLargeError(info.st_size)
        data = read_at_most(f, limit + 1)
    if len(data) > limit:  # it grew while being read
        raise FileTooLargeError(len(data))
    return data


def read_at_most(stream: BinaryIO, limit: int) -> bytes:
    """Read from ``stream`` until its end or ``limit`` bytes, whichever comes first."""
    chunks = []
    left = limit
    while left > 0:
        chunk = stream.read(min(left, 1 << 16))
        if not chunk:
            break
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def _refuse_irregular(mode: int) -> None:
    if stat.S_ISREG(mode):
        return
    kind = next((name for test, name in _KINDS if test(mode)), "a special file")
    if kind == "a directory":
        raise IsADirectoryError(21, "it is a directory")
    raise NotRegularFileError(kind)
