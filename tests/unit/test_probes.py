"""Line probes record the lines of generated code that run, as tracing would, and change nothing else."""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from types import FrameType
from typing import Any

import pytest

from ruledsl.agents import agent_seed
from ruledsl.codegen.probes import LineProbes, compile_with_probes
from ruledsl.engine.game import Game
from ruledsl.loading import check_file, load_checked

FILENAME = "<ruledsl test>"

# Generated code's forms: one statement a line, try/except, elif chains, loops left early.
SNIPPET = """\
def F(x):
    try:
        y = 1 // x
    except ANY_ERROR as exc_:
        y = 0
    for i in range(2):
        if i:
            continue
        elif x:
            pass
        else:
            break
    while x:
        x -= 1
        if x == 1:
            break
    return G(y)

def G(y):
    return [v for v in range(y)]
"""


class Tracer:
    """Record with ``sys.settrace`` the lines of FILENAME's code that run (def lines aside), between start and stop."""

    def __init__(self, filename: str) -> None:
        self.filename = filename
        self.lines: set[int] = set()
        self._previous: Any = None

    def hook(self, frame: FrameType, event: str, arg: Any) -> Any:
        if frame.f_code.co_filename != self.filename:
            return None
        first = frame.f_code.co_firstlineno

        def local(frame: FrameType, event: str, arg: Any) -> Any:
            if event == "line" and frame.f_lineno != first:
                self.lines.add(frame.f_lineno)
            return local

        return local

    def start(self) -> None:
        self._previous = sys.gettrace()
        sys.settrace(self.hook)

    def stop(self) -> None:
        sys.settrace(self._previous)


@pytest.mark.parametrize("x", [0, 1, 3])
def test_probes_record_the_lines_tracing_records(x: int) -> None:
    plain: dict[str, Any] = {"ANY_ERROR": Exception}
    exec(compile(SNIPPET, FILENAME, "exec"), plain)  # noqa: S102
    tracer = Tracer(FILENAME)
    tracer.start()
    try:
        expected = plain["F"](x)
    finally:
        tracer.stop()
    probed: dict[str, Any] = {"ANY_ERROR": Exception}
    probes = LineProbes(probed)
    exec(compile_with_probes(SNIPPET, FILENAME), probed)  # noqa: S102
    lines: set[int] = set()
    probes.record(lines)
    assert probed["F"](x) == expected
    assert lines == tracer.lines


def test_stopped_probes_record_nothing() -> None:
    namespace: dict[str, Any] = {"ANY_ERROR": Exception}
    probes = LineProbes(namespace)
    exec(compile_with_probes(SNIPPET, FILENAME), namespace)  # noqa: S102
    lines: set[int] = set()
    probes.record(lines)
    probes.stop()
    namespace["F"](3)
    assert lines == set()


def play(game: Game, seed: int, start: Callable[[], None], stop: Callable[[], None]) -> list[str]:
    """Play a random game, recording while it is set up and while actions are applied; return its actions."""
    rngs = [random.Random(agent_seed(seed, seat)) for seat in range(game.players)]
    start()
    try:
        state = game.new_initial_state(seed=seed)
    finally:
        stop()
    played = []
    while not state.is_terminal():
        action = rngs[state.current_player()].choice(state.legal_actions())
        played.append(str(action))
        start()
        try:
            state.apply_action(action)
        finally:
            stop()
    return played


@pytest.mark.parametrize(("name", "players"), [("quasenbo", 3), ("cartes_magiques", 4), ("katzenjammer_blues", 3)])
def test_a_game_with_probes_plays_alike_and_records_what_tracing_records(name: str, players: int) -> None:
    checked = check_file(name)
    plain = load_checked(checked, players)
    probed = load_checked(checked, players, probes=True)
    assert plain.program.probes is None
    probes = probed.program.probes
    assert probes is not None
    tracer = Tracer(plain.program.filename)
    lines: set[int] = set()
    for seed in range(3):
        expected = play(plain, seed, tracer.start, tracer.stop)
        assert play(probed, seed, lambda: probes.record(lines), probes.stop) == expected
    assert lines == tracer.lines
