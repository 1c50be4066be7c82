"""A game's actions as integers: a fixed number of ids, each one choice, the same in every state.

Every rule-file action gets a block of ids, one per combination of its choices: a card by
its kind (or, unseen, by its place from the top of the pool), a number in its range, a
value of its list, a player. Choosing a set of cards would make too many ids (a hand of 15
has 32,768 subsets), so an action with such a choice is *decomposed*, the same for every
state of the game: its first id (the "head") names the action and its other choices, then
each card of the set is one id per kind, in ascending order, and an id "done" closes the
set. ``Decisions`` holds the ids picked so far and applies the real ``Action`` when its
last id is picked; the game underneath is the same.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from ruledsl.analysis.constants import ConstantValues, LoadTimeError
from ruledsl.analysis.refs import ZoneRef
from ruledsl.engine.game import Game
from ruledsl.engine.state import GameState
from ruledsl.engine.values import Action, ActionDef
from ruledsl.syntax import nodes as n
from ruledsl.text.errors import IllegalActionError


class SpaceError(ValueError):
    """An id that is no action of the game, or a number chosen past the range its space gives it."""


class _Choice:
    """How one choice of an action is numbered: ``size`` ids, ``encode`` (key part -> id), ``describe`` (id -> text)."""

    __slots__ = ("size", "encode", "describe", "is_group")

    def __init__(
        self, size: int, encode: Callable[[Any], int], describe: Callable[[int], str], is_group: bool = False
    ) -> None:
        self.size = size
        self.encode = encode
        self.describe = describe
        self.is_group = is_group


class _ActionBlock:
    """The ids of one rule-file action: ``offset`` and the choices numbered inside it (mixed radix)."""

    __slots__ = ("defn", "offset", "choices", "flat", "size")

    def __init__(self, defn: ActionDef, offset: int, choices: list[_Choice]) -> None:
        self.defn = defn
        self.offset = offset
        self.choices = choices
        self.flat = not any(c.is_group for c in choices)
        size = 1
        for c in choices:
            if not c.is_group:
                size *= c.size
        self.size = size

    def head(self, key: tuple[Any, ...]) -> int:
        """The id of the action with the key's choices (a set of cards left out)."""
        i = 0
        for c, part in zip(self.choices, key):
            if not c.is_group:
                i = i * c.size + c.encode(part)
        return self.offset + i

    def describe(self, i: int) -> str:
        parts: list[str] = []
        for c in reversed(self.choices):
            if c.is_group:
                parts.append("<cards>")
            else:
                i, j = divmod(i, c.size)
                parts.append(c.describe(j))
        return " ".join([self.defn.name.replace("_", " "), *reversed(parts)])


class ActionSpace:
    """The integer actions of one loaded game (one player count, one choice of options).

    ``num_distinct_actions`` ids: first every action's block, then (for a game with sets
    of cards to choose) one id per card kind, a card of a set being chosen, then ``done``.
    ``tokens(action)`` is the ids that choose an action: one for a flat action, head +
    kinds + done for one with a set of cards.
    """

    def __init__(self, game: Game) -> None:
        self.game = game
        prog = game.program
        prog.action_checks()  # each ActionDef learns its declaration (checks.node)
        self.n_kinds = len(prog.kind_reps)
        self._values = ConstantValues(game.checked.refs, game.checked.types, prog.players, prog.options, prog.n_cards)
        self.blocks: list[_ActionBlock] = []
        self._block_of: dict[int, _ActionBlock] = {}
        offset = 0
        for defn in _action_defs(game):
            block = _ActionBlock(defn, offset, self._choices(defn))
            self.blocks.append(block)
            self._block_of[id(defn)] = block
            offset += block.size
        self.is_flat = all(b.flat for b in self.blocks)
        # A game without sets of cards has no picks and no "done": its last id is its last action's.
        self.pick_base = offset
        self.done = offset + self.n_kinds
        self.num_distinct_actions = offset if self.is_flat else self.done + 1
        self._tokens: dict[Action, tuple[int, ...]] = {}
        #: Each action's first id (its only one when flat), worked out the first time it is asked for.
        self.first_ids = _FirstIds(self)

    # ------------------------------------------------------------------ numbering

    def _choices(self, defn: ActionDef) -> list[_Choice]:
        node = defn.checks.node if defn.checks is not None else None
        if not isinstance(node, n.ActionDecl):
            return []  # a pass: no choices
        return [self._choice(ch.shape) for ch in node.choices]

    def _choice(self, shape: n.ChoiceShape) -> _Choice:
        prog = self.game.program
        if isinstance(shape, n.CardChoice):
            kinds = self.n_kinds
            # A card its chooser sees is chosen by its kind, one he does not by its place.
            places = 0 if self._always_seen(shape.pool) else prog.n_cards
            return _Choice(
                kinds + places,
                lambda k: k if k >= 0 else (kinds - 1 - k if places else _by_place(k)),
                lambda j: prog.card_names[prog.kind_reps[j]] if j < kinds else f"hidden card {j - kinds + 1}",
            )
        if isinstance(shape, n.NumberChoice):
            low = self._bound(shape.low, 0)
            high = max(low, self._bound(shape.high, prog.n_cards))
            name = str(shape.span.start.line) if shape.span is not None else "?"

            def number(v: int) -> int:
                if not low <= v <= high:
                    raise SpaceError(
                        f"the number {v} chosen in {prog.filename}:{name} is outside {low} to {high}, "
                        "the range the action space gives it (the deck's size when its bound is not fixed at load)"
                    )
                return v - low

            return _Choice(high - low + 1, number, lambda j: str(low + j))
        if isinstance(shape, n.PlayerChoice):
            return _Choice(prog.players, lambda q: q, lambda j: f"P{j}")
        if isinstance(shape, n.ValueChoice):
            members = self.game.checked.symbols.values[shape.type_name].members
            return _Choice(len(members), lambda v: v, lambda j: members[j])
        return _Choice(0, lambda _: 0, lambda _: "", is_group=True)

    def _always_seen(self, pool: n.Expr) -> bool:
        """Whether the chooser always sees the cards of ``pool``, so never chooses one by its place
        (as the code generator decides it: his own zone or a public one, and no card turned)."""
        ref = self.game.checked.refs.get(id(pool))
        if not isinstance(ref, ZoneRef) or self.game.program.uses_faces:
            return False
        zone = ref.zone
        return zone.visibility == "public" or (zone.visibility == "owner" and zone.per_player and ref.owner is None)

    def _bound(self, e: n.Expr, default: int) -> int:
        try:
            value = self._values.value(e)
        except LoadTimeError:
            return default
        return value if isinstance(value, int) and not isinstance(value, bool) else default

    def tokens(self, action: Action) -> tuple[int, ...]:
        """Return the ids that choose ``action``, in order (one id unless it has a set of cards)."""
        found = self._tokens.get(action)
        if found is None and action.defn.whole is not None:
            # A step of a set chosen card by card (ruledsl.engine.stepping) is the id the bridge gives
            # that step of the same set listed whole: begin is the head, then a pick per kind, done.
            role, whole = action.defn.step_role, action.defn.whole
            if role == "begin":
                found = (self._block_of[id(whole)].head(()),)
            else:
                found = (self.pick_base + action.key[0],) if role == "pick" else (self.done,)
            self._tokens[action] = found
        if found is None:
            block = self._block_of[id(action.defn)]
            head = block.head(action.key)
            if block.flat:
                found = (head,)
            else:
                picks = [head]
                for c, part in zip(block.choices, action.key):
                    if c.is_group:
                        picks.extend(self.pick_base + k for k in part)
                        picks.append(self.done)
                found = tuple(picks)
            self._tokens[action] = found
        return found

    def action_id(self, action: Action) -> int:
        """Return the one id of a flat action (its head, for one with a set of cards)."""
        return self.tokens(action)[0]

    def describe(self, i: int) -> str:
        """Return what id ``i`` chooses, the same in every state ('play 7♣', 'pick 7♣', 'done')."""
        if not 0 <= i < self.num_distinct_actions:
            raise SpaceError(f"{i} is not an action id: the ids run from 0 to {self.num_distinct_actions - 1}")
        if i == self.done:
            return "done"
        if i >= self.pick_base:
            prog = self.game.program
            return "pick " + prog.card_names[prog.kind_reps[i - self.pick_base]]
        for block in self.blocks:
            if i < block.offset + block.size:
                return block.describe(i - block.offset)
        raise AssertionError("unreachable: the blocks cover every id below pick_base")

    def sizes(self) -> dict[str, int]:
        """The ids of each rule-file action (by owner.name), for documentation and tests."""
        return {f"{b.defn.owner}.{b.defn.name}": b.size for b in self.blocks}


class _FirstIds(dict[Action, int]):
    """Action -> its first id: one dict lookup once known (listing legal ids reads it for each action)."""

    __slots__ = ("space",)

    def __init__(self, space: ActionSpace) -> None:
        super().__init__()
        self.space = space

    def __missing__(self, action: Action) -> int:
        i = self[action] = self.space.tokens(action)[0]
        return i


class Decisions:
    """A play of a game chosen id by id: a GameState and the ids of an action picked so far.

    ``legal_actions()`` are the sorted ids that may come next; ``apply_action(i)`` takes one and
    applies the real Action when it completes one. A flat game never holds a partial pick.
    """

    __slots__ = ("space", "state", "pending", "own", "_listed", "_seen")

    def __init__(
        self, space: ActionSpace, state: GameState, pending: tuple[int, ...] = (), own: list[list[int]] | None = None
    ) -> None:
        self.space = space
        self.state = state
        self.pending = pending
        #: The ids each seat took so far (what his information state remembers).
        self.own = own if own is not None else [[] for _ in range(state.n)]
        # What was worked out for the state as it is (the state and its count of actions say
        # which): the legal actions and their first ids; the seats' views.
        self._listed: tuple[GameState, Any, list[Action], list[int]] | None = None
        self._seen: tuple[GameState, Any, dict[int | None, dict[str, Any]]] | None = None

    def clone(self) -> Decisions:
        return Decisions(self.space, self.state.clone(), self.pending, [ids[:] for ids in self.own])

    def current_player(self) -> int:
        return self.state.current_player()

    def is_terminal(self) -> bool:
        return self.state.terminal

    def legal_actions(self) -> list[int]:
        """Return the ids that may come next, ascending."""
        pending = self.pending
        if not pending:
            state = self.state
            listed = self._listed
            if listed is not None and listed[0] is state and listed[1] == (state.n_actions, state.picking):
                firsts = listed[3]  # asked again (IS-MCTS does): the actions are not listed anew
            else:
                legal = state.legal_actions()
                firsts = list(map(self.space.first_ids.__getitem__, legal))
                # Kept for apply_action (the id chosen next is most often one of these) and the next call.
                self._listed = (state, (state.n_actions, state.picking), legal, firsts)
            return sorted(firsts) if self.space.is_flat else sorted(set(firsts))
        tokens = self.space.tokens
        at = len(pending)
        nexts = set()
        for a in self.state.legal_actions():
            t = tokens(a)
            if len(t) > at and t[:at] == pending:
                nexts.add(t[at])
        return sorted(nexts)

    def legal_for(self, seat: int) -> list[int]:
        """Return the ids ``seat`` is shown as his, ascending: ``legal_actions()`` when he is to act;
        while a window he cannot see is open to another, the first ids of the actions he will have
        if it is let pass (``GameState.actions_seen_by``); none otherwise."""
        state = self.state
        if state.terminal:
            return []
        if state.actor == seat:
            return self.legal_actions()
        first = self.space.first_ids.__getitem__
        return sorted({first(a) for a in state.actions_seen_by(seat)})

    def observation(self, seat: int | None) -> dict[str, Any]:
        """Return ``state.observation(seat)``, worked out once per state (the bridges ask for it
        as a string and as a tensor); the dict is shared: read it, do not change it."""
        state = self.state
        seen = self._seen
        if seen is None or seen[0] is not state or seen[1] != (state.n_actions, state.picking):
            seen = self._seen = (state, (state.n_actions, state.picking), {})
        views = seen[2]
        view = views.get(seat)
        if view is None:
            view = views[seat] = state.observation(seat)
        return view

    def apply_action(self, i: int) -> None:
        """Take id ``i``; apply the action it completes; raise IllegalActionError for an id not legal now."""
        state = self.state
        listed = self._listed
        if not self.pending and self.space.is_flat:
            if listed is not None and listed[0] is state and listed[1] == (state.n_actions, state.picking):
                legal, firsts = listed[2], listed[3]
            else:
                legal = state.legal_actions()
                firsts = list(map(self.space.first_ids.__getitem__, legal))
            self._listed = None
            if i in firsts:
                self.own[state.actor].append(i)
                state.apply_action(legal[firsts.index(i)])
                return
            raise self._illegal(i)
        self._listed = None
        tokens = self.space.tokens
        chosen = (*self.pending, i)
        at = len(chosen)
        partial = False
        for a in state.legal_actions():
            t = tokens(a)
            if t == chosen:
                self.own[state.actor].append(i)
                self.pending = ()
                state.apply_action(a)
                return
            if not partial and len(t) > at and t[:at] == chosen:
                partial = True
        if not partial:
            raise self._illegal(i)
        self.own[state.actor].append(i)
        self.pending = chosen

    def _illegal(self, i: int) -> IllegalActionError:
        what = self.space.describe(i) if 0 <= i < self.space.num_distinct_actions else "no action of this game"
        return IllegalActionError(f"action id {i} ({what}) is not legal now; legal ids: {self.legal_actions()}")

    def apply_engine_action(self, action: Action) -> None:
        """Apply a legal Action at once (a bot's choice): all its ids are taken, in order."""
        if self.pending:
            raise IllegalActionError(f"'{action}' cannot be applied while a set of cards is half chosen")
        actor = self.state.actor
        self.state.apply_action(action)  # first: an illegal action changes nothing
        self.own[actor].extend(self.space.tokens(action))

    def action_of(self, i: int) -> Action | None:
        """Return the legal action id ``i`` completes now (None: it starts or goes on with a set)."""
        chosen = (*self.pending, i)
        for a in self.state.legal_actions():
            if self.space.tokens(a) == chosen:
                return a
        return None

    def describe(self, i: int) -> str:
        """How id ``i`` reads to the player to act: the label of the action it completes, if any."""
        a = self.action_of(i)
        return str(a) if a is not None else self.space.describe(i)


def _by_place(k: int) -> int:
    raise SpaceError(f"a card was chosen by its place ({k}) where the action space has only its kinds")


def _action_defs(game: Game) -> Iterable[ActionDef]:
    """Every action of the game's phases and windows, passes included, in declaration order."""
    seen: set[int] = set()
    prog = game.program
    owners = [(p.actions, p.pass_def) for p in prog.phases] + [(w.actions, w.pass_def) for w in prog.windows]
    for actions, pass_def in owners:
        for defn in [*actions, *([pass_def] if pass_def is not None else [])]:
            if id(defn) not in seen:
                seen.add(id(defn))
                yield defn
