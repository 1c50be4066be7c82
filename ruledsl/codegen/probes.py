"""Line probes: generated code compiled to tell which of its lines run, for ``check --simulate``.

The validator (``ruledsl.tools.validate``) reports the rules that never ran in its random games,
from the lines of generated code that ran while actions were applied. It used to learn
them from ``sys.settrace``, which calls a Python function at every call of every function
(and every resumption of a generator) while an action is applied: more than doubling the
time of the games. A program compiled with probes instead calls ``PROBE(line)`` before
each statement of its functions, where ``PROBE`` is a global of the generated code that
``LineProbes`` binds to a set's ``add`` while recording and to a builtin that does nothing
otherwise.

The lines recorded are the ones tracing records, because every statement of generated
code stands on one line of its own (no statement spans lines, no line holds a part of
another's): the lines of a function that run are the lines of its statements that start,
and a ``try:``, a loop's or an ``if``'s header start with their statement. An ``except``
line is recorded when its handler runs (tracing records it when the exception is
compared; the compiler's handlers catch ``Exception``, which is what is raised). The
``def`` lines are left out, as tracing leaves them out; so is the code at module level,
which runs once, when the program is loaded.
"""

from __future__ import annotations

import ast
from types import CodeType
from typing import Any

#: The global of the generated code that each probe calls with its line number.
PROBE = "PROBE"


def compile_with_probes(source_code: str, filename: str) -> CodeType:
    """Compile generated source with a call ``PROBE(line)`` before each statement of its functions."""
    tree = ast.parse(source_code, filename)
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            _probe_blocks(node)
    return compile(tree, filename, "exec")


def _probe_blocks(node: ast.AST) -> None:
    """Put probes into every block of statements within ``node`` (a function), at any depth."""
    for child in ast.walk(node):
        for name, value in ast.iter_fields(child):
            if isinstance(value, list) and value and isinstance(value[0], ast.stmt):
                setattr(child, name, _probed(value))
        if isinstance(child, ast.ExceptHandler):
            child.body.insert(0, _probe(child))


def _probed(block: list[ast.stmt]) -> list[ast.stmt]:
    out: list[ast.stmt] = []
    for stmt in block:
        out.append(_probe(stmt))
        out.append(stmt)
    return out


def _probe(at: ast.stmt | ast.ExceptHandler) -> ast.stmt:
    call = ast.Call(ast.Name(PROBE, ast.Load()), [ast.Constant(at.lineno)], [])
    return ast.fix_missing_locations(ast.copy_location(ast.Expr(call), at))


class LineProbes:
    """Switch the probes of one program's generated code: record into a set, or do nothing."""

    def __init__(self, namespace: dict[str, Any]) -> None:
        self._namespace = namespace
        self.stop()

    def record(self, lines: set[int]) -> None:
        """From now on, add to ``lines`` the line of each statement that starts."""
        self._namespace[PROBE] = lines.add

    def stop(self) -> None:
        """From now on, record nothing."""
        self._namespace[PROBE] = id  # a builtin that takes one argument and changes nothing
