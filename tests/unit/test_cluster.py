"""Batches of games on a Dask cluster (--cluster): the same results as --jobs, through faults and Ctrl-C.

Real clusters, small ones: a LocalCluster of worker processes, as `--cluster local:2` starts.
"""

from __future__ import annotations

import json
import logging
import os
import signal
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import ruledsl
from ruledsl import cli
from ruledsl.cli import progress
from ruledsl.tools import executors
from ruledsl.tools.executors import Batch, DaskCluster, GameSpec, InProcess, ProcessPool, play_batches
from ruledsl.tools.simulate import GameRecord, run_games
from tests.extras import require
from tests.unit.test_validate import DRIFT, HEAD


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    """The address of a running Dask scheduler with two worker processes, as `dask scheduler` gives one."""
    distributed = require("distributed", "cluster")
    cluster = distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        dashboard_address=None,
        scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
        silence_logs=logging.ERROR,
    )
    try:
        yield cluster.scheduler_address
    finally:
        cluster.close()


# A game random players end in three ways (a win, a rule that fails, a player stuck), depending on the seed.
MIXED = (
    HEAD
    + """\
setup:
    shuffle deck
phase play:
    action draw when deck is not empty:
        move top of deck to hand
    action wait when x < 3:
        add 1 to x
    action divide when x == 2:
        set x = 10 / (x - 2)
    action finish when size of hand > 1:
        end game, winner player
"""
)

# A game random players (and those seeking progress) never end: each game plays to the bound of 20,000 actions.
ENDLESS = DRIFT.replace("score >= 30", "score >= 100000")


def _check_json(capsys: pytest.CaptureFixture[str], argv: list[str], code: int = 0) -> dict[str, Any]:
    """``check --simulate --format json``'s report without its timings."""
    assert cli.main(argv) == code
    out = json.loads(capsys.readouterr().out)
    for simulation in out["simulations"]:
        for configuration in simulation["configurations"]:
            configuration.pop("seconds")
    return out


def _is_profiling(dask_worker: Any) -> bool:
    return "profile" in dask_worker.periodic_callbacks


def _json_of(capsys: pytest.CaptureFixture[str], argv: list[str]) -> dict[str, Any]:
    assert cli.main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    out.pop("seconds", None)  # the only field that is not the games': how long they took here
    return out


class TestSeam:
    """Every executor plays the same chunk function and hands chunks back in order."""

    def test_a_worker_compiles_the_rules_from_their_text_once(self) -> None:
        game = ruledsl.load_game("quasenbo", players=3)
        spec = GameSpec.of(game)
        executors._COMPILED.clear()
        first = executors.compiled(spec)
        assert executors.compiled(spec) is first  # by hash: no second compile
        assert first.players == 3 and first.options == game.options

    def test_rules_that_do_not_match_their_hash_are_refused(self) -> None:
        spec = GameSpec.of(ruledsl.load_game("quasenbo"))
        changed = GameSpec(spec.path, spec.text + "\n", spec.sha256, spec.players, spec.options, spec.max_actions)
        with pytest.raises(ValueError, match="do not match their SHA-256"):
            executors.compiled(changed)

    def test_pool_and_in_process_give_the_same_records(self) -> None:
        game = ruledsl.load_game("crazy_eights", players=3)
        plan = tuple((seed, ("random", "first", "random")) for seed in range(30))
        here = play_batches([Batch(game, plan)], InProcess())[0]
        with ProcessPool(2) as pool:
            there = play_batches([Batch(game, plan)], pool)[0]
        assert there == here
        assert [r.seed for r in there] == list(range(30))


class TestPlacementErrors:
    """Bad --cluster and --jobs: one line, exit 2, before any game is played."""

    @pytest.mark.parametrize(
        ("argv", "message"),
        [
            (["--cluster", "local:0"], "--cluster local:N starts 1 to 64 worker processes, not 0"),
            (["--cluster", "localhost"], "--cluster takes local:N (N worker processes here) or tcp://HOST:PORT"),
            (["--cluster", "tcp://host"], "not 'tcp://host'"),
            (["--jobs", "2", "--cluster", "local:2"], "--cluster and --jobs both say where to play"),
        ],
    )
    def test_bad_placement(self, argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
        for command in (["simulate", "quasenbo"], ["compare", "quasenbo", "--vary", "double=no,yes"]):
            with pytest.raises(SystemExit) as exit_:
                cli.main([*command, "-n", "4", *argv])
            assert exit_.value.code == 2
            err = capsys.readouterr().err
            assert message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1

    def test_without_dask_the_error_says_what_to_install(
        self, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
    ) -> None:
        monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed: ImportError
        with pytest.raises(SystemExit) as exit_:
            cli.main(["simulate", "quasenbo", "-n", "4", "--cluster", "local:1"])
        assert exit_.value.code == 2
        assert capsys.readouterr().err == "ruledsl: error: --cluster needs Dask: pip install 'ruledsl[cluster]'\n"

    def test_an_unreachable_scheduler(
        self, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
    ) -> None:
        require("distributed", "cluster")
        monkeypatch.setattr(executors, "CONNECT_TIMEOUT", "1s")
        with pytest.raises(SystemExit) as exit_:
            cli.main(["simulate", "quasenbo", "-n", "4", "--cluster", "tcp://127.0.0.1:9"])
        assert exit_.value.code == 2
        err = capsys.readouterr().err
        assert err.startswith("ruledsl: error: cannot reach the Dask scheduler at tcp://127.0.0.1:9: ")
        assert len(err.splitlines()) == 1


class TestOnACluster:
    """A real LocalCluster: the JSON of --jobs 1, a killed worker, Ctrl-C."""

    def test_simulate_compare_and_sweep_give_the_json_of_jobs_1(
        self, scheduler: str, capsys: pytest.CaptureFixture[str]
    ) -> None:
        assert scheduler.startswith("tcp://")
        simulate = ["simulate", "quasenbo", "--players", "4", "-n", "60", "--json"]
        one = _json_of(capsys, [*simulate, "--jobs", "1"])
        assert _json_of(capsys, [*simulate, "--jobs", "2"]) == one
        assert _json_of(capsys, [*simulate, "--cluster", "local:2"]) == one
        compare = ["compare", "quasenbo", "--vary", "double=no,yes", "-n", "30", "--rotate", "--json"]
        assert _json_of(capsys, [*compare, "--cluster", scheduler]) == _json_of(capsys, compare)
        sweep = ["sweep", "quasenbo", "--vary", "pawns=no,yes", "--players", "2,3", "-n", "10", "--json"]
        assert _json_of(capsys, [*sweep, "--cluster", scheduler]) == _json_of(capsys, sweep)

    def test_check_simulate_gives_the_findings_of_jobs_1(
        self, scheduler: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
    ) -> None:
        monkeypatch.chdir(tmp_path)
        Path("mixed.game").write_text(MIXED, encoding="utf-8")
        argv = ["check", "mixed.game", "--simulate", "40", "--time-budget", "0", "--format", "json"]
        one = _check_json(capsys, [*argv, "--jobs", "1"], 70)
        # Failures, stuck states, first seeds and counts, merged from chunks in the order of their seeds.
        assert [(d["code"], d["severity"]) for d in one["diagnostics"]] == [("R506", "error"), ("R504", "error")]
        assert "first: 2 players, seed 1, after 6 actions" in one["diagnostics"][0]["hint"]
        assert [c["games"] for c in one["simulations"][0]["configurations"]] == [40, 40]
        assert _check_json(capsys, [*argv, "--jobs", "2"], 70) == one
        assert _check_json(capsys, [*argv, "--cluster", scheduler], 70) == one

    def test_check_simulate_on_a_cluster_keeps_to_the_time_budget_and_says_what_was_cut(
        self, scheduler: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
    ) -> None:
        monkeypatch.chdir(tmp_path)
        Path("endless.game").write_text(ENDLESS, encoding="utf-8")
        argv = ["check", "endless.game", "--simulate", "200", "--time-budget", "0.5", "--cluster", scheduler]
        [simulation] = _check_json(capsys, [*argv, "--format", "json"])["simulations"]
        [result] = simulation["configurations"]
        # Played to the end, 200 games take minutes: the chunks out were cut, the rest never handed out.
        assert result["games"] + result["cut"] == 200 and result["cut"] > 150
        assert result["games"] == result["truncated"]  # the games cut are not counted as played
        assert cli.main(argv) == 0
        out = capsys.readouterr().out
        assert "time budget of 0.5 s spent: played " in out and " of 200 games" in out
        assert "give more time with --time-budget SECONDS (0: no limit)" in out

    def test_a_killed_worker_changes_nothing_and_is_reported(self) -> None:
        require("distributed", "cluster")
        game = ruledsl.load_game("quasenbo", players=4)
        seeds = list(range(160))  # 2 workers: chunks of 10 games, 16 of them
        baseline = run_games(game, seeds, ["random"] * 4)
        with DaskCluster("local:2") as cluster:
            pids = sorted(cluster.client.run(os.getpid).values())
            assert len(pids) == 2
            # The workers local:N starts take DASK_SETTINGS: no statistical profiler sampling the games.
            assert set(cluster.client.run(_is_profiling).values()) == {False}
            killed: list[int] = []

            def kill_one(record: GameRecord) -> None:
                if not killed:  # after the first chunk came back: the others run, or wait to be fetched
                    os.kill(pids[1], signal.SIGKILL)
                    killed.append(pids[1])

            records = run_games(game, seeds, ["random"] * 4, progress=kill_one, executor=cluster)
            notes = cluster.notes()
            for _ in range(50):  # the scheduler may log the loss just after the last chunk came back
                if notes:
                    break
                time.sleep(0.2)
                notes = cluster.notes()
        assert records == baseline
        assert len(notes) == 1
        assert notes[0].startswith("1 worker lost; its ") and notes[0].endswith(" ran again"), notes

    def test_ctrl_c_stops_the_cluster_and_keeps_the_finished_games(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
    ) -> None:
        require("distributed", "cluster")
        added = progress.Progress.add

        def until_the_third(bar: progress.Progress, k: int, total: int) -> None:
            if bar.done == 2:
                raise KeyboardInterrupt
            added(bar, k, total)

        monkeypatch.setattr(progress.Progress, "add", until_the_third)
        log = tmp_path / "games.jsonl"
        argv = ["simulate", "quasenbo", "-n", "40", "--log", str(log), "--cluster", "local:2"]
        assert cli.main(argv) == 130
        assert [json.loads(line)["seed"] for line in log.read_text().splitlines()] == [0, 1, 2]
        err = capsys.readouterr().err
        assert f"3 finished games of 40 kept in {log}\n" in err and err.endswith("interrupted\n")
