"""A real browser at a `ruledsl serve` table: headless Chromium (Debian's) plays a whole 2-player Quäsenbö by clicking.

It also types a move the rules refuse and reads the reason on the page, and it records every
WebSocket frame the page receives: replaying the game's record afterwards, none of them may
name a card that was in seat 1's hand when it was sent (but in the transcript lines of
earlier frames: a card P0 played may come back to P1 after the pile is shuffled into the deck).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from tests.extras import require, require_chromium

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def hands_of_seat_1(record: dict[str, Any]) -> list[set[str]]:
    """Seat 1's hand after each number of actions of the recorded game (0: as dealt)."""
    from ruledsl import load_game
    from ruledsl.tools.records import apply_label

    game = load_game("quasenbo", players=2)
    state = game.new_initial_state(seed=record["seed"])
    hand_zone = next(z for z in state.prog.zones if z.name == "hand")

    def hand() -> set[str]:
        return {state.prog.card_names[c] for c in state.zones[hand_zone.base + 1]}

    hands = [hand()]
    for number, label in enumerate(record["actions"], 1):
        apply_label(state, label, number)
        hands.append(hand())
    assert state.is_terminal()
    return hands


def test_a_whole_quasenbo_game_by_clicking(tmp_path: Path) -> None:
    require("starlette", "serve")
    sync_api = require("playwright.sync_api", "test")
    chromium = require_chromium()
    from ruledsl import load_game
    from ruledsl.serve.app import create_app
    from ruledsl.serve.background import BackgroundServer

    app = create_app(load_game("quasenbo", players=2), ["human", "random"], log_dir=tmp_path)
    table = next(iter(app.state.server.tables.values()))
    table.deal(2026)  # a fixed deal (and bot), so that the test plays the same game each time
    dealt = table.version - len(table.actors)  # the version of the game's views before its first action
    received: list[str] = []
    with BackgroundServer(app) as server, sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 390, "height": 844})  # a phone's screen
            page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: received.append(str(payload))))
            page.goto(f"{server.base}/t/{table.id}/{table.tokens[0]}")
            page.wait_for_selector("body[data-version]")
            expect = sync_api.expect
            expect(page.locator("#mine .card.face")).to_have_count(7)  # his hand, face up
            expect(page.locator("#others .card.back")).to_have_count(1)  # the other's, a back with a count
            expect(page.locator("#others .card.back")).to_have_text("7")

            # A move the rules refuse shows their reason, and changes nothing.
            version = page.get_attribute("body", "data-version")
            page.fill("#move", "play the Bogus")
            page.click("#typed button")
            expect(page.locator("#refusal")).to_have_text(
                "'play the Bogus' is not one of your actions now: no card is called 'the Bogus'"
            )
            assert page.get_attribute("body", "data-version") == version

            moves = by_card = 0
            while True:
                # His turn (the bot's answer shown), or the end: never the view between his move and the bot's.
                page.wait_for_selector("body.my-turn, #rematch:visible")
                if page.locator("#rematch").is_visible():
                    break
                version = page.get_attribute("body", "data-version")
                playable = page.locator("#mine .card.playable")
                if playable.count():
                    playable.first.click()  # a card one action names is played; else its actions are offered
                    by_card += 1
                    page.wait_for_function(
                        "v => document.body.dataset.version !== v || document.querySelector('#actions .hint')",
                        arg=version,
                    )
                if page.get_attribute("body", "data-version") == version:
                    page.locator("#actions button.action").first.click()
                page.wait_for_function("v => document.body.dataset.version !== v", arg=version)
                moves += 1
                assert moves < 300
            expect(page.locator("#turn")).to_have_text("game over")
            expect(page.locator("#transcript")).to_contain_text(f"Seed: {table.seed}")
        finally:
            browser.close()
    assert table.is_over() and table.error is None and moves >= 3 and by_card >= 1

    record = json.loads((tmp_path / f"table-{table.id}.jsonl").read_text(encoding="utf-8"))
    hands = hands_of_seat_1(record)
    views = [json.loads(text) for text in received]
    assert len(views) > moves and all(v["type"] in ("view", "error") for v in views)
    last = [v for v in views if v["type"] == "view"][-1]
    assert last["version"] - dealt == len(record["actions"])  # versions count actions from the deal
    told = 0  # the transcript lines of the frames before: a card seen then may be in P1's hand now
    for frame in views:
        if frame["type"] != "view":
            continue
        hand = hands[frame["version"] - dealt]
        lines = frame.pop("transcript")
        text = json.dumps(frame, ensure_ascii=False) + json.dumps(lines[told:], ensure_ascii=False)
        told = len(lines)
        named = [c for c in hand if re.search(rf"{re.escape(c)}(?![\w])", text)]
        assert not named, f"a frame of version {frame['version']} to P0 names {named}, in P1's hand"
    # Guard: the check would see a name: P0's own hand is in the first frame.
    first_hand = [z for z in views[0]["zones"] if z["name"] == "hand" and z["owner"] == 0][0]
    assert all(card["name"] in received[0] for card in first_hand["cards"])


def test_two_humans_and_two_bots_play_hearts_by_clicking_to_the_end_banner() -> None:
    """Passing three cards by toggling them (never a button per set), a refused click's reason, presence, the end
    banner on both screens at a desktop's and a phone's width, and the rematch both humans agree to; the bots are
    the default greedy ones, each move within its budget of work (counted, so the test times nothing)."""
    require("starlette", "serve")
    sync_api = require("playwright.sync_api", "test")
    chromium = require_chromium()
    from ruledsl import load_game
    from ruledsl.serve.app import create_app
    from ruledsl.serve.background import BackgroundServer

    game = load_game("hearts", players=4, options={"goal": 10})  # over after the deal someone takes 10 points in
    app = create_app(game, ["human", "greedy", "human", "greedy"])
    table = next(iter(app.state.server.tables.values()))
    table.deal(2027)
    over_budget: list[int] = []  # per bot move: its work past the budget and the one probe allowed past it
    probes: list[int] = []
    play_bot = table.play_bot

    def play_bot_within_budget() -> bool:
        moved = play_bot()
        for agent in table.agents.values():
            over_budget.append(agent.last_work - agent.work - agent.last_probe_most)
            probes.append(agent.last_probes)
        return moved

    table.play_bot = play_bot_within_budget  # type: ignore[method-assign]
    expect = sync_api.expect
    with BackgroundServer(app) as server, sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        try:
            pages = {}
            for seat, size in ((0, (1280, 800)), (2, (375, 667))):
                page = browser.new_page(viewport={"width": size[0], "height": size[1]})
                page.goto(f"{server.base}/t/{table.id}/{table.tokens[seat]}")
                page.wait_for_selector("body[data-version]")
                pages[seat] = page
            for seat, page in pages.items():  # both humans are here, the bots always are
                expect(page.locator(f'.seat[data-seat="{2 - seat}"] .presence')).to_have_text("here")
            passes = refused = clicks = 0
            while not all(p.locator("#banner").is_visible() for p in pages.values()):
                acted = False
                for page in pages.values():
                    version = page.get_attribute("body", "data-version")
                    if page.locator("#actions .picking").count():
                        assert page.locator("#actions button.action").count() <= 3  # never one per set of three
                        for picked in range(3):
                            page.locator("#mine .card.selectable").first.click()
                            expect(page.locator("#mine .card.selected")).to_have_count(picked + 1)
                        expect(page.locator("#mine .card.selectable")).to_have_count(0)  # three is all
                        page.locator("#actions button.confirm").click()
                        passes += 1
                    elif page.locator("#mine .card.playable").count():
                        # The frame read at the top may have been followed by the bots' moves, one frame each:
                        # the one that shows his turn is the last until he moves.
                        version = page.get_attribute("body", "data-version")
                        if not refused and page.locator("#mine .card.unplayable").count():
                            page.locator("#mine .card.unplayable").first.click()
                            expect(page.locator("#refusal")).to_be_visible()
                            assert re.fullmatch(
                                "'play .+' is not one of your actions now: (the 2♣ leads the first trick|you must "
                                "follow suit: .|no points on the first trick: .*|hearts have not been broken: .*)",
                                page.locator("#refusal").inner_text(),
                            )
                            assert page.get_attribute("body", "data-version") == version
                            refused = 1
                        page.locator("#mine .card.playable").first.click()
                    else:
                        continue
                    acted = True
                    clicks += 1
                    page.wait_for_function("v => document.body.dataset.version !== v", arg=version)
                    expect(page.locator("#refusal")).to_be_hidden()  # cleared by the next action
                    if passes == 1 and page is pages[0]:  # passing together: P0 waits for the others
                        expect(page.locator("#turn")).to_have_text("you have chosen; waiting for P2, P3")
                    assert clicks < 200
                if not acted:
                    pages[0].wait_for_timeout(30)
            assert table.is_over() and table.error is None and passes >= 2 and refused
            assert max(probes) > 1 and max(over_budget) <= 0  # the bots judged moves, none past its budget
            returns = table.state.returns()  # type: ignore[union-attr]
            for seat, page in pages.items():
                banner = page.locator("#banner")
                text = banner.inner_text()
                shown = text + page.inner_text("#scores")  # the banner and the side panel's scores
                assert f"Seed {table.seed}" in text and not re.search(r"\d\.\d{3}", shown)
                assert ("You win" if returns[seat] == max(returns) else "Your place: ") in text
                for width, height in ((1280, 800), (375, 667)):
                    page.set_viewport_size({"width": width, "height": height})
                    page.evaluate("window.scrollTo(0, 0)")
                    box = banner.bounding_box()
                    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height, (width, box)
                    assert box["x"] >= 0 and box["x"] + box["width"] <= width, (width, box)  # nothing cut off
            seed = table.seed
            pages[0].locator("#rematch").click()
            expect(pages[2].locator("#banner")).to_contain_text("rematch when P2 agree")
            assert table.is_over() and table.seed == seed
            pages[2].locator("#rematch").click()
            for page in pages.values():
                expect(page.locator("#banner")).to_be_hidden()
            assert not table.is_over() and table.seed != seed
            pages[2].close()  # a closed tab is away
            expect(pages[0].locator('.seat[data-seat="2"] .presence')).to_have_text("away")
        finally:
            browser.close()


def test_the_page_says_which_bot_is_thinking_while_it_thinks() -> None:
    """Bots answer one move at a time and each is shown: between the human's move and his next turn,
    the page names each bot to move ("P1 (random) is thinking…")."""
    require("starlette", "serve")
    sync_api = require("playwright.sync_api", "test")
    chromium = require_chromium()
    from ruledsl import load_game
    from ruledsl.serve.app import create_app
    from ruledsl.serve.background import BackgroundServer

    app = create_app(load_game("crazy_eights", players=3), ["human", "random", "random"])
    table = next(iter(app.state.server.tables.values()))
    table.deal(2028)
    with BackgroundServer(app) as server, sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page()
            page.goto(f"{server.base}/t/{table.id}/{table.tokens[0]}")
            sync_api.expect(page.locator("#turn")).to_have_text("your turn")
            # Every text the turn line shows, however briefly.
            page.evaluate(
                """() => { window.turns = [];
                new MutationObserver(() => window.turns.push(document.getElementById("turn").textContent))
                  .observe(document.getElementById("turn"), {childList: true, characterData: true, subtree: true}); }"""
            )
            version = page.get_attribute("body", "data-version")
            page.locator("#actions button.action").first.click()
            page.wait_for_function("v => document.body.dataset.version !== v", arg=version)
            sync_api.expect(page.locator("#turn")).to_have_text(re.compile("your turn|game over"))
            turns = page.evaluate("window.turns")
            assert "P1 (random) is thinking…" in turns, turns
        finally:
            browser.close()
