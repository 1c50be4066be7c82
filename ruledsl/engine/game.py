"""A game loaded for a player count and options: it wraps a compiled Program and starts states."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ruledsl.engine.program import Program
from ruledsl.engine.state import GameState
from ruledsl.text.render import counted
from ruledsl.text.source import Source


class Game:
    """A game loaded for a player count and options: OpenSpiel's Game.

    It never changes; ``new_initial_state(seed)`` starts a play of it.
    """

    def __init__(self, checked: Any, program: Program, max_actions: int, file: Path | None = None) -> None:
        # The checked rules it was compiled from (an analysis CheckedGame), for tools and for
        # explaining refusals; the engine itself reads only their source.
        self.checked = checked
        self.program = program
        self.max_actions = max_actions
        self.file = file  # the rule file it was read from, if any

    @property
    def name(self) -> str:
        return self.program.name

    @property
    def source(self) -> Source:
        source: Source = self.checked.source  # checked is typed Any: the engine names no analysis type
        return source

    @property
    def path(self) -> str:
        return self.source.path

    @property
    def players(self) -> int:
        return self.program.players

    def num_players(self) -> int:
        return self.program.players

    @property
    def options(self) -> dict[str, Any]:
        return dict(self.program.options)

    def new_initial_state(
        self, seed: int = 0, log: bool = False, track: bool = False, count: bool = False
    ) -> GameState:
        """Return the state after setup; all randomness comes from ``seed``.

        With ``log=True`` the state keeps the lines rules write with ``say`` (see
        ``GameState.take_log``) and spectator labels for transcripts (a card all saw where it lay
        is named in ``describe_last`` after the action takes it out of sight). With ``track=True``
        it keeps what each player has seen of the cards, for ``GameState.resample``. With
        ``count=True`` it counts how often each rule and announcement of
        ``program.events`` ran, setup included, in ``state.fired`` (its copies do not).
        """
        return GameState.new(self, seed, log, track, count)

    def __repr__(self) -> str:
        return f"<Game {self.name!r}: {counted(self.players, 'player')}, {self.options}>"
