"""Whether a player has a legal action, found without listing them all, agrees with the listing.

``GameState.has_legal_action`` and the probe that decides who a window is offered to stop a
legal function at its first action; over random playthroughs of every shipped game, what
they answer must be what the full listing says, for every phase and window and every player.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ruledsl
from ruledsl.engine.state import GameState
from ruledsl.engine.turns import offers as _offers
from ruledsl.resources import named_games
from ruledsl.text.errors import RuleDslError

GAMES = sorted(named_games())


def _listed(state: GameState, legal: Any, q: int) -> bool | None:
    """Whether the full listing offers ``q`` an action (None: it fails, as some rules do out of place)."""
    out: list[ruledsl.Action] = []
    state.steps = state.calls = 0
    state.memo = {}
    try:
        legal(state, q, out)
    except (Exception, RuleDslError):
        return None
    finally:
        state.memo = None
    return bool(out)


def _offered(state: GameState, legal: Any, q: int) -> bool:
    state.steps = state.calls = 0
    state.memo = {}
    try:
        return _offers(state, legal, q)
    finally:
        state.memo = None


def _agrees_everywhere(state: GameState) -> None:
    fresh = state.clone()
    fresh._legal = None  # nothing listed yet: the check must not lean on a listing
    assert fresh.has_legal_action() == bool(state.legal_actions())
    prog = state.prog
    # The phase's and every window's legal function, for every player (those not to act
    # too: a window probes them all), open or not: they need not make sense here, only agree.
    for legal in [prog.phases[state.phase].legal] + [w.legal for w in prog.windows]:
        for q in range(state.num_players):
            listed = _listed(state, legal, q)
            if listed is not None:  # a listing that fails may be stopped before it fails
                assert _offered(state, legal, q) == listed


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 6), steps=st.integers(0, 300))
def test_existence_agrees_with_the_listing(name: str, seed: int, players: int, steps: int) -> None:
    low, high = ruledsl.players_range(ruledsl.check_file(name))
    game = ruledsl.load_game(name, players=min(max(players, low), high))
    state = game.new_initial_state(seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        _agrees_everywhere(state)
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    _agrees_everywhere(state)
    if state.is_terminal():
        assert not state.has_legal_action()


# A choice of any cards from a hand of 18 different cards offers 2 ** 18 - 1 groups: more than the step
# budget lets a listing build (R507). Whether there is one is known at the first.
MANY_GROUPS = """\
game "many groups"
players 2
values suit: spades "♠", hearts "♥", diamonds "♦", clubs "♣"
values rank: 2, 3, 4, 5, 6, 7, 8, 9, 10
card rank: rank
card suit: suit
zone deck: shared, hidden
zone hand: per player, owner
zone table: shared, public
deck:
    card "{rank}{suit}" for rank in 2 to 10, suit in spades to clubs
setup:
    deal 18 from deck to each hand
    go to play with seat 0
phase play:
    action lay(c: card from hand):
        move c to table
        open answer
        if hand is empty:
            end game
window answer for players after player:
    action answer(cs: cards from hand):
        move cs to table
"""


def _many_groups(tmp_path: Path) -> ruledsl.Game:
    path = tmp_path / "many_groups.game"
    path.write_text(MANY_GROUPS, encoding="utf-8")
    return ruledsl.load_game(path, players=2)


def test_existence_stops_at_the_first_action(tmp_path: Path) -> None:
    state = _many_groups(tmp_path).new_initial_state(seed=1)
    answer = state.prog.windows[0].legal
    assert _offered(state, answer, 1)
    assert _listed(state, answer, 1) is None  # listing them all runs out of steps (R507)


def test_a_window_is_offered_without_listing_its_actions(tmp_path: Path) -> None:
    """Opening a window asks each player whether he has an action: one found is enough."""
    state = _many_groups(tmp_path).new_initial_state(seed=1)
    state.apply_action(state.legal_actions()[0])  # opens 'answer': P1 has 2 ** 18 - 1 groups
    assert state.current_player() == 1
    assert state.has_legal_action()
