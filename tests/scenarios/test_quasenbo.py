"""Scenario tests of Quäsenbö (games/quasenbo.game).

The scenarios QB-T.. and rulings QB-A.. are those of the rules specification,
section 2 (Quäsenbö). Piles are written bottom to top: the last card is the top.
Every test builds its position with ruledsl.tools.scenario and checks concrete outcomes:
the legal actions, who acts next, hands, deck and pile, the end of the game.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

import ruledsl
from ruledsl import TERMINAL, IllegalActionError
from ruledsl.engine import chance
from ruledsl.tools.scenario import arrange, cards_in, get_var, give_turn, set_var, stack_top
from tests.scenarios.support import act, deck, hand, labels

# ---------------------------------------------------------------------------- helpers

BASIC_DECK = 36


def load(players: int = 3, **options: object) -> ruledsl.Game:
    return ruledsl.load_game("quasenbo", players=players, options=options)


def position(
    pile: list[str],
    hands: dict[int, list[str]],
    *,
    players: int = 3,
    turn: int = 0,
    deck_top: Sequence[str] = (),
    empty_deck: bool = False,
    named: str | None = None,
    **options: object,
) -> ruledsl.GameState:
    """A game position: the pile (bottom to top), some players' hands, the deck's top cards.

    Players not named in ``hands`` keep the cards they were dealt. With ``empty_deck``
    the deck is emptied into the hand of the last player not named in ``hands``, so
    that every card stays in the game.
    """
    named_cards = [*pile, *sum(hands.values(), []), *deck_top]
    assert len(named_cards) == len(set(named_cards)), "a card named twice would be moved, not copied"
    state = load(players, **options).new_initial_state(seed=0)
    arrange(state, "pile", pile)
    for p, names in hands.items():
        arrange(state, "hand", names, owner=p)
    if deck_top:
        stack_top(state, "deck", deck_top)
    if empty_deck:
        keeper = max(q for q in range(players) if q not in hands)
        arrange(state, "hand", hand(state, keeper) + cards_in(state, "deck"), owner=keeper)
        assert cards_in(state, "deck") == []
    set_var(state, "named", named)
    give_turn(state, turn)
    return state


def pile(state: ruledsl.GameState) -> list[str]:
    return cards_in(state, "pile")


def plays(state: ruledsl.GameState) -> set[str]:
    """The cards the current player may play (Excuse labels reduced to the card)."""
    return {lab.removeprefix("play ").split(",")[0] for lab in labels(state) if lab.startswith("play ")}


def action_from_elsewhere(
    state: ruledsl.GameState, label: str, *, pile_cards: list[str] | None = None, hand_cards: list[str] | None = None
) -> ruledsl.Action:
    """The action labelled ``label``, taken from a copy of ``state`` changed so that it is legal there."""
    other = state.clone()
    if pile_cards is not None:
        arrange(other, "pile", pile_cards)
    if hand_cards is not None:
        arrange(other, "hand", hand_cards, owner=other.current_player())
    set_var(other, "named", None)
    return other.action_from_string(label)


def assert_rejected(state: ruledsl.GameState, label: str, action: ruledsl.Action) -> None:
    """``label`` is not legal: not offered, not found by its text, refused by apply_action, state unchanged."""
    before = (state.current_player(), pile(state), deck(state), [hand(state, q) for q in range(state.num_players)])
    assert label not in labels(state)
    with pytest.raises(IllegalActionError):
        state.action_from_string(label)
    assert str(action) == label
    with pytest.raises(IllegalActionError):
        state.apply_action(action)
    after = (state.current_player(), pile(state), deck(state), [hand(state, q) for q in range(state.num_players)])
    assert after == before


def named_value(suit: str | None) -> object:
    """The raw value the variable 'named' holds for a suit."""
    probe = load().new_initial_state(seed=0)
    set_var(probe, "named", suit)
    return get_var(probe, "named")


# ---------------------------------------------------------------------------- QB-T scenarios


def test_qb_t01_legal_by_suit():
    """QB-T01 Legal by suit.
    Pre: top = the Author (2; Moons, Knots). Act: play the Castle (7; Suns, Knots).
    Exp: legal (shared Knots)."""
    state = position(["the Author"], {0: ["the Castle", "the Sailor", "the Ace of Suns"]})
    assert plays(state) == {"the Castle"}
    deck_before = deck(state)
    act(state, "play the Castle")
    assert pile(state) == ["the Author", "the Castle"]
    assert sorted(hand(state, 0)) == ["the Ace of Suns", "the Sailor"]
    assert deck(state) == deck_before  # no penalty
    assert state.current_player() == 1


def test_qb_t02_legal_by_rank():
    """QB-T02 Legal by rank.
    Pre: top = the Author. Act: play the Origin (2; Waves, Leaves). Exp: legal (rank 2)."""
    state = position(["the Author"], {0: ["the Origin", "the Sailor", "the Ace of Suns"]})
    assert plays(state) == {"the Origin"}
    act(state, "play the Origin")
    assert pile(state) == ["the Author", "the Origin"]
    assert sorted(hand(state, 0)) == ["the Ace of Suns", "the Sailor"]
    assert state.current_player() == 1


def test_qb_t03_illegal():
    """QB-T03 Illegal.
    Pre: top = the Author. Act: play the Sailor (4; Waves, Leaves). Exp: rejected."""
    state = position(["the Author"], {0: ["the Sailor", "the Castle"]})
    sailor = action_from_elsewhere(state, "play the Sailor", pile_cards=["the Origin"])
    assert_rejected(state, "play the Sailor", sailor)
    assert labels(state) == ["play the Castle"]
    assert state.current_player() == 0


def test_qb_t04_basic_quasenbo():
    """QB-T04 Basic Quäsenbö.
    Pre: pile [Ace of Moons, the Mountain (Moons, Suns)]. Act: play the Forest (Moons, Leaves).
    Exp: legal; Moons three times in a row; player draws 1."""
    state = position(["the Ace of Moons", "the Mountain"], {0: ["the Forest", "the Sailor"]}, deck_top=["the Sea"])
    deck_size = len(deck(state))
    act(state, "play the Forest")
    assert pile(state) == ["the Ace of Moons", "the Mountain", "the Forest"]
    assert sorted(hand(state, 0)) == ["the Sailor", "the Sea"]  # the Sea was the penalty card
    assert len(deck(state)) == deck_size - 1
    assert state.current_player() == 1


def test_qb_t05_suits_split_no_quasenbo():
    """QB-T05 Suits split across the three cards: no Quäsenbö.
    Pre: pile [the Mountain (Moons, Suns), the Discovery (Suns, Waves)]. Act: play the Journey (Moons, Waves).
    Exp: legal (Waves); no suit is on all three; no penalty."""
    state = position(["the Mountain", "the Discovery"], {0: ["the Journey", "the Ace of Leaves"]})
    deck_before = deck(state)
    act(state, "play the Journey")
    assert pile(state) == ["the Mountain", "the Discovery", "the Journey"]
    assert hand(state, 0) == ["the Ace of Leaves"]
    assert deck(state) == deck_before
    assert state.current_player() == 1


def test_qb_t06_rank_run_not_penalised():
    """QB-T06 A rank run is not penalised.
    Pre: pile [the Author, the Desert]. Act: play the Origin. Exp: legal; no penalty."""
    state = position(["the Author", "the Desert"], {0: ["the Origin", "the Ace of Moons"]})
    assert plays(state) == {"the Origin"}
    deck_before = deck(state)
    act(state, "play the Origin")
    assert pile(state) == ["the Author", "the Desert", "the Origin"]
    assert hand(state, 0) == ["the Ace of Moons"]
    assert deck(state) == deck_before
    assert state.current_player() == 1


def test_qb_t08_last_card_quasenbo_does_not_win():
    """QB-T08 Last card makes a Quäsenbö.
    Pre: P holds only the Lunatic (Moons, Waves); pile [the Journey (Moons, Waves), the Forest (Moons, Leaves)].
    Act: play the Lunatic. Exp: Quäsenbö; P draws 1; P has 1 card; no win; the game goes on."""
    state = position(["the Journey", "the Forest"], {0: ["the Lunatic"]}, deck_top=["the Calamity"])
    act(state, "play the Lunatic")
    assert pile(state) == ["the Journey", "the Forest", "the Lunatic"]
    assert hand(state, 0) == ["the Calamity"]
    assert not state.is_terminal()
    assert state.returns() == [0.0, 0.0, 0.0]
    assert state.current_player() == 1
    assert labels(state)  # the next player has something to do


def test_qb_t09_last_card_without_quasenbo_wins():
    """QB-T09 Last card without a Quäsenbö wins.
    Pre: P holds only the Sea (Crown; Waves); pile [the Mountain, the Journey]. Act: play the Sea.
    Exp: legal (Waves); no Quäsenbö (Mountain has no Waves); P has 0 cards; P wins; the game ends."""
    state = position(["the Mountain", "the Journey"], {0: ["the Sea"]})
    deck_before = deck(state)
    act(state, "play the Sea")
    assert pile(state) == ["the Mountain", "the Journey", "the Sea"]
    assert hand(state, 0) == []
    assert deck(state) == deck_before
    assert state.is_terminal()
    assert state.current_player() == TERMINAL
    assert state.returns() == [1.0, -1.0, -1.0]
    assert state.legal_actions() == []


def test_qb_t11_reshuffle():
    """QB-T11 Reshuffle.
    Pre: deck empty; pile [X1 … X6]. Act: P must draw.
    Exp: X1…X4 are shuffled into the new deck; X5, X6 stay on the pile; P draws from the new deck."""
    x = ["the Ace of Moons", "the Author", "the Journey", "the Mountain", "the Forest", "the Calamity"]
    state = position(x, {0: ["the Ace of Suns"]}, players=2, empty_deck=True)
    assert labels(state) == ["draw a card"]
    act(state, "draw a card")
    assert pile(state) == x[4:]
    assert len(hand(state, 0)) == 2
    drawn = [c for c in hand(state, 0) if c != "the Ace of Suns"]
    assert len(drawn) == 1 and drawn[0] in x[:4]
    assert sorted(deck(state) + drawn) == sorted(x[:4])
    # None of X1..X4 goes on the Calamity (Wyrms; Crown): P is still drawing.
    assert state.current_player() == 0
    assert labels(state) == ["draw a card"]
    # He draws the three others; then nothing is left to draw (QB-A9): he passes and the turn goes on.
    for _ in range(3):
        act(state, "draw a card")
    assert sorted(hand(state, 0)) == sorted(["the Ace of Suns", *x[:4]])
    assert deck(state) == [] and pile(state) == x[4:]
    assert labels(state) == ["pass"]
    act(state, "pass")
    assert state.current_player() == 1


def test_qb_t12_single_suit_bottleneck():
    """QB-T12 Single-suit card as a bottleneck.
    Pre: pile [the Mountain (Moons, Suns), Ace of Moons]; next player holds the Forest (Moons, Leaves)
    and the Ace of Suns.
    Act: (a) play the Forest; (b) play the Ace of Suns.
    Exp: (a) legal but a Quäsenbö; (b) legal by rank, no Quäsenbö."""
    state = position(
        ["the Mountain", "the Ace of Moons"],
        {1: ["the Forest", "the Ace of Suns", "the Sailor"]},
        turn=1,
        deck_top=["the Bard"],
    )
    assert plays(state) == {"the Forest", "the Ace of Suns"}
    a = state.clone()
    act(a, "play the Forest")
    assert sorted(hand(a, 1)) == ["the Ace of Suns", "the Bard", "the Sailor"]
    assert a.current_player() == 2
    b = state.clone()
    deck_before = deck(b)
    act(b, "play the Ace of Suns")
    assert sorted(hand(b, 1)) == ["the Forest", "the Sailor"]
    assert deck(b) == deck_before
    assert pile(b) == ["the Mountain", "the Ace of Moons", "the Ace of Suns"]
    assert b.current_player() == 2


def test_qb_t14_excuse_names_the_suit():
    """QB-T14 Excuse names the suit.
    Pre (extended deck): top = the Battle (Wyrms, Knots); P plays the Excuse and names Waves; the next player Q
    holds the Betrayal (8; Wyrms, Knots) and the Sea (Waves).
    Act: Q plays. Exp: the Betrayal is rejected; the Sea is legal; no Quäsenbö on the Sea."""
    state = position(
        ["the Battle"], {0: ["the Excuse", "the Ace of Moons"], 1: ["the Betrayal", "the Sea", "the Bard"]}, excuse=True
    )
    act(state, "play the Excuse, naming Waves")
    assert pile(state) == ["the Battle", "the Excuse"]
    assert get_var(state, "named") == named_value("Waves")
    assert all(state.observation(p)["variables"]["named"] == "Waves" for p in range(3))  # public
    assert state.current_player() == 1
    assert plays(state) == {"the Sea"}
    betrayal = action_from_elsewhere(state, "play the Betrayal", pile_cards=["the Battle"])
    assert_rejected(state, "play the Betrayal", betrayal)
    deck_before = deck(state)
    act(state, "play the Sea")
    assert pile(state) == ["the Battle", "the Excuse", "the Sea"]
    assert sorted(hand(state, 1)) == ["the Bard", "the Betrayal"]
    assert deck(state) == deck_before
    assert get_var(state, "named") is None
    assert state.current_player() == 2


def test_qb_t15_double_variant_run_of_four():
    """QB-T15 Double variant, run of 4.
    Pre: pile [Ace of Moons, the Mountain, the Forest]; the Double variant is on. Act: play the Journey (Moons, Waves).
    Exp: Moons run L = 4; penalty 2 (base game: 1)."""
    for double, penalty in ((True, ["the Sea", "the Bard"]), (False, ["the Sea"])):
        state = position(
            ["the Ace of Moons", "the Mountain", "the Forest"],
            {0: ["the Journey", "the Ace of Knots"]},
            deck_top=["the Sea", "the Bard"],
            double=double,
        )
        deck_size = len(deck(state))
        act(state, "play the Journey")
        assert sorted(hand(state, 0)) == sorted(["the Ace of Knots", *penalty]), f"double={double}"
        assert len(deck(state)) == deck_size - len(penalty)
        assert state.current_player() == 1


def _setup_order(game: ruledsl.Game, seed: int) -> list[str]:
    """The deck as setup shuffles it, top first (the engine's seeded Fisher-Yates)."""
    names = game.program.card_names
    order = list(range(len(names)))
    chance.shuffle(chance.seed_state(seed), order)
    return [names[c] for c in reversed(order)]


def test_qb_t17_excuse_as_starter_is_buried():
    """QB-T17 Excuse as the starter.
    Pre: the turned-up starter is the Excuse. Act: setup.
    Exp: the Excuse is buried in the deck and the next card becomes the starter."""
    game = load(3, excuse=True)
    dealt = 3 * 7
    seed = next(s for s in range(5000) if _setup_order(game, s)[dealt] == "the Excuse")
    order = _setup_order(game, seed)
    state = game.new_initial_state(seed=seed)
    # The prediction of the shuffle is right: the hands hold the 21 top cards.
    assert sorted(sum((hand(state, p) for p in range(3)), [])) == sorted(order[:dealt])
    assert len(pile(state)) == 1
    assert pile(state) != ["the Excuse"]
    assert "the Excuse" in deck(state)
    assert len(deck(state)) == 37 - dealt - 1
    assert sorted(deck(state) + pile(state)) == sorted(order[dealt:])
    # The card under the Excuse is the starter (were the Excuse buried on top, it would turn up
    # and be buried again: the order of the other cards never changes).
    assert pile(state) == [order[dealt + 1]]
    # Over many deals, among them some that turn up the Excuse, the starter is never the Excuse.
    turned_up = 0
    for s in range(300):
        turned_up += _setup_order(game, s)[dealt] == "the Excuse"
        st = game.new_initial_state(seed=s)
        assert len(pile(st)) == 1 and pile(st) != ["the Excuse"]
        assert st.current_player() == 0
    assert turned_up >= 5


def test_qb_t18_drawing_while_able_to_play_is_rejected():
    """QB-T18 Drawing while able to play is not allowed.
    Pre: P holds a card legal on the top. Act: P asks to draw. Exp: rejected."""
    state = position(["the Author"], {0: ["the Castle", "the Sailor"]})
    draw = action_from_elsewhere(state, "draw a card", hand_cards=["the Sailor", "the Sea"])
    assert_rejected(state, "draw a card", draw)
    assert labels(state) == ["play the Castle"]


def test_qb_t19_deal_sizes():
    """QB-T19 Deal sizes.
    Pre: 4 players, basic deck. Exp: 7 cards each; 28 + 1 starter; deck 7. With 5 players: 5 each, deck 10."""
    state = load(4).new_initial_state(seed=3)
    assert [len(hand(state, p)) for p in range(4)] == [7] * 4
    assert len(pile(state)) == 1
    assert len(deck(state)) == 7
    state = load(5).new_initial_state(seed=3)
    assert [len(hand(state, p)) for p in range(5)] == [5] * 5
    assert len(pile(state)) == 1
    assert len(deck(state)) == 10


# ---------------------------------------------------------------------------- rulings not covered above


@pytest.mark.parametrize("players, size", [(2, 7), (3, 7), (4, 7), (5, 5), (6, 5)])
def test_qb_a3_deal_sizes_for_every_player_count(players, size):
    """QB-A3: 7 cards each for 2-4 players, 5 for 5-6; one starter; the rest is the deck."""
    for seed in (0, 1):
        state = load(players).new_initial_state(seed=seed)
        assert [len(hand(state, p)) for p in range(players)] == [size] * players
        assert len(pile(state)) == 1
        assert len(deck(state)) == BASIC_DECK - players * size - 1
        everything = deck(state) + pile(state) + sum((hand(state, p) for p in range(players)), [])
        assert len(set(everything)) == BASIC_DECK


def test_qb_a3_two_decktets_and_hand_size_option():
    """QB-A3: the alternative for five or more, two Decktets; hand_size is a parameter."""
    state = load(5, decks=2).new_initial_state(seed=0)
    assert [len(hand(state, p)) for p in range(5)] == [5] * 5
    assert len(deck(state)) == 2 * BASIC_DECK - 25 - 1
    state = load(3, hand_size=4).new_initial_state(seed=0)
    assert [len(hand(state, p)) for p in range(3)] == [4] * 3
    assert len(deck(state)) == BASIC_DECK - 12 - 1


def test_qb_a3_a_deal_that_leaves_too_few_cards_is_refused_at_load():
    """QB-A3, QB-A15: after the deal there must be a starter and a card to bury the Excuse under;
    with two Decktets both Excuses may come up, so one card more. 6 x 12 + 3 = 75 > 74 cards."""
    excuse_two_decks = {"excuse": True, "decks": 2}
    with pytest.raises(ruledsl.RuleDslError) as caught:
        load(6, hand_size=12, **excuse_two_decks)
    assert [d.code for d in caught.value.diagnostics] == ["E605"]
    assert caught.value.diagnostics[0].message == "6 hands of 12 cards leave too few in the deck"
    for seed in range(20):  # one card fewer each leaves enough: the Excuses are always buried
        state = load(6, hand_size=11, **excuse_two_decks).new_initial_state(seed=seed)
        assert pile(state) != ["the Excuse"]


def test_qb_a3_extended_deck_composition():
    """Section 2.2 / rule 9: the Excuse adds 1 card, the Pawns 4, the Courts 4; none by default."""

    def all_cards(game):
        st = game.new_initial_state(seed=0)
        return deck(st) + pile(st) + sum((hand(st, p) for p in range(2)), [])

    pawns = {"the Harvest", "the Watchman", "the Light Keeper", "the Borderland"}
    courts = {"the Consul", "the Rite", "the Window", "the Island"}
    basic = set(all_cards(load(2)))
    assert len(basic) == BASIC_DECK and not basic & (pawns | courts | {"the Excuse"})
    assert set(all_cards(load(2, excuse=True))) == basic | {"the Excuse"}
    assert set(all_cards(load(2, pawns=True))) == basic | pawns
    assert set(all_cards(load(2, courts=True))) == basic | courts
    assert len(all_cards(load(2, excuse=True, pawns=True, courts=True))) == 45


def test_qb_a4_seat_0_first_then_clockwise():
    """QB-A4: the player left of the dealer (seat 0) plays first; then clockwise (seat p+1)."""
    for players in (2, 4, 6):
        state = load(players).new_initial_state(seed=11)
        assert state.current_player() == 0
        enders, applied = [], []
        while len(enders) < 2 * players + 1 and not state.is_terminal():
            p = state.current_player()
            action = state.legal_actions()[0]
            state.apply_action(action)
            applied.append(str(action))
            if str(action) == "draw a card":
                if not state.is_terminal():
                    assert state.current_player() == p  # drawing never ends the turn
            else:
                enders.append(p)
        assert enders == [i % players for i in range(len(enders))]
        assert len(enders) == 2 * players + 1
        assert [str(a) for a in state.history()] == applied


def test_qb_a5_first_play_after_starter_is_never_a_quasenbo():
    """QB-A5: with only the starter on the pile there are not two previous cards;
    the starter counts for the second play."""
    state = position(
        ["the Ace of Moons"],
        {0: ["the Huntress", "the Sailor"], 1: ["the Mountain", "the Sea"]},
        deck_top=["the Ace of Knots"],
    )
    deck_size = len(deck(state))
    act(state, "play the Huntress")  # Moons on Moons: a run of two
    assert hand(state, 0) == ["the Sailor"]
    assert len(deck(state)) == deck_size
    assert state.current_player() == 1
    act(state, "play the Mountain")  # Moons a third time: the starter counts
    assert sorted(hand(state, 1)) == ["the Ace of Knots", "the Sea"]
    assert len(deck(state)) == deck_size - 1
    assert state.current_player() == 2


def test_qb_a6_a7_draw_until_playable_then_play_it():
    """QB-A6/A7: draw only when nothing is playable, one card at a time; the same player goes on,
    and once the drawn card is playable he must place it (it is the only legal action)."""
    state = position(["the Author"], {0: ["the Sailor", "the Sea"]}, deck_top=["the Cave", "the Castle", "the Bard"])
    assert labels(state) == ["draw a card"]
    act(state, "draw a card")
    assert sorted(hand(state, 0)) == ["the Cave", "the Sailor", "the Sea"]
    assert state.current_player() == 0
    assert labels(state) == ["draw a card"]  # the Cave (Waves, Wyrms; 7) does not go on the Author
    act(state, "draw a card")
    assert "the Castle" in hand(state, 0)
    assert state.current_player() == 0
    assert labels(state) == ["play the Castle"]  # drawing again is no longer allowed
    act(state, "play the Castle")
    assert pile(state) == ["the Author", "the Castle"]
    assert sorted(hand(state, 0)) == ["the Cave", "the Sailor", "the Sea"]
    assert deck(state)[-1] == "the Bard"
    assert state.current_player() == 1


def test_qb_a7_drawn_card_faces_the_quasenbo_test():
    """QB-A7: the card placed after drawing is tested for a Quäsenbö as usual."""
    state = position(
        ["the Ace of Moons", "the Mountain"], {0: ["the Ace of Waves"]}, deck_top=["the Forest", "the Sea"]
    )
    act(state, "draw a card")
    assert labels(state) == ["play the Forest"]
    act(state, "play the Forest")
    assert sorted(hand(state, 0)) == ["the Ace of Waves", "the Sea"]
    assert state.current_player() == 1


def test_qb_a8_penalty_ends_the_turn():
    """QB-A8: the penalty card is drawn and the turn passes, even when that card is playable."""
    state = position(
        ["the Ace of Moons", "the Mountain"], {0: ["the Forest", "the Sailor"]}, deck_top=["the Chance Meeting"]
    )
    act(state, "play the Forest")
    assert "the Chance Meeting" in hand(state, 0)  # Moons, Leaves: it would go on the Forest
    assert state.current_player() == 1
    assert pile(state)[-1] == "the Forest"


def test_qb_a9_pass_when_nothing_to_draw():
    """QB-A9: deck empty and a pile of two cards: 'pass' is the only action; the turn passes, nothing moves."""
    state = position(["the Ace of Moons", "the Mountain"], {0: ["the Sea", "the Ace of Waves"]}, empty_deck=True)
    assert labels(state) == ["pass"]
    draw = action_from_elsewhere(state, "draw a card", pile_cards=["the Author", "the Ace of Moons", "the Mountain"])
    assert_rejected(state, "draw a card", draw)
    hands_before = [hand(state, q) for q in range(3)]
    act(state, "pass")
    assert state.current_player() == 1
    assert [hand(state, q) for q in range(3)] == hands_before
    assert pile(state) == ["the Ace of Moons", "the Mountain"]
    assert deck(state) == []
    assert not state.is_terminal()


def test_qb_a9_pass_with_one_card_pile():
    """QB-A9: likewise with only the starter on the pile; the player who can play still plays."""
    state = position(
        ["the Huntress"], {0: ["the Ace of Waves"], 1: ["the Ace of Moons", "the Ace of Suns"]}, empty_deck=True
    )
    assert labels(state) == ["pass"]
    act(state, "pass")
    assert state.current_player() == 1
    assert labels(state) == ["play the Ace of Moons"]


def test_qb_a9_penalty_after_reshuffle_of_three_card_pile():
    """QB-A9: a penalty with an empty deck reshuffles all but the top two pile cards, then draws."""
    state = position(["the Ace of Moons", "the Mountain"], {0: ["the Forest", "the Sailor"]}, empty_deck=True)
    act(state, "play the Forest")
    assert pile(state) == ["the Mountain", "the Forest"]
    assert sorted(hand(state, 0)) == ["the Ace of Moons", "the Sailor"]
    assert deck(state) == []
    assert state.current_player() == 1


def test_qb_a9_penalty_draw_skipped_when_nothing_left():
    """QB-A9 (with QB-A11/A12): a penalty draw that finds no card is skipped. In the Double variant
    the whole run stays on the pile, so a run of 4 on a 4-card pile leaves nothing to draw:
    the player keeps his hand minus the card played and the turn passes."""
    state = position(
        ["the Ace of Moons", "the Mountain", "the Forest"],
        {0: ["the Journey", "the Sea"]},
        empty_deck=True,
        double=True,
    )
    act(state, "play the Journey")
    assert hand(state, 0) == ["the Sea"]
    assert pile(state) == ["the Ace of Moons", "the Mountain", "the Forest", "the Journey"]
    assert deck(state) == []
    assert state.current_player() == 1
    assert not state.is_terminal()


def test_qb_a9_skipped_penalty_on_last_card_wins():
    """QB-A9 with QB-A10: if the penalty draw is skipped on the last card,
    the player ends his turn with 0 cards and wins."""
    state = position(
        ["the Ace of Moons", "the Mountain", "the Forest"], {0: ["the Journey"]}, empty_deck=True, double=True
    )
    act(state, "play the Journey")
    assert hand(state, 0) == []
    assert state.is_terminal()
    assert state.returns() == [1.0, -1.0, -1.0]


def test_qb_a10_first_out_wins_returns():
    """QB-A10: the first player to end his turn with 0 cards wins; the game ends; +1 for him, -1 for all others."""
    state = position(["the Author"], {2: ["the Castle"]}, players=4, turn=2)
    act(state, "play the Castle")
    assert state.is_terminal()
    assert state.current_player() == TERMINAL
    assert state.returns() == [-1.0, -1.0, 1.0, -1.0]
    assert state.legal_actions() == []
    with pytest.raises(IllegalActionError):
        state.apply_action(state.history()[-1])
    assert state.observation(0)["terminal"] is True


def test_qb_a10_with_play_on_the_others_play_on_for_places():
    """QB-A10, alternative (option play_on): the first out leaves the game, which goes on
    without him until one player is left; the places are the order of going out."""
    state = position(
        ["the Author"],
        {0: ["the Mountain", "the Sailor"], 1: ["the Forest", "the Origin"], 2: ["the Castle"]},
        turn=2,
        play_on=True,
    )
    act(state, "play the Castle")
    assert hand(state, 2) == []
    assert not state.is_terminal()
    assert state.current_player() == 0
    act(state, "play the Mountain")
    act(state, "play the Forest")
    assert state.current_player() == 0  # P2, who is out, is skipped
    act(state, "play the Sailor")
    assert state.is_terminal()
    assert state.returns() == [0.0, -1.0, 1.0]  # P2 first, P0 second, P1 last


def test_qb_a10_play_on_changes_nothing_with_two_players():
    """QB-A10, alternative: with two players the first out still wins, +1 against -1."""
    for play_on in (False, True):
        state = position(["the Author"], {1: ["the Castle"]}, players=2, turn=1, play_on=play_on)
        act(state, "play the Castle")
        assert state.is_terminal()
        assert state.returns() == [-1.0, 1.0]


def test_qb_a2_one_penalty_for_two_suits_at_once():
    """QB-A2: a play that makes triples in two suits at once costs one card."""
    state = position(
        ["the Mountain", "the Diplomat"], {0: ["the Pact", "the Sailor"]}, deck_top=["the Sea", "the Bard"]
    )
    act(state, "play the Pact")  # Moons and Suns three times each
    assert sorted(hand(state, 0)) == ["the Sailor", "the Sea"]
    assert deck(state)[-1] == "the Bard"


def test_qb_a2_with_the_option_one_penalty_for_each_suit():
    """QB-A2, alternative (option penalty_per_suit): triples in two suits at once cost two cards; in one, one."""
    state = position(
        ["the Mountain", "the Diplomat"],
        {0: ["the Pact", "the Sailor"]},
        deck_top=["the Sea", "the Bard"],
        penalty_per_suit=True,
    )
    act(state, "play the Pact")  # Moons and Suns three times each
    assert sorted(hand(state, 0)) == ["the Bard", "the Sailor", "the Sea"]
    assert state.current_player() == 1
    state = position(
        ["the Ace of Moons", "the Diplomat"],
        {0: ["the Pact", "the Sailor"]},
        deck_top=["the Sea", "the Bard"],
        penalty_per_suit=True,
    )
    act(state, "play the Pact")  # Moons only
    assert sorted(hand(state, 0)) == ["the Sailor", "the Sea"]


def test_qb_a11_double_penalty_grows_with_the_run():
    """QB-A11: penalty = L - 2 for a run of L >= 3 cards sharing one suit (Double variant)."""
    # A run of 5 on Moons.
    pile_cards = ["the Ace of Moons", "the Mountain", "the Forest", "the Journey"]
    state = position(
        pile_cards,
        {0: ["the Lunatic", "the Sailor"]},
        deck_top=["the Sea", "the Bard", "the End", "the Calamity"],
        double=True,
    )
    act(state, "play the Lunatic")  # L = 5
    assert sorted(hand(state, 0)) == ["the Bard", "the End", "the Sailor", "the Sea"]
    assert deck(state)[-1] == "the Calamity"
    # A run of 3 costs one card; the run is the longest common suit from the top down.
    state = position(
        ["the Sea", "the Ace of Moons", "the Mountain"],
        {0: ["the Diplomat", "the Sailor"]},
        deck_top=["the End", "the Calamity"],
        double=True,
    )
    act(state, "play the Diplomat")  # Moons: Diplomat, Mountain, Ace of Moons; the Sea breaks it
    assert sorted(hand(state, 0)) == ["the End", "the Sailor"]


def test_qb_a12_double_reshuffle_keeps_the_run():
    """QB-A12: in the Double variant the reshuffle keeps the current run (at least two cards) on the pile."""
    x = ["the Sea", "the Ace of Suns", "the Ace of Moons", "the Mountain", "the Forest"]
    hands = {0: ["the Ace of Knots", "the Calamity"]}  # nothing goes on the Forest (Moons, Leaves; 5)
    state = position(x, hands, empty_deck=True, double=True)
    act(state, "draw a card")
    assert pile(state) == x[2:]  # the Moons run of three stays
    drawn = [c for c in hand(state, 0) if c not in hands[0]]
    assert len(drawn) == 1
    assert sorted(deck(state) + drawn) == sorted(x[:2])
    # The base game keeps only the top two.
    state = position(x, hands, empty_deck=True)
    act(state, "draw a card")
    assert pile(state) == x[3:]
    drawn = [c for c in hand(state, 0) if c not in hands[0]]
    assert sorted(deck(state) + drawn) == sorted(x[:3])


def test_qb_a12_double_penalty_reshuffle_keeps_the_new_run():
    """QB-A12: a penalty that needs a reshuffle keeps the run just made (here L = 4) on the pile."""
    x = ["the Sea", "the Ace of Suns", "the Ace of Moons", "the Mountain", "the Forest"]
    state = position(x, {0: ["the Journey", "the Ace of Knots"]}, empty_deck=True, double=True)
    act(state, "play the Journey")  # L = 4: penalty 2, the run of 4 stays
    assert pile(state) == x[2:] + ["the Journey"]
    assert sorted(hand(state, 0)) == ["the Ace of Knots", "the Ace of Suns", "the Sea"]
    assert deck(state) == []
    assert state.current_player() == 1


def test_qb_a13_no_quasenbo_through_the_excuse_by_default():
    """QB-A13: the Excuse has no suit for the Quäsenbö test: neither the next play nor the one after
    can be a Quäsenbö through it (and playing it is none either)."""
    state = position(
        ["the Cave", "the Darkness"],
        {0: ["the Excuse", "the Ace of Knots"], 1: ["the Sea", "the Bard"], 2: ["the Lunatic", "the Ace of Leaves"]},
        excuse=True,
        deck_top=["the Calamity", "the End", "the Huntress"],
    )
    deck_size = len(deck(state))
    act(state, "play the Excuse, naming Waves")
    assert hand(state, 0) == ["the Ace of Knots"]
    act(state, "play the Sea")  # Waves, on the Excuse, on the Darkness (Waves)
    assert hand(state, 1) == ["the Bard"]
    act(state, "play the Lunatic")  # Waves, on the Sea, on the Excuse
    assert hand(state, 2) == ["the Ace of Leaves"]
    assert len(deck(state)) == deck_size
    assert pile(state) == ["the Cave", "the Darkness", "the Excuse", "the Sea", "the Lunatic"]
    assert state.current_player() == 0


def test_qb_a13_named_suit_counts_option():
    """QB-A13 option named_suit_counts: the Excuse shows the named suit to the Quäsenbö test."""
    state = position(
        ["the Cave", "the Darkness"],
        {0: ["the Excuse", "the Ace of Knots"], 1: ["the Sea", "the Bard"], 2: ["the Lunatic", "the Ace of Leaves"]},
        excuse=True,
        excuse_named_suit_counts=True,
        deck_top=["the Calamity", "the End", "the Huntress"],
    )
    act(state, "play the Excuse, naming Waves")  # whether this play is itself a Quäsenbö is left open
    assert state.current_player() == 1
    act(state, "play the Sea")  # Waves: Sea, Excuse (Waves), Darkness
    assert len(hand(state, 1)) == 2 and "the Bard" in hand(state, 1)
    assert state.current_player() == 2
    act(state, "play the Lunatic")  # Waves: Lunatic, Sea, Excuse (Waves), Darkness, Cave
    assert len(hand(state, 2)) == 2 and "the Ace of Leaves" in hand(state, 2)
    # Naming a suit the pile below does not carry makes no run through it.
    state = position(
        ["the Cave", "the Darkness"],
        {0: ["the Excuse", "the Ace of Knots"], 1: ["the Huntress", "the Bard"]},
        excuse=True,
        excuse_named_suit_counts=True,
    )
    deck_size = len(deck(state))
    act(state, "play the Excuse, naming Moons")
    act(state, "play the Huntress")
    assert hand(state, 1) == ["the Bard"]
    assert len(deck(state)) == deck_size


def test_qb_a13_with_the_option_the_excuse_itself_can_make_a_quasenbo():
    """QB-A13's alternative (excuse_named_suit_counts): the named suit is the Excuse's suit in
    the test, for its own play too; so going out on it can fail (QB-A16 holds by default only)."""
    state = position(
        ["the Cave", "the Darkness"],  # both carry Waves
        {0: ["the Excuse"]},
        excuse=True,
        excuse_named_suit_counts=True,
        deck_top=["the Huntress"],
    )
    act(state, "play the Excuse, naming Waves")
    assert hand(state, 0) == ["the Huntress"]  # the penalty card: no win
    assert not state.is_terminal()
    state = position(["the Cave", "the Darkness"], {0: ["the Excuse"]}, excuse=True, excuse_named_suit_counts=True)
    act(state, "play the Excuse, naming Moons")  # no Moons below: no Quäsenbö, he goes out
    assert state.is_terminal() and state.returns()[0] == 1.0


def test_qb_a14_named_suit_stays_after_a_pass():
    """QB-A14: the next player draws until he gets the named suit; if he passes, the requirement stays for the next."""
    # Drawing for the named suit: a card matching the Battle does not do.
    state = position(
        ["the Battle"],
        {0: ["the Excuse", "the Ace of Moons"], 1: ["the Bard", "the Ace of Suns"]},
        excuse=True,
        deck_top=["the Betrayal", "the Sea"],
    )
    act(state, "play the Excuse, naming Waves")
    assert labels(state) == ["draw a card"]
    act(state, "draw a card")
    assert "the Betrayal" in hand(state, 1)
    assert state.current_player() == 1 and labels(state) == ["draw a card"]
    act(state, "draw a card")
    assert labels(state) == ["play the Sea"]
    act(state, "play the Sea")
    assert get_var(state, "named") is None
    # Passing: nothing left to draw; the named suit stays.
    state = position(
        ["the Battle"],
        {0: ["the Excuse", "the Ace of Moons"], 1: ["the Bard", "the Ace of Suns"], 2: ["the Sea", "the Betrayal"]},
        players=4,
        excuse=True,
        empty_deck=True,
    )
    act(state, "play the Excuse, naming Waves")
    assert pile(state) == ["the Battle", "the Excuse"]
    assert labels(state) == ["pass"]
    act(state, "pass")
    assert get_var(state, "named") == named_value("Waves")
    assert state.current_player() == 2
    assert plays(state) == {"the Sea"}


def test_qb_a16_going_out_on_the_excuse():
    """QB-A16: a player may go out on the Excuse (it never makes a Quäsenbö by default)."""
    state = position(["the Ace of Moons", "the Mountain"], {1: ["the Excuse"]}, turn=1, excuse=True)
    assert plays(state) == {"the Excuse"}
    act(state, "play the Excuse, naming Moons")
    assert hand(state, 1) == []
    assert state.is_terminal()
    assert state.returns() == [-1.0, 1.0, -1.0]


def test_qb_a16_with_the_option_off_the_excuse_may_not_be_the_last_card():
    """QB-A16, alternative (out_on_excuse=no): a player left with the Excuse alone draws instead."""
    state = position(
        ["the Ace of Moons", "the Mountain"], {1: ["the Excuse"]}, turn=1, excuse=True, out_on_excuse=False
    )
    assert labels(state) == ["draw a card"]
    # With another card in hand, the Excuse may be played as usual.
    state = position(
        ["the Ace of Moons", "the Mountain"],
        {1: ["the Excuse", "the Sea"]},
        turn=1,
        excuse=True,
        out_on_excuse=False,
    )
    assert plays(state) == {"the Excuse"}


def test_qb_a13_excuse_always_playable():
    """QB-A13: the Excuse goes on any card, even while a named suit is asked for; six namings are offered."""
    namings = [f"play the Excuse, naming {s}" for s in ("Moons", "Suns", "Waves", "Leaves", "Wyrms", "Knots")]
    state = position(["the Calamity"], {0: ["the Excuse", "the Ace of Moons"]}, excuse=True)
    assert labels(state) == namings
    # While a named suit is asked for, the Excuse still goes (on the Battle, Waves asked for).
    state = position(["the Battle"], {0: ["the Excuse", "the Ace of Moons", "the Soldier"]}, excuse=True, named="Waves")
    assert labels(state) == namings


def test_qb_a17_pawns_and_courts_match():
    """QB-A17: Pawns and Courts follow the normal rules (rank or suit); a Pawn and a Court are different ranks."""
    # The Light Keeper (Pawn; Suns, Waves, Knots) and the Rite (Court; Moons, Leaves, Wyrms) share nothing.
    state = position(
        ["the Rite"], {0: ["the Light Keeper", "the Watchman", "the Ace of Suns"]}, pawns=True, courts=True
    )
    assert plays(state) == {"the Watchman"}  # Moons and Wyrms
    keeper = action_from_elsewhere(state, "play the Light Keeper", pile_cards=["the Harvest"])
    assert_rejected(state, "play the Light Keeper", keeper)
    # A Pawn follows a Pawn, a Court a Court.
    state = position(["the Harvest"], {0: ["the Borderland", "the Ace of Knots"]}, pawns=True)
    assert plays(state) == {"the Borderland"}
    state = position(["the Consul"], {0: ["the Island", "the Ace of Leaves"]}, courts=True)
    assert plays(state) == {"the Island"}


def test_qb_a17_courts_absent_by_default():
    """QB-A17: the Courts are not in the game unless the option courts is on."""
    state = load(3, pawns=True).new_initial_state(seed=0)
    with pytest.raises(ValueError):
        arrange(state, "pile", ["the Consul"])


def test_qb_a18_pawn_on_pawn():
    """QB-A18: a Pawn on a Pawn is a Quäsenbö exactly when the card below has the suit the two Pawns share;
    three Pawns in a row never share a suit. Courts (option courts) likewise."""
    cases = [
        # pile, card played, pawns/courts options, Quäsenbö?
        (["the Ace of Moons", "the Harvest"], "the Watchman", {"pawns": True}, True),  # share Moons
        (["the Ace of Leaves", "the Harvest"], "the Watchman", {"pawns": True}, False),  # Leaves not on the Watchman
        (["the Harvest", "the Watchman"], "the Light Keeper", {"pawns": True}, False),  # three Pawns
        (["the Huntress", "the Consul"], "the Rite", {"courts": True}, True),  # Courts share Moons
        (["the Sea", "the Consul"], "the Rite", {"courts": True}, False),
    ]
    for pile_cards, card, options, quasenbo in cases:
        state = position(pile_cards, {0: [card, "the Ace of Suns"]}, deck_top=["the Ace of Knots"], **options)
        act(state, f"play {card}")
        expected = ["the Ace of Knots", "the Ace of Suns"] if quasenbo else ["the Ace of Suns"]
        assert sorted(hand(state, 0)) == expected, (pile_cards, card)
        assert state.current_player() == 1


def test_qb_a19_rank_runs_of_single_suit_cards():
    """QB-A19: three Aces (or Crowns) in a row are never a Quäsenbö."""
    for cards in (["the Ace of Moons", "the Ace of Suns", "the Ace of Waves"], ["the Huntress", "the Bard", "the Sea"]):
        state = position(cards[:2], {0: [cards[2], "the Mountain"]}, deck_top=["the Author"])
        deck_size = len(deck(state))
        act(state, f"play {cards[2]}")
        assert hand(state, 0) == ["the Mountain"]
        assert len(deck(state)) == deck_size


def test_qb_a20_pile_order_is_play_order_and_public():
    """QB-A20: the pile is the play order, never reordered; every player sees all of it (all suits stay visible)."""
    state = position(
        ["the Author"],
        {0: ["the Castle", "the Sea"], 1: ["the Painter", "the Cave"], 2: ["the Bard", "the Ace of Moons"]},
    )
    for label in ("play the Castle", "play the Painter", "play the Bard"):
        act(state, label)
    expected = ["the Author", "the Castle", "the Painter", "the Bard"]
    assert pile(state) == expected
    for p in range(3):
        assert state.observation(p)["zones"]["pile"]["cards"] == expected
