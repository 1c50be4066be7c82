"""Cards, seats and moves named as each player sees them (issue 29's engine bugs)."""

from __future__ import annotations

from pathlib import Path

import pytest

import ruledsl
from ruledsl.text.render import counted
from tests.golden.test_golden import run_cli
from tests.property.test_playthrough import assert_views_ignore_hidden_cards

# Two players and six cards, numbered.
CARDS = """\
players 2 to 2

card value: number

deck:
    card "{value}" for value in 1 to 6

zone deck: shared, hidden
"""

# Player 0 takes a card from a row and a column; one card of the row lies face down.
ROW_AND_COLUMN = (
    """\
game "Row and column"

"""
    + CARDS
    + """zone row: shared, public
zone column: shared, public
zone hand: per player, owner

setup:
    shuffle deck
    move top of deck to row face up
    move top of deck to row face down
    move top of deck to column face up

phase play:
    action take(c: card from all of row + all of column):
        move c to hand
        if row is empty:
            end game, draw
"""
)


def _load(tmp_path: Path, text: str, name: str = "t.game") -> ruledsl.Game:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return ruledsl.load_game(path, players=2)


def test_face_up_cards_of_several_zones_are_named_and_a_face_down_one_is_not(tmp_path: Path) -> None:
    state = _load(tmp_path, ROW_AND_COLUMN).new_initial_state(seed=0)
    zones = state.observation(0)["zones"]
    seen = [c for c in zones["row"]["cards"] + zones["column"]["cards"] if c is not None]
    assert len(seen) == 2
    menu = sorted(str(a) for a in state.legal_actions())
    assert menu == sorted([f"take {c}" for c in seen] + ["take hidden card 2"])
    assert_views_ignore_hidden_cards(state, 0)
    # Typing a face-up card's name picks it.
    state.apply_action(state.action_from_string(f"take {seen[0]}"))
    assert seen[0] in state.observation(0)["zones"]["hand"][0]["cards"]


# Seat 0 takes a card from seat 1's hand, which lies face up for all (SHOWN) or not.
SHOWN_HAND = (
    """\
game "Shown hand"

"""
    + CARDS
    + """zone hand: per player, owner
zone pile: shared, public

setup:
    shuffle deck
    deal 2 from deck to each hand
    SHOWN

phase play:
    action take(c: card from (seat 1).hand):
        move c to pile
        if (seat 1).hand is empty:
            end game, draw
"""
)


def test_a_hand_turned_up_for_all_is_chosen_from_by_name(tmp_path: Path) -> None:
    state = _load(tmp_path, SHOWN_HAND.replace("SHOWN", "turn up all of (seat 1).hand")).new_initial_state(seed=3)
    menu = [str(a) for a in state.legal_actions()]
    assert not any("hidden" in m for m in menu), menu
    assert_views_ignore_hidden_cards(state, 3)
    taken = menu[0].removeprefix("take ")
    state.apply_action(state.action_from_string(menu[0]))
    assert state.describe_last(1) == state.describe_last(None) == f"take {taken}"


def test_a_hand_that_is_not_shown_is_still_chosen_from_by_place(tmp_path: Path) -> None:
    state = _load(tmp_path, SHOWN_HAND.replace("SHOWN", "")).new_initial_state(seed=3)
    assert [str(a) for a in state.legal_actions()] == ["take hidden card 1", "take hidden card 2"]
    assert_views_ignore_hidden_cards(state, 3)


# One seat: every header and message counts "1 player", never "1 players".
SOLO = """\
game "Solo"

players 1

deck:
    card "A"
    card "B"

zone deck: shared, hidden
zone pile: shared, public

setup:
    shuffle deck

phase play:
    action draw:
        move top of deck to pile
        if deck is empty:
            end game, draw
"""


def test_counted_is_plural_unless_one() -> None:
    assert [counted(n, "player") for n in (1, 2, "3 or 4")] == ["1 player", "2 players", "3 or 4 players"]
    assert counted(1, "player", 1) == "1 player" and counted(2, "player", 4) == "2 to 4 players"


def test_one_player_is_one_player_in_headers_and_messages(tmp_path: Path) -> None:
    path = tmp_path / "solo.game"
    path.write_text(SOLO, encoding="utf-8")
    game = ruledsl.load_game(path, players=1)
    assert "1 player," in repr(game)
    _, out, _ = run_cli(["simulate", str(path), "-n", "2"])
    assert "Solo: 2 games, 1 player, seeds" in out
    _, out, _ = run_cli(["play", str(path), "--seats", "random", "--seed", "1"])
    assert "Solo: 1 player (" in out
    with pytest.raises(ruledsl.RuleDslError) as info:
        ruledsl.load_game(path, players=2)
    assert "'Solo' is for 1 player, not 2" in str(info.value)
    for text in (out, repr(game), str(info.value)):
        assert "1 players" not in text


# A card laid from the table, where all see it, into the player's hand (Cartes Magiques, CM-A23);
# and one from his hand, which nobody else saw, into his hand again.
LAY_AND_TAKE = (
    """\
game "Lay and take"

"""
    + CARDS
    + """zone table: per player, public
zone hand: per player, owner

setup:
    shuffle deck
    deal 1 from deck to each table
    deal 1 from deck to each hand

phase play:
    action lay_and_take(c: card from table):
        label "lay {c} and take the tas"
        move c to hand
    action hide(c: card from hand):
        label "hide {c}"
        move c to (player after player).hand
        end game, draw
"""
)


def test_a_card_all_saw_is_named_to_all_after_it_goes_out_of_sight(tmp_path: Path) -> None:
    state = _load(tmp_path, LAY_AND_TAKE).new_initial_state(seed=0, log=True)
    (laid,) = state.observation(1)["zones"]["table"][0]["cards"]
    state.apply_action(state.action_from_string(f"lay {laid} and take the tas"))
    for viewer in (0, 1, None):
        assert state.describe_last(viewer) == f"lay {laid} and take the tas"
    assert state.clone().describe_last(1) == f"lay {laid} and take the tas"
    # A card only its owner saw stays unnamed to the others, wherever it goes.
    hide = next(a for a in state.legal_actions() if a.name == "hide")
    state.apply_action(hide)
    assert state.describe_last(1) == str(hide)  # its chooser
    assert state.describe_last(None) == "hide a hidden card"
    assert_views_ignore_hidden_cards(state, 0)


@pytest.mark.parametrize("turned", ["", "    turn up top of row\n"])
def test_an_empty_zone_is_observed_alike_whether_or_not_the_rules_turn_cards(tmp_path: Path, turned: str) -> None:
    """Issue 37: ``{"size": 0}`` for an empty zone when the file turned cards anywhere, else ``"cards": []``."""
    text = (
        'game "Empty"\n\n'
        + CARDS
        + "zone row: shared, public\nzone pile: shared, public\nzone hand: per player, owner\n\n"
        "setup:\n    shuffle deck\n    move top of deck to row\n"
        + turned
        + "\nphase play:\n    action take(c: card from row):\n        move c to hand\n        end game, draw\n"
    )
    zones = _load(tmp_path, text).new_initial_state(seed=0).observation(0)["zones"]
    assert zones["pile"] == {"size": 0, "cards": []}  # he sees the zone: no card in it
    assert zones["hand"] == [{"size": 0, "cards": []}, {"size": 0}]  # the other's hand, unseen, is a size alone
    assert zones["deck"] == {"size": 5}
