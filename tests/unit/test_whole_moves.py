"""Moves as untrusted input (issue 31): an action applies whole or not at all; forged or odd moves are refused."""

from __future__ import annotations

import copy
import random
import shutil
from pathlib import Path
from typing import Any

import pytest

import ruledsl
from ruledsl.engine.state import GameState
from ruledsl.engine.values import Action
from ruledsl.text.errors import IllegalActionError, RuleRuntimeError
from ruledsl.tools import scenario
from tests.golden.test_golden import run_cli

HOSTILE = Path(__file__).resolve().parents[1] / "hostile"
GAMES = ["crazy_eights", "old_maid", "katzenjammer_blues", "president", "quasenbo", "cartes_magiques"]


def snapshot(state: GameState) -> tuple[Any, ...]:
    """Everything a player or a program can read of a state (copied: a state changes in place)."""
    return copy.deepcopy(
        (
            [state.observation(p) for p in range(state.num_players)],
            [str(a) for a in state.history()],
            [str(a) for a in state.legal_actions()],
            state.zones,
            state.gv,
            state.pv,
            state.n_actions,
            state.current_player(),
            state.is_terminal(),
            state.log,
        )
    )


def failing(state: GameState) -> Action:
    return next(a for a in state.legal_actions() if a.name in ("throw", "spin"))


class TestWholeMoves:
    @pytest.mark.parametrize("name", ["moves_half_applied.game", "moves_budget.game"])
    @pytest.mark.parametrize("log", [False, True])
    def test_a_rule_failing_mid_action_leaves_the_state_as_before(self, name: str, log: bool) -> None:
        game = ruledsl.load_game(HOSTILE / name)
        state = game.new_initial_state(seed=3, log=log)
        before = snapshot(state)
        with pytest.raises(RuleRuntimeError) as info:
            state.apply_action(failing(state))
        assert info.value.diagnostics[0].code in ("R504", "R501")
        assert info.value.diagnostics[0].span is not None
        assert snapshot(state) == before

    def test_the_game_goes_on_from_there_as_if_nothing_happened(self) -> None:
        game = ruledsl.load_game(HOSTILE / "moves_half_applied.game")
        state = game.new_initial_state(seed=5)
        same = game.new_initial_state(seed=5)
        with pytest.raises(RuleRuntimeError):
            state.apply_action(failing(state))
        passing = next(a for a in state.legal_actions() if a.name == "pass")
        state.apply_action(passing)
        same.apply_action(passing)
        assert snapshot(state) == snapshot(same)

    def test_a_resample_rolls_back_to_itself_never_to_the_true_deal(self) -> None:
        game = ruledsl.load_game(HOSTILE / "moves_half_applied.game")
        for seed in range(5):
            true = game.new_initial_state(seed=seed)
            deal = true.resample(0, random.Random(seed))
            before = snapshot(deal)
            with pytest.raises(RuleRuntimeError):
                deal.apply_action(failing(deal))
            assert snapshot(deal) == before

    def test_a_scenario_rolls_back_to_the_scenario(self) -> None:
        game = ruledsl.load_game(HOSTILE / "moves_half_applied.game")
        state = game.new_initial_state(seed=0)
        scenario.set_var(state, "moved", 7)
        before = snapshot(state)
        with pytest.raises(RuleRuntimeError):
            state.apply_action(failing(state))
        assert snapshot(state) == before and state.gv[0] == 7

    def test_a_copy_keeps_the_log(self) -> None:
        game = ruledsl.load_game("crazy_eights")
        state = game.new_initial_state(seed=0, log=True)
        state.apply_action(state.legal_actions()[0])
        kept = state.clone()
        assert kept.log == state.log and kept.log is not None and kept.log is not state.log


def forged_keys(action: Action) -> list[tuple[Any, ...]]:
    n = len(action.key)
    return [
        (),
        (10**30,),
        (-1,) * 5,
        ("x",),
        (None,),
        (*action.key, 1),
        action.key[:-1],
        (1.5,) * n,
        ((1, 2),) * n,
        (10**100,) * n,
        (-1000,) * n,
        (object(),) * n,
    ]


class TestForgedMoves:
    @pytest.mark.parametrize("name", GAMES)
    def test_a_forged_action_is_refused_as_illegal(self, name: str) -> None:
        state = ruledsl.load_game(name).new_initial_state(seed=1)
        rng = random.Random(0)
        for _ in range(12):
            if state.is_terminal():
                break
            legal = state.legal_actions()
            for action in legal[:3]:
                for key in forged_keys(action):
                    forged = Action(action.defn, key)
                    if forged in legal:
                        continue
                    probe = state.clone()
                    with pytest.raises(IllegalActionError):
                        probe.apply_action(forged)
                    assert isinstance(probe.why_illegal(forged), str)
            state.apply_action(rng.choice(legal))

    @pytest.mark.parametrize("name", GAMES)
    @pytest.mark.parametrize(
        "text",
        ["²", "play ²", "take card ²", "bid ٣", "9" * 5000, "take card " + "9" * 5000, "play " + "A♠ " * 600, "p²"],
    )
    def test_odd_digits_and_huge_numbers_are_refused(self, name: str, text: str) -> None:
        state = ruledsl.load_game(name).new_initial_state(seed=2)
        with pytest.raises(IllegalActionError) as info:
            state.action_from_string(text)
        assert len(str(info.value)) < 400
        reason = state.why_illegal(text)
        assert isinstance(reason, str) and len(reason) < 400

    def test_a_long_move_is_refused_unread(self) -> None:
        state = ruledsl.load_game("president").new_initial_state(seed=3)
        assert state.why_illegal("play " + "A♠ " * 600) == (
            "a move of 1,805 characters is longer than any move (1,000 at most)"
        )

    def test_the_play_prompt_refuses_them_and_goes_on(self) -> None:
        typed = "²\n" + "9" * 5000 + "\nplay " + "A♠ " * 600 + "\nplay ²\nq\n"
        code, out, err = run_cli(["play", "crazy_eights", "--seats", "human,random", "--seed", "1"], stdin=typed)
        assert (code, err) == (3, "")
        assert "A move of 5,000 characters is longer than any move" in out
        assert "'²' is not one of your actions now" in out

    @pytest.mark.parametrize("seat", ["²", "P²", "9" * 5000, "P٣"])
    def test_replay_as_an_odd_seat_is_a_usage_error(self, tmp_path: Path, seat: str) -> None:
        log = tmp_path / "r.jsonl"
        assert run_cli(["simulate", "crazy_eights", "-n", "1", "--log", str(log)])[0] == 0
        code, out, err = run_cli(["replay", str(log), "--as", seat])
        assert code == 2 and out == ""
        assert err.startswith("ruledsl: error: --as takes a seat from 0 to 1") and "Traceback" not in err


class TestByteOrderMarks:
    def test_fmt_refuses_two_byte_order_marks_as_check_does(self, tmp_path: Path) -> None:
        path = tmp_path / "bom.game"
        shutil.copy(HOSTILE / "bom_twice.game", path)
        before = path.read_bytes()
        for command in (["check"], ["fmt"], ["fmt", "--check"]):
            code, _, err = run_cli([*command, str(path)])
            assert code == 65
            assert err.startswith(f"{path}:1:1: error[E102]: unexpected character 'U+FEFF'")
        assert path.read_bytes() == before
