"""What the checker can prove of a game's payoffs ('payoff: E'): their bounds, and whether they sum to a constant.

Nothing here guesses: a bound or a constant sum is given only when the rule text proves it,
else it is unknown (None). Two proofs are made:

- bounds, when the payoff is made of constants (``if won then 2 else -1``): the least and
  greatest values its arithmetic can give;
- a constant sum, when the payoff is a player variable plus or minus a load-time constant
  (``chips - start``) and that variable is only ever moved between players: no ``set`` of
  it anywhere, and each ``add`` to it next to a ``subtract`` of the same amount from it (in
  either order, in the same block), the amount and the players named by neither reading
  the variable nor a definition (which might), so that both read the same between the two.
  The sum is then each player's starting value plus the constant, over the players.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

import attrs
from attrs import frozen

from ruledsl.analysis.constants import constant_number
from ruledsl.analysis.refs import DefineRef, OptionRef, PlayerVarRef, Ref
from ruledsl.syntax import nodes as n


@frozen
class Conserved:
    """The payoff is ``var + offset`` (``offset`` a load-time constant) and the sum of ``var`` never changes."""

    var: str
    offset: n.Expr | None  # added to the variable; None for none
    negated: bool  # the offset is subtracted


def payoff_bounds(e: n.Expr) -> tuple[float, float] | None:
    """The least and greatest value of a payoff made of constants, else None."""
    value = constant_number(e)
    if value is not None:
        return (float(value), float(value))
    if isinstance(e, n.IfExpr):
        a, b = payoff_bounds(e.then), payoff_bounds(e.else_)
        return None if a is None or b is None else (min(a[0], b[0]), max(a[1], b[1]))
    if isinstance(e, n.Negate):
        a = payoff_bounds(e.operand)
        return None if a is None else (-a[1], -a[0])
    if isinstance(e, n.Arith) and e.op in "+-":
        a, b = payoff_bounds(e.left), payoff_bounds(e.right)
        if a is None or b is None:
            return None
        return (a[0] + b[0], a[1] + b[1]) if e.op == "+" else (a[0] - b[1], a[1] - b[0])
    return None


def conserved(file: n.GameFile, payoff: n.Expr, refs: Mapping[int, Ref]) -> Conserved | None:
    """How the payoffs sum to a constant, when the rules prove it (see the module), else None."""
    found = _variable_and_offset(payoff, refs)
    if found is None:
        return None
    var, offset, negated = found
    if offset is not None and not _load_time(offset, refs):
        return None
    for block in _blocks(file):
        if not _moves_only_between_players(block, var, refs):
            return None
    return Conserved(var, offset, negated)


def _own_var(e: n.Expr, refs: Mapping[int, Ref]) -> str | None:
    ref = refs.get(id(e))
    return ref.var.name if isinstance(ref, PlayerVarRef) and ref.owner is None else None


def _variable_and_offset(e: n.Expr, refs: Mapping[int, Ref]) -> tuple[str, n.Expr | None, bool] | None:
    var = _own_var(e, refs)
    if var is not None:
        return (var, None, False)
    if isinstance(e, n.Arith) and e.op in "+-":
        var = _own_var(e.left, refs)
        if var is not None:
            return (var, e.right, e.op == "-")
        var = _own_var(e.right, refs)
        if var is not None and e.op == "+":
            return (var, e.left, False)
    return None


def _load_time(e: n.Expr, refs: Mapping[int, Ref]) -> bool:
    """Whether ``e`` is numbers, options and 'players' put together by arithmetic."""
    for x in n.walk(e):
        if isinstance(x, n.Name):
            if not isinstance(refs.get(id(x)), OptionRef):
                return False
        elif not isinstance(x, (n.Number, n.Arith, n.Negate, n.AllPlayers)):
            return False
    return True


def _blocks(file: n.GameFile) -> Iterator[tuple[n.Node, ...]]:
    """Every sequence of nodes held by one field of a node: each block of statements among them."""
    for node in n.walk(file):
        for a in attrs.fields(type(node)):
            value = getattr(node, a.name)
            if isinstance(value, tuple) and value and isinstance(value[0], n.Node):
                yield value


def _writes(s: n.Node, var: str, refs: Mapping[int, Ref]) -> bool:
    if not isinstance(s, (n.Add, n.Subtract, n.SetStmt)):
        return False
    ref = refs.get(id(s.target))
    return isinstance(ref, PlayerVarRef) and ref.var.name == var


def _reads(e: n.Node, var: str, refs: Mapping[int, Ref]) -> bool:
    """Whether ``e`` may read ``var``: it names it, or a definition (which might)."""
    for x in n.walk(e):
        ref = refs.get(id(x))
        if isinstance(ref, DefineRef) or (isinstance(ref, PlayerVarRef) and ref.var.name == var):
            return True
    return False


def _moves_only_between_players(block: tuple[n.Node, ...], var: str, refs: Mapping[int, Ref]) -> bool:
    """Whether every statement of ``block`` writing ``var`` is half of an add/subtract pair of one amount."""
    i = 0
    while i < len(block):
        s = block[i]
        if not _writes(s, var, refs):
            i += 1
            continue
        nxt = block[i + 1] if i + 1 < len(block) else None
        if nxt is None or not _a_transfer(s, nxt, var, refs):
            return False
        i += 2
    return True


def _a_transfer(a: n.Node, b: n.Node, var: str, refs: Mapping[int, Ref]) -> bool:
    if not (_writes(b, var, refs) and {type(a), type(b)} == {n.Add, n.Subtract}):
        return False
    assert isinstance(a, (n.Add, n.Subtract)) and isinstance(b, (n.Add, n.Subtract))
    owners = [refs[id(s.target)].owner for s in (a, b)]  # type: ignore[union-attr]  # PlayerVarRefs (_writes)
    parts: list[n.Node] = [a.value, b.value, *(o for o in owners if o is not None)]
    return a.value == b.value and not any(_reads(p, var, refs) for p in parts)
