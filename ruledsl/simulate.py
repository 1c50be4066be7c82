"""Play many seeded games with bots and sum them up: win rates, game lengths."""

from __future__ import annotations

import math
import multiprocessing
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from attrs import define

from ruledsl.agents import make_agent
from ruledsl.game import Game, load_game


@define
class GameRecord:
    """The outcome of one simulated game."""

    seed: int
    returns: list[float]
    actions: int
    truncated: bool

    @property
    def winners(self) -> list[int]:
        """The players with the best result; none when every player has the same."""
        best = max(self.returns)
        if self.truncated or min(self.returns) == best:
            return []
        return [q for q, r in enumerate(self.returns) if r == best]


def agent_seed(game_seed: int, seat: int) -> int:
    """Each seat's agent gets its own seed, fixed by the game's seed."""
    return (game_seed * 1_000_003 + seat * 7_919 + 17) & 0xFFFFFFFF


def play_game(game: Game, seed: int, seats: Sequence[str]) -> GameRecord:
    """Play one game with the given agents (one spec per seat)."""
    agents = [make_agent(spec, agent_seed(seed, seat)) for seat, spec in enumerate(seats)]
    state = game.new_initial_state(seed=seed)
    while not state.is_terminal():
        seat = state.current_player()
        state.apply_action(agents[seat].choose(state, seat))
    return GameRecord(seed, state.returns(), len(state.hist), state.truncated)


def _play_chunk(game_ref: tuple[str, int, dict[str, Any]], seats: Sequence[str], seeds: Sequence[int]) -> list[GameRecord]:
    path, players, options = game_ref
    game = load_game(path, players=players, options=options)
    return [play_game(game, seed, seats) for seed in seeds]


def run_games(
    game: Game,
    seeds: Sequence[int],
    seats: Sequence[str],
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
) -> list[GameRecord]:
    """Play a game once per seed, in ``jobs`` processes; report each finished game to ``progress``."""
    if jobs <= 1 or len(seeds) < 2 * jobs:
        records = []
        for seed in seeds:
            records.append(play_game(game, seed, seats))
            if progress is not None:
                progress(1)
        return records
    if game.file is None:
        raise ValueError("a game loaded from text cannot be simulated in other processes; use jobs=1")
    game_ref = (str(game.file), game.players, game.options)
    size = max(1, min(50, len(seeds) // (jobs * 8)))
    chunks = [list(seeds[i : i + size]) for i in range(0, len(seeds), size)]
    context = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")
    by_seed: dict[int, GameRecord] = {}
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        futures = [pool.submit(_play_chunk, game_ref, list(seats), chunk) for chunk in chunks]
        for future in futures:
            for record in future.result():
                by_seed[record.seed] = record
                if progress is not None:
                    progress(1)
    return [by_seed[s] for s in seeds]


def summarize(records: Sequence[GameRecord], players: int, seats: Sequence[str]) -> dict[str, Any]:
    """Return the statistics of a batch of games as a JSON-serialisable dict."""
    games = len(records)
    wins = [0] * players
    shared = 0
    draws = 0
    for r in records:
        winners = r.winners
        if not winners:
            draws += 1
        if len(winners) > 1:
            shared += 1
        for q in winners:
            wins[q] += 1
    lengths = [r.actions for r in records]
    mean = sum(lengths) / games if games else 0.0
    spread = math.sqrt(sum((x - mean) ** 2 for x in lengths) / (games - 1)) if games > 1 else 0.0
    return {
        "games": games,
        "players": players,
        "seats": [
            {"seat": q, "agent": seats[q], "wins": wins[q], "win_rate": wins[q] / games if games else 0.0, "mean_return": _mean(r.returns[q] for r in records)}
            for q in range(players)
        ],
        "draws": draws,
        "shared_wins": shared,
        "truncated": sum(r.truncated for r in records),
        "length": {
            "mean": mean,
            "stdev": spread,
            "min": min(lengths) if lengths else 0,
            "max": max(lengths) if lengths else 0,
            "median": _median(lengths),
        },
    }


def _mean(values: Any) -> float:
    values = list(values)
    return sum(values) / len(values) if values else 0.0


def _median(values: list[int]) -> float:
    if not values:
        return 0.0
    s = sorted(values)
    mid = len(s) // 2
    return float(s[mid]) if len(s) % 2 else (s[mid - 1] + s[mid]) / 2
