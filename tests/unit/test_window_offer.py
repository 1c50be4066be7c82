"""A window offers an action declared in a phase (`offer bomb from play`): its choices, requires,
label and effects written once, played in turn in the phase and out of turn in the window."""

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
from ruledsl.tools.scenario import arrange
from tests.scenarios.support import act, labels

# A bomb (two cards of one rank) may be laid on one's turn or, out of turn, right after any lay.
BOMBS = """\
game "Bombs"
players 3
values suit: a, b, c, d
card rank: number
card suit: suit
zone deck: shared, hidden
zone hand: per player, owner
zone pile: shared, public
deck:
    card "{rank}{suit}" for rank in 1 to 3, suit in a to d
var bombs = 0

setup:
    go to play

phase play:
    action lay(c: card from hand):
        move c to pile
        open answer
    action bomb(cs: 2 cards of one rank from hand):
        require every c in cs satisfies c.rank != 2, "twos are no bomb"
        label "bomb {cs}"
        move cs to pile
        add 1 to bombs
        if hand is empty:
            end game, winner player

window answer for players after player:
    offer bomb from play
    pass:
        label "let it pass"

ranking: lowest size of hand
"""


def _dealt(tmp_path: Path) -> ruledsl.GameState:
    path = tmp_path / "bombs.game"
    path.write_text(BOMBS, encoding="utf-8")
    state = ruledsl.load_game(path, players=3).new_initial_state(seed=0)
    arrange(state, "hand", ["1a"], owner=0)
    arrange(state, "hand", ["2a", "2b", "3a"], owner=1)
    arrange(state, "hand", ["3b", "1b"], owner=2)
    return state


def test_the_offer_reads_back_as_written() -> None:
    game = parse(BOMBS, "b.game")
    window = next(d for d in game.decls if isinstance(d, n.WindowDecl))
    assert isinstance(window.items[0], n.OfferItem)
    assert (window.items[0].name, window.items[0].phase) == ("bomb", "play")
    assert "    offer bomb from play\n" in unparse(game)
    assert parse(unparse(game), "b.game") == game


def test_the_window_offers_the_phase_action_out_of_turn_with_its_require(tmp_path: Path) -> None:
    state = _dealt(tmp_path)
    act(state, "lay 1a")  # P0 lays: the window is for P1, then P2; neither has a bomb to offer
    assert state.windows is None and state.current_player() == 1  # P1's twos: refused by the shared require
    assert labels(state) == ["lay 2a", "lay 2b", "lay 3a"]


def test_a_bomb_out_of_turn_takes_the_turn_and_runs_the_shared_effects(tmp_path: Path) -> None:
    state = _dealt(tmp_path)
    arrange(state, "hand", ["3b", "3c"], owner=2)
    act(state, "lay 1a")
    assert state.windows is not None and state.current_player() == 2  # offered to P2 alone
    assert labels(state) == ["bomb 3b 3c", "let it pass"]
    act(state, "bomb 3b 3c")
    assert state.is_terminal() and state.returns()[2] == 1.0
    assert state.observation(None)["variables"]["bombs"] == 1


def test_in_turn_the_phase_offers_it_as_before(tmp_path: Path) -> None:
    state = _dealt(tmp_path)
    arrange(state, "hand", ["1a", "3b", "3c"], owner=0)
    assert labels(state) == ["lay 1a", "lay 3b", "lay 3c", "bomb 3b 3c"]


def _errors(text: str) -> list[str]:
    with pytest.raises(RuleDslError) as caught:
        check_source(Source("b.game", text))
    return [f"{d.code}: {d.message}" for d in caught.value.diagnostics]


@pytest.mark.parametrize(
    ("offer", "code", "words"),
    [
        ("offer bomb from plya", "E205", "unknown phase 'plya'"),
        ("offer bmb from play", "E206", "phase 'play' has no action 'bmb'"),
        ("offer pass from play", "E206", "phase 'play' has no action 'pass'"),
    ],
)
def test_an_offer_names_an_action_of_a_phase(offer: str, code: str, words: str) -> None:
    (error,) = _errors(BOMBS.replace("offer bomb from play", offer))
    assert error.startswith(code) and words in error, error


def test_an_offer_and_an_action_of_one_name_in_a_window_are_refused() -> None:
    text = BOMBS.replace("    offer bomb from play\n", "    offer bomb from play\n    action bomb:\n        again\n")
    (error,) = _errors(text)
    assert error.startswith("E202") and "bomb" in error


def test_a_bid_of_an_auction_cannot_be_offered() -> None:
    text = BOMBS.replace("phase play:", "auction play:").replace(
        "window answer", "    when won by w:\n        end game\n    when unsold:\n        end game\n\nwindow answer"
    )
    errors = _errors(text)
    assert any(e.startswith("E406") and "bid" in e and "offer" in e for e in errors), errors
