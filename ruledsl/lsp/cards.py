"""The cards a deck declares, by name, with their attributes as the rule file writes them: for hover and completion.

Static text only: what the deck says a card is, never where a card is in some game.
"""

from __future__ import annotations

import itertools
import re

from attrs import frozen

from ruledsl.analysis.checked import CheckedGame
from ruledsl.analysis.refs import MemberRef
from ruledsl.analysis.symbols import ValuesSym
from ruledsl.syntax import nodes as n

#: More names than this from one entry are not listed (a completion list is for people).
_MAX_NAMES = 400
_PLACEHOLDER = re.compile(r"\{(\w+)\}")


@frozen
class DeckCard:
    """A card name the deck makes, the entry that makes it, and its attributes (name -> value as written)."""

    name: str
    entry: n.CardEntry
    attributes: tuple[tuple[str, str], ...]


def card_entries(checked: CheckedGame) -> list[n.CardEntry]:
    """Return every card entry of the deck, those under an ``if`` or a ``repeat`` included."""
    found: list[n.CardEntry] = []
    stack: list[n.Node] = list(reversed(checked.deck.entries))
    while stack:
        node = stack.pop()
        if isinstance(node, n.CardEntry):
            found.append(node)
        elif isinstance(node, n.DeckIf):
            stack.extend(reversed((*node.body, *node.else_)))
        elif isinstance(node, n.DeckRepeat):
            stack.extend(reversed(node.body))
    return found


def deck_cards(checked: CheckedGame) -> list[DeckCard]:
    """Return the cards the deck names, each name once (the first entry that makes it)."""
    seen: dict[str, DeckCard] = {}
    text = checked.source.text
    for entry in card_entries(checked):
        fixed = tuple((a.name, text[a.value.span.start.offset : a.value.span.end.offset]) for a in entry.assigns)
        loops = [_loop_values(checked, loop) for loop in entry.loops]
        if any(values is None for values in loops):
            continue
        names = [loop.name for loop in entry.loops]
        for combo in itertools.islice(itertools.product(*(v for v in loops if v is not None)), _MAX_NAMES):
            shown = dict(zip(names, combo, strict=True))
            name = _PLACEHOLDER.sub(lambda m, shown=shown: shown.get(m[1], m[0]), entry.name)  # type: ignore[misc]
            if name not in seen:
                seen[name] = DeckCard(name, entry, (*fixed, *shown.items()))
    return list(seen.values())


def _loop_values(checked: CheckedGame, loop: n.CardLoop) -> list[str] | None:
    """The values a card loop goes through, as card names show them; None if they are not plain to see."""
    attr = checked.symbols.attributes.get(loop.name)
    if attr is None:
        return None
    if attr.type.kind == "number" and isinstance(loop.low, n.Number) and isinstance(loop.high, n.Number):
        return [str(k) for k in range(loop.low.value, loop.high.value + 1)][:_MAX_NAMES]
    values = checked.symbols.values.get(attr.type.of or "")
    if values is None:
        return None
    low, high = _index(checked, values, loop.low), _index(checked, values, loop.high)
    if low is None or high is None:
        return None
    return [values.displays[k] or values.members[k] for k in range(low, high + 1)]


def _index(checked: CheckedGame, values: ValuesSym, e: n.Expr) -> int | None:
    ref = checked.refs.get(id(e))
    if isinstance(ref, MemberRef):
        return ref.member.index
    if isinstance(e, n.Number):
        return values.index_of(str(e.value))
    return None
