"""Turn nodes back into rule-file text: the canonical layout of ``fmt`` and the round-trip tests.

``unparse(node)`` writes any node; ``format_source(text)`` (in fmt.py) parses a rule file and
writes it again in the canonical layout, keeping its comments. ``parse(unparse(node)) == node``
for every node the parser can build (spans aside), and formatting is idempotent. Nothing here
parses: the engine unparses nodes to word its refusals, and playing must not load the parser.

The canonical layout:

- Indentation is 4 spaces. Every block goes on its own indented lines, even when the
  source wrote it after the colon (``if deck is empty: end round``).
- Spelling is normalised: one space between words, ``, `` between items, ``×`` for copies
  in the deck. What the parser fills in by default is left out: ``at top`` after ``move``,
  ``, public`` after ``var``, the parentheses of a call statement without arguments.
- Parentheses appear only where the grammar needs them: around a lower-precedence operand
  (``(a or b) and c``, ``(top of pile).rank``, ``top of (-x)``), around a range inside an
  expression (``(1 to 5)``, but ``for each r in 4 to A``), and around the binder forms
  (``any``, ``no``, ``every``, ``count``, ``cards``, ``first``, ``topmost``,
  ``highest``/``lowest``/``total``/``distinct``, ``the``) and ``if ... then ... else`` inside a
  larger expression. For the reader, and although the grammar does not need them, they
  also go around an ``and`` inside an ``or`` (``a or (b and c)``), and around a binder or
  ``if`` form written as the condition or the ``then`` value of an ``if``, or as the value
  of an aggregate. Other parentheses of the source are dropped.
- An action's ``label`` and ``strength`` come first in its block, then its effects.
- Long lines: when a line would be longer than 100 characters, the condition after
  ``when``, ``if``, ``else if`` or ``while``, or the body of a ``define``, is put in
  parentheses on the next lines (8 more spaces after ``when (``/``if (``/``while (``, 4 more
  after ``define ... = (``) and broken before each of its top-level ``and``/``or``; an
  ``if ... then ... else`` value is broken before each ``else`` instead. A long binder is
  broken after its ``where (`` or ``satisfies (``, its condition on the next lines; a long
  comparison before its operator, a long sum before each ``+`` and ``-``, and a long ``not``
  as ``not (``. An operand that is still too long is broken the same way inside its own
  parentheses, its lines lined up after the parenthesis. Nothing else is broken: a long
  action head or message stays on one line.
- ``Layout`` says how lines are broken: ``FMT`` for ``fmt``; ``UNBROKEN``, no line broken,
  for the hash that ties a game record to its rules (so that this layout may change without
  orphaning records); ``RECORD1``, only and/or/else broken, as records of format 1 hashed.
- Blank lines: at most one in a row, none at the start of a block or of the file. Between
  top-level declarations there is one, except between two declarations of the same kind
  among players, option, values, card attributes, zone, var, define, require, ranking and
  standing, which keep the author's choice. Elsewhere the author's blank lines are kept.
- Comments: a full-line comment stays before the line that follows it, at that line's
  indentation (a comment at the end of a block therefore goes before the next statement,
  at its indentation). A comment after code stays at the end of that line: at its column
  in the source if the code is shorter and that column is at most 100 (so that columns of
  aligned comments survive), else two spaces after the code. When several source lines
  become one (a condition that now fits), the comments inside them go on their own lines
  just before it, except a last one after code, which stays at its end.
- The text ends with one newline; line ends are ``\n``; a byte-order mark is dropped.
"""

from __future__ import annotations

import bisect
import sys
from collections import defaultdict
from collections.abc import Callable, Sequence
from typing import Any

from attrs import define, frozen

from ruledsl.format.scan import Comment, Scan
from ruledsl.syntax import nodes as n

#: Lines longer than this have their conditions and definition bodies broken.
MAX_WIDTH = 100
_INDENT = 4
_COND_INDENT = 8  # the lines of a broken `when (`/`if (` condition, past the head's indentation


@frozen
class Layout:
    """How canonical text is broken into lines: its width, and what may be broken."""

    width: int = MAX_WIDTH
    #: Whether conditions, comparisons and sums may be broken, not only and/or/if chains.
    breaks_all: bool = True


#: The layout of ``ruledsl fmt``.
FMT = Layout()
#: No line is ever broken: a statement's text does not depend on any width, so a hash of it
#: does not change when ``fmt`` learns to break lines differently.
UNBROKEN = Layout(width=sys.maxsize)
#: The layout of ``fmt`` when records of format ``ruledsl-record/1`` were hashed: frozen, so that
#: they can still be checked against the rules they were played with.
RECORD1 = Layout(breaks_all=False)

# Precedence levels, lowest first: the grammar's rules from `expr` down to `atom`.
_EXPR, _OR, _AND, _NOT, _CMP, _SUM, _TERM, _UNARY, _PREFIX, _POSTFIX, _ATOM = range(11)

# Top-level declarations that sit on one line (or two, for an option's description):
# consecutive ones of the same kind keep the author's blank lines; others get one.
_COMPACT_DECLS = (
    n.PlayersDecl,
    n.OptionDecl,
    n.ValuesDecl,
    n.AttributeDecl,
    n.ZoneDecl,
    n.VarDecl,
    n.DefineDecl,
    n.RequireDecl,
    n.LabelDecl,
    n.RankingDecl,
    n.StandingDecl,
    n.PayoffDecl,
)


# ============================================================================ entry points


def unparse(node: n.Node, layout: Layout = FMT) -> str:
    """Return the canonical text of a node.

    A GameFile gives a whole file, ending with one newline; an expression gives one line;
    a declaration, statement, phase item or deck entry gives its lines (blocks indented by
    4 spaces) without a final newline.
    """
    if isinstance(node, n.Expr):
        return _expr(node)
    if isinstance(node, n.GameFile):
        return unparse_file(node, None, layout)
    fragment = _FRAGMENTS.get(type(node))
    if fragment is not None:
        return fragment(node)
    writer = _Writer(None, layout)
    writer.node(node, 0)
    return "\n".join(line.code() for line in writer.lines)


def unparse_file(tree: n.GameFile, scan: Scan | None, layout: Layout = FMT) -> str:
    """Return the canonical text of a file; with the scan of its source, keep its comments and blank lines."""
    writer = _Writer(scan, layout)
    writer.game_file(tree)
    return _layout(writer.lines, scan)


# ============================================================================ strings


def _names(names: tuple[str, ...]) -> str:
    """One name as such, several in brackets: ``rank``, ``(suit, rank)``."""
    return names[0] if len(names) == 1 else "(" + ", ".join(names) + ")"


def _quote(value: str) -> str:
    """Write a plain string (a name, a description): only quotes and backslashes are escaped."""
    return '"' + _escape(value, braces=False) + '"'


def _escape(value: str, *, braces: bool) -> str:
    if "\r" in value:
        raise ValueError("a string cannot hold a carriage return: the parser reads '\\r' as 'r'")
    value = value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")
    if braces:
        value = value.replace("{", "{{").replace("}", "}}")
    return value


def _template(text: n.Text) -> str:
    """Write a Text: literal parts escaped (braces doubled), expressions between braces."""
    out = ['"']
    for part in text.parts:
        if isinstance(part, str):
            out.append(_escape(part, braces=True))
            continue
        inner = _expr(part)
        if '"' in inner:
            raise ValueError(f"an expression inside a string cannot hold a string: {inner}")
        if inner.startswith("{") or inner.endswith("}"):
            inner = f" {inner} "  # `{{` would read as a literal brace
        out.append("{" + inner + "}")
    out.append('"')
    return "".join(out)


# ============================================================================ expressions


def _precedence(e: n.Expr) -> int:
    """Return the grammar level an expression is built at (parenthesised below that)."""
    if isinstance(e, _BINDERS):
        return _EXPR
    if isinstance(e, n.BoolOp):
        return _OR if e.op == "or" else _AND
    if isinstance(e, n.Not):
        return _NOT
    if isinstance(e, _COMPARISONS):
        return _CMP
    if isinstance(e, n.Arith):
        return _SUM if e.op in ("+", "-") else _TERM
    if isinstance(e, n.Negate):
        return _UNARY
    if isinstance(e, n.PositionOf) and e.as_number:
        return _POSTFIX
    if isinstance(e, _PREFIXED):
        return _PREFIX
    if isinstance(e, n.Attribute):
        return _POSTFIX
    return _ATOM


_BINDERS = (
    n.IfExpr,
    n.Quantifier,
    n.Count,
    n.Filter,
    n.First,
    n.Topmost,
    n.Aggregate,
    n.Best,
    n.Sorted,
    n.SubsetSum,
    n.CountSets,
    n.ItemOf,
)
_COMPARISONS = (n.Compare, n.Member, n.Overlaps, n.IsEmpty, n.IsOut, n.IsNamed, n.IsSeen)
_PREFIXED = (
    n.TopOf,
    n.BottomOf,
    n.AllOf,
    n.AllButTop,
    n.SizeOf,
    n.PositionOf,
    n.RunOf,
    n.PlayerStep,
    n.PlayersAfter,
    n.PlayersStarting,
    n.Neighbour,
    n.Seat,
)


def _expr(e: n.Expr, need: int = _EXPR) -> str:
    """Write an expression on one line, in parentheses if it binds more loosely than ``need``."""
    writer = EXPRESSION_WRITERS.get(type(e))
    if writer is None:
        raise TypeError(f"not an expression node: {type(e).__name__}")
    text = writer(e)
    return f"({text})" if _precedence(e) < need else text


def _args(items: Sequence[n.Expr]) -> str:
    return ", ".join(_expr(item) for item in items)


def _number(e: n.Number) -> str:
    if e.value < 0:
        raise ValueError("a Number is never negative: write Negate(operand=Number(...))")
    return str(e.value)


def _tuple(e: n.TupleLiteral) -> str:
    if len(e.items) < 2:
        raise ValueError("a tuple has at least two items: (a) is a parenthesised a")
    return f"({_args(e.items)})"


def _bool_op(e: n.BoolOp) -> str:
    if e.op == "or":
        # An `and` inside an `or` is parenthesised for the reader, though the grammar does not need it.
        left = _OR if isinstance(e.left, n.BoolOp) and e.left.op == "or" else _NOT
        return f"{_expr(e.left, left)} or {_expr(e.right, _NOT)}"
    if e.op == "and":
        return f"{_expr(e.left, _AND)} and {_expr(e.right, _NOT)}"
    raise ValueError(f"unknown boolean operator {e.op!r}")


def _arith(e: n.Arith) -> str:
    if e.op in ("+", "-"):
        return f"{_expr(e.left, _SUM)} {e.op} {_expr(e.right, _TERM)}"
    if e.op in ("*", "/", "%"):
        return f"{_expr(e.left, _TERM)} {e.op} {_expr(e.right, _UNARY)}"
    raise ValueError(f"unknown arithmetic operator {e.op!r}")


def _not(e: n.IsEmpty | n.IsOut | n.IsNamed | n.Member | n.IsSeen) -> str:
    return "not " if e.negated else ""


def _where(cond: n.Expr | None) -> str:
    return "" if cond is None else f" where {_expr(cond)}"


def _quantifier(e: n.Quantifier) -> str:
    if e.kind not in ("any", "no", "every"):
        raise ValueError(f"unknown quantifier {e.kind!r}")
    word = "satisfies" if e.kind == "every" else "where"
    return f"{e.kind} {e.var} in {_expr(e.iterable, _SUM)} {word} {_expr(e.cond)}"


def _counted(count: n.Expr | None, zone: n.Expr, word: str) -> str:
    if count is None:
        return f"{word} of {_expr(zone, _PREFIX)}"
    return f"{word} {_expr(count, _ATOM)} of {_expr(zone, _PREFIX)}"


def _player_step(e: n.PlayerStep) -> str:
    if e.step not in (1, -1):
        raise ValueError("a PlayerStep goes one seat: step is 1 (after) or -1 (before)")
    return f"player {'after' if e.step == 1 else 'before'} {_expr(e.player, _PREFIX)}"


#: How each kind of expression is written (tests/unit/test_dispatch.py checks every one has its entry).
EXPRESSION_WRITERS: dict[type, Callable[..., str]] = {
    n.Number: _number,
    n.Text: _template,
    n.BoolLit: lambda e: "yes" if e.value else "no",
    n.NoneLit: lambda e: "none",
    n.Name: lambda e: e.id,
    n.Call: lambda e: f"{e.name}({_args(e.args)})",
    n.Attribute: lambda e: f"{_expr(e.obj, _POSTFIX)}.{e.name}",
    n.TupleLiteral: _tuple,
    n.SetLiteral: lambda e: "{" + _args(e.items) + "}",
    n.RangeLiteral: lambda e: f"({_expr(e.low, _SUM)} to {_expr(e.high, _SUM)})",
    n.Negate: lambda e: f"-{_expr(e.operand, _UNARY)}",
    n.Arith: _arith,
    n.Compare: lambda e: f"{_expr(e.left, _SUM)} {e.op} {_expr(e.right, _SUM)}",
    n.Member: lambda e: f"{_expr(e.element, _SUM)} {_not(e)}in {_expr(e.collection, _SUM)}",
    n.Overlaps: lambda e: f"{_expr(e.left, _SUM)} overlaps {_expr(e.right, _SUM)}",
    n.IsEmpty: lambda e: f"{_expr(e.operand, _SUM)} is {_not(e)}empty",
    n.IsOut: lambda e: f"{_expr(e.operand, _SUM)} is {_not(e)}out",
    n.IsSeen: lambda e: (
        f"{_expr(e.operand, _SUM)} is {_not(e)}"
        + ("face up" if e.viewer is None else f"seen by {_expr(e.viewer, _SUM)}")
    ),
    n.IsNamed: lambda e: f"{_expr(e.operand, _SUM)} is {_not(e)}{_quote(e.card_name)}",
    n.Not: lambda e: f"not {_expr(e.operand, _NOT)}",
    n.BoolOp: _bool_op,
    n.IfExpr: lambda e: f"if {_expr(e.cond, _OR)} then {_expr(e.then, _OR)} else {_expr(e.else_)}",
    n.Quantifier: _quantifier,
    n.Count: lambda e: f"count {e.var} in {_expr(e.iterable, _SUM)}{_where(e.where)}",
    n.Filter: lambda e: f"cards {e.var} in {_expr(e.iterable, _SUM)} where {_expr(e.where)}",
    n.First: lambda e: f"first {e.var} in {_expr(e.iterable, _SUM)} where {_expr(e.where)}",
    n.Topmost: lambda e: f"topmost {e.var} in {_expr(e.iterable, _SUM)} where {_expr(e.where)}",
    n.Aggregate: lambda e: f"{e.op} {_expr(e.value, _OR)} for {e.var} in {_expr(e.iterable, _SUM)}{_where(e.where)}",
    n.Best: lambda e: f"the {e.var} in {_expr(e.iterable, _SUM)} with {e.op} {_expr(e.key, _SUM)}{_where(e.where)}",
    n.TopOf: lambda e: _counted(e.count, e.zone, "top"),
    n.BottomOf: lambda e: _counted(e.count, e.zone, "bottom"),
    n.AllOf: lambda e: f"all of {_expr(e.zone, _PREFIX)}",
    n.AllButTop: lambda e: f"all but top {_expr(e.count, _ATOM)} of {_expr(e.zone, _PREFIX)}",
    n.SizeOf: lambda e: f"size of {_expr(e.operand, _PREFIX)}",
    n.PositionOf: lambda e: (
        f"{_expr(e.operand, _POSTFIX)} as number" if e.as_number else f"position of {_expr(e.operand, _PREFIX)}"
    ),
    n.Sorted: lambda e: (
        f"cards {e.var} in {_expr(e.iterable, _SUM)} sorted by {_expr(e.key, _SUM)}"
        + (" descending" if e.descending else "")
    ),
    n.SubsetSum: lambda e: (
        f"some cards {e.var} in {_expr(e.iterable, _SUM)} "
        f"with total {_expr(e.key, _SUM)} {e.op} {_expr(e.target, _SUM)}"
    ),
    n.CountSets: lambda e: f"count sets {e.var} of cards in {_expr(e.iterable, _SUM)} where {_expr(e.where)}",
    n.ItemOf: lambda e: f"the item {_expr(e.index, _ATOM)} of {_expr(e.operand)}",
    n.RunOf: lambda e: f"run of {_expr(e.zone, _PREFIX)} sharing {e.key}",
    n.EveryCard: lambda e: "every card",
    n.ActingPlayer: lambda e: "player",
    n.PlayerStep: _player_step,
    n.AllPlayers: lambda e: "players",
    n.PlayersAfter: lambda e: f"players after {_expr(e.player, _PREFIX)}",
    n.PlayersStarting: lambda e: f"players starting with {_expr(e.player, _PREFIX)}",
    n.Neighbour: lambda e: f"{e.side} of {_expr(e.player, _PREFIX)}",
    n.Seat: lambda e: f"seat {_expr(e.index, _ATOM)}",
}


# ---------------------------------------------------------------- long expressions


@frozen
class _Piece:
    """One line of a broken expression: its column, its text, and the source line it starts at."""

    col: int
    text: str
    anchor: int


def _is_chain(e: n.Expr) -> bool:
    """Whether ``e`` is broken before each ``and``/``or``/``else`` once broken at all, even where it would fit."""
    return isinstance(e, (n.BoolOp, n.IfExpr))


def _is_breakable(e: n.Expr, layout: Layout) -> bool:
    if not layout.breaks_all:
        return _is_chain(e)
    if isinstance(e, n.Not):
        return _is_breakable(e.operand, layout)
    return (
        isinstance(e, (n.BoolOp, n.IfExpr, n.Compare))
        or _condition(e) is not None
        or (isinstance(e, n.Arith) and e.op in ("+", "-"))
    )


def _condition(e: n.Expr) -> n.Expr | None:
    """The condition a binder ends with (``where ...``, ``satisfies ...``), if it has one."""
    if isinstance(e, n.Quantifier):
        return e.cond
    if isinstance(e, (n.Count, n.CountSets, n.Filter, n.First, n.Topmost, n.Aggregate)):
        return e.where
    return None


def _terms(e: n.Arith) -> list[tuple[str, n.Expr]]:
    """Return the terms of a sum ``a + b - c`` (left-nested, as the parser builds it), each with its sign."""
    chain = []
    left: n.Expr = e
    while isinstance(left, n.Arith) and left.op in ("+", "-"):
        chain.append((left.op, left.right))
        left = left.left
    chain.append(("", left))
    return chain[::-1]


def _operands(e: n.BoolOp) -> list[n.Expr]:
    """Return the operands of a chain ``a or b or c`` (left-nested, as the parser builds it)."""
    chain = [e.right]
    left = e.left
    while isinstance(left, n.BoolOp) and left.op == e.op:
        chain.append(left.right)
        left = left.left
    chain.append(left)
    return chain[::-1]


def _break(e: n.Expr, col: int, tail: int, layout: Layout, *, force: bool = False) -> list[_Piece]:
    """Write ``e`` from column ``col``, broken into lines if it does not fit (or if ``force``).

    ``tail`` is the width of what follows the last line (closing parentheses, ``:``).
    """
    text = _expr(e)
    fits = col + len(text) + tail <= layout.width
    if not _is_breakable(e, layout) or (fits and not (force and _is_chain(e))):
        return [_Piece(col, text, _line(e))]
    pieces: list[_Piece] = []
    cond = _condition(e)
    if cond is not None or isinstance(e, n.Not):
        # `any c in hand where (` or `not (`, then the condition on the next lines, 4 spaces in.
        inner_expr = e.operand if isinstance(e, n.Not) else cond
        assert inner_expr is not None
        head = "not " if isinstance(e, n.Not) else text[: len(text) - len(_expr(inner_expr))]
        inner = _break(inner_expr, col + _INDENT, tail + 1, layout, force=True)
        inner[-1] = _Piece(inner[-1].col, inner[-1].text + ")", inner[-1].anchor)
        return [_Piece(col, head + "(", _line(e)), *inner]
    if isinstance(e, n.Compare):
        # As a chain of `and`: the left side, then the operator and the right side on the next line.
        right_col = col + len(e.op) + 1
        left = _break_operand(e.left, col, 0, _SUM, layout)
        right = _break_operand(e.right, right_col, tail, _SUM, layout)
        return [*left, _Piece(col, f"{e.op} {right[0].text}", right[0].anchor), *right[1:]]
    if isinstance(e, n.Arith):
        terms = _terms(e)
        for i, (sign, term) in enumerate(terms):
            last = i == len(terms) - 1
            prefix = f"{sign} " if sign else ""
            sub = _break_operand(term, col + len(prefix), tail if last else 0, _TERM if sign else _SUM, layout)
            pieces.append(_Piece(col, prefix + sub[0].text, sub[0].anchor))
            pieces.extend(sub[1:])
        return pieces
    if isinstance(e, n.BoolOp):
        operands = _operands(e)
        first, rest = (_NOT, _NOT) if e.op == "or" else (_AND, _NOT)  # as in _bool_op
        for i, operand in enumerate(operands):
            last = i == len(operands) - 1
            prefix = "" if i == 0 else e.op + " "
            sub = _break_operand(operand, col + len(prefix), tail if last else 0, first if i == 0 else rest, layout)
            pieces.append(_Piece(col, prefix + sub[0].text, sub[0].anchor))
            pieces.extend(sub[1:])
        return pieces
    assert isinstance(e, n.IfExpr)
    word = "if"
    branch: n.Expr = e
    while isinstance(branch, n.IfExpr):
        head = f"{word} {_expr(branch.cond, _OR)} then {_expr(branch.then, _OR)}"
        pieces.append(_Piece(col, head, _line(branch)))
        word = "else if"
        branch = branch.else_
    sub = _break_operand(branch, col + len("else "), tail, _EXPR, layout)
    pieces.append(_Piece(col, "else " + sub[0].text, sub[0].anchor))
    pieces.extend(sub[1:])
    return pieces


def _break_operand(e: n.Expr, col: int, tail: int, need: int, layout: Layout) -> list[_Piece]:
    """Write an operand of a broken expression, itself broken (inside its parentheses) if too long."""
    text = _expr(e, need)
    if not _is_breakable(e, layout) or col + len(text) + tail <= layout.width:
        return [_Piece(col, text, _line(e))]
    if _precedence(e) >= need:
        return _break(e, col, tail, layout)
    inner = _break(e, col + 1, tail + 1, layout)
    inner[0] = _Piece(col, "(" + inner[0].text, inner[0].anchor)
    inner[-1] = _Piece(inner[-1].col, inner[-1].text + ")", inner[-1].anchor)
    return inner


def _line(node: n.Node) -> int:
    return node.span.start.line


# ============================================================================ fragments


def _type(t: n.TypeRef) -> str:
    if isinstance(t, n.NamedType):
        return t.name
    if isinstance(t, n.CardType):
        return "card"
    if isinstance(t, n.CardsType):
        return "cards"
    if isinstance(t, n.PlayerType):
        return "player"
    if isinstance(t, n.SetType):
        return f"set of {_type(t.element)}"
    if isinstance(t, n.TupleType):
        return "(" + ", ".join(_type(i) for i in t.items) + ")"
    raise TypeError(f"not a type: {type(t).__name__}")


def _params(params: Sequence[n.TypedParam]) -> str:
    return "(" + ", ".join(_typed_param(p) for p in params) + ")" if params else ""


def _typed_param(p: n.TypedParam) -> str:
    return f"{p.name}: {_type(p.type)}"


#: How a run's cards of each value are said: 'cards in pairs in sequence of rank'.
_RUN_WIDTHS = {1: "", 2: "pairs in ", 3: "triples in "}


def _wild(wild: str | None) -> str:
    return "" if wild is None else f" with {wild} wild"


def _some(count: n.Expr | None, high: n.Expr | None = None) -> str:
    if high is not None and count is not None:
        return f"{_expr(count, _ATOM)} to {_expr(high, _ATOM)} "
    return "" if count is None else _expr(count, _ATOM) + " "


def _shape(s: n.ChoiceShape) -> str:
    if isinstance(s, n.CardChoice):
        return f"card from {_expr(s.pool, _SUM)}{_wild(s.wild)}"
    if isinstance(s, n.NumberChoice):
        return f"number {_expr(s.low, _SUM)} to {_expr(s.high, _SUM)}"
    if isinstance(s, n.PlayerChoice):
        return f"player from {_expr(s.pool, _SUM)}"
    if isinstance(s, n.ValueChoice):
        return s.type_name
    if isinstance(s, n.CardsChoice):
        return f"{_some(s.count, s.high)}cards from {_expr(s.pool, _SUM)}{_wild(s.wild)}"
    if isinstance(s, n.SameChoice):
        return f"{_some(s.count, s.high)}cards of one {s.attr} from {_expr(s.pool, _SUM)}{_wild(s.wild)}"
    if isinstance(s, n.ValuedChoice):
        value = _expr(s.value, _ATOM)
        return f"{_some(s.count)}cards of {s.attr} {value} from {_expr(s.pool, _SUM)}{_wild(s.wild)}"
    if isinstance(s, n.DifferentChoice) and s.sequence:
        sharing = f" of one {s.sharing}" if s.sharing is not None else ""
        run = f"cards in {_RUN_WIDTHS[s.width]}sequence of {s.attr}{sharing}"
        return f"{_some(s.count, s.high)}{run} from {_expr(s.pool, _SUM)}{_wild(s.wild)}"
    if isinstance(s, n.DifferentChoice):
        return f"{_some(s.count)}cards of different {s.attr} from {_expr(s.pool, _SUM)}{_wild(s.wild)}"
    raise TypeError(f"not a choice shape: {type(s).__name__}")


def _choice(c: n.Choice) -> str:
    return f"{c.name}: {_shape(c.shape)}"


def _domain(d: n.RangeDomain | n.ChoiceDomain) -> str:
    if isinstance(d, n.RangeDomain):
        return f"{_expr(d.low, _SUM)} to {_expr(d.high, _SUM)}"
    if len(d.choices) < 2:
        raise ValueError("an option's words are at least two")
    return ", ".join(_quote(c) for c in d.choices)


def _member(m: n.ValueMember) -> str:
    return m.name if m.display is None else f"{m.name} {_quote(m.display)}"


def _ranking_key(k: n.RankingKey) -> str:
    if k.order == "finishing":
        return "finishing order"
    if k.order not in ("highest", "lowest") or k.value is None:
        raise ValueError(f"a ranking key is highest VALUE, lowest VALUE or finishing order, not {k.order!r}")
    return f"{k.order} {_expr(k.value)}"


def _ranking(word: str, keys: Sequence[n.RankingKey]) -> str:
    if not keys:
        raise ValueError(f"'{word}:' needs at least one key")
    return f"{word}: " + ", then ".join(_ranking_key(k) for k in keys)


def _card_entry(e: n.CardEntry) -> str:
    text = "" if e.copies is None else f"{_expr(e.copies, _SUM)} × "
    text += f"card {_quote(e.name)}"
    if e.assigns:
        text += ": " + ", ".join(_card_assign(a) for a in e.assigns)
    if e.loops:
        text += " for " + ", ".join(_card_loop(loop) for loop in e.loops)
    return text


def _card_assign(a: n.CardAssign) -> str:
    return f"{a.name} {_expr(a.value, _SUM)}"


def _card_loop(loop: n.CardLoop) -> str:
    return f"{loop.name} in {_expr(loop.low, _SUM)} to {_expr(loop.high, _SUM)}"


_FRAGMENTS: dict[type, Callable[..., str]] = {
    n.NamedType: _type,
    n.CardType: _type,
    n.CardsType: _type,
    n.PlayerType: _type,
    n.SetType: _type,
    n.TupleType: _type,
    n.CardChoice: _shape,
    n.NumberChoice: _shape,
    n.PlayerChoice: _shape,
    n.ValueChoice: _shape,
    n.CardsChoice: _shape,
    n.SameChoice: _shape,
    n.ValuedChoice: _shape,
    n.DifferentChoice: _shape,
    n.Choice: _choice,
    n.GameHeader: lambda h: f"game {_quote(h.name)}",
    n.RangeDomain: _domain,
    n.ChoiceDomain: _domain,
    n.ValueMember: _member,
    n.CardAssign: _card_assign,
    n.CardLoop: _card_loop,
    n.TypedParam: _typed_param,
    n.RankingKey: _ranking_key,
}


# ============================================================================ statements and declarations


@define
class _Line:
    """One output line before comments and blank lines are added."""

    indent: int
    text: str
    anchor: int  # the source line of its first token (0: unknown)
    head: bool = True  # starts a declaration, item, statement or entry: blank lines may precede it
    opens: bool = False  # ends with ':' and an indented block follows
    top: type | None = None  # the kind of top-level declaration it starts

    def code(self) -> str:
        return " " * self.indent + self.text


class _Writer:
    """Write nodes as lines; with a source scan, find where keywords without a node stood."""

    def __init__(self, scan: Scan | None, layout: Layout = FMT) -> None:
        self.scan = scan
        self.layout = layout
        self.lines: list[_Line] = []

    def add(self, indent: int, text: str, anchor: int, *, head: bool = True, opens: bool = False) -> None:
        self.lines.append(_Line(indent, text, anchor, head, opens))

    def node(self, node: n.Node, indent: int) -> None:
        """Write any node that takes whole lines."""
        if isinstance(node, n.Decl):
            self.decl(node, indent)
        elif isinstance(node, n.Stmt):
            self.stmt(node, indent)
        elif isinstance(
            node,
            (
                n.ActionDecl,
                n.PassDecl,
                n.OnEnter,
                n.WonHandler,
                n.UnsoldHandler,
                n.AllPassHandler,
                n.AllChosenHandler,
                n.OfferItem,
            ),
        ):
            self.item(node, indent)
        elif isinstance(node, n.RequireClause):
            self.require(node, indent)
        elif isinstance(node, (n.CardEntry, n.DeckIf, n.DeckRepeat)):
            self.entry(node, indent)
        else:
            raise TypeError(f"cannot write a {type(node).__name__} node")

    # ------------------------------------------------------------- source positions

    def _keyword_line(self, after: n.Node, keyword: str) -> int:
        """Return the line of the keyword (``else``) written after a node ends, or the node's last line."""
        if self.scan is not None:
            token = self.scan.token_after(after.span.end.offset)
            if token is not None and token.text == keyword:
                return token.line
        return after.span.end.line

    def _clause_line(self, value: n.Expr) -> int:
        """Return the line of the keyword (``label``) before a value, past any '('."""
        if self.scan is not None and value.span.start.line > 0:
            token = self.scan.token_before(value.span.start.offset)
            while token is not None and token.text == "(":
                token = self.scan.token_before(token.offset)
            if token is not None:
                return token.line
        return _line(value)

    def _string_line(self, after: n.Node) -> int:
        """Return the line of the first string after a node (an option's description)."""
        if self.scan is not None:
            token = self.scan.token_after(after.span.end.offset)
            while token is not None and not token.text.startswith('"'):
                token = self.scan.token_after(token.offset + 1)
            if token is not None:
                return token.line
        return after.span.end.line + 1

    # ------------------------------------------------------------- file and declarations

    def game_file(self, f: n.GameFile) -> None:
        self.add(0, f"game {_quote(f.header.name)}", _line(f.header))
        self.lines[-1].top = n.GameHeader
        for d in f.decls:
            start = len(self.lines)
            self.decl(d, 0)
            self.lines[start].top = type(d)

    def decl(self, d: n.Decl, indent: int) -> None:
        at = _line(d)
        if isinstance(d, n.PlayersDecl):
            high = "" if d.high is d.low else f" to {_expr(d.high, _SUM)}"
            self.add(indent, f"players {_expr(d.low, _SUM)}{high}", at)
        elif isinstance(d, n.OptionDecl):
            domain = "" if d.domain is None else ": " + _domain(d.domain)
            self.add(indent, f"option {d.name}{domain} = {_expr(d.default)}", at)
            if d.doc is not None:
                self.add(indent + _INDENT, _quote(d.doc), self._string_line(d.default), head=False)
        elif isinstance(d, n.ValuesDecl):
            if not d.members:
                raise ValueError("a values list has at least one value")
            self.add(indent, f"values {d.name}: " + ", ".join(_member(m) for m in d.members), at)
        elif isinstance(d, n.AttributeDecl):
            self.add(indent, f"card {d.name}: {_type(d.type)}", at)
        elif isinstance(d, n.DeckDecl):
            self.add(indent, "deck:", at, opens=True)
            self.entries(d.entries, indent + _INDENT)
        elif isinstance(d, n.ZoneDecl):
            scope = "per player" if d.per_player else "shared"
            order = "" if not d.sorted_by else f", sorted by {_names(d.sorted_by)}"
            unlisted = ", unlisted when empty" if d.unlisted_when_empty else ""
            self.add(indent, f"zone {d.name}: {scope}, {_visibility(d.visibility)}{order}{unlisted}", at)
        elif isinstance(d, n.VarDecl):
            scope = "" if d.scope == "game" else d.scope + " "
            type_ = "" if d.type is None else ": " + _type(d.type)
            visibility = "" if d.visibility == "public" else ", " + _visibility(d.visibility)
            unlisted = ", unlisted" if d.unlisted else ""
            label = "" if d.label is None else f", label {_quote(d.label)}"
            self.add(indent, f"{scope}var {d.name}{type_} = {_expr(d.init)}{visibility}{unlisted}{label}", at)
        elif isinstance(d, n.DefineDecl):
            self.define(d, indent)
        elif isinstance(d, n.ProcedureDecl):
            self.block_head(indent, f"to {d.name}{_params(d.params)}:", at, d.body)
        elif isinstance(d, n.TriggerDecl):
            owner = "" if d.owner is None else d.owner + "."
            self.block_head(indent, f"when {d.var} enter {owner}{_expr(d.zone, _SUM)}:", at, d.body)
        elif isinstance(d, n.SetupDecl):
            self.block_head(indent, "setup:", at, d.body)
        elif isinstance(d, n.PhaseDecl) and d.together:
            who = "" if d.who is None else f" for {_expr(d.who)}"
            self.add(indent, f"phase {d.name} together{who}:", at, opens=True)
            self.items(d.items, indent + _INDENT)
        elif isinstance(d, n.PhaseDecl):
            until = "" if d.passes is None else f" until {d.passes} passes"
            self.add(indent, f"{'auction' if d.is_auction else 'phase'} {d.name}{until}:", at, opens=True)
            self.items(d.items, indent + _INDENT)
        elif isinstance(d, n.WindowDecl):
            self.add(indent, f"window {d.name} for {_expr(d.who)}:", at, opens=True)
            self.items(d.items, indent + _INDENT)
        elif isinstance(d, n.RoundEndDecl):
            self.block_head(indent, "round end:", at, d.body)
        elif isinstance(d, n.RequireDecl):
            self.add(indent, f"require {_expr(d.cond)}, {_template(d.message)}", at)
        elif isinstance(d, n.LabelDecl):
            self.add(indent, f"label card {d.var} as {_expr(d.text)}", at)
        elif isinstance(d, n.RankingDecl):
            self.add(indent, _ranking("ranking", d.keys), at)
        elif isinstance(d, n.StandingDecl):
            self.add(indent, _ranking("standing", d.keys), at)
        elif isinstance(d, n.PayoffDecl):
            bounds = "" if d.low is None or d.high is None else f", from {_expr(d.low)} to {_expr(d.high)}"
            self.add(indent, f"payoff: {_expr(d.value)}{bounds}", at)
        else:
            raise TypeError(f"not a declaration: {type(d).__name__}")

    def define(self, d: n.DefineDecl, indent: int) -> None:
        head = f"define {d.name}{_params(d.params)} = "
        one_line = head + _expr(d.body)
        if indent + len(one_line) <= self.layout.width:
            self.add(indent, one_line, _line(d))
            return
        self.add(indent, head + "(", _line(d))
        self.pieces(_break(d.body, indent + _INDENT, 1, self.layout, force=True), ")")

    def pieces(self, pieces: list[_Piece], end: str) -> None:
        """Add the lines of a broken expression (inside parentheses), ``end`` after the last."""
        for i, piece in enumerate(pieces):
            text = piece.text + (end if i == len(pieces) - 1 else "")
            self.add(piece.col, text, piece.anchor, head=False, opens=end.endswith(":") and i == len(pieces) - 1)

    def cond_head(self, indent: int, head: str, cond: n.Expr, at: int) -> None:
        """Add a block head ``HEAD COND:``, the condition broken in parentheses if the line is too long."""
        one_line = f"{head}{_expr(cond)}:"
        if indent + len(one_line) <= self.layout.width:
            self.add(indent, one_line, at, opens=True)
            return
        self.add(indent, head + "(", at)
        self.pieces(_break(cond, indent + _COND_INDENT, 2, self.layout, force=True), "):")

    def block_head(self, indent: int, head: str, at: int, body: Sequence[n.Stmt]) -> None:
        self.add(indent, head, at, opens=True)
        self.block(body, indent + _INDENT)

    # ------------------------------------------------------------- deck entries

    def entries(self, entries: Sequence[n.Node], indent: int) -> None:
        if not entries:
            raise ValueError("a deck block has at least one entry")
        for entry in entries:
            self.entry(entry, indent)

    def entry(self, e: n.Node, indent: int) -> None:
        at = _line(e)
        if isinstance(e, n.CardEntry):
            self.add(indent, _card_entry(e), at)
        elif isinstance(e, n.DeckIf):
            self.cond_head(indent, "if ", e.cond, at)
            self.entries(e.body, indent + _INDENT)
            if e.else_:
                self.add(indent, "else:", self._keyword_line(e.body[-1], "else"), opens=True)
                self.entries(e.else_, indent + _INDENT)
        elif isinstance(e, n.DeckRepeat):
            self.add(indent, f"repeat {_expr(e.count, _SUM)} times:", at, opens=True)
            self.entries(e.body, indent + _INDENT)
        else:
            raise TypeError(f"not a deck entry: {type(e).__name__}")

    # ------------------------------------------------------------- phase items

    def items(self, items: Sequence[n.Node], indent: int) -> None:
        if not items:
            raise ValueError("a phase or window has at least one item")
        for item in items:
            self.item(item, indent)

    def item(self, item: n.Node, indent: int) -> None:
        at = _line(item)
        if isinstance(item, n.ActionDecl):
            head = f"action {item.name}"
            if item.choices:
                head += "(" + ", ".join(_choice(c) for c in item.choices) + ")"
            if item.otherwise:
                head += " otherwise"
            if item.when is None:
                self.add(indent, head + ":", at, opens=True)
            else:
                self.cond_head(indent, head + " when ", item.when, at)
            self.action_body(item.label, item.strength, item.body, indent + _INDENT, item.requires)
        elif isinstance(item, n.PassDecl):
            self.add(indent, "pass:", at, opens=True)
            self.action_body(item.label, None, item.body, indent + _INDENT)
        elif isinstance(item, n.OnEnter):
            self.block_head(indent, "on enter:", at, item.body)
        elif isinstance(item, n.WonHandler):
            self.block_head(indent, f"when won by {item.var}:", at, item.body)
        elif isinstance(item, n.UnsoldHandler):
            self.block_head(indent, "when unsold:", at, item.body)
        elif isinstance(item, n.AllPassHandler):
            self.block_head(indent, "when all pass:", at, item.body)
        elif isinstance(item, n.OfferItem):
            self.add(indent, f"offer {item.name} from {item.phase}", at)
        elif isinstance(item, n.AllChosenHandler):
            self.block_head(indent, "when all chosen:", at, item.body)
        else:
            raise TypeError(f"not a phase item: {type(item).__name__}")

    def require(self, clause: n.RequireClause, indent: int) -> None:
        """Add ``require COND, REASON`` on one line if it fits; else the reason (an ``if``
        between texts) broken in parentheses, or else the condition."""
        reason = ", " + _expr(clause.reason)
        head = "must if able " if clause.must else "require if able " if clause.able else "require "
        one_line = f"{head}{_expr(clause.cond)}{reason}"
        at = _line(clause)
        if indent + len(one_line) <= self.layout.width:
            self.add(indent, one_line, at)
        elif _is_chain(clause.reason):
            first = head.rstrip()
            head = f"{first} {_expr(clause.cond)}, ("
            if indent + len(head) <= self.layout.width or not _is_breakable(clause.cond, self.layout):
                self.add(indent, head, at)
            else:
                self.add(indent, f"{first} (", at)
                self.pieces(_break(clause.cond, indent + _COND_INDENT, 3, self.layout, force=True), "), (")
            self.pieces(_break(clause.reason, indent + _INDENT, 1, self.layout, force=True), ")")
        elif _is_chain(clause.cond) or (
            _is_breakable(clause.cond, self.layout) and indent + len(one_line) - len(reason) > self.layout.width
        ):
            # A reason too long for the line is no reason to break a short condition, but for an and/or.
            self.add(indent, f"{head}(", at)
            self.pieces(_break(clause.cond, indent + _COND_INDENT, 1, self.layout, force=True), ")" + reason)
        else:
            self.add(indent, one_line, at)

    def action_body(
        self,
        label: n.Expr | None,
        strength: n.Expr | None,
        body: Sequence[n.Stmt],
        indent: int,
        requires: Sequence[n.RequireClause] = (),
    ) -> None:
        if label is None and strength is None and not body and not requires:
            raise ValueError("an action or pass has a condition, a label, a strength or an effect")
        for clause in requires:
            self.require(clause, indent)
        if label is not None:
            self.add(indent, f"label {_expr(label)}", self._clause_line(label))
        if strength is not None:
            self.add(indent, f"strength {_expr(strength)}", self._clause_line(strength))
        for stmt in body:
            self.stmt(stmt, indent)

    # ------------------------------------------------------------- statements

    def block(self, body: Sequence[n.Stmt], indent: int) -> None:
        if not body:
            raise ValueError("a block has at least one statement")
        for stmt in body:
            self.stmt(stmt, indent)

    def stmt(self, s: n.Stmt, indent: int) -> None:
        at = _line(s)
        writer = STATEMENT_WRITERS.get(type(s))
        if writer is None:
            raise TypeError(f"not a statement: {type(s).__name__}")
        written = writer(self, s, indent, at)
        if written is not None:
            self.add(indent, written, at)

    def if_stmt(self, s: n.If, indent: int, at: int) -> None:
        if not s.branches:
            raise ValueError("an if statement has at least one condition")
        for i, (cond, body) in enumerate(s.branches):
            if i == 0:
                self.cond_head(indent, "if ", cond, at)
            else:
                self.cond_head(indent, "else if ", cond, self._keyword_line(s.branches[i - 1][1][-1], "else"))
            self.block(body, indent + _INDENT)
        if s.else_:
            self.add(indent, "else:", self._keyword_line(s.branches[-1][1][-1], "else"), opens=True)
            self.block(s.else_, indent + _INDENT)

    def for_each(self, s: n.ForEach, indent: int, at: int) -> None:
        if isinstance(s.iterable, n.RangeLiteral):
            iterable = f"{_expr(s.iterable.low, _SUM)} to {_expr(s.iterable.high, _SUM)}"
        else:
            iterable = _expr(s.iterable, _SUM)
        self.block_head(indent, f"for each {s.var} in {iterable}{_where(s.where)}:", at, s.body)

    def while_stmt(self, s: n.While, indent: int, at: int) -> None:
        self.cond_head(indent, "while ", s.cond, at)
        self.block(s.body, indent + _INDENT)

    def repeat(self, s: n.Repeat, indent: int, at: int) -> None:
        times = "" if s.count is None else f" {_expr(s.count, _SUM)} times"
        self.block_head(indent, f"repeat{times}:", at, s.body)


def _move(s: n.Move) -> str:
    text = f"move {_expr(s.what)} to {_expr(s.to)}"
    if s.placement != "top":
        if s.placement not in ("bottom", "random"):
            raise ValueError(f"unknown placement {s.placement!r}")
        text += f" at {s.placement}"
    return text + _facing(s.facing)


def _deal(s: n.Deal) -> str:
    text = f"deal {_expr(s.count)} from {_expr(s.source)} to each {s.target}"
    if s.start is not None:
        text += f" starting with {_expr(s.start)}"
    return text + _facing(s.facing)


def _end_game(s: n.EndGame) -> str:
    if s.draw + sum(e is not None for e in (s.winner, s.winners, s.loser, s.losers)) > 1:
        raise ValueError("a game ends with a winner, winners, a loser, losers or a draw, not two of them")
    if s.draw:
        return "end game, draw"
    if s.loser is not None:
        return f"end game, loser {_expr(s.loser)}"
    if s.losers is not None:
        return f"end game, losers {_expr(s.losers)}"
    if s.winners is not None:
        return f"end game, winners {_expr(s.winners)}"
    return "end game" if s.winner is None else f"end game, winner {_expr(s.winner)}"


def _line_of(write: Callable[[Any], str]) -> Callable[[_Writer, Any, int, int], str]:
    """A statement of one line, written by ``write``: the writer adds it."""
    return lambda writer, s, indent, at: write(s)


#: How each kind of statement is written: a block statement by the writer, a one-line one as
#: its text (tests/unit/test_dispatch.py checks every statement has its entry).
STATEMENT_WRITERS: dict[type, Callable[[_Writer, Any, int, int], str | None]] = {
    n.If: _Writer.if_stmt,
    n.ForEach: _Writer.for_each,
    n.While: _Writer.while_stmt,
    n.Repeat: _Writer.repeat,
    n.Move: _line_of(_move),
    n.Deal: _line_of(_deal),
    n.Shuffle: _line_of(lambda s: f"shuffle {_expr(s.zone)}"),
    n.Cut: _line_of(lambda s: f"cut {_expr(s.zone)}"),
    n.Reveal: _line_of(lambda s: f"reveal {_expr(s.what)}"),
    n.Show: _line_of(lambda s: f"show {_expr(s.what)} to {_expr(s.to)}"),
    n.TurnFace: _line_of(lambda s: f"turn {'up' if s.up else 'down'} {_expr(s.what)}"),
    n.Let: _line_of(lambda s: f"let {s.name} = {_expr(s.value)}"),
    n.SetStmt: _line_of(lambda s: f"set {_expr(s.target, _POSTFIX)} = {_expr(s.value)}"),
    n.Add: _line_of(lambda s: f"add {_expr(s.value)} to {_expr(s.target, _POSTFIX)}"),
    n.Subtract: _line_of(lambda s: f"subtract {_expr(s.value)} from {_expr(s.target, _POSTFIX)}"),
    n.EndGame: _line_of(_end_game),
    n.GoTo: _line_of(lambda s: f"go to {s.phase}" + ("" if s.player is None else f" with {_expr(s.player)}")),
    n.Open: _line_of(lambda s: f"open {s.window}"),
    n.Finish: _line_of(lambda s: f"finish {_expr(s.player)}{' for the round' if s.for_round else ''}"),
    n.Say: _line_of(lambda s: f"say {_expr(s.message)}"),
    n.CallStmt: _line_of(lambda s: s.name + (f"({_args(s.args)})" if s.args else "")),
    n.Stop: _line_of(lambda s: "stop"),
    n.Again: _line_of(lambda s: "again"),
    n.EndTurn: _line_of(lambda s: "end turn"),
    n.EndRound: _line_of(lambda s: "end round"),
    n.Reverse: _line_of(lambda s: "reverse direction"),
}


def _facing(facing: str | None) -> str:
    if facing is None:
        return ""
    if facing not in ("up", "down"):
        raise ValueError(f"cards lie face up or face down, not {facing!r}")
    return f" face {facing}"


# ============================================================================ comments and blank lines


def _layout(lines: list[_Line], scan: Scan | None) -> str:
    """Join the lines into a file: blank lines between declarations, and the source's comments.

    Comments are grouped by the output line whose first token's source line is the last on
    or above them. In a group, the comments up to the last one that is after code, or before
    more code of the same output line (inside a construct that became one line), belong to
    that line: the last at its end if it was after code, the others on their own lines just
    before it. The full-line comments after them go before the next output line.
    """
    anchor = 0
    for line in lines:  # a line of unknown origin goes with the one before it
        anchor = line.anchor = line.anchor or anchor
    before: dict[int, list[Comment]] = defaultdict(list)
    trailing: dict[int, Comment] = {}
    at_end: list[Comment] = []
    if scan is not None:
        order = sorted(range(len(lines)), key=lambda i: (lines[i].anchor, i))
        anchors = [lines[i].anchor for i in order]
        groups: dict[int, list[Comment]] = defaultdict(list)
        for comment in scan.comments:
            groups[bisect.bisect_right(anchors, comment.line) - 1].append(comment)
        for k, comments in groups.items():
            following = anchors[k + 1] if k + 1 < len(anchors) else None
            last = max((j for j, c in enumerate(comments) if k >= 0 and _is_inside(c, scan, following)), default=-1)
            owned = comments[: last + 1]
            if owned and owned[-1].after_code:
                trailing[order[k]] = owned.pop()
            if owned:
                before[order[k]].extend(owned)
            rest = comments[last + 1 :]
            if k + 1 < len(order):
                before[order[k + 1]].extend(rest)
            else:
                at_end.extend(rest)
        for comments in before.values():
            comments.sort(key=lambda c: (c.line, c.col))

    out: list[str] = []
    state = _Blanks(scan)
    previous_top: type | None = None
    for i, line in enumerate(lines):
        forced = False
        if line.top is not None:
            forced = previous_top is not None and not (line.top is previous_top and line.top in _COMPACT_DECLS)
            previous_top = line.top
        for comment in before[i]:
            state.write(out, " " * line.indent + comment.text, comment.line, line.head, forced)
            forced = False
        code = line.code()
        end = trailing.get(i)
        if end is not None:
            # The source column keeps comments lined up, unless it came from an over-long line.
            pad = end.col - len(code) if len(code) + 2 <= end.col <= MAX_WIDTH else 2
            code += " " * pad + end.text
        state.write(out, code, line.anchor, line.head, forced, opens=line.opens)
        if end is not None:
            state.source_line = max(state.source_line, end.line)
    for comment in at_end:
        state.write(out, comment.text, comment.line, True, False)
    return "\n".join(out) + "\n"


def _is_inside(comment: Comment, scan: Scan, following: int | None) -> bool:
    """Whether a comment belongs to the output line above it: after its code, or before more of it."""
    if comment.after_code:
        return True
    token = scan.token_after(comment.offset)
    return token is not None and following is not None and token.line < following


class _Blanks:
    """Decide where blank lines go: at most one, never first nor after a block's head."""

    def __init__(self, scan: Scan | None) -> None:
        self.scan = scan
        self.source_line = 0  # the source line of the last thing written
        self.after_head = True  # nothing written yet, or a line opening a block

    def write(
        self, out: list[str], text: str, source_line: int, head: bool, forced: bool, *, opens: bool = False
    ) -> None:
        kept = self.scan is not None and source_line - 1 > self.source_line and self.scan.is_blank(source_line - 1)
        if head and (forced or kept) and not self.after_head and out and out[-1]:
            out.append("")
        out.append(text)
        self.source_line = source_line
        self.after_head = opens


def _visibility(visibility: str) -> str:
    """A visibility as the rule file writes it ('mover' is written 'seen by mover', 'others' 'seen by
    others', a card variable told to every player 'public')."""
    return {"mover": "seen by mover", "others": "seen by others", "told": "public"}.get(visibility, visibility)
