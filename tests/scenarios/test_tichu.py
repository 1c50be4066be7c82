"""Scenario tests of Tichu (games/examples/tichu.game): combinations beat the table, the wish, the calls, the exchange.

A play must be of the kind and size of the one on the table and higher (a pair on a pair, the
Phoenix standing in for a card); the Mah Jong's wish, while it can be met in a legal play,
makes the plays holding the wished rank the only legal moves: passing is refused with the
rule's reason. Checked against hands arranged by hand, and in random games against a test of
the wish written here, from the labels alone.
"""

from __future__ import annotations

import random
import re

import ruledsl
from ruledsl.codegen.refusal import why_illegal
from ruledsl.tools.scenario import arrange, cards_in
from tests.scenarios.support import act, labels

_RANKS = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]


def started(seed: int, grand: tuple[int, ...] = ()) -> ruledsl.GameState:
    """A deal past Grand Tichu (called by the seats in 'grand') and the exchange (each gives his first way)."""
    state = ruledsl.load_game("tichu", players=4).new_initial_state(seed=seed)
    while state.phase_name() == "grand_calls":
        act(state, "call Grand Tichu" if state.current_player() in grand else "no call")
    while state.phase_name().startswith("exchange"):
        state.apply_action(state.legal_actions()[0])
    assert state.phase_name() == "play"
    return state


def dealt(**extra: list[str]) -> tuple[ruledsl.GameState, int]:
    """A deal where the leader (the Mah Jong's holder) holds 'leader', the next seats 'second'..."""
    state = started(0)
    p = state.current_player()
    hands = {
        p: ["Mah Jong", "5J", "5S", "2J", "3S", "4P", "6J"],
        (p + 1) % 4: ["7J", "7S", "9P", "Phoenix", "3J", "3P"],
        (p + 2) % 4: ["KJ", "KS", "KP", "QJ"],
        (p + 3) % 4: ["8J", "8S", "8P", "8*", "Dog"],
    }
    for seat, name in enumerate(["leader", "second", "third", "fourth"]):
        if name in extra:
            hands[(p + seat) % 4] = extra[name]
    for q, cards in hands.items():
        arrange(state, "hand", cards, owner=q)
    return state, p


def test_the_leader_may_lead_any_combination_he_holds() -> None:
    state, _ = dealt()
    offered = labels(state)
    assert "pair 5J 5S" in offered and "single Mah Jong" in offered
    assert "straight 2J 3S 4P 5J Mah Jong, 1 to 5" in offered  # the Mah Jong is a 1 in a straight
    assert "pass" not in offered  # a lead is never passed


def test_a_pair_is_beaten_only_by_a_higher_pair_the_phoenix_standing_in() -> None:
    state, p = dealt()
    act(state, "pair 5J 5S")
    act(state, "let it be")  # the fourth seat holds a bomb: offered out of turn, declined
    assert state.current_player() == (p + 1) % 4
    assert sorted(labels(state)) == ["pair 7J 7S", "pair 7J Phoenix", "pair 7S Phoenix", "pair 9P Phoenix", "pass"]
    assert why_illegal(state, "pair 3J 3P") == "it does not beat the table"
    assert why_illegal(state, "single 9P") == "9P does not beat the table"


def test_a_bomb_beats_anything_out_of_turn() -> None:
    state, p = dealt()
    act(state, "pair 5J 5S")
    act(state, "bomb 8J 8S 8P 8*")
    assert state.current_player() != (p + 3) % 4 or "pass" not in labels(state)
    assert cards_in(state, "table")[-4:] == ["8J", "8S", "8P", "8*"]


def test_the_phoenix_alone_is_half_a_rank_above_the_single_it_beats() -> None:
    state, p = dealt(second=["Phoenix", "5P"], third=["6S", "KJ"])
    act(state, "single 5J")
    act(state, "let it be")
    act(state, "single Phoenix")  # a 5½
    act(state, "let it be")
    assert state.current_player() == (p + 2) % 4
    assert sorted(labels(state)) == ["pass", "single 6S", "single KJ"]


def test_the_wish_forces_a_play_of_the_wished_rank_and_forbids_passing() -> None:
    state, p = dealt()
    act(state, "single Mah Jong")
    assert "wish for 7" in labels(state)
    act(state, "wish for 7")
    act(state, "let it be")
    assert state.current_player() == (p + 1) % 4
    assert sorted(labels(state)) == ["single 7J", "single 7S"]
    assert why_illegal(state, "pass") == "you must play the wished 7: you can"
    assert why_illegal(state, "single 9P") == "you must play the wished 7: you can"
    act(state, "single 7J")  # the wish is met: it binds no more
    act(state, "let it be")
    assert "pass" in labels(state)


def test_the_wish_does_not_bind_a_player_who_cannot_play_the_rank() -> None:
    # The second seat holds no 7, and his 9 may be played or not.
    state, p = dealt(second=["9P", "3J", "3P"])
    act(state, "single Mah Jong")
    act(state, "wish for 7")
    act(state, "let it be")
    assert state.current_player() == (p + 1) % 4
    assert sorted(labels(state)) == ["pass", "single 3J", "single 3P", "single 9P"]


def _held(label: str) -> list[str]:
    """The cards a play's label names ('pair 7J Phoenix', 'straight 2J 3S 4P 5J 6J, 2 to 6')."""
    words = label.split(",")[0].replace("Mah Jong", "1M").split()[1:]
    return [w for w in words if w not in ("house",)]


def _rank(card: str) -> str | None:
    if card in ("Phoenix", "Dog", "Dragon"):
        return None
    return card[:-1]


def _play(seed: int) -> int:
    """Play one deal at random; return how many times the wish bound, each checked."""
    state = started(seed)
    rng = random.Random(seed)
    wished: str | None = None
    checked = 0
    while not state.is_terminal() and state.round == 1:
        offered = [a for a in labels(state) if a != "call Tichu"]
        plays = [a for a in offered if a.split()[0] in _PLAYS]
        if wished is not None and state.picking is None:
            holding = [a for a in plays if any(_rank(c) == wished for c in _held(a))]
            if holding:
                checked += 1
                assert sorted(offered) == sorted(holding), offered
        choice = rng.choice(_no_call(state))
        said = str(choice)
        if said.startswith("wish for "):
            wished = said.removeprefix("wish for ")
        elif said.split()[0] in (*_PLAYS, "bomb") and any(_rank(c) == wished for c in _held(said)):
            wished = None
        state.apply_action(choice)
    return checked


def _no_call(state: ruledsl.GameState) -> list[object]:
    return [a for a in state.legal_actions() if str(a) != "call Tichu"]


_PLAYS = ("single", "pair", "triple", "full", "straight", "stairs")


def test_in_random_games_the_wish_binds_exactly_when_it_can_be_met() -> None:
    """While a wish stands, if some legal play holds the wished rank, every legal move does and
    none is a pass (nor a bomb without it); a play holding it ends the wish. Read from the
    labels, not the rules."""
    assert sum(_play(seed) for seed in range(6)) > 0


def test_a_deal_scores_the_hundred_points_of_its_cards_or_a_double_victory() -> None:
    # 5s: 4 x 5, 10s and Ks: 8 x 10, the Dragon 25, the Phoenix -25: 100 between the sides.
    for seed in range(6):
        state = started(seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            state.apply_action(rng.choice(_no_call(state)))
        score = state.observation(None)["player_variables"]["score"]
        assert score[0] == score[2] and score[1] == score[3]  # partners alike
        assert sorted((score[0], score[1])) in ([0, 200], sorted((score[0], 100 - score[0])))


def _deal_scores(seed: int, call: bool, grand: tuple[int, ...] = ()) -> tuple[list[int], list[int], int]:
    """One deal at random without calls but the leader's Tichu if 'call' and the Grand Tichu of the seats in
    'grand': scores, places, leader."""
    state = started(seed, grand)
    leader = state.current_player()
    if call:
        act(state, "call Tichu")
        assert "call Tichu" not in labels(state)  # called once
    rng = random.Random(seed)
    while not state.is_terminal():
        state.apply_action(rng.choice(_no_call(state)))
    seen = state.observation(None)["player_variables"]
    return seen["score"], seen["place"], leader


def test_a_tichu_call_scores_100_for_going_out_first_and_loses_100_otherwise() -> None:
    outcomes = set()
    for seed in range(8):
        plain, _, leader = _deal_scores(seed, call=False)
        called, places, _ = _deal_scores(seed, call=True)
        made = places[leader] == 1
        outcomes.add(made)
        bonus = 100 if made else -100
        for q in range(4):
            assert called[q] - plain[q] == (bonus if q % 2 == leader % 2 else 0)
    assert outcomes == {True, False}


def test_a_grand_tichu_scores_200_for_going_out_first_and_loses_200_otherwise() -> None:
    outcomes = set()
    for seed in range(10):
        plain, _, _ = _deal_scores(seed, call=False)
        called, places, _ = _deal_scores(seed, call=False, grand=(1,))
        made = places[1] == 1
        outcomes.add(made)
        for q in range(4):
            assert called[q] - plain[q] == ((200 if made else -200) if q % 2 == 1 else 0)
    assert outcomes == {True, False}


def test_each_player_receives_one_card_from_each_other_at_once() -> None:
    """Passed left (the next seat), across to the partner, and right, after all have chosen: nobody passes
    a card he was given, and each hand keeps 14 cards."""
    state = ruledsl.load_game("tichu", players=4).new_initial_state(seed=3)
    while state.phase_name() == "grand_calls":
        act(state, "no call")
    before = {q: set(cards_in(state, "hand", owner=q)) for q in range(4)}
    assert all(len(hand) == 14 for hand in before.values())
    rng = random.Random(3)
    given: dict[int, dict[int, str]] = {q: {} for q in range(4)}
    to = {"left": 1, "partner": 2, "right": 3}  # the next seat, across, the seat before
    while state.phase_name().startswith("exchange"):
        q = state.current_player()
        action = rng.choice(state.legal_actions())
        words = re.fullmatch("give (.+) to the (left|partner|right)", str(action))
        assert words is not None, action
        given[q][(q + to[words[2]]) % 4] = words[1]
        state.apply_action(action)
        if state.phase_name().startswith("exchange"):  # nothing handed over before all have given
            assert all(set(cards_in(state, "hand", owner=p)) <= before[p] for p in range(4))
    assert all(len(set(given[q].values())) == 3 and set(given[q].values()) <= before[q] for q in range(4))
    assert sorted(given) == [0, 1, 2, 3]
    for q in range(4):
        received = {given[p][q] for p in range(4) if p != q}
        kept = before[q] - set(given[q].values())
        assert set(cards_in(state, "hand", owner=q)) == kept | received


def _dragon_won(q: int, **hands: list[str]) -> tuple[ruledsl.GameState, int]:
    """The leader leads the Dragon, nobody beats it; he gives the trick to the seat ``q`` after him."""
    state, p = dealt(**hands)
    act(state, "single Dragon")
    for _ in range(3):
        act(state, "pass")
    assert state.current_player() == p  # he chooses, not the next in turn
    assert sorted(labels(state)) == [f"give the Dragon's trick to P{(p + d) % 4}" for d in (1, 3)]
    act(state, f"give the Dragon's trick to P{(p + q) % 4}")
    assert cards_in(state, "won", owner=(p + q) % 4) == ["Dragon"]
    assert cards_in(state, "table") == []
    return state, p


def test_the_dragons_winner_gives_the_trick_to_the_opponent_he_chooses() -> None:
    """Either opponent, never his partner; he leads the next trick. The deal then scores it to that
    opponent's side, unless that opponent is left last: his tricks go to the first out (the giver)."""
    hands = {"leader": ["Dragon", "2J"], "second": ["3J"], "third": ["9J", "4S"], "fourth": ["5J"]}
    scores = {}
    for q in (1, 3):
        state, p = _dragon_won(q, **hands)
        assert state.current_player() == p and state.phase_name() == "play"
        # He goes out first, the left opponent second, the partner third: the right one is last.
        for play in ("single 2J", "single 3J", "single 9J", "pass", "single 4S"):
            act(state, play)
        assert state.is_terminal()
        places = state.observation(None)["player_variables"]["place"]
        assert [places[(p + d) % 4] for d in range(4)] == [1, 2, 3, 0]
        score = state.observation(None)["player_variables"]["score"]
        scores[q] = (score[p], score[(p + 1) % 4])  # his side's, the opponents'
    # Given to the left opponent (out second), the Dragon's 25 count for the opponents' side; given
    # to the right one, left last, his tricks go to the giver, out first. The 5 of the last hand: to the giver.
    assert scores == {1: (5, 25), 3: (30, 0)}


def test_a_winner_out_with_the_dragon_still_chooses() -> None:
    """The Dragon led as his last card, nobody beats it: out first, he still gives the trick away."""
    state, p = _dragon_won(3, leader=["Dragon"], fourth=["5J"])
    assert state.observation(None)["player_variables"]["place"][p] == 1
    assert state.current_player() == (p + 1) % 4  # the next still in leads
