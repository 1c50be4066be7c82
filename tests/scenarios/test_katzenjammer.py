"""Scenario tests of Katzenjammer Blues (games/katzenjammer_blues.game).

The scenarios KB-T.. and rulings KB-A.. are those of the rules specification,
section 1 (Katzenjammer Blues). Players are A, B, C (seats 0, 1, 2, clockwise); A is
the first player (the leader) unless stated. Zones are written bottom to top, so the
last card of the draw pile is its top; a "draw pile" in a docstring is in draw order.

The first reveal runs inside new_initial_state, before a test can arrange anything.
A reveal is therefore always run through play: every player passes, the lot is
unsold and the same leader turns up new cards (rule 9); or an auction is won and the
winner turns up the next lot.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

import ruledsl
from ruledsl import TERMINAL, IllegalActionError
from ruledsl.tools.scenario import arrange, cards_in, get_var, give_turn, set_var
from tests.scenarios.support import act, deck, hand, labels

# ---------------------------------------------------------------------------- helpers

A, B, C = 0, 1, 2
J = "Joker"


def load(players: int = 3, **options: object) -> ruledsl.Game:
    return ruledsl.load_game("katzenjammer_blues", players=players, options=options)


def _zone_id(state: ruledsl.GameState, zone: str, owner: int | None = None) -> int:
    for layout in state.prog.zones:
        if layout.name == zone:
            return layout.base + (owner if layout.per_player else 0)
    raise ValueError(f"no zone {zone!r}")


def _zone(state: ruledsl.GameState, zone: str, owner: int | None = None) -> list[int]:
    return state.zones[_zone_id(state, zone, owner)]


def _from_deck(state: ruledsl.GameState, names: Sequence[str]) -> list[int]:
    """Take the named cards out of the draw pile (a card of each name, in order)."""
    deck_cards = _zone(state, "deck")
    taken = []
    for name in names:
        c = next((c for c in deck_cards if state.prog.card_names[c] == name and c not in taken), None)
        if c is None:
            raise ValueError(f"no (more) '{name}' in the draw pile")
        taken.append(c)
    for c in taken:
        deck_cards.remove(c)
    return taken


def put(state: ruledsl.GameState, zone: str, names: Sequence[str], owner: int | None = None) -> None:
    """Move the named cards from the draw pile onto the top of a zone, in order.

    The scenario API cannot do this here: arrange() and stack_top() take any copy of a
    card name, even one that an earlier call put in another zone, and every card of
    Katzenjammer has 15 copies. Taking the copies from the draw pile keeps every zone
    placed before intact (and every card conserved).
    """
    z = _zone_id(state, zone, owner)
    for c in _from_deck(state, names):
        state.zones[z].append(c)
        state.loc[c] = z
    state._legal = None  # as ruledsl.tools.scenario does after every change


def set_deck_top(state: ruledsl.GameState, names: Sequence[str]) -> None:
    """Put the named cards on top of the draw pile, the first named on the very top."""
    cards = _from_deck(state, names)
    _zone(state, "deck").extend(reversed(cards))
    state._legal = None


def set_deck(state: ruledsl.GameState, names: Sequence[str]) -> None:
    """Make the draw pile hold exactly the named cards (first = top); the others go to the discard pile."""
    cards = _from_deck(state, names)
    put(state, "discard", [state.prog.card_names[c] for c in _zone(state, "deck")])
    assert _zone(state, "deck") == []
    _zone(state, "deck").extend(reversed(cards))
    state._legal = None


def lay_out(
    state: ruledsl.GameState,
    hands: dict[int, list[str]],
    *,
    lot: Sequence[str] = (),
    jokers: dict[int, list[str]] | None = None,
    deck_top: Sequence[str] = (),
    deck: Sequence[str] | None = None,
) -> None:
    """Lay out the cards: every hand, jokers area, the lot and the discard pile are
    emptied into the draw pile, then filled as given (hands not named stay empty)."""
    arrange(state, "lot", [])
    arrange(state, "discard", [])
    for p in range(state.num_players):
        arrange(state, "hand", [], owner=p)
        arrange(state, "jokers", [], owner=p)
    for p, names in hands.items():
        put(state, "hand", names, owner=p)
    for p, names in (jokers or {}).items():
        put(state, "jokers", names, owner=p)
    put(state, "lot", lot)
    if deck_top:
        set_deck_top(state, deck_top)
    if deck is not None:
        set_deck(state, deck)


def position(
    hands: dict[int, list[str]],
    *,
    lot: Sequence[str] = (),
    jokers: dict[int, list[str]] | None = None,
    deck_top: Sequence[str] = (),
    deck: Sequence[str] | None = None,
    leader: int = A,
    turn: int | None = None,
    mice: dict[int, int] | None = None,
    supply: int | None = None,
    players: int = 3,
    log: bool = False,
    **options: object,
) -> ruledsl.GameState:
    """A position at the start of an auction: the lot on the table, no bid yet.

    The auction starts with ``turn`` (default: the leader's left neighbour, rule 6).
    """
    state = load(players, **options).new_initial_state(seed=0, log=log)
    lay_out(state, hands, lot=lot, jokers=jokers, deck_top=deck_top, deck=deck)
    set_var(state, "leader", leader)
    for p, m in (mice or {}).items():
        set_var(state, "mice", m, owner=p)
    if supply is not None:
        set_var(state, "supply", supply)
    give_turn(state, (leader + 1) % players if turn is None else turn, "bidding")
    if log:
        state.take_log()
    return state


def hands(state: ruledsl.GameState) -> list[list[str]]:
    return [hand(state, p) for p in range(state.num_players)]


def jokers(state: ruledsl.GameState, p: int) -> list[str]:
    return cards_in(state, "jokers", owner=p)


def lot(state: ruledsl.GameState) -> list[str]:
    return cards_in(state, "lot")


def discard(state: ruledsl.GameState) -> list[str]:
    return cards_in(state, "discard")


def bids(state: ruledsl.GameState) -> list[str]:
    return [lab for lab in labels(state) if lab.startswith("bid ")]


def play(state: ruledsl.GameState, *moves: tuple[int, str]) -> None:
    """Apply (player, label) moves, checking that each is made by the player to act."""
    for p, label in moves:
        assert state.current_player() == p, (label, state.current_player(), p)
        act(state, label)


def auction(state: ruledsl.GameState, viewer: int = A) -> dict | None:
    return state.observation(viewer)["auction"]


def mice(state: ruledsl.GameState) -> list[int]:
    return get_var(state, "mice")


def reveal(state: ruledsl.GameState) -> None:
    """Run a reveal through play: from the auction's first player, everybody passes (no bid),
    the lot is discarded and the same leader turns up new cards (rule 9, KB-T14)."""
    assert state.phase_name() == "bidding"
    assert auction(state)["standing"] is None and not any(auction(state)["passed"])
    first = (get_var(state, "leader") + 1) % state.num_players
    for i in range(state.num_players):
        assert state.current_player() == (first + i) % state.num_players
        act(state, "pass")


def end_by_empty_deck(state: ruledsl.GameState) -> None:
    """End the game the seed's way: the draw pile holds one card, the next reveal draws it."""
    set_deck(state, ["1"])
    give_turn(state, (get_var(state, "leader") + 1) % state.num_players, "bidding")
    reveal(state)


def snapshot(state: ruledsl.GameState) -> tuple:
    zones = [lot(state), deck(state), discard(state)]
    for p in range(state.num_players):
        zones += [hand(state, p), jokers(state, p)]
    return (
        state.current_player(),
        state.phase_name(),
        zones,
        auction(state),
        get_var(state, "mice"),
        get_var(state, "supply"),
        get_var(state, "leader"),
        len(state.history()),
    )


def action_elsewhere(state: ruledsl.GameState, label: str, *, hand_cards: list[str] | None = None) -> ruledsl.Action:
    """The action labelled ``label`` taken from a copy of ``state`` where it is legal:
    the same player to act, at the start of the phase (a fresh auction), maybe another hand."""
    other = state.clone()
    p = other.current_player()
    if hand_cards is not None:
        arrange(other, "hand", [], owner=p)
        put(other, "hand", hand_cards, owner=p)
    give_turn(other, p, other.phase_name())
    return other.action_from_string(label)


def assert_rejected(state: ruledsl.GameState, label: str, action: ruledsl.Action) -> None:
    """``label`` is not legal: not offered, not found by its text, refused by apply_action, state unchanged."""
    before = snapshot(state)
    assert label not in labels(state)
    with pytest.raises(IllegalActionError):
        state.action_from_string(label)
    assert str(action) == label
    with pytest.raises(IllegalActionError):
        state.apply_action(action)
    assert snapshot(state) == before


def finished(
    mice_: dict[int, int],
    front: dict[int, int],
    in_hand: dict[int, int] | None = None,
    **options: object,
) -> ruledsl.GameState:
    """A game played to its end: each player's mice, jokers in front of him and jokers in
    his hand (with a 1 beside them), then the draw pile runs out at the next reveal."""
    in_hand = in_hand or {}
    state = position(
        {p: [J] * in_hand.get(p, 0) + ["1"] for p in (A, B, C)},
        jokers={p: [J] * k for p, k in front.items()},
        mice=mice_,
        supply=24 - sum(mice_.values()),
        **options,
    )
    end_by_empty_deck(state)
    assert state.is_terminal()
    return state


# ---------------------------------------------------------------------------- KB-T scenarios


def test_kb_t01_reveal_stops_on_a_repeat():
    """KB-T01 Reveal stops on a repeat.
    Pre: the draw pile begins 2, 4, 2, 5. Act: reveal.
    Exp: lot = [2, 4, 2]; the 5 stays on the pile; nobody draws."""
    state = position({A: ["1", "3"], B: ["5"], C: ["4", J]}, lot=["3", "5", "3"], deck_top=["2", "4", "2", "5", "1"])
    before = hands(state)
    size = len(deck(state))
    reveal(state)
    assert lot(state) == ["2", "4", "2"]
    assert deck(state)[-2:] == ["1", "5"]  # the 5 is still on top
    assert len(deck(state)) == size - 3
    assert hands(state) == before
    assert discard(state) == ["3", "5", "3"]  # the unsold lot
    assert get_var(state, "leader") == A
    assert state.phase_name() == "bidding" and state.current_player() == B
    assert auction(state) == {"standing": None, "bidder": None, "passed": [False, False, False]}


def test_kb_t02_reveal_stops_on_a_joker_and_everybody_draws():
    """KB-T02 Reveal stops on a joker, and everybody draws.
    Pre: 3 players, first player A; draw pile 3, 1, J, x, y, z. Act: reveal.
    Exp: lot = [3, 1, J]; then B gets x, C gets y, A gets z."""
    x, y, z = "5", "4", "2"
    state = position({A: ["1"], B: ["3"], C: ["3"]}, lot=["2", "2"], deck_top=["3", "1", J, x, y, z, "1"])
    size = len(deck(state))
    reveal(state)
    assert lot(state) == ["3", "1", J]
    assert hand(state, B) == ["3", x]
    assert hand(state, C) == ["3", y]
    assert hand(state, A) == ["1", z]
    assert len(deck(state)) == size - 6
    assert deck(state)[-1] == "1"
    assert state.current_player() == B and state.phase_name() == "bidding"


def test_kb_t03_joker_as_the_first_card():
    """KB-T03 Joker as the first card.
    Pre: draw pile J, 4, 5, 1. Act: reveal. Exp: lot = [J]; B gets 4, C gets 5, A gets 1."""
    state = position({A: ["2"], B: ["2"], C: ["2"]}, lot=["3", "3"], deck_top=[J, "4", "5", "1", "3"])
    reveal(state)
    assert lot(state) == [J]
    assert hands(state) == [["2", "1"], ["2", "4"], ["2", "5"]]
    assert deck(state)[-1] == "3"
    assert state.current_player() == B
    assert not state.is_terminal()


def test_kb_t05_two_1s_beat_one_5():
    """KB-T05 "Two 1s" beats "one 5".
    Pre: the standing bid is "one 5"; B holds {1, 1, 4}. Act: B bids "two 1s".
    Exp: legal; it is the new high bid."""
    # C leads, so the auction runs A, B, C.
    state = position({A: ["5", "2"], B: ["1", "1", "4"], C: ["3"]}, lot=["2", "3", "2"], leader=C)
    play(state, (A, "bid one 5"))
    assert auction(state)["standing"] == "bid one 5"
    assert state.current_player() == B
    assert labels(state) == ["bid two 1s", "bid 2 different", "pass"]
    one_4 = action_elsewhere(state, "bid one 4")
    assert_rejected(state, "bid one 4", one_4)
    play(state, (B, "bid two 1s"))
    for viewer in (A, B, C):
        assert auction(state, viewer) == {"standing": "bid two 1s", "bidder": B, "passed": [False, False, False]}
    assert get_var(state, "bid_count") == 2 and get_var(state, "bid_value") == 1
    assert state.current_player() == C
    assert labels(state) == ["pass"]  # C's one 3 is not enough


def test_kb_t06_same_count_needs_a_higher_value():
    """KB-T06 Same count needs a higher value.
    Pre: the standing bid is "three 2s". Act: C bids "three 1s".
    Exp: rejected. "Three 3s" (if held) is legal."""
    state = position({A: ["5"], B: ["2", "2", "2"], C: ["1", "1", "1", "3", "3", "3"]}, lot=["4", "4"])
    play(state, (B, "bid three 2s"))
    assert state.current_player() == C
    three_1s = action_elsewhere(state, "bid three 1s")
    assert_rejected(state, "bid three 1s", three_1s)
    assert labels(state) == ["bid three 3s", "pass"]
    play(state, (C, "bid three 3s"))
    assert auction(state)["standing"] == "bid three 3s" and auction(state)["bidder"] == C
    assert state.current_player() == A


def test_kb_t07_mixed_against_valued_bids():
    """KB-T07 Mixed against valued bids.
    Pre: the standing bid is "3 different". Act: B bids "4 different"; then C bids "4 different";
    then C bids "four 1s". Exp: B legal; C's "4 different" rejected (not more cards); C's "four 1s" legal."""
    state = position(
        {A: ["1", "2", "3"], B: ["1", "2", "3", "4"], C: ["1", "1", "1", "1", "2", "3", "4"]},
        lot=["5", "5"],
        leader=C,
    )
    play(state, (A, "bid 3 different"))
    assert "bid 4 different" in labels(state)
    play(state, (B, "bid 4 different"))
    assert auction(state)["standing"] == "bid 4 different"
    four_different = action_elsewhere(state, "bid 4 different")
    assert_rejected(state, "bid 4 different", four_different)
    assert labels(state) == ["bid four 1s", "pass"]
    play(state, (C, "bid four 1s"))
    assert auction(state)["standing"] == "bid four 1s" and auction(state)["bidder"] == C


def test_kb_t08_larger_mixed_bid_beats_smaller_valued_bid():
    """KB-T08 A larger mixed bid beats a smaller valued bid.
    Pre: the standing bid is "two 5s"; B holds {1, 3, 4}. Act: B bids "3 different". Exp: legal."""
    state = position({A: ["5", "5"], B: ["1", "3", "4"], C: []}, lot=["2", "2"], leader=C)
    play(state, (A, "bid two 5s"))
    assert labels(state) == ["bid 3 different", "pass"]
    play(state, (B, "bid 3 different"))
    assert auction(state)["standing"] == "bid 3 different" and auction(state)["bidder"] == B
    assert get_var(state, "bid_count") == 3 and get_var(state, "bid_value") == 0


def test_kb_t10_bid_must_be_covered_by_the_hand():
    """KB-T10 A bid must be covered by the hand.
    Pre: C holds {4, 4, J, 2}. Act: "three 4s"; "four 4s"; "three 2s".
    Exp: legal; rejected; rejected (only 2 + J can make 2s)."""
    state = position({A: [], B: [], C: ["4", "4", J, "2"]}, lot=["1", "1"], turn=C)
    assert labels(state) == [
        "bid one 1",
        "bid one 2",
        "bid two 2s",
        "bid one 3",
        "bid one 4",
        "bid two 4s",
        "bid three 4s",
        "bid one 5",
        "bid 2 different",
        "bid 3 different",
        "pass",
    ]
    for label in ("bid four 4s", "bid three 2s"):
        action = action_elsewhere(state, label, hand_cards=["4", "4", "4", "4", "2", "2", "2"])
        assert_rejected(state, label, action)
    play(state, (C, "bid three 4s"))
    assert auction(state)["standing"] == "bid three 4s"


def test_kb_t11_passing_is_final():
    """KB-T11 Passing is final.
    Pre: B passed earlier in this auction. Act: on a later lap B tries to bid.
    Exp: rejected; B is skipped until the next round."""
    state = position(
        {A: ["4", "4", "1"], B: ["5", "5"], C: ["3", "3", "2"]}, lot=["2", "1", "2"], deck_top=["1", "3", "1"]
    )
    play(state, (B, "pass"), (C, "bid one 3"), (A, "bid one 4"))
    # The lap comes round: B is skipped.
    assert state.current_player() == C
    assert auction(state)["passed"] == [False, True, False]
    two_5s = action_elsewhere(state, "bid two 5s", hand_cards=["5", "5"])
    assert_rejected(state, "bid two 5s", two_5s)
    play(state, (C, "bid two 3s"), (A, "bid two 4s"), (C, "pass"))
    assert hand(state, B) == ["5", "5"]
    # A won; B never acted again in this auction.
    assert state.phase_name() == "paying" and state.current_player() == A
    assert [str(a) for a in state.history()] == [
        "pass", "bid one 3", "bid one 4", "bid two 3s", "bid two 4s", "pass"
    ]  # fmt: skip
    play(state, (A, "pay 4 4"), (A, "stop laying squares"))
    # The next auction: B may bid again (A leads, B acts first).
    assert lot(state) == ["1", "3", "1"]
    assert state.current_player() == B
    assert "bid two 5s" in labels(state)
    play(state, (B, "bid two 5s"))
    assert auction(state)["bidder"] == B


def test_kb_t12_payment_with_a_joker():
    """KB-T12 Payment with a joker.
    Pre: A wins with "three 4s"; his hand is {4, 4, J, 2, 5}; the lot is [3, 1, 3]. Act: resolve the auction.
    Exp: 4, 4 go to the discard pile; J goes face up in front of A (A's exposed jokers = 1);
    A's hand = {2, 5, 3, 1, 3}; A is the first player next round."""
    state = position({A: ["4", "4", J, "2", "5"], B: ["1"], C: []}, lot=["3", "1", "3"], deck_top=["5", "2", "5"])
    play(state, (B, "bid one 1"), (C, "pass"), (A, "bid three 4s"), (B, "pass"))
    assert state.phase_name() == "paying" and state.current_player() == A
    assert labels(state) == ["pay 4 4 Joker"]
    play(state, (A, "pay 4 4 Joker"), (A, "stop laying squares"))
    assert discard(state) == ["4", "4"]
    assert jokers(state, A) == [J]
    assert sorted(hand(state, A)) == sorted(["2", "5", "3", "1", "3"])
    assert hand(state, B) == ["1"]
    assert get_var(state, "leader") == A
    # A turns up the next lot; his left neighbour opens the auction.
    assert lot(state) == ["5", "2", "5"]
    assert state.phase_name() == "bidding" and state.current_player() == B
    assert auction(state) == {"standing": None, "bidder": None, "passed": [False, False, False]}


def test_kb_t13_losers_keep_their_cards():
    """KB-T13 Losers keep their cards.
    Pre: B bid "two 3s", then was outbid and passed. Act: the auction ends. Exp: B's hand is unchanged."""
    state = position(
        {A: ["2", J], B: ["3", "3", "5"], C: ["1", "1", "1", "4"]}, lot=["5", "2", "5"], deck_top=["1", "4", "1"]
    )
    before = hands(state)
    play(state, (B, "bid two 3s"), (C, "bid three 1s"), (A, "pass"), (B, "pass"))
    assert state.phase_name() == "paying" and state.current_player() == C
    assert hand(state, B) == before[B]
    assert hand(state, A) == before[A]
    play(state, (C, "pay 1 1 1"))
    assert hand(state, B) == before[B] and hand(state, A) == before[A]
    assert jokers(state, A) == jokers(state, B) == []
    assert discard(state) == ["1", "1", "1"]
    assert sorted(hand(state, C)) == ["2", "4", "5", "5"]


def test_kb_t14_nobody_bids():
    """KB-T14 Nobody bids.
    Pre: A, B, C all pass with no bid. Act: the auction ends.
    Exp: the lot goes to the discard pile; A is still first player and reveals again; no squares may be laid."""
    state = position(
        {A: ["2", "2", "2", "2"], B: ["5", "5", "5", "5"], C: ["3", J]},
        lot=["1", "4", "1"],
        deck_top=["3", "5", "3"],
        log=True,
    )
    before = hands(state)
    reveal(state)
    assert state.take_log() == ["nobody bids: the lot is discarded", "P0 turns up 3 5 3"]
    assert discard(state) == ["1", "4", "1"]
    assert get_var(state, "leader") == A
    assert lot(state) == ["3", "5", "3"]
    assert hands(state) == before
    assert mice(state) == [0, 0, 0] and get_var(state, "supply") == 24
    assert state.phase_name() == "bidding" and state.current_player() == B
    assert not any(lab.startswith(("lay", "declare")) for lab in labels(state))
    assert "bid four 5s" in labels(state)  # B may bid his four 5s, never lay them


def test_kb_t16_only_the_auction_winner_lays_squares():
    """KB-T16 Only the auction winner lays squares.
    Pre: B holds {5, 5, 5, 5}; A won this auction. Act: B tries to lay a square. Exp: rejected."""
    state = position({A: ["1", J, "2"], B: ["5", "5", "5", "5"], C: []}, lot=["1", "1"], deck_top=["3", "4", "3"])
    play(state, (B, "pass"), (C, "pass"), (A, "bid one 2"))
    play(state, (A, "pay 2"))
    # A may lay his square of 1s (with the cards he won); B, who did not win, may not.
    assert state.phase_name() == "squares" and state.current_player() == A
    assert labels(state) == ["lay a square of 1s (1 1 1 Joker)", "stop laying squares"]
    b_square = action_elsewhere(state, "lay a square of 5s (5 5 5 5)", hand_cards=["5", "5", "5", "5"])
    assert_rejected(state, "lay a square of 5s (5 5 5 5)", b_square)
    play(state, (A, "lay a square of 1s (1 1 1 Joker)"))
    assert mice(state) == [1, 0, 0]
    play(state, (A, "stop laying squares"))
    # The next auction: B acts first, and may only bid or pass.
    assert state.phase_name() == "bidding" and state.current_player() == B
    assert all(lab.startswith("bid ") or lab == "pass" for lab in labels(state))
    assert hand(state, B) == ["5", "5", "5", "5"]
    assert mice(state) == [1, 0, 0]


def _joker_square_position() -> ruledsl.GameState:
    """A has just won "one 2" and paid the 2; he holds {J, J, J, J} and the lot [3, 4, 3]."""
    state = position({A: [J, J, J, J, "2"], B: [], C: []}, lot=["3", "4", "3"], deck_top=["1", "5", "1"])
    play(state, (B, "pass"), (C, "pass"), (A, "bid one 2"))
    assert labels(state) == ["pay 2", "pay Joker"]
    play(state, (A, "pay 2"))
    assert state.phase_name() == "squares" and state.current_player() == A
    return state


def test_kb_t17_two_choices_for_a_joker_square():
    """KB-T17 Two choices for a joker square.
    Pre: A just won and holds {J, J, J, J}. Act (a): declare them as 5s. Exp (a): +5 mice; 4 exposed jokers.
    Act (b): declare a joker square. Exp (b): +0 mice; jokers go to the discard pile; exposed count unchanged."""
    state = _joker_square_position()
    for v in range(1, 6):
        assert f"lay a square of {v}s (Joker Joker Joker Joker)" in labels(state)
    assert "declare a joker square" in labels(state)

    a = state.clone()
    play(a, (A, "lay a square of 5s (Joker Joker Joker Joker)"))
    assert mice(a) == [5, 0, 0]
    assert get_var(a, "supply") == 19
    assert jokers(a, A) == [J, J, J, J]
    assert discard(a) == ["2"]
    assert sorted(hand(a, A)) == ["3", "3", "4"]

    b = state.clone()
    play(b, (A, "declare a joker square"))
    assert mice(b) == [0, 0, 0]
    assert get_var(b, "supply") == 24
    assert jokers(b, A) == []
    assert discard(b) == ["2", J, J, J, J]
    assert sorted(hand(b, A)) == ["3", "3", "4"]
    assert labels(b) == ["stop laying squares"]


def test_kb_t18_mice_run_out():
    """KB-T18 Mice run out.
    Pre: supply = 3. Act: A lays a square of 5s. Exp: A +3; supply 0; the game ends after A's square step."""
    state = position({A: ["5", "5", "5", "5", "1"], B: [], C: []}, lot=["2", "4", "2"], supply=3)
    play(state, (B, "pass"), (C, "pass"), (A, "bid one 1"), (A, "pay 1"))
    assert labels(state) == ["lay a square of 5s (5 5 5 5)", "stop laying squares"]
    play(state, (A, "lay a square of 5s (5 5 5 5)"))
    assert mice(state) == [3, 0, 0]
    assert get_var(state, "supply") == 0
    # The square step is over when he stops: the game ends then, with no further reveal.
    assert not state.is_terminal()
    assert labels(state) == ["stop laying squares"]
    lot_before = lot(state)
    play(state, (A, "stop laying squares"))
    assert state.is_terminal()
    assert state.current_player() == TERMINAL
    assert state.legal_actions() == []
    assert lot(state) == lot_before == []
    assert get_var(state, "score") == [3, 0, 0]
    assert state.ranking() == [[A], [B, C]]
    assert state.returns() == [1.0, -0.5, -0.5]


def test_kb_t20_joker_penalty_tie_at_the_top():
    """KB-T20 Joker penalty, tie at the top.
    Pre: end of game. A: 9 mice, 2 jokers in front + 1 in hand; B: 7 mice, 3 in front; C: 6 mice, 0.
    Act: score. Exp: A = 3 jokers, B = 3, C = 0. A and B each lose 5, giving A 4, B 2, C 6. C wins."""
    state = finished({A: 9, B: 7, C: 6}, front={A: 2, B: 3}, in_hand={A: 1})
    assert [len(jokers(state, p)) for p in (A, B, C)] == [3, 3, 0]
    assert hand(state, A) == ["1"]  # the hand joker was laid in front
    assert mice(state) == [4, 2, 6]
    assert get_var(state, "score") == [4, 2, 6]
    assert get_var(state, "total_jokers") == [3, 3, 0]
    assert state.ranking() == [[C], [A], [B]]
    assert state.returns() == [0.0, -1.0, 1.0]


def test_kb_t22_shared_victory():
    """KB-T22 Shared victory.
    Pre: A: 6 mice, 1 joker; B: 6 mice, 1 joker; C: 2 mice, 2 jokers. Act: score.
    Exp: C -> -3; A and B share the win."""
    state = finished({A: 6, B: 6, C: 2}, front={A: 1, B: 1, C: 2})
    assert get_var(state, "score") == [6, 6, -3]
    assert state.ranking() == [[A, B], [C]]
    assert state.returns() == [0.5, 0.5, -1.0]


def test_kb_t23_no_penalty_when_nobody_has_jokers():
    """KB-T23 No penalty when nobody has jokers.
    Pre: all players have 0 jokers. Act: score. Exp: nobody loses mice."""
    state = finished({A: 4, B: 2, C: 1}, front={})
    assert get_var(state, "score") == [4, 2, 1]
    assert get_var(state, "supply") == 24 - 7
    assert state.ranking() == [[A], [B], [C]]
    assert state.returns() == [1.0, 0.0, -1.0]


@pytest.mark.parametrize(
    "players, fewer_mice, supply",
    [(3, False, 24), (3, True, 20), (5, False, 24), (5, True, 24)],
)
def test_kb_t24_size_of_the_mice_supply(players, fewer_mice, supply):
    """KB-T24 Size of the mice supply.
    Pre: 3 players at setup. Exp: supply = 24 by default; 20 with option fewer_mice;
    with 5 players, 24 even with fewer_mice."""
    options = {"fewer_mice": True} if fewer_mice else {}
    for seed in (0, 1):
        state = load(players, **options).new_initial_state(seed=seed)
        assert get_var(state, "supply") == supply
        assert mice(state) == [0] * players


def test_kb_t25_last_player_left_with_no_standing_bid():
    """KB-T25 Last player left with no standing bid.
    Pre: 3 players, first player A; B passes, C passes, no bid on the table.
    Act: A bids "one 1". Exp: A wins the lot at once.
    Alternative Act: A passes. Exp: lot discarded; A reveals again."""
    state = position({A: ["1", "3"], B: ["2"], C: ["4"]}, lot=["5", "2", "5"], deck_top=["4", "1", "4"])
    play(state, (B, "pass"), (C, "pass"))
    assert state.current_player() == A
    assert auction(state) == {"standing": None, "bidder": None, "passed": [False, True, True]}
    assert "bid one 1" in labels(state) and "pass" in labels(state)

    won = state.clone()
    play(won, (A, "bid one 1"))
    assert won.phase_name() == "paying" and won.current_player() == A
    assert labels(won) == ["pay 1"]
    play(won, (A, "pay 1"), (A, "stop laying squares"))
    assert sorted(hand(won, A)) == ["2", "3", "5", "5"]
    assert discard(won) == ["1"]
    assert get_var(won, "leader") == A
    assert lot(won) == ["4", "1", "4"]

    unsold = state.clone()
    play(unsold, (A, "pass"))
    assert discard(unsold) == ["5", "2", "5"]
    assert hands(unsold) == [["1", "3"], ["2"], ["4"]]
    assert get_var(unsold, "leader") == A
    assert lot(unsold) == ["4", "1", "4"]
    assert unsold.phase_name() == "bidding" and unsold.current_player() == B


# ---------------------------------------------------------------------------- rulings not covered above


def test_kb_a1_two_to_six_players():
    """KB-A1: 2 to 6 players; 6 cards dealt to each at setup."""
    for players in (2, 6):
        state = load(players).new_initial_state(seed=2)
        dealt = [len(h) for h in hands(state)]
        drew = 1 if J in lot(state) else 0  # a joker in the first lot gives each player a card
        assert dealt == [6 + drew] * players
        assert len(deck(state)) + len(lot(state)) + sum(dealt) == 90
    for players in (1, 7):
        with pytest.raises(ruledsl.OptionError):
            load(players)


@pytest.mark.parametrize("players, supply", [(2, 20), (4, 20), (6, 24)])
def test_kb_a2_fewer_mice_option(players, supply):
    """KB-A2: 24 mice for every player count by default; option fewer_mice (off by default)
    removes 4 with 4 players or fewer."""
    assert get_var(load(players).new_initial_state(seed=0), "supply") == 24
    assert get_var(load(players, fewer_mice=True).new_initial_state(seed=0), "supply") == supply
    info = {o.name: o for o in ruledsl.options_of(ruledsl.check_file("katzenjammer_blues"))}
    assert info["fewer_mice"].kind == "flag" and info["fewer_mice"].default is False


def test_kb_a3_the_first_player_bids_last_and_may_win_his_own_lot():
    """KB-A3: the first player bids too: he is the last bidder of the first lap and may win his own lot."""
    state = position({A: ["2", "2"], B: ["1"], C: ["3"]}, lot=["4", "5", "4"], deck_top=["1", "2", "1"])
    assert state.current_player() == B
    play(state, (B, "bid one 1"), (C, "pass"))
    assert state.current_player() == A
    assert "bid two 2s" in labels(state)
    play(state, (A, "bid two 2s"), (B, "pass"))
    assert state.phase_name() == "paying" and state.current_player() == A
    play(state, (A, "pay 2 2"), (A, "stop laying squares"))
    assert sorted(hand(state, A)) == ["4", "4", "5"]
    assert get_var(state, "leader") == A
    assert state.current_player() == B


def test_kb_a4_left_neighbour_acts_first_and_may_pass():
    """KB-A4: the leader's left neighbour acts first, and may pass although he could bid."""
    state = load(3).new_initial_state(seed=0)
    assert get_var(state, "leader") == A
    assert state.phase_name() == "bidding" and state.current_player() == B
    state = position({A: ["1"], B: ["5", "5"], C: ["2"]}, lot=["3", "4", "3"])
    assert bids(state) and labels(state)[-1] == "pass"
    play(state, (B, "pass"))
    assert state.current_player() == C
    assert auction(state)["passed"] == [False, True, False]


def test_kb_a5_auction_ends_when_the_bidder_is_left():
    """KB-A5 (a): a bid stands and every other player has passed: the bidder wins at once,
    without acting again. (b, the last player left with no bid, is KB-T25.)"""
    state = position({A: ["4"], B: ["2"], C: ["3", "3"]}, lot=["1", "5", "1"])
    play(state, (B, "pass"), (C, "bid two 3s"), (A, "pass"))
    assert state.phase_name() == "paying" and state.current_player() == C
    assert labels(state) == ["pay 3 3"]
    assert auction(state) is None


FULL_ORDER = (
    [f"bid one {v}" for v in range(1, 6)]
    + ["bid 2 different"] + [f"bid two {v}s" for v in range(1, 6)]
    + ["bid 3 different"] + [f"bid three {v}s" for v in range(1, 6)]
    + ["bid 4 different"] + [f"bid four {v}s" for v in range(1, 6)]
    + ["bid 5 different"] + [f"bid five {v}s" for v in range(1, 6)]
    + [f"bid six {v}s" for v in range(1, 6)]
)  # fmt: skip


def test_kb_a6_full_order_of_bids():
    """KB-A6: a new bid must have a strictly greater key (count, kind, value), mixed = (n, 0, 0):
    one 1 < ... < one 5 < 2 different < two 1s < ... < two 5s < 3 different < ... A 1-card bid is
    always valued; a mixed bid holds at most 5 cards, however many jokers there are."""
    rich = ["1", "2", "3", "4", "5", J, J, J, J, J]  # six of each value, ten different (jokers filling in)
    state = position({A: rich, B: list(rich), C: []}, lot=["2", "2"], leader=C)
    assert state.current_player() == A
    assert sorted(bids(state)) == sorted(FULL_ORDER)
    assert len(bids(state)) == 34
    assert "bid 6 different" not in labels(state) and "bid 1 different" not in labels(state)
    for i, standing in enumerate(FULL_ORDER):
        s = state.clone()
        play(s, (A, standing))
        assert s.current_player() == B
        assert sorted(bids(s)) == sorted(FULL_ORDER[i + 1 :]), standing
        assert labels(s)[-1] == "pass"


def test_kb_a6_equal_bid_is_not_enough():
    """KB-A6: the same bid again (same key) does not beat the standing one."""
    state = position({A: [], B: ["3", "3"], C: ["3", "3", "1", "2"]}, lot=["4", "4"])
    play(state, (B, "bid two 3s"))
    action = action_elsewhere(state, "bid two 3s")
    assert_rejected(state, "bid two 3s", action)
    assert labels(state) == ["bid 3 different", "pass"]


def test_kb_a7_raising_with_the_same_cards():
    """KB-A7: bids are announcements covered by the hand at that moment; earlier bids lock nothing:
    B raises his "one 5" to "two 5s" with the same 5 (and a joker); only the winner pays."""
    state = position({A: [], B: ["5", J, "2"], C: ["1", "1"]}, lot=["3", "4", "3"], deck_top=["2", "1", "2"])
    play(state, (B, "bid one 5"), (C, "bid two 1s"), (A, "pass"))
    assert state.current_player() == B
    assert "bid two 5s" in labels(state)
    three_5s = action_elsewhere(state, "bid three 5s", hand_cards=["5", "5", "5"])
    assert_rejected(state, "bid three 5s", three_5s)  # not coverable now
    play(state, (B, "bid two 5s"), (C, "pass"))
    assert state.phase_name() == "paying" and state.current_player() == B
    assert labels(state) == ["pay 5 Joker"]
    play(state, (B, "pay 5 Joker"))
    assert discard(state) == ["5"]
    assert jokers(state, B) == [J]
    assert sorted(hand(state, B)) == ["2", "3", "3", "4"]
    assert hand(state, C) == ["1", "1"]


def test_kb_a8_losers_and_passers_keep_everything_jokers_too():
    """KB-A8 / KB-A9: the bid cards of players who pass or are outbid stay in their hands;
    a joker that backed a losing bid is not "used": it stays in hand, nothing goes in front."""
    state = position({A: ["3"], B: ["2", "2", "2"], C: ["1", J, "4"]}, lot=["5", "1", "5"], deck_top=["4", "3", "4"])
    play(state, (B, "bid one 2"), (C, "bid two 1s"), (A, "pass"), (B, "bid three 2s"), (C, "pass"))
    play(state, (B, "pay 2 2 2"))
    assert hand(state, C) == ["1", J, "4"]
    assert hand(state, A) == ["3"]
    assert jokers(state, C) == [] and jokers(state, A) == []
    assert discard(state) == ["2", "2", "2"]
    assert sorted(hand(state, B)) == ["1", "5", "5"]


def test_kb_a9_payment_choices_with_jokers():
    """KB-A9: the winner chooses which cards pay, as long as they fit the bid: a hand {4, 4, 4, J, J}
    winning "three 4s" is offered exactly 4 4 4 / 4 4 Joker / 4 Joker Joker; every joker paid goes in front."""
    state = position({A: ["4", "4", "4", J, J], B: [], C: []}, lot=["3", "1", "3"], deck_top=["2", "5", "2"])
    play(state, (B, "pass"), (C, "pass"), (A, "bid three 4s"))
    assert sorted(labels(state)) == ["pay 4 4 4", "pay 4 4 Joker", "pay 4 Joker Joker"]
    play(state, (A, "pay 4 Joker Joker"))
    assert discard(state) == ["4"]
    assert jokers(state, A) == [J, J]
    assert sorted(hand(state, A)) == ["1", "3", "3", "4", "4"]


def test_kb_a9_mixed_payment_with_jokers():
    """KB-A9: in a mixed bid a joker stands for a missing value, the values all differing:
    {1, 2, 3, J, J} paying "3 different" has seven choices; {1, 1, 2, J} only 1 2 Joker."""
    state = position({A: ["1", "2", "3", J, J], B: [], C: []}, lot=["5", "5"])
    play(state, (B, "pass"), (C, "pass"), (A, "bid 3 different"))
    assert sorted(labels(state)) == sorted(
        [
            "pay 1 2 3",
            "pay 1 2 Joker",
            "pay 1 3 Joker",
            "pay 2 3 Joker",
            "pay 1 Joker Joker",
            "pay 2 Joker Joker",
            "pay 3 Joker Joker",
        ]
    )
    state = position({A: ["1", "1", "2", J], B: [], C: []}, lot=["5", "5"], deck_top=["3", "4", "3"])
    play(state, (B, "pass"), (C, "pass"))
    assert "bid 3 different" in labels(state) and "bid 4 different" not in labels(state)
    play(state, (A, "bid 3 different"))
    assert labels(state) == ["pay 1 2 Joker"]
    play(state, (A, "pay 1 2 Joker"))
    assert discard(state) == ["1", "2"]
    assert jokers(state, A) == [J]
    assert sorted(hand(state, A)) == ["1", "5", "5"]


def test_kb_a10_largest_lot():
    """KB-A10: a lot holds at most 6 cards (five distinct values and the stopper), and one joker at most."""
    state = position({A: [], B: [], C: []}, lot=["2", "2"], deck_top=["1", "2", "3", "4", "5", "3", "1"])
    reveal(state)
    assert lot(state) == ["1", "2", "3", "4", "5", "3"]
    assert deck(state)[-1] == "1"
    state = position({A: [], B: [], C: []}, lot=["2", "2"], deck_top=["5", "4", "3", "2", "1", J, J, "1", "2"])
    reveal(state)
    assert lot(state) == ["5", "4", "3", "2", "1", J]
    assert hands(state) == [["2"], [J], ["1"]]  # B, C, A draw in turn


def test_kb_a11_repeats_are_by_value_within_the_current_lot():
    """KB-A11: the reveal stops on a number card matching one already in the current lot (not next to it,
    and never one of an earlier lot); the stopping card belongs to the lot."""
    state = position({A: [], B: [], C: []}, lot=["4", "1", "4"], deck_top=["1", "5", "3", "4", "2", "5", "3"])
    reveal(state)
    assert discard(state) == ["4", "1", "4"]
    assert lot(state) == ["1", "5", "3", "4", "2", "5"]
    assert deck(state)[-1] == "3"


def test_kb_a12_joker_draws_start_left_of_the_leader():
    """KB-A12: after a joker, players draw clockwise from the leader's left, the leader last (leader B here)."""
    state = position({A: ["3"], B: ["3"], C: ["3"]}, lot=["4", "4"], leader=B, deck_top=["2", J, "5", "4", "1", "3"])
    assert state.current_player() == C
    reveal(state)
    assert lot(state) == ["2", J]
    assert hands(state) == [["3", "4"], ["3", "1"], ["3", "5"]]
    assert get_var(state, "leader") == B
    assert state.current_player() == C


def test_kb_a12_pile_runs_out_during_the_joker_draws():
    """KB-A12: if the draw pile empties while the players draw after a joker, the handing out stops,
    the game ends at once and the lot is not auctioned; a joker drawn then counts in the scoring."""
    state = position({A: ["2"], B: ["2"], C: ["2"]}, lot=["3", "3"], deck=["1", J, "5", J], mice={A: 4, B: 4, C: 4})
    reveal(state)
    assert lot(state) == ["1", J]
    assert hand(state, A) == ["2"]  # the leader, last, gets nothing
    assert hand(state, B) == ["2", "5"]
    assert hand(state, C) == ["2"]  # his drawn joker was laid in front at the end
    assert jokers(state, C) == [J]
    assert deck(state) == []
    assert state.is_terminal() and state.legal_actions() == []
    assert mice(state) == [4, 4, -1]
    # The last card drawn by the last player also ends the game at once.
    state = position({A: ["2"], B: ["2"], C: ["2"]}, lot=["3", "3"], deck=[J, "5", "4", "1"])
    reveal(state)
    assert lot(state) == [J]
    assert hands(state) == [["2", "1"], ["2", "5"], ["2", "4"]]
    assert state.is_terminal()


def test_kb_a13_pile_runs_out_during_the_reveal():
    """KB-A13: the draw pile running out during the reveal ends the game at once, with no auction,
    even when the last card completes the lot (a repeat or a joker); the discard pile is not reshuffled."""
    for pile, expected in ((["2", "4"], ["2", "4"]), (["2", "4", "2"], ["2", "4", "2"]), (["3", J], ["3", J])):
        state = position({A: ["1"], B: ["1"], C: ["1"]}, lot=["5", "5"], deck=pile, mice={A: 2})
        assert discard(state)  # plenty of cards that could have been reshuffled
        reveal(state)
        assert lot(state) == expected, pile
        assert deck(state) == []
        assert hands(state) == [["1"], ["1"], ["1"]]  # nobody drew, even after the joker
        assert state.is_terminal() and state.current_player() == TERMINAL
        assert state.legal_actions() == []
        assert get_var(state, "score") == [2, 0, 0]


def _two_squares_position() -> ruledsl.GameState:
    """A wins "one 1" and pays the 1; he then holds seven 3s, a joker and two 2s."""
    state = position(
        {A: ["3"] * 6 + [J, "1"], B: [], C: []}, lot=["2", "3", "2"], deck_top=["1", "5", "1", "5", "4", "5"]
    )
    play(state, (B, "pass"), (C, "pass"), (A, "bid one 1"), (A, "pay 1"))
    assert state.phase_name() == "squares"
    return state


def test_kb_a14_several_squares_two_of_the_same_value():
    """KB-A14: any number of squares in a row, two of the same value among them; each earns its value."""
    state = _two_squares_position()
    assert "lay a square of 3s (3 3 3 3)" in labels(state)
    assert "stop laying squares" in labels(state)
    play(state, (A, "lay a square of 3s (3 3 3 3)"))
    assert state.current_player() == A and state.phase_name() == "squares"
    assert labels(state) == ["lay a square of 3s (3 3 3 Joker)", "stop laying squares"]
    play(state, (A, "lay a square of 3s (3 3 3 Joker)"))
    assert mice(state) == [6, 0, 0]
    assert get_var(state, "supply") == 18
    assert jokers(state, A) == [J]
    assert discard(state) == ["1"] + ["3"] * 7
    assert sorted(hand(state, A)) == ["2", "2"]
    assert labels(state) == ["stop laying squares"]
    play(state, (A, "stop laying squares"))
    assert state.phase_name() == "bidding" and state.current_player() == B
    assert lot(state) == ["1", "5", "1"]


def test_kb_a14_squares_are_optional_and_may_wait_for_a_later_win():
    """KB-A14: laying is optional; the cards stay in hand and may be laid after a later winning auction
    (and only then)."""
    state = _two_squares_position()
    kept = sorted(hand(state, A))
    play(state, (A, "stop laying squares"))
    assert sorted(hand(state, A)) == kept
    assert mice(state) == [0, 0, 0]
    assert state.phase_name() == "bidding" and state.current_player() == B
    assert lot(state) == ["1", "5", "1"]
    # The next auction is not won: no squares, although A still holds one.
    play(state, (B, "pass"), (C, "pass"))
    assert not any(lab.startswith(("lay", "declare")) for lab in labels(state))
    play(state, (A, "pass"))
    assert state.phase_name() == "bidding"
    assert lot(state) == ["5", "4", "5"]
    # A wins this one: now he lays the square he kept.
    play(state, (B, "pass"), (C, "pass"), (A, "bid one 2"), (A, "pay 2"))
    assert state.phase_name() == "squares" and state.current_player() == A
    play(state, (A, "lay a square of 3s (3 3 3 3)"))
    assert mice(state) == [3, 0, 0]


def test_kb_a14_squares_step_even_without_a_square():
    """KB-A14: a winner who cannot make any square still comes to the squares step, with only
    'stop laying squares' to choose: skipping the step would tell the table that he holds no
    four of a kind. Then the next reveal."""
    state = position({A: ["3", "3", "1"], B: [], C: []}, lot=["3", "2", "2"], deck_top=["4", "1", "4"])
    play(state, (B, "pass"), (C, "pass"), (A, "bid one 1"), (A, "pay 1"))
    assert sorted(hand(state, A)) == ["2", "2", "3", "3", "3"]
    assert state.phase_name() == "squares" and state.current_player() == A
    assert labels(state) == ["stop laying squares"]
    play(state, (A, "stop laying squares"))
    assert state.phase_name() == "bidding" and state.current_player() == B
    assert lot(state) == ["4", "1", "4"]


def test_kb_a14_others_cannot_tell_whether_the_winner_holds_a_square():
    """The step the game goes to after paying, and what the others see of it, do not depend on
    whether the winner's hand makes a square."""

    def after_paying(a_hand: list[str]) -> tuple[str, object, dict]:
        state = position({A: a_hand, B: [], C: []}, lot=["4", "1", "4"])
        play(state, (B, "pass"), (C, "pass"), (A, "bid one 1"), (A, "pay 1"))
        seen = state.observation(B)
        seen["zones"].pop("hand")  # sizes are equal; the cards are A's alone
        return state.phase_name(), state.current_player(), seen

    with_square = after_paying(["5", "5", "5", J, "1"])
    without = after_paying(["5", "5", "3", "2", "1"])
    assert with_square[:2] == without[:2] == ("squares", A)
    assert {k: v for k, v in with_square[2].items() if k != "legal_actions"} == {
        k: v for k, v in without[2].items() if k != "legal_actions"
    }


def test_kb_a15_mice_run_out_while_laying():
    """KB-A15: squares are paid in the order laid, min(value, supply) each; once the supply is 0 the
    other squares still go down but earn 0 (a joker square may still be discarded); the game ends
    when the winner's square step is over."""
    state = position({A: ["3"] * 4 + ["5"] * 4 + [J] * 4 + ["1"], B: [], C: []}, lot=["2", "4", "2"], supply=4)
    play(state, (B, "pass"), (C, "pass"), (A, "bid one 1"), (A, "pay 1"))
    play(state, (A, "lay a square of 3s (3 3 3 3)"))
    assert mice(state) == [3, 0, 0] and get_var(state, "supply") == 1
    play(state, (A, "lay a square of 5s (5 5 5 5)"))
    assert mice(state) == [4, 0, 0] and get_var(state, "supply") == 0
    assert not state.is_terminal()
    play(state, (A, "declare a joker square"))
    assert mice(state) == [4, 0, 0]
    assert jokers(state, A) == []
    assert discard(state)[-4:] == [J, J, J, J]
    play(state, (A, "stop laying squares"))
    assert state.is_terminal()
    assert get_var(state, "score") == [4, 0, 0]  # no joker left: no penalty
    assert state.ranking() == [[A], [B, C]]


def test_announcements_count_one_mouse_and_one_joker_in_the_singular():
    state = position(
        {A: ["3"] * 4 + ["5"] * 4 + ["1"], B: [], C: []}, lot=["2", "4", "2"], jokers={B: [J]}, supply=4, log=True
    )
    play(state, (B, "pass"), (C, "pass"), (A, "bid one 1"), (A, "pay 1"))
    play(state, (A, "lay a square of 3s (3 3 3 3)"), (A, "lay a square of 5s (5 5 5 5)"))
    assert state.take_log() == ["P0 earns 3 mice; 1 left", "P0 earns 1 mouse; 0 left"]
    play(state, (A, "stop laying squares"))
    assert state.take_log() == [
        "P1 has the most jokers (1) and gives back 5 mice",
        "P0: 4 mice this round, 0 jokers; 4 mice in all",
        "P1: -5 mice this round, 1 joker; -5 mice in all",
        "P2: 0 mice this round, 0 jokers; 0 mice in all",
    ]


def test_kb_a15_square_after_the_supply_is_empty_earns_nothing():
    """KB-A15: a valued square laid once the supply is 0 earns 0 mice; its jokers still go in front."""
    state = position({A: ["5"] * 4 + ["4", "4", "4", J, "1"], B: [], C: []}, lot=["2", "3", "2"], supply=2)
    play(state, (B, "pass"), (C, "pass"), (A, "bid one 1"), (A, "pay 1"))
    play(state, (A, "lay a square of 5s (5 5 5 5)"))
    assert mice(state) == [2, 0, 0] and get_var(state, "supply") == 0
    play(state, (A, "lay a square of 4s (4 4 4 Joker)"))
    assert mice(state) == [2, 0, 0] and get_var(state, "supply") == 0
    assert jokers(state, A) == [J]
    play(state, (A, "stop laying squares"))
    assert state.is_terminal()
    assert get_var(state, "score") == [-3, 0, 0]  # his one joker is the most: -5


def test_kb_a16_joker_square_discards_do_not_count():
    """KB-A16: the count is jokers in front plus jokers in hand; the jokers of a joker square are gone."""
    state = position({A: [J, J, J, J, "2"], B: [J, "5"], C: []}, lot=["3", "4", "3"], mice={A: 5, B: 5, C: 5})
    play(state, (B, "pass"), (C, "pass"), (A, "bid one 2"), (A, "pay 2"), (A, "declare a joker square"))
    set_deck(state, ["1"])
    play(state, (A, "stop laying squares"))  # the next reveal draws the last card
    assert state.is_terminal()
    assert [len(jokers(state, p)) for p in (A, B, C)] == [0, 1, 0]
    assert get_var(state, "score") == [5, 0, 5]


def test_kb_a16_threshold_and_penalty_options():
    """KB-A16: penalty_threshold (default 1) and joker_penalty (default 5) are options."""
    state = finished({A: 8, B: 8, C: 8}, front={A: 2, B: 1}, penalty_threshold=3)
    assert get_var(state, "score") == [8, 8, 8]  # the most is 2 < 3
    state = finished({A: 8, B: 8, C: 8}, front={A: 2, B: 1}, in_hand={A: 1}, penalty_threshold=3)
    assert get_var(state, "score") == [3, 8, 8]
    state = finished({A: 8, B: 8, C: 8}, front={A: 2, B: 2}, joker_penalty=2)
    assert get_var(state, "score") == [6, 6, 8]
    state = finished({A: 8, B: 8, C: 8}, front={}, penalty_threshold=0)
    assert get_var(state, "score") == [3, 3, 3]  # a threshold of 0: the most (0) is enough


def test_kb_a17_tie_break_uses_the_full_joker_count():
    """KB-A17: ties on mice are broken by the fewer jokers, counted after the hand jokers are laid out
    and not reduced by the penalty. A: 10 mice, 1 + 1 in hand; B: 5, 1; C: 5, 2.
    A and C (2 jokers) lose 5: A 5, B 5, C 0; B beats A on jokers (1 < 2)."""
    state = finished({A: 10, B: 5, C: 5}, front={A: 1, B: 1, C: 2}, in_hand={A: 1})
    assert get_var(state, "score") == [5, 5, 0]
    assert get_var(state, "total_jokers") == [2, 1, 2]
    assert state.ranking() == [[B], [A], [C]]
    assert state.returns() == [0.0, 1.0, -1.0]


def test_kb_a18_the_winner_leads_the_next_round():
    """KB-A18: the auction winner becomes the first player: he turns up the next lot, the joker draws
    start at his left, and so does the next auction."""
    state = position({A: ["1"], B: ["4", "4"], C: ["2"]}, lot=["3", "5", "3"], deck_top=["2", J, "1", "5", "3", "4"])
    play(state, (B, "bid two 4s"), (C, "pass"), (A, "pass"), (B, "pay 4 4"), (B, "stop laying squares"))
    assert get_var(state, "leader") == B
    assert lot(state) == ["2", J]
    assert hand(state, C) == ["2", "1"]
    assert hand(state, A) == ["1", "5"]
    assert sorted(hand(state, B)) == ["3", "3", "3", "5"]
    assert hand(state, B)[-1] == "3"  # drawn last, after the lot was taken
    assert state.phase_name() == "bidding" and state.current_player() == C


def test_kb_a19_what_each_player_sees():
    """KB-A19: hands are never seen by the others (nor the won lot, once in hand); the lot, the
    announced bids, the paid cards, the jokers in front and the mice are public; the draw pile is hidden."""
    state = position(
        {A: ["4", "4", J, "2"], B: ["1"], C: []}, lot=["3", "1", "3"], mice={C: 2}, deck_top=["5", "2", "5"], log=True
    )
    for viewer in (A, B, C):
        obs = state.observation(viewer)
        for q in (A, B, C):
            assert obs["zones"]["hand"][q]["size"] == len(hand(state, q))
            assert ("cards" in obs["zones"]["hand"][q]) == (q == viewer)
        assert obs["zones"]["hand"][viewer]["cards"] == hand(state, viewer)
        assert obs["zones"]["lot"]["cards"] == ["3", "1", "3"]
        assert "cards" not in obs["zones"]["deck"]
        assert obs["player_variables"]["mice"] == [0, 0, 2]
    play(state, (B, "bid one 1"))
    for viewer in (A, B, C):
        assert state.describe_last(viewer) == "bid one 1"
        assert auction(state, viewer) == {"standing": "bid one 1", "bidder": B, "passed": [False, False, False]}
    play(state, (C, "pass"), (A, "bid three 4s"), (B, "pass"), (A, "pay 4 4 Joker"))
    for viewer in (A, B, C):
        assert state.describe_last(viewer) == "pay 4 4 Joker"
        obs = state.observation(viewer)
        assert obs["zones"]["jokers"][A]["cards"] == [J]
        assert obs["zones"]["discard"]["cards"] == ["4", "4"]
        assert obs["zones"]["hand"][A]["size"] == 4
        assert ("cards" in obs["zones"]["hand"][A]) == (viewer == A)
    assert sorted(state.observation(A)["zones"]["hand"][A]["cards"]) == ["1", "2", "3", "3"]


def test_kb_a19_others_see_the_bid_without_a_log():
    """KB-A19: bid announcements and paid cards are public: describe_last shows them to every player,
    whether or not the state keeps a log. (It raised IndexError for the others before commit 5540805.)"""
    state = position({A: ["4", "4", J, "2"], B: ["1"], C: []}, lot=["3", "1", "3"])
    play(state, (B, "bid one 1"))
    assert state.describe_last(B) == "bid one 1"
    assert state.describe_last(A) == "bid one 1"
    play(state, (C, "pass"), (A, "bid three 4s"), (B, "pass"), (A, "pay 4 4 Joker"))
    assert state.describe_last(B) == "pay 4 4 Joker"


def test_kb_a20_empty_hand_can_only_pass_and_there_is_no_hand_limit():
    """KB-A20: a player with an empty hand cannot bid and must pass; hands have no limit."""
    state = position({A: ["2"], B: [], C: ["1"] * 12 + ["2"] * 12}, lot=["5", "5"])
    assert labels(state) == ["pass"]
    play(state, (B, "pass"))
    assert state.current_player() == C
    assert "bid twelve 2s" in labels(state)
    play(state, (C, "bid twelve 2s"), (A, "pass"))
    assert state.phase_name() == "paying" and state.current_player() == C


def test_kb_a21_penalty_mice_go_back_to_the_supply():
    """KB-A21: the mice given back by the penalty return to the supply."""
    state = finished({A: 9, B: 7, C: 6}, front={A: 3, B: 3})
    assert get_var(state, "supply") == 24 - 22 + 10
    assert sum(mice(state)) + get_var(state, "supply") == 24


def test_kb_a22_several_rounds_add_up():
    """KB-A22: option rounds: each round is a full game with a fresh deal and a full supply;
    the scores add up, and so do the jokers for the tie-break."""
    state = position({A: ["1"], B: ["1"], C: ["1"]}, jokers={A: [J]}, mice={A: 3, B: 2}, supply=1, rounds=2)
    end_by_empty_deck(state)
    # Round 1 is over (A, with the most jokers, loses 5); round 2 has begun.
    assert not state.is_terminal()
    assert state.observation(A)["round"] == 2
    assert get_var(state, "score") == [-2, 2, 0]
    assert get_var(state, "total_jokers") == [1, 0, 0]
    assert mice(state) == [0, 0, 0]
    assert get_var(state, "supply") == 24
    assert discard(state) == []
    assert all(jokers(state, p) == [] for p in (A, B, C))
    drew = 1 if J in lot(state) else 0
    assert [len(h) for h in hands(state)] == [6 + drew] * 3
    assert len(deck(state)) + len(lot(state)) + 18 + 3 * drew == 90
    assert state.phase_name() == "bidding"
    # Round 2: B ends with 4 mice and 2 jokers, C with 1 mouse.
    lay_out(state, {A: ["2"], B: ["2"], C: ["2"]}, jokers={B: [J, J]})
    set_var(state, "mice", 4, owner=B)
    set_var(state, "mice", 1, owner=C)
    end_by_empty_deck(state)
    assert state.is_terminal()
    assert get_var(state, "score") == [-2, 1, 1]
    assert get_var(state, "total_jokers") == [1, 2, 0]
    assert state.ranking() == [[C], [B], [A]]  # B and C tie on mice; C has fewer jokers
    assert state.returns() == [-1.0, 0.0, 1.0]


def test_kb_a22_one_round_by_default():
    """KB-A22: rounds defaults to 1: the game ends with the first round."""
    state = finished({A: 1, B: 0, C: 0}, front={})
    assert state.is_terminal()
    assert state.observation(A)["round"] == 1


# ---------------------------------------------------------------------------- performance


def test_legal_bids_of_a_25_card_hand_with_6_jokers():
    """Issue requirement: a hand of 25 cards, 6 of them jokers, lists its bids by counting, not by
    enumerating subsets (benchmarks/katzenjammer_big_hand.py measures how long it takes).
    Hand: four each of 1-4, three 5s, six jokers.

    By hand, from the rules: held(v) = (cards of value v) + 6 jokers = 10, 10, 10, 10, 9, so the
    valued bids number 10 + 10 + 10 + 10 + 9 = 49; the mixed bids are 2 to min(5, 5 + 6) = 5
    different: 4. With no bid standing: 53 bids, and pass. Over a standing "four 3s" (4, 1, 3):
    four 4s, four 5s (2), 5 different (1), five to nine of each value (25), ten 1s to ten 4s (4): 32."""
    big = ["1"] * 4 + ["2"] * 4 + ["3"] * 4 + ["4"] * 4 + ["5"] * 3 + [J] * 6
    assert len(big) == 25
    state = position({A: ["3", "3", "3", "3"], B: big, C: []}, lot=["2", "2"], leader=C, turn=B)
    listed = state.legal_actions()
    assert len(listed) == 54
    assert len(bids(state)) == 53
    assert "bid ten 1s" in bids(state) and "bid nine 5s" in bids(state) and "bid ten 5s" not in bids(state)

    # The same hand over a standing bid.
    give_turn(state, A, "bidding")
    play(state, (A, "bid four 3s"))
    listed = state.legal_actions()
    assert len(listed) == 33 and len(bids(state)) == 32

    # Winning "5 different" with it: 2 ** 5 = 32 ways to pay (each value by its card or a joker).
    play(state, (B, "bid 5 different"), (C, "pass"), (A, "pass"))
    listed = state.legal_actions()
    assert len(listed) == 32
