"""Agents: built from --seats specs, legal and reproducible, and blind to what their seat cannot see."""

from __future__ import annotations

import random
import time
from pathlib import Path

import pytest

import ruledsl
from ruledsl.agents import (
    AGENTS,
    AgentChoiceError,
    AgentSpecError,
    CheatAgent,
    IsmctsAgent,
    OmniscientView,
    SeatView,
    decide,
    evaluate,
    make_agent,
    needs_tracking,
    parse_spec,
)
from ruledsl.agents.base import rollout, rollout_by_standing
from ruledsl.engine.state import GameState
from ruledsl.engine.values import Action

GAMES = sorted(ruledsl.bundled_games())
#: Cheap settings, so that whole games run in a unit test.
QUICK = {
    "random": "random",
    "first": "first",
    "greedy": "greedy:samples=2:depth=2",
    "ismcts": "ismcts:iterations=20:depth=10",
    "ismcts_vs_random": "ismcts:iterations=20:depth=10:others=random",
    "cheat": "cheat:iterations=20:depth=10",
}

#: Two seats, no cards that matter: seat 0 plays safe (a draw) or gambles on seat 1's pick.
GAMBLE = """\
game "Gamble"

players 2

values colour: red
card colour: colour

deck:
    card "token": colour red

zone box: shared, public

setup:
    go to choose with seat 0

phase choose:
    action safe:
        end game, draw
    action gamble:
        go to answer with seat 1

phase answer:
    action spare_first:
        end game, winner seat 0
    action spare_second:
        end game, winner seat 0
    action take:
        end game, winner seat 1
"""


def played(name: str, players: int, seed: int, steps: int) -> GameState:
    """A tracked state after ``steps`` random actions, then forced ones, where the player to move has a choice."""
    game = ruledsl.load_game(name, players=players)
    for attempt in range(seed, seed + 50):
        state = game.new_initial_state(seed=attempt, track=True)
        rng = random.Random(attempt)
        done = 0
        while not state.is_terminal():
            legal = state.legal_actions()
            if done >= steps and len(legal) > 1:
                return state
            state.apply_action(rng.choice(legal))
            done += 1
    raise AssertionError(f"no {name} game of seed {seed} to {seed + 49} lasted {steps} actions")


def hidden_swap(state: GameState, seat: int) -> GameState:
    """Return a copy of ``state`` with two cards the seat cannot see (in different zones) swapped.

    Both cards are unseen by ``seat`` and he holds the same knowledge of each (the same
    set of places it could be), so the two states look exactly alike to him.
    """
    other = state.clone()
    known = state.known
    assert known is not None
    hidden = [(z, i, c) for z, cards in enumerate(state.zones) for i, c in enumerate(cards) if not state.sees(seat, c)]
    for a in hidden:
        for b in hidden:
            if (
                a[0] < b[0]
                and known[seat][a[2]] == known[seat][b[2]]
                and state.prog.card_names[a[2]] != state.prog.card_names[b[2]]
            ):
                (za, ia, ca), (zb, ib, cb) = a, b
                other.zones[za][ia], other.zones[zb][ib] = cb, ca
                other.loc[ca], other.loc[cb] = zb, za
                return other
    raise AssertionError("no two hidden cards to swap")


class TestSpecs:
    def test_every_agent_is_registered(self) -> None:
        assert set(AGENTS) == {"random", "first", "greedy", "ismcts", "cheat", "process"}

    def test_parse_and_build_with_options(self) -> None:
        assert parse_spec("ISMCTS:iterations=500:c=1.4") == ("ismcts", {"iterations": "500", "c": "1.4"})
        agent = make_agent("ismcts:iterations=500:c=1.4:time=0.5:depth=0", seed=3)
        assert isinstance(agent, IsmctsAgent)
        assert (agent.iterations, agent.c, agent.time, agent.depth) == (500, 1.4, 0.5, 0)

    @pytest.mark.parametrize(
        ("spec", "message"),
        [
            ("minimax", "unknown agent 'minimax'; known agents: cheat, first, greedy, human, ismcts, process, random"),
            (
                "ismcts:iters=5",
                "agent 'ismcts' has no option 'iters'; its options: "
                "iterations, budget, time, c, depth, reuse, policy, others",
            ),
            ("ismcts:iterations=many", "ismcts option 'iterations' takes a whole number, not 'many'"),
            ("ismcts:iterations=0", "ismcts option 'iterations' must be at least 1, not 0"),
            ("greedy:samples", "agent option 'samples' should read name=value, as in ismcts:iterations=500"),
            ("random:x=1", "agent 'random' has no option 'x'; its options: none"),
        ],
    )
    def test_bad_specs_say_what_is_wrong(self, spec: str, message: str) -> None:
        with pytest.raises(AgentSpecError) as info:
            make_agent(spec, 0)
        assert str(info.value) == message

    def test_cheat_is_the_only_omniscient_agent(self) -> None:
        assert [name for name, cls in AGENTS.items() if cls.omniscient] == ["cheat"]
        assert needs_tracking([make_agent("random", 0), make_agent("ismcts", 0)])
        assert not needs_tracking([make_agent("random", 0), make_agent("cheat", 0)])


class TestPlaying:
    @pytest.mark.parametrize("name", GAMES)
    @pytest.mark.parametrize("kind", sorted(QUICK))
    def test_plays_legal_actions(self, name: str, kind: str) -> None:
        game = ruledsl.load_game(name, players=3)
        agents = [make_agent(QUICK[kind], 1), make_agent("random", 2), make_agent("random", 3)]
        state = game.new_initial_state(seed=5, track=True)
        for _ in range(60):  # a stretch of the game: whole games of search take too long here
            if state.is_terminal():
                break
            seat = state.current_player()
            action = decide(agents[seat], state, seat)
            assert action in state.legal_actions()
            state.apply_action(action)

    @pytest.mark.parametrize("kind", ["greedy", "ismcts", "ismcts_vs_random", "cheat"])
    def test_same_seed_same_choices(self, kind: str) -> None:
        state = played("quasenbo", 2, seed=11, steps=3)
        seat = state.current_player()
        first = [decide(make_agent(QUICK[kind], 7), state, seat) for _ in range(2)]
        assert first[0] == first[1]

    def test_time_budget_stops_the_search(self) -> None:
        state = played("cartes_magiques", 2, seed=2, steps=30)
        agent = make_agent("ismcts:iterations=1000000:time=0.05:depth=0", 0)
        started = time.perf_counter()
        decide(agent, state, state.current_player())
        assert time.perf_counter() - started < 2.0
        assert 0 < agent.total_iterations < 1000000

    def test_a_child_is_available_in_every_iteration_since_it_was_made(self) -> None:
        # The searching seat's own actions are legal in every deal, so each root child
        # was available in each iteration from the one that made it: N, N-1, ... N-m+1.
        state = played("quasenbo", 2, seed=4, steps=2)
        seat = state.current_player()
        agent = IsmctsAgent(seed=1, iterations=40, depth=4, budget=100)
        root = agent.search(SeatView(state, seat))
        m = len(state.legal_actions())
        assert len(root.children) == m > 1
        assert sorted(ch.available for ch in root.children.values()) == list(range(40 - m + 1, 41))

    def test_an_agent_that_chooses_outside_its_legal_actions_is_stopped_as_its_fault(self, tmp_path: Path) -> None:
        """Not refused as R505 in the rules: the rule file did nothing wrong."""

        class Liar:
            name = "liar"
            omniscient = False
            resamples = True

            def choose(self, view: SeatView) -> Action:
                later = view.resample(random.Random(0))
                later.apply_action(later.legal_actions()[1])  # gamble: seat 1 answers
                return later.legal_actions()[0]  # an answer, not a move of seat 0's

        path = tmp_path / "gamble.game"
        path.write_text(GAMBLE, encoding="utf-8")
        state = ruledsl.load_game(path).new_initial_state(seed=0, track=True)
        with pytest.raises(AgentChoiceError, match="agent 'liar' chose an action that is not one of P0's legal"):
            decide(Liar(), state, 0)

    @pytest.mark.parametrize("policy", ["standing", "random"])
    def test_the_opponent_model_decides_a_gamble(self, tmp_path: Path, policy: str) -> None:
        # Playing safe draws; gambling lets the other seat pick one of three endings, two
        # of them a win for the gambler. Against a best reply the gamble loses; against a
        # player who picks at random it wins two times in three.
        path = tmp_path / "gamble.game"
        path.write_text(GAMBLE, encoding="utf-8")
        state = ruledsl.load_game(path).new_initial_state(seed=0, track=True)
        for seed in range(4):
            cautious = make_agent(f"ismcts:iterations=200:policy={policy}", seed)
            exploiting = make_agent(f"ismcts:iterations=200:policy={policy}:others=random", seed)
            assert str(decide(cautious, state, 0)) == "safe"
            assert str(decide(exploiting, state, 0)) == "gamble"

    def test_modelled_opponents_play_at_random_in_playouts(self) -> None:
        # With 'only', the other seats' playout moves are exactly the random rollout's.
        state = played("quasenbo", 2, seed=5, steps=3)
        mover = state.current_player()
        differs = 0
        for seed in range(20):
            plain, modelled, standing = state.clone(), state.clone(), state.clone()
            rollout(plain, random.Random(seed), 1)
            rollout_by_standing(modelled, random.Random(seed), 1, only=1 - mover)
            rollout_by_standing(standing, random.Random(seed), 1, only=mover)
            assert modelled.history() == plain.history()
            differs += standing.history() != plain.history()
        assert differs > 0

    def test_iterations_are_counted(self) -> None:
        state = played("quasenbo", 2, seed=4, steps=2)
        agent = make_agent("ismcts:iterations=37:budget=100", 0)
        decide(agent, state, state.current_player())
        assert agent.total_iterations == 37


class TestSeatView:
    def test_exposes_no_path_to_the_true_state(self) -> None:
        state = played("quasenbo", 3, seed=1, steps=4)
        view = SeatView(state, state.current_player())
        assert not hasattr(view, "__dict__")
        for name in dir(view):
            if name.startswith("__"):
                continue
            value = getattr(view, name)
            assert not isinstance(value, GameState), name
            owner = getattr(value, "__self__", None)
            assert owner is None or owner is view, name
        assert {"seat", "num_players", "game"} <= set(dir(view))
        assert not any(
            isinstance(getattr(view.game, a, None), GameState) for a in dir(view.game) if not a.startswith("__")
        )

    def test_answers_only_for_its_seat(self) -> None:
        state = played("quasenbo", 3, seed=1, steps=4)
        seat = state.current_player()
        view = SeatView(state, seat)
        assert view.legal_actions() == state.legal_actions()
        assert view.observation() == state.observation(seat)
        other = SeatView(state, (seat + 1) % 3)
        assert other.legal_actions() == []

    def test_resampled_states_look_the_same_and_belong_to_the_agent(self) -> None:
        state = played("katzenjammer_blues", 3, seed=3, steps=20)
        seat = state.current_player()
        view = SeatView(state, seat)
        before = state.observation(seat)
        sample = view.resample(random.Random(0))
        assert sample.observation(seat) == before
        sample.apply_action(sample.legal_actions()[0])
        assert state.observation(seat) == before

    @pytest.mark.parametrize("name", GAMES)
    def test_resampling_ignores_the_hidden_arrangement(self, name: str) -> None:
        state = played(name, 3, seed=8, steps=12)
        seat = state.current_player()
        twin = hidden_swap(state, seat)
        assert twin.zones != state.zones and twin.observation(seat) == state.observation(seat)
        a = SeatView(state, seat).resample(random.Random(5))
        b = SeatView(twin, seat).resample(random.Random(5))
        assert a.zones == b.zones

    @pytest.mark.parametrize("kind", ["random", "first", "greedy", "ismcts", "ismcts_vs_random"])
    @pytest.mark.parametrize("name", GAMES)
    def test_decisions_ignore_the_hidden_cards(self, name: str, kind: str) -> None:
        """Two states that differ only in cards the seat cannot see give the same decisions."""
        for seed in range(3):
            state = played(name, 2, seed=seed, steps=6 + seed)
            seat = state.current_player()
            twin = hidden_swap(state, seat)
            spec = QUICK[kind]
            assert decide(make_agent(spec, seed), state, seat) == decide(make_agent(spec, seed), twin, seat)

    def test_the_cheat_sees_through(self) -> None:
        """The same comparison tells the cheat's view apart: it does see the hidden cards."""
        state = played("quasenbo", 2, seed=0, steps=2)
        seat = state.current_player()
        twin = hidden_swap(state, seat)
        assert (
            OmniscientView(state, seat).resample(random.Random(0)).zones
            != OmniscientView(twin, seat).resample(random.Random(0)).zones
        )
        assert isinstance(make_agent("cheat", 0), CheatAgent)


class TestEvaluate:
    def test_a_finished_game_gives_its_returns(self) -> None:
        game = ruledsl.load_game("quasenbo", players=2)
        state = game.new_initial_state(seed=0)
        rng = random.Random(0)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
        assert evaluate(state) == state.returns()

    def test_a_game_going_on_is_judged_by_its_standing(self) -> None:
        state = played("quasenbo", 3, seed=0, steps=1)  # P0 played a card: one fewer than the others
        assert state.standings() == [[0], [1, 2]]
        assert evaluate(state) == pytest.approx([0.5, -0.25, -0.25])
