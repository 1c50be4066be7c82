"""Every named game as a PettingZoo AEC environment and a Gymnasium environment, checked by their own tests."""

from __future__ import annotations

import numpy as np
import pytest

from ruledsl.loading import check_file, players_range
from ruledsl.resources import named_games
from ruledsl.text.errors import IllegalActionError
from tests.extras import require

pz_test = require("pettingzoo.test", "pettingzoo")
gymnasium = require("gymnasium", "pettingzoo")
bridge = require("ruledsl.pettingzoo", "pettingzoo")
gym_bridge = require("ruledsl.gymnasium", "pettingzoo")

GAMES = sorted(named_games())
# PettingZoo's api_test warns that a dict observation (observation + action_mask) is no Box,
# as it does for its own classic games.
pytestmark = pytest.mark.filterwarnings(
    "ignore:Observation space for each agent:UserWarning", "ignore:Observation is not a NumPy array:UserWarning"
)


def players(name: str) -> int:
    return players_range(check_file(name))[0]


@pytest.mark.parametrize("name", GAMES)
def test_pettingzoo_api_test_passes(name: str) -> None:
    pz_test.api_test(bridge.env(name, players=players(name)), num_cycles=60)


@pytest.mark.parametrize("name", GAMES)
def test_pettingzoo_seed_test_passes(name: str) -> None:
    pz_test.seed_test(lambda: bridge.env(name, players=players(name)), num_cycles=60)


@pytest.mark.parametrize("name", GAMES)
def test_pettingzoo_render_test_passes(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    """Its own render_test: "human" prints the view of the agent to act, "ansi" returns it."""

    def make(render_mode: str | None = None) -> object:
        return bridge.env(name, players=players(name), render_mode=render_mode)

    pz_test.render_test(make, custom_tests={"ansi": lambda text: "seen by P" in text})
    assert make().metadata["render_modes"] == ["human", "ansi"]
    assert "seen by P" in capsys.readouterr().out  # "human" printed


def test_max_cycles_truncates_the_game() -> None:
    """PettingZoo's max_cycles_test needs a parallel env (simultaneous moves): this is its check, turn by turn."""
    env = bridge.env("quasenbo", players=3, max_cycles=4)
    env.reset(seed=5)
    counts = dict.fromkeys(env.possible_agents, 0)
    for agent in env.agent_iter():
        obs, _, termination, truncation, _ = env.last()
        counts[agent] += 1
        env.step(None if termination or truncation else env.action_space(agent).sample(obs["action_mask"]))
    assert sum(counts.values()) == 4 * 3 + 3  # 4 cycles of 3 seats, then each is told it is done
    assert all(env.truncations.values()) or all(env.terminations.values())


def test_a_seeded_reset_deals_alike_and_the_mask_is_the_legal_ids() -> None:
    env = bridge.env("quasenbo", players=2)
    env.reset(seed=9)
    first = env.observe(env.agent_selection)
    play = env.play
    assert np.flatnonzero(first["action_mask"]).tolist() == play.legal_actions()
    other = [a for a in env.possible_agents if a != env.agent_selection][0]
    assert not env.observe(other)["action_mask"].any()
    env.reset(seed=9)
    assert np.array_equal(env.observe(env.agent_selection)["observation"], first["observation"])
    wrong = int(np.flatnonzero(first["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError):
        env.step(wrong)


def test_render_writes_only_what_the_agent_to_act_sees() -> None:
    env = bridge.env("quasenbo", players=2, render_mode="ansi")
    env.reset(seed=2)
    text = env.render()
    seat = env.possible_agents.index(env.agent_selection)
    state = env.play.state
    mine = [state.prog.card_names[c] for c in state.zones[state.prog.zones[2].base + seat]]
    theirs = [state.prog.card_names[c] for c in state.zones[state.prog.zones[2].base + 1 - seat]]
    assert f"seen by P{seat}" in text and all(c in text for c in mine)
    assert not any(c in text for c in theirs if c not in mine and c not in str(state.observation(seat)))


@pytest.mark.parametrize("name", GAMES)
def test_gymnasium_check_env_passes(name: str) -> None:
    from gymnasium.utils.env_checker import check_env

    env = gymnasium.make("ruledsl/Game-v0", game=name, players=players(name), opponents="greedy")
    check_env(env.unwrapped)


def test_gymnasium_episode_with_bots_ends_with_the_seats_return() -> None:
    env = gym_bridge.RuledslEnv("quasenbo", players=3, seat=1, opponents=["random", "greedy"])
    obs, info = env.reset(seed=4)
    rng = np.random.default_rng(0)
    total, done = 0.0, False
    while not done:
        assert env.play.state.actor == 1
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, terminated, truncated, info = env.step(action)
        total += reward
        done = terminated or truncated
    assert total == env.play.state.returns()[1]
    env.reset(seed=4)
    _, reward, terminated, _, info = env.step(env.action_space.n - 1)
    assert (reward, terminated, info.get("illegal")) == (-1.0, True, True)
    with pytest.raises(ValueError, match="opponents"):
        gym_bridge.RuledslEnv("quasenbo", players=3, opponents=["random"])
