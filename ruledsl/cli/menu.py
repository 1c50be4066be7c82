"""Make a long menu of actions short enough to read: an action that chooses part of the
cards of another goes under it, in a menu of its own.

A player holding eight cards of one rank may play any of their 2^8 - 1 combinations;
listed one per line, a turn's menu runs to a hundred lines and more. Grouped, it reads
``play 6♠ 6♠ 6♥ 6♦ 6♣ (or some of them: 23 choices) ›``, one line per widest choice,
and choosing that line shows the 23. A group still too long is split by how many cards
are chosen. The actions are those of ``legal_actions()`` and their order is kept: a
menu changes how a choice is asked for, never what is chosen, nor its label in a record.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

from attrs import frozen

from ruledsl.engine.reading import normalise
from ruledsl.engine.values import Action

#: A menu of more lines than this is grouped (about a terminal's height).
LONG_MENU = 24


@frozen
class Group:
    """Several actions shown as one line of a menu (``title``) that opens a menu of its own."""

    title: str
    entries: tuple[Entry, ...]


@frozen
class Picker:
    """The sets of cards one action may choose, too many to list: chosen card by card instead
    (``ruledsl.cli.picking``), its line read as ``title``."""

    title: str
    sets: tuple[Action, ...]


Entry = Action | Group | Picker


def menu_entries(actions: Sequence[Action], shown: Callable[[Action], str]) -> list[Entry]:
    """The lines of a menu of ``actions`` (each read as ``shown`` gives it): the actions
    themselves when they are few, else grouped under the widest choices."""
    if len(actions) <= LONG_MENU:
        return list(actions)
    heads = _widest_heads(actions)
    members: dict[Action, list[Action]] = {}
    for action in actions:
        members.setdefault(heads[action], []).append(action)
    entries: list[Entry] = []
    for head, group in members.items():
        if len(group) == 1:
            entries.append(head)
        else:
            title = f"{shown(head)} (or some of them: {len(group)} choices)"
            entries.append(Group(title, tuple(_by_count(group, shown))))
    return entries


def line_of(entry: Entry, shown: Callable[[Action], str]) -> str:
    """How a menu line reads: an action as shown, a group by its title and a mark that it opens."""
    return f"{entry.title} ›" if isinstance(entry, Group | Picker) else shown(entry)


def reading_in_any_order(text: str, actions: Sequence[Action], shown: Callable[[Action], str]) -> list[Action]:
    """The actions whose label has the words of ``text``, in any order (``play 6h 6s`` for
    ``play 6♠ 6♥``): a player typing the cards he chose need not know the order they are listed in."""
    wanted = sorted(normalise(text).split())
    return [a for a in actions if wanted in (sorted(normalise(str(a)).split()), sorted(normalise(shown(a)).split()))]


def _widest_heads(actions: Sequence[Action]) -> dict[Action, Action]:
    """Each action's head: the first widest action whose choices hold its own (itself if none does)."""
    chosen = {a: _choices(a) for a in actions}
    alike: dict[tuple[object, ...], list[Action]] = {}  # only these can hold each other's choices
    for a in actions:
        alike.setdefault(_fixed(chosen[a]), []).append(a)
    heads = {}
    for same in alike.values():
        widest = [a for a in same if not any(b is not a and _within(chosen[a], chosen[b]) for b in same)]
        for action in same:
            heads[action] = next((w for w in widest if _within(chosen[action], chosen[w])), action)
    return heads


def _fixed(choices: tuple[object, ...]) -> tuple[object, ...]:
    """The choices that must be equal for one action to hold another's: all but those of several things."""
    return tuple(None if isinstance(c, Counter) else c for c in choices)


def _choices(action: Action) -> tuple[object, ...]:
    """An action's choices, each choice of several things as a multiset of them."""
    return (action.defn, *(Counter(c) if isinstance(c, tuple) else c for c in action.key))


def _within(part: tuple[object, ...], whole: tuple[object, ...]) -> bool:
    """Whether the choices ``part`` pick some of the things ``whole`` picks, and all else alike."""
    if part[0] is not whole[0] or len(part) != len(whole):
        return False
    several = False
    for mine, theirs in zip(part[1:], whole[1:]):
        if isinstance(mine, Counter) and isinstance(theirs, Counter):
            if not mine <= theirs:
                return False
            several = True
        elif mine != theirs:
            return False
    return several


def _by_count(group: list[Action], shown: Callable[[Action], str]) -> list[Entry]:
    """A group's lines: its actions, or, when they are too many, one line per number of things chosen."""
    if len(group) <= LONG_MENU:
        return list(group)
    by_count: dict[int, list[Action]] = {}
    for action in group:
        count = sum(len(c) for c in action.key if isinstance(c, tuple))
        by_count.setdefault(count, []).append(action)
    return [
        same[0] if len(same) == 1 else Group(f"{count} of them ({len(same)} choices)", tuple(same))
        for count, same in by_count.items()
    ]
