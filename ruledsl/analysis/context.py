"""What the checkers of one game share: the game, its symbols, the tables they fill, and the diagnostics."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ruledsl.analysis.refs import CardPredicate, Ref
from ruledsl.analysis.symbols import NUMBER, SymbolTable, Type
from ruledsl.syntax import nodes as n
from ruledsl.syntax.grammar import keyword_as_name, reserved_words
from ruledsl.text.errors import Diagnostic, Severity
from ruledsl.text.source import Pos, Source, Span

if TYPE_CHECKING:
    from ruledsl.analysis.declarations import DeclarationChecker
    from ruledsl.analysis.expressions import ExpressionChecker
    from ruledsl.analysis.resolution import NameResolver
    from ruledsl.analysis.statements import StatementChecker
    from ruledsl.analysis.structure import StructureChecker

#: Names the language provides: no declaration may take them.
BUILTIN_NAMES = {"round": NUMBER, "direction": NUMBER}


class CheckContext:
    """One check of one game: what every checker reads and fills, and how they report.

    Each concern has its checker (``decls``, ``stmts``, ``exprs``, ``names``, ``structure``),
    and they reach each other through this context.
    """

    # The checker of each concern, set by the driver (ruledsl.analysis.checker) once all exist.
    decls: DeclarationChecker
    stmts: StatementChecker
    exprs: ExpressionChecker
    names: NameResolver
    structure: StructureChecker

    def __init__(self, file: n.GameFile, source: Source) -> None:
        self.file = file
        self.source = source
        self.symbols = SymbolTable()
        self.types: dict[int, Type] = {}
        self.refs: dict[int, Ref] = {}
        self.wilds: dict[int, CardPredicate] = {}
        self.diagnostics: list[Diagnostic] = []
        self.undeclared: dict[Diagnostic, str] = {}  # E201 for a name declared nowhere: the name
        # Names whose declaration was refused (E106, E202): their uses are not reported again.
        self.refused: set[str] = set()
        self.claimed: dict[str, n.Node] = {}  # every name of the game's one namespace, and where it is declared
        self._reported: set[Diagnostic] = set()

    def name_span(self, node: n.Node, name: str, last: bool = False) -> Span:
        """The span of ``name`` as written on the first line of ``node`` (else the node's span).

        A declaration's name comes after its keyword (``let let = 1`` names the second 'let').
        """
        span = node.span
        if span is None or not span.start.line:
            return span
        text = self.source.line_text(span.start.line)
        start_col = span.start.col - 1
        if isinstance(node, (n.Decl, n.Let, n.ValueMember)) and not isinstance(node, n.VarDecl):
            start_col += (
                len(text[start_col:]) - len(text[start_col:].split(None, 1)[-1])
                if text[start_col:].split(None, 1)[1:]
                else 0
            )
        elif isinstance(node, n.VarDecl):
            after_var = re.search(r"\bvar\b\s*", text[start_col:])
            if after_var:
                start_col += after_var.end()
        end_col = span.end.col - 1 if span.end.line == span.start.line else len(text)
        matches = [
            m
            for m in re.finditer(r"(?<!\w)" + re.escape(name) + r"(?!\w)", text)
            if start_col <= m.start() < max(end_col, start_col + 1)
        ]
        if not matches:
            return span
        m = matches[-1] if last else matches[0]
        line = span.start.line
        return Span(Pos(line, m.start() + 1, 0), Pos(line, m.end() + 1, 0))

    def error(self, code: str, message: str, node: n.Node | Span | None, hint: str | None = None) -> None:
        """Report an error at ``node`` (or a span)."""
        self.report(Diagnostic(code, message, _span_of(node), hint, Severity.ERROR, self.source))

    def warning(self, code: str, message: str, node: n.Node | Span | None, hint: str | None = None) -> None:
        """Report a warning at ``node`` (or a span)."""
        self.report(Diagnostic(code, message, _span_of(node), hint, Severity.WARNING, self.source))

    def undeclared_name(self, kind: str, name: str, node: n.Node | Span | None, hint: str | None) -> None:
        """Report a name declared nowhere (E201); every use of one name is one error (see checker.check)."""
        d = Diagnostic("E201", f"unknown {kind} '{name}'", _span_of(node), hint, Severity.ERROR, self.source)
        self.undeclared[d] = name
        self.report(d)

    def report(self, d: Diagnostic) -> None:
        """Keep a diagnostic, unless the same one is already kept, or it is an unknown name (E201,
        E203, E208) whose declaration was refused: the first error says why, its uses would only repeat it."""
        if (
            d.code in ("E201", "E203", "E208")
            and self.refused
            and any(f"'{name}'" in d.message for name in self.refused)
        ):
            return
        # A part of a rule checked twice (a set, then its elements) reports a mistake once.
        if d not in self._reported:
            self._reported.add(d)
            self.diagnostics.append(d)

    def reserved(self, name: str, node: n.Node) -> bool:
        """Report a keyword used as a name (E106); return whether it is one."""
        if name in reserved_words():
            self.refused.add(name)
            message, hint = keyword_as_name(name)
            self.error("E106", message, self.name_span(node, name), hint)
            return True
        return False


class CheckerPart:
    """One concern of the checker, with the context it shares with the others."""

    def __init__(self, ctx: CheckContext) -> None:
        self.ctx = ctx
        # The tables and reports every part uses, without a detour through the context.
        self.symbols = ctx.symbols
        self.types = ctx.types
        self.refs = ctx.refs
        self.error = ctx.error
        self.warning = ctx.warning


def _span_of(node: n.Node | Span | None) -> Span | None:
    return node if isinstance(node, Span) or node is None else node.span
