"""Diagnostics and the errors that carry them; plain data, no printing."""

from __future__ import annotations

import enum
from collections.abc import Iterable

from attrs import field, frozen

from ruledsl.text.source import Source, Span


class Severity(enum.Enum):
    ERROR = "error"
    WARNING = "warning"


@frozen
class Diagnostic:
    """One problem found in a rule file, at a place in it.

    ``line`` and ``column`` count from 1. A diagnostic about a whole file (one that
    cannot be read, say) has no span and points at 1:1.
    """

    code: str
    message: str
    span: Span | None = None
    hint: str | None = None
    severity: Severity = Severity.ERROR
    source: Source | None = field(default=None, eq=False, repr=False)

    @property
    def line(self) -> int:
        return self.span.start.line if self.span and self.span.start.line else 1

    @property
    def column(self) -> int:
        return self.span.start.col if self.span and self.span.start.col else 1

    @property
    def end_line(self) -> int:
        return self.span.end.line if self.span and self.span.end.line else self.line

    @property
    def end_column(self) -> int:
        return self.span.end.col if self.span and self.span.end.col else self.column

    @property
    def path(self) -> str:
        return self.source.path if self.source else "<input>"

    @property
    def is_error(self) -> bool:
        return self.severity is Severity.ERROR

    def header(self) -> str:
        """Return the first line of the rendered diagnostic, the one tools search for."""
        return f"{self.path}:{self.line}:{self.column}: {self.severity.value}[{self.code}]: {self.message}"

    def to_json(self) -> dict[str, object]:
        """Return the diagnostic as a JSON-serialisable dict (for editors and CI)."""
        return {
            "file": self.path,
            "line": self.line,
            "column": self.column,
            "end_line": self.end_line,
            "end_column": self.end_column,
            "code": self.code,
            "severity": self.severity.value,
            "message": self.message,
            "hint": self.hint,
        }


def sort_diagnostics(diagnostics: Iterable[Diagnostic]) -> tuple[Diagnostic, ...]:
    """Order diagnostics by file and position, errors before warnings at one place."""
    return tuple(
        sorted(diagnostics, key=lambda d: (d.path, d.line, d.column, d.severity is not Severity.ERROR, d.code))
    )


class RuleDslError(Exception):
    """Every error a user can cause: a bad rule file, option, action or command line.

    ``diagnostics`` holds every problem found, sorted by position; ``str()`` is the
    header line of the first one.
    """

    def __init__(self, diagnostics: Iterable[Diagnostic]) -> None:
        self.diagnostics = sort_diagnostics(diagnostics)
        super().__init__(self.diagnostics[0].header() if self.diagnostics else "ruledsl error")

    def __reduce__(self) -> tuple[object, ...]:
        # Rebuilt from its diagnostics, so that it can come back from a worker process (simulate --jobs).
        return (type(self), (self.diagnostics,))

    @property
    def errors(self) -> tuple[Diagnostic, ...]:
        return tuple(d for d in self.diagnostics if d.is_error)

    @property
    def warnings(self) -> tuple[Diagnostic, ...]:
        return tuple(d for d in self.diagnostics if not d.is_error)


class SourceError(RuleDslError):
    """A rule file could not be read: missing, too large, not UTF-8 (E0xx)."""


class ParseError(RuleDslError):
    """A syntax error (E1xx); the parser stops at the first one."""


class CheckError(RuleDslError):
    """Name, type and structure errors (E2xx to E4xx), all collected at once."""


class OptionError(RuleDslError):
    """A bad player count or game option given when loading a game (E6xx)."""


class RuleRuntimeError(RuleDslError):
    """A rule failed while the game ran (R5xx): a step budget exceeded, say.

    ``action`` is the action the rules failed in, when one did: ``apply_action`` rolled the
    state back to before it, so that it is in no history (a record of the game keeps it).
    """

    action: object = None


class IllegalActionError(RuleRuntimeError):
    """``apply_action`` got an action that is not legal now; the message says why."""

    def __init__(self, reason: str, diagnostics: Iterable[Diagnostic] = ()) -> None:
        diagnostics = tuple(diagnostics) or (Diagnostic("R505", reason),)
        super().__init__(diagnostics)
        self.reason = reason
        self.args = (reason,)

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.reason, self.diagnostics))

    def __str__(self) -> str:
        return self.reason
