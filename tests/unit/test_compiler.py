"""Compiler tests: what the generated code looks like where its size or shape matters."""

from __future__ import annotations

import re

from ruledsl.game import load_game

# A line of a definition's function that computes its body (memoised or not).
BODY_LINE = re.compile(r"(r_ = (m_\[.*?\] = )?|return )\(")


def test_a_definition_body_is_written_once() -> None:
    # Written twice (memoised and not), inlined definitions doubled the source that
    # Python compiles at each load: most of the load time of a large rule file.
    program = load_game("cartes_magiques", players=3).program
    functions = re.split(r"\n(?=def )", program.source_code)
    defines = [f for f in functions if re.match(r"def D\d+\(", f)]
    assert len(defines) > 5
    for function in defines:
        lines = [line.strip() for line in function.split("\n")]
        assert len([line for line in lines if BODY_LINE.match(line)]) == 1, function
