"""Scenario tests of Spades (games/examples/spades.game), on deals set by hand.

Seats 0 and 2 are partners against 1 and 3; seat 3 deals, so seat 0 bids and leads first.
In the deal used for scoring each seat holds one whole suit, seat 0 the spades: he takes
all thirteen tricks, and nobody else takes any.
"""

from __future__ import annotations

import ruledsl
from ruledsl.tools.scenario import arrange, get_var, set_var
from tests.scenarios.support import act, labels

RANKS = "2 3 4 5 6 7 8 9 10 J Q K A".split()


def dealt(hands: dict[int, list[str]] | None = None, **options: object) -> ruledsl.GameState:
    """The state after the deal, each seat holding one suit unless ``hands`` says otherwise."""
    state = ruledsl.load_game("spades", options=options).new_initial_state(seed=0)
    suits = dict(zip(range(4), "♠♥♦♣", strict=True))
    for seat in range(4):
        cards = hands[seat] if hands else [r + suits[seat] for r in RANKS]
        arrange(state, "hand", cards, owner=seat)
    return state


def bid_and_play_out(state: ruledsl.GameState, bids: list[str]) -> None:
    """Bid for seats 0 to 3 in turn, then play the hand out, each player his first legal card."""
    for bid in bids:
        act(state, bid)
    for _ in range(52):
        state.apply_action(state.legal_actions()[0])


def test_a_nil_bid_is_offered_only_with_the_option() -> None:
    assert "bid nil" in labels(dealt())
    state = dealt(nil=False)
    assert "bid nil" not in labels(state)
    assert state.why_illegal("bid nil") == "nil bids are not allowed in this game"


def test_made_nils_and_a_contract_with_overtricks_score_for_the_side() -> None:
    state = dealt()
    bid_and_play_out(state, ["bid 5", "bid nil", "bid nil", "bid 3"])
    assert get_var(state, "tricks") == [0, 0, 0, 0]  # a new hand is dealt
    # seats 0 and 2: 10 x 5 + 8 bags, and 100 for 2's nil; seats 1 and 3: 100 for the nil, 3 set: -30
    assert get_var(state, "score") == [158, 70, 158, 70]
    assert get_var(state, "bags") == [8, 0, 8, 0]


def test_ten_bags_cost_a_hundred_and_the_rest_are_carried() -> None:
    state = dealt()
    for seat in (0, 2):
        set_var(state, "bags", 5, owner=seat)
    bid_and_play_out(state, ["bid 5", "bid nil", "bid nil", "bid 3"])
    assert get_var(state, "score") == [58, 70, 58, 70]  # 158 - 100
    assert get_var(state, "bags") == [3, 0, 3, 0]  # 5 + 8 - 10


def test_a_failed_nil_costs_a_hundred_and_its_tricks_are_bags_not_contract() -> None:
    state = dealt()
    bid_and_play_out(state, ["bid nil", "bid 1", "bid 1", "bid 1"])
    # seat 0's 13 tricks do not make 2's bid of 1 (set: -10); they are 13 bags (+13), and
    # ten of them cost 100: 13 - 10 - 100 - 100
    assert get_var(state, "score")[0] == -197
    assert get_var(state, "bags")[0] == 3


def test_spades_may_not_be_led_until_broken_unless_the_leader_holds_only_spades() -> None:
    spades = [r + "♠" for r in RANKS]
    hearts = [r + "♥" for r in RANKS]
    state = dealt(
        {0: spades[1:] + ["2♥"], 1: ["2♠"] + hearts[1:], 2: [r + "♦" for r in RANKS], 3: [r + "♣" for r in RANKS]}
    )
    for _ in range(4):
        act(state, "bid 3")
    assert state.why_illegal("play A♠") == "spades may not be led until one has been played to a trick"
    act(state, "play 2♥")
    act(state, "play A♥")
    act(state, "play 2♦")
    act(state, "play 2♣")
    assert state.current_player() == 1
    assert state.why_illegal("play 2♠") == "spades may not be led until one has been played to a trick"
    act(state, "play K♥")
    act(state, "play 3♦")
    act(state, "play 3♣")
    act(state, "play A♠")  # seat 0 has no heart left: he trumps, and spades are broken
    assert get_var(state, "broken") is True
    assert state.current_player() == 0
    assert state.why_illegal("play K♠") is None


def test_the_game_ends_when_a_side_reaches_the_goal() -> None:
    state = dealt(goal=150)
    bid_and_play_out(state, ["bid 5", "bid nil", "bid nil", "bid 3"])
    assert state.is_terminal()
    assert state.returns() == [1.0, -1.0, 1.0, -1.0]
