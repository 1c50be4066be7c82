"""The protocol of `ruledsl serve`, over Starlette's TestClient: tokens, bad messages, stale moves, reconnection."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.extras import require

require("starlette", "serve")
require("httpx2", "test")

from starlette.testclient import TestClient, WebSocketDenialResponse  # noqa: E402

from ruledsl import load_game  # noqa: E402
from ruledsl.serve.app import MAX_MESSAGE, create_app  # noqa: E402
from ruledsl.serve.tables import Table  # noqa: E402


def open_app(seats: list[str], log_dir: Path | None = None, game: str = "quasenbo") -> tuple[TestClient, Table]:
    app = create_app(load_game(game, players=len(seats)), seats, log_dir=log_dir)
    table = next(iter(app.state.server.tables.values()))
    return TestClient(app), table


@pytest.fixture
def one_human() -> Iterator[tuple[TestClient, Table]]:
    client, table = open_app(["human", "random"])
    with client:
        yield client, table


def settled(ws: object, view: dict[str, object]) -> dict[str, object]:
    """The frames that follow ``view`` until no bot is to move (bots move one at a time, each shown)."""
    humans = view["humans"]
    while not view["over"] and view.get("current") not in humans:  # type: ignore[operator]
        view = ws.receive_json()  # type: ignore[attr-defined]
    return view


def socket_path(table: Table, seat: int) -> str:
    token = table.tokens[seat]
    assert token is not None
    return f"/t/{table.id}/{token}/ws"


class TestLinks:
    def test_the_lobby_opens_tables_whose_links_lead_to_their_seats(self, one_human: tuple[TestClient, Table]) -> None:
        client, table = one_human
        assert "Open a new table" in client.get("/").text
        page = client.post("/new")
        assert page.status_code == 200
        server = client.app.state.server  # type: ignore[attr-defined]
        new = [t for t in server.tables.values() if t is not table]
        assert len(new) == 1
        for _, url in new[0].links("http://testserver"):
            assert url in page.text
            assert client.get(url).status_code == 200
        assert table.spectator not in page.text  # the other table's links are not shown

    def test_a_table_page_checks_its_token(self, one_human: tuple[TestClient, Table]) -> None:
        client, table = one_human
        good = client.get(f"/t/{table.id}/{table.tokens[0]}")
        assert good.status_code == 200 and good.headers["referrer-policy"] == "no-referrer"
        assert client.get(f"/t/{table.id}/{table.spectator}").status_code == 200
        assert client.get(f"/t/{table.id}/forged-token").status_code == 403
        assert client.get(f"/t/{table.id}/{table.tokens[0]}x").status_code == 403
        assert client.get(f"/t/no-such-table/{table.tokens[0]}").status_code == 404

    def test_a_socket_checks_its_token(self, one_human: tuple[TestClient, Table]) -> None:
        client, table = one_human
        with pytest.raises(WebSocketDenialResponse) as forged:
            with client.websocket_connect(f"/t/{table.id}/forged-token/ws"):
                pass
        assert forged.value.status_code == 403
        with pytest.raises(WebSocketDenialResponse) as unknown:
            with client.websocket_connect(f"/t/nope/{table.tokens[0]}/ws"):
                pass
        assert unknown.value.status_code == 404

    def test_a_bot_seat_has_no_link(self, one_human: tuple[TestClient, Table]) -> None:
        _, table = one_human
        assert table.tokens[1] is None
        assert [who for who, _ in table.links("")] == ["P0", "spectators"]


BAD_MESSAGES = [
    "not json",
    "[1, 2]",
    '{"type": "cheat"}',
    '{"type": "move", "index": 0}',
    '{"type": "move", "version": true, "index": 0}',
    '{"type": "move", "version": 1, "index": 0, "text": "draw"}',
    '{"type": "move", "version": 1, "index": -1}',
    '{"type": "move", "version": 1, "index": "0"}',
    '{"type": "move", "version": 1, "text": ""}',
    '{"type": "move", "version": 1, "text": 5}',
    '{"type": "move", "version": 1, "index": 0, "seat": 1}',
    '{"type": "rematch", "seed": 1}',
    json.dumps({"type": "move", "version": 1, "text": "x" * (MAX_MESSAGE + 10)}),
]


class TestMessages:
    @pytest.mark.parametrize("raw", BAD_MESSAGES)
    def test_a_bad_message_gets_an_error_and_changes_nothing(
        self, one_human: tuple[TestClient, Table], raw: str
    ) -> None:
        client, table = one_human
        with client.websocket_connect(socket_path(table, 0)) as ws:
            before = ws.receive_json()
            ws.send_text(raw)
            error = ws.receive_json()
            assert error["type"] == "error" and error["message"]
            ws.send_json({"type": "view"})
            assert ws.receive_json() == before

    def test_bytes_too_many_are_refused(self, one_human: tuple[TestClient, Table]) -> None:
        client, table = one_human
        with client.websocket_connect(socket_path(table, 0)) as ws:
            before = ws.receive_json()
            ws.send_bytes(b"{" * (MAX_MESSAGE + 1))
            assert "at most" in ws.receive_json()["message"]
            ws.send_bytes(b'{"type": "view"}')
            assert ws.receive_json() == before

    def test_a_move_by_its_place_plays_it_and_the_bots_answer(self, one_human: tuple[TestClient, Table]) -> None:
        client, table = one_human
        with client.websocket_connect(socket_path(table, 0)) as ws:
            view = ws.receive_json()
            assert view["current"] == 0 and view["actions"]
            label = view["actions"][0]["label"]
            ws.send_json({"type": "move", "version": view["version"], "index": 0})
            after = ws.receive_json()
            assert after["version"] > view["version"]
            assert f"P0: {label}" in after["transcript"] or f"P0: {label.split(' (')[0]}" in after["transcript"]
            after = settled(ws, after)
            assert after["over"] or after["current"] == 0  # the bot has played its turn

    def test_the_pages_see_the_bot_to_move_before_its_move(self) -> None:
        """Bots answer one move at a time, each seen by every page first: a page can say who is thinking."""
        client, table = open_app(["human", "random", "random"], game="crazy_eights")
        table.deal(2028)  # a deal whose first action passes the turn to P1
        with client, client.websocket_connect(socket_path(table, 0)) as ws:
            view = settled(ws, ws.receive_json())
            ws.send_json({"type": "move", "version": view["version"], "index": 0})
            seen = [ws.receive_json()]
            while not (seen[-1]["over"] or seen[-1]["current"] == 0):
                seen.append(ws.receive_json())
            assert [f["current"] for f in seen] == [1, 2, 0]
            assert len({f["version"] for f in seen}) == 3

    def test_a_stale_move_is_refused(self, one_human: tuple[TestClient, Table]) -> None:
        client, table = one_human
        with client.websocket_connect(socket_path(table, 0)) as ws:
            view = ws.receive_json()
            ws.send_json({"type": "move", "version": view["version"] - 1, "index": 0})
            error = ws.receive_json()
            assert error["type"] == "error" and "moved on" in error["message"]
            assert table.version_of(0) == view["version"]

    def test_a_typed_move_that_is_refused_says_why(self, one_human: tuple[TestClient, Table]) -> None:
        client, table = one_human
        with client.websocket_connect(socket_path(table, 0)) as ws:
            view = ws.receive_json()
            ws.send_json({"type": "move", "version": view["version"], "text": "play the Bogus"})
            error = ws.receive_json()
            assert error["message"] == "'play the Bogus' is not one of your actions now: no card is called 'the Bogus'"
            assert table.version_of(0) == view["version"]

    def test_a_typed_move_that_names_a_legal_action_is_played(self, one_human: tuple[TestClient, Table]) -> None:
        client, table = one_human
        with client.websocket_connect(socket_path(table, 0)) as ws:
            view = ws.receive_json()
            assert table.state is not None
            text = str(table.state.legal_actions()[-1])
            ws.send_json({"type": "move", "version": view["version"], "text": text.upper()})
            after = ws.receive_json()
            assert after["type"] == "view" and f"P0: {text}" in after["transcript"]

    def test_out_of_turn_and_spectators_move_nothing(self) -> None:
        client, table = open_app(["human", "human"])
        with client, client.websocket_connect(socket_path(table, 1)) as one:
            with client.websocket_connect(f"/t/{table.id}/{table.spectator}/ws") as spectator:
                view = one.receive_json()
                assert view["current"] == 0 and view["actions"] == []
                one.send_json({"type": "move", "version": view["version"], "index": 0})
                assert one.receive_json()["message"] == "you have no move to make now"
                seen = spectator.receive_json()
                assert seen["seat"] is None and seen["actions"] == []
                spectator.send_json({"type": "move", "version": seen["version"], "index": 0})
                assert "spectators" in spectator.receive_json()["message"]
                assert table.version_of(1) == view["version"]

    def test_every_connection_of_the_table_sees_the_move(self) -> None:
        client, table = open_app(["human", "human"])
        with client, client.websocket_connect(socket_path(table, 0)) as zero:
            with client.websocket_connect(socket_path(table, 1)) as one:
                view = zero.receive_json()
                assert one.receive_json()["present"] == [True, True]
                assert zero.receive_json()["present"] == [True, True]  # P1 came: every page is told
                zero.send_json({"type": "move", "version": view["version"], "index": 0})
                assert zero.receive_json()["version"] == one.receive_json()["version"] == view["version"] + 1

    def test_a_page_is_not_sent_its_view_again_unchanged(self, one_human: tuple[TestClient, Table]) -> None:
        """How many frames a page gets must not tell of what it cannot see (a bot passing a window
        offered to it alone changes the table, not P0's view): a view unchanged is not sent again."""
        client, table = one_human
        server = client.app.state.server  # type: ignore[attr-defined]
        with client.websocket_connect(socket_path(table, 0)) as ws:
            view = ws.receive_json()
            assert client.portal is not None
            client.portal.call(server.broadcast, table)  # the table "changed", P0's view did not
            ws.send_json({"type": "view"})  # asked for, a view is sent: the next frame is that one
            assert ws.receive_json() == view
            client.portal.call(server.broadcast, table)
            ws.send_json({"type": "move", "version": view["version"] + 1, "index": 0})
            assert ws.receive_json()["type"] == "error"  # and not a view sent again


class TestReconnection:
    def test_a_player_who_reconnects_sees_the_same_view(self, one_human: tuple[TestClient, Table]) -> None:
        client, table = one_human
        with client.websocket_connect(socket_path(table, 0)) as ws:
            view = ws.receive_json()
            ws.send_json({"type": "move", "version": view["version"], "index": 0})
            last = settled(ws, ws.receive_json())
        with client.websocket_connect(socket_path(table, 0)) as again:
            assert again.receive_json() == last


class TestRematchAndLog:
    def test_a_finished_game_is_logged_replays_and_offers_a_rematch(self, tmp_path: Path) -> None:
        from ruledsl.cli import main

        client, table = open_app(["human", "random"], log_dir=tmp_path)
        with client, client.websocket_connect(socket_path(table, 0)) as ws:
            view = ws.receive_json()
            ws.send_json({"type": "rematch"})
            assert ws.receive_json()["message"] == "the game is not over yet"
            while not view["over"]:
                assert "seed" not in view  # secret until the end
                ws.send_json({"type": "move", "version": view["version"], "index": len(view["actions"]) - 1})
                view = settled(ws, ws.receive_json())
            assert view["seed"] == table.seed and f"Seed: {table.seed}" in view["transcript"][-1]
            records = [json.loads(line) for line in (tmp_path / f"table-{table.id}.jsonl").read_text().splitlines()]
            assert len(records) == 1 and records[0]["seed"] == table.seed and "returns" in records[0]
            first_seed = table.seed
            ws.send_json({"type": "rematch"})
            fresh = ws.receive_json()
            assert not fresh["over"] and "seed" not in fresh and table.seed != first_seed
            assert fresh["version"] > view["version"]
        assert main(["replay", str(tmp_path / f"table-{table.id}.jsonl"), "--as", "0"]) == 0


class TestClosedTables:
    def test_a_message_to_a_table_no_longer_served_closes_the_socket(self, one_human: tuple[TestClient, Table]) -> None:
        from starlette.websockets import WebSocketDisconnect

        client, table = one_human
        with client.websocket_connect(socket_path(table, 0)) as ws:
            view = ws.receive_json()
            del client.app.state.server.tables[table.id]  # type: ignore[attr-defined]
            ws.send_json({"type": "move", "version": view["version"], "index": 0})
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 1008
        assert table.version_of(0) == view["version"]
