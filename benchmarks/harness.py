"""What every benchmark here shares: a uniform random playout and a timed loop of them.

A playout is ``playout(players, seed, rng) -> moves``; every applied action counts as a move.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any, Protocol


class PlayableState(Protocol):
    def is_terminal(self) -> bool: ...
    def legal_actions(self) -> list[Any]: ...
    def apply_action(self, action: Any) -> Any: ...


Playout = Callable[[int, int, random.Random], int]


def random_playout(state: PlayableState, rng: random.Random, max_actions: int | None = None) -> int:
    """Play uniformly random legal actions until the game ends (or ``max_actions``); return how many."""
    moves = 0
    while not state.is_terminal() and (max_actions is None or moves < max_actions):
        state.apply_action(rng.choice(state.legal_actions()))
        moves += 1
    return moves


def run(playout: Playout, players: int, seconds: float, seed: int = 0) -> tuple[int, int, float]:
    """Play games for about ``seconds``; return (games, moves, elapsed seconds)."""
    rng = random.Random(seed)
    games = moves = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        moves += playout(players, seed + games, rng)
        games += 1
    return games, moves, time.perf_counter() - start


def report(name: str, playout: Playout, players: int, seconds: float = 3.0) -> str:
    """One line for a reference run on its own: games/s and moves/s."""
    games, moves, elapsed = run(playout, players, seconds)
    return f"{name}, {players} players: {games / elapsed:,.0f} games/s, {moves / elapsed:,.0f} moves/s"
