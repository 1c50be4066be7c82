"""One way cards move: one classification of the statements that move them (for W403, E405,
W406), one emitter of the code that moves them, one primitive of the engine that does it."""

from __future__ import annotations

import inspect
import re
from pathlib import Path
from typing import Any

import pytest

import ruledsl
from ruledsl.analysis import moves
from ruledsl.codegen.statements import Statements
from ruledsl.engine import ops
from ruledsl.syntax import nodes as n

CLASSES = {
    "PUT_INTO": moves.PUT_INTO,
    "REORDER": moves.REORDER,
    "CALL": moves.CALL,
    "BLOCKS": moves.BLOCKS,
    "STAY": moves.STAY,
}


def statement_classes() -> list[type[n.Stmt]]:
    """Every kind of statement of the language: each class of syntax.nodes under Stmt (read
    from the module, not from ``__subclasses__``, which may still hold a class attrs replaced)."""
    found = [v for v in vars(n).values() if isinstance(v, type) and issubclass(v, n.Stmt) and v is not n.Stmt]
    assert n.Move in found and n.Say in found
    return sorted(found, key=lambda c: c.__name__)


@pytest.mark.parametrize("cls", statement_classes(), ids=lambda c: c.__name__)
def test_every_kind_of_statement_is_classified_once(cls: type[n.Stmt]) -> None:
    # A new statement must say whether it moves cards: W403, E405 and W406 read analysis/moves.py.
    assert [name for name, group in CLASSES.items() if cls in group] != [], (
        f"{cls.__name__} is in no class of analysis/moves.py: does it move cards?"
    )
    assert len([name for name, group in CLASSES.items() if cls in group]) == 1


@pytest.mark.parametrize("cls", statement_classes(), ids=lambda c: c.__name__)
def test_a_statement_compiled_to_move_cards_is_classified_as_putting_them_into_zones(cls: type[n.Stmt]) -> None:
    source = inspect.getsource(getattr(Statements, f"_st_{cls.__name__}"))
    assert ("emit_move(" in source) == (cls in moves.PUT_INTO)


def test_cards_are_moved_by_one_emitter_and_one_primitive() -> None:
    # The compiled rules call ops.move (or move_zone) from Statements.emit_move alone; no other
    # code generator writes a card into a zone itself.
    emitter = inspect.getsource(Statements.emit_move)
    codegen = Path(ruledsl.__file__).parent / "codegen"
    for path in sorted(codegen.glob("*.py")):
        text = path.read_text(encoding="utf-8")
        if path.name == "statements.py":
            text = text.replace(emitter, "")
        writes = r"op_move|Z\[[^]]*\]\.(append|insert|remove)\(|st\.(loc|face)\[[^]]*\] =(?!=)"  # not '=='
        assert not re.search(writes, text), path.name


def test_a_zone_fill_is_named_for_each_statement_putting_cards_into_zones() -> None:
    move = n.Move(what=n.Name(id="c"), to=n.Name(id="pile"))
    assert moves.zones_filled(move, lambda e: {"pile", "deck"}, {}) == ["deck", "pile"]
    deal = n.Deal(count=n.Number(value=2), source=n.Name(id="deck"), target="hand")
    assert moves.zones_filled(deal, lambda e: set(), {}) == []  # no zone found for it: none filled
    assert moves.zones_filled(n.Shuffle(zone=n.Name(id="deck")), lambda e: {"deck"}, {}) == []
    assert [moves.moves_cards(s) for s in (move, deal, n.Reverse(), n.Reveal(what=n.Name(id="c")))] == [
        True,
        True,
        False,
        False,
    ]


# ---------------------------------------------------------------- the primitive


class Plain:
    """As little of a state as ``ops.move`` reads: zones, loc, no knowledge, no faces."""

    def __init__(self, zones: list[list[int]]) -> None:
        self.zones = zones
        self.loc = [0] * sum(map(len, zones))
        for z, cards in enumerate(zones):
            for c in cards:
                self.loc[c] = z
        self.known = None
        self.face: Any = None
        self.rng = 7
        self.work = 0  # what the rules have spent of the action's budget (ops.spend)


def test_move_changes_the_zone_lists_in_place_and_returns_what_entered() -> None:
    st = Plain([[0, 1, 2], [3], []])
    lists = [id(z) for z in st.zones]
    assert ops.move(st, st.zones[0], 2) == [0, 1, 2]  # a whole zone, kept in order
    assert ops.move(st, [3], 2, ops.BOTTOM) == [3]
    assert [id(z) for z in st.zones] == lists
    assert st.zones == [[], [], [3, 0, 1, 2]]
    assert st.loc == [2, 2, 2, 2]
    assert ops.move(st, [], 0) == []
    assert ops.move_zone(st, 2, 2) == []  # a zone onto itself: nothing enters it
    assert ops.move_zone(st, 2, 1) == [3, 0, 1, 2]
    assert st.zones == [[], [3, 0, 1, 2], []]
