"""The client's bytes as pygls reads them, bounded: no header line or message body is held past a limit.

pygls reads a header line with ``readline()`` and then exactly the ``Content-Length`` it names
with ``read(n)``: a client that says ``Content-Length: 1000000000000``, or sends a line that
never ends, would have the server hold it all (and die). ``BoundedInput`` stands between
pygls and stdin: a longer header line is read to its end in pieces and dropped; a body
longer than ``MAX_MESSAGE_BYTES`` is not read at all, and pygls gets an empty object in its
place (which it logs as a message it cannot handle, and goes on). The bytes the client did
send of that body are then read as header lines and dropped until the next
``Content-Length`` line, where the reading is in step again.
"""

from __future__ import annotations

import logging
from typing import BinaryIO

#: The largest message body read: a rule file is at most 1 MB, and JSON may write each of its characters in 6 bytes.
MAX_MESSAGE_BYTES = 8_000_000
#: The longest header line kept (``Content-Length: ...`` and ``Content-Type: ...`` are short).
MAX_HEADER_LINE = 1024
_LENGTH = b"Content-Length:"
_DROPPED = b"X-Ruledsl-Dropped: a header line too long\r\n"  # a line pygls reads as a header it does not know

logger = logging.getLogger(__name__)


class BoundedInput:
    """The ``readline()`` and ``read(n)`` of a binary stream, each reading at most a bounded number of bytes."""

    def __init__(self, raw: BinaryIO, max_body: int = MAX_MESSAGE_BYTES, max_line: int = MAX_HEADER_LINE) -> None:
        self.raw = raw
        self.max_body = max_body
        self.max_line = max_line

    def readline(self) -> bytes:
        """A header line; a longer one is dropped (read to its end, a piece at a time)."""
        line = self.raw.readline(self.max_line)
        if len(line) >= self.max_line and not line.endswith(b"\n"):
            while True:
                more = self.raw.readline(self.max_line)
                if not more or more.endswith(b"\n"):
                    break
            logger.warning("dropped a header line of more than %d bytes", self.max_line)
            return _DROPPED
        at = line.find(_LENGTH)
        if at > 0:  # the end of a body that was not read, then the next message's header: in step again
            return line[at:]
        return line

    def read(self, n: int) -> bytes:
        """A message body of ``n`` bytes; one longer than the limit is left unread, an empty object in its place."""
        if n > self.max_body:
            logger.warning("refused a message of %d bytes (at most %d)", n, self.max_body)
            return b"{}"
        return self.raw.read(n)
