"""ruledsl: a declarative rules language for card games, and the engine that plays them.

import ruledsl
game = ruledsl.load_game("games/crazy_eights.game", players=3)
state = game.new_initial_state(seed=7)
while not state.is_terminal():
    state.apply_action(state.legal_actions()[0])
"""

from ruledsl.engine.game import Game
from ruledsl.engine.state import GameState
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

__version__ = "0.1.0"

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
    "bundled_games",
    "check_file",
    "load_game",
    "options_of",
    "parse",
    "players_range",
]
