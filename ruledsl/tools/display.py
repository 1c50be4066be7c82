"""How the rule file says its zones and variables are shown to people (`sorted by`, `unlisted when empty`, a
variable's `label`): one reading of it for every surface, the terminal's view and the browser's table alike.

Display only: it reorders the cards a viewer's observation lists, never the zones of the game, and
sorts only the cards the viewer sees (by their attributes, which are the cards'); a card he does not
see keeps its place, so the order shown tells nothing the observation does not.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from ruledsl.engine.program import Program


def _sort_value(value: Any) -> tuple[int, Any]:
    """A card attribute as a sort key: numbers (and values, by their place in their list) first, then texts, then
    none."""
    if isinstance(value, (int, float)):
        return (0, value)
    return (2, "") if value is None else (1, str(value))


class Display:
    """What ``prog``'s rule file says of showing its zones and variables, worked out once."""

    def __init__(self, prog: Program) -> None:
        self.prog = prog
        first: dict[str, int] = {}
        for c, name in enumerate(prog.card_names):
            first.setdefault(name, c)  # cards of one name are alike
        tables = prog.attribute_tables
        self.keys: dict[str, dict[str, tuple[tuple[int, Any], ...]]] = {
            z.name: {name: tuple(_sort_value(tables[a][c]) for a in z.sorted_by) for name, c in first.items()}
            for z in prog.zones
            if z.sorted_by
        }
        self.unlisted_when_empty = frozenset(z.name for z in prog.zones if z.unlisted_when_empty)
        self.labels = {v.name: v.label for v in (*prog.game_vars, *prog.player_vars) if v.label is not None}

    def cards(self, zone: str, cards: Sequence[str | None]) -> list[str | None]:
        """The cards of ``zone`` (by name; None: one the viewer does not see) in the order they are shown: sorted if
        the zone is, the unseen ones in their places."""
        keys = self.keys.get(zone)
        if keys is None:
            return list(cards)
        seen = iter(sorted((c for c in cards if c is not None), key=lambda c: keys[c]))
        return [None if c is None else next(seen) for c in cards]

    def listed(self, zone: str, size: int) -> bool:
        """Whether a zone of ``size`` cards has a place in a view."""
        return size > 0 or zone not in self.unlisted_when_empty

    def label(self, var: str) -> str:
        """How a variable is named to people."""
        return self.labels.get(var, var)


_MADE: dict[tuple[int, int], Any] = {}
_Made = TypeVar("_Made")


def per_program(make: Callable[[Program], _Made], prog: Program) -> _Made:
    """What ``make`` works out of ``prog`` (an object keeping it as ``.prog``), worked out the first time it is asked
    for and kept while the program lives."""
    key = (id(make), id(prog))
    made = _MADE.get(key)
    if made is None or made.prog is not prog:
        if len(_MADE) > 512:  # programs come and go only in tests: keep the memory bounded anyway
            _MADE.clear()
        made = _MADE[key] = make(prog)
    return made


def display_of(prog: Program) -> Display:
    """The display of ``prog``, worked out the first time it is asked for."""
    return per_program(Display, prog)
