"""The store of ``ruledsl serve --data DIR``: every table kept in a SQLite file, so that a server killed comes back.

What is kept: the rule text and its hash (and the rule file it was last read from: a file gone since is
served from the text kept), and per table its id, seats (their count is its players'), the options (and bound
on actions) it was dealt under (a table reopens under its own, whatever the restart's flags), secret links, and each
game dealt there (its seed and version) with every action played in it (the index of the action
among the legal ones: the engine is deterministic, so the actions replayed from the seed give the
same game), and the seats that asked for a rematch once it was over. Each deal, each action and each
vote is one transaction, committed before it is answered.
The file holds every hidden card and every secret link: it is created readable by its owner only.
"""

from __future__ import annotations

import json
import logging
import os
import sqlite3
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ruledsl.text.errors import Diagnostic, SourceError
from ruledsl.text.source import Source

FILE = "ruledsl-tables.sqlite3"

_log = logging.getLogger("ruledsl.serve")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS rules (hash TEXT PRIMARY KEY, text TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS files (path TEXT PRIMARY KEY, rules TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY, rules TEXT NOT NULL, seats TEXT NOT NULL, tokens TEXT NOT NULL,
    spectator TEXT NOT NULL, closed INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS games (
    table_id TEXT NOT NULL, game INTEGER NOT NULL, seed TEXT NOT NULL, version INTEGER NOT NULL,
    PRIMARY KEY (table_id, game));
CREATE TABLE IF NOT EXISTS actions (
    table_id TEXT NOT NULL, game INTEGER NOT NULL, n INTEGER NOT NULL, seat INTEGER NOT NULL,
    action INTEGER NOT NULL, PRIMARY KEY (table_id, game, n));
CREATE TABLE IF NOT EXISTS rematch (
    table_id TEXT NOT NULL, game INTEGER NOT NULL, seat INTEGER NOT NULL, PRIMARY KEY (table_id, game, seat));
CREATE TABLE IF NOT EXISTS options (table_id TEXT PRIMARY KEY, options TEXT NOT NULL, max_actions INTEGER NOT NULL);
"""


#: The hint of E005: what to do about a folder the store cannot be kept in.
HINT = "give --data a folder this user may write in, on a disk with room; or leave --data out to keep tables in memory"


class StoreError(SourceError):
    """E005: the store cannot be opened or written (a read-only folder, a full disk, a file that is not a store)."""

    def __init__(self, folder: str, reason: str) -> None:
        message = f"cannot keep the tables in '{folder}': {reason}"
        super().__init__([Diagnostic("E005", message, None, HINT, source=Source(folder, ""))])


@dataclass
class Stored:
    """One table as the store holds it: enough to deal its last game again and replay it."""

    id: str
    rules: str
    seats: list[str]
    tokens: list[str | None]
    spectator: str
    closed: bool
    game: int = 0
    seed: int = 0
    version: int = 0
    actions: list[tuple[int, int]] = field(default_factory=list)  # (seat, index among the legal actions)
    rematch: set[int] = field(default_factory=set)  # the seats that asked for a rematch once it was over
    options: dict[str, Any] | None = None  # the options it was dealt under (None: kept before they were)
    max_actions: int = 0  # the bound on actions it was dealt under (with its options)


class Journal:
    """The SQLite store in ``folder`` (created if need be); StoreError if it cannot be opened and written."""

    def __init__(self, folder: str | Path) -> None:
        self.path = Path(folder) / FILE
        self.lock = threading.Lock()
        self.lost: set[str] = set()  # tables a write failed for: no longer kept (a gap would replay wrong)
        if Path(folder).exists() and not Path(folder).is_dir():
            raise StoreError(str(folder), "not a folder")
        try:
            Path(folder).mkdir(parents=True, exist_ok=True)
            fresh = not self.path.exists()
            if fresh:
                os.close(os.open(self.path, os.O_CREAT | os.O_WRONLY, 0o600))
            self.db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=FULL")
            self._schema()
            self.db.execute("BEGIN IMMEDIATE")  # a read-only file or folder fails here, not at the first move
            self.db.execute("ROLLBACK")
        except OSError as exc:
            raise StoreError(str(folder), exc.strerror or str(exc)) from None
        except sqlite3.Error as exc:
            raise StoreError(str(folder), f"{FILE}: {exc}") from None

    def _schema(self) -> None:
        for statement in filter(str.strip, _SCHEMA.split(";")):
            self.db.execute(statement)

    def _write(self, table_id: str, statements: list[tuple[str, tuple[object, ...]]]) -> bool:
        """Run ``statements`` in one transaction; on failure log it, keep nothing of it, and stop keeping the table."""
        if table_id in self.lost:
            return False
        with self.lock:
            try:
                self.db.execute("BEGIN IMMEDIATE")
                for sql, values in statements:
                    self.db.execute(sql, values)
                self.db.execute("COMMIT")
                return True
            except (OSError, sqlite3.Error) as exc:
                try:
                    self.db.execute("ROLLBACK")
                except sqlite3.Error:
                    pass
                self.lost.add(table_id)
                _log.error(
                    "the store %s could not be written (%s): table %s goes on in memory only", self.path, exc, table_id
                )
                return False

    def opened(
        self,
        table_id: str,
        rules: tuple[str, str, str | None],
        seats: list[str],
        tokens: list[str | None],
        spectator: str,
        options: dict[str, Any],
        max_actions: int,
    ) -> None:
        """Keep a new table with the options and bound on actions it is dealt under (and its rules' text, once per
        hash, with the rule file it was read from if any)."""
        digest, text, path = rules
        self._write(
            table_id,
            [
                ("INSERT OR IGNORE INTO rules VALUES (?, ?)", (digest, text)),
                *([("INSERT OR REPLACE INTO files VALUES (?, ?)", (path, digest))] if path is not None else []),
                (
                    "INSERT INTO tables VALUES (?, ?, ?, ?, ?, 0)",
                    (table_id, digest, json.dumps(seats), json.dumps(tokens), spectator),
                ),
                ("INSERT INTO options VALUES (?, ?, ?)", (table_id, json.dumps(options, sort_keys=True), max_actions)),
            ],
        )

    def dealt(self, table_id: str, game: int, seed: int, version: int) -> None:
        """Keep a game dealt at a table: its number there, its seed, the table's version once dealt."""
        self._write(table_id, [("INSERT INTO games VALUES (?, ?, ?, ?)", (table_id, game, str(seed), version))])

    def acted(self, table_id: str, game: int, n: int, seat: int, index: int) -> None:
        """Keep the ``n``-th action of a game (``index``: its place among the legal actions then)."""
        self._write(table_id, [("INSERT INTO actions VALUES (?, ?, ?, ?, ?)", (table_id, game, n, seat, index))])

    def asked(self, table_id: str, game: int, seat: int) -> None:
        """Keep the vote of ``seat`` for a rematch of a table's ``game``, over."""
        self._write(table_id, [("INSERT OR IGNORE INTO rematch VALUES (?, ?, ?)", (table_id, game, seat))])

    def closed(self, table_id: str, closed: bool = True) -> None:
        """Mark a table closed (by the idle reaper) or open again."""
        self._write(table_id, [("UPDATE tables SET closed = ? WHERE id = ?", (int(closed), table_id))])

    def rules_text(self, digest: str) -> str | None:
        with self.lock:
            row = self.db.execute("SELECT text FROM rules WHERE hash = ?", (digest,)).fetchone()
        return None if row is None else str(row[0])

    def rules_read_from(self, path: str) -> str | None:
        """The text of the rules last read from the rule file ``path`` (an absolute path), if the store keeps them."""
        with self.lock:
            row = self.db.execute(
                "SELECT text FROM files JOIN rules ON files.rules = rules.hash WHERE files.path = ?", (path,)
            ).fetchone()
        return None if row is None else str(row[0])

    def files(self) -> list[str]:
        """The rule files the tables kept were read from."""
        with self.lock:
            return [str(path) for (path,) in self.db.execute("SELECT path FROM files ORDER BY path")]

    def tables(self) -> list[Stored]:
        """Every table kept, each with its options, its last game, that game's actions and votes for a rematch, in the
        order they were opened."""
        with self.lock:
            rows = self.db.execute(
                "SELECT id, rules, seats, tokens, spectator, closed, options.options, options.max_actions FROM tables"
                " LEFT JOIN options ON options.table_id = tables.id ORDER BY tables.rowid"
            ).fetchall()
            stored = []
            for table_id, digest, seats, tokens, spectator, closed, options, max_actions in rows:
                table = Stored(table_id, digest, json.loads(seats), json.loads(tokens), spectator, bool(closed))
                table.options = None if options is None else json.loads(options)
                table.max_actions = max_actions or 0
                last = self.db.execute(
                    "SELECT game, seed, version FROM games WHERE table_id = ? ORDER BY game DESC LIMIT 1", (table_id,)
                ).fetchone()
                if last is None:
                    continue
                table.game, table.seed, table.version = last[0], int(last[1]), last[2]
                table.actions = [
                    (seat, index)
                    for seat, index in self.db.execute(
                        "SELECT seat, action FROM actions WHERE table_id = ? AND game = ? ORDER BY n",
                        (table_id, table.game),
                    )
                ]
                table.rematch = {
                    seat
                    for (seat,) in self.db.execute(
                        "SELECT seat FROM rematch WHERE table_id = ? AND game = ?", (table_id, table.game)
                    )
                }
                stored.append(table)
        return stored

    def close(self) -> None:
        with self.lock:
            self.db.close()
