"""OpenSpiel's view of a rule file: ``import ruledsl.openspiel`` registers the python game "ruledsl".

    import pyspiel
    import ruledsl.openspiel  # noqa: F401  (registers "ruledsl")

    game = pyspiel.load_game("ruledsl", {"game": "my_game.game", "players": 2})

Parameters: ``game`` (a bundled game's name or a path to a .game file), ``players`` (0:
the least the game allows), ``options`` (``"name:value;name:value"``: OpenSpiel's
parameters are fixed per game type, a rule file's options are not), ``deals`` and
``max_actions`` (0: ruledsl's default), ``track`` (keep what each player saw of the cards, so
that ``resample_from_infostate`` deals only where a card can be: on by default; off plays
faster and resamples among all unseen cards).

Chance: ruledsl deals and draws from one seed, so a play starts with one chance node whose
``deals`` equally likely outcomes are the seeds 0 to deals-1; after it the game is
deterministic, every later draw decided by that seed (which no player sees: the
information states never show it). Actions are ``ruledsl.spaces.ActionSpace`` ids (a set
of cards is chosen card by card, then "done"); observations and information states come
from ``observation(seat)`` alone (``ruledsl.spaces.TensorLayout``), the public observer's
from a spectator's ``observation(None)``. An information state is the player's observation
now and his own ids: not perfect recall in general (docs/integrations.md says what it holds).
"""

from __future__ import annotations

import json
import math
import random
from typing import Any

try:
    import numpy as np
    import pyspiel
except ImportError as error:  # the extra is not installed: say which
    raise ImportError(f"ruledsl.openspiel needs OpenSpiel ({error.name}): pip install 'ruledsl[openspiel]'") from None

from ruledsl.engine.program import Utility
from ruledsl.spaces import Decisions, Spaces, spaces_for
from ruledsl.spaces.tensors import write_entries

# OpenSpiel wants a default for every parameter; the game has none worth guessing: say which.
_DEFAULTS: dict[str, Any] = {
    "game": "",
    "players": 0,
    "options": "",
    "deals": 1000,
    "max_actions": 0,
    "track": True,
}


def _game_type(utility: Any = pyspiel.GameType.Utility.GENERAL_SUM) -> Any:
    """ruledsl's game type; a loaded game's says what its rules prove of its returns (``_utility``)."""
    return pyspiel.GameType(
        short_name="ruledsl",
        long_name="A ruledsl rule file",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=16,
        min_num_players=1,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_DEFAULTS,
    )


_GAME_TYPE = _game_type()


def _utility(utility: Utility) -> tuple[Any, float, float, float | None]:
    """OpenSpiel's utility kind, bounds and sum for what the rules prove of the returns.

    Places lie between -1 and +1 and need not add up to the same (a lone winner's +1 against
    the others' -1 each). Payoffs are zero-sum or constant-sum only when the checker proved
    it, and bounded only where it proved bounds: unbounded (infinite) otherwise, not guessed.
    """
    kinds = pyspiel.GameType.Utility
    total = utility.constant_sum
    kind = kinds.GENERAL_SUM if total is None else kinds.ZERO_SUM if total == 0 else kinds.CONSTANT_SUM
    low = -math.inf if utility.low is None else utility.low
    high = math.inf if utility.high is None else utility.high
    return kind, low, high, total


def _spaces(params: dict[str, Any]) -> Spaces:
    return spaces_for(
        str(params["game"]),
        int(params["players"]),
        str(params["options"]),
        int(params["max_actions"]),
    )


class RuledslGame(pyspiel.Game):  # type: ignore[misc]  # pyspiel has no types
    """A rule file loaded for OpenSpiel: one player count, one choice of options."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        given = {**_DEFAULTS, **(params or {})}
        if not given["game"]:
            raise ValueError('say which game: pyspiel.load_game("ruledsl", {"game": NAME_OR_PATH, ...})')
        if int(given["deals"]) < 1:
            raise ValueError(f"deals must be at least 1, not {given['deals']}")
        space = _spaces(given).actions
        longest = max([1, *(1 + (space.game.program.n_cards + 1) * _groups(b) for b in space.blocks)])
        kind, low, high, total = _utility(space.game.program.utility)
        info = pyspiel.GameInfo(
            num_distinct_actions=space.num_distinct_actions,
            max_chance_outcomes=int(given["deals"]),
            num_players=space.game.players,
            min_utility=low,
            max_utility=high,
            utility_sum=total,
            max_game_length=1 + space.game.max_actions * longest,
        )
        super().__init__(_game_type(kind), info, params or {})

    # Worked out from the parameters, not kept: OpenSpiel unpickles a game without calling __init__.
    @property
    def params(self) -> dict[str, Any]:
        """The game's parameters, defaults included."""
        return {**_DEFAULTS, **self.get_parameters()}

    @property
    def spaces(self) -> Spaces:
        """The loaded rule file, its action space and its tensor layout."""
        return _spaces(self.params)

    @property
    def deals(self) -> int:
        return int(self.params["deals"])

    @property
    def track(self) -> bool:
        return bool(self.params["track"])

    def new_initial_state(self) -> RuledslState:
        """Return a state before the deal: a chance node."""
        return RuledslState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer | None:
        """Return the observer of the views of ``iig_obs_type``, or None for a view ruledsl has not.

        ruledsl has two views: a player's (the public part and his private part) and a
        spectator's (``observation(None)``: what every player sees, the public part alone).
        So: OpenSpiel's default type and a player's private and public information give a
        player's observation (with perfect recall: his information state, see the module's
        notes); public information alone, without perfect recall, gives the spectator's view,
        the same for every player; any other type (private information alone, or public
        alone with perfect recall) gives None, which OpenSpiel reads as not provided.
        """
        if iig_obs_type is None:
            return _Observer(self.spaces, False)
        if not iig_obs_type.public_info:
            return None
        if iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER:
            return _Observer(self.spaces, iig_obs_type.perfect_recall)
        if iig_obs_type.private_info == pyspiel.PrivateInfoType.NONE and not iig_obs_type.perfect_recall:
            return _Observer(self.spaces, False, public=True)
        return None


def _groups(block: Any) -> int:
    return sum(1 for c in block.choices if c.is_group)


class _Play:
    """The play inside a RuledslState: copied by ``clone`` (deepcopy), pickled as its deal and ids."""

    __slots__ = ("params", "deal", "decisions")

    def __init__(self, params: dict[str, Any], deal: int, decisions: Decisions) -> None:
        self.params = params
        self.deal = deal
        self.decisions = decisions

    def ids(self) -> list[int]:
        tokens = self.decisions.space.tokens
        return [i for a in self.decisions.state.history() for i in tokens(a)] + list(self.decisions.pending)

    def __deepcopy__(self, memo: dict[int, Any]) -> _Play:
        return _Play(self.params, self.deal, self.decisions.clone())

    def __reduce__(self) -> tuple[Any, ...]:
        return (_replayed, (self.params, self.deal, self.ids()))


def _replayed(params: dict[str, Any], deal: int, ids: list[int]) -> _Play:
    decisions = _spaces(params).new_play(deal, bool(params["track"]))
    for i in ids:
        decisions.apply_action(i)
    return _Play(params, deal, decisions)


class RuledslState(pyspiel.State):  # type: ignore[misc]  # pyspiel has no types
    """One play: a chance node (the deal), then the rule file's game chosen id by id."""

    def __init__(self, game: RuledslGame) -> None:
        super().__init__(game)
        # OpenSpiel copies a state by deep-copying its attributes: one, the play (see _Play).
        self._play: _Play | None = None

    @property
    def decisions(self) -> Decisions | None:
        """The play underneath, chosen id by id (its ``state`` is ruledsl's GameState); None before the deal."""
        return None if self._play is None else self._play.decisions

    def current_player(self) -> int:
        play = self._play
        if play is None:
            return int(pyspiel.PlayerId.CHANCE)
        if play.decisions.state.terminal:
            return int(pyspiel.PlayerId.TERMINAL)
        return play.decisions.state.actor

    def _legal_actions(self, player: int) -> list[int]:
        play = self._play
        if play is None or play.decisions.state.actor != player:
            return []
        return play.decisions.legal_actions()

    def legal_actions(self, player: int | None = None) -> list[int]:
        """Return the legal ids, ascending (of ``player``: none unless he is to act).

        What OpenSpiel's own ``legal_actions`` gives, without its five calls from C++ back
        into Python (player, terminal, chance, player again, then the ids): called from
        Python, as IS-MCTS and a training loop do, it was a third of a step. Called from C++,
        OpenSpiel's goes on calling ``_legal_actions``."""
        play = self._play
        if play is None or (player is not None and player < 0):
            ids: list[int] = super().legal_actions() if player is None else super().legal_actions(player)
            return ids
        state = play.decisions.state
        if state.terminal or (player is not None and player != state.actor):
            return []
        return play.decisions.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        deals = self.get_game().deals
        return [(i, 1.0 / deals) for i in range(deals)]

    def _apply_action(self, action: int) -> None:
        if self._play is None:
            params = self.get_game().params
            self._play = _Play(params, int(action), _spaces(params).new_play(int(action), bool(params["track"])))
        else:
            self._play.decisions.apply_action(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {action}"
        return str(self.get_game().spaces.actions.describe(int(action)))

    def is_terminal(self) -> bool:
        return self._play is not None and self._play.decisions.state.terminal

    def returns(self) -> list[float]:
        if self._play is None:
            return [0.0] * self.get_game().num_players()
        return self._play.decisions.state.returns()

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> RuledslState:
        """Return a state ``player_id`` cannot tell from this one: the cards he cannot see dealt anew
        (the engine's resampler), the draws to come from a new seed."""
        clone: RuledslState = self.clone()
        play = clone._play
        if play is None:
            return clone
        seed = int(probability_sampler() * 2**31) if callable(probability_sampler) else random.getrandbits(31)
        decisions = play.decisions
        decisions.state = decisions.state.resample(player_id, random.Random(seed))
        # The others' own moves belong to the true deal: he knows only his own.
        decisions.own = [ids if q == player_id else [] for q, ids in enumerate(decisions.own)]
        return clone

    def __str__(self) -> str:
        play = self._play
        if play is None:
            return "before the deal"
        state = play.decisions.state
        return f"deal {play.deal}, {state.n_actions} actions, phase {state.phase_name()}: {play.ids()}"


class _Observer:
    """OpenSpiel's PyObserver: a seat's observation (or information state) as a tensor and a string.

    A public observer (``public``) shows a spectator's view to every player: the observation
    tensor's layout, its "player" part all zero, and the spectator's observation as text."""

    def __init__(self, spaces: Spaces, perfect_recall: bool, public: bool = False) -> None:
        self.spaces = spaces
        self.perfect_recall = perfect_recall
        self.public = public
        layout = spaces.tensors
        size = layout.information_state_size if perfect_recall else layout.observation_size
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: RuledslState, player: int) -> None:
        play = state._play
        if play is None:
            self.tensor.fill(0)
            return
        obs = play.decisions.observation(None if self.public else player)
        layout = self.spaces.tensors
        if self.perfect_recall:
            write_entries(self.tensor, layout.information_state_entries(obs, play.decisions.own[player]))
        else:
            write_entries(self.tensor, layout.observation_entries(obs))

    def string_from(self, state: RuledslState, player: int) -> str:
        play = state._play
        if play is None:
            return "before the deal"
        text = json.dumps(
            play.decisions.observation(None if self.public else player), sort_keys=True, ensure_ascii=False
        )
        if self.perfect_recall:
            decisions = play.decisions
            mine = decisions.own[player]
            text += f" own {mine} pending {list(decisions.pending) if decisions.state.actor == player else []}"
        return text


pyspiel.register_game(_GAME_TYPE, RuledslGame)
