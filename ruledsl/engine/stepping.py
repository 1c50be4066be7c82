"""Offer a choice of several cards in steps (begin, one pick per card, done) where listing every set is too much.

An action whose one choice is a group of cards (``cs: cards from hand``, ``cs: 1 to 4 cards
of one rank from hand``...) is listed whole, as always, while its sets are few. When listing
them goes round more than ``STEP_AT`` times (the compiled listing counts), the action is
offered instead as ``begin`` ("discard: pick the cards"); once begun, the chooser picks one
card at a time, in any order (a card by its kind: identical cards are one pick), and
``done`` closes the set. The bridges give the steps the ids of the same set listed whole
(head, a pick id per kind, done).

Each step offers only what can still lead to a legal whole: a pick when the set so far and
that card can be completed (a depth-first search, counted against the step budget: R507
past it, never a hang), ``done`` when the set so far is legal whole — its shape, its size,
the action's ``when`` and ``require``s (a ``require if able`` or ``must if able`` while some
whole set meets it), tested with the action's compiled checks, never by listing. The set half
made is the state's ``picking``: seen by its chooser alone. Steps never enter the history: the
completed action does, once, with its ordinary label.
"""

from __future__ import annotations

import collections
from typing import TYPE_CHECKING, Any

from ruledsl.engine import ops
from ruledsl.engine.fields import StateFields
from ruledsl.engine.limits import STEP_BUDGET, WORK_BUDGET
from ruledsl.engine.values import Action, ActionDef

if TYPE_CHECKING:
    from ruledsl.engine.state import GameState


class Stepped:
    """The step actions of one action chosen card by card: ``begin``, ``pick(kind)``, ``done``."""

    __slots__ = ("whole", "begin", "done", "_picks", "_pick_def")

    def __init__(self, whole: ActionDef) -> None:
        self.whole = whole
        name = whole.name.replace("_", " ")
        # A label is called as a compiled one is (codegen/labels.py): with the key, and maybe how a card is
        # shown (its label, in a menu: engine/reading.py's shown_action); by its name otherwise.
        self.begin = Action(_step_def(whole, "begin", lambda key, show=None: f"{name}: pick the cards"), ())
        self.done = Action(_step_def(whole, "done", lambda key, show=None: "done"), ())
        prog = whole.game
        assert prog is not None  # a stepped action belongs to a linked program
        names, reps = prog.card_names, prog.kind_reps
        self._pick_def = _step_def(whole, "pick", lambda key, show=names.__getitem__: "pick " + show(reps[key[0]]))
        self._picks: dict[int, Action] = {}

    def pick(self, kind: int) -> Action:
        """The action of picking a card of ``kind`` (one Action per kind, made once)."""
        a = self._picks.get(kind)
        if a is None:
            a = self._picks[kind] = Action(self._pick_def, (kind,))
        return a


def _step_def(whole: ActionDef, role: str, label: Any) -> ActionDef:
    d = ActionDef(whole.index, whole.name, whole.owner, "step", False, _never, label, _never, True, None, whole.span)
    d.game = whole.game
    d.whole = whole
    d.step_role = role
    return d


def _never(*_args: Any) -> Any:
    raise AssertionError("a step is applied by the engine, never by compiled rules")


def stepped(whole: ActionDef) -> Stepped:
    """The step actions of ``whole``, made the first time they are asked for."""
    s = whole.stepped
    if not isinstance(s, Stepped):
        s = whole.stepped = Stepped(whole)
    return s


# ============================================================================ the search


def _pool(st: GameState, p: int, defn: ActionDef) -> tuple[list[int], Any]:
    """The cards ``p`` may choose the set of ``defn`` from, and the set's size (a number, a range or None)."""
    checks = defn.checks
    assert checks is not None and len(checks.choices) == 1  # only such actions are stepped
    pool, size, _value = checks.choices[0].domain(st, p, (None,))
    return list(pool), size


def picking_pool(st: GameState) -> list[int]:
    """The cards the set half made is chosen from (empty when there is none)."""
    if st.picking is None:
        return []
    st.prog.action_checks()
    return _pool(st, st.actor, st.picking[0])[0]


class _Search:
    """What one action allows of a set of cards, in one state, for its chooser ``p``."""

    __slots__ = ("st", "p", "defn", "choice", "clauses", "pool", "size", "avail", "kinds", "open")

    def __init__(self, st: GameState, p: int, defn: ActionDef, must: bool | None = False) -> None:
        """With ``must``, only the sets meeting the action's 'must if able' conditions are legal;
        with None, only if some set does (whether they bind the phase now). Its 'require if able'
        conditions bind on top of those while some set meets them."""
        st.prog.action_checks()
        checks = defn.checks
        assert checks is not None and len(checks.choices) == 1  # only such actions are stepped
        self.st, self.p, self.defn = st, p, defn
        self.choice = checks.choices[0]
        self.clauses: dict[int, list[Any]] = collections.defaultdict(list)
        for clause in checks.clauses:
            if not clause.able and not clause.must:  # those bind only while some set meets them
                self.clauses[clause.level].append(clause)
        self.open = all(c.test(st, p, (None,)) for c in self.clauses[0])
        self.pool, self.size = _pool(st, p, defn)
        kinds = st.prog.card_kinds
        self.kinds = kinds
        self.avail = collections.Counter(kinds[c] for c in self.pool)
        if self.pool and not st.all_visible(p, self.pool):
            st.hidden_group(p)  # R509, as when the sets are listed
        if must is not False:
            self._bind([c for c in checks.clauses if c.must], always=must is True)
        self._bind([c for c in checks.clauses if c.able], always=False)

    def _bind(self, clauses: list[Any], always: bool) -> None:
        """Make these conditions bind too; unless ``always``, only if some set meets them with
        those binding already (without one, every set legal so far stays so)."""
        if not clauses:
            return
        unbound = {level: list(found) for level, found in self.clauses.items()}, self.open
        for clause in clauses:
            self.clauses[clause.level].append(clause)
        self.open = self.open and all(c.test(self.st, self.p, (None,)) for c in clauses if c.level == 0)
        if not always and not self.can_complete(()):
            self.clauses, self.open = collections.defaultdict(list, unbound[0]), unbound[1]

    def _most(self) -> int:
        size = self.size
        if size is None:
            return len(self.pool)
        if isinstance(size, range):
            return min(size.stop - 1, len(self.pool))
        return int(size)

    def _size_ok(self, n: int) -> bool:
        size = self.size
        if size is None:
            return n >= 1
        if isinstance(size, range):
            return n >= 1 and n in size
        return bool(n == size)

    def _cards(self, kinds: tuple[int, ...]) -> list[int]:
        return ops.find_kinds(self.pool, self.kinds, kinds)

    def _shaped(self, kinds: tuple[int, ...], cards: list[int]) -> bool:
        groups = self.choice.groups
        if groups is None or not cards or self.choice.kind == "cards":
            return True  # any cards of the pool make a set (is_whole counted them)
        want = sorted(kinds)
        return any(
            sorted(self.kinds[c] for c in g) == want for g in groups(self.st, self.p, (None,), cards, len(cards))
        )

    def _count(self) -> None:
        """Count one step of the search against the step budget, and its look through the pool
        (``find_kinds``) against the action's work: R507 past either (a hand of 5,000 different cards
        would take 5,000 searches, each through 5,000 cards)."""
        st = self.st
        st.steps += 1
        st.work += len(self.pool)
        if st.steps > STEP_BUDGET or st.work > WORK_BUDGET:
            raise st.too_many_steps(self.defn)

    def is_whole(self, kinds: tuple[int, ...]) -> bool:
        """Whether the set of these kinds (ascending) is a legal choice of the action, whole."""
        self._count()
        if not self.open or not self._size_ok(len(kinds)):
            return False
        if any(self.avail[k] < m for k, m in collections.Counter(kinds).items()):
            return False
        cards = self._cards(kinds)
        if not self._shaped(kinds, cards):
            return False
        args = (cards,)
        return all(c.test(self.st, self.p, args) for c in self.clauses[1])

    def _may_grow(self, kinds: tuple[int, ...]) -> bool:
        """Whether a set beginning with these kinds may still have the choice's shape: a part of a
        group of one value, of value V or of different values has it too (without wild cards,
        which make a group only beside a natural card); a part of a run is told by the run's
        own test (3 and 5 before the 4, a pair's first card, a wild card)."""
        if self.choice.part is not None:
            self._count()
            return bool(self.choice.part(self.st, self.p, (None,), self._cards(kinds), self.size))
        if self.choice.wild is not None or self.choice.kind == "cards":
            return True
        self._count()
        return self._shaped(kinds, self._cards(kinds))

    def can_complete(self, kinds: tuple[int, ...], start: int = 0) -> bool:
        """Whether some legal whole set holds these kinds, found depth first: each set once, the
        cards added to them in ascending order of kinds from ``start``."""
        if not self.open:
            return False
        if kinds and not self._may_grow(kinds):
            return False
        if self.is_whole(kinds):
            return True
        if len(kinds) >= self._most():
            return False
        return any(self.can_complete((*kinds, k), k) for k in self.next_kinds(kinds) if k >= start)

    def next_kinds(self, kinds: tuple[int, ...]) -> list[int]:
        """The kinds that may be picked after these (in any order): those of which cards are left."""
        used = collections.Counter(kinds)
        return [k for k in sorted(self.avail) if used[k] < self.avail[k]]


# ============================================================================ what the state calls


def offer_steps(st: GameState, defn: ActionDef, out: list[Action], must: bool = False) -> None:
    """Offer ``defn`` to begin in steps, if some legal set can be made (the compiled listing calls this
    in place of listing the sets, when they are too many); with ``must``, a set meeting its 'must if able'."""
    if _Search(st, st.actor, defn, must).can_complete(()):
        out.append(stepped(defn).begin)


def steps_offered(st: GameState) -> list[Action]:
    """The steps open to the chooser of the set half made: picks that can still be completed, then done."""
    assert st.picking is not None
    defn, kinds = st.picking
    search = _Search(st, st.actor, defn, None)
    s = stepped(defn)
    out = [s.pick(k) for k in search.next_kinds(kinds) if search.can_complete((*kinds, k))]
    if search.is_whole(kinds):
        out.append(s.done)
    return out


def take_step(st: GameState, action: Action) -> Action | None:
    """Apply one step to the state's ``picking``; return the whole action ``done`` completes, if it does."""
    defn = action.defn
    whole = defn.whole
    assert whole is not None
    role = defn.step_role
    if role == "begin":
        st.picking = (whole, ())
        return None
    assert st.picking is not None
    kinds = st.picking[1]
    if role == "pick":
        st.picking = (whole, (*kinds, action.key[0]))
        return None
    st.picking = None
    return whole_action(whole, kinds)


def whole_action(defn: ActionDef, kinds: tuple[int, ...]) -> Action:
    """The action of choosing the cards of these kinds (in any order), as the listing would make it."""
    return Action(defn, (tuple(sorted(kinds)),))


def accepts_whole(st: GameState, action: Action) -> bool:
    """Whether ``action``, not listed, is an action offered in steps now and legal whole: checked
    directly (its shape, size and conditions), without listing every set."""
    defn = action.defn
    if defn.stepped is None or st.windows is not None or st.auction is not None:
        return False
    if st.picking is not None and st.picking[0] is not defn:
        return False
    if defn.owner_kind != "phase" or st.prog.phases[st.phase].name != defn.owner:
        return False
    key = action.key
    if len(key) != 1 or not isinstance(key[0], tuple) or not all(type(k) is int for k in key[0]):
        return False
    kinds = tuple(sorted(key[0]))
    if any(k < 0 or k >= len(st.prog.kind_reps) for k in kinds):
        return False
    begun = stepped(defn).begin
    if st.picking is None and begun not in st.legal_actions():
        return False
    return _Search(st, st.actor, defn, None).is_whole(kinds)


def picking_view(st: StateFields, seat: int | None) -> dict[str, Any] | None:
    """The set half made, as its chooser sees it (None for anyone else, and when there is none)."""
    if st.picking is None or seat != st.actor:
        return None
    defn, kinds = st.picking
    names, reps = st.prog.card_names, st.prog.kind_reps
    return {"action": defn.name, "cards": [names[reps[k]] for k in kinds]}
