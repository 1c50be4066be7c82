"""The engine's budgets: how much one action, and one game, may do before the engine stops it."""

from __future__ import annotations

#: Loop rounds (while, repeat, for each) one action may take before it is stopped as endless;
#: also, counted apart, the calls of definitions and procedures (R508: a definition that uses
#: another twice, forty levels deep, would otherwise run for ever without looping). The code
#: generator writes the checks against it into the compiled rules.
STEP_BUDGET = 100_000

#: Rule entries (on enter, a won auction...) that hand the turn on in one action, at most (R502).
MAX_CHAINED_PHASES = 1000

#: Actions after which a game that has not ended is stopped (and counts as a draw).
DEFAULT_MAX_ACTIONS = 20_000
