"""Refused moves: the reason given, in the rules' words or the engine's, never about unseen cards."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

import ruledsl
from ruledsl.engine.reading import NO_REASON
from ruledsl.engine.state import GameState
from tests.property.test_playthrough import hidden_from, permute_hidden

# A small game whose state each test arranges: two colours of six ranks, a hidden deck, a
# public pile, hands seen by their owners.
REASONS = """\
game "Reasons"
players 2 to 3
values colour: red, blue
card colour: colour
card rank: number
deck:
    card "{colour} {rank}" for rank in 1 to 6, colour in red to blue
zone deck: shared, hidden
zone pile: shared, public
zone hand: per player, owner
var calls = 0, hidden
setup:
    shuffle deck
    deal 3 from deck to each hand
    move top of deck to pile
define top_card = top of pile
phase play:
    action play(c: card from hand):
        require c.colour == top_card.colour or c.rank == top_card.rank, (
            "{c} matches neither the colour nor the rank of {top_card}")
        require c.rank != 6, "a 6 is dropped, not played"
        label "play {c}"
        move c to pile
    action drop(c: card from hand) when size of hand > 1:
        require c.rank == 6, "only a 6 is dropped, not {c}"
        label "drop {c}"
        move c to pile
        go to scoring
    action draw otherwise:
        require deck is not empty, "the deck is empty"
        label "draw a card"
        move top of deck to hand
    action call when calls < 3:
        add 1 to calls
    action show:
        require size of pile > 5, "the pile is short, and the deck's top card is {top of deck}"
        again
phase scoring:
    action score(n: number 1 to size of hand):
        label if n == 1 then "score one card" else "score {words(n)} cards"
        end game, winner player
"""


@pytest.fixture
def game(tmp_path: Path) -> ruledsl.Game:
    path = tmp_path / "reasons.game"
    path.write_text(REASONS, encoding="utf-8")
    return ruledsl.load_game(str(path), players=2)


def arrange(state: GameState, **zones: list[str]) -> GameState:
    """Put the named cards in the zones named (``hand0``, ``hand1``, ``pile``), the rest in the deck."""
    prog = state.prog
    ids = {name: c for c, name in enumerate(prog.card_names)}
    instance = {"deck": prog.zones[0].base, "pile": prog.zones[1].base}
    for q in range(state.n):
        instance[f"hand{q}"] = prog.zones[2].base + q
    placed = {ids[name] for names in zones.values() for name in names}
    for z in range(len(state.zones)):
        state.zones[z] = []
    state.zones[instance["deck"]] = [c for c in range(prog.n_cards) if c not in placed]
    for zone, names in zones.items():
        state.zones[instance[zone]] = [ids[name] for name in names]
    for z, cards in enumerate(state.zones):
        for c in cards:
            state.loc[c] = z
    state._legal = None
    return state


def arranged(game: ruledsl.Game, **zones: list[str]) -> GameState:
    zones.setdefault("hand0", ["red 1", "blue 2", "blue 6"])
    zones.setdefault("hand1", ["red 5", "blue 5", "red 6"])
    zones.setdefault("pile", ["red 4"])
    return arrange(game.new_initial_state(seed=0), **zones)


class TestTheRulesWords:
    def test_the_first_require_that_fails_gives_its_reason(self, game: ruledsl.Game) -> None:
        state = arranged(game)
        assert state.why_illegal("play blue 2") == "blue 2 matches neither the colour nor the rank of red 4"
        # Both requires fail for the blue 6: the first one written speaks.
        assert state.why_illegal("play blue 6") == "blue 6 matches neither the colour nor the rank of red 4"
        assert state.why_illegal("play red 1") is None

    def test_the_second_require_speaks_when_the_first_holds(self, game: ruledsl.Game) -> None:
        state = arranged(game, pile=["blue 3"])
        assert state.why_illegal("play blue 6") == "a 6 is dropped, not played"

    def test_a_when_condition_on_no_choice_is_tested_before_the_choice(self, game: ruledsl.Game) -> None:
        state = arranged(game, hand0=["red 1"])
        # 'when size of hand > 1' comes before both the card and the 'require' on it.
        assert state.why_illegal("drop blue 2") == "the number of cards in your hand is not more than 1"
        state = arranged(game)
        assert state.why_illegal("drop red 1") == "only a 6 is dropped, not red 1"

    def test_a_reason_shows_an_unseen_card_as_hidden(self, game: ruledsl.Game) -> None:
        state = arranged(game)
        top_of_deck = state.prog.card_names[state.zones[0][-1]]
        reason = state.why_illegal("show")
        assert reason == "the pile is short, and the deck's top card is a hidden card"
        assert top_of_deck not in reason

    def test_a_condition_on_a_hidden_variable_is_never_explained(self, game: ruledsl.Game) -> None:
        state = arranged(game)
        state.gv[0] = 3  # calls, hidden
        state._legal = None
        assert state.why_illegal("call") == NO_REASON

    def test_what_follows_a_condition_on_a_hidden_variable_is_the_same_whatever_it_is(self, tmp_path: Path) -> None:
        """A reason given only when the hidden condition holds would tell that it does: the
        condition is not tested, and what follows speaks alike whether it holds or not."""
        path = tmp_path / "secret.game"
        path.write_text(
            'game "Secret"\nplayers 2\nzone deck: shared, hidden\nzone hand: per player, owner\n'
            'var secret = 0, hidden\ndeck:\n    card "A"\nsetup:\n    move all of deck to hand\n'
            "phase hide:\n    action hide(n: number 1 to 5):\n        set secret = n\n"
            "        go to guess with player after player\n"
            'phase guess:\n    action guess when secret > 3:\n        require deck is not empty, "the deck is empty"\n'
            "        end game, winner player\n    action give_up:\n        end game, draw\n",
            encoding="utf-8",
        )
        game = ruledsl.load_game(str(path))
        for hidden in (2, 5):
            state = game.new_initial_state(seed=1)
            state.apply_action(state.action_from_string(f"hide {hidden}"))
            assert state.current_player() == 1
            assert state.why_illegal("guess") == "the deck is empty"

    def test_a_reason_that_depends_on_unseen_cards_is_withheld(self, tmp_path: Path) -> None:
        path = tmp_path / "peek.game"
        path.write_text(
            'game "Peek"\nplayers 2\nzone deck: shared, hidden\nzone hand: per player, owner\ncard rank: number\n'
            'deck:\n    card "{rank}" for rank in 1 to 9\nsetup:\n    shuffle deck\nphase play:\n'
            '    action peek:\n        require (top of deck).rank == 1, "the top card is {(top of deck).rank}"\n'
            "        end game, winner player\n    action draw:\n        move top of deck to hand\n",
            encoding="utf-8",
        )
        state = ruledsl.load_game(str(path)).new_initial_state(seed=1)
        assert state.legal_actions() and "peek" not in [str(a) for a in state.legal_actions()]
        assert state.why_illegal("peek") == NO_REASON
        with pytest.raises(ruledsl.IllegalActionError) as info:
            state.action_from_string("peek")
        assert str(info.value) == "'peek' is not a legal action now"


class TestTheEnginesWords:
    def test_a_card_not_in_the_hand(self, game: ruledsl.Game) -> None:
        state = arranged(game)
        # The red 5 is in P1's hand, unseen by P0: he is told only that it is not in his.
        assert state.why_illegal("play red 5") == "red 5 is not in your hand"
        # The red 4 lies on the public pile: that he may be told.
        assert state.why_illegal("play red 4") == "red 4 is not in your hand: it is in the pile"

    def test_a_card_name_no_card_has(self, game: ruledsl.Game) -> None:
        state = arranged(game)
        assert state.why_illegal("play blue 9") == "no card is called 'blue 9' (did you mean 'blue 6'?)"
        assert state.why_illegal("fly away") == "no move of this game reads like that"

    def test_otherwise_is_for_when_no_other_move_is(self, game: ruledsl.Game) -> None:
        state = arranged(game)
        assert (
            state.why_illegal("draw a card") == "that is allowed only when no other move is, and you have three others"
        )

    def test_an_action_of_another_phase(self, game: ruledsl.Game) -> None:
        state = arranged(game)
        assert (
            state.why_illegal("score one card") == "that belongs to the 'scoring' phase, and this is the 'play' phase"
        )

    def test_a_number_out_of_range_names_the_last_choice_allowed(self, game: ruledsl.Game) -> None:
        state = arranged(game)
        state.apply_action(state.action_from_string("drop blue 6"))
        assert state.phase_name() == "scoring"
        # P0 holds two cards now: an 'if' label is read branch by branch, words as numbers.
        assert state.current_player() == 0
        assert state.why_illegal("score five cards") == "the most you may choose is 'score two cards'"
        assert state.why_illegal("score one card") is None

    def test_not_your_turn(self, game: ruledsl.Game) -> None:
        state = arranged(game)
        assert state.why_illegal("play red 5", player=1) == "it is not your turn: P0 is to play"
        assert state.why_illegal("play red 1", player=0) is None

    def test_a_finished_game(self, game: ruledsl.Game) -> None:
        state = arranged(game)
        state.apply_action(state.action_from_string("drop blue 6"))
        state.apply_action(state.action_from_string("score one card"))
        assert state.why_illegal("play red 1") == "the game is over"


class TestTheApi:
    def test_apply_action_refuses_with_the_reason_and_the_moves_allowed(self, game: ruledsl.Game) -> None:
        state = arranged(game)
        played = state.action_from_string("play red 1")
        other = state.clone()
        other.apply_action(played)  # P1 is to act there: the red 1 is not his
        before = [str(a) for a in other.legal_actions()]
        with pytest.raises(ruledsl.IllegalActionError) as info:
            other.apply_action(played)
        assert str(info.value) == (
            "'play red 1' is not legal now: red 1 is not in your hand: it is in the pile; "
            "P1 may: 'play red 5', 'drop red 6', 'call'"
        )
        assert info.value.diagnostics[0].code == "R505"
        assert [str(a) for a in other.legal_actions()] == before  # the game goes on unchanged
        assert len(other.history()) == 1

    def test_action_from_string_says_why(self, game: ruledsl.Game) -> None:
        state = arranged(game)
        with pytest.raises(ruledsl.IllegalActionError) as info:
            state.action_from_string("play blue 2")
        assert str(info.value) == (
            "'play blue 2' is not a legal action now: blue 2 matches neither the colour nor the rank of red 4"
        )

    def test_why_illegal_takes_an_action_too(self, game: ruledsl.Game) -> None:
        state = arranged(game)
        play = state.action_from_string("play red 1")
        assert state.why_illegal(play) is None
        assert state.why_illegal("not an action") == "no move of this game reads like that"
        assert state.why_illegal(42) == "42 is not an action"  # type: ignore[arg-type]

    def test_reasons_are_compiled_only_when_a_move_is_first_refused(self, game: ruledsl.Game) -> None:
        state = arranged(game)
        assert game.program.checks is not None
        while not state.is_terminal():
            state.apply_action(state.legal_actions()[0])
        assert game.program.checks is not None  # playing never needed them
        arranged(game).why_illegal("play blue 2")
        assert game.program.checks is None
        assert all(d.checks is not None for p in game.program.phases for d in p.actions)


class TestTheShippedGames:
    def test_quasenbo_following(self) -> None:
        game = ruledsl.load_game("quasenbo", players=2, options={"excuse": True, "out_on_excuse": False})
        state = game.new_initial_state(seed=1)
        arrange_named(state, hand0=["the Excuse", "the Calamity", "the Savage"], pile=["the Ace of Leaves"])
        assert state.why_illegal("play the Calamity") == (
            "the Calamity shares neither its rank nor a suit with the Ace of Leaves"
        )
        assert state.why_illegal("play the Excuse").startswith("the Excuse names the suit that must follow it")
        assert state.why_illegal("play the Savage, naming Waves") == (
            "only the Excuse names a suit: play the Savage without naming one"
        )
        state.apply_action(state.action_from_string("play the Excuse, naming Waves"))
        arrange_named(state, hand1=["the Mountain", "the Sea"], pile=["the Ace of Leaves", "the Excuse"])
        assert state.why_illegal("play the Mountain") == "only a Waves card may follow the Excuse"
        assert state.why_illegal("play the Sea") is None

    def test_quasenbo_the_excuse_as_last_card(self) -> None:
        game = ruledsl.load_game("quasenbo", players=2, options={"excuse": True, "out_on_excuse": False})
        state = game.new_initial_state(seed=1)
        arrange_named(state, hand0=["the Excuse"], pile=["the Ace of Leaves"])
        assert state.why_illegal("play the Excuse, naming Moons") == "the Excuse may not be your last card"

    def test_katzenjammer_bids(self) -> None:
        game = ruledsl.load_game("katzenjammer_blues", players=3)
        state = game.new_initial_state(seed=5)
        assert state.current_player() == 1
        arrange_named(state, hand1=["4", "4", "2"])
        assert state.why_illegal("bid one 5") == "not even 'bid one 5' is possible now"
        arrange_named(state, hand1=["4", "4", "Joker", "2"])  # the joker stands in (rule 11)
        assert state.why_illegal("bid one 5") is None
        assert state.why_illegal("bid four 4s") == "the most you may choose is 'bid three 4s'"
        state.apply_action(state.action_from_string("bid three 4s"))
        arrange_named(state, hand2=["1", "1", "1", "3"])
        assert state.why_illegal("bid three 1s") == "it does not beat the standing bid, 'bid three 4s'"
        assert (
            state.why_illegal("pay 4 4 Joker") == "that belongs to the 'paying' phase, and this is the 'bidding' phase"
        )

    def test_cartes_magiques_plays(self) -> None:
        game = ruledsl.load_game("cartes_magiques", players=3)
        state = game.new_initial_state(seed=3)
        while state.phase_name() != "play":
            state.apply_action(state.legal_actions()[0])
        p = state.current_player()
        arrange_named(state, **{f"hand{p}": ["9♠", "K♥", "2♣"], "tas": ["Q♦"]})
        assert state.why_illegal("play 9♠") == "9 is lower than Q♦: play Q or higher, or a magic card (2, 3, 10, Joker)"
        assert state.why_illegal("play K♥") is None
        assert state.why_illegal("play 2c") is None  # suits may be typed s h d c
        assert state.why_illegal("pick up the tas") == (
            "you can still play: the tas is picked up only when nothing can be played"
        )
        arrange_named(state, **{f"hand{p}": ["9♠", "K♥", "2♣"], "tas": ["Q♦", "7♥"]})
        assert (
            state.why_illegal("play K♥") == "on a 7, only a 7 or lower may be played, or a magic card (2, 3, 10, Joker)"
        )
        assert state.why_illegal("cut in with K♥") == (
            "that is done in the 'cut' window, which only a move opens, and none is open now"
        )


def arrange_named(state: GameState, **zones: list[str]) -> None:
    """Put the named cards (the first free copy of each) in zone instances named ZONE or ZONE<seat>."""
    prog = state.prog
    for where, names in zones.items():
        family = next(i for i, z in enumerate(prog.zones) if where.rstrip("0123456789") == z.name)
        layout = prog.zones[family]
        z = layout.base + (int(where[len(layout.name) :]) if layout.per_player else 0)
        for c in list(state.zones[z]):  # what was there goes to the first zone (the deck)
            state.zones[z].remove(c)
            state.zones[0].append(c)
            state.loc[c] = 0
        for name in names:
            c = next(c for c in range(prog.n_cards) if prog.card_names[c] == name and state.loc[c] != z)
            state.zones[state.loc[c]].remove(c)
            state.zones[z].append(c)
            state.loc[c] = z
    state._legal = None


# ============================================================================ never about unseen cards


def _unseen_names(state: GameState, player: int) -> set[str]:
    """Names of the cards ``player`` cannot see (no copy of which he sees), distinctive enough to
    be looked for in text ("the Author", "9♠"; not Katzenjammer's "3")."""
    names = state.prog.card_names
    where = [(z, c) for z, cards in enumerate(state.zones) for c in cards]
    unseen = {names[c] for z, c in where if hidden_from(state, player, z, c)}
    seen = {names[c] for z, c in where if not hidden_from(state, player, z, c)}
    return {name for name in unseen - seen if not name.isalnum()}


def _moves(state: GameState, seen: dict[str, None]) -> list[str]:
    """Moves to try: every label met so far, and playing each card of the game."""
    names = sorted(set(state.prog.card_names))
    return [*seen, *(f"play {name}" for name in names[:12])]


@pytest.mark.parametrize(
    "name, players, options",
    [
        ("quasenbo", 3, {"excuse": True}),
        ("katzenjammer_blues", 3, {}),
        ("cartes_magiques", 4, {}),
        ("crazy_eights", 2, {}),
    ],
)
def test_a_reason_never_tells_of_unseen_cards(name: str, players: int, options: dict[str, Any]) -> None:
    game = ruledsl.load_game(name, players=players, options=options)
    rng = random.Random(7)
    seen: dict[str, None] = {}
    checked = 0
    for seed in range(3):
        state = game.new_initial_state(seed=seed)
        steps = 0
        while not state.is_terminal() and steps < 120:
            for a in state.legal_actions():
                seen[str(a)] = None
            if steps % 7 == 0:
                actor = state.current_player()
                permuted = permute_hidden(state, actor, random.Random(steps))
                unseen = _unseen_names(state, actor)
                for move in rng.sample(_moves(state, seen), min(10, len(_moves(state, seen)))):
                    reason = state.why_illegal(move)
                    assert permuted.why_illegal(move) == reason, move
                    # No card he cannot see is named, but the one he named himself.
                    assert not [c for c in unseen if c in (reason or "") and c not in move], (move, reason)
                    checked += 1
            state.apply_action(rng.choice(state.legal_actions()))
            steps += 1
    assert checked > 50


# ============================================================================ which reading speaks

# Love Letter's shape: a card played plainly, or the Guard played naming a kind; both labels read
# "play {c}" (the Guard's kind is not in its label), so "play the King" reads as either action.
_PLAY = """\
    action play(c: card from hand):
        require not (c.kind == King and (any x in hand where x.kind == Countess)), (
            "with the Countess in your hand, you must play her")
        require c.kind != Guard, "name a kind when you play the Guard"
        label "play {c}"
        move c to pile
"""
_GUESS = """\
    action guess(c: card from hand, k: kind):
        require c.kind == Guard, "the kind of {c} is not Guard"
        label "play {c}"
        move c to pile
        end game, winner player
"""
_LETTERS = """\
game "Letters"
players 2
values kind: Guard, King, Countess
card kind: kind
deck:
    card "the Guard": kind Guard
    card "the Guard": kind Guard
    card "the King": kind King
    card "the Countess": kind Countess
zone deck: shared, hidden
zone hand: per player, owner
zone pile: shared, public
setup:
    shuffle deck
    deal 2 from deck to each hand
phase play:
"""


@pytest.mark.parametrize("actions", [_PLAY + _GUESS, _GUESS + _PLAY], ids=["play first", "guess first"])
def test_the_reading_that_gives_every_choice_of_its_action_speaks_whatever_their_order(
    tmp_path: Path, actions: str
) -> None:
    path = tmp_path / "letters.game"
    path.write_text(_LETTERS + actions, encoding="utf-8")
    state = ruledsl.load_game(str(path), players=2).new_initial_state(seed=0)
    arrange_named(state, hand0=["the King", "the Countess"], hand1=["the Guard", "the Guard"])
    assert state.why_illegal("play the King") == "with the Countess in your hand, you must play her"
