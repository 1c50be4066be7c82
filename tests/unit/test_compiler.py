"""Compiler tests: what the generated code looks like where its size or shape matters."""

from __future__ import annotations

import re
from pathlib import Path

from ruledsl.loading import load_game

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


# 'big(3 / zero)' is reached only for a card of rank 3, and there is none.
SHORT_CIRCUIT = """\
game "short circuit"
players 2
values rank: 1, 2, 3
card rank: rank
zone deck: shared, hidden
zone hand: per player, owner
zone table: shared, public
var zero = 0
deck:
    card "One": rank 1
    card "Two": rank 2
define big(n: number) = n > 1
setup:
    deal 1 from deck to each hand
    go to play with seat 0
phase play:
    action lay(c: card from hand):
        require c.rank == 3 and big(3 / zero), "only a big three"
        move c to table
    action stay:
        end game
"""


def test_an_argument_that_may_fail_is_not_computed_ahead_of_its_turn(tmp_path: Path) -> None:
    # Written in place of the call, 'n > 1' counted as a value that cannot fail, and was
    # computed once before the loop over the hand: a division by zero no rule reaches.
    path = tmp_path / "short_circuit.game"
    path.write_text(SHORT_CIRCUIT, encoding="utf-8")
    state = load_game(path, players=2).new_initial_state(seed=0)
    assert [str(a) for a in state.legal_actions()] == ["stay"]


# 'é' was written '_e9_' in the names of generated tables: the table of 'é' and that of
# '_e9_' were one name, and each value showed as a member of the other.
TWO_VALUES_ONE_IDENTIFIER = """\
game "colliding names"
players 2
values é: un, deux
values _e9_: three, four
card rank: é
zone deck: shared, hidden
deck:
    card "One": rank un
setup:
    go to play with seat 0
phase play:
    action name(v: é):
        end game
    action other(w: _e9_):
        end game
"""


def test_values_whose_names_look_alike_in_python_each_show_as_themselves(tmp_path: Path) -> None:
    path = tmp_path / "colliding_names.game"
    path.write_text(TWO_VALUES_ONE_IDENTIFIER, encoding="utf-8")
    state = load_game(path, players=2).new_initial_state(seed=0)
    assert [str(a) for a in state.legal_actions()] == ["name un", "name deux", "other three", "other four"]
