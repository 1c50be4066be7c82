"""Game records: one JSON object per game (rules hash, options, seats, seed, actions, result), and replays.

A record holds what is needed to play a game again exactly: the rule file (by path and
SHA-256 of its canonical rules), the player count and options, the seed, and each action by its
label as its actor saw it. Replaying finds each action among the legal ones by that
label; a record whose rules have changed is refused (``RecordError``). The hash is taken
of the rules as ``unparse`` writes them, not of the file's text, so that comments and
layout (``ruledsl fmt``) can change without orphaning the records. Pure functions:
the command line reads, writes and prints.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ruledsl.errors import IllegalActionError, RuleDslError
from ruledsl.game import load_game, read_source, resolve_path
from ruledsl.parser import parse_source
from ruledsl.source import Source
from ruledsl.unparse import unparse

if TYPE_CHECKING:
    from ruledsl.game import Game
    from ruledsl.interpreter import GameState

#: The "format" of records this module writes and reads.
FORMAT = "ruledsl-record/1"

_REQUIRED = ("file", "rules_sha256", "players", "options", "seed", "actions")


class RecordError(ValueError):
    """A record that cannot be read or replayed: bad JSON, missing fields, changed rules."""


def rules_hash(game: Game) -> str:
    """Return the SHA-256 of a game's canonical rules (what a record is tied to)."""
    return _canonical_sha256(game.source.text, game.path)


@functools.lru_cache(maxsize=16)
def _canonical_sha256(text: str, path: str) -> str:
    """Return the SHA-256 of the canonical text of rules (comments and layout left out); raise ParseError."""
    canonical = unparse(parse_source(Source(path, text)))
    return hashlib.sha256(canonical.encode("utf-8", "surrogatepass")).hexdigest()


def build_record(
    game: Game,
    seed: int,
    seats: Sequence[str],
    actions: Sequence[str],
    actors: Sequence[int],
    returns: Sequence[float],
    truncated: bool,
) -> dict[str, Any]:
    """Return the record of one finished (or abandoned) game as a JSON-serialisable dict."""
    return {
        "format": FORMAT,
        "game": game.name,
        "file": game.path,
        "rules_sha256": rules_hash(game),
        "players": game.players,
        "options": game.options,
        "seed": seed,
        "seats": list(seats),
        "actions": list(actions),
        "actors": list(actors),
        "returns": list(returns),
        "truncated": truncated,
    }


def record_of_state(
    game: Game, seed: int, seats: Sequence[str], state: GameState, actors: Sequence[int]
) -> dict[str, Any]:
    """Return the record of a game played to ``state`` (actions labelled as their actors saw them)."""
    labels = [str(a) for a in state.history()]
    return build_record(game, seed, seats, labels, actors, state.returns(), state.truncated)


def write_records(path: str | Path, records: Sequence[dict[str, Any]], append: bool = True) -> None:
    """Write records to a JSON Lines file, one per line (appended by default)."""
    with open(path, "a" if append else "w", encoding="utf-8") as f:
        for record in records:
            f.write(json.dumps(record, ensure_ascii=False) + "\n")


def read_records(path: str | Path) -> list[dict[str, Any]]:
    """Read every record of a JSON Lines file; raise RecordError naming a bad line."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise RecordError(f"cannot read '{path}': {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise RecordError(f"'{path}' is not a UTF-8 text file") from None
    return list(_parse_lines(str(path), text))


def _parse_lines(path: str, text: str) -> Iterator[dict[str, Any]]:
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            raise RecordError(f"{path}:{number}: not a JSON record ({exc.msg})") from None
        if not isinstance(record, dict):
            raise RecordError(f"{path}:{number}: a record is a JSON object")
        missing = [k for k in _REQUIRED if k not in record]
        if missing:
            raise RecordError(f"{path}:{number}: the record lacks {', '.join(repr(k) for k in missing)}")
        yield record


def check_rules(record: dict[str, Any], game: Game) -> None:
    """Refuse a record made with another version of the rule file (RecordError)."""
    _compare(record, game.path, rules_hash(game))


def _compare(record: dict[str, Any], path: str, now: str) -> None:
    then = str(record["rules_sha256"])
    if then != now:
        raise RecordError(
            f"'{path}' has changed since this game was recorded (rules sha256 {then[:12]}... then, "
            f"{now[:12]}... now); a replay needs the rule file the game was played with"
        )


def load_recorded_game(record: dict[str, Any], rules: str | None = None) -> Game:
    """Load the game a record was played with (its rule file, or ``rules``), with its players and options.

    The rules' hash is compared before they are checked, so a changed file is refused
    with RecordError rather than with whatever error its new text may hold.
    """
    name = rules or str(record["file"])
    source = read_source(resolve_path(name), name)
    try:
        now = _canonical_sha256(source.text, source.path)
    except RuleDslError as exc:
        raise RecordError(
            f"'{name}' has changed since this game was recorded: it no longer parses ({exc}); "
            "a replay needs the rule file the game was played with"
        ) from None
    _compare(record, name, now)
    return load_game(name, players=int(record["players"]), options=dict(record["options"]))


def replay(record: dict[str, Any], game: Game) -> GameState:
    """Play a record again on ``game`` (which must be the record's: see ``check_rules``); return the last state."""
    check_rules(record, game)
    state = game.new_initial_state(seed=int(record["seed"]))
    for number, label in enumerate(record["actions"], start=1):
        apply_label(state, label, number)
    return state


def apply_label(state: GameState, label: str, number: int) -> None:
    """Apply the legal action that reads ``label``, the record's action ``number``; RecordError if none does."""
    if state.is_terminal():
        raise RecordError(f"action {number} ('{label}') comes after the end of the game")
    try:
        action = state.action_from_string(label)
    except IllegalActionError:
        raise RecordError(f"action {number} ('{label}') is not legal at that point of the replay") from None
    state.apply_action(action)


# ============================================================================ rendering


def describe_view(obs: dict[str, Any], seat: int) -> list[str]:
    """Render what ``seat`` sees, from its observation alone (so nothing hidden can show).

    An empty zone reads "(empty)" wherever it lies: everybody can see that it holds no card,
    even when the observation lists no cards for it (in a game that turns cards face up or
    down, a zone lists only the cards the viewer sees).
    """
    lines = [f"--- round {obs['round']}, phase {obs['phase']}, {obs['direction']}"]
    for name, zone in obs["zones"].items():
        if isinstance(zone, list):
            parts = []
            separator = ", "
            for q, z in enumerate(zone):
                if q == seat and _lists_cards(z):
                    lines.append(f"your {name}: {_cards(z)}")
                elif _lists_cards(z):
                    parts.append(f"{'you' if q == seat else f'P{q}'}: {_cards(z)}")
                    separator = "; "  # the cards of one player are joined by commas
                else:
                    parts.append(f"{'you' if q == seat else f'P{q}'} {z['size']}")
            if parts:
                lines.append(f"{name}: " + separator.join(parts))
        elif _lists_cards(zone):
            lines.append(f"{name}: {_cards(zone)}" + (" (top last)" if zone["size"] > 1 else ""))
        else:
            lines.append(f"{name}: {zone['size']} card{'s' if zone['size'] != 1 else ''}")
    # Unset values, empty lists and false flags say nothing worth a place; 0 is a number like any other.
    shown_vars = {k: v for k, v in obs["variables"].items() if v is not None and v is not False and v != []}
    if shown_vars:
        lines.append("  " + ", ".join(f"{k} {show_value(v)}" for k, v in shown_vars.items()))
    for name, values in obs["player_variables"].items():
        lines.append(
            f"  {name}: "
            + ", ".join(
                f"{'you' if q == seat else f'P{q}'} {show_value(v)}" for q, v in enumerate(values) if v is not None
            )
        )
    if obs["auction"]:
        a = obs["auction"]
        passed = [f"P{q}" for q, x in enumerate(a["passed"]) if x]
        standing = f"{a['standing']} by P{a['bidder']}" if a["standing"] else "no bid yet"
        lines.append(f"  auction: {standing}" + (f"; passed: {', '.join(passed)}" if passed else ""))
    window = obs.get("window")
    if window and window["player"] == seat:
        lines.append(f"  out of turn: you may act in '{window['name']}' before play goes on")
    if obs["finished"]:
        lines.append("  out: " + ", ".join(f"P{q}" for q in obs["finished"]))
    return lines


def _lists_cards(zone: dict[str, Any]) -> bool:
    """Whether a zone's cards are written out: some are seen, or there are none to see."""
    return "cards" in zone or zone["size"] == 0


def _cards(zone: dict[str, Any]) -> str:
    return ", ".join(c if c is not None else "?" for c in zone.get("cards", [])) or "(empty)"


def show_value(v: Any) -> str:
    """Render a variable's value for people: yes/no, lists joined, none."""
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, list):
        return ", ".join(str(x) for x in v) or "none"
    return "none" if v is None else str(v)


def result_lines(state: GameState) -> list[str]:
    """Render the end of a game: the winner or the ranking, and the returns."""
    ret = state.returns()
    if state.truncated:
        return [f"Result: stopped after {state.n_actions} actions without an end; counted as a draw"]
    best = max(ret)
    if min(ret) == best:
        return ["Result: a draw"]
    winners = [q for q, r in enumerate(ret) if r == best]
    lines = []
    if len(winners) == 1:
        lines.append(f"Result: P{winners[0]} wins")
    else:
        lines.append("Result: " + ", ".join(f"P{q}" for q in winners) + " share the win")
    if state.prog.ranking != "none" and len(set(ret)) > 2:
        order = state.ranking()
        lines.append("Ranking: " + "; ".join(", ".join(f"P{q}" for q in group) for group in order))
    lines.append("Returns: " + ", ".join(f"P{q} {r:+g}" if r else f"P{q} 0" for q, r in enumerate(ret)))
    return lines


def render_replay(record: dict[str, Any], game: Game, viewer: int | None) -> Iterator[str]:
    """Yield the lines of a replay as ``viewer`` saw the game (None: a spectator).

    Each action reads as ``viewer`` saw it when it was taken; before each of the viewer's
    own actions comes his view, drawn from his observation alone, as ``play`` showed it
    to him. Cards he never saw stay hidden.
    """
    check_rules(record, game)
    seats = record.get("seats") or ["?"] * game.players
    label = ", ".join(f"P{q} {spec}" for q, spec in enumerate(seats))
    who = "as a spectator saw it" if viewer is None else f"as P{viewer} saw it"
    yield f"{game.name}: {game.players} players ({label}), seed {record['seed']}; replayed {who}"
    state = game.new_initial_state(seed=int(record["seed"]), log=True)
    for line in state.take_log():
        yield f"  {line}"
    for number, text in enumerate(record["actions"], start=1):
        actor = state.current_player()
        if actor == viewer:
            yield from describe_view(state.observation(viewer), viewer)
        apply_label(state, text, number)
        seen = state.describe_last(viewer)
        if seen:
            yield f"P{actor}: {seen}"
        for line in state.take_log():
            yield f"  {line}"
    if state.is_terminal():
        yield from result_lines(state)
    else:
        yield "Result: the game was left unfinished"
