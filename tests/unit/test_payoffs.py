"""Scores as payoffs ('payoff: E'): a game whose returns are each player's number at the end."""

from __future__ import annotations

from pathlib import Path

import pytest

import ruledsl
from ruledsl.syntax import nodes as n
from ruledsl.syntax.parser import parse
from ruledsl.text.errors import CheckError

# Each player starts with 10 chips; 'take' moves 3 of the other's chips to the mover and ends the game.
CHIPS = """\
game "Chips"
players 2
zone deck: shared, hidden
deck:
    card "A"
player var chips = 10
payoff: PAYOFF
setup:
    shuffle deck
phase play:
    action take:
        add 3 to chips
        subtract 3 from (left of player).chips
        end game, winner player
"""


def chips_game(tmp_path: Path, payoff: str = "chips - 10") -> ruledsl.Game:
    path = tmp_path / "chips.game"
    path.write_text(CHIPS.replace("PAYOFF", payoff), encoding="utf-8")
    return ruledsl.load_game(path)


def test_payoff_is_a_declaration_of_an_expression() -> None:
    decls = parse(CHIPS.replace("PAYOFF", "chips - 10"), "t.game").decls
    (payoff,) = [d for d in decls if isinstance(d, n.PayoffDecl)]
    assert payoff == n.PayoffDecl(value=n.Arith(op="-", left=n.Name(id="chips"), right=n.Number(value=10)))


def test_a_payoff_is_a_number(tmp_path: Path) -> None:
    with pytest.raises(CheckError) as info:
        chips_game(tmp_path, '"rich"')
    (d,) = info.value.diagnostics
    assert (d.code, d.message, d.span.start.line if d.span else None) == (
        "E301",
        "a payoff must be a number, not text",
        7,
    )


def test_a_second_payoff_is_e202(tmp_path: Path) -> None:
    with pytest.raises(CheckError) as info:
        chips_game(tmp_path, "chips\npayoff: chips - 10")
    assert [d.code for d in info.value.diagnostics] == ["E202"]
