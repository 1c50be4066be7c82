"""Scenario tests of Knockout (games/examples/knockout.game): out for a round, not the game.

A player knocked out ('finish P for the round') is skipped by the turn order for the rest of
the round, counts as out in the round's end rules, and plays again from the next round on,
his place in the game's finishing order never taken.
"""

from __future__ import annotations

import ruledsl
from ruledsl.engine import ops
from ruledsl.loading import check_source, load_checked
from ruledsl.text.source import Source
from ruledsl.tools.scenario import arrange
from tests.scenarios.support import act


def dealt() -> ruledsl.GameState:
    state = ruledsl.load_game("knockout", players=3).new_initial_state(seed=0, log=True)
    arrange(state, "hand", ["5♠", "9♠", "2♥"], owner=0)
    arrange(state, "hand", ["3♠", "K♠", "Q♥"], owner=1)
    arrange(state, "hand", ["7♠", "8♠", "2♣"], owner=2)
    return state


def test_a_player_knocked_out_is_skipped_for_the_rest_of_the_round() -> None:
    state = dealt()
    act(state, "lay 5♠")
    act(state, "lay 3♠")  # lower: seat 1 is out of this round
    assert state.out == [False, True, False]
    act(state, "lay 7♠")
    assert state.current_player() == 0
    act(state, "lay 9♠")
    assert state.current_player() == 2  # seat 1 skipped, with no 'next' written by hand


def test_the_knocked_out_player_plays_again_next_round_and_the_round_scores_those_in() -> None:
    state = dealt()
    act(state, "lay 5♠")
    act(state, "lay 3♠")
    act(state, "lay 2♣")  # seat 2 out too: seat 0 is the last one in, the round ends
    assert state.round == 2
    assert state.out == [False, False, False] and state.finished == []
    assert state.current_player() == 0
    obs = state.observation(None)["player_variables"]
    assert obs["score"] == [1, 0, 0]


def test_finish_for_the_game_after_the_round_keeps_him_out() -> None:
    state = dealt()
    act(state, "lay 5♠")
    act(state, "lay 3♠")
    ops.finish(state, 1)  # 'finish P' on a player out for the round: out for the game now
    assert state.round_out == [] and state.finished == [1] and state.out[1]


_ALL_OUT = """\
game "g"
players 2
card rank: number
zone deck: shared, hidden
zone hand: per player, owner
deck:
    card "{rank}" for rank in 1 to 6
setup:
    shuffle deck
    deal 1 from deck to each hand
phase play:
    action lay(c: card from hand):
        move c to deck
        finish player for the round
round end:
    if round == 2:
        end game, draw
"""


def test_with_everybody_out_for_the_round_the_round_ends_not_the_game() -> None:
    state = load_checked(check_source(Source("g.game", _ALL_OUT)), 2).new_initial_state(seed=1)
    state.apply_action(state.legal_actions()[0])
    assert state.out == [True, False] and state.current_player() == 1
    state.apply_action(state.legal_actions()[0])  # nobody is left in: the round is over
    assert state.round == 2 and state.out == [False, False] and not state.is_terminal()
