"""`ruledsl serve --data DIR`: every table kept in SQLite, and back after a kill -9 where it was.

The store alone (open, append, reload), a write that fails in play (the game goes on in memory,
nothing half-kept), and a real server process killed with SIGKILL then restarted with the same
--data: the same links go on with the same game, whose record is the one an uninterrupted game
(same seed, same choices) makes.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path
from threading import current_thread, main_thread
from typing import Any

import pytest

from ruledsl.loading import load_game
from ruledsl.serve.journal import FILE, Journal
from ruledsl.serve.tables import Table
from tests.extras import require

SEATS = ["human", "random"]


def play_first_actions(table: Table, moves: int) -> None:
    """Play the human's first legal action ``moves`` times (the bot answers each), or to the end."""
    for _ in range(moves):
        if table.is_over():
            return
        seat = table.to_act()
        assert seat is not None
        table.move(seat, table.version, 0)


class TestStore:
    def test_a_table_is_kept_and_comes_back_where_it_was(self, tmp_path: Path) -> None:
        game = load_game("quasenbo", players=2)
        journal = Journal(tmp_path)
        table = Table(game, SEATS, journal=journal)
        play_first_actions(table, 5)
        journal.close()
        assert stat.S_IMODE((tmp_path / FILE).stat().st_mode) == 0o600
        [stored] = Journal(tmp_path).tables()
        assert (stored.id, stored.tokens, stored.spectator, stored.seed) == (
            table.id,
            table.tokens,
            table.spectator,
            table.seed,
        )
        again = Table(game, SEATS, journal=Journal(tmp_path), stored=stored)
        assert (again.version, again.games, again.actors) == (table.version, table.games, table.actors)
        assert again.record() == table.record()
        assert again.transcripts == table.transcripts
        play_first_actions(table, 1000)
        play_first_actions(again, 1000)
        assert json.dumps(again.record()) == json.dumps(table.record())

    def test_a_write_that_fails_keeps_nothing_of_it_and_the_game_goes_on(
        self, tmp_path: Path, caplog: pytest.LogCaptureFixture
    ) -> None:
        game = load_game("quasenbo", players=2)
        journal = Journal(tmp_path)
        table = Table(game, SEATS, journal=journal)
        kept = len(Journal(tmp_path).tables()[0].actions)
        journal.db = sqlite3.connect(f"file:{tmp_path / FILE}?mode=ro", uri=True, check_same_thread=False)
        play_first_actions(table, 3)
        assert len(table.actors) > kept  # the game went on in memory
        assert "could not be written" in caplog.text and table.id in caplog.text
        assert len(Journal(tmp_path).tables()[0].actions) == kept


def cli(*argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "ruledsl", *argv], capture_output=True, text=True, timeout=120, check=False
    )


def test_a_folder_that_cannot_be_written_is_a_clear_error(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    folder.chmod(0o555)
    where = "/proc/self" if os.geteuid() == 0 else str(folder)  # root writes anywhere but in /proc
    done = cli("serve", "quasenbo", "--data", where, "--port", "1")
    assert done.returncode == 65
    assert f"{where}:1:1: error[E005]: cannot keep the tables in '{where}': " in done.stderr
    assert "= hint: give --data a folder this user may write in" in done.stderr
    assert "Traceback" not in done.stderr


def play(link: str, moves: int) -> dict[str, Any]:
    """Play the first legal action ``moves`` times at a seat's link (or to the end), each time until the bots have
    answered (his turn again); return the last view."""
    from tests.serve.test_limits import page, receive

    with page(link) as ws:
        view = receive(ws)
        for _ in range(moves):
            if view["over"]:
                break
            ws.send(json.dumps({"type": "move", "version": view["version"], "index": 0}))
            while (new := receive(ws))["type"] != "view" or not (
                new["version"] > view["version"] and (new["actions"] or new["over"])
            ):
                pass
            view = new
        return view


class TestKill:
    def test_a_server_killed_comes_back_with_the_same_links_and_game(self, tmp_path: Path) -> None:
        require("uvicorn", "serve")
        require("websockets", "serve")
        from ruledsl.serve.background import ServeProcess

        argv = ["quasenbo", "--seats", ",".join(SEATS), "--data", str(tmp_path / "data"), "--log", str(tmp_path)]
        with ServeProcess(*argv) as server:
            links, base = server.tables[0], server.base
            before = play(links["P0"], 4)
            server.child.send_signal(signal.SIGKILL)
            server.child.wait(timeout=60)
            assert server.child.stdout is not None
            server.child.stdout.close()
        with ServeProcess(*argv) as server:  # on another port: the links' paths are the secrets
            assert server.tables == [{who: link.replace(base, server.base) for who, link in links.items()}]
            link = links["P0"].replace(base, server.base)
            assert play(link, 0)["version"] == before["version"]
            end = play(link, 1000)
        assert end["over"]
        table_id = links["P0"].split("/t/")[1].split("/")[0]
        [line] = (tmp_path / f"table-{table_id}.jsonl").read_text(encoding="utf-8").splitlines()
        record = json.loads(line)
        assert record["seed"] == end["seed"]
        (tmp_path / "once").mkdir()
        uninterrupted = Table(load_game("quasenbo", players=2), SEATS, tmp_path / "once", seed=end["seed"])
        play_first_actions(uninterrupted, 1000)
        assert (tmp_path / "once" / f"table-{uninterrupted.id}.jsonl").read_text(encoding="utf-8") == line + "\n"


def test_a_table_the_reaper_closed_is_kept_closed_and_reopened_by_its_link(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Reopened in the dealer's thread (its bots' decisions are made again: seconds, for greedy ones), not on the
    event loop, which answers the other tables meanwhile."""
    require("starlette", "serve")
    from ruledsl.serve.app import Server

    game = load_game("quasenbo", players=2)
    server = Server(game, SEATS, journal=Journal(tmp_path))
    table = server.open_table()
    play_first_actions(table, 3)
    token = table.tokens[0]
    assert token is not None
    assert server.reap(now=1e12) == [table.id]
    restarted = Server(game, SEATS, journal=Journal(tmp_path))
    assert restarted.restore() == 0  # kept closed: not dealt again until its link is visited
    threads = []
    restore = Table._restore
    monkeypatch.setattr(
        Table, "_restore", lambda self, stored: (threads.append(current_thread()), restore(self, stored))
    )
    with pytest.raises(KeyError):
        restarted.find(table.id, token)  # not open until reopened

    async def visit() -> None:
        await asyncio.gather(restarted.reopen(table.id), restarted.reopen(table.id))  # two pages, one reopening

    asyncio.run(visit())
    assert len(threads) == 1 and threads[0] is not main_thread()
    again, seat = restarted.find(table.id, token)
    assert (seat, again.version, again.actors) == (0, table.version, table.actors)
    assert not Journal(tmp_path).tables()[0].closed


class TestRematch:
    """The votes for a rematch are kept: a server restarted counts the votes cast before, and deals the new game once
    the last human asks (or at once, if the server died between the last vote and the deal)."""

    HUMANS = ["human", "human"]

    def finished(self, tmp_path: Path) -> tuple[Table, Journal]:
        game = load_game("quasenbo", players=2)
        journal = Journal(tmp_path)
        table = Table(game, self.HUMANS, journal=journal, seed=3)
        play_first_actions(table, 1000)
        assert table.is_over()
        return table, journal

    def restarted(self, tmp_path: Path) -> Table:
        require("starlette", "serve")
        from ruledsl.serve.app import Server

        server = Server(load_game("quasenbo", players=2), self.HUMANS, journal=Journal(tmp_path))
        assert server.restore() == 1
        [table] = server.tables.values()
        return table

    def test_a_vote_cast_before_a_restart_is_still_counted(self, tmp_path: Path) -> None:
        from ruledsl.serve.frames import view_frame

        table, journal = self.finished(tmp_path)
        table.rematch(0)
        journal.close()
        again = self.restarted(tmp_path)
        assert again.rematch_asked == {0}
        assert view_frame(again, 1)["rematch"] == [0]  # the banner says whom it waits for
        again.rematch(1)
        assert again.games == 2 and not again.is_over()
        assert self.restarted(tmp_path).games == 2  # the new game kept, with no votes yet
        assert self.restarted(tmp_path).rematch_asked == set()

    def test_a_server_dead_between_the_last_vote_and_the_deal_deals_when_restarted(self, tmp_path: Path) -> None:
        table, journal = self.finished(tmp_path)
        table.rematch(0)
        journal.asked(table.id, table.games, 1)  # kept, then the server died before dealing
        journal.close()
        again = self.restarted(tmp_path)
        assert again.games == 2 and not again.is_over() and again.rematch_asked == set()


class TestRuleFileGone:
    """A server restarted with --data when the rule file its tables were played with is gone: the store keeps the
    rules' text (and their hash, checked as ever), and the tables reopen from it; a file the store never read is
    a clear error that names those it did."""

    def test_the_tables_reopen_from_the_kept_text(self, tmp_path: Path) -> None:
        require("uvicorn", "serve")
        require("websockets", "serve")
        from ruledsl.serve.background import ServeProcess

        rules = tmp_path / "rules" / "mine.game"
        rules.parent.mkdir()
        rules.write_text(load_game("quasenbo").source.text, encoding="utf-8")
        argv = [str(rules), "--seats", ",".join(SEATS), "--data", str(tmp_path / "data")]
        with ServeProcess(*argv) as server:
            links, base = server.tables[0], server.base
            before = play(links["P0"], 3)
        rules.unlink()
        with ServeProcess(*argv) as server:
            assert server.tables == [{who: link.replace(base, server.base) for who, link in links.items()}]
            link = links["P0"].replace(base, server.base)
            assert play(link, 0)["version"] == before["version"]
            assert play(link, 1000)["over"]
            said = server.stderr()
        assert f"'{rules}' is gone: serving the rules" in said and "Traceback" not in said

    def test_a_rule_file_the_store_never_read_is_a_clear_error(self, tmp_path: Path) -> None:
        rules = tmp_path / "mine.game"
        rules.write_text(load_game("quasenbo").source.text, encoding="utf-8")
        Table(load_game(rules, players=2), SEATS, journal=Journal(tmp_path / "data")).journal.close()  # type: ignore[union-attr]
        gone = tmp_path / "other.game"
        done = cli("serve", str(gone), "--data", str(tmp_path / "data"), "--port", "1")
        assert done.returncode == 65, done.stderr
        assert f"error[E001]: cannot read '{gone}': no such file" in done.stderr
        assert f"= hint: the tables kept in '{tmp_path / 'data'}' were played with '{rules}'" in done.stderr
        assert "Traceback" not in done.stderr


class TestOptionsAndPlayers:
    """Each table is kept with the options it was dealt under (its player count is its seats'): a server restarted
    with other --option values or another --players reopens it under its own, whatever the flags say now; its new
    tables are dealt under the flags. A store kept before the options were (no row of them) reopens its tables under
    the flags, as it did; a table whose options cannot be had again is left in the store, with a clear warning."""

    OPTIONS = {"excuse": "yes", "pawns": "yes", "hand_size": "5"}

    def server(self, tmp_path: Path, game: Any, seats: list[str]) -> Any:
        require("starlette", "serve")
        from ruledsl.serve.app import Server

        return Server(game, seats, journal=Journal(tmp_path))

    def played(self, tmp_path: Path) -> Table:
        """A table dealt under OPTIONS (seed 1: its moves do not fit the game under the default options)."""
        game = load_game("quasenbo", players=2, options=self.OPTIONS, max_actions=50)
        dealt = Table(game, SEATS, journal=Journal(tmp_path), seed=1)
        play_first_actions(dealt, 3)
        dealt.journal.close()  # type: ignore[union-attr]
        return dealt

    def test_a_restart_with_other_options_reopens_the_table_under_its_own(self, tmp_path: Path) -> None:
        dealt = self.played(tmp_path)
        now = load_game("quasenbo", players=2, options={"hand_size": "9"})
        server = self.server(tmp_path, now, SEATS)
        assert server.restore() == 1
        again = server.tables[dealt.id]
        assert again.game.options == dealt.game.options != now.options
        assert again.game.max_actions == 50 != now.max_actions
        assert json.dumps(again.record()) == json.dumps(dealt.record())
        assert again.transcripts == dealt.transcripts
        assert server.open_table().game.options == now.options  # a new table: the flags'

    def test_a_restart_with_other_players_reopens_the_table_with_its_own_seats(self, tmp_path: Path) -> None:
        dealt = self.played(tmp_path)
        server = self.server(tmp_path, load_game("quasenbo", players=3), ["human", "random", "random"])
        assert server.restore() == 1
        again = server.tables[dealt.id]
        assert (again.seats, again.game.players, again.game.options) == (SEATS, 2, dealt.game.options)
        assert json.dumps(again.record()) == json.dumps(dealt.record())
        assert server.open_table().game.players == 3

    def test_a_closed_table_reopens_under_its_own_options_when_its_link_is_visited(self, tmp_path: Path) -> None:
        dealt = self.played(tmp_path)
        self.server(tmp_path, dealt.game, SEATS).journal.closed(dealt.id)
        server = self.server(tmp_path, load_game("quasenbo", players=3), ["human", "random", "random"])
        assert server.restore() == 0
        asyncio.run(server.reopen(dealt.id))
        again = server.tables[dealt.id]
        assert (again.seats, again.game.options) == (SEATS, dealt.game.options)
        assert json.dumps(again.record()) == json.dumps(dealt.record())

    def test_a_store_kept_without_options_reopens_under_the_flags(
        self, tmp_path: Path, caplog: pytest.LogCaptureFixture
    ) -> None:
        dealt = self.played(tmp_path)
        with sqlite3.connect(tmp_path / FILE) as db:
            db.execute("DROP TABLE options")  # as a store kept before they were
        now = load_game("quasenbo", players=2, options=self.OPTIONS, max_actions=50)
        server = self.server(tmp_path, now, SEATS)
        assert server.restore() == 1
        assert server.tables[dealt.id].game is now
        assert json.dumps(server.tables[dealt.id].record()) == json.dumps(dealt.record())
        assert self.server(tmp_path, load_game("quasenbo", players=3), ["human"] * 3).restore() == 0  # other seats
        assert "other rules or seats: not reopened" in caplog.text
        # Under other flags its moves do not fit the game (the first is another seat's): a warning, no traceback.
        assert self.server(tmp_path, load_game("quasenbo", players=2), SEATS).restore() == 0
        assert f"table {dealt.id} cannot be reopened: its move " in caplog.text
        Journal(tmp_path).closed(dealt.id)  # the same, closed: when its link is visited
        server = self.server(tmp_path, load_game("quasenbo", players=2), SEATS)
        assert server.restore() == 0
        caplog.clear()
        asyncio.run(server.reopen(dealt.id))
        assert dealt.id not in server.tables and f"table {dealt.id} cannot be reopened" in caplog.text

    def test_a_table_whose_options_cannot_be_had_again_is_left_with_a_clear_warning(
        self, tmp_path: Path, caplog: pytest.LogCaptureFixture
    ) -> None:
        dealt = self.played(tmp_path)
        with sqlite3.connect(tmp_path / FILE) as db:
            db.execute("UPDATE options SET options = ?", (json.dumps({"jokers": True}),))
        server = self.server(tmp_path, dealt.game, SEATS)
        assert server.restore() == 0
        assert f"table {dealt.id} cannot be reopened: 'Quäsenbö' has no option 'jokers'" in caplog.text
        assert "left in the store" in caplog.text


def test_a_server_restarted_with_other_flags_serves_each_kept_table_as_it_was_dealt(tmp_path: Path) -> None:
    """The command line: kept under --option excuse=yes (and --max-actions) for 2 players, restarted with neither
    for 3; the table kept goes on under its own (said beside its links) to the record an uninterrupted game makes,
    a new one under the flags."""
    require("uvicorn", "serve")
    require("websockets", "serve")
    from ruledsl.serve.background import ServeProcess

    data = ["--data", str(tmp_path / "data"), "--log", str(tmp_path)]
    kept = ["--seats", ",".join(SEATS), "--option", "excuse=yes", "--max-actions", "500"]
    with ServeProcess("quasenbo", *kept, *data) as server:
        links, base = server.tables[0], server.base
        before = play(links["P0"], 3)
    table_id = links["P0"].split("/t/")[1].split("/")[0]
    with ServeProcess("quasenbo", "--seats", "human,random,random", "--tables", "2", *data) as server:
        assert f"table {table_id} (as it was dealt: human, random; excuse=yes; at most 500 actions):" in server.printed
        assert server.tables[0] == {who: link.replace(base, server.base) for who, link in links.items()}
        assert len(server.tables[1]) == 2  # a new table: P0 (the one human of three seats) and the spectators
        link = links["P0"].replace(base, server.base)
        assert play(link, 0)["version"] == before["version"]
        end = play(link, 1000)
        assert "Traceback" not in server.stderr()
    [line] = (tmp_path / f"table-{table_id}.jsonl").read_text(encoding="utf-8").splitlines()
    assert json.loads(line)["options"]["excuse"] is True
    (tmp_path / "once").mkdir()
    game = load_game("quasenbo", players=2, options={"excuse": "yes"}, max_actions=500)
    uninterrupted = Table(game, SEATS, tmp_path / "once", seed=end["seed"])
    play_first_actions(uninterrupted, 1000)
    assert (tmp_path / "once" / f"table-{uninterrupted.id}.jsonl").read_text(encoding="utf-8") == line + "\n"
