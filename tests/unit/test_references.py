"""Tests for the hand-written reference implementations in benchmarks/."""

import pathlib
import random
import sys

import pytest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2]))

from benchmarks import reference_crazy_eights as ce  # noqa: E402
from benchmarks import reference_quasenbo as qb  # noqa: E402
from benchmarks.harness import run  # noqa: E402

# (module, allowed player counts, function listing every card in the game)
GAMES = {
    "crazy_eights": (ce, range(2, 6), lambda s: [c for h in s.hands for c in h] + s.stock + s.discard),
    "quasenbo": (qb, range(2, 7), lambda s: [c for h in s.hands for c in h] + s.deck + s.pile),
}
CASES = [(name, players) for name, (_, counts, _) in GAMES.items() for players in counts]


def snapshot(state):
    """Everything observable about a state, for equality checks."""
    piles = (
        (state.stock, state.discard, state.suit, state.passes) if hasattr(state, "stock") else (state.deck, state.pile)
    )
    return (
        repr([list(h) for h in state.hands]),
        repr(piles),
        state.current_player(),
        repr(state.legal_actions()),
        state.returns(),
        state.rng.getstate(),
    )


def checked_playout(name, players, seed):
    """A random playout that checks the invariants after every action; returns the actions taken."""
    module, _, all_cards = GAMES[name]
    rng = random.Random(1000 + seed)
    state = module.State(players, seed)
    full_deck = sorted(module.DECK)
    taken = []
    while not state.is_terminal():
        actions = state.legal_actions()
        assert actions, "no legal action in a live game"
        assert len(set(actions)) == len(actions)
        assert 0 <= state.current_player() < players
        assert state.returns() == [0.0] * players
        action = rng.choice(actions)
        state.apply_action(action)
        taken.append(action)
        assert sorted(all_cards(state)) == full_deck
        assert len(taken) < 5000, "game does not end"
    assert state.current_player() == -4
    assert state.legal_actions() == []
    result = state.returns()
    assert len(result) == players and all(type(r) is float for r in result)
    assert sorted(result) in ([0.0] * players, [-1.0] * (players - 1) + [1.0])
    return taken


@pytest.mark.parametrize("name,players", CASES)
def test_random_playouts_end_and_conserve_cards(name, players):
    module = GAMES[name][0]
    for seed in range(50):
        taken = checked_playout(name, players, seed)
        # playout() makes the same choices with the same rng, so it must agree on the length.
        assert module.playout(players, seed, random.Random(1000 + seed)) == len(taken)


@pytest.mark.parametrize("name,players", CASES)
def test_same_seed_same_game(name, players):
    assert checked_playout(name, players, 7) == checked_playout(name, players, 7)
    module = GAMES[name][0]
    a, b = module.State(players, 3), module.State(players, 3)
    assert snapshot(a) == snapshot(b)
    assert snapshot(module.State(players, 4)) != snapshot(a)


@pytest.mark.parametrize("name,players", CASES)
def test_clone_is_independent(name, players):
    module = GAMES[name][0]
    rng = random.Random(5)
    for seed in range(10):
        state = module.State(players, seed)
        while not state.is_terminal():
            before = snapshot(state)
            copy = state.clone()
            assert snapshot(copy) == before
            assert copy.rng is not state.rng
            for _ in range(5):
                if copy.is_terminal():
                    break
                copy.apply_action(rng.choice(copy.legal_actions()))
            assert snapshot(state) == before
            state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("name", GAMES)
def test_run_reports_games_and_moves(name):
    games, moves, elapsed = run(GAMES[name][0].playout, 3, 0.05)
    assert games >= 1 and moves >= 9 * games and elapsed >= 0.05


def test_profile_script_names_the_compiled_rules(capsys):
    from benchmarks import profile_playouts

    assert profile_playouts.main(["crazy_eights", "--games", "5", "--players", "2", "--top", "40"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Crazy Eights, 2 players: 5 games,")
    assert "L0 (<ruledsl " in out and "apply_action (state.py:" in out
    assert profile_playouts.main(["no_such_game"]) == 65
    assert "error[E004]" in capsys.readouterr().err


# ---------------------------------------------------------------- Crazy Eights


def ce_position(hands, discard, suit, stock, player=0):
    state = ce.State(len(hands), 0)
    state.hands = [list(h) for h in hands]
    state.discard = list(discard)
    state.suit = suit
    state.stock = list(stock)
    state.player = player
    return state


def test_ce_deal():
    for seed in range(200):
        state = ce.State(4, seed)
        assert [len(h) for h in state.hands] == [5, 5, 5, 5]
        assert len(state.stock) == 52 - 20 - 1 and len(state.discard) == 1
        assert state.discard[0][0] != 8
        assert state.suit == state.discard[0][1]
        assert state.current_player() == 0


def test_ce_eight_gives_one_action_per_suit():
    state = ce_position([[(8, "S"), (3, "H")], [(2, "C")]], [(5, "D")], "D", [(9, "C")])
    assert state.legal_actions() == [((8, "S"), "S"), ((8, "S"), "H"), ((8, "S"), "D"), ((8, "S"), "C")]
    state.apply_action(((8, "S"), "H"))
    assert state.suit == "H" and state.discard[-1] == (8, "S") and state.current_player() == 1


def test_ce_suit_and_rank_matches_in_hand_order():
    # Suit follows the named suit, not the 8 on top: only the club matches.
    state = ce_position([[(3, "H"), (9, "C"), (8, "D"), (5, "C")], [(2, "C")]], [(8, "S")], "C", [])
    assert state.legal_actions() == [((9, "C"), "C")] + [((8, "D"), s) for s in "SHDC"] + [((5, "C"), "C")]
    # Rank match changes the suit.
    state = ce_position([[(5, "H"), (2, "S")], [(2, "C")]], [(5, "D")], "D", [])
    assert state.legal_actions() == [((5, "H"), "H")]
    state.apply_action(((5, "H"), "H"))
    assert state.suit == "H" and state.passes == 0


def test_ce_draw_only_when_nothing_playable():
    state = ce_position([[(3, "H"), (4, "H")], [(2, "C")]], [(5, "D")], "D", [(6, "D"), (7, "S")])
    assert state.legal_actions() == [ce.DRAW]
    state.apply_action(ce.DRAW)
    assert state.hands[0] == [(3, "H"), (4, "H"), (7, "S")] and state.current_player() == 0
    state.apply_action(ce.DRAW)  # 7S did not help, draw again
    assert state.current_player() == 0
    assert state.legal_actions() == [((6, "D"), "D")]
    assert ce.DRAW not in state.legal_actions()


def test_ce_pass_only_with_empty_stock_and_blocked_game_lowest_penalty_wins():
    # Penalties: player 0 = 50 + 1, player 1 = 10 + 10, player 2 = 3 + 9
    hands = [[(8, "C"), (1, "H")], [(13, "H"), (11, "C")], [(3, "H"), (9, "C")]]
    state = ce_position(hands, [(5, "D")], "S", [], player=1)
    assert state.legal_actions() == [ce.PASS]
    state.apply_action(ce.PASS)
    state.apply_action(ce.PASS)
    assert state.current_player() == 0 and not state.is_terminal()
    # player 0 plays an 8, which resets the pass count
    state.apply_action(((8, "C"), "D"))
    assert state.passes == 0
    for _ in range(2):
        state.apply_action(ce.PASS)
    assert not state.is_terminal()
    state.apply_action(ce.PASS)  # player 0 (ace of hearts left): third pass in a row
    assert state.is_terminal() and state.current_player() == -4
    # Now player 0 has 1, player 1 has 20, player 2 has 12.
    assert state.returns() == [1.0, -1.0, -1.0]


def test_ce_blocked_tie_is_draw():
    hands = [[(10, "H")], [(12, "H")]]
    state = ce_position(hands, [(5, "D")], "S", [])
    state.apply_action(ce.PASS)
    state.apply_action(ce.PASS)
    assert state.is_terminal() and state.returns() == [0.0, 0.0]


def test_ce_emptying_hand_wins():
    state = ce_position([[(2, "C")], [(5, "D")], [(6, "D")]], [(5, "D")], "D", [(7, "D")], player=1)
    state.apply_action(((5, "D"), "D"))
    assert state.is_terminal() and state.returns() == [-1.0, 1.0, -1.0]
    assert sum(state.returns()) == -1.0


# ---------------------------------------------------------------- Quäsenbö


C = qb.CARDS


def qb_position(hands, pile, deck, player=0):
    state = qb.State(len(hands), 0)
    state.hands = [[C[n] for n in h] for h in hands]
    state.pile = [C[n] for n in pile]
    state.deck = [C[n] for n in deck]
    state.player = player
    return state


def test_qb_card_table():
    assert len(qb.DECK) == 36 and len(C) == 36
    for suit in qb.SUITS:
        # one Ace, one Crown and eight two-suited cards
        assert sum(suit in card.suits for card in qb.DECK) == 10
    assert [card.rank for card in qb.DECK].count(1) == 6
    assert [card.rank for card in qb.DECK].count(10) == 6
    assert C["the Cave"] == ("the Cave", 7, frozenset({"Waves", "Wyrms"}))
    assert C["the Windfall"].suits == {"Knots"}


def test_qb_deal():
    for players, size in [(2, 7), (4, 7), (5, 5), (6, 5)]:
        state = qb.State(players, players)
        assert [len(h) for h in state.hands] == [size] * players
        assert len(state.pile) == 1 and len(state.deck) == 36 - 1 - size * players


def test_qb_quasenbo_draws_one_penalty():
    state = qb_position(
        [["the Forest", "the Sea"], ["the End"]], ["Ace of Moons", "the Mountain"], ["the Bard", "the Sailor"]
    )
    assert state.legal_actions() == [C["the Forest"]]
    state.apply_action(C["the Forest"])
    assert state.hands[0] == [C["the Sea"], C["the Sailor"]]
    assert state.deck == [C["the Bard"]]
    assert state.current_player() == 1


def test_qb_no_common_suit_no_penalty():
    state = qb_position([["the Journey", "the Sea"], ["the End"]], ["the Mountain", "the Discovery"], ["the Bard"])
    state.apply_action(C["the Journey"])
    assert state.hands[0] == [C["the Sea"]] and state.deck == [C["the Bard"]]
    assert state.current_player() == 1


def test_qb_rank_match_is_placeable():
    state = qb_position([["the Desert", "the Sea", "the Origin"], ["the End"]], ["the Author"], ["the Bard"])
    # Desert: rank 2 like the Author; the Sea: no; the Origin: rank 2.
    assert state.legal_actions() == [C["the Desert"], C["the Origin"]]


def test_qb_last_card_with_quasenbo_does_not_win_and_refills_from_pile():
    state = qb_position([["the Forest"], ["the End"]], ["Ace of Moons", "the Mountain"], [])
    state.apply_action(C["the Forest"])
    # The deck was empty: the pile minus its top two (just the Ace of Moons) became the deck.
    assert state.hands[0] == [C["Ace of Moons"]]
    assert state.pile == [C["the Mountain"], C["the Forest"]] and state.deck == []
    assert not state.is_terminal() and state.current_player() == 1


def test_qb_last_card_without_quasenbo_wins():
    state = qb_position([["the Sea"], ["the Journey"], ["the End"]], ["the Mountain", "the Discovery"], [], player=1)
    state.apply_action(C["the Journey"])
    assert state.is_terminal() and state.current_player() == -4
    assert state.returns() == [-1.0, 1.0, -1.0]


def test_qb_draw_until_placeable():
    # The Cave (Waves, Wyrms, 7) and the Savage (Leaves, Wyrms, 3) do not match the Bard (Suns, Crown).
    state = qb_position([["the Cave"], ["the End"]], ["the Bard"], ["the Pact", "the Savage"])
    assert state.legal_actions() == [qb.DRAW]
    state.apply_action(qb.DRAW)
    assert state.hands[0] == [C["the Cave"], C["the Savage"]] and state.current_player() == 0
    assert state.legal_actions() == [qb.DRAW]
    state.apply_action(qb.DRAW)
    assert state.legal_actions() == [C["the Pact"]] and state.deck == []


def test_qb_draw_refills_deck_from_pile():
    pile = ["the Author", "the Desert", "the Origin", "the Bard"]
    state = qb_position([["the Cave"], ["the End"]], pile, [])
    assert state.legal_actions() == [qb.DRAW]
    state.apply_action(qb.DRAW)
    assert state.pile == [C["the Origin"], C["the Bard"]]
    assert len(state.deck) == 1 and len(state.hands[0]) == 2
    assert {state.deck[0], state.hands[0][1]} == {C["the Author"], C["the Desert"]}


def test_qb_pass_when_nothing_can_be_drawn():
    state = qb_position([["the Cave"], ["the End"]], ["the Author", "the Bard"], [])
    assert state.legal_actions() == [qb.PASS]
    state.apply_action(qb.PASS)
    assert state.current_player() == 1 and not state.is_terminal()
    assert state.hands == [[C["the Cave"]], [C["the End"]]]
    assert state.pile == [C["the Author"], C["the Bard"]]


# ---------------------------------------------------------------- the strength study


def test_the_ceiling_study_knows_only_what_an_empty_deck_told() -> None:
    """benchmarks/quasenbo_ceiling.py: the cards its 'empty' deals fix are truly in the other hand,
    and it does learn some in games that run the deck out."""
    from benchmarks import quasenbo_ceiling as study

    learned = 0
    for seed in range(30):
        state = qb.State(2, seed)
        seat = study.Seat("empty")
        rng = random.Random(seed)
        while state.winner is None:
            actor = state.player
            action = rng.choice(state.legal_actions())
            state.apply_action(action)
            seat.saw(state, actor, action)
            assert seat.held <= set(state.hands[1])
            learned += bool(seat.held)
            world = seat.world(state, rng)
            assert sorted(world.hands[1] + world.deck) == sorted(state.hands[1] + state.deck)
            assert world.hands[0] == state.hands[0] and world.pile == state.pile
    assert learned > 0


def test_the_ceiling_study_plays_whole_games() -> None:
    from benchmarks import quasenbo_ceiling as study

    # 20 iterations: a smoke test of the search, not of its strength.
    results = [study.play((seed, deal, "reply", 20)) for seed, deal in enumerate(study.DEALS)]
    assert [seed for seed, _ in results] == [0, 1, 2]
    assert all(isinstance(won, bool) for _, won in results)
    assert study.main(["-n", "2", "--iterations", "5", "--policy", "standing"]) == 0
