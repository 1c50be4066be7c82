"""Scenario tests of Hanabi (games/examples/hanabi.game): hands seen by all but their owner, hints
told to everyone, and the team's shared score.

The checks are written from the published rules, not from the rule file: what each seat sees
is read off the observation, and the fireworks are scored here (the sum of each colour's top).
"""

from __future__ import annotations

import ruledsl
from ruledsl.tools.records import describe_view
from ruledsl.tools.scenario import arrange, cards_in
from tests.scenarios.support import act, labels

COLOURS = ("white", "yellow", "green", "blue", "red")


def dealt(players: int = 3) -> ruledsl.GameState:
    state = ruledsl.load_game("hanabi", players=players).new_initial_state(seed=0, log=True)
    arrange(state, "hand", ["red 1", "red 3", "blue 2", "white 1", "green 5"], owner=0)
    arrange(state, "hand", ["red 2", "yellow 1", "blue 1", "blue 4", "white 2"], owner=1)
    if players > 2:
        arrange(state, "hand", ["green 1", "green 2", "yellow 2", "white 3", "red 4"], owner=2)
    return state


def score(state: ruledsl.GameState) -> int:
    """The sum of the top card of each colour's firework, worked out from the cards played."""
    played = cards_in(state, "fireworks")
    return sum(max((int(name.split()[1]) for name in played if name.split()[0] == k), default=0) for k in COLOURS)


def play_card(state: ruledsl.GameState, name: str) -> str:
    """Play (by its place, the only way its owner can) the card named ``name``; return the label."""

    def laid(st: ruledsl.GameState) -> int:
        return (cards_in(st, "fireworks") + cards_in(st, "discards")).count(name)

    for action in state.legal_actions():
        if not str(action).startswith("play "):
            continue
        trial = state.clone()
        trial.apply_action(action)
        if laid(trial) > laid(state):
            state.apply_action(action)
            return str(action)
    raise AssertionError(f"no play of {name}")


def test_a_hand_is_seen_by_all_but_its_owner() -> None:
    state = dealt()
    for seat in range(3):
        hands = state.observation(seat)["zones"]["hand"]
        assert "cards" not in hands[seat] and hands[seat]["size"] == 5
        for other in range(3):
            if other != seat:
                assert sorted(hands[other]["cards"]) == sorted(cards_in(state, "hand", owner=other))


def test_the_owner_plays_by_place_and_the_others_are_told_the_card() -> None:
    state = dealt()
    mine = [label for label in labels(state) if label.startswith(("play", "discard"))]
    assert mine and all("hidden card" in label for label in mine)  # never his cards' names
    assert "tell P1 their blue cards" in labels(state) and "tell P2 their 5s" not in labels(state)
    label = play_card(state, "red 1")
    assert state.describe_last(0) == label
    assert state.describe_last(1) == state.describe_last(2) == "play red 1"
    assert cards_in(state, "fireworks") == ["red 1"] and len(cards_in(state, "hand", owner=0)) == 5


def test_a_hint_is_known_to_the_owner_of_the_cards() -> None:
    state = dealt()
    act(state, "tell P1 their blue cards")
    assert state.observation(None)["variables"]["hints"] == 7
    hand = cards_in(state, "hand", owner=1)
    told = state.observation(1)["zones"]["hand"][1]["told"]["told_colour"]
    assert told == ["blue" if name.startswith("blue") else None for name in hand]
    assert "cards" not in state.observation(1)["zones"]["hand"][1]  # told the colours, never the cards


def test_a_wrong_play_burns_a_fuse_and_the_third_ends_the_game_with_the_shared_score() -> None:
    state = dealt()
    play_card(state, "red 1")  # P0: on the red firework
    play_card(state, "red 2")  # P1: red 2 follows
    assert score(state) == 2
    play_card(state, "red 4")  # P2: red 3 is missing: a fuse burns
    assert state.observation(None)["variables"]["fuses"] == 2 and "red 4" in cards_in(state, "discards")
    play_card(state, "blue 2")  # P0: no blue yet
    play_card(state, "blue 4")  # P1: the third fuse
    assert state.is_terminal()
    assert score(state) == 2
    assert state.returns() == [2.0, 2.0, 2.0]  # the team's score, shared


def test_the_game_ends_one_round_after_the_deck_runs_out() -> None:
    state = dealt(players=2)
    arrange(state, "deck", ["white 4"], rest="discards")  # one card left to draw
    act(state, "tell P1 their 1s")  # P0 hints: no draw
    play_card(state, "yellow 1")  # P1 plays and draws the last card
    assert cards_in(state, "deck") == [] and not state.is_terminal()
    act(state, "tell P1 their 2s")  # P0's last turn
    assert not state.is_terminal()
    play_card(state, "blue 1")  # P1's last turn (he drew the last card): the game is over
    assert state.is_terminal() and state.returns() == [float(score(state))] * 2 == [2.0, 2.0]


def test_the_text_view_tells_the_owner_his_hints_by_place() -> None:
    state = dealt()
    act(state, "tell P1 their blue cards")
    hand = cards_in(state, "hand", owner=1)
    told = ", ".join("blue" if name.startswith("blue") else "-" for name in hand)
    assert f"  told_colour of your hand: {told}" in describe_view(state.observation(1), 1)
