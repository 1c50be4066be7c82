"""A playing table of `ruledsl serve` while others abuse the server: slow clients, a page that never reads, a flood of
new tables. Measures the player's move -> new view latency and the server's memory (loopback only).

    nice python benchmarks/serve_abuse.py                       # 60 s: 500 slow clients, 1,000 POST /new
    nice python benchmarks/serve_abuse.py --seconds 20 --slow 200 --new 300 --json

The server is `ruledsl serve quasenbo --seats human,random` in its own process, with its
default limits (`ServeProcess`). While its P0 plays (a random legal action after --think
seconds, a rematch after each game), for --seconds:

- --slow clients, from 50 loopback addresses (127.0.0.2-51), each sending an HTTP request's
  head a byte a second (a "slowloris"), again as soon as the server cuts it off; and
  --readers spectators that read one frame every 5 s through a small receive buffer;
- one spectator that sends view requests as fast as its socket takes them and reads nothing;
- --new `POST /new` spread evenly over the run, from 100 loopback addresses (127.0.1.0-99).

It prints the player's p50/p95/max move -> view, the server's resident memory (peak, end),
and what each kind of abuser got (cut off, status counts).
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import json
import os
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from urllib.parse import urlsplit

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ruledsl.serve.background import ServeProcess  # noqa: E402


def memory_kb(pid: int, field: str = "VmRSS") -> int:
    """A field of the process's /proc status, in kB (0 where there is no /proc)."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(field + ":"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


async def player(link: str, deadline: float, think: float, out: dict[str, list[float]], counts: Counter[str]) -> None:
    """P0 plays until the deadline; each move's latency to the next view is recorded (a move not answered by the
    deadline is counted, and ends the play: the table is frozen)."""
    import websockets

    rng = random.Random(1)
    async with websockets.connect(link.replace("http://", "ws://") + "/ws", max_size=1 << 22) as ws:

        async def next_view() -> dict[str, object]:
            return dict(json.loads(await asyncio.wait_for(ws.recv(), max(0.1, deadline - time.perf_counter()))))

        try:
            view = await next_view()
            while time.perf_counter() < deadline:
                if view["type"] != "view" or (not view["over"] and view["current"] != 0):
                    view = await next_view()
                    continue
                await asyncio.sleep(think)
                sent = time.perf_counter()
                if view["over"]:
                    await ws.send(json.dumps({"type": "rematch"}))
                else:
                    index = rng.randrange(len(view["actions"]))  # type: ignore[arg-type]
                    await ws.send(json.dumps({"type": "move", "version": view["version"], "index": index}))
                view = await next_view()
                out["latency"].append(time.perf_counter() - sent)
        except TimeoutError:
            counts["moves not answered by the end"] += 1


async def slow_client(port: int, source: str, deadline: float, counts: Counter[str]) -> None:
    """Send a request head a byte a second, again whenever the server cuts it off."""
    head = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: slow" + b"x" * 200
    while time.perf_counter() < deadline:
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
        except OSError:
            counts["connect refused"] += 1
            await asyncio.sleep(1)
            continue
        try:
            for byte in head:
                if time.perf_counter() > deadline:
                    break
                writer.write(bytes([byte]))
                await writer.drain()
                try:
                    if await asyncio.wait_for(reader.read(1024), 1.0) == b"":
                        counts["cut off"] += 1
                        break
                except TimeoutError:
                    pass
        except OSError:
            counts["cut off"] += 1
        finally:
            writer.close()


async def handshake(link: str, source: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter, int]:
    """Open ``link``'s WebSocket by hand from ``source``: the streams and the answer's status."""
    url = urlsplit(link)
    reader, writer = await asyncio.open_connection(url.hostname, url.port, local_addr=(source, 0), limit=4096)
    key = base64.b64encode(os.urandom(16)).decode()
    writer.write(
        f"GET {url.path}/ws HTTP/1.1\r\nHost: {url.netloc}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    head = await reader.readuntil(b"\r\n\r\n")
    return reader, writer, int(head.split()[1])


def text_frame(text: str) -> bytes:
    data = text.encode()
    mask = os.urandom(4)
    return b"\x81" + bytes([0x80 | len(data)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data))


async def slow_reader(link: str, source: str, deadline: float, counts: Counter[str]) -> None:
    """A spectator that reads 4 kB every 5 s."""
    try:
        reader, writer, status = await handshake(link, source)
    except OSError:
        counts["reader refused"] += 1
        return
    counts[f"reader {status}"] += 1
    try:
        while time.perf_counter() < deadline and not reader.at_eof():
            await reader.read(4096)
            await asyncio.sleep(5)
    except OSError:
        counts["reader cut off"] += 1
    writer.close()


async def non_reader(link: str, deadline: float, counts: Counter[str]) -> None:
    """A spectator that asks for the view as fast as its socket takes it, and reads nothing."""
    reader, writer, status = await handshake(link, "127.0.0.1")
    counts[f"flooder {status}"] += 1
    burst = text_frame('{"type": "view"}') * 100
    try:
        while time.perf_counter() < deadline:
            writer.write(burst)
            counts["flooder requests"] += 100
            await asyncio.wait_for(writer.drain(), max(0.1, deadline - time.perf_counter()))
    except (OSError, TimeoutError):
        counts["flooder stopped"] += 1
    writer.close()


async def new_tables(port: int, count: int, seconds: float, counts: Counter[str]) -> None:
    """``count`` POST /new spread over ``seconds``, from 100 addresses in turn."""
    start = time.perf_counter()

    async def one(k: int) -> None:
        await asyncio.sleep(max(0.0, start + k * seconds / count - time.perf_counter()))
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(f"127.0.1.{k % 100}", 0))
            writer.write(f"POST /new HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Length: 0\r\n\r\n".encode())
            line = await asyncio.wait_for(reader.readline(), 60)
            counts[f"new {line.split()[1].decode() if line else 'no answer'}"] += 1
            writer.close()
        except (OSError, TimeoutError, IndexError):
            counts["new failed"] += 1

    await asyncio.gather(*(one(k) for k in range(count)))


async def abuse(server: ServeProcess, args: argparse.Namespace) -> dict[str, object]:
    out: dict[str, list[float]] = {"latency": []}
    counts: Counter[str] = Counter()
    links = server.tables[0]
    deadline = time.perf_counter() + args.seconds
    memory: list[int] = []

    async def watch() -> None:
        while time.perf_counter() < deadline:
            memory.append(memory_kb(server.pid))
            await asyncio.sleep(1)

    await asyncio.gather(
        watch(),
        player(links["P0"], deadline, args.think, out, counts),
        non_reader(links["spectators"], deadline, counts),
        new_tables(server.port, args.new, args.seconds, counts),
        *(slow_client(server.port, f"127.0.0.{2 + k % 50}", deadline, counts) for k in range(args.slow)),
        *(slow_reader(links["spectators"], f"127.0.2.{k}", deadline, counts) for k in range(args.readers)),
    )
    latency = sorted(out["latency"]) or [float("nan")]
    cuts = statistics.quantiles(latency, n=100) if len(latency) > 1 else latency * 99
    return {
        "seconds": args.seconds,
        "slow_clients": args.slow,
        "slow_readers": args.readers,
        "new_sent": args.new,
        "moves": len(latency),
        "p50_ms": round(1000 * cuts[49], 1),
        "p95_ms": round(1000 * cuts[94], 1),
        "max_ms": round(1000 * latency[-1], 1),
        "rss_peak_mb": round(max(memory) / 1024, 1),
        "rss_end_mb": round(memory[-1] / 1024, 1),
        "counts": dict(sorted(counts.items())),
        "cpus": os.cpu_count(),
        "load_average": round(os.getloadavg()[0], 1),
    }


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--seconds", type=float, default=60.0)
    p.add_argument("--slow", type=int, default=500, help="slow HTTP clients (default 500)")
    p.add_argument("--readers", type=int, default=20, help="spectators that read slowly (default 20)")
    p.add_argument("--new", type=int, default=1000, help="POST /new sent over the run (default 1000)")
    p.add_argument("--think", type=float, default=0.2, help="the player's pause before each move (default 0.2 s)")
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    with ServeProcess("quasenbo", "--seats", "human,random") as server:
        idle_kb = memory_kb(server.pid)
        report = asyncio.run(abuse(server, args))
        report["rss_idle_mb"] = round(idle_kb / 1024, 1)
        report["server_alive"] = server.alive()
        report["tracebacks"] = server.stderr().count("Traceback")
    if args.json:
        print(json.dumps(report))
        return
    print(
        f"{report['seconds']} s, {args.slow} slow clients, {args.readers} slow readers, a non-reader, "
        f"{args.new} POST /new: {report['moves']} moves, move -> view p50 {report['p50_ms']} ms, "
        f"p95 {report['p95_ms']} ms, max {report['max_ms']} ms; server memory {report['rss_idle_mb']} MB idle, "
        f"{report['rss_peak_mb']} MB peak, {report['rss_end_mb']} MB at the end; load average {report['load_average']}"
    )
    print(json.dumps(report["counts"]))


if __name__ == "__main__":
    main()
