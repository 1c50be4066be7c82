"""The observation tensor kept from step to step (``TensorWriter``) is always the one written from scratch.

After every action of random plays, of bundled games and of random rule files, the writer's
tensor of each seat (and a spectator's) is compared with ``TensorLayout.observation`` of his
observation; so are the tensors OpenSpiel, PettingZoo and Gymnasium hand out, which the writer
fills. Seats are asked in a random order and not at every step, so a writer often catches up
over several steps, or reads a state it did not see come (a clone, a resampled deal).
"""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import ruledsl.openspiel  # noqa: F401  (registers "ruledsl")
from ruledsl.engine.state import GameState
from ruledsl.gymnasium import RuledslEnv as GymEnv
from ruledsl.loading import check_source, load_checked, players_range
from ruledsl.openspiel import _view
from ruledsl.pettingzoo import env as aec_env
from ruledsl.resources import named_games
from ruledsl.spaces import ActionSpace, Decisions, Spaces, TensorLayout, spaces_for
from ruledsl.spaces.tensors import TensorWriter
from ruledsl.text.source import Source
from tests.generate.rules import rule_texts

GAMES = sorted(named_games())


def writer_of(layout: TensorLayout) -> TensorWriter:
    return TensorWriter(layout)


def fresh(layout: TensorLayout, state: GameState, seat: int | None) -> list[float]:
    return layout.observation(state.observation(seat))


def play_and_compare(spaces: Spaces, seed: int, steps: int = 400) -> int:
    """Play ``spaces``' game at random, comparing every seat's kept tensor with a fresh one; return the checks."""
    layout, rng = spaces.tensors, random.Random(seed)
    writer = writer_of(layout)
    play = spaces.new_play(seed, track=bool(seed % 2))
    seats: list[int | None] = [None, *range(spaces.game.players)]
    checks = 0
    for _ in range(steps):
        for seat in rng.sample(seats, rng.randint(1, len(seats))):
            assert list(writer.tensor(play.state, seat)) == fresh(layout, play.state, seat), (seed, seat)
            checks += 1
        if play.is_terminal():
            break
        play.apply_action(rng.choice(play.legal_actions()))
    return checks


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=4, deadline=None)
@given(seed=st.integers(0, 10**6))
def test_the_kept_tensor_is_the_fresh_one_after_every_action(name: str, seed: int) -> None:
    low, high = players_range(spaces_for(name).game.checked)
    assert play_and_compare(spaces_for(name, players=[low, high][seed % 2]), seed) > 0


@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
@given(text=rule_texts(), seed=st.integers(0, 10**6))
def test_the_kept_tensor_is_the_fresh_one_in_random_rule_files(text: str, seed: int) -> None:
    checked = check_source(Source("random.game", text))
    low, high = players_range(checked)
    game = load_checked(checked, random.Random(seed).randint(low, high), {}, max_actions=300)
    space = ActionSpace(game)
    assert play_and_compare(Spaces(game, space, TensorLayout(game, space.num_distinct_actions)), seed, 300) > 0


@pytest.mark.parametrize("name", ["quasenbo", "president", "go_fish"])
def test_a_kept_tensor_does_not_change_when_hidden_cards_are_dealt_anew(name: str) -> None:
    """What the writer kept from the true deal shows nothing of it in another deal the seat cannot tell apart."""
    spaces = spaces_for(name, players=3)
    layout, rng = spaces.tensors, random.Random(7)
    writer = writer_of(layout)
    play = Decisions(spaces.actions, GameState.new(spaces.game, 7, track=True))
    for _ in range(40):
        for seat in range(3):
            true = list(writer.tensor(play.state, seat))
            other = play.state.resample(seat, random.Random(rng.getrandbits(31)))
            assert list(writer.tensor(other, seat)) == true
            assert list(writer.tensor(play.state, seat)) == true
        if play.is_terminal():
            break
        play.apply_action(rng.choice(play.legal_actions()))


@pytest.mark.parametrize("name", ["crazy_eights", "quasenbo", "kuhn_poker", "leduc_poker", "president"])
def test_openspiel_tensors_are_the_fresh_ones_through_chance_nodes_and_clones(name: str) -> None:
    game = pyspiel.load_game("ruledsl", {"game": name, "track": False})  # the fewest players it allows
    layout = game.spaces.tensors
    rng = random.Random(3)

    def spiel_fresh(state: ruledsl.openspiel.RuledslState, seat: int) -> list[float]:
        decisions = state.decisions  # at a chance node: as it stood before the step that draws
        return [0.0] * layout.observation_size if decisions is None else layout.observation(_view(decisions, seat))

    for _ in range(3):
        state, kept = game.new_initial_state(), []
        while not state.is_terminal():
            for seat in range(game.num_players()):
                assert state.observation_tensor(seat) == spiel_fresh(state, seat)
            if rng.random() < 0.2:
                kept.append(state.clone())
            state.apply_action(rng.choice(state.legal_actions()))
        for old in kept:  # an earlier state, read again after the writer moved on
            assert old.observation_tensor(0) == spiel_fresh(old, 0)


def test_pettingzoo_hands_out_the_fresh_tensor_and_a_new_array_each_time() -> None:
    env = aec_env("crazy_eights", players=3)
    layout = env.spaces.tensors
    rng = random.Random(5)
    env.reset(seed=5)
    handed: list[tuple[np.ndarray, list[float]]] = []
    for agent in env.agent_iter():
        obs, _, termination, truncation, _ = env.last()
        play = env.play
        assert play is not None
        seat = env._index[agent]
        assert obs["observation"].tolist() == layout.observation(play.observation(seat))
        handed.append((obs["observation"], obs["observation"].tolist()))
        env.step(None if termination or truncation else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    # An observation kept (in a replay buffer, say) is not changed by the steps after it.
    assert all(array.tolist() == values for array, values in handed)


def test_gymnasium_hands_out_the_fresh_tensor_and_a_new_array_each_time() -> None:
    env = GymEnv("quasenbo", players=2, opponents="random")
    layout = env.spaces.tensors
    rng = random.Random(2)
    obs, info = env.reset(seed=2)
    handed = []
    done = False
    while not done:
        play = env.play
        assert play is not None
        assert obs.tolist() == layout.observation(play.observation(env.seat))
        handed.append((obs, obs.tolist()))
        obs, _, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        done = terminated or truncated
    assert all(array.tolist() == values for array, values in handed)
