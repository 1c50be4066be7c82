"""Write the functions of a game's parts: definitions, procedures, triggers, phases, windows, ranking."""

from __future__ import annotations

from ruledsl.analysis.symbols import Type, ZoneSym
from ruledsl.codegen import names
from ruledsl.codegen.context import REPORT_WIDTH, CompileContext, CompilerPart, Scope
from ruledsl.engine.limits import STEP_BUDGET
from ruledsl.syntax import nodes as n
from ruledsl.text.source import Span

#: A phase's blocks run at a moment of its own: each one's function, and how a report names it.
_HANDLERS: dict[type, tuple[names.Prefix, str]] = {
    n.OnEnter: (names.ENTER, "on enter"),
    n.WonHandler: (names.WON, "when won"),
    n.UnsoldHandler: (names.UNSOLD, "when unsold"),
    n.AllChosenHandler: (names.ALL_CHOSEN, "when all chosen"),
}


class Phases(CompilerPart):
    """Definitions and procedures, the rules set off by cards moving, phases and windows, ranking, card labels."""

    def __init__(self, cx: CompileContext) -> None:
        super().__init__(cx)
        self.exprs = cx.exprs
        self.stmts = cx.stmts
        self.actions = cx.actions

    def _signature(self, params: tuple[tuple[str, Type], ...]) -> tuple[Scope, list[str]]:
        """Return the scope binding a definition's or procedure's parameters, and their Python names."""
        scope = Scope()
        py_names = ["st", "p"]
        for pname, _ in params:
            py = self.fresh()
            scope.names[pname] = py
            py_names.append(py)
        return scope, py_names

    def compile_defines(self) -> None:
        for d in self.sy.defines.values():
            decl = d.decl
            assert isinstance(decl, n.DefineDecl)
            scope, params = self._signature(d.params)
            block = self.cx.function(names.DEFINE(d.index), params, decl.span, f"define {d.name}")
            self._count_call()
            self.em.at(decl.body.span)
            body = self.exprs.ex(decl.body, scope)
            if all(t.kind not in ("cards", "players", "set", "range", "tuple") for _, t in d.params):
                # While legal actions are listed the state cannot change: compute each
                # definition once per arguments (st.memo is None at all other times).
                # The body is written once: inlined definitions make it long, and a large
                # rule file's load time is mostly Python compiling the generated source.
                key = "(" + ", ".join([str(d.index), "p", *params[2:]]) + ",)"
                self.em.line("m_ = st.memo")
                self.em.line("if m_ is not None:")
                with self.em.block():
                    self.em.line(f"r_ = m_.get({key}, MISS)")
                    self.em.line("if r_ is not MISS:")
                    with self.em.block():
                        self.em.line("return r_")
                self.em.line(f"r_ = {body}")
                self.em.line("if m_ is not None:")
                with self.em.block():
                    self.em.line(f"m_[{key}] = r_")
                self.em.line("return r_")
            else:
                self.em.line(f"return {body}")
            self.cx.end_function(block)

    def compile_procedures(self) -> None:
        for proc in self.sy.procedures.values():
            decl = proc.decl
            assert isinstance(decl, n.ProcedureDecl)
            scope, params = self._signature(proc.params)
            block = self.cx.function(names.PROCEDURE(proc.index), params, decl.span, f"to {proc.name}")
            self._count_call()
            self.cx.count_event(f"to {decl.name}")
            self.stmts.body(decl.body, scope)
            self.cx.end_function(block)

    def _count_call(self) -> None:
        """Count a call of a definition or procedure (the lines carry its declaration's span: R508 names it)."""
        self.em.line("st.calls += 1")
        self.em.line(f"if st.calls > {STEP_BUDGET}:")
        with self.em.block():
            self.em.line("st.too_many_calls()")

    def compile_triggers(self) -> None:
        by_family: dict[int, list[n.TriggerDecl]] = {}
        zone_of: dict[int, ZoneSym] = {}
        for t in self.c.triggers:
            zone = self.c.refs.get(id(t))
            if isinstance(zone, ZoneSym):
                by_family.setdefault(zone.index, []).append(t)
                zone_of[id(t)] = zone
        for family, triggers in by_family.items():
            parts: list[str] = []
            for t in triggers:
                fn = self.fresh(names.TRIGGER)
                scope = Scope()
                moved = self.fresh()
                scope.names[t.var] = moved
                params = ["st", "p", moved]
                if t.owner is not None:
                    owner = self.fresh()
                    scope.names[t.owner] = owner
                    params.insert(2, owner)
                owner_text = "" if t.owner is None else t.owner + "."
                zone = zone_of[id(t)]
                block = self.cx.function(fn, params, t.span, f"when {t.var} enter {owner_text}{zone.name}")
                line = t.span.start.line if t.span is not None else 0
                self.cx.count_event(
                    f"line {line}: when {t.var} enter {owner_text}{self.cx.source_of(t.zone, REPORT_WIDTH)}"
                )
                self.stmts.body(t.body, scope)
                self.cx.end_function(block)
                base = self.layout.zone_base(zone_of[id(t)])
                parts.append(f"{fn}(st, p, dst - {base}, moved)" if t.owner is not None else f"{fn}(st, p, moved)")
            self.em.at(None)  # dispatching is no rule of the file
            zone_name = zone_of[id(triggers[0])].name
            self.cx.header(names.TRIGGERS(family), f"the 'when ... enter' rules of {zone_name}, in order", None)
            if family in self.cx.owner_families:
                self.em.line(f"def {names.TRIGGERS(family)}(st, p, dst, moved):")
            else:
                self.em.line(f"def {names.TRIGGERS(family)}(st, p, moved):")
            with self.em.block():
                for call in parts:
                    self.em.line(call)
            self.em.line("")
        self.em.at(None)
        self.cx.header(names.FIRE(), "the 'when ... enter' rules of the zone cards entered", None)
        self.em.line(f"def {names.FIRE()}(st, p, dst, moved):")
        with self.em.block():
            self.em.line("fam = ZFAM[dst]")
            for family in by_family:
                self.em.line(f"if fam == {family}:")
                with self.em.block():
                    self.em.line(self.stmts.trig_call(family, "p", "dst", "moved"))
            self.em.line("return None")
        self.em.line("")

    def compile_block_fn(
        self,
        name: str,
        body: tuple[n.Stmt, ...],
        span: Span | None,
        construct: str,
        extra: list[str] | None = None,
        event: str | None = None,
    ) -> None:
        """Emit NAME(st, p, extra...): a block of statements (setup, on enter...), counted as ``event``."""
        scope = Scope()
        params = ["st", "p"]
        for rule_name in extra or []:
            py = self.fresh()
            scope.names[rule_name] = py
            params.append(py)
        block = self.cx.function(name, params, span, construct)
        if event is not None:
            self.cx.count_event(event)
        self.stmts.body(body, scope)
        self.cx.end_function(block)

    def compile_phases(self) -> None:
        for phase in self.sy.phases.values():
            decl = phase.decl
            assert isinstance(decl, n.PhaseDecl)
            actions = self.actions.actions_of(
                decl.items, phase.name, "auction" if phase.is_auction else "phase", phase.is_auction
            )
            block = self.cx.function(
                names.LEGAL(phase.index), ["st", "p", "out"], decl.span, f"phase {phase.name}: its legal actions"
            )
            self.actions.list_all(actions, phase.is_auction)
            self.cx.end_function(block)
            for item, info in actions:
                self.actions.finish(item, info, bid=phase.is_auction)
            for part in decl.items:
                handler = _HANDLERS.get(type(part))
                if handler is not None:
                    prefix, what = handler
                    event = f"{phase.name}: {what}"
                    extra = [part.var] if isinstance(part, n.WonHandler) else None
                    body, span = part.body, part.span  # type: ignore[attr-defined]  # each handler node has a body
                    self.compile_block_fn(prefix(phase.index), body, span, f"phase {event}", extra, event)
            if decl.who is not None:
                self._who_function(names.TOGETHER_WHO(phase.index), decl.who, f"phase {phase.name}: who chooses")
            self.cx.phase_infos.append((phase, [info for _, info in actions]))

    def compile_windows(self) -> None:
        for window in self.sy.windows.values():
            decl = window.decl
            assert isinstance(decl, n.WindowDecl)
            actions = self.actions.actions_of(self.sy.window_items(decl), window.name, "window", True)
            block = self.cx.function(
                names.WINDOW_LEGAL(window.index),
                ["st", "p", "out"],
                decl.span,
                f"window {window.name}: its legal actions",
            )
            self.actions.list_all(actions, False)
            self.cx.end_function(block)
            for item, info in actions:
                self.actions.finish(item, info, bid=False)
            # Who may act, in priority order; computed when the window opens.
            self._who_function(names.WINDOW_WHO(window.index), decl.who, f"window {window.name}: who may act")
            for part in decl.items:
                if isinstance(part, n.AllPassHandler):
                    event = f"{window.name}: when all pass"
                    self.compile_block_fn(
                        names.ALL_PASS(window.index), part.body, part.span, f"window {event}", None, event
                    )
            self.cx.window_infos.append((window, [info for _, info in actions]))

    def _who_function(self, name: str, who_expr: n.Expr, construct: str) -> None:
        """Emit NAME(st, p): the players ``who_expr`` names, as a list (a window's, or a phase played together)."""
        self.cx.listing = True  # the players are listed as actions are
        block = self.cx.function(name, ["st", "p"], who_expr.span, construct)
        who = self.exprs.ex(who_expr, Scope())
        self.em.line(f"return [{who}]" if self.type_of(who_expr).kind == "player" else f"return list({who})")
        self.cx.end_function(block)
        self.cx.listing = False

    def compile_ranking(self) -> str:
        """Emit the ranking's and standing's keys and the payoff; return what the ranking is."""
        ranking = self.c.ranking
        if self.c.payoff is not None:
            self._payoff_function(self.c.payoff)
        if self.c.standing is not None:
            self._key_function(names.STANDING_KEY(), self.c.standing, "standing")
        if ranking is None:
            return "none"
        if all(k.order == "finishing" for k in ranking.keys):
            return "finishing"
        self._key_function(names.RANK_KEY(), ranking, "ranking")
        self._score_function(ranking)
        return "keys"

    def _payoff_function(self, decl: n.PayoffDecl) -> None:
        """Emit PAYOFF(st, p): the player's payoff when the game ends; none there fails at the payoff (R504)."""
        block = self.cx.function(names.PAYOFF(), ["st", "p"], decl.span, "payoff")
        text = self.cx.source_of(decl.value)
        message = f"the payoff '{text}' is none here"
        hint = f"give every player a number when the game ends: 'if {text} != none then {text} else 0', say"
        value = self.failing_if(self.exprs.ex(decl.value, Scope()), "{} is None", message, hint)
        if decl.low is not None and decl.high is not None:  # the declared range, known when loaded
            low, high = self.exprs.ex(decl.low, Scope()), self.exprs.ex(decl.high, Scope())
            value = f"op_payoff_in_range({value}, {low}, {high}, {self.cx.const(text)}, p)"
        self.em.line(f"return {value}")
        self.cx.end_function(block)

    def _score_function(self, ranking: n.RankingDecl) -> None:
        """Emit SCORE(st, p) for a one-player game whose ranking starts with a number: his score.

        Alone at the table the ranking orders nobody; what it ranks by is what the player
        scored ('ranking: highest on_foundations'), which play and simulate report.
        """
        first = ranking.keys[0]
        if self.cx.players != 1 or first.value is None or self.type_of(first.value).kind != "number":
            return
        block = self.cx.function(names.SCORE(), ["st", "p"], first.span, "score")
        self.em.line(f"return {self.exprs.ex(first.value, Scope())}")
        self.cx.end_function(block)

    def _key_function(self, name: str, decl: n.RankingDecl | n.StandingDecl, construct: str) -> None:
        """Emit NAME(st, p): a player's sort key, best first (highest values negated)."""
        block = self.cx.function(name, ["st", "p"], decl.span, construct)
        parts = []
        scope = Scope()
        for key in decl.keys:
            if key.order == "finishing":
                parts.append("(st.finished.index(p) if p in st.finished else len(st.finished))")
                continue
            assert key.value is not None
            # Through a function, not 'v is not None' inline: v may be a constant ('0 - 0'),
            # which 'is' must not meet.
            fn = "op_rank_highest" if key.order == "highest" else "op_rank_lowest"
            parts.append(f"{fn}({self.exprs.ex(key.value, scope)})")
        self.em.line("return (" + "".join(part + ", " for part in parts) + ")")
        self.cx.end_function(block)

    def compile_label(self) -> None:
        """Emit CARD_LABEL(st, p, c): how card c reads to people.

        The checker let it use only the card's attributes and the options: it is
        worked out once, when the game is loaded, with a state that can only name cards.
        """
        decl = self.c.label
        if decl is None:
            return
        scope = Scope()
        scope.names[decl.var] = "c"
        self.cx.header(names.CARD_LABEL(), "label", decl.span)
        self.em.at(decl.span)
        self.em.line(f"def {names.CARD_LABEL()}(st, p, c):")
        with self.em.block():
            self.em.at(decl.text.span)
            self.exprs.counting = False  # worked out once, with no state whose work could count
            try:
                self.em.line(f"return {self.exprs.ex(decl.text, scope)}")
            finally:
                self.exprs.counting = True
        self.em.line("")
