"""A window offered to one seat is invisible to the others: they read the state as if none were offered."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import ruledsl
from ruledsl.engine.state import GameState
from ruledsl.tools import leaks
from ruledsl.tools.scenario import arrange
from tests.scenarios.test_cartes_magiques import A, B, C, D, position

#: Moves the turn player might type, legal and not (the refusals must read alike too).
TRIES = ["play J♠", "play J♠ J♦", "play Q♠", "play 4♠", "draw", "let it pass", "cut in with 9♥", "fly away"]


def all_passed(state: GameState) -> GameState:
    """The state after every seat offered the open windows lets them pass: where play goes on
    as it would have, had nobody been offered them."""
    after = state.clone()
    while after.windows is not None:
        (skip,) = [a for a in after.legal_actions() if a.defn.is_pass]
        after.apply_action(skip)
    return after


def cut_offered_to_c() -> GameState:
    """CM-T24's position: A plays 9♥; B is next; only C holds 9♥ and is offered the cut."""
    state = position(
        ["5♣"],
        {A: ["9♥", "4♠", "K♣", "Q♣"], B: ["J♠", "J♦", "Q♠"], C: ["9♥", "4♥", "5♥"], D: ["A♠", "A♦", "K♦"]},
        players=4,
        deck_top=["J♣"],
    )
    state.apply_action(state.action_from_string("play 9♥"))
    assert state.current_player() == C and state.windows is not None
    return state


def test_the_turn_player_sees_his_turn_as_if_no_cut_were_offered() -> None:
    state = cut_offered_to_c()
    state.legal_actions()  # listed for C, as play does before asking him: never shown to the others
    without = all_passed(state)
    seen = state.observation(B)
    assert seen == without.observation(B)
    assert seen["current_player"] == B and seen["window"] is None
    assert "play J♠ J♦" in seen["legal_actions"]


@pytest.mark.parametrize("move", TRIES)
def test_refusals_read_as_if_no_cut_were_offered(move: str) -> None:
    state = cut_offered_to_c()
    without = all_passed(state)
    for seat in (A, B, D):
        assert state.why_illegal(move, player=seat) == without.why_illegal(move, player=seat), seat
    assert state.why_illegal("play J♠", player=B) is None  # as it would be: his turn, his card
    assert state.why_illegal("play J♠", player=B) != "it is not your turn yet"


def test_the_seat_offered_the_window_sees_it() -> None:
    state = cut_offered_to_c()
    assert state.observation(C)["window"] == {"name": "cut", "player": C}
    assert state.observation(C)["legal_actions"] == ["cut in with 9♥", "let it pass"]


@pytest.mark.parametrize("seed", range(6))
def test_over_random_play_no_seat_but_the_one_offered_can_tell(seed: int) -> None:
    """Property: wherever a window is open, each seat but the one it is offered to reads the
    same view and the same refusals as in the state where every offered seat let it pass."""
    game = ruledsl.load_game("cartes_magiques", players=4)
    rng = random.Random(seed)
    state = game.new_initial_state(seed=seed)
    windows = 0
    while not state.is_terminal() and state.n_actions < 600:
        if state.windows is not None:
            windows += 1
            if seed % 2:
                state.legal_actions()  # listed for the player offered the window, or not yet
            without = all_passed(state)
            for seat in range(4):
                if seat == state.current_player():
                    continue
                assert state.observation(seat) == without.observation(seat)
                moves = [str(a) for a in without.legal_actions()[:5]] + ["let it pass", "draw"]
                for move in moves:
                    assert state.why_illegal(move, player=seat) == without.why_illegal(move, player=seat)
        state.apply_action(rng.choice(state.legal_actions()))
    assert windows or seed  # the first seed at least meets windows (the test is not empty)


class TestAWindowBeforeADeal:
    """A move that opens a window and goes on to a deal (tests/leaks/window_deal.game): a seat the
    window is not offered to must not be shown the cards going on would deal him."""

    GAME = Path(__file__).resolve().parent / "window_deal.game"

    def snap_offered(self) -> GameState:
        """A state where P0 laid a card, a snap is offered to another seat, and going on deals."""
        game = ruledsl.load_game(str(self.GAME), players=3)
        for seed in range(40):
            state = game.new_initial_state(seed=seed)
            rng = random.Random(seed)
            while not state.is_terminal():
                if state.windows is not None and state.n_actions > 3:
                    return state
                state.apply_action(rng.choice(state.legal_actions()))
        raise AssertionError("no game offered a snap")

    def test_the_harness_finds_no_leak(self) -> None:
        game = ruledsl.load_game(str(self.GAME), players=3)
        report = leaks.check_game(game, range(4), 6, 3, leaks.Report())
        assert report.comparisons > 100
        assert not report.leaks, str(report.leaks[0])[:600]

    def test_the_others_see_the_table_wait_not_the_deal(self) -> None:
        state = self.snap_offered()
        actor = state.current_player()
        for seat in range(3):
            if seat == actor:
                continue
            seen = state.observation(seat)
            assert seen["window"] is None and seen["current_player"] == state.turn != actor
            assert "legal_actions" not in seen
            hand = seen["zones"]["hand"][seat]
            assert hand == state.observation(seat)["zones"]["hand"][seat]
            # What he holds now, not what going on would deal him.
            assert hand.get("cards", []) == [state.prog.card_names[c] for c in state.zones[hand_zone(state, seat)]]
            assert state.why_illegal("lay 1♠", player=seat) == "it is not your turn yet: the last move is not over"

    def test_the_table_reads_alike_whoever_is_offered_it(self) -> None:
        """The wait tells that a window is open to someone, not to whom."""
        state = self.snap_offered()
        seen = [state.observation(seat) for seat in range(3) if seat != state.current_player()]
        assert all(s["current_player"] == state.turn for s in seen)


def hand_zone(state: GameState, seat: int) -> int:
    (layout,) = [z for z in state.prog.zones if z.name == "hand"]
    return layout.base + seat


def window_states(seeds: range, players: int = 4) -> list[GameState]:
    """Every state of random plays of Cartes Magiques in which a window is open (its cuts offered)."""
    game = ruledsl.load_game("cartes_magiques", players=players)
    found = []
    for seed in seeds:
        rng = random.Random(seed)
        state = game.new_initial_state(seed=seed)
        while not state.is_terminal() and state.n_actions < 600:
            if state.windows is not None:
                found.append(state.clone())
            state.apply_action(rng.choice(state.legal_actions()))
    return found


def test_a_seats_view_for_agents_does_not_tell_a_window_is_open() -> None:
    """Issue 41.12: a seat's SeatView (observation, legal actions, refusals) and his PettingZoo
    observation and action mask read alike whether a window he cannot see is open or was let pass."""
    from tests.extras import require

    require("pettingzoo", "pettingzoo")
    from ruledsl import pettingzoo as pz
    from ruledsl.agents.view import SeatView
    from ruledsl.spaces.actions import Decisions

    env = pz.env("cartes_magiques", players=4)
    env.reset(seed=0)
    space = env.play.space
    states = window_states(range(8))
    assert len(states) > 50
    turn_players_shown_actions = 0
    for state in states:
        without = all_passed(state)
        for seat in range(4):
            if seat == state.current_player():
                continue
            seen, plain = SeatView(state, seat), SeatView(without, seat)
            assert seen.observation() == plain.observation()
            assert seen.legal_actions() == plain.legal_actions(), (seat, str(state))
            turn_players_shown_actions += bool(plain.legal_actions())
            assert seen.why_illegal("let it pass") == plain.why_illegal("let it pass")
            masks = []
            for shown in (state, without):
                env.play = Decisions(space, shown.clone())
                obs = env.observe(env.possible_agents[seat])
                masks.append((obs["action_mask"].tolist(), obs["observation"].tolist()))
            assert masks[0] == masks[1], seat
    assert turn_players_shown_actions > 20  # the seat whose turn it is, shown his moves while a cut is offered


class TestAWindowOfferedForAHiddenCard:
    """Which seat a window is offered to may hang on cards the next player does not see
    (tests/leaks/window_offered.game: a snap for a card of the rank laid; Tichu's bombs). He is
    shown his turn as it will be once it is let pass, whoever was offered it: the harness must
    read his legal actions as he is shown them, not the engine's player to act (the Dragon's
    choice in Tichu met it as "P2 to act in one twin, not the other")."""

    GAME = Path(__file__).resolve().parent / "window_offered.game"

    def twins(self) -> tuple[GameState, GameState]:
        """P0 lays 1♠; P1 holds no 1 and is next. In the first P2 holds 1♥ and is offered the
        snap; in the twin 1♥ and 3♠, both hidden from P1, have changed places: nobody is."""
        state = ruledsl.load_game(str(self.GAME), players=3).new_initial_state(seed=0)
        for seat, cards in enumerate((["1♠", "3♠"], ["2♠", "2♥"], ["1♥", "3♥"])):
            arrange(state, "hand", cards, owner=seat)
        twin = state.clone()
        names = state.prog.card_names
        leaks.swap(twin, names.index("1♥"), names.index("3♠"))
        for st in (state, twin):
            st.apply_action(st.action_from_string("lay 1♠"))
        return state, twin

    def test_the_snap_is_offered_in_one_twin_only(self) -> None:
        state, twin = self.twins()
        assert state.current_player() == 2 and state.windows is not None
        assert twin.current_player() == 1 and twin.windows is None

    def test_the_next_player_reads_the_same_legal_actions_in_both(self) -> None:
        state, twin = self.twins()
        probe = leaks.Probe(texts=(), actions=(), seed=0)
        read = leaks.SURFACES["legal actions"]
        assert read(state, 1, probe) == read(twin, 1, probe) == [("lay 2♠", "lay 2♠"), ("lay 2♥", "lay 2♥")]
        assert read(state, 2, probe) == [("snap 1♥", "snap 1♥"), ("let it pass", "let it pass")]  # he is offered it
        assert read(state, 0, probe) == read(twin, 0, probe) == []  # the others are shown no move

    def test_the_harness_finds_no_leak(self) -> None:
        game = ruledsl.load_game(str(self.GAME), players=3)
        report = leaks.check_game(game, range(8), 4, 3, leaks.Report())
        assert report.followed > 20
        assert not report.leaks, str(report.leaks[0])[:600]
