"""Scenario tests of Love Letter (games/examples/love_letter.game): private looks and key rules.

Written from the published rules, not from the rule file: the Priest shows its player
another's hand, to him alone, and his bots' resamples keep the card where he saw it; the
Baron shows each of two players the other's card, and the lower goes out of the round; a
Guard that names the card held puts its holder out, and never names a Guard; the Countess
must be played beside the King or a Prince; the Handmaid keeps others' cards off her
player; a Prince that discards the Princess puts her holder out; a round the deck ends is
won by the highest card, whose player takes a token and starts the next.
"""

from __future__ import annotations

import random

import ruledsl
from ruledsl.engine import knowledge
from ruledsl.engine.values import said_to
from ruledsl.tools.scenario import arrange, stack_top
from tests.scenarios.support import act, hand, labels


def dealt(players: int, hands: list[list[str]], top: list[str] | None = None) -> ruledsl.GameState:
    """A new round, seat 0 to play (he holds two cards, the others one each), each seat knowing what he sees."""
    state = ruledsl.load_game("love_letter", players=players).new_initial_state(seed=1, log=True, track=True)
    for seat, cards in enumerate(hands):
        arrange(state, "hand", cards, owner=seat)
    if top is not None:
        stack_top(state, "deck", top)
    knowledge.start(state)
    state.take_said()
    return state


def seen_hand(state: ruledsl.GameState, viewer: int | None, owner: int) -> list[str | None]:
    zone = state.observation(viewer)["zones"]["hand"][owner]
    return zone.get("cards", [None] * zone["size"])


def said(state: ruledsl.GameState, viewer: int | None) -> list[str]:
    return [said_to(line, viewer) for line in state.log or []]


def test_the_priest_shows_the_hand_to_its_player_alone() -> None:
    state = dealt(3, [["Priest", "Guard"], ["Baron"], ["King"]], top=["Handmaid"])
    act(state, "Priest: look at P1's hand")
    # P1 has drawn since (the Handmaid): P0 sees the Baron he was shown, not the card drawn.
    assert seen_hand(state, 0, 1) == ["Baron", None]
    assert seen_hand(state, 2, 1) == [None, None] and seen_hand(state, None, 1) == [None, None]
    assert seen_hand(state, 1, 1) == ["Baron", "Handmaid"]  # his own, as ever
    assert "you see P1's Baron" in said(state, 0)
    for viewer in (1, 2, None):
        assert "P0 looks at P1's hand" in said(state, viewer)
        assert not any("Baron" in line for line in said(state, viewer))
    # P2's view of the table names no card of P1's either, in the record of the actions.
    assert all("Baron" not in str(a) for a in state.history_seen_by(2))


def test_a_resample_by_the_looker_keeps_the_card_he_saw_and_another_seat_does_not() -> None:
    state = dealt(3, [["Priest", "Guard"], ["Baron"], ["King"]], top=["Handmaid"])
    act(state, "Priest: look at P1's hand")
    for seed in range(40):
        sample = knowledge.resample(state, 0, random.Random(seed))
        assert hand(sample, 1)[0] == "Baron"  # where he saw it; the card P1 drew since is anyone's guess
    others = {hand(knowledge.resample(state, 2, random.Random(seed)), 1)[0] for seed in range(40)}
    assert len(others) > 1  # P2 never saw it: his worlds deal P1 other cards


def test_the_baron_shows_each_the_others_card_and_the_lower_goes_out() -> None:
    state = dealt(3, [["Baron", "Prince"], ["Priest"], ["King"]], top=["Handmaid"])
    act(state, "Baron: compare hands with P1")
    assert "you see P1's Priest" in said(state, 0)
    assert "you see P0's Prince" in said(state, 1)
    assert not any("Priest" in line or "Prince" in line for line in said(state, 2))
    assert state.out == [False, True, False]  # Priest (2) < Prince (5)
    assert hand(state, 1) == [] and state.current_player() == 2
    assert hand(state, 2) == ["King", "Handmaid"]  # the next player drew


def test_a_baron_tie_puts_nobody_out() -> None:
    state = dealt(2, [["Baron", "Guard"], ["Guard"]])
    act(state, "Baron: compare hands with P1")
    assert state.out == [False, False]


def test_a_guard_naming_the_card_held_puts_its_holder_out_and_never_names_a_guard() -> None:
    state = dealt(3, [["Guard", "Guard"], ["Priest"], ["King"]], top=["Handmaid"])
    assert not any("a Guard?" in label for label in labels(state))
    assert "Guard: does P1 hold a Priest?" in labels(state)
    act(state, "Guard: does P2 hold a Priest?")
    assert state.out == [False, False, False]
    state = dealt(3, [["Guard", "Guard"], ["Priest"], ["King"]], top=["Handmaid"])
    act(state, "Guard: does P1 hold a Priest?")
    assert state.out == [False, True, False]


def test_the_countess_must_be_played_beside_the_king_or_a_prince() -> None:
    state = dealt(3, [["Countess", "King"], ["Priest"], ["Guard"]], top=["Handmaid"])
    assert labels(state) == ["Countess"]
    state = dealt(3, [["Countess", "Prince"], ["Priest"], ["Guard"]], top=["Handmaid"])
    assert labels(state) == ["Countess"]
    state = dealt(3, [["Countess", "Guard"], ["Priest"], ["Baron"]], top=["Handmaid"])
    assert "Countess" in labels(state) and len(labels(state)) > 1


def test_the_handmaid_keeps_the_others_cards_off_her_player_until_her_next_turn() -> None:
    state = dealt(2, [["Handmaid", "Guard"], ["Guard"]], top=["Priest", "Baron"])
    act(state, "Handmaid: protected until my next turn")
    assert sorted(labels(state)) == ["Guard: nobody to choose", "Priest: nobody to choose"]
    act(state, "Priest: nobody to choose")
    assert state.current_player() == 0
    assert any(label.startswith("Guard: does P1") for label in labels(state))  # she is no longer protected


def test_a_prince_discarding_the_princess_puts_her_holder_out() -> None:
    state = dealt(3, [["Prince", "Guard"], ["Princess"], ["King"]], top=["Handmaid"])
    act(state, "Prince: P1 discards and draws")
    assert state.out == [False, True, False]
    state = dealt(3, [["Prince", "Guard"], ["Baron"], ["King"]], top=["Handmaid", "Priest"])
    act(state, "Prince: P1 discards and draws")
    # P1 discarded the Baron and drew the Handmaid; then, his turn come, the Priest.
    assert hand(state, 1) == ["Handmaid", "Priest"] and state.out == [False, False, False]


def test_the_highest_card_wins_the_round_the_deck_ends_and_its_player_starts_the_next() -> None:
    state = dealt(2, [["Handmaid", "Guard"], ["King"]])
    while len(state.zones[state.prog.zones[0].base]) > 0:  # play out the deck with Handmaids or nobody chosen
        state.apply_action(state.legal_actions()[0])
        if state.round > 1:
            break
    assert state.round == 2
    tokens = state.observation(None)["player_variables"]["tokens"]
    assert sum(tokens) == 1
    winner = tokens.index(1)
    assert state.current_player() == winner and len(hand(state, winner)) == 2


def test_seven_tokens_win_with_two_players() -> None:
    game = ruledsl.load_game("love_letter", players=2)
    state = game.new_initial_state(seed=5)
    while not state.is_terminal():
        state.apply_action(random.Random(state.n_actions).choice(state.legal_actions()))
    tokens = state.observation(None)["player_variables"]["tokens"]
    assert max(tokens) == 7 and state.returns()[tokens.index(7)] > 0
