"""Compiler tests: what the generated code looks like where its size or shape matters."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from ruledsl import codegen
from ruledsl.codegen import names
from ruledsl.codegen.linking import SAFE_BUILTINS
from ruledsl.loading import check_file, load_game

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


def test_the_listing_names_the_rule_line_of_each_function() -> None:
    checked = check_file("games/quasenbo.game")
    listing = codegen.listing(checked, 3)
    glossary, source = listing.split("\n\n", 1)
    assert "# Names in this code" in glossary and "#   LBA…" in glossary
    lines = source.split("\n")
    defs = [i for i, line in enumerate(lines) if line.startswith("def ")]
    assert len(defs) > 20
    for i in defs:  # each function opens with the comment naming where it comes from
        assert lines[i - 1].startswith("# games/quasenbo.game"), lines[i]
    headers = [
        re.fullmatch(
            r"# games/quasenbo\.game:(\d+): (action|phase|define|to) (\w+)(: its legal actions)?", lines[i - 1]
        )
        for i in defs
    ]
    named = [(int(m[1]), m[2], m[3]) for m in headers if m]
    assert {kind for _, kind, _ in named} >= {"action", "phase", "define"}
    for line, kind, name in named:  # ... and its line in the rule file is that construct's
        assert re.match(rf"\s*{kind} {name}\b", checked.source.line_text(line)), (line, kind, name)


def test_every_name_in_generated_code_is_in_the_glossary() -> None:
    fixed = {name for names_ in names.FIXED for name in re.split(r", ", names_)}
    families = sorted((f.text for f in names.FAMILIES if f.numbered), key=len, reverse=True)
    made = re.compile(rf"({'|'.join(families)})\d+(_\d+)?")
    allowed = fixed | {f.text for f in names.FAMILIES if not f.numbered} | set(SAFE_BUILTINS)
    games = sorted((Path(__file__).parents[2] / "games").glob("**/*.game"))
    assert len(games) > 5
    for game in games:
        source = load_game(game).program.source_code
        found = {x.id for x in ast.walk(ast.parse(source)) if isinstance(x, ast.Name)}
        found |= {x.name for x in ast.walk(ast.parse(source)) if isinstance(x, ast.FunctionDef)}
        found |= {x.arg for x in ast.walk(ast.parse(source)) if isinstance(x, ast.arg)}
        unexplained = {x for x in found if x not in allowed and not made.fullmatch(x) and not x.startswith("op_")}
        assert unexplained == set(), game


def test_a_comment_of_generated_code_cannot_be_ended_by_what_it_quotes() -> None:
    # A listing's comments quote a path and names: nothing in them may start a line of code.
    assert names.comment("x.game\nimport os\r\u2028\x0c: action é") == "# x.game?import os???: action é"
