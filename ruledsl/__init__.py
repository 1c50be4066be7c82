"""ruledsl: a declarative rules language for card games, and the engine that plays them.

import ruledsl
game = ruledsl.load_game("games/crazy_eights.game", players=3)
state = game.new_initial_state(seed=7)
while not state.is_terminal():
    state.apply_action(state.legal_actions()[0])

The names below are loaded on first use (PEP 562): ``import ruledsl`` alone loads neither
the parser (nor Lark) nor the compiler, so the command line's help and a front door that
needs one part pay only for that part.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

# The one place the version is written: pyproject.toml reads it from here ([tool.hatch.version]).
__version__ = "0.1.0"

if TYPE_CHECKING:
    from ruledsl.engine.game import Game
    from ruledsl.engine.state import GameState
    from ruledsl.engine.state import GameState as State
    from ruledsl.engine.values import TERMINAL, Action
    from ruledsl.loading import OptionInfo, check_file, load_game, options_of, players_range
    from ruledsl.resources import bundled_games
    from ruledsl.syntax.parser import parse
    from ruledsl.text.errors import (
        CheckError,
        Diagnostic,
        IllegalActionError,
        OptionError,
        ParseError,
        RuleDslError,
        RuleRuntimeError,
        Severity,
        SourceError,
    )

#: Each public name, and the module that defines it; ``State`` is ``GameState`` by its short name.
_SOURCES = {
    "Action": "ruledsl.engine.values",
    "CheckError": "ruledsl.text.errors",
    "Diagnostic": "ruledsl.text.errors",
    "Game": "ruledsl.engine.game",
    "GameState": "ruledsl.engine.state",
    "IllegalActionError": "ruledsl.text.errors",
    "OptionError": "ruledsl.text.errors",
    "OptionInfo": "ruledsl.loading",
    "ParseError": "ruledsl.text.errors",
    "RuleDslError": "ruledsl.text.errors",
    "RuleRuntimeError": "ruledsl.text.errors",
    "Severity": "ruledsl.text.errors",
    "SourceError": "ruledsl.text.errors",
    "State": "ruledsl.engine.state",
    "TERMINAL": "ruledsl.engine.values",
    "bundled_games": "ruledsl.resources",
    "check_file": "ruledsl.loading",
    "load_game": "ruledsl.loading",
    "options_of": "ruledsl.loading",
    "parse": "ruledsl.syntax.parser",
    "players_range": "ruledsl.loading",
}
_ALIASES = {"State": "GameState"}

__all__ = [
    "TERMINAL",
    "Action",
    "CheckError",
    "Diagnostic",
    "Game",
    "GameState",
    "IllegalActionError",
    "OptionError",
    "OptionInfo",
    "ParseError",
    "RuleDslError",
    "RuleRuntimeError",
    "Severity",
    "SourceError",
    "State",
    "__version__",
    "bundled_games",
    "check_file",
    "load_game",
    "options_of",
    "parse",
    "players_range",
]


def __getattr__(name: str) -> object:
    """Import a public name from its module on first use, and keep it here for the next."""
    source = _SOURCES.get(name)
    if source is None:
        raise AttributeError(f"module 'ruledsl' has no attribute '{name}'")
    value = getattr(importlib.import_module(source), _ALIASES.get(name, name))
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
