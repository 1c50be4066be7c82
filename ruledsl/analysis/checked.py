"""The checker's output: a checked game, with what each of its nodes means."""

from __future__ import annotations

from collections.abc import Mapping

from attrs import frozen

from ruledsl.analysis.refs import CardPredicate, Ref
from ruledsl.analysis.symbols import SymbolTable, Type
from ruledsl.syntax import nodes as n
from ruledsl.text.errors import Diagnostic
from ruledsl.text.source import Source


@frozen(eq=False)
class CheckedGame:
    """A game that passed the checker: its syntax tree, symbols, and what each node means.

    ``types``, ``refs`` and ``wilds`` are keyed by ``id(node)``: the type of every
    expression; what every name, attribute, call and choice resolves to (see
    ruledsl.analysis.refs); and the card predicate marking a choice's wild cards. The
    wild cards have a table of their own because a choice's own entry in ``refs`` is
    already the attribute that groups its cards (``3 cards of the same rank, wild joker``).
    """

    file: n.GameFile
    source: Source
    symbols: SymbolTable
    types: Mapping[int, Type]
    refs: Mapping[int, Ref]
    wilds: Mapping[int, CardPredicate]
    warnings: tuple[Diagnostic, ...]
    setup: n.SetupDecl
    round_end: n.RoundEndDecl | None
    ranking: n.RankingDecl | None
    players_decl: n.PlayersDecl
    deck: n.DeckDecl
    triggers: tuple[n.TriggerDecl, ...]
    options: tuple[n.OptionDecl, ...]
    var_decls: tuple[n.VarDecl, ...]
    requires: tuple[n.RequireDecl, ...] = ()
    standing: n.StandingDecl | None = None
    payoff: n.PayoffDecl | None = None
    label: n.LabelDecl | None = None
