"""The files the commands write: game logs, tables and plots, each checked before any game is played."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from ruledsl.cli.exits import Usage

if TYPE_CHECKING:
    from pathlib import Path

    from ruledsl.engine.game import Game


def open_log(path: str | None) -> None:
    """Make sure the game log can be written before any game is played (and its record lost)."""
    if path is None:
        return
    try:
        with open(path, "a", encoding="utf-8"):
            pass
    except OSError as exc:
        raise Usage(f"cannot write the game log '{path}': {exc.strerror or exc}") from None


def warn_another_run(path: str, games: Sequence[Game], seatings: Sequence[Sequence[str]]) -> None:
    """Say once, before playing, that the game log holds records of another run.

    Appending runs is allowed; mixing games or settings in one file may not be meant.
    """
    from ruledsl.text.render import one_line
    from ruledsl.tools.records import another_run

    difference = another_run(path, games, seatings)
    if difference is not None:  # it quotes the records, whose texts may hold line breaks
        print(one_line(f"warning: '{path}' already holds {difference}; appending anyway"), file=sys.stderr)


def write_log(path: str, records: list[dict[str, Any]]) -> None:
    """Append game records to the game log."""
    from ruledsl.tools.records import write_records

    try:
        write_records(path, records)
    except OSError as exc:
        raise Usage(f"cannot write the game log '{path}': {exc.strerror or exc}") from None


def plot_target(path: str) -> str:
    """Check, before any game is played, that --plot can draw to ``path``; return the file to write.

    A name without an extension gets '.png', as matplotlib would give it.
    """
    import importlib.util
    from pathlib import Path

    if importlib.util.find_spec("matplotlib") is None:
        raise Usage("--plot needs matplotlib: pip install 'ruledsl[plot]' (or pip install matplotlib)")
    from matplotlib.backend_bases import FigureCanvasBase

    target = Path(path)
    if target.is_dir():
        raise Usage(f"--plot names a file to draw into, and '{path}' is a directory")
    kinds = sorted(FigureCanvasBase.get_supported_filetypes())
    kind = target.suffix[1:].lower()
    if not kind:
        target, kind = target.with_name(target.name + ".png"), "png"
    if kind not in kinds:
        raise Usage(f"--plot cannot draw a '.{kind}' file; name a file ending in one of: {', '.join(kinds)}")
    check_writable(target, "--plot", "the plot")
    return str(target)


def check_writable(target: Path, option: str, what: str) -> None:
    """Refuse, before any game is played, a file ``option`` names that could not be written."""
    if target.is_dir():
        raise Usage(f"{option} names a file to write, and '{target}' is a directory")
    folder = target.parent
    if not folder.is_dir():
        raise Usage(f"cannot write {what} '{target}': no folder '{folder}'")
    if not os.access(folder, os.W_OK) or (target.exists() and not os.access(target, os.W_OK)):
        raise Usage(f"cannot write {what} '{target}': permission denied")


def write_table(path: str, rows: Sequence[Sequence[Any]], mode: str) -> None:
    """Write rows of --csv's table: the header anew ("w"), then each game's row as it ends ("a")."""
    import csv

    try:
        with open(path, mode, encoding="utf-8", newline="") as f:
            csv.writer(f, lineterminator="\n").writerows(rows)
    except OSError as exc:
        raise Usage(f"cannot write the table '{path}': {exc.strerror or exc}") from None
