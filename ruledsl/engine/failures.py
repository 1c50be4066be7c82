"""Turn failures into positioned R-errors: a rule that fails, a budget met, a move refused, a game stuck.

``Failures`` is a part of ``GameState`` (a mixin). The compiled rules call ``over_budget``,
``too_many_calls``, ``too_many_choices`` and ``hidden_group`` when they meet a limit; each
reports the rule of the compiled line that called it.
"""

from __future__ import annotations

import collections
import sys
import traceback
from typing import TYPE_CHECKING, Any

from ruledsl.engine import ops
from ruledsl.engine.fields import StateFields
from ruledsl.engine.limits import MAX_OFFERED, STEP_BUDGET, WORK_BUDGET
from ruledsl.text.errors import Diagnostic, IllegalActionError, RuleDslError, RuleRuntimeError, Severity

if TYPE_CHECKING:
    from ruledsl.engine.state import GameState


#: The errors a rule's own computation raises: Python's (a division by zero; a value needed where
#: there was none, an empty zone's top card; an index not there; a number too large; the stack or
#: the memory run out) and the ops' (``RuleFailed``, ``RangeTooLong``, ``TooLarge``: ValueErrors).
#: Only these, of classes Python or ruledsl defines (``is_rule_error``), become a rule's R5xx error.
#: Anything else raised while a rule runs is the caller's (an exception class of his own raised by
#: his alarm handler, KeyboardInterrupt, any BaseException) and propagates unchanged.
RULE_ERRORS: tuple[type[Exception], ...] = (
    ArithmeticError,
    LookupError,
    TypeError,
    ValueError,
    AttributeError,
    RecursionError,
    MemoryError,
)
#: What a failing rule raises, reported (a RuleDslError: a label that cannot be shown) or not yet:
#: what code that only tries a rule (to word a refusal) may catch and set aside.
FAILED_RULE: tuple[type[Exception], ...] = (RuleDslError, *RULE_ERRORS)


def is_rule_error(exc: BaseException) -> bool:
    """Whether ``exc``, raised while a rule ran, is the rule's failure: one of RULE_ERRORS, of a class
    Python or ruledsl defines (a caller's own subclass of ValueError is his, not the rule's)."""
    return isinstance(exc, RULE_ERRORS) and type(exc).__module__.partition(".")[0] in ("builtins", "ruledsl")


class Failures(StateFields):
    """The errors a GameState raises, placed at the rule they come from (see ``ruledsl.engine.state``)."""

    __slots__ = ()

    def _run(self, fn: Any, *args: Any) -> Any:
        """Call into compiled rules; turn a failure inside them into a RuleRuntimeError."""
        try:
            return fn(*args)
        except RULE_ERRORS as exc:
            raise self._rule_failed(exc) from None

    def _rule_failed(self, exc: Exception) -> Exception:
        """Return the RuleRuntimeError for a failure inside compiled rules (or ``exc`` itself: a
        fault of ruledsl, when no rule of the file was running, or the caller's own, ``is_rule_error``)."""
        if not is_rule_error(exc):
            return exc
        spans = [
            span
            for frame, line in traceback.walk_tb(exc.__traceback__)
            if frame.f_code.co_filename == self.prog.filename and (span := self.prog.span_of_line(line)) is not None
        ]
        if isinstance(exc, RecursionError):
            # The rules that set each other off fill the stack: the most frequent there, the
            # first of them reached when tied (max keeps the first), is a rule of the cycle.
            counts = collections.Counter(spans)
            span = max(counts, key=counts.__getitem__) if counts else None
            if span is not None and counts[span] == 1:
                # No rule twice on the stack: no cycle, but a chain of rules too long to run.
                message = f"the rules nested too deeply while running: at least {len(spans):,} rules inside one another"
                hint = (
                    "each rule here runs the next, none of them twice, deeper than ruledsl can follow; "
                    "make the chain shorter (a procedure may do the work of several)"
                )
            else:
                message = "the rules nested too deeply while running"
                hint = "rules here set each other off without end; one of them must stop doing so"
            return RuleRuntimeError([Diagnostic("R503", message, span, hint, source=self.game.source)])
        span = spans[-1] if spans else None
        if span is None:
            return exc
        code = "R510" if isinstance(exc, ops.TooLarge) else "R511" if isinstance(exc, ops.TooMuchWork) else "R504"
        return RuleRuntimeError(
            [Diagnostic(code, _runtime_message(exc), span, _runtime_hint(exc), source=self.game.source)]
        )

    def _illegal(self, reason: str) -> IllegalActionError:
        """The error for an action that is not legal, at the phase or window being played."""
        span = None
        if not self.terminal:
            if self.windows is not None:
                span = self.prog.windows[self.windows[0][0]].span
            else:
                span = self.prog.phases[self.phase].span
        hint = "choose one of the legal actions (legal_actions() lists them)"
        return IllegalActionError(reason, [Diagnostic("R505", reason, span, hint, source=self.game.source)])

    # ------------------------------------------------------------------ limits met by compiled rules

    def over_budget(self) -> None:
        raise self._stopped(
            "R501",
            f"this rule looped more than {self._budget()} times in one action; it would never end",
            "make sure the loop's condition becomes false, or that 'stop' is reached",
        )

    def too_many_calls(self) -> None:
        """R508: definitions and procedures were used more than the step budget allows in one action."""
        raise self._stopped(
            "R508",
            f"definitions and procedures were used more than {self._budget()} times in one action",
            "one that uses another twice doubles the work at each level: name a value once with 'let', "
            "or work it out in fewer steps",
        )

    def hidden_group(self, player: int) -> None:
        """R509: a choice of several cards would offer, and so name, cards its chooser cannot see."""
        raise self._stopped(
            "R509",
            f"this choice of cards would offer P{player} groups of cards he cannot see, naming them",
            "offer only cards he sees (a condition can keep the action for when they are), or let him "
            "choose unseen cards one at a time ('c: card from ...': by their place)",
        )

    def too_many_choices(self, kind: str = "groups") -> None:
        """R507: the choices of the actions being listed went round more than the step budget allows
        (``kind``: what the choice met chooses: numbers, values, players, cards, groups of cards)."""
        raise self._stopped(
            "R507", f"with this choice there are more than {self._budget()} actions to choose from", _CHOICE_HINTS[kind]
        )

    def too_many_steps(self, defn: Any) -> RuleRuntimeError:
        """R507: finding which cards may still complete a set chosen card by card took more than the step
        budget, or looked through more cards than the work budget."""
        return self._at_action(
            defn,
            f"the sets of cards this action may take are too many to search: more than {self._budget()} steps, "
            f"or {WORK_BUDGET:,} cards looked through",
            "give the choice a shape that narrows it (a size, 'of one ATTR'), or conditions a set can fail "
            "card by card",
        )

    def too_many_offered(self, defn: Any) -> RuleRuntimeError:
        """R507: the actions listed are more than MAX_OFFERED (``defn``: the last action listed)."""
        return self._at_action(
            defn,
            f"with this choice there are more than {MAX_OFFERED:,} actions to choose from",
            "offer fewer: nobody can choose among so many (a number is best chosen in steps, "
            "a digit at a time, or with 'raise' and 'lower' actions)",
        )

    def _at_action(self, defn: Any, message: str, hint: str) -> RuleRuntimeError:
        """An R507 placed at the action ``defn``."""
        return RuleRuntimeError([Diagnostic("R507", message, defn.span, hint, source=self.game.source)])

    def _stopped(self, code: str, message: str, hint: str) -> RuleRuntimeError:
        """The error of a limit met by the rule of the compiled line that called the caller."""
        frame = sys._getframe(2)
        span = self.prog.span_of_line(frame.f_lineno) if frame.f_code.co_filename == self.prog.filename else None
        return RuleRuntimeError([Diagnostic(code, message, span, hint, source=self.game.source)])

    @staticmethod
    def _budget() -> str:
        return f"{STEP_BUDGET:,}"


#: How to fix R507, by what the choice met chooses.
_CHOICE_HINTS = {
    "numbers": "narrow the range of its numbers: nobody can choose among so many",
    "groups": "choose a set number of cards ('2 cards from hand'), or from fewer: nobody can choose among so many",
    "values": "choices multiply: offer fewer values, or let the player choose in steps (one action per choice)",
    "players": "choices multiply: offer fewer players, or let the player choose in steps (one action per choice)",
    "cards": "choices multiply: offer fewer cards, or let the player choose in steps (one action per choice)",
}


def _runtime_message(exc: Exception) -> str:
    if isinstance(exc, ZeroDivisionError):
        return "division by zero"
    if isinstance(exc, TypeError) and "NoneType" in str(exc):
        return "a value was needed here, but there was none (an empty zone's top card, or an unset variable)"
    if isinstance(exc, IndexError):
        return str(exc) if "seat" in str(exc) else "a card or player was asked for that is not there"
    if isinstance(exc, (ops.RangeTooLong, ops.RuleFailed)):
        return str(exc)
    if isinstance(exc, OverflowError):
        return "a number too large to work with (such as the length of a huge range)"
    if isinstance(exc, LookupError):
        return "a chosen card is no longer where it was"
    if isinstance(exc, MemoryError):
        return "the rules ran out of memory here"
    # Never an empty message: some errors say nothing (a MemoryError), so name the error then.
    return f"this rule failed: {str(exc) or type(exc).__name__}"


def _runtime_hint(exc: Exception) -> str | None:
    if isinstance(exc, TypeError) and "NoneType" in str(exc):
        return "guard it with a test such as 'if deck is not empty:' or '!= none'"
    if isinstance(exc, ops.RuleFailed):
        return exc.hint
    if isinstance(exc, ops.RangeTooLong):
        return "narrow the range: a rule goes through each of its numbers, and may not go through so many"
    return None


# ============================================================================ a game that cannot go on

#: How to fix a state whose player to act has no legal action.
STUCK_FIX = "add an action for this case, such as one marked 'otherwise', or end the game"


def stuck_error(state: GameState) -> RuleRuntimeError:
    """The error (R506) of a state whose player to act has no legal action, although the game is not over.

    For whoever plays games (play, simulate, bench): a bot cannot choose from nothing.
    """
    phase = state.prog.phases[state.phase]
    actions = f"{state.n_actions:,} action{'s' if state.n_actions != 1 else ''}"
    diagnostic = Diagnostic(
        "R506",
        stuck_message(state.current_player(), phase.name),
        phase.span,
        f"{describe_table(state)}, after {actions}; {STUCK_FIX} ('ruledsl check --simulate N' looks for such states)",
        Severity.ERROR,
        state.game.source,
    )
    return RuleRuntimeError([diagnostic])


def stuck_message(player: int, phase: str) -> str:
    """The message of R506: ``player`` has no legal action in ``phase``."""
    return f"P{player} has no legal action in phase '{phase}', but the game is not over"


def describe_table(state: GameState) -> str:
    """Describe the table when nobody can act: the round, and how many cards lie where."""
    obs = state.observation(state.current_player())
    parts = []
    for name, zone in obs["zones"].items():
        if isinstance(zone, list):
            parts.append(f"{name} " + ", ".join(str(z["size"]) for z in zone))
        else:
            parts.append(f"{name} {zone['size']}")
    return f"round {obs['round']}; cards: " + "; ".join(parts)
