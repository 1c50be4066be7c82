"""Run the generated source with safe built-ins and link its functions into a Program."""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable
from typing import Any

from attrs import define

from ruledsl.analysis.loadtime import LoadTimeError, load_error
from ruledsl.analysis.payoffs import conserved, payoff_bounds
from ruledsl.analysis.symbols import Type, VarSym
from ruledsl.codegen import names
from ruledsl.codegen.context import CompileContext, CompilerPart
from ruledsl.codegen.probes import LineProbes, compile_with_probes
from ruledsl.codegen.refusal import RuleWords
from ruledsl.engine import ops
from ruledsl.engine.failures import FAILED_RULE, is_rule_error
from ruledsl.engine.program import PLACES, PhaseInfo, Program, Utility, VarInfo, WindowInfo
from ruledsl.engine.values import Action, ActionCache, ActionDef, GameOver, Place, RoundOver, unseen
from ruledsl.syntax import nodes as n
from ruledsl.text.errors import Diagnostic, OptionError, RuleDslError, RuleRuntimeError
from ruledsl.text.source import Span


class Linker(CompilerPart):
    """Runs the source written and builds the Program from its functions and the layout."""

    def __init__(self, cx: CompileContext) -> None:
        super().__init__(cx)
        self.defs: list[ActionDef] = []  # each action's ActionDef, by index, once linked

    def run_source(
        self, namespace: dict[str, Any], filename: str, probes: bool = False
    ) -> dict[str, Callable[..., Any]]:
        """Run the source written so far in ``namespace``, which gets the ops and constants first.

        Return the functions it defines, by name: those the compiler's table says it wrote.
        """
        namespace["__builtins__"] = SAFE_BUILTINS
        for name in dir(ops):
            if not name.startswith("_") and callable(getattr(ops, name)):
                namespace[f"op_{name}"] = getattr(ops, name)
        namespace.update(self.cx.constants)
        card_names = self.cx.constants["NAMES"]
        namespace.update(
            ANY_ERROR=FAILED_RULE,  # a label's own failure, never the caller's exception
            ALLP=tuple(range(self.players)),
            ALLCARDS=tuple(range(len(self.layout.deck))),
            MISS=object(),
            PLACE=Place,
            SHOW_NAME=lambda c: card_names[c] if type(c) is int else unseen(c),
        )
        source_code = "\n".join(self.em.lines) + "\n"
        code = compile_with_probes(source_code, filename) if probes else compile(source_code, filename, "exec")
        # The generated source names only identifiers this compiler made up; see the module docstring.
        exec(code, namespace)  # noqa: S102
        return {name: namespace[name] for name in self.cx.functions}

    def link(self, ranking: str) -> Program:
        """Run the source written and build the Program around its functions.

        Its refused-move explanations (``Program.checks``) are left for the caller to set.
        """
        source_code = "\n".join(self.em.lines) + "\n"
        filename = f"<ruledsl {self.c.source.path}>"
        namespace: dict[str, Any] = {}
        program_intern: dict[tuple[Any, ...], Action] = {}

        def intern(defn: ActionDef, key: tuple[Any, ...]) -> Action:
            k = (defn.index, key)
            a = program_intern.get(k)
            if a is None:
                a = program_intern[k] = Action(defn, key)
            return a

        namespace.update(
            LABEL_FAILED=self._label_failed(), Action=Action, INTERN=intern, GameOver=GameOver, RoundOver=RoundOver
        )
        probes = LineProbes(namespace) if self.cx.probes else None
        functions = self.run_source(namespace, filename, self.cx.probes)
        defs = self.defs = self._action_defs(namespace, functions, intern)
        card_names = self.cx.constants["NAMES"]
        program = Program(
            name=self.c.file.name,
            players=self.players,
            options=dict(self.options),
            card_names=card_names,
            card_labels=self._card_labels(functions.get(names.CARD_LABEL()), card_names),
            card_kinds=self.layout.card_kind,
            kind_reps=self.layout.kind_reps,
            unique_kinds=self.layout.unique,
            attribute_tables=self.layout.attr_tables,
            zones=self.layout.zone_layout,
            zone_family=self.layout.zone_family,
            zone_owner=self.layout.zone_owner,
            phases=self._phases(functions, defs),
            windows=self._windows(functions, defs),
            setup=functions[names.SETUP()],
            round_end=functions.get(names.ROUND_END()),
            rank_key=functions.get(names.RANK_KEY()),
            ranking=ranking,
            standing_key=functions.get(names.STANDING_KEY()),
            score_key=functions.get(names.SCORE()),
            payoff=functions.get(names.PAYOFF()),
            utility=self._utility(),
            game_var_init=self._var_inits("game"),
            player_var_init=self._var_inits("player"),
            card_var_init=self._var_inits("card"),
            game_vars=self._var_infos(self.sy.game_vars),
            player_vars=self._var_infos(self.sy.player_vars),
            card_vars=self._var_infos(self.sy.card_vars),
            uses_faces=self.cx.uses_faces,
            uses_memo=self.cx.listing_calls_defines,
            line_spans=self.em.spans,
            events=tuple(self.cx.events),
            filename=filename,
            source_code=source_code,
            refusals=RuleWords(),
            intern=program_intern,
            probes=probes,
        )
        for d in defs:
            d.game = program
        return program

    def _label_failed(self) -> Callable[[int, Exception], None]:
        """What a label that cannot be shown calls: it fails as a rule does (R504), at the label."""
        label_spans = {info.index: info.item.label.span for info in self.cx.action_defs if info.item.label is not None}
        source = self.c.source

        def label_failed(idx: int, exc: Exception) -> None:
            if not isinstance(exc, RuleDslError) and not is_rule_error(exc):
                raise exc  # the caller's own, not the label's
            none = isinstance(exc, TypeError) and "NoneType" in str(exc)
            message = "this label needs a value that is none here" if none else f"this label cannot be shown: {exc}"
            hint = (
                "an attribute of a card its chooser cannot see (chosen by its place) is none in a label: "
                "test it ('if c.value != none then ... else ...'), or leave it out"
            )
            raise RuleRuntimeError([Diagnostic("R504", message, label_spans.get(idx), hint, source=source)]) from None

        return label_failed

    def _action_defs(
        self,
        namespace: dict[str, Any],
        functions: dict[str, Callable[..., Any]],
        intern: Callable[[ActionDef, tuple[Any, ...]], Action],
    ) -> list[ActionDef]:
        """Each action's ActionDef, its functions linked; the names generated code reads them by
        (its def, its one action without choices, its cache of actions) added to ``namespace``."""
        defs: list[ActionDef] = []
        for info in self.cx.action_defs:
            idx = info.index
            item = info.item
            d = ActionDef(
                index=idx,
                name=info.name,
                owner=info.owner,
                owner_kind=info.owner_kind,
                is_pass=info.is_pass,
                apply=functions[names.APPLY(idx)],
                label=functions[names.LABEL(idx)],
                label_args=functions[names.LABEL_ARGS(idx)],
                label_is_static=info.static_label,
                strength=functions.get(names.STRENGTH(idx)),
                span=item.span,
                card_choices=tuple(
                    i
                    for i, ch in enumerate(item.choices if isinstance(item, n.ActionDecl) else ())
                    if isinstance(ch.shape, n.CardChoice)
                ),
            )
            namespace[names.ACTION_DEF(idx)] = d
            namespace[names.ACTION_CONST(idx)] = intern(d, ())
            namespace[names.ACTION_CACHE(idx)] = ActionCache(functools.partial(intern, d), info.single)
            defs.append(d)
        return defs

    def _phases(self, functions: dict[str, Callable[..., Any]], defs: list[ActionDef]) -> list[PhaseInfo]:
        phases = []
        for phase, infos in self.cx.phase_infos:
            actions = [defs[i.index] for i in infos if not i.is_pass]
            passes = [defs[i.index] for i in infos if i.is_pass]
            assert isinstance(phase.decl, n.PhaseDecl)  # a phase of the rule file
            phases.append(
                PhaseInfo(
                    name=phase.name,
                    index=phase.index,
                    is_auction=phase.is_auction,
                    actions=actions,
                    legal=functions[names.LEGAL(phase.index)],
                    enter=functions.get(names.ENTER(phase.index)),
                    won=functions.get(names.WON(phase.index)),
                    unsold=functions.get(names.UNSOLD(phase.index)),
                    pass_def=passes[0] if passes else None,
                    span=phase.decl.span,
                    together=phase.decl.together,
                    who=functions.get(names.TOGETHER_WHO(phase.index)),
                    all_chosen=functions.get(names.ALL_CHOSEN(phase.index)),
                    passes=phase.decl.passes,
                )
            )
            if phase.decl.together:
                for d in actions:
                    d.is_held = True
        return phases

    def _windows(self, functions: dict[str, Callable[..., Any]], defs: list[ActionDef]) -> list[WindowInfo]:
        windows = []
        for window, infos in self.cx.window_infos:
            actions = [defs[i.index] for i in infos if not i.is_pass]
            passes = [defs[i.index] for i in infos if i.is_pass]
            assert window.decl is not None  # a window of the rule file
            windows.append(
                WindowInfo(
                    name=window.name,
                    index=window.index,
                    actions=actions,
                    legal=functions[names.WINDOW_LEGAL(window.index)],
                    who=functions[names.WINDOW_WHO(window.index)],
                    all_pass=functions.get(names.ALL_PASS(window.index)),
                    pass_def=passes[0],
                    span=window.decl.span,
                )
            )
        return windows

    def _card_labels(self, label: Callable[..., str] | None, card_names: tuple[str, ...]) -> tuple[str, ...]:
        """Each card's label, refused when two cards of one name read differently.

        People pick cards by name, and a view lists names: one name, one label.
        """
        if label is None:
            return card_names
        decl = self.c.label
        assert decl is not None
        labels: dict[str, str] = {}
        naming = _Naming(card_names)
        for c, name in enumerate(card_names):
            try:
                text = label(naming, None, c)
            except FAILED_RULE as exc:  # a rule file's arithmetic: reported, never a traceback
                raise load_error(
                    self.c, LoadTimeError(decl.text, f"the label of '{name}' cannot be worked out ({exc})")
                ) from None
            first = labels.setdefault(name, text)
            if first != text:
                raise OptionError(
                    [
                        Diagnostic(
                            "E606",
                            f"two cards named '{name}' have different labels: '{first}' and '{text}'",
                            decl.span,
                            "people choose cards by name: give these cards different names",
                            source=self.c.source,
                        )
                    ]
                )
        return tuple(labels[name] for name in card_names)

    def _var_inits(self, scope: str) -> list[Any]:
        out = []
        for d in self.c.var_decls:
            if d.scope == scope:
                value = self.load.value(d.init)
                if isinstance(value, frozenset) and self._var_type(d).kind == "cards":
                    value = list(value)
                out.append(value)
        return out

    def _utility(self) -> Utility:
        """What the returns are and what the rules prove of them (ruledsl.analysis.payoffs)."""
        decl = self.c.payoff
        if decl is None:
            return PLACES
        bounds = payoff_bounds(decl.value)
        low, high = (None, None) if bounds is None else bounds
        if decl.low is not None and decl.high is not None:  # declared (and checked in play): proven is tighter
            low, high = self._declared_range(decl.low, decl.high, low, high)
        found = conserved(self.c.file, decl.value, self.c.refs)
        total = None
        if found is not None:
            start = next(d.init for d in self.c.var_decls if d.scope == "player" and d.name == found.var)
            offset = 0 if found.offset is None else self.load.value(found.offset)
            each = self.load.value(start) + (-offset if found.negated else offset)
            total = float(each * self.players)
        return Utility(scores=True, low=low, high=high, constant_sum=total)

    def _declared_range(
        self, low: n.Expr, high: n.Expr, proven_low: float | None, proven_high: float | None
    ) -> tuple[float, float]:
        """The range 'payoff: E, from LOW to HIGH' declares with these options, narrowed to what is proven."""
        a, b = float(self.load.value(low)), float(self.load.value(high))
        if a > b:
            shown = f"{ops.whole_if_whole(a)} to {ops.whole_if_whole(b)}"
            raise OptionError(
                [
                    Diagnostic(
                        "E305",
                        f"the range {shown} is empty: {ops.whole_if_whole(a)} is more than {ops.whole_if_whole(b)}",
                        Span(low.span.start, high.span.end),
                        "with these players and options no payoff fits: change the range or the options",
                        source=self.c.source,
                    )
                ]
            )
        return (a if proven_low is None else max(a, proven_low), b if proven_high is None else min(b, proven_high))

    def _var_type(self, d: n.VarDecl) -> Type:
        table = {"game": self.sy.game_vars, "player": self.sy.player_vars, "card": self.sy.card_vars}[d.scope]
        return table[d.name].type

    def _var_infos(self, table: dict[str, VarSym]) -> list[VarInfo]:
        return [
            VarInfo(v.name, v.visibility, _shower(v.type, self.sy), v.type.kind, v.decl.unlisted, v.decl.label)  # type: ignore[union-attr]  # a VarDecl
            for v in table.values()
        ]


#: The only built-ins generated code may call.
SAFE_BUILTINS = {
    "len": len,
    "range": range,
    "list": list,
    "tuple": tuple,
    "set": set,
    "frozenset": frozenset,
    "sum": sum,
    "max": max,
    "min": min,
    "abs": abs,
    "any": any,
    "all": all,
    "next": next,
    "reversed": reversed,
    "sorted": sorted,
    "map": map,
    "enumerate": enumerate,
    "str": str,
    "bool": bool,
    "None": None,
    "True": True,
    "False": False,
    "iter": iter,
    "length_hint": operator.length_hint,
}


@define
class _Naming:
    """All of a state a card's label may reach: each card shown by its name."""

    names: tuple[str, ...]

    def show_card(self, viewer: int | None, c: int) -> str:
        return self.names[c]


def _shower(t: Type, sy: Any) -> Callable[..., Any]:
    """Return how a variable's value appears in an observation (JSON)."""
    if t.kind == "value":
        displays = sy.values[t.of].displays
        return lambda st, viewer, v: None if v is None else displays[v]
    if t.kind == "set" and t.of != "number":
        displays = sy.values[t.of].displays
        return lambda st, viewer, v: [displays[i] for i in ops.bits(v)]
    if t.kind == "set":
        return lambda st, viewer, v: sorted(v)
    if t.kind == "card":
        return lambda st, viewer, v: None if v is None else st.show_card(viewer, v)
    if t.kind == "cards":
        return lambda st, viewer, v: [st.show_card(viewer, c) for c in v]
    if t.kind == "player":  # named as everywhere else a player is shown: P0, P1...
        return lambda st, viewer, v: None if v is None else ops.show_player(v)
    if t.kind == "players":
        return lambda st, viewer, v: [ops.show_player(q) for q in v]
    if t.kind == "tuple" and t.of:  # a variable's tuple has a known shape: numbers, and values shown by name
        shown = [None if of == "number" else sy.values[of].displays for of in t.of.split(",")]
        return lambda st, viewer, v: [x if d is None or x is None else d[x] for d, x in zip(shown, v, strict=True)]
    return lambda st, viewer, v: v
