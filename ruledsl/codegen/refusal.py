"""Explain why a move is refused, in words its player reads and that tell him nothing he cannot see.

A move is an Action or the text a player types; text is read back into an action and
its choices through the labels of the rules. The engine's tests are then made again, in
the order it makes them when it lists the legal actions: the phase or window, whether an
``otherwise`` action may be taken, then each choice and the conditions that use it, then
a bid's strength. The first that fails gives the reason: the rule file's own words where a
``require`` gives them, else a sentence made from the test. None of this runs unless a
move is refused.

A reason must not tell a player about cards he cannot see: cards in it are named only
where he sees them, and it is worked out from what he knows alone, never in the true
state. It is worked out in a few fixed deals of the cards he cannot see, each made from
his knowledge only (``knowledge.canonical``): the same reason in all of them is given,
else none (it would depend on where those cards are). So whether he is given a reason,
and which, is the same in every state that looks the same to him (the swap test in
``tests/leaks/test_refusals.py`` and the leak harness, ``ruledsl.tools.leaks``, check it).

While a window is open to another player, a player it is not offered to is answered
as if it had not been offered (``GameState.shown_to``): its existence would tell what
the other holds. Where going on would deal him cards, he is told to wait.

It reads the rules themselves (conditions, labels), which the engine never does: the code
generator hands it to the engine as ``Program.refusals`` (``RuleWords``, the engine's
``ruledsl.engine.reading.Refusals``).
"""

from __future__ import annotations

import collections
import difflib
import re
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

from ruledsl.analysis.refs import LocalRef, OptionRef, PlayerVarRef, ZoneFamilyRef, ZoneRef
from ruledsl.engine import knowledge, ops
from ruledsl.engine.failures import FAILED_RULE
from ruledsl.engine.reading import NO_REASON, normalise, shown_action
from ruledsl.engine.values import Action, ActionDef, ChoiceCheck, ClauseCheck
from ruledsl.format.unparse import unparse
from ruledsl.syntax import nodes as n

if TYPE_CHECKING:
    from ruledsl.engine.program import PhaseInfo, WindowInfo
    from ruledsl.engine.state import GameState

#: The reason given to a player shown play paused while a window is open to another.
WAIT = "it is not your turn yet: the last move is not over"

#: How many deals of the unseen cards (made from the player's knowledge) must give one reason.
_DEALS = 6
#: The most readings of one typed move that are tried.
_MAX_READINGS = 40

#: A choice the typed text did not give (a label that does not show it).
_UNREAD = object()


def why_illegal(st: GameState, move: Action | str, player: int | None = None) -> str | None:
    """Return why ``move`` is not legal for ``player`` (default: the player to act) now, or
    None if it is. ``move`` is an Action, or a move as a player types it (``play the Author``)."""
    if st.terminal:
        return "the game is over"
    st.prog.action_checks()
    if player is not None and player != st.actor:
        if st.windows is not None:
            # A window offered to another is known only to him: answer as if none were open.
            shown, paused = st.shown_to(player)
            return WAIT if paused else why_illegal(shown, move, player)
        return f"it is not your turn: P{st.turn} is to play"
    p = st.actor
    legal = st.legal_actions()
    if isinstance(move, str):
        wanted = normalise(move)
        if any(wanted in (normalise(str(a)), normalise(shown_action(a, st.prog))) for a in legal):
            return None
        reader = _Reader(st)
        whole = reader.read(wanted)
        if any(_UNREAD not in key and st.accepts_whole(Action(d, key)) for d, key in whole):
            return None  # a set of cards offered card by card, typed whole
        readings: list[_Reading] = [(defn, key, None) for defn, key in whole]
        # A move that says too little may be the start of another action's label ('play 5' of
        # 'play {c}, naming {k}'): that reading is heard too, where it gets further.
        readings += reader.read_starts(wanted, move.strip())
        if not readings:
            return reader.unknown_card(move) or "no move of this game reads like that"
    else:
        if not isinstance(move, Action):
            return f"{move!r} is not an action"
        if move.defn.game is not None and move.defn.game is not st.prog:
            return f"'{move}' is an action of another game"
        if move in legal or st.accepts_whole(move):
            return None
        readings = [(move.defn, move.key, None)]
    # Never the true state: fixed deals of what he cannot see, made from what he knows.
    reason = _best(knowledge.canonical(st, p), p, readings)
    if reason == NO_REASON or not _hides_cards(st, p):
        return reason
    for variant in range(1, _DEALS):
        if _best(knowledge.canonical(st, p, variant), p, readings) != reason:
            return NO_REASON  # the reason depends on cards he cannot see
    return reason


def _hides_cards(st: GameState, p: int) -> bool:
    """Whether some card is hidden from ``p`` (else every deal is the true state)."""
    return not all(st.sees(p, c) for c in range(len(st.loc)))


class RuleWords:
    """Explain refused moves in the rules' own words: the engine's ``Refusals`` (see ``why_illegal``)."""

    __slots__ = ()

    def why_illegal(self, st: GameState, move: Action | str, player: int | None = None) -> str | None:
        return why_illegal(st, move, player)

    def readings(self, st: GameState, text: str) -> list[tuple[ActionDef, tuple[Any, ...]]]:
        st.prog.action_checks()
        return [(d, key) for d, key in _Reader(st).read(normalise(text)) if _UNREAD not in key]


#: A reading of a typed move: the action, its choices, and for the start of a move (a label
#: with choices left to say) what it lacks ("say which colour too: 'play 5, naming …'").
_Reading = tuple[ActionDef, tuple[Any, ...], "str | None"]


def _best(probe: GameState, p: int, readings: Sequence[_Reading]) -> str:
    """The reason given by the reading that passes the most tests, in a copy of the state; of
    readings that pass as many, the one the move gives more choices of (a label that shows
    every choice of its action fits the move better than one that leaves a choice unsaid),
    whatever the order of the actions; the first only of readings alike in both. A move that
    is only the start of one (``lacks``) is heard only where every whole reading fails a
    condition the rules give no reason for (a ``when``: that action is not meant for these
    choices) or there is none; where it passes every test it reaches, it is told what it lacks."""
    best: tuple[tuple[int, int], str] = ((-1, 0), NO_REASON)
    open_to_starts = True
    for defn, key, lacks in readings:
        if lacks is not None and not open_to_starts:
            break  # the starts come after every whole reading
        walk = _Walk(probe, p, defn, key)
        progress, reason = walk.run()
        fit = (progress, -sum(1 for k in key if k is _UNREAD))
        if fit > best[0]:
            best = (fit, reason or lacks or NO_REASON)
            if lacks is None:
                open_to_starts = walk.unexplained
    return best[1]


# ============================================================================ the tests, again


class _Walk:
    """The tests of one action and its choices, made in the engine's order up to the first failure."""

    def __init__(self, st: GameState, p: int, defn: ActionDef, key: tuple[Any, ...]) -> None:
        self.st = st
        self.p = p
        self.defn = defn
        self.key = key
        self.prog = st.prog
        self.unexplained = False  # it failed a condition the rules give no reason for

    def run(self) -> tuple[int, str | None]:
        """Return how many tests passed, and the reason of the first that failed (None: none did)."""
        where = self._place_in_game()
        if where is not None:
            return 0, where
        checks = self.defn.checks
        if checks is None:
            return 1, None  # a pass is always possible where it belongs
        if checks.otherwise:
            others = [a for a in self.st.legal_actions() if a.defn.checks and not a.defn.checks.otherwise]
            if others:
                return 1, f"that is allowed only when no other move is, and you have {_counted(len(others), 'other')}"
        args: list[Any] = [None] * len(checks.choices)
        by_level: dict[int, list[ClauseCheck]] = collections.defaultdict(list)
        for clause in checks.clauses:
            by_level[clause.level].append(clause)
        progress = 2
        try:
            for level in range(len(checks.choices) + 1):
                if level:
                    i = level - 1
                    if i >= len(self.key) or self.key[i] is _UNREAD:
                        return progress, None
                    value, why = self._choose(checks.choices[i], i, args)
                    if why is not None:
                        return progress, why
                    args[i] = value
                    progress += 1
                for clause in by_level[level]:
                    if clause.able or clause.must or not clause.is_open:
                        # Whether it holds is not his to know: it is not tested at all, and the
                        # tests after it speak as if it held. A reason they give is true either
                        # way (the move fails it too), so it tells nothing of this one.
                        continue
                    if not clause.test(self.st, self.p, tuple(args)):
                        self.unexplained = clause.reason is None
                        return progress, self._clause_reason(clause, args)
                    progress += 1
            auction = self.st.auction
            if self.defn.strength is not None and auction is not None and auction[0] is not None:
                if not self.defn.strength(self.st, self.p, self.key) > auction[0]:
                    return progress, f"it does not beat the standing bid, '{auction[3]}'"
            return progress, self._unable(checks.clauses, args)
        except FAILED_RULE:
            # A test that fails on choices the engine never offers: nothing sure to say.
            return progress, None
        return progress, None

    def _unable(self, clauses: list[ClauseCheck], args: list[Any]) -> str | None:
        """The reason of a 'require if able' or 'must if able' the move fails while another choice
        meets it (it passed every other test, so it is not listed only for that), or of the 'must
        if able' of another action that binds the phase now, or None."""
        legal = self.st.legal_actions()
        if Action(self.defn, self.key) in legal:
            return None
        for clause in clauses:
            if (clause.able or clause.must) and clause.is_open and not clause.test(self.st, self.p, tuple(args)):
                return self._clause_reason(clause, args)
        # Listed, this move would be: another action's 'must if able' binds (its reason names no choice).
        for action in legal:
            whole = action.defn.whole or action.defn
            checks = whole.checks
            if whole is self.defn or checks is None:
                continue
            for clause in checks.clauses:
                if clause.must:
                    if not clause.is_open or clause.reason is None:
                        return None
                    return str(clause.reason(self.st, self.p, (None,) * len(checks.choices)))
        return None

    def _place_in_game(self) -> str | None:
        """Why the action does not belong to this moment of the game, or None if it does."""
        st, prog, defn = self.st, self.prog, self.defn
        if st.windows is not None:
            window = prog.windows[st.windows[0][0]]
            if defn.owner_kind == "window" and defn.owner == window.name:
                return None
            return f"you must first choose: {_listed([str(a) for a in st.legal_actions()], 'or')}"
        phase = prog.phases[st.phase]
        if defn.owner_kind == "window":
            return f"that is done in the '{defn.owner}' window, which only a move opens, and none is open now"
        if defn.owner != phase.name:
            return f"that belongs to the '{defn.owner}' phase, and this is the '{phase.name}' phase"
        return None

    # ------------------------------------------------------------------ choices

    def _choose(self, choice: ChoiceCheck, i: int, args: list[Any]) -> tuple[Any, str | None]:
        """The value chosen for choice ``i``, or the reason it cannot be chosen."""
        spec = self.key[i]
        domain = choice.domain(self.st, self.p, tuple(args))
        if choice.kind == "card":
            return self._card(domain, spec)
        if choice.kind == "number":
            low, high = domain
            if isinstance(spec, int) and low <= spec <= high:
                return spec, None
            return None, self._range_reason(i, spec, low, high)
        if choice.kind == "value":
            return spec, None
        if choice.kind == "player":
            if spec in domain:
                return spec, None
            return None, f"{ops.show_player(spec)} cannot be chosen for this"
        return self._group(choice, i, args, domain, spec)

    def _card(self, pool: list[int], spec: int) -> tuple[Any, str | None]:
        st, kinds = self.st, self.prog.card_kinds
        if spec >= 0:  # by kind: a card he sees
            for c in pool:
                if kinds[c] == spec and st.sees(self.p, c):
                    return c, None
            return None, self._missing(pool, spec, 0)
        j = -1 - spec  # by place, from the top
        if j < len(pool):
            return pool[len(pool) - 1 - j], None
        if not pool:
            return None, f"there is no card {self._place(pool)}"
        return None, f"there {'is' if len(pool) == 1 else 'are'} only {_counted(len(pool), 'card')} {self._place(pool)}"

    def _group(
        self, choice: ChoiceCheck, i: int, args: list[Any], domain: Any, spec: tuple[int, ...]
    ) -> tuple[Any, str | None]:
        pool, size, value = domain
        kinds = self.prog.card_kinds
        if not spec:
            return None, "choose at least one card"
        if not all(self.st.sees(self.p, c) for c in pool):
            # How many of a kind lie among cards he cannot see is not his to know.
            return None, self._missing(pool, spec[0], 0)
        for k, wanted in collections.Counter(spec).items():
            have = sum(1 for c in pool if kinds[c] == k)
            if have < wanted:
                return None, self._missing(pool, k, have)
        cards = ops.find_kinds(pool, kinds, spec)
        if isinstance(size, range) and len(cards) not in size:
            most = max(size.stop - 1, 0)
            takes = f"{ops.words(size.start)} to {_counted(most, 'card')}"
            return None, f"that takes {takes}, not {ops.words(len(cards))}"
        if isinstance(size, int) and len(cards) != size:
            return None, f"that takes {_counted(size, 'card')}, not {ops.words(len(cards))}"
        if choice.groups is not None:
            groups = choice.groups(self.st, self.p, tuple(args), cards, len(cards))
            if not any(sorted(kinds[c] for c in g) == sorted(spec) for g in groups):
                return None, self._shape_reason(choice, cards, value)
        return cards, None

    def _missing(self, pool: list[int], kind: int, have: int) -> str:
        """Why cards of a kind cannot be chosen from a pool: never where they are, if he cannot see there."""
        name = self.prog.card_names[self.prog.kind_reps[kind]]
        place = self._place(pool)
        if not all(self.st.sees(self.p, c) for c in pool):
            return f"you cannot name {name} {place}: you do not see those cards"
        if have:
            return f"there {'is' if have == 1 else 'are'} only {ops.words(have)} {name} {place}"
        # Where he sees one lie, if he does (never where an unseen one is).
        seen = [c for c, k in enumerate(self.prog.card_kinds) if k == kind and self.st.sees(self.p, c)]
        there = f": it is {self._zone(self.st.loc[seen[0]])}" if seen else ""
        return f"{name} is not {place}{there}"

    def _place(self, pool: list[int]) -> str:
        """Where a pool is, as its chooser reads it: "in your hand", "in the pile", "in P1's hand"."""
        for z, cards in enumerate(self.st.zones):
            if cards is pool:
                return self._zone(z)
        return "among the cards you may choose from"

    def _zone(self, z: int) -> str:
        prog = self.prog
        name = prog.zones[prog.zone_family[z]].name.replace("_", " ")
        owner = prog.zone_owner[z]
        if owner < 0:
            return f"in the {name}"
        return f"in your {name}" if owner == self.p else f"in P{owner}'s {name}"

    def _shape_reason(self, choice: ChoiceCheck, cards: list[int], value: Any) -> str:
        shown = _listed([self.st.show_card(self.p, c) for c in cards])
        attr = (choice.attr or "").replace("_", " ")
        are = "is not" if len(cards) == 1 else "are not all"
        if choice.kind == "same":
            why = f"{shown} {are} of one {attr}"
        elif choice.kind == "valued":
            why = f"{shown} {are} of {attr} {value}"
        elif choice.kind.startswith("run"):
            tuples = choice.kind.removeprefix("run of ") + " in " if choice.kind != "run" else ""
            why = f"{shown} {'is' if len(cards) == 1 else 'are'} not in {tuples}sequence of {attr}"
        else:
            why = f"{shown} {are} of different {attr}s"
        if choice.wild is not None:
            why += f" ({choice.wild.replace('_', ' ')}s stand in for any {attr.split(' of one ')[0]})"
        return why

    def _range_reason(self, i: int, spec: Any, low: int, high: int) -> str:
        """Why a number is out of its range, with the move at the bound ('bid two 4s') where
        the label shows it."""
        bound = high if isinstance(spec, int) and spec > high and low <= high else low
        label = self._label_with(i, bound)
        if low > high:
            return f"not even '{label}' is possible now" if label else "no number can be chosen for it now"
        if label is None:
            return f"the number must be from {low} to {high}"
        return f"{'the most' if bound == high else 'the least'} you may choose is '{label}'"

    def _label_with(self, i: int, value: int) -> str | None:
        """The move's label with choice ``i`` made ``value``, or None if it cannot be told."""
        key = self.key
        if not self.defn.label_is_static or _UNREAD in key or len(key) <= i:
            return None
        try:
            return str(self.defn.label(key[:i] + (value,) + key[i + 1 :]))
        except FAILED_RULE:
            return None

    # ------------------------------------------------------------------ conditions

    def _clause_reason(self, clause: ClauseCheck, args: list[Any]) -> str:
        if clause.reason is not None:
            return str(clause.reason(self.st, self.p, tuple(args)))
        values = {ch.name: value for ch, value in zip(self.defn.checks.choices, args)}  # type: ignore[union-attr]
        return _Describe(self.st, self.p, values).false(clause.cond)


def _listed(items: Sequence[str], last: str = "and") -> str:
    """``a``, ``a and b``, ``a, b and c`` (the first eight, then "…")."""
    items = list(items[:8]) + (["…"] if len(items) > 8 else [])
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {last} " + items[-1]


def _counted(k: int, noun: str) -> str:
    return f"{ops.words(k)} {noun}{'' if k == 1 else 's'}"


# ============================================================================ a reason made from a test


_NOT_OPS = {"==": "is not", "!=": "is", "<": "is not less than", "<=": "is more than", ">": "is not more than"}
_NOT_OPS[">="] = "is less than"
_OPS = {"==": "is", "!=": "is not", "<": "is less than", "<=": "is at most", ">": "is more than", ">=": "is at least"}


class _Describe:
    """Say in words that a condition does not hold, from its text and the choices made.

    Only the choices' values are shown (they are the player's own); everything else is
    named, never worked out, so the sentence holds nothing he could not read in the rules.
    """

    def __init__(self, st: GameState, p: int, values: dict[str, Any]) -> None:
        self.st = st
        self.p = p
        self.values = values
        self.refs = st.game.checked.refs
        self.types = st.game.checked.types

    def false(self, e: n.Expr) -> str:
        """A sentence saying ``e`` is false."""
        if isinstance(e, n.Not):
            return self.true(e.operand)
        if isinstance(e, n.BoolOp) and e.op == "or":
            return f"{self.false(e.left)}, and {self.false(e.right)}"
        if isinstance(e, n.BoolOp):
            return f"{self.false(e.left)}, or {self.false(e.right)}"
        return self._test(e, negated=True)

    def true(self, e: n.Expr) -> str:
        """A sentence saying ``e`` is true."""
        if isinstance(e, n.Not):
            return self.false(e.operand)
        if isinstance(e, n.BoolOp):
            return f"{self.true(e.left)} {e.op} {self.true(e.right)}"
        return self._test(e, negated=False)

    def _test(self, e: n.Expr, negated: bool) -> str:
        if isinstance(e, n.IsEmpty):
            empty = e.negated == negated
            return f"{self.thing(e.operand)} is {'empty' if empty else 'not empty'}"
        if isinstance(e, n.IsOut):
            out = e.negated == negated
            return f"{self.thing(e.operand)} is {'out' if out else 'not out'}"
        if isinstance(e, n.IsNamed):
            named = e.negated == negated
            return f"{self.thing(e.operand)} is {'' if named else 'not '}{e.card_name}"
        if isinstance(e, n.Compare):
            words = (_NOT_OPS if negated else _OPS)[e.op]
            return f"{self.thing(e.left)} {words} {self.thing(e.right)}"
        if isinstance(e, n.Member):
            inside = e.negated == negated
            return f"{self.thing(e.element)} is {'' if inside else 'not '}in {self.thing(e.collection)}"
        if isinstance(e, n.Overlaps):
            share = "have nothing in common" if negated else "have something in common"
            return f"{self.thing(e.left)} and {self.thing(e.right)} {share}"
        ref = self.refs.get(id(e))
        if isinstance(e, n.Name) and isinstance(ref, OptionRef):
            return f"the option '{e.id}' is {'off' if negated else 'on'}"
        return f"'{self.thing(e)}' is {'not so' if negated else 'so'}"

    def thing(self, e: n.Expr) -> str:
        """A value named as a player reads it."""
        ref = self.refs.get(id(e))
        if isinstance(e, n.ActingPlayer):
            return "you"
        if isinstance(e, n.Name):
            if e.id in self.values and isinstance(ref, LocalRef):
                return self._value(e, self.values[e.id])
            if isinstance(ref, (ZoneRef, ZoneFamilyRef)):
                return f"your {e.id}" if ref.zone.per_player else f"the {e.id}"
            return e.id.replace("_", " ")
        if isinstance(e, n.Attribute):
            if isinstance(ref, (ZoneRef, ZoneFamilyRef, PlayerVarRef)):
                return f"{self.thing(e.obj)}'s {e.name}".replace("you's", "your")
            return f"the {e.name} of {self.thing(e.obj)}"
        if isinstance(e, n.SizeOf):
            return f"the number of cards in {self.thing(e.operand)}"
        if isinstance(e, n.TopOf) and e.count is None:
            return f"the top card of {self.thing(e.zone)}"
        if isinstance(e, n.Call) and not e.args:
            return e.name.replace("_", " ")
        if isinstance(e, n.Call):
            return f"{e.name.replace('_', ' ')} of {_listed([self.thing(a) for a in e.args])}"
        return unparse(e)

    def _value(self, e: n.Expr, value: Any) -> str:
        t = self.types.get(id(e))
        kind = t.kind if t is not None else ""
        if kind == "card":
            return self.st.show_card(self.p, value)
        if kind == "cards":
            return _listed([self.st.show_card(self.p, c) for c in value])
        if kind == "player":
            return "you" if value == self.p else ops.show_player(value)
        if kind == "value" and t is not None:
            return ops.show_value(self.st.game.checked.symbols.values[t.of].displays, value)
        return str(value)


# ============================================================================ reading a typed move


class _Unknown:
    """A card named in typed text that no card of the game is called."""

    def __init__(self, text: str) -> None:
        self.text = text


class _Reader:
    """Read a typed move back into actions and choices, through the labels of the rules."""

    def __init__(self, st: GameState) -> None:
        self.st = st
        self.prog = prog = st.prog
        self.symbols = st.game.checked.symbols
        self.cards: dict[str, set[int]] = collections.defaultdict(set)
        self.names: dict[str, str] = {}  # normalised name -> name, for "did you mean"
        for c, (name, label) in enumerate(zip(prog.card_names, prog.card_labels)):
            kind = prog.card_kinds[c]
            self.cards[normalise(name)].add(kind)
            self.cards[normalise(label)].add(kind)
            self.names[normalise(name)] = name
        self.numbers = {ops.words(k): k for k in range(21)}
        self.longest_name = max((len(name.split()) for name in self.cards), default=1)  # in words
        self.lenient = False  # read any text as a card, to say which one is unknown
        self.choices: dict[str, n.Choice] = {}  # of the action being read
        self.starts = False  # read the start of a label too (read_starts)

    def actions(self) -> list[ActionDef]:
        """Every action of the game: those of the phase or window being played first."""
        prog, st = self.prog, self.st
        now = prog.windows[st.windows[0][0]] if st.windows is not None else prog.phases[st.phase]
        first = [*now.actions, *([now.pass_def] if now.pass_def is not None else [])]
        parts: list[PhaseInfo | WindowInfo] = [*prog.phases, *prog.windows]
        rest = [
            d
            for part in parts
            for d in (*part.actions, *([part.pass_def] if part.pass_def is not None else []))
            if d not in first
        ]
        return first + rest

    def read(self, text: str) -> list[tuple[ActionDef, tuple[Any, ...]]]:
        """The actions and choices (choices the text does not give left unread) it may stand for."""
        found: list[tuple[ActionDef, tuple[Any, ...]]] = []
        for defn in self.actions():
            choices = defn.checks.node.choices if defn.checks is not None else ()
            self.choices = {ch.name: ch for ch in choices}
            for pattern, given in self._patterns(defn):
                for binding in self._match(pattern, 0, text, 0, given):
                    key = tuple(binding.get(ch.name, _UNREAD) for ch in choices)
                    if (defn, key) not in found:
                        found.append((defn, key))
                    if len(found) >= _MAX_READINGS:
                        return found
        return found

    def read_starts(self, text: str, typed: str) -> list[_Reading]:
        """The actions whose label ``text`` begins, up to a choice it does not give, with what
        the move lacks: "say which colour too: '{typed}, naming …'"."""
        found: list[_Reading] = []
        self.starts = True
        try:
            for defn in self.actions():
                if defn.checks is None or defn.checks.node.label is None:
                    continue
                choices = defn.checks.node.choices
                self.choices = {ch.name: ch for ch in choices}
                for text_node, given in self._texts(defn.checks.node.label, {}):
                    pattern = _normalised(list(text_node.parts))
                    for binding in self._match(pattern, 0, text, 0, given):
                        if _STOP not in binding:
                            continue  # all of the label: read already
                        lacks = self._lacks(text_node, pattern, binding, typed)
                        key = tuple(binding.get(ch.name, _UNREAD) for ch in choices)
                        if lacks is not None and all(defn is not d or key != k for d, k, _ in found):
                            found.append((defn, key, lacks))
                        if len(found) >= _MAX_READINGS:
                            return found
        finally:
            self.starts = False
        return found

    def _lacks(self, label: n.Text, pattern: list[str | n.Expr], binding: dict[str, Any], typed: str) -> str | None:
        """What a move that stops where ``binding`` says lacks, or None if it lacks no choice."""
        rest = pattern[binding[_STOP] :]
        missing = [self._choice_of(e) for e in rest if not isinstance(e, str)]
        first = next((ch for ch in missing if ch is not None and ch.name not in binding), None)
        if first is None:
            return None
        value = next(e for e in rest if not isinstance(e, str))
        at = next(j for j, part in enumerate(label.parts) if part is value)
        start = at - 1 if at and isinstance(label.parts[at - 1], str) else at
        shown = "".join(part if isinstance(part, str) else "…" for part in label.parts[start:])
        return f"say {_which(first.shape)} too: '{typed}{shown}'"

    def unknown_card(self, typed: str) -> str | None:
        """Why a move that names no card of the game is refused ("no card is called …"), or None."""
        self.lenient = True
        try:
            readings = self.read(normalise(typed))
        finally:
            self.lenient = False
        unknown = [v.text for _, key in readings for v in key if isinstance(v, _Unknown)]
        if not unknown:
            return None
        name = min(unknown, key=len)  # the reading that understood the rest best
        close = difflib.get_close_matches(name, list(self.names), n=1, cutoff=0.8)
        guess = f" (did you mean '{self.names[close[0]]}'?)" if close else ""
        # As the player typed it, where it can be found again.
        words = r"[\s,()]+".join(re.escape(w) for w in name.split())
        found = re.search(words, typed, re.IGNORECASE)
        return f"no card is called '{found.group(0) if found else name}'{guess}"

    # ------------------------------------------------------------------ labels as patterns

    def _patterns(self, defn: ActionDef) -> list[tuple[list[str | n.Expr], dict[str, Any]]]:
        """Each way the action's label may read: its literal text (normalised) and the values
        in it, with the choices that reading implies (``if n == 1 then "bid one {v}"``: n is 1)."""
        if defn.checks is None or not defn.checks.node.choices:
            try:
                return [([normalise(defn.label(()))], {})] if defn.label_is_static else []
            except FAILED_RULE:
                return []
        node = defn.checks.node
        if node.label is None:
            parts: list[str | n.Expr] = [defn.name.replace("_", " ")]
            for ch in node.choices:
                parts += [" ", n.Name(id=ch.name)]
            return [(_normalised(parts), {})]
        return [(_normalised(list(text.parts)), given) for text, given in self._texts(node.label, {})]

    def _texts(self, label: n.Expr, given: dict[str, Any]) -> list[tuple[n.Text, dict[str, Any]]]:
        """The texts a label may read as (itself, or each branch of an ``if``), each with the
        choices its branch implies."""
        if isinstance(label, n.Text):
            return [(label, given)]
        if not isinstance(label, n.IfExpr):
            return []
        then = given
        cond = label.cond
        if isinstance(cond, n.Compare) and cond.op == "==" and isinstance(cond.right, n.Number):
            choice = self._choice_of(cond.left)
            if choice is not None and isinstance(choice.shape, n.NumberChoice):
                then = {**given, choice.name: cond.right.value}
        return self._texts(label.then, then) + self._texts(label.else_, given)

    def _match(
        self, parts: list[str | n.Expr], i: int, text: str, pos: int, binding: dict[str, Any]
    ) -> Iterator[dict[str, Any]]:
        if i == len(parts):
            if pos == len(text):
                yield binding
            return
        if self.starts:
            if pos == len(text):
                if i and isinstance(parts[i], str):
                    yield {**binding, _STOP: i}
                return
        part = parts[i]
        if isinstance(part, str):
            if text.startswith(part, pos):
                yield from self._match(parts, i + 1, text, pos + len(part), binding)
            return
        for end in _ends(parts, i, text, pos, self.starts):
            piece = text[pos:end]
            if piece != piece.strip():
                continue
            for bound in self._bind(part, piece):
                if all(binding.get(k, v) == v for k, v in bound.items()):
                    yield from self._match(parts, i + 1, text, end, {**binding, **bound})

    def _bind(self, e: n.Expr, piece: str) -> list[dict[str, Any]]:
        """The choices a piece of typed text gives, read as the value ``e`` shows in a label."""
        choice = self._choice_of(e)
        if isinstance(e, n.Call) and e.name == "words" and len(e.args) == 1:
            choice = self._choice_of(e.args[0])
            if choice is None or piece not in self.numbers:
                return [{}] if choice is None else []
            return [{choice.name: self.numbers[piece]}]
        if isinstance(e, n.PositionOf):
            choice = self._choice_of(e.operand)
            if choice is None or not isinstance(choice.shape, n.CardChoice):
                return [{}]  # not a card's place: the place of a value in its list (position of r)
            place = _number(piece)
            return [{choice.name: -place}] if place is not None and place > 0 else []
        if choice is None:
            return [{}]  # any text: a value the label shows but that is not a choice
        shape = choice.shape
        if isinstance(shape, n.CardChoice):
            kinds = self.cards.get(piece)
            if kinds:
                return [{choice.name: k} for k in sorted(kinds)]
            return [{choice.name: _Unknown(piece)}] if self.lenient else []
        if isinstance(shape, n.NumberChoice):
            number = _number(piece)
            if number is None:
                number = self.numbers.get(piece)
            return [] if number is None else [{choice.name: number}]
        if isinstance(shape, n.ValueChoice):
            values = self.symbols.values.get(shape.type_name)
            if values is None:
                return []
            for index, (member, display) in enumerate(zip(values.members, values.displays)):
                if piece in (normalise(member), normalise(display)):
                    return [{choice.name: index}]
            return []
        if isinstance(shape, n.PlayerChoice):
            seat = _number(piece[1:]) if piece.startswith("p") else None
            return [] if seat is None else [{choice.name: seat}]
        return [{choice.name: tuple(sorted(kinds))} for kinds in self._card_lists(piece.split(" "))]

    def _choice_of(self, e: n.Expr) -> n.Choice | None:
        """The choice a label's ``{name}`` shows (a label's own names are its action's choices)."""
        return self.choices.get(e.id) if isinstance(e, n.Name) else None

    def _card_lists(self, words: list[str]) -> Iterator[list[int]]:
        """Each way words read as a list of cards ("7s 7h", "the Author and the Desert")."""
        if not words:
            yield []
            return
        if words[0] == "and":
            yield from self._card_lists(words[1:])
            return
        # No card name is longer than the longest: the typed words are read in linear time.
        for end in range(1, min(len(words), self.longest_name) + 1):
            for kind in sorted(self.cards.get(" ".join(words[:end]), ())):
                for rest in self._card_lists(words[end:]):
                    yield [kind, *rest]


def _ends(parts: list[str | n.Expr], i: int, text: str, pos: int, starts: bool = False) -> Iterator[int]:
    """Where the value ``parts[i]`` may end in ``text`` when it starts at ``pos``: at the end of the
    text if it is the last part, before each place the literal text after it follows, else anywhere.
    (Trying every end for a label's last value would read a long move in quadratic time.) Reading
    the start of a label (``starts``), a value may end the text too."""
    if starts and i + 1 < len(parts) and pos < len(text):
        yield len(text)
    if i + 1 == len(parts):
        if pos < len(text):
            yield len(text)
        return
    after = parts[i + 1]
    if not isinstance(after, str) or not after:
        yield from range(pos + 1, len(text) + 1)
        return
    end = text.find(after, pos + 1)
    while end != -1:
        yield end
        end = text.find(after, end + 1)


#: Where a move that is the start of a label stops, in its binding: the index of the part not read.
_STOP = "\x00stop"


def _which(shape: n.ChoiceShape) -> str:
    """What a choice a move lacks is, in words: 'which colour', 'which card', 'which cards'."""
    if isinstance(shape, n.ValueChoice):
        return f"which {shape.type_name.replace('_', ' ')}"
    if isinstance(shape, n.CardChoice):
        return "which card"
    if isinstance(shape, n.NumberChoice):
        return "which number"
    if isinstance(shape, n.PlayerChoice):
        return "which player"
    return "which cards"


def _number(piece: str) -> int | None:
    """The number typed as ``piece``: digits 0 to 9 only ('²' and '٣' are no numbers in a move), and no
    more of them than a number of the rules may have; else None."""
    if piece.isascii() and piece.isdigit() and len(piece) <= 16:
        return int(piece)
    return None


def _normalised(parts: list[str | n.Expr]) -> list[str | n.Expr]:
    """A label's parts with its literal text normalised as typed text is (spaces at the
    ends of the whole label dropped, not those between a literal and a value)."""
    marks = {chr(0xE000 + i): part for i, part in enumerate(parts) if not isinstance(part, str)}
    template = "".join(part if isinstance(part, str) else chr(0xE000 + i) for i, part in enumerate(parts))
    flat = normalise(template)  # the marks of the values are private-use characters: it leaves them be
    out: list[str | n.Expr] = []
    for piece in re.split("([\ue000-\uf8ff])", flat):
        if piece in marks:
            out.append(marks[piece])
        elif piece:
            out.append(piece)
    return out
