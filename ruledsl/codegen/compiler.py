"""Compile a checked game into Python functions, once per load: no tree walk per move.

The compiler writes Python source from the checked tree and compiles it. That source
holds only names the compiler makes up (``v3``, ``D2``, ``A0``...; see ``names``) and
literals it writes with ``repr``; no text of the rule file is ever executed as code. Each
line of the generated source remembers the rule it came from, so that a rule failing at
run time is reported at its place in the rule file.

This module is the driver. The parts it sets to work share a ``CompileContext``:
``layout`` (the deck, kinds and zones), ``folding`` (what options fix, what cannot fail,
what to inline), ``expressions`` and ``statements``, ``actions`` (listing and applying),
``labels``, ``checks`` (why a move is refused), ``phases`` (definitions, procedures,
triggers, phases, windows, ranking) and ``linking`` (running the source, building the Program).
"""

from __future__ import annotations

import functools
from typing import Any

from ruledsl.analysis.checked import CheckedGame
from ruledsl.analysis.loadtime import LoadTimeError, load_error, option_values
from ruledsl.analysis.moves import lays_faces
from ruledsl.analysis.symbols import ZoneSym
from ruledsl.codegen import names
from ruledsl.codegen.actions import Actions
from ruledsl.codegen.checks import Checks
from ruledsl.codegen.context import ActionInfo, CompileContext
from ruledsl.codegen.expressions import Expressions
from ruledsl.codegen.folding import Folding
from ruledsl.codegen.labels import Labels
from ruledsl.codegen.layout import MAX_DECK
from ruledsl.codegen.linking import Linker
from ruledsl.codegen.phases import Phases
from ruledsl.codegen.statements import Statements
from ruledsl.engine.program import Program
from ruledsl.engine.values import ActionDef
from ruledsl.syntax import nodes as n
from ruledsl.text.errors import Diagnostic, OptionError
from ruledsl.text.render import counted, show_value

__all__ = ["MAX_DECK", "compile_game", "listing", "listing_of"]


def compile_game(checked: CheckedGame, players: int, options: dict[str, Any], probes: bool = False) -> Program:
    """Compile a checked game for a player count and option values (already validated).

    With ``probes``, its functions tell which of their lines run (see ``Program.probes``).
    """
    try:
        return _compile(start(checked, players, options, probes))
    except LoadTimeError as exc:
        raise load_error(checked, exc) from None


def listing(checked: CheckedGame, players: int, options: dict[str, Any] | None = None) -> str:
    """The Python a game compiles to, for a designer to read: the glossary of its names, then
    each function under a comment naming its rule-file line and construct.

    ``options`` are option values (those left out take their defaults), as ``compile_game`` takes them.
    """
    return listing_of(compile_game(checked, players, option_values(checked, players, options or {})))


def listing_of(program: Program) -> str:
    """The listing of a compiled program: its glossary, then its source."""
    chosen = ", ".join(f"{name}={show_value(value)}" for name, value in sorted(program.options.items()))
    title = f"The Python {program.name!r} compiles to, for {counted(program.players, 'player')}" + (
        f" ({chosen})" if chosen else ""
    )
    return names.comment(title) + "\n#\n" + names.glossary(program.source_code) + "\n\n" + program.source_code


def start(checked: CheckedGame, players: int, options: dict[str, Any], probes: bool = False) -> CompileContext:
    """A compilation laid out (deck, kinds, zones) with its parts attached, nothing written yet."""
    cx = CompileContext(checked, players, options, probes)
    cx.folding = Folding(cx)
    cx.exprs = Expressions(cx)
    cx.stmts = Statements(cx)
    cx.labels = Labels(cx)
    cx.actions = Actions(cx)
    cx.checks = Checks(cx)
    cx.phases = Phases(cx)
    return cx


def _compile(cx: CompileContext) -> Program:
    """Write every function of the game, in the order they are listed, then link them into a Program."""
    checked, load = cx.checked, cx.load
    for req in checked.requires:
        if not load.value(req.cond):
            raise OptionError(
                [
                    Diagnostic(
                        "E605",
                        load.value(req.message),
                        req.span,
                        f"with {counted(cx.players, 'player')} and these options this game cannot be played",
                        source=checked.source,
                    )
                ]
            )
    cx.uses_faces = _uses_faces(checked)
    for t in checked.triggers:
        zone = checked.refs.get(id(t))
        if isinstance(zone, ZoneSym):
            cx.trigger_families.add(zone.index)
            if t.owner is not None:
                cx.owner_families.add(zone.index)
    phases = cx.phases
    phases.compile_defines()
    phases.compile_procedures()
    phases.compile_triggers()
    phases.compile_block_fn(names.SETUP(), checked.setup.body, checked.setup.span, "setup")
    if checked.round_end is not None:
        phases.compile_block_fn(
            names.ROUND_END(), checked.round_end.body, checked.round_end.span, "round end", event="round end"
        )
    phases.compile_phases()
    phases.compile_windows()
    ranking = phases.compile_ranking()
    phases.compile_label()
    linker = Linker(cx)
    program = linker.link(ranking)
    # What explains a refused move is compiled when a move is first refused.
    explained = [(info, linker.defs[info.index]) for info in cx.action_defs if not info.is_pass]
    program.checks = functools.partial(_compile_checks, checked, cx.players, cx.options, cx.uses_faces, explained)
    return program


def _compile_checks(
    checked: CheckedGame,
    players: int,
    options: dict[str, Any],
    uses_faces: bool,
    explained: list[tuple[ActionInfo, ActionDef]],
) -> None:
    """Compile what explains a refused move and give each action its ActionChecks.

    A compilation of its own writes the definitions again (the conditions call them) and each
    action's checks; done once, on the first refusal, so that loading a game and playing
    it cost nothing for it.
    """
    cx = start(checked, players, options)
    cx.uses_faces = uses_faces
    cx.phases.compile_defines()
    for info, _defn in explained:
        cx.checks.emit_checks(info.item, info)  # type: ignore[arg-type]
    functions = Linker(cx).run_source({}, f"<ruledsl {checked.source.path} (reasons)>")
    for info, defn in explained:
        defn.checks = cx.checks.action_checks(info.item, info, functions)  # type: ignore[arg-type]


@functools.lru_cache(maxsize=16)
def _uses_faces(checked: CheckedGame) -> bool:
    """Whether any rule turns cards face up or down, or a zone shows each card to its mover (a card
    laid there is face down to all but him); asked once per game, not once per player count."""
    return any(
        (isinstance(s, n.ZoneDecl) and s.visibility == "mover") or (isinstance(s, n.Stmt) and lays_faces(s))
        for s in n.walk(checked.file)
    )
