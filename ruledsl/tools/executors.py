"""Where a batch of seeded games is played: in this process, a local pool of processes, or a Dask cluster.

A batch is cut into chunks of consecutive games; every executor runs the same chunk
function (``play_chunk``) and hands the chunks back in order, so the records, and every
statistic taken from them, are the same whichever played them (docs/cluster.md). A chunk
carries the rules as text with their SHA-256 (``GameSpec``): a worker needs no file on
disk, and compiles each game once. Dask (the ``cluster`` extra) is imported only when a
cluster is asked for.
"""

from __future__ import annotations

import hashlib
import ipaddress
import itertools
import multiprocessing
import re
import time
import uuid
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from contextlib import closing
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import frozen

from ruledsl.loading import check_source, load_checked
from ruledsl.text.errors import Diagnostic, OptionError
from ruledsl.text.source import Source
from ruledsl.tools import simulate  # play_game through its module: tests replace it there
from ruledsl.tools.simulate import GameRecord

if TYPE_CHECKING:
    from ruledsl.engine.game import Game

#: The most games in one chunk: small enough to spread a batch, large enough that a chunk's cost is in its games.
MAX_CHUNK = 50
#: The same on Dask, where a task costs the client and scheduler's process more (about 8 ms of CPU on a loaded
#: machine, measured: 0.26-0.34 ms a game in chunks of 50, 0.15-0.20 in chunks of 190).
MAX_DASK_CHUNK = 200
#: How long to wait for a Dask scheduler to answer before saying it cannot be reached.
CONNECT_TIMEOUT = "10s"
#: Dask settings for the clusters ``local:N`` starts (and the client): no statistical profiler in the workers
#: (it sampled the deep stacks of a game every 10 ms: about a third more CPU per game, measured), and the event
#: loops' health checked every second rather than every 20 ms (half the idle CPU of the scheduler's process).
#: docs/cluster.md gives the same to ``dask worker`` and ``dask scheduler`` as environment variables.
DASK_SETTINGS = {"distributed.worker.profile.enabled": False, "distributed.admin.tick.interval": "1s"}
_Task = TypeVar("_Task")
_Result = TypeVar("_Result")
_Future = TypeVar("_Future")
_LOCAL = re.compile(r"local:(\d+)")
_REMOTE = re.compile(r"(tcp|tls)://([^\s/:]+):\d+")


class ClusterError(Exception):
    """A cluster that cannot be used: a bad address, no scheduler there, Dask missing, or the cluster failing."""


class UnsafeCluster(OptionError):
    """A --cluster address ruledsl will not speak to as asked (E701, E702): refused before any connection.

    Shown as ``--cluster:1:1: error[E70x]: ...`` with a hint; the exit code of a bad option (2).
    """

    def __init__(self, code: str, message: str, hint: str) -> None:
        super().__init__([Diagnostic(code, message, hint=hint, source=Source("--cluster", ""))])


@frozen
class ClusterSecurity:
    """How to reach a remote scheduler: TLS files (each one left out is taken from Dask's configuration), or
    ``insecure``: plain tcp:// to another machine, as the user said (``--insecure-cluster``)."""

    ca_file: str | None = None
    cert: str | None = None
    key: str | None = None
    insecure: bool = False

    def dask(self, distributed: Any) -> Any:
        """The ``distributed.security.Security`` of a tls:// scheduler: encryption required, on every link."""
        return distributed.security.Security(
            tls_ca_file=self.ca_file, tls_client_cert=self.cert, tls_client_key=self.key, require_encryption=True
        )


def _is_loopback(host: str) -> bool:
    """Whether ``host`` names this machine for sure: ``localhost`` or a loopback IP; a name is not looked up."""
    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _tls_files(security: ClusterSecurity) -> bool:
    """Whether a tls:// connection has a CA to check the scheduler against and a certificate to show it
    (each from its --tls-* option, else from Dask's configuration)."""
    try:
        from dask import config
    except ImportError:  # no configuration to look in (DaskCluster will say what to install)
        return bool(security.ca_file and security.cert)
    ca = security.ca_file or config.get("distributed.comm.tls.ca-file", None)
    cert = security.cert or config.get("distributed.comm.tls.client.cert", None)
    return bool(ca and cert)


def check_security(address: str, security: ClusterSecurity) -> None:
    """Refuse to speak to a remote scheduler in a way that lets a stranger run code here (Dask sends pickles).

    Plain tcp:// only to this machine (loopback) unless ``security.insecure``; tls:// only with a CA to check
    the scheduler against. Nothing is connected to, nor any name looked up.
    """
    remote = _REMOTE.fullmatch(address)
    if remote is None:
        return
    protocol, host = remote.groups()
    if protocol == "tcp" and not security.insecure and not _is_loopback(host):
        raise UnsafeCluster(
            "E701",
            f"plain tcp:// to {host} is neither encrypted nor authenticated: Dask exchanges pickles, so whoever "
            "answers there, or sits on the way, could run code on this machine",
            "use a scheduler started with TLS (--cluster tls://HOST:PORT --tls-ca-file CA --tls-cert CERT "
            "--tls-key KEY; docs/cluster.md), or, on a network where you trust everyone who can reach the "
            "scheduler and workers, say so with --insecure-cluster",
        )
    if protocol == "tls" and not _tls_files(security):
        raise UnsafeCluster(
            "E702",
            f"tls:// to {host} needs the certificate authority to check the scheduler against, and this "
            "machine's certificate and key to prove itself",
            "give --tls-ca-file CA --tls-cert CERT --tls-key KEY, or set distributed.comm.tls in a Dask "
            "configuration file (docs/cluster.md)",
        )


@frozen
class GameSpec:
    """A game as a worker receives it: the rules' text and SHA-256, the player count, options and bound.

    ``probes``: compiled to tell which of its lines run, as ``check --simulate`` plays it.
    """

    path: str  # the name the rule file is shown under in messages
    text: str
    sha256: str
    players: int
    options: tuple[tuple[str, Any], ...]
    max_actions: int
    probes: bool = False

    @classmethod
    def of(cls, game: Game) -> GameSpec:
        text = game.source.text
        options = tuple(sorted(game.options.items()))
        probes = game.program.probes is not None
        return cls(game.path, text, _digest(text), game.players, options, game.max_actions, probes)


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


@frozen
class Chunk:
    """Consecutive games of one batch: (seed, the agent of each seat) for each."""

    spec: GameSpec
    games: tuple[tuple[int, tuple[str, ...]], ...]
    keep_labels: bool


#: The games a worker process compiled, by the SHA-256 of their rules, players, options and bound.
_COMPILED: dict[tuple[str, int, tuple[tuple[str, Any], ...], int, bool], Game] = {}


def compiled(spec: GameSpec) -> Game:
    """Compile a game a chunk names, once per process; refuse rules whose text does not match their hash."""
    key = (spec.sha256, spec.players, spec.options, spec.max_actions, spec.probes)
    game = _COMPILED.get(key)
    if game is None:
        if _digest(spec.text) != spec.sha256:
            raise ValueError(f"the rules of '{spec.path}' do not match their SHA-256: they were changed on the way")
        checked = check_source(Source(spec.path, spec.text))
        options = dict(spec.options)
        game = _COMPILED[key] = load_checked(checked, spec.players, options, spec.max_actions, probes=spec.probes)
    return game


def play_chunk(chunk: Chunk) -> list[GameRecord]:
    """Play a chunk's games in order; stop after a game the rules stop (the run ends there)."""
    game = compiled(chunk.spec)
    records = []
    for seed, seats in chunk.games:
        records.append(simulate.play_game(game, seed, seats, chunk.keep_labels))
        if records[-1].error is not None:
            break
    return records


def chunk_size(games: int, executor: Executor) -> int:
    """Games per chunk: about eight chunks per worker, at most the executor's ``max_chunk`` games."""
    return max(1, min(executor.max_chunk, games // (max(1, executor.workers) * 8)))


# ============================================================================ executors


class Executor:
    """Run a chunk function on chunks somewhere and hand the results back in the order of the chunks.

    The function must be a module's own (a worker imports it by name), its chunks and
    results picklable. The chunks are all handed out at once, or with ``ahead``, drawn
    from their iterable one at a time so that at most ``ahead`` are out: a caller can then
    decide what the next chunk holds (or that there is none) when it is handed out.

    ``workers`` is how many chunks run at once; ``notes()`` says what happened on the way
    that the results do not show (workers lost and chunks run again).
    """

    workers = 1
    max_chunk = MAX_CHUNK

    def run(
        self, fn: Callable[[_Task], _Result], chunks: Iterable[_Task], ahead: int | None = None
    ) -> Iterator[_Result]:
        raise NotImplementedError

    def notes(self) -> list[str]:
        return []

    def close(self) -> None:
        """Release the processes or the cluster; safe to call twice."""

    def __enter__(self) -> Executor:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class InProcess(Executor):
    """Play every chunk here, one after the other (``--jobs 1``)."""

    def run(
        self, fn: Callable[[_Task], _Result], chunks: Iterable[_Task], ahead: int | None = None
    ) -> Iterator[_Result]:
        for chunk in chunks:
            yield fn(chunk)


class ProcessPool(Executor):
    """A pool of ``jobs`` processes on this machine (``--jobs N``)."""

    def __init__(self, jobs: int) -> None:
        self.workers = jobs
        self._pool: ProcessPoolExecutor | None = None

    def run(
        self, fn: Callable[[_Task], _Result], chunks: Iterable[_Task], ahead: int | None = None
    ) -> Iterator[_Result]:
        if self._pool is None:
            methods = multiprocessing.get_all_start_methods()
            context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
            self._pool = ProcessPoolExecutor(max_workers=self.workers, mp_context=context)
        pool = self._pool

        def submit(chunk: _Task) -> Future[_Result]:
            return pool.submit(fn, chunk)

        def cancel(futures: Iterable[Future[_Result]]) -> None:
            for future in futures:
                future.cancel()

        with closing(_in_order(submit, chunks, ahead, cancel)) as futures:
            for future in futures:
                yield future.result()

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None


class DaskCluster(Executor):
    """A Dask cluster: ``local:N`` starts N worker processes for the run, ``tls://host:port`` joins a scheduler
    (``tcp://`` too: to another machine only with ``security.insecure``; ``check_security``).

    Each chunk (of up to ``MAX_DASK_CHUNK`` games) is one Dask task with a key of its own,
    so a chunk Dask runs again after losing a worker still gives exactly one result; the
    scheduler's log tells which of this run's chunks were lost with a worker (``notes()``).
    """

    def __init__(self, address: str, security: ClusterSecurity | None = None) -> None:
        security = security or ClusterSecurity()
        check_security(address, security)  # before anything is imported or connected to
        try:
            import dask
            import distributed
        except ImportError:
            raise ClusterError("--cluster needs Dask: pip install 'ruledsl[cluster]'") from None
        self.address = address
        self.max_chunk = MAX_DASK_CHUNK
        self._cluster: Any = None
        self.client: Any = None
        self._keys: set[str] = set()
        self._since = time.time()
        local = _LOCAL.fullmatch(address)
        try:
            with dask.config.set(DASK_SETTINGS):  # read as the scheduler, workers and client start
                if local is not None:
                    self._cluster = _local_cluster(distributed, int(local.group(1)))
                    self.client = distributed.Client(self._cluster)
                elif address.startswith("tls://"):
                    tls = security.dask(distributed)
                    self.client = distributed.Client(address, timeout=CONNECT_TIMEOUT, security=tls)
                else:
                    self.client = distributed.Client(address, timeout=CONNECT_TIMEOUT)
        except (OSError, TimeoutError) as exc:
            self.close()
            raise ClusterError(f"cannot reach the Dask scheduler at {address}: {_reason(exc)}") from None
        self.workers = max(1, sum(self.client.nthreads().values()))

    def run(
        self, fn: Callable[[_Task], _Result], chunks: Iterable[_Task], ahead: int | None = None
    ) -> Iterator[_Result]:
        from distributed import KilledWorker

        run = uuid.uuid4().hex[:12]
        numbers = itertools.count()
        client = self.client

        def submit(chunk: _Task) -> Any:
            key = f"ruledsl-chunk-{run}-{next(numbers)}"
            self._keys.add(key)
            return client.submit(fn, chunk, key=key, retries=0)

        def cancel(futures: Iterable[Any]) -> None:
            client.cancel([f for f in futures if not f.done()])

        with closing(_in_order(submit, chunks, ahead, cancel)) as futures:
            for future in futures:
                try:
                    yield future.result()
                except KilledWorker as exc:
                    raise ClusterError(f"a chunk of games killed every worker it ran on: {exc}") from None
                except OSError as exc:
                    raise ClusterError(f"lost the Dask scheduler at {self.address}: {_reason(exc)}") from None

    def notes(self) -> list[str]:
        """Say which workers were lost during the run and how many of its chunks ran again."""
        try:
            events = self.client.get_events("all")
        except Exception:  # the scheduler is gone: nothing more to learn from it
            return []
        lost: dict[str, set[str]] = {}
        for stamp, event in events:
            if stamp < self._since or not isinstance(event, dict) or event.get("action") != "remove-worker":
                continue
            if event.get("expected"):
                continue  # retired on purpose (a scaling cluster): its chunks moved, none was lost
            keys = {str(k) for field in ("processing-tasks", "lost-computed-tasks") for k in event.get(field, ())}
            lost[str(event.get("worker"))] = keys & self._keys
        if not lost:
            return []
        again = len(set().union(*lost.values()))
        workers = f"{len(lost)} worker{'s' if len(lost) != 1 else ''} lost"
        its = "its" if len(lost) == 1 else "their"
        if not again:
            return [f"{workers}; none of {its} chunks had to run again"]
        return [f"{workers}; {its} {again} chunk{'s' if again != 1 else ''} ran again"]

    def close(self) -> None:
        if self.client is not None:
            self.client.close()
            self.client = None
        if self._cluster is not None:
            self._cluster.close()
            self._cluster = None


def _in_order(
    submit: Callable[[_Task], _Future],
    chunks: Iterable[_Task],
    ahead: int | None,
    cancel: Callable[[Iterable[_Future]], None],
) -> Generator[_Future, None, None]:
    """Submit the chunks (all at once, or keeping ``ahead`` out) and yield their futures in the order of the chunks.

    The caller takes each future's result before asking for the next: then one more chunk is
    handed out. Whatever is still out when the caller stops (Ctrl-C, an error) is cancelled.
    """
    remaining = iter(chunks)
    pending: deque[_Future] = deque()
    try:
        pending.extend(submit(c) for c in (remaining if ahead is None else itertools.islice(remaining, ahead)))
        while pending:
            yield pending[0]  # in order: a chunk that ends early waits for those before it
            pending.popleft()
            pending.extend(submit(c) for c in itertools.islice(remaining, 1))
    finally:
        cancel(pending)


def _local_cluster(distributed: Any, workers: int) -> Any:
    import logging

    return distributed.LocalCluster(
        n_workers=workers,
        threads_per_worker=1,
        processes=True,
        # No dashboard, and the scheduler's small web server on a free local port: a run does not fight
        # other clusters on this machine for port 8787, nor offers anything to the network.
        dashboard_address=None,
        scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
        silence_logs=logging.ERROR,  # a lost worker is said once, by notes(), not by Dask's warnings
    )


def _reason(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__


def parse_address(address: str, max_workers: int, security: ClusterSecurity | None = None) -> str:
    """Check a --cluster address: ``local:N`` (1 to ``max_workers``) or ``tls://HOST:PORT``, ``tcp://HOST:PORT``.

    Raise ClusterError for an address that is none of these, UnsafeCluster for one ``check_security`` refuses.
    """
    local = _LOCAL.fullmatch(address)
    if local is not None:
        n = int(local.group(1))
        if not 1 <= n <= max_workers:
            raise ClusterError(f"--cluster local:N starts 1 to {max_workers} worker processes, not {n}")
        return address
    if _REMOTE.fullmatch(address):
        check_security(address, security or ClusterSecurity())
        return address
    raise ClusterError(
        f"--cluster takes local:N (N worker processes here) or tls://HOST:PORT, tcp://HOST:PORT (a Dask scheduler), "
        f"not '{address}'"
    )


def open_executor(
    jobs: int = 1, cluster: str | None = None, max_workers: int = 64, security: ClusterSecurity | None = None
) -> Executor:
    """The executor a command's --jobs or --cluster asks for; raise ClusterError for a cluster that cannot be used."""
    if cluster is not None:
        return DaskCluster(parse_address(cluster, max_workers, security), security)
    return ProcessPool(jobs) if jobs > 1 else InProcess()


# ============================================================================ batches


@frozen
class Batch:
    """Games to play of one game: a seed and the seats' agents for each."""

    game: Game
    plan: tuple[tuple[int, tuple[str, ...]], ...]


def play_batches(
    batches: Sequence[Batch],
    executor: Executor,
    progress: Callable[[int, GameRecord], None] | None = None,
    keep_labels: bool = False,
) -> list[list[GameRecord]]:
    """Play every batch's games on ``executor``; return each batch's records in the order of its plan.

    ``progress(batch, record)`` gets each finished game in that order too. The first game
    the rules stop reaches ``progress`` with its error, which is then raised.
    """
    results: list[list[GameRecord]] = [[] for _ in batches]
    if isinstance(executor, InProcess):  # no chunks to ship: play the games already compiled here
        for b, batch in enumerate(batches):
            for seed, seats in batch.plan:
                _hand_on(b, simulate.play_game(batch.game, seed, seats, keep_labels), results, progress)
        return results
    size = chunk_size(sum(len(b.plan) for b in batches), executor)
    owners: list[int] = []
    chunks: list[Chunk] = []
    for b, batch in enumerate(batches):
        spec = GameSpec.of(batch.game)
        for i in range(0, len(batch.plan), size):
            chunks.append(Chunk(spec, batch.plan[i : i + size], keep_labels))
            owners.append(b)
    for b, records in zip(owners, executor.run(play_chunk, chunks), strict=False):
        for record in records:
            _hand_on(b, record, results, progress)
    return results


def _hand_on(
    batch: int,
    record: GameRecord,
    results: list[list[GameRecord]],
    progress: Callable[[int, GameRecord], None] | None,
) -> None:
    results[batch].append(record)
    if progress is not None:
        progress(batch, record)
    if record.error is not None:
        raise record.error
