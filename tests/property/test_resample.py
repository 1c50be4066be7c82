"""Resampling hidden cards: the new state looks the same to the player and agrees with what he saw."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ruledsl
from ruledsl.engine.state import GameState
from ruledsl.loading import check_file, players_range

GAMES = sorted(ruledsl.bundled_games())


def played(name: str, players: int, seed: int, steps: int) -> GameState:
    """A tracked state after up to ``steps`` random actions."""
    game = ruledsl.load_game(name, players=players)
    state = game.new_initial_state(seed=seed, track=True)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def some_player_count(name: str, pick: int) -> int:
    """One of the player counts the game allows, chosen by ``pick``."""
    low, high = players_range(check_file(name))
    return low + pick % (high - low + 1)


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 120), pick=st.integers(0, 100))
def test_resampled_state_looks_the_same(name: str, seed: int, steps: int, pick: int) -> None:
    players = some_player_count(name, pick)
    state = played(name, players, seed, steps)
    viewer = pick % players
    before = state.observation(viewer)
    resampled = state.resample(viewer, random.Random(seed))
    assert resampled.observation(viewer) == before
    assert state.observation(viewer) == before  # the original is untouched
    assert sorted(c for z in resampled.zones for c in z) == list(range(state.prog.n_cards))
    for z, cards in enumerate(resampled.zones):
        assert all(resampled.loc[c] == z for c in cards)
    # Play goes on from the resampled state.
    rng = random.Random(seed + 1)
    for _ in range(20):
        if resampled.is_terminal():
            break
        legal = resampled.legal_actions()
        assert legal
        resampled.apply_action(rng.choice(legal))


def test_resampling_changes_what_the_player_cannot_see() -> None:
    state = played("quasenbo", 3, seed=1, steps=0)
    hands = {tuple(state.resample(0, random.Random(k)).zones[3]) for k in range(20)}
    assert len(hands) > 1  # an opponent's hand is dealt anew
    assert {tuple(state.resample(0, random.Random(k)).zones[2]) for k in range(20)} == {tuple(state.zones[2])}


def test_cards_seen_going_into_a_hand_stay_there() -> None:
    """Katzenjammer: the lot a player won went into his hand in view of everybody."""
    game = ruledsl.load_game("katzenjammer_blues", players=3)
    for seed in range(40):
        state = game.new_initial_state(seed=seed, track=True)
        rng = random.Random(seed)
        while not state.is_terminal() and state.phase_name() != "paying":
            state.apply_action(rng.choice(state.legal_actions()))
        if state.is_terminal():
            continue
        winner = state.current_player()
        lot = list(state.zones[1])  # zone 1: the lot, public
        state.apply_action(state.legal_actions()[0])  # pay: the lot goes into his hand
        viewer = (winner + 1) % 3
        hand_zone = next(z.base for z in state.prog.zones if z.name == "hand") + winner
        for k in range(10):
            resampled = state.resample(viewer, random.Random(k))
            assert set(lot) <= set(resampled.zones[hand_zone])
        return
    pytest.fail("no auction was won in 40 games")


def test_a_picked_up_tas_stays_in_the_hand() -> None:
    """Cartes Magiques: the cards of a tas picked up were public; they stay in that hand."""
    game = ruledsl.load_game("cartes_magiques", players=3)
    for seed in range(40):
        state = game.new_initial_state(seed=seed, track=True)
        rng = random.Random(seed)
        for _ in range(400):
            if state.is_terminal():
                break
            legal = state.legal_actions()
            pick = [a for a in legal if a.name == "pick_up"]
            if pick and len(state.zones[1]) >= 3:
                taker = state.current_player()
                tas = list(state.zones[1])
                state.apply_action(pick[0])
                hand_zone = next(z.base for z in state.prog.zones if z.name == "hand") + taker
                viewer = (taker + 1) % 3
                for k in range(10):
                    assert set(tas) <= set(state.resample(viewer, random.Random(k)).zones[hand_zone])
                return
            state.apply_action(rng.choice(legal))
    pytest.fail("nobody picked up a tas of 3 cards in 40 games")


def test_untracked_states_resample_among_all_hidden_places() -> None:
    game = ruledsl.load_game("crazy_eights", players=2)
    state = game.new_initial_state(seed=3)
    resampled = state.resample(0, random.Random(0))
    assert resampled.observation(0) == state.observation(0)


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 200), pick=st.integers(0, 100))
def test_knowledge_never_rules_out_where_a_card_is(name: str, seed: int, steps: int, pick: int) -> None:
    """Sound: every player's set of places for a card holds the zone the card is in."""
    state = played(name, some_player_count(name, pick), seed, steps)
    for q, row in enumerate(state.known):
        for c, z in enumerate(state.loc):
            assert row[c] >> z & 1, f"player {q} rules card {c} out of zone {z}, where it is"


def test_a_card_held_when_the_stock_ran_out_is_never_dealt_back_into_it() -> None:
    """Quäsenbö: when the deck runs out, every card seat 0 cannot see is in the other hand.

    The deck is then filled again from the pile, in view of all; a deal for seat 0 may put
    into the deck only cards that came from the pile, never one the other player held.
    """
    deck, pile, hand = 0, 1, 2
    game = ruledsl.load_game("quasenbo", players=2)
    checked = 0
    for seed in range(60):
        state = game.new_initial_state(seed=seed, track=True)
        rng = random.Random(seed)
        held = None  # the other's hand when the deck ran out
        refilled: set[int] = set()  # the cards the pile gave the deck
        while not state.is_terminal():
            before = list(state.zones[pile])
            state.apply_action(rng.choice(state.legal_actions()))
            if held is None and not state.zones[deck]:
                held = set(state.zones[hand + 1])
            elif held is not None and not refilled and state.zones[deck]:
                refilled = set(before) - set(state.zones[pile])
            if refilled and state.current_player() == 0 and len(state.zones[deck]) > 1:
                for k in range(5):
                    dealt = state.resample(0, random.Random(k))
                    assert set(dealt.zones[deck]) <= refilled
                    assert held & set(state.zones[hand + 1]) <= set(dealt.zones[hand + 1])
                checked += 1
                break
    assert checked >= 5, f"only {checked} games ran the deck out and filled it again"


FACE_DOWN = """\
game "Face down"
players 2
card rank: number
zone deck: shared, hidden
zone pile: shared, public
deck:
    card "{rank}" for rank in 1 to 6
setup:
    shuffle deck
    move top of deck to pile face down
phase play:
    action finish:
        end game, draw
"""


def test_a_card_dealt_into_the_place_of_a_face_down_card_lies_face_down(tmp_path) -> None:  # type: ignore[no-untyped-def]
    # Found by the random rule files (tests/generate): a resample put a deck card in the place of
    # the face-down card of a public pile, face up, for everybody to see.
    path = tmp_path / "face_down.game"
    path.write_text(FACE_DOWN, encoding="utf-8")
    state = ruledsl.load_game(str(path), players=2).new_initial_state(seed=0, track=True)
    seen = state.observation(0)
    assert seen["zones"]["pile"] == {"size": 1, "cards": [None]}  # a face-down card: not shown
    assert all(state.resample(0, random.Random(k)).observation(0) == seen for k in range(20))
