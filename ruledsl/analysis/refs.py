"""What each name, attribute, call and statement of a checked game refers to: the checker's answer to the compiler."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeAlias

from attrs import frozen

from ruledsl.analysis.symbols import (
    AttributeSym,
    DefineSym,
    LocalSym,
    MemberSym,
    OptionSym,
    PhaseSym,
    ProcedureSym,
    VarSym,
    WindowSym,
    ZoneSym,
)

if TYPE_CHECKING:
    from ruledsl.syntax import nodes as n

# Each reference belongs to one node (the checker makes one per use), so references compare
# by identity (eq=False): their symbols are mutable and compare by identity too.


@frozen(eq=False)
class OptionRef:
    """A Name that is an option of the game."""

    option: OptionSym


@frozen(eq=False)
class MemberRef:
    """A member of a values list: a Name, an Attribute (``rank.K``) or a Number standing for one."""

    member: MemberSym


@frozen(eq=False)
class GameVarRef:
    """A Name that is a game variable."""

    var: VarSym


@frozen(eq=False)
class PlayerVarRef:
    """A player variable: a bare Name (``owner`` None: the acting player's) or an Attribute ``p.var``."""

    var: VarSym
    owner: n.Expr | None


@frozen(eq=False)
class CardVarRef:
    """An Attribute ``card.var`` that is a card variable."""

    var: VarSym


@frozen(eq=False)
class ZoneRef:
    """A zone: a bare Name (``owner`` None: the acting player's, or a shared zone) or an Attribute ``p.zone``."""

    zone: ZoneSym
    owner: n.Expr | None


@frozen(eq=False)
class ZoneFamilyRef:
    """A Name naming a zone as a whole, every player's at once (the zone of a 'when ... enter' rule)."""

    zone: ZoneSym


@frozen(eq=False)
class DefineRef:
    """A definition: a Name or a Call, or the key of a RunOf."""

    define: DefineSym


@frozen(eq=False)
class LocalRef:
    """A Name bound inside a rule: let, a loop, a parameter or an action's choice."""

    local: LocalSym


@frozen(eq=False)
class BuiltinRef:
    """A Name (``round``) or a Call (``max``, ``min``, ``abs``, ``words``) the language provides."""

    name: str


@frozen(eq=False)
class RunSpanRef(BuiltinRef):
    """A Call ``run_low(cs)`` or ``run_high(cs)``: a value a run chosen in the action spans
    (``shape``, its choice), its wild cards read as standing in. ``static``: without a wild card
    told by a definition (which may read the state), it depends on the cards alone."""

    shape: n.DifferentChoice
    static: bool


@frozen(eq=False)
class DirectionRef:
    """The Name ``direction``: the one name the language provides that a rule may change."""


@frozen(eq=False)
class CardAttrRef:
    """An Attribute ``card.attr``: an attribute of one card."""

    attr: AttributeSym


@frozen(eq=False)
class CardsAttrRef:
    """An Attribute ``cards.attr``: an attribute read from some cards (the first one's)."""

    attr: AttributeSym


@frozen(eq=False)
class RunKeyAttrRef:
    """The key of a RunOf that is a card attribute (a definition key is a DefineRef)."""

    attr: AttributeSym


@frozen(eq=False)
class CountRef:
    """AllPlayers (``players``) read as a number: how many players there are."""


#: What ``CheckedGame.refs`` holds for a node. A few statements and declarations refer
#: to one symbol and nothing more, so their symbol is stored as it is: ZoneSym (a
#: TriggerDecl's zone, a Deal's zone), AttributeSym (an attribute given in the deck, the
#: attribute that groups a ChoiceShape), PhaseSym (GoTo), WindowSym (Open) and
#: ProcedureSym (CallStmt).
Ref: TypeAlias = (
    OptionRef
    | MemberRef
    | GameVarRef
    | PlayerVarRef
    | CardVarRef
    | ZoneRef
    | ZoneFamilyRef
    | DefineRef
    | LocalRef
    | BuiltinRef
    | DirectionRef
    | CardAttrRef
    | CardsAttrRef
    | RunKeyAttrRef
    | CountRef
    | ZoneSym
    | AttributeSym
    | PhaseSym
    | WindowSym
    | ProcedureSym
)

#: The variables a rule may give a new value to (set, add, subtract).
VarRef: TypeAlias = GameVarRef | PlayerVarRef | CardVarRef

#: A card predicate (a choice's ``wild``): a flag attribute or a one-card yes/no definition.
CardPredicate: TypeAlias = AttributeSym | DefineSym
