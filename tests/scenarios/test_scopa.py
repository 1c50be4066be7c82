"""Scenario tests of Scopa (games/examples/scopa.game): the capture by sum, and the primiera.

Seat 1 deals the first deal, so seat 0 plays first. Positions are set by hand: the hands,
the table and, for the end of a deal, every card of the deck in the players' piles.
"""

from __future__ import annotations

import ruledsl
from ruledsl.tools.scenario import arrange, cards_in, get_var, set_var
from tests.scenarios.support import act, labels

RANKS = ["A", "2", "3", "4", "5", "6", "7", "J", "Q", "K"]  # Q: the knight
SUITS = ["♦", "♥", "♠", "♣"]  # coins, cups, swords, clubs


def cards(names: str) -> list[str]:
    return names.split()


def game() -> ruledsl.GameState:
    return ruledsl.load_game("scopa").new_initial_state(seed=0, log=True)


def test_a_card_takes_an_equal_card_or_else_a_sum_of_the_players_choice() -> None:
    state = game()
    arrange(state, "hand", cards("5♦ 6♥ K♣"), owner=0)
    arrange(state, "table", cards("2♠ 4♣ A♦ 3♥ 5♠"))
    offered = labels(state)
    # The 5 must take the 5 on the table: not a sum (2 + 3, 4 + ace), and it cannot be laid.
    assert [a for a in offered if a.startswith("play 5♦")] == ["play 5♦, take 5♠"]
    # The 6 matches nothing: it takes any set adding up to 6, the player's choice, and cannot be laid.
    sixes = sorted(a for a in offered if a.startswith("play 6♥"))
    assert sixes == sorted(
        [
            "play 6♥, take 2♠ 4♣",
            "play 6♥, take A♦ 5♠",
            "play 6♥, take A♦ 2♠ 3♥",
        ]
    )
    # The king (10) can take 2 + 4 + ace + 3, or 2 + 3 + 5, or 4 + ace + 5, ... : it cannot be laid either.
    assert "play K♣" not in offered
    assert "play 6♥" not in offered
    act(state, "play 6♥, take A♦ 5♠")
    assert sorted(cards_of(state, 0)) == sorted(cards("6♥ A♦ 5♠"))
    assert get_var(state, "last_taker") == 0


def cards_of(state: ruledsl.GameState, seat: int) -> list[str]:
    return cards_in(state, "pile", owner=seat)


def test_a_card_that_takes_nothing_is_laid_and_a_sweep_is_a_scopa() -> None:
    state = game()
    arrange(state, "hand", cards("K♣ 7♥ 3♦"), owner=0)
    arrange(state, "table", cards("J♦ 2♠"))
    assert "play K♣, take 2♠ J♦" in labels(state)
    assert "play 3♦" in labels(state) and "play 7♥" in labels(state)
    act(state, "play K♣, take 2♠ J♦")
    assert get_var(state, "scopas", owner=0) == 1
    assert state.take_log()[-1] == "P0 takes 2♠ J♦ with K♣: scopa!"


def test_the_primiera_goes_to_the_best_card_of_each_suit_and_needs_every_suit() -> None:
    # The deck is out: seat 0 plays his last card, which takes nothing, and the deal ends; the
    # table goes to seat 1, who took cards last. Seat 0 has the 7s of coins, cups and clubs but
    # no swords: no primiera. Seat 1 has a card of every suit: 6 of coins (18), 6 of cups (18),
    # 7 of swords (21), 6 of clubs (18), 75 in all.
    state = game()
    mine = cards("7♦ 7♥ 7♣ K♦ K♥ K♣ J♦ J♥ Q♦ Q♥ 2♦ 3♦ 4♦")  # 13 cards, 7 coins
    every = [r + s for r in RANKS for s in SUITS]
    arrange(state, "hand", cards("K♠"), owner=0)
    arrange(state, "hand", [], owner=1)
    arrange(state, "table", cards("J♠"))
    arrange(state, "pile", mine, owner=0)
    arrange(state, "pile", [c for c in every if c not in [*mine, *cards("K♠ J♠")]], owner=1)
    assert cards_in(state, "deck") == []
    set_var(state, "last_taker", 1)
    act(state, "play K♠")  # a king cannot take the jack: laid, then the deal ends
    log = state.take_log()
    assert "P1 takes the last cards: J♠ K♠" in log
    assert "P0: 13 cards, 7 coins, primiera 0, 0 scopas: 2 points" in log  # coins, the settebello
    assert "P1: 27 cards, 3 coins, primiera 75, 0 scopas: 2 points" in log  # cards, primiera
    assert [get_var(state, "points", owner=p) for p in (0, 1)] == [2, 2]
