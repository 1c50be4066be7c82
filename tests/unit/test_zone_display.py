"""How a rule file says its zones and variables are shown to people: `sorted by` (a hand shown in order),
`unlisted when empty` (a zone left out while it holds nothing) and a variable's `label`. Display only: the
zones keep their order in the game, and only the cards the viewer sees are sorted."""

from __future__ import annotations

import pytest

from ruledsl.analysis.checker import check
from ruledsl.format.unparse import unparse
from ruledsl.loading import check_source, load_checked
from ruledsl.syntax import nodes as n
from ruledsl.syntax.parser import parse
from ruledsl.text.errors import CheckError
from ruledsl.text.source import Source
from ruledsl.tools.display import display_of
from ruledsl.tools.records import describe_view

GAME = """\
game "Sorted"
players 2
values suit: clubs, diamonds, spades, hearts
card rank: number
card suit: suit
zone deck: shared, hidden, unlisted when empty
zone hand: per player, owner, sorted by (suit, rank)
zone pile: shared, public, sorted by rank
zone won: per player, public, unlisted when empty
var led: suit = none, label "suit led"
player var points = 0, label "points taken"
deck:
    card "{rank}{suit}" for rank in 1 to 5, suit in clubs to hearts
setup:
    shuffle deck
    deal 10 from deck to each hand
phase play:
    action play(c: card from hand):
        move c to pile
        if hand is empty:
            end game
"""


def declarations(text: str) -> dict[str, n.Node]:
    return {getattr(d, "name", ""): d for d in parse(text, "t.game").decls}


def game(text: str = GAME) -> object:
    return load_checked(check_source(Source("t.game", text)), players=2)


def errors(text: str) -> list[tuple[str, str]]:
    with pytest.raises(CheckError) as info:
        check(parse(text, "t.game"), Source("t.game", text))
    return [(d.code, d.message) for d in info.value.diagnostics]


def test_the_options_are_read_into_the_declarations() -> None:
    d = declarations(GAME)
    assert d["hand"] == n.ZoneDecl(
        name="hand", per_player=True, visibility="owner", sorted_by=("suit", "rank"), span=d["hand"].span
    )
    assert d["pile"].sorted_by == ("rank",) and not d["pile"].unlisted_when_empty  # type: ignore[attr-defined]
    assert d["deck"].unlisted_when_empty and d["deck"].sorted_by == ()  # type: ignore[attr-defined]
    assert d["led"].label == "suit led" and d["points"].label == "points taken"  # type: ignore[attr-defined]


def test_fmt_writes_them_back() -> None:
    lines = [unparse(d).strip() for d in parse(GAME, "t.game").decls]
    assert "zone hand: per player, owner, sorted by (suit, rank)" in lines
    assert "zone pile: shared, public, sorted by rank" in lines
    assert "zone deck: shared, hidden, unlisted when empty" in lines
    assert 'var led: suit = none, label "suit led"' in lines
    assert 'player var points = 0, label "points taken"' in lines


def test_a_sort_by_no_attribute_is_refused() -> None:
    assert errors(GAME.replace("sorted by rank", "sorted by colour")) == [("E203", "cards have no attribute 'colour'")]


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        (
            "var led: suit = none,",
            "var led: suit = none, hidden,",
            "a hidden variable is shown to nobody; it takes no label",
        ),
        (
            "player var points = 0,",
            "card var points = 0,",
            "a card variable is never listed in a player's view; it takes no label",
        ),
    ],
)
def test_a_label_where_nothing_is_listed_is_refused(old: str, new: str, message: str) -> None:
    assert errors(GAME.replace(old, new)) == [("E302", message)]


@pytest.mark.parametrize(
    ("old", "new", "label"),
    [
        ('label "points taken"', 'label "suit led"', "suit led"),  # another's label
        ('label "points taken"', 'label "led"', "led"),  # another's name
    ],
)
def test_a_label_names_one_variable(old: str, new: str, label: str) -> None:
    assert errors(GAME.replace(old, new)) == [("E202", f"the label '{label}' names another variable already")]


def test_a_hand_is_shown_sorted_and_the_game_keeps_its_order() -> None:
    g = game()
    state = g.new_initial_state(seed=3)  # type: ignore[attr-defined]
    obs = state.observation(0)
    dealt = obs["zones"]["hand"][0]["cards"]
    shown = display_of(state.prog).cards("hand", dealt)
    suits = "clubs diamonds spades hearts".split()
    order = [(suits.index(next(s for s in suits if c.endswith(s))), int(c[0])) for c in shown]
    assert order == sorted(order) and sorted(shown) == sorted(dealt)
    assert shown != dealt  # guard: seed 3 deals them out of order
    line = next(line for line in describe_view(obs, 0, display=display_of(state.prog)) if line.startswith("your hand"))
    assert line == "your hand: " + ", ".join(shown)
    assert obs["zones"]["hand"][0]["cards"] == dealt  # the observation, and the game, keep the dealt order


def test_cards_the_viewer_does_not_see_keep_their_places() -> None:
    shown = display_of(game().program).cards("hand", ["3hearts", None, "1hearts", "2clubs", None])  # type: ignore[attr-defined]
    assert shown == ["2clubs", None, "1hearts", "3hearts", None]


def test_empty_zones_so_marked_are_left_out_and_labels_name_the_variables() -> None:
    state = game().new_initial_state(seed=3)  # type: ignore[attr-defined]
    lines = describe_view(state.observation(0), 0, display=display_of(state.prog))
    assert not any(line.startswith(("deck", "won", "your won")) for line in lines), lines  # the deck is dealt out
    assert "pile: (empty)" in lines  # not so marked: listed while empty
    assert "  points taken: you 0, P1 0" in lines
    plain = describe_view(state.observation(0), 0)
    assert "deck: (empty)" in plain and "  points: you 0, P1 0" in plain  # without the display: as before


def test_a_player_variable_holding_no_cards_for_anyone_is_left_out() -> None:
    obs = {
        "round": 1,
        "phase": "play",
        "direction": "clockwise",
        "zones": {},
        "variables": {},
        "player_variables": {"drawn": [[], None], "mice": [0, None], "kept": [["A"], None]},
        "auction": None,
        "finished": [],
    }
    assert describe_view(obs, 0)[1:] == ["  mice: you 0", "  kept: you A"]
