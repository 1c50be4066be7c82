"""Scenario tests of Contract Bridge (games/examples/bridge.game): the auction and the dummy.

Seats 0 and 2 are partners against 1 and 3; seat 0 deals the first deal and calls first. The
auction is checked on set calls and, on random auctions, against a referee written here from
the Laws (outside the rule file): which calls are legal, when the auction ends, the contract
with its doubling, and the declarer (of the side that won, the first to name the strain).
"""

from __future__ import annotations

import random
import re

import pytest

import ruledsl
from ruledsl.tools.scenario import cards_in, get_var
from tests.scenarios.support import act, labels

STRAINS = ["♣", "♦", "♥", "♠", "NT"]


def dealt(seed: int = 0) -> ruledsl.GameState:
    return ruledsl.load_game("bridge").new_initial_state(seed=seed)


def side(p: int) -> set[int]:
    return {p, (p + 2) % 4}


class Referee:
    """The auction as the Laws put it."""

    def __init__(self, dealer: int) -> None:
        self.turn = dealer
        self.bid: tuple[int, int] | None = None  # (level, strain index)
        self.bidder: int | None = None
        self.doubled = 0
        self.passes = 0
        self.first_named: dict[tuple[frozenset[int], int], int] = {}
        self.over = False

    def legal(self) -> set[str]:
        calls = {"pass"}
        low = 0 if self.bid is None else self.bid[0] * 5 + self.bid[1]
        for level in range(1, 8):
            for s, name in enumerate(STRAINS):
                if level * 5 + s > low:
                    calls.add(f"bid {level}{name}")
        if self.bidder is not None and self.bidder not in side(self.turn) and self.doubled == 0:
            calls.add("double")
        if self.bidder is not None and self.bidder in side(self.turn) and self.doubled == 1:
            calls.add("redouble")
        return calls

    def call(self, call: str) -> None:
        p = self.turn
        if call == "pass":
            self.passes += 1
            self.over = self.passes == (3 if self.bidder is not None else 4)
        else:
            self.passes = 0
            if call == "double":
                self.doubled = 1
            elif call == "redouble":
                self.doubled = 2
            else:
                m = re.fullmatch(r"bid (\d)(.+)", call)
                assert m is not None
                self.bid = (int(m[1]), STRAINS.index(m[2]))
                self.bidder = p
                self.doubled = 0
                self.first_named.setdefault((frozenset(side(p)), self.bid[1]), p)
        self.turn = (p + 1) % 4

    def declarer(self) -> int:
        assert self.bid is not None and self.bidder is not None
        return self.first_named[(frozenset(side(self.bidder)), self.bid[1])]


def deal_score(level: int, strain: int, doubled: int, tricks: int, vulnerable: bool) -> int:
    """Law 77: the declaring side's score for the deal (negative: the defenders' score)."""
    made = tricks - 6
    if made < level:
        down = level - made
        if doubled == 0:
            return -down * (100 if vulnerable else 50)
        each = (
            [200 if i == 0 else 300 for i in range(down)]
            if vulnerable
            else [100 if i == 0 else 200 if i < 3 else 300 for i in range(down)]
        )
        return -sum(each) * doubled
    per = 20 if strain < 2 else 30
    contract = ((40 if strain == 4 else per) + per * (level - 1)) * [1, 2, 4][doubled]
    bonus = ((500 if vulnerable else 300) if contract >= 100 else 50) + [0, 50, 100][doubled]
    bonus += {6: 750 if vulnerable else 500, 7: 1500 if vulnerable else 1000}.get(level, 0)
    over = (made - level) * (per if doubled == 0 else (200 if vulnerable else 100) * doubled)
    return contract + bonus + over


def test_the_declarer_is_the_first_of_the_side_to_name_the_strain_and_the_contract_keeps_its_doubling() -> None:
    state = dealt()
    assert state.current_player() == 0  # the dealer calls first
    act(state, "bid 1♥")
    assert "double" in labels(state) and "redouble" not in labels(state)  # seat 1: an opponent's bid
    act(state, "pass")
    assert "double" not in labels(state)  # seat 2 may not double his partner's bid
    act(state, "bid 2♥")
    assert state.why_illegal("bid 1♠") == "it does not beat the standing bid, 'bid 2♥'"
    act(state, "double")
    assert "redouble" in labels(state)  # seat 0: his side's bid, doubled
    act(state, "redouble")
    for _ in range(3):
        act(state, "pass")
    assert state.prog.phases[state.phase].name == "play"
    assert (get_var(state, "declarer"), get_var(state, "dummy")) == (0, 2)  # seat 0 named hearts first
    assert (get_var(state, "level"), STRAINS[get_var(state, "trump")], get_var(state, "doubled")) == (2, "♥", 2)
    assert state.current_player() == 1  # the declarer's left leads


def test_four_passes_throw_the_deal_in() -> None:
    state = dealt()
    for _ in range(4):
        act(state, "pass")
    assert state.round == 2 and get_var(state, "deal_no") == 1


@pytest.mark.parametrize("seed", range(12))
def test_random_auctions_follow_the_laws(seed: int) -> None:
    rng = random.Random(seed)
    state = dealt(seed)
    referee = Referee(dealer=0)
    while not referee.over:
        assert state.current_player() == referee.turn
        assert set(labels(state)) == referee.legal()
        # fewer bids than at random, so that the auctions are long and doubled; in odd seeds only the
        # lowest bid, so that low contracts are played and some made
        calls = labels(state)
        if seed % 2:
            calls = [c for c in calls if not c.startswith("bid")] + [c for c in calls if c.startswith("bid")][:1]
        weights = [(20 if seed % 2 else 1) if c.startswith("bid") else 20 for c in calls]
        call = rng.choices(calls, weights)[0]
        referee.call(call)
        act(state, call)
    if referee.bid is None:
        assert state.round == 2
        return
    assert state.prog.phases[state.phase].name == "play"
    assert get_var(state, "declarer") == referee.declarer()
    assert get_var(state, "dummy") == (referee.declarer() + 2) % 4
    assert (get_var(state, "level"), get_var(state, "trump")) == referee.bid
    assert get_var(state, "doubled") == referee.doubled
    # the play, at random, and the deal's score (deal 1: nobody vulnerable)
    declarer = referee.declarer()
    ours = 0
    for _ in range(52):
        before = [get_var(state, "tricks", q) for q in range(4)]
        state.apply_action(rng.choice(state.legal_actions()))
        after = [get_var(state, "tricks", q) for q in range(4)] if get_var(state, "deal_no") == 1 else None
        if after is None:  # the deal is over: its last trick went to whoever now leads... counted below
            last = get_var(state, "to_play")
            ours = sum(before[q] for q in side(declarer)) + (last in side(declarer))
    expected = deal_score(*referee.bid, referee.doubled, ours, vulnerable=False)
    scores = get_var(state, "score")
    assert scores[declarer] == max(expected, 0) and scores[(declarer + 1) % 4] == max(-expected, 0)


def _contract(state: ruledsl.GameState) -> None:
    """Seat 0 declares 1NT: seat 1 leads, seat 2 is the dummy."""
    act(state, "bid 1NT")
    for _ in range(3):
        act(state, "pass")


def test_the_dummy_is_face_up_after_the_opening_lead_and_played_by_the_declarer() -> None:
    state = dealt()
    _contract(state)
    dummy_cards = cards_in(state, "hand", owner=2)
    for seat in (0, 1, 3):
        assert "cards" not in state.observation(seat)["zones"]["hand"][2]  # hidden before the lead
    lead = state.legal_actions()[0]
    state.apply_action(lead)
    assert cards_in(state, "board") == dummy_cards
    for seat in (None, 0, 1, 2, 3):
        assert len(state.observation(seat)["zones"]["board"]["cards"]) == 13  # seen by all
    assert state.current_player() == 0  # the dummy's turn: the declarer plays its cards
    shown = {str(a).removeprefix("play ") for a in state.legal_actions()}
    assert shown <= set(dummy_cards)
    state.apply_action(state.legal_actions()[0])
    assert state.current_player() == 3
    state.apply_action(state.legal_actions()[0])
    assert state.current_player() == 0  # his own hand now
    assert {str(a).removeprefix("play ") for a in state.legal_actions()} <= set(cards_in(state, "hand", owner=0))


def test_the_dummy_never_acts_in_the_play() -> None:
    rng = random.Random(1)
    state = dealt()
    _contract(state)
    for _ in range(52):
        assert state.current_player() != 2
        state.apply_action(rng.choice(state.legal_actions()))
    assert get_var(state, "deal_no") == 2  # the deal scored, the next begins
