"""Scenario tests of le Jeu des Cartes Magiques (games/cartes_magiques.game).

The scenarios CM-T.. and rulings CM-A.. are those of the rules specification,
section 3 (Cartes Magiques). Unless a test says otherwise there are three players,
A, B and C (seats 0, 1, 2), playing clockwise with one deck and three jokers. The
tas and the other zones are written bottom to top: the last card is the top.
Every test builds its position with ruledsl.tools.scenario and checks concrete outcomes:
the legal actions, who acts next, the hands, the tas, the burned cards, the end.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Sequence
from itertools import combinations

import pytest

import ruledsl
from ruledsl import TERMINAL, IllegalActionError
from ruledsl.tools.scenario import arrange, cards_in, give_turn, set_var, stack_top
from tests.scenarios.support import act, deck, hand, labels

A, B, C, D = 0, 1, 2, 3
SUITS = "♠♥♦♣"
RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]

# ---------------------------------------------------------------------------- helpers


def load(players: int = 3, **options: object) -> ruledsl.Game:
    return ruledsl.load_game("cartes_magiques", players=players, options=options)


def place(state: ruledsl.GameState, specs: list[tuple[str, int | None, list[str]]]) -> None:
    """Make each (zone, owner, names) of ``specs`` hold exactly those cards, bottom to top.

    With several decks a name stands for several identical cards, and ``arrange`` always
    takes the first copy that is not already in the zone it fills; so the zones are first
    emptied, then filled in a cascade: each zone also takes, for a while, the copies the
    later zones need, which the later zones then take from it.
    """
    for zone, owner, _ in specs:
        arrange(state, zone, [], owner=owner)
    need = [Counter(names) for _, _, names in specs]
    for i, (zone, owner, names) in enumerate(specs):
        later: Counter[str] = Counter()
        for wanted in need[i + 1 :]:
            later.update(wanted)
        extra = [name for name in need[i] if name in later for _ in range(later[name])]
        arrange(state, zone, [*names, *extra], owner=owner)
    for zone, owner, names in specs:
        arrange(state, zone, names, owner=owner)
    for zone, owner, names in specs:
        assert cards_in(state, zone, owner) == names, (zone, owner)


def position(
    tas: Sequence[str] = (),
    hands: dict[int, list[str]] | None = None,
    faceup: dict[int, list[str]] | None = None,
    facedown: dict[int, list[str]] | None = None,
    *,
    players: int = 3,
    turn: int = A,
    direction: int = 1,
    deck_top: Sequence[str] = (),
    empty_deck: bool = False,
    log: bool = False,
    **options: object,
) -> ruledsl.GameState:
    """A position in the play phase: the tas, some players' zones, the draw pile's top cards.

    Zones not named keep the cards the deal gave them (less any card named elsewhere).
    ``deck_top`` lists the draw pile's top cards, the first on the very top. With
    ``empty_deck`` the draw pile is put out of play (into the burned cards), so that
    every card stays in the game.
    """
    state = load(players, **options).new_initial_state(seed=0, log=log)
    specs: list[tuple[str, int | None, list[str]]] = [("tas", None, list(tas))]
    for zone, spec in (("hand", hands), ("faceup", faceup), ("facedown", facedown)):
        for p, names in (spec or {}).items():
            specs.append((zone, p, list(names)))
    place(state, specs)
    if deck_top:
        stack_top(state, "deck", list(deck_top))
        assert deck(state)[::-1][: len(deck_top)] == list(deck_top)
        for zone, owner, names in specs:  # nothing was taken from the zones just filled
            assert cards_in(state, zone, owner) == names
    if empty_deck:
        arrange(state, "deck", [], rest="burned")
    for p in range(players):
        set_var(state, "drawn", [], owner=p)
    give_turn(state, turn, "play", direction=direction)
    state.take_log()
    return state


def faceup(state: ruledsl.GameState, p: int) -> list[str]:
    return cards_in(state, "faceup", owner=p)


def facedown(state: ruledsl.GameState, p: int) -> list[str]:
    return cards_in(state, "facedown", owner=p)


def tas(state: ruledsl.GameState) -> list[str]:
    return cards_in(state, "tas")


def burned(state: ruledsl.GameState) -> list[str]:
    return cards_in(state, "burned")


def plays(state: ruledsl.GameState) -> set[str]:
    """The cards (or groups) the current player may play: the 'play …' labels, less 'play '."""
    return {lab.removeprefix("play ") for lab in labels(state) if lab.startswith("play ")}


def window(state: ruledsl.GameState) -> dict[str, object] | None:
    """The open window, as the player it is offered to sees it (only he does)."""
    if state.is_terminal():
        return None
    return state.observation(state.current_player())["window"]


def everything(state: ruledsl.GameState) -> list[str]:
    names = deck(state) + tas(state) + burned(state)
    for p in range(state.num_players):
        names += hand(state, p) + faceup(state, p) + facedown(state, p)
    return names


def snapshot(state: ruledsl.GameState) -> tuple[object, ...]:
    return (
        state.current_player(),
        state.direction,
        window(state),
        tas(state),
        deck(state),
        burned(state),
        [(hand(state, q), faceup(state, q), facedown(state, q)) for q in range(state.num_players)],
    )


def action_from_elsewhere(
    state: ruledsl.GameState,
    label: str,
    *,
    tas_cards: list[str] | None = None,
    hand_cards: list[str] | None = None,
) -> ruledsl.Action:
    """The action labelled ``label``, taken from a copy of ``state`` changed so that it is legal there."""
    other = state.clone()
    if tas_cards is not None:
        arrange(other, "tas", tas_cards)
    if hand_cards is not None:
        arrange(other, "hand", hand_cards, owner=other.current_player())
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


def find_seed(game: ruledsl.Game, wanted, limit: int = 3000) -> int:
    """The first seed whose initial state satisfies ``wanted``."""
    for seed in range(limit):
        if wanted(game.new_initial_state(seed=seed)):
            return seed
    raise AssertionError("no seed found")


def rank(name: str) -> str:
    return "Joker" if name == "Joker" else name[:-1]


def candidates(state: ruledsl.GameState, p: int) -> list[str]:
    """The cards (b) and (c) of a player before the choice of face-up cards."""
    return faceup(state, p) + hand(state, p)


# ---------------------------------------------------------------------------- CM-T scenarios


def test_cm_t01_rank_order():
    """CM-T01 Rank order.
    Pre: top K. Act: play A; play Q; play K. Exp: A legal; Q rejected; K legal (equal)."""
    state = position(["5♣", "K♠"], {A: ["A♦", "Q♦", "K♦", "4♣"], B: ["J♠", "J♦", "Q♠"], C: ["4♥", "5♥", "6♥"]})
    assert plays(state) == {"A♦", "K♦"}
    queen = action_from_elsewhere(state, "play Q♦", tas_cards=["5♣"])
    assert_rejected(state, "play Q♦", queen)
    four = action_from_elsewhere(state, "play 4♣", tas_cards=[])
    assert_rejected(state, "play 4♣", four)
    ace = state.clone()
    act(ace, "play A♦")
    assert tas(ace) == ["5♣", "K♠", "A♦"]
    assert sorted(hand(ace, A)) == ["4♣", "K♦", "Q♦"]
    assert ace.current_player() == B
    king = state.clone()
    act(king, "play K♦")
    assert tas(king) == ["5♣", "K♠", "K♦"]
    assert king.current_player() == B


def test_cm_t02_four_is_the_lowest():
    """CM-T02 4 is the lowest.
    Pre: top 5. Act: play 4. Exp: rejected. On an empty tas a 4 is legal."""
    hands = {A: ["4♦", "5♦", "9♦", "K♦"], B: ["J♠", "J♦", "Q♠"], C: ["4♥", "5♥", "6♥"]}
    state = position(["5♠"], hands)
    assert plays(state) == {"5♦", "9♦", "K♦"}
    four = action_from_elsewhere(state, "play 4♦", tas_cards=[])
    assert_rejected(state, "play 4♦", four)
    state = position([], hands)
    assert plays(state) == {"4♦", "5♦", "9♦", "K♦"}
    act(state, "play 4♦")
    assert tas(state) == ["4♦"]
    assert state.current_player() == B


def test_cm_t03_same_value_groups():
    """CM-T03 Same-value groups.
    Pre: top 9. Act: play J, J; play J, Q. Exp: legal; rejected."""
    state = position(
        ["9♠"], {A: ["J♠", "J♦", "Q♣", "4♣"], B: ["5♠", "6♠", "8♠"], C: ["4♥", "5♥", "6♥"]}, deck_top=["K♥"]
    )
    assert plays(state) == {"J♠ J♦", "J♠", "J♦", "Q♣"}
    for mixed in ("play J♠ Q♣", "play J♦ Q♣", "play J♠ J♦ Q♣"):
        assert mixed not in labels(state)
        with pytest.raises(IllegalActionError):
            state.action_from_string(mixed)
    act(state, "play J♠ J♦")
    assert tas(state) == ["9♠", "J♠", "J♦"]
    assert hand(state, A) == ["Q♣", "4♣", "K♥"]  # two left: one drawn
    assert state.current_player() == B


def test_cm_t04_the_two_resets():
    """CM-T04 The 2 resets.
    Pre: top A; A plays 2. Act: B plays 4. Exp: legal; the tas keeps all its cards."""
    state = position(["9♠", "A♠"], {A: ["2♦", "5♦", "9♦", "K♦"], B: ["4♣", "5♣", "Q♣"], C: ["4♥", "5♥", "6♥"]})
    assert "2♦" in plays(state)
    act(state, "play 2♦")
    assert state.current_player() == B  # CM-A9: no extra turn for A
    assert plays(state) == {"4♣", "5♣", "Q♣"}
    act(state, "play 4♣")
    assert tas(state) == ["9♠", "A♠", "2♦", "4♣"]
    assert burned(state) == []
    assert state.current_player() == C


def test_cm_t05_the_three_is_transparent():
    """CM-T05 The 3 is transparent.
    Pre: tas [Q, 3]. Act: B plays J; B plays Q. Exp: J rejected; Q legal."""
    state = position(["Q♠", "3♠"], {A: ["5♦", "6♦", "8♦"], B: ["J♣", "Q♣", "K♣", "4♣"], C: ["4♥", "5♥", "6♥"]}, turn=B)
    assert plays(state) == {"Q♣", "K♣"}
    jack = action_from_elsewhere(state, "play J♣", tas_cards=["9♠"])
    assert_rejected(state, "play J♣", jack)
    act(state, "play Q♣")
    assert tas(state) == ["Q♠", "3♠", "Q♣"]
    assert state.current_player() == C


def test_cm_t07_the_ten_burns():
    """CM-T07 The 10 burns.
    Pre: tas [5, 8, K]; A holds {10, 4, 9, 6}. Act: A plays 10.
    Exp: tas and the 10 go out of play; A must play again on the empty tas (e.g. the 4);
    A tops up to 3 if needed; then B plays on A's card."""
    state = position(
        ["5♣", "8♠", "K♦"],
        {A: ["10♥", "4♠", "9♣", "6♦"], B: ["J♠", "J♦", "Q♠"], C: ["A♣", "5♦", "6♠"]},
        deck_top=["7♣", "8♦"],
    )
    deck_size = len(deck(state))
    act(state, "play 10♥")
    assert tas(state) == []
    assert burned(state) == ["5♣", "8♠", "K♦", "10♥"]
    assert hand(state, A) == ["4♠", "9♣", "6♦"]  # three left: no draw
    assert len(deck(state)) == deck_size
    assert state.current_player() == A
    assert window(state) is None
    assert set(labels(state)) == {"play 4♠", "play 9♣", "play 6♦", "try la Chance"}  # no pass, no pickup
    act(state, "play 4♠")
    assert tas(state) == ["4♠"]
    assert hand(state, A) == ["9♣", "6♦", "7♣"]  # topped up to 3
    assert state.current_player() == B
    assert plays(state) == {"J♠ J♦", "J♠", "J♦", "Q♠"}


def test_cm_t08_four_of_a_kind_flushes_with_one_deck():
    """CM-T08 Four of a kind flushes (one deck).
    Pre: tas top run [8, 8, 8]. Act: A plays 8. Exp: flush (tas out of play); A plays again."""
    state = position(
        ["5♣", "8♠", "8♥", "8♦"], {A: ["8♣", "4♠", "9♣", "6♦"], B: ["J♠", "J♦", "Q♠"], C: ["A♣", "5♦", "6♠"]}
    )
    act(state, "play 8♣")
    assert tas(state) == []
    assert burned(state) == ["5♣", "8♠", "8♥", "8♦", "8♣"]
    assert state.current_player() == A
    assert plays(state) == {"4♠", "9♣", "6♦"}
    act(state, "play 9♣")
    assert tas(state) == ["9♣"]
    assert state.current_player() == B


def test_cm_t09_flush_across_turns():
    """CM-T09 Flush across turns.
    Pre: empty tas. Act: A plays 6, 6; B plays 6, 6. Exp: B triggers the flush and plays again."""
    state = position(
        [],
        {A: ["6♠", "6♣", "9♣"], B: ["6♥", "6♦", "Q♠"], C: ["4♥", "5♥", "K♥"]},
        deck_top=["J♠", "J♦", "J♣", "J♥"],
    )
    act(state, "play 6♠ 6♣")
    assert tas(state) == ["6♠", "6♣"]
    assert sorted(hand(state, A)) == ["9♣", "J♠", "J♦"]
    # B could also complete the flush at once (CM-A17); he lets it pass and plays it in his turn.
    assert window(state) == {"name": "cut", "player": B}
    assert labels(state) == ["cut in with 6♥ 6♦", "let it pass"]
    in_turn = state.clone()
    act(in_turn, "let it pass")
    assert in_turn.current_player() == B and window(in_turn) is None
    act(in_turn, "play 6♥ 6♦")
    cut = state.clone()
    act(cut, "cut in with 6♥ 6♦")
    for after in (in_turn, cut):
        assert tas(after) == []
        assert burned(after) == ["6♠", "6♣", "6♥", "6♦"]
        assert after.current_player() == B
        assert sorted(hand(after, B)) == ["J♣", "J♥", "Q♠"]  # topped up before playing again
        assert plays(after) == {"Q♠", "J♥ J♣", "J♥", "J♣"}


def test_cm_t10_two_decks_need_six():
    """CM-T10 Two decks need six.
    Pre: 4 players, 2 decks; top run [8, 8, 8]. Act: A plays one 8. Exp: run 4, no flush.
    Then B plays 8, 8 → run 6 → flush; B replays."""
    state = position(
        ["5♣", "8♠", "8♥", "8♦"],
        {A: ["8♣", "4♠", "K♣", "Q♣"], B: ["8♠", "8♦", "Q♠"], C: ["4♥", "5♥", "6♥"], D: ["4♦", "5♦", "6♦"]},
        players=4,
        deck_top=["J♠", "J♦"],
    )
    assert state.game.options["decks"] == 2 and state.game.options["flush_size"] == 6
    act(state, "play 8♣")
    assert tas(state) == ["5♣", "8♠", "8♥", "8♦", "8♣"]
    assert burned(state) == []
    assert window(state) == {"name": "cut", "player": B}  # B's two 8s would complete the flush
    act(state, "let it pass")
    assert state.current_player() == B
    act(state, "play 8♠ 8♦")
    assert tas(state) == []
    assert burned(state) == ["5♣", "8♠", "8♥", "8♦", "8♣", "8♠", "8♦"]
    assert state.current_player() == B
    assert sorted(hand(state, B)) == ["J♠", "J♦", "Q♠"]


def test_cm_t12_the_seven_rule():
    """CM-T12 The 7 rule.
    Pre: top 7. Act: next plays 4 / 6 / 7 / 8 / K / 2 / 3 / 10 / Joker.
    Exp: 4, 6, 7 legal; 8 and K rejected; all magic cards legal."""
    state = position(
        ["5♣", "7♣"],
        {
            A: ["9♦", "J♦", "Q♦"],
            B: ["4♠", "6♠", "7♥", "8♠", "K♠", "2♠", "3♠", "10♠", "Joker"],
            C: ["4♥", "5♥", "6♥"],
        },
        turn=B,
    )
    assert plays(state) == {"4♠", "6♠", "7♥", "2♠", "3♠", "10♠", "Joker"}
    for high in ("play 8♠", "play K♠"):
        assert_rejected(state, high, action_from_elsewhere(state, high, tas_cards=["5♣"]))
    for label, top in (("play 4♠", "4♠"), ("play 6♠", "6♠"), ("play 7♥", "7♥"), ("play 2♠", "2♠"), ("play 3♠", "3♠")):
        after = state.clone()
        act(after, label)
        assert tas(after) == ["5♣", "7♣", top]
        assert after.current_player() == C
    after = state.clone()
    act(after, "play Joker")
    assert tas(after) == ["5♣", "7♣", "Joker"]
    assert after.direction == -1 and after.current_player() == A
    after = state.clone()
    act(after, "play 10♠")
    assert tas(after) == [] and after.current_player() == B


def test_cm_t13_after_seven_then_five_play_is_normal():
    """CM-T13 After 7 then 5, play is normal again.
    Pre: tas [7, 5]. Act: play 4; play 6. Exp: 4 rejected; 6 legal."""
    state = position(["7♠", "5♠"], {A: ["9♦", "J♦", "Q♦"], B: ["4♣", "6♣", "9♣"], C: ["4♥", "5♥", "6♥"]}, turn=B)
    assert plays(state) == {"6♣", "9♣"}  # 9: the ≤ 7 limit is over
    assert_rejected(state, "play 4♣", action_from_elsewhere(state, "play 4♣", tas_cards=["7♠"]))
    act(state, "play 6♣")
    assert tas(state) == ["7♠", "5♠", "6♣"]
    assert state.current_player() == C


def test_cm_t14_where_a_seven_may_go():
    """CM-T14 Where a 7 may go.
    Pre: top 9 / top 2 / top 6 / empty tas. Act: play 7. Exp: rejected / legal / legal / legal."""
    hands = {A: ["7♦", "A♦", "Q♦"], B: ["4♣", "6♣", "9♣"], C: ["4♥", "5♥", "6♥"]}
    state = position(["9♠"], hands)
    assert plays(state) == {"A♦", "Q♦"}
    assert_rejected(state, "play 7♦", action_from_elsewhere(state, "play 7♦", tas_cards=["6♠"]))
    for pile in (["9♠", "2♠"], ["6♠"], []):
        state = position(pile, hands)
        assert "7♦" in plays(state), pile
        act(state, "play 7♦")
        assert tas(state) == [*pile, "7♦"]
        assert state.current_player() == B


def test_cm_t15_seven_on_seven():
    """CM-T15 7 on 7.
    Pre: tas [7, 7]. Act: play 9. Exp: rejected (≤ 7 still applies)."""
    state = position(["7♠", "7♥"], {A: ["9♦", "J♦", "Q♦"], B: ["9♣", "7♣", "5♣", "A♣"], C: ["4♥", "5♥", "6♥"]}, turn=B)
    assert plays(state) == {"7♣", "5♣"}
    assert_rejected(state, "play 9♣", action_from_elsewhere(state, "play 9♣", tas_cards=["5♠"]))
    assert_rejected(state, "play A♣", action_from_elsewhere(state, "play A♣", tas_cards=["5♠"]))


def test_cm_t16_joker_reversal_with_three_players():
    """CM-T16 Joker reversal with 3 players.
    Pre: A plays Q; B plays Joker. Exp: direction becomes counter-clockwise; next is A.
    A may play K, Ace or magic; Q is rejected (same value); if A cannot, A picks up.
    If A plays K, the next player is C (counter-clockwise from A)."""
    state = position(
        ["9♠"],
        {A: ["Q♠", "K♠", "Q♥", "A♦", "2♣"], B: ["Joker", "5♦", "6♦"], C: ["4♠", "5♠", "6♠"]},
        deck_top=["8♥"],
    )
    act(state, "play Q♠")
    assert state.current_player() == B
    act(state, "play Joker")
    assert tas(state) == ["9♠", "Q♠", "Joker"]
    assert state.direction == -1
    assert state.observation(C)["direction"] == "counterclockwise"
    assert state.current_player() == A
    assert plays(state) == {"K♠", "A♦", "2♣"}
    queen = action_from_elsewhere(state, "play Q♥", tas_cards=["9♠"])
    assert_rejected(state, "play Q♥", queen)
    act(state, "play K♠")
    assert state.current_player() == C
    assert state.direction == -1
    # If A cannot go beyond the Queen, he picks up the tas; then C plays (counter-clockwise).
    state = position(
        ["9♠", "Q♠", "Joker"],
        {A: ["Q♥", "9♣", "4♦"], B: ["5♦", "6♦", "8♥"], C: ["4♠", "5♠", "6♠"]},
        direction=-1,
    )
    assert set(labels(state)) == {"try la Chance", "pick up the tas"}
    act(state, "pick up the tas")
    assert sorted(hand(state, A)) == sorted(["Q♥", "9♣", "4♦", "9♠", "Q♠", "Joker"])
    assert tas(state) == []
    assert state.current_player() == C


@pytest.mark.parametrize("players, decks, jokers", [(2, 1, 0), (3, 1, 3), (4, 2, 4), (5, 2, 5), (6, 3, 6)])
def test_cm_t18_deck_composition(players, decks, jokers):
    """CM-T18 Deck composition.
    Exp: 2 players → 52 cards, 0 jokers; 3 → 52 + 3; 4 → 104 + 4; 5 → 104 + 5; 6 → 156 + 6."""
    state = load(players).new_initial_state(seed=1)
    cards = Counter(everything(state))
    assert sum(cards.values()) == 52 * decks + jokers
    assert cards["Joker"] == jokers
    assert {name: n for name, n in cards.items() if name != "Joker"} == {r + s: decks for r in RANKS for s in SUITS}


def test_cm_t19_forced_pickup():
    """CM-T19 Forced pickup.
    Pre: top A; B's hand {5, 9, K}, no magic; B does not try la Chance. Act: B's turn.
    Exp: B picks up the whole tas; C then starts a new tas with any card."""
    state = position(["9♠", "A♠"], {A: ["9♦", "J♦", "Q♦"], B: ["5♣", "9♣", "K♣"], C: ["4♥", "5♥", "K♥"]}, turn=B)
    assert set(labels(state)) == {"try la Chance", "pick up the tas"}
    deck_before = deck(state)
    act(state, "pick up the tas")
    assert hand(state, B) == ["5♣", "9♣", "K♣", "9♠", "A♠"]
    assert tas(state) == []
    assert deck(state) == deck_before
    assert state.current_player() == C
    assert plays(state) == {"4♥", "5♥", "K♥"}
    act(state, "play 4♥")
    assert tas(state) == ["4♥"]
    assert state.current_player() == A


def test_cm_t20_la_chance_succeeds():
    """CM-T20 La Chance succeeds.
    Pre: top 9; draw-pile top J; B holds 3 cards. Act: B tries la Chance.
    Exp: the J is shown and laid on the tas; B's hand is unchanged (3 cards); no draw."""
    state = position(
        ["9♠"],
        {A: ["9♦", "5♦", "Q♦"], B: ["4♣", "5♣", "6♣"], C: ["4♥", "5♥", "K♥"]},
        turn=B,
        deck_top=["J♦", "Q♣"],
        log=True,
    )
    deck_size = len(deck(state))
    act(state, "try la Chance")
    assert tas(state) == ["9♠", "J♦"]
    assert hand(state, B) == ["4♣", "5♣", "6♣"]
    assert len(deck(state)) == deck_size - 1
    assert deck(state)[-1] == "Q♣"
    assert "revealed: J♦" in state.take_log()
    assert state.current_player() == C
    assert plays(state) == {"K♥"}


def test_cm_t21_la_chance_fails():
    """CM-T21 La Chance fails.
    Pre: top 9; draw-pile top 5. Act: B tries la Chance.
    Exp: B takes the 5 plus the whole tas into hand; the turn passes."""
    state = position(
        ["8♠", "9♠"],
        {A: ["9♦", "5♦", "Q♦"], B: ["4♣", "5♣", "6♣"], C: ["4♥", "5♥", "K♥"]},
        turn=B,
        deck_top=["5♠", "Q♣"],
        log=True,
    )
    deck_size = len(deck(state))
    act(state, "try la Chance")
    assert sorted(hand(state, B)) == sorted(["4♣", "5♣", "6♣", "5♠", "8♠", "9♠"])
    assert tas(state) == []
    assert len(deck(state)) == deck_size - 1
    assert "revealed: 5♠" in state.take_log()
    assert state.current_player() == C
    assert plays(state) == {"4♥", "5♥", "K♥"}


def test_cm_t22_la_chance_under_a_seven():
    """CM-T22 La Chance under a 7.
    Pre: top 7; draw-pile top 6 (case 1) or 9 (case 2). Exp: case 1 succeeds; case 2 fails."""
    hands = {A: ["9♦", "5♦", "Q♦"], B: ["4♣", "5♣", "6♣"], C: ["4♥", "5♥", "K♥"]}
    state = position(["7♠"], hands, turn=B, deck_top=["6♠"])
    act(state, "try la Chance")
    assert tas(state) == ["7♠", "6♠"]
    assert hand(state, B) == ["4♣", "5♣", "6♣"]
    assert state.current_player() == C
    state = position(["7♠"], hands, turn=B, deck_top=["9♠"])
    act(state, "try la Chance")
    assert tas(state) == []
    assert sorted(hand(state, B)) == sorted(["4♣", "5♣", "6♣", "9♠", "7♠"])
    assert state.current_player() == C


def test_cm_t23_topping_up_to_three():
    """CM-T23 Topping up to 3.
    Pre: B holds 4 cards and plays a pair. Exp: B has 2 and draws 1 → 3.
    Pre: B holds 5 and plays 1. Exp: 4 cards; no draw."""
    others = {A: ["9♦", "5♦", "Q♦"], C: ["4♥", "5♥", "K♥"]}
    state = position(["5♠"], {**others, B: ["9♣", "9♠", "K♣", "4♦"]}, turn=B, deck_top=["J♦", "Q♣"])
    deck_size = len(deck(state))
    act(state, "play 9♠ 9♣")
    assert hand(state, B) == ["K♣", "4♦", "J♦"]
    assert len(deck(state)) == deck_size - 1
    state = position(["5♠"], {**others, B: ["9♣", "9♠", "K♣", "4♦", "6♦"]}, turn=B, deck_top=["J♦", "Q♣"])
    deck_before = deck(state)
    act(state, "play K♣")
    assert hand(state, B) == ["9♣", "9♠", "4♦", "6♦"]
    assert deck(state) == deck_before


def test_cm_t24_cut_with_an_identical_card():
    """CM-T24 Cut with an identical card.
    Pre: 4 players A → B → C → D, 2 decks; A plays 9♥; B is next; C holds 9♥. Act: C cuts.
    Exp: legal; the 9♥ goes on the tas; C tops up; next turn is D; B's turn is skipped."""
    state = position(
        ["5♣"],
        {A: ["9♥", "4♠", "K♣", "Q♣"], B: ["J♠", "J♦", "Q♠"], C: ["9♥", "4♥", "5♥"], D: ["A♠", "A♦", "K♦"]},
        players=4,
        deck_top=["J♣"],
    )
    assert state.game.options["cuts"] is True
    act(state, "play 9♥")
    assert window(state) == {"name": "cut", "player": C}  # B has nothing to cut with: C is asked
    # Only C knows he is asked: the others see B's turn coming, and no window.
    for q in (A, B, D):
        seen = state.observation(q)
        assert (seen["window"], seen["current_player"]) == (None, B)
    assert labels(state) == ["cut in with 9♥", "let it pass"]
    act(state, "cut in with 9♥")
    assert tas(state) == ["5♣", "9♥", "9♥"]
    assert hand(state, C) == ["4♥", "5♥", "J♣"]
    assert hand(state, B) == ["J♠", "J♦", "Q♠"]
    assert state.current_player() == D
    assert window(state) is None
    assert plays(state) == {"A♠ A♦", "A♠", "A♦", "K♦"}


def test_letting_a_cut_pass_is_seen_only_by_the_player_who_could_cut():
    """Being offered a cut tells what one holds: a player who lets it pass is not shown doing
    so to anyone else, in the views or in the transcript."""
    state = position(
        ["5♣"],
        {A: ["9♥", "4♠", "K♣", "Q♣"], B: ["J♠", "J♦", "Q♠"], C: ["9♥", "4♥", "5♥"], D: ["A♠", "A♦", "K♦"]},
        players=4,
        deck_top=["J♣"],
    )
    act(state, "play 9♥")
    before = {q: state.observation(q) for q in (A, B, D)}
    act(state, "let it pass")
    assert state.current_player() == B and window(state) is None
    assert state.describe_last(C) == "let it pass"
    for viewer in (A, B, D, None):
        assert state.describe_last(viewer) == ""
    for q in (A, B, D):  # nothing they see changed: C's pass never happened for them
        after = state.observation(q)
        assert {k: v for k, v in after.items() if k != "legal_actions"} == {
            k: v for k, v in before[q].items() if k != "legal_actions"
        }


def test_cm_t25_no_cut_with_a_different_suit_or_one_deck():
    """CM-T25 No cut with a different suit, or with one deck.
    Pre: as in T24, but C holds 9♠. Exp: the cut is rejected.
    Pre: 3 players (1 deck). Exp: the cut action is never offered."""
    state = position(
        ["5♣"],
        {A: ["9♥", "4♠", "K♣", "Q♣"], B: ["J♠", "J♦", "Q♠"], C: ["9♠", "4♥", "5♥"], D: ["A♠", "A♦", "K♦"]},
        players=4,
    )
    elsewhere = position(
        ["5♣"],
        {A: ["9♠", "4♠", "K♣", "Q♣"], B: ["J♠", "J♦", "Q♠"], C: ["9♠", "4♥", "5♥"], D: ["A♠", "A♦", "K♦"]},
        players=4,
    )
    act(elsewhere, "play 9♠")
    cut = elsewhere.action_from_string("cut in with 9♠")
    act(state, "play 9♥")
    assert window(state) is None
    assert state.current_player() == B
    assert_rejected(state, "cut in with 9♠", cut)
    # One deck: no two cards are identical; the turn goes on to B.
    state = position(["5♣"], {A: ["9♥", "4♠", "K♣", "Q♣"], B: ["J♠", "J♦", "Q♠"], C: ["9♠", "4♥", "5♥"]})
    assert state.game.options["cuts"] is False
    act(state, "play 9♥")
    assert window(state) is None
    assert state.current_player() == B
    assert not any(lab.startswith("cut in") for lab in labels(state))
    # With the option cuts off, not even an identical card cuts in (4 players, 2 decks).
    state = position(
        ["5♣"],
        {A: ["9♥", "4♠", "K♣", "Q♣"], B: ["J♠", "J♦", "Q♠"], C: ["9♥", "4♥", "5♥"], D: ["A♠", "A♦", "K♦"]},
        players=4,
        cuts=False,
    )
    act(state, "play 9♥")
    assert window(state) is None
    assert state.current_player() == B


def test_cm_t25_three_players_offer_only_flush_cuts():
    """CM-T25 with CM-A17: in random three-player games every cut offered completes a flush
    (never an identical-card cut); with flush_cuts off no cut is ever offered."""
    offered = 0
    for flush_cuts in (True, False):
        game = load(3, flush_cuts=flush_cuts)
        for seed in range(4):
            state = game.new_initial_state(seed=seed)
            rng = random.Random(seed)
            for _ in range(600):
                if state.is_terminal():
                    break
                cuts = [lab for lab in labels(state) if lab.startswith("cut in with ")]
                if cuts:
                    assert flush_cuts
                    top_rank = rank(tas(state)[-1])
                    run = 0
                    for name in reversed(tas(state)):
                        if rank(name) != top_rank:
                            break
                        run += 1
                    for lab in cuts:
                        cards = lab.removeprefix("cut in with ").split()
                        assert {rank(c) for c in cards} == {top_rank} and run + len(cards) >= 4, (tas(state), lab)
                        offered += 1
                state.apply_action(rng.choice(state.legal_actions()))
    assert offered > 0


def test_cm_t27_completing_the_hand():
    """CM-T27 Completing the hand.
    Pre: A holds {6, 9, K}; top 5. Act: A plays the 6 (hand {9, K}); A's top-up draw is a 6;
    before B acts, A adds that 6 to the tas.
    Exp: legal; tas top run [6, 6]; A draws one more card to reach 3 in hand."""
    state = position(
        ["5♣"],
        {A: ["6♠", "9♣", "K♣"], B: ["J♠", "J♦", "Q♠"], C: ["8♣", "4♥", "5♥"]},
        deck_top=["6♥", "Q♦", "4♣"],
    )
    act(state, "play 6♠")
    assert hand(state, A) == ["9♣", "K♣", "6♥"]
    assert state.current_player() == A
    assert window(state) == {"name": "complete", "player": A}
    assert labels(state) == ["add 6♥ to the tas", "keep the cards drawn"]
    act(state, "add 6♥ to the tas")
    assert tas(state) == ["5♣", "6♠", "6♥"]
    assert hand(state, A) == ["9♣", "K♣", "Q♦"]
    assert state.current_player() == B
    assert window(state) is None


def test_cm_t28_last_hand_card_with_matching_face_up_cards():
    """CM-T28 Last hand card with matching face-up cards.
    Pre: draw pile empty; A's hand {Q}; face-up {Q, 5, 5}; top 9 (or empty tas).
    Act: A plays Q (hand) + Q (face-up). Exp: legal; A's hand is empty; face-up {5, 5} remain."""
    for pile in (["9♠"], []):
        state = position(
            pile,
            {A: ["Q♠"], B: ["J♠", "J♦", "K♠"], C: ["8♣", "4♥", "5♥"]},
            {A: ["Q♥", "5♠", "5♦"]},
            {A: ["4♣", "6♣", "7♣"]},
            empty_deck=True,
        )
        assert "play Q♠ and Q♥ from the face-up cards" in labels(state)
        act(state, "play Q♠ and Q♥ from the face-up cards")
        assert tas(state) == [*pile, "Q♠", "Q♥"]
        assert hand(state, A) == []
        assert faceup(state, A) == ["5♠", "5♦"]
        assert facedown(state, A) == ["4♣", "6♣", "7♣"]
        assert state.current_player() == B


def test_cm_t29_no_face_up_play_before_the_draw_pile_is_empty():
    """CM-T29 No face-up play before the draw pile is empty.
    Pre: draw pile not empty; A's hand is empty after playing. Act: A tries to play a face-up card.
    Exp: rejected; A must first top up from the draw pile."""
    state = position(
        ["9♠"],
        {A: ["Q♠", "Q♥", "Q♦"], B: ["4♦", "5♦", "6♦"], C: ["4♥", "5♥", "6♥"]},
        {A: ["K♥", "5♠", "A♠"]},
        deck_top=["4♣", "6♣", "8♣", "J♣", "J♠"],
    )
    act(state, "play Q♠ Q♥ Q♦")
    assert hand(state, A) == ["8♣", "6♣", "4♣"]  # emptied, then topped up from the draw pile
    assert faceup(state, A) == ["K♥", "5♠", "A♠"]
    act(state, "pick up the tas")  # B
    act(state, "play 4♥")  # C
    assert state.current_player() == A
    assert plays(state) == {"8♣", "6♣", "4♣"}
    # Even with an empty hand, the face-up cards wait while the draw pile lasts.
    state = position(["9♠"], {A: [], B: ["4♦", "5♦", "6♦"], C: ["4♥", "5♥", "6♥"]}, {A: ["K♥", "5♠", "A♠"]})
    assert plays(state) == set()
    king = action_from_elsewhere(state, "play K♥", hand_cards=["K♥"])
    assert_rejected(state, "play K♥", king)


def test_cm_t31_hidden_face_down_failure():
    """CM-T31 Hidden face-down failure.
    Pre: A's hand and face-up cards are empty; top K; A's face-down cards are unknown.
    Act: A flips one; it is a 4. Exp: A takes the 4 and the tas; the 4's identity is not
    revealed to B or C; next turn A plays from hand."""
    state = position(
        ["K♠"],
        {A: [], B: ["J♠", "J♦", "Q♠"], C: ["8♣", "4♥", "5♥"]},
        {A: []},
        {A: ["A♣", "7♣", "4♦"]},
        empty_deck=True,
        log=True,
    )
    assert labels(state) == ["turn over face-down card 1", "turn over face-down card 2", "turn over face-down card 3"]
    act(state, "turn over face-down card 1")  # the top one
    assert sorted(hand(state, A)) == ["4♦", "K♠"]
    assert facedown(state, A) == ["A♣", "7♣"]
    assert tas(state) == []
    assert state.current_player() == B
    for viewer in (B, C):
        obs = state.observation(viewer)
        assert obs["zones"]["hand"][A] == {"size": 2}
        assert "4♦" not in json.dumps(obs, ensure_ascii=False)
        assert "4♦" not in state.describe_last(viewer)
    assert "4♦" not in state.describe_last(None)
    assert not any("4♦" in line for line in state.take_log())
    assert sorted(state.observation(A)["zones"]["hand"][A]["cards"]) == ["4♦", "K♠"]
    act(state, "play J♠ J♦")
    act(state, "pick up the tas")
    assert state.current_player() == A
    assert labels(state) == ["play 4♦", "play K♠"]


def test_cm_t32_face_down_success():
    """CM-T32 Face-down success.
    Pre: as T31, but the flipped card is an Ace. Exp: it is played on the K."""
    state = position(
        ["K♠"],
        {A: [], B: ["J♠", "J♦", "Q♠"], C: ["8♣", "4♥", "5♥"]},
        {A: []},
        {A: ["4♦", "7♣", "A♣"]},
        empty_deck=True,
        log=True,
    )
    state.take_log()
    act(state, "turn over face-down card 1")
    assert state.take_log() == ["revealed: A♣"]  # everyone learns the card played blind
    assert tas(state) == ["K♠", "A♣"]
    assert hand(state, A) == []
    assert facedown(state, A) == ["4♦", "7♣"]
    assert state.current_player() == B
    assert all(state.observation(q)["zones"]["tas"]["cards"] == ["K♠", "A♣"] for q in range(3))


def test_cm_t33_end_winner_and_loser():
    """CM-T33 End: winner and loser.
    Pre: 3 players. Act: A empties hand, face-up and face-down cards first; later B does too.
    Exp: A is the winner; play continued between B and C; when B goes out, C is the loser
    and the game ends."""
    state = position(
        ["Q♠"],
        {A: [], B: ["A♠", "4♣"], C: ["5♦", "6♦"]},
        {A: [], B: [], C: ["7♦"]},
        {A: ["K♠"], B: [], C: ["8♦"]},
        empty_deck=True,
    )
    act(state, "turn over face-down card 1")
    assert state.out == [True, False, False]
    assert state.finished == [A]
    assert not state.is_terminal()
    assert state.returns() == [0.0, 0.0, 0.0]
    assert state.current_player() == B
    act(state, "play A♠")
    assert state.current_player() == C
    act(state, "pick up the tas")
    assert state.current_player() == B  # A is skipped
    act(state, "play 4♣")
    assert state.is_terminal()
    assert state.current_player() == TERMINAL
    assert state.finished == [A, B, C]
    assert state.ranking() == [[A], [B], [C]]
    assert state.returns() == [1.0, 0.0, -1.0]
    assert state.legal_actions() == []


def test_cm_t34_opening_call_who_has_a_four_a_five():
    """CM-T34 Opening call "Who has a 4? a 5?".
    Pre: after the deal no player has a 4 among (b)+(c); B and C hold 5s; B comes before C
    in deal order. Act: opening. Exp: B opens with a 5."""
    game = load(3)

    def wanted(st):
        ranks = [[rank(c) for c in candidates(st, p)] for p in range(3)]
        return all("4" not in r for r in ranks) and "5" not in ranks[A] and "5" in ranks[B] and "5" in ranks[C]

    state = game.new_initial_state(seed=find_seed(game, wanted))
    assert state.phase_name() == "opening"
    assert state.current_player() == B
    fives = [c for c in candidates(state, B) if rank(c) == "5"]
    assert all(lab.startswith("open with 5") for lab in labels(state))
    assert {lab for lab in labels(state) if len(lab.split()) == 3} == {f"open with {c}" for c in fives}
    assert len(labels(state)) == 2 ** len(fives) - 1  # one or more of his 5s
    act(state, labels(state)[0])
    assert [rank(c) for c in tas(state)] == ["5"]
    assert state.phase_name() == "following"
    assert state.current_player() == C  # B's left neighbour may follow


def test_cm_t36_magic_beats_the_seven_limit():
    """CM-T36 Magic beats the 7 limit.
    Pre: top 7. Act: play 10. Exp: legal; burns; the player replays."""
    state = position(["9♠", "7♠"], {A: ["10♦", "K♦", "4♦", "5♦"], B: ["J♠", "J♦", "Q♠"], C: ["8♣", "4♥", "5♥"]})
    assert plays(state) == {"10♦", "4♦", "5♦"}
    act(state, "play 10♦")
    assert tas(state) == []
    assert burned(state) == ["9♠", "7♠", "10♦"]
    assert state.current_player() == A
    assert plays(state) == {"K♦", "4♦", "5♦"}  # the K is free again on the new tas


def test_cm_t37_joker_on_an_empty_tas():
    """CM-T37 Joker on an empty tas.
    Pre: empty tas; A plays a Joker. Exp: direction reversed; the next player may play any card."""
    state = position([], {A: ["Joker", "5♦", "6♦"], B: ["J♠", "J♦", "Q♠"], C: ["4♠", "9♠", "A♠"]})
    act(state, "play Joker")
    assert state.direction == -1
    assert state.current_player() == C
    assert plays(state) == {"4♠", "9♠", "A♠"}


# ---------------------------------------------------------------------------- rulings not covered above


@pytest.mark.parametrize("players", range(2, 9))
def test_cm_a1_a2_a27_deck_composition_for_every_player_count(players):
    """CM-A1, CM-A2, CM-A27: max(1, players // 2) decks; no joker with two players, else one per
    player; three face-down, three face-up and three hand cards each; the rest is the draw pile."""
    decks = max(1, players // 2)
    jokers = 0 if players == 2 else players
    game = load(players)
    assert game.options["decks"] == decks
    assert game.options["jokers"] == jokers
    assert game.options["cuts"] is (decks >= 2)
    state = game.new_initial_state(seed=2)
    cards = Counter(everything(state))
    assert cards["Joker"] == jokers
    assert {name: n for name, n in cards.items() if name != "Joker"} == {r + s: decks for r in RANKS for s in SUITS}
    for p in range(players):
        assert (len(facedown(state, p)), len(faceup(state, p)), len(hand(state, p))) == (3, 3, 3)
    assert len(deck(state)) == 52 * decks + jokers - 9 * players
    assert tas(state) == [] and burned(state) == []
    if players == 2:
        with pytest.raises(ValueError):
            arrange(state, "tas", ["Joker"])


def test_cm_a3_flush_size():
    """CM-A3: flush_size is 4 with one deck, 6 with two, 8 with three (2·decks + 2), and a parameter."""
    assert [load(n).options["flush_size"] for n in (2, 3, 4, 5, 6, 7)] == [4, 4, 6, 6, 8, 8]
    assert load(3, decks=2).options["flush_size"] == 6
    assert load(4, decks=1).options["flush_size"] == 4
    hands = {A: ["8♦", "4♠", "9♣", "6♦"], B: ["J♠", "J♦", "Q♠"], C: ["A♣", "5♦", "6♠"]}
    # flush_size = 3: three 8s burn.
    state = position(["5♣", "8♠", "8♥"], hands, flush_size=3)
    act(state, "play 8♦")
    assert tas(state) == [] and burned(state) == ["5♣", "8♠", "8♥", "8♦"]
    assert state.current_player() == A
    # The default, 4: three do not.
    state = position(["5♣", "8♠", "8♥"], hands)
    act(state, "play 8♦")
    assert tas(state) == ["5♣", "8♠", "8♥", "8♦"] and burned(state) == []
    # Six players, three decks: seven 8s do not burn, the eighth does.
    state = position(
        ["8♠", "8♥", "8♦", "8♣", "8♠", "8♥"],
        {
            A: ["8♦", "4♠", "9♣", "6♦"],
            B: ["8♣", "J♦", "Q♠"],
            C: ["A♣", "5♦", "6♠"],
            D: ["4♥", "5♥", "6♥"],
            4: ["4♣", "5♣", "6♣"],
            5: ["J♥", "Q♥", "K♥"],
        },
        players=6,
    )
    act(state, "play 8♦")
    assert len(tas(state)) == 7 and burned(state) == []
    assert window(state) == {"name": "cut", "player": B}
    act(state, "let it pass")
    act(state, "play 8♣")
    assert tas(state) == [] and len(burned(state)) == 8
    assert state.current_player() == B


def test_cm_a4_a_three_breaks_a_run():
    """CM-A4: the run is the top cards of one rank; a 3 between them breaks it."""
    state = position(
        ["8♠", "8♥", "3♣", "8♦"], {A: ["8♣", "4♠", "9♣", "6♦"], B: ["J♠", "J♦", "Q♠"], C: ["A♣", "5♦", "6♠"]}
    )
    act(state, "play 8♣")
    assert tas(state) == ["8♠", "8♥", "3♣", "8♦", "8♣"]
    assert burned(state) == []
    assert state.current_player() == B


def test_cm_a4_four_threes_flush():
    """CM-A4: four 3s make a flush, like any four of a kind; their player plays again."""
    state = position(
        ["9♠", "3♠", "3♥", "3♦"], {A: ["3♣", "4♠", "9♣", "6♦"], B: ["J♠", "J♦", "Q♠"], C: ["A♣", "5♦", "6♠"]}
    )
    act(state, "play 3♣")
    assert tas(state) == []
    assert burned(state) == ["9♠", "3♠", "3♥", "3♦", "3♣"]
    assert state.current_player() == A


def test_cm_a4_more_than_the_flush_size_also_flushes():
    """CM-A4: reaching flush_size or more burns (here 5 + 2 = 7 ≥ 6 with two decks)."""
    state = position(
        ["8♠", "8♥", "8♦", "8♣", "8♠"],
        {A: ["8♥", "8♦", "4♠", "9♣"], B: ["J♠", "J♦", "Q♠"], C: ["A♣", "5♦", "6♠"], D: ["4♥", "5♥", "6♥"]},
        players=4,
    )
    act(state, "play 8♥ 8♦")
    assert tas(state) == [] and len(burned(state)) == 7
    assert state.current_player() == A


def test_cm_a4_jokers_never_flush():
    """CM-A4 (and CM-A16/A17): four Jokers do not burn; they reverse; nobody may cut in on a Joker."""
    state = position(
        ["9♠", "Joker", "Joker", "Joker"],
        {A: ["Joker", "4♠", "9♣", "6♦"], B: ["Joker", "J♦", "Q♠"], C: ["A♣", "5♦", "6♠"]},
        jokers=5,
        direction=-1,
    )
    act(state, "play Joker")
    assert tas(state) == ["9♠", "Joker", "Joker", "Joker", "Joker"]
    assert burned(state) == []
    assert state.direction == 1
    assert window(state) is None  # B's Joker would make five: no flush-cut on Jokers
    assert state.current_player() == B
    assert plays(state) == {"Joker", "J♦", "Q♠"}  # strictly beyond the 9


def test_cm_a6_a_three_on_a_seven_keeps_the_limit():
    """CM-A6: a 3 on a 7 (or a 3 on a 3 on a 7) keeps the ≤ 7 limit."""
    for pile in (["7♠", "3♣"], ["7♠", "3♣", "3♥"]):
        state = position(pile, {A: ["9♦", "J♦", "Q♦"], B: ["4♠", "7♥", "8♠", "9♠"], C: ["4♥", "5♥", "6♥"]}, turn=B)
        assert plays(state) == {"4♠", "7♥"}, pile
        assert_rejected(state, "play 8♠", action_from_elsewhere(state, "play 8♠", tas_cards=["5♣"]))


def test_cm_a8_top_up_before_playing_again():
    """CM-A8: after a burn the player tops his hand up to 3, then must play again."""
    state = position(
        ["K♠"], {A: ["10♠", "4♦"], B: ["J♠", "J♦", "Q♠"], C: ["A♣", "5♦", "6♠"]}, deck_top=["J♣", "K♦", "5♣"]
    )
    act(state, "play 10♠")
    assert state.current_player() == A
    assert hand(state, A) == ["4♦", "K♦", "J♣"]
    assert deck(state)[-1] == "5♣"
    assert plays(state) == {"4♦", "K♦", "J♣"}


def test_cm_a8_out_with_the_burning_card():
    """CM-A8: a player who goes out with the burning card is out; the next player starts a new tas."""
    state = position(
        ["Q♠"],
        {A: ["10♠"], B: ["A♠", "4♣"], C: ["5♦", "6♦"]},
        {A: [], B: ["9♦"], C: ["7♦"]},
        {A: [], B: ["8♣"], C: ["8♦"]},
        empty_deck=True,
    )
    act(state, "play 10♠")
    assert burned(state)[-2:] == ["Q♠", "10♠"]
    assert tas(state) == []
    assert state.out == [True, False, False] and state.finished == [A]
    assert state.current_player() == B
    assert plays(state) == {"A♠", "4♣"}


def test_cm_a8_after_a_burn_the_next_source():
    """CM-A8 with rule 16: a 10 that empties the hand (draw pile empty) is followed by a face-up card."""
    state = position(
        ["Q♠"],
        {A: ["10♠"], B: ["A♠", "4♣"], C: ["5♦", "6♦"]},
        {A: ["5♠", "9♠"]},
        {A: ["4♠"]},
        empty_deck=True,
    )
    act(state, "play 10♠")
    assert state.current_player() == A
    assert hand(state, A) == []
    assert labels(state) == ["play 5♠", "play 9♠"]


def test_cm_a9_the_two_gives_no_extra_turn():
    """CM-A9: after a 2 the next player plays, with any card."""
    state = position(["K♠"], {A: ["2♦", "9♦", "Q♦"], B: ["4♣", "6♣", "9♣"], C: ["4♥", "5♥", "6♥"]})
    act(state, "play 2♦")
    assert state.current_player() == B
    assert plays(state) == {"4♣", "6♣", "9♣"}


def test_cm_a10_joker_on_a_seven():
    """CM-A10: on a Joker over a 7, the next play must be strictly lower than 7 (or magic)."""
    state = position(
        ["5♠", "7♠"],
        {A: ["4♦", "5♣", "6♣", "7♥", "8♣", "2♥"], B: ["Joker", "5♦", "Q♦"], C: ["4♥", "5♥", "6♥"]},
        turn=B,
        deck_top=["J♠"],
    )
    act(state, "play Joker")
    assert state.current_player() == A
    assert plays(state) == {"4♦", "5♣", "6♣", "2♥"}
    assert_rejected(state, "play 7♥", action_from_elsewhere(state, "play 7♥", tas_cards=["5♠"]))


def test_cm_a10_joker_on_a_two_frees_the_next_player():
    """CM-A10: on a 2 the Joker only reverses; any card may follow."""
    state = position(["K♠", "2♠"], {A: ["4♦", "5♣", "6♣"], B: ["Joker", "5♦", "Q♦"], C: ["4♥", "5♥", "6♥"]}, turn=B)
    act(state, "play Joker")
    assert state.current_player() == A
    assert plays(state) == {"4♦", "5♣", "6♣"}


def test_cm_a10_strictness_holds_for_one_play():
    """CM-A10: a 3 may go on a Joker; the player after it sees the card beneath, with no strictness."""
    state = position(
        ["9♠", "Q♠", "Joker"],
        {A: ["3♠", "4♦", "Q♥"], B: ["Q♦", "J♦", "K♦"], C: ["3♦", "Q♣", "4♣"]},
        direction=-1,
    )
    assert plays(state) == {"3♠"}  # the Q is not strictly beyond the Q
    act(state, "play 3♠")
    assert state.current_player() == C
    assert plays(state) == {"3♦", "Q♣"}  # equal is enough again


def test_cm_a11_several_jokers_at_once_reverse_once():
    """CM-A11: two Jokers laid together reverse the direction once."""
    state = position(
        ["9♠"], {A: ["Joker", "Joker", "6♦"], B: ["4♠", "5♠", "Q♠"], C: ["9♥", "J♥", "5♥"]}, deck_top=["8♥", "8♣"]
    )
    assert "Joker Joker" in plays(state)
    act(state, "play Joker Joker")
    assert tas(state) == ["9♠", "Joker", "Joker"]
    assert state.direction == -1
    assert state.current_player() == C
    assert plays(state) == {"J♥"}  # strictly beyond the 9 under both Jokers


def test_cm_a11_jokers_one_after_another_each_reverse():
    """CM-A11: Jokers laid one after another each reverse; the value under them all still decides."""
    state = position(
        ["Q♠"],
        {A: ["Joker", "4♦", "6♦"], B: ["Joker", "Q♦", "K♦", "5♦"], C: ["4♥", "5♥", "6♥"]},
        turn=B,
        deck_top=["8♥"],
    )
    act(state, "play Joker")
    assert state.direction == -1 and state.current_player() == A
    act(state, "play Joker")
    assert state.direction == 1 and state.current_player() == B
    assert tas(state) == ["Q♠", "Joker", "Joker"]
    assert plays(state) == {"K♦"}


def test_cm_a12_the_player_who_must_replay_is_out():
    """CM-A12: if the player who played under the Joker is out, the next player in the new
    direction must go strictly beyond."""
    state = position(
        ["9♠"],
        {A: ["Q♠"], B: ["Joker", "5♦"], C: ["Q♥", "K♥", "4♥"]},
        {A: [], B: ["9♦"], C: ["4♠"]},
        {A: [], B: ["J♥"], C: ["8♣"]},
        empty_deck=True,
    )
    act(state, "play Q♠")
    assert state.out[A]
    act(state, "play Joker")
    assert state.direction == -1
    assert state.current_player() == C
    assert labels(state) == ["play K♥"]


def test_cm_a13_magic_cards_only_on_ones_own_turn():
    """CM-A13: nobody may lay a magic card out of turn; after A's play, B plays."""
    for players in (3, 4):
        hands = {A: ["9♥", "4♠", "K♣", "Q♣"], B: ["J♠", "J♦", "Q♠"], C: ["10♠", "2♠", "Joker"]}
        if players == 4:
            hands[D] = ["3♦", "10♦", "2♦"]
        state = position(["5♣"], hands, players=players)
        act(state, "play 9♥")
        assert window(state) is None
        assert state.current_player() == B
        assert "legal_actions" not in state.observation(C)


def test_cm_a14_no_voluntary_pickup():
    """CM-A14: a player who can play may not pick up the tas."""
    state = position(["9♠"], {A: ["J♦", "4♦", "5♦"], B: ["J♠", "Q♠", "K♠"], C: ["4♥", "5♥", "6♥"]})
    assert set(labels(state)) == {"play J♦", "try la Chance"}
    pickup = action_from_elsewhere(state, "pick up the tas", tas_cards=["A♠"])
    assert_rejected(state, "pick up the tas", pickup)


def test_cm_a15_la_chance_only_while_the_deck_lasts():
    """CM-A15: la Chance is offered only while the draw pile is not empty."""
    hands = {A: ["4♦", "5♦", "6♦"], B: ["J♠", "Q♠", "K♠"], C: ["4♥", "5♥", "6♥"]}
    state = position(["9♠"], hands, empty_deck=True)
    assert labels(state) == ["pick up the tas"]
    chance = action_from_elsewhere(position(["9♠"], hands), "try la Chance")
    assert_rejected(state, "try la Chance", chance)


def test_cm_a15_a_drawn_ten_always_succeeds():
    """CM-A15/A7: a 10 drawn at la Chance burns the tas and its player plays again."""
    state = position(
        ["8♠", "A♠"],
        {A: ["4♦", "5♦", "6♦"], B: ["4♣", "5♣", "6♣"], C: ["4♥", "5♥", "6♥"]},
        turn=B,
        deck_top=["10♦"],
    )
    act(state, "try la Chance")
    assert tas(state) == []
    assert burned(state) == ["8♠", "A♠", "10♦"]
    assert hand(state, B) == ["4♣", "5♣", "6♣"]
    assert state.current_player() == B


def test_cm_a15_a_drawn_seven_above_seven_fails():
    """CM-A15: a 7 is not magic: drawn on a 9 it fails; the player takes it and the tas."""
    state = position(
        ["9♠"], {A: ["4♦", "5♦", "6♦"], B: ["4♣", "5♣", "6♣"], C: ["4♥", "5♥", "6♥"]}, turn=B, deck_top=["7♦"]
    )
    act(state, "try la Chance")
    assert sorted(hand(state, B)) == sorted(["4♣", "5♣", "6♣", "7♦", "9♠"])
    assert tas(state) == []
    assert state.current_player() == C


def test_cm_a15_on_an_empty_tas_la_chance_succeeds():
    """CM-A15: on an empty tas any drawn card is laid; the hand is topped up to 3."""
    state = position([], {A: ["4♦", "5♦", "6♦"], B: ["Q♣", "K♣"], C: ["4♥", "5♥", "6♥"]}, turn=B, deck_top=["4♠", "J♠"])
    act(state, "try la Chance")
    assert tas(state) == ["4♠"]
    assert hand(state, B) == ["Q♣", "K♣", "J♠"]
    assert state.current_player() == C


def test_cm_a16_cut_priority_nearest_first():
    """CM-A16: with several players able to cut, the nearest after the one who played goes first,
    in the direction of play; if he passes, the next one is asked."""
    hands = {A: ["9♥", "4♠", "K♣", "Q♣"], B: ["J♠", "J♦", "Q♠"], C: ["9♥", "4♥", "5♥"], D: ["9♥", "A♦", "K♦"]}
    state = position(["5♣"], hands, players=4, decks=3)
    act(state, "play 9♥")
    assert window(state) == {"name": "cut", "player": C}
    act(state, "let it pass")
    assert window(state) == {"name": "cut", "player": D}
    act(state, "cut in with 9♥")
    assert tas(state) == ["5♣", "9♥", "9♥"]
    assert window(state) == {"name": "cut", "player": C}  # a new card: C may cut in on D's 9♥
    act(state, "let it pass")
    assert state.current_player() == A  # play goes on from D
    # Counter-clockwise, D is nearer than C.
    state = position(["5♣"], hands, players=4, decks=3, direction=-1)
    act(state, "play 9♥")
    assert window(state) == {"name": "cut", "player": D}
    act(state, "let it pass")
    assert window(state) == {"name": "cut", "player": C}
    act(state, "cut in with 9♥")
    assert window(state) == {"name": "cut", "player": D}
    act(state, "let it pass")
    assert state.current_player() == B


def test_cm_a16_cut_sources():
    """CM-A16: one may cut from the face-up cards when they are one's source, never from the
    face-down cards, nor from face-up cards while the hand is the source."""
    state = position(
        ["5♣"],
        {A: ["9♥", "4♠", "K♣", "Q♣"], B: ["J♠", "J♦", "Q♠"], C: [], D: []},
        {B: ["9♥"], C: ["9♥", "4♥"], D: []},
        {D: ["9♥", "A♦"]},
        players=4,
        decks=4,
        empty_deck=True,
    )
    act(state, "play 9♥")
    assert window(state) == {"name": "cut", "player": C}
    assert labels(state) == ["cut in with 9♥", "let it pass"]
    act(state, "let it pass")
    assert window(state) is None  # not B (his hand is his source), nor D (face-down cards)
    assert state.current_player() == B
    # Cutting from the face-up cards.
    state2 = position(
        ["5♣"],
        {A: ["9♥", "4♠", "K♣", "Q♣"], B: ["J♠", "J♦", "Q♠"], C: [], D: ["4♦", "5♦"]},
        {C: ["9♥", "4♥"]},
        players=4,
        decks=3,
        empty_deck=True,
    )
    act(state2, "play 9♥")
    act(state2, "cut in with 9♥")
    assert faceup(state2, C) == ["4♥"]
    assert tas(state2) == ["5♣", "9♥", "9♥"]
    assert state2.current_player() == D


def test_cm_a16_jokers_cannot_be_cut():
    """CM-A16: a Joker has no suit: nobody cuts in on it, even with two decks."""
    state = position(
        ["K♠"],
        {A: ["Joker", "4♠", "K♣", "Q♣"], B: ["Joker", "J♦", "Q♠"], C: ["Joker", "4♥", "5♥"], D: ["A♠", "A♦", "K♦"]},
        players=4,
    )
    act(state, "play Joker")
    assert window(state) is None
    assert state.direction == -1
    assert state.current_player() == D


def test_cm_a17_flush_cut_with_one_deck():
    """CM-A17: with one deck, a player out of turn may complete a flush; he plays again, and play
    goes on from him."""
    state = position(
        ["5♣", "8♠", "8♥"],
        {A: ["8♦", "4♠", "K♣", "Q♣"], B: ["J♠", "J♦", "Q♠"], C: ["8♣", "4♥", "5♥"]},
        deck_top=["6♣", "7♣"],
    )
    act(state, "play 8♦")
    assert window(state) == {"name": "cut", "player": C}
    assert labels(state) == ["cut in with 8♣", "let it pass"]
    act(state, "cut in with 8♣")
    assert tas(state) == []
    assert burned(state) == ["5♣", "8♠", "8♥", "8♦", "8♣"]
    assert state.current_player() == C
    assert hand(state, C) == ["4♥", "5♥", "6♣"]
    act(state, "play 4♥")
    assert state.current_player() == A


def test_cm_a17_no_flush_cut_short_of_the_flush():
    """CM-A17: one 8 on a run of two 8s does not complete a flush: no cut is offered."""
    state = position(["5♣", "8♠"], {A: ["8♦", "4♠", "K♣", "Q♣"], B: ["J♠", "J♦", "Q♠"], C: ["8♣", "4♥", "5♥"]})
    act(state, "play 8♦")
    assert window(state) is None
    assert state.current_player() == B


def test_cm_a18_chained_completion():
    """CM-A18: each drawn card of the value played may be added; drawing goes on; it chains."""
    state = position(
        ["5♣"],
        {A: ["6♠", "9♣", "K♣"], B: ["J♠", "J♦", "Q♠"], C: ["8♣", "4♥", "5♥"]},
        deck_top=["6♥", "6♦", "Q♦", "4♣"],
    )
    act(state, "play 6♠")
    act(state, "add 6♥ to the tas")
    assert hand(state, A) == ["9♣", "K♣", "6♦"]
    assert window(state) == {"name": "complete", "player": A}
    act(state, "add 6♦ to the tas")
    assert tas(state) == ["5♣", "6♠", "6♥", "6♦"]
    assert hand(state, A) == ["9♣", "K♣", "Q♦"]
    assert state.current_player() == B


def test_cm_a18_keeping_the_drawn_card():
    """CM-A18: the addition is optional; keeping the card hands the turn on."""
    state = position(
        ["5♣"], {A: ["6♠", "9♣", "K♣"], B: ["J♠", "J♦", "Q♠"], C: ["8♣", "4♥", "5♥"]}, deck_top=["6♥", "Q♦"]
    )
    act(state, "play 6♠")
    act(state, "keep the cards drawn")
    assert tas(state) == ["5♣", "6♠"]
    assert hand(state, A) == ["9♣", "K♣", "6♥"]
    assert state.current_player() == B


def test_cm_a18_an_added_card_can_flush():
    """CM-A18: an added card counts toward a flush; its player then plays again."""
    state = position(
        ["5♣", "6♣", "6♦"], {A: ["6♠", "9♣", "K♣"], B: ["J♠", "J♦", "Q♠"], C: ["8♣", "4♥", "5♥"]}, deck_top=["6♥", "Q♦"]
    )
    act(state, "play 6♠")
    assert window(state) == {"name": "complete", "player": A}
    act(state, "add 6♥ to the tas")
    assert tas(state) == []
    assert burned(state) == ["5♣", "6♣", "6♦", "6♠", "6♥"]
    assert state.current_player() == A
    assert hand(state, A) == ["9♣", "K♣", "Q♦"]


def test_cm_a18_only_drawn_cards_and_not_after_a_burn():
    """CM-A18: a card of the value already in hand is no addition; after a burn nothing may be added."""
    state = position(["5♣"], {A: ["6♠", "6♥", "K♣"], B: ["J♠", "J♦", "Q♠"], C: ["8♣", "4♥", "5♥"]}, deck_top=["Q♦"])
    act(state, "play 6♠")
    assert window(state) is None
    assert state.current_player() == B
    state = position(
        ["5♣"], {A: ["10♠", "9♥", "K♣"], B: ["J♠", "J♦", "Q♠"], C: ["8♣", "4♥", "5♥"]}, deck_top=["10♦", "Q♦"]
    )
    act(state, "play 10♠")
    assert hand(state, A) == ["9♥", "K♣", "10♦"]
    assert window(state) is None
    assert state.current_player() == A
    assert "10♦" in plays(state)


def test_cm_a19_a_short_draw_pile():
    """CM-A19: with too few cards in the draw pile, the player takes what is left."""
    state = position(["5♣"], {A: ["9♠", "9♥", "K♣"], B: ["J♠", "J♦", "Q♠"], C: ["8♣", "4♥", "5♥"]}, deck_top=["Q♦"])
    arrange(state, "deck", ["Q♦"], rest="burned")
    give_turn(state, A)
    act(state, "play 9♠ 9♥")
    assert hand(state, A) == ["K♣", "Q♦"]
    assert deck(state) == []
    assert state.current_player() == B


def test_cm_a21_deterministic_opening_left_neighbour_follows():
    """CM-A21: the opener's left neighbour follows; play stays clockwise; after the choice of
    face-up cards, those who played top up to 3, and the player after the follower starts."""
    game = load(3)

    def wanted(st):
        r = [[rank(c) for c in candidates(st, p)] for p in range(3)]
        return all("4" not in x for x in r) and "5" not in r[A] and "5" in r[B] and "5" in r[C]

    state = game.new_initial_state(seed=find_seed(game, wanted))
    opened = labels(state)[0]
    act(state, opened)
    assert state.current_player() == C
    assert state.phase_name() == "following"
    follow = [lab for lab in labels(state) if lab.startswith("follow with ")]
    assert follow and labels(state)[-1] == "let it pass"
    # Every natural card of his (b)+(c) is at least 5 here (nobody holds a 4) and may follow;
    # whether a 10 or a Joker may follow is left open by CM-A21; a 2 or a 3 is below the 5.
    offered = {c for lab in follow for c in lab.removeprefix("follow with ").split()}
    natural = {c for c in candidates(state, C) if rank(c) not in ("2", "3", "10", "Joker")}
    assert natural <= offered
    assert not any(rank(c) in ("2", "3") for c in offered)
    assert all(len({rank(c) for c in lab.removeprefix("follow with ").split()}) == 1 for lab in follow)
    act(state, follow[-1])
    assert state.direction == 1
    assert state.phase_name() == "choosing"
    assert len(tas(state)) == 2
    for p in (A, B, C):
        assert state.current_player() == p
        act(state, labels(state)[0])
        assert len(faceup(state, p)) == 3
    assert state.phase_name() == "play"
    assert [len(hand(state, p)) for p in range(3)] == [3, 3, 3]  # B and C topped up
    assert state.current_player() == A  # after C, clockwise


def test_cm_a21_an_opening_flush_burns_and_the_opener_plays_again():
    """CM-A21 with rule 15 and CM-A8: an opener who lays four of a kind burns the tas; nobody
    follows on the empty tas, and after the choice of face-up cards the opener plays again."""
    game = load(3)

    def wanted(st):
        r = [[rank(c) for c in candidates(st, p)] for p in range(3)]
        low = next(x for x in ("4", "5", "6", "7", "8", "9") if any(x in h for h in r))
        opener = next(p for p in range(3) if low in r[p])
        return r[opener].count(low) == 4

    state = game.new_initial_state(seed=find_seed(game, wanted, limit=5000))
    opener = state.current_player()
    four = [lab for lab in labels(state) if len(lab.split()) == 6]
    assert len(four) == 1
    act(state, four[0])
    assert tas(state) == [] and len(burned(state)) == 4
    assert state.phase_name() == "choosing"  # nobody follows on a burned tas
    while state.phase_name() == "choosing":
        act(state, labels(state)[0])
    assert state.current_player() == opener and state.phase_name() == "play"


def test_cm_a21_deterministic_opening_right_neighbour_sets_the_direction():
    """CM-A21: if the left neighbour lets it pass, the right neighbour may follow: play then goes
    counter-clockwise, from the player after him."""
    game = load(3)

    def wanted(st):
        r = [[rank(c) for c in candidates(st, p)] for p in range(3)]
        return (
            all("4" not in x for x in r)
            and "5" not in r[A]
            and "5" in r[B]
            and any(x not in ("2", "3", "10", "Joker") for x in r[A])
        )

    state = game.new_initial_state(seed=find_seed(game, wanted))
    assert state.current_player() == B
    act(state, labels(state)[0])
    act(state, "let it pass")  # C
    assert state.current_player() == A and state.phase_name() == "following"
    act(state, [lab for lab in labels(state) if lab.startswith("follow with ")][0])
    assert state.direction == -1
    while state.phase_name() == "choosing":
        act(state, labels(state)[0])
    assert [len(hand(state, p)) for p in range(3)] == [3, 3, 3]
    assert state.current_player() == C  # after A, counter-clockwise


def test_cm_a21_deterministic_opening_nobody_follows():
    """CM-A21: if nobody follows, play is clockwise from the opener's left neighbour."""
    game = load(3)

    def wanted(st):
        r = [[rank(c) for c in candidates(st, p)] for p in range(3)]
        return all("4" not in x for x in r) and "5" not in r[A] and "5" in r[B]

    state = game.new_initial_state(seed=find_seed(game, wanted))
    act(state, labels(state)[0])
    act(state, "let it pass")
    act(state, "let it pass")
    assert state.phase_name() == "choosing" and state.direction == 1
    while state.phase_name() == "choosing":
        act(state, labels(state)[0])
    assert len(tas(state)) == 1
    assert state.current_player() == C


def test_cm_a21_the_lowest_card_opens_in_deal_order():
    """CM-A21 (1)-(2): over many deals, the opener holds the lowest natural rank among the (b)+(c)
    cards, and no player before him in deal order holds it."""
    game = load(4)
    naturals = ["4", "5", "6", "7", "8", "9", "J", "Q", "K", "A"]
    for seed in range(30):
        state = game.new_initial_state(seed=seed)
        held = [{rank(c) for c in candidates(state, p)} for p in range(4)]
        lowest = next(r for r in naturals if any(r in h for h in held))
        opener = next(p for p in range(4) if lowest in held[p])
        assert state.phase_name() == "opening"
        assert state.current_player() == opener, seed
        assert all(lab.startswith(f"open with {lowest}") for lab in labels(state))


def test_cm_a21_race_opening_open_at_once_or_wait():
    """CM-A21, option opening = "race": a player holding a 4 among (b)+(c) during the deal may open
    at once or wait; if he opens, his left neighbour may follow; the deal then goes on."""
    game = load(3, opening="race")

    def wanted(st):
        return st.phase_name() == "opening" and "wait" in labels(st) and len(labels(st)) > 1

    state = game.new_initial_state(seed=find_seed(game, wanted))
    p = state.current_player()
    fours = [c for c in candidates(state, p) if rank(c) == "4"]
    assert fours
    assert labels(state)[-1] == "wait" and all(lab.startswith("open with 4") for lab in labels(state)[:-1])
    dealt = len(everything(state)) - len(deck(state))
    assert dealt < 27  # before the deal is over
    # Opening at once.
    opened = state.clone()
    act(opened, labels(opened)[0])
    assert [rank(c) for c in tas(opened)] == ["4"]
    assert opened.phase_name() == "following"
    assert opened.current_player() == (p + 1) % 3
    act(opened, "let it pass")
    act(opened, "let it pass")
    assert opened.phase_name() == "choosing"
    assert len(deck(opened)) == 55 - 27  # the deal was completed
    while opened.phase_name() == "choosing":
        act(opened, labels(opened)[0])
    assert opened.current_player() == (p + 1) % 3
    # Waiting: the deal goes on; the 4 is kept.
    waited = state.clone()
    act(waited, "wait")
    assert tas(waited) == []
    assert len(deck(waited)) < len(deck(state))
    assert all(c in candidates(waited, p) for c in fours)


def test_cm_a21_race_opening_asks_everyone_dealt_a_card():
    """CM-A21, option opening = "race": every card dealt into (b) or (c) but the last asks its
    receiver, so being asked reveals no 4 in a hand; one who waited may open at a later card."""
    game = load(3, opening="race")

    def first_asked_holds_a_four(st):
        return len(deck(st)) == 55 - 10 and len(labels(st)) > 1

    state = game.new_initial_state(seed=find_seed(game, first_asked_holds_a_four))
    asked, waited_with_a_four, offered_again = [], set(), False
    while state.phase_name() == "opening" and "wait" in labels(state):
        p = state.current_player()
        asked.append(p)
        has_four = any(rank(c) == "4" for c in candidates(state, p))
        assert (len(labels(state)) > 1) == has_four  # "open with 4" exactly when he holds one
        if p in waited_with_a_four and has_four:
            offered_again = True
        if has_four:
            waited_with_a_four.add(p)
        act(state, "wait")
    # Nobody opened: every card of rows (b) and (c) but the very last asked its receiver.
    assert asked == [q % 3 for q in range(9, 26)]
    assert state.phase_name() in ("opening", "choosing")
    assert len(deck(state)) == 55 - 27
    assert offered_again


def test_cm_a22_free_choice_of_three_face_up_cards():
    """CM-A22: any 3 of the 6 cards (b)+(c) may be kept face up; the rest is the hand."""
    game = load(3)

    def wanted(st):
        r = [[rank(c) for c in candidates(st, p)] for p in range(3)]
        return all("4" not in x for x in r) and "5" not in r[A] and "5" in r[B]

    state = game.new_initial_state(seed=find_seed(game, wanted))
    act(state, labels(state)[0])
    act(state, "let it pass")
    act(state, "let it pass")
    assert state.current_player() == A
    six = candidates(state, A)
    assert len(six) == 6
    keeps = [lab for lab in labels(state) if lab.startswith("keep ")]
    assert len(keeps) == len({frozenset(c) for c in combinations(six, 3)}) == 20
    kept = [six[5], six[0], six[3]]
    label = next(lab for lab in keeps if sorted(lab[len("keep ") : -len(" face up")].split()) == sorted(kept))
    act(state, label)
    assert sorted(faceup(state, A)) == sorted(kept)
    assert sorted(hand(state, A)) == sorted(set(six) - set(kept))


def _a_cannot_play_his_face_up_cards(log: bool = False) -> ruledsl.GameState:
    """A's face-up 5♣ 5♦ 9♣ cannot go on the tas's K♠; his hand is empty."""
    return position(
        ["Q♠", "K♠"],
        {A: [], B: ["J♠", "J♦", "A♠"], C: ["8♣", "4♥", "5♥"]},
        {A: ["5♣", "5♦", "9♣"]},
        {A: ["4♣"]},
        empty_deck=True,
        log=log,
    )


def test_cm_a23_face_up_cards_that_cannot_be_played_one_group():
    """CM-A23 (faceup_fail = "one_group"): he lays one value group and takes the tas; the other
    face-up cards stay; his turn ends."""
    state = _a_cannot_play_his_face_up_cards()
    assert "lay 5♦ 5♣ and take the tas" in labels(state)
    assert "lay 9♣ and take the tas" in labels(state)
    assert all(lab.startswith("lay ") for lab in labels(state))
    act(state, "lay 5♦ 5♣ and take the tas")
    assert sorted(hand(state, A)) == sorted(["5♣", "5♦", "Q♠", "K♠"])
    assert faceup(state, A) == ["9♣"]
    assert tas(state) == []
    assert state.current_player() == B


def test_cm_a23_the_face_up_cards_laid_are_named_to_the_others():
    """CM-A23: every seat saw the face-up cards he lays; going into his hand does not hide them."""
    state = _a_cannot_play_his_face_up_cards(log=True)
    act(state, "lay 5♦ 5♣ and take the tas")
    for viewer in (A, B, C, None):
        assert state.describe_last(viewer) == "lay 5♦ 5♣ and take the tas"


def test_cm_a23_face_up_cards_that_cannot_be_played_all():
    """CM-A23 (faceup_fail = "all"): all the face-up cards go into the hand with the tas."""
    state = position(
        ["Q♠", "K♠"],
        {A: [], B: ["J♠", "J♦", "A♠"], C: ["8♣", "4♥", "5♥"]},
        {A: ["5♣", "5♦", "9♣"]},
        {A: ["4♣"]},
        empty_deck=True,
        faceup_fail="all",
    )
    assert labels(state) == ["lay the face-up cards and take the tas"]
    act(state, "lay the face-up cards and take the tas")
    assert sorted(hand(state, A)) == sorted(["5♣", "5♦", "9♣", "Q♠", "K♠"])
    assert faceup(state, A) == []
    assert facedown(state, A) == ["4♣"]
    assert state.current_player() == B


def test_cm_a23_the_group_laid_is_one_card_or_all_of_one_value():
    """CM-A23: the group laid is "one card, or all face-up cards of one value": with three
    face-up 5s he may lay one 5 or the three, never two of them."""
    state = position(
        ["Q♠", "K♠"],
        {A: [], B: ["J♠", "J♦", "A♠"], C: ["8♣", "4♥", "6♥"]},
        {A: ["5♣", "5♦", "5♥"]},
        {A: ["4♣"]},
        empty_deck=True,
    )
    groups = [lab.removeprefix("lay ").removesuffix(" and take the tas").split() for lab in labels(state)]
    assert ["5♥", "5♦", "5♣"] in groups
    assert sorted(len(g) for g in groups if len(g) != 1) == [3]


def test_cm_a23_a_playable_face_up_card_must_be_played():
    """CM-A23: laying and taking is only for face-up cards that cannot be played."""
    state = position(
        ["9♠"],
        {A: [], B: ["J♠", "J♦", "A♠"], C: ["8♣", "4♥", "5♥"]},
        {A: ["5♣", "K♦"]},
        empty_deck=True,
    )
    assert labels(state) == ["play K♦"]


def test_cm_a24_face_down_failure_seen_by_nobody_else():
    """CM-A24: a face-down card that cannot be played goes to the hand unseen by the others:
    not in their observations, not in describe_last, not in the log."""
    state = position(
        ["Q♠", "K♠"],
        {A: [], B: ["J♠", "J♦", "9♦"], C: ["8♣", "4♥", "5♥"]},
        {A: []},
        {A: ["5♦", "J♣", "6♦"]},
        empty_deck=True,
        log=True,
    )
    before = {q: state.observation(q) for q in (B, C)}
    act(state, "turn over face-down card 2")  # the J♣
    assert sorted(hand(state, A)) == ["J♣", "K♠", "Q♠"]
    assert facedown(state, A) == ["5♦", "6♦"]
    log = state.take_log()
    assert log and not any("J♣" in line for line in log)
    for q in (B, C):
        obs = state.observation(q)
        assert obs["zones"]["hand"][A] == {"size": 3}
        assert obs["zones"]["facedown"][A] == {"size": 2}
        assert "J♣" not in json.dumps(obs, ensure_ascii=False)
        assert "J♣" not in state.describe_last(q)
        assert "J♣" not in json.dumps(before[q], ensure_ascii=False)
    assert "J♣" not in state.describe_last(None)
    assert state.observation(A)["zones"]["hand"][A]["cards"].count("J♣") == 1


def test_cm_a24_a_face_down_ten_lets_him_go_on():
    """CM-A24: a face-down 10 burns; he plays again, with the next face-down card."""
    state = position(["Q♠"], {A: [], B: ["A♠", "4♣"], C: ["5♦", "6♦"]}, {A: []}, {A: ["4♠", "10♠"]}, empty_deck=True)
    act(state, "turn over face-down card 1")
    assert tas(state) == [] and burned(state)[-2:] == ["Q♠", "10♠"]
    assert state.current_player() == A
    assert labels(state) == ["turn over face-down card 1"]


def test_cm_a25_mixing_sources():
    """CM-A25: hand and face-up cards mix only when all the hand cards are laid with face-up cards
    of their value, once the draw pile is empty; face-down cards never mix."""
    base = {B: ["J♠", "J♦", "A♠"], C: ["8♣", "4♥", "5♥"]}
    # Two hand cards of different values: no mixed play.
    state = position(["9♠"], {**base, A: ["Q♠", "K♣"]}, {A: ["Q♥", "5♠"]}, {A: ["Q♦"]}, empty_deck=True)
    assert plays(state) == {"Q♠", "K♣"}
    # Two hand cards of one value with a face-up card of that value.
    state = position(["9♠"], {**base, A: ["Q♠", "Q♣"]}, {A: ["Q♥", "5♠"]}, {A: ["Q♦"]}, empty_deck=True)
    assert plays(state) == {"Q♠ Q♣", "Q♠", "Q♣", "Q♠ Q♣ and Q♥ from the face-up cards"}
    # Draw pile not empty: no mixed play.
    state = position(["9♠"], {**base, A: ["Q♠"]}, {A: ["Q♥", "5♠"]}, {A: ["Q♦"]})
    assert plays(state) == {"Q♠"}
    # Face-up source: the face-down cards never join.
    state = position(["9♠"], {**base, A: []}, {A: ["Q♥", "5♠"]}, {A: ["Q♦"]}, empty_deck=True)
    assert labels(state) == ["play Q♥"]


def test_cm_a26_going_out_on_a_joker():
    """CM-A26 with CM-A12: a player may go out on a magic card; the reversed play skips him."""
    state = position(
        ["9♠"],
        {A: ["4♠", "5♠"], B: ["Joker"], C: ["J♥", "9♥", "4♥"], D: ["K♦", "5♦"]},
        {q: [] for q in range(4)},
        {q: [] for q in range(4)},
        players=4,
        turn=B,
        empty_deck=True,
    )
    act(state, "play Joker")
    assert state.out == [False, True, False, False]
    assert state.direction == -1
    assert state.current_player() == A
    act(state, "pick up the tas")  # nothing strictly beyond the 9
    assert state.current_player() == D  # B is skipped, counter-clockwise
    assert not state.is_terminal()


def test_cm_a26_returns_follow_the_finishing_order():
    """CM-A26: with four players, the returns go from +1 for the first out to -1 for the last."""
    state = position(
        ["9♠"],
        {A: ["J♠"], B: ["Q♠"], C: ["K♠"], D: ["5♦", "6♦"]},
        {q: [] for q in range(4)},
        {q: [] for q in range(4)},
        players=4,
        empty_deck=True,
    )
    act(state, "play J♠")
    act(state, "play Q♠")
    assert not state.is_terminal()
    act(state, "play K♠")
    assert state.is_terminal()
    assert state.finished == [A, B, C, D]
    assert state.ranking() == [[A], [B], [C], [D]]
    assert state.returns() == pytest.approx([1.0, 1 / 3, -1 / 3, -1.0])


def test_cm_a28_a_seven_on_a_three_or_an_empty_tas():
    """CM-A28: a 7 goes on a 3 when the card under it allows it, and on an empty tas."""
    hands = {A: ["7♦", "A♦", "Q♦"], B: ["4♣", "6♣", "9♣"], C: ["4♥", "5♥", "6♥"]}
    for pile, legal in ((["5♠", "3♠"], True), (["3♠"], True), ([], True), (["9♠", "3♠"], False)):
        state = position(pile, hands)
        assert ("7♦" in plays(state)) is legal, pile


def test_cm_a29_the_ace_is_highest_but_not_on_a_seven():
    """CM-A29: the Ace goes on the King; on a 7 it is refused (it is above 7)."""
    hands = {A: ["A♦", "4♦", "Q♦"], B: ["4♣", "6♣", "9♣"], C: ["4♥", "5♥", "6♥"]}
    assert "A♦" in plays(position(["K♠"], hands))
    state = position(["7♠"], hands)
    assert plays(state) == {"4♦"}
    assert_rejected(state, "play A♦", action_from_elsewhere(state, "play A♦", tas_cards=["K♠"]))


# ---------------------------------------------------------------------------- hidden information


def test_face_down_cards_are_hidden_from_their_owner():
    """Rule 18: a player sees only how many face-down cards he has, his own included."""
    state = position(
        ["K♠"], {A: [], B: ["J♠", "J♦", "9♦"], C: ["8♣", "4♥", "5♥"]}, {A: []}, {A: ["5♦", "J♣", "6♦"]}, empty_deck=True
    )
    for viewer in (A, B, C):
        assert state.observation(viewer)["zones"]["facedown"][A] == {"size": 3}
    obs = json.dumps(state.observation(A), ensure_ascii=False)
    assert not any(card in obs for card in ("5♦", "J♣", "6♦"))


def test_permuting_face_down_cards_does_not_change_the_owners_observation():
    """Section 7: permuting the cards a player cannot see leaves his observation and his legal
    actions unchanged (identical hidden cards included)."""
    for players, cards in ((3, ["5♦", "J♣", "6♦"]), (4, ["9♥", "9♥", "4♣"])):
        observations = set()
        keys = set()
        for order in ([0, 1, 2], [2, 0, 1], [1, 2, 0], [0, 2, 1]):
            state = position(
                ["K♠"],
                {A: [], B: ["J♠", "J♦", "9♦"], C: ["8♣", "4♥", "5♥"]},
                {A: []},
                {A: [cards[i] for i in order]},
                players=players,
                empty_deck=True,
            )
            observations.add(json.dumps(state.observation(A), ensure_ascii=False, sort_keys=True))
            keys.add(tuple(str(a) for a in state.legal_actions()))
        assert len(observations) == 1
        assert keys == {("turn over face-down card 1", "turn over face-down card 2", "turn over face-down card 3")}


def test_the_draw_pile_is_hidden_from_everybody():
    """Section 7: permuting the draw pile changes nobody's observation, nor the legal actions."""
    state = position(["9♠"], {A: ["J♦", "4♦", "5♦"], B: ["J♠", "Q♠", "K♠"], C: ["4♥", "5♥", "6♥"]})
    views = [json.dumps(state.observation(q), ensure_ascii=False, sort_keys=True) for q in range(3)]
    action_labels = labels(state)
    shuffled = state.clone()
    order = deck(shuffled)
    random.Random(5).shuffle(order)
    arrange(shuffled, "deck", order)
    assert deck(shuffled) != deck(state) and sorted(deck(shuffled)) == sorted(deck(state))
    assert [json.dumps(shuffled.observation(q), ensure_ascii=False, sort_keys=True) for q in range(3)] == views
    assert labels(shuffled) == action_labels
