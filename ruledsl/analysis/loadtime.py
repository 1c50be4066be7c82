"""Work out, when a game is loaded, the values its rules fix then: options, the deck, first values."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ruledsl.analysis.constants import ConstantValues, LoadTimeError
from ruledsl.syntax import nodes as n
from ruledsl.text.errors import Diagnostic, OptionError
from ruledsl.text.render import counted

if TYPE_CHECKING:
    from ruledsl.analysis.checked import CheckedGame

__all__ = ["LoadTimeError", "LoadTimeValues", "load_error", "option_values"]


class LoadTimeValues(ConstantValues):
    """Evaluate expressions known when the game is loaded: options, the deck, first values."""

    def __init__(
        self, checked: CheckedGame, players: int, options: dict[str, Any], deck_size: int | None = None
    ) -> None:
        super().__init__(checked.refs, checked.types, players, options, deck_size)
        self.checked = checked


def load_error(checked: CheckedGame, exc: LoadTimeError) -> OptionError:
    """The error a player sees for ``exc`` (E604), placed in the rule file."""
    return OptionError([Diagnostic("E604", exc.message, exc.node.span, None, source=checked.source)])


def option_values(checked: CheckedGame, players: int, given: dict[str, Any]) -> dict[str, Any]:
    """Return every option's value: the given ones (checked) and the defaults of the others."""
    load = LoadTimeValues(checked, players, {})
    values: dict[str, Any] = {}
    for decl in checked.options:
        load.options = values
        try:
            default = load.value(decl.default)
        except LoadTimeError as exc:
            raise load_error(checked, exc) from None
        if decl.name in given:
            values[decl.name] = given[decl.name]
        else:
            values[decl.name] = default
        if isinstance(decl.domain, n.RangeDomain):
            low, high = load.value(decl.domain.low), load.value(decl.domain.high)
            value = values[decl.name]
            # An 'if' in the default or the bounds may give none for some player counts.
            if None in (low, high, value) or not low <= value <= high:
                shown = ["none" if x is None else x for x in (low, high, value, default)]
                raise OptionError(
                    [
                        Diagnostic(
                            "E602",
                            f"option '{decl.name}' must be from {shown[0]} to {shown[1]}, not {shown[2]}",
                            decl.span,
                            f"the default is {shown[3]}"
                            if decl.name in given
                            else f"the default is {shown[3]} for {counted(players, 'player')}: "
                            "make it a number in the range for every player count",
                            source=checked.source,
                        )
                    ]
                )
    return values
