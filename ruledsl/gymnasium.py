"""Gymnasium's view of a rule file: one seat learns, ruledsl's bots play the others.

    from ruledsl.gymnasium import RuledslEnv

    env = RuledslEnv("my_game.game", players=2, seat=0, opponents="random")
    obs, info = env.reset(seed=1)
    obs, reward, terminated, truncated, info = env.step(int(np.flatnonzero(info["action_mask"])[0]))

The observation is the seat's observation tensor (``ruledsl.spaces.TensorLayout``), or with
``observation="infostate"`` his information-state tensor (the observation tensor followed by
the counts of the ids he took so far, as OpenSpiel's ``information_state_tensor``); the
legal ids are ``info["action_mask"]`` (``ruledsl.spaces.ActionSpace``). The reward is the
seat's return, given at the end. ``opponents`` names the bots of the other seats as
``--seats`` does (``random``, ``greedy``, ``ismcts:iterations=200``...; one name for all
or a list, one per other seat), seeded from the deal. An id outside the mask ends the
episode with ``illegal_reward`` (-1) and ``info["illegal"]``, as PettingZoo's
TerminateIllegalWrapper does: a learner that samples from the mask never meets it.
``render()`` writes the learning seat's view alone: printed after each reset and step with
``render_mode="human"``, returned as text with ``"ansi"``; with no render mode it warns.
"""

from __future__ import annotations

import random
from typing import Any

try:
    import gymnasium
    import numpy as np
    from gymnasium import spaces
except ImportError as error:  # the extra is not installed: say which
    raise ImportError(f"ruledsl.gymnasium needs Gymnasium ({error.name}): pip install 'ruledsl[pettingzoo]'") from None

from ruledsl.agents import decide, make_agent, needs_tracking, seat_agent
from ruledsl.spaces import RENDER_MODES, Decisions, checked_render_mode, render_view, spaces_for
from ruledsl.spaces.tensors import BOUND, write_entries

#: What ``observation=`` may ask for: the observation tensor, or the information-state tensor.
OBSERVATIONS = ("observation", "infostate")


class RuledslEnv(gymnasium.Env[np.ndarray, np.int64]):
    """One seat of a rule file's game as a Gymnasium environment."""

    metadata: dict[str, Any] = {"render_modes": RENDER_MODES, "render_fps": 4}

    def __init__(
        self,
        game: str,
        players: int | None = None,
        seat: int = 0,
        opponents: str | list[str] = "random",
        options: dict[str, Any] | str | None = None,
        render_mode: str | None = None,
        illegal_reward: float = -1.0,
        max_actions: int = 0,
        observation: str = "observation",
    ) -> None:
        super().__init__()
        self.render_mode = checked_render_mode(render_mode)
        if observation not in OBSERVATIONS:
            raise ValueError(f"observation is one of {', '.join(map(repr, OBSERVATIONS))}, not {observation!r}")
        self.infostate = observation == "infostate"
        self.spaces = spaces_for(game, players, options, max_actions)
        n = self.spaces.game.players
        if not 0 <= seat < n:
            raise ValueError(f"seat is one of 0 to {n - 1}, not {seat}")
        self.seat = seat
        specs = [opponents] * (n - 1) if isinstance(opponents, str) else list(opponents)
        if len(specs) != n - 1:
            raise ValueError(f"opponents names {n - 1} bots (one per other seat), not {len(specs)}")
        self.specs = specs
        make_agent(specs[0], 0) if specs else None  # a bad name fails here, not at reset
        self.illegal_reward = illegal_reward
        size = self.spaces.actions.num_distinct_actions
        layout = self.spaces.tensors
        width = layout.information_state_size if self.infostate else layout.observation_size
        self.observation_space = spaces.Box(-BOUND, BOUND, (width,), np.float32)
        self.action_space = spaces.Discrete(size)
        self._seeds = random.Random()
        self.play: Decisions | None = None
        self.bots: dict[int, Any] = {}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._seeds = random.Random(seed)
        deal = seed if seed is not None else self._seeds.getrandbits(31)
        others = [q for q in range(self.spaces.game.players) if q != self.seat]
        self.bots = {q: seat_agent(spec, deal, q) for q, spec in zip(others, self.specs)}
        self.play = self.spaces.new_play(deal, track=needs_tracking(self.bots.values()))
        self._others_play()
        if self.render_mode == "human":
            self.render()
        return self._observation(), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        play = self._play()
        if int(action) not in play.legal_actions():
            return self._observation(), self.illegal_reward, True, False, {**self._info(), "illegal": True}
        play.apply_action(int(action))
        self._others_play()
        state = play.state
        reward = state.returns()[self.seat] if state.terminal else 0.0
        if self.render_mode == "human":
            self.render()
        return self._observation(), reward, state.terminal and not state.truncated, state.truncated, self._info()

    def render(self) -> str | None:
        """Print (``human``) or return (``ansi``) the learning seat's view as text: his observation only."""
        return render_view(self.render_mode, lambda: self._play().observation(self.seat))

    def _others_play(self) -> None:
        play = self._play()
        state = play.state
        while not state.terminal and state.actor != self.seat:
            play.apply_engine_action(decide(self.bots[state.actor], state, state.actor))

    def _observation(self) -> np.ndarray:
        play = self._play()
        layout = self.spaces.tensors
        if self.infostate:
            tensor = np.empty(layout.information_state_size, np.float32)
            write_entries(tensor, layout.with_own(layout.state_entries(play.state, self.seat), play.own[self.seat]))
        else:
            tensor = np.empty(layout.observation_size, np.float32)
            write_entries(tensor, layout.state_entries(play.state, self.seat))
        return tensor

    def _info(self) -> dict[str, Any]:
        play = self._play()
        mask = np.zeros(self.spaces.actions.num_distinct_actions, np.int8)
        if not play.state.terminal:
            mask[play.legal_actions()] = 1
        return {"action_mask": mask}

    def _play(self) -> Decisions:
        if self.play is None:
            raise RuntimeError("call reset() before using the environment")
        return self.play


#: ``gymnasium.make("ruledsl/Game-v0", game="my_game.game", players=2)`` makes one too.
gymnasium.register(id="ruledsl/Game-v0", entry_point="ruledsl.gymnasium:RuledslEnv")
