"""How much faster this machine runs pure-Python work in N processes than in one.

    python benchmarks/parallel_ceiling.py            # 2 processes, 3 trials

A yardstick for ``ruledsl simulate --jobs N``: the same CPU-bound loop, nothing shared, run
``4 * N`` times in one process and then in a pool of N. A virtual machine whose cores are
shared with others gives less than N here, and no program does better than this.
"""

from __future__ import annotations

import argparse
import time
from multiprocessing import Pool


def work(_: int) -> int:
    total = 0
    for i in range(6_000_000):
        total += i * i
    return total


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jobs", type=int, default=2, help="processes (default 2)")
    parser.add_argument("--trials", type=int, default=3, help="trials (default 3)")
    args = parser.parse_args(argv)
    tasks = list(range(4 * args.jobs))
    with Pool(args.jobs) as pool:
        for _ in range(args.trials):
            start = time.perf_counter()
            for t in tasks:
                work(t)
            serial = time.perf_counter() - start
            start = time.perf_counter()
            pool.map(work, tasks)
            parallel = time.perf_counter() - start
            print(
                f"1 process {serial:.2f} s, {args.jobs} processes {parallel:.2f} s: "
                f"{serial / parallel:.2f} times faster"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
