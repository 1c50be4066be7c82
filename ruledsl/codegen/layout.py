"""Lay out a game for one load: its deck, card kinds, attribute tables and zones, as constants."""

from __future__ import annotations

import itertools
import math
from typing import TYPE_CHECKING, Any

from attrs import define, frozen

from ruledsl.analysis.loadtime import LoadTimeError
from ruledsl.codegen import names
from ruledsl.engine.limits import MAX_DECK
from ruledsl.engine.program import ZoneLayout
from ruledsl.syntax import nodes as n

if TYPE_CHECKING:
    from ruledsl.analysis.checked import CheckedGame
    from ruledsl.analysis.loadtime import LoadTimeValues
    from ruledsl.analysis.symbols import ZoneSym


@define
class _Card:
    """One card of the deck: its name and its attributes' values."""

    name: str
    values: dict[str, Any]


def build_deck(checked: CheckedGame, load: LoadTimeValues) -> list[_Card]:
    """The deck the rule file lists, for these players and options: its cards in order."""
    cards: list[_Card] = []
    attrs = checked.symbols.attributes

    def display(attr: str, value: Any) -> str:
        t = attrs[attr].type
        if value is None:
            return ""
        if t.kind == "value":
            return checked.symbols.values[t.of or ""].displays[value]
        return str(value)

    def walk(entries: tuple[n.Node, ...]) -> None:
        for entry in entries:
            if isinstance(entry, n.DeckIf):
                walk(entry.body if load.value(entry.cond) else entry.else_)
            elif isinstance(entry, n.DeckRepeat):
                for _ in range(max(0, load.value(entry.count))):
                    before = len(cards)
                    walk(entry.body)
                    if len(cards) == before:
                        break  # each round adds the same cards (it depends on nothing that changes): none
            elif isinstance(entry, n.CardEntry):
                copies = load.value(entry.copies) if entry.copies is not None else 1
                fixed = {a.name: load.value(a.value) for a in entry.assigns}
                loops = [(lp.name, range(load.value(lp.low), load.value(lp.high) + 1)) for lp in entry.loops]
                # How many cards the entry makes is known before they are made: refuse too many first.
                adding = max(0, copies) * math.prod(max(0, r.stop - r.start) for _, r in loops)
                if len(cards) + adding > MAX_DECK:
                    raise LoadTimeError(entry, f"the deck has more than {MAX_DECK:,} cards")
                combos = itertools.product(*(r for _, r in loops)) if loops else [()]
                for combo in combos:
                    values = dict(fixed)
                    for (name, _), v in zip(loops, combo):
                        values[name] = v
                    name = entry.name
                    for attr, v in values.items():
                        name = name.replace("{" + attr + "}", display(attr, v))
                    name = name.replace("{{", "{").replace("}}", "}")
                    for _ in range(max(0, copies)):
                        cards.append(_Card(name, values))

    walk(checked.deck.entries)
    return cards


@frozen
class Layout:
    """Where a loaded game's cards and zones are: the tables generated code reads by index."""

    deck: list[_Card]
    card_kind: tuple[int, ...]  # each card's kind: cards alike (name and attributes) share one
    kind_reps: tuple[int, ...]  # each kind's first card
    unique: bool  # no two cards alike
    attr_tables: dict[str, tuple[Any, ...]]  # each attribute's value, by card
    zone_layout: list[ZoneLayout]
    zone_family: tuple[int, ...]  # each zone list's declaration
    zone_owner: tuple[int, ...]  # each zone list's owner (-1: shared)
    display_tables: dict[str, str]  # a values declaration's name -> its table of how members are shown

    def zone_base(self, z: ZoneSym) -> int:
        """The index of a zone's first list (a per-player zone has one per player after it)."""
        return self.zone_layout[z.index].base

    def display_table(self, values_name: str | None) -> str:
        """The name of the table showing the members of a values declaration.

        A set of no declared values (``{}``) has none: the name is then one no table has.
        """
        return self.display_tables.get(values_name or "", names.DISPLAY.text + "_")


def lay_out(checked: CheckedGame, load: LoadTimeValues, players: int, constants: dict[str, Any]) -> Layout:
    """Build the deck and lay out cards and zones, adding the tables generated code reads to ``constants``."""
    sy = checked.symbols
    deck = build_deck(checked, load)
    kinds: dict[tuple[Any, ...], int] = {}
    card_kind: list[int] = []
    reps: list[int] = []
    attr_names = list(sy.attributes)
    for i, card in enumerate(deck):
        key = (card.name, *(_freeze(card.values.get(a)) for a in attr_names))
        if key not in kinds:
            kinds[key] = len(kinds)
            reps.append(i)
        card_kind.append(kinds[key])
    attr_tables: dict[str, tuple[Any, ...]] = {}
    for a in attr_names:
        t = sy.attributes[a].type
        default: Any = None
        if t.kind == "set":
            default = 0 if t.of not in (None, "number") else frozenset()
        elif t.kind == "flag":
            default = False
        attr_tables[a] = tuple(card.values.get(a, default) for card in deck)
    for a, table in attr_tables.items():
        constants[names.ATTRIBUTE(sy.attributes[a].index)] = table
    constants["KIND"] = tuple(card_kind)
    constants["REP"] = tuple(reps)
    constants["NAMES"] = tuple(card.name for card in deck)
    # Zones: one list per shared zone, one per player for the others.
    zone_layout: list[ZoneLayout] = []
    base = 0
    families: list[int] = []
    owners: list[int] = []
    for family, z in enumerate(sy.zones.values()):
        shown = (z.decl.sorted_by, z.decl.unlisted_when_empty)  # type: ignore[union-attr]  # a ZoneDecl
        zone_layout.append(ZoneLayout(z.name, z.per_player, z.visibility, base, family, *shown))
        count = players if z.per_player else 1
        families.extend([family] * count)
        owners.extend(range(count) if z.per_player else [-1])
        base += count
    constants["ZFAM"] = tuple(families)
    # Named by their order, not by their names: a name may hold any letter, Python's names may not.
    display_tables = {vals.name: names.DISPLAY(i) for i, vals in enumerate(sy.values.values())}
    for vals in sy.values.values():
        constants[display_tables[vals.name]] = vals.displays
    return Layout(
        deck=deck,
        card_kind=tuple(card_kind),
        kind_reps=tuple(reps),
        unique=len(kinds) == len(deck),
        attr_tables=attr_tables,
        zone_layout=zone_layout,
        zone_family=tuple(families),
        zone_owner=tuple(owners),
        display_tables=display_tables,
    )


def _freeze(value: Any) -> Any:
    return tuple(sorted(value)) if isinstance(value, frozenset) else value
