"""Find what the rules tell players of cards they cannot see: W406.

A text shows a card itself (``{c}``) to each reader as he sees it, but an attribute of the
card (``{c.rank}``) is a plain value, the same for everyone: a ``say`` (read by every
player), an action's label (read by the other players once the action is over) or a
variable set from it (public: read by every player; ``owner``: by its player) tells every
reader that attribute, whoever sees the card; and an action's condition on it tells its
player, by the actions he is offered. This module follows, through each rule's statements
in order, where the cards its names stand for lie, and warns where such a text, variable or
condition reads an attribute of a card lying where some of its readers cannot see it.

It warns only where it is sure: a card whose place it cannot follow (a procedure's
parameter, a card moved in only one branch of an ``if``, a card a procedure was given) is
left alone; a card moved in every branch may lie in any of their places, and cards joined
(``hand + reserve``) are read in each of theirs. ``reveal c`` (every player is shown the
card) and moving or turning it face up make its attributes everyone's to read; so for a
card shown at a zone's end (``move top of deck to deck at bottom face up``), read there again
(``bottom of deck``) before cards move.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from attrs import frozen

from ruledsl.analysis.moves import moves_cards
from ruledsl.analysis.refs import (
    CardAttrRef,
    CardsAttrRef,
    CardVarRef,
    DefineRef,
    GameVarRef,
    LocalRef,
    PlayerVarRef,
    ZoneRef,
)
from ruledsl.analysis.symbols import ZoneSym
from ruledsl.syntax import nodes as n
from ruledsl.text.errors import Diagnostic, Severity

if TYPE_CHECKING:
    from ruledsl.analysis.checked import CheckedGame


@frozen
class _Place:
    """Where a card lies, as far as the rules tell: a zone, whether it is the acting player's own,
    and whether it is surely another player's (``q.hand`` for ``q`` of ``players after player``)."""

    zone: ZoneSym
    own: bool
    other: bool = False

    def unseen_by(self) -> str | None:
        """Who sees a card lying here, in words, when some players cannot; None when all can."""
        if self.zone.visibility == "public":
            return None
        if self.zone.visibility == "owner" and self.zone.per_player:
            return "only its owner sees"
        if self.zone.visibility == "hidden":
            return "nobody sees"
        if self.zone.visibility == "mover":
            return "only the player who moved it there sees"
        if self.zone.visibility == "others":
            return "all but its owner see"
        return None

    def hidden_from(self, reader: str) -> bool:
        """Whether a reader of a card lying here surely does not see it: ``reader`` is every
        player (``all``), the acting player (``actor``) or a player maybe another (``other``)."""
        if self.unseen_by() is None:
            return False
        if self.zone.visibility == "hidden" or reader == "all":
            return True
        if self.zone.visibility == "mover":
            return reader == "other"  # the acting player may be the one who laid it
        if self.zone.visibility == "others":  # the acting player's own cards are the ones he does not see
            return self.own and reader == "actor"
        # Only its owner sees it: another player's zone may be the reader's own.
        return self.own and reader == "other" or self.other and reader == "actor"


#: A card every player has been shown, or that lies face up: its attributes are no secret.
_SEEN = "seen"
#: A card whose place the rules do not make sure of.
_UNKNOWN = "unknown"

#: One place per name bound in a rule (a choice, a 'let', a loop's variable), by its node.
#: Statements that move cards (a procedure may): what lay at a zone's end may lie elsewhere after them.
_Env = dict[int | tuple[Any, ...], Any]  # by id(node), or by ('read', id(node)) and a zone end's key
#: What reads an attribute of a card (a card variable is one too).
_CARD_READS = (CardAttrRef, CardsAttrRef, CardVarRef)


def told_hidden(checked: CheckedGame) -> list[Diagnostic]:
    """Return a W406 warning for each attribute of a hidden card that a text or variable tells."""
    finder = _Finder(checked)
    for d in checked.file.decls:
        finder.decl(d)
    return sorted(finder.found, key=lambda d: (d.line, d.column))


class _Finder:
    def __init__(self, checked: CheckedGame) -> None:
        self.checked = checked
        self.refs = checked.refs
        self.types = checked.types
        self.found: list[Diagnostic] = []
        self._reported: set[int] = set()  # what is told (a text's part), once each
        # What the rule being followed tells: (where, attribute, card, its place then, how told, variable set).
        self.pending: list[tuple[n.Node, n.Attribute, n.Expr, _Place, str, n.Expr | None]] = []

    # ------------------------------------------------------------------ rules

    def decl(self, d: n.Decl) -> None:
        if isinstance(d, (n.SetupDecl, n.RoundEndDecl, n.ProcedureDecl, n.TriggerDecl)):
            self.rule(d.body)
        elif isinstance(d, (n.PhaseDecl, n.WindowDecl)):
            for item in d.items:
                if isinstance(item, n.ActionDecl):
                    self.conditions(item)
                if isinstance(item, (n.ActionDecl, n.PassDecl)):
                    self.rule(item.body, item.label)
                elif isinstance(item, (n.OnEnter, n.WonHandler, n.UnsoldHandler, n.AllPassHandler, n.AllChosenHandler)):
                    self.rule(item.body)

    def rule(self, body: tuple[n.Stmt, ...], label: n.Expr | None = None) -> None:
        """Follow one rule's effects, then its label; warn of what is told of a card still unseen at its end.

        Players read texts and variables once the action is over: a card told of while in a
        hand, then played face up by the same rule, is no secret by then.
        """
        self.pending = []
        self.lets: list[n.Let] = []
        env = self.block(body, {})
        if label is not None:
            self.told(label, env, "label")
        for where, attr, card, place, how, target in self.pending:
            after = self.place(card, env)
            if isinstance(after, _Place) and self._hides(after, card, how, target) and id(where) not in self._reported:
                self._reported.add(id(where))
                self.found.append(self._warning(where, attr, card, place, how, target))

    def conditions(self, a: n.ActionDecl) -> None:
        """Warn of a condition of the action on an attribute of a card its player does not see:
        the actions he is offered tell him whether it holds (which of the cards he chooses by
        their place are over 3)."""
        for cond in [a.when, *(r.cond for r in a.requires)]:
            if cond is None:
                continue
            for where, attr, card, place in self.reads(cond, {}, set()):
                unseen = place.hidden_from("actor") or (self._chosen_by_place(card) and place.unseen_by() is not None)
                if unseen and id(where) not in self._reported:
                    self._reported.add(id(where))
                    self.found.append(self._warning(where, attr, card, place, "condition", None))

    def block(self, body: tuple[n.Stmt, ...], env: _Env) -> _Env:
        """Follow ``body``'s statements in order from ``env``; return the places after it."""
        env = dict(env)
        for s in body:
            self.stmt(s, env)
        return env

    def stmt(self, s: n.Stmt, env: _Env) -> None:
        if moves_cards(s):
            # Cards moved: the card shown at a zone's end may lie elsewhere now.
            for key in [k for k in env if isinstance(k, tuple) and k[0] in ("end", "zone")]:
                del env[key]
        STATEMENT_CASES[type(s)](self, s, env)

    def _say(self, s: n.Say, env: _Env) -> None:
        self.told(s.message, env, "say")

    def _set(self, s: n.SetStmt | n.Add | n.Subtract, env: _Env) -> None:
        if self._readers(s.target) is not None:
            self.told(s.value, env, "set", s.target)
        local = self._local_decl(s.target)
        if isinstance(local, n.Let):
            self.set_local(local, s.value, env)

    def _let(self, s: n.Let, env: _Env) -> None:
        self.lets.append(s)
        if self._is_cards(s.value, zone=True):
            env[id(s)] = self.place(s.value, env)
        else:
            env[id(s)] = ("value", s.value)  # a value read from cards: told where they lie when it is told

    def _move(self, s: n.Move, env: _Env) -> None:
        self.moved(s.what, _SEEN if s.facing == "up" else _UNKNOWN if s.facing else self.zone_place(s.to), env)
        end = self._end_key(s.to, s.placement)
        if s.facing == "up" and end is not None and self._is_card(s.what):
            env[end] = _SEEN  # read there next ('bottom of deck', the trump under the stock), it is seen

    def _show(self, s: n.Reveal | n.TurnFace, env: _Env) -> None:
        seen = isinstance(s, n.Reveal) or s.up
        self.moved(s.what, _SEEN if seen else _UNKNOWN, env)
        if isinstance(s.what, (n.TopOf, n.BottomOf)) and s.what.count is None:
            end = self._end_key(s.what.zone, "top" if isinstance(s.what, n.TopOf) else "bottom")
            if end is not None:
                env[end] = _SEEN if seen else _UNKNOWN
        for part in self._joined(s.what):  # every card of a zone, or of zones joined (hand + reserve)
            whole = self._zone_key(part)
            if whole is not None:
                env[whole] = _SEEN if seen else _UNKNOWN

    def _call(self, s: n.CallStmt, env: _Env) -> None:
        for arg in s.args:  # a procedure may move the cards it is given
            self.moved(arg, _UNKNOWN, env)

    def _if(self, s: n.If, env: _Env) -> None:
        branches = [self.block(body, env) for _, body in s.branches]
        branches.append(self.block(s.else_, env))
        self.merge(env, branches)

    def _loop(self, s: n.ForEach | n.While | n.Repeat, env: _Env) -> None:
        self.merge(env, [self.block(s.body, env), env])  # the body may run, or not
        whole = self._shown_one_by_one(s)
        if whole is not None:
            env[whole] = _SEEN

    def _nothing(self, s: n.Stmt, env: _Env) -> None:
        """A statement that tells nothing and shows no card (its moving cards, if any, is handled in ``stmt``)."""

    def _shown_one_by_one(self, s: n.ForEach | n.While | n.Repeat) -> tuple[str, int, bool] | None:
        """The key of a zone whose every card a loop shows all players (``for each c in hand:
        reveal c``), or None: it must go over the whole zone, never stop early, move no cards,
        and reveal its card in its body itself, not in a branch."""
        if not isinstance(s, n.ForEach) or s.where is not None:
            return None
        whole = self._zone_key(s.iterable)
        inner = [x for st in s.body for x in n.walk(st)]
        if whole is None or any(isinstance(x, n.Stop) or moves_cards(x) for x in inner):
            return None
        for st in s.body:
            if isinstance(st, n.Reveal) and isinstance(st.what, n.Name) and self._local_decl(st.what) is s:
                return whole
        return None

    @staticmethod
    def _joined(e: n.Expr) -> list[n.Expr]:
        """The parts of cards joined with ``+`` (``hand + reserve``), or ``e`` alone."""
        if isinstance(e, n.Arith) and e.op == "+":
            return [*_Finder._joined(e.left), *_Finder._joined(e.right)]
        return [e]

    def _zone_key(self, e: n.Expr) -> tuple[str, int, bool] | None:
        """The key, in a rule's places, of every card of a zone (``hand``, ``all of hand``)."""
        place = self.zone_place(e.zone if isinstance(e, n.AllOf) else e)
        if not isinstance(place, _Place):
            return None
        return ("zone", id(place.zone), place.own)

    def set_local(self, let: n.Let, value: n.Expr, env: _Env) -> None:
        """A 'let' given a new value: cards it names lie where that value's do; a value read
        from cards is read from those of its first value and of every one it was given since."""
        if self._is_cards(let.value, zone=True):
            env[id(let)] = self.place(value, env)
            return
        then = env.get(id(let))
        if isinstance(then, tuple) and then[0] == "value":
            env[id(let)] = (*then, value)

    def moved(self, what: n.Expr, place: Any, env: _Env) -> None:
        """Cards ``what`` now lie at ``place``; a name of cards only some of which moved, nobody knows where."""
        decl = self._local_decl(what)
        if decl is not None and self._is_cards(what):
            env[id(decl)] = place
            return
        for node in n.walk(what):
            inner = self._local_decl(node)
            if inner is not None and self._is_cards(node):
                env[id(inner)] = _UNKNOWN
        if isinstance(what, (n.TopOf, n.BottomOf, n.AllOf, n.AllButTop)):
            self.moved_read(what, place, env)

    def moved_read(self, what: n.TopOf | n.BottomOf | n.AllOf | n.AllButTop, place: Any, env: _Env) -> None:
        """Cards read from a zone earlier in the rule (``let c = top of deck``, a text) that
        ``what`` moves from it: written alike (``move top of deck to pile``), or the whole
        zone, they now lie at ``place``; any other of the zone's cards moved, they may have."""
        source = self.zone_place(what.zone)
        if not isinstance(source, _Place):
            return
        told = [card for _, _, card, *_ in self.pending]
        for e in [*(x for let in self.lets for x in n.walk(let.value)), *told]:
            if not (isinstance(e, (n.TopOf, n.BottomOf)) and self.place(e, env) == source):
                continue
            same = isinstance(what, n.AllOf) or self._written(e) == self._written(what)
            env[("read", id(e))] = place if same else _UNKNOWN
            for let in self.lets:
                if let.value is e:
                    env[id(let)] = env[("read", id(e))]

    def merge(self, env: _Env, branches: list[_Env]) -> None:
        bound_inside = {id(let) for let in self.lets} - set(env)
        for key in {k for b in branches for k in b}:
            # A 'let' bound in a branch or a loop's body exists only where it was bound.
            values = [b[key] for b in branches if key in b] if key in bound_inside else []
            values = values or [b.get(key, _UNKNOWN) for b in branches]
            if all(isinstance(v, tuple) and v[0] == "value" for v in values):
                # A 'let' read from cards in every branch: from those of any (it may be given new values).
                env[key] = ("value", *{id(x): x for v in values for x in v[1:]}.values())
                continue
            if all(isinstance(v, _Place) for v in values):
                env[key] = self._joined_place(values)  # it lies in one of them, each maybe
                continue
            env[key] = values[0] if all(v == values[0] for v in values) else _UNKNOWN

    # ------------------------------------------------------------------ places

    def place(self, e: n.Expr, env: _Env) -> Any:
        """Where the cards of card expression ``e`` lie."""
        if isinstance(e, (n.TopOf, n.BottomOf)) and ("read", id(e)) in env:
            return env[("read", id(e))]  # read by a 'let', then moved
        if isinstance(e, (n.TopOf, n.BottomOf)) and e.count is None:
            end = self._end_key(e.zone, "top" if isinstance(e, n.TopOf) else "bottom")
            if end in env:
                return env[end]  # a card shown there earlier in the rule
        whole = self._zone_key(e.zone if isinstance(e, (n.TopOf, n.BottomOf, n.AllButTop)) else e)
        if whole in env:
            return env[whole]  # every card of the zone shown earlier in the rule
        if isinstance(e, (n.TopOf, n.BottomOf, n.AllOf, n.AllButTop)):
            return self.zone_place(e.zone)
        if isinstance(e, n.Filter) and self._face_up_only(e.where, e.var):
            return _SEEN
        if isinstance(e, (n.Filter, n.First, n.Topmost, n.Sorted)):
            return self.place(e.iterable, env)
        if isinstance(e, n.ItemOf):
            return self.place(e.operand, env)
        if isinstance(e, n.Arith) and e.op == "+":
            return self._joined_place([self.place(part, env) for part in self._joined(e)])
        ref = self.refs.get(id(e))
        if isinstance(ref, ZoneRef):
            return self.zone_place(e)
        if isinstance(ref, DefineRef) and isinstance(ref.define.decl, n.DefineDecl):
            if not ref.define.params:
                return self.place(ref.define.decl.body, {})
        decl = self._local_decl(e)
        if decl is None:
            return _UNKNOWN
        if id(decl) in env:
            return env[id(decl)]
        if isinstance(decl, n.Choice):
            pool = getattr(decl.shape, "pool", None)
            return _UNKNOWN if pool is None else self.place(pool, env)
        if isinstance(decl, (n.ForEach, n.Count, n.CountSets, n.Filter, n.First, n.Topmost, n.Quantifier, n.Aggregate)):
            return self.place(decl.iterable, env)
        if isinstance(decl, n.TriggerDecl):
            zone = self.refs.get(id(decl))
            return _Place(zone, own=False) if isinstance(zone, ZoneSym) else _UNKNOWN  # some player's, not the actor's
        return _UNKNOWN

    @staticmethod
    def _conjuncts(where: n.Expr | None) -> Iterator[n.Expr]:
        """The conditions that must all hold for ``where`` to (``a and b``: a, b)."""
        if isinstance(where, n.BoolOp) and where.op == "and":
            yield from _Finder._conjuncts(where.left)
            yield from _Finder._conjuncts(where.right)
        elif where is not None:
            yield where

    @staticmethod
    def _face_up_only(where: n.Expr, var: str) -> bool:
        """Whether condition ``where`` holds only of a card ``var`` every player sees (``x is face up``)."""
        return any(
            isinstance(c, n.IsSeen) and c.viewer is None and not c.negated and _is_name(c.operand, var)
            for c in _Finder._conjuncts(where)
        )

    @staticmethod
    def _not_actor(where: n.Expr | None, var: str) -> bool:
        """Whether condition ``where`` holds only of a player ``var`` who is not the acting one (``q != player``)."""
        return any(
            isinstance(c, n.Compare)
            and c.op == "!="
            and {type(c.left), type(c.right)} == {n.Name, n.ActingPlayer}
            and (_is_name(c.left, var) or _is_name(c.right, var))
            for c in _Finder._conjuncts(where)
        )

    @staticmethod
    def _joined_place(places: list[Any]) -> Any:
        """Where cards joined from several places (``hand + reserve``) lie: reading them all reads
        those of the place fewest players see (``nobody sees`` before ``only its owner sees``)."""
        known = [p for p in places if isinstance(p, _Place)]
        if not known:
            return _SEEN if all(p == _SEEN for p in places) else _UNKNOWN
        order = ("hidden", "mover", "owner", "others", "public")
        return min(known, key=lambda p: order.index(p.zone.visibility) if p.zone.visibility in order else len(order))

    def _end_key(self, zone: n.Expr, end: str) -> tuple[str, int, bool, str] | None:
        """The key, in a rule's places, of the card at one end (top or bottom) of a zone."""
        place = self.zone_place(zone)
        if not isinstance(place, _Place) or end not in ("top", "bottom"):
            return None
        return ("end", id(place.zone), place.own, end)

    def zone_place(self, e: n.Expr) -> Any:
        ref = self.refs.get(id(e))
        if not isinstance(ref, ZoneRef):
            return _UNKNOWN
        own = ref.owner is None or isinstance(ref.owner, n.ActingPlayer)
        return _Place(ref.zone, own, other=ref.owner is not None and self._others(ref.owner))

    def _others(self, e: n.Expr) -> bool:
        """Whether players ``e`` are surely others than the acting player (``players after player``,
        a choice or a loop's player from them)."""
        if isinstance(e, n.PlayersAfter):
            return isinstance(e.player, n.ActingPlayer)
        if isinstance(e, (n.Filter, n.First)):
            return self._others(e.iterable) or self._not_actor(e.where, e.var)
        decl = self._local_decl(e)
        if isinstance(decl, n.Choice) and isinstance(decl.shape, n.PlayerChoice):
            return self._others(decl.shape.pool)
        if isinstance(decl, (n.ForEach, n.Quantifier, n.Aggregate, n.Count, n.CountSets, n.Filter, n.First)):
            where = None if isinstance(decl, n.Quantifier) else decl.where
            return self._others(decl.iterable) or self._not_actor(where, decl.var)
        return False

    # ------------------------------------------------------------------ what is told

    def told(self, e: n.Expr, env: _Env, how: str, target: n.Expr | None = None) -> None:
        for where, attr, card, place in self.reads(e, env, set()):
            if not self._hides(place, card, how, target):
                continue
            if how == "label" and where is attr and self._chosen_by_place(card):
                continue  # the engine reads its attributes as none in a label (see the compiler)
            self.pending.append((where, attr, card, place, how, target))

    def _hides(self, place: _Place, card: n.Expr, how: str, target: n.Expr | None) -> bool:
        """Whether some reader of what is told does not see ``card``, lying at ``place``."""
        if target is None:
            return place.unseen_by() is not None  # a text: read by every player
        reader = self._readers(target)
        if reader == "actor" and self._chosen_by_place(card) and place == self.place(card, {}):
            return True  # he chose it by its place, not seeing it, and it lies there still
        return reader is not None and place.hidden_from(reader)

    def reads(
        self, e: n.Expr, env: _Env, lets: set[int], where: n.Node | None = None
    ) -> Iterator[tuple[n.Node, n.Attribute, n.Expr, _Place]]:
        """Each attribute of a card read in ``e``, or in the value of a 'let' it names (``where``: the
        name as written in what is told), with where the card lies."""
        for node in n.walk(e):
            if isinstance(node, n.Attribute):
                ref = self.refs.get(id(node))
                if isinstance(ref, _CARD_READS):
                    place = self.place(node.obj, env)
                    if isinstance(place, _Place):
                        yield where or node, node, node.obj, place
            if isinstance(node, n.Call):
                for card, attr in self._passed_and_read(node, set()):
                    place = self.place(card, env)
                    if isinstance(place, _Place):
                        yield where or node, attr, card, place
            decl = self._local_decl(node)
            if isinstance(decl, n.Let) and id(decl) not in lets:
                then = env.get(id(decl))
                if isinstance(then, tuple) and then[0] == "value":
                    for value in then[1:]:
                        yield from self.reads(value, env, lets | {id(decl)}, where or node)

    def _passed_and_read(self, call: n.Call, seen: set[int]) -> Iterator[tuple[n.Expr, n.Attribute]]:
        """Each card given to a definition by ``call`` of which it reads an attribute, with that read."""
        ref = self.refs.get(id(call))
        if not (isinstance(ref, DefineRef) and isinstance(ref.define.decl, n.DefineDecl)):
            return
        decl = ref.define.decl
        if id(decl) in seen:
            return
        for param, arg in zip(decl.params, call.args):
            if self._is_cards(arg, zone=True):
                attr = self._read_of((decl, param.name), decl.body, seen | {id(decl)})
                if attr is not None:
                    yield arg, attr

    def _read_of(self, param: tuple[n.DefineDecl, str], body: n.Expr, seen: set[int]) -> n.Attribute | None:
        """The first read of an attribute of the cards named by ``param`` in ``body``, if any."""
        for node in n.walk(body):
            if isinstance(node, n.Attribute) and self._of_param(node.obj, param):
                ref = self.refs.get(id(node))
                if isinstance(ref, _CARD_READS):
                    return node
            if isinstance(node, n.Call):
                for arg, attr in self._passed_and_read(node, seen):
                    if self._of_param(arg, param):
                        return attr
        return None

    def _of_param(self, e: n.Expr, param: tuple[n.DefineDecl, str]) -> bool:
        """Whether ``e`` names cards among those of ``param`` (a definition's parameter, by its
        name: itself, or a name that goes through its cards)."""
        if isinstance(e, (n.Filter, n.First, n.Topmost)):
            return self._of_param(e.iterable, param)
        decl = self._local_decl(e)
        if decl is param[0]:
            return isinstance(e, n.Name) and e.id == param[1]
        if isinstance(decl, (n.ForEach, n.Count, n.CountSets, n.Filter, n.First, n.Topmost, n.Quantifier, n.Aggregate)):
            return self._of_param(decl.iterable, param)
        return False

    def _warning(
        self, where: n.Node, attr: n.Attribute, card: n.Expr, place: _Place, how: str, target: n.Expr | None
    ) -> Diagnostic:
        source = self.checked.source
        card_text = self._written(card)
        through = f" (through '{self._written(where)}')" if where is not attr else ""
        what = f"the {attr.name} of '{card_text}'{through}, a card in '{place.zone.name}' that {place.unseen_by()}"
        if how == "say":
            message = f"this text tells every player {what}"
        elif how == "label":
            message = f"this label tells the other players {what}"
        elif how == "condition":
            message = f"this condition tells the player, by the actions he is offered, {what}"
        else:
            assert target is not None
            who = "every player" if self._readers(target) == "all" else "its player"
            message = f"'{self._written(target)}', which {who} sees, is set from {what}"
        if how == "condition":
            hint = "he cannot choose by what he does not see: test it in the action's effects, once he has chosen"
            return Diagnostic("W406", message, where.span, hint, Severity.WARNING, source)
        hint = f"if the rules tell it, 'reveal {card_text}' first (every player is shown the card)"
        if place.zone.visibility == "owner":
            hint += "; to announce a value a player holds, make it a choice of the action"
            hint += " (r: rank, with 'when' he holds one)"
        return Diagnostic("W406", message, where.span, hint, Severity.WARNING, source)

    def _written(self, e: n.Node) -> str:
        """``e`` as the rule file writes it."""
        return self.checked.source.text[e.span.start.offset : e.span.end.offset]

    # ------------------------------------------------------------------ helpers

    def _local_decl(self, e: n.Node) -> n.Node | None:
        ref = self.refs.get(id(e)) if isinstance(e, n.Name) else None
        if isinstance(ref, LocalRef):
            return ref.local.decl
        return None

    def _chosen_by_place(self, card: n.Expr) -> bool:
        """Whether ``card`` is a choice from cards its chooser may not see (chosen by their place)."""
        decl = self._local_decl(card)
        if not isinstance(decl, n.Choice):
            return False
        pool = self.place(decl.shape.pool, {}) if hasattr(decl.shape, "pool") else _UNKNOWN
        seen = isinstance(pool, _Place) and (
            pool.zone.visibility == "public" or (pool.zone.visibility == "owner" and pool.own)
        )
        return not seen

    def _is_card(self, e: n.Expr) -> bool:
        t = self.types.get(id(e))
        return t is not None and t.kind == "card"

    def _is_cards(self, e: n.Node, zone: bool = False) -> bool:
        """Whether ``e`` is a card or cards (or, with ``zone``, a zone's cards)."""
        t = self.types.get(id(e))
        return t is not None and (t.kind in ("card", "cards") or zone and t.kind == "zone")

    def _readers(self, target: n.Expr) -> str | None:
        """Who reads variable ``target``: every player (``all``), the acting player
        (``actor``), a player maybe another (``other``), or nobody (None)."""
        ref = self.refs.get(id(target))
        if not isinstance(ref, (GameVarRef, PlayerVarRef)):
            return None
        if ref.var.visibility == "public":
            return "all"
        if ref.var.visibility != "owner" or not isinstance(ref, PlayerVarRef):
            return None
        whose = ref.owner
        return "actor" if whose is None or isinstance(whose, n.ActingPlayer) else "other"


def _is_name(e: n.Expr, name: str) -> bool:
    return isinstance(e, n.Name) and e.id == name


#: What following each kind of statement does to what players know (tests/unit/test_dispatch.py
#: checks every statement has its entry: a new one must say whether it tells or shows anything).
STATEMENT_CASES: dict[type, Callable[[_Finder, Any, _Env], None]] = {
    n.Say: _Finder._say,
    n.SetStmt: _Finder._set,
    n.Add: _Finder._set,
    n.Subtract: _Finder._set,
    n.Let: _Finder._let,
    n.Move: _Finder._move,
    n.Reveal: _Finder._show,
    n.TurnFace: _Finder._show,
    n.CallStmt: _Finder._call,
    n.If: _Finder._if,
    n.ForEach: _Finder._loop,
    n.While: _Finder._loop,
    n.Repeat: _Finder._loop,
    n.Show: _Finder._nothing,  # to one player: the table reads that he looked, not at what
    n.Deal: _Finder._nothing,
    n.Shuffle: _Finder._nothing,
    n.Cut: _Finder._nothing,
    n.Stop: _Finder._nothing,
    n.Again: _Finder._nothing,
    n.EndTurn: _Finder._nothing,
    n.EndRound: _Finder._nothing,
    n.EndGame: _Finder._nothing,
    n.GoTo: _Finder._nothing,
    n.Open: _Finder._nothing,
    n.Reverse: _Finder._nothing,
    n.Finish: _Finder._nothing,
}
