"""Scores as payoffs ('payoff: E'): a game whose returns are each player's number at the end."""

from __future__ import annotations

from pathlib import Path

import pytest

import ruledsl
from ruledsl.engine.program import Utility
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


def played(game: ruledsl.Game) -> ruledsl.GameState:
    state = game.new_initial_state(seed=0)
    state.apply_action(state.legal_actions()[0])
    assert state.is_terminal()
    return state


def test_the_returns_are_the_payoffs_whichever_way_the_game_ends(tmp_path: Path) -> None:
    # 'end game, winner player' ends it; the returns are still the chips won and lost.
    assert played(chips_game(tmp_path)).returns() == [3.0, -3.0]
    assert played(chips_game(tmp_path, "chips")).returns() == [13.0, 7.0]


def test_places_are_the_returns_of_a_game_without_payoff(tmp_path: Path) -> None:
    path = tmp_path / "places.game"
    path.write_text(CHIPS.replace("payoff: PAYOFF\n", ""), encoding="utf-8")
    game = ruledsl.load_game(path)
    assert played(game).returns() == [1.0, -1.0]
    assert game.program.utility == Utility(scores=False, low=-1.0, high=1.0, constant_sum=None)


def test_chips_moved_between_players_are_a_constant_sum(tmp_path: Path) -> None:
    assert chips_game(tmp_path).program.utility == Utility(scores=True, low=None, high=None, constant_sum=0.0)
    assert chips_game(tmp_path, "chips").program.utility.constant_sum == 20.0
    assert chips_game(tmp_path, "chips + 1").program.utility.constant_sum == 22.0


@pytest.mark.parametrize(
    "take",
    [
        "add 3 to chips",  # chips made from nothing
        "subtract 3 from (left of player).chips",  # chips lost to nobody
        "for each q in players:\n            add 3 to q.chips",
        "add 3 to chips\n        subtract 2 from (left of player).chips",  # not the same amount
        "add chips to chips\n        subtract chips from (left of player).chips",  # the amount changes between
        "set chips = 13\n        subtract 3 from (left of player).chips",
        "add 3 to chips\n        move top of deck to deck\n        subtract 3 from (left of player).chips",
    ],
)
def test_a_sum_that_cannot_be_proven_constant_is_unknown(tmp_path: Path, take: str) -> None:
    path = tmp_path / "chips.game"
    body = CHIPS.replace("PAYOFF", "chips - 10").replace(
        "add 3 to chips\n        subtract 3 from (left of player).chips", take
    )
    path.write_text(body, encoding="utf-8")
    assert ruledsl.load_game(path).program.utility == Utility(scores=True, low=None, high=None, constant_sum=None)


def test_a_payoff_of_constants_has_known_bounds(tmp_path: Path) -> None:
    utility = chips_game(tmp_path, "if chips > 10 then 2 else -1 - 1").program.utility
    assert utility == Utility(scores=True, low=-2.0, high=2.0, constant_sum=None)


def expected_under_random_play(state: ruledsl.GameState, leaves: list[list[float]]) -> float:
    """Seat 0's exact expected payoff from here when each player picks among his legal actions at random."""
    if state.is_terminal():
        leaves.append(state.returns())
        return state.returns()[0]
    actions = state.legal_actions()
    total = 0.0
    for a in actions:
        child = state.clone()
        child.apply_action(a)
        total += expected_under_random_play(child, leaves)
    return total / len(actions)


def test_kuhn_poker_pays_chips_and_is_proven_zero_sum() -> None:
    game = ruledsl.load_game("kuhn_poker")
    assert game.program.utility == Utility(scores=True, low=-2.0, high=2.0, constant_sum=0.0)
    values = set()
    for seed in range(12):
        leaves: list[list[float]] = []
        values.add(expected_under_random_play(game.new_initial_state(seed=seed), leaves))
        # Five lines of betting; each pays the antes (1) or a called bet (2), from one player to the other.
        assert len(leaves) == 5 and all(sum(r) == 0 and abs(r[0]) in (1, 2) for r in leaves)
    # Dealt the higher card, seat 0 wins 1/4 + 1/8 * (-1) + 1/8 * 2 + 1/4 + 1/4 * 2 on average; the lower, -7/8.
    assert values == {1.125, -0.875}


def test_a_score_shared_by_the_team_is_every_players_payoff(tmp_path: Path) -> None:
    # Hanabi's way: one score for the table, every player's payoff; nothing proves its sum constant.
    path = tmp_path / "team.game"
    text = CHIPS.replace("player var chips = 10\n", "player var chips = 10\nvar fireworks = 0\n")
    path.write_text(text.replace("PAYOFF", "fireworks").replace("add 3 to chips", "add 5 to fireworks"), "utf-8")
    game = ruledsl.load_game(path)
    assert played(game).returns() == [5.0, 5.0]
    assert game.program.utility.constant_sum is None


def test_a_payoff_that_is_none_at_the_end_is_r504_at_the_payoff(tmp_path: Path) -> None:
    path = tmp_path / "none.game"
    path.write_text(
        'game "None"\nplayers 2\ncard points: number\nzone deck: shared, hidden\nzone pile: shared, public\n'
        'deck:\n    card "A": points 1\npayoff: (top of pile).points\nsetup:\n    shuffle deck\n'
        "phase play:\n    action take:\n        end game\n",
        encoding="utf-8",
    )
    state = ruledsl.load_game(path).new_initial_state(seed=0)
    with pytest.raises(ruledsl.RuleRuntimeError) as info:
        state.apply_action(state.legal_actions()[0])
    (d,) = info.value.diagnostics
    assert (d.code, d.message, d.span.start.line if d.span else None) == (
        "R504",
        "the payoff '(top of pile).points' is none here",
        8,
    )


# ---------------------------------------------------------------- a declared range: 'payoff: E, from LOW to HIGH'


def test_a_payoff_may_declare_its_range() -> None:
    decls = parse(CHIPS.replace("PAYOFF", "chips - 10, from -3 to 3"), "t.game").decls
    (payoff,) = [d for d in decls if isinstance(d, n.PayoffDecl)]
    assert payoff == n.PayoffDecl(
        value=n.Arith(op="-", left=n.Name(id="chips"), right=n.Number(value=10)),
        low=n.Negate(operand=n.Number(value=3)),
        high=n.Number(value=3),
    )


def test_the_declared_range_bounds_the_returns(tmp_path: Path) -> None:
    utility = chips_game(tmp_path, "chips - 10, from -3 to 3").program.utility
    assert utility == Utility(scores=True, low=-3.0, high=3.0, constant_sum=0.0)
    assert played(chips_game(tmp_path, "chips - 10, from -3 to 3")).returns() == [3.0, -3.0]


def test_the_range_is_worked_out_from_the_options_when_the_game_is_loaded(tmp_path: Path) -> None:
    path = tmp_path / "chips.game"
    text = CHIPS.replace("player var chips = 10", "option stake: 1 to 50 = 10\nplayer var chips = stake")
    path.write_text(text.replace("PAYOFF", "chips - stake, from -stake to stake * (players - 1)"), "utf-8")
    assert ruledsl.load_game(path).program.utility == Utility(scores=True, low=-10.0, high=10.0, constant_sum=0.0)
    utility = ruledsl.load_game(path, options={"stake": 4}).program.utility
    assert (utility.low, utility.high) == (-4.0, 4.0)


def test_a_payoff_outside_its_declared_range_is_r504_at_the_payoff(tmp_path: Path) -> None:
    state = chips_game(tmp_path, "chips - 10, from -2 to 2").new_initial_state(seed=0)
    with pytest.raises(ruledsl.RuleRuntimeError) as info:
        state.apply_action(state.legal_actions()[0])
    (d,) = info.value.diagnostics
    assert (d.code, d.message, d.span.start.line if d.span else None) == (
        "R504",
        "the payoff 'chips - 10' is 3 for P0, outside its declared range -2 to 2",
        7,
    )


def test_a_range_the_checker_proves_the_payoff_leaves_is_e308(tmp_path: Path) -> None:
    with pytest.raises(CheckError) as info:
        chips_game(tmp_path, "if chips > 10 then 5 else -5, from -2 to 2")
    (d,) = info.value.diagnostics
    assert (d.code, d.message, d.span.start.line if d.span else None) == (
        "E308",
        "the payoff can be -5 to 5, outside its declared range -2 to 2",
        7,
    )


def test_a_range_within_what_the_checker_proves_narrows_nothing_it_knows(tmp_path: Path) -> None:
    # Proven -1 to 1 and declared -2 to 2: the tighter proven bounds are the ones told.
    utility = chips_game(tmp_path, "if chips > 10 then 1 else -1, from -2 to 2").program.utility
    assert (utility.low, utility.high) == (-1.0, 1.0)


def test_a_range_written_the_wrong_way_round_is_e305(tmp_path: Path) -> None:
    with pytest.raises(CheckError) as info:
        chips_game(tmp_path, "chips - 10, from 3 to -3")
    assert [(d.code, d.message) for d in info.value.diagnostics] == [
        ("E305", "the range 3 to -3 is empty: 3 is more than -3")
    ]


def test_the_range_is_known_when_the_game_is_loaded(tmp_path: Path) -> None:
    with pytest.raises(CheckError) as info:
        chips_game(tmp_path, "chips - 10, from -chips to chips")
    assert {d.code for d in info.value.diagnostics} == {"E211"}


def test_a_range_of_options_wrong_way_round_is_refused_when_loaded(tmp_path: Path) -> None:
    path = tmp_path / "chips.game"
    text = CHIPS.replace("player var chips = 10", "option stake: 1 to 50 = 10\nplayer var chips = 10")
    path.write_text(text.replace("PAYOFF", "chips - 10, from stake - 20 to 20 - stake"), "utf-8")
    assert ruledsl.load_game(path, options={"stake": 10}).program.utility.low == -10.0
    with pytest.raises(ruledsl.OptionError) as info:
        ruledsl.load_game(path, options={"stake": 30})
    assert [(d.code, d.message) for d in info.value.diagnostics] == [
        ("E305", "the range 10 to -10 is empty: 10 is more than -10")
    ]
