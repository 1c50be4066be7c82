"""Chance in the OpenSpiel bridge is the game's own: Kuhn and Leduc poker as rule files are OpenSpiel's games.

Each draw of the rules is a chance node whose outcomes are what can come, equally likely (a
card dealt from a shuffled deck: one of the cards not dealt yet), and a shuffle nobody sees
costs no branching: the trees, information states and CFR+ values are those of OpenSpiel's
native kuhn_poker and leduc_poker. ``RULEDSL_SOLVERS=long`` runs the Leduc solves at length.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

from ruledsl.engine.chance import ChanceNeeded, Drawer, LazyZone
from tests.extras import require

pyspiel = require("pyspiel", "openspiel")
require("ruledsl.openspiel", "openspiel")

LONG = os.environ.get("RULEDSL_SOLVERS") == "long"


def ours(name: str) -> object:
    return pyspiel.load_game("ruledsl", {"game": name, "players": 2})


def tree(game: object) -> tuple[int, int]:
    """The histories of ``game`` (chance and terminal ones included) and its information states.

    Each information state is one tensor too: the tensor keeps apart what the string keeps apart."""
    from open_spiel.python.algorithms import get_all_states

    states = get_all_states.get_all_states(game, depth_limit=-1, include_terminals=True, include_chance_states=True)
    acting = [s for s in states.values() if not (s.is_chance_node() or s.is_terminal())]
    infos = {(s.current_player(), s.information_state_string()) for s in acting}
    tensors = {(s.current_player(), tuple(s.information_state_tensor())) for s in acting}
    assert len(tensors) == len(infos)
    return len(states), len(infos)


def cfr_plus_values(game: object, iterations: int) -> list[float]:
    """The first player's value of CFR+'s average policy after each iteration (OpenSpiel's Python CFR+)."""
    from open_spiel.python.algorithms import cfr, expected_game_score

    solver = cfr.CFRPlusSolver(game)
    values = []
    for _ in range(iterations):
        solver.evaluate_and_update_policy()
        policy = solver.average_policy()
        values.append(expected_game_score.policy_value(game.new_initial_state(), [policy] * 2)[0])
    return values


def test_kuhn_poker_has_openspiels_tree_and_information_states() -> None:
    assert tree(ours("kuhn_poker")) == tree(pyspiel.load_game("kuhn_poker")) == (58, 12)


def test_a_card_dealt_from_a_shuffled_deck_is_one_of_those_left_equally_likely() -> None:
    state = ours("kuhn_poker").new_initial_state()
    assert state.is_chance_node() and state.chance_outcomes() == [(0, 1 / 3), (1, 1 / 3), (2, 1 / 3)]
    state.apply_action(1)  # the queen, to the first player
    assert state.is_chance_node() and state.chance_outcomes() == [(0, 0.5), (2, 0.5)]
    state.apply_action(2)
    assert state.current_player() == 0
    engine = state.decisions.state
    assert [engine.zones[z] for z in (1, 2)] == [[1], [2]]  # each hand the card its chance node dealt
    assert len(engine.zones[0]) == 1  # the jack, left in the deck: nobody chose it


def test_kuhn_poker_solves_as_openspiels_iteration_for_iteration_to_minus_one_eighteenth() -> None:
    from open_spiel.python.algorithms import cfr, expected_game_score, exploitability

    game = ours("kuhn_poker")
    assert cfr_plus_values(game, 10) == pytest.approx(cfr_plus_values(pyspiel.load_game("kuhn_poker"), 10), abs=1e-12)
    solver = cfr.CFRPlusSolver(game)
    for _ in range(200):
        solver.evaluate_and_update_policy()
    policy = solver.average_policy()
    value = expected_game_score.policy_value(game.new_initial_state(), [policy] * 2)[0]
    assert value == pytest.approx(-1 / 18, abs=0.003)
    assert exploitability.exploitability(game, policy) < 0.01  # a zero-sum game: accepted


def test_leduc_poker_has_openspiels_tree_and_information_states() -> None:
    assert tree(ours("leduc_poker")) == tree(pyspiel.load_game("leduc_poker")) == (9457, 936)


def test_leduc_poker_solves_as_openspiels_iteration_for_iteration() -> None:
    iterations = 20 if LONG else 2
    theirs = cfr_plus_values(pyspiel.load_game("leduc_poker"), iterations)
    assert cfr_plus_values(ours("leduc_poker"), iterations) == pytest.approx(theirs, abs=1e-9)


@pytest.mark.skipif(not LONG, reason="a thousand iterations: RULEDSL_SOLVERS=long")
def test_leduc_poker_solved_by_openspiels_cpp_cfr_plus_is_worth_openspiels_value() -> None:
    from open_spiel.python.algorithms import expected_game_score

    values = []
    for game in (ours("leduc_poker"), pyspiel.load_game("leduc_poker")):
        solver = pyspiel.CFRPlusSolver(game)
        for _ in range(1000):
            solver.evaluate_and_update_policy()
        policy = solver.average_policy()
        values.append(expected_game_score.policy_value(game.new_initial_state(), [policy] * 2)[0])
    assert values[0] == pytest.approx(values[1], abs=1e-9)
    assert values[0] == pytest.approx(-0.0856, abs=0.001)


def test_a_lazy_zone_decides_its_order_from_the_top_down_as_it_is_read() -> None:
    drawer = Drawer([7, 5])
    zone = LazyZone([5, 6, 7, 8], 4, drawer)
    assert len(zone) == 4 and 6 in zone and zone.hidden == 4  # no draw for these
    assert zone[-1] == 7 and zone.hidden == 3  # the top: the first outcome given
    assert zone[2] == 5 and zone.hidden == 2
    zone.remove(8)  # a card named by itself leaves without any draw
    assert zone.hidden == 1 and list(zone) == [6, 5, 7]  # one card left undecided: it is decided
    with pytest.raises(ChanceNeeded) as needed:
        LazyZone([1, 2, 3], 3, Drawer())[-1]
    assert needed.value.outcomes == [(1, 1 / 3), (2, 1 / 3), (3, 1 / 3)]


def test_seeded_play_draws_as_it_did(tmp_path: object) -> None:
    """The seeded engine draws from its seed, untouched by the chance nodes: the same seed deals alike."""
    from ruledsl.loading import load_game

    game = load_game("kuhn_poker", 2)
    dealt = {tuple(tuple(z) for z in game.new_initial_state(seed=s).zones) for s in range(60)}
    assert len(dealt) == 6  # every deal comes from some seed
    assert game.new_initial_state(seed=3).zones == game.new_initial_state(seed=3).zones
    assert type(game.new_initial_state(seed=3).zones[0]) is list  # never lazy


def laid(state: object) -> list[tuple[list[int], int]]:
    """Each zone's cards as they lie, bottom to top, and how many of them are in an order not decided yet."""
    return [(list.copy(z), getattr(z, "hidden", 0)) for z in state.decisions.state.zones]


def twins(game: object, player: int) -> tuple[object, object]:
    """Two Kuhn states the first player cannot tell apart: he holds the jack, the other the queen or the king."""
    states = []
    for other in (1, 2):
        state = game.new_initial_state()
        state.apply_action(0)
        state.apply_action(other)
        state.apply_action(1)  # he bets
        states.append(state)
    assert states[0].information_state_string(player) == states[1].information_state_string(player)
    return states[0], states[1]


@pytest.mark.parametrize("name", ["kuhn_poker", "leduc_poker"])
def test_a_resample_depends_on_what_the_player_knows_alone(name: str) -> None:
    """Two states he cannot tell apart resample alike for the same sampler: the true cards cannot be read back."""
    game = ours(name)
    if name == "kuhn_poker":
        first, second = twins(game, 0)
        player = 0
    else:  # Leduc: the first player holds J1, the other any of the five other cards
        first, second = game.new_initial_state(), game.new_initial_state()
        for state, other in ((first, 3), (second, 5)):
            state.apply_action(0)
            state.apply_action(other)
        player = 0
        assert first.information_state_string(0) == second.information_state_string(0)
    for u in (0.0, 0.37, 0.99):
        a = first.resample_from_infostate(player, lambda u=u: u)
        b = second.resample_from_infostate(player, lambda u=u: u)
        assert laid(a) == laid(b)
        assert a.information_state_string(player) == first.information_state_string(player)
    rng = random.Random(1)
    others = {tuple(laid(first.resample_from_infostate(player, rng.random))[1 + (1 - player)][0]) for _ in range(40)}
    assert len(others) > 1  # the other player's card does vary


def test_the_engines_agents_play_a_bridge_state_drawing_from_a_seed() -> None:
    """The engine's agents search by playing copies of a state: ``seeded_state`` gives one never asking for chance."""
    from ruledsl.agents import decide, make_agent

    game = pyspiel.load_game("ruledsl", {"game": "quasenbo", "players": 2})
    state = game.new_initial_state()
    rng = random.Random(3)
    agent = make_agent("ismcts:iterations=8", 3)
    moves = 0
    while not state.is_terminal() and moves < 40:
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
            continue
        engine = state.seeded_state(rng.getrandbits(63))
        assert all(type(z) is list for z in engine.zones) and type(engine.rng) is int
        assert engine.observation(state.current_player()) == state.decisions.state.observation(state.current_player())
        action = decide(agent, engine, state.current_player())
        for i in game.spaces.actions.tokens(action):
            state.apply_action(i)
        moves += 1
    assert moves > 5


def test_a_view_that_shows_play_gone_on_past_a_window_draws_from_no_chance_node() -> None:
    """While a window is open to the other, the turn player sees play gone on as if it passed: it deals him a card."""
    game = pyspiel.load_game("ruledsl", {"game": str(Path(__file__).with_name("window_draw.game")), "players": 2})
    state = game.new_initial_state()
    state.apply_action(0)
    state.apply_action(1)
    state.apply_action(state.legal_actions()[0])  # the first player lays his card: the window opens to the other
    assert state.current_player() == 1
    view = json.loads(state.information_state_string(0).split(" own ")[0])  # ChanceNeeded before
    assert view["zones"]["pile"]["cards"] == ["c1"]
    assert len(state.observation_tensor(0)) == game.observation_tensor_size()
    passing = [i for i in state.legal_actions() if "pass" in state.action_to_string(1, i)]
    state.apply_action(passing[0])  # he lets it pass: the card dealt is a chance node among those left
    assert state.is_chance_node() and [o for o, _ in state.chance_outcomes()] == [2, 3, 4, 5]
