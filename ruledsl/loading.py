"""Load a game: find and read its rule file, parse and check it, take players and options, compile it.

The pipeline of the front door (``ruledsl.load_game``): its result is an engine ``Game``,
which starts states.
"""

from __future__ import annotations

import functools
import hashlib
from pathlib import Path
from typing import Any

from attrs import define

from ruledsl.analysis.checker import CheckedGame, check
from ruledsl.analysis.declarations import PLAYERS_HINT, players_message, valid_players
from ruledsl.analysis.loadtime import LoadTimeError, LoadTimeValues, load_error, option_values
from ruledsl.engine.game import Game
from ruledsl.engine.limits import DEFAULT_MAX_ACTIONS, MAX_INTEGER, MAX_TEXT, too_long_text
from ruledsl.engine.program import Program
from ruledsl.resources import named_games
from ruledsl.syntax import nodes as n
from ruledsl.syntax.parser import MAX_SOURCE_BYTES, gc_paused, parse_source
from ruledsl.text.errors import CheckError, Diagnostic, OptionError, SourceError
from ruledsl.text.files import FileTooLargeError, NotRegularFileError, read_regular_file
from ruledsl.text.render import clip, counted, did_you_mean
from ruledsl.text.source import Source

_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}
_NOT_REGULAR_HINT = "a rule file is a regular file: a device, a pipe or a socket is never read"


@define(frozen=True)
class OptionInfo:
    """An option of a game, as its rule file declares it."""

    name: str
    kind: str  # "flag", "number" or "choice"
    default: Any  # with the game's lowest player count
    doc: str | None
    low: int | None = None
    high: int | None = None
    choices: tuple[str, ...] = ()


def resolve_path(game: str | Path) -> Path:
    """Return the rule file a game argument names: a path, or a bundled game's name."""
    path = Path(game)
    named_as_path = "/" in str(game) or "\\" in str(game)
    # A folder counts only when named as a path: one named like a bundled game does not hide it.
    if _is_file(path) or (named_as_path and _exists(path)):
        return path
    if path.suffix == ".game" or named_as_path:
        bundled = named_games().get(path.stem)
        if bundled is not None and path.parent == Path("."):
            return bundled
        if _exists(path):
            return path  # a folder: read_source says so
        raise SourceError(
            [_file_diagnostic(str(game), "E001", f"cannot read '{clip(str(game), 200)}': no such file", None)]
        )
    games = named_games()
    if str(game) in games:
        return games[str(game)]
    if _exists(path):
        return path  # a folder: read_source says so
    raise SourceError(
        [
            _file_diagnostic(
                str(game),
                "E004",
                f"unknown game '{clip(str(game), 200)}': not a file, nor a bundled game",
                # Past a dozen games the hint names the closest, not them all: `ruledsl list` does.
                did_you_mean(str(game), games, "games")
                or "give the path of a .game file, or a game `ruledsl list` shows",
            )
        ]
    )


def read_source(path: Path, shown: str | None = None) -> Source:
    """Read a rule file: it must be a regular file, be UTF-8 and be at most 1 MB."""
    shown = shown or str(path)
    return decode_source(read_rule_bytes(path, shown), shown)


def read_rule_bytes(path: Path, shown: str | None = None) -> bytes:
    """Read the bytes of a rule file: a regular file (never a device or a pipe) of at most 1 MB; else SourceError."""
    shown = shown or str(path)
    try:
        return read_regular_file(path, MAX_SOURCE_BYTES)
    except FileTooLargeError as exc:
        raise SourceError(
            [
                _file_diagnostic(
                    shown,
                    "E002",
                    f"file too large ({exc.size:,} bytes; a rule file may have at most {MAX_SOURCE_BYTES:,})",
                    "a rule file describes one game",
                )
            ]
        ) from None
    except IsADirectoryError:
        raise SourceError(
            [_file_diagnostic(shown, "E001", f"cannot read '{shown}': it is a directory", None)]
        ) from None
    except NotRegularFileError as exc:
        raise SourceError(
            [_file_diagnostic(shown, "E001", f"cannot read '{shown}': {exc}", _NOT_REGULAR_HINT)]
        ) from None
    except OSError as exc:
        raise SourceError(
            [_file_diagnostic(shown, "E001", f"cannot read '{shown}': {exc.strerror or exc}", None)]
        ) from None


def decode_source(data: bytes, shown: str) -> Source:
    """Return the text of a rule file's bytes as a Source named ``shown``; SourceError (E003) if not UTF-8."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        # Placed as the parser would count: lines end at \r\n, \r or \n, columns are
        # characters (the bytes before the bad one decode), after any byte-order mark.
        source = Source(shown, _without_bom(data.decode("utf-8", "replace")))
        before = _without_bom(data[: exc.start].decode("utf-8"))
        span = source.span_at(len(before), len(before) + 1)
        raise SourceError(
            [
                Diagnostic(
                    "E003",
                    f"the file is not valid UTF-8 (byte {exc.start:,}, line {span.start.line})",
                    span,
                    "save the file as UTF-8",
                    source=source,
                )
            ]
        ) from None
    return Source(shown, _without_bom(text))


def _is_file(path: Path) -> bool:
    """Whether ``path`` is a file; False for a name the system refuses (too long, a NUL byte in it)."""
    try:
        return path.is_file()
    except (OSError, ValueError):
        return False


def _exists(path: Path) -> bool:
    """Whether ``path`` exists; False for a name the system refuses (too long, a NUL byte in it)."""
    try:
        return path.exists()
    except (OSError, ValueError):
        return False


def _without_bom(text: str) -> str:
    """The text without an editor's byte-order mark, which is not part of the rules."""
    return text[1:] if text.startswith("\ufeff") else text


def _file_diagnostic(path: str, code: str, message: str, hint: str | None) -> Diagnostic:
    return Diagnostic(code, message, None, hint, source=Source(path, ""))


@functools.lru_cache(maxsize=32)
def _checked_cached(path: str, digest: str, text: str) -> CheckedGame:
    source = Source(path, text)
    with gc_paused():
        return check(parse_source(source), source)


def check_source(source: Source) -> CheckedGame:
    """Parse and check a rule file's source (cached by content); raise RuleDslError."""
    digest = hashlib.sha256(source.text.encode("utf-8", "surrogatepass")).hexdigest()
    return _checked_cached(source.path, digest, source.text)


def check_file(game: str | Path) -> CheckedGame:
    """Parse and check a rule file, or a bundled game by name."""
    path = resolve_path(game)
    return check_source(read_source(path, shown_path(game, path)))


def shown_path(game: str | Path, path: Path) -> str:
    """How to name a rule file in messages: as given, or a bundled game's file name."""
    if path == Path(game):
        return str(game)  # as given, not found among the bundled games
    if "_data" in path.parts:
        return path.name  # a game bundled in an installed package
    try:
        return str(path.resolve().relative_to(Path.cwd().resolve()))  # a checkout's games/x.game
    except ValueError:
        return path.name


def players_range(checked: CheckedGame) -> tuple[int, int]:
    """Return the least and the most players a checked game allows."""
    load = LoadTimeValues(checked, 0, {})
    decl = checked.players_decl
    try:
        low, high = load.value(decl.low), load.value(decl.high)
    except LoadTimeError as exc:
        raise load_error(checked, exc) from None
    # The checker tests the ranges it can work out alone; this catches the others.
    if not valid_players(low, high):
        refused = Diagnostic("E302", players_message(low, high), decl.span, PLAYERS_HINT, source=checked.source)
        raise CheckError([refused])
    return low, high


def options_of(checked: CheckedGame, players: int | None = None) -> list[OptionInfo]:
    """Return the options a game declares, with their defaults for a player count."""
    low, _ = players_range(checked)
    defaults = option_values(checked, players if players is not None else low, {})
    infos = []
    load = LoadTimeValues(checked, players or low, defaults)
    for decl in checked.options:
        sym = checked.symbols.options[decl.name]
        if isinstance(decl.domain, n.ChoiceDomain):
            infos.append(OptionInfo(decl.name, "choice", defaults[decl.name], decl.doc, choices=decl.domain.choices))
        elif sym.type.kind == "flag":
            infos.append(OptionInfo(decl.name, "flag", defaults[decl.name], decl.doc))
        elif sym.type.kind == "number":
            lo = load.value(decl.domain.low) if isinstance(decl.domain, n.RangeDomain) else None
            hi = load.value(decl.domain.high) if isinstance(decl.domain, n.RangeDomain) else None
            infos.append(OptionInfo(decl.name, "number", defaults[decl.name], decl.doc, lo, hi))
        else:
            infos.append(OptionInfo(decl.name, "text", defaults[decl.name], decl.doc))
    return infos


def coerce_options(checked: CheckedGame, given: dict[str, Any]) -> dict[str, Any]:
    """Check option names and turn command-line strings into values of the right kind."""
    out: dict[str, Any] = {}
    decls = {d.name: d for d in checked.options}
    problems: list[Diagnostic] = []
    for name, raw in given.items():
        decl = decls.get(name)
        if decl is None:
            hint = (
                did_you_mean(name, decls, "options") or "this game has no options"
                if not decls
                else did_you_mean(name, decls, "options")
            )
            problems.append(
                Diagnostic(
                    "E601",
                    f"'{checked.file.name}' has no option '{name}'",
                    checked.file.header.span,
                    hint,
                    source=checked.source,
                )
            )
            continue
        kind = checked.symbols.options[name].type.kind
        value: Any = raw
        if isinstance(decl.domain, n.ChoiceDomain):
            if str(raw) not in decl.domain.choices:
                problems.append(
                    Diagnostic(
                        "E602",
                        f"option '{name}' takes {', '.join(repr(c) for c in decl.domain.choices)}, not {str(raw)!r}",
                        decl.span,
                        None,
                        source=checked.source,
                    )
                )
                continue
            value = str(raw)
        elif kind == "flag":
            if isinstance(raw, bool):
                value = raw
            elif str(raw).lower() in _TRUE:
                value = True
            elif str(raw).lower() in _FALSE:
                value = False
            else:
                problems.append(
                    Diagnostic(
                        "E602",
                        f"option '{name}' is yes or no, not {str(raw)!r}",
                        decl.span,
                        "write true or false (also yes/no, on/off, 1/0)",
                        source=checked.source,
                    )
                )
                continue
        elif kind == "number":
            try:
                value = int(raw) if not isinstance(raw, bool) else None
            except (TypeError, ValueError):  # also a string of more than 4,300 digits
                value = None
            if value is None or not -MAX_INTEGER <= value <= MAX_INTEGER:
                problems.append(
                    Diagnostic(
                        "E602",
                        f"option '{name}' is a whole number within ±10^15, not {clip(str(raw), 40)!r}",
                        decl.span,
                        None,
                        source=checked.source,
                    )
                )
                continue
        else:
            value = str(raw)
            if len(value) > MAX_TEXT:
                problems.append(
                    Diagnostic(
                        "E602", f"option '{name}' is {too_long_text(len(value))}", decl.span, source=checked.source
                    )
                )
                continue
        out[name] = value
    if problems:
        raise OptionError(problems)
    return out


def load_game(
    game: str | Path,
    players: int | None = None,
    options: dict[str, Any] | None = None,
    max_actions: int = DEFAULT_MAX_ACTIONS,
) -> Game:
    """Load a game: a path to a .game file, or the name of a bundled game.

    ``players`` defaults to the least the game allows; ``options`` maps option names to
    values (strings such as "true" or "3" are accepted, as on the command line).
    Raises a RuleDslError subclass for anything wrong with the file, players or options.
    """
    path = resolve_path(game)
    checked = check_source(read_source(path, shown_path(game, path)))
    return load_checked(checked, players, options, max_actions, path.resolve())


def load_checked(
    checked: CheckedGame,
    players: int | None = None,
    options: dict[str, Any] | None = None,
    max_actions: int = DEFAULT_MAX_ACTIONS,
    file: Path | None = None,
    *,
    probes: bool = False,
) -> Game:
    """Compile a checked game for a player count and options.

    With ``probes``, the program tells which of its lines run (``Program.probes``): what
    ``check --simulate`` measures; a program of its own, a little slower to play.
    """
    low, high = players_range(checked)
    if players is None:
        players = low
    if not isinstance(players, int) or not low <= players <= high:
        raise OptionError(
            [
                Diagnostic(
                    "E603",
                    f"'{checked.file.name}' is for {counted(low, 'player', high)}, not {players}",
                    checked.players_decl.span,
                    f"choose a number of players from {low} to {high}",
                    source=checked.source,
                )
            ]
        )
    values = option_values(checked, players, coerce_options(checked, dict(options or {})))
    program = _compile_cached(checked, players, tuple(sorted(values.items(), key=lambda kv: kv[0])), probes)
    return Game(checked, program, max_actions, file)


@functools.lru_cache(maxsize=64)
def _compile_cached(
    checked: CheckedGame, players: int, options: tuple[tuple[str, Any], ...], probes: bool = False
) -> Program:
    # Imported here: checking a game (list, info, an editor) needs no code generator.
    from ruledsl.codegen.compiler import compile_game

    with gc_paused():  # it makes many objects and few cycles, like parsing
        return compile_game(checked, players, dict(options), probes)
