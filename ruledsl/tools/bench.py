"""Measure a game's speed: random playouts, the cost of each operation, load time, memory.

The method follows Ludii's playouts-per-second harness: warm up, then play uniformly
random games for a fixed time, several times, and report medians. Every applied action
counts as a move. Memory is measured in a pass of its own after the timed ones, since
tracing allocations slows everything down: the peak of what the playouts allocate
(``tracemalloc``), and the process's peak resident size. Nothing here prints: the
command line shows the numbers.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

from ruledsl.analysis.checker import check
from ruledsl.analysis.loadtime import option_values
from ruledsl.codegen.compiler import compile_game
from ruledsl.engine.failures import stuck_error
from ruledsl.engine.game import Game
from ruledsl.engine.state import GameState
from ruledsl.loading import coerce_options, load_game, read_source, resolve_path
from ruledsl.syntax.parser import parse_source


def playout_round(game: Game, seconds: float, first_seed: int, rng: random.Random) -> tuple[int, int, float]:
    """Play random games for about ``seconds``, at least one; return (games, moves, elapsed).

    Raises RuleRuntimeError when a rule fails, or when the player to act has no legal action (R506).
    """
    games = moves = 0
    start = time.perf_counter()
    deadline = start + seconds
    while games == 0 or time.perf_counter() < deadline:
        state = game.new_initial_state(seed=first_seed + games)
        while not state.is_terminal():
            state.apply_action(rng.choice(_legal(state)))
            moves += 1
        games += 1
    return games, moves, time.perf_counter() - start


def _legal(state: GameState) -> list[Any]:
    legal = state.legal_actions()
    if not legal:
        raise stuck_error(state)
    return legal


def sample_states(game: Game, count: int, seed: int) -> list[GameState]:
    """Collect live states met in random games (each with its legal actions listed).

    Fewer (none, for a game decided during its setup) when ``count`` games have given fewer.
    """
    rng = random.Random(seed)
    states: list[GameState] = []
    for game_seed in range(seed, seed + count):
        state = game.new_initial_state(seed=game_seed)
        while not state.is_terminal() and len(states) < count:
            legal = _legal(state)
            if rng.random() < 0.25:
                states.append(state.clone())
            state.apply_action(rng.choice(legal))
        if len(states) >= count:
            break
    return states


def operation_costs(game: Game, samples: int = 2000, seed: int = 7) -> dict[str, float | None]:
    """Return the median cost, in µs, of legal_actions, apply_action and clone on real states.

    None for each when random games met no state to act in.
    """
    states = sample_states(game, samples, seed)
    if not states:
        return {"legal_actions": None, "apply_action": None, "clone": None}
    rng = random.Random(seed)

    def per_call(run: Callable[[], None], n: int) -> float:
        start = time.perf_counter()
        run()
        return (time.perf_counter() - start) / n * 1e6

    results: dict[str, list[float]] = {"legal_actions": [], "apply_action": [], "clone": []}
    for _ in range(5):
        copies = [s.clone() for s in states]
        for c in copies:
            c._legal = None  # list afresh

        def list_all(copies: list[GameState] = copies) -> None:
            for c in copies:
                c.legal_actions()

        results["legal_actions"].append(per_call(list_all, len(copies)))
        actions = [rng.choice(c.legal_actions()) for c in copies]

        def apply_all(copies: list[GameState] = copies, actions: list[Any] = actions) -> None:
            for c, a in zip(copies, actions, strict=True):
                c.apply_action(a)

        results["apply_action"].append(per_call(apply_all, len(copies)))

        def clone_all() -> None:
            for s in states:
                s.clone()

        results["clone"].append(per_call(clone_all, len(states)))
    return {name: round(statistics.median(values), 2) for name, values in results.items()}


def load_time(path: Path, players: int, options: dict[str, Any], repeats: int = 5) -> float:
    """Return the median time, in ms, to read, parse, check and compile a game (no caches)."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        source = read_source(path)
        checked = check(parse_source(source), source)
        values = option_values(checked, players, coerce_options(checked, options))
        compile_game(checked, players, values)
        times.append(time.perf_counter() - start)
    return round(statistics.median(times) * 1000, 1)


def peak_rss_kib() -> int | None:
    """Return the largest resident size the process has had, in KiB (None where the OS does not say)."""
    try:
        import resource
    except ImportError:  # Windows
        return None
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return round(peak / 1024) if sys.platform == "darwin" else int(peak)  # bytes on macOS, KiB elsewhere


def bench(
    game: str,
    players: int | None = None,
    options: dict[str, Any] | None = None,
    seconds: float = 5.0,
    repeats: int = 5,
    progress: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Measure a game; return a JSON-serialisable dict of the figures.

    Raises RuleDslError for a game that cannot be loaded or whose rules fail in play.
    """
    if seconds <= 0 or repeats < 1:
        raise ValueError("bench needs seconds > 0 and repeats >= 1")
    options = dict(options or {})
    loaded = load_game(game, players=players, options=options)
    say = progress or (lambda _: None)
    say("load time")
    load_ms = load_time(resolve_path(game), loaded.players, options)
    say("warm-up")
    rng = random.Random(0)
    playout_round(loaded, min(1.0, seconds / 4), 10_000_000, rng)
    rounds = []
    for r in range(repeats):
        say(f"playouts {r + 1}/{repeats}")
        rounds.append(playout_round(loaded, seconds / repeats, r * 1_000_000, rng))
    games_s = [g / t for g, _, t in rounds]
    moves_s = [m / t for _, m, t in rounds]
    mean_moves = sum(m for _, m, _ in rounds) / max(1, sum(g for g, _, _ in rounds))
    say("operation costs")
    costs = operation_costs(loaded)
    say("memory")
    tracemalloc.start()
    try:
        playout_round(loaded, min(1.0, seconds / repeats), 20_000_000, random.Random(1))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    apply_us = costs["apply_action"]
    clone_us = costs["clone"]
    return {
        "game": loaded.name,
        "file": loaded.path,
        "players": loaded.players,
        "options": loaded.options,
        "games_per_s": round(statistics.median(games_s), 1),
        "moves_per_s": round(statistics.median(moves_s)),
        "moves_per_s_rounds": [round(x) for x in moves_s],
        "mean_moves_per_game": round(mean_moves, 1),
        "us_legal_actions": costs["legal_actions"],
        "us_apply_action": costs["apply_action"],
        "us_clone": costs["clone"],
        "clone_over_apply": round(clone_us / apply_us, 2) if apply_us and clone_us is not None else None,
        "load_ms": load_ms,
        "peak_memory_kib_during_playouts": round(peak / 1024),
        "peak_rss_kib": peak_rss_kib(),
        "seconds": seconds,
        "repeats": repeats,
    }
