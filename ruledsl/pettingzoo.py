"""PettingZoo's view of a rule file: an AEC environment, one agent per seat.

    from ruledsl.pettingzoo import env

    e = env("my_game.game", players=2)  # a rule file, or a name `ruledsl list` shows
    e.reset(seed=42)
    for agent in e.agent_iter():
        obs, reward, termination, truncation, info = e.last()
        action = None if termination or truncation else e.action_space(agent).sample(obs["action_mask"])
        e.step(action)

Agents are ``player_0``, ``player_1``...; each observation is a dict with ``observation``
(the seat's observation tensor, ``ruledsl.spaces.TensorLayout``) and ``action_mask`` (the
legal ids of ``ruledsl.spaces.ActionSpace``, all zero but for the agent to act, and for a
seat whose turn it is while a window he cannot see is open to another: his mask is the one he
will have if it is let pass, not all zero, so that it tells him nothing of it). Rewards
are the game's returns, given at its end. ``reset(seed=s)`` deals from seed ``s``; a
reset without a seed deals the next seed of the last one's sequence. ``max_cycles``
truncates the game after that many steps of each agent. An action outside the mask
raises ``IllegalActionError`` (wrap the env in PettingZoo's ``TerminateIllegalWrapper`` to
end the game with a penalty instead). ``render()`` writes the view of the agent to act, his
alone: ``render_mode="human"`` prints it after each reset and step (and ``render()`` returns
None), ``"ansi"`` returns it as text, and with no render mode ``render()`` warns.
"""

from __future__ import annotations

import random
from typing import Any

try:
    import numpy as np
    from gymnasium import spaces
    from pettingzoo import AECEnv
except ImportError as error:  # the extra is not installed: say which
    raise ImportError(
        f"ruledsl.pettingzoo needs PettingZoo ({error.name}): pip install 'ruledsl[pettingzoo]'"
    ) from None

from ruledsl.spaces import RENDER_MODES, Decisions, checked_render_mode, render_view, spaces_for
from ruledsl.spaces.tensors import BOUND, write_entries


def env(game: str, **kwargs: Any) -> RuledslEnv:
    """Return the AEC environment of ``game`` (a bundled name or a path): see RuledslEnv for the arguments."""
    return RuledslEnv(game, **kwargs)


class RuledslEnv(AECEnv):  # type: ignore[misc]  # pettingzoo has no types
    """A rule file as a PettingZoo AEC environment (one loaded game: its players and options)."""

    metadata: dict[str, Any] = {"render_modes": RENDER_MODES, "name": "ruledsl_v0", "is_parallelizable": False}

    def __init__(
        self,
        game: str,
        players: int | None = None,
        options: dict[str, Any] | str | None = None,
        render_mode: str | None = None,
        max_cycles: int | None = None,
        max_actions: int = 0,
    ) -> None:
        super().__init__()
        self.render_mode = checked_render_mode(render_mode)
        self.spaces = spaces_for(game, players, options, max_actions)
        self.max_cycles = max_cycles
        n = self.spaces.game.players
        self.possible_agents = [f"player_{q}" for q in range(n)]
        self._index = {a: q for q, a in enumerate(self.possible_agents)}
        size = self.spaces.actions.num_distinct_actions
        self._observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(-BOUND, BOUND, (self.spaces.tensors.observation_size,), np.float32),
                    "action_mask": spaces.Box(0, 1, (size,), np.int8),
                }
            )
            for a in self.possible_agents
        }
        self._action_spaces = {a: spaces.Discrete(size) for a in self.possible_agents}
        self._seeds = random.Random()
        self.play: Decisions | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self._observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self._action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._seeds = random.Random(seed)
        self.play = self.spaces.new_play(seed if seed is not None else self._seeds.getrandbits(31), track=False)
        self.steps = 0
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.play.state.actor]
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        play = self._play()
        seat = self._index[agent]
        mask = np.zeros(self.spaces.actions.num_distinct_actions, np.int8)
        mask[play.legal_for(seat)] = 1  # while a window he cannot see is open: his, as if it were let pass
        tensor = np.empty(self.spaces.tensors.observation_size, np.float32)
        write_entries(tensor, self.spaces.tensors.state_entries(play.state, seat))
        return {"observation": tensor, "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        play = self._play()
        self._cumulative_rewards[agent] = 0.0
        play.apply_action(int(action))  # type: ignore[arg-type]  # None only for an agent done (above)
        self.steps += 1
        state = play.state
        if state.terminal:
            done = self.truncations if state.truncated else self.terminations
            for a, r in zip(self.possible_agents, state.returns()):
                self.rewards[a] = r
                done[a] = True
        else:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            if self.max_cycles is not None and self.steps >= self.max_cycles * len(self.possible_agents):
                self.truncations = dict.fromkeys(self.agents, True)
            self.agent_selection = self.possible_agents[state.actor]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """Print (``human``) or return (``ansi``) the view of the agent to act as text: his observation only."""
        return render_view(self.render_mode, lambda: self._play().observation(self._index[self.agent_selection]))

    def close(self) -> None:
        pass

    def _play(self) -> Decisions:
        if self.play is None:
            raise RuntimeError("call reset() before using the environment")
        return self.play
