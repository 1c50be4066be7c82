"""The limits on what a rule file may make ruledsl do: budgets of one action and of one game, sizes of values.

This is the one module of limits used when a game is loaded (``analysis.constants``: option
defaults and every value worked out before play), by the code generator (it folds values
with the same evaluator, and writes checks against these numbers into the compiled rules)
and at run time (``engine.ops``, ``engine.failures``). docs/limits.md lists every limit,
its value, its error code and where it is enforced; the limits of a rule file's text
(its size, nesting and literals) are in ``ruledsl.syntax.limits``.
"""

from __future__ import annotations

#: Loop rounds (while, repeat, for each) one action may take before it is stopped as endless;
#: also, counted apart, the calls of definitions and procedures (R508: a definition that uses
#: another twice, forty levels deep, would otherwise run for ever without looping), and the
#: actions one choice may offer (R507). The code generator writes the checks against it into
#: the compiled rules.
STEP_BUDGET = 100_000

#: The elements the expressions of one action may go through (R511): each card, player or number
#: counted, summed, tested, searched or shown counts one; a sort of n elements n·log2(n); a sum of
#: some cards (``some cards ... with total``) the sums it tries. Statements' loop rounds are counted
#: apart (STEP_BUDGET): a count over a 10,000-card deck in each of 100,000 rounds is 10^9 elements,
#: minutes of work, each round within that budget. Far above what any shipped game works out in one
#: action (docs/limits.md, Costs); about a second of work at most.
WORK_BUDGET = 5_000_000

#: ``count sets s of cards in X`` goes through at most the sets of this many cards, 2^20 - 1 =
#: 1,048,575 (R511 past it, at once): each counts one element against WORK_BUDGET, and the sets of
#: 52 cards would be 4.5·10^15. A hand (cribbage's five cards: 31 sets) is far below; so are the
#: 1,326 pairs of a deck (a condition opening with ``size of s == 2``).
MAX_SET_CARDS = 20

#: The most numbers a range in a rule ('1 to n') may hold (R504): a rule goes through each.
MAX_RANGE = STEP_BUDGET

#: Rule entries (on enter, a won auction...) that hand the turn on in one action, at most (R502).
MAX_CHAINED_PHASES = 1000

#: Actions after which a game that has not ended is stopped (and counts as a draw).
DEFAULT_MAX_ACTIONS = 20_000

#: The most cards a deck may have (E604 when the game is loaded): a choice of one card, and each
#: card's bookkeeping, stay within reach of the step budget.
MAX_DECK = 10_000

#: Every number a game works with lies within ±MAX_INTEGER (scores, counts, option values): a
#: product or sum beyond it stops the rule (R510, E604 when the game is loaded). Far above any
#: score, far below what slows Python's integers, and exactly representable as a float.
MAX_INTEGER = 10**15

#: Every text a game builds holds at most MAX_TEXT characters (R510, E604 when loaded).
MAX_TEXT = 10_000

#: The most legal actions one player may be offered at once (R507): more is no choice a person, or a
#: bot playing millions of games, can make (``bet(a: number 1 to 99999)`` offered each turn).
MAX_OFFERED = 10_000

#: A choice of a group of cards whose listing goes round more than this many times, less the actions
#: already offered before it, is offered card by card instead (``ruledsl.engine.stepping``: pick, pick,
#: done); so two such choices each under it but past it together are not R507. The same number as MAX_OFFERED: below
#: it the sets listed are never more than a player may be offered, so every game that lists its sets
#: today lists them still; past it listing on would be slow (up to STEP_BUDGET rounds) and end in R507.
STEP_AT = MAX_OFFERED

#: The most characters of a move typed at the ``play`` prompt, given to ``action_from_string``
#: or ``why_illegal`` (or replayed with ``replay --as``) that are read; a longer one is refused
#: without being read. A label is a line of text; even a move naming 50 cards fits.
MAX_MOVE_TEXT = 1_000

#: The product of the domains of one action's choices above which ``check`` warns (W409): the
#: actions offered would pass MAX_OFFERED (R507) when all of them are open.
CHOICE_WARNING = MAX_OFFERED


def too_large_number(x: int) -> str:
    """The message of a number beyond ±MAX_INTEGER (without writing its digits, which may be millions)."""
    bits = abs(x).bit_length()
    # str() stops at 4,300 digits: past them, their number is worked out from the bits.
    digits = f"{len(str(abs(x))):,}" if bits < 10_000 else f"about {int(bits * 0.30103):,}"
    return f"a number of {digits} digits, beyond the limit of ±10^15 every number keeps within"


def too_long_text(length: int) -> str:
    """The message of a text longer than MAX_TEXT characters."""
    return f"a text of {length:,} characters, beyond the limit of {MAX_TEXT:,} every text keeps within"
