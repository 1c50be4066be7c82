"""An agent gets its seat's knowledge only: resamples read as seen, no table of true states, agents out of process."""

from __future__ import annotations

import random
import sys
from collections.abc import Mapping

import pytest

import ruledsl
from ruledsl.agents import SeatView, decide
from ruledsl.agents import view as view_module
from ruledsl.agents.process import ProcessAgent, ProcessAgentError
from ruledsl.engine.state import GameState
from ruledsl.tools import leaks


def president_after_a_hidden_give_back() -> tuple[GameState, int]:
    """A tracked 3-player President game just after the President gave back two cards the Scum cannot see."""
    game = ruledsl.load_game("president", players=3)
    for seed in range(20):
        state = game.new_initial_state(seed=seed, track=True, log=True)
        rng = random.Random(seed)
        while not state.is_terminal():
            state.apply_action(rng.choice(state.legal_actions()))
            for seat in range(3):
                if state.describe_last(seat) == "give back two hidden cards":
                    return state, seat
    raise AssertionError("no President game gave back hidden cards")


class TestResampledHistory:
    def test_each_action_reads_as_the_seat_saw_it(self) -> None:
        state, seat = president_after_a_hidden_give_back()
        true_label = str(state.history()[-1])
        assert true_label.startswith("give back ") and "hidden" not in true_label
        sample = SeatView(state, seat).resample(random.Random(0))
        labels = [str(a) for a in sample.history()]
        assert labels[-1] == "give back two hidden cards"
        assert true_label not in labels[-1:]
        assert sample.describe_last(seat) == "give back two hidden cards"

    def test_the_history_seen_by_each_seat_matches_what_he_was_shown(self) -> None:
        game = ruledsl.load_game("president", players=3)
        state = game.new_initial_state(seed=4, track=True, log=True)
        shown: list[list[str]] = [[], [], []]
        rng = random.Random(4)
        while not state.is_terminal() and state.n_actions < 300:
            state.apply_action(rng.choice(state.legal_actions()))
            for seat in range(3):
                seen = state.describe_last(seat)
                if seen:
                    shown[seat].append(seen)
        for seat in range(3):
            assert [str(a) for a in state.history_seen_by(seat)] == shown[seat]
            own = [a for a in state.history_seen_by(seat) if a.key]
            assert all(a in state.history() for a in own)  # his own actions, choices and all

    def test_an_untracked_state_names_only_the_actions(self) -> None:
        game = ruledsl.load_game("president", players=3)
        state = game.new_initial_state(seed=1)
        rng = random.Random(1)
        for _ in range(5):
            state.apply_action(rng.choice(state.legal_actions()))
        labels = [str(a) for a in state.history_seen_by(0)]
        assert labels == [a.name.replace("_", " ") for a in state.history()]


class TestResampledFields:
    @pytest.mark.parametrize(("name", "players"), [("president", 3), ("go_fish", 3), ("quasenbo", 2)])
    def test_no_field_of_a_resample_hangs_on_hidden_cards(self, name: str, players: int) -> None:
        """Every field of a resample (where the cards lay before the last action included) is the
        same in twins the seat cannot tell apart, also after both are played on."""
        only = {"agent view": leaks.SURFACES["agent view"]}
        report = leaks.check_game(
            ruledsl.load_game(name, players=players), range(1), 3, 2, leaks.Report(), surfaces=only
        )
        assert report.followed and report.comparisons > 20
        assert not report.leaks, str(report.leaks[0])[:300]


class TestNoWayToTheTrueState:
    def test_no_module_table_of_true_states(self) -> None:
        state = ruledsl.load_game("quasenbo", players=3).new_initial_state(seed=1)
        view = SeatView(state, 0)
        assert not hasattr(view_module, "_TRUE_STATE")
        for name, value in vars(view_module).items():
            if isinstance(value, Mapping):
                assert not any(v is state for v in value.values()), name
        public = [getattr(view, a) for a in dir(view) if not a.startswith("_")]
        assert not any(v is state for v in public)

    def test_a_view_answers_only_the_seats_questions(self) -> None:
        state = ruledsl.load_game("quasenbo", players=3).new_initial_state(seed=1)
        view = SeatView(state, 1)
        with pytest.raises(ValueError, match="does not answer"):
            view._ask("zones", None)


class TestAgentsOutOfProcess:
    COMMAND = [sys.executable, "-m", "ruledsl.agents.process", "--seed", "3"]

    def test_plays_a_whole_game_from_another_process(self) -> None:
        game = ruledsl.load_game("crazy_eights", players=2)
        state = game.new_initial_state(seed=7)
        seat = 1
        with ProcessAgent(self.COMMAND, timeout=20) as agent:
            rng = random.Random(0)
            asked = 0
            while not state.is_terminal():
                if state.current_player() == seat:
                    action = decide(agent, state, seat)
                    asked += 1
                else:
                    action = rng.choice(state.legal_actions())
                state.apply_action(action)
        assert state.is_terminal() and asked > 3

    def test_an_answer_that_is_not_a_legal_action_is_an_error(self, tmp_path) -> None:  # type: ignore[no-untyped-def]
        script = tmp_path / "bad.py"
        script.write_text(
            'import sys\nfor line in sys.stdin:\n    print(\'{"action": "fly away"}\', flush=True)\n', encoding="utf-8"
        )
        state = ruledsl.load_game("crazy_eights", players=2).new_initial_state(seed=7)
        with ProcessAgent([sys.executable, str(script)], timeout=20) as agent:
            with pytest.raises(ProcessAgentError, match="not one of its legal actions"):
                decide(agent, state, state.current_player())

    def test_silence_is_an_error(self, tmp_path) -> None:  # type: ignore[no-untyped-def]
        script = tmp_path / "mute.py"
        script.write_text("import sys, time\nfor line in sys.stdin:\n    time.sleep(2)\n", encoding="utf-8")
        state = ruledsl.load_game("crazy_eights", players=2).new_initial_state(seed=7)
        with ProcessAgent([sys.executable, str(script)], timeout=0.5) as agent:
            with pytest.raises(ProcessAgentError, match="did not answer"):
                decide(agent, state, state.current_player())


def test_an_agent_view_keeps_neither_the_revealed_history_nor_the_true_origin() -> None:
    """Cheat, 4 players, seed 1: after a challenge turns the pile up, a seat's agent view held
    the history as the layers saw it ('lay 3♠') and an origin leading to the true deal."""
    report = leaks.Report()
    leaks.check_game(ruledsl.load_game("cheat", players=4), range(1, 2), 4, 2, report)
    assert report.followed > 0
    assert not [leak for leak in report.leaks if leak.surface == "agent view"]
