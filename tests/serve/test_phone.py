"""The table on a phone's screen (375×667, Debian's chromium): your hand, your actions and the last move are in
sight without scrolling, whatever the other seats hold; a pile shows its top cards, the top one marked; card names
fit their cards; the side panel names variables by their rule-file label."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from tests.extras import require, require_chromium
from tests.serve.test_browser import CHROMIUM_ARGS

PHONE = {"width": 375, "height": 667}
PILE_SHOWN = 4  # the cards of a pile the page draws (table.js)


@contextmanager
def phone_page(game: Any, seats: list[str], seed: int, moves: int = 0) -> Iterator[tuple[Any, Any]]:
    """A page of seat 0 at a table of ``game`` on a phone's screen, dealt with ``seed``, ``moves`` moves in (the
    table's own, each the middle one of those legal), or fewer if the game is over before."""
    require("starlette", "serve")
    sync_api = require("playwright.sync_api", "test")
    chromium = require_chromium()
    from ruledsl.serve.app import create_app
    from ruledsl.serve.background import BackgroundServer

    app = create_app(game, seats)
    table = next(iter(app.state.server.tables.values()))
    table.deal(seed)
    for _ in range(moves):
        if table.is_over():
            break
        seat = table.to_act()
        assert seat is not None
        table.move(seat, table.version_of(seat), index=len(table.state.legal_actions()) // 2)
    with BackgroundServer(app) as server, sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport=PHONE)
            page.goto(f"{server.base}/t/{table.id}/{table.tokens[0]}")
            page.wait_for_selector("body[data-version]")
            yield page, table
        finally:
            browser.close()


def boxes(page: Any, selector: str) -> list[list[float]]:
    """The boxes (left, top, right, bottom) of the elements ``selector`` finds that are displayed."""
    return page.locator(selector).evaluate_all(
        """els => els.filter(e => e.getClientRects().length)
             .map(e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; })"""
    )


def assert_in_sight(page: Any, *selectors: str) -> None:
    """Each element ``selectors`` find (some for each) lies inside the screen, the page not scrolled."""
    page.evaluate("window.scrollTo(0, 0)")
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]  # nothing off to the side
    for selector in selectors:
        found = boxes(page, selector)
        assert found, f"nothing shown for {selector}"
        for left, top, right, bottom in found:
            assert left >= 0 and right <= PHONE["width"] + 0.5, (selector, left, right)
            assert top >= 0 and bottom <= PHONE["height"] + 0.5, (selector, top, bottom)


def assert_names_fit(page: Any) -> None:
    """Every card's name lies inside its card."""
    spill = page.locator(".card.face").evaluate_all(
        """cards => cards.filter(c => c.getClientRects().length).map(c => {
             const r = c.getBoundingClientRect(), l = c.querySelector('.label').getBoundingClientRect();
             return l.left < r.left - 0.5 || l.right > r.right + 0.5 || l.top < r.top - 0.5 || l.bottom > r.bottom + 0.5
               ? c.textContent : null; }).filter(x => x)"""
    )
    assert not spill, spill


HAND = '#mine [data-zone="hand"] .card'
LAST = "#last"


def test_hearts_on_a_phone_mid_pass_and_mid_trick() -> None:
    sync_api = require("playwright.sync_api", "test")
    from ruledsl import load_game

    game = load_game("hearts", players=4, options={"goal": 10})
    with phone_page(game, ["human", "random", "random", "random"], 2027) as (page, table):
        expect = sync_api.expect
        expect(page.locator(HAND)).to_have_count(13)
        # Mid-pass: the hand, the line that picks and confirms the pass, what was said last.
        page.locator("#mine .card.selectable").first.click()
        assert_in_sight(page, HAND, "#actions .picking", "#actions button.confirm", LAST)
        expect(page.locator(LAST)).to_have_text(table.transcript(0)[-1])
        assert_names_fit(page)
        for _ in range(2):
            page.locator("#mine .card.selectable").first.click()
        page.locator("#actions button.confirm").click()
        # Mid-trick: his turn with cards on the trick.
        for _ in range(20):
            page.wait_for_function("() => document.body.classList.contains('my-turn')")
            if page.locator('#middle [data-zone="trick"] .card').count():
                break
            version = page.get_attribute("body", "data-version")
            page.locator("#mine .card.playable").first.click()
            page.wait_for_function("v => document.body.dataset.version !== v", arg=version)
        assert page.locator('#middle [data-zone="trick"] .card').count()
        assert_in_sight(page, HAND, "#mine .card.playable", '#middle [data-zone="trick"] .card', LAST)
        assert_names_fit(page)
        # Sorted hands (hearts.game says so): by suit, then by rank.
        names = page.locator(HAND).evaluate_all("cs => cs.map(c => c.dataset.name)")
        order = "♣♦♠♥"
        ranks = [str(r) for r in range(2, 11)] + list("JQKA")
        assert names == sorted(names, key=lambda c: (order.index(c[-1]), ranks.index(c[:-1])))


def test_the_largest_game_on_a_phone() -> None:
    """Cartes Magiques (the largest bundled game; three zones a player, a pile, burned cards), a few moves in."""
    from ruledsl import load_game

    with phone_page(load_game("cartes_magiques", players=4), ["human", "random", "random", "random"], 11, 8) as (
        page,
        table,
    ):
        page.wait_for_function("() => document.body.classList.contains('my-turn')")
        assert_in_sight(page, HAND, "#actions button.action:not(.by-card), #mine .card.playable", LAST)
        assert_names_fit(page)


PILED = """\
game "Piled"
players 2
card rank: number
zone deck: shared, hidden, unlisted when empty
zone pile: shared, public
zone hand: per player, owner, sorted by rank
var led: number = none, label "rank led"
player var taken = 0, label "cards taken"
deck:
    card "c{rank}" for rank in 1 to 16
setup:
    move top 12 of deck to pile
    deal 2 from deck to each hand
phase play:
    action lay(c: card from hand):
        move c to pile
        if hand is empty:
            end game
"""


def test_a_pile_shows_its_top_cards_the_top_marked_and_the_panel_labels() -> None:
    from ruledsl.loading import check_source, load_checked
    from ruledsl.text.source import Source

    game = load_checked(check_source(Source("piled.game", PILED)), players=2)
    with phone_page(game, ["human", "random"], 5) as (page, table):
        pile = page.locator('#middle [data-zone="pile"]')
        cards = pile.locator(".card")
        assert cards.count() == PILE_SHOWN
        top = table.state.prog.card_names[
            table.state.zones[next(z.base for z in table.state.prog.zones if z.name == "pile")][-1]
        ]
        assert pile.locator(".card.top").count() == 1
        assert (
            pile.locator(".card.top").get_attribute("data-name") == top and cards.last.get_attribute("data-name") == top
        )
        assert pile.locator(".more").inner_text() == f"+{12 - PILE_SHOWN}"
        assert page.locator('[data-zone="deck"]').count() == 0  # dealt out, and unlisted when empty
        panel = page.inner_text("#scores")
        assert "cards taken" in panel and "taken" not in panel.replace("cards taken", "")
        assert "rank led" not in panel  # unset: not listed
        assert_in_sight(page, HAND, "#mine .card.playable", LAST)


def test_the_end_of_a_game_on_a_phone_shows_no_empty_actions_box() -> None:
    """Once the game is over there is nothing to act on: the actions' box is not drawn (not even as a thin bar); the
    banner at the top says the result and holds the rematch."""
    from ruledsl.loading import check_source, load_checked
    from ruledsl.text.source import Source

    game = load_checked(check_source(Source("piled.game", PILED)), players=2)
    with phone_page(game, ["human", "random"], 5, 100) as (page, table):
        assert table.is_over()
        page.wait_for_selector("#banner:not([hidden])")
        for selector in ("#controls", "#actions"):
            assert all(bottom - top == 0 for _, top, _, bottom in boxes(page, selector)), selector
        assert_in_sight(page, "#banner", "#rematch")


def test_many_seats_on_a_phone_are_all_in_sight_without_scrolling_sideways() -> None:
    """Eight at Cartes Magiques (three zones a player, cards face up): the strip of the other seven wraps, every seat
    inside the screen, nothing to scroll sideways (the strip nor the page), and the hand still in sight."""
    from ruledsl import load_game

    with phone_page(load_game("cartes_magiques", players=8), ["human"] + ["random"] * 7, 11, 12) as (page, table):
        seats = boxes(page, "#others .seat")
        assert len(seats) == 7
        assert page.evaluate(
            "(() => { const s = document.getElementById('others'); return s.scrollWidth <= s.clientWidth; })()"
        )
        assert_in_sight(page, "#others .seat", HAND, LAST)
        assert_names_fit(page)
