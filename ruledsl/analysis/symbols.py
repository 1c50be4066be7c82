"""Types and the symbol table: every name a rule file declares, with a stable integer id."""

from __future__ import annotations

from typing import TYPE_CHECKING

from attrs import define, field, frozen

if TYPE_CHECKING:
    from ruledsl.syntax import nodes as n


# ============================================================================ types


@frozen
class Type:
    """The type of a value in the rule language.

    ``kind`` is one of the KINDS below; ``of`` names the ``values`` list of a value,
    or of the elements of a set or range (``"number"`` for numbers).
    """

    kind: str
    of: str | None = None
    nullable: bool = field(default=False, eq=False)

    def __str__(self) -> str:
        if self.kind in ("value",):
            return f"a {self.of}" if self.of else "a value"
        if self.kind == "set":
            return f"a set of {self.of}" if self.of else "a set"
        if self.kind == "range":
            return f"a range of {self.of}" if self.of else "a range"
        if self.kind == "tuple" and self.of:
            return f"a tuple ({self.of.replace(',', ', ')})"
        return _KIND_WORDS.get(self.kind, self.kind)

    def maybe_none(self) -> Type:
        return Type(self.kind, self.of, nullable=True)

    def sure(self) -> Type:
        return Type(self.kind, self.of, nullable=False)


_KIND_WORDS = {
    "number": "a number",
    "flag": "yes or no",
    "text": "text",
    "card": "a card",
    "cards": "cards",
    "zone": "a zone",
    "player": "a player",
    "players": "players",
    "tuple": "a tuple",
    "none": "none",
    "any": "anything",
}

NUMBER = Type("number")
FLAG = Type("flag")
TEXT = Type("text")
CARD = Type("card")
CARDS = Type("cards")
ZONE = Type("zone")
PLAYER = Type("player")
PLAYERS = Type("players")
TUPLE = Type("tuple")
NONE = Type("none", nullable=True)
#: The type of an expression that already has an error: it fits everywhere, so one
#: mistake gives one diagnostic.
ANY = Type("any", nullable=True)


def value_type(values: str) -> Type:
    return Type("value", values)


def tuple_type(items: tuple[str, ...] | None) -> Type:
    """The type of a tuple; ``items`` is its shape (``number`` or a values list, item by item), if known."""
    return Type("tuple", ",".join(items) if items else None)


def set_type(of: str) -> Type:
    return Type("set", of)


def range_type(of: str) -> Type:
    return Type("range", of)


def element_type(t: Type) -> Type | None:
    """Return the type of the elements one iterates over in ``t``, or None."""
    if t.kind in ("zone", "cards"):
        return CARD
    if t.kind == "players":
        return PLAYER
    if t.kind in ("set", "range"):
        return NUMBER if t.of == "number" else value_type(t.of or "")
    if t.kind == "any":
        return ANY
    return None


# ============================================================================ symbols


@define(eq=False)
class Symbol:
    """Base of symbols: a declared name and the node that declared it."""

    name: str
    decl: n.Node | None


@define(eq=False)
class OptionSym(Symbol):
    type: Type
    index: int
    choices: tuple[str, ...] = ()


@define(eq=False)
class ValuesSym(Symbol):
    members: tuple[str, ...]
    displays: tuple[str, ...]

    def index_of(self, member: str) -> int | None:
        try:
            return self.members.index(member)
        except ValueError:
            return None


@define(eq=False)
class MemberSym(Symbol):
    values: ValuesSym
    index: int


@define(eq=False)
class AttributeSym(Symbol):
    type: Type
    index: int


@define(eq=False)
class ZoneSym(Symbol):
    per_player: bool
    visibility: str
    index: int


@define(eq=False)
class VarSym(Symbol):
    scope: str  # "game", "player" or "card"
    type: Type
    index: int
    visibility: str


@define(eq=False)
class DefineSym(Symbol):
    params: tuple[tuple[str, Type], ...]
    index: int
    type: Type = ANY


@define(eq=False)
class ProcedureSym(Symbol):
    params: tuple[tuple[str, Type], ...]
    index: int


@define(eq=False)
class ActionSym(Symbol):
    index: int
    owner: str  # the phase or window
    is_pass: bool = False


@define(eq=False)
class PhaseSym(Symbol):
    index: int
    is_auction: bool
    actions: list[ActionSym] = field(factory=list)


@define(eq=False)
class WindowSym(Symbol):
    index: int
    actions: list[ActionSym] = field(factory=list)


@define(eq=False)
class LocalSym(Symbol):
    """A name bound inside a rule: let, a loop, a parameter or an action's choice."""

    type: Type
    kind: str  # "let", "loop", "param", "choice"


@define(eq=False)
class BuiltinSym(Symbol):
    """A name the language provides: ``round``, ``direction``."""

    type: Type


@define
class SymbolTable:
    """Every declared name, by namespace, each with a stable integer id (its index)."""

    options: dict[str, OptionSym] = field(factory=dict)
    values: dict[str, ValuesSym] = field(factory=dict)
    members: dict[str, MemberSym] = field(factory=dict)
    attributes: dict[str, AttributeSym] = field(factory=dict)
    zones: dict[str, ZoneSym] = field(factory=dict)
    game_vars: dict[str, VarSym] = field(factory=dict)
    player_vars: dict[str, VarSym] = field(factory=dict)
    card_vars: dict[str, VarSym] = field(factory=dict)
    defines: dict[str, DefineSym] = field(factory=dict)
    procedures: dict[str, ProcedureSym] = field(factory=dict)
    phases: dict[str, PhaseSym] = field(factory=dict)
    windows: dict[str, WindowSym] = field(factory=dict)
    card_names: set[str] = field(factory=set)
    has_card_templates: bool = False

    def offered(self, item: n.OfferItem) -> n.ActionDecl | None:
        """The phase action a window's ``offer NAME from PHASE`` names (None: no such action to offer)."""
        from ruledsl.syntax import nodes as n

        phase = self.phases.get(item.phase)
        if phase is None or phase.is_auction or not isinstance(phase.decl, n.PhaseDecl) or phase.decl.together:
            return None
        return next((a for a in phase.decl.items if isinstance(a, n.ActionDecl) and a.name == item.name), None)

    def window_items(self, d: n.WindowDecl) -> tuple[n.Node, ...]:
        """A window's items, each ``offer`` replaced by the phase action it offers (the one node, shared)."""
        from ruledsl.syntax import nodes as n

        items: list[n.Node] = []
        for item in d.items:
            if isinstance(item, n.OfferItem):
                action = self.offered(item)
                if action is not None:
                    items.append(action)
            else:
                items.append(item)
        return tuple(items)

    def global_names(self) -> dict[str, Symbol]:
        """Return every name a bare word may refer to."""
        names: dict[str, Symbol] = {}
        for table in (
            self.options,
            self.game_vars,
            self.player_vars,
            self.zones,
            self.defines,
            self.procedures,
            self.members,
        ):
            names.update(table)
        return names
