"""Play many seeded games with bots and sum them up: win rates with intervals, lengths, leads, actions.

Every metric is defined once in docs/metrics.md and computed here from ``GameRecord``s,
so that each can be tested on records built by hand.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from attrs import define

from ruledsl.agents import close_agents, decide, needs_tracking, seat_agent
from ruledsl.engine.failures import stuck_error
from ruledsl.engine.game import Game
from ruledsl.engine.ops import winners_of
from ruledsl.text.errors import RuleRuntimeError

if TYPE_CHECKING:
    from ruledsl.engine.state import GameState
    from ruledsl.tools.executors import Executor

#: z for a two-sided 95% interval.
Z95 = 1.959963984540054  # the normal quantile of a two-sided 95% interval


@define
class GameRecord:
    """What one simulated game leaves for the statistics.

    ``leaders[k]`` is the group of players ahead (the first group of ``standings()``)
    after ``k`` actions, ``leaders[0]`` being the state after setup; None when the game
    declares no ``standing:``. ``names`` are the actions' rule names, ``phase.action``.
    """

    seed: int
    agents: list[str]
    returns: list[float]
    truncated: bool
    actors: list[int]
    names: list[str]
    leaders: list[tuple[int, ...]] | None = None
    labels: list[str] | None = None  # each action as its actor saw it (kept for --log)
    fired: dict[str, int] | None = None  # how often each rule or announcement ran, those that did
    error: RuleRuntimeError | None = None  # the rule error that stopped the game, which then has no returns
    score: float | None = None  # a one-player game's score at its end ('ranking: highest score'), if it keeps one

    @property
    def actions(self) -> int:
        return len(self.actors)

    @property
    def turns(self) -> int:
        return count_turns(self.actors)

    @property
    def winners(self) -> list[int]:
        """The players with the best result; none in a draw or a game stopped at the bound."""
        return [] if self.truncated else winners_of(self.returns)


# ============================================================================ playing


def seats_for(index: int, seats: Sequence[str], rotate: bool) -> list[str]:
    """The agents of game ``index`` of a run: as given, or shifted by ``index`` seats when rotating."""
    n = len(seats)
    if not rotate:
        return list(seats)
    return [seats[(q + index) % n] for q in range(n)]


def play_game(game: Game, seed: int, seats: Sequence[str], keep_labels: bool = False) -> GameRecord:
    """Play one game with the given agents (one spec per seat); each sees only its seat's view.

    A game the rules stop (a rule fails, or the player to act has no legal action: R506)
    comes back with its ``error`` and without returns, its actions up to the error (the one
    the rules failed in included); ``run_games`` raises the error once it has handed the
    game on.
    """
    agents = [seat_agent(spec, seed, seat) for seat, spec in enumerate(seats)]
    actors: list[int] = []
    names: list[str] = []
    leaders: list[tuple[int, ...]] | None = None
    state: GameState | None = None
    try:
        state = game.new_initial_state(seed=seed, track=needs_tracking(agents), count=True)
        leaders = [_leaders(state)] if state.standings() is not None else None
        while not state.is_terminal():
            if not state.legal_actions():
                raise stuck_error(state)
            seat = state.current_player()
            action = decide(agents[seat], state, seat)
            if action.defn.step_role in ("begin", "pick"):
                state.apply_action(action)  # a step of a set chosen card by card: no action of the game yet
                continue
            actors.append(seat)  # before applying: an action the rules fail in is the game's last
            names.append(f"{action.defn.owner}.{action.name}")
            state.apply_action(action)
            if leaders is not None:
                leaders.append(_leaders(state))
    except RuleRuntimeError as exc:
        history: list[Any] = state.history() if state is not None else []  # none: the setup failed
        if exc.action is not None:
            history.append(exc.action)  # rolled back, so in no history: the game's last action
        labels = [str(a) for a in history] if keep_labels else None
        return GameRecord(seed, list(seats), [], False, actors, names, leaders, labels, error=exc)
    finally:
        close_agents(agents)
    labels = [str(a) for a in state.history()] if keep_labels else None
    fired = {name: k for name, k in zip(game.program.events, state.fired or (), strict=True) if k}
    score = state.score()
    return GameRecord(
        seed, list(seats), state.returns(), state.truncated, actors, names, leaders, labels, fired, score=score
    )


_LEADER_GROUPS: dict[tuple[int, ...], tuple[int, ...]] = {}


def _leaders(state: GameState) -> tuple[int, ...]:
    groups = state.standings()
    assert groups is not None
    key = tuple(sorted(groups[0]))
    return _LEADER_GROUPS.setdefault(key, key)  # one tuple per group: long games stay small


def run_games(
    game: Game,
    seeds: Sequence[int],
    seats: Sequence[str],
    jobs: int = 1,
    progress: Callable[[GameRecord], None] | None = None,
    rotate: bool = False,
    keep_labels: bool = False,
    executor: Executor | None = None,
) -> list[GameRecord]:
    """Play a game once per seed, in ``jobs`` processes or on ``executor``; give each finished game to ``progress``.

    With ``rotate`` game ``i`` seats the agents shifted by ``i`` (see ``seats_for``). The
    records come back, and reach ``progress``, in the order of ``seeds``, whatever plays
    them: a caller can save each game as it comes and keep them in order. The first game
    the rules stop reaches ``progress`` too, with its error; then that error is raised.
    """
    from ruledsl.tools.executors import Batch, InProcess, ProcessPool, play_batches

    batch = Batch(game, tuple((seed, tuple(seats_for(i, seats, rotate))) for i, seed in enumerate(seeds)))
    hand_on = None if progress is None else (lambda _batch, record: progress(record))
    if executor is not None:
        return play_batches([batch], executor, hand_on, keep_labels)[0]
    if jobs <= 1 or len(batch.plan) < 2 * jobs:
        return play_batches([batch], InProcess(), hand_on, keep_labels)[0]
    with ProcessPool(jobs) as pool:
        return play_batches([batch], pool, hand_on, keep_labels)[0]


# ============================================================================ metrics, one game


def count_turns(actors: Sequence[int]) -> int:
    """Return the number of turns: maximal runs of consecutive actions by the same seat."""
    turns = 0
    last = None
    for seat in actors:
        if seat != last:
            turns += 1
            last = seat
    return turns


def lead_changes(leaders: Sequence[Sequence[int]]) -> int:
    """Return how often the sole leader changed: a lone leader other than the last lone leader.

    Ties are skipped: a leader who is caught and then pulls ahead again has not lost the
    lead; one who is caught and then passed has, once. Where no player ever leads alone,
    the smallest leading group stands for one: partners, who always score alike, lead as a side.
    """
    alone = min((len(group) for group in leaders), default=1)
    changes = 0
    last: Sequence[int] | None = None
    for group in leaders:
        if len(group) != alone:
            continue
        if last is not None and group != last:
            changes += 1
        last = group
    return changes


def behind_threshold(after: str | int, actions: int) -> int:
    """Return the first action count from which 'behind' is looked for: N, or P% of the game."""
    text = str(after).strip()
    if text.endswith("%"):
        return math.ceil(actions * float(text[:-1]) / 100.0)
    return int(text)


def winner_was_behind(leaders: Sequence[Sequence[int]], winners: Sequence[int], after: str | int) -> bool:
    """Whether a winner was not among the leaders after some action count from ``after`` on.

    ``leaders[k]`` is the leading group after ``k`` actions; the states looked at are
    those after ``k`` actions for ``threshold <= k <= actions``, the final one included.
    """
    start = behind_threshold(after, len(leaders) - 1)
    return any(q not in leaders[k] for k in range(max(0, start), len(leaders)) for q in winners)


# ============================================================================ one row per game


def game_columns(players: int) -> list[str]:
    """The header of ``--csv``: one column per value of ``game_row`` (docs/metrics.md defines each)."""
    return [
        "seed",
        *(f"agent_P{q}" for q in range(players)),
        *(f"return_P{q}" for q in range(players)),
        "winners",
        "outcome",
        "first_player",
        "actions",
        "turns",
        "truncated",
        "lead_changes",
        "winner_was_behind",
        *(["score"] if players == 1 else []),
    ]


def game_row(record: GameRecord, behind_after: str | int) -> list[str | int | float]:
    """One game's values, as ``summarize`` counts them: '' where one does not exist (no standing, no winner).

    Flags read ``true``/``false`` and seats ``P0``, which R and pandas both read as such.
    """
    winners = record.winners
    if record.truncated:
        outcome = "truncated"
    elif not winners:
        outcome = "draw"
    else:
        outcome = "win" if len(winners) == 1 else "shared_win"
    leaders = record.leaders
    behind = "" if leaders is None or not winners else _flag(winner_was_behind(leaders, winners, behind_after))
    return [
        record.seed,
        *record.agents,
        *(float(r) for r in record.returns),
        " ".join(f"P{q}" for q in winners),
        outcome,
        f"P{record.actors[0]}" if record.actors else "",
        record.actions,
        record.turns,
        _flag(record.truncated),
        "" if leaders is None else lead_changes(leaders),
        behind,
        *([] if len(record.agents) != 1 else ["" if record.score is None else record.score]),
    ]


def _flag(value: bool) -> str:
    return "true" if value else "false"


# ============================================================================ statistics


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """Return the Wilson score interval of a proportion (95% by default); (0, 1) with no trials."""
    if trials <= 0:
        return (0.0, 1.0)
    p = successes / trials
    denom = 1.0 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    # At 0 or all, a bound equals the rate exactly; rounding must not put the rate outside.
    return (max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half)))


def signed(x: float, digits: int = 3) -> str:
    """'+0.250': a value that rounds to zero reads '+0.000', never '-0.000'."""
    return f"{round(x, digits) + 0.0:+.{digits}f}"


def p_text(p: float) -> str:
    """A p-value for people: three significant digits, and '< 0.0001' below that."""
    return f"{p:.3g}" if p >= 0.0001 else "< 0.0001"


def binomial_p_value(successes: int, trials: int, p: float) -> float:
    """Return the two-sided exact binomial test's p-value of ``successes`` in ``trials`` against ``p``.

    The sum of the probabilities of every outcome no more likely than the one observed
    (as R's binom.test and scipy's binomtest do).
    """
    if trials <= 0:
        return 1.0
    if p <= 0.0 or p >= 1.0:
        expected = 0 if p <= 0.0 else trials
        return 1.0 if successes == expected else 0.0
    logs = [_log_binom_pmf(k, trials, p) for k in range(trials + 1)]
    observed = logs[successes]
    tolerance = 1e-7  # relative, as R: outcomes equally likely up to rounding count
    total = sum(math.exp(x) for x in logs if x <= observed + math.log1p(tolerance))
    return min(1.0, total)


def _log_binom_pmf(k: int, n: int, p: float) -> float:
    return math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1) + k * math.log(p) + (n - k) * math.log1p(-p)


def chi_square_uniform(counts: Sequence[int]) -> tuple[float, int, float]:
    """Test counts against equal expected counts: return (chi-square, degrees of freedom, p-value)."""
    total = sum(counts)
    k = len(counts)
    if total == 0 or k < 2:
        return (0.0, max(0, k - 1), 1.0)
    expected = total / k
    stat = sum((c - expected) ** 2 / expected for c in counts)
    return (stat, k - 1, _chi_square_sf(stat, k - 1))


def _chi_square_sf(x: float, df: int) -> float:
    """P(X >= x) for X chi-square with ``df`` degrees of freedom: the regularised upper gamma Q(df/2, x/2)."""
    if x <= 0:
        return 1.0
    a = df / 2.0
    y = x / 2.0
    if y < a + 1.0:
        # Series for the lower function P(a, y).
        term = total = 1.0 / a
        ap = a
        for _ in range(1000):
            ap += 1.0
            term *= y / ap
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return max(0.0, 1.0 - total * math.exp(-y + a * math.log(y) - math.lgamma(a)))
    # Continued fraction for Q(a, y) (modified Lentz).
    tiny = 1e-300
    b = y + 1.0 - a
    c = 1.0 / tiny
    d = 1.0 / b
    h = d
    for i in range(1, 1000):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-15:
            break
    return min(1.0, math.exp(-y + a * math.log(y) - math.lgamma(a)) * h)


def distribution(values: Sequence[float]) -> dict[str, float | None]:
    """Return the mean, sample standard deviation, min, 10th percentile, median, 90th percentile, max."""
    if not values:
        return {"mean": 0.0, "stdev": 0.0, "min": 0, "p10": 0.0, "median": 0.0, "p90": 0.0, "max": 0}
    n = len(values)
    mean = sum(values) / n
    # The sample standard deviation of a single game is undefined, not 0.
    stdev = math.sqrt(sum((x - mean) ** 2 for x in values) / (n - 1)) if n > 1 else None
    s = sorted(values)
    return {
        "mean": mean,
        "stdev": stdev,
        "min": s[0],
        "p10": _quantile(s, 0.1),
        "median": _quantile(s, 0.5),
        "p90": _quantile(s, 0.9),
        "max": s[-1],
    }


def histogram(values: Sequence[int], bins: int = 20) -> dict[str, list[int]]:
    """Count whole numbers in at most ``bins`` equal bins: ``counts[i]`` holds edges[i] <= x < edges[i + 1]."""
    if not values:
        return {"edges": [0, 1], "counts": [0]}
    low, high = min(values), max(values)
    width = max(1, math.ceil((high - low + 1) / bins))
    edges = list(range(low, high + width + 1, width))
    counts = [0] * (len(edges) - 1)
    for x in values:
        counts[(x - low) // width] += 1
    return {"edges": edges, "counts": counts}


def _quantile(s: Sequence[float], q: float) -> float:
    """Linear interpolation between closest ranks (numpy's default)."""
    pos = (len(s) - 1) * q
    lo = math.floor(pos)
    hi = min(lo + 1, len(s) - 1)
    return float(s[lo] + (s[hi] - s[lo]) * (pos - lo))


def _rate(wins: int, games: int) -> dict[str, Any]:
    lo, hi = wilson(wins, games)
    return {"wins": wins, "win_rate": wins / games if games else None, "ci95": [lo, hi]}


def summarize(
    records: Sequence[GameRecord],
    players: int,
    seats: Sequence[str] | None = None,
    declared_actions: Sequence[str] = (),
    behind_after: str | int = "50%",
    declared_rules: Sequence[str] = (),
    scores: bool = False,
) -> dict[str, Any]:
    """Return the statistics of a batch of games as a JSON-serialisable dict (see docs/metrics.md).

    ``declared_actions`` (``phase.action`` names) and ``declared_rules`` (the program's
    ``events``) are listed even when they never happened;
    ``seats`` names the agent of each seat when it did not change from game to game;
    ``scores``: the returns are the game's payoffs ('payoff:'), whose mean each seat's row gives with its interval.
    """
    games = len(records)
    seat_wins = [0] * players
    agent_games: dict[str, int] = {}
    agent_wins: dict[str, int] = {}
    agent_returns: dict[str, float] = {}
    shared = draws = losses = truncated = 0
    for r in records:
        winners = r.winners
        if r.truncated:
            truncated += 1
        elif not winners and r.returns and max(r.returns) < 0:
            losses += 1  # every player lost: a one-player game lost, above all
        elif not winners:
            draws += 1
        if len(winners) > 1:
            shared += 1
        for q in range(players):
            spec = r.agents[q]
            agent_games[spec] = agent_games.get(spec, 0) + 1
            agent_returns[spec] = agent_returns.get(spec, 0.0) + r.returns[q]
            if q in winners:
                seat_wins[q] += 1
                agent_wins[spec] = agent_wins.get(spec, 0) + 1
    seat_rows = []
    for q in range(players):
        specs = {r.agents[q] for r in records}
        agent = seats[q] if seats is not None else (specs.pop() if len(specs) == 1 else "rotated")
        row = {"seat": q, "agent": agent, "games": games, **_rate(seat_wins[q], games)}
        row["mean_return"] = _mean([r.returns[q] for r in records])
        seat_rows.append(row)
    agent_rows = []
    for spec in sorted(agent_games, key=lambda s: (-agent_wins.get(s, 0) / agent_games[s], s)):
        row = {"agent": spec, "seat_games": agent_games[spec], **_rate(agent_wins.get(spec, 0), agent_games[spec])}
        row["mean_return"] = agent_returns[spec] / agent_games[spec]
        agent_rows.append(row)

    # The first player: whoever took the game's first action. Tested on the games one
    # player won alone, where an equal share is exactly 1/players: shared wins raise every
    # seat's rate above it, and games without a winner lower it.
    opened = [r for r in records if r.actors]
    alone = [r for r in opened if len(r.winners) == 1]
    first_wins = sum(1 for r in alone if r.winners[0] == r.actors[0])
    first = {
        "games": len(alone),
        **_rate(first_wins, len(alone)),
        "expected": 1.0 / players,
        "p_value": binomial_p_value(first_wins, len(alone), 1.0 / players) if alone else None,
        "seats": [sum(1 for r in opened if r.actors[0] == q) for q in range(players)],
    }
    single = [r.winners[0] for r in records if len(r.winners) == 1]
    chi2, df, p = chi_square_uniform([single.count(q) for q in range(players)])
    seat_test = {"games": len(single), "chi2": chi2 if single else None, "df": df, "p_value": p if single else None}

    with_standing = [r for r in records if r.leaders is not None]
    lead: dict[str, Any] | None = None
    if with_standing:
        changes = [lead_changes(r.leaders or []) for r in with_standing]
        decided = [r for r in with_standing if r.winners]
        behind = sum(1 for r in decided if winner_was_behind(r.leaders or [], r.winners, behind_after))
        lead = {
            "games": len(with_standing),
            "changes": distribution(changes),
            "games_with_change": sum(1 for c in changes if c > 0),
            "winner_was_behind": {
                "after": str(behind_after),
                "games": len(decided),
                "behind": behind,
                **_share(behind, len(decided)),
            },
        }

    actions = _shares(declared_actions, [Counter(r.names) for r in records])
    rules = _shares(declared_rules, [r.fired or {} for r in records])
    kept = [r.score for r in records if r.score is not None]
    return {
        "games": games,
        "players": players,
        "seats": seat_rows,
        "agents": agent_rows,
        "first_player": first,
        "seat_test": seat_test,
        "draws": draws,
        "losses": losses,
        "shared_wins": shared,
        "truncated": truncated,
        "length": {
            "actions": distribution([r.actions for r in records]),
            "turns": distribution([r.turns for r in records]),
            "histogram": histogram([r.actions for r in records]),
        },
        "lead": lead,
        "actions": actions,
        "rules": rules,
        "score": score_summary(kept) if players == 1 and kept else None,
        "payoffs": payoff_summary(records, players) if scores else None,
    }


def payoff_summary(records: Sequence[GameRecord], players: int) -> list[dict[str, Any]]:
    """Each seat's mean payoff (the game's returns, 'payoff:') over the games, with the mean's 95% interval."""
    rows = []
    for q in range(players):
        values = [r.returns[q] for r in records]
        rows.append({"seat": q, "games": len(values), "mean": _mean(values), "ci95": mean_interval(values)})
    return rows


def mean_interval(values: Sequence[float], z: float = Z95) -> list[float] | None:
    """Return the normal 95% interval of a mean, [low, high]; None from fewer than two values."""
    n = len(values)
    if n < 2:
        return None
    mean = sum(values) / n
    se = math.sqrt(sum((x - mean) ** 2 for x in values) / (n - 1) / n)
    return [mean - z * se, mean + z * se]


def score_summary(scores: Sequence[float]) -> dict[str, Any]:
    """A one-player game's scores: how many games kept one, their distribution and the mean's 95% interval."""
    return {"games": len(scores), **distribution(scores), "ci95": mean_interval(scores)}


def _shares(declared: Sequence[str], per_game: Sequence[Mapping[str, int]]) -> dict[str, dict[str, Any]]:
    """For each name, in how many games it happened, that share, and how often per game on average.

    Every declared name is listed, those that never happened included; the most frequent
    first, and among equals in the order declared.
    """
    games = len(per_game)
    seen: dict[str, int] = dict.fromkeys(declared, 0)
    times: dict[str, int] = dict.fromkeys(declared, 0)
    for counts in per_game:
        for name, k in counts.items():
            if k:
                seen[name] = seen.get(name, 0) + 1
                times[name] = times.get(name, 0) + k
    return {
        name: {
            "games": seen[name],
            "share": seen[name] / games if games else 0.0,
            "per_game": times[name] / games if games else 0.0,
        }
        for name in sorted(seen, key=lambda k: -seen[k])  # stable: ties stay in the rule file's order
    }


def _share(k: int, n: int) -> dict[str, Any]:
    lo, hi = wilson(k, n)
    return {"share": k / n if n else None, "ci95": [lo, hi]}


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def declared_actions(game: Game) -> list[str]:
    """Return every action the rules declare, as ``phase.action`` (window and auction passes too)."""
    prog = game.program
    names = []
    for phase in prog.phases:
        for d in [*phase.actions, *([phase.pass_def] if phase.pass_def is not None else [])]:
            names.append(f"{d.owner}.{d.name}")
    for window in prog.windows:
        for d in [*window.actions, window.pass_def]:
            names.append(f"{d.owner}.{d.name}")
    return names


# ============================================================================ plotting


def plot(stats: dict[str, Any], path: str) -> None:
    """Draw the win rates with their 95% intervals and the histogram of game lengths to a PNG file.

    Needs matplotlib (``pip install 'ruledsl[plot]'``); raises ImportError without it.
    """
    import matplotlib.pyplot as plt

    fig = figure(stats)
    fig.savefig(path, dpi=100)
    plt.close(fig)


def figure(stats: dict[str, Any]) -> Any:
    """The figure ``plot`` draws, for a caller that shows or saves it itself."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2))
    rows = [(f"seat P{s['seat']}" + ("" if s["agent"] == "rotated" else f": {s['agent']}"), s) for s in stats["seats"]]
    if any(s["agent"] == "rotated" for s in stats["seats"]) or len(stats["agents"]) != len(stats["seats"]):
        rows += [(f"agent {a['agent']}", a) for a in stats["agents"]]
    labels = [label for label, _ in rows]
    rates = [row["win_rate"] for _, row in rows]
    lows = [row["win_rate"] - row["ci95"][0] for _, row in rows]
    highs = [row["ci95"][1] - row["win_rate"] for _, row in rows]
    y = list(range(len(rows)))
    left.errorbar(rates, y, xerr=[lows, highs], fmt="o", capsize=4)
    # An equal share of the wins: 1/players, more with shared wins, less with draws.
    equal = sum(row["win_rate"] for row in stats["seats"]) / stats["players"]
    left.axvline(equal, linestyle="--", linewidth=1, color="grey")
    left.set_yticks(y, labels)
    left.invert_yaxis()
    left.set_xlim(0, 1)
    left.set_xlabel("win rate (95% Wilson interval); dashed: an equal share")
    left.set_title(f"{stats.get('game', '')}: {stats['games']} games")
    histogram = stats["length"]["histogram"]
    edges = histogram["edges"]
    right.bar(
        edges[:-1], histogram["counts"], width=[b - a for a, b in zip(edges, edges[1:], strict=False)], align="edge"
    )
    right.set_xlabel("actions per game")
    right.set_ylabel("games")
    right.yaxis.set_major_locator(MaxNLocator(integer=True))  # games come whole: no tick at 17.5
    right.set_title("game length")
    fig.tight_layout()
    return fig
