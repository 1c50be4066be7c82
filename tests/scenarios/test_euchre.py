"""Scenario tests of Euchre (games/examples/euchre.game): the bowers.

Seats 0 and 2 are partners against 1 and 3; seat 3 deals, so seat 0 speaks and leads first.
The left bower (the jack of the trump's colour) is a trump: it follows trump, does not follow its
printed suit, and ranks second only to the right bower. The rules are checked by hand on set
deals, and on random games against a referee written here, outside the rule file.
"""

from __future__ import annotations

import random

import pytest

import ruledsl
from ruledsl.tools.scenario import arrange, cards_in, get_var
from tests.scenarios.support import act, labels

ORDER = ["9", "10", "Q", "K", "A"]  # J apart: in trump it is the right bower, else between 10 and Q
PLAIN = ["9", "10", "J", "Q", "K", "A"]
TWIN = {"♠": "♣", "♣": "♠", "♥": "♦", "♦": "♥"}
SUITS = "♠♥♦♣"


def rank_suit(card: str) -> tuple[str, str]:
    return card[:-1], card[-1]


def suit_of(card: str, trump: str) -> str:
    rank, suit = rank_suit(card)
    return trump if rank == "J" and suit == TWIN[trump] else suit


def power(card: str, trump: str, led: str) -> int:
    rank, suit = rank_suit(card)
    if rank == "J" and suit == trump:
        return 100
    if rank == "J" and suit == TWIN[trump]:
        return 99
    if suit == trump:
        return 50 + ORDER.index(rank)
    if suit == led:
        return 10 + PLAIN.index(rank)
    return 0


def dealt(hands: dict[int, list[str]], up: str) -> ruledsl.GameState:
    state = ruledsl.load_game("euchre").new_initial_state(seed=0)
    spare = [r + s for s in SUITS for r in PLAIN if r + s != up and all(r + s not in h for h in hands.values())]
    for seat in range(4):
        cards = hands[seat] if seat in hands else [spare.pop() for _ in range(5)]
        arrange(state, "hand", cards, owner=seat, rest="kitty")
    arrange(state, "up", [up], rest="kitty")
    return state


def hearts_trump(hands: dict[int, list[str]]) -> ruledsl.GameState:
    """Seat 0 orders up the 9♥ (hearts trump); the dealer, seat 3, discards his first card."""
    state = dealt(hands, "9♥")
    act(state, "order up ♥")
    assert state.current_player() == 3 and "9♥" in cards_in(state, "hand", owner=3)
    state.apply_action(state.legal_actions()[0])  # the dealer discards
    act(state, "play with partner")
    return state


def test_the_left_bower_led_is_trump_and_must_be_followed_with_trump() -> None:
    state = hearts_trump({0: ["J♦", "9♠", "10♠", "Q♠", "K♠"], 1: ["10♥", "A♦", "9♣", "10♣", "Q♣"]})
    act(state, "play J♦")
    assert labels(state) == ["play 10♥"]  # hearts led by the left bower: his diamond may not be played
    assert "must follow suit" in (state.why_illegal("play A♦") or "")


def test_the_left_bower_does_not_follow_its_printed_suit() -> None:
    hands = {
        0: ["A♦", "9♠", "10♠", "Q♠", "K♠"],
        1: ["J♦", "9♣", "10♣", "Q♣", "K♣"],  # no diamond but the left bower: free to play anything
        2: ["10♦", "A♣", "A♥", "10♥", "Q♥"],
    }
    state = hearts_trump(hands)
    act(state, "play A♦")
    assert sorted(labels(state)) == sorted(f"play {c}" for c in hands[1])
    act(state, "play J♦")  # trumps the diamond
    assert labels(state) == ["play 10♦"]  # seat 2 holds a real diamond: he must follow
    act(state, "play 10♦")
    state.apply_action(state.legal_actions()[0])  # the dealer
    assert get_var(state, "taker") == 1  # the left bower took the trick


def test_the_left_bower_beats_the_ace_of_trump_and_loses_to_the_right() -> None:
    assert power("J♦", "♥", "♥") > power("A♥", "♥", "♥")
    hands = {0: ["A♥", "9♠", "10♠", "Q♠", "K♠"], 1: ["J♦", "9♣", "10♣", "Q♣", "K♣"]}
    hands[2] = ["J♥", "A♣", "9♦", "10♦", "Q♦"]
    state = hearts_trump(hands)
    act(state, "play A♥")
    act(state, "play J♦")
    act(state, "play J♥")
    state.apply_action(state.legal_actions()[0])
    assert get_var(state, "taker") == 2  # the right bower


@pytest.mark.parametrize("seed", range(4))
def test_random_games_follow_the_referee(seed: int) -> None:
    """Each play offered and each trick's taker, on random games, agree with the referee above."""
    rng = random.Random(seed)
    state = ruledsl.load_game("euchre").new_initial_state(seed=seed)
    names = state.prog.phases
    suit_names = {"spades": "♠", "hearts": "♥", "diamonds": "♦", "clubs": "♣"}
    members = ["spades", "hearts", "diamonds", "clubs"]
    plays: list[tuple[int, str]] = []
    tricks = 0
    while not state.is_terminal() and tricks < 60:
        if names[state.phase].name == "play":
            trump = suit_names[members[get_var(state, "trump")]]
            p = state.current_player()
            held = cards_in(state, "hand", owner=p)
            if len(plays) == get_var(state, "seats_in"):
                plays = []
            led = suit_of(plays[0][1], trump) if plays else None
            follow = [c for c in held if suit_of(c, trump) == led]
            assert sorted(labels(state)) == sorted(f"play {c}" for c in (follow or held))
            action = rng.choice(state.legal_actions())
            plays.append((p, str(action).removeprefix("play ")))
            state.apply_action(action)
            if len(plays) == get_var(state, "seats_in"):
                lead = suit_of(plays[0][1], trump)
                winner = max(plays, key=lambda pc: power(pc[1], trump, lead))[0]
                assert get_var(state, "taker") == winner, plays
                tricks += 1
        else:
            state.apply_action(rng.choice(state.legal_actions()))
            plays = []
    assert tricks > 0
