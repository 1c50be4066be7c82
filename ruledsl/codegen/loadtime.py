"""Work out, when a game is loaded, the values its rules fix then: options, the deck, first values."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ruledsl.analysis.constants import ConstantValues, LoadTimeError
from ruledsl.text.errors import Diagnostic, OptionError

if TYPE_CHECKING:
    from ruledsl.analysis.checked import CheckedGame

__all__ = ["LoadTimeError", "LoadTimeValues", "load_error"]


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
