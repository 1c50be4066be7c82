"""What each player is told of the last action, and of the result."""

from __future__ import annotations

from pathlib import Path

import ruledsl
from ruledsl.runtime.ops import place_values

# Every play ends the round, and the next round gathers and deals the cards again: the
# card just played is back in the deck (or in a hand) by the time the move is described.
TWO_ROUNDS = """\
game "Two rounds"

players 2 to 2

card points: number

deck:
    card "the Ace": points 1
    card "the Two": points 2
    card "the Three": points 3
    card "the Four": points 4

zone deck: shared, hidden
zone pile: shared, public
zone hand: per player, owner

setup:
    move all of pile to deck
    for each p in players:
        move all of p.hand to deck
    shuffle deck
    deal 2 from deck to each hand

phase play:
    action play(c: card from hand):
        label "play {c}"
        move c to pile
        end round

round end:
    if round == 2:
        end game, draw
"""


def test_a_card_played_face_up_stays_named_after_the_next_round_deals_it_again(tmp_path: Path) -> None:
    path = tmp_path / "two_rounds.game"
    path.write_text(TWO_ROUNDS, encoding="utf-8")
    state = ruledsl.load_game(path, players=2).new_initial_state(seed=1)
    action = state.legal_actions()[0]
    state.apply_action(action)
    assert state.round == 2
    played = str(action)
    for viewer in (None, 0, 1):
        assert state.describe_last(viewer) == played
    # A copy describes it the same way.
    assert state.clone().describe_last(None) == played


def test_a_hidden_card_stays_hidden_in_the_text(tmp_path: Path) -> None:
    """The same game with a hidden pile: nobody but the player learns the card."""
    path = tmp_path / "hidden.game"
    path.write_text(TWO_ROUNDS.replace("zone pile: shared, public", "zone pile: shared, hidden"), encoding="utf-8")
    state = ruledsl.load_game(path, players=2).new_initial_state(seed=1)
    action = state.legal_actions()[0]
    state.apply_action(action)
    assert state.describe_last(0) == str(action)
    assert state.describe_last(1) == state.describe_last(None) == "play a hidden card"


def test_tied_players_in_the_middle_return_exactly_zero() -> None:
    assert place_values([[0], [1, 3], [2]], 4) == [1.0, 0.0, -1.0, 0.0]
    assert place_values([[2], [0, 1]], 3) == [-0.5, -0.5, 1.0]
    assert place_values([[0, 1, 2, 3, 4]], 5) == [0.0] * 5
    assert place_values([[0]], 1) == [0.0]
