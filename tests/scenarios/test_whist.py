"""Scenario tests of Whist (games/examples/whist.game), on a deal set by hand.

Seats 0 and 2 are partners against 1 and 3; seat 3 deals, so seat 0 leads. The deal
keeps the card the setup turned up (the dealer's last, on top of his hand) and gives
the dealer every trump; seats 0, 1 and 2 hold one other suit each, except that 0 and 1
have swapped their 2s, so that 1 can follow 0's lead once.
"""

from __future__ import annotations

import pytest

import ruledsl
from ruledsl.tools.scenario import arrange, cards_in, get_var
from tests.scenarios.support import act, hand

RANKS = "2 3 4 5 6 7 8 9 10 J Q K A".split()


def dealt(goal: int = 5) -> tuple[ruledsl.GameState, str, list[str]]:
    """The state after the hand-set deal; the turned card; the suits of seats 0, 1, 2, then the trump."""
    state = ruledsl.load_game("whist", options={"goal": goal}).new_initial_state(seed=0)
    turned = hand(state, 3)[-1]
    trump = turned[-1]
    a, b, c = [s for s in "♠♥♦♣" if s != trump]
    hands = {
        0: [r + a for r in RANKS[1:]] + ["2" + b],
        1: [r + b for r in RANKS[1:]] + ["2" + a],
        2: [r + c for r in RANKS],
        3: [r + trump for r in RANKS if r + trump != turned] + [turned],  # last: still on top, face up
    }
    for seat, cards in hands.items():
        arrange(state, "hand", cards, owner=seat)
    return state, turned, [a, b, c, trump]


def first_trick(state: ruledsl.GameState, suits: list[str], turned: str) -> str:
    """Play the first trick: 0 leads his ace, 1 follows with the 2, 2 throws off, 3 trumps."""
    a, _, c, trump = suits
    act(state, "play A" + a)
    act(state, "play 2" + a)
    act(state, "play 2" + c)
    low_trump = next(r + trump for r in RANKS if r + trump != turned)
    act(state, "play " + low_trump)
    return low_trump


def test_a_player_who_can_follow_suit_must_and_is_told_why() -> None:
    state, _, (a, b, _, _) = dealt()
    act(state, "play A" + a)
    assert state.current_player() == 1
    assert state.why_illegal("play A" + b) == f"you must follow suit: {a}"
    with pytest.raises(ruledsl.IllegalActionError, match="you must follow suit"):
        act(state, "play A" + b)
    act(state, "play 2" + a)  # the refusal changed nothing: he follows, and play goes on
    assert state.current_player() == 2


def test_a_player_who_cannot_follow_may_play_any_card() -> None:
    state, _, (a, _, c, _) = dealt()
    act(state, "play A" + a)
    act(state, "play 2" + a)
    assert state.why_illegal("play A" + c) is None


def test_the_lowest_trump_takes_the_trick_from_the_ace_of_the_suit_led() -> None:
    state, turned, suits = dealt()
    low_trump = first_trick(state, suits, turned)
    assert get_var(state, "tricks") == [0, 0, 0, 1]
    assert state.current_player() == 3  # the taker leads the next
    assert cards_in(state, "trick")[-1] == low_trump  # the trick stays in sight until the next lead


def test_the_turned_card_is_seen_until_the_dealer_plays() -> None:
    state, turned, suits = dealt()
    assert hand_seen_by(state, 0, 3) == [None] * 12 + [turned]
    first_trick(state, suits, turned)
    assert hand_seen_by(state, 0, 3) == [None] * 12


def hand_seen_by(state: ruledsl.GameState, viewer: int, owner: int) -> list[str | None]:
    return state.observation(viewer)["zones"]["hand"][owner].get("cards", [None] * len(hand(state, owner)))


def play_out(state: ruledsl.GameState, tricks: int) -> None:
    """Play ``tricks`` more tricks, each player his first legal card."""
    for _ in range(4 * tricks):
        state.apply_action(state.legal_actions()[0])


def test_a_side_scores_a_point_per_trick_over_six_and_wins_together() -> None:
    state, turned, suits = dealt(goal=5)
    first_trick(state, suits, turned)
    play_out(state, 12)  # the dealer leads trumps nobody else holds: he takes every trick
    assert get_var(state, "tricks") == [0, 0, 0, 13]
    assert get_var(state, "points") == [0, 7, 0, 7]  # 13 - 6, for his partner too
    assert state.is_terminal()
    assert state.returns() == [-1.0, 1.0, -1.0, 1.0]


def test_below_the_goal_the_deal_passes_to_the_left_and_the_points_stay() -> None:
    state, turned, suits = dealt(goal=10)
    first_trick(state, suits, turned)
    play_out(state, 12)
    assert not state.is_terminal()
    assert get_var(state, "points") == [0, 7, 0, 7]
    assert get_var(state, "tricks") == [0, 0, 0, 0]
    assert get_var(state, "dealer") == 0
    assert state.current_player() == 1  # the new dealer's left leads
    assert [len(hand(state, p)) for p in range(4)] == [13] * 4
