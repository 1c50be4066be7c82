"""Remake the screenshots of docs/serve.md in headless Chromium: a Quäsenbö and a Cartes Magiques table mid-game, and
a Hearts table mid-pass and at its end banner, each on a desktop's and a phone's screen, and mid-trick on a phone.

    .venv/bin/python docs/img/screenshots.py      (needs ruledsl[serve,test] and Debian's chromium)

The deals are fixed (seeds 7, 11 and 2027) and the humans' moves are played by the table
itself (Hearts' pass: two cards picked by clicks), so the pictures come out the same each time.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

from ruledsl import load_game
from ruledsl.serve.app import create_app
from ruledsl.serve.background import BackgroundServer

HERE = Path(__file__).resolve().parent
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]  # fmt: skip
SHOTS = [
    ("serve-quasenbo.png", "quasenbo", ["human", "greedy", "random"], 7, 3),
    ("serve-cartes-magiques.png", "cartes_magiques", ["human", "greedy", "greedy"], 11, 6),
]


def main() -> None:
    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=ARGS)
        for file, name, seats, seed, moves in SHOTS:
            app = create_app(load_game(name, players=len(seats)), seats)
            table = next(iter(app.state.server.tables.values()))
            table.deal(seed)
            for _ in range(moves):  # a few moves in: cards on the table, a transcript
                seat = table.to_act()
                if seat is None:
                    break
                table.move(seat, table.version, index=len(table.state.legal_actions()) // 2)  # type: ignore[union-attr]
            with BackgroundServer(app) as server:
                page = browser.new_page(viewport={"width": 1100, "height": 860})
                page.goto(f"{server.base}/t/{table.id}/{table.tokens[0]}")
                page.wait_for_selector("body[data-version]")
                page.screenshot(path=str(HERE / file))
                page.close()
            print(f"wrote {HERE / file}")
        hearts(browser)
        browser.close()


def hearts(browser: Any) -> None:
    """Hearts (goal 10: one deal) mid-pass with two cards picked, mid-trick on a phone, and at its end banner, at
    1100 px and 375 px."""
    app = create_app(load_game("hearts", players=4, options={"goal": 10}), ["human", "random", "human", "random"])
    table = next(iter(app.state.server.tables.values()))
    table.deal(2027)
    with BackgroundServer(app) as server:
        for suffix, size in (("", (1100, 860)), ("-phone", (375, 667))):
            page = browser.new_page(viewport={"width": size[0], "height": size[1]})
            page.goto(f"{server.base}/t/{table.id}/{table.tokens[0]}")
            page.wait_for_selector("body[data-version]")
            for _ in range(2):
                page.locator("#mine .card.selectable").nth(1).click()
            page.screenshot(path=str(HERE / f"serve-hearts-pass{suffix}.png"))
            page.close()
        page = browser.new_page(viewport={"width": 375, "height": 667})
        page.goto(f"{server.base}/t/{table.id}/{table.tokens[0]}")
        page.wait_for_selector("body[data-version]")
        for _ in range(3):  # P0 passes by clicks; then play on to his turn with cards on the trick
            page.locator("#mine .card.selectable").first.click()
        page.locator("#actions button.confirm").click()
        page.wait_for_function("() => !document.querySelector('#actions .picking')")  # his pass is made
        while True:
            seat = table.to_act()
            assert seat is not None
            seen = table.state.observation(0)  # type: ignore[union-attr]
            if seat == 0 and seen["phase"] == "play" and 0 < seen["zones"]["trick"]["size"] < 4:
                break
            if seen.get("together"):  # passing together: the next who has not passed
                seat = seen["together"]["waiting"][0]
            table.move(seat, table.version_of(seat), index=0)
        page.reload()  # the moves above were the table's own, sent to no page
        page.wait_for_function("() => document.body.classList.contains('my-turn')")
        page.screenshot(path=str(HERE / "serve-hearts-trick-phone.png"))
        page.close()
        while not table.is_over():
            seat = table.to_act()
            assert seat is not None
            table.move(seat, table.version, index=0)
        for suffix, size in (("", (1100, 860)), ("-phone", (375, 667))):
            page = browser.new_page(viewport={"width": size[0], "height": size[1]})
            page.goto(f"{server.base}/t/{table.id}/{table.tokens[0]}")
            page.wait_for_selector("#banner:not([hidden])")
            page.screenshot(path=str(HERE / f"serve-hearts-end{suffix}.png"))
            page.close()
    print(f"wrote {HERE}/serve-hearts-*.png")


if __name__ == "__main__":
    main()
