"""How moves read: typed text compared with labels, a menu's labels, and what explains a refused move.

The engine compares typed moves with its actions' labels itself, but the reason a move is
refused is told in the rules' own words, which the engine does not read: the code generator
hands it a ``Refusals`` (``Program.refusals``; ``ruledsl.codegen.refusal`` is the one there is).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from ruledsl.engine.values import Action, ActionDef, unseen

if TYPE_CHECKING:
    from ruledsl.engine.program import Program
    from ruledsl.engine.state import GameState

#: The reason given when there is none the player may be told.
NO_REASON = "the rules do not allow it now"

_SUIT_LETTERS = str.maketrans({"♠": "s", "♥": "h", "♦": "d", "♣": "c"})
_PUNCTUATION = str.maketrans({",": " ", "(": " ", ")": " "})


class Refusals(Protocol):
    """Explains why a move is refused, in words its player may read."""

    def why_illegal(self, st: GameState, move: Action | str, player: int | None = None) -> str | None:
        """Return why ``move`` (an Action, or a move as typed) is not legal for ``player``
        (default: the player to act) now, NO_REASON if he may not be told, or None if it is legal."""
        ...

    def readings(self, st: GameState, text: str) -> list[tuple[ActionDef, tuple[Any, ...]]]:
        """Return the actions and choices a typed move may stand for, read through the labels."""
        ...


def normalise(text: str) -> str:
    """Return a move as typed, ready to compare: lower case, ``♠♥♦♣`` as ``s h d c``, no
    commas or brackets, single spaces."""
    return " ".join(text.lower().translate(_SUIT_LETTERS).translate(_PUNCTUATION).split())


def shown_action(action: Action, prog: Program) -> str:
    """An action as a player reads it in a menu: each card by its label."""
    if prog.card_labels == prog.card_names or not action.defn.label_is_static:
        return str(action)
    labels = prog.card_labels
    return action.defn.label(action.key, lambda c: labels[c] if type(c) is int else unseen(c))
