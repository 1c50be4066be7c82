"""A game loaded once for the bridges, with its action space and tensor layout (cached by its name and options)."""

from __future__ import annotations

import functools
from typing import Any

from attrs import frozen

from ruledsl.engine.game import Game
from ruledsl.engine.limits import DEFAULT_MAX_ACTIONS
from ruledsl.loading import load_game
from ruledsl.spaces.actions import ActionSpace, Decisions
from ruledsl.spaces.tensors import TensorLayout


@frozen(eq=False)
class Spaces:
    """A loaded game, its integer actions and its tensors: what every bridge starts from."""

    game: Game
    actions: ActionSpace
    tensors: TensorLayout

    def new_play(self, seed: int, track: bool = True) -> Decisions:
        """Deal a play from ``seed``, chosen id by id (tracked by default: IS-MCTS resamples it)."""
        return Decisions(self.actions, self.game.new_initial_state(seed=seed, track=track))


def spaces_for(
    game: str, players: int | None = None, options: dict[str, Any] | None = None, max_actions: int = 0
) -> Spaces:
    """Load ``game`` (a bundled name or a path) for the bridges; the same arguments give the same Spaces."""
    key = tuple(sorted((options or {}).items()))
    return _spaces(game, players or None, key, max_actions or DEFAULT_MAX_ACTIONS)


@functools.lru_cache(maxsize=32)
def _spaces(game: str, players: int | None, options: tuple[tuple[str, Any], ...], max_actions: int) -> Spaces:
    loaded = load_game(game, players, dict(options), max_actions)
    space = ActionSpace(loaded)
    return Spaces(loaded, space, TensorLayout(loaded, space.num_distinct_actions))


def options_from_text(text: str) -> dict[str, str]:
    """Read options written ``name=value,name=value`` (one string: OpenSpiel's parameters are fixed)."""
    options: dict[str, str] = {}
    for part in text.split(","):
        if not part.strip():
            continue
        name, eq, value = part.partition("=")
        if not eq or not name.strip():
            raise ValueError(f"options are written name=value,name=value: found '{part.strip()}'")
        options[name.strip()] = value.strip()
    return options
