"""Check the statements of a game's rules, and note what they do for the checks of the whole game."""

from __future__ import annotations

from collections.abc import Iterator

from ruledsl.analysis.constants import constant_number
from ruledsl.analysis.context import BUILTIN_NAMES, CheckContext, CheckerPart
from ruledsl.analysis.expressions import mentions_players
from ruledsl.analysis.moves import zones_filled
from ruledsl.analysis.refs import CardVarRef, DirectionRef, GameVarRef, LocalRef, PlayerVarRef
from ruledsl.analysis.scope import Scope
from ruledsl.analysis.symbols import ANY, FLAG, NUMBER, PLAYER, PLAYERS, LocalSym, Type, element_type
from ruledsl.engine.ops import DIRECTION_HINT, DIRECTION_RULE
from ruledsl.syntax import nodes as n
from ruledsl.text.render import did_you_mean


class StatementChecker(CheckerPart):
    """Check each statement (``_stmt_<Node>``), and note what the rules do: the phases they go
    to, the windows they open, the zones they move cards to, the procedures they call."""

    def __init__(self, ctx: CheckContext) -> None:
        super().__init__(ctx)
        self.procedure_calls: dict[str, set[str]] = {}
        self._current_procedure: str | None = None
        self.goto_targets: set[str] = set()
        self.opened_windows: set[str] = set()
        self.end_game_seen = False
        self.first_end_round: n.EndRound | None = None
        self.first_finish_for_round: n.Finish | None = None  # E410 without 'round end:'
        self.move_targets: set[str] = set()

    def check_procedure(self, d: n.ProcedureDecl, params: tuple[tuple[str, Type], ...], scope: Scope) -> None:
        """Check a procedure's body, its ``params`` bound in ``scope``, noting the procedures it calls."""
        for pname, ptype in params:
            scope.locals[pname] = LocalSym(pname, d, ptype, "param")
        self._current_procedure = d.name
        self.procedure_calls.setdefault(d.name, set())
        self.block(d.body, scope)
        self._current_procedure = None

    def block(self, body: tuple[n.Stmt, ...], scope: Scope) -> None:
        """Check the statements of a block, in order."""
        for s in body:
            self.check(s, scope)

    def check(self, s: n.Stmt, scope: Scope) -> None:
        """Check one statement (``_stmt_Move`` for a Move...)."""
        method = getattr(self, f"_stmt_{type(s).__name__}")
        method(s, scope)
        self.move_targets.update(zones_filled(s, self.ctx.structure.zone_families, self.refs))

    def _stmt_Move(self, s: n.Move, scope: Scope) -> None:
        t = self.ctx.exprs.check(s.what, scope)
        if t.kind == "zone":
            self.error(
                "E304", "move cards, not a zone", s.what, "to move every card of a zone, write 'all of' before it"
            )
        elif t.kind not in ("card", "cards", "any"):
            self.error("E301", f"only cards can move, not {t}", s.what)
        self.ctx.exprs.expect_zone(s.to, scope)

    def _stmt_Deal(self, s: n.Deal, scope: Scope) -> None:
        self.ctx.exprs.expect(s.count, scope, NUMBER)
        self.ctx.exprs.expect_zone(s.source, scope)
        zone = self.symbols.zones.get(s.target)
        if zone is None:
            self.ctx.undeclared_name(
                "zone",
                s.target,
                self.ctx.name_span(s, s.target, last=True),
                did_you_mean(s.target, self.symbols.zones, "zones"),
            )
        elif not zone.per_player:
            self.error("E303", f"'{s.target}' is shared; 'deal ... to each' needs a zone of each player", s)
        else:
            self.refs[id(s)] = zone
        if s.start is not None:
            self.ctx.exprs.expect(s.start, scope, PLAYER)

    def _stmt_Shuffle(self, s: n.Shuffle, scope: Scope) -> None:
        self.ctx.exprs.expect_zone(s.zone, scope)

    def _stmt_Cut(self, s: n.Cut, scope: Scope) -> None:
        self.ctx.exprs.expect_zone(s.zone, scope)

    def _stmt_Reveal(self, s: n.Reveal, scope: Scope) -> None:
        self._shown_cards(s.what, scope, "revealed")

    def _stmt_Show(self, s: n.Show, scope: Scope) -> None:
        self._shown_cards(s.what, scope, "shown")
        self.ctx.exprs.expect(s.to, scope, PLAYER)

    def _stmt_TurnFace(self, s: n.TurnFace, scope: Scope) -> None:
        self._shown_cards(s.what, scope, "turned")

    def _shown_cards(self, what: n.Expr, scope: Scope, done: str) -> None:
        """The cards a 'reveal' or 'turn' shows: a card, cards, or a zone, which means its cards (``reveal hand``)."""
        t = self.ctx.exprs.check(what, scope)
        if t.kind not in ("card", "cards", "zone", "any"):
            self.error("E301", f"only cards can be {done}, not {t}", what)

    def _stmt_Let(self, s: n.Let, scope: Scope) -> None:
        t = self.ctx.exprs.check(s.value, scope)
        if self.ctx.reserved(s.name, s):
            pass
        elif s.name in scope.locals:
            self.error(
                "E202",
                f"'{s.name}' is already named in this block",
                s,
                "use 'set' to change a variable, or choose another name",
            )
        elif s.name in self.ctx.claimed or s.name in BUILTIN_NAMES:
            self.error("E202", f"'{s.name}' already names something else", s, "choose another name for this value")
        scope.locals[s.name] = LocalSym(s.name, s, t, "let")
        self.types[id(s)] = t

    def _assignable(self, target: n.Expr, scope: Scope) -> Type:
        t = self.ctx.exprs.check(target, scope)
        ref = self.refs.get(id(target))
        if isinstance(ref, (GameVarRef, PlayerVarRef, CardVarRef, DirectionRef)):
            return t
        if isinstance(ref, LocalRef) and isinstance(ref.local.decl, n.Let) and t.kind not in ("zone", "any"):
            return t  # a 'let' keeps the type of its first value
        if isinstance(ref, LocalRef) and isinstance(ref.local.decl, n.Let) and t.kind == "zone":
            self.error(
                "E304",
                "a local name for a zone cannot be given a new value",
                target,
                "name the other zone with another 'let', or choose it with 'if … then … else …' in the 'let'",
            )
            return ANY
        if t.kind != "any":
            what = "a local name" if isinstance(ref, LocalRef) else "this"
            self.error(
                "E304",
                f"{what} cannot be given a new value",
                target,
                "only variables declared with 'var' (or 'player var', 'card var') can change",
            )
        return ANY

    def _stmt_SetStmt(self, s: n.SetStmt, scope: Scope) -> None:
        want = self._assignable(s.target, scope)
        t = self.ctx.exprs.check(s.value, scope, want)
        if not self.ctx.exprs.fits(t, want, s.value):
            held = f"'{s.target.id}'" if isinstance(s.target, n.Name) and self._is_local(s.target) else "this variable"
            self.error("E301", f"{held} holds {want}, not {t}", s.value)
        elif self._is_direction(s.target):
            value = "none" if isinstance(s.value, n.NoneLit) else constant_number(s.value)
            if value is not None and value not in (1, -1):
                self._bad_direction(f", not {value}", s.value)

    def _stmt_Add(self, s: n.Add, scope: Scope) -> None:
        want = self._assignable(s.target, scope)
        if want.kind == "set":
            self._set_change("'add' puts {} into this set", s.value, want, scope)
            return
        if want.kind not in ("number", "any"):
            self.error("E301", f"'add' needs a number variable, not {want}", s.target)
        self.ctx.exprs.expect(s.value, scope, NUMBER)
        self._direction_change(s.target, s.value, 1)

    def _stmt_Subtract(self, s: n.Subtract, scope: Scope) -> None:
        want = self._assignable(s.target, scope)
        if want.kind == "set":
            self._set_change("'subtract' takes {} from this set", s.value, want, scope)
            return
        if want.kind not in ("number", "any"):
            self.error("E301", f"'subtract' needs a number variable, not {want}", s.target)
        self.ctx.exprs.expect(s.value, scope, NUMBER)
        self._direction_change(s.target, s.value, -1)

    def _set_change(self, what: str, value: n.Expr, target: Type, scope: Scope) -> None:
        """'add' or 'subtract' on a set variable: the value is one of the set's values, or a set of them."""
        exprs = self.ctx.exprs
        elem = element_type(target) if target.of else None
        t = exprs.check(value, scope, target if isinstance(value, n.SetLiteral) else elem)
        if t.kind == "set" and exprs.fits(t, target, value) or t.kind != "set" and exprs.fits(t, elem, value):
            return
        kinds = f"{elem} or {target}" if elem is not None else "a value or a set"
        self.error("E301", f"{what.format(kinds)}, not {t}", value, "a set holds values of one list, or numbers")

    # Any direction but 1 and -1 breaks turn order (0: the same player for ever). A value
    # the checker cannot work out is checked when it is set (R504).

    def _is_local(self, target: n.Expr) -> bool:
        return isinstance(self.refs.get(id(target)), LocalRef)

    def _is_direction(self, target: n.Expr) -> bool:
        return isinstance(self.refs.get(id(target)), DirectionRef)

    def _direction_change(self, target: n.Expr, value: n.Expr, sign: int) -> None:
        """'add' or 'subtract' on the direction: refused when it can give neither 1 nor -1."""
        amount = constant_number(value) if self._is_direction(target) else None
        if amount is not None and not {1 + sign * amount, -1 + sign * amount} & {1, -1}:
            verb = "adding" if sign == 1 else "subtracting"
            self._bad_direction(f": {verb} {amount} makes it {1 + sign * amount} or {-1 + sign * amount}", value)

    def _bad_direction(self, what: str, node: n.Node) -> None:
        self.error("E301", f"{DIRECTION_RULE}{what}", node, DIRECTION_HINT)

    def _stmt_Stop(self, s: n.Stop, scope: Scope) -> None:
        if not scope.in_loop:
            self.error(
                "E406",
                "'stop' leaves a loop, but it is not inside one",
                s,
                "use it inside 'repeat', 'while' or 'for each'",
            )

    def _stmt_Again(self, s: n.Again, scope: Scope) -> None:
        pass

    def _stmt_EndTurn(self, s: n.EndTurn, scope: Scope) -> None:
        pass

    def _stmt_EndRound(self, s: n.EndRound, scope: Scope) -> None:
        if self.first_end_round is None:
            self.first_end_round = s

    def _stmt_EndGame(self, s: n.EndGame, scope: Scope) -> None:
        self.end_game_seen = True
        if s.winner is not None:
            self.ctx.exprs.expect(s.winner, scope, PLAYER)
        if s.winners is not None:
            self._winners(s.winners, scope)
        if s.loser is not None:
            self.ctx.exprs.expect(s.loser, scope, PLAYER)
        if s.losers is not None:
            self._winners(s.losers, scope, "losers")

    def _stmt_GoTo(self, s: n.GoTo, scope: Scope) -> None:
        if s.phase not in self.symbols.phases:
            self.error(
                "E205",
                f"unknown phase '{s.phase}'",
                self.ctx.name_span(s, s.phase),
                did_you_mean(s.phase, self.symbols.phases, "phases"),
            )
        else:
            self.refs[id(s)] = self.symbols.phases[s.phase]
            self.goto_targets.add(s.phase)
        if s.player is not None:
            self.ctx.exprs.expect(s.player, scope, PLAYER)

    def _stmt_Open(self, s: n.Open, scope: Scope) -> None:
        if s.window not in self.symbols.windows:
            self.error(
                "E209",
                f"unknown window '{s.window}'",
                self.ctx.name_span(s, s.window),
                did_you_mean(s.window, self.symbols.windows, "windows"),
            )
        else:
            self.refs[id(s)] = self.symbols.windows[s.window]
            self.opened_windows.add(s.window)

    def _stmt_Reverse(self, s: n.Reverse, scope: Scope) -> None:
        pass

    def _stmt_Finish(self, s: n.Finish, scope: Scope) -> None:
        self.ctx.exprs.expect(s.player, scope, PLAYER)
        if s.for_round and self.first_finish_for_round is None:
            self.first_finish_for_round = s

    def _stmt_Say(self, s: n.Say, scope: Scope) -> None:
        self.ctx.exprs.check(s.message, scope)

    def _stmt_CallStmt(self, s: n.CallStmt, scope: Scope) -> None:
        proc = self.symbols.procedures.get(s.name)
        if proc is None:
            if s.name in self.symbols.defines or s.name in self.ctx.claimed:
                self.error(
                    "E304",
                    f"'{s.name}' is a value, not something to do",
                    s,
                    "a line of effects starts with a statement (move, set, ...) "
                    "or the name of a procedure (to name: ...)",
                )
            else:
                self.error(
                    "E208",
                    f"unknown procedure '{s.name}'",
                    self.ctx.name_span(s, s.name),
                    did_you_mean(s.name, self.symbols.procedures, "procedures"),
                )
            for a in s.args:
                self.ctx.exprs.check(a, scope)
            return
        self.refs[id(s)] = proc
        if self._current_procedure is not None:
            self.procedure_calls.setdefault(self._current_procedure, set()).add(s.name)
        self.ctx.names.check_args(s.args, proc.params, s, s.name, scope)

    def _stmt_If(self, s: n.If, scope: Scope) -> None:
        guard = scope.players_guard or any(mentions_players(cond) for cond, _ in s.branches)
        for cond, body in s.branches:
            self.ctx.exprs.expect(cond, scope, FLAG)
            self.block(body, scope.child(players_guard=guard))
        self.block(s.else_, scope.child(players_guard=guard))

    def _stmt_ForEach(self, s: n.ForEach, scope: Scope) -> None:
        self.ctx.reserved(s.var, s)
        elem = self.ctx.exprs.iterable(s.iterable, scope, s.var)
        inner = scope.child(in_loop=True)
        inner.locals[s.var] = LocalSym(s.var, s, elem, "loop")
        if s.where is not None:
            self.ctx.exprs.expect(s.where, inner, FLAG)
        self.block(s.body, inner)

    def _stmt_While(self, s: n.While, scope: Scope) -> None:
        self.ctx.exprs.expect(s.cond, scope, FLAG)
        self.block(s.body, scope.child(in_loop=True))

    def _stmt_Repeat(self, s: n.Repeat, scope: Scope) -> None:
        if s.count is not None:
            self.ctx.exprs.expect(s.count, scope, NUMBER)
        elif not any(isinstance(x, n.Stop) for x in _walk_stmts(s.body)) and not any(
            isinstance(x, (n.EndGame, n.EndRound)) for x in _walk_stmts(s.body)
        ):
            self.error(
                "E407",
                "this 'repeat' has no count and no 'stop': it would never end",
                s,
                "write 'repeat N times:' or put a 'stop' in it",
            )
        self.block(s.body, scope.child(in_loop=True))

    def _winners(self, e: n.Expr, scope: Scope, what: str = "winners") -> None:
        """The players of ``end game, winners`` (or ``losers``): players, and some."""
        t = self.ctx.exprs.check(e, scope, PLAYERS)
        if t.kind == "none" or (isinstance(e, n.SetLiteral) and not e.items):
            hint = "a game nobody wins: 'end game, draw'"
            self.error("E301", f"'{what}' needs players, found no player", e, hint)
        elif t.kind == "player":
            hint = f"for one player, write 'end game, {what[:-1]} P'"
            self.error("E301", f"'{what}' takes players, found a player", e, hint)
        elif t.kind not in ("players", "any"):
            hint = "for players chosen by a condition: 'cards p in players where …'"
            self.error("E301", f"'{what}' takes players, found {t}", e, hint)


def child_stmts(s: n.Stmt) -> Iterator[n.Stmt]:
    """Yield the statements right inside ``s``, in order: the bodies of an 'if', a loop, any statement with a block."""
    yield from (child for child in s.children() if isinstance(child, n.Stmt))


def _walk_stmts(body: tuple[n.Stmt, ...]) -> Iterator[n.Stmt]:
    for s in body:
        yield s
        if not isinstance(s, (n.ForEach, n.While, n.Repeat)):  # a nested loop's stop is its own
            yield from _walk_stmts(tuple(child_stmts(s)))
