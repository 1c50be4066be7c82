"""Throughput of a batch of games with --jobs 1, --jobs 2, --cluster local:1 and --cluster local:2, side by side.

    python benchmarks/cluster.py                       # 10,000 4-player Quäsenbö games, random bots
    python benchmarks/cluster.py -n 2000 --game crazy_eights --players 3

Each placement plays the same seeds through the executor the command line would use
(ruledsl/tools/executors.py) and must give the same records; the report gives games per
second for each, the speed-up of two workers over one, and what going through Dask costs
per game: (local:1 time - jobs 1 time) / games, one worker process against this process.
Starting a cluster (worker processes, imports) is timed apart from playing: a run pays it
once, whatever its length. Needs ruledsl[cluster].

On a machine others load too, wall-clock times say little; the CPU each process used says
more: for ``jobs 1`` this process's, for a cluster its workers' and this process's (the
client and, for ``local:N``, the scheduler), in ms a game.
"""

from __future__ import annotations

import argparse
import os
import time

import psutil

import ruledsl
from ruledsl.tools.executors import DaskCluster, Executor, InProcess, ProcessPool
from ruledsl.tools.simulate import GameRecord, run_games

PLACEMENTS = ("jobs 1", "jobs 2", "cluster local:1", "cluster local:2")


def _open(placement: str) -> Executor:
    kind, _, where = placement.partition(" ")
    if kind == "jobs":
        return InProcess() if where == "1" else ProcessPool(int(where))
    return DaskCluster(where)


def _workers(executor: Executor) -> list[psutil.Process]:
    """The worker processes of a Dask cluster on this machine (none for the other placements)."""
    if not isinstance(executor, DaskCluster):
        return []
    return [psutil.Process(pid) for pid in sorted(executor.client.run(os.getpid).values())]


def _cpu(processes: list[psutil.Process], since: list[float] | None = None) -> list[float]:
    """CPU seconds (user and system) each process has used, or used since ``since``."""
    used = [sum(p.cpu_times()[:2]) for p in processes]
    return used if since is None else [u - s for u, s in zip(used, since, strict=True)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", type=int, default=10_000, help="games (default 10,000)")
    parser.add_argument("--game", default="quasenbo", help="a bundled game or .game file (default quasenbo)")
    parser.add_argument("--players", type=int, default=4, help="players (default 4)")
    args = parser.parse_args(argv)
    game = ruledsl.load_game(args.game, players=args.players)
    seeds = list(range(args.n))
    seats = ["random"] * game.players
    played: dict[str, float] = {}
    first: list[GameRecord] | None = None
    print(f"{game.name}, {game.players} players, {args.n:,} games of random bots")
    for placement in PLACEMENTS:
        start = time.perf_counter()
        executor = _open(placement)
        started = time.perf_counter() - start
        try:
            workers = _workers(executor)
            before = _cpu([psutil.Process(), *workers])
            start = time.perf_counter()
            records = run_games(game, seeds, seats, executor=executor)
            played[placement] = time.perf_counter() - start
            here, *there = (used / args.n * 1e3 for used in _cpu([psutil.Process(), *workers], before))
        finally:
            executor.close()
        if first is None:
            first = records
        assert records == first, f"{placement} played other games than {PLACEMENTS[0]}"
        rate = args.n / played[placement]
        cpu = "" if isinstance(executor, ProcessPool) else f"   CPU ms/game: this process {here:.3f}"
        if there:
            cpu += f", workers {' + '.join(f'{t:.3f}' for t in there)}"
        print(f"  {placement:<16} {played[placement]:7.2f} s  {rate:8.1f} games/s   (start {started:.2f} s){cpu}")
    local1, local2 = played["cluster local:1"], played["cluster local:2"]
    jobs1, jobs2 = played["jobs 1"], played["jobs 2"]
    print(f"  cluster local:2 against local:1: {local1 / local2:.2f} times the throughput")
    print(f"  jobs 2 against jobs 1:           {jobs1 / jobs2:.2f} times the throughput")
    overhead = (local1 - jobs1) / args.n * 1e3
    print(f"  Dask's cost per game (local:1 - jobs 1): {overhead:+.3f} ms, {overhead / (jobs1 / args.n * 1e3):+.1%}")
    print("  the same records from every placement: yes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
