"""Check a parsed game: resolve every name and type, collect every diagnostic at once.

The work is split by concern, each checker in its own module, sharing one CheckContext:
declarations (names, options, variables, the deck, definitions), statements, expressions
(with resolution: what names refer to), and structure (phases, windows, actions, triggers,
and the game as a whole). This module drives them in two passes.
"""

from __future__ import annotations

from typing import TypeVar

import attrs

from ruledsl.analysis.checked import CheckedGame
from ruledsl.analysis.context import CheckContext
from ruledsl.analysis.declarations import DeclarationChecker
from ruledsl.analysis.disclosure import told_hidden
from ruledsl.analysis.expressions import ExpressionChecker
from ruledsl.analysis.resolution import NameResolver
from ruledsl.analysis.statements import StatementChecker
from ruledsl.analysis.structure import StructureChecker
from ruledsl.analysis.traps import TrapChecker
from ruledsl.syntax import nodes as n
from ruledsl.text.errors import CheckError, Diagnostic, sort_diagnostics
from ruledsl.text.source import Source

__all__ = ["CheckedGame", "analyse", "check"]

_D = TypeVar("_D", bound=n.Decl)

_MISSING_HINTS = {
    n.PlayersDecl: "add a line such as: players 2 to 6",
    n.DeckDecl: 'list the cards under "deck:"',
    n.SetupDecl: "add 'setup:' with the shuffle, the deal and who starts",
}


def check(file: n.GameFile, source: Source) -> CheckedGame:
    """Check a parsed game; raise CheckError carrying every error (and warning) found."""
    checked, diagnostics = analyse(file, source)
    if any(d.is_error for d in diagnostics):
        raise CheckError(diagnostics)
    return checked


def analyse(file: n.GameFile, source: Source) -> tuple[CheckedGame, tuple[Diagnostic, ...]]:
    """Check a parsed game and return what was resolved with every diagnostic, errors or not.

    For tools that go on after errors (the language server's hover, names and references):
    with errors, the checked game holds what the checker could resolve, and nothing may be
    compiled from it.
    """
    ctx = CheckContext(file, source)
    ctx.decls = DeclarationChecker(ctx)
    ctx.stmts = StatementChecker(ctx)
    ctx.exprs = ExpressionChecker(ctx)
    ctx.names = NameResolver(ctx)
    ctx.structure = StructureChecker(ctx)
    checked = _check_game(ctx)
    if any(d.is_error for d in ctx.diagnostics):
        return checked, sort_diagnostics(_one_error_per_undeclared_name(ctx.diagnostics, ctx.undeclared))
    checked = attrs.evolve(checked, warnings=checked.warnings + tuple(told_hidden(checked)))
    return checked, sort_diagnostics(checked.warnings)


def _one_error_per_undeclared_name(diagnostics: list[Diagnostic], names: dict[Diagnostic, str]) -> list[Diagnostic]:
    """Keep the first use of each name declared nowhere; its hint gives the lines of the others.

    A zone never declared, or misspelt alike wherever it is used, is one mistake.
    """
    uses: dict[str, list[Diagnostic]] = {}
    for d in sorted(names, key=lambda d: (d.line, d.column)):
        uses.setdefault(names[d], []).append(d)
    kept: dict[Diagnostic, Diagnostic] = {}
    for name, found in uses.items():
        first = kept[found[0]] = found[0]
        lines = [str(line) for line in sorted({d.line for d in found} - {first.line})]
        if lines:
            where = lines[0] if len(lines) == 1 else ", ".join(lines[:-1]) + " and " + lines[-1]
            also = f"'{name}' is also used on line{'s' if len(lines) > 1 else ''} {where}"
            kept[first] = attrs.evolve(first, hint=f"{first.hint}; {also}" if first.hint else also)
    return [kept.get(d, d) for d in diagnostics if d not in names or d in kept]


def _check_game(ctx: CheckContext) -> CheckedGame:
    """Check every declaration, then the game as a whole; return what the checkers found."""
    decls = ctx.file.decls
    singles: dict[type, list[n.Decl]] = {}
    for d in decls:
        singles.setdefault(type(d), []).append(d)
    for kind, what in ((n.PlayersDecl, "'players'"), (n.DeckDecl, "'deck:'"), (n.SetupDecl, "'setup:'")):
        found = singles.get(kind, [])
        if not found:
            ctx.error("E401", f"the game has no {what} declaration", ctx.file.header, _MISSING_HINTS[kind])
    if not singles.get(n.PhaseDecl):
        # Play starts in the first phase: without one, nobody could ever act.
        hint = "add one, with what its player may do: phase play: action name: ..."
        ctx.error("E401", "the game has no phase", ctx.file.header, hint)
    kinds: tuple[tuple[type[n.Decl], str], ...] = (
        (n.PlayersDecl, "'players'"),
        (n.DeckDecl, "'deck:'"),
        (n.SetupDecl, "'setup:'"),
        (n.RoundEndDecl, "'round end:'"),
        (n.RankingDecl, "'ranking:'"),
        (n.StandingDecl, "'standing:'"),
        (n.PayoffDecl, "'payoff:'"),
        (n.LabelDecl, "'label card'"),
    )
    for single, what in kinds:
        for extra in singles.get(single, [])[1:]:
            ctx.error("E202", f"a second {what} declaration", extra, "a game has only one; merge them")

    # Pass 1: declare every name, so that rules may refer to names declared later.
    for d in decls:
        ctx.decls.declare(d)
    # Pass 2: check every declaration's contents.
    for d in decls:
        ctx.decls.check(d)
    ctx.structure.check()
    TrapChecker(ctx).check()

    def first(kind: type[_D]) -> _D | None:
        found = singles.get(kind)
        return found[0] if found else None  # type: ignore[return-value]  # singles is keyed by each decl's class

    players_decl = first(n.PlayersDecl) or n.PlayersDecl(low=n.Number(value=2), high=n.Number(value=2))
    setup = first(n.SetupDecl) or n.SetupDecl(body=())
    deck = first(n.DeckDecl) or n.DeckDecl(entries=())
    return CheckedGame(
        file=ctx.file,
        source=ctx.source,
        symbols=ctx.symbols,
        types=ctx.types,
        refs=ctx.refs,
        wilds=ctx.wilds,
        warnings=tuple(d for d in ctx.diagnostics if not d.is_error),
        setup=setup,
        round_end=first(n.RoundEndDecl),
        ranking=first(n.RankingDecl),
        players_decl=players_decl,
        deck=deck,
        triggers=tuple(d for d in decls if isinstance(d, n.TriggerDecl)),
        options=tuple(d for d in decls if isinstance(d, n.OptionDecl)),
        var_decls=tuple(d for d in decls if isinstance(d, n.VarDecl)),
        requires=tuple(d for d in decls if isinstance(d, n.RequireDecl)),
        standing=first(n.StandingDecl),
        payoff=first(n.PayoffDecl),
        label=first(n.LabelDecl),
    )
