"""Round trips: ``parse(unparse(node)) == node``, and formatting keeps meaning and comments.

Files written by people (the bundled games, the node examples) must format to text that
parses to the same tree, formats to itself, and keeps every comment in order. Trees drawn
by hypothesis must be written as text that parses back to them.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Callable
from pathlib import Path

import pytest
from attrs import frozen
from hypothesis import given, settings
from hypothesis import strategies as st

from ruledsl.format.fmt import format_source
from ruledsl.format.unparse import unparse
from ruledsl.syntax import nodes as n
from ruledsl.syntax.parser import keywords, parse, parse_expr
from tests.unit.test_node_examples import CLASSES, example_of

ROOT = Path(__file__).resolve().parents[2]
GAME_FILES = sorted((ROOT / "games").glob("*.game"))

_COMMENT_OR_STRING = re.compile(r'"(?:\\.|[^"\\\n])*"|#[^\n]*')


def comments_of(text: str) -> list[str]:
    """Return the comments of a rule file, in order (text inside strings is not a comment)."""
    return [m.rstrip() for m in _COMMENT_OR_STRING.findall(text) if m.startswith("#")]


def check_formatting(text: str) -> str:
    """Check the three properties of formatting a file, and return the formatted text."""
    formatted = format_source(text)
    assert parse(formatted) == parse(text)
    assert format_source(formatted) == formatted
    assert comments_of(formatted) == comments_of(text)
    return formatted


# ============================================================================ files people wrote


def test_the_games_are_found() -> None:
    assert len(GAME_FILES) >= 4


@pytest.mark.parametrize("path", GAME_FILES, ids=lambda p: p.name)
def test_game_formats_to_the_same_game(path: Path) -> None:
    check_formatting(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("path", GAME_FILES, ids=lambda p: p.name)
def test_game_tree_unparses_to_the_same_game(path: Path) -> None:
    tree = parse(path.read_text(encoding="utf-8"))
    assert parse(unparse(tree)) == tree


def _lines(indent: str) -> Callable[[str], str]:
    return lambda text: textwrap.indent(text, indent)


# Where each kind of node is written in a rule file (as in tests/unit/test_node_examples.py):
# the node's text (maybe several lines) -> a whole file.
_HEADER = 'game "g"\n'
_PLACES: dict[type[n.Node], Callable[[str], str]] = {
    n.GameFile: lambda t: t,
    n.GameHeader: lambda t: t + "\n",
    n.Choice: lambda t: _HEADER + f"auction p:\n    action a({t}):\n        again\n",
    n.ChoiceShape: lambda t: _HEADER + f"auction p:\n    action a(x: {t}):\n        again\n",
    n.RangeDomain: lambda t: _HEADER + f"option o: {t} = 1\n",
    n.ChoiceDomain: lambda t: _HEADER + f"option o: {t} = 1\n",
    n.ValueMember: lambda t: _HEADER + f"values v: {t}\n",
    n.CardAssign: lambda t: _HEADER + f'deck:\n    card "A": {t}\n',
    n.CardLoop: lambda t: _HEADER + f'deck:\n    card "A" for {t}\n',
    n.CardEntry: lambda t: _HEADER + "deck:\n" + _lines("    ")(t) + "\n",
    n.DeckIf: lambda t: _HEADER + "deck:\n" + _lines("    ")(t) + "\n",
    n.DeckRepeat: lambda t: _HEADER + "deck:\n" + _lines("    ")(t) + "\n",
    n.TypedParam: lambda t: _HEADER + f"define f({t}) = 1\n",
    n.RankingKey: lambda t: _HEADER + f"ranking: {t}\n",
    n.TypeRef: lambda t: _HEADER + f"card x: {t}\n",
    n.Expr: lambda t: _HEADER + f"define example = {t}\n",
    n.Stmt: lambda t: _HEADER + "setup:\n" + _lines("    ")(t) + "\n",
    n.Decl: lambda t: _HEADER + t + "\n",
}
for _item in (n.ActionDecl, n.PassDecl, n.OnEnter, n.WonHandler, n.UnsoldHandler, n.AllChosenHandler):
    _PLACES[_item] = lambda t: _HEADER + "auction p:\n" + _lines("    ")(t) + "\n"
for _item in (n.AllPassHandler, n.OfferItem):
    _PLACES[_item] = lambda t: _HEADER + "window w for player:\n" + _lines("    ")(t) + "\n"
_PLACES[n.RequireClause] = lambda t: _HEADER + "phase p:\n    action a:\n" + _lines("        ")(t) + "\n        again\n"


def place(cls: type[n.Node]) -> Callable[[str], str]:
    for base in cls.__mro__:
        if base in _PLACES:
            return _PLACES[base]
    raise AssertionError(f"no place for {cls.__name__}")


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_node_example_formats_to_the_same_file(cls: type[n.Node]) -> None:
    check_formatting(place(cls)(example_of(cls)))


@pytest.mark.parametrize("cls", CLASSES, ids=lambda c: c.__name__)
def test_node_example_unparses_to_the_same_node(cls: type[n.Node]) -> None:
    # The example's file holds exactly one node of its class: find it, write it alone,
    # put the text back where the example was, and compare the whole files.
    wrap = place(cls)
    tree = parse(wrap(example_of(cls)))
    found = [node for node in _walk(tree) if type(node) is cls]
    assert found, f"no {cls.__name__} in the example's file"
    assert parse(wrap(unparse(found[-1] if cls is not n.GameFile else tree))) == tree


def _walk(node: n.Node) -> list[n.Node]:
    out = [node]
    for child in node.children():
        out.extend(_walk(child))
    return out


# ============================================================================ trees hypothesis draws

#: Every node class a strategy below builds (a test checks none is left out).
DRAWN: set[type[n.Node]] = set()


def builds(cls: type[n.Node], **fields: st.SearchStrategy[object]) -> st.SearchStrategy[n.Node]:
    """``st.builds(cls, ...)``, noting that the round trips draw ``cls``."""
    DRAWN.add(cls)
    return st.builds(cls, **fields)


_FORBIDDEN = keywords()
_SHORT_NAMES = st.from_regex(r"[a-z][a-z0-9_]{0,5}", fullmatch=True)
_LONG_NAMES = st.from_regex(r"[a-zA-Z_][a-zA-Z0-9_]{20,30}", fullmatch=True)
names = st.one_of(_SHORT_NAMES, _SHORT_NAMES, _SHORT_NAMES, _LONG_NAMES, st.sampled_from(["é_tat", "Ωmega"])).filter(
    lambda s: s not in _FORBIDDEN
)
# Any character a string may hold, and often one that must be escaped or doubled: no
# control character but the escaped '\n' and '\t', no mark reversing the direction of text
# (a rule file may not hold them: E102), and no carriage return (the parser reads '\r' as 'r').
_CHARS = st.one_of(
    st.sampled_from('{}"\\\n\t#'),
    st.characters(
        exclude_categories=("Cs", "Cc"), exclude_characters="\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
    ),
)
plain_strings = st.text(_CHARS, max_size=8)


def _normalise(parts: list[str | n.Expr]) -> tuple[str | n.Expr, ...]:
    """Join adjacent literal parts and drop empty ones, as the parser does."""
    out: list[str | n.Expr] = []
    for part in parts:
        if isinstance(part, str):
            if not part:
                continue
            if out and isinstance(out[-1], str):
                out[-1] += part
                continue
        out.append(part)
    return tuple(out)


def expressions(*, with_strings: bool = True, max_leaves: int = 10) -> st.SearchStrategy[n.Expr]:
    """Draw expressions; without strings, for the ``{...}`` parts of a string."""
    leaves: list[st.SearchStrategy[n.Expr]] = [
        builds(n.Number, value=st.integers(0, 10**9)),
        builds(n.Name, id=names),
        builds(n.BoolLit, value=st.booleans()),
        builds(n.NoneLit),
        builds(n.EveryCard),
        builds(n.ActingPlayer),
        builds(n.AllPlayers),
    ]
    if with_strings:
        leaves.append(texts)

    def extend(e: st.SearchStrategy[n.Expr]) -> st.SearchStrategy[n.Expr]:
        some = st.lists(e, max_size=3).map(tuple)
        where = st.none() | e
        composite = [
            builds(n.Call, name=names, args=some),
            builds(n.Attribute, obj=e, name=names),
            builds(n.TupleLiteral, items=st.lists(e, min_size=2, max_size=3).map(tuple)),
            builds(n.SetLiteral, items=some),
            builds(n.RangeLiteral, low=e, high=e),
            builds(n.Negate, operand=e),
            builds(n.Arith, op=st.sampled_from("+-*/%"), left=e, right=e),
            builds(n.Compare, op=st.sampled_from(["==", "!=", "<", "<=", ">", ">="]), left=e, right=e),
            builds(n.Member, element=e, collection=e, negated=st.booleans()),
            builds(n.Overlaps, left=e, right=e),
            builds(n.IsEmpty, operand=e, negated=st.booleans()),
            builds(n.IsOut, operand=e, negated=st.booleans()),
            builds(n.IsSeen, operand=e, viewer=st.none() | e, negated=st.booleans()),
            builds(n.Not, operand=e),
            builds(n.BoolOp, op=st.sampled_from(["and", "or"]), left=e, right=e),
            builds(n.IfExpr, cond=e, then=e, else_=e),
            builds(n.Quantifier, kind=st.sampled_from(["any", "no", "every"]), var=names, iterable=e, cond=e),
            builds(n.Count, var=names, iterable=e, where=where),
            builds(n.Filter, var=names, iterable=e, where=e),
            builds(n.First, var=names, iterable=e, where=e),
            builds(n.Topmost, var=names, iterable=e, where=e),
            builds(
                n.Aggregate,
                op=st.sampled_from(["highest", "lowest", "total", "distinct"]),
                value=e,
                var=names,
                iterable=e,
                where=where,
            ),
            builds(n.Best, var=names, iterable=e, op=st.sampled_from(["highest", "lowest"]), key=e, where=where),
            builds(n.TopOf, zone=e, count=where),
            builds(n.BottomOf, zone=e, count=where),
            builds(n.AllOf, zone=e),
            builds(n.AllButTop, count=e, zone=e),
            builds(n.SizeOf, operand=e),
            builds(n.PositionOf, operand=e),
            builds(n.RunOf, zone=e, key=names),
            builds(n.PlayerStep, player=e, step=st.sampled_from([1, -1])),
            builds(n.PlayersAfter, player=e),
            builds(n.PlayersStarting, player=e),
            builds(n.Neighbour, side=st.sampled_from(["left", "right"]), player=e),
            builds(n.Seat, index=e),
            builds(n.ItemOf, index=e, operand=e),
            builds(n.Sorted, var=names, iterable=e, key=e, descending=st.booleans()),
            builds(n.CountSets, var=names, iterable=e, where=e),
            builds(
                n.SubsetSum,
                var=names,
                iterable=e,
                key=e,
                op=st.sampled_from(["==", "!=", "<", "<=", ">", ">="]),
                target=e,
            ),
        ]
        if with_strings:
            composite.append(builds(n.IsNamed, operand=e, card_name=plain_strings, negated=st.booleans()))
        return st.one_of(composite)

    return st.recursive(st.one_of(leaves), extend, max_leaves=max_leaves)


texts = builds(
    n.Text,
    parts=st.lists(st.one_of(plain_strings, expressions(with_strings=False, max_leaves=4)), max_size=4).map(_normalise),
)
exprs = expressions()
small_exprs = expressions(max_leaves=4)
facing = st.sampled_from([None, "up", "down"])
postfix_targets = st.one_of(builds(n.Name, id=names), builds(n.Attribute, obj=small_exprs, name=names), small_exprs)

simple_statements = st.one_of(
    builds(n.Move, what=exprs, to=exprs, placement=st.sampled_from(["top", "bottom", "random"]), facing=facing),
    builds(n.Deal, count=exprs, source=exprs, target=names, start=st.none() | exprs, facing=facing),
    builds(n.Shuffle, zone=exprs),
    builds(n.Cut, zone=exprs),
    builds(n.Reveal, what=exprs),
    builds(n.Show, what=exprs, to=exprs),
    builds(n.TurnFace, up=st.booleans(), what=exprs),
    builds(n.Let, name=names, value=exprs),
    builds(n.SetStmt, target=postfix_targets, value=exprs),
    builds(n.Add, value=exprs, target=postfix_targets),
    builds(n.Subtract, value=exprs, target=postfix_targets),
    builds(n.Stop),
    builds(n.Again),
    builds(n.EndTurn),
    builds(n.EndRound),
    builds(n.EndGame, winner=st.none() | exprs),
    builds(n.EndGame, draw=st.just(True)),
    builds(n.EndGame, winners=exprs),
    builds(n.EndGame, loser=exprs),
    builds(n.EndGame, losers=exprs),
    builds(n.GoTo, phase=names, player=st.none() | exprs),
    builds(n.Open, window=names),
    builds(n.Reverse),
    builds(n.Finish, player=exprs, for_round=st.booleans()),
    builds(n.Say, message=exprs),
    builds(n.CallStmt, name=names, args=st.lists(small_exprs, max_size=2).map(tuple)),
)


def _compound(stmts: st.SearchStrategy[n.Stmt]) -> st.SearchStrategy[n.Stmt]:
    block = st.lists(stmts, min_size=1, max_size=3).map(tuple)
    return st.one_of(
        builds(
            n.If,
            branches=st.lists(st.tuples(exprs, block), min_size=1, max_size=3).map(tuple),
            else_=st.just(()) | block,
        ),
        builds(n.ForEach, var=names, iterable=exprs, where=st.none() | exprs, body=block),
        builds(n.While, cond=exprs, body=block),
        builds(n.Repeat, count=st.none() | small_exprs, body=block),
    )


statements = st.recursive(simple_statements, _compound, max_leaves=5)
blocks = st.lists(statements, min_size=1, max_size=3).map(tuple)

types = st.recursive(
    st.one_of(builds(n.NamedType, name=names), builds(n.CardType), builds(n.CardsType), builds(n.PlayerType)),
    lambda t: builds(n.SetType, element=t) | builds(n.TupleType, items=st.lists(t, min_size=2, max_size=3).map(tuple)),
    max_leaves=3,
)
params = st.lists(builds(n.TypedParam, name=names, type=types), max_size=2).map(tuple)
wild = st.none() | names
count = st.none() | small_exprs
shapes = st.one_of(
    builds(n.CardChoice, pool=small_exprs, wild=wild),
    builds(n.NumberChoice, low=small_exprs, high=small_exprs),
    builds(n.PlayerChoice, pool=small_exprs),
    builds(n.ValueChoice, type_name=names),
    builds(n.CardsChoice, count=count, pool=small_exprs, wild=wild),
    builds(n.SameChoice, count=count, attr=names, pool=small_exprs, wild=wild),
    builds(n.ValuedChoice, count=count, attr=names, value=small_exprs, pool=small_exprs, wild=wild),
    builds(n.DifferentChoice, count=count, attr=names, pool=small_exprs, wild=wild),
    # A run: of one card of each value, pairs or triples, sharing one value of another, with wild cards.
    builds(
        n.DifferentChoice,
        count=count,
        attr=names,
        pool=small_exprs,
        wild=wild,
        sequence=st.just(True),
        width=st.sampled_from([1, 2, 3]),
        sharing=st.none() | names,
    ),
)
# A reason is text, or an 'if' choosing between texts (or any expression: the checker judges).
reasons = st.one_of(texts, builds(n.IfExpr, cond=small_exprs, then=texts, else_=texts), small_exprs)
requires = st.lists(builds(n.RequireClause, cond=exprs, reason=reasons), max_size=2).map(tuple)
actions = builds(
    n.ActionDecl,
    name=names,
    choices=st.lists(builds(n.Choice, name=names, shape=shapes), max_size=2).map(tuple),
    when=st.none() | exprs,
    requires=requires,
    label=st.none() | exprs,
    strength=st.none() | exprs,
    body=st.lists(statements, max_size=2).map(tuple),
    otherwise=st.booleans(),
).filter(lambda a: a.label is not None or a.strength is not None or bool(a.body) or bool(a.requires))
passes = builds(n.PassDecl, label=st.none() | exprs, body=st.lists(statements, max_size=2).map(tuple)).filter(
    lambda p: p.label is not None or bool(p.body)
)
phase_items = st.one_of(
    actions,
    passes,
    builds(n.OnEnter, body=blocks),
    builds(n.WonHandler, var=names, body=blocks),
    builds(n.UnsoldHandler, body=blocks),
    builds(n.AllChosenHandler, body=blocks),
)
card_entries = builds(
    n.CardEntry,
    name=plain_strings,
    copies=st.none() | small_exprs,
    assigns=st.lists(builds(n.CardAssign, name=names, value=small_exprs), max_size=2).map(tuple),
    loops=st.lists(builds(n.CardLoop, name=names, low=small_exprs, high=small_exprs), max_size=2).map(tuple),
)


def _deck_compound(entries: st.SearchStrategy[n.Node]) -> st.SearchStrategy[n.Node]:
    body = st.lists(entries, min_size=1, max_size=2).map(tuple)
    return st.one_of(
        builds(n.DeckIf, cond=small_exprs, body=body, else_=st.just(()) | body),
        builds(n.DeckRepeat, count=small_exprs, body=body),
    )


deck_entries = st.recursive(card_entries, _deck_compound, max_leaves=4)
ranking_keys = st.lists(
    st.one_of(
        builds(n.RankingKey, order=st.sampled_from(["highest", "lowest"]), value=exprs),
        builds(n.RankingKey, order=st.just("finishing")),
    ),
    min_size=1,
    max_size=3,
).map(tuple)
visibility = st.sampled_from(["public", "owner", "hidden"])

declarations = st.one_of(
    builds(n.PlayersDecl, low=small_exprs, high=small_exprs),
    builds(
        n.OptionDecl,
        name=names,
        domain=st.one_of(
            st.none(),
            builds(n.RangeDomain, low=small_exprs, high=small_exprs),
            builds(n.ChoiceDomain, choices=st.lists(plain_strings, min_size=2, max_size=3).map(tuple)),
        ),
        default=exprs,
        doc=st.none() | plain_strings,
    ),
    builds(
        n.ValuesDecl,
        name=names,
        members=st.lists(
            builds(
                n.ValueMember,
                name=names | st.integers(0, 99).map(str),
                display=st.none() | plain_strings,
            ),
            min_size=1,
            max_size=3,
        ).map(tuple),
    ),
    builds(n.AttributeDecl, name=names, type=types),
    builds(n.DeckDecl, entries=st.lists(deck_entries, min_size=1, max_size=3).map(tuple)),
    builds(
        n.ZoneDecl,
        name=names,
        per_player=st.booleans(),
        visibility=visibility,
        sorted_by=st.lists(names, max_size=3).map(tuple),
        unlisted_when_empty=st.booleans(),
    ),
    builds(
        n.VarDecl,
        scope=st.sampled_from(["game", "player", "card"]),
        name=names,
        type=st.none() | types,
        init=exprs,
        visibility=visibility,
        unlisted=st.booleans(),
        label=st.none() | plain_strings,
    ),
    builds(n.DefineDecl, name=names, params=params, body=exprs),
    builds(n.ProcedureDecl, name=names, params=params, body=blocks),
    # `when cs enter p.hand` is read as naming the owner p: written so, the zone is a bare name.
    builds(
        n.TriggerDecl,
        var=names,
        zone=small_exprs.filter(lambda z: not (isinstance(z, n.Attribute) and isinstance(z.obj, n.Name))),
        body=blocks,
    ),
    builds(n.TriggerDecl, var=names, owner=names, zone=builds(n.Name, id=names), body=blocks),
    builds(n.SetupDecl, body=blocks),
    builds(
        n.PhaseDecl,
        name=names,
        items=st.lists(phase_items, min_size=1, max_size=3).map(tuple),
        is_auction=st.booleans(),
    ),
    # An auction whose passes are not final (``auction p until 3 passes:``).
    builds(
        n.PhaseDecl,
        name=names,
        items=st.lists(phase_items, min_size=1, max_size=3).map(tuple),
        is_auction=st.just(True),
        passes=st.integers(0, 9),
    ),
    # A phase played together, for every player or some (``phase p together for PLAYERS:``).
    builds(
        n.PhaseDecl,
        name=names,
        items=st.lists(phase_items, min_size=1, max_size=3).map(tuple),
        together=st.just(True),
        who=st.none() | exprs,
    ),
    builds(
        n.WindowDecl,
        name=names,
        who=exprs,
        items=st.lists(
            actions | passes | builds(n.AllPassHandler, body=blocks) | builds(n.OfferItem, name=names, phase=names),
            min_size=1,
            max_size=2,
        ).map(tuple),
    ),
    builds(n.RoundEndDecl, body=blocks),
    builds(n.LabelDecl, var=names, text=exprs),
    builds(n.RequireDecl, cond=exprs, message=texts),
    builds(n.RankingDecl, keys=ranking_keys),
    builds(n.StandingDecl, keys=ranking_keys),
    builds(n.PayoffDecl, value=exprs),
)
game_files = builds(
    n.GameFile,
    header=builds(n.GameHeader, name=plain_strings),
    decls=st.lists(declarations, max_size=4).map(tuple),
)


# Long conditions and definitions, so that lines are broken (and/or chains, if-else chains,
# parenthesised operands broken again inside their parentheses).
_long_leaves = st.one_of(
    builds(n.Name, id=_LONG_NAMES.filter(lambda s: s not in _FORBIDDEN)),
    builds(n.IsEmpty, operand=builds(n.Name, id=_LONG_NAMES.filter(lambda s: s not in _FORBIDDEN))),
    small_exprs,
)
long_conditions = st.recursive(
    _long_leaves,
    lambda c: st.one_of(
        builds(n.BoolOp, op=st.sampled_from(["and", "or"]), left=c, right=c),
        builds(n.BoolOp, op=st.sampled_from(["and", "or"]), left=c, right=c),
        builds(n.IfExpr, cond=c, then=c, else_=c),
        builds(n.Not, operand=c),
        builds(n.Quantifier, kind=st.sampled_from(["any", "no", "every"]), var=names, iterable=small_exprs, cond=c),
    ),
    max_leaves=10,
)
_long_texts = st.builds(lambda parts: n.Text(parts=(parts,)), st.from_regex(r"[a-z ]{30,60}", fullmatch=True))
long_reasons = st.one_of(
    _long_texts,
    builds(n.IfExpr, cond=long_conditions, then=_long_texts, else_=_long_texts),
    builds(
        n.IfExpr,
        cond=small_exprs,
        then=_long_texts,
        else_=builds(n.IfExpr, cond=small_exprs, then=_long_texts, else_=_long_texts),
    ),
)
wrapped_files = st.builds(
    lambda name, params, body, when, cond, loop, require: n.GameFile(
        header=n.GameHeader(name="g"),
        decls=(
            n.DefineDecl(name=name, params=params, body=body),
            n.PhaseDecl(
                name="play",
                items=(
                    n.ActionDecl(
                        name="act",
                        choices=(),
                        when=when,
                        requires=(require,),
                        label=None,
                        strength=None,
                        body=(
                            n.If(branches=((cond, (n.Stop(),)), (cond, (n.Again(),)))),
                            n.While(cond=loop, body=(n.Stop(),)),
                        ),
                    ),
                ),
            ),
        ),
    ),
    names,
    params,
    long_conditions,
    long_conditions,
    long_conditions,
    long_conditions,
    builds(n.RequireClause, cond=long_conditions, reason=long_reasons),
)


def sprinkle_comments(text: str, data: st.DataObject) -> str:
    """Add comments to a file: after code, and on their own lines at any indentation
    (inside parentheses too, where a broken condition goes on)."""
    out: list[str] = []
    for i, line in enumerate(text.split("\n")[:-1]):
        where = data.draw(
            st.sampled_from(["none", "none", "after", "before", "both"]), label=f"comment at line {i + 1}"
        )
        if where in ("before", "both"):
            out.append(" " * data.draw(st.integers(0, 12), label="indent") + f"# c{i}a")
        out.append(line + (f"  # c{i}b" if where in ("after", "both") else ""))
        if data.draw(st.booleans(), label="blank line"):
            out.append("")
    return "\n".join(out) + "\n"


@settings(max_examples=150)
@given(exprs)
def test_expression_round_trips(e: n.Expr) -> None:
    assert parse_expr(unparse(e)) == e


@settings(max_examples=40)
@given(statements)
def test_statement_round_trips(s: n.Stmt) -> None:
    file = n.GameFile(header=n.GameHeader(name="g"), decls=(n.SetupDecl(body=(s,)),))
    assert parse(unparse(file)) == file


@settings(max_examples=30)
@given(game_files)
def test_game_file_round_trips_and_is_formatted(file: n.GameFile) -> None:
    text = unparse(file)
    assert text.endswith("\n") and not text.endswith("\n\n")
    assert parse(text) == file
    assert format_source(text) == text


@settings(max_examples=25)
@given(game_files, st.data())
def test_comments_survive_formatting(file: n.GameFile, data: st.DataObject) -> None:
    check_formatting(sprinkle_comments(unparse(file), data))


@settings(max_examples=20)
@given(wrapped_files, st.data())
def test_long_lines_are_broken_and_read_back(file: n.GameFile, data: st.DataObject) -> None:
    text = unparse(file)
    assert parse(text) == file
    assert format_source(text) == text
    check_formatting(sprinkle_comments(text, data))


# ============================================================================ every node class is drawn


def undrawn(classes: list[type[n.Node]]) -> list[str]:
    """The node classes no strategy above builds: their round trip would go untested."""
    return sorted(cls.__name__ for cls in classes if cls not in DRAWN)


def test_the_round_trips_draw_every_node_class() -> None:
    assert undrawn(CLASSES) == []


def test_a_node_class_no_strategy_draws_is_named() -> None:
    @frozen(kw_only=True)
    class UnknownToAll(n.Stmt):
        """A statement no strategy builds."""

    assert set(undrawn([*CLASSES, UnknownToAll])) - set(undrawn(CLASSES)) == {"UnknownToAll"}
