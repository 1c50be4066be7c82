"""Runtime values: actions and the data of a game state; no rule logic."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ruledsl.engine.program import Program

#: current_player() of a finished game (OpenSpiel's PlayerId.TERMINAL).
TERMINAL = -4

# What a rule asked to happen once its action is over.
NEXT_TURN = 0
AGAIN = 1
GO_TO = 2


class Place:
    """A card chosen by its place, as a label shows it to its chooser: ``n`` counts from 1 at
    the top of the cards offered. He does not see which card it is; but each such action must
    read otherwise than the others, or neither he nor a game record could tell them apart."""

    __slots__ = ("n",)

    def __init__(self, n: int) -> None:
        self.n = n


#: How a card reads to a player who cannot see it.
HIDDEN_CARD = "a hidden card"

#: A line the rules said (``say``): one text for every reader, or one per seat and then the
#: spectators' (a card named to those who see it when it is said).
Said = str | tuple[str, ...]


def said_to(line: Said, viewer: int | None) -> str:
    """A line the rules said as ``viewer`` (None: a spectator) is told it."""
    if isinstance(line, str):
        return line
    return line[-1 if viewer is None else viewer]


def unseen(c: Place | None) -> str:
    """How a card nobody named reads in a label: 'hidden card 3' when chosen by its place."""
    return HIDDEN_CARD if c is None else f"hidden card {c.n}"


class ActionDef:
    """One action of a phase or window, compiled: how to label it and what it does."""

    __slots__ = (
        "index",
        "name",
        "owner",
        "owner_kind",
        "is_pass",
        "apply",
        "label",
        "label_args",
        "label_is_static",
        "card_choices",
        "strength",
        "span",
        "game",
        "checks",
        "is_held",
        "stepped",
        "whole",
        "step_role",
    )

    def __init__(
        self,
        index: int,
        name: str,
        owner: str,
        owner_kind: str,
        is_pass: bool,
        apply: Callable[..., None],
        label: Callable[..., str],
        label_args: Callable[..., str],
        label_is_static: bool,
        strength: Callable[..., Any] | None,
        span: Any,
        card_choices: tuple[int, ...] = (),
    ) -> None:
        self.index = index
        self.name = name
        self.owner = owner
        self.owner_kind = owner_kind  # "phase", "auction" or "window"
        self.is_pass = is_pass
        self.apply = apply
        self.label = label  # (key) -> text, for labels made from the choices alone
        self.label_args = label_args  # (chosen values, show card) -> text, as someone sees it
        self.label_is_static = label_is_static
        # Where in the key single cards are chosen: by their place there when negative.
        self.card_choices = card_choices
        self.strength = strength
        self.span = span
        self.game: Program | None = None  # set when its program is built
        self.checks: ActionChecks | None = None  # what refusing it is explained with (not for a pass)
        self.is_held = False  # of a phase played together: chosen in secret, applied once all have chosen
        # Chosen card by card (see ruledsl.engine.stepping): the whole action's steps, once offered;
        # a step's whole action and its role (begin, pick, done).
        self.stepped: Any = None
        self.whole: ActionDef | None = None
        self.step_role: str | None = None

    def __repr__(self) -> str:
        return f"<action {self.owner}.{self.name}>"


class ChoiceCheck:
    """One choice of an action, compiled for explaining a refused move.

    ``domain(st, p, args)`` gives what may be chosen given the earlier choices (``args``):
    the pool of cards (``card``), ``(pool, size, value)`` (the groups of cards), ``(low,
    high)`` (``number``), the players (``player``) or None (``value``: any of the list).
    ``groups(st, p, args, cards, size)`` lists the groups of ``size`` cards of the choice's
    shape among ``cards``. A pool that is a zone is that zone's own list (``st.zones[z]``).
    """

    __slots__ = ("name", "kind", "domain", "groups", "attr", "wild", "part")

    def __init__(
        self,
        name: str,
        kind: str,
        domain: Callable[..., Any],
        groups: Callable[..., Any] | None,
        attr: str | None,
        wild: str | None,
        part: Callable[..., Any] | None = None,
    ) -> None:
        self.name = name
        self.kind = kind  # card, cards, same, valued, different, number, value, player
        self.domain = domain
        self.groups = groups
        self.attr = attr  # the attribute of a group's shape
        self.wild = wild  # the name of its wild cards, if any
        # part(st, p, args, cards, size): whether cards may be part of a group (a run's), picked card by card
        self.part = part


class ClauseCheck:
    """One condition of an action: tested at ``level`` (after that many choices), with its reason."""

    __slots__ = ("level", "test", "reason", "cond", "is_open", "able", "must")

    def __init__(
        self,
        level: int,
        test: Callable[..., Any],
        reason: Callable[..., str] | None,
        cond: Any,
        is_open: bool,
        able: bool = False,
        must: bool = False,
    ) -> None:
        self.level = level
        self.test = test  # (st, p, args) -> truth
        self.reason = reason  # (st, p, args) -> the designer's reason, read by p; None: none given
        self.cond = cond  # the condition's node, for a reason made from it
        self.is_open = is_open  # False: it reads a variable the player may not know; never told
        self.able = able  # 'require if able': it binds only while some choice meets it
        self.must = must  # 'must if able': while some choice meets it, it binds the whole phase


class ActionChecks:
    """Everything that decides whether an action is legal, in the order the engine tests it."""

    __slots__ = ("choices", "clauses", "otherwise", "node")

    def __init__(self, choices: list[ChoiceCheck], clauses: list[ClauseCheck], otherwise: bool, node: Any) -> None:
        self.choices = choices
        self.clauses = clauses
        self.otherwise = otherwise
        self.node = node  # the action's declaration (its label is read to understand typed moves)


class Action:
    """A legal move: an action of the rules and the choices made for it.

    Two actions are equal when they are the same action with the same choices;
    ``str(action)`` reads like "play the Castle". ``key`` holds the choices: a card is
    given by its kind (identical cards are one choice), or by its place in a zone its
    player cannot see, so that an action never tells which hidden card it is.
    """

    __slots__ = ("defn", "key", "_label", "public", "_hash")

    def __init__(
        self, defn: ActionDef, key: tuple[Any, ...], label: str | None = None, public: str | None = None
    ) -> None:
        self.defn = defn
        self.key = key
        self._label = label
        self.public = public  # a label computed from the state, as a spectator sees it
        self._hash = hash((defn.index, defn.owner, key))

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, Action):
            return NotImplemented
        return self.defn is other.defn and self.key == other.key

    def __hash__(self) -> int:
        return self._hash

    def __str__(self) -> str:
        if self._label is None:
            self._label = self.defn.label(self.key)
        return self._label

    def __repr__(self) -> str:
        return f"Action({str(self)!r})"

    @property
    def name(self) -> str:
        """The name of the rule-file action this is (``place``, ``draw``...)."""
        return self.defn.name


class ActionCache(dict):  # type: ignore[type-arg]
    """The actions of one rule-file action by their choices, made the first time they are asked for.

    Listing legal actions reads ``cache[choices]``: one lookup, no call, once an action
    exists. ``single`` caches take the lone choice itself as their key, not a 1-tuple.
    """

    __slots__ = ("make", "single")

    def __init__(self, make: Callable[[tuple[Any, ...]], Action], single: bool) -> None:
        super().__init__()
        self.make = make
        self.single = single

    def __missing__(self, choices: Any) -> Action:
        action = self[choices] = self.make((choices,) if self.single else choices)
        return action


class GameOver(Exception):
    """Raised inside rules by ``end game``: stops the action at once."""

    def __init__(
        self,
        winner: int | None = None,
        draw: bool = False,
        winners: frozenset[int] = frozenset(),
        losers: frozenset[int] = frozenset(),
    ) -> None:
        super().__init__()
        self.winner = winner
        self.draw = draw
        self.winners = winners  # ``end game, winners``: never empty there (the rules fail first)
        self.losers = losers  # ``end game, loser(s)``: never empty there either


class RoundOver(Exception):
    """Raised inside rules by ``end round``: stops the action at once."""
