"""Load on `ruledsl serve`: many tables at once, one scripted human each, bots in the other seats (loopback only).

    python benchmarks/serve_load.py                           # 50 tables of Quäsenbö, 20 s
    python benchmarks/serve_load.py --tables 10 --seconds 5 --game crazy_eights --json
    python benchmarks/serve_load.py --tables 10 --think 0.05 --data /tmp/store   # every move kept (--data)

The server runs as `ruledsl serve` in its own process (the command a user runs) on a free
loopback port; this process reads the links it prints and plays each table's human seat over
a WebSocket: on his turn, a random legal action, sent at once; a finished game is followed
by a rematch. Latency is measured from a move sent to the new view received (the bots'
answers included, as a player waits for them). With --think 0 every human moves the moment
he may, so the server is saturated and the latency is mostly the queue of the other tables'
moves; --think gives each a pause first, as people take. Bounded: the run stops after
--seconds, and each table after --max-moves of its human's moves.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ruledsl.serve.background import ServeProcess  # noqa: E402


async def play_table(
    link: str, deadline: float, max_moves: int, think: float, seed: int, out: dict[str, list[float]]
) -> None:
    """Play seat 0 of one table until the deadline; record each move's latency and the actions it took."""
    import websockets

    rng = random.Random(seed)
    url = link.replace("http://", "ws://") + "/ws"
    moves = 0
    async with websockets.connect(url, max_size=1 << 22) as ws:
        view = json.loads(await ws.recv())
        while time.perf_counter() < deadline and moves < max_moves:
            if view["type"] != "view":
                raise SystemExit(f"refused: {view}")
            if view["over"]:
                await ws.send(json.dumps({"type": "rematch"}))
                view = json.loads(await ws.recv())
                continue
            if view["current"] != 0:  # not his turn yet: the bots' answer comes in the next view
                view = json.loads(await ws.recv())
                continue
            if think:
                await asyncio.sleep(rng.uniform(0, 2 * think))
            sent = time.perf_counter()
            await ws.send(
                json.dumps({"type": "move", "version": view["version"], "index": rng.randrange(len(view["actions"]))})
            )
            new = json.loads(await ws.recv())
            out["latency"].append(time.perf_counter() - sent)
            out["actions"].append(new["version"] - view["version"])  # his move and the bots' answers
            view = new
            moves += 1


async def load(links: list[str], seconds: float, max_moves: int, think: float) -> tuple[dict[str, list[float]], float]:
    out: dict[str, list[float]] = {"latency": [], "actions": []}
    start = time.perf_counter()
    deadline = start + seconds
    await asyncio.gather(*(play_table(link, deadline, max_moves, think, i, out) for i, link in enumerate(links)))
    return out, time.perf_counter() - start


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--game", default="quasenbo")
    p.add_argument("--seats", default="human,random")
    p.add_argument("--tables", type=int, default=50)
    p.add_argument("--seconds", type=float, default=20.0)
    p.add_argument("--max-moves", type=int, default=10_000)
    p.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="the human's mean pause before each move, in seconds (default 0: at once, the server saturated)",
    )
    p.add_argument(
        "--data", metavar="DIR", help="serve with --data DIR (every move kept in SQLite): the journal's cost"
    )
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    # All the players come from this machine's one address: the bound per address is raised to match.
    argv = ["--seats", args.seats, "--tables", str(args.tables), "--max-per-address", str(max(32, 2 * args.tables))]
    if args.data:
        argv += ["--data", args.data]
    with ServeProcess(args.game, *argv) as server:
        links = [table["P0"] for table in server.tables]
        out, elapsed = asyncio.run(load(links, args.seconds, args.max_moves, args.think))
    latency = sorted(out["latency"])
    cuts = statistics.quantiles(latency, n=100) if len(latency) > 1 else latency * 99
    report = {
        "game": args.game,
        "seats": args.seats,
        "tables": len(links),
        "think_s": args.think,
        "data": bool(args.data),
        "seconds": round(elapsed, 2),
        "human_moves": len(latency),
        "actions": int(sum(out["actions"])),
        "actions_per_s": round(sum(out["actions"]) / elapsed, 1),
        "p50_ms": round(1000 * cuts[49], 2),
        "p95_ms": round(1000 * cuts[94], 2),
        "max_ms": round(1000 * latency[-1], 2),
        "cpus": os.cpu_count(),
        "python": platform.python_version(),
    }
    if args.json:
        print(json.dumps(report))
        return
    print(
        f"{report['tables']} tables of {args.game} ({args.seats}), think {args.think} s, {report['seconds']} s: "
        f"{report['human_moves']} human moves, {report['actions']} actions ({report['actions_per_s']}/s); "
        f"move -> new view p50 {report['p50_ms']} ms, p95 {report['p95_ms']} ms, max {report['max_ms']} ms"
    )


if __name__ == "__main__":
    main()
