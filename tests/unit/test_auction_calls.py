"""An auction whose passes are not final (`auction NAME until N passes:`): it ends after N passes in a
row following a bid, or once every player has passed with no bid; an action without a strength is a
call (double, redouble) that leaves the standing bid as it is but starts the run of passes again."""

from __future__ import annotations

from pathlib import Path

import pytest

import ruledsl
from ruledsl.format.unparse import unparse
from ruledsl.loading import check_source
from ruledsl.syntax import nodes as n
from ruledsl.syntax.parser import parse
from ruledsl.text.errors import RuleDslError
from ruledsl.text.source import Source
from ruledsl.tools.scenario import get_var
from tests.scenarios.support import act, labels

CALLS = """\
game "Calls"
players 4
zone deck: shared, hidden
deck:
    card "A"
var bidder: player = none
var doubled = 0
var winner: player = none

setup:
    go to calls

auction calls until 3 passes:
    action bid(n: number 1 to 3):
        strength n
        label "bid {n}"
        set bidder = player
        set doubled = 0
    action double when bidder != none and bidder != player and doubled == 0:
        set doubled = 1
    pass:
        label "pass"
    when won by w:
        set winner = w
        end game, winner w
    when unsold:
        end game, draw
"""


def _state(tmp_path: Path) -> ruledsl.GameState:
    path = tmp_path / "calls.game"
    path.write_text(CALLS, encoding="utf-8")
    return ruledsl.load_game(path, players=4).new_initial_state(seed=0)


def test_it_reads_back_as_written() -> None:
    game = parse(CALLS, "c.game")
    auction = next(d for d in game.decls if isinstance(d, n.PhaseDecl))
    assert auction.is_auction and auction.passes == 3
    assert "auction calls until 3 passes:\n" in unparse(game)
    assert parse(unparse(game), "c.game") == game


def test_a_pass_is_not_final(tmp_path: Path) -> None:
    state = _state(tmp_path)
    act(state, "pass")
    act(state, "bid 1")
    act(state, "pass")
    act(state, "pass")
    assert state.current_player() == 0 and labels(state) == ["bid 2", "bid 3", "double", "pass"]
    act(state, "bid 2")  # seat 0 passed before, and bids now
    assert not state.is_terminal() and state.current_player() == 1


def test_three_passes_after_a_bid_end_it_won_by_the_last_bidder(tmp_path: Path) -> None:
    state = _state(tmp_path)
    act(state, "bid 1")
    act(state, "bid 2")
    for _ in range(3):
        assert not state.is_terminal()
        act(state, "pass")
    assert state.is_terminal() and get_var(state, "winner") == 1


def test_a_call_leaves_the_standing_bid_and_starts_the_passes_again(tmp_path: Path) -> None:
    state = _state(tmp_path)
    act(state, "bid 1")
    act(state, "pass")
    act(state, "pass")
    act(state, "double")  # seat 3: the standing bid is still seat 0's 1
    assert labels(state) == ["bid 2", "bid 3", "pass"]
    act(state, "pass")
    act(state, "pass")
    assert not state.is_terminal()
    act(state, "pass")
    assert state.is_terminal() and get_var(state, "winner") == 0 and get_var(state, "doubled") == 1


def test_every_player_passing_with_no_bid_leaves_it_unsold(tmp_path: Path) -> None:
    state = _state(tmp_path)
    for _ in range(3):
        act(state, "pass")
    assert not state.is_terminal()
    act(state, "pass")
    assert state.is_terminal() and get_var(state, "winner") is None


def _errors(text: str) -> list[str]:
    with pytest.raises(RuleDslError) as caught:
        check_source(Source("c.game", text))
    return [f"{d.code}: {d.message}" for d in caught.value.diagnostics]


def test_no_passes_is_refused() -> None:
    (error,) = _errors(CALLS.replace("until 3 passes", "until 0 passes"))
    assert error.startswith("E302") and "pass" in error


def test_an_action_without_strength_is_a_bid_to_write_in_an_auction_whose_passes_are_final() -> None:
    (error,) = _errors(CALLS.replace("auction calls until 3 passes:", "auction calls:"))
    assert error.startswith("E403") and "'double' has no 'strength'" in error
