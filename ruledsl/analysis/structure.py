"""Check a game's turn structure: phases, windows, actions and choices, triggers, and the game as a whole."""

from __future__ import annotations

import collections
import re
from collections.abc import Iterator
from typing import Any

from ruledsl.analysis.constants import constant_number
from ruledsl.analysis.context import BUILTIN_NAMES, CheckerPart
from ruledsl.analysis.declarations import valid_players
from ruledsl.analysis.expressions import mentions_players
from ruledsl.analysis.moves import zones_filled
from ruledsl.analysis.refs import DefineRef, LocalRef, ZoneFamilyRef, ZoneRef
from ruledsl.analysis.scope import Scope
from ruledsl.analysis.statements import child_stmts
from ruledsl.analysis.symbols import (
    ANY,
    CARD,
    CARDS,
    FLAG,
    NUMBER,
    PLAYER,
    TEXT,
    ZONE,
    ActionSym,
    LocalSym,
    PhaseSym,
    Type,
    WindowSym,
    ZoneSym,
    value_type,
)
from ruledsl.analysis.together import check_together
from ruledsl.engine.limits import CHOICE_WARNING, MAX_OFFERED
from ruledsl.syntax import nodes as n
from ruledsl.text.render import counted, did_you_mean, from_to, or_list
from ruledsl.text.source import Pos, Span


class StructureChecker(CheckerPart):
    """Check how a game is played: its phases and windows, their actions and choices, the rules
    on cards entering a zone, and, once every rule is checked, the game as a whole."""

    def check_phase(self, d: n.PhaseDecl, phase: PhaseSym) -> None:
        """Check a phase (or an auction): its 'on enter', its actions, and an auction's handlers."""
        scope = Scope(has_player=True)
        enters = [i for i in d.items if isinstance(i, n.OnEnter)]
        for extra in enters[1:]:
            self.error("E202", f"phase '{d.name}' has a second 'on enter:'", extra)
        for item in d.items:
            if isinstance(item, n.OnEnter):
                self.ctx.stmts.block(item.body, scope.child())
            elif isinstance(item, n.ActionDecl):
                self._check_action(item, scope, is_bid=d.is_auction, may_call=d.passes is not None)
            elif isinstance(item, n.PassDecl):
                if not d.is_auction:
                    self.error(
                        "E406",
                        "'pass:' belongs in an auction or a window",
                        item,
                        "in a phase, write an action named pass",
                    )
                self._check_pass(item, scope)
            elif isinstance(item, n.WonHandler):
                if not d.is_auction:
                    self.error(
                        "E406", "'when won' belongs in an auction", item, "declare the phase with 'auction name:'"
                    )
                inner = scope.child()
                inner.locals[item.var] = LocalSym(item.var, item, PLAYER, "param")
                self.ctx.stmts.block(item.body, inner)
            elif isinstance(item, n.UnsoldHandler):
                if not d.is_auction:
                    self.error(
                        "E406", "'when unsold' belongs in an auction", item, "declare the phase with 'auction name:'"
                    )
                self.ctx.stmts.block(item.body, scope.child())
        check_together(self, d, scope)
        if d.passes is not None and d.passes < 1:
            self.error(
                "E302",
                f"auction '{d.name}' cannot end after {d.passes} passes",
                d,
                "write how many passes in a row after a bid end it: 'until 3 passes', say",
            )
        if d.is_auction:
            if not any(isinstance(i, n.WonHandler) for i in d.items):
                self.error("E403", f"auction '{d.name}' has no 'when won by <name>:'", d, "say what the winner gets")
            if not any(isinstance(i, n.UnsoldHandler) for i in d.items):
                self.error(
                    "E403", f"auction '{d.name}' has no 'when unsold:'", d, "say what happens when everybody passes"
                )
        if not any(isinstance(i, n.ActionDecl) for i in d.items):
            self._check_effects_only(d, enters[0] if enters else None)

    def _check_effects_only(self, d: n.PhaseDecl, enter: n.OnEnter | None) -> None:
        """A phase without actions is made of its 'on enter:' alone, which must hand play on."""
        if d.is_auction:
            self.error("E403", f"auction '{d.name}' has no bid", d, "an auction lists its bids: action name: ...")
        elif enter is None:
            self.error(
                "E403",
                f"phase '{d.name}' has neither an action nor 'on enter:'",
                d,
                "a phase lists what its player may do (action name: ...), or is made of effects alone (on enter: ...)",
            )
        elif not any(isinstance(s, (n.GoTo, n.EndGame, n.EndRound)) for s in self.reachable_stmts(enter.body)):
            self.error(
                "E403",
                f"phase '{d.name}' has no action, and its 'on enter:' never hands play on",
                d,
                "a phase made of effects alone must end with 'go to <phase>', 'end round' or 'end game'",
            )

    def check_window(self, d: n.WindowDecl, window: WindowSym) -> None:
        """Check a window: who may act in it, and its actions."""
        scope = Scope(has_player=True)
        t = self.ctx.exprs.check(d.who, scope)
        if t.kind not in ("player", "players", "any"):
            self.error("E301", f"a window is for a player or players, not {t}", d.who)
        handlers = [i for i in d.items if isinstance(i, n.AllPassHandler)]
        for extra in handlers[1:]:
            self.error("E202", f"window '{d.name}' has a second 'when all pass:'", extra)
        for item in d.items:
            if isinstance(item, n.ActionDecl):
                self._check_action(item, scope, is_bid=False, in_window=True)
            elif isinstance(item, n.OfferItem):
                self._check_offer(item, window)
            elif isinstance(item, n.PassDecl):
                self._check_pass(item, scope)
            elif isinstance(item, n.AllPassHandler):
                self.ctx.stmts.block(item.body, scope.child())
                for s in self.reachable_stmts(item.body):
                    if isinstance(s, n.Open):
                        self.error(
                            "E406",
                            "a window cannot open another when it closes",
                            s,
                            "open the next window from an action, or go to a phase whose action opens it",
                        )
        if not any(isinstance(i, (n.ActionDecl, n.OfferItem)) for i in d.items):
            self.error("E403", f"window '{d.name}' has no action", d)

    def _check_offer(self, item: n.OfferItem, window: WindowSym) -> None:
        """``offer NAME from PHASE``: an action of a plain phase, named once in the window."""
        phase = self.symbols.phases.get(item.phase)
        if phase is None:
            self.error(
                "E205",
                f"unknown phase '{item.phase}'",
                self.ctx.name_span(item, item.phase),
                did_you_mean(item.phase, self.symbols.phases, "phases"),
            )
            return
        self.refs[id(item)] = phase
        decl = phase.decl
        assert isinstance(decl, n.PhaseDecl)
        if phase.is_auction or decl.together:
            kind = "a bid of auction" if phase.is_auction else "an action of phase played together"
            self.error(
                "E406",
                f"{kind} '{phase.name}' cannot be offered in a window",
                item,
                "offer an action of a plain phase ('phase NAME:'), played by one player at a time",
            )
            return
        action = self.symbols.offered(item)
        if action is None:
            known = [a.name for a in phase.actions if not a.is_pass]
            self.error(
                "E206",
                f"phase '{phase.name}' has no action '{item.name}'",
                self.ctx.name_span(item, item.name),
                did_you_mean(item.name, known, f"actions of '{phase.name}'"),
            )
            return
        if any(r.must for r in action.requires):
            self.error("E412", f"'must if able' on action '{item.name}', offered in a window", item, _MUST)
            return
        if any(a.name == item.name for a in window.actions):
            self.error("E202", f"action '{item.name}' is already defined in '{window.name}'", item)
            return
        window.actions.append(ActionSym(item.name, action, len(window.actions), window.name))

    def _check_pass(self, item: n.PassDecl, scope: Scope) -> None:
        inner = scope.child()
        if item.label is not None:
            self.ctx.exprs.expect(item.label, inner, TEXT)
        self.ctx.stmts.block(item.body, inner)

    def _check_action(
        self, a: n.ActionDecl, scope: Scope, is_bid: bool, may_call: bool = False, in_window: bool = False
    ) -> None:
        """Check an action; ``may_call``: in an auction whose passes are not final, one without a strength is a call."""
        inner = scope.child()
        for choice in a.choices:
            t = self._choice(choice.shape, inner)
            self.ctx.reserved(choice.name, choice)
            if choice.name in inner.locals:
                self.error("E202", f"choice '{choice.name}' is already used in this action", choice)
            inner.locals[choice.name] = LocalSym(choice.name, choice, t, "choice")
            self.types[id(choice)] = t
        self._warn_choice_product(a)
        if a.when is not None:
            self.ctx.exprs.expect(a.when, inner, FLAG)
            if mentions_players(a.when):
                inner = inner.child(players_guard=True)
        for clause in a.requires:
            if clause.must and (misplaced := _misplaced_must(a, clause, is_bid, in_window)):
                self.error("E412", *misplaced)
            self.ctx.exprs.expect(clause.cond, inner, FLAG)
            # The reason is read when its condition fails: before that condition guards anything.
            self.ctx.exprs.expect(clause.reason, inner, TEXT)
            if mentions_players(clause.cond):
                inner = inner.child(players_guard=True)
        if a.label is not None:
            self.ctx.exprs.expect(a.label, inner, TEXT)
        if is_bid:
            if a.strength is None and may_call:
                pass  # a call (double, redouble): it leaves the standing bid
            elif a.strength is None:
                self.error(
                    "E403",
                    f"bid '{a.name}' has no 'strength'",
                    a,
                    "give each bid a strength such as: strength (count, 1, value)",
                )
            else:
                t = self.ctx.exprs.check(a.strength, inner)
                if t.kind not in ("number", "tuple", "any"):
                    self.error("E301", f"a bid's strength is a number or a tuple of numbers, not {t}", a.strength)
        elif a.strength is not None:
            self.error(
                "E406",
                "'strength' belongs to the bids of an auction",
                a.strength,
                "declare the phase with 'auction name:'",
            )
        if a.otherwise and is_bid:
            self.error("E406", "a bid cannot be 'otherwise': passing is always possible in an auction", a)
        self.ctx.stmts.block(a.body, inner)

    def _warn_choice_product(self, a: n.ActionDecl) -> None:
        """W409: an action whose choices multiply past what one player may be offered (R507 when they
        are all open). Only domains known before play count: values, players, numbers written
        with literals (and 'players'); cards count one each, as if a zone held one card."""
        if len(a.choices) < 1:
            return
        decl = next((d for d in self.ctx.file.decls if isinstance(d, n.PlayersDecl)), None)
        most = constant_number(decl.high) if decl is not None else 2
        product = 1
        for choice in a.choices:
            shape = choice.shape
            if isinstance(shape, n.ValueChoice) and shape.type_name in self.symbols.values:
                product *= len(self.symbols.values[shape.type_name].members)
            elif isinstance(shape, n.PlayerChoice) and most is not None:
                product *= max(most, 1)
            elif isinstance(shape, n.NumberChoice):
                low, high = constant_number(shape.low, most), constant_number(shape.high, most)
                if low is not None and high is not None:
                    product *= max(high - low + 1, 1)
        if product > CHOICE_WARNING:
            self.ctx.warning(
                "W409",
                f"the choices of '{a.name}' may offer up to {product:,} actions at once, more than {MAX_OFFERED:,}",
                a,
                "the game stops there (R507): offer fewer, or let the player choose in steps, one action per choice",
            )

    def _choice(self, shape: n.ChoiceShape, scope: Scope) -> Type:
        if isinstance(shape, n.NumberChoice):
            self.ctx.exprs.expect(shape.low, scope, NUMBER)
            self.ctx.exprs.expect(shape.high, scope, NUMBER)
            return NUMBER
        if isinstance(shape, n.ValueChoice):
            if shape.type_name in self.symbols.values:
                return value_type(shape.type_name)
            self.error(
                "E210",
                f"unknown values '{shape.type_name}'",
                shape,
                did_you_mean(shape.type_name, self.symbols.values, "values"),
            )
            return ANY
        if isinstance(shape, n.PlayerChoice):
            t = self.ctx.exprs.check(shape.pool, scope)
            if t.kind not in ("players", "any"):
                self.error("E301", f"choose a player from players, not from {t}", shape.pool)
            return PLAYER
        assert isinstance(shape, (n.CardChoice, n.CardsChoice, n.SameChoice, n.ValuedChoice, n.DifferentChoice))
        t = self.ctx.exprs.check(shape.pool, scope)
        if t.kind not in ("zone", "cards", "any"):
            self.error("E301", f"choose cards from a zone or some cards, not from {t}", shape.pool)
        if shape.wild is not None:
            self._card_predicate(shape.wild, shape, "wild")
        count = getattr(shape, "count", None)
        if count is not None:
            self.ctx.exprs.expect(count, scope, NUMBER)
        high = getattr(shape, "high", None)
        if high is not None:
            self.ctx.exprs.expect(high, scope, NUMBER)
        if isinstance(shape, (n.SameChoice, n.ValuedChoice, n.DifferentChoice)):
            attr = self.symbols.attributes.get(shape.attr)
            if attr is None:
                self.error(
                    "E203",
                    f"cards have no attribute '{shape.attr}'",
                    shape,
                    did_you_mean(shape.attr, self.symbols.attributes, "attributes"),
                )
            else:
                self.refs[id(shape)] = attr
                if attr.type.kind not in ("number", "value", "text", "flag", "any"):
                    self.error(
                        "E301", f"cards can be grouped by a single value, but '{shape.attr}' is {attr.type}", shape
                    )
                if isinstance(shape, n.ValuedChoice):
                    vt = self.ctx.exprs.check(shape.value, scope, attr.type)
                    if not self.ctx.exprs.fits(vt, attr.type, shape.value):
                        self.error("E301", f"'{shape.attr}' is {attr.type}, not {vt}", shape.value)
                if isinstance(shape, n.DifferentChoice) and shape.sequence:
                    _check_run(self, shape, attr)
        return CARD if isinstance(shape, n.CardChoice) else CARDS

    def _card_predicate(self, name: str, node: n.Node, what: str) -> None:
        """Resolve a name that must be a flag attribute or a one-card yes/no definition."""
        attr = self.symbols.attributes.get(name)
        if attr is not None:
            if attr.type.kind not in ("flag", "any"):
                self.error("E301", f"'{name}' must be yes or no to mark {what} cards, but it is {attr.type}", node)
            self.ctx.wilds[id(node)] = attr
            return
        d = self.symbols.defines.get(name)
        if d is not None:
            t = self.ctx.decls.define_type(d)
            if len(d.params) != 1 or d.params[0][1].kind != "card" or t.kind not in ("flag", "any"):
                self.error("E301", f"'{name}' must take one card and say yes or no", node)
            self.ctx.wilds[id(node)] = d
            return
        self.error(
            "E203",
            f"'{name}' is neither a card attribute nor a definition",
            node,
            did_you_mean(name, [*self.symbols.attributes, *self.symbols.defines], "names"),
        )

    def check_trigger(self, d: n.TriggerDecl, scope: Scope) -> None:
        """Check a 'when ... enter' rule: the zone it watches, the names it binds, its effects."""
        zone = self._static_zone(d.zone)
        if not self.ctx.reserved(d.var, d):
            scope.locals[d.var] = LocalSym(d.var, d, CARDS, "param")
        if zone is not None:
            self.refs[id(d)] = zone
        if d.owner is not None:
            self._bind_owner(d, zone, scope)
        self.ctx.stmts.block(d.body, scope)

    def _static_zone(self, e: n.Expr) -> ZoneSym | None:
        if isinstance(e, n.Name) and e.id in self.symbols.zones:
            z = self.symbols.zones[e.id]
            self.refs[id(e)] = ZoneFamilyRef(z)
            self.types[id(e)] = ZONE
            return z
        if isinstance(e, n.Name) and self.ctx.names.is_unknown(e.id, Scope()):
            self.ctx.undeclared_name("zone", e.id, e, did_you_mean(e.id, self.symbols.zones, "zones"))
            return None
        self.error(
            "E303",
            "a 'when ... enter' rule watches a zone, named plainly",
            e,
            "write the zone's name, such as: when cs enter pile: (or, for a zone of each player, "
            "when cs enter p.hand: which names p the player whose hand received them)",
        )
        return None

    def _bind_owner(self, d: n.TriggerDecl, zone: ZoneSym | None, scope: Scope) -> None:
        """``when cs enter p.hand``: bind p, in the rule's effects, to the player whose zone received the cards."""
        assert d.owner is not None
        owner = d.owner
        if zone is not None and not zone.per_player:
            self.error(
                "E303",
                f"'{zone.name}' is shared; 'when {d.var} enter {owner}.{zone.name}' needs a zone of each player",
                d.zone,
                f"write 'when {d.var} enter {zone.name}:' for a shared zone",
            )
        if self.ctx.reserved(owner, d):
            return
        if owner == d.var:
            self.error(
                "E202",
                f"'{owner}' already names the cards that entered",
                self._owner_span(d),
                "choose another name for the player whose zone received them",
            )
        elif owner in self.ctx.claimed or owner in BUILTIN_NAMES:
            # A game's name here would read as that player only, but the rule watches every player's zone.
            self.error(
                "E202",
                f"'{owner}' already names something else; here it would name the player whose zone received the cards",
                self._owner_span(d),
                f"choose a new name (when {d.var} enter p.{d.zone.id if isinstance(d.zone, n.Name) else 'hand'}:); "
                f"to act for one player only, test him in the effects: if p == {owner}:",
            )
        scope.locals[owner] = LocalSym(owner, d, PLAYER, "param")

    def _owner_span(self, d: n.TriggerDecl) -> Span:
        """Where the owner of ``when cs enter p.hand`` is written: just before its zone's dot."""
        zone = d.zone.span.start
        before = re.search(r"(\w+)\s*\.\s*$", self.ctx.source.line_text(zone.line)[: zone.col - 1])
        if before is None:
            return d.zone.span
        width = zone.col - 1 - before.start(1)
        start = Pos(zone.line, before.start(1) + 1, zone.offset - width)
        return Span(start, Pos(zone.line, before.end(1) + 1, start.offset + len(before.group(1))))

    def zone_families(self, e: n.Expr) -> set[str]:
        """Return the names of the zones an expression may denote (for trigger analysis)."""
        families: set[str] = set()
        followed: set[int] = set()  # definitions and lets, each followed once (they may form a cycle)
        stack = [e]
        while stack:
            e = stack.pop()
            ref = self.refs.get(id(e))
            if isinstance(ref, (ZoneRef, ZoneFamilyRef)):
                families.add(ref.zone.name)
            elif isinstance(e, n.IfExpr):
                stack += [e.then, e.else_]
            elif isinstance(ref, DefineRef):
                decl = ref.define.decl
                if isinstance(decl, n.DefineDecl) and id(decl) not in followed:
                    followed.add(id(decl))
                    stack.append(decl.body)
            elif isinstance(ref, LocalRef) and isinstance(ref.local.decl, n.Let):
                decl = ref.local.decl  # let there = south
                if id(decl) not in followed:
                    followed.add(id(decl))
                    stack.append(decl.value)
            elif isinstance(e, n.Call):
                return set(self.symbols.zones)
        return families

    def check(self) -> None:
        """Check the game as a whole, once every rule is checked: its end, what is never reached, cycles, seats."""
        sy = self.symbols
        has_round_end = any(isinstance(d, n.RoundEndDecl) for d in self.ctx.file.decls)
        if self.ctx.stmts.first_finish_for_round is not None and not has_round_end:
            self.error(
                "E410",
                "'finish ... for the round' in a game of one round: there is no 'round end:' section",
                self.ctx.stmts.first_finish_for_round,
                "add 'round end:' to play more rounds, or write 'finish P' to put the player out for the game",
            )
        if self.ctx.stmts.first_end_round is not None and not has_round_end:
            # The runtime ends the game there (by the ranking); a designer who wrote 'end round'
            # most likely meant another round to follow.
            self.warning(
                "W405",
                "'end round' ends the game: there is no 'round end:' section",
                self.ctx.stmts.first_end_round,
                "to play another round, add 'round end:' (with 'end game' after the last round); "
                "to end the game, write 'end game'",
            )
        elif not self.ctx.stmts.end_game_seen and sy.phases:
            self.error(
                "E402",
                "the game never ends: no rule says 'end game'",
                self.ctx.file.header,
                "add a rule such as: if hand is empty: end game, winner player",
            )
        # Phases reached by no 'go to' are dead, except the first, where play starts.
        first = next(iter(sy.phases.values()), None)
        for phase in sy.phases.values():
            if phase is not first and phase.name not in self.ctx.stmts.goto_targets:
                self.warning(
                    "W401",
                    f"phase '{phase.name}' is never reached: no rule goes to it",
                    phase.decl,
                    f"write 'go to {phase.name}' where it should begin, or remove it",
                )
        for window in sy.windows.values():
            if window.name not in self.ctx.stmts.opened_windows:
                self.warning(
                    "W402",
                    f"window '{window.name}' is never opened",
                    window.decl,
                    f"write 'open {window.name}' in the rule after which it applies",
                )
        for d in self.ctx.file.decls:
            if isinstance(d, n.TriggerDecl):
                zone = self.refs.get(id(d))
                if isinstance(zone, ZoneSym) and zone.name not in self.ctx.stmts.move_targets:
                    self.warning("W403", f"this rule never runs: no card is ever moved to '{zone.name}'", d)
        # A procedure that runs itself, even through others, would never end.
        looping = _reaching_cycles(self.ctx.stmts.procedure_calls)
        for name in sy.procedures:
            path = _find_cycle(name, self.ctx.stmts.procedure_calls) if name in looping else None
            if path:
                decl = sy.procedures[name].decl
                self.error(
                    "E405",
                    f"procedure '{name}' runs itself ({' -> '.join(path)})",
                    decl,
                    "use 'repeat' or 'while' for a rule that repeats",
                )
                break
        self._check_trigger_cycles()
        self._check_seats()

    def _check_seats(self) -> None:
        """A 'seat N' past the last player (or below 0), worked out from numbers and 'players'
        alone at each player count the game allows: an error when no count has that seat, a
        warning when some have not (unless it is used under a test of 'players')."""
        decl = next((d for d in self.ctx.file.decls if isinstance(d, n.PlayersDecl)), None)
        if decl is None:
            return
        low, high = constant_number(decl.low), constant_number(decl.high)
        if not valid_players(low, high):
            return
        assert low is not None and high is not None
        for e, guarded in self.ctx.exprs.seats.values():
            seats = {p: constant_number(e.index, p) for p in range(low, high + 1)}
            if any(i is None for i in seats.values()):
                continue  # known only while playing
            missing = [p for p, i in seats.items() if not 0 <= i < p]  # type: ignore[operator]
            if not missing:
                continue
            first = missing[0]
            what = f"seat {seats[first]}"
            if len(set(seats.values())) > 1:
                what = f"'{self._text(e)}' (seat {seats[first]} with {counted(first, 'player')})"
            if len(missing) == len(seats):
                self.error(
                    "E409",
                    f"{what} does not exist with any number of players the game allows ({from_to(low, high)})",
                    e,
                    f"seats are numbered from 0: with {counted(high, 'player')} they are seat 0 to seat {high - 1}; "
                    "the last player is 'seat (players - 1)'",
                )
            elif not guarded:
                self.warning(
                    "W404",
                    f"{what} does not exist with {counted(or_list(missing), 'player')}",
                    e,
                    f"seats are numbered from 0: with {counted(first, 'player')} they are seat 0 to seat {first - 1}; "
                    "test 'players' first, or refuse fewer players with 'require'",
                )

    def _text(self, node: n.Node) -> str:
        """The text of a node as written (its first line)."""
        span = node.span
        text = self.ctx.source.line_text(span.start.line)
        end = span.end.col - 1 if span.end.line == span.start.line else len(text)
        return text[span.start.col - 1 : end]

    def _check_trigger_cycles(self) -> None:
        """A rule on cards entering a zone must not move cards into that zone again, even
        through the rules of other zones: they would set each other off without end."""
        hint = "move the cards elsewhere, or run the effect from the action instead"
        watched: dict[str, list[n.TriggerDecl]] = {}  # zone -> the rules on cards entering it
        for t in (d for d in self.ctx.file.decls if isinstance(d, n.TriggerDecl)):
            zone = self.refs.get(id(t))
            if isinstance(zone, ZoneSym):
                watched.setdefault(zone.name, []).append(t)
        # What each rule moves cards into (only zones that are watched), in file order.
        fills: dict[int, list[tuple[n.Stmt, str]]] = {}
        for rules in watched.values():
            for t in rules:
                found: list[tuple[n.Stmt, str]] = []
                for s in self.reachable_stmts(t.body):
                    found += [(s, z) for z in zones_filled(s, self.zone_families, self.refs) if z in watched]
                fills[id(t)] = sorted(found, key=lambda f: (f[0].span.start.offset, f[1]))
        in_a_cycle: set[int] = set()  # rules already reported, so that a cycle is reported once
        for t in (d for d in self.ctx.file.decls if isinstance(d, n.TriggerDecl)):
            own = self.refs.get(id(t))
            if not isinstance(own, ZoneSym) or id(t) in in_a_cycle:
                continue
            for s, filled in fills[id(t)]:
                if filled == own.name:
                    self.error("E405", f"this rule moves cards into '{own.name}', which sets itself off again", s, hint)
                    in_a_cycle.add(id(t))
            for s, filled in fills[id(t)]:
                if id(t) in in_a_cycle:
                    break
                path = self._trigger_path(filled, own.name, watched, fills)
                if path is not None:
                    chain = " -> ".join([own.name, *path])
                    back = f"which sets off rules that move cards back into '{own.name}' ({chain})"
                    self.error("E405", f"this rule moves cards into '{filled}', {back}", s, hint)
                    in_a_cycle.add(id(t))
                    in_a_cycle.update(id(r) for z in path for r in watched[z])

    def _trigger_path(
        self, start: str, goal: str, watched: dict[str, list[n.TriggerDecl]], fills: dict[int, list[tuple[n.Stmt, str]]]
    ) -> list[str] | None:
        """The zones from ``start`` to ``goal``, each filled by a rule on the one before (breadth first)."""
        came_from: dict[str, str | None] = {start: None}
        queue = collections.deque([start])
        while queue:
            zone = queue.popleft()
            for rule in watched[zone]:
                for _s, nxt in fills[id(rule)]:
                    if nxt == goal:
                        path = [goal, zone]
                        while came_from[path[-1]] is not None:
                            path.append(came_from[path[-1]])  # type: ignore[arg-type]
                        return path[::-1]
                    if nxt not in came_from:
                        came_from[nxt] = zone
                        queue.append(nxt)
        return None

    def reachable_stmts(self, body: tuple[n.Stmt, ...]) -> Iterator[n.Stmt]:
        """Yield the statements of ``body``, those nested in it and those of the procedures it runs."""
        seen: set[str] = set()
        stack = list(body)
        while stack:
            s = stack.pop()
            yield s
            for child in child_stmts(s):
                stack.append(child)
            if isinstance(s, n.CallStmt) and s.name in self.symbols.procedures and s.name not in seen:
                seen.add(s.name)
                decl = self.symbols.procedures[s.name].decl
                if isinstance(decl, n.ProcedureDecl):
                    stack.extend(decl.body)


def _find_cycle(start: str, calls: dict[str, set[str]]) -> list[str] | None:
    stack = [start]
    came_from: dict[str, str] = {}  # the path is rebuilt from these only when found: no copy per step
    while stack:
        node = stack.pop()
        for callee in calls.get(node, ()):
            if callee == start:
                path = [node]
                while path[-1] != start:
                    path.append(came_from[path[-1]])
                return [*reversed(path), start]
            if callee not in came_from:
                came_from[callee] = node
                stack.append(callee)
    return None


def _reaching_cycles(calls: dict[str, set[str]]) -> set[str]:
    """The procedures from which a cycle of calls can be reached: all but those whose calls
    all end. Only these can be on a cycle, so a long chain of calls (p1 calls p2 ... calls
    p3000) is not searched again from each of its procedures."""
    callers: dict[str, set[str]] = {}
    waiting = dict.fromkeys(calls, 0)  # each procedure's callees not yet known to end
    for name, callees in calls.items():
        for callee in callees & calls.keys():  # a name that calls nothing ends
            callers.setdefault(callee, set()).add(name)
            waiting[name] += 1
    ends = [name for name in calls if waiting[name] == 0]
    ended: set[str] = set()
    while ends:
        name = ends.pop()
        ended.add(name)
        for caller in callers.get(name, ()):
            waiting[caller] -= 1
            if waiting[caller] == 0:
                ends.append(caller)
    return set(calls) - ended


def _check_run(checker: Any, shape: n.DifferentChoice, attr: Any) -> None:
    """A run's attribute must have an order (a number, or a values list's), its shared one must
    exist, and a run of pairs (triples) a number of cards they make (E307)."""
    if attr.type.kind not in ("number", "value", "any"):
        checker.error(
            "E301",
            f"a run is in sequence of numbers or of a values list's order, but '{shape.attr}' is {attr.type}",
            shape,
        )
    if shape.sharing is not None and shape.sharing not in checker.symbols.attributes:
        checker.error(
            "E203",
            f"cards have no attribute '{shape.sharing}'",
            shape,
            did_you_mean(shape.sharing, checker.symbols.attributes, "attributes"),
        )
    counts = [c.value for c in (shape.count, shape.high or shape.count) if isinstance(c, n.Number)]
    if shape.width > 1 and len(counts) == 2 and all(k % shape.width for k in range(counts[0], counts[1] + 1)):
        tuples = "pairs" if shape.width == 2 else "triples"
        checker.error(
            "E307",
            f"a run of {tuples} takes {'an even number' if shape.width == 2 else 'a multiple of 3'} of cards,"
            f" not {counts[0]}{'' if shape.high is None else f' to {counts[1]}'}",
            shape,
            f"write a number of cards {tuples} make: {shape.width * 2} cards in {tuples} in sequence of {shape.attr}",
        )


#: The hint of E412 where a 'must if able' has no phase to bind.
_MUST = (
    "it binds the other actions of a plain phase, passing among them: write it in an action of a "
    "phase ('phase NAME:'), not an 'otherwise' one, or write 'require if able'"
)


def _misplaced_must(
    a: n.ActionDecl, clause: n.RequireClause, is_bid: bool, in_window: bool
) -> tuple[str, n.Node, str] | None:
    """E412's message, place and hint for a 'must if able' that cannot bind (None: it can): it binds a
    plain phase's other actions, pass among them, each refused with its reason."""
    where = "a bid" if is_bid else "an action of a window" if in_window else None
    where = "an 'otherwise' action" if where is None and a.otherwise else where
    if where is not None:
        return f"'must if able' on {where}, '{a.name}'", clause, _MUST
    if any(r.able for r in a.requires):
        hint = "which would bind first is unclear: join their conditions in one 'must if able' (with 'and')"
        return f"'must if able' and 'require if able' on one action, '{a.name}'", clause, hint
    chosen = {ch.name for ch in a.choices} & {x.id for x in n.walk(clause.reason) if isinstance(x, n.Name)}
    if chosen:
        hint = (
            "it is also the reason another action (pass too) is refused, where nothing is chosen: "
            "say what must be played, not what was"
        )
        name = sorted(chosen)[0]
        return f"the reason of a 'must if able' names the choice '{name}' of action '{a.name}'", clause.reason, hint
    return None
