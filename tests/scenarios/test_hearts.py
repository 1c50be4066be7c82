"""Scenario tests of Hearts (games/examples/hearts.game), on deals set by hand.

Its two hardest rules: the passing, in which every player chooses three cards at once and
nobody sees what is passed until all have passed (a phase played together); and shooting
the moon, in which the player who took every point scores nothing and the others 26.
"""

from __future__ import annotations

import random

import pytest

import ruledsl
from ruledsl.tools.scenario import arrange, cards_in, get_var, give_turn, set_var
from tests.scenarios.support import act, hand

RANKS = "2 3 4 5 6 7 8 9 10 J Q K A".split()
SUITS = "♣♦♠♥"  # P0 holds every club, P1 every diamond, P2 every spade, P3 every heart


def dealt(track: bool = False) -> ruledsl.GameState:
    """The first deal (pass to the left), each player holding one whole suit."""
    state = ruledsl.load_game("hearts").new_initial_state(seed=0, log=True, track=track)
    for seat, suit in enumerate(SUITS):
        arrange(state, "hand", [r + suit for r in RANKS], owner=seat)
    state.take_log()
    state.rebase()
    assert state.phase_name() == "passing" and state.current_player() == 0
    return state


class TestPassing:
    def test_a_pass_is_held_secret_until_all_have_passed(self) -> None:
        state = dealt()
        before = [state.observation(q)["zones"] for q in range(4)]
        act(state, "pass 2♣ 3♣ 4♣")
        act(state, "pass 2♦ 3♦ 4♦")
        assert state.current_player() == 2
        for q in range(4):
            assert state.observation(q)["zones"] == before[q]  # no card has moved yet
        assert "2♣" in hand(state, 0) and "2♣" not in hand(state, 1)
        assert state.describe_last(2) == "choose in secret" and state.describe_last(0) == "choose in secret"
        assert state.observation(3)["together"] == {"chosen": [0, 1], "waiting": [2, 3]}
        assert state.take_log() == []

    def test_once_all_have_passed_each_gets_the_cards_from_his_right(self) -> None:
        state = dealt()
        for label in ("pass 2♣ 3♣ 4♣", "pass 2♦ 3♦ 4♦", "pass 2♠ 3♠ 4♠", "pass 2♥ 3♥ 4♥"):
            act(state, label)
        assert state.take_log() == ["the cards are passed to the left"]
        assert sorted(hand(state, 1)) == sorted([r + "♦" for r in RANKS[3:]] + ["2♣", "3♣", "4♣"])
        assert {"2♥", "3♥", "4♥"} <= set(hand(state, 0))
        # the 2♣ went to P1, who leads it
        assert state.phase_name() == "play" and state.current_player() == 1
        assert state.why_illegal("play 5♦") == "the 2♣ leads the first trick"

    def test_the_second_deal_passes_to_the_right_and_the_fourth_not_at_all(self) -> None:
        state = ruledsl.load_game("hearts").new_initial_state(seed=1, log=True)
        assert state.take_log() == ["deal 1: pass three cards to the left"]
        rng = random.Random(1)
        said: list[str] = []
        while not state.is_terminal() and state.round <= 4:
            state.apply_action(rng.choice(state.legal_actions()))
            said += [line for line in state.take_log() if line.startswith("deal ")]
        assert said[:3] == [
            "deal 2: pass three cards to the right",
            "deal 3: pass three cards across",
            "deal 4: no passing",
        ]

    def test_a_resample_for_the_last_to_pass_does_not_keep_the_others_passes(self) -> None:
        state = ruledsl.load_game("hearts").new_initial_state(seed=2, track=True)
        rng = random.Random(2)
        for _ in range(3):
            state.apply_action(rng.choice(state.legal_actions()))
        passes = {str(a) for _, a in state.held[1]} if state.held else set()
        kept = 0
        for seed in range(10):
            sample = state.resample(3, random.Random(seed))
            kept += {str(a) for _, a in sample.held[1]} == passes
        assert kept == 0


def last_trick(taken: list[int]) -> ruledsl.GameState:
    """The 13th trick of a deal: P0 leads, each holds one card; P2's Q♥ will take it (its one point)."""
    state = ruledsl.load_game("hearts").new_initial_state(seed=0, log=True)
    for seat, card in enumerate(["5♥", "2♦", "Q♥", "3♥"]):
        arrange(state, "hand", [card], owner=seat)
    give_turn(state, 0, phase="play")
    set_var(state, "first_trick", False)
    set_var(state, "broken", True)
    for seat, points in enumerate(taken):
        set_var(state, "taken", points, owner=seat)
    state.take_log()
    return state


class TestShootingTheMoon:
    def test_the_player_who_takes_every_point_scores_nothing_and_the_others_26(self) -> None:
        state = last_trick([0, 0, 23, 0])  # with the 3 hearts of this trick: 26
        for label in ("play 5♥", "play 2♦", "play Q♥", "play 3♥"):
            act(state, label)
        assert "P2 shoots the moon: every other player scores 26" in state.take_log()
        assert get_var(state, "points") == [26, 26, 0, 26]

    def test_one_point_short_of_the_moon_scores_as_usual(self) -> None:
        state = last_trick([1, 0, 22, 0])  # P2 takes 25: no moon
        for label in ("play 5♥", "play 2♦", "play Q♥", "play 3♥"):
            act(state, label)
        assert not any("moon" in line for line in state.take_log())
        assert get_var(state, "points") == [1, 0, 25, 0]


class TestFirstTrick:
    @pytest.fixture
    def after_the_lead(self) -> ruledsl.GameState:
        """After the passes of 'dealt': P1 leads the 2♣; P2 holds no club but the Q♠ and hearts."""
        state = dealt()
        for label in ("pass 2♣ 3♣ 4♣", "pass 2♦ 3♦ 4♦", "pass 2♠ 3♠ 4♠", "pass 2♥ 3♥ 4♥"):
            act(state, label)
        act(state, "play 2♣")
        return state

    def test_no_points_on_the_first_trick(self, after_the_lead: ruledsl.GameState) -> None:
        state = after_the_lead
        assert state.current_player() == 2 and "Q♠" in hand(state, 2)
        assert state.why_illegal("play Q♠") == "no points on the first trick: neither a heart nor the Q♠"
        assert state.why_illegal("play 5♠") is None

    def test_hearts_are_not_led_until_broken(self, after_the_lead: ruledsl.GameState) -> None:
        state = after_the_lead
        act(state, "play 5♠")
        act(state, "play 2♠")  # P3, without a club: a spade he was passed
        act(state, "play A♣")  # P0 follows and takes the trick
        assert cards_in(state, "trick")[-1] == "A♣" and state.current_player() == 0
        assert state.why_illegal("play 2♥") == "hearts have not been broken: lead another suit"
