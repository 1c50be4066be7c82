"""OpenSpiel's solvers on rule files beyond the tree walk: perfect-recall information-state
tensors, an honest ``max_game_length``, MCCFR on long games, ``evaluate_bots`` (issue 40, item 3)."""

from __future__ import annotations

import os
import random
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from ruledsl.resources import named_games
from tests.extras import require

pyspiel = require("pyspiel", "openspiel")
require("ruledsl.openspiel", "openspiel")

LONG = os.environ.get("RULEDSL_SOLVERS") == "long"


def load(name: str, players: int = 2, **params: object) -> object:
    return pyspiel.load_game("ruledsl", {"game": name, "players": players, **params})


def acting_states(game: object) -> list[object]:
    from open_spiel.python.algorithms import get_all_states

    states = get_all_states.get_all_states(game, depth_limit=-1, include_terminals=True, include_chance_states=True)
    return list(states.values())


def strings_and_tensors(game: object) -> tuple[int, int]:
    """The distinct (player, information-state string) and (player, tensor) pairs over every
    history and every player, acting or not (chance and terminal histories too)."""
    strings, tensors = set(), set()
    for s in acting_states(game):
        for q in range(game.num_players()):
            strings.add((q, s.information_state_string(q)))
            tensors.add((q, tuple(s.information_state_tensor(q))))
    return len(strings), len(tensors)


def play_at_random(state: object, rng: random.Random) -> int:
    """Play ``state`` out (chance outcomes drawn by their odds); return the histories it went through."""
    length = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, odds = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, odds)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
        length += 1
    return length


# ---------------------------------------------------------------- perfect-recall tensors


@pytest.mark.parametrize("name", ["kuhn_poker", "leduc_poker"])
def test_the_information_state_tensor_tells_apart_what_the_string_does(name: str) -> None:
    strings, tensors = strings_and_tensors(load(name))
    assert strings == tensors
    strings, tensors = strings_and_tensors(load(name, recall=8))
    assert strings == tensors


def forgetful_leduc(tmp_path: Path) -> str:
    """Leduc poker without its public record of the betting: only the order of each player's own
    actions tells some of his information states apart (a raise then a call, or a call then a raise)."""
    text = named_games()["leduc_poker"].read_text(encoding="utf-8")
    kept = [line for line in text.splitlines() if "betting =" not in line]
    path = tmp_path / "forgetful.game"
    path.write_text("\n".join(kept) + "\n", encoding="utf-8")
    return str(path)


def test_counts_of_own_actions_merge_histories_their_order_keeps_apart(tmp_path: Path) -> None:
    strings, tensors = strings_and_tensors(load(forgetful_leduc(tmp_path)))
    assert (strings, tensors) == (6422, 5330)  # the default tensor counts each id: pinned as it was


def test_recall_keeps_each_players_own_actions_in_order(tmp_path: Path) -> None:
    game = load(forgetful_leduc(tmp_path), recall=8)
    strings, tensors = strings_and_tensors(game)
    assert strings == tensors
    base = load(forgetful_leduc(tmp_path))
    extra = 8 * game.num_distinct_actions() - base.num_distinct_actions()
    assert game.information_state_tensor_size() == base.information_state_tensor_size() + extra


def test_a_player_acting_more_often_than_recall_holds_is_told_to_raise_it() -> None:
    state = load("leduc_poker", recall=1).new_initial_state()
    rng = random.Random(0)
    while state.is_chance_node():
        state.apply_action(rng.choice(state.chance_outcomes())[0])
    state.apply_action(state.legal_actions()[-1])  # P0 raises
    assert len(state.information_state_tensor(0)) == state.get_game().information_state_tensor_size()
    state.apply_action(state.legal_actions()[-1])  # P1 raises again
    state.apply_action(1)  # P0 calls: the round is over, and he has acted twice
    state.apply_action(state.chance_outcomes()[0][0])  # the board's card: his call is made whole
    with pytest.raises(ValueError, match="recall holds 1 own action; P0 has taken 2: load the game with recall >= 2"):
        state.information_state_tensor(0)


# ---------------------------------------------------------------- max_game_length and MCCFR


@pytest.mark.parametrize(
    ("name", "players", "params"),
    [("go_fish", 2, {"max_actions": 5}), ("kuhn_poker", 2, {}), ("hearts", 4, {"options": "goal:10"})],
)
def test_max_game_length_holds_every_play_chance_nodes_included(name: str, players: int, params: dict) -> None:
    game = load(name, players, **params)
    rng = random.Random(1)
    for _ in range(3):
        assert play_at_random(game.new_initial_state(), rng) <= game.max_game_length()


@contextmanager
def recursion_limit(limit: int) -> Iterator[None]:
    before = sys.getrecursionlimit()
    sys.setrecursionlimit(max(before, limit))
    try:
        yield
    finally:
        sys.setrecursionlimit(before)


def test_outcome_sampling_mccfr_runs_on_hearts() -> None:
    from open_spiel.python.algorithms import outcome_sampling_mccfr

    game = load("hearts", 4, options="goal:10")
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    for _ in range(2):
        solver.iteration()
    assert len(solver._infostates) > 100  # one path a player a iteration, through a hand or more of hearts


def test_external_sampling_mccfr_runs_on_oh_hell() -> None:
    from open_spiel.python.algorithms import external_sampling_mccfr

    # Every action of the player updated is walked: two short rounds keep that small.
    game = load("oh_hell", 3, options="rounds:2")
    solver = external_sampling_mccfr.ExternalSamplingSolver(game)
    for _ in range(2):
        solver.iteration()
    policy = solver.average_policy()
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    assert sum(policy.action_probabilities(state).values()) == pytest.approx(1.0)


@pytest.mark.skipif(not LONG, reason="a whole game of hearts to 100, twice: RULEDSL_SOLVERS=long")
# Past four hands or so the reach of a play, chance included (1/52! a deal), is below what a
# float holds: OpenSpiel's outcome sampling divides 0 by 0 there (docs/integrations.md).
@pytest.mark.filterwarnings("ignore::RuntimeWarning")
def test_a_game_of_hearts_to_100_needs_the_recursion_limit_docs_integrations_gives() -> None:
    from open_spiel.python.algorithms import outcome_sampling_mccfr

    game = load("hearts", 4)
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(game)
    with recursion_limit(1000), pytest.raises(RecursionError):
        sys.setrecursionlimit(1000)
        solver.iteration()
    with recursion_limit(3000):
        for _ in range(2):
            solver.iteration()


# ---------------------------------------------------------------- evaluate_bots and exploitability


@pytest.mark.parametrize("name", ["kuhn_poker", "leduc_poker"])
def test_evaluate_bots_plays_uniform_random_bots_to_a_zero_sum_end(name: str) -> None:
    game = load(name)
    bots = [pyspiel.make_uniform_random_bot(q, 7 + q) for q in range(2)]
    for _ in range(5):
        returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, 3)
        assert sum(returns) == 0 and game.min_utility() <= min(returns) <= max(returns) <= game.max_utility()


@pytest.mark.parametrize("name", ["kuhn_poker", "leduc_poker"])
def test_exploitability_of_the_uniform_policy_is_openspiels(name: str) -> None:
    from open_spiel.python import policy
    from open_spiel.python.algorithms import exploitability

    ours, native = load(name), pyspiel.load_game(name)
    values = [exploitability.exploitability(g, policy.UniformRandomPolicy(g)) for g in (ours, native)]
    assert values[0] == pytest.approx(values[1], abs=1e-12)


@pytest.mark.parametrize(("players", "high"), [(2, 50.0), (6, 250.0)])
def test_holdem_pays_chips_within_what_the_players_brought(players: int, high: float) -> None:
    # 'payoff: chips - buy_in, from -buy_in to buy_in * (players - 1)': nobody loses more than his buy-in.
    game = load("holdem", players, options="hands:1")
    assert (game.min_utility(), game.max_utility()) == (-50.0, high)
    returns = pyspiel.evaluate_bots(
        game.new_initial_state(), [pyspiel.make_uniform_random_bot(q, q) for q in range(players)], 1
    )
    assert sum(returns) == 0 and -50 <= min(returns) <= max(returns) <= high  # every chip is someone's at the end
