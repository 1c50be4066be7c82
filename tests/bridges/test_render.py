"""Rendering through PettingZoo's own render_test, one seat's view only; Gymnasium's information-state option."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

import ruledsl
from ruledsl.engine.state import GameState
from ruledsl.spaces import Decisions
from ruledsl.tools import leaks
from tests.extras import require

gymnasium = require("gymnasium", "pettingzoo")
bridge = require("ruledsl.pettingzoo", "pettingzoo")
gym_bridge = require("ruledsl.gymnasium", "pettingzoo")

# PettingZoo's api checks warn that a dict observation is no Box, as for its own classic games.
pytestmark = pytest.mark.filterwarnings("ignore:Observation space for each agent:UserWarning")


def test_human_mode_prints_the_view_of_the_agent_to_act_after_reset_and_each_step(
    capsys: pytest.CaptureFixture[str],
) -> None:
    env = bridge.env("quasenbo", players=2, render_mode="human")
    env.reset(seed=3)
    seat = env.possible_agents.index(env.agent_selection)
    printed = capsys.readouterr().out
    assert ", round 1, phase" in printed and f"seen by P{seat}: P{seat} to act" in printed
    obs, *_ = env.last()
    env.step(env.action_space(env.agent_selection).sample(obs["action_mask"]))
    seat = env.possible_agents.index(env.agent_selection)
    printed = capsys.readouterr().out
    assert f"seen by P{seat}" in printed and env.render() is None
    assert capsys.readouterr().out == printed


def test_render_without_a_mode_warns_as_pettingzoo_and_gymnasium_do() -> None:
    env = bridge.env("quasenbo", players=2)
    env.reset(seed=1)
    with pytest.warns(UserWarning, match="without specifying any render mode"):
        assert env.render() is None
    gym = gym_bridge.RuledslEnv("quasenbo", players=2)
    gym.reset(seed=1)
    with pytest.warns(UserWarning, match="without specifying any render mode"):
        assert gym.render() is None
    with pytest.raises(ValueError, match="render_mode"):
        bridge.env("quasenbo", players=2, render_mode="rgb_array")


def _rendered(env: Any) -> leaks.Surface:
    """The text the PettingZoo env renders with ``seat`` to act in ``st`` (its play set to ``st``)."""

    def surface(st: GameState, seat: int, probe: leaks.Probe) -> Any:
        env.play = Decisions(env.spaces.actions, st)
        env.agent_selection = env.possible_agents[seat]
        return env.render()

    return surface


@pytest.mark.parametrize(("name", "players"), [("crazy_eights", 3), ("leduc_poker", 2), ("hearts", 4)])
def test_a_rendered_view_is_unchanged_when_two_cards_hidden_from_the_seat_swap(name: str, players: int) -> None:
    env = bridge.env(name, players=players, render_mode="ansi")
    game = ruledsl.load_game(name, players=players)
    report = leaks.check_game(game, range(2), 3, 2, leaks.Report(), surfaces={"render": _rendered(env)})
    assert report.comparisons > 0 and not report.leaks, "\n".join(str(leak)[:400] for leak in report.leaks[:3])


def test_the_render_leak_check_can_fail() -> None:
    """The same check over a render that shows every hand (the true state) finds the leak."""
    env = bridge.env("crazy_eights", players=3, render_mode="ansi")
    game = ruledsl.load_game("crazy_eights", players=3)

    def everything(st: GameState, seat: int, probe: leaks.Probe) -> Any:
        return str(_rendered(env)(st, seat, probe)) + str([list(z) for z in st.zones])

    report = leaks.check_game(game, range(1), 2, 2, leaks.Report(), surfaces={"render": everything})
    assert report.leaks


def test_a_swap_of_two_hidden_cards_leaves_the_render_of_a_live_env_alone() -> None:
    env = bridge.env("crazy_eights", players=3, render_mode="ansi")
    env.reset(seed=7)
    env.play = env.spaces.new_play(7, track=True)  # the same deal, with what each seat knows kept (for the twins)
    seat = env.possible_agents.index(env.agent_selection)
    before = env.render()
    (a, b), *_ = leaks.hidden_pairs(env.play.state, seat, random.Random(0), 1)
    leaks.swap(env.play.state, a, b)
    env.play = Decisions(env.spaces.actions, env.play.state)  # its views are kept per state: ask anew
    assert env.render() == before


def test_gymnasium_hands_out_the_information_state_tensor_on_request() -> None:
    plain = gym_bridge.RuledslEnv("kuhn_poker", players=2, opponents="random")
    env = gym_bridge.RuledslEnv("kuhn_poker", players=2, opponents="random", observation="infostate")
    layout = env.spaces.tensors
    assert env.observation_space.shape == (layout.information_state_size,)
    assert plain.observation_space.shape == (layout.observation_size,)
    assert layout.information_state_size > layout.observation_size
    obs, info = env.reset(seed=5)
    assert env.observation_space.contains(obs)
    first = int(np.flatnonzero(info["action_mask"])[0])
    obs, *_ = env.step(first)
    expected = layout.information_state(env.play.observation(0), env.play.own[0])
    assert obs.tolist() == expected and obs[layout.observation_size + first] == 1.0
    with pytest.raises(ValueError, match="observation"):
        gym_bridge.RuledslEnv("kuhn_poker", players=2, observation="everything")


def test_gymnasium_check_env_passes_with_the_information_state() -> None:
    from gymnasium.utils.env_checker import check_env

    env = gymnasium.make("ruledsl/Game-v0", game="quasenbo", players=3, observation="infostate")
    check_env(env.unwrapped)
