"""The engine's budgets: how much one game or one action may do before the engine stops it."""

from __future__ import annotations

#: Actions after which a game that has not ended is stopped (and counts as a draw).
DEFAULT_MAX_ACTIONS = 20_000
