"""What each kind of statement does to cards, that parts other than its own checker and emitter must know.

The zones cards enter by it (they set off the rules on cards entering them: the trigger
cycles, E405, in structure.py), and whether it lays cards face up or down (a game where one
may keeps each card's face, codegen/compiler.py; else a card laid face down in a public zone
would show). One entry per statement: tests/unit/test_dispatch.py names a statement without one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from attrs import frozen

from ruledsl.analysis.symbols import ZoneSym
from ruledsl.syntax import nodes as n

if TYPE_CHECKING:
    from ruledsl.analysis.structure import StructureChecker


@frozen
class Effects:
    """What one kind of statement does to cards."""

    #: The zones (by family name) cards enter by the statement.
    entered: Callable[[StructureChecker, Any], list[str]]
    #: Whether the statement lays cards face up or down.
    lays_faces: Callable[[Any], bool]


def _moved_into(checker: StructureChecker, s: n.Move) -> list[str]:
    return sorted(checker.zone_families(s.to))


def _dealt_into(checker: StructureChecker, s: n.Deal) -> list[str]:
    dealt_to = checker.refs.get(id(s))
    return [dealt_to.name] if isinstance(dealt_to, ZoneSym) else []


def _no_zone(checker: StructureChecker, s: n.Stmt) -> list[str]:
    """No card enters a zone by the statement itself (a block's statements, a procedure's, are reached one by one)."""
    return []


def _facing(s: n.Move | n.Deal) -> bool:
    return s.facing is not None


def _never(s: n.Stmt) -> bool:
    return False


_NOTHING = Effects(_no_zone, _never)

#: What each kind of statement does to cards.
STATEMENT_EFFECTS: dict[type, Effects] = {
    n.Move: Effects(_moved_into, _facing),
    n.Deal: Effects(_dealt_into, _facing),
    n.TurnFace: Effects(_no_zone, lambda s: True),
    **dict.fromkeys(
        (
            n.Shuffle,
            n.Cut,
            n.Reveal,
            n.Let,
            n.SetStmt,
            n.Add,
            n.Subtract,
            n.Stop,
            n.Again,
            n.EndTurn,
            n.EndRound,
            n.EndGame,
            n.GoTo,
            n.Open,
            n.Reverse,
            n.Finish,
            n.Say,
            n.CallStmt,
            n.If,
            n.ForEach,
            n.While,
            n.Repeat,
        ),
        _NOTHING,
    ),
}
