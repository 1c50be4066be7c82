"""Write the Python statements for each rule statement (the ``_st_*`` methods)."""

from __future__ import annotations

import re

from ruledsl.analysis.refs import CardVarRef, DirectionRef, GameVarRef, LocalRef, PlayerVarRef, ZoneFamilyRef, ZoneRef
from ruledsl.analysis.symbols import PhaseSym, ProcedureSym, WindowSym, ZoneSym
from ruledsl.codegen import names
from ruledsl.codegen.context import CompileContext, CompilerPart, Scope
from ruledsl.engine.limits import MAX_INTEGER, STEP_BUDGET
from ruledsl.engine.ops import BOTTOM, RANDOM, TOP
from ruledsl.engine.values import AGAIN, GO_TO, NEXT_TURN
from ruledsl.syntax import nodes as n


class Statements(CompilerPart):
    """Python for rule statements: one ``_st_<Node>`` method per kind of statement."""

    def __init__(self, cx: CompileContext) -> None:
        super().__init__(cx)
        self.folding = cx.folding
        self.exprs = cx.exprs
        self._loop_rest: str | None = None  # the iterator of the 'for each' a 'stop' leaves, if that is the loop

    def body(self, stmts: tuple[n.Stmt, ...], scope: Scope) -> None:
        """Write rule statements, each one's lines carrying its span (``pass`` for none)."""
        if not stmts:
            self.em.line("pass")
            return
        for s in stmts:
            self.em.at(s.span)
            getattr(self, f"_st_{type(s).__name__}")(s, scope)

    def _fire(self, dst: str, moved: str, scope: Scope, static_family: int | None) -> None:
        if static_family is not None:
            if static_family in self.cx.trigger_families:
                self.em.line(self.trig_call(static_family, scope.player, dst, moved))
        elif self.cx.trigger_families:
            self.em.line(f"{names.FIRE()}(st, {scope.player}, {dst}, {moved})")

    def _static_family(self, e: n.Expr) -> int | None:
        ref = self.ref(e)
        if isinstance(ref, (ZoneRef, ZoneFamilyRef)):
            return ref.zone.index
        return None

    def _st_Move(self, s: n.Move, scope: Scope) -> None:
        em = self.em
        dst = self.fresh(names.ZONE)
        em.line(f"{dst} = {self.exprs.ex(s.to, scope)}")
        where = {"top": TOP, "bottom": BOTTOM, "random": RANDOM}[s.placement]
        family = self._static_family(s.to)
        needs_fire = bool(self.cx.trigger_families) and (family is None or family in self.cx.trigger_families)
        t = self.type_of(s.what)
        if isinstance(s.what, n.TopOf) and s.what.count is None and self.type_of(s.what.zone).kind == "zone":
            src = self.fresh(names.ZONE)
            em.line(f"{src} = Z[{self.exprs.ex(s.what.zone, scope)}]")
            em.line(f"if {src}:")
            with em.block():
                entered = self.emit_move(dst, where, s.facing, scope, top_of=src)
                if needs_fire:
                    self._fire(dst, entered, scope, family)
            return
        if t.kind == "card":
            c = self.fresh(names.CARD)
            em.line(f"{c} = {self.exprs.ex(s.what, scope)}")
            if t.nullable:
                em.line(f"if {c} is not None:")
                em.indent += 1
            entered = self.emit_move(dst, where, s.facing, scope, card=c)
            if needs_fire:
                self._fire(dst, entered, scope, family)
            if t.nullable:
                em.indent -= 1
            return
        if isinstance(s.what, n.AllOf) and self.type_of(s.what.zone).kind == "zone" and where == TOP:
            entered = self.emit_move(dst, where, s.facing, scope, zone=self.exprs.ex(s.what.zone, scope))
        else:
            entered = self.emit_move(dst, where, s.facing, scope, cards=self.exprs.cards(s.what, scope))
        if needs_fire:
            em.line(f"if {entered}:")
            with em.block():
                self._fire(dst, entered, scope, family)

    def emit_move(
        self,
        dst: str,
        where: int,
        facing: str | None,
        scope: Scope,
        *,
        card: str | None = None,
        top_of: str | None = None,
        zone: str | None = None,
        cards: str | None = None,
        plain: str = "st.known is None",
    ) -> str:
        """Write the moving of cards to zone ``dst`` (at ``where``: ops.TOP, BOTTOM or RANDOM, laid
        ``facing``): the one call of ``op_move`` (engine/ops.py: the one way cards move), or
        ``op_move_zone`` for every card of a zone. Return the Python naming the cards that
        entered ``dst``: the statement gives them to the rules on cards entering it.

        What moves is one card (``card``, a name), the top card of a zone's list (``top_of``,
        a name; the card gets a fresh name), every card of ``zone``, or ``cards``. One card put
        on top is moved inline while ``plain`` holds (nobody's knowledge is kept): what
        ``op_move`` does then, without a call, on the hot path of most games (only where it
        lies as ``facing`` says: not in a game with a zone 'seen by mover', unless laid face
        up). Every statement moving cards writes it here."""
        em = self.em
        lay = ""
        inline = where == TOP
        if self.cx.uses_faces:
            seen_by_mover = any(z.visibility == "mover" for z in self.sy.zones.values())
            lay = f", {_FACES[facing]}, {scope.player if seen_by_mover else 'None'}"
            inline = inline and (facing == "up" or not seen_by_mover)  # then laid as it says, in any zone
        if zone is not None:
            entered = self.fresh(names.MOVED)
            em.line(f"{entered} = op_move_zone(st, {zone}, {dst}{lay})")
            return entered
        if cards is not None:
            entered = self.fresh(names.MOVED)
            em.line(f"{entered} = op_move(st, {cards}, {dst}, {where}{lay})")
            return entered
        if top_of is not None:
            card = self.fresh(names.CARD)
        assert card is not None
        if inline:
            em.line(f"if {plain}:")
            with em.block():
                if top_of is not None:
                    em.line(f"{card} = {top_of}.pop()")
                else:
                    em.line(f"Z[st.loc[{card}]].remove({card})")
                em.line(f"Z[{dst}].append({card})")
                em.line(f"st.loc[{card}] = {dst}")
                if self.cx.uses_faces:
                    em.line(f"st.face[{card}] = {_FACES[facing]}")
            em.line("else:")
            em.indent += 1
        if top_of is not None:
            em.line(f"{card} = {top_of}[-1]")
        em.line(f"op_move(st, ({card},), {dst}, {where}{lay})")
        if inline:
            em.indent -= 1
        return f"[{card}]"

    def _st_Deal(self, s: n.Deal, scope: Scope) -> None:
        zone = self.ref(s)
        assert isinstance(zone, ZoneSym)
        base = self.layout.zone_base(zone)
        src, q, i, order, plain = (
            self.fresh(x) for x in (names.ZONE, names.DEALT, names.ROUND, names.ORDER, names.PLAIN)
        )
        start = self.exprs.ex(s.start, scope) if s.start is not None else "0"
        em = self.em
        # The source's list itself: never replaced, so that it is seen empty once the rules set off empty it.
        em.line(f"{src} = Z[{self.exprs.ex(s.source, scope)}]")
        em.line(f"{plain} = st.known is None  # nobody's knowledge to keep: move the cards directly")
        em.line(f"{order} = [({start} + {i}) % {self.players} for {i} in range({self.players})]")
        em.line(f"for {i} in range({self.exprs.ex(s.count, scope)}):")
        with em.block():
            em.line(f"for {q} in {order}:")
            with em.block():
                em.line(f"if not {src}:")
                with em.block():
                    em.line("break")
                entered = self.emit_move(f"{base} + {q}", TOP, s.facing, scope, top_of=src, plain=plain)
                if zone.index in self.cx.trigger_families:
                    em.line(self.trig_call(zone.index, scope.player, f"{base} + {q}", entered))
            # Once the source is empty the rounds left deal nothing: a huge count costs no time.
            em.line(f"if not {src}:")
            with em.block():
                em.line("break")
            if zone.index in self.cx.trigger_families:
                self._count_step()  # the rules set off may fill the source again, without end

    def _st_Shuffle(self, s: n.Shuffle, scope: Scope) -> None:
        self.em.line(f"op_shuffle_zone(st, {self.exprs.ex(s.zone, scope)})")

    def _st_Cut(self, s: n.Cut, scope: Scope) -> None:
        self.em.line(f"op_cut_zone(st, {self.exprs.ex(s.zone, scope)})")

    def _st_Reveal(self, s: n.Reveal, scope: Scope) -> None:
        self.em.line(f"st.reveal({self.exprs.cards(s.what, scope)})")

    def _st_Show(self, s: n.Show, scope: Scope) -> None:
        self.em.line(f"st.show_to({self.exprs.cards(s.what, scope)}, {self.exprs.ex(s.to, scope)})")

    def _st_TurnFace(self, s: n.TurnFace, scope: Scope) -> None:
        self.em.line(f"st.set_faces({self.exprs.cards(s.what, scope)}, {s.up!r})")

    def _st_Let(self, s: n.Let, scope: Scope) -> None:
        py = self.fresh()
        self.em.line(f"{py} = {self.exprs.ex(s.value, scope)}")
        scope.names[s.name] = py

    def _target(self, e: n.Expr, scope: Scope) -> tuple[str, str | None]:
        """Where a 'set', 'add' or 'subtract' writes, and the card whose variable it is (None: not a card's)."""
        ref = self.ref(e)
        if isinstance(ref, CardVarRef):
            assert isinstance(e, n.Attribute)
            card = self.fresh()  # worked out once: the write is noted against it (see _written)
            self.em.line(f"{card} = {self.exprs.ex(e.obj, scope)}")
            # One told to every player changes nobody's knowledge of the card: not noted.
            return f"st.cv[{ref.var.index}][{card}]", None if ref.var.visibility == "told" else card
        return self._variable(ref, scope), None

    def _written(self, card: str | None) -> None:
        """After a card's variable is written: who knows it now, for resampling (knowledge.variables_written)."""
        if card is not None:
            self.em.line(f"if st.known is not None: op_card_variables_written(st, {card})")

    def _variable(self, ref: object, scope: Scope) -> str:
        if isinstance(ref, GameVarRef):
            return f"st.gv[{ref.var.index}]"
        if isinstance(ref, PlayerVarRef):
            owner = scope.player if ref.owner is None else self.exprs.ex(ref.owner, scope)
            return f"st.pv[{ref.var.index}][{owner}]"
        if isinstance(ref, DirectionRef):
            return "st.direction"
        if isinstance(ref, LocalRef):  # a 'let' given a new value: its Python name, in this rule only
            return scope.names[ref.local.name]
        raise AssertionError(f"not assignable: {ref}")

    def _st_SetStmt(self, s: n.SetStmt, scope: Scope) -> None:
        t = self.type_of(s.target)
        value = self.exprs.ex(s.value, scope)
        if t.kind == "flag":
            value = f"bool({value})"
        elif t.kind == "cards":
            value = f"list({self.exprs.cards(s.value, scope)})"
        elif t.kind == "number" and not self.folding.is_constant(s.value):
            check = "op_num_or_none" if self.type_of(s.value).nullable else "op_num"
            value = f"{check}({value})"  # what a variable keeps stays within the limits, however often set
        if self._is_direction(s.target):
            value = f"op_direction({value})"
        place, card = self._target(s.target, scope)
        self.em.line(f"{place} = {value}")
        self._written(card)

    def _st_Add(self, s: n.Add, scope: Scope) -> None:
        self._change(s.target, "+", s.value, scope)

    def _st_Subtract(self, s: n.Subtract, scope: Scope) -> None:
        self._change(s.target, "-", s.value, scope)

    def _change(self, target: n.Expr, op: str, value: n.Expr, scope: Scope) -> None:
        """'add' or 'subtract': the direction of play may only end up 1 or -1."""
        place, card = self._target(target, scope)
        if self.type_of(target).kind == "set":
            self.em.line(f"{place} = {self.exprs.set_arith(place, op, value, self.type_of(target), scope)}")
        elif self._is_direction(target):
            self.em.line(f"{place} = op_direction({place} {op} ({self.exprs.ex(value, scope)}))")
        else:
            # Checked inline, without a call: 'add 1 to score' is on the hot path of many games.
            changed = self.fresh(names.CHECKED)
            self.em.line(f"{changed} = {place} {op} {self.exprs.ex(value, scope)}")
            self.em.line(f"if not -{MAX_INTEGER} <= {changed} <= {MAX_INTEGER}:")
            with self.em.block():
                self.em.line(f"op_num({changed})")  # raises: beyond the limits
            self.em.line(f"{place} = {changed}")
        self._written(card)

    def _is_direction(self, target: n.Expr) -> bool:
        return isinstance(self.ref(target), DirectionRef)

    def _st_Stop(self, s: n.Stop, scope: Scope) -> None:
        if self._loop_rest is not None:
            self.em.line(f"st.steps -= length_hint({self._loop_rest})")  # the rounds of a 'for each' it skips
        self.em.line("break")

    def _st_Again(self, s: n.Again, scope: Scope) -> None:
        self.em.line(f"st.next_kind = {AGAIN}")

    def _st_EndTurn(self, s: n.EndTurn, scope: Scope) -> None:
        self.em.line(f"st.next_kind = {NEXT_TURN}")

    def _st_EndRound(self, s: n.EndRound, scope: Scope) -> None:
        self.em.line("raise RoundOver()")

    def _st_EndGame(self, s: n.EndGame, scope: Scope) -> None:
        if s.draw:
            self.em.line("raise GameOver(None, True)")
        elif s.winner is not None and self.type_of(s.winner).nullable:
            # No winner is a mistake of the rules, as an empty 'winners' is, not a silent fall
            # back to the ranking.
            message = f"'end game, winner {self.cx.source_of(s.winner)}': there is no such player"
            hint = "a game nobody wins ends with 'end game, draw'; or guard the rule with 'if … != none:'"
            winner = self.failing_if(self.exprs.ex(s.winner, scope), "{} is None", message, hint)
            self.em.line(f"raise GameOver({winner}, False)")
        elif s.winner is not None:
            self.em.line(f"raise GameOver({self.exprs.ex(s.winner, scope)}, False)")
        elif s.winners is not None:
            # No winner at all is a mistake of the rules, not a draw: 'end game, draw' says that.
            message = f"'end game, winners {self.cx.source_of(s.winners)}': there is no player among them"
            hint = "a game nobody wins ends with 'end game, draw'; or guard the rule with 'if … is not empty:'"
            winners = self.failing_if(f"frozenset({self.exprs.ex(s.winners, scope)} or ())", "not {}", message, hint)
            self.em.line(f"raise GameOver(None, False, {winners})")
        elif s.loser is not None or s.losers is not None:
            self._end_with_losers(s, scope)
        else:
            self.em.line("raise GameOver(None, False)")

    def _end_with_losers(self, s: n.EndGame, scope: Scope) -> None:
        """``end game, loser P`` / ``losers PS``: they lose, every other player wins."""
        hint = "a game nobody loses ends with 'end game, draw'; or guard the rule with 'if … != none:'"
        if s.loser is not None:
            message = f"'end game, loser {self.cx.source_of(s.loser)}': there is no such player"
            loser = self.failing_if(self.exprs.ex(s.loser, scope), "{} is None", message, hint)
            self.em.line(f"raise GameOver(None, False, frozenset(), frozenset(({loser},)))")
            return
        assert s.losers is not None
        message = f"'end game, losers {self.cx.source_of(s.losers)}': there is no player among them"
        losers = self.failing_if(f"frozenset({self.exprs.ex(s.losers, scope)} or ())", "not {}", message, hint)
        self.em.line(f"raise GameOver(None, False, frozenset(), {losers})")

    def _st_GoTo(self, s: n.GoTo, scope: Scope) -> None:
        phase = self.ref(s)
        assert isinstance(phase, PhaseSym)
        player = "None"  # without 'with': the turn stays with its player
        if s.player is not None:
            # None must not slip through as if 'with' were left out: the same player would act again.
            player = self.fresh(names.PLAYER)
            text = self.cx.source_of(s.player)
            message = f"'go to {s.phase} with {text}': the player is none"
            hint = f"give '{text}' a player before, or guard the 'go to' with 'if {text} != none:'"
            self.em.line(f"{player} = {self.exprs.ex(s.player, scope)}")
            self.em.line(f"if {player} is None:")
            with self.em.block():
                self.em.line(f"op_fail({self.cx.const(message)}, {self.cx.const(hint)})")
        self.em.line(f"st.next_kind = {GO_TO}")
        # With its place in the file, for R502 when phases hand on to each other forever.
        self.em.line(f"st.next_goto = ({phase.index}, {player}, {self.cx.const(s.span, names.SPAN)})")

    def _st_Open(self, s: n.Open, scope: Scope) -> None:
        window = self.ref(s)
        assert isinstance(window, WindowSym)
        self.em.line(f"st.open_window({window.index}, {names.WINDOW_WHO(window.index)}(st, {scope.player}))")

    def _st_Reverse(self, s: n.Reverse, scope: Scope) -> None:
        self.em.line("st.direction = -st.direction")

    def _st_Finish(self, s: n.Finish, scope: Scope) -> None:
        op = "op_finish_round" if s.for_round else "op_finish"
        self.em.line(f"{op}(st, {self.exprs.ex(s.player, scope)})")

    def _st_Say(self, s: n.Say, scope: Scope) -> None:
        line = s.span.start.line if s.span is not None else 0
        self.cx.count_event(f"line {line}: say {self.cx.said(s.message)}")
        self.em.line("if st.log is not None:")
        with self.em.block():
            # Each card named to each reader as he sees it when the 'say' runs (show: one reader's eyes).
            if isinstance(s.message, n.Text):
                text = self.exprs.text(s.message, scope, "show({})")
            else:
                text = self.exprs.show(s.message, scope, "show({})")
            if re.search(r"\bshow\(", text):
                text = f"st.said(lambda show: {text})"
            self.em.line(f"st.log.append({text})")

    def _st_CallStmt(self, s: n.CallStmt, scope: Scope) -> None:
        proc = self.ref(s)
        assert isinstance(proc, ProcedureSym)
        self.em.line(
            f"{names.PROCEDURE(proc.index)}(st, {scope.player}{self.exprs.call_args(s.args, proc.params, scope)})"
        )

    def _st_If(self, s: n.If, scope: Scope) -> None:
        # Branches an option rules out for this load are not compiled at all.
        branches = []
        for cond, body in s.branches:
            known, value = self.folding.static(cond)
            if known and not value:
                continue
            branches.append((cond, body))
            if known and value:
                if len(branches) == 1:
                    self.body(body, scope.child())
                    return
                s = n.If(branches=tuple(branches), else_=(), span=s.span)
                break
        else:
            s = n.If(branches=tuple(branches), else_=s.else_, span=s.span)
        if not s.branches:
            if s.else_:
                self.body(s.else_, scope.child())
            else:
                self.em.line("pass")
            return
        for i, (cond, body) in enumerate(s.branches):
            self.em.at(cond.span)
            self.em.line(f"{'if' if i == 0 else 'elif'} {self.exprs.ex(cond, scope)}:")
            with self.em.block():
                self.body(body, scope.child())
        if s.else_:
            self.em.line("else:")
            with self.em.block():
                self.body(s.else_, scope.child())

    def _st_ForEach(self, s: n.ForEach, scope: Scope) -> None:
        em = self.em
        v, inner = self.exprs.bind(s.var, scope)
        t = self.type_of(s.iterable)
        if isinstance(s.iterable, n.RangeLiteral):  # its rounds are counted below, as R501
            seq = f"range({self.exprs.ex(s.iterable.low, scope)}, {self.exprs.ex(s.iterable.high, scope)} + 1)"
        else:
            seq = self.exprs.iterable(s.iterable, scope)
        if t.kind in ("zone", "cards"):
            seq = f"list({seq})"  # the body may move these very cards
        rounds = self.fresh(names.ROUNDS)
        em.line(f"{rounds} = {seq}")
        # Its rounds count against the step budget all at once, before the first (a range
        # may be huge): no cost per round. A 'stop' gives back the rounds it skips.
        self._count_step(f"len({rounds})")
        outer_rest = self._loop_rest
        if _stops_its_loop(s.body):
            self._loop_rest = self.fresh(names.ROUNDS_LEFT)
            em.line(f"{self._loop_rest} = iter({rounds})")
            em.line(f"for {v} in {self._loop_rest}:")
        else:
            self._loop_rest = None
            em.line(f"for {v} in {rounds}:")
        with em.block():
            if s.where is not None:
                em.line(f"if not {self.exprs.ex(s.where, inner)}:")
                with em.block():
                    em.line("continue")
            self.body(s.body, inner)
        self._loop_rest = outer_rest

    def _count_step(self, steps: str = "1") -> None:
        self.em.line(f"st.steps += {steps}")
        self.em.line(f"if st.steps > {STEP_BUDGET}:")
        with self.em.block():
            self.em.line("st.over_budget()")

    def _st_While(self, s: n.While, scope: Scope) -> None:
        self.em.line(f"while {self.exprs.ex(s.cond, scope)}:")
        outer_rest, self._loop_rest = self._loop_rest, None
        with self.em.block():
            self._count_step()
            self.body(s.body, scope.child())
        self._loop_rest = outer_rest

    def _st_Repeat(self, s: n.Repeat, scope: Scope) -> None:
        if s.count is None:
            self.em.line("while True:")
        else:
            self.em.line(f"for _ in range({self.exprs.ex(s.count, scope)}):")
        outer_rest, self._loop_rest = self._loop_rest, None
        with self.em.block():
            self._count_step()
            self.body(s.body, scope.child())
        self._loop_rest = outer_rest

    def trig_call(self, family: int, player: str, dst: str, moved: str) -> str:
        """The call of the rules on cards entering zone ``family``: told which zone (``dst``)
        only when a rule names its owner (``when cs enter p.hand``), the rest as fast as before."""
        if family in self.cx.owner_families:
            return f"{names.TRIGGERS(family)}(st, {player}, {dst}, {moved})"
        return f"{names.TRIGGERS(family)}(st, {player}, {moved})"


#: The Python of how a statement lays the cards it moves: face up, face down, as their zone shows them.
_FACES = {"up": "True", "down": "False", None: "None"}


def _stops_its_loop(body: tuple[n.Stmt, ...]) -> bool:
    """Whether a loop's body has a 'stop' of its own (not only those of loops inside it)."""
    stack = list(body)
    while stack:
        s = stack.pop()
        if isinstance(s, n.Stop):
            return True
        if isinstance(s, n.If):
            for _cond, branch in s.branches:
                stack.extend(branch)
            stack.extend(s.else_)
    return False
