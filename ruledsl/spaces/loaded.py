"""A game loaded once for the bridges, with its action space and tensor layout (cached by its name and options)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from attrs import frozen

from ruledsl.engine.chance import Drawer
from ruledsl.engine.game import Game
from ruledsl.engine.limits import DEFAULT_MAX_ACTIONS
from ruledsl.engine.state import GameState
from ruledsl.loading import load_game
from ruledsl.spaces.actions import ActionSpace, Decisions
from ruledsl.spaces.tensors import TensorLayout


@frozen(eq=False)
class Spaces:
    """A loaded game, its integer actions and its tensors: what every bridge starts from."""

    game: Game
    actions: ActionSpace
    tensors: TensorLayout

    def new_play(self, seed: int, track: bool = True, drawer: Drawer | None = None) -> Decisions:
        """Deal a play from ``seed``, chosen id by id (tracked by default: IS-MCTS resamples it).

        With a ``drawer`` its draws are outcomes given from outside, not the seed's (``chance.Drawer``)."""
        return Decisions(self.actions, GameState.new(self.game, seed, track=track, drawer=drawer))


def spaces_for(
    game: str, players: int | None = None, options: dict[str, Any] | str | None = None, max_actions: int = 0
) -> Spaces:
    """Load ``game`` (a bundled name or a path) for the bridges; the same arguments give the same Spaces.

    ``options`` map names to values, or are written ``name:value;name:value``."""
    given = options_from_text(options) if isinstance(options, str) else options or {}
    key = tuple(sorted(given.items()))
    return _spaces(game, players or None, key, max_actions or DEFAULT_MAX_ACTIONS)


@functools.lru_cache(maxsize=32)
def _spaces(game: str, players: int | None, options: tuple[tuple[str, Any], ...], max_actions: int) -> Spaces:
    loaded = load_game(game, players, dict(options), max_actions)
    space = ActionSpace(loaded)
    return Spaces(loaded, space, TensorLayout(loaded, space.num_distinct_actions))


def options_from_text(text: str) -> dict[str, str]:
    """Read options written ``name:value;name:value`` (or ``name=value,name=value``): one string, as
    OpenSpiel's parameters are fixed per game type, and its game strings split on ',' and '='."""
    options: dict[str, str] = {}
    for part in text.replace(",", ";").split(";"):
        if not part.strip():
            continue
        name, sep, value = part.replace("=", ":", 1).partition(":")
        if not sep or not name.strip():
            raise ValueError(f"options are written name:value;name:value, found '{part.strip()}'")
        options[name.strip()] = value.strip()
    return options


def view_text(obs: dict[str, Any]) -> str:
    """Write a seat's observation as a few lines of text (the bridges' ``render``): only what it holds."""
    seat = obs["player"]
    head = f"{obs['game']}, round {obs['round']}, phase {obs['phase']}, seen by P{seat}: "
    if obs["terminal"]:
        head += f"over, returns {obs['returns']}"
    else:
        head += f"P{obs['current_player']} to act"
    lines = [head]
    for name, view in obs["zones"].items():
        for label, one in (
            [(name, view)] if isinstance(view, dict) else [(f"{name}[P{q}]", v) for q, v in enumerate(view)]
        ):
            cards = ", ".join("?" if c is None else c for c in one.get("cards", ()))
            lines.append(f"  {label} ({one['size']}){': ' + cards if cards else ''}")
    shown = {**obs["variables"], **{k: v for k, v in obs["player_variables"].items()}}
    if shown:
        lines.append("  " + ", ".join(f"{k}={v}" for k, v in shown.items()))
    return "\n".join(lines)


#: The render modes of the PettingZoo and Gymnasium environments: ``human`` prints the view, ``ansi`` returns it.
RENDER_MODES = ["human", "ansi"]


def checked_render_mode(mode: str | None) -> str | None:
    """Return ``mode`` if the bridges render in it (None: they do not render); raise ValueError if not."""
    if mode is not None and mode not in RENDER_MODES:
        raise ValueError(f"render_mode is 'human' (print the view), 'ansi' (return it) or None, not {mode!r}")
    return mode


def render_view(mode: str | None, view: Callable[[], dict[str, Any]]) -> str | None:
    """A bridge's ``render()`` of one seat's observation (``view()``): printed (``human``), returned
    as text (``ansi``) or, with no mode, a warning as PettingZoo's and Gymnasium's own environments give."""
    if mode is None:
        from gymnasium import logger  # only the bridges call this, and they have Gymnasium

        logger.warn("You are calling render method without specifying any render mode.")
        return None
    text = view_text(view())
    if mode == "ansi":
        return text
    print(text)
    return None
