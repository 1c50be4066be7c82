"""Game records: one JSON object per game (rules hash, options, seats, seed, actions, result), and replays.

A record holds what is needed to play a game again exactly: the rule file (by path and
SHA-256 of its canonical rules), the player count and options, the seed, and each action by its
label as its actor saw it. Replaying finds each action among the legal ones by that
label; a record whose rules have changed is refused (``RecordError``). The hash is taken
of the rules as ``unparse`` writes them with no line broken, not of the file's text, so
that comments and layout, the author's or ``ruledsl fmt``'s, can change without orphaning
the records. (Records of format 1 hashed ``fmt``'s layout of then, kept as ``RECORD1``.) A bundled game is
recorded by its name and found among the bundled games again; any other rule file is
named from the folder of the file the record is written to, but a replay never reads a
path a record names (a record is untrusted): it is given by the user (``--rules``).
Pure functions: the command line reads, writes and prints.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import re
import stat
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from attrs import define

from ruledsl import __version__
from ruledsl.engine.failures import stuck_error
from ruledsl.engine.limits import DEFAULT_MAX_ACTIONS
from ruledsl.engine.ops import winners_of
from ruledsl.format.unparse import RECORD1, UNBROKEN, unparse
from ruledsl.loading import check_source, load_checked, read_source, resolve_path, shown_path
from ruledsl.resources import bundled_name, named_games
from ruledsl.syntax.parser import parse_source
from ruledsl.text.errors import Diagnostic, RuleDslError, RuleRuntimeError
from ruledsl.text.files import FileTooLargeError, read_regular_file
from ruledsl.text.render import counted, or_list, show_value
from ruledsl.text.source import UNSHOWABLE, Pos, Source, Span
from ruledsl.tools.display import Display, display_of

if TYPE_CHECKING:
    from ruledsl.engine.game import Game
    from ruledsl.engine.program import Program
    from ruledsl.engine.state import GameState
    from ruledsl.tools.simulate import GameRecord as PlayedGame

#: The "format" of records this module writes.
FORMAT = "ruledsl-record/2"
#: The formats it reads, each with the layout of the canonical text its rules hash is taken of.
_HASHED_LAYOUTS = {FORMAT: UNBROKEN, "ruledsl-record/1": RECORD1}
READ_FORMATS = tuple(_HASHED_LAYOUTS)
#: A file of records is read whole; one larger than this (a million long games) is refused, not read.
MAX_RECORDS_BYTES = 1 << 30


class RecordError(ValueError):
    """A record that cannot be read or replayed: bad JSON, missing fields, changed rules."""


def rules_hash(game: Game, record_format: str = FORMAT) -> str:
    """Return the SHA-256 of a game's canonical rules (what a record is tied to), as records of
    ``record_format`` take it."""
    return _canonical(game.source.text, game.path, record_format)[1]


@functools.lru_cache(maxsize=16)
def _canonical(text: str, path: str, record_format: str = FORMAT) -> tuple[str, str]:
    """Return the name of the game rules declare and the SHA-256 of their canonical text; raise ParseError."""
    tree = parse_source(Source(path, text))
    canonical = unparse(tree, _HASHED_LAYOUTS[record_format])
    return tree.name, hashlib.sha256(canonical.encode("utf-8", "surrogatepass")).hexdigest()


def build_record(
    game: Game,
    seed: int,
    seats: Sequence[str],
    actions: Sequence[str],
    actors: Sequence[int],
    returns: Sequence[float] | None,
    truncated: bool,
    *,
    rotate: bool = False,
    error: RuleDslError | None = None,
) -> dict[str, Any]:
    """Return the record of one game as a JSON-serialisable dict.

    ``seats`` are the agents of this game, seat by seat; ``rotate`` says whether its run
    rotated them from game to game (``simulate --rotate``). A game that did not end has no
    ``returns`` (None): it is marked ``"stuck": true``, with the ``error`` that stopped it,
    or else ``"unfinished": true`` (left by its player). A bundled game is recorded by its
    file's name; another rule file by its absolute path, which ``write_records`` names from
    the folder of the file it writes.
    """
    file, bundled = _recorded_file(game.file, game.path)
    record: dict[str, Any] = {
        "format": FORMAT,
        "ruledsl": __version__,
        "game": game.name,
        "file": file,
        "bundled": bundled,
        "rules_sha256": rules_hash(game),
        "players": game.players,
        "options": game.options,
        "max_actions": game.max_actions,
        "seed": seed,
        "seats": list(seats),
        "rotate": rotate,
        "actions": list(actions),
        "actors": list(actors),
    }
    if returns is not None:
        record["returns"] = list(returns)
    record["truncated"] = truncated
    if error is not None:
        record["stuck"] = True
        record["error"] = _error_fields(error)
    elif returns is None:
        record["unfinished"] = True
    return record


def _error_fields(error: RuleDslError) -> dict[str, Any]:
    """The error that stopped a game, as a record holds it: the fields of ``check --format json`` but the file
    (the record's) and the severity (an error); the place is null when the error has none."""
    d = error.diagnostics[0] if error.diagnostics else Diagnostic("R504", str(error))
    placed = d.span is not None and d.span.start.line >= 1
    return {
        "code": d.code,
        "message": d.message,
        "line": d.line if placed else None,
        "column": d.column if placed else None,
        "end_line": d.end_line if placed else None,
        "end_column": d.end_column if placed else None,
        "hint": d.hint,
    }


@functools.lru_cache(maxsize=16)
def _recorded_file(file: Path | None, shown: str) -> tuple[str, bool]:
    """How a record names a game's rule file (read from ``file``, named ``shown``): the name, and whether bundled."""
    if file is None:
        return shown, False
    name = bundled_name(file)
    return (f"{name}.game", True) if name is not None else (str(file), False)


def record_of_game(game: Game, played: PlayedGame, rotate: bool = False) -> dict[str, Any]:
    """Return the record of a game ``simulate`` played, its labels kept: as it ended, or stuck with its error."""
    returns = None if played.error is not None else played.returns
    labels = played.labels or []
    return build_record(
        game,
        played.seed,
        played.agents,
        labels,
        played.actors,
        returns,
        played.truncated,
        rotate=rotate,
        error=played.error,
    )


def record_of_state(
    game: Game,
    seed: int,
    seats: Sequence[str],
    state: GameState,
    actors: Sequence[int],
    error: RuleDslError | None = None,
) -> dict[str, Any]:
    """Return the record of a game played to ``state`` (actions labelled as their actors saw them).

    A game the rules stopped (``error``, a rule error) is marked ``"stuck": true`` with
    that error; one left before its end is marked ``"unfinished": true``; neither has
    returns. Only the actions of ``actors`` are recorded, but for the one the rules failed
    in: one interrupted while it was being applied (Ctrl-C) may be in the history, half
    done, and is left out; one the rules failed in is kept, so that its replay fails there
    again.
    """
    history: list[Any] = state.history()
    failed = getattr(error, "action", None)
    if failed is not None:
        history.append(failed)  # rolled back, so in no history: kept, for its replay to fail there again
    labels = [str(a) for a in history]
    if error is not None and len(labels) > len(actors):
        # The actor of the action the rules failed in: the player to act, the state being as before it.
        actor = state.current_player() if failed is not None else state.last_actor
        assert actor is not None  # an action was applied
        actors = [*actors, actor]
    labels = labels[: len(actors)]
    if error is None and state.is_terminal() and len(labels) == state.n_actions:
        return build_record(game, seed, seats, labels, actors, state.returns(), state.truncated)
    return build_record(game, seed, seats, labels, actors, None, False, error=error)


def write_records(path: str | Path, records: Sequence[dict[str, Any]], append: bool = True) -> None:
    """Write records to a JSON Lines file, one per line (appended by default).

    A rule file given by its absolute path is named from the file's folder, so that a
    folder of records and rules still replays when moved, or replayed from elsewhere.
    """
    folder = Path(path).parent.resolve()
    with open(path, "a" if append else "w", encoding="utf-8") as f:
        for record in records:
            f.write(json.dumps(_named_from(folder, record), ensure_ascii=False) + "\n")


def _named_from(folder: Path, record: dict[str, Any]) -> dict[str, Any]:
    """The record with its rule file named from ``folder``, if it was named by an absolute path."""
    file = record.get("file")
    if record.get("bundled") or not isinstance(file, str) or not Path(file).is_absolute():
        return record
    try:
        relative = os.path.relpath(file, folder)
    except ValueError:  # on another drive (Windows): only the absolute path names it
        return record
    return {**record, "file": Path(relative).as_posix()}


def another_run(path: str | Path, games: Sequence[Game], seatings: Sequence[Sequence[str]]) -> str | None:
    """What sets the records already in ``path`` apart from a run of ``games`` seated as one of ``seatings``.

    ``games`` are the loaded games a run plays: one for ``simulate``, one per value for
    ``compare``. None when every record is of such a run, or there is none: records of
    one setting may be appended run after run, and only the first record of another is
    named, by how it differs from the first game (as "records of another game (...)").
    Damaged lines are left for replay to report.
    """
    game = games[0]
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            return None  # a device or a pipe (/dev/full, /dev/stdout) holds no records to read
        with open(path, "rb") as f:
            for number, raw in enumerate(f, start=1):  # a binary file splits at \n alone, as JSON Lines does
                if not raw.strip():
                    continue
                try:
                    record = _parse_line(f"{path}:{number}", raw)
                except RecordError:
                    continue
                difference = _difference(record, game, seatings)
                if difference is not None and all(_difference(record, g, seatings) for g in games[1:]):
                    return difference
    except OSError:
        return None
    return None


def _difference(record: dict[str, Any], game: Game, seatings: Sequence[Sequence[str]]) -> str | None:
    """How a record's game differs from ``game`` seated as one of ``seatings``; None if not."""
    then = str(record["rules_sha256"])
    if then != rules_hash(game, record["format"]):
        rules = f"{record['file']}, sha256 {then[:12]}..."
        recorded = record.get("game")
        if recorded is not None and recorded != game.name:
            return f"records of another game, {recorded} ({rules})"
        return f"records of {game.name} played with other rules ({rules})"
    settings = []
    if record["players"] != game.players:
        settings.append(f"{counted(record['players'], 'player')}, not {game.players}")
    elif "seats" in record and record["seats"] not in [list(s) for s in seatings]:
        rotated = " rotated" if len(seatings) > 1 else ""
        settings.append(f"seats {','.join(record['seats'])}, not {','.join(seatings[0])}{rotated}")
    then_options, now_options = record["options"], game.options
    changed = sorted(k for k in {*then_options, *now_options} if then_options.get(k) != now_options.get(k))
    if changed:
        settings.append(f"options {_options(then_options, changed)}, not {_options(now_options, changed)}")
    bound = record.get("max_actions", DEFAULT_MAX_ACTIONS)
    if bound != game.max_actions:
        settings.append(f"at most {bound:,} actions a game, not {game.max_actions:,}")
    return f"records of {game.name} with other settings ({'; '.join(settings)})" if settings else None


def _options(values: dict[str, Any], names: Sequence[str]) -> str:
    return ", ".join(f"{k}={show_value(values[k])}" if k in values else f"{k} unset" for k in names)


# ============================================================================ reading


@define(frozen=True)
class Entry:
    """A non-blank line of a records file: the record it holds, or why it holds none.

    Lines are counted as records whether readable or not, so that record K is the K-th
    non-blank line even when a line before it is damaged.
    """

    line: int
    record: dict[str, Any] | None
    problem: RecordError | None


def read_records(path: str | Path) -> list[dict[str, Any]]:
    """Read every record of a JSON Lines file; raise RecordError naming the first bad line."""
    records = []
    for entry in read_entries(path):
        if entry.problem is not None:
            raise entry.problem
        assert entry.record is not None
        records.append(entry.record)
    return records


def read_entries(path: str | Path) -> list[Entry]:
    """Read each non-blank line of a JSON Lines file as a record, or as why it is none; RecordError if unreadable."""
    try:
        data = read_regular_file(path, MAX_RECORDS_BYTES)
    except FileTooLargeError as exc:
        raise RecordError(
            f"cannot read '{path}': {exc.size:,} bytes, and a file of records may have at most "
            f"{MAX_RECORDS_BYTES:,}; split it"
        ) from None
    except OSError as exc:
        raise RecordError(f"cannot read '{path}': {exc.strerror or exc}") from None
    entries = []
    # Split at \n alone: JSON Lines ends a record there, and a label may hold other line breaks (U+2028).
    for number, raw in enumerate(data.split(b"\n"), start=1):
        if raw.strip():
            try:
                entries.append(Entry(number, _parse_line(f"{path}:{number}", raw), None))
            except RecordError as exc:
                entries.append(Entry(number, None, exc))
    return entries


def _parse_line(where: str, raw: bytes) -> dict[str, Any]:
    """Return the record a line holds, checked against the format; RecordError naming ``where`` and the field."""
    try:
        record = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise RecordError(f"{where}: not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise RecordError(f"{where}: not a JSON record ({exc.msg})") from None
    except (ValueError, RecursionError):  # a number too long, lists nested too deep
        raise RecordError(f"{where}: not a JSON record ruledsl can read") from None
    if not isinstance(record, dict):
        raise RecordError(f"{where}: a record is a JSON object")
    # As in a rule file (E102): a record's texts are printed, and a terminal obeys control characters.
    for key, value in record.items():
        char = _unshowable(key) or _unshowable(value)
        if char is not None:
            named = f"the record's field {key!r}" if _unshowable(key) is None else "the name of a field"
            raise RecordError(
                f"{where}: {named} holds the control character U+{ord(char):04X}, which a terminal "
                "could obey; ruledsl writes none in a record"
            )
    if "format" in record and record["format"] not in READ_FORMATS:
        raise RecordError(
            f"{where}: the record's format is {_shown(record['format'])}; this version of ruledsl reads "
            f"{or_list(READ_FORMATS)}"
        )
    missing = [key for key, (required, *_) in _FIELDS.items() if required and key not in record]
    if missing:
        raise RecordError(f"{where}: the record lacks {', '.join(repr(k) for k in missing)}")
    for key, (_, fits, item_fits, what) in _FIELDS.items():
        wrong = _wrong(record[key], fits, item_fits) if key in record else None
        if wrong is not None:
            raise RecordError(f"{where}: the record's {key!r} must be {what}, {wrong}")
    error = record.get("error")
    if error is not None and not (_text(error.get("code")) and _text(error.get("message"))):
        raise RecordError(f"{where}: the record's 'error' lacks its code or its message")
    for key in ("seats", "returns"):
        if key in record and len(record[key]) != record["players"]:
            raise RecordError(
                f"{where}: the record's {key!r} has {len(record[key])} entries "
                f"for {counted(record['players'], 'player')}"
            )
    return record


def _unshowable(value: Any) -> str | None:
    """A character of a JSON value's texts (object keys included) that a terminal could obey, or None:
    those of UNSHOWABLE, and a carriage return, which a record never needs (it could write over a line)."""
    stack = [value]
    while stack:  # no recursion: JSON may nest as deep as its reader allows
        item = stack.pop()
        if isinstance(item, str):
            found = UNSHOWABLE.search(item)
            if found:
                return found[0]
            if "\r" in item:
                return "\r"
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return None


def _wrong(value: Any, fits: Callable[[Any], bool], item_fits: Callable[[Any], bool] | None) -> str | None:
    """What is wrong with a field's value, or with its first bad item; None if nothing is.

    An item is named by its kind, not shown: a list of labels holds what each seat saw.
    """
    if not fits(value):
        return f"not {_shown(value)}"
    if item_fits is not None:
        items = value.items() if isinstance(value, dict) else enumerate(value, start=1)
        for name, item in items:
            if not item_fits(item):
                named = repr(name) if isinstance(value, dict) else f"item {name}"
                return f"but {named} is {_kind(item)}"
    return None


def _shown(value: Any) -> str:
    """A field's value: a single value as JSON, cut short if long; a list or an object by its kind."""
    if isinstance(value, (list, dict)):
        return _kind(value)
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:39] + "…"


def _kind(value: Any) -> str:
    """What kind of JSON value ``value`` is, for messages."""
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    kinds = {str: "a text", int: "a whole number", float: "a number", list: "a list", dict: "an object"}
    return kinds[type(value)]


def _whole(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)  # JSON's true is no number


def _text(v: Any) -> bool:
    return isinstance(v, str)


def _flag(v: Any) -> bool:
    return isinstance(v, bool)


# What each field of a record must be: (required, test, test of each item of a list or object, what it must be).
_FIELDS: dict[str, tuple[bool, Callable[[Any], bool], Callable[[Any], bool] | None, str]] = {
    "format": (True, _text, None, "a text"),
    "ruledsl": (False, _text, None, "a text"),
    "game": (False, _text, None, "a text"),
    "file": (True, lambda v: _text(v) and v != "", None, "the path of a rule file"),
    "bundled": (False, _flag, None, "true or false"),
    "rules_sha256": (True, lambda v: _text(v) and re.fullmatch(r"[0-9a-f]{64}", v) is not None, None, "64 hex digits"),
    "players": (True, lambda v: _whole(v) and v >= 1, None, "a whole number of at least 1"),
    "options": (
        True,
        lambda v: isinstance(v, dict),
        lambda x: isinstance(x, (bool, int, str)),
        "an object of option values (true or false, whole numbers, texts)",
    ),
    "max_actions": (False, lambda v: _whole(v) and v >= 1, None, "a whole number of at least 1"),
    "seed": (True, _whole, None, "a whole number"),
    "seats": (False, lambda v: isinstance(v, list), _text, "a list of agents (texts)"),
    "rotate": (False, _flag, None, "true or false"),
    "actions": (True, lambda v: isinstance(v, list), _text, "a list of action labels (texts)"),
    "actors": (False, lambda v: isinstance(v, list), _whole, "a list of seats (whole numbers)"),
    "returns": (False, lambda v: isinstance(v, list), lambda x: _whole(x) or isinstance(x, float), "a list of numbers"),
    "truncated": (False, _flag, None, "true or false"),
    "unfinished": (False, _flag, None, "true or false"),
    "stuck": (False, _flag, None, "true or false"),
    "error": (
        False,
        lambda v: isinstance(v, dict),
        lambda x: x is None or _whole(x) or _text(x),
        "an object of the error's code, message and hint (texts) and place (whole numbers)",
    ),
}


# ============================================================================ replaying


def check_rules(record: dict[str, Any], game: Game) -> None:
    """Refuse a record made with another version of the rule file (RecordError)."""
    problem = _mismatch(record, game.path, game.name, rules_hash(game, record["format"]))
    if problem is not None:
        raise problem


def _mismatch(record: dict[str, Any], shown: str, name: str, now: str) -> RecordError | None:
    """Why rules (``shown``, declaring game ``name``, of hash ``now``) are not the record's; None if they are."""
    then = str(record["rules_sha256"])
    if then == now:
        return None
    recorded = record.get("game")
    if recorded is not None and recorded != name:
        return RecordError(
            f"'{shown}' is another game ('{name}') than the one recorded ('{recorded}'); "
            "a replay needs the rule file the game was played with"
        )
    return RecordError(
        f"'{shown}' has changed since this game was recorded (rules sha256 {then[:12]}... then, "
        f"{now[:12]}... now); a replay needs the rule file the game was played with"
    )


def version_note(record: dict[str, Any]) -> str:
    """Name the ruledsl version a record was written with, when it is not this one ('' otherwise).

    A record is never refused for its version; but when a replay fails, another version of
    the engine (or of the layout its rules hash is taken of) may be why.
    """
    then = record.get("ruledsl")
    if not isinstance(then, str) or then == __version__:
        return ""
    return f" (the game was recorded with ruledsl {then}, another version than this one)"


def load_recorded_game(record: dict[str, Any], rules: str | None = None, folder: str | Path | None = None) -> Game:
    """Load the game a record was played with (``rules``, or the bundled game it names), with its players,
    options and bound.

    A record is untrusted: the path it names is never read (it could name any file), only
    said, with ``folder``, that of the record's file, to tell where it was. Without
    ``rules``, only a bundled game is loaded: the one the record names, or, for a record that
    names another file by a bare name (as records written before they said whether it was
    bundled do), the bundled game of that name. Their hash is compared before they are checked, so a changed
    file is refused with RecordError rather than with whatever error its new text may hold.
    """
    path, shown = (resolve_path(rules), rules) if rules is not None else _bundled_rules(record, folder)
    source = read_source(path, shown)
    try:
        name, now = _canonical(source.text, source.path, record["format"])
    except RuleDslError as exc:
        raise RecordError(
            f"'{shown}' has changed since this game was recorded: it no longer parses ({exc}); "
            "a replay needs the rule file the game was played with"
        ) from None
    problem = _mismatch(record, shown, name, now)
    if problem is not None:
        raise problem
    # Records written before they held the action bound were played with the default one.
    bound = record.get("max_actions", DEFAULT_MAX_ACTIONS)
    return load_checked(check_source(source), record["players"], record["options"], bound, path.resolve())


def _bundled_rules(record: dict[str, Any], folder: str | Path | None) -> tuple[Path, str]:
    """The bundled game a record names, with how to name it; RecordError saying how to give any other rules."""
    file = Path(record["file"])
    bundled = named_games().get(file.stem) if file.suffix == ".game" and file.name == record["file"] else None
    if record.get("bundled"):
        if bundled is None:
            raise RecordError(
                f"this game was recorded with the bundled game '{file.stem}', which this version of ruledsl "
                "does not have; give its rules with --rules FILE"
            )
    elif bundled is None:
        where = (
            ""
            if folder is None or file.is_absolute()
            else f" (next to the record: '{os.path.normpath(Path(folder) / file)}')"
        )
        raise RecordError(
            f"this game was played with the rule file '{file}'{where}, and a replay reads no file a record "
            "names; give it with --rules FILE"
        )
    return bundled, shown_path(file.stem, bundled)


def replay(record: dict[str, Any], game: Game) -> GameState:
    """Play a record again on ``game`` (which must be the record's: see ``check_rules``); return the last state.

    A stuck record's game raises the rule error that stopped it (see ``meet_error``).
    """
    check_rules(record, game)
    state = game.new_initial_state(seed=int(record["seed"]))
    for number, label in enumerate(record["actions"], start=1):
        apply_label(state, label, number)
    meet_error(record, state)
    return state


def meet_error(record: dict[str, Any], state: GameState) -> None:
    """Raise again the rule error that stopped a stuck record's game, at ``state``, where its actions end.

    An error met in an action was raised by replaying it (the record's last); here is the one
    of a player to act without a legal action (R506), met again from the state. One the
    replay cannot meet, as when a bot met it looking ahead on a trial game, is raised as
    recorded, saying so. A record not marked stuck raises nothing.
    """
    if not record.get("stuck"):
        return
    n = len(record["actions"])
    where = f"after {n} action{'s' if n != 1 else ''}"
    if state.is_terminal():
        raise RecordError(f"the record says the rules stopped its game {where}, but the game ends there in the replay")
    if not state.legal_actions():  # a rule of a 'when' condition may fail here too: the same error again
        raise stuck_error(state)
    recorded = record.get("error")
    if recorded is None:
        raise RecordError(f"the record says the rules stopped its game {where}, but the replay goes on there")
    raise RuleRuntimeError([_recorded_diagnostic(recorded, state.game)])


def _recorded_diagnostic(fields: dict[str, Any], game: Game) -> Diagnostic:
    """The diagnostic of an error as a record holds it, placed in the game's rule file if it has a place."""
    span = None
    line, column = fields.get("line"), fields.get("column")
    if isinstance(line, int) and isinstance(column, int):
        end_line, end_column = fields.get("end_line"), fields.get("end_column")
        end = Pos(end_line, end_column, 0) if isinstance(end_line, int) and isinstance(end_column, int) else None
        span = Span(Pos(line, column, 0), end or Pos(line, column + 1, 0))
    note = (
        "as recorded: the replay does not meet this error itself, as when a bot met it looking ahead "
        "(a replay does not repeat that), or when another version of ruledsl recorded the game"
    )
    hint = fields.get("hint")
    return Diagnostic(
        str(fields["code"]),
        str(fields["message"]),
        span,
        f"{hint}; {note}" if isinstance(hint, str) else note,
        source=game.source,
    )


def apply_label(state: GameState, label: str, number: int) -> None:
    """Apply the legal action that reads ``label``, the record's action ``number``; RecordError if none does."""
    if state.is_terminal():
        raise RecordError(f"action {number} ('{label}') comes after the end of the game")
    found = state.actions_reading(label)
    if not found:
        raise RecordError(f"action {number} ('{label}') is not legal at that point of the replay")
    if len(found) > 1:
        raise RecordError(
            f"action {number} ('{label}') reads like {len(found)} legal actions at that point of the replay, "
            "so the record cannot say which was played; the rules' labels must tell them apart "
            "(a card chosen by its place, for one, by '{position of c}')"
        )
    state.apply_action(found[0])


# ============================================================================ rendering


def describe_view(
    obs: dict[str, Any], seat: int, labels: Mapping[str, str] | None = None, *, display: Display | None = None
) -> list[str]:
    """Render what ``seat`` sees, from its observation alone (so nothing hidden can show).

    ``labels`` gives, by card name, how a card reads where it is listed (the game's
    ``label card``; see ``labels_by_name``).

    An empty zone reads "(empty)" wherever it lies: everybody can see that it holds no card,
    even when the observation lists no cards for it (in a game that turns cards face up or
    down, a zone lists only the cards the viewer sees). The other players' zones of a kind
    ``display`` (``display_of(prog)``) shows the zones and variables as the rule file says: the
    cards of a `sorted by` zone in order, a zone `unlisted when empty` left out while empty, a
    variable by its `label`.

    The other players' zones of a kind
    share one line in one form: their cards where any of them shows a card, or all are empty
    (``faceup: P1: 8♦, Q♥; P2: (empty); P3: 3 cards``), else how many each holds (``hand: P1
    3, P2 0``).
    """
    lines = [f"--- round {obs['round']}, phase {obs['phase']}, {obs['direction']}"]
    for name, zone in _shown_zones(obs, display):
        if isinstance(zone, list):
            if _lists_cards(zone[seat]) and zone[seat].get("listed", True):
                lines.append(f"your {name}: {_cards(zone[seat], labels)}")
            others = [
                (q, z) for q, z in enumerate(zone) if (q != seat or not _lists_cards(z)) and z.get("listed", True)
            ]
            who = {q: "you" if q == seat else f"P{q}" for q, _ in others}
            if not others:
                pass  # alone at the table: no other player's zone to show
            elif any(z.get("cards") for _, z in others) or all(_lists_cards(z) for _, z in others):
                # The cards of one player are joined by commas, the players by semicolons.
                lines.append(
                    f"{name}: "
                    + "; ".join(f"{who[q]}: {_cards(z, labels) if _lists_cards(z) else _count(z)}" for q, z in others)
                )
            else:
                lines.append(f"{name}: " + ", ".join(f"{who[q]} {z['size']}" for q, z in others))
        elif _lists_cards(zone):
            top = zone["size"] > 1 and not (display and name in display.keys)
            lines.append(f"{name}: {_cards(zone, labels)}" + (" (top last)" if top else ""))
        else:
            lines.append(f"{name}: {_count(zone)}")
    lines += _told_lines(obs, seat)
    named = display.label if display else str
    shown_vars = listed_variables(obs)
    if shown_vars:
        lines.append("  " + ", ".join(f"{named(k)} {show_value(v)}" for k, v in shown_vars.items()))
    for name, values in listed_player_variables(obs).items():
        lines.append(
            f"  {named(name)}: "
            + ", ".join(
                f"{'you' if q == seat else f'P{q}'} {show_value(v)}" for q, v in enumerate(values) if v is not None
            )
        )
    if obs["auction"]:
        a = obs["auction"]
        passed = [f"P{q}" for q, x in enumerate(a["passed"]) if x]
        standing = f"{a['standing']} by P{a['bidder']}" if a["standing"] else "no bid yet"
        lines.append(f"  auction: {standing}" + (f"; passed: {', '.join(passed)}" if passed else ""))
    together = obs.get("together")
    if together:  # a phase played together: who has chosen in secret (never what), who is awaited
        chosen = ", ".join("you" if q == seat else f"P{q}" for q in together["chosen"]) or "nobody yet"
        waiting = ", ".join("you" if q == seat else f"P{q}" for q in together["waiting"])
        lines.append(f"  choosing together: chosen: {chosen}; still to choose: {waiting}")
    picking = obs.get("picking")
    if picking:  # a set of cards he is choosing one by one (his view alone has it)
        cards = ", ".join(labels.get(c, c) if labels else c for c in picking["cards"]) or "none yet"
        lines.append(f"  picking cards to {picking['action'].replace('_', ' ')}: {cards}")
    window = obs.get("window")
    if window and window["player"] == seat:
        lines.append(f"  out of turn: you may act in '{window['name']}' before play goes on")
    if obs["finished"]:
        lines.append("  out: " + ", ".join(f"P{q}" for q in obs["finished"]))
    return lines


def person_view(state: GameState, seat: int) -> list[str]:
    """What ``seat`` sees, as a person is shown it: from his observation alone, the cards as the game labels them,
    the zones and variables as the rule file says to show them."""
    return describe_view(state.observation(seat), seat, labels_by_name(state.prog), display=display_of(state.prog))


def _shown_zones(obs: dict[str, Any], display: Display | None) -> list[tuple[str, Any]]:
    """The zones of an observation as ``display`` shows them: a sorted zone's cards in order, an instance
    `unlisted when empty` that holds nothing marked ``listed: False``."""
    if display is None:
        return list(obs["zones"].items())

    def shown(name: str, zone: dict[str, Any]) -> dict[str, Any]:
        out = {**zone, "listed": display.listed(name, zone["size"])}
        if zone.get("cards") is not None:
            out["cards"] = display.cards(name, zone["cards"])
        return out

    zones: list[tuple[str, Any]] = []
    for name, zone in obs["zones"].items():
        if isinstance(zone, list):
            zones.append((name, [shown(name, z) for z in zone]))
        elif display.listed(name, zone["size"]):
            zones.append((name, shown(name, zone)))
    return zones


def listed_variables(obs: dict[str, Any]) -> dict[str, Any]:
    """The game variables of an observation worth a place in a person's view: not marked ``unlisted``, and set
    (unset values, empty lists and false flags say nothing worth a place; 0 is a number like any other)."""
    unlisted = set(obs.get("unlisted", ()))
    return {
        k: v for k, v in obs["variables"].items() if k not in unlisted and v is not None and v is not False and v != []
    }


def _told_lines(obs: dict[str, Any], seat: int | None) -> list[str]:
    """What every player was told of the cards of each zone (card variables written 'public': a
    hint), place by place, bottom to top, '-' where nothing was (``told_colour of your hand: -, red``)."""
    lines = []
    for name, zone in obs["zones"].items():
        for q, z in enumerate(zone) if isinstance(zone, list) else [(None, zone)]:
            whose = name if q is None else f"your {name}" if q == seat else f"P{q}'s {name}"
            for var, values in z.get("told", {}).items():
                told = ", ".join("-" if v is None else show_value(v) for v in values)
                lines.append(f"  {var} of {whose}: {told}")
    return lines


def listed_player_variables(obs: dict[str, Any]) -> dict[str, list[Any]]:
    """The player variables of an observation worth a line of a person's view: not marked
    ``unlisted``, and with some value he may read set (a bid nobody has made, cards nobody has drawn, say
    nothing)."""
    unlisted = set(obs.get("unlisted", ()))
    return {
        k: values
        for k, values in obs["player_variables"].items()
        if k not in unlisted and any(v is not None and v != [] for v in values)
    }


def _lists_cards(zone: dict[str, Any]) -> bool:
    """Whether a zone's cards are written out: some are seen, or there are none to see."""
    return "cards" in zone or zone["size"] == 0


def _count(zone: dict[str, Any]) -> str:
    return f"{zone['size']} card{'s' if zone['size'] != 1 else ''}"


def _cards(zone: dict[str, Any], labels: Mapping[str, str] | None) -> str:
    cards = zone.get("cards", [])
    return ", ".join("?" if c is None else labels.get(c, c) if labels else c for c in cards) or "(empty)"


def labels_by_name(prog: Program) -> dict[str, str]:
    """How each card reads to people, by name; empty when the game gives no ``label card``."""
    if prog.card_labels == prog.card_names:
        return {}
    return dict(zip(prog.card_names, prog.card_labels))


def result_lines(state: GameState) -> list[str]:
    """Render the end of a game: the winner or the ranking, and the returns."""
    ret = state.returns()
    # Alone at the table, the player's score (the number his ranking starts with) is told with his result.
    score = state.score() if len(ret) == 1 else None
    scored = "" if score is None else f", score {score}"
    if state.truncated:
        return [
            f"Result: stopped at the action bound, after {state.n_actions:,} actions, without an end: no winner"
            + scored
        ]
    winners = winners_of(ret)
    if not winners and ret and max(ret) < 0:
        lines = [f"Result: P0 loses{scored}" if len(ret) == 1 else "Result: every player loses"]
        return [*lines, "Returns: " + ", ".join(f"P{q} {r:+g}" for q, r in enumerate(ret))]
    if not winners:
        return [f"Result: P0 neither wins nor loses{scored}" if len(ret) == 1 else "Result: a draw"]
    lines = []
    if len(winners) == 1:
        lines.append(f"Result: P{winners[0]} wins{scored}")
    elif len(winners) == len(ret):
        lines.append("Result: every player wins")
    else:
        lines.append("Result: " + ", ".join(f"P{q}" for q in winners) + " share the win")
    if state.prog.ranking != "none" and len(set(ret)) > 2:
        order = state.ranking()
        lines.append("Ranking: " + "; ".join(", ".join(f"P{q}" for q in group) for group in order))
    lines.append("Returns: " + ", ".join(f"P{q} {r:+g}" if r else f"P{q} 0" for q, r in enumerate(ret)))
    return lines


def forced_line(seat: int, seen: str) -> str:
    """The line of a seat's only legal move, played for him without a prompt."""
    return f"P{seat} (you): {seen} (your only move)"


def view_due(forced: bool, state: GameState, last_seen: int | None) -> bool:
    """Whether a player about to act is shown his view first: always when he chooses; before
    a lone legal move, only if he has not seen it yet this round (``last_seen``: the round
    he last saw it in), so that a new deal (a trump turned, a new hand) is never skipped."""
    return not forced or last_seen != state.round


def render_replay(record: dict[str, Any], game: Game, viewer: int | None) -> Iterator[str]:
    """Yield the lines of a replay as ``viewer`` saw the game (None: a spectator).

    Each action reads as ``viewer`` saw it when it was taken; before each of the viewer's
    own actions comes his view, drawn from his observation alone, as ``play`` showed it
    to him; but for a lone legal move, which ``play`` plays at once and notes in a line
    (``forced_line``), with his view first only if he had not seen it that round
    (``view_due``). Cards he never saw stay hidden.
    A stuck record's game is replayed up to the error that stopped it, which is then
    raised (a RuleRuntimeError, as in ``play``).
    """
    check_rules(record, game)
    seats = record.get("seats") or ["?"] * game.players
    label = ", ".join(f"P{q} {spec}" for q, spec in enumerate(seats))
    who = "as a spectator saw it" if viewer is None else f"as P{viewer} saw it"
    yield f"{game.name}: {counted(game.players, 'player')} ({label}), seed {record['seed']}; replayed {who}"
    state = game.new_initial_state(seed=int(record["seed"]), log=True)
    for line in state.take_log(viewer):
        yield f"  {line}"
    last_seen: int | None = None  # the round the viewer last saw his view in
    for number, text in enumerate(record["actions"], start=1):
        actor = state.current_player()
        forced = actor == viewer and len(state.legal_actions()) == 1
        if actor == viewer and view_due(forced, state, last_seen):
            yield from person_view(state, viewer)
            last_seen = state.round
        apply_label(state, text, number)
        seen = state.describe_last(viewer)
        if forced:
            yield forced_line(actor, seen)
        elif seen:
            yield f"P{actor}: {seen}"
        for line in state.take_log(viewer):
            yield f"  {line}"
    meet_error(record, state)  # as play stopped: with the error, no result
    if state.is_terminal():
        yield from result_lines(state)
        return
    if state.current_player() == viewer:  # what he had before him when he left
        yield from person_view(state, viewer)
    n = len(record["actions"])
    yield f"Result: the game was left unfinished after {n} action{'s' if n != 1 else ''}"
