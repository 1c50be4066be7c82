"""The abstract syntax tree of a rule file: frozen attrs classes, no behaviour.

Every node is ``@frozen(kw_only=True)``; its ``span`` is left out of equality, so
``parse(unparse(node)) == node`` can be asserted. Never key a dict by node (equal
nodes at different places would collide): the checker keys by ``id(node)``.
Each class docstring ends with an ``Example:`` that ``tests/unit/test_node_examples.py``
parses back into that class.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator

import attrs
from attrs import field, frozen

from ruledsl.text.source import NO_SPAN, Span


@frozen(kw_only=True)
class Node:
    """Base of every node; never built itself."""

    span: Span = field(default=NO_SPAN, eq=False, repr=False)

    def children(self) -> Iterator[Node]:
        """Yield the nodes directly below this one, in source order."""
        # mypy takes a node class's __hash__ for its instances' (a class is hashable).
        for name in _child_fields(type(self)):  # type: ignore[arg-type]
            yield from _nodes_in(getattr(self, name))


@functools.cache
def _child_fields(cls: type[Node]) -> tuple[str, ...]:
    """The fields of a node class that may hold nodes (all but the span), in order; asked once per class."""
    return tuple(a.name for a in attrs.fields(cls) if a.name != "span")


def walk(node: Node) -> Iterator[Node]:
    """Yield ``node`` and every node below it, the parts of texts' ``{…}`` included."""
    stack = [node]
    while stack:
        x = stack.pop()
        yield x
        stack.extend(x.children())
        if isinstance(x, Text):
            stack.extend(p for p in x.parts if isinstance(p, Node))


def _nodes_in(value: object) -> Iterator[Node]:
    if isinstance(value, Node):
        yield value
    elif isinstance(value, tuple):
        for item in value:
            yield from _nodes_in(item)


@frozen(kw_only=True)
class Expr(Node):
    """Base of expressions."""


@frozen(kw_only=True)
class Stmt(Node):
    """Base of statements (effects)."""


@frozen(kw_only=True)
class Decl(Node):
    """Base of top-level declarations."""


@frozen(kw_only=True)
class TypeRef(Node):
    """Base of type annotations."""


@frozen(kw_only=True)
class ChoiceShape(Node):
    """Base of the shapes an action's choice can take."""


# ============================================================================ types


@frozen(kw_only=True)
class NamedType(TypeRef):
    """A type by name: ``number``, ``flag``, ``text``, ``zone`` or a ``values`` name.

    Example: ``number``
    """

    name: str


@frozen(kw_only=True)
class CardType(TypeRef):
    """One card.

    Example: ``card``
    """


@frozen(kw_only=True)
class CardsType(TypeRef):
    """Some cards, in order.

    Example: ``cards``
    """


@frozen(kw_only=True)
class PlayerType(TypeRef):
    """One player.

    Example: ``player``
    """


@frozen(kw_only=True)
class SetType(TypeRef):
    """A set of values.

    Example: ``set of suit``
    """

    element: TypeRef


@frozen(kw_only=True)
class TupleType(TypeRef):
    """A tuple of numbers and values, item by item.

    Example: ``(number, rank, rank)``
    """

    items: tuple[TypeRef, ...]


# ============================================================================ expressions


@frozen(kw_only=True)
class Number(Expr):
    """A whole number.

    Example: ``42``
    """

    value: int


@frozen(kw_only=True)
class Text(Expr):
    """A string; ``{expr}`` inside it is replaced by the value of ``expr``.

    ``parts`` holds literal strings and expressions in order.

    Example: ``"play {c}"``
    """

    parts: tuple[str | Expr, ...]


@frozen(kw_only=True)
class BoolLit(Expr):
    """``yes`` or ``no``.

    Example: ``yes``
    """

    value: bool


@frozen(kw_only=True)
class NoneLit(Expr):
    """No value: an empty top card, an unset variable.

    Example: ``none``
    """


@frozen(kw_only=True)
class Name(Expr):
    """A name: an option, variable, zone, value, definition or local.

    Example: ``deck``
    """

    id: str


@frozen(kw_only=True)
class Call(Expr):
    """A call of a definition or a built-in function.

    Example: ``max(2, run_length)``
    """

    name: str
    args: tuple[Expr, ...]


@frozen(kw_only=True)
class Attribute(Expr):
    """A card's attribute, a card or player variable, or a player's zone.

    Example: ``c.rank``
    """

    obj: Expr
    name: str


@frozen(kw_only=True)
class TupleLiteral(Expr):
    """Values compared in order, as a bid's strength or a ranking key.

    Example: ``(n, 1, v)``
    """

    items: tuple[Expr, ...]


@frozen(kw_only=True)
class SetLiteral(Expr):
    """A set of values.

    Example: ``{Moons, Suns}``
    """

    items: tuple[Expr, ...]


@frozen(kw_only=True)
class RangeLiteral(Expr):
    """The numbers or ordered values from ``low`` to ``high``, both included.

    Example: ``(1 to 5)``
    """

    low: Expr
    high: Expr


@frozen(kw_only=True)
class Negate(Expr):
    """Minus a number.

    Example: ``-1``
    """

    operand: Expr


@frozen(kw_only=True)
class Arith(Expr):
    """``+ - * / %`` on numbers (``/`` rounds down); ``+`` also joins cards.

    Example: ``size of hand + 1``
    """

    op: str
    left: Expr
    right: Expr


@frozen(kw_only=True)
class Compare(Expr):
    """``== != < <= > >=``; values of a ``values`` list compare in their listed order.

    Example: ``c.rank >= 7``
    """

    op: str
    left: Expr
    right: Expr


@frozen(kw_only=True)
class Member(Expr):
    """Whether a value is in a set, or a card among cards.

    Example: ``named in c.suits``
    """

    element: Expr
    collection: Expr
    negated: bool = False


@frozen(kw_only=True)
class Overlaps(Expr):
    """Whether two sets share a value.

    Example: ``c.suits overlaps top_card.suits``
    """

    left: Expr
    right: Expr


@frozen(kw_only=True)
class IsEmpty(Expr):
    """Whether a zone or some cards hold no card.

    Example: ``deck is empty``
    """

    operand: Expr
    negated: bool = False


@frozen(kw_only=True)
class IsOut(Expr):
    """Whether a player has finished (gone out).

    Example: ``p is out``
    """

    operand: Expr
    negated: bool = False


@frozen(kw_only=True)
class IsSeen(Expr):
    """Whether a card, where it lies now, is seen by every player (``is face up``: face up, or
    in a public zone and not turned down) or by one player (``is seen by P``).

    Example: ``c is seen by p``
    """

    operand: Expr
    viewer: Expr | None = None  # None: seen by every player
    negated: bool = False


@frozen(kw_only=True)
class IsNamed(Expr):
    """Whether a card is the card of that name.

    Example: ``c is "the Excuse"``
    """

    operand: Expr
    card_name: str
    negated: bool = False


@frozen(kw_only=True)
class Not(Expr):
    """Logical not.

    Example: ``not can_follow``
    """

    operand: Expr


@frozen(kw_only=True)
class BoolOp(Expr):
    """``and`` / ``or``, evaluated left to right, stopping early.

    Example: ``a and b``
    """

    op: str
    left: Expr
    right: Expr


@frozen(kw_only=True)
class IfExpr(Expr):
    """A value chosen by a condition.

    Example: ``if double then run_length - 2 else 1``
    """

    cond: Expr
    then: Expr
    else_: Expr


@frozen(kw_only=True)
class Quantifier(Expr):
    """``any``/``no`` ... ``where`` and ``every`` ... ``satisfies``: a test over cards or players.

    Example: ``any c in hand where c.rank == 10``
    """

    kind: str  # "any", "no" or "every"
    var: str
    iterable: Expr
    cond: Expr


@frozen(kw_only=True)
class Count(Expr):
    """How many elements (that meet a condition) there are.

    Example: ``count c in lot where c.value == 3``
    """

    var: str
    iterable: Expr
    where: Expr | None = None


@frozen(kw_only=True)
class CountSets(Expr):
    """How many sets of cards of ``iterable`` (one card at least, in any order) meet a condition.

    ``var`` names each set, as cards; a set is each choice of cards once (two fives are two sets
    of one card). Cribbage's fifteens, pairs and runs are counted so.

    Example: ``count sets s of cards in hand where (total c.value for c in s) == 15``
    """

    var: str
    iterable: Expr
    where: Expr


@frozen(kw_only=True)
class Filter(Expr):
    """The cards that meet a condition, in their order.

    Example: ``cards c in hand where c.joker``
    """

    var: str
    iterable: Expr
    where: Expr


@frozen(kw_only=True)
class First(Expr):
    """The first element that meets a condition, or none.

    Example: ``first p in players where p.score > 3``
    """

    var: str
    iterable: Expr
    where: Expr


@frozen(kw_only=True)
class Topmost(Expr):
    """The card nearest the top of a zone that meets a condition, or none.

    Example: ``topmost c in tas where c.rank != 3``
    """

    var: str
    iterable: Expr
    where: Expr


@frozen(kw_only=True)
class Aggregate(Expr):
    """``highest``, ``lowest``, ``total`` or ``distinct`` (count of different values) over elements.

    Example: ``highest size of p.jokers for p in players``
    """

    op: str
    value: Expr
    var: str
    iterable: Expr
    where: Expr | None = None


@frozen(kw_only=True)
class Best(Expr):
    """The element with the highest (or lowest) key among those that meet a condition, or none.

    Ties go to the first in the order of ``iterable``; an element whose key is none, or a
    tuple holding none (``(c.rank, c.suit)``, compared item by item), is passed over.

    Example: ``the c in trick with highest c.rank where c.suit == trump``
    """

    var: str
    iterable: Expr
    op: str  # "highest" or "lowest"
    key: Expr
    where: Expr | None = None


@frozen(kw_only=True)
class Sorted(Expr):
    """The elements of ``iterable`` in the order of ``key``, lowest first (highest first if ``descending``).

    Ties keep the order of ``iterable``; an element whose key is none (or a tuple holding
    none) goes last, whichever way the sort runs.

    Example: ``cards c in hand sorted by (c.rank, c.suit) descending``
    """

    var: str
    iterable: Expr
    key: Expr
    descending: bool = False


@frozen(kw_only=True)
class SubsetSum(Expr):
    """Whether some cards of ``iterable`` (one at least) have keys that add up to ``target``.

    ``op`` is the comparison written, which the checker allows to be ``==`` only.

    Example: ``some cards c in table with total c.value == 7``
    """

    var: str
    iterable: Expr
    key: Expr
    op: str
    target: Expr


@frozen(kw_only=True)
class TopOf(Expr):
    """The top card of a zone (``count`` absent), or its top ``count`` cards.

    Example: ``top of deck``
    """

    zone: Expr
    count: Expr | None = None


@frozen(kw_only=True)
class BottomOf(Expr):
    """The bottom card of a zone, or its bottom ``count`` cards.

    Example: ``bottom of deck``
    """

    zone: Expr
    count: Expr | None = None


@frozen(kw_only=True)
class AllOf(Expr):
    """Every card of a zone, bottom to top.

    Example: ``all of tas``
    """

    zone: Expr


@frozen(kw_only=True)
class AllButTop(Expr):
    """Every card of a zone but its top ``count``.

    Example: ``all but top 2 of pile``
    """

    count: Expr
    zone: Expr


@frozen(kw_only=True)
class SizeOf(Expr):
    """How many cards (or elements) there are.

    Example: ``size of hand``
    """

    operand: Expr


@frozen(kw_only=True)
class PositionOf(Expr):
    """A card's place in its zone, counting from 1 at the top; a value's place in its list.
    ``as_number`` is its other spelling, for a value: ``c.rank as number``.

    Example: ``position of c``
    """

    operand: Expr
    as_number: bool = False


@frozen(kw_only=True)
class ItemOf(Expr):
    """The ``index``-th element of cards or players, from 1, in the order they are read, or none.

    Example: ``the item 2 of cards c in hand sorted by c.rank``
    """

    index: Expr
    operand: Expr


@frozen(kw_only=True)
class RunOf(Expr):
    """The cards at the top of a zone that share ``key``, topmost first.

    ``key`` names a card attribute or a one-card definition; a set-valued key is
    shared when all the cards have a value in common.

    Example: ``run of tas sharing rank``
    """

    zone: Expr
    key: str


@frozen(kw_only=True)
class EveryCard(Expr):
    """Every card of the game, wherever it is.

    Example: ``every card``
    """


@frozen(kw_only=True)
class ActingPlayer(Expr):
    """The player acting now (``player``).

    Example: ``player``
    """


@frozen(kw_only=True)
class PlayerStep(Expr):
    """The next (``after``) or previous (``before``) player in turn order, skipping those who are out.

    Example: ``player after leader``
    """

    player: Expr
    step: int  # +1 after, -1 before


@frozen(kw_only=True)
class AllPlayers(Expr):
    """Every player, by seat.

    Example: ``players``
    """


@frozen(kw_only=True)
class PlayersAfter(Expr):
    """The other players in turn order, from the one after ``player``; those who are out are left out.

    Example: ``players after player``
    """

    player: Expr


@frozen(kw_only=True)
class PlayersStarting(Expr):
    """The players in turn order beginning with ``player``; those who are out are left out.

    Example: ``players starting with left of leader``
    """

    player: Expr


@frozen(kw_only=True)
class Neighbour(Expr):
    """The seat on a player's left (next clockwise) or right, whatever the direction of play.

    Example: ``left of dealer``
    """

    side: str  # "left" or "right"
    player: Expr


@frozen(kw_only=True)
class Seat(Expr):
    """The player in a seat, counting from 0.

    Example: ``seat 0``
    """

    index: Expr


# ============================================================================ statements


@frozen(kw_only=True)
class Move(Stmt):
    """Move a card or cards to a zone: on top, at the bottom, or at a random place.

    Example: ``move top of deck to hand``
    """

    what: Expr
    to: Expr
    placement: str = "top"  # "top", "bottom" or "random"
    facing: str | None = None  # "up", "down" or None for the zone's own


@frozen(kw_only=True)
class Deal(Stmt):
    """Deal cards one at a time, round the table, to a zone of every player.

    Example: ``deal 7 from deck to each hand``
    """

    count: Expr
    source: Expr
    target: str
    start: Expr | None = None
    facing: str | None = None


@frozen(kw_only=True)
class Shuffle(Stmt):
    """Shuffle a zone.

    Example: ``shuffle deck``
    """

    zone: Expr


@frozen(kw_only=True)
class Cut(Stmt):
    """Cut a zone at a random place: the bottom part goes on top.

    Example: ``cut deck``
    """

    zone: Expr


@frozen(kw_only=True)
class Reveal(Stmt):
    """Show a card or cards to every player, wherever they are.

    Example: ``reveal top of deck``
    """

    what: Expr


@frozen(kw_only=True)
class Show(Stmt):
    """Show a card or cards to one player, where they lie: he sees them until they move.

    Example: ``show top of deck to player``
    """

    what: Expr
    to: Expr


@frozen(kw_only=True)
class TurnFace(Stmt):
    """Turn cards face up (seen by all) or face down, where they lie.

    Example: ``turn up top of deck``
    """

    up: bool
    what: Expr


@frozen(kw_only=True)
class Let(Stmt):
    """Name a value for the rest of the block.

    Example: ``let turned = top of lot``
    """

    name: str
    value: Expr


@frozen(kw_only=True)
class SetStmt(Stmt):
    """Give a variable a new value.

    Example: ``set named = none``
    """

    target: Expr
    value: Expr


@frozen(kw_only=True)
class Add(Stmt):
    """Add to a number variable.

    Example: ``add 1 to passes``
    """

    value: Expr
    target: Expr


@frozen(kw_only=True)
class Subtract(Stmt):
    """Subtract from a number variable.

    Example: ``subtract 5 from p.score``
    """

    value: Expr
    target: Expr


@frozen(kw_only=True)
class Stop(Stmt):
    """Leave the innermost loop.

    Example: ``stop``
    """


@frozen(kw_only=True)
class Again(Stmt):
    """The same player acts again once this action is over.

    Example: ``again``
    """


@frozen(kw_only=True)
class EndTurn(Stmt):
    """The turn passes to the next player once this action is over (the default).

    Example: ``end turn``
    """


@frozen(kw_only=True)
class EndRound(Stmt):
    """End the round at once: the ``round end`` rules run, then the next round or the result.

    Example: ``end round``
    """


@frozen(kw_only=True)
class EndGame(Stmt):
    """End the game at once: with a winner, winners who share the win, a loser or losers (every
    other player wins; in a one-player game, he loses), a draw, or the ``ranking``.

    Example: ``end game, winner player``
    """

    winner: Expr | None = None
    draw: bool = False
    winners: Expr | None = None  # players, all of whom win (partners); at most one of the five
    loser: Expr | None = None  # a player who loses (-1), the others winning (+1)
    losers: Expr | None = None  # players who lose, the others winning


@frozen(kw_only=True)
class GoTo(Stmt):
    """Move on to a phase once this action is over, optionally giving the turn to a player.

    Example: ``go to play with left of dealer``
    """

    phase: str
    player: Expr | None = None


@frozen(kw_only=True)
class Open(Stmt):
    """Open a window: once this action is over, its players may act before the turn goes on.

    Example: ``open cut``
    """

    window: str


@frozen(kw_only=True)
class Reverse(Stmt):
    """Reverse the direction of play.

    Example: ``reverse direction``
    """


@frozen(kw_only=True)
class Finish(Stmt):
    """A player goes out: he is skipped from now on, and his place in the finishing order is kept;
    ``for the round``: only until the round ends (he plays again from the next round's setup).

    Example: ``finish player for the round``
    """

    player: Expr
    for_round: bool = False


@frozen(kw_only=True)
class Say(Stmt):
    """Write a line to every player's log.

    Example: ``say "the tas is burned"``
    """

    message: Expr


@frozen(kw_only=True)
class CallStmt(Stmt):
    """Run a procedure (``to name: ...``).

    Example: ``refill``
    """

    name: str
    args: tuple[Expr, ...] = ()


@frozen(kw_only=True)
class If(Stmt):
    """Run the block of the first true condition, else the ``else`` block.

    Example: ``if deck is empty: shuffle pile``
    """

    branches: tuple[tuple[Expr, tuple[Stmt, ...]], ...]
    else_: tuple[Stmt, ...] = ()


@frozen(kw_only=True)
class ForEach(Stmt):
    """Run a block for each element, in order.

    Example: ``for each p in players: set p.score = 0``
    """

    var: str
    iterable: Expr
    where: Expr | None = None
    body: tuple[Stmt, ...] = ()


@frozen(kw_only=True)
class While(Stmt):
    """Run a block while a condition holds (bounded by the step budget).

    Example: ``while deck is not empty: stop``
    """

    cond: Expr
    body: tuple[Stmt, ...] = ()


@frozen(kw_only=True)
class Repeat(Stmt):
    """Run a block a number of times, or until ``stop`` when no count is given.

    Example: ``repeat 2 times: again``
    """

    count: Expr | None
    body: tuple[Stmt, ...] = ()


# ============================================================================ choices


@frozen(kw_only=True)
class CardChoice(ChoiceShape):
    """One card from some cards; identical cards give one choice.

    Example: ``card from hand``
    """

    pool: Expr
    wild: str | None = None


@frozen(kw_only=True)
class NumberChoice(ChoiceShape):
    """A number in a range.

    Example: ``number 1 to 5``
    """

    low: Expr
    high: Expr


@frozen(kw_only=True)
class PlayerChoice(ChoiceShape):
    """One player from some players.

    Example: ``player from players after player``
    """

    pool: Expr


@frozen(kw_only=True)
class ValueChoice(ChoiceShape):
    """One value of a ``values`` list.

    Example: ``suit``
    """

    type_name: str


@frozen(kw_only=True)
class CardsChoice(ChoiceShape):
    """Some cards: ``count`` of them, or one or more; with ``high``, ``count`` to ``high`` of them.

    Example: ``3 cards from faceup + hand``
    """

    count: Expr | None
    pool: Expr
    wild: str | None = None
    high: Expr | None = None  # 'LOW to HIGH cards': count is LOW


@frozen(kw_only=True)
class SameChoice(ChoiceShape):
    """Cards that all have one value of ``attr``; wild cards stand for any value. With ``high``,
    ``count`` to ``high`` of them.

    Example: ``1 to 4 cards of one rank from hand``
    """

    count: Expr | None
    attr: str
    pool: Expr
    wild: str | None = None
    high: Expr | None = None  # 'LOW to HIGH cards of one ATTR': count is LOW


@frozen(kw_only=True)
class ValuedChoice(ChoiceShape):
    """Cards that all have the given value of ``attr``; wild cards stand for it.

    Example: ``4 cards of value v from hand with joker wild``
    """

    count: Expr | None
    attr: str
    value: Expr
    pool: Expr
    wild: str | None = None


@frozen(kw_only=True)
class DifferentChoice(ChoiceShape):
    """Cards whose values of ``attr`` all differ; wild cards stand for missing values. With
    ``sequence``, a run: values consecutive in ``attr``'s order (``cards in sequence of
    rank``), ``width`` cards of each (2: ``cards in pairs in sequence of rank``), all sharing
    one value of ``sharing`` if given (``of one suit``), wild cards standing in for missing
    cards; with ``high``, ``count`` to ``high`` of them.

    Example: ``3 cards of different value from hand with joker wild``
    """

    count: Expr | None
    attr: str
    pool: Expr
    wild: str | None = None
    high: Expr | None = None  # 'LOW to HIGH cards in sequence of ATTR': count is LOW
    sequence: bool = False
    sharing: str | None = None
    width: int = 1  # a run's cards of each value: 2 for pairs in sequence, 3 for triples


#: The shapes of a choice made from a pool of cards (every shape but a number, a value or a player).
POOLED_CHOICES = (CardChoice, CardsChoice, SameChoice, ValuedChoice, DifferentChoice)


@frozen(kw_only=True)
class Choice(Node):
    """A named choice a player makes as part of an action.

    Example: ``c: card from hand``
    """

    name: str
    shape: ChoiceShape


# ============================================================================ declarations


@frozen(kw_only=True)
class GameHeader(Node):
    """The game's name: the first line of every rule file.

    Example: ``game "Crazy Eights"``
    """

    name: str


@frozen(kw_only=True)
class PlayersDecl(Decl):
    """How many players the game allows.

    Example: ``players 2 to 6``
    """

    low: Expr
    high: Expr


@frozen(kw_only=True)
class RangeDomain(Node):
    """The numbers an option may take.

    Example: ``1 to 20``
    """

    low: Expr
    high: Expr


@frozen(kw_only=True)
class ChoiceDomain(Node):
    """The words an option may take.

    Example: ``"one_group", "all"``
    """

    choices: tuple[str, ...]


@frozen(kw_only=True)
class OptionDecl(Decl):
    """A variant chosen when the game is loaded, with its default and description.

    Example: ``option double = no``
    """

    name: str
    domain: RangeDomain | ChoiceDomain | None
    default: Expr
    doc: str | None = None


@frozen(kw_only=True)
class ValueMember(Node):
    """One value of a ``values`` list, and how it is shown.

    Example: ``hearts "♥"``
    """

    name: str
    display: str | None = None


@frozen(kw_only=True)
class ValuesDecl(Decl):
    """An ordered list of values: suits, ranks.

    Example: ``values suit: Moons, Suns, Waves``
    """

    name: str
    members: tuple[ValueMember, ...]


@frozen(kw_only=True)
class AttributeDecl(Decl):
    """An attribute every card has (none or empty when a card does not give it).

    Example: ``card suits: set of suit``
    """

    name: str
    type: TypeRef


@frozen(kw_only=True)
class CardAssign(Node):
    """One attribute of a card.

    Example: ``rank Ace``
    """

    name: str
    value: Expr


@frozen(kw_only=True)
class CardLoop(Node):
    """Make a card for each value of an attribute in a range.

    Example: ``value in 1 to 5``
    """

    name: str
    low: Expr
    high: Expr


@frozen(kw_only=True)
class CardEntry(Node):
    """Cards of the deck: a name (``{attr}`` is replaced), attributes, copies and loops.

    Example: ``15 × card "{value}" for value in 1 to 5``
    """

    name: str
    copies: Expr | None = None
    assigns: tuple[CardAssign, ...] = ()
    loops: tuple[CardLoop, ...] = ()


@frozen(kw_only=True)
class DeckIf(Node):
    """Cards that are in the deck only when a condition (on options) holds.

    Example: ``if excuse: card "the Excuse"``
    """

    cond: Expr
    body: tuple[Node, ...]
    else_: tuple[Node, ...] = ()


@frozen(kw_only=True)
class DeckRepeat(Node):
    """Cards put in the deck several times.

    Example: ``repeat decks times: card "Joker"``
    """

    count: Expr
    body: tuple[Node, ...]


@frozen(kw_only=True)
class DeckDecl(Decl):
    """Every card of the game.

    Example: ``deck: card "A"``
    """

    entries: tuple[Node, ...]


@frozen(kw_only=True)
class ZoneDecl(Decl):
    """A place cards lie: shared or one per player, seen by all, its owner, nobody, or for each
    card the player who moved it there (``seen by mover``: a bluffing pile).

    ``sorted_by`` (card attributes) and ``unlisted_when_empty`` say how the zone is shown to
    people, never what it holds nor its order in the game.

    Example: ``zone hand: per player, owner, sorted by (suit, rank)``
    """

    name: str
    per_player: bool
    visibility: str  # "public", "owner", "hidden", "mover" or "others"
    sorted_by: tuple[str, ...] = ()  # the card attributes its cards are shown in the order of
    unlisted_when_empty: bool = False  # left out of the views shown to people while it holds no card


@frozen(kw_only=True)
class VarDecl(Decl):
    """A variable of the game, of each player or of each card, with its first value.

    ``unlisted`` keeps it out of the views shown to people (bookkeeping), not out of
    the observations: who may know it is ``visibility``'s business.

    Example: ``player var score = 0``
    """

    scope: str  # "game", "player" or "card"
    name: str
    type: TypeRef | None
    init: Expr
    #: "public", "owner" or "hidden"; a card variable: "public" (seen by whoever sees the card) or,
    #: written 'public', "told" (every player knows it, even where he does not see the card).
    visibility: str = "public"
    unlisted: bool = False
    label: str | None = None  # how the views shown to people name it (else its name)


@frozen(kw_only=True)
class TypedParam(Node):
    """A parameter of a definition or procedure.

    Example: ``c: card``
    """

    name: str
    type: TypeRef


@frozen(kw_only=True)
class DefineDecl(Decl):
    """A named value or function, computed when used.

    Example: ``define can_draw = deck is not empty``
    """

    name: str
    params: tuple[TypedParam, ...]
    body: Expr


@frozen(kw_only=True)
class ProcedureDecl(Decl):
    """A named block of effects, run by writing its name.

    Example: ``to refill: shuffle deck``
    """

    name: str
    params: tuple[TypedParam, ...]
    body: tuple[Stmt, ...]


@frozen(kw_only=True)
class TriggerDecl(Decl):
    """Effects that run whenever cards are moved into a zone.

    ``owner`` names, for a zone of each player written ``p.hand``, the player whose zone
    received the cards (``zone`` is then the plain name ``hand``); None for ``when cs enter tas``.

    Example: ``when cs enter p.hand: again``
    """

    var: str
    zone: Expr
    body: tuple[Stmt, ...]
    owner: str | None = None


@frozen(kw_only=True)
class SetupDecl(Decl):
    """Effects that prepare each round: shuffle, deal, choose who starts.

    Example: ``setup: shuffle deck``
    """

    body: tuple[Stmt, ...]


@frozen(kw_only=True)
class ActionDecl(Node):
    """Something a player may do: its choices, when it is allowed, its label and effects.

    An ``otherwise`` action is possible only when no other action of its phase is
    ("if he cannot play, he draws").

    Example: ``action draw otherwise when deck is not empty: again``
    """

    name: str
    choices: tuple[Choice, ...]
    when: Expr | None
    requires: tuple[RequireClause, ...] = ()
    label: Expr | None
    strength: Expr | None
    body: tuple[Stmt, ...]
    otherwise: bool = False


@frozen(kw_only=True)
class RequireClause(Node):
    """A condition of an action, with the reason a player is given when it does not hold.

    The reason is text (or an ``if`` choosing between texts), read only when a move is refused.

    With ``able`` (``require if able C, REASON``) it binds only while some choice of the
    action meets it: then the choices that do not are not legal. With ``must`` (``must if
    able C, REASON``) it binds the whole phase: while some choice of the action meets it,
    only those choices are legal, and no other action of the phase (pass neither).

    Example: ``require may_follow(c), "{c} shares neither the rank nor a suit of {top_card}"``
    """

    cond: Expr
    reason: Expr
    able: bool = False
    must: bool = False


@frozen(kw_only=True)
class PassDecl(Node):
    """The label and effects of passing in an auction or a window.

    Example: ``pass: label "let it pass"``
    """

    label: Expr | None
    body: tuple[Stmt, ...]


@frozen(kw_only=True)
class OnEnter(Node):
    """Effects run each time the game enters a phase.

    Example: ``on enter: reveal_lot``
    """

    body: tuple[Stmt, ...]


@frozen(kw_only=True)
class WonHandler(Node):
    """Effects run when an auction is won; ``var`` names the winner.

    Example: ``when won by w: go to paying with w``
    """

    var: str
    body: tuple[Stmt, ...]


@frozen(kw_only=True)
class UnsoldHandler(Node):
    """Effects run when every player passes without a bid.

    Example: ``when unsold: end round``
    """

    body: tuple[Stmt, ...]


@frozen(kw_only=True)
class OfferItem(Node):
    """A window's offer of an action declared in a phase: the same choices, requires, label and
    effects, written once and played out of turn as well.

    Example: ``offer bomb from play``
    """

    name: str
    phase: str


@frozen(kw_only=True)
class AllPassHandler(Node):
    """Effects run when a window closes with every player in it having passed.

    Example: ``when all pass: go to bidding``
    """

    body: tuple[Stmt, ...]


@frozen(kw_only=True)
class AllChosenHandler(Node):
    """Effects run in a phase played together, once every chooser's held choice has taken effect.

    Example: ``when all chosen: go to play``
    """

    body: tuple[Stmt, ...]


@frozen(kw_only=True)
class PhaseDecl(Decl):
    """A part of the game with the actions its turn player may take.

    An auction (``auction name:``) has bids instead: actions with a ``strength``; the
    players bid in turn or pass for good until one bidder is left.

    Example: ``phase play: action pass: label "pass"``
    """

    name: str
    items: tuple[Node, ...]
    is_auction: bool = False
    #: A phase played together (``phase pass together [for PLAYERS]:``): each of ``who`` (None: every
    #: player still in) makes one secret choice, and the effects run once all have chosen.
    together: bool = False
    who: Expr | None = None
    #: An auction whose passes are not final (``auction bidding until 3 passes:``): it ends after this many
    #: passes in a row following a bid (or once every player has passed with no bid); its actions without a
    #: ``strength`` are calls (double, redouble) that leave the standing bid.
    passes: int | None = None


@frozen(kw_only=True)
class WindowDecl(Decl):
    """Actions some players may take out of turn, in priority order, after a play.

    Example: ``window cut for players after player: pass: label "let it pass"``
    """

    name: str
    who: Expr
    items: tuple[Node, ...]


@frozen(kw_only=True)
class RoundEndDecl(Decl):
    """Effects run when a round ends; unless they end the game, a new round starts.

    Example: ``round end: end game``
    """

    body: tuple[Stmt, ...]


@frozen(kw_only=True)
class RequireDecl(Decl):
    """A condition on the players and options, checked when the game is loaded.

    Example: ``require players * hand_size < size of every card, "not enough cards"``
    """

    cond: Expr
    message: Text


@frozen(kw_only=True)
class LabelDecl(Decl):
    """How a card reads to people where they see it: text made from its attributes.

    Example: ``label card c as "{c} ({c.rank}: {c.suits})"``
    """

    var: str
    text: Expr


@frozen(kw_only=True)
class RankingKey(Node):
    """One key of the ranking: ``highest``/``lowest`` of a per-player value, or the finishing order.

    Example: ``highest score``
    """

    order: str  # "highest", "lowest" or "finishing"
    value: Expr | None = None


@frozen(kw_only=True)
class RankingDecl(Decl):
    """How players are ranked when the game ends without a single winner.

    Example: ``ranking: highest score, then lowest total_jokers``
    """

    keys: tuple[RankingKey, ...]


@frozen(kw_only=True)
class StandingDecl(Decl):
    """How players stand while the game goes on (who leads), for statistics; same keys as a ranking.

    Example: ``standing: lowest size of hand``
    """

    keys: tuple[RankingKey, ...]


@frozen(kw_only=True)
class PayoffDecl(Decl):
    """The returns are scores: each player's number when the game ends, not his place.

    Its range, ``low`` to ``high`` (None: not declared), bounds every payoff and is known when
    the game is loaded.

    Example: ``payoff: chips - 100, from -100 to 100 * (players - 1)``
    """

    value: Expr
    low: Expr | None = None
    high: Expr | None = None


@frozen(kw_only=True)
class GameFile(Node):
    """A whole rule file.

    Example: ``game "Solitaire"``
    """

    header: GameHeader
    decls: tuple[Decl, ...]

    @property
    def name(self) -> str:
        return self.header.name
