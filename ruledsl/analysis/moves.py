"""Which statements move cards: the one classification the checks of moves read.

W403 (a rule on cards entering a zone nobody moves cards to) and E405 (rules on entering
zones that set each other off) ask which zones a statement puts cards into
(``zones_filled``); W406 (what a text tells of a hidden card) asks whether a statement may
change where cards lie, so that a card shown at a zone's end may lie elsewhere after it
(``moves_cards``); a game keeps each card's face only if some statement lays cards face up
or down (``lays_faces``, codegen/compiler.py: else a card laid face down in a public zone
would show). Every kind of statement is in exactly one of the tuples below:
``tests/unit/test_moves.py`` fails for a kind of statement left out, and for one whose
compiled code moves cards (``codegen.statements.Statements.emit_move``) but is not
classified as putting cards into zones.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from ruledsl.analysis.symbols import ZoneSym
from ruledsl.syntax import nodes as n

#: Statements that put cards into zones: the rules on cards entering a zone run after them.
PUT_INTO: tuple[type[n.Stmt], ...] = (n.Move, n.Deal)
#: Statements that change the order of a zone's cards, taking none out of it.
REORDER: tuple[type[n.Stmt], ...] = (n.Shuffle, n.Cut)
#: A statement that runs a procedure, whose statements may move cards.
CALL: tuple[type[n.Stmt], ...] = (n.CallStmt,)
#: Statements holding blocks of others: each of those is classified in its turn.
BLOCKS: tuple[type[n.Stmt], ...] = (n.If, n.ForEach, n.While, n.Repeat)
#: Statements that leave every card where it lies ('turn' and 'reveal' change who sees a
#: card, not where it is).
STAY: tuple[type[n.Stmt], ...] = (
    n.Reveal,
    n.Show,
    n.TurnFace,
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
)

_MAY_MOVE = PUT_INTO + REORDER + CALL
#: Every kind of statement, each in one of the tuples above (tests/unit/test_dispatch.py).
CLASSIFIED = PUT_INTO + REORDER + CALL + BLOCKS + STAY


def moves_cards(s: n.Node) -> bool:
    """Whether statement ``s`` itself (not counting the blocks it holds) may change where cards
    lie: put cards into zones, change their order in one, or run a procedure that may."""
    return isinstance(s, _MAY_MOVE)


def zones_filled(s: n.Stmt, families: Callable[[n.Expr], set[str]], refs: Mapping[int, object]) -> list[str]:
    """The names of the zones (families) statement ``s`` puts cards into, sorted; none for a
    statement that puts none into any (nor for one holding a block: look into the block).

    ``families`` names the zones an expression may denote, ``refs`` what the checker found
    each node refers to (a deal's zone is known once its statement is checked)."""
    if isinstance(s, n.Move):
        return sorted(families(s.to))
    if isinstance(s, n.Deal):
        zone = refs.get(id(s))
        return [zone.name] if isinstance(zone, ZoneSym) else []
    assert not isinstance(s, PUT_INTO), f"{type(s).__name__} puts cards into zones: say which in zones_filled"
    return []


def lays_faces(s: n.Stmt) -> bool:
    """Whether statement ``s`` lays cards face up or down: 'turn', or a move or deal saying how; or
    shows them to a player where they lie ('show', kept with how they lie: ``fields.Face``)."""
    if isinstance(s, (n.TurnFace, n.Show)):
        return True
    if isinstance(s, (n.Move, n.Deal)):
        return s.facing is not None
    assert not isinstance(s, PUT_INTO), f"{type(s).__name__} puts cards into zones: say in lays_faces how it lays them"
    return False
