"""Batches of games on a Dask cluster (--cluster): the same results as --jobs, through faults and Ctrl-C.

Real clusters, small ones: a LocalCluster of worker processes, as `--cluster local:2` starts.
"""

from __future__ import annotations

import ipaddress
import json
import logging
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
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
    yield from _two_workers()


def _two_workers(**settings: Any) -> Iterator[str]:
    """Run a LocalCluster of two worker processes (with ``settings``) while the caller uses its address."""
    distributed = require("distributed", "cluster")
    cluster = distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        dashboard_address=None,
        scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
        silence_logs=logging.ERROR,
        **settings,
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
            (["--cluster", "localhost"], "--cluster takes local:N (N worker processes here) or tls://HOST:PORT"),
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


def _this_machine_not_loopback() -> str:
    """An address of this machine that is not a loopback one (no packet is sent: a UDP socket is only aimed)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: the route out, whatever the network
            host = str(probe.getsockname()[0])
        except OSError:
            host = "127.0.0.1"
    if ipaddress.ip_address(host).is_loopback:
        pytest.skip("this machine has no address but loopback ones")
    return host


@pytest.fixture
def rogue() -> Iterator[tuple[str, list[str]]]:
    """A TCP server on every address of this machine, as a rogue scheduler listens: its non-loopback address, and
    the clients that connected to it (each is hung up on at once)."""
    host = _this_machine_not_loopback()
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.bind(("0.0.0.0", 0))  # noqa: S104  (the test needs an address that is not loopback)
    server.listen(8)
    heard: list[str] = []

    def serve() -> None:
        while True:
            try:
                conn, peer = server.accept()
            except OSError:
                return  # closed: the test is over
            heard.append(str(peer))
            conn.close()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"tcp://{host}:{server.getsockname()[1]}", heard
    finally:
        server.shutdown(socket.SHUT_RDWR)
        server.close()
        thread.join(5)


def _openssl(*argv: str) -> None:
    subprocess.run(["openssl", *argv], check=True, capture_output=True, timeout=60)


@pytest.fixture(scope="module")
def certificates(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """A certificate authority made for the test and one certificate it signed (for scheduler, workers, client)."""
    if shutil.which("openssl") is None:
        pytest.skip("needs the openssl command to make certificates")
    d = tmp_path_factory.mktemp("tls")
    _openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=ruledsl test CA",
             "-keyout", str(d / "ca.key"), "-out", str(d / "ca.pem"))  # fmt: skip
    _openssl("req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=localhost",
             "-keyout", str(d / "node.key"), "-out", str(d / "node.csr"))  # fmt: skip
    (d / "ext.cnf").write_text(
        "basicConstraints=CA:FALSE\nsubjectAltName=DNS:localhost,IP:127.0.0.1\n"
        "extendedKeyUsage=serverAuth,clientAuth\n",
        encoding="utf-8",
    )
    _openssl("x509", "-req", "-in", str(d / "node.csr"), "-CA", str(d / "ca.pem"), "-CAkey", str(d / "ca.key"),
             "-CAcreateserial", "-days", "2", "-extfile", str(d / "ext.cnf"), "-out", str(d / "node.pem"))  # fmt: skip
    return {"ca": str(d / "ca.pem"), "cert": str(d / "node.pem"), "key": str(d / "node.key")}


@pytest.fixture(scope="module")
def tls_scheduler(certificates: dict[str, str]) -> Iterator[str]:
    """A Dask scheduler and two workers that speak only TLS, each side proving itself with the test's certificate."""
    require("distributed", "cluster")
    from distributed.security import Security

    ca, cert, key = certificates["ca"], certificates["cert"], certificates["key"]
    security = Security(
        tls_ca_file=ca,
        **{
            f"tls_{who}_{part}": path
            for who in ("scheduler", "worker", "client")
            for part, path in (("cert", cert), ("key", key))
        },
        require_encryption=True,
    )
    yield from _two_workers(protocol="tls://", security=security)


class TestSecurity:
    """Dask exchanges pickles: ruledsl speaks to a scheduler on another machine only over TLS, unless told."""

    def test_plain_tcp_to_another_machine_is_refused_before_any_connection(
        self, rogue: tuple[str, list[str]], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
    ) -> None:
        address, heard = rogue
        for where in (address, "tcp://scheduler.example:8786", "tcp://10.1.2.3:8786"):
            for command in (["simulate", "quasenbo", "-n", "4"], ["check", "quasenbo", "--simulate", "4"]):
                assert cli.main([*command, "--cluster", where]) == 2
                err = capsys.readouterr().err
                assert err.startswith(f"--cluster:1:1: error[E701]: plain tcp:// to {where[6:].rpartition(':')[0]} ")
                assert "= hint: " in err and "--insecure-cluster" in err and "tls://" in err
                assert "Traceback" not in err
        time.sleep(0.2)
        assert heard == []  # the rogue scheduler never heard from us

    def test_plain_tcp_to_another_machine_when_the_user_says_so(
        self, rogue: tuple[str, list[str]], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
    ) -> None:
        # The guard of the test above: the same address with --insecure-cluster does reach the server.
        require("distributed", "cluster")
        address, heard = rogue
        monkeypatch.setattr(executors, "CONNECT_TIMEOUT", "1s")
        with pytest.raises(SystemExit) as exit_:
            cli.main(["simulate", "quasenbo", "-n", "4", "--cluster", address, "--insecure-cluster"])
        assert exit_.value.code == 2
        assert "cannot reach the Dask scheduler" in capsys.readouterr().err
        assert heard != []

    def test_tls_needs_certificates(self, capsys: pytest.CaptureFixture[str]) -> None:
        require("distributed", "cluster")
        assert cli.main(["simulate", "quasenbo", "-n", "4", "--cluster", "tls://10.1.2.3:8786"]) == 2
        err = capsys.readouterr().err
        assert err.startswith("--cluster:1:1: error[E702]: ") and "--tls-ca-file" in err and "Traceback" not in err

    @pytest.mark.parametrize("extra", [["--tls-ca-file", "ca.pem"], ["--insecure-cluster"]])
    def test_security_options_go_with_a_remote_scheduler(
        self, extra: list[str], capsys: pytest.CaptureFixture[str]
    ) -> None:
        with pytest.raises(SystemExit) as exit_:
            cli.main(["simulate", "quasenbo", "-n", "4", *extra])
        assert exit_.value.code == 2
        err = capsys.readouterr().err
        assert f"{extra[0]} goes with --cluster" in err and len(err.splitlines()) == 1

    def test_a_tls_cluster_gives_the_json_of_jobs_1(
        self, tls_scheduler: str, certificates: dict[str, str], capsys: pytest.CaptureFixture[str]
    ) -> None:
        assert tls_scheduler.startswith("tls://127.0.0.1:")
        simulate = ["simulate", "quasenbo", "--players", "3", "-n", "40", "--json"]
        tls = [
            "--tls-ca-file",
            certificates["ca"],
            "--tls-cert",
            certificates["cert"],
            "--tls-key",
            certificates["key"],
        ]
        assert _json_of(capsys, [*simulate, "--cluster", tls_scheduler, *tls]) == _json_of(capsys, simulate)

    def test_a_tls_cluster_needs_this_machines_certificate_too(
        self, certificates: dict[str, str], capsys: pytest.CaptureFixture[str]
    ) -> None:
        require("distributed", "cluster")
        argv = ["simulate", "quasenbo", "-n", "4", "--cluster", "tls://127.0.0.1:8786"]
        assert cli.main([*argv, "--tls-ca-file", certificates["ca"]]) == 2
        err = capsys.readouterr().err
        assert err.startswith("--cluster:1:1: error[E702]: ") and "Traceback" not in err
