"""Scenario tests of Klondike (games/examples/klondike.game), on a tableau set by hand.

Its two hardest rules: a run of face-up cards moved together onto a card one rank higher of
the other colour, turning up the card it leaves on top; and only a King, with the cards on
it, to an empty column. The score (cards on the foundations) is what a lone player's result
tells.
"""

from __future__ import annotations

import pytest

import ruledsl
from ruledsl.tools.scenario import arrange, cards_in, set_face
from tests.scenarios.support import act, labels


def tableau(**columns: list[str]) -> ruledsl.GameState:
    """A dealt game whose named columns hold these cards, bottom to top; a card named with a
    trailing '^' lies face up. Every other column is emptied into the stock."""
    state = ruledsl.load_game("klondike").new_initial_state(seed=0)
    for k in range(1, 8):
        cards = columns.get(f"column{k}", [])
        arrange(state, f"column{k}", [c.rstrip("^") for c in cards])
    set_face(state, list(state.prog.card_names), None)  # the deal's face-up cards too
    for cards in columns.values():
        set_face(state, [c.rstrip("^") for c in cards if c.endswith("^")], True)
    return state


def seen(state: ruledsl.GameState, zone: str) -> list[str | None]:
    """A zone's cards as the player sees them, bottom to top (None: face down)."""
    return state.observation(0)["zones"][zone].get("cards", [None] * len(cards_in(state, zone)))


def test_a_run_moves_whole_onto_the_other_colour_one_rank_higher_and_turns_up_the_card_left() -> None:
    state = tableau(column2=["3♠", "9♥^", "8♠^", "7♥^"], column5=["5♦", "10♣^"], column6=["10♦^"])
    assert "move 9♥ to column 5" in labels(state)
    assert "move 9♥ to column 6" not in labels(state)  # a red Ten under a red Nine
    assert "move 8♠ to column 5" not in labels(state)  # not one rank lower than the Ten
    assert state.why_illegal("move 9♥ to column 6") is not None
    act(state, "move 9♥ to column 5")
    assert cards_in(state, "column5") == ["5♦", "10♣", "9♥", "8♠", "7♥"]  # in order, the Nine at the bottom
    assert seen(state, "column5") == [None, "10♣", "9♥", "8♠", "7♥"]
    assert cards_in(state, "column2") == ["3♠"]
    assert seen(state, "column2") == ["3♠"]  # left on top, turned up


def test_part_of_a_run_may_move_and_leaves_the_rest() -> None:
    state = tableau(column2=["9♥^", "8♠^", "7♥^"], column3=["9♦^"])
    act(state, "move 8♠ to column 3")
    assert cards_in(state, "column3") == ["9♦", "8♠", "7♥"]
    assert cards_in(state, "column2") == ["9♥"]


def test_only_a_king_and_the_cards_on_it_go_to_an_empty_column() -> None:
    state = tableau(column3=["4♣", "K♥^", "Q♠^"], column4=["K♣^"], column5=["Q♦^"])
    offered = labels(state)
    assert "move K♥ to column 1" in offered
    assert "move Q♦ to column 1" not in offered and "move Q♠ to column 1" not in offered
    assert "move K♣ to column 1" not in offered  # alone at the bottom of its column: the move changes nothing
    act(state, "move K♥ to column 1")
    assert cards_in(state, "column1") == ["K♥", "Q♠"]
    assert seen(state, "column3") == ["4♣"]


def test_the_score_is_the_cards_on_the_foundations_and_giving_up_loses_with_it() -> None:
    state = tableau(column1=["A♠^"], column2=["2♠^"])
    assert state.score() == 0
    act(state, "put A♠ on its foundation")
    act(state, "put 2♠ on its foundation")
    assert state.score() == 2
    arrange(state, "waste", [c for c in cards_in(state, "stock")])  # the stock all turned: he may give up
    act(state, "give up")
    assert state.returns() == [-1.0]
    assert state.score() == 2


@pytest.mark.parametrize("draw", ["one", "three"])
def test_the_stock_turns_one_or_three_cards_onto_the_waste(draw: str) -> None:
    state = ruledsl.load_game("klondike", options={"draw": draw}).new_initial_state(seed=0)
    stock = cards_in(state, "stock")
    act(state, "turn a card from the stock" if draw == "one" else "turn three cards from the stock")
    turned = 1 if draw == "one" else 3
    assert cards_in(state, "waste") == stock[::-1][:turned]  # the top of the stock first, so at the bottom
