"""Play a game at random, many times over, to find what the checker cannot see.

``validate(game, games)`` plays ``games`` random games at every allowed player count
with the default options, then with each option variant it can afford (a flag flipped,
another choice, a number option at its low and high ends), and reports:

- runtime rule errors (R5xx, with the rule's position), among them loops that exceed
  the step budget (R501, most likely endless);
- states where the player to act has no legal action although the game is not over (R506);
- games stopped at the action bound (W413);
- configurations the time budget left without a game played to its end (W416);
- legal actions whose labels read alike, so that a record of the game cannot be replayed (W415);
- deals that ask for more cards than the deck holds (E408, worked out when the game is
  loaded, without playing; ``deal_diagnostics`` does only this, for plain ``ruledsl check``);
- player counts the game cannot be loaded with at its default options (W414);
- what never happened: actions never possible (W410), rules that never ran (W411),
  option values never tried (W412).

"Never ran" is measured by line coverage of the code the compiler generates: while an
action is applied (and while a game is set up) the probes of a program compiled with them
(``ruledsl.codegen.probes``) record the generated lines that run, and ``Program.line_spans`` maps
them back to the rule file. What runs while the legal actions are listed is not recorded
(what is legal is seen directly in the lists); so only effects count as having run,
never conditions.

Nothing here prints; the command line turns a ``Report`` into diagnostics
(``Report.to_diagnostics``) or JSON (``Report.to_json``).
"""

from __future__ import annotations

import bisect
import random
import re
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from attrs import define, evolve, field, frozen

from ruledsl.agents import agent_seed
from ruledsl.analysis.checker import CheckedGame
from ruledsl.analysis.loadtime import LoadTimeError, LoadTimeValues, option_values
from ruledsl.codegen.names import RULE_FUNCTION
from ruledsl.engine.failures import STUCK_FIX, describe_table, stuck_message
from ruledsl.engine.game import Game
from ruledsl.engine.limits import DEFAULT_MAX_ACTIONS
from ruledsl.engine.program import Program
from ruledsl.engine.reading import normalise
from ruledsl.engine.state import GameState
from ruledsl.engine.values import Action, ActionDef
from ruledsl.loading import check_file, load_checked, players_range
from ruledsl.syntax import nodes as n
from ruledsl.text.errors import Diagnostic, RuleDslError, RuleRuntimeError, Severity, sort_diagnostics
from ruledsl.text.render import counted, or_list
from ruledsl.text.source import Source, Span
from ruledsl.tools.executors import Executor, GameSpec, InProcess, chunk_size, compiled
from ruledsl.tools.playouts import PROGRESS_AFTER, progressing_action

#: At most this many ways of loading the game (player count and options) are played.
MAX_CONFIGS = 40

#: The generated functions whose lines carry the span of the rule they run, as the glossary
#: of generated names marks them: an action's effects, procedures, triggers, setup, round end,
#: on enter, when won, when unsold. Other functions (listing actions, labels, the trigger
#: dispatchers) carry the span of whatever the compiler wrote before them, so they do not count.
_RULE_FUNCTIONS = RULE_FUNCTION
_DEF_LINE = re.compile(r"def (\w+)\(")

#: The type of the progress callback: called with (games played, games to play).
Progress = Callable[[int, int], None]

_Key = tuple[int, int]  # a span's start and end offsets: how rule-file places are compared


# ============================================================================ the report


@frozen
class Config:
    """One way of loading the game: a player count and the options given (others default)."""

    players: int
    options: tuple[tuple[str, Any], ...] = ()

    def describe(self) -> str:
        """Return the configuration as a person reads it: ``3 players, excuse=yes``."""
        parts = [counted(self.players, "player")]
        parts += [f"{name}={_show(value)}" for name, value in self.options]
        return ", ".join(parts)

    def to_json(self) -> dict[str, Any]:
        return {"players": self.players, "options": dict(self.options)}


@frozen
class ConfigResult:
    """What the random games of one configuration came to."""

    config: Config
    games: int  # games started
    ended: int  # games that reached an end of the rules
    truncated: int  # games stopped at the action bound
    stuck: int  # games where the player to act had no legal action
    failed: int  # games stopped by a runtime rule error (R5xx)
    actions: int  # actions applied in all these games
    seconds: float = field(eq=False)
    cut: int = 0  # games not played (or left unfinished, and not counted) once the time budget was spent

    def to_json(self) -> dict[str, Any]:
        return {
            **self.config.to_json(),
            "games": self.games,
            "ended": self.ended,
            "truncated": self.truncated,
            "stuck": self.stuck,
            "failed": self.failed,
            "actions": self.actions,
            "seconds": round(self.seconds, 3),
            "cut": self.cut,
        }


@frozen
class Failure:
    """A runtime rule error (R5xx) met in one game: the first of its kind, and how often."""

    diagnostic: Diagnostic
    config: Config
    seed: int
    actions: int  # actions applied before it
    games: int  # games stopped by this same error


@frozen
class Stuck:
    """A state where the player to act had no legal action and the game was not over."""

    phase: str
    player: int
    description: str  # what the table looked like
    span: Span | None  # the phase (or window) declaration
    config: Config
    seed: int
    actions: int  # actions applied before it
    games: int  # games that got stuck in this phase


@frozen
class AlikeLabels:
    """Legal actions, all at once, whose labels read alike (W415): a record keeps a label, and
    replay refuses one that several legal actions read like."""

    label: str
    actions: tuple[str, ...]  # the rule-file actions they are, by name (one, if its choices collide)
    span: Span | None  # the first one's declaration
    config: Config
    seed: int
    actions_before: int  # actions applied before it
    games: int  # games where these actions read alike

    def to_diagnostic(self, total: int, source: Source) -> Diagnostic:
        which = f" (actions {or_list(self.actions).replace(' or ', ' and ')})" if len(self.actions) > 1 else ""
        return Diagnostic(
            "W415",
            f"legal actions read alike: '{self.label}' is the label of several at once{which}, "
            "so a game where one of them is chosen cannot be replayed from its record",
            self.span,
            "a record keeps the label of each action, and replay refuses a label that several legal actions read "
            "like; put in the label the choice that tells them apart ('{c}'; for a card chosen where its player "
            f"cannot see it, '{{position of c}}') ({_games(self.games, total)}; first: {self.config.describe()}, "
            f"seed {self.seed}, after {_count(self.actions_before, 'action')})",
            Severity.WARNING,
            source,
        )


@frozen
class Skipped:
    """Something the validator did not play, and why."""

    what: str  # "option 'cuts' = yes", "6 players"
    reason: str

    def to_json(self) -> dict[str, str]:
        return {"what": self.what, "reason": self.reason}


@frozen
class Unused:
    """A part of the rules that never came into play in any random game."""

    code: str  # W410, W411 or W412
    message: str
    span: Span | None
    hint: str | None = None


@frozen
class OversizedDeal:
    """A deal (or consecutive deals) needing more cards than the deck has (E408)."""

    span: Span
    players: int  # the fewest players for which it is too large
    per_player: int
    deck: int
    failing: tuple[int, ...]  # every player count for which it is too large
    deals: int = 1  # consecutive deals from one zone are counted together

    def to_diagnostic(self, source: Source) -> Diagnostic:
        need = self.per_player * self.players
        others = [p for p in self.failing if p != self.players]
        also = f"; also with {counted(or_list(others), 'player')}" if others else ""
        what = "this deal needs" if self.deals == 1 else f"these {self.deals} deals need"
        return Diagnostic(
            "E408",
            f"with {counted(self.players, 'player')} {what} {need} cards ({self.per_player} to each), "
            f"but the deck has {self.deck}",
            self.span,
            f"deal fewer cards, or refuse so many players with 'require'{also}",
            Severity.ERROR,
            source,
        )


@frozen
class Unplayable:
    """A player count the game cannot be loaded with at its default options (W414)."""

    players: int
    diagnostic: Diagnostic


@frozen
class Report:
    """Everything ``validate`` found; plain data (see ``to_diagnostics`` and ``to_json``)."""

    path: str
    game: str
    source: Source = field(eq=False, repr=False)
    games: int  # random games per configuration
    seed: int
    max_actions: int
    results: tuple[ConfigResult, ...]
    failures: tuple[Failure, ...]
    stuck: tuple[Stuck, ...]
    alike: tuple[AlikeLabels, ...]
    oversized_deals: tuple[OversizedDeal, ...]
    unplayable: tuple[Unplayable, ...]
    unused: tuple[Unused, ...]
    skipped: tuple[Skipped, ...]
    header_span: Span | None = field(default=None, eq=False, repr=False)
    time_budget: float | None = None  # seconds for all the games; None: no limit

    @property
    def total_games(self) -> int:
        return sum(r.games for r in self.results)

    @property
    def truncated(self) -> int:
        return sum(r.truncated for r in self.results)

    @property
    def has_errors(self) -> bool:
        return any(d.is_error for d in self.to_diagnostics())

    def to_diagnostics(self) -> tuple[Diagnostic, ...]:
        """Return the findings as diagnostics, sorted by position (the checker's own are not repeated)."""
        out: list[Diagnostic] = []
        total = self.total_games
        for f in self.failures:
            d = f.diagnostic
            where = f"{_games(f.games, total)}; first: {f.config.describe()}, seed {f.seed}, " + (
                f"after {_count(f.actions, 'action')}"
            )
            hint = f"{d.hint} ({where})" if d.hint else where
            out.append(Diagnostic(d.code, d.message, d.span, hint, d.severity, self.source))
        for s in self.stuck:
            out.append(
                Diagnostic(
                    "R506",
                    stuck_message(s.player, s.phase),
                    s.span,
                    f"{s.description} ({_games(s.games, total)}; first: {s.config.describe()}, seed {s.seed}, "
                    f"after {_count(s.actions, 'action')}); {STUCK_FIX}",
                    Severity.ERROR,
                    self.source,
                )
            )
        out.extend(deal.to_diagnostic(self.source) for deal in self.oversized_deals)
        out.extend(a.to_diagnostic(total, self.source) for a in self.alike)
        if self.unplayable and not self.results:  # no player count loads: the game cannot be played at all
            out.append(unloadable_error([(u.players, u.diagnostic) for u in self.unplayable], self.source))
        for bad in self.unplayable if self.results else ():
            d = bad.diagnostic
            out.append(
                Diagnostic(
                    "W414",
                    f"with {counted(bad.players, 'player')} the game cannot be loaded at its default options: "
                    f"{d.message}",
                    d.span,
                    _DEFAULTS_HINT,
                    Severity.WARNING,
                    self.source,
                )
            )
        if self.truncated:
            configs = [f"{r.truncated} with {r.config.describe()}" for r in self.results if r.truncated]
            if self.max_actions > PROGRESS_AFTER:
                tried = (
                    f"after {PROGRESS_AFTER} random actions the players took any move that ended the game, a round "
                    "or a phase, or bettered their standing, and still did not end it: "
                )
            else:
                tried = "random players may play on where real ones would not; to be sure it ends, "
            out.append(
                Diagnostic(
                    "W413",
                    f"{self.truncated:,} of {total:,} random games reached the bound of {self.max_actions:,} actions "
                    "without ending",
                    self.header_span,
                    f"{'; '.join(configs)}; {tried}"
                    "give the game an end it always reaches (a limit: 'if round == 10: end game'; a draw when "
                    "every player passed in a row), or let a player who cannot go on concede ('action concede "
                    "otherwise: end game, loser player')",
                    Severity.WARNING,
                    self.source,
                )
            )
        out.extend(self._unplayed())
        for u in self.unused:
            out.append(Diagnostic(u.code, u.message, u.span, u.hint, Severity.WARNING, self.source))
        return sort_diagnostics(out)

    def _unplayed(self) -> list[Diagnostic]:
        """W416: configurations the time budget left without a game played to its end (none was checked in play)."""
        empty = [r for r in self.results if r.games == 0 and r.cut]
        if not empty:
            return []
        spent = f"the time budget of {self.time_budget:g} s was spent first"
        if len(empty) == len(self.results):
            message = f"no random game was played to its end: {spent}"
            where = ""
        else:
            message = (
                f"{len(empty)} of {len(self.results)} configurations had no random game played to its end: {spent}"
            )
            where = "; ".join(f"{r.config.describe()}: 0 of {r.cut} games" for r in empty) + "; "
        hint = (
            f"{where}nothing is known of how the rules play there; give more time with --time-budget SECONDS "
            "(0: no limit), or play one configuration with --players and --option"
        )
        return [Diagnostic("W416", message, self.header_span, hint, Severity.WARNING, self.source)]

    def to_json(self) -> dict[str, Any]:
        """Return the report as a JSON-serialisable dict."""
        return {
            "file": self.path,
            "game": self.game,
            "games_per_configuration": self.games,
            "seed": self.seed,
            "max_actions": self.max_actions,
            "games": self.total_games,
            "truncated": self.truncated,
            "time_budget": self.time_budget,
            "configurations": [r.to_json() for r in self.results],
            "skipped": [s.to_json() for s in self.skipped],
            "diagnostics": [d.to_json() for d in self.to_diagnostics()],
        }


# ============================================================================ entry points


def validate(
    path_or_name: str | Path,
    games: int,
    seed: int = 0,
    progress: Progress | None = None,
    *,
    max_actions: int = DEFAULT_MAX_ACTIONS,
    max_configs: int = MAX_CONFIGS,
    players: int | None = None,
    options: Mapping[str, Any] | None = None,
    time_budget: float | None = None,
    executor: Executor | None = None,
) -> Report:
    """Check a rule file (or bundled game), then play ``games`` random games per configuration.

    Raises the checker's RuleDslError when the file does not check; everything found by
    playing is in the Report. ``progress(done, total)`` is called after each game.

    With ``players`` or ``options`` (values as ``load_game`` takes them), only that one
    configuration is played, the other options at their defaults; a bad player count or
    option raises OptionError, and option values left untried are not reported (W412).

    With ``time_budget`` (seconds), each configuration gets an equal share of what is left
    of it when its turn comes; once its share is spent, it plays no more games, and a game
    under way is left unfinished and not counted (``ConfigResult.cut``). The first game of
    each configuration may go on for twice its share (within the budget).

    With ``executor`` (``tools/executors.py``: ``--jobs``, ``--cluster``) the games are
    played there in chunks of consecutive seeds, handed out while their configuration's
    share of the budget lasts; a chunk stops at the end of the share, as here. Without a
    cut the report is the one of playing here; with one, the games played may be any of the
    seeds (not the first ones), and ``ConfigResult.cut`` counts the others.
    """
    return validate_checked(
        check_file(path_or_name),
        games,
        seed,
        progress,
        max_actions=max_actions,
        max_configs=max_configs,
        players=players,
        options=options,
        time_budget=time_budget,
        executor=executor,
    )


def validate_checked(
    checked: CheckedGame,
    games: int,
    seed: int = 0,
    progress: Progress | None = None,
    *,
    max_actions: int = DEFAULT_MAX_ACTIONS,
    max_configs: int = MAX_CONFIGS,
    players: int | None = None,
    options: Mapping[str, Any] | None = None,
    time_budget: float | None = None,
    executor: Executor | None = None,
) -> Report:
    """Validate a game that passed the checker (see ``validate``)."""
    if games < 0:
        raise ValueError("games must be at least 0")
    unplayable: list[Unplayable] = []
    skipped: list[Skipped] = []
    loaded: dict[int, Game] = {}
    if players is not None or options:
        given = dict(options or {})
        game = load_checked(checked, players, given, max_actions, probes=True)
        loaded[game.players] = game
        plan = [(Config(game.players, tuple((name, game.program.options[name]) for name in given)), game)]
        unused_options: list[Unused] = []
    else:
        low, high = players_range(checked)
        for p in range(low, high + 1):
            if p - low >= max_configs:
                skipped.append(Skipped(counted(p, "player"), f"more than {max_configs} configurations"))
                continue
            try:
                loaded[p] = load_checked(checked, p, None, max_actions, probes=True)
            except RuleDslError as exc:
                unplayable.append(Unplayable(p, exc.diagnostics[0]))
        plan, unused_options = _plan(checked, loaded, max_configs, max_actions, skipped)
    deals = _oversized_deals(checked, loaded)

    play = _Play(checked, games, seed, progress, len(plan) * games, time_budget, len(plan))
    results = play.run_all(plan, executor)
    unused = [*unused_options, *(play.unused() if play.played else ())]
    return Report(
        path=checked.source.path,
        game=checked.file.header.name,
        source=checked.source,
        games=games,
        seed=seed,
        max_actions=max_actions,
        results=tuple(results),
        failures=tuple(play.failures.values()),
        stuck=tuple(play.stuck.values()),
        alike=tuple(play.alike.values()),
        oversized_deals=tuple(deals),
        unplayable=tuple(unplayable),
        unused=tuple(unused),
        skipped=tuple(skipped),
        header_span=checked.file.header.span,
        time_budget=time_budget,
    )


def deal_diagnostics(checked: CheckedGame, *, probes: bool = False) -> tuple[Diagnostic, ...]:
    """Find the deals of the setup larger than the deck at some allowed player count (E408), without playing.

    What plain ``ruledsl check`` adds to the checker: the game is loaded (compiled, not
    played) at each player count it allows, with the default options, as ``validate`` loads
    it. A game that no count can load is an error (``unloadable_error``); a count that cannot
    be loaded while others can is left to ``check --simulate`` (W414), and a player range
    that cannot be worked out to whatever loads the game.

    With ``probes``, each game is compiled as ``validate`` plays it, so that a
    ``check --simulate`` that follows finds it compiled (a large file takes seconds).
    """
    try:
        low, high = players_range(checked)
    except RuleDslError:
        return ()
    loaded: dict[int, Game] = {}
    failed: list[tuple[int, Diagnostic]] = []
    for p in range(low, high + 1):  # at most MAX_PLAYERS counts
        try:
            loaded[p] = load_checked(checked, p, probes=probes)
        except RuleDslError as exc:
            failed.append((p, exc.diagnostics[0]))
    if not loaded and failed:
        return (unloadable_error(failed, checked.source),)
    return tuple(deal.to_diagnostic(checked.source) for deal in _oversized_deals(checked, loaded))


_DEFAULTS_HINT = (
    "make the defaults depend on 'players' (option x = if players > 4 then ... else ...), or allow fewer players"
)


_UNLOADABLE_HINT = "nobody can play the game as it is: change this, or the defaults it depends on"


def unloadable_error(failed: Sequence[tuple[int, Diagnostic]], source: Source) -> Diagnostic:
    """The error for a game that no player count it allows can load at the default options:
    the first count's reason, with its code (E604, E605...), and the counts it held for."""
    counts = [p for p, _ in failed]
    d = failed[0][1]
    allowed = str(counts[0]) if len(counts) == 1 else f"{counts[0]} to {counts[-1]}"
    reason = (
        d.message if len({f.message for _, f in failed}) == 1 else f"with {counted(counts[0], 'player')}, {d.message}"
    )
    message = f"no player count it allows ({allowed}) can load the game at its default options: {reason}"
    hint = _DEFAULTS_HINT if d.code == "E605" else d.hint or _UNLOADABLE_HINT
    return Diagnostic(
        d.code,
        message,
        d.span,
        hint,
        Severity.ERROR,
        source,
    )


# ============================================================================ what to play


def _plan(
    checked: CheckedGame, loaded: dict[int, Game], max_configs: int, max_actions: int, skipped: list[Skipped]
) -> tuple[list[tuple[Config, Game]], list[Unused]]:
    """Choose the configurations: defaults at every player count, then option variants."""
    plan: list[tuple[Config, Game]] = []
    counts = sorted(loaded)
    for p in counts:
        if len(plan) < max_configs:
            plan.append((Config(p), loaded[p]))
        else:
            skipped.append(Skipped(counted(p, "player"), f"more than {max_configs} configurations"))
    tried: dict[str, set[Any]] = {decl.name: set() for decl in checked.options}
    for _, game in plan:
        for name, value in game.program.options.items():
            tried[name].add(_hashable(value))

    unused: list[Unused] = []
    turn = 0
    for decl in checked.options:
        for value in _variants(checked, decl, counts):
            if _hashable(value) in tried[decl.name]:
                continue
            what = f"option '{decl.name}' = {_show(value)}"
            if len(plan) >= max_configs:
                reason = f"more than {max_configs} configurations"
                skipped.append(Skipped(what, reason))
                unused.append(_untried(decl, value, reason))
                continue
            # Spread the variants over the player counts, trying the next ones when it cannot load.
            first_error: RuleDslError | None = None
            for k in range(len(counts)):
                p = counts[(turn + k) % len(counts)]
                try:
                    game = load_checked(checked, p, {decl.name: value}, max_actions, probes=True)
                except RuleDslError as exc:
                    first_error = first_error or exc
                    continue
                plan.append((Config(p, ((decl.name, value),)), game))
                for name, v in game.program.options.items():
                    tried[name].add(_hashable(v))
                turn += 1
                break
            else:
                reason = first_error.diagnostics[0].message if first_error else "no player count can be loaded"
                skipped.append(Skipped(what, f"it cannot be loaded: {reason}"))
                unused.append(_untried(decl, value, f"it cannot be loaded with any number of players: {reason}"))
    return plan, unused


def _variants(checked: CheckedGame, decl: n.OptionDecl, counts: Sequence[int]) -> list[Any]:
    """Return the values of an option worth a try: every flag and choice, a number's ends."""
    if isinstance(decl.domain, n.ChoiceDomain):
        return list(decl.domain.choices)
    sym = checked.symbols.options[decl.name]
    if sym.type.kind == "flag":
        return [False, True]
    if isinstance(decl.domain, n.RangeDomain) and counts:
        ends: list[Any] = []
        for p in counts:
            try:
                load = LoadTimeValues(checked, p, option_values(checked, p, {}))
                for e in (decl.domain.low, decl.domain.high):
                    value = load.value(e)
                    if isinstance(value, int) and value not in ends:
                        ends.append(value)
            except (RuleDslError, LoadTimeError):
                continue
            break
        return ends
    return []


def _untried(decl: n.OptionDecl, value: Any, reason: str) -> Unused:
    return Unused(
        "W412",
        f"option '{decl.name}' was never tried with the value {_show(value)}",
        decl.span,
        f"{reason}; try it with --option {decl.name}={_show(value)}",
    )


# ============================================================================ deals too large


def _oversized_deals(checked: CheckedGame, loaded: dict[int, Game]) -> list[OversizedDeal]:
    """Find deals of the setup needing more cards than the deck, at each player count (default options)."""
    groups = list(_deal_groups(checked))
    found: list[OversizedDeal] = []
    for group in groups:
        failing: list[tuple[int, int, int]] = []  # players, cards to each, deck size
        for p, game in sorted(loaded.items()):
            load = LoadTimeValues(checked, p, game.program.options, game.program.n_cards)
            try:
                each = sum(max(0, int(load.value(d.count))) for d in group)
            except (LoadTimeError, TypeError, ValueError):
                break  # a count known only while playing: nothing to say
            if each * p > game.program.n_cards:
                failing.append((p, each, game.program.n_cards))
        if failing:
            p, each, deck = failing[0]
            span = Span(group[0].span.start, group[-1].span.end)
            found.append(OversizedDeal(span, p, each, deck, tuple(f[0] for f in failing), len(group)))
    return found


def _deal_groups(checked: CheckedGame) -> Iterator[list[n.Deal]]:
    """Yield the deals the setup runs (directly or through procedures), consecutive ones
    from the same zone together: between them no card can come back."""
    seen: set[str] = set()
    stack: list[tuple[n.Stmt, ...]] = [checked.setup.body]
    while stack:
        body = stack.pop()
        group: list[n.Deal] = []
        for s in body:
            if isinstance(s, n.Deal) and (not group or group[-1].source == s.source):
                group.append(s)
                continue
            if group:
                yield group
            group = [s] if isinstance(s, n.Deal) else []
            if isinstance(s, n.If):
                stack.extend(b for _, b in s.branches)
                stack.append(s.else_)
            elif isinstance(s, (n.ForEach, n.While, n.Repeat)):
                stack.append(s.body)
            elif isinstance(s, n.CallStmt) and s.name not in seen:
                proc = checked.symbols.procedures.get(s.name)
                if proc is not None and isinstance(proc.decl, n.ProcedureDecl):
                    seen.add(s.name)
                    stack.append(proc.decl.body)
        if group:
            yield group


# ============================================================================ playing


_OUTCOMES = ("ended", "truncated", "stuck", "failed", "actions", "cut")


@frozen
class _Deadline:
    """When the games of a configuration must stop (``time.time()``, comparable between machines whose
    clocks agree): its share of the time budget ends at ``share``; its first game may go on to ``first``."""

    share: float
    first: float


@frozen
class _Chunk:
    """Consecutive seeds of one configuration, for a worker to play; ``deadline`` None: no time budget."""

    spec: GameSpec
    config: Config
    seeds: tuple[int, ...]
    deadline: _Deadline | None
    has_first: bool  # holds the configuration's first game


@define
class _Found:
    """What a chunk of random games found, as a worker sends it back: counts, firsts, what ran."""

    games: int  # games played to their end (those cut are in counts["cut"])
    counts: dict[str, int]
    failures: dict[Any, Failure]
    stuck: dict[str, Stuck]
    alike: dict[tuple[str, ...], AlikeLabels]
    ran: set[_Key]
    possible: set[_Key]
    chosen: set[_Key]
    owners: set[tuple[bool, str]]


def _merge_firsts(table: dict[Any, Any], later: Mapping[Any, Any]) -> None:
    """Add later games' findings to a table of the first of each kind: a kind seen before keeps its first."""
    for key, item in later.items():
        first = table.get(key)
        table[key] = item if first is None else evolve(first, games=first.games + item.games)


def _validate_chunk(chunk: _Chunk) -> _Found:
    """Play a chunk's random games in a worker (the game compiled once there, with probes)."""
    play = _Play(None, 0, 0, None, 0)
    counts = play.play_seeds(chunk.config, compiled(chunk.spec), chunk.seeds, chunk.deadline, chunk.has_first)
    return _Found(
        play.played,
        counts,
        play.failures,
        play.stuck,
        play.alike,
        play.ran,
        play.possible,
        play.chosen,
        play.owners,
    )


class _Play:
    """Play random games, gathering failures, stuck states and what ran.

    In a worker (``checked`` None) it only plays a chunk; the report is made where the
    chunks come back, in the order of their seeds, so it is the one of playing them here.
    """

    def __init__(
        self,
        checked: CheckedGame | None,
        games: int,
        seed: int,
        progress: Progress | None,
        total: int,
        time_budget: float | None = None,
        configs: int = 1,
    ) -> None:
        self.checked = checked
        self.end = None if time_budget is None else time.time() + time_budget
        self.configs_left = configs
        self.games = games
        self.seed = seed
        self.progress = progress
        self.total = total
        self.done = 0
        self.played = 0
        self.failures: dict[tuple[str, str, _Key | None], Failure] = {}
        self.stuck: dict[str, Stuck] = {}
        self.alike: dict[tuple[str, ...], AlikeLabels] = {}  # by the actions that read alike
        self._normal: dict[str, str] = {}  # labels as replay reads them (normalise), by label
        self.ran: set[_Key] = set()  # spans of rules whose generated lines ran
        self.judged: set[_Key] = set()  # spans that generated lines of rule functions carry
        self.possible: set[_Key] = set()  # actions seen among the legal ones
        self.chosen: set[_Key] = set()  # actions applied
        self.owners: set[tuple[bool, str]] = set()  # (is a window, name) of where someone could act
        self._programs: set[int] = set()
        self._listed: set[ActionDef] = set()  # action definitions seen among the legal ones
        self._applied: set[ActionDef] = set()

    def run_all(self, plan: Sequence[tuple[Config, Game]], executor: Executor | None) -> list[ConfigResult]:
        """Play every configuration's games, here or in chunks on ``executor``; return what each came to."""
        if executor is not None and not isinstance(executor, InProcess):
            return self._run_chunks(plan, executor)
        results = []
        for config, game in plan:
            start = time.perf_counter()
            self._judge(game.program)
            seeds = range(self.seed, self.seed + self.games)
            counts = self.play_seeds(config, game, seeds, self._deadline(), True, self._tick)
            played = self.games - counts["cut"]
            results.append(ConfigResult(config, played, seconds=time.perf_counter() - start, **counts))
        return results

    def _run_chunks(self, plan: Sequence[tuple[Config, Game]], executor: Executor) -> list[ConfigResult]:
        """Hand the configurations' games out in chunks while their shares of the time budget last;
        take in what each chunk found in the order of the chunks (so of the seeds)."""
        size = chunk_size(self.games * len(plan), executor)
        counts = [dict.fromkeys(_OUTCOMES, 0) for _ in plan]
        times: list[list[float]] = [[] for _ in plan]  # when each configuration started and last came back
        owners: list[int] = []  # the configuration of each chunk handed out

        def chunks() -> Iterator[_Chunk]:
            for i, (config, game) in enumerate(plan):
                self._judge(game.program)
                spec = GameSpec.of(game)
                times[i].append(time.perf_counter())
                deadline = self._deadline()
                for k in range(0, self.games, size):
                    if deadline is not None and time.time() > deadline.share:
                        counts[i]["cut"] += self.games - k  # never handed out: its share was spent
                        self._tick(self.games - k)
                        break
                    seeds = tuple(range(self.seed + k, self.seed + min(k + size, self.games)))
                    owners.append(i)
                    yield _Chunk(spec, config, seeds, deadline, k == 0)

        # Without a time budget every chunk goes out at once; with one, two per worker, so that the
        # chunks not yet handed out when a share ends are never played.
        ahead = None if self.end is None else 2 * executor.workers
        for j, found in enumerate(executor.run(_validate_chunk, chunks(), ahead)):
            i = owners[j]
            self._absorb(found)
            for name, k in found.counts.items():
                counts[i][name] += k
            times[i].append(time.perf_counter())
            self._tick(found.games + found.counts["cut"])
        return [
            ConfigResult(config, self.games - c["cut"], seconds=t[-1] - t[0] if t else 0.0, **c)
            for (config, _), c, t in zip(plan, counts, times, strict=True)
        ]

    def _deadline(self) -> _Deadline | None:
        """Give the configuration whose turn it is an equal share of what is left of the time budget."""
        if self.end is None:
            return None
        start = time.time()
        share = max(self.end - start, 0.0) / self.configs_left
        self.configs_left -= 1
        return _Deadline(start + share, min(start + 2 * share, self.end))

    def _judge(self, program: Program) -> None:
        if id(program) not in self._programs:
            self._programs.add(id(program))
            self.judged |= _rule_spans(program)

    def _tick(self, games: int = 1) -> None:
        self.done += games
        if self.progress is not None:
            self.progress(self.done, self.total)

    def play_seeds(
        self,
        config: Config,
        game: Game,
        seeds: Sequence[int],
        deadline: _Deadline | None,
        has_first: bool,
        each: Callable[[int], None] = lambda games: None,
    ) -> dict[str, int]:
        """Play a game for each seed until the deadline, gathering what happened; return how the games
        ended, their actions, and how many were cut: left unfinished, or not started, once it passed."""
        lines: set[int] = set()  # the generated lines that ran
        counts = dict.fromkeys(_OUTCOMES, 0)
        for k, seed in enumerate(seeds):
            stop = None if deadline is None else deadline.first if has_first and k == 0 else deadline.share
            outcome = "cut"
            if stop is None or time.time() <= stop:
                outcome, actions = self._one(config, game, seed, lines, stop)
            if outcome == "cut":
                counts["cut"] = len(seeds) - k
                each(len(seeds) - k)
                break
            counts[outcome] += 1
            counts["actions"] += actions
            self.played += 1
            each(1)
        for line in lines:
            span = game.program.span_of_line(line)
            if span is not None and span.start.line:
                self.ran.add(_key(span))
        return counts

    def _absorb(self, found: _Found) -> None:
        """Take in what a chunk of later games found: counts add up, the first of each kind stays."""
        self.played += found.games
        _merge_firsts(self.failures, found.failures)
        _merge_firsts(self.stuck, found.stuck)
        _merge_firsts(self.alike, found.alike)
        self.ran |= found.ran
        self.possible |= found.possible
        self.chosen |= found.chosen
        self.owners |= found.owners

    def _one(self, config: Config, game: Game, seed: int, lines: set[int], stop: float | None) -> tuple[str, int]:
        """Play one game; return how it ended ("ended", "truncated", "stuck", "failed", or "cut": left
        unfinished at ``stop``, a ``time.time()``) and its length."""
        # One generator per seat, seeded as the random agent of that seat is, so that the
        # game a hint names is the one `ruledsl play --seed S --seats random,...` shows.
        rngs = [random.Random(agent_seed(seed, seat)) for seat in range(game.players)]
        actions = 0
        probes = game.program.probes
        assert probes is not None, "the game is loaded with probes=True"
        state: GameState | None = None
        alike_here: set[tuple[str, ...]] = set()  # what read alike in this game, counted once
        try:
            probes.record(lines)
            try:
                state = game.new_initial_state(seed=seed)
            finally:
                probes.stop()
            while not state.is_terminal():
                legal = state.legal_actions()
                if not legal:
                    self._stuck(config, state, seed, actions)
                    return "stuck", actions
                self._read_alike(legal, config, seed, actions, alike_here)
                for a in legal:
                    if a.defn not in self._listed:
                        self._listed.add(a.defn)
                        self.owners.add((a.defn.owner_kind == "window", a.defn.owner))
                        if a.defn.span is not None:
                            self.possible.add(_key(a.defn.span))
                rng = rngs[state.current_player()]
                if actions % 64 == 63 and stop is not None and time.time() > stop:
                    return "cut", actions
                action = rng.choice(legal) if actions < PROGRESS_AFTER else progressing_action(state, legal, rng)
                if action.defn not in self._applied:
                    self._applied.add(action.defn)
                    if action.defn.span is not None:
                        self.chosen.add(_key(action.defn.span))
                # The legal actions are kept by the state, so applying does not list them again.
                probes.record(lines)
                try:
                    state.apply_action(action)
                finally:
                    probes.stop()
                if action.defn.step_role not in ("begin", "pick"):
                    actions += 1  # the steps of a set chosen card by card are one action of the game
        except RuleRuntimeError as exc:
            self._failed(config, exc, seed, actions)
            return "failed", actions
        return ("truncated" if state.truncated else "ended"), actions

    def _failed(self, config: Config, exc: RuleRuntimeError, seed: int, actions: int) -> None:
        d = exc.diagnostics[0] if exc.diagnostics else Diagnostic("R504", str(exc))
        key = (d.code, d.message, _key(d.span) if d.span is not None else None)
        first = self.failures.get(key)
        if first is None:
            self.failures[key] = Failure(d, config, seed, actions, 1)
        else:
            self.failures[key] = Failure(first.diagnostic, first.config, first.seed, first.actions, first.games + 1)

    def _read_alike(
        self, legal: Sequence[Action], config: Config, seed: int, actions: int, alike_here: set[tuple[str, ...]]
    ) -> None:
        """Note legal actions whose labels replay would read alike (W415), once per game."""
        normal = self._normal
        seen: dict[str, Action] = {}
        for a in legal:
            label = str(a)
            read = normal.get(label)
            if read is None:
                read = normal[label] = normalise(label)
            other = seen.setdefault(read, a)
            if other is a:
                continue
            names = tuple(sorted({f"'{b.defn.name}' of '{b.defn.owner}'" for b in (other, a)}))
            if names in alike_here:
                continue
            alike_here.add(names)
            first = self.alike.get(names)
            if first is None:
                self.alike[names] = AlikeLabels(label, names, other.defn.span, config, seed, actions, 1)
            else:
                self.alike[names] = AlikeLabels(
                    first.label, names, first.span, first.config, first.seed, first.actions_before, first.games + 1
                )

    def _stuck(self, config: Config, state: GameState, seed: int, actions: int) -> None:
        phase = state.phase_name()
        first = self.stuck.get(phase)
        if first is None:
            span = state.prog.phases[state.phase].span
            self.stuck[phase] = Stuck(
                phase, state.current_player(), describe_table(state), span, config, seed, actions, 1
            )
        else:
            self.stuck[phase] = Stuck(
                first.phase,
                first.player,
                first.description,
                first.span,
                first.config,
                first.seed,
                first.actions,
                first.games + 1,
            )

    # ------------------------------------------------------------------ what never happened

    def unused(self) -> list[Unused]:
        games = self.played
        found: list[Unused] = []
        ran = _Spans(self.ran)
        judged = _Spans(self.judged)
        # A rule that failed (its error is reported) was reached: a phase whose actions could
        # not be listed (R507, R509) is no phase "never played", its action no "never possible".
        failed = _Spans({_key(f.diagnostic.span) for f in self.failures.values() if f.diagnostic.span is not None})

        def block_ran(node: n.Node) -> bool:
            return not judged.any_within(node.span) or ran.any_within(node.span)

        def body(stmts: tuple[n.Stmt, ...]) -> None:
            group: list[n.Stmt] = []
            for s in (*stmts, None):
                if s is not None and not block_ran(s):
                    group.append(s)
                    continue
                if group:
                    found.append(_never_ran(group, games))
                    group = []
                if s is None:
                    continue
                if isinstance(s, n.If):
                    for _, b in s.branches:
                        body(b)
                    body(s.else_)
                elif isinstance(s, (n.ForEach, n.While, n.Repeat)):
                    body(s.body)

        def rule(node: n.Node, stmts: tuple[n.Stmt, ...], what: str) -> None:
            if block_ran(node):
                body(stmts)
            else:
                found.append(Unused("W411", f"{what} never ran in {_count(games, 'random game')}", node.span, None))

        def action(item: n.ActionDecl | n.PassDecl, owner: str) -> None:
            name = item.name if isinstance(item, n.ActionDecl) else "pass"
            key = _key(item.span)
            if failed.any_within(item.span):
                body(item.body)  # its failure is reported: no "never possible", but what never ran
            elif key not in self.possible:
                found.append(
                    Unused(
                        "W410",
                        f"action '{name}' of '{owner}' was never possible in {_count(games, 'random game')}",
                        item.span,
                        _never_possible_hint(item),
                    )
                )
            elif key not in self.chosen:
                found.append(
                    Unused(
                        "W411",
                        f"action '{name}' of '{owner}' was possible but never chosen in {_count(games, 'random game')}",
                        item.span,
                        "play more games (it is chosen at random among the legal actions)",
                    )
                )
            else:
                body(item.body)

        checked = self.checked
        assert checked is not None, "what never happened is told where the games come back, not in a worker"
        body(checked.setup.body)
        for d in checked.file.decls:
            if isinstance(d, n.ProcedureDecl):
                rule(d, d.body, f"procedure '{d.name}'")
            elif isinstance(d, n.TriggerDecl):
                rule(d, d.body, "this 'when ... enter' rule")
            elif isinstance(d, n.RoundEndDecl) and d is checked.round_end:
                rule(d, d.body, "'round end:'")
            elif isinstance(d, n.PhaseDecl) and self._is_declared(d):
                enter = next((i for i in d.items if isinstance(i, n.OnEnter)), None)
                reached = (False, d.name) in self.owners or failed.any_within(d.span)
                if not reached and (enter is None or not ran.any_within(enter.span)):
                    kind = "auction" if d.is_auction else "phase"
                    found.append(
                        Unused(
                            "W411",
                            f"{kind} '{d.name}' was never played in {_count(games, 'random game')}",
                            d.span,
                            f"no game reached it; check the rules that 'go to {d.name}'",
                        )
                    )
                    continue
                for item in d.items:
                    if isinstance(item, n.OnEnter):
                        rule(item, item.body, f"'on enter:' of '{d.name}'")
                    elif isinstance(item, n.WonHandler):
                        rule(item, item.body, f"'when won by' of '{d.name}'")
                    elif isinstance(item, n.UnsoldHandler):
                        rule(item, item.body, f"'when unsold:' of '{d.name}'")
                    elif isinstance(item, n.AllChosenHandler):
                        rule(item, item.body, f"'when all chosen:' of '{d.name}'")
                    elif isinstance(item, (n.ActionDecl, n.PassDecl)):
                        action(item, d.name)
            elif isinstance(d, n.WindowDecl) and checked.symbols.windows.get(d.name) is not None:
                items = [i for i in d.items if isinstance(i, (n.ActionDecl, n.PassDecl, n.AllPassHandler))]
                if (True, d.name) not in self.owners and not failed.any_within(d.span):
                    found.append(
                        Unused(
                            "W411",
                            f"window '{d.name}' was never open to anyone in {_count(games, 'random game')}",
                            d.span,
                            f"check the rules that 'open {d.name}', and for whom the window is",
                        )
                    )
                    continue
                for item in items:
                    if isinstance(item, n.AllPassHandler):
                        rule(item, item.body, f"'when all pass:' of '{d.name}'")
                    else:
                        action(item, d.name)
        return found

    def _is_declared(self, d: n.PhaseDecl) -> bool:
        assert self.checked is not None
        sym = self.checked.symbols.phases.get(d.name)
        return sym is not None and sym.decl is d


def _never_possible_hint(item: n.ActionDecl | n.PassDecl) -> str:
    if isinstance(item, n.ActionDecl) and (item.when is not None or item.requires or item.choices):
        return "its condition or its choices never allowed it; check them, or play more games"
    return "its phase never offered it; play more games"


def _never_ran(group: list[n.Stmt], games: int) -> Unused:
    span = Span(group[0].span.start, group[-1].span.end)
    what = "this rule" if len(group) == 1 else f"these {len(group)} rules"
    return Unused("W411", f"{what} never ran in {_count(games, 'random game')}", span, None)


def _rule_spans(program: Program) -> set[_Key]:
    """Return the spans carried by the lines of the program's rule functions (def lines aside)."""
    spans: set[_Key] = set()
    inside = False
    for number, text in enumerate(program.source_code.split("\n"), start=1):
        if text.startswith("def "):
            match = _DEF_LINE.match(text)
            inside = bool(match and _RULE_FUNCTIONS.fullmatch(match.group(1)))
            continue
        if inside and text.strip():
            span = program.span_of_line(number)
            if span is not None and span.start.line:
                spans.add(_key(span))
    return spans


class _Spans:
    """A set of spans, asked whether any lies within a given span."""

    def __init__(self, keys: set[_Key]) -> None:
        self.keys = sorted(keys)

    def any_within(self, span: Span) -> bool:
        start, end = _key(span)
        i = bisect.bisect_left(self.keys, (start, -1))
        while i < len(self.keys) and self.keys[i][0] < end:
            if self.keys[i][1] <= end:
                return True
            i += 1
        return False


# ============================================================================ helpers


def _key(span: Span) -> _Key:
    return (span.start.offset, span.end.offset)


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _hashable(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


def _count(k: int, what: str) -> str:
    return f"{k:,} {what}{'s' if k != 1 else ''}"


def _games(k: int, total: int) -> str:
    return f"in {k} of {_count(total, 'game')}"
