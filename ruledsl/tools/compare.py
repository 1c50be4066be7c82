"""Paired comparison of a game under two or more values of one option (``ruledsl compare``).

A designer who changes a rule asks whether the game changed: does the first player win
more often, are games longer. Each value is played on the same seeds with the same seats,
so game i of one value and game i of another share their deal as far as the option lets
them; the tests are paired by seed (McNemar's exact test for outcomes, a paired
difference of means for lengths), which a difference of two independent runs would not
be. Every metric is defined in docs/metrics.md ("Comparing option values").
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from ruledsl.tools.simulate import Z95, GameRecord, binomial_p_value, p_text, signed, wilson

# ============================================================================ paired tests


def paired_outcome(before: Sequence[bool], after: Sequence[bool]) -> dict[str, Any]:
    """Compare a yes/no outcome game by game: rates, their difference (after - before), McNemar's test.

    Only the games whose outcome changed tell the two apart: ``gained`` (no, then yes) and
    ``lost`` (yes, then no). The p-value is the exact two-sided binomial test of ``gained``
    among them against one half; the interval is the Wald interval of a paired difference.
    """
    n = len(before)
    assert n == len(after), "paired outcomes need one pair per game"
    gained = sum(1 for x, y in zip(before, after) if y and not x)
    lost = sum(1 for x, y in zip(before, after) if x and not y)
    rates = []
    for outcome in (before, after):
        k = sum(outcome)
        rates.append({"count": k, "rate": k / n if n else None, "ci95": list(wilson(k, n))})
    diff = (gained - lost) / n if n else None
    if n and diff is not None:
        half = Z95 * math.sqrt(max(0.0, gained + lost - (gained - lost) ** 2 / n)) / n
        interval: list[float] | None = [diff - half, diff + half]
    else:
        interval = None
    return {
        "before": rates[0],
        "after": rates[1],
        "difference": diff,
        "ci95": interval,
        "gained": gained,
        "lost": lost,
        "p_value": binomial_p_value(gained, gained + lost, 0.5) if gained + lost else 1.0,
        "test": "McNemar (exact)",
    }


def paired_mean(before: Sequence[float], after: Sequence[float]) -> dict[str, Any]:
    """Compare a number game by game: means, the mean difference (after - before), its interval and p-value.

    The interval and the two-sided p-value take the mean difference as normal (fair from
    30 games or so; docs/metrics.md says so).
    """
    n = len(before)
    assert n == len(after), "paired values need one pair per game"
    diffs = [y - x for x, y in zip(before, after)]
    mean = sum(diffs) / n if n else None
    result: dict[str, Any] = {
        "before": sum(before) / n if n else None,
        "after": sum(after) / n if n else None,
        "difference": mean,
        "ci95": None,
        "p_value": None,
        "test": "paired difference of means (normal)",
    }
    if mean is None or n < 2:
        return result
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1))
    se = sd / math.sqrt(n)
    result["ci95"] = [mean - Z95 * se, mean + Z95 * se]
    result["p_value"] = math.erfc(abs(mean) / se / math.sqrt(2)) if se > 0 else (1.0 if mean == 0 else 0.0)
    return result


# ============================================================================ the comparison


def outcome_rows(records: Sequence[GameRecord], players: int, rotate: bool) -> dict[str, Callable[[GameRecord], bool]]:
    """The yes/no outcomes compared, by the label they are reported under.

    Without ``rotate`` each seat's agent stays put, so each seat's wins are compared;
    with it, each agent's, wherever it sat.
    """
    rows: dict[str, Callable[[GameRecord], bool]] = {}
    if players > 1:  # alone at the table, the first player is the only one: nothing to compare
        rows["first player won alone"] = lambda r: (
            len(r.winners) == 1 and bool(r.actors) and r.winners[0] == r.actors[0]
        )
    if rotate:
        for spec in sorted({a for r in records for a in r.agents}):
            rows[f"{spec} won"] = _agent_won(spec)
    else:
        agents = records[0].agents if records else ["?"] * players
        for q in range(players):
            rows[f"P{q} ({agents[q]}) won"] = _seat_won(q)
    if players == 1:
        rows["lost"] = lambda r: not r.truncated and bool(r.returns) and r.returns[0] < 0
        rows["neither won nor lost (or bound)"] = lambda r: not r.winners and not (r.returns and r.returns[0] < 0)
    else:
        rows["no winner (draw or bound)"] = lambda r: not r.winners
    return rows


def _agent_won(spec: str) -> Callable[[GameRecord], bool]:
    return lambda r: any(r.agents[q] == spec for q in r.winners)


def _seat_won(q: int) -> Callable[[GameRecord], bool]:
    return lambda r: q in r.winners


def _seat_return(q: int) -> Callable[[GameRecord], float]:
    return lambda r: r.returns[q]


def compare(
    option: str,
    values: Sequence[str],
    runs: Sequence[Sequence[GameRecord]],
    players: int,
    rotate: bool,
    scores: bool = False,
) -> dict[str, Any]:
    """Compare runs on the same seeds, one per option value; the first value is the baseline.

    Returns a JSON-serialisable dict: for each value after the first, each outcome and
    each length compared with the baseline, game by game; with ``scores`` (the returns
    are the game's payoffs, 'payoff:'), each seat's payoff too, as the lengths are.
    """
    base = runs[0]
    for run in runs[1:]:
        assert [r.seed for r in run] == [r.seed for r in base], "compared runs must share their seeds"
    rows = outcome_rows(base, players, rotate)
    numbers: dict[str, Callable[[GameRecord], float]] = {
        "actions": lambda r: r.actions,
    }
    if players > 1:  # alone at the table, a game is one long turn (as simulate says)
        numbers["turns"] = lambda r: r.turns
    if players == 1 and all(r.score is not None for run in runs for r in run):
        numbers["score"] = lambda r: r.score or 0  # alone at the table, what the player scored
    if scores:
        for q in range(players):
            numbers[f"P{q} payoff"] = _seat_return(q)
    comparisons = []
    for value, run in zip(values[1:], runs[1:]):
        outcomes = {label: paired_outcome([f(r) for r in base], [f(r) for r in run]) for label, f in rows.items()}
        lengths = {label: paired_mean([f(r) for r in base], [f(r) for r in run]) for label, f in numbers.items()}
        comparisons.append({"value": value, "outcomes": outcomes, "lengths": lengths})
    return {
        "option": option,
        "baseline": values[0],
        "values": list(values),
        "games": len(base),
        "players": players,
        "rotate": rotate,
        "comparisons": comparisons,
    }


# ============================================================================ the report


def _signed(x: float | None, digits: int) -> str:
    return "n/a" if x is None else signed(x, digits)


def _span(ci: Sequence[float] | None, digits: int) -> str:
    return "n/a" if ci is None else f"{_signed(ci[0], digits)} to {_signed(ci[1], digits)}"


def _p(p: float | None) -> str:
    return "n/a" if p is None else p_text(p)


def report_lines(result: dict[str, Any], header: Sequence[str]) -> list[str]:
    """Render a comparison for people: one block for each value against the baseline."""
    option, base = result["option"], result["baseline"]
    lines = list(header)
    for block in result["comparisons"]:
        value = block["value"]
        lines.append("")
        lines.append(f"{option}={value} against {option}={base}, game by game:")
        width = max(len(label) for label in [*block["outcomes"], *("mean " + name for name in block["lengths"])]) + 2
        head = f"{base:>9}{value:>9}"
        lines.append(f"  {'':<{width}}{head}  {'difference (95% interval)':<34}p")
        for label, row in block["outcomes"].items():
            rates = f"{row['before']['rate']:>9.3f}{row['after']['rate']:>9.3f}"
            diff = f"{_signed(row['difference'], 3)} ({_span(row['ci95'], 3)})"
            lines.append(f"  {label:<{width}}{rates}  {diff:<34}{_p(row['p_value'])}")
        for name, row in block["lengths"].items():
            means = f"{row['before']:>9.1f}{row['after']:>9.1f}"
            diff = f"{_signed(row['difference'], 1)} ({_span(row['ci95'], 1)})"
            lines.append(f"  {'mean ' + name:<{width}}{means}  {diff:<34}{_p(row['p_value'])}")
    lines.append("")
    lines.append(
        "p: McNemar's exact test for outcomes, a paired normal test for lengths; "
        "a small p says the option changed it (see docs/metrics.md)"
    )
    return lines
