"""A sweep (``ruledsl sweep``): the same seeded games under every combination of options and player counts.

One row per combination sums up its games as ``simulate`` does (docs/metrics.md): the win
rate of each seat, the first player's advantage and the length, each with its 95%
interval, so that a designer can read off which hand size makes three players fair. Every
combination is played on the same seeds.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from typing import Any

from ruledsl.tools.simulate import Z95, GameRecord, summarize


def combinations(
    players: Sequence[int | None], varied: Mapping[str, Sequence[str]]
) -> list[tuple[int | None, dict[str, str]]]:
    """Every (player count, option values) to play: player counts outermost, then the options as given.

    A player count of None stands for the least the game allows.
    """
    names = list(varied)
    return [
        (p, dict(zip(names, values, strict=True)))
        for p in players
        for values in itertools.product(*(varied[name] for name in names))
    ]


def mean_interval(values: Sequence[float]) -> tuple[float | None, list[float] | None]:
    """The mean and its 95% normal interval (none for fewer than two values)."""
    n = len(values)
    if not n:
        return None, None
    mean = sum(values) / n
    if n < 2:
        return mean, None
    se = math.sqrt(sum((x - mean) ** 2 for x in values) / (n - 1)) / math.sqrt(n)
    return mean, [mean - Z95 * se, mean + Z95 * se]


def sweep_row(
    players: int, options: Mapping[str, str], records: Sequence[GameRecord], scores: bool = False
) -> dict[str, Any]:
    """Sum up one combination's games: the row of the sweep's table (JSON-serialisable).

    ``scores``: the returns are the game's payoffs ('payoff:'); the row then has each seat's mean payoff.
    """
    stats = summarize(records, players, scores=scores)
    first = stats["first_player"]
    actions, actions_ci = mean_interval([r.actions for r in records])
    advantage = None if first["win_rate"] is None else first["win_rate"] - first["expected"]
    return {
        "players": players,
        "options": dict(options),
        "games": stats["games"],
        "seats": [{"seat": s["seat"], "win_rate": s["win_rate"], "ci95": s["ci95"]} for s in stats["seats"]],
        "first_player": {
            "games": first["games"],
            "win_rate": first["win_rate"],
            "ci95": first["ci95"],
            "expected": first["expected"],
            "advantage": advantage,
            "advantage_ci95": None if advantage is None else [x - first["expected"] for x in first["ci95"]],
            "p_value": first["p_value"],
        },
        "draws": stats["draws"],
        "shared_wins": stats["shared_wins"],
        "truncated": stats["truncated"],
        "mean_actions": actions,
        "mean_actions_ci95": actions_ci,
        "mean_turns": stats["length"]["turns"]["mean"],
        "payoffs": stats["payoffs"],
    }


def table_columns(varied: Sequence[str], most_players: int) -> list[str]:
    """The header of the sweep's CSV table: one column per value of ``table_row``."""
    seats = [f"{what}_P{q}" for q in range(most_players) for what in ("win_rate", "ci95_low", "ci95_high")]
    return [
        "players",
        *varied,
        "games",
        *seats,
        "first_player_games",
        "first_player_win_rate",
        "first_player_expected",
        "first_player_advantage",
        "first_player_advantage_ci95_low",
        "first_player_advantage_ci95_high",
        "first_player_p_value",
        "draws",
        "shared_wins",
        "truncated",
        "mean_actions",
        "mean_actions_ci95_low",
        "mean_actions_ci95_high",
        "mean_turns",
    ]


def table_row(row: Mapping[str, Any], varied: Sequence[str], most_players: int) -> list[Any]:
    """One combination's values for the CSV table: '' where one does not exist (a seat with fewer players)."""
    seats: list[Any] = []
    for q in range(most_players):
        s = row["seats"][q] if q < len(row["seats"]) else None
        seats += ["", "", ""] if s is None else [s["win_rate"], *s["ci95"]]
    first = row["first_player"]
    advantage_ci = first["advantage_ci95"] or ["", ""]
    actions_ci = row["mean_actions_ci95"] or ["", ""]
    return [
        row["players"],
        *(row["options"][name] for name in varied),
        row["games"],
        *seats,
        first["games"],
        _blank(first["win_rate"]),
        first["expected"],
        _blank(first["advantage"]),
        *advantage_ci,
        _blank(first["p_value"]),
        row["draws"],
        row["shared_wins"],
        row["truncated"],
        _blank(row["mean_actions"]),
        *actions_ci,
        row["mean_turns"],
    ]


def _blank(value: Any) -> Any:
    return "" if value is None else value


def label(row: Mapping[str, Any]) -> str:
    """A combination as people name it: '3 players, hand_size=5'."""
    parts = [f"{row['players']} player{'s' if row['players'] != 1 else ''}"]
    parts += [f"{name}={value}" for name, value in row["options"].items()]
    return ", ".join(parts)


# ============================================================================ plotting


def plot(result: Mapping[str, Any], path: str) -> None:
    """Draw each combination's win rates, first-player advantage and length, with 95% intervals, to a file.

    Needs matplotlib (``pip install 'ruledsl[plot]'``); raises ImportError without it.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = result["rows"]
    labels = [label(row) for row in rows]
    x = list(range(len(rows)))
    fig, (rates, first, length) = plt.subplots(3, 1, figsize=(max(7.0, 1.1 * len(rows) + 3), 10), sharex=True)
    most = max(row["players"] for row in rows)
    width = 0.7 / most
    for q in range(most):
        xs = [i - 0.35 + width * (q + 0.5) for i, row in enumerate(rows) if q < row["players"]]
        seats = [row["seats"][q] for row in rows if q < row["players"]]
        rates.errorbar(xs, *_with_errors(seats, "win_rate", "ci95"), fmt="o", capsize=3, label=f"P{q}")
    for i, row in enumerate(rows):
        share = 1.0 / row["players"]
        rates.hlines(share, i - 0.4, i + 0.4, linestyles="--", linewidth=1, color="grey")
    rates.set_ylim(0, 1)
    rates.set_ylabel("win rate per seat")
    rates.legend(loc="upper right", fontsize="small", ncol=min(most, 6))
    partial = f", partial: {len(rows)} of {result['combinations']} finished" if result.get("partial") else ""
    rates.set_title(f"{result['game']}: {result['games']} games per combination{partial} (dashed: 1/players)")
    firsts = [row["first_player"] for row in rows]
    shown = [(i, f) for i, f in zip(x, firsts, strict=True) if f["advantage"] is not None]
    first.errorbar(
        [i for i, _ in shown], *_with_errors([f for _, f in shown], "advantage", "advantage_ci95"), fmt="s", capsize=4
    )
    first.axhline(0, linestyle="--", linewidth=1, color="grey")
    first.set_ylabel("first player's advantage\n(win rate - 1/players)")
    measured = [(i, row) for i, row in zip(x, rows, strict=True) if row["mean_actions_ci95"] is not None]
    length.errorbar(
        [i for i, _ in measured],
        *_with_errors([row for _, row in measured], "mean_actions", "mean_actions_ci95"),
        fmt="D",
        capsize=4,
    )
    length.set_ylabel("mean actions per game")
    length.set_xticks(x, labels, rotation=30, ha="right")
    for axes in (rates, first, length):
        axes.grid(axis="y", alpha=0.3)
    fig.text(0.01, 0.005, "bars: 95% intervals", fontsize="small", color="grey")
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def _with_errors(items: Sequence[Mapping[str, Any]], value: str, interval: str) -> tuple[list[float], list[Any]]:
    """The values and their asymmetric error bars, as ``errorbar(x, y, yerr=...)`` takes them."""
    ys = [item[value] for item in items]
    lows = [y - item[interval][0] for y, item in zip(ys, items, strict=True)]
    highs = [item[interval][1] - y for y, item in zip(ys, items, strict=True)]
    return ys, [lows, highs]
