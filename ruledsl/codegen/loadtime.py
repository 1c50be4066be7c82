"""Work out, when a game is loaded, the values its rules fix then: options, the deck, first values."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ruledsl.analysis.refs import MemberRef, OptionRef
from ruledsl.engine import ops
from ruledsl.syntax import nodes as n
from ruledsl.text.errors import Diagnostic, OptionError

if TYPE_CHECKING:
    from ruledsl.analysis.checker import CheckedGame


class LoadTimeValues:
    """Evaluate expressions known when the game is loaded: options, the deck, first values."""

    def __init__(
        self, checked: CheckedGame, players: int, options: dict[str, Any], deck_size: int | None = None
    ) -> None:
        self.checked = checked
        self.players = players
        self.options = options
        self.deck_size = deck_size  # known once the deck is built

    def value(self, e: n.Expr) -> Any:
        ref = self.checked.refs.get(id(e))
        if isinstance(e, n.Number):
            if isinstance(ref, MemberRef):
                return ref.member.index
            return e.value
        if isinstance(e, n.Text):
            return "".join(p if isinstance(p, str) else str(self.value(p)) for p in e.parts)
        if isinstance(e, n.BoolLit):
            return e.value
        if isinstance(e, n.NoneLit):
            return None
        if isinstance(e, n.AllPlayers):
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
            a, b = self.value(e.left), self.value(e.right)
            if e.op == "+":
                return a + b
            if e.op == "-":
                return a - b
            if e.op == "*":
                return a * b
            if b == 0:
                raise LoadTimeError(e, "division by zero")
            return a // b if e.op == "/" else a % b
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
            args = [self.value(a) for a in e.args]
            return {"max": max, "min": min, "abs": abs}[e.name](*args)
        if isinstance(e, n.Seat):
            i = self.value(e.index)
            if not 0 <= i < self.players:
                raise LoadTimeError(e, f"there is no seat {i} with {self.players} players")
            return i
        if isinstance(e, n.SetLiteral):
            t = self.checked.types.get(id(e))
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


def load_error(checked: CheckedGame, exc: LoadTimeError) -> OptionError:
    """The error a player sees for ``exc`` (E604), placed in the rule file."""
    return OptionError([Diagnostic("E604", exc.message, exc.node.span, None, source=checked.source)])
