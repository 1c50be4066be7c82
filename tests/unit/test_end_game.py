"""How a game ends with several winners (`end game, winners …`): returns, result, statistics."""

from __future__ import annotations

from pathlib import Path

import pytest

import ruledsl
from ruledsl.tools.records import result_lines
from ruledsl.tools.simulate import GameRecord, summarize

# Seats 0 and 2 play against 1 and 3; whoever finishes wins with his partner.
TEAMS = """\
game "Teams"
players 2 to 6
zone deck: shared, hidden
deck:
    card "A"
define partner(p: player) = left of left of p
define side(p: player) = cards q in players where q == p or q == partner(p)
setup:
    shuffle deck
phase play:
    action finish:
        end game, winners WINNERS
"""


def finished(tmp_path: Path, winners: str, players: int = 4) -> ruledsl.GameState:
    """The game over: seat 0 ended it at once with ``end game, winners`` and the given players."""
    path = tmp_path / "teams.game"
    path.write_text(TEAMS.replace("WINNERS", winners), encoding="utf-8")
    state = ruledsl.load_game(path, players=players).new_initial_state(seed=0)
    state.apply_action(state.legal_actions()[0])
    return state


def test_partners_share_the_win_each_as_a_lone_winner_has_it(tmp_path: Path) -> None:
    state = finished(tmp_path, "side(player)")
    assert state.is_terminal()
    assert state.returns() == [1.0, -1.0, 1.0, -1.0]
    assert result_lines(state) == ["Result: P0, P2 share the win", "Returns: P0 +1, P1 -1, P2 +1, P3 -1"]


def test_one_winner_among_winners_is_end_game_winner(tmp_path: Path) -> None:
    # At two players, a partner (two seats to the left) is the player himself.
    state = finished(tmp_path, "side(player)", players=2)
    assert state.returns() == [1.0, -1.0]
    assert result_lines(state)[0] == "Result: P0 wins"


def test_every_player_may_win_and_it_is_not_a_draw(tmp_path: Path) -> None:
    state = finished(tmp_path, "players", players=3)
    assert state.returns() == [1.0, 1.0, 1.0]
    assert result_lines(state)[0] == "Result: every player wins"


def test_an_empty_set_of_winners_is_r504(tmp_path: Path) -> None:
    with pytest.raises(ruledsl.RuleRuntimeError) as info:
        finished(tmp_path, "cards p in players where p == partner(p) and p != player")
    d = info.value.diagnostics[0]
    assert (d.code, d.line, d.column) == ("R504", 12, 9)
    assert d.message == "'end game, winners cards p in players where p == partner(p) and p != player': " + (
        "there is no player among them"
    )
    assert d.hint is not None and "end game, draw" in d.hint


def test_a_winner_who_is_none_is_r504_not_the_ranking(tmp_path: Path) -> None:
    path = tmp_path / "none.game"
    path.write_text(TEAMS.replace("winners WINNERS", "winner the p in players with highest 0 where p != p"), "utf-8")
    state = ruledsl.load_game(path, players=2).new_initial_state(seed=0)
    with pytest.raises(ruledsl.RuleRuntimeError) as info:
        state.apply_action(state.legal_actions()[0])
    d = info.value.diagnostics[0]
    assert (d.code, d.line, d.message) == (
        "R504",
        12,
        "'end game, winner the p in players with highest 0 where p != p': there is no such player",
    )


def _record(returns: list[float]) -> GameRecord:
    return GameRecord(0, ["random"] * len(returns), returns, False, [0], ["play.finish"])


def test_statistics_count_a_side_win_for_each_partner_and_everyone_winning_as_no_draw() -> None:
    records = [_record([1.0, -1.0, 1.0, -1.0]), _record([-1.0, 1.0, -1.0, 1.0]), _record([1.0] * 4)]
    stats = summarize(records, 4)
    assert [s["wins"] for s in stats["seats"]] == [2, 2, 2, 2]
    assert (stats["draws"], stats["shared_wins"]) == (0, 3)
    assert _record([0.0] * 4).winners == []


ALL_OUT = """\
game "All out"
players 2
zone deck: shared, hidden
deck:
    card "A"
setup:
    shuffle deck
phase play:
    action leave:
        finish player
    action stay when deck is empty:
        end game
ranking: finishing order
"""


def test_once_every_player_is_out_nobody_is_asked_to_act(tmp_path: Path) -> None:
    # Found by the random rule files (issue 37): once both players had gone out ('finish
    # player'), the last of them went on acting to the bound on actions. With nobody left to
    # act, the game ends as 'end game' ends it: by its ranking, here the finishing order.
    path = tmp_path / "all_out.game"
    path.write_text(ALL_OUT, encoding="utf-8")
    state = ruledsl.load_game(path, players=2).new_initial_state(seed=0)
    state.apply_action(state.legal_actions()[0])
    state.apply_action(state.legal_actions()[0])
    assert state.out == [True, True]
    assert state.is_terminal() and state.returns() == [1.0, -1.0]  # P0 went out first
