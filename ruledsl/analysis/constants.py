"""Work out the value of an expression fixed before play: one evaluator for the checker and for loading."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any

from ruledsl.analysis.refs import MemberRef, OptionRef, Ref
from ruledsl.analysis.symbols import Type
from ruledsl.engine import ops
from ruledsl.engine.limits import MAX_INTEGER, MAX_TEXT, too_large_number, too_long_text
from ruledsl.syntax import nodes as n
from ruledsl.text.render import counted

_NOTHING: Mapping[Any, Any] = MappingProxyType({})

#: What the checker works out alone: numbers written with literals, and 'players' when told how many.
_NUMBER_NODES = (n.Number, n.AllPlayers, n.Negate, n.Arith, n.Call)


class ConstantValues:
    """Evaluate expressions whose value is fixed before play; raise LoadTimeError for any other.

    It knows what it is given: the checked game's ``refs`` and ``types`` (options, values
    and sets), the ``options`` chosen, how many ``players`` play, and the deck's size once it
    is built. With ``numbers_only`` it reads nothing but numbers written with literals, the
    four operations, max, min and abs (with their right number of arguments) and, when
    ``players`` is given, 'players': what the checker can work out before any option is chosen.
    """

    def __init__(
        self,
        refs: Mapping[int, Ref] = _NOTHING,
        types: Mapping[int, Type] = _NOTHING,
        players: int | None = None,
        options: Mapping[str, Any] = _NOTHING,
        deck_size: int | None = None,
        numbers_only: bool = False,
    ) -> None:
        self.refs = refs
        self.types = types
        self.players = players
        self.options = options
        self.deck_size = deck_size  # known once the deck is built
        self.numbers_only = numbers_only

    def value(self, e: n.Expr) -> Any:
        """Return the value of ``e``; raise LoadTimeError when it is not fixed before play."""
        if self.numbers_only and not isinstance(e, _NUMBER_NODES):
            raise LoadTimeError(e, "this is not a number written with literals")
        ref = self.refs.get(id(e))
        if isinstance(e, n.Number):
            if isinstance(ref, MemberRef):
                return ref.member.index
            return e.value
        if isinstance(e, n.Text):
            text = "".join(p if isinstance(p, str) else str(self.value(p)) for p in e.parts)
            if len(text) > MAX_TEXT:
                raise LoadTimeError(e, too_long_text(len(text)))
            return text
        if isinstance(e, n.BoolLit):
            return e.value
        if isinstance(e, n.NoneLit):
            return None
        if isinstance(e, n.AllPlayers):
            if self.players is None:
                raise LoadTimeError(e, "how many players play is not known here")
            return self.players
        if isinstance(e, n.Name):
            if isinstance(ref, OptionRef):
                return self.options[ref.option.name]
            if isinstance(ref, MemberRef):
                return ref.member.index
            raise LoadTimeError(e, f"'{e.id}' is not known when the game is loaded")
        if isinstance(e, n.Attribute) and isinstance(ref, MemberRef):
            return ref.member.index
        if isinstance(e, n.Negate):
            return -self.value(e.operand)
        if isinstance(e, n.Arith):
            return self._arith(e)
        if isinstance(e, n.Compare):
            a, b = self.value(e.left), self.value(e.right)
            if e.op in ("==", "!="):
                return (a == b) == (e.op == "==")
            # As the rules compare when they run: an order with none is false, never an error.
            return {"<": ops.lt, "<=": ops.le, ">": ops.gt, ">=": ops.ge}[e.op](a, b)
        if isinstance(e, n.BoolOp):
            return (
                (self.value(e.left) and self.value(e.right))
                if e.op == "and"
                else (self.value(e.left) or self.value(e.right))
            )
        if isinstance(e, n.Not):
            return not self.value(e.operand)
        if isinstance(e, n.IfExpr):
            return self.value(e.then) if self.value(e.cond) else self.value(e.else_)
        if isinstance(e, n.Call) and e.name in ("max", "min", "abs"):
            return self._builtin(e)
        return self._collection(e)

    def _arith(self, e: n.Arith) -> Any:
        a, b = self.value(e.left), self.value(e.right)
        if e.op in "+-*":
            # Each operand is within the limits, so the result has at most twice their digits.
            result = a + b if e.op == "+" else a - b if e.op == "-" else a * b
            if isinstance(result, int) and not -MAX_INTEGER <= result <= MAX_INTEGER:
                raise LoadTimeError(e, too_large_number(result))
            return result
        if b == 0:
            raise LoadTimeError(e, "division by zero")
        return a // b if e.op == "/" else a % b

    def _builtin(self, e: n.Call) -> Any:
        if self.numbers_only and (not e.args or (len(e.args) == 1) != (e.name == "abs")):
            # The wrong number of arguments is an error of its own (E302), not a number.
            raise LoadTimeError(e, f"'{e.name}' has the wrong number of arguments")
        args = [self.value(a) for a in e.args]
        builtins: dict[str, Any] = {"max": max, "min": min, "abs": abs}
        return builtins[e.name](*args)

    def _collection(self, e: n.Expr) -> Any:
        """The value of a seat, a set, a range, the deck or a size (known at load time only)."""
        if isinstance(e, n.Seat):
            i = self.value(e.index)
            if not 0 <= i < self.players:
                raise LoadTimeError(e, f"there is no seat {i} with {counted(self.players, 'player')}")
            return i
        if isinstance(e, n.SetLiteral):
            t = self.types.get(id(e))
            items = [self.value(i) for i in e.items]
            if t is not None and t.of not in (None, "number"):
                mask = 0
                for i in items:
                    if i is not None:
                        mask |= 1 << i
                return mask
            return frozenset(items)
        if isinstance(e, n.RangeLiteral):
            return range(self.value(e.low), self.value(e.high) + 1)
        if isinstance(e, n.TupleLiteral):
            return tuple(self.value(i) for i in e.items)
        if isinstance(e, n.EveryCard) and self.deck_size is not None:
            return range(self.deck_size)
        if isinstance(e, n.SizeOf):
            return len(self.value(e.operand))
        raise LoadTimeError(e, "this cannot be worked out when the game is loaded")


class LoadTimeError(Exception):
    """A value that cannot be worked out when the game is loaded, and the node that asks for it."""

    def __init__(self, node: n.Node, message: str) -> None:
        super().__init__(message)
        self.node = node
        self.message = message


def constant_number(e: n.Expr, players: int | None = None) -> int | None:
    """The value of a number written with literals alone (``0+0``, ``-1``), else None.

    With ``players``, a number may also use 'players' (``players - 1``).
    """
    try:
        return ConstantValues(players=players, numbers_only=True).value(e)
    except LoadTimeError:
        return None
