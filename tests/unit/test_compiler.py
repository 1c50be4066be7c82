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


def _function(source: str, name: str) -> str:
    return next(f for f in re.split(r"\n(?=def )", source) if f.startswith(f"def {name}("))


def test_a_definition_used_inside_the_loops_of_a_choice_is_computed_once_before_them() -> None:
    # 'play(cs: cards of one rank from source(player))' requires playable(cs.rank), which
    # reads the decider ('topmost c in tas where c.rank not in {3, Joker}') four times: it
    # was called four times for each rank in the hand. A set of constants cannot fail to
    # compute, so neither can the decider: it is computed once, before the loop.
    program = load_game("cartes_magiques", players=3).program
    play = next(p for p in program.phases if p.name == "play")
    listing = _function(program.source_code, play.legal.__name__)
    loop = next(line for line in listing.split("\n") if "op_same_groups(" in line)
    assert "(lambda" in loop  # the conditions on the rank alone, tested once per rank
    assert not re.search(r"\bD\d+\(", loop), loop
    before = listing[: listing.index(loop)]
    assert len(re.findall(r"\bD\d+\(st, p\)", before)) == 1, before
