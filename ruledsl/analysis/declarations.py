"""Check the declarations of a game: declare every name, then check each declaration and the definitions' order."""

from __future__ import annotations

from collections.abc import Iterator

from ruledsl.analysis.constants import constant_number
from ruledsl.analysis.context import BUILTIN_NAMES, CheckContext, CheckerPart
from ruledsl.analysis.payoffs import payoff_bounds
from ruledsl.analysis.scope import Scope
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
    AttributeSym,
    DefineSym,
    LocalSym,
    MemberSym,
    OptionSym,
    PhaseSym,
    ProcedureSym,
    Type,
    ValuesSym,
    VarSym,
    WindowSym,
    ZoneSym,
    set_type,
    tuple_type,
    value_type,
)
from ruledsl.engine.ops import PAYOFF_RANGE_HINT, whole_if_whole
from ruledsl.syntax import nodes as n
from ruledsl.syntax.grammar import keyword_as_name, statement_keywords
from ruledsl.text.render import counted, did_you_mean

#: The most players a game may have.
MAX_PLAYERS = 16
PLAYERS_HINT = f"write a range such as 'players 2 to 6' (at most {MAX_PLAYERS})"

_BASIC_TYPES = {"number": NUMBER, "flag": FLAG, "text": TEXT, "zone": ZONE}
#: Expressions that bind a name (``var``) in everything but their ``iterable``.
_BINDERS = (
    n.Quantifier,
    n.Count,
    n.CountSets,
    n.Filter,
    n.First,
    n.Topmost,
    n.Aggregate,
    n.Best,
    n.Sorted,
    n.SubsetSum,
)


class DeclarationChecker(CheckerPart):
    """Declare every name of a game (pass 1), then check what each declaration says (pass 2)."""

    def __init__(self, ctx: CheckContext) -> None:
        super().__init__(ctx)
        self._define_stack: list[str] = []
        self._define_pending: set[str] = set()  # definitions whose type is not known yet
        self._labels: dict[str, n.VarDecl] = {}  # the variables' labels so far: each names one variable

    def _claim(self, name: str, node: n.Node, what: str) -> bool:
        """Reserve a name in the global namespace; report a duplicate."""
        if self.ctx.reserved(name, node):
            return False
        if name in BUILTIN_NAMES:
            self.ctx.refused.add(name)
            self.error(
                "E202", f"'{name}' is a name the language provides; it cannot name {what}", node, "choose another name"
            )
            return False
        if name in self.ctx.claimed:
            first = self.ctx.claimed[name]
            self.error(
                "E202",
                f"'{name}' is already defined (line {first.span.start.line})",
                self.ctx.name_span(node, name),
                "every option, variable, zone, value, definition and procedure needs its own name",
            )
            return False
        self.ctx.claimed[name] = node
        return True

    def declare(self, d: n.Decl) -> None:
        """Declare the names a declaration gives (pass 1), reporting a name given twice."""
        sy = self.symbols
        if isinstance(d, n.OptionDecl):
            if self._claim(d.name, d, "an option"):
                choices = d.domain.choices if isinstance(d.domain, n.ChoiceDomain) else ()
                sy.options[d.name] = OptionSym(d.name, d, ANY, len(sy.options), choices)
        elif isinstance(d, n.ValuesDecl):
            if d.name in sy.values:
                first = sy.values[d.name].decl
                assert first is not None  # declared by this file
                self.error(
                    "E202",
                    f"values '{d.name}' are already defined (line {first.span.start.line})",
                    self.ctx.name_span(d, d.name),
                    "every list of values needs its own name; merge the two lists, or rename one",
                )
            members = tuple(m.name for m in d.members)
            displays = tuple(m.display if m.display is not None else m.name for m in d.members)
            values = ValuesSym(d.name, d, members, displays)
            sy.values.setdefault(d.name, values)
            seen: set[str] = set()
            for i, m in enumerate(d.members):
                if m.name in seen:
                    self.error("E202", f"'{m.name}' is listed twice in '{d.name}'", m)
                    continue
                seen.add(m.name)
                if m.name.isdigit():
                    continue  # numeric members are reached through number literals
                if self._claim(m.name, m, "a value"):
                    sy.members[m.name] = MemberSym(m.name, m, values, i)
        elif isinstance(d, n.AttributeDecl):
            if self.ctx.reserved(d.name, d):
                pass
            elif d.name in sy.attributes or d.name in sy.card_vars:
                self._attribute_twice(d)
            else:
                sy.attributes[d.name] = AttributeSym(d.name, d, ANY, len(sy.attributes))
        elif isinstance(d, n.ZoneDecl):
            if d.visibility == "others" and not d.per_player:
                self.error("E302", "a shared zone has no owner; 'seen by others' is for a zone per player", d)
            if self._claim(d.name, d, "a zone"):
                sy.zones[d.name] = ZoneSym(d.name, d, d.per_player, d.visibility, len(sy.zones))
        elif isinstance(d, n.VarDecl):
            if d.scope == "card":
                if d.name in sy.attributes or d.name in sy.card_vars:
                    self._attribute_twice(d)
                else:
                    sy.card_vars[d.name] = VarSym(d.name, d, "card", ANY, len(sy.card_vars), d.visibility)
            elif self._claim(d.name, d, "a variable"):
                table = sy.player_vars if d.scope == "player" else sy.game_vars
                table[d.name] = VarSym(d.name, d, d.scope, ANY, len(table), d.visibility)
        elif isinstance(d, n.DefineDecl):
            if self._claim(d.name, d, "a definition"):
                params = tuple((p.name, self._type_ref(p.type)) for p in d.params)
                sy.defines[d.name] = DefineSym(d.name, d, params, len(sy.defines), ANY)
                self._define_pending.add(d.name)
        elif isinstance(d, n.ProcedureDecl):
            if d.name in statement_keywords():
                # A procedure is called at the start of a line, where the keyword may be
                # read first: 'deck', 'pass' or 'strength' cannot name one.
                self.ctx.refused.add(d.name)
                message, hint = keyword_as_name(d.name, "a procedure")
                self.error("E106", message, self.ctx.name_span(d, d.name), hint)
            elif self._claim(d.name, d, "a procedure"):
                params = tuple((p.name, self._type_ref(p.type)) for p in d.params)
                sy.procedures[d.name] = ProcedureSym(d.name, d, params, len(sy.procedures))
        elif isinstance(d, n.PhaseDecl):
            if d.name in sy.phases:
                self.error("E202", f"phase '{d.name}' is already defined", d)
            else:
                phase = PhaseSym(d.name, d, len(sy.phases), d.is_auction)
                sy.phases[d.name] = phase
                self._declare_actions(phase.actions, d.name, d.items, d)
        elif isinstance(d, n.WindowDecl):
            if d.name in sy.windows:
                self.error("E202", f"window '{d.name}' is already defined", d)
            else:
                window = WindowSym(d.name, d, len(sy.windows))
                sy.windows[d.name] = window
                self._declare_actions(window.actions, d.name, d.items, d)
        elif isinstance(d, n.DeckDecl):
            for entry in _deck_entries(d.entries):
                if "{" in entry.name:
                    sy.has_card_templates = True
                else:
                    sy.card_names.add(entry.name)

    def _attribute_twice(self, d: n.AttributeDecl | n.VarDecl) -> None:
        sy = self.symbols
        first = sy.attributes[d.name] if d.name in sy.attributes else sy.card_vars[d.name]
        assert first.decl is not None  # declared by this file
        self.error(
            "E202",
            f"cards already have an attribute '{d.name}' (line {first.decl.span.start.line})",
            self.ctx.name_span(d, d.name),
            "every card attribute and card variable needs its own name",
        )

    def _declare_actions(self, table: list[ActionSym], owner: str, items: tuple[n.Node, ...], decl: n.Node) -> None:
        names: set[str] = set()
        for item in items:
            if isinstance(item, n.ActionDecl):
                if item.name in names:
                    self.error("E202", f"action '{item.name}' is already defined in '{owner}'", item)
                    continue
                names.add(item.name)
                table.append(ActionSym(item.name, item, len(table), owner))
            elif isinstance(item, n.PassDecl):
                if any(a.is_pass for a in table):
                    self.error("E202", f"'{owner}' already has a 'pass:'", item)
                    continue
                table.append(ActionSym("pass", item, len(table), owner, is_pass=True))

    def _type_ref(self, t: n.TypeRef) -> Type:
        if isinstance(t, n.CardType):
            return CARD
        if isinstance(t, n.CardsType):
            return CARDS
        if isinstance(t, n.PlayerType):
            return PLAYER
        if isinstance(t, n.SetType):
            inner = self._type_ref(t.element)
            if inner.kind == "number":
                return set_type("number")
            if inner.kind == "value":
                return set_type(inner.of or "")
            if inner.kind != "any":
                self.error("E301", f"a set holds numbers or values, not {inner}", t.element)
            return ANY
        if isinstance(t, n.TupleType):
            items = [self._type_ref(i) for i in t.items]
            for item, node in zip(items, t.items, strict=True):
                if item.kind not in ("number", "value", "any"):
                    self.error("E301", f"a tuple holds numbers or values, not {item}", node)
            if any(i.kind not in ("number", "value") for i in items):
                return ANY
            return tuple_type(tuple(i.of or "" if i.kind == "value" else "number" for i in items))
        assert isinstance(t, n.NamedType)
        if t.name in _BASIC_TYPES:
            return _BASIC_TYPES[t.name]
        if t.name in self.symbols.values:
            return value_type(t.name)
        known = [*_BASIC_TYPES, "card", "cards", "player", *self.symbols.values]
        self.error("E210", f"unknown type '{t.name}'", t, did_you_mean(t.name, known, "types"))
        return ANY

    def check(self, d: n.Decl) -> None:
        """Check what a declaration says (pass 2: every name is declared by then)."""
        sy = self.symbols
        top = Scope(has_player=False)
        if isinstance(d, n.PlayersDecl):
            self._check_players(d)
        elif isinstance(d, n.OptionDecl):
            self._check_option(d)
        elif isinstance(d, n.ValuesDecl):
            pass
        elif isinstance(d, n.AttributeDecl):
            t = self._type_ref(d.type)
            if t.kind not in ("number", "flag", "text", "value", "set", "any"):
                self.error("E301", f"a card attribute holds a number, a flag, text, a value or a set, not {t}", d.type)
            if d.name in sy.attributes:
                sy.attributes[d.name].type = t
        elif isinstance(d, n.DeckDecl):
            self._check_deck(d.entries, Scope(has_player=False, load_time=True))
        elif isinstance(d, n.ZoneDecl):
            for name in d.sorted_by:  # shown in the order of card attributes: never of card variables, which change
                if name not in sy.attributes:
                    attrs = sy.attributes
                    self.error("E203", f"cards have no attribute '{name}'", d, did_you_mean(name, attrs, "attributes"))
        elif isinstance(d, n.VarDecl):
            self.check_var(d)
            self._check_var_label(d)
        elif isinstance(d, n.DefineDecl):
            if d.name in sy.defines:
                self.define_type(sy.defines[d.name])
        elif isinstance(d, n.ProcedureDecl):
            if d.name in sy.procedures:
                self.ctx.stmts.check_procedure(d, sy.procedures[d.name].params, top.child(has_player=True))
        elif isinstance(d, n.TriggerDecl):
            self.ctx.structure.check_trigger(d, top.child(has_player=True))
        elif isinstance(d, n.SetupDecl):
            self.ctx.stmts.block(d.body, top.child(has_player=True))
        elif isinstance(d, n.PhaseDecl):
            if d.name in sy.phases and sy.phases[d.name].decl is d:
                self.ctx.structure.check_phase(d, sy.phases[d.name])
        elif isinstance(d, n.WindowDecl):
            if d.name in sy.windows and sy.windows[d.name].decl is d:
                self.ctx.structure.check_window(d, sy.windows[d.name])
        elif isinstance(d, n.RoundEndDecl):
            self.ctx.stmts.block(d.body, top.child(has_player=True))
        elif isinstance(d, n.RequireDecl):
            scope = Scope(has_player=False, load_time=True, options_visible=set(self.symbols.options))
            self.ctx.exprs.expect(d.cond, scope, FLAG)
            self.ctx.exprs.check(d.message, scope)
        elif isinstance(d, n.LabelDecl):
            self._check_label(d)
        elif isinstance(d, (n.RankingDecl, n.StandingDecl)):
            for key in d.keys:
                if key.value is not None:
                    t = self.ctx.exprs.check(key.value, top.child(has_player=True))
                    if t.kind not in ("number", "any"):
                        self.error("E301", f"a ranking key must be a number, not {t}", key.value)
        elif isinstance(d, n.PayoffDecl):
            t = self.ctx.exprs.check(d.value, top.child(has_player=True))
            if t.kind not in ("number", "any"):
                self.error("E301", f"a payoff must be a number, not {t}", d.value)
            if d.low is not None and d.high is not None:
                self._check_payoff_range(d, d.low, d.high)

    def _check_payoff_range(self, d: n.PayoffDecl, low: n.Expr, high: n.Expr) -> None:
        """The range a payoff declares: known when the game is loaded, not empty, and holding
        whatever the checker proves the payoff can be (``payoff_bounds``)."""
        scope = Scope(has_player=False, load_time=True, options_visible=set(self.symbols.options))
        for e in (low, high):
            self.ctx.exprs.expect(e, scope, NUMBER)
        self.ctx.exprs.check_range_order(low, high)
        a, b = constant_number(low), constant_number(high)
        proven = payoff_bounds(d.value)
        if a is None or b is None or proven is None or a > b or a <= proven[0] <= proven[1] <= b:
            return
        self.error(
            "E308",
            f"the payoff can be {whole_if_whole(proven[0])} to {whole_if_whole(proven[1])}, "
            f"outside its declared range {whole_if_whole(a)} to {whole_if_whole(b)}",
            d.value,
            PAYOFF_RANGE_HINT,
        )

    def _check_players(self, d: n.PlayersDecl) -> None:
        scope = Scope(has_player=False, load_time=True, options_visible=set())
        for e in (d.low, d.high):
            self.ctx.exprs.expect(e, scope, NUMBER)
        low, high = constant_number(d.low), constant_number(d.high)
        dash = d.low if d.low is d.high and not valid_players(low, high) else None
        if (
            isinstance(dash, n.Arith)
            and dash.op == "-"
            and isinstance(dash.left, n.Number)
            and isinstance(dash.right, n.Number)
        ):
            # 'players 2-4': a range as a rulebook writes it, read as a subtraction.
            written = f"{dash.left.value}-{dash.right.value}"
            message = f"'{written}' is a subtraction, {counted(low, 'player')}: a range is written with 'to'"
            self.error("E302", message, d, f"write: players {dash.left.value} to {dash.right.value}")
        elif low is not None and high is not None and not valid_players(low, high):
            self.error("E302", players_message(low, high), d, PLAYERS_HINT)

    def _check_label(self, d: n.LabelDecl) -> None:
        # Fixed when the game is loaded, like the card's name: a label from the card's
        # attributes and the options shows nothing its name does not already tell.
        scope = Scope(has_player=False, load_time=True, options_visible=set(self.symbols.options))
        scope.locals[d.var] = LocalSym(d.var, d, CARD, "param")
        t = self.ctx.exprs.check(d.text, scope, TEXT)
        if t.kind not in ("text", "any"):
            self.error(
                "E301", f"a card's label is text, not {t}", d.text, f'write it between quotes: "{{{d.var}}} ..."'
            )
        for node in n.walk(d.text):
            if isinstance(node, n.Attribute) and node.name in self.symbols.card_vars:
                self.error(
                    "E211",
                    f"'{node.name}' is a card variable; a label may use only the card's attributes and the options",
                    node,
                    "a label is fixed when the game is loaded; show a changing value with 'say' or a variable",
                )

    def _check_option(self, d: n.OptionDecl) -> None:
        sym = self.symbols.options.get(d.name)
        visible = {
            name
            for name, o in self.symbols.options.items()
            if o.decl is not None and o.decl.span.start.offset < d.span.start.offset
        }
        scope = Scope(has_player=False, load_time=True, options_visible=visible)
        if isinstance(d.domain, n.ChoiceDomain):
            t = self.ctx.exprs.check(d.default, scope, TEXT)
            if t.kind not in ("text", "any"):
                self.error(
                    "E301",
                    f"this option takes one of {', '.join(repr(c) for c in d.domain.choices)}, "
                    f"so its default must be text, not {t}",
                    d.default,
                )
            if (
                isinstance(d.default, n.Text)
                and len(d.default.parts) == 1
                and d.default.parts[0] not in d.domain.choices
            ):
                self.error(
                    "E302",
                    f"the default '{d.default.parts[0]}' is not one of the choices",
                    d.default,
                    "choices: " + ", ".join(d.domain.choices),
                )
            t = TEXT
        elif isinstance(d.domain, n.RangeDomain):
            for e in (d.domain.low, d.domain.high):
                self.ctx.exprs.expect(e, scope, NUMBER)
            t = self.ctx.exprs.expect(d.default, scope, NUMBER)
        else:
            t = self.ctx.exprs.check(d.default, scope)
            if t.kind not in ("number", "flag", "text", "any"):
                self.error("E301", f"an option is a number, yes/no or text, not {t}", d.default)
        if sym is not None:
            sym.type = t.sure()

    def _check_var_label(self, d: n.VarDecl) -> None:
        """A variable's label names it alone in the views: no other's label, no other's name."""
        if d.label is None:
            return
        named = self.symbols.game_vars.get(d.label) or self.symbols.player_vars.get(d.label)
        if d.label in self._labels or (named is not None and named.decl is not d):
            self.error("E202", f"the label '{d.label}' names another variable already", d)
        self._labels[d.label] = d

    def check_var(self, d: n.VarDecl) -> None:
        """Check a variable's declaration and set its type (a use may ask for it before pass 2 comes to it)."""
        sy = self.symbols
        table = {"game": sy.game_vars, "player": sy.player_vars, "card": sy.card_vars}[d.scope]
        sym = table.get(d.name)
        if sym is None or sym.decl is not d:
            return
        declared = self._type_ref(d.type) if d.type is not None else None
        scope = Scope(has_player=False, load_time=True, options_visible=set(sy.options))
        t = self.ctx.exprs.check(d.init, scope, declared)
        if declared is None:
            if t.kind == "none":
                self.error(
                    "E303",
                    f"the type of '{d.name}' cannot be told from 'none'",
                    d.init,
                    f"write its type, such as: var {d.name}: card = none",
                )
                declared = ANY
            else:
                declared = t
        elif not self.ctx.exprs.fits(t, declared, d.init):
            self.error("E301", f"'{d.name}' holds {declared}, but its first value is {t}", d.init)
        if declared.kind in ("zone", "players", "range") or (declared.kind == "tuple" and not declared.of):
            self.error("E301", f"a variable cannot hold {declared}", d.type or d.init)
        if d.visibility == "mover":
            self.error("E302", "only a zone's cards are seen by the player who moved them there", d)
        elif d.visibility == "others":
            self.error("E302", "only a zone's cards are seen by all but their owner", d)
        elif d.scope == "card" and d.visibility not in ("public", "told"):
            self.error(
                "E302",
                "a card variable is seen by whoever sees the card, or, written 'public', told to every player",
                d,
            )
        if d.scope == "game" and d.visibility == "owner":
            self.error("E302", "a game variable has no owner; use 'public' or 'hidden'", d)
        if d.unlisted and d.scope == "card":
            self.error("E302", "a card variable is never listed in a player's view; it takes no 'unlisted'", d)
        elif d.unlisted and d.visibility == "hidden":
            self.error("E302", "a hidden variable is shown to nobody already; 'unlisted' says nothing more", d)
        if d.label is not None and d.scope == "card":
            self.error("E302", "a card variable is never listed in a player's view; it takes no label", d)
        elif d.label is not None and d.visibility == "hidden":
            self.error("E302", "a hidden variable is shown to nobody; it takes no label", d)
        sym.type = declared.maybe_none() if declared.kind in ("card", "player", "value") else declared

    def _check_deck(self, entries: tuple[n.Node, ...], scope: Scope) -> None:
        attrs = self.symbols.attributes
        for entry in entries:
            if isinstance(entry, n.DeckIf):
                self.ctx.exprs.expect(entry.cond, scope, FLAG)
                self._check_deck(entry.body, scope)
                self._check_deck(entry.else_, scope)
            elif isinstance(entry, n.DeckRepeat):
                self.ctx.exprs.expect(entry.count, scope, NUMBER)
                self._check_deck(entry.body, scope)
            elif isinstance(entry, n.CardEntry):
                if entry.copies is not None:
                    self.ctx.exprs.expect(entry.copies, scope, NUMBER)
                seen: set[str] = set()
                # `rank r ... for r in 2 to A`, the loop of other languages: the loop itself names the attribute.
                aliases = {
                    a.value.id: a.name
                    for a in entry.assigns
                    if isinstance(a.value, n.Name) and a.name in attrs and a.value.id not in attrs
                    if any(loop.name == a.value.id for loop in entry.loops)
                }
                items: tuple[n.CardAssign | n.CardLoop, ...] = (*entry.assigns, *entry.loops)
                for item in items:
                    name = item.name
                    if isinstance(item, n.CardAssign) and isinstance(item.value, n.Name) and item.value.id in aliases:
                        seen.add(name)
                        continue  # told once, at the loop
                    if name in seen:
                        self.error("E202", f"'{name}' is given twice for this card", item)
                    seen.add(name)
                    attr = attrs.get(name)
                    if attr is None and name in aliases:
                        self.error(
                            "E203",
                            f"cards have no attribute '{name}': a card line's loop names the attribute it sets",
                            item,
                            f"write 'for {aliases[name]} in ...' and leave out '{aliases[name]} {name}'",
                        )
                        continue
                    if attr is None:
                        self.error(
                            "E203", f"cards have no attribute '{name}'", item, did_you_mean(name, attrs, "attributes")
                        )
                        continue
                    self.refs[id(item)] = attr
                    if isinstance(item, n.CardAssign):
                        t = self.ctx.exprs.check(item.value, scope, attr.type)
                        if not self.ctx.exprs.fits(t, attr.type, item.value):
                            self.error("E301", f"'{name}' is {attr.type}, not {t}", item.value)
                    else:
                        want = attr.type
                        for e in (item.low, item.high):
                            t = self.ctx.exprs.check(e, scope, want)
                            if not self.ctx.exprs.fits(t, want, e):
                                self.error("E301", f"'{name}' is {want}, not {t}", e)
                        if want.kind not in ("number", "value", "any"):
                            self.error("E301", f"a card can loop over numbers or values, not over {want}", item)
                        else:
                            self.ctx.exprs.check_range_order(item.low, item.high)
                for part in _template_fields(entry.name):
                    if part not in seen and part not in attrs:
                        self.error(
                            "E203",
                            f"the card name uses '{{{part}}}', but cards have no attribute '{part}'",
                            entry,
                            did_you_mean(part, attrs, "attributes"),
                        )

    def define_type(self, sym: DefineSym) -> Type:
        """The type of a definition, checking its body (and those it uses) the first time."""
        decl = sym.decl
        assert isinstance(decl, n.DefineDecl)
        if sym.name not in self._define_pending:
            return sym.type
        if sym.name in self._define_stack:
            chain = self._define_stack[self._define_stack.index(sym.name) :] + [sym.name]
            if len(chain) > 8:
                chain = [*chain[:4], "...", *chain[-3:]]  # a long cycle, shown by its ends
            cycle = " -> ".join(chain)
            self.error(
                "E405",
                f"'{sym.name}' is defined in terms of itself ({cycle})",
                decl,
                "a definition cannot use itself, even through others",
            )
            sym.type = ANY
            self._define_pending.discard(sym.name)
            return ANY
        # The definitions it uses are checked before it, the deepest first: checking a body
        # then finds the types it needs known, and a long chain of definitions costs no
        # recursion (only a cycle meets a definition still being checked).
        outer = self._define_stack
        for name, path in self._define_order(sym.name, outer):
            self._define_stack = path
            self._check_define_body(self.symbols.defines[name])
        self._define_stack = outer
        return sym.type

    def _check_define_body(self, sym: DefineSym) -> None:
        decl = sym.decl
        assert isinstance(decl, n.DefineDecl)
        if sym.name not in self._define_pending:
            return
        scope = Scope(has_player=True)
        for pname, ptype in sym.params:
            scope.locals[pname] = LocalSym(pname, decl, ptype, "param")
        t = self.ctx.exprs.check(decl.body, scope)
        if sym.name in self._define_pending:
            sym.type = t
            self._define_pending.discard(sym.name)

    def _define_order(self, start: str, outer: list[str]) -> list[tuple[str, list[str]]]:
        """The pending definitions ``start`` uses, then itself, each after those it uses; with
        each, the chain of uses that leads to it (a depth-first walk, without recursion)."""
        order: list[tuple[str, list[str]]] = []
        seen = {start, *outer}
        path = [*outer, start]
        stack = [iter(self._defines_used(start))]
        while stack:
            for name in stack[-1]:
                if name not in seen and name in self._define_pending:
                    seen.add(name)
                    path.append(name)
                    stack.append(iter(self._defines_used(name)))
                    break
            else:
                stack.pop()
                order.append((path[-1], path[:]))
                path.pop()
        return order

    def _defines_used(self, name: str) -> list[str]:
        """The definitions a definition's body names, in order (its own locals hide them)."""
        sy = self.symbols
        decl = sy.defines[name].decl
        assert isinstance(decl, n.DefineDecl)
        found: dict[str, None] = {}
        stack: list[tuple[n.Node, frozenset[str]]] = [(decl.body, frozenset(p.name for p in decl.params))]
        while stack:
            node, bound = stack.pop()
            if isinstance(node, n.Name) and node.id not in bound and node.id in sy.defines:
                found[node.id] = None
            elif isinstance(node, n.Call) and node.name in sy.defines:
                found[node.name] = None
            elif isinstance(node, n.RunOf) and node.key not in sy.attributes and node.key in sy.defines:
                found[node.key] = None
            elif isinstance(node, n.Attribute) and isinstance(node.obj, n.Name):
                if node.obj.id in sy.values and node.obj.id not in bound:
                    continue  # a value of a list (suit.hearts), not a definition
            inner = bound | {node.var} if isinstance(node, _BINDERS) else bound
            for child in reversed(list(node.children())):
                # The name is bound in all but what it goes through.
                outside = isinstance(node, _BINDERS) and child is node.iterable
                stack.append((child, bound if outside else inner))
        return list(found)


def valid_players(low: object, high: object) -> bool:
    """Whether a game may be for ``low`` to ``high`` players."""
    return isinstance(low, int) and isinstance(high, int) and 1 <= low <= high <= MAX_PLAYERS


def players_message(low: object, high: object) -> str:
    """The message refusing a game for ``low`` to ``high`` players."""
    return f"cannot play with {counted(low, 'player', high)}"


def _deck_entries(entries: tuple[n.Node, ...]) -> Iterator[n.CardEntry]:
    for e in entries:
        if isinstance(e, n.CardEntry):
            yield e
        elif isinstance(e, n.DeckIf):
            yield from _deck_entries(e.body)
            yield from _deck_entries(e.else_)
        elif isinstance(e, n.DeckRepeat):
            yield from _deck_entries(e.body)


def _template_fields(name: str) -> list[str]:
    fields: list[str] = []
    i = 0
    while i < len(name):
        if name[i] == "{":
            if name[i + 1 : i + 2] == "{":
                i += 2
                continue
            end = name.find("}", i)
            if end < 0:
                break
            fields.append(name[i + 1 : end].strip())
            i = end + 1
        else:
            i += 1
    return fields
