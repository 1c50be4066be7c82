"""How long the language server takes to publish diagnostics after an edit of le Jeu des Cartes Magiques.

The largest shipped game, so the slowest to check after an edit.

    python benchmarks/lsp_latency.py [--edits 30] [--debounce 0]

Starts a real ``python -m ruledsl lsp --debounce MS`` over stdio (pygls's client), opens
games/cartes_magiques.game, then makes ``--edits`` edits one at a time (a variable's first
value changed, a whole-document change each, as an editor sends after a pause) and times
each from sending didChange to receiving publishDiagnostics for that version. With the
default ``--debounce 0`` the figure is the server's own work (reading the change, parsing,
checking, indexing, answering); the debounce (100 ms by default in ``ruledsl lsp``) comes on
top, and is reported apart: a second run with it shows it. Also prints the median time of
the analysis alone, in this process (``Document``), for comparison: wall-clock
and CPU time (the steadier figure on a loaded machine). Needs ``ruledsl[lsp]``.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from lsprotocol import types as t  # noqa: E402
from pygls.lsp.client import LanguageClient  # noqa: E402

from ruledsl.lsp.document import Document  # noqa: E402

GAME = ROOT / "games" / "cartes_magiques.game"
URI = GAME.as_uri()


async def latencies(edits: int, debounce_ms: int) -> list[float]:
    """Seconds from each didChange to its publishDiagnostics, over a real stdio server."""
    client = LanguageClient("lsp-latency", "1")
    arrived: asyncio.Queue[tuple[float, t.PublishDiagnosticsParams]] = asyncio.Queue()

    @client.feature(t.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def published(params: t.PublishDiagnosticsParams) -> None:
        arrived.put_nowait((time.perf_counter(), params))

    async def wait_for(version: int) -> float:
        while True:
            when, params = await asyncio.wait_for(arrived.get(), 60)
            if params.version == version:
                assert not params.diagnostics, params.diagnostics
                return when

    text = GAME.read_text(encoding="utf-8")
    await client.start_io(sys.executable, "-m", "ruledsl", "lsp", "--debounce", str(debounce_ms), cwd=str(ROOT))
    await client.initialize_async(t.InitializeParams(capabilities=t.ClientCapabilities(), process_id=None))
    client.initialized(t.InitializedParams())
    client.text_document_did_open(t.DidOpenTextDocumentParams(t.TextDocumentItem(URI, "ruledsl", 1, text)))
    await wait_for(1)
    times = []
    for k in range(edits):
        version = k + 2
        edited = text.replace("var dealt = 0", f"var dealt = {k + 1}")
        start = time.perf_counter()
        client.text_document_did_change(
            t.DidChangeTextDocumentParams(
                t.VersionedTextDocumentIdentifier(uri=URI, version=version),
                [t.TextDocumentContentChangeWholeDocument(text=edited)],
            )
        )
        times.append(await wait_for(version) - start)
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return times


def analysis_time(repeats: int) -> tuple[float, float]:
    """The median seconds of the analysis alone (parse, check, index), in this process: wall clock and CPU.

    On a loaded machine the CPU time is the steadier figure: what the work costs when
    the process has a core to itself.
    """
    text = GAME.read_text(encoding="utf-8")
    Document(str(GAME), text)  # the grammar's first load is not an edit's cost
    wall, cpu = [], []
    for k in range(repeats):
        edited = text.replace("var dealt = 0", f"var dealt = {k + 1}")
        start, start_cpu = time.perf_counter(), time.process_time()
        Document(str(GAME), edited)
        wall.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return statistics.median(wall), statistics.median(cpu)


def p95(times: list[float]) -> float:
    return sorted(times)[max(0, round(0.95 * len(times)) - 1)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edits", type=int, default=30)
    parser.add_argument("--debounce", type=int, default=0, metavar="MS", help="the server's debounce (default 0)")
    args = parser.parse_args()
    times = asyncio.run(latencies(args.edits, args.debounce))
    ms = [x * 1000 for x in times]
    print(f"{GAME.relative_to(ROOT)}: {args.edits} edits, server debounce {args.debounce} ms")
    print(f"  didChange -> publishDiagnostics: median {statistics.median(ms):.0f} ms, p95 {p95(ms):.0f} ms")
    wall, cpu = analysis_time(args.edits)
    print(f"  analysis alone (parse, check, index), in process: median {wall * 1000:.0f} ms, CPU {cpu * 1000:.0f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
