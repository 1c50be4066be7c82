"""An agent gets its seat's knowledge only: resamples read as seen, no table of true states, agents out of process."""

from __future__ import annotations

import random
import sys
from collections.abc import Mapping
from pathlib import Path

import pytest

import ruledsl
from ruledsl.agents import SeatView, decide
from ruledsl.agents import view as view_module
from ruledsl.agents.process import ProcessAgent, ProcessAgentError
from ruledsl.engine.state import GameState
from ruledsl.tools import leaks

_HERE = Path(__file__).parent


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


def _hidden_order_twin(state: GameState, seat: int) -> GameState:
    """``state`` with every zone's cards hidden from ``seat`` in reverse order: he cannot tell them apart."""
    twin = state.clone()
    for cards in twin.zones:
        hidden = [i for i, c in enumerate(cards) if not twin.sees(seat, c)]
        for i, c in zip(hidden, reversed([cards[i] for i in hidden])):
            cards[i] = c
    twin._legal = None
    return twin


def _resample_fields(state: GameState, seat: int) -> dict[str, object]:
    sample = SeatView(state, seat).resample(random.Random(7))
    return {name: getattr(sample, name) for name in ("zones", "loc", "cv", "gv", "pv")}


class TestCardVariables:
    """Hearts, 4 players: a card's variables (who played it last deal) go with the card into a
    resample, never with the place it lies in (a hand's order tells which card lies there)."""

    def test_a_resample_keeps_each_cards_variables_with_the_card(self) -> None:
        game = ruledsl.load_game("hearts", players=4)
        state = game.new_initial_state(seed=1, track=True)
        rng = random.Random(1)
        while state.round < 2:  # a whole deal played: the cards played carry 'played_by'
            state.apply_action(rng.choice(state.legal_actions()))
        for seat in range(4):
            twin = _hidden_order_twin(state, seat)
            assert twin.zones != state.zones
            assert _resample_fields(twin, seat) == _resample_fields(state, seat)
            sample = SeatView(state, seat).resample(random.Random(3))
            assert sample.cv == state.cv  # all of them were written in sight of every seat

    def test_a_variable_written_out_of_sight_is_not_dealt_to_another_seat(self) -> None:
        game = ruledsl.load_game(str(_HERE / "marked.game"))
        state = game.new_initial_state(seed=2, track=True)
        mark = next(a for a in state.legal_actions() if a.name == "mark")
        state.apply_action(mark)
        marker, other = 0, 1
        marked = [c for c, value in enumerate(state.cv[0]) if value]
        assert len(marked) == 1 and not state.sees(other, marked[0])
        for seed in range(10):
            sample = SeatView(state, other).resample(random.Random(seed))
            assert not any(sample.cv[0]), "P1 does not know which card P0 marked"
            twin = _hidden_order_twin(state, other)
            assert _resample_fields(twin, other) == _resample_fields(state, other)
        own = SeatView(state, marker).resample(random.Random(0))
        assert own.cv[0] == state.cv[0]  # the marker knows his own card

    def test_a_new_deal_does_not_make_it_known(self, tmp_path: Path) -> None:
        """A card marked out of the other's sight, then a new deal: he still does not know which."""
        path = tmp_path / "deals.game"
        path.write_text(_MARKED_DEALS, encoding="utf-8")
        game = ruledsl.load_game(str(path))
        checked = 0
        for seed in range(8):
            state = game.new_initial_state(seed=seed, track=True)
            state.apply_action(next(a for a in state.legal_actions() if a.name == "mark"))
            assert state.round == 2 and sum(state.cv[0]) == 1
            (marked,) = [c for c, value in enumerate(state.cv[0]) if value]
            if not state.sees(1, marked):
                checked += 1
                assert not any(SeatView(state, 1).resample(random.Random(seed)).cv[0])
            assert SeatView(state, 0).resample(random.Random(seed)).cv[0] == state.cv[0]  # he marked it
        assert checked


_MARKED_DEALS = """\
game "Marked Deals Test"
players 2
zone deck: shared, hidden
zone hand: per player, owner
card rank: number
card var marked = no
deck:
    card "{rank}" for rank in 1 to 8
setup:
    move all of (seat 0).hand to deck
    move all of (seat 1).hand to deck
    shuffle deck
    deal 3 from deck to each hand
phase play:
    action mark(c: card from hand):
        set c.marked = yes
        end round
    action lay(c: card from hand):
        move c to deck
        end game, winner player
round end:
    say "a new deal"
"""


HIDDEN_VARIABLES = Path(__file__).parents[1] / "generate" / "found" / "hidden_variables_in_a_resample.game"


@pytest.mark.xfail(
    strict=True,
    raises=AssertionError,
    reason="known limit (docs/security.md): a hidden variable keeps its true value in a resample; "
    "first values would break the bookkeeping games keep there (cartes_magiques' 'dealt' drives its legal actions)",
)
def test_a_resample_does_not_tell_a_hidden_variable_worked_out_from_unseen_cards() -> None:
    """Found by the generator under the leak harness (files 4, 9, 22, 28 and 33 of --seed 1): a hidden
    variable, or another's ``owner`` one, worked out from a card the seat cannot see keeps its true value
    in the seat's resamples (an agent's), and tells him the card: the agent views of a twin, played on
    with the two cards swapped, differ."""
    game = ruledsl.load_game(str(HIDDEN_VARIABLES))
    state = game.new_initial_state(seed=1, track=True)
    state.apply_action(state.legal_actions()[0])  # P0 lays a card to the hidden pile
    assert state.gv[0] > 0 and state.pv[0][0] > 0
    report = leaks.check_game(
        game, range(6), 4, 2, leaks.Report(), surfaces={"agent view": leaks.SURFACES["agent view"]}
    )
    assert report.comparisons > 0 and not report.leaks, "\n".join(str(leak)[:300] for leak in report.leaks[:3])
