"""The one constant evaluator: what the checker works out alone, and what loading works out."""

from __future__ import annotations

import pytest

from ruledsl.analysis.checker import check
from ruledsl.analysis.constants import ConstantValues, LoadTimeError, constant_number
from ruledsl.analysis.loadtime import LoadTimeValues
from ruledsl.syntax import nodes as n
from ruledsl.syntax.parser import parse, parse_expr
from ruledsl.text.source import Source

GAME = """\
game "Constants"
players 2 to 4
option rounds = players + 1
values rank: 2, 3, K, A
zone deck: shared, hidden
var best = K
deck:
    card "A"
setup:
    shuffle deck
phase play:
    action stop_game:
        end game, winner player
require rounds * 2 > players, "too few rounds"
"""


@pytest.mark.parametrize(
    ("text", "players", "value"),
    [
        ("0+0", None, 0),
        ("-1", None, -1),
        ("7 / 2", None, 3),
        ("7 % 2", None, 1),
        ("max(1, 5, 3) - abs(-2)", None, 3),
        ("players - 1", 3, 2),
        ("players - 1", None, None),  # how many play is not known
        ("1 / 0", None, None),  # a division by zero is not a number
        ("5 % (2 - 2)", None, None),
        ("max(3)", None, None),  # the wrong number of arguments is an error of its own
        ("abs(1, 2)", None, None),
        ("yes", None, None),  # only numbers
        ('"text"', None, None),
        ("x + 1", None, None),  # no name is known to the checker alone
    ],
)
def test_the_checker_works_out_numbers_written_with_literals(text: str, players: int | None, value: int | None) -> None:
    assert constant_number(parse_expr(text), players) == value


def test_loading_raises_where_the_checker_says_none() -> None:
    with pytest.raises(LoadTimeError, match="division by zero"):
        ConstantValues(players=2).value(parse_expr("1 / 0"))
    with pytest.raises(TypeError):
        ConstantValues(players=2).value(parse_expr("max(3)"))  # as before: the checker refuses it first


def test_loading_knows_options_values_and_comparisons() -> None:
    source = Source("constants.game", GAME)
    checked = check(parse(GAME, "constants.game"), source)
    load = LoadTimeValues(checked, 3, {"rounds": 4})
    assert load.value(checked.options[0].default) == 4  # players + 1
    assert load.value(checked.var_decls[0].init) == 2  # a value of a list is its index
    cond = checked.requires[0].cond
    assert load.value(cond) is True  # 4 * 2 > 3
    assert isinstance(cond, n.Compare)
    assert constant_number(cond.left) is None  # an option is not known to the checker alone
