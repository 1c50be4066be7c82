"""A step that waits on chance is paused at each chance node and goes on from there, not made again.

Each draw of the rules is a chance node (tests/bridges/test_chance.py); the step that draws
is made once, in a stack of its own (``ruledsl.openspiel._Stepper``), whatever number of
cards it deals. A copy of a state at a chance node, or a state taken to another thread, makes
the step again from where it began with the outcomes given so far: the same play either way.
"""

from __future__ import annotations

import gc
import pickle
import random
import threading
import weakref
from pathlib import Path

import pytest

from tests.extras import require

pyspiel = require("pyspiel", "openspiel")
openspiel = require("ruledsl.openspiel", "openspiel")

HERE = Path(__file__).parent


def _played(game: object, moves: list[int]) -> object:
    state = game.new_initial_state()  # type: ignore[attr-defined]
    for move in moves:
        state.apply_action(move)
    return state


def _random_moves(game: object, seed: int, most: int = 10_000) -> list[int]:
    state, rng, moves = game.new_initial_state(), random.Random(seed), []  # type: ignore[attr-defined]
    while not state.is_terminal() and len(moves) < most:
        move = rng.choice(state.legal_actions())
        state.apply_action(move)
        moves.append(move)
    return moves


def _mid_deal(game: object) -> tuple[object, list[int]]:
    """A state three chance nodes into its setup's deal, and the outcomes given."""
    state = game.new_initial_state()  # type: ignore[attr-defined]
    given = []
    for _ in range(3):
        assert state.is_chance_node()
        given.append(state.legal_actions()[0])
        state.apply_action(given[-1])
    assert state.is_chance_node()
    return state, given


def test_each_step_is_made_once_however_many_chance_nodes_it_waits_on(monkeypatch: pytest.MonkeyPatch) -> None:
    """Setup (15 cards dealt in Crazy Eights) and each player's id make their step once."""
    monkeypatch.setattr(openspiel, "_SETUPS", {})  # this game's setup made anew, here
    made: list[int] = []
    make = openspiel._make_step
    monkeypatch.setattr(openspiel, "_make_step", lambda *a: made.append(a[2]) or make(*a))
    game = pyspiel.load_game("ruledsl", {"game": "crazy_eights", "players": 2})
    state, rng = game.new_initial_state(), random.Random(3)
    chance = ids = 0
    while not state.is_terminal():
        if state.is_chance_node():
            chance += 1
        else:
            ids += 1
        state.apply_action(rng.choice(state.legal_actions()))
    assert chance > 15
    assert len(made) == 1 + ids  # setup, then each id: none made again for a chance outcome


def test_a_play_is_the_same_made_in_one_go_or_replayed_from_its_moves() -> None:
    game = pyspiel.load_game("ruledsl", {"game": "crazy_eights", "players": 2})
    for seed in range(3):
        moves = _random_moves(game, seed)
        state = _played(game, moves)
        again = pickle.loads(pickle.dumps(state))  # made again from the moves, step by step
        assert str(again) == str(state) and again.returns() == state.returns()
        assert again.observation_tensor(0) == state.observation_tensor(0)


def test_a_copy_at_a_chance_node_goes_on_by_itself() -> None:
    game = pyspiel.load_game("ruledsl", {"game": "crazy_eights", "players": 2})
    state, given = _mid_deal(game)
    copy = state.clone()
    first, last = state.legal_actions()[0], state.legal_actions()[-1]
    state.apply_action(first)
    copy.apply_action(last)
    for s, outcome in ((state, first), (copy, last)):
        while s.is_chance_node():  # the rest of the deal, the same for both
            s.apply_action(s.legal_actions()[0])
        twin = _played(game, [*given, outcome])
        while twin.is_chance_node():
            twin.apply_action(twin.legal_actions()[0])
        assert s.observation_tensor(0) == twin.observation_tensor(0)
        assert s.observation_tensor(1) == twin.observation_tensor(1)
    assert state.observation_tensor(0) != copy.observation_tensor(0) or state.observation_tensor(
        1
    ) != copy.observation_tensor(1)


def test_a_play_dropped_at_a_chance_node_frees_the_step_it_holds() -> None:
    """A paused greenlet in a reference cycle is never collected: the step must hold no way back to its play."""
    game = pyspiel.load_game("ruledsl", {"game": "crazy_eights", "players": 2})
    state, _ = _mid_deal(game)
    stepper = state._play.stepper
    assert stepper is not None and not stepper.dead
    paused = weakref.ref(stepper)
    del state, stepper
    gc.collect()
    assert paused() is None


def test_a_play_paused_in_one_thread_goes_on_in_another() -> None:
    game = pyspiel.load_game("ruledsl", {"game": "crazy_eights", "players": 2})
    moves = _random_moves(game, 5)
    state = game.new_initial_state()
    worker = threading.Thread(target=lambda: [state.apply_action(m) for m in moves[:3]])
    worker.start()
    worker.join()
    assert state.is_chance_node() and state._play.stepper is not None  # paused in the worker's thread
    for move in moves[3:]:
        state.apply_action(move)
    assert str(state) == str(_played(game, moves))


def test_a_rule_failing_after_its_step_waited_on_chance_leaves_the_state_at_its_chance_node() -> None:
    game = pyspiel.load_game("ruledsl", {"game": str(HERE / "draw_then_fail.game"), "players": 2})
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    (draw,) = [a for a in state.legal_actions() if state.action_to_string(a) == "draw"]
    state.apply_action(draw)
    state.apply_action(state.legal_actions()[0])  # the first card drawn
    assert state.is_chance_node()
    need = state.chance_outcomes()
    for _ in range(2):  # made again after the failure, and failing again
        with pytest.raises(Exception, match="division by zero"):
            state.apply_action(need[0][0])
        assert state.is_chance_node() and state.chance_outcomes() == need
