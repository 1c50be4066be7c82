"""Every named game as an OpenSpiel game, checked by OpenSpiel's own tests and played by its IS-MCTS bot."""

from __future__ import annotations

import io
import json
import math
import pickle
import random
import unittest
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ruledsl.loading import check_file, players_range
from ruledsl.resources import named_games
from tests.extras import require

pyspiel = require("pyspiel", "openspiel")
require("ruledsl.openspiel", "openspiel")

GAMES = sorted(named_games())
TINY = Path(__file__).with_name("tiny.game")


def load(name: str, players: int = 0, **params: object) -> object:
    return pyspiel.load_game(
        "ruledsl", {"game": name, "players": players or players_range(check_file(name))[0], **params}
    )


def deal(state: object, k: int) -> None:
    """Play the chance nodes ``state`` begins with (setup's draws), each outcome picked by a generator seeded ``k``."""
    rng = random.Random(k)
    while state.is_chance_node():
        state.apply_action(rng.choice(state.chance_outcomes())[0])


@pytest.mark.parametrize("name", GAMES)
def test_random_sim_test_passes(name: str) -> None:
    pyspiel.random_sim_test(load(name), num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize("name", GAMES)
def test_the_checks_openspiel_runs_on_its_own_games_pass(name: str) -> None:
    from open_spiel.python.tests import games_sim_test

    case = games_sim_test.GamesSimTest(methodName="test_pig")
    case.sim_game(load(name))


def run_api_test(base: str, game: object, leave_out: tuple[str, ...] = ()) -> int:
    """Run one of the test classes of OpenSpiel's api_test on ``game``; return how many tests ran."""
    from open_spiel.integration_tests import api_test

    case = type(f"{base}_ruledsl", (getattr(api_test, base),), {"game": game, "game_name": "ruledsl"})
    names = [t for t in unittest.defaultTestLoader.getTestCaseNames(case) if t not in leave_out]
    result = unittest.TextTestRunner(verbosity=0, stream=io.StringIO()).run(unittest.TestSuite(map(case, names)))
    assert result.wasSuccessful(), result.failures + result.errors
    return result.testsRun


@pytest.mark.parametrize("name", ["quasenbo", "president", "katzenjammer_blues"])
def test_openspiels_api_checks_on_sampled_states_pass(name: str) -> None:
    assert run_api_test("EnforceAPIOnPartialTreeBase", load(name)) >= 5


def test_a_game_small_enough_is_enumerated_and_passes_the_full_tree_checks(monkeypatch: pytest.MonkeyPatch) -> None:
    """No shipped game can be enumerated; a three-card rule file can: perfect recall and all."""
    from open_spiel.integration_tests import api_test
    from open_spiel.python.algorithms import get_all_states

    # api_test's tables of what each game's tree holds, for this one: (chance, playable, terminal)
    # states, and the (infostate, player) pairs met: the first player's three cards.
    monkeypatch.setitem(api_test.TOTAL_NUM_STATES, "ruledsl", (4, 6, 12))
    monkeypatch.setitem(api_test.PERFECT_RECALL_NUM_STATES, "ruledsl", 3)

    game = load(str(TINY), 2)
    states = get_all_states.get_all_states(game, depth_limit=-1, include_terminals=True, include_chance_states=True)
    # The first card dealt (any of three), the second (any of two left), the first move, keep or
    # swap: the third card, the one left in the stock, comes with no chance node (none is left to choose).
    assert len(states) == 1 + 3 + 6 + 6 * 2
    assert game.num_distinct_actions() == 2  # keep, swap: a flat game has no picks
    assert len({s.information_state_string(0) for s in states.values() if s.current_player() == 0}) == 3
    # Left out: one GameType serves every rule file, general-sum (three players end +1, -1, -1),
    # and OpenSpiel asks a general-sum game for two different sums, which this zero-sum one lacks.
    assert run_api_test("EnforceAPIOnFullTreeBase", game, leave_out=("test_constant_sum",)) == 7


def test_a_state_comes_back_from_pickle_and_from_serialize() -> None:
    game = load("katzenjammer_blues", 3)
    state = game.new_initial_state()
    deal(state, 7)
    for _ in range(30):
        if state.is_terminal():
            break
        state.apply_action(state.legal_actions()[-1])
    again = pickle.loads(pickle.dumps(state))
    assert str(again) == str(state) and again.legal_actions() == state.legal_actions()
    _, copy = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert copy.information_state_string(1) == state.information_state_string(1)


def test_options_players_and_bad_parameters() -> None:
    game = load("cartes_magiques", 4, options="decks:2;opening:race")
    assert game.spaces.game.options["decks"] == 2 and game.spaces.game.options["opening"] == "race"
    again = pickle.loads(pickle.dumps(game))  # through its game string
    assert str(again) == str(game) and again.spaces.game.options == game.spaces.game.options
    game = load("quasenbo", 3, options="")
    cards = game.spaces.game.program.n_cards
    assert game.num_players() == 3 and game.max_chance_outcomes() == cards
    state = game.new_initial_state()  # setup deals from the deck it shuffled: the top card is any of them
    assert state.is_chance_node() and state.chance_outcomes() == [(c, 1 / cards) for c in range(cards)]
    with pytest.raises(Exception, match="no_such_game"):
        pyspiel.load_game("ruledsl", {"game": "no_such_game"})
    with pytest.raises(Exception, match="name:value"):
        pyspiel.load_game("ruledsl", {"game": "quasenbo", "options": "oops"})


def test_the_hidden_cards_are_not_in_the_information_state() -> None:
    game = load("quasenbo", 2)
    state = game.new_initial_state()
    deal(state, 5)
    seen = state.information_state_string(0)
    other = state.resample_from_infostate(0, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    assert other.information_state_string(0) == seen
    assert other.information_state_tensor(0) == state.information_state_tensor(0)
    assert other.observation_tensor(0) == state.observation_tensor(0)


def test_openspiels_ismcts_bot_plays_two_player_quasenbo() -> None:
    import numpy as np
    from open_spiel.python.algorithms import ismcts, mcts

    game = load("quasenbo", 2)
    rng = np.random.RandomState(7)
    bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rng), 2.0, max_simulations=20, random_state=rng)
    state = game.new_initial_state()
    deal(state, 11)
    moves = 0
    while not state.is_terminal():
        if state.current_player() == 0:
            action = bot.step(state)  # it checks that each world it samples reads the same to him
        else:
            action = rng.choice(state.legal_actions())
        assert action in state.legal_actions()
        state.apply_action(action)
        moves += 1
    assert moves > 5 and sorted(state.returns()) in ([-1.0, 1.0], [0.0, 0.0])


def iig_type(public: bool, private: bool, perfect_recall: bool = False) -> object:
    kind = pyspiel.PrivateInfoType.SINGLE_PLAYER if private else pyspiel.PrivateInfoType.NONE
    return pyspiel.IIGObservationType(public_info=public, perfect_recall=perfect_recall, private_info=kind)


def test_a_players_view_and_the_public_view_are_offered_and_no_other() -> None:
    from open_spiel.python.observation import make_observation

    game = load("quasenbo", 2)
    assert make_observation(game, iig_type(public=False, private=True)) is None  # private alone: ruledsl has none
    assert make_observation(game, iig_type(public=True, private=False, perfect_recall=True)) is None
    state = game.new_initial_state()
    deal(state, 2)
    observer = make_observation(game)
    observer.set_from(state, 1)
    assert list(observer.tensor) == state.observation_tensor(1)
    assert len(observer.tensor) == game.spaces.tensors.observation_size


def test_the_public_observer_shows_every_player_what_a_spectator_sees() -> None:
    from open_spiel.python.observation import make_observation

    game = load("quasenbo", 2)
    public = make_observation(game, iig_type(public=True, private=False))
    state = game.new_initial_state()
    deal(state, 2)
    for _ in range(3):
        state.apply_action(state.legal_actions()[0])
    texts, tensors = [], []
    for player in range(2):
        public.set_from(state, player)
        tensors.append(public.tensor.tolist())
        texts.append(public.string_from(state, player))
    assert texts[0] == texts[1] and tensors[0] == tensors[1]  # the same for every player
    engine = state.decisions.state
    assert json.loads(texts[0]) == engine.observation(None)
    assert len(tensors[0]) == game.observation_tensor_size()
    assert tensors[0][:2] == [0.0, 0.0]  # the seat's part: nobody's
    prog = engine.prog
    for seat in range(2):
        hand = [prog.card_names[c] for c in engine.zones[prog.zones[2].base + seat]]
        assert hand and all(card in state.observation_string(seat) for card in hand)
        assert not any(card in texts[0] for card in hand)
        assert state.observation_tensor(seat) != tensors[0]


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 999), steps=st.integers(0, 150))
def test_the_public_view_does_not_change_when_hidden_cards_are_dealt_anew(name: str, seed: int, steps: int) -> None:
    """Each player's resampling deals anew every card he cannot see: together, every card not public."""
    from open_spiel.python.observation import make_observation

    game = load(name)
    public = make_observation(game, iig_type(public=True, private=False))
    state = game.new_initial_state()
    deal(state, seed)
    rng = random.Random(seed)
    for _ in range(steps):
        nxt = state.child(rng.choice(state.legal_actions()))
        if nxt.is_terminal():
            break
        state = nxt
    while state.is_chance_node():  # a player's state: the one he resamples
        state = state.child(rng.choice(state.legal_actions()))
    public.set_from(state, 0)
    tensor, text = public.tensor.tolist(), public.string_from(state, 0)
    for player in range(game.num_players()):
        for k in range(2):
            other = state.resample_from_infostate(player, lambda k=k: rng.random())
            public.set_from(other, player)
            assert public.tensor.tolist() == tensor
            assert public.string_from(other, player) == text


@pytest.mark.parametrize(("name", "players"), [("quasenbo", 2), ("president", 3)])
def test_legal_actions_called_from_python_are_openspiels_own(name: str, players: int) -> None:
    """RuledslState.legal_actions skips OpenSpiel's calls back into Python: it gives what OpenSpiel's gives."""
    game = load(name, players)
    openspiels = pyspiel.State.legal_actions
    state = game.new_initial_state()
    assert state.legal_actions() == openspiels(state) == list(range(game.max_chance_outcomes()))
    rng = random.Random(4)
    while True:
        assert state.legal_actions() == openspiels(state)
        for player in range(players):
            assert state.legal_actions(player) == openspiels(state, player)
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    assert state.legal_actions() == []


def test_a_game_of_payoffs_returns_them_and_says_what_the_rules_prove() -> None:
    game = load("kuhn_poker")
    assert game.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM
    assert game.utility_sum() == 0.0
    # The rule file declares the range ('payoff: chips, from -2 to 2'), checked in play.
    assert (game.min_utility(), game.max_utility()) == (-2.0, 2.0)
    rng = random.Random(0)
    for _ in range(20):
        state = game.new_initial_state()
        while not state.is_terminal():
            outcomes = state.chance_outcomes() if state.is_chance_node() else None
            state.apply_action(outcomes[0][0] if outcomes else rng.choice(state.legal_actions()))
        returns = state.returns()
        assert sum(returns) == 0 and abs(returns[0]) in (1, 2)


def test_leduc_poker_declares_its_range_of_chips_as_openspiels_leduc() -> None:
    ours, native = load("leduc_poker"), pyspiel.load_game("leduc_poker")
    assert (ours.min_utility(), ours.max_utility()) == (native.min_utility(), native.max_utility()) == (-13.0, 13.0)
    assert ours.get_type().utility == native.get_type().utility == pyspiel.GameType.Utility.ZERO_SUM


def test_a_game_of_payoffs_without_a_declared_range_is_unbounded_not_guessed(tmp_path: Path) -> None:
    text = (
        named_games()["kuhn_poker"].read_text(encoding="utf-8").replace("payoff: chips, from -2 to 2", "payoff: chips")
    )
    path = tmp_path / "kuhn.game"
    path.write_text(text, encoding="utf-8")
    game = pyspiel.load_game("ruledsl", {"game": str(path)})
    assert (game.min_utility(), game.max_utility()) == (-math.inf, math.inf)


def test_a_game_of_places_is_general_sum_between_minus_one_and_one() -> None:
    game = load("quasenbo")
    assert game.get_type().utility == pyspiel.GameType.Utility.GENERAL_SUM
    assert (game.min_utility(), game.max_utility()) == (-1.0, 1.0)


def test_kuhn_poker_passes_the_full_tree_checks_as_the_zero_sum_game_it_is(monkeypatch: pytest.MonkeyPatch) -> None:
    """Its chips only change hands ('payoff: chips'): the check that a zero-sum game's returns sum to 0 is run."""
    from open_spiel.integration_tests import api_test

    # (chance, playable, terminal) states: before the first card and the three before the second, four
    # places to bet and five ends for each of the six deals (OpenSpiel's kuhn_poker has these); and
    # the (infostate, player) pairs: each player's three cards, at his two places to act.
    monkeypatch.setitem(api_test.TOTAL_NUM_STATES, "ruledsl", (4, 24, 30))
    monkeypatch.setitem(api_test.PERFECT_RECALL_NUM_STATES, "ruledsl", 12)
    assert run_api_test("EnforceAPIOnFullTreeBase", load("kuhn_poker")) == 8
