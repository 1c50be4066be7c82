"""Scenario tests of Cheat (games/examples/cheat.game), on a hand set by hand.

Its two hardest rules: a challenge settled either way (the challenger takes the pile when
the claim was true, the layer when it was not), and the pile's cards, each seen by the
player who laid it and by nobody else, until the pile is taken into a hand.
"""

from __future__ import annotations

import random

import ruledsl
from ruledsl.engine import knowledge
from ruledsl.tools.scenario import arrange, cards_in
from tests.scenarios.support import act, hand, labels


def dealt() -> ruledsl.GameState:
    """Three players; seat 0 (to play, Aces first) holds two Aces, a 5 and a King."""
    state = ruledsl.load_game("cheat", players=3).new_initial_state(seed=0, log=True, track=True)
    arrange(state, "hand", ["A♠", "A♥", "5♣", "K♦"], owner=0)
    arrange(state, "hand", ["2♠", "7♦", "9♣"], owner=1)
    knowledge.start(state)  # each seat knows the cards as they lie now
    return state


def pile_seen_by(state: ruledsl.GameState, seat: int) -> list[str | None]:
    pile = state.observation(seat)["zones"]["pile"]
    return pile.get("cards", [None] * pile["size"])


def test_a_true_claim_called_sends_the_pile_to_the_challenger() -> None:
    state = dealt()
    act(state, "lay A♠")
    act(state, "lay A♥")
    assert "lay 5♣" in labels(state)  # up to four cards
    act(state, "claim 2 × A")
    assert state.current_player() == 1 and labels(state) == ["call cheat", "let it go"]
    act(state, "call cheat")
    assert sorted(cards_in(state, "pile")) == []
    assert {"A♠", "A♥"} <= set(hand(state, 1))
    assert hand(state, 0) == ["5♣", "K♦"]
    assert state.observation(0)["variables"]["claimed"] == "2"  # the next rank
    assert state.current_player() == 1  # play goes on from the layer's left


def test_a_false_claim_called_sends_the_pile_to_the_layer() -> None:
    state = dealt()
    act(state, "lay A♠")
    act(state, "lay 5♣")
    act(state, "claim 2 × A")
    act(state, "let it go")  # seat 1 passes; seat 2 is offered the call
    assert state.current_player() == 2
    act(state, "call cheat")
    assert sorted(hand(state, 0)) == sorted(["A♥", "K♦", "A♠", "5♣"])
    assert cards_in(state, "pile") == []
    assert state.current_player() == 1


def test_the_pile_is_seen_card_by_card_by_whoever_laid_it() -> None:
    state = dealt()
    act(state, "lay K♦")
    act(state, "claim 1 × A")
    act(state, "let it go")
    act(state, "let it go")
    act(state, "lay 7♦")  # seat 1 claims 2s
    act(state, "claim 1 × 2")
    assert pile_seen_by(state, 0) == ["K♦", None]
    assert pile_seen_by(state, 1) == [None, "7♦"]
    assert pile_seen_by(state, 2) == [None, None]
    assert state.describe_last(2) == "claim 1 × 2"
    # The laying itself named no card to the others.
    assert [str(a) for a in state.history_seen_by(2)][-2:] == ["lay a hidden card", "claim 1 × 2"]
    assert [str(a) for a in state.history_seen_by(1)][-2:] == ["lay 7♦", "claim 1 × 2"]
    # A resample for seat 0 keeps what he laid, and seat 1's card stays seat 1's alone.
    copy = state.resample(0, random.Random(1))
    assert pile_seen_by(copy, 0)[0] == "K♦"
    assert pile_seen_by(copy, 1)[0] is None and pile_seen_by(copy, 1)[1] is not None
    # Seat 2 calls: seat 1 lied, takes the pile and now sees both cards.
    assert state.current_player() == 2  # the first after seat 1
    act(state, "call cheat")
    assert pile_seen_by(state, 0) == []
    assert {"K♦", "7♦"} <= set(hand(state, 1))


def test_a_player_rid_of_his_cards_and_not_caught_wins() -> None:
    state = ruledsl.load_game("cheat", players=3).new_initial_state(seed=0)
    arrange(state, "hand", ["A♠"], owner=0)
    act(state, "lay A♠")
    act(state, "claim 1 × A")
    act(state, "let it go")
    act(state, "let it go")
    assert state.is_terminal() and state.returns()[0] == max(state.returns())
