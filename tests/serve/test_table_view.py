"""What a table page is told beyond the cards: a group of cards chosen card by card, the result, who is here, the
rematch all humans agree to, and the favicon."""

from __future__ import annotations

import re

from tests.extras import require

require("starlette", "serve")
require("httpx2", "test")

from starlette.testclient import TestClient  # noqa: E402

from ruledsl import load_game  # noqa: E402
from ruledsl.serve.app import create_app  # noqa: E402
from ruledsl.serve.frames import view_frame  # noqa: E402
from ruledsl.serve.tables import Table  # noqa: E402


def hearts_table(seats: list[str], seed: int = 3) -> Table:
    return Table(load_game("hearts", players=4, options={"goal": 10}), seats, seed=seed)


def test_a_choice_of_a_group_of_cards_gives_each_set_and_a_single_card_none() -> None:
    table = hearts_table(["human", "random", "random", "random"])
    frame = view_frame(table, 0)
    hand = {c["name"] for z in frame["zones"] if z["name"] == "hand" and z["owner"] == 0 for c in z["cards"]}
    sets = [a["set"] for a in frame["actions"]]
    assert len(sets) == 286 and all(len(s) == 3 and set(s) <= hand for s in sets)
    assert all(a["group"] == "give" for a in frame["actions"])
    while table.state is not None and table.state.observation(0)["phase"] == "passing":
        table.move(0, table.version, index=0)
    frame = view_frame(table, table.to_act() or 0)
    assert frame["actions"] and all("set" not in a for a in frame["actions"])


def test_the_end_of_a_game_tells_each_seat_the_winners_its_place_the_scores_and_the_seed() -> None:
    table = hearts_table(["random", "random", "random", "random"], seed=11)
    assert table.is_over()
    assert "result" not in view_frame(hearts_table(["human", "random", "random", "random"]), 0)
    returns = table.state.returns()  # type: ignore[union-attr]
    for seat in (0, 1, -1):
        result = view_frame(table, seat)["result"]
        assert result["seed"] == table.seed
        assert result["winners"] == [q for q, r in enumerate(returns) if r == max(returns)]
        assert len(result["scores"]) == 4 and all(re.fullmatch(r"[+-]?\d+(\.\d{1,2})?", s) for s in result["scores"])
        assert sorted(result["places"])[0] == 1 and result["places"][result["winners"][0]] == 1
        assert result["text"].startswith("Result: ")


def test_the_rematch_starts_once_every_human_agrees() -> None:
    table = hearts_table(["human", "random", "human", "random"])
    while not table.is_over():
        seat = table.to_act()
        assert seat is not None
        table.move(seat, table.version, index=0)
    seed = table.seed
    table.rematch(0)
    assert table.is_over() and table.seed == seed
    assert view_frame(table, 2)["rematch"] == [0]
    table.rematch(0)  # twice is once
    assert table.is_over()
    table.rematch(2)
    assert not table.is_over() and table.seed != seed and view_frame(table, 0)["rematch"] == []


def test_each_seat_shows_whether_its_player_is_here() -> None:
    app = create_app(load_game("quasenbo", players=3), ["human", "human", "random"])
    table = next(iter(app.state.server.tables.values()))
    client = TestClient(app)
    with client:
        with client.websocket_connect(f"/t/{table.id}/{table.tokens[0]}/ws") as ws0:
            assert ws0.receive_json()["present"] == [True, False, True]  # a bot is always here
            with client.websocket_connect(f"/t/{table.id}/{table.tokens[1]}/ws") as ws1:
                assert ws1.receive_json()["present"] == [True, True, True]
                assert ws0.receive_json()["present"] == [True, True, True]
            assert ws0.receive_json()["present"] == [True, False, True]  # a closed tab is away


def test_every_page_has_a_favicon() -> None:
    app = create_app(load_game("quasenbo", players=2), ["human", "random"])
    table = next(iter(app.state.server.tables.values()))
    client = TestClient(app)
    assert client.get("/favicon.ico").status_code == 200
    for page in ("/", f"/t/{table.id}/{table.tokens[0]}"):
        icon = re.search(r'<link rel="?icon"? [^>]*href="([^"]+)"', client.get(page).text)
        assert icon and client.get(icon.group(1)).status_code == 200


def test_a_set_picked_in_steps_is_shown_to_its_chooser_alone() -> None:
    from pathlib import Path

    game = load_game(str(Path(__file__).parents[1] / "steps" / "steps.game"))
    table = Table(game, ["human", "human"], seed=1)
    begin = next(a for a in view_frame(table, 0)["actions"] if a["label"] == "discard: pick the cards")
    table.move(0, table.version, index=begin["index"])
    pick = view_frame(table, 0)["actions"][0]
    table.move(0, table.version, index=pick["index"])
    assert view_frame(table, 0)["picking"] == {"action": "discard", "cards": pick["cards"]}
    assert view_frame(table, 1)["picking"] is None and view_frame(table, -1)["picking"] is None


def test_a_phase_played_together_tells_who_has_chosen_and_who_is_awaited() -> None:
    table = hearts_table(["human", "random", "human", "random"], seed=2027)
    table.move(0, table.version, index=0)
    assert view_frame(table, 0)["together"] == {"chosen": [0, 1], "waiting": [2, 3]}
