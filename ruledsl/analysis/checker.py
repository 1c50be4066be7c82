"""Check a parsed game: resolve every name and type, collect every diagnostic at once."""

from __future__ import annotations

import collections
import re
from collections.abc import Iterator, Mapping
from typing import Any

import attrs
from attrs import define, field, frozen

from ruledsl.analysis.constants import constant_number
from ruledsl.analysis.disclosure import told_hidden
from ruledsl.analysis.refs import (
    BuiltinRef,
    CardAttrRef,
    CardPredicate,
    CardsAttrRef,
    CardVarRef,
    CountRef,
    DefineRef,
    DirectionRef,
    GameVarRef,
    LocalRef,
    MemberRef,
    OptionRef,
    PlayerVarRef,
    Ref,
    RunKeyAttrRef,
    ZoneFamilyRef,
    ZoneRef,
)
from ruledsl.analysis.symbols import (
    ANY,
    CARD,
    CARDS,
    FLAG,
    NONE,
    NUMBER,
    PLAYER,
    PLAYERS,
    TEXT,
    TUPLE,
    ZONE,
    ActionSym,
    AttributeSym,
    DefineSym,
    LocalSym,
    MemberSym,
    OptionSym,
    PhaseSym,
    ProcedureSym,
    SymbolTable,
    Type,
    ValuesSym,
    VarSym,
    WindowSym,
    ZoneSym,
    element_type,
    range_type,
    set_type,
    value_type,
)
from ruledsl.engine.ops import DIRECTION_HINT, DIRECTION_RULE
from ruledsl.syntax import nodes as n
from ruledsl.text.errors import CheckError, Diagnostic, Severity
from ruledsl.text.render import clipped, did_you_mean, or_list
from ruledsl.text.source import Pos, Source, Span

_BASIC_TYPES = {"number": NUMBER, "flag": FLAG, "text": TEXT, "zone": ZONE}
_BUILTIN_FUNCTIONS = {"max": (2, None), "min": (2, None), "abs": (1, 1), "words": (1, 1)}
_BUILTIN_NAMES = {"round": NUMBER, "direction": NUMBER}
#: Keywords that may begin an expression or a statement, or join two expressions: as a
#: name they would be read as the keyword, so they cannot name anything.
RESERVED = frozenset(
    "top bottom all size position run every player players left right seat if any no count cards first "
    "topmost highest lowest total distinct not yes none move deal shuffle cut reveal turn let set add "
    "subtract stop again end go open reverse finish say for while repeat label strength require and or in is "
    "overlaps then else where satisfies the".split()
)


@frozen(eq=False)
class CheckedGame:
    """A game that passed the checker: its syntax tree, symbols, and what each node means.

    ``types``, ``refs`` and ``wilds`` are keyed by ``id(node)``: the type of every
    expression; what every name, attribute, call and choice resolves to (see
    ruledsl.analysis.refs); and the card predicate marking a choice's wild cards. The
    wild cards have a table of their own because a choice's own entry in ``refs`` is
    already the attribute that groups its cards (``3 cards of the same rank, wild joker``).
    """

    file: n.GameFile
    source: Source
    symbols: SymbolTable
    types: Mapping[int, Type]
    refs: Mapping[int, Ref]
    wilds: Mapping[int, CardPredicate]
    warnings: tuple[Diagnostic, ...]
    setup: n.SetupDecl
    round_end: n.RoundEndDecl | None
    ranking: n.RankingDecl | None
    players_decl: n.PlayersDecl
    deck: n.DeckDecl
    triggers: tuple[n.TriggerDecl, ...]
    options: tuple[n.OptionDecl, ...]
    var_decls: tuple[n.VarDecl, ...]
    requires: tuple[n.RequireDecl, ...] = ()
    standing: n.StandingDecl | None = None
    label: n.LabelDecl | None = None


@define
class _Scope:
    """Names bound inside one rule, and what the rule may use."""

    locals: dict[str, LocalSym] = field(factory=dict)
    parent: _Scope | None = None
    has_player: bool = True  # `player`, and a bare per-player name, mean the acting player's
    load_time: bool = False  # only options, players and constants (option defaults, the deck)
    in_loop: bool = False
    options_visible: set[str] | None = None  # in option defaults: the options declared before
    players_guard: bool = False  # under a condition on 'players' (a seat may exist only with enough players)

    def child(self, **changes: Any) -> _Scope:
        kw = dict(
            parent=self,
            has_player=self.has_player,
            load_time=self.load_time,
            in_loop=self.in_loop,
            options_visible=self.options_visible,
            players_guard=self.players_guard,
        )
        kw.update(changes)
        return _Scope(**kw)

    def lookup(self, name: str) -> LocalSym | None:
        scope: _Scope | None = self
        while scope is not None:
            if name in scope.locals:
                return scope.locals[name]
            scope = scope.parent
        return None

    def visible_locals(self) -> list[str]:
        names: list[str] = []
        scope: _Scope | None = self
        while scope is not None:
            names.extend(scope.locals)
            scope = scope.parent
        return names


def check(file: n.GameFile, source: Source) -> CheckedGame:
    """Check a parsed game; raise CheckError carrying every error (and warning) found."""
    checker = _Checker(file, source)
    checked = checker.run()
    errors = [d for d in checker.diagnostics if d.is_error]
    if errors:
        raise CheckError(_one_error_per_undeclared_name(checker.diagnostics, checker.undeclared))
    return attrs.evolve(checked, warnings=checked.warnings + tuple(told_hidden(checked)))


def _one_error_per_undeclared_name(diagnostics: list[Diagnostic], names: dict[Diagnostic, str]) -> list[Diagnostic]:
    """Keep the first use of each name declared nowhere; its hint gives the lines of the others.

    A zone never declared, or misspelt alike wherever it is used, is one mistake.
    """
    uses: dict[str, list[Diagnostic]] = {}
    for d in sorted(names, key=lambda d: (d.line, d.column)):
        uses.setdefault(names[d], []).append(d)
    kept: dict[Diagnostic, Diagnostic] = {}
    for name, found in uses.items():
        first = kept[found[0]] = found[0]
        lines = [str(line) for line in sorted({d.line for d in found} - {first.line})]
        if lines:
            where = lines[0] if len(lines) == 1 else ", ".join(lines[:-1]) + " and " + lines[-1]
            also = f"'{name}' is also used on line{'s' if len(lines) > 1 else ''} {where}"
            kept[first] = attrs.evolve(first, hint=f"{first.hint}; {also}" if first.hint else also)
    return [kept.get(d, d) for d in diagnostics if d not in names or d in kept]


class _Checker:
    def __init__(self, file: n.GameFile, source: Source) -> None:
        self.file = file
        self.source = source
        self.symbols = SymbolTable()
        self.types: dict[int, Type] = {}
        self.refs: dict[int, Ref] = {}
        self.wilds: dict[int, CardPredicate] = {}
        self.diagnostics: list[Diagnostic] = []
        self._define_stack: list[str] = []
        self._procedure_calls: dict[str, set[str]] = {}
        self._current_procedure: str | None = None
        self._goto_targets: set[str] = set()
        self._opened_windows: set[str] = set()
        self._end_game_seen = False
        self._first_end_round: n.EndRound | None = None
        self._move_targets: set[str] = set()
        self._unique: dict[str, n.Node] = {}
        self._define_pending: set[str] = set()  # definitions whose type is not known yet
        self._reported: set[Diagnostic] = set()
        self.undeclared: dict[Diagnostic, str] = {}  # E201 for a name declared nowhere: the name
        self._looped: dict[int, str | None] = {}  # what a loop goes through: the variable of a 'for each', or None
        self._zone_end: dict[int, str] = {}  # a zone's attribute under 'top of' or 'bottom of': which end
        self._seats: dict[int, tuple[n.Seat, bool]] = {}  # every 'seat N', and whether it is under a test of 'players'

    # ------------------------------------------------------------------ reporting

    def name_span(self, node: n.Node, name: str, last: bool = False) -> Span:
        """The span of ``name`` as written on the first line of ``node`` (else the node's span).

        A declaration's name comes after its keyword (``let let = 1`` names the second 'let').
        """
        span = node.span
        if span is None or not span.start.line:
            return span
        text = self.source.line_text(span.start.line)
        start_col = span.start.col - 1
        if isinstance(node, (n.Decl, n.Let, n.ValueMember)) and not isinstance(node, n.VarDecl):
            start_col += (
                len(text[start_col:]) - len(text[start_col:].split(None, 1)[-1])
                if text[start_col:].split(None, 1)[1:]
                else 0
            )
        elif isinstance(node, n.VarDecl):
            after_var = re.search(r"\bvar\b\s*", text[start_col:])
            if after_var:
                start_col += after_var.end()
        end_col = span.end.col - 1 if span.end.line == span.start.line else len(text)
        matches = [
            m
            for m in re.finditer(r"(?<!\w)" + re.escape(name) + r"(?!\w)", text)
            if start_col <= m.start() < max(end_col, start_col + 1)
        ]
        if not matches:
            return span
        m = matches[-1] if last else matches[0]
        line = span.start.line
        return Span(Pos(line, m.start() + 1, 0), Pos(line, m.end() + 1, 0))

    def error(self, code: str, message: str, node: n.Node | Span | None, hint: str | None = None) -> None:
        self._report(Diagnostic(code, message, _span_of(node), hint, Severity.ERROR, self.source))

    def warning(self, code: str, message: str, node: n.Node | Span | None, hint: str | None = None) -> None:
        self._report(Diagnostic(code, message, _span_of(node), hint, Severity.WARNING, self.source))

    def _undeclared(self, kind: str, name: str, node: n.Node | Span | None, hint: str | None) -> None:
        """Report a name declared nowhere (E201); every use of one name is one error (see check)."""
        d = Diagnostic("E201", f"unknown {kind} '{name}'", _span_of(node), hint, Severity.ERROR, self.source)
        self.undeclared[d] = name
        self._report(d)

    def _report(self, d: Diagnostic) -> None:
        # A part of a rule checked twice (a set, then its elements) reports a mistake once.
        if d not in self._reported:
            self._reported.add(d)
            self.diagnostics.append(d)

    # ------------------------------------------------------------------ driver

    def run(self) -> CheckedGame:
        decls = self.file.decls
        singles: dict[type, list[n.Decl]] = {}
        for d in decls:
            singles.setdefault(type(d), []).append(d)
        for kind, what in ((n.PlayersDecl, "'players'"), (n.DeckDecl, "'deck:'"), (n.SetupDecl, "'setup:'")):
            found = singles.get(kind, [])
            if not found:
                self.error("E401", f"the game has no {what} declaration", self.file.header, _MISSING_HINTS[kind])
        if not singles.get(n.PhaseDecl):
            # Play starts in the first phase: without one, nobody could ever act.
            hint = "add one, with what its player may do: phase play: action name: ..."
            self.error("E401", "the game has no phase", self.file.header, hint)
        for kind, what in (
            (n.PlayersDecl, "'players'"),
            (n.DeckDecl, "'deck:'"),
            (n.SetupDecl, "'setup:'"),
            (n.RoundEndDecl, "'round end:'"),
            (n.RankingDecl, "'ranking:'"),
            (n.StandingDecl, "'standing:'"),
            (n.LabelDecl, "'label card'"),
        ):
            for extra in singles.get(kind, [])[1:]:
                self.error("E202", f"a second {what} declaration", extra, "a game has only one; merge them")

        # Pass 1: declare every name, so that rules may refer to names declared later.
        for d in decls:
            self._declare(d)
        # Pass 2: check every declaration's contents.
        for d in decls:
            self._check_decl(d)
        self._check_structure()

        players_decl = (singles.get(n.PlayersDecl) or [n.PlayersDecl(low=n.Number(value=2), high=n.Number(value=2))])[0]
        setup = (singles.get(n.SetupDecl) or [n.SetupDecl(body=())])[0]
        deck = (singles.get(n.DeckDecl) or [n.DeckDecl(entries=())])[0]
        round_end = (singles.get(n.RoundEndDecl) or [None])[0]
        ranking = (singles.get(n.RankingDecl) or [None])[0]
        return CheckedGame(
            file=self.file,
            source=self.source,
            symbols=self.symbols,
            types=self.types,
            refs=self.refs,
            wilds=self.wilds,
            warnings=tuple(d for d in self.diagnostics if not d.is_error),
            setup=setup,  # type: ignore[arg-type]
            round_end=round_end,  # type: ignore[arg-type]
            ranking=ranking,  # type: ignore[arg-type]
            players_decl=players_decl,  # type: ignore[arg-type]
            deck=deck,  # type: ignore[arg-type]
            triggers=tuple(d for d in decls if isinstance(d, n.TriggerDecl)),
            options=tuple(d for d in decls if isinstance(d, n.OptionDecl)),
            var_decls=tuple(d for d in decls if isinstance(d, n.VarDecl)),
            requires=tuple(d for d in decls if isinstance(d, n.RequireDecl)),
            standing=(singles.get(n.StandingDecl) or [None])[0],  # type: ignore[arg-type]
            label=(singles.get(n.LabelDecl) or [None])[0],  # type: ignore[arg-type]
        )

    # ------------------------------------------------------------------ pass 1: declarations

    def _reserved(self, name: str, node: n.Node) -> bool:
        if name in RESERVED:
            self.error(
                "E106",
                f"'{name}' is a keyword of the language and cannot be used as a name",
                self.name_span(node, name),
                f"choose another name, such as '{name}_'",
            )
            return True
        return False

    def _claim(self, name: str, node: n.Node, what: str) -> bool:
        """Reserve a name in the global namespace; report a duplicate."""
        if self._reserved(name, node):
            return False
        if name in _BUILTIN_NAMES:
            self.error(
                "E202", f"'{name}' is a name the language provides; it cannot name {what}", node, "choose another name"
            )
            return False
        if name in self._unique:
            first = self._unique[name]
            self.error(
                "E202",
                f"'{name}' is already defined (line {first.span.start.line})",
                self.name_span(node, name),
                "every option, variable, zone, value, definition and procedure needs its own name",
            )
            return False
        self._unique[name] = node
        return True

    def _declare(self, d: n.Decl) -> None:
        sy = self.symbols
        if isinstance(d, n.OptionDecl):
            if self._claim(d.name, d, "an option"):
                choices = d.domain.choices if isinstance(d.domain, n.ChoiceDomain) else ()
                sy.options[d.name] = OptionSym(d.name, d, ANY, len(sy.options), choices)
        elif isinstance(d, n.ValuesDecl):
            if d.name in sy.values:
                first = sy.values[d.name].decl
                self.error(
                    "E202",
                    f"values '{d.name}' are already defined (line {first.span.start.line})",
                    self.name_span(d, d.name),
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
            if self._reserved(d.name, d):
                pass
            elif d.name in sy.attributes or d.name in sy.card_vars:
                self._attribute_twice(d)
            else:
                sy.attributes[d.name] = AttributeSym(d.name, d, ANY, len(sy.attributes))
        elif isinstance(d, n.ZoneDecl):
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
            if d.name in _grammar_keywords() and d.name not in RESERVED:
                # A procedure is called at the start of a line, where the keyword may be
                # read first: 'deck', 'pass' or 'card' cannot name one.
                self.error(
                    "E106",
                    f"'{d.name}' is a keyword of the language and cannot name a procedure",
                    self.name_span(d, d.name),
                    f"choose another name, such as '{d.name}_cards'",
                )
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
        self.error(
            "E202",
            f"cards already have an attribute '{d.name}' (line {first.decl.span.start.line})",
            self.name_span(d, d.name),
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
        assert isinstance(t, n.NamedType)
        if t.name in _BASIC_TYPES:
            return _BASIC_TYPES[t.name]
        if t.name in self.symbols.values:
            return value_type(t.name)
        known = [*_BASIC_TYPES, "card", "cards", "player", *self.symbols.values]
        self.error("E210", f"unknown type '{t.name}'", t, did_you_mean(t.name, known, "types"))
        return ANY

    # ------------------------------------------------------------------ pass 2: contents

    def _check_decl(self, d: n.Decl) -> None:
        sy = self.symbols
        top = _Scope(has_player=False)
        if isinstance(d, n.PlayersDecl):
            scope = _Scope(has_player=False, load_time=True, options_visible=set())
            for e in (d.low, d.high):
                self._expect(e, scope, NUMBER)
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
                message = f"'{written}' is a subtraction, {low} players: a range is written with 'to'"
                self.error("E302", message, d, f"write: players {dash.left.value} to {dash.right.value}")
            elif low is not None and high is not None and not valid_players(low, high):
                self.error("E302", players_message(low, high), d, PLAYERS_HINT)
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
            self._check_deck(d.entries, _Scope(has_player=False, load_time=True))
        elif isinstance(d, n.ZoneDecl):
            pass
        elif isinstance(d, n.VarDecl):
            self._check_var(d)
        elif isinstance(d, n.DefineDecl):
            if d.name in sy.defines:
                self._define_type(sy.defines[d.name])
        elif isinstance(d, n.ProcedureDecl):
            if d.name in sy.procedures:
                scope = top.child(has_player=True)
                for pname, ptype in sy.procedures[d.name].params:
                    scope.locals[pname] = LocalSym(pname, d, ptype, "param")
                self._current_procedure = d.name
                self._procedure_calls.setdefault(d.name, set())
                self._block(d.body, scope)
                self._current_procedure = None
        elif isinstance(d, n.TriggerDecl):
            zone = self._static_zone(d.zone)
            scope = top.child(has_player=True)
            if not self._reserved(d.var, d):
                scope.locals[d.var] = LocalSym(d.var, d, CARDS, "param")
            if zone is not None:
                self.refs[id(d)] = zone
            if d.owner is not None:
                self._bind_owner(d, zone, scope)
            self._block(d.body, scope)
        elif isinstance(d, n.SetupDecl):
            self._block(d.body, top.child(has_player=True))
        elif isinstance(d, n.PhaseDecl):
            if d.name in sy.phases and sy.phases[d.name].decl is d:
                self._check_phase(d, sy.phases[d.name])
        elif isinstance(d, n.WindowDecl):
            if d.name in sy.windows and sy.windows[d.name].decl is d:
                self._check_window(d, sy.windows[d.name])
        elif isinstance(d, n.RoundEndDecl):
            self._block(d.body, top.child(has_player=True))
        elif isinstance(d, n.RequireDecl):
            scope = _Scope(has_player=False, load_time=True, options_visible=set(self.symbols.options))
            self._expect(d.cond, scope, FLAG)
            self._expr(d.message, scope)
        elif isinstance(d, n.LabelDecl):
            self._check_label(d)
        elif isinstance(d, (n.RankingDecl, n.StandingDecl)):
            for key in d.keys:
                if key.value is not None:
                    t = self._expr(key.value, top.child(has_player=True))
                    if t.kind not in ("number", "any"):
                        self.error("E301", f"a ranking key must be a number, not {t}", key.value)

    def _check_label(self, d: n.LabelDecl) -> None:
        # Fixed when the game is loaded, like the card's name: a label from the card's
        # attributes and the options shows nothing its name does not already tell.
        scope = _Scope(has_player=False, load_time=True, options_visible=set(self.symbols.options))
        scope.locals[d.var] = LocalSym(d.var, d, CARD, "param")
        t = self._expr(d.text, scope, TEXT)
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
        scope = _Scope(has_player=False, load_time=True, options_visible=visible)
        if isinstance(d.domain, n.ChoiceDomain):
            t = self._expr(d.default, scope, TEXT)
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
                self._expect(e, scope, NUMBER)
            t = self._expect(d.default, scope, NUMBER)
        else:
            t = self._expr(d.default, scope)
            if t.kind not in ("number", "flag", "text", "any"):
                self.error("E301", f"an option is a number, yes/no or text, not {t}", d.default)
        if sym is not None:
            sym.type = t.sure()

    def _check_var(self, d: n.VarDecl) -> None:
        sy = self.symbols
        table = {"game": sy.game_vars, "player": sy.player_vars, "card": sy.card_vars}[d.scope]
        sym = table.get(d.name)
        if sym is None or sym.decl is not d:
            return
        declared = self._type_ref(d.type) if d.type is not None else None
        scope = _Scope(has_player=False, load_time=True, options_visible=set(sy.options))
        t = self._expr(d.init, scope, declared)
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
        elif not self._fits(t, declared, d.init):
            self.error("E301", f"'{d.name}' holds {declared}, but its first value is {t}", d.init)
        if declared.kind in ("zone", "players", "range", "tuple"):
            self.error("E301", f"a variable cannot hold {declared}", d.type or d.init)
        if d.scope == "card" and d.visibility != "public":
            self.error("E302", "a card variable is seen by whoever sees the card; it takes no visibility", d)
        if d.scope == "game" and d.visibility == "owner":
            self.error("E302", "a game variable has no owner; use 'public' or 'hidden'", d)
        if d.unlisted and d.scope == "card":
            self.error("E302", "a card variable is never listed in a player's view; it takes no 'unlisted'", d)
        elif d.unlisted and d.visibility == "hidden":
            self.error("E302", "a hidden variable is shown to nobody already; 'unlisted' says nothing more", d)
        sym.type = declared.maybe_none() if declared.kind in ("card", "player", "value") else declared

    def _check_deck(self, entries: tuple[n.Node, ...], scope: _Scope) -> None:
        attrs = self.symbols.attributes
        for entry in entries:
            if isinstance(entry, n.DeckIf):
                self._expect(entry.cond, scope, FLAG)
                self._check_deck(entry.body, scope)
                self._check_deck(entry.else_, scope)
            elif isinstance(entry, n.DeckRepeat):
                self._expect(entry.count, scope, NUMBER)
                self._check_deck(entry.body, scope)
            elif isinstance(entry, n.CardEntry):
                if entry.copies is not None:
                    self._expect(entry.copies, scope, NUMBER)
                seen: set[str] = set()
                # `rank r ... for r in 2 to A`, the loop of other languages: the loop itself names the attribute.
                aliases = {
                    a.value.id: a.name
                    for a in entry.assigns
                    if isinstance(a.value, n.Name) and a.name in attrs and a.value.id not in attrs
                    if any(loop.name == a.value.id for loop in entry.loops)
                }
                for item in (*entry.assigns, *entry.loops):
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
                        t = self._expr(item.value, scope, attr.type)
                        if not self._fits(t, attr.type, item.value):
                            self.error("E301", f"'{name}' is {attr.type}, not {t}", item.value)
                    else:
                        want = attr.type
                        for e in (item.low, item.high):
                            t = self._expr(e, scope, want)
                            if not self._fits(t, want, e):
                                self.error("E301", f"'{name}' is {want}, not {t}", e)
                        if want.kind not in ("number", "value", "any"):
                            self.error("E301", f"a card can loop over numbers or values, not over {want}", item)
                        else:
                            self._check_range_order(item.low, item.high)
                for part in _template_fields(entry.name):
                    if part not in seen and part not in attrs:
                        self.error(
                            "E203",
                            f"the card name uses '{{{part}}}', but cards have no attribute '{part}'",
                            entry,
                            did_you_mean(part, attrs, "attributes"),
                        )

    def _define_type(self, sym: DefineSym) -> Type:
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
        scope = _Scope(has_player=True)
        for pname, ptype in sym.params:
            scope.locals[pname] = LocalSym(pname, decl, ptype, "param")
        t = self._expr(decl.body, scope)
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

    def _check_phase(self, d: n.PhaseDecl, phase: PhaseSym) -> None:
        scope = _Scope(has_player=True)
        enters = [i for i in d.items if isinstance(i, n.OnEnter)]
        for extra in enters[1:]:
            self.error("E202", f"phase '{d.name}' has a second 'on enter:'", extra)
        for item in d.items:
            if isinstance(item, n.OnEnter):
                self._block(item.body, scope.child())
            elif isinstance(item, n.ActionDecl):
                self._check_action(item, scope, is_bid=d.is_auction)
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
                self._block(item.body, inner)
            elif isinstance(item, n.UnsoldHandler):
                if not d.is_auction:
                    self.error(
                        "E406", "'when unsold' belongs in an auction", item, "declare the phase with 'auction name:'"
                    )
                self._block(item.body, scope.child())
        if d.is_auction:
            if not any(isinstance(i, n.WonHandler) for i in d.items):
                self.error("E403", f"auction '{d.name}' has no 'when won by <name>:'", d, "say what the winner gets")
            if not any(isinstance(i, n.UnsoldHandler) for i in d.items):
                self.error(
                    "E403", f"auction '{d.name}' has no 'when unsold:'", d, "say what happens when everybody passes"
                )
        if not any(isinstance(i, n.ActionDecl) for i in d.items):
            self.error(
                "E403", f"phase '{d.name}' has no action", d, "a phase lists what its player may do: action name: ..."
            )

    def _check_window(self, d: n.WindowDecl, window: WindowSym) -> None:
        scope = _Scope(has_player=True)
        t = self._expr(d.who, scope)
        if t.kind not in ("player", "players", "any"):
            self.error("E301", f"a window is for a player or players, not {t}", d.who)
        for item in d.items:
            if isinstance(item, n.ActionDecl):
                self._check_action(item, scope, is_bid=False)
            elif isinstance(item, n.PassDecl):
                self._check_pass(item, scope)
        if not any(isinstance(i, n.ActionDecl) for i in d.items):
            self.error("E403", f"window '{d.name}' has no action", d)

    def _check_pass(self, item: n.PassDecl, scope: _Scope) -> None:
        inner = scope.child()
        if item.label is not None:
            self._expect(item.label, inner, TEXT)
        self._block(item.body, inner)

    def _check_action(self, a: n.ActionDecl, scope: _Scope, is_bid: bool) -> None:
        inner = scope.child()
        for choice in a.choices:
            t = self._choice(choice.shape, inner)
            self._reserved(choice.name, choice)
            if choice.name in inner.locals:
                self.error("E202", f"choice '{choice.name}' is already used in this action", choice)
            inner.locals[choice.name] = LocalSym(choice.name, choice, t, "choice")
            self.types[id(choice)] = t
        if a.when is not None:
            self._expect(a.when, inner, FLAG)
            if _mentions_players(a.when):
                inner = inner.child(players_guard=True)
        for clause in a.requires:
            self._expect(clause.cond, inner, FLAG)
            # The reason is read when its condition fails: before that condition guards anything.
            self._expect(clause.reason, inner, TEXT)
            if _mentions_players(clause.cond):
                inner = inner.child(players_guard=True)
        if a.label is not None:
            self._expect(a.label, inner, TEXT)
        if is_bid:
            if a.strength is None:
                self.error(
                    "E403",
                    f"bid '{a.name}' has no 'strength'",
                    a,
                    "give each bid a strength such as: strength (count, 1, value)",
                )
            else:
                t = self._expr(a.strength, inner)
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
        self._block(a.body, inner)

    def _choice(self, shape: n.ChoiceShape, scope: _Scope) -> Type:
        if isinstance(shape, n.NumberChoice):
            self._expect(shape.low, scope, NUMBER)
            self._expect(shape.high, scope, NUMBER)
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
            t = self._expr(shape.pool, scope)
            if t.kind not in ("players", "any"):
                self.error("E301", f"choose a player from players, not from {t}", shape.pool)
            return PLAYER
        assert isinstance(shape, (n.CardChoice, n.CardsChoice, n.SameChoice, n.ValuedChoice, n.DifferentChoice))
        t = self._expr(shape.pool, scope)
        if t.kind not in ("zone", "cards", "any"):
            self.error("E301", f"choose cards from a zone or some cards, not from {t}", shape.pool)
        if shape.wild is not None:
            self._card_predicate(shape.wild, shape, "wild")
        count = getattr(shape, "count", None)
        if count is not None:
            self._expect(count, scope, NUMBER)
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
                    vt = self._expr(shape.value, scope, attr.type)
                    if not self._fits(vt, attr.type, shape.value):
                        self.error("E301", f"'{shape.attr}' is {attr.type}, not {vt}", shape.value)
        return CARD if isinstance(shape, n.CardChoice) else CARDS

    def _card_predicate(self, name: str, node: n.Node, what: str) -> None:
        """Resolve a name that must be a flag attribute or a one-card yes/no definition."""
        attr = self.symbols.attributes.get(name)
        if attr is not None:
            if attr.type.kind not in ("flag", "any"):
                self.error("E301", f"'{name}' must be yes or no to mark {what} cards, but it is {attr.type}", node)
            self.wilds[id(node)] = attr
            return
        d = self.symbols.defines.get(name)
        if d is not None:
            t = self._define_type(d)
            if len(d.params) != 1 or d.params[0][1].kind != "card" or t.kind not in ("flag", "any"):
                self.error("E301", f"'{name}' must take one card and say yes or no", node)
            self.wilds[id(node)] = d
            return
        self.error(
            "E203",
            f"'{name}' is neither a card attribute nor a definition",
            node,
            did_you_mean(name, [*self.symbols.attributes, *self.symbols.defines], "names"),
        )

    def _static_zone(self, e: n.Expr) -> ZoneSym | None:
        if isinstance(e, n.Name) and e.id in self.symbols.zones:
            z = self.symbols.zones[e.id]
            self.refs[id(e)] = ZoneFamilyRef(z)
            self.types[id(e)] = ZONE
            return z
        if isinstance(e, n.Name) and self._unknown(e.id, _Scope()):
            self._undeclared("zone", e.id, e, did_you_mean(e.id, self.symbols.zones, "zones"))
            return None
        self.error(
            "E303",
            "a 'when ... enter' rule watches a zone, named plainly",
            e,
            "write the zone's name, such as: when cs enter pile: (or, for a zone of each player, "
            "when cs enter p.hand: which names p the player whose hand received them)",
        )
        return None

    def _bind_owner(self, d: n.TriggerDecl, zone: ZoneSym | None, scope: _Scope) -> None:
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
        if self._reserved(owner, d):
            return
        if owner == d.var:
            self.error(
                "E202",
                f"'{owner}' already names the cards that entered",
                self._owner_span(d),
                "choose another name for the player whose zone received them",
            )
        elif owner in self._unique or owner in _BUILTIN_NAMES:
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
        before = re.search(r"(\w+)\s*\.\s*$", self.source.line_text(zone.line)[: zone.col - 1])
        if before is None:
            return d.zone.span
        width = zone.col - 1 - before.start(1)
        start = Pos(zone.line, before.start(1) + 1, zone.offset - width)
        return Span(start, Pos(zone.line, before.end(1) + 1, start.offset + len(before.group(1))))

    # ------------------------------------------------------------------ statements

    def _block(self, body: tuple[n.Stmt, ...], scope: _Scope) -> None:
        for s in body:
            self._stmt(s, scope)

    def _stmt(self, s: n.Stmt, scope: _Scope) -> None:
        method = getattr(self, f"_stmt_{type(s).__name__}")
        method(s, scope)

    def _stmt_Move(self, s: n.Move, scope: _Scope) -> None:
        t = self._expr(s.what, scope)
        if t.kind == "zone":
            self.error(
                "E304", "move cards, not a zone", s.what, "to move every card of a zone, write 'all of' before it"
            )
        elif t.kind not in ("card", "cards", "any"):
            self.error("E301", f"only cards can move, not {t}", s.what)
        self._expect_zone(s.to, scope)
        for fam in self._zone_families(s.to):
            self._move_targets.add(fam)

    def _stmt_Deal(self, s: n.Deal, scope: _Scope) -> None:
        self._expect(s.count, scope, NUMBER)
        self._expect_zone(s.source, scope)
        zone = self.symbols.zones.get(s.target)
        if zone is None:
            self._undeclared(
                "zone",
                s.target,
                self.name_span(s, s.target, last=True),
                did_you_mean(s.target, self.symbols.zones, "zones"),
            )
        elif not zone.per_player:
            self.error("E303", f"'{s.target}' is shared; 'deal ... to each' needs a zone of each player", s)
        else:
            self.refs[id(s)] = zone
            self._move_targets.add(zone.name)
        if s.start is not None:
            self._expect(s.start, scope, PLAYER)

    def _stmt_Shuffle(self, s: n.Shuffle, scope: _Scope) -> None:
        self._expect_zone(s.zone, scope)

    def _stmt_Cut(self, s: n.Cut, scope: _Scope) -> None:
        self._expect_zone(s.zone, scope)

    def _stmt_Reveal(self, s: n.Reveal, scope: _Scope) -> None:
        t = self._expr(s.what, scope)
        if t.kind not in ("card", "cards", "any"):
            self.error("E301", f"only cards can be revealed, not {t}", s.what)

    def _stmt_TurnFace(self, s: n.TurnFace, scope: _Scope) -> None:
        t = self._expr(s.what, scope)
        if t.kind not in ("card", "cards", "any"):
            self.error("E301", f"only cards can be turned, not {t}", s.what)

    def _stmt_Let(self, s: n.Let, scope: _Scope) -> None:
        t = self._expr(s.value, scope)
        if self._reserved(s.name, s):
            pass
        elif s.name in scope.locals:
            self.error(
                "E202",
                f"'{s.name}' is already named in this block",
                s,
                "use 'set' to change a variable, or choose another name",
            )
        elif s.name in self._unique or s.name in _BUILTIN_NAMES:
            self.error("E202", f"'{s.name}' already names something else", s, "choose another name for this value")
        scope.locals[s.name] = LocalSym(s.name, s, t, "let")
        self.types[id(s)] = t

    def _assignable(self, target: n.Expr, scope: _Scope) -> Type:
        t = self._expr(target, scope)
        ref = self.refs.get(id(target))
        if isinstance(ref, (GameVarRef, PlayerVarRef, CardVarRef, DirectionRef)):
            return t
        if t.kind != "any":
            what = "a local name" if isinstance(ref, LocalRef) else "this"
            self.error(
                "E304",
                f"{what} cannot be given a new value",
                target,
                "only variables declared with 'var' (or 'player var', 'card var') can change",
            )
        return ANY

    def _stmt_SetStmt(self, s: n.SetStmt, scope: _Scope) -> None:
        want = self._assignable(s.target, scope)
        t = self._expr(s.value, scope, want)
        if not self._fits(t, want, s.value):
            self.error("E301", f"this variable holds {want}, not {t}", s.value)
        elif self._is_direction(s.target):
            value = "none" if isinstance(s.value, n.NoneLit) else constant_number(s.value)
            if value is not None and value not in (1, -1):
                self._bad_direction(f", not {value}", s.value)

    def _stmt_Add(self, s: n.Add, scope: _Scope) -> None:
        want = self._assignable(s.target, scope)
        if want.kind not in ("number", "any"):
            self.error("E301", f"'add' needs a number variable, not {want}", s.target)
        self._expect(s.value, scope, NUMBER)
        self._direction_change(s.target, s.value, 1)

    def _stmt_Subtract(self, s: n.Subtract, scope: _Scope) -> None:
        want = self._assignable(s.target, scope)
        if want.kind not in ("number", "any"):
            self.error("E301", f"'subtract' needs a number variable, not {want}", s.target)
        self._expect(s.value, scope, NUMBER)
        self._direction_change(s.target, s.value, -1)

    # Any direction but 1 and -1 breaks turn order (0: the same player for ever). A value
    # the checker cannot work out is checked when it is set (R504).

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

    def _stmt_Stop(self, s: n.Stop, scope: _Scope) -> None:
        if not scope.in_loop:
            self.error(
                "E406",
                "'stop' leaves a loop, but it is not inside one",
                s,
                "use it inside 'repeat', 'while' or 'for each'",
            )

    def _stmt_Again(self, s: n.Again, scope: _Scope) -> None:
        pass

    def _stmt_EndTurn(self, s: n.EndTurn, scope: _Scope) -> None:
        pass

    def _stmt_EndRound(self, s: n.EndRound, scope: _Scope) -> None:
        if self._first_end_round is None:
            self._first_end_round = s

    def _stmt_EndGame(self, s: n.EndGame, scope: _Scope) -> None:
        self._end_game_seen = True
        if s.winner is not None:
            self._expect(s.winner, scope, PLAYER)
        if s.winners is not None:
            self._winners(s.winners, scope)

    def _stmt_GoTo(self, s: n.GoTo, scope: _Scope) -> None:
        if s.phase not in self.symbols.phases:
            self.error(
                "E205",
                f"unknown phase '{s.phase}'",
                self.name_span(s, s.phase),
                did_you_mean(s.phase, self.symbols.phases, "phases"),
            )
        else:
            self.refs[id(s)] = self.symbols.phases[s.phase]
            self._goto_targets.add(s.phase)
        if s.player is not None:
            self._expect(s.player, scope, PLAYER)

    def _stmt_Open(self, s: n.Open, scope: _Scope) -> None:
        if s.window not in self.symbols.windows:
            self.error(
                "E209",
                f"unknown window '{s.window}'",
                self.name_span(s, s.window),
                did_you_mean(s.window, self.symbols.windows, "windows"),
            )
        else:
            self.refs[id(s)] = self.symbols.windows[s.window]
            self._opened_windows.add(s.window)

    def _stmt_Reverse(self, s: n.Reverse, scope: _Scope) -> None:
        pass

    def _stmt_Finish(self, s: n.Finish, scope: _Scope) -> None:
        self._expect(s.player, scope, PLAYER)

    def _stmt_Say(self, s: n.Say, scope: _Scope) -> None:
        self._expr(s.message, scope)

    def _stmt_CallStmt(self, s: n.CallStmt, scope: _Scope) -> None:
        proc = self.symbols.procedures.get(s.name)
        if proc is None:
            if s.name in self.symbols.defines or s.name in self._unique:
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
                    self.name_span(s, s.name),
                    did_you_mean(s.name, self.symbols.procedures, "procedures"),
                )
            for a in s.args:
                self._expr(a, scope)
            return
        self.refs[id(s)] = proc
        if self._current_procedure is not None:
            self._procedure_calls.setdefault(self._current_procedure, set()).add(s.name)
        self._check_args(s.args, proc.params, s, s.name, scope)

    def _check_args(
        self, args: tuple[n.Expr, ...], params: tuple[tuple[str, Type], ...], node: n.Node, name: str, scope: _Scope
    ) -> None:
        if len(args) != len(params):
            want = ", ".join(p for p, _ in params)
            self.error(
                "E302",
                f"'{name}' takes {len(params)} argument{'s' if len(params) != 1 else ''} ({want}), not {len(args)}",
                node,
            )
        for arg, (pname, ptype) in zip(args, params):
            t = self._expr(arg, scope, ptype)
            if not self._fits(t, ptype, arg):
                self.error("E301", f"'{pname}' of '{name}' is {ptype}, not {t}", arg)
        for arg in args[len(params) :]:
            self._expr(arg, scope)

    def _stmt_If(self, s: n.If, scope: _Scope) -> None:
        guard = scope.players_guard or any(_mentions_players(cond) for cond, _ in s.branches)
        for cond, body in s.branches:
            self._expect(cond, scope, FLAG)
            self._block(body, scope.child(players_guard=guard))
        self._block(s.else_, scope.child(players_guard=guard))

    def _stmt_ForEach(self, s: n.ForEach, scope: _Scope) -> None:
        self._reserved(s.var, s)
        elem = self._iterable(s.iterable, scope, s.var)
        inner = scope.child(in_loop=True)
        inner.locals[s.var] = LocalSym(s.var, s, elem, "loop")
        if s.where is not None:
            self._expect(s.where, inner, FLAG)
        self._block(s.body, inner)

    def _stmt_While(self, s: n.While, scope: _Scope) -> None:
        self._expect(s.cond, scope, FLAG)
        self._block(s.body, scope.child(in_loop=True))

    def _stmt_Repeat(self, s: n.Repeat, scope: _Scope) -> None:
        if s.count is not None:
            self._expect(s.count, scope, NUMBER)
        elif not any(isinstance(x, n.Stop) for x in _walk_stmts(s.body)) and not any(
            isinstance(x, (n.EndGame, n.EndRound)) for x in _walk_stmts(s.body)
        ):
            self.error(
                "E407",
                "this 'repeat' has no count and no 'stop': it would never end",
                s,
                "write 'repeat N times:' or put a 'stop' in it",
            )
        self._block(s.body, scope.child(in_loop=True))

    # ------------------------------------------------------------------ expressions

    def _winners(self, e: n.Expr, scope: _Scope) -> None:
        """The players of ``end game, winners``: players, and some (the game is won by them)."""
        t = self._expr(e, scope, PLAYERS)
        if t.kind == "none" or (isinstance(e, n.SetLiteral) and not e.items):
            hint = "a game nobody wins: 'end game, draw'"
            self.error("E301", "'winners' needs players, found no player", e, hint)
        elif t.kind == "player":
            hint = "for one player, write 'end game, winner P'"
            self.error("E301", "'winners' takes players, found a player", e, hint)
        elif t.kind not in ("players", "any"):
            hint = "for players chosen by a condition: 'cards p in players where …'"
            self.error("E301", f"'winners' takes players, found {t}", e, hint)

    def _expect(self, e: n.Expr, scope: _Scope, want: Type) -> Type:
        t = self._expr(e, scope, want)
        if not self._fits(t, want, e):
            self.error("E301", f"expected {want}, found {t}", e, _mismatch_hint(t, want))
        return t

    def _expect_zone(self, e: n.Expr, scope: _Scope) -> None:
        if isinstance(e, n.Name) and self._unknown(e.id, scope):
            zones = [z for z, sym in self.symbols.zones.items() if not sym.per_player or scope.has_player]
            self._undeclared("zone", e.id, e, did_you_mean(e.id, zones, "zones"))
            self.types[id(e)] = ANY
            return
        t = self._expr(e, scope)
        if t.kind not in ("zone", "any"):
            hint = None
            if isinstance(e, n.Attribute):
                hint = "to name a player's zone, write p.hand"
            self.error("E303", f"expected a zone, found {t}", e, hint)

    def _fits(self, t: Type, want: Type | None, node: n.Expr | None = None) -> bool:
        if want is None or t.kind == "any" or want.kind == "any":
            return True
        if t.kind == "none":
            return True
        if t.kind == want.kind and (t.of == want.of or not t.of or not want.of):
            return True
        if want.kind == "cards" and t.kind in ("zone", "card"):
            return True
        if want.kind == "cards" and isinstance(node, n.SetLiteral) and not node.items:
            return True  # {} is also no cards
        if want.kind == "value" and t.kind == "number" and isinstance(node, n.Number):
            return self._coerce_number(node, want)
        if want.kind == "set" and t.kind == "set" and (not t.of or not want.of):
            return True
        if want.kind == "number" and t.kind == "players" and isinstance(node, n.AllPlayers):
            self.refs[id(node)] = CountRef()
            self.types[id(node)] = NUMBER
            return True
        return False

    def _coerce_number(self, node: n.Number, want: Type) -> bool:
        values = self.symbols.values.get(want.of or "")
        if values is None:
            return False
        idx = values.index_of(str(node.value))
        if idx is None:
            return False
        self.refs[id(node)] = MemberRef(MemberSym(str(node.value), None, values, idx))
        self.types[id(node)] = want.sure()
        return True

    def _iterable(self, e: n.Expr, scope: _Scope, for_each: str | None = None) -> Type:
        """The type of what a loop goes through; ``for_each`` is the variable of a 'for each'."""
        self._looped[id(e)] = for_each
        t = self._expr(e, scope)
        elem = element_type(t)
        if elem is None:
            self.error(
                "E301", f"cannot go through {t} one by one", e, "go through a zone, cards, players, a set or a range"
            )
            return ANY
        return elem

    def _expr(self, e: n.Expr, scope: _Scope, want: Type | None = None) -> Type:
        method = getattr(self, f"_expr_{type(e).__name__}")
        t: Type = method(e, scope, want)
        if id(e) not in self.types or self.types[id(e)].kind == "any":
            self.types[id(e)] = t
        return self.types[id(e)]

    def _expr_Number(self, e: n.Number, scope: _Scope, want: Type | None) -> Type:
        if want is not None and want.kind == "value" and self._coerce_number(e, want):
            return want.sure()
        return NUMBER

    def _expr_Text(self, e: n.Text, scope: _Scope, want: Type | None) -> Type:
        for part in e.parts:
            if isinstance(part, n.Expr):
                self._expr(part, scope)
        return TEXT

    def _expr_BoolLit(self, e: n.BoolLit, scope: _Scope, want: Type | None) -> Type:
        return FLAG

    def _expr_NoneLit(self, e: n.NoneLit, scope: _Scope, want: Type | None) -> Type:
        return NONE

    def _expr_Name(self, e: n.Name, scope: _Scope, want: Type | None) -> Type:
        name = e.id
        local = scope.lookup(name)
        if local is not None:
            self.refs[id(e)] = LocalRef(local)
            return local.type
        sy = self.symbols
        if name in _BUILTIN_NAMES and not scope.load_time:
            self.refs[id(e)] = DirectionRef() if name == "direction" else BuiltinRef(name)
            return _BUILTIN_NAMES[name]
        if name in sy.options:
            if scope.options_visible is not None and name not in scope.options_visible:
                self.error(
                    "E211",
                    f"option '{name}' is declared later and cannot be used here",
                    e,
                    "an option's default may use 'players' and the options above it",
                )
                return ANY
            self.refs[id(e)] = OptionRef(sy.options[name])
            return sy.options[name].type if sy.options[name].type.kind != "any" else self._option_type(sy.options[name])
        if name in sy.members:
            m = sy.members[name]
            self.refs[id(e)] = MemberRef(m)
            return value_type(m.values.name)
        if scope.load_time:
            if name in sy.game_vars or name in sy.zones or name in sy.defines or name in sy.player_vars:
                self.error(
                    "E211",
                    f"'{name}' cannot be used here: "
                    "only options, 'players' and fixed values are known when the game is loaded",
                    e,
                )
                return ANY
        elif name in sy.game_vars:
            v = sy.game_vars[name]
            self.refs[id(e)] = GameVarRef(v)
            return self._var_type(v)
        elif name in sy.player_vars:
            v = sy.player_vars[name]
            if not scope.has_player:
                self.error(
                    "E212", f"'{name}' is a variable of each player; say whose", e, f"write p.{name} for a player p"
                )
                return ANY
            self.refs[id(e)] = PlayerVarRef(v, None)
            return self._var_type(v)
        elif name in sy.zones:
            z = sy.zones[name]
            if z.per_player and not scope.has_player:
                self.error("E212", f"'{name}' is a zone of each player; say whose", e, f"write p.{name} for a player p")
                return ANY
            self.refs[id(e)] = ZoneRef(z, None)
            return ZONE
        elif name in sy.defines:
            d = sy.defines[name]
            if d.params:
                self.error(
                    "E302",
                    f"'{name}' takes {len(d.params)} argument{'s' if len(d.params) != 1 else ''}",
                    e,
                    f"write {name}({', '.join(p for p, _ in d.params)})",
                )
                return ANY
            self.refs[id(e)] = DefineRef(d)
            return self._define_type(d)
        elif name in sy.procedures:
            self.error("E304", f"'{name}' is a procedure: it does something and has no value", e)
            return ANY
        if name in sy.values:
            members = sy.values[name].members
            if id(e) in self._looped:  # going through every value: that is a range
                var = self._looped[id(e)]
                ends = f"{members[0]} to {members[-1]}"
                how = f"for each {var} in {ends}" if var is not None else f"the range ({ends})"
                message = f"a loop cannot go through '{name}', the name of a list of values"
                hint = f"to go through every value of '{name}', write {how}"
            else:
                message = f"'{name}' names a list of values, not one value"
                hint = "write one of: " + ", ".join(clipped(members, 8))
            self.error("E304", message, e, hint)
            return ANY
        if name in sy.attributes or name in sy.card_vars:
            self.error(
                "E201",
                f"'{name}' is a card attribute; say which card",
                e,
                f"write c.{name} for a card c, such as (top of pile).{name}",
            )
            return ANY
        self._undeclared("name", name, e, self._name_hint(name, scope))
        return ANY

    def _unknown(self, name: str, scope: _Scope) -> bool:
        """Whether a bare name refers to nothing at all."""
        sy = self.symbols
        return (
            scope.lookup(name) is None
            and name not in _BUILTIN_NAMES
            and name not in sy.global_names()
            and name not in sy.values
            and name not in sy.attributes
            and name not in sy.card_vars
        )

    def _name_hint(self, name: str, scope: _Scope) -> str | None:
        if name.lower() in ("true", "false"):
            return f"flags are written yes and no: write '{'yes' if name.lower() == 'true' else 'no'}'"
        sy = self.symbols
        # Name the kind when the closest match is a zone, to read like "unknown zone".
        candidates = [*scope.visible_locals(), *sy.options, *sy.members, *_BUILTIN_NAMES]
        if not scope.load_time:
            candidates += [*sy.game_vars, *sy.player_vars, *sy.zones, *sy.defines]
        return did_you_mean(name, candidates, "names")

    def _option_type(self, o: OptionSym) -> Type:
        return o.type

    def _var_type(self, v: VarSym) -> Type:
        if v.type.kind == "any" and isinstance(v.decl, n.VarDecl):
            self._check_var(v.decl)
        return v.type

    def _expr_Call(self, e: n.Call, scope: _Scope, want: Type | None) -> Type:
        if e.name in _BUILTIN_FUNCTIONS and e.name not in self.symbols.defines:
            low, high = _BUILTIN_FUNCTIONS[e.name]
            if len(e.args) < low or (high is not None and len(e.args) > high):
                self.error(
                    "E302",
                    f"'{e.name}' takes {'at least ' if high is None else ''}{low} argument{'s' if low != 1 else ''}",
                    e,
                )
            for a in e.args:
                self._expect(a, scope, NUMBER)
            self.refs[id(e)] = BuiltinRef(e.name)
            return TEXT if e.name == "words" else NUMBER
        d = self.symbols.defines.get(e.name)
        if d is None:
            if scope.load_time:
                self.error("E211", f"'{e.name}' cannot be used when the game is loaded", e)
            elif e.name in self.symbols.procedures:
                self.error("E304", f"'{e.name}' is a procedure: write it alone on a line", e)
            else:
                self.error(
                    "E208",
                    f"unknown definition '{e.name}'",
                    e,
                    did_you_mean(e.name, [*self.symbols.defines, *_BUILTIN_FUNCTIONS], "definitions"),
                )
            for a in e.args:
                self._expr(a, scope)
            return ANY
        if scope.load_time:
            self.error("E211", f"'{e.name}' cannot be used when the game is loaded", e)
            return ANY
        self.refs[id(e)] = DefineRef(d)
        self._check_args(e.args, d.params, e, e.name, scope)
        return self._define_type(d)

    def _expr_Attribute(self, e: n.Attribute, scope: _Scope, want: Type | None) -> Type:
        sy = self.symbols
        if isinstance(e.obj, n.Name) and e.obj.id in sy.values and scope.lookup(e.obj.id) is None:
            values = sy.values[e.obj.id]
            idx = values.index_of(e.name)
            if idx is None:
                self.error(
                    "E204", f"'{e.obj.id}' has no value '{e.name}'", e, did_you_mean(e.name, values.members, "values")
                )
                return ANY
            self.refs[id(e)] = MemberRef(MemberSym(e.name, None, values, idx))
            return value_type(values.name)
        t = self._expr(e.obj, scope)
        if t.kind == "any":
            return ANY
        if t.kind in ("card", "cards"):
            if e.name in sy.attributes:
                a = sy.attributes[e.name]
                self.refs[id(e)] = CardAttrRef(a) if t.kind == "card" else CardsAttrRef(a)
                at = a.type
                return at.maybe_none() if at.kind in ("value", "number", "text") else at
            if e.name in sy.card_vars:
                if t.kind != "card":
                    self.error("E301", f"'{e.name}' belongs to one card; these are several", e)
                    return ANY
                v = sy.card_vars[e.name]
                self.refs[id(e)] = CardVarRef(v)
                return self._var_type(v)
            self.error(
                "E203",
                f"cards have no attribute '{e.name}'",
                e,
                did_you_mean(e.name, [*sy.attributes, *sy.card_vars], "attributes"),
            )
            return ANY
        if t.kind == "player":
            if e.name in sy.player_vars:
                v = sy.player_vars[e.name]
                self.refs[id(e)] = PlayerVarRef(v, e.obj)
                return self._var_type(v)
            if e.name in sy.zones:
                z = sy.zones[e.name]
                if not z.per_player:
                    self.error(
                        "E303", f"'{e.name}' is a shared zone; it belongs to no player", e, f"write {e.name} alone"
                    )
                    return ANY
                self.refs[id(e)] = ZoneRef(z, e.obj)
                return ZONE
            self.error(
                "E203",
                f"players have no zone or variable '{e.name}'",
                e,
                did_you_mean(e.name, [*sy.player_vars, *(z for z, s in sy.zones.items() if s.per_player)], "names"),
            )
            return ANY
        if t.kind == "zone":
            end = self._zone_end.get(id(e), "top")  # the end the rule names, if it names one
            hint = (
                f"for the {end} card's {e.name}, write ({end} of {_short(e.obj)}).{e.name}"
                if e.name in sy.attributes
                else None
            )
            self.error("E301", f"a zone has no attribute '{e.name}'", e, hint)
            return ANY
        self.error("E301", f"{t} has no attribute '{e.name}'", e)
        return ANY

    def _expr_TupleLiteral(self, e: n.TupleLiteral, scope: _Scope, want: Type | None) -> Type:
        for item in e.items:
            t = self._expr(item, scope)
            if t.kind not in ("number", "value", "any"):
                self.error("E301", f"a tuple holds numbers or values, not {t}", item)
        return TUPLE

    def _expr_SetLiteral(self, e: n.SetLiteral, scope: _Scope, want: Type | None) -> Type:
        # The element type comes from the context, else from the first item that is not a
        # bare number: in {2, 3, 10, Joker} the numbers are ranks.
        of: str | None = None
        if want is not None and want.kind == "set" and want.of:
            of = want.of
        elif want is not None and want.kind == "value":
            of = want.of
        if of is None:
            for item in e.items:
                if not isinstance(item, n.Number):
                    t = self._expr(item, scope)
                    if t.kind == "value":
                        of = t.of
                        break
                    if t.kind == "number":
                        of = "number"
                        break
        if of is None and e.items:
            of = "number"
        expected = NUMBER if of == "number" else value_type(of) if of else None
        for item in e.items:
            t = self._expr(item, scope, expected)
            if t.kind not in ("number", "value", "any"):
                self.error("E301", f"a set holds numbers or values, not {t}", item)
            elif expected is not None and not self._fits(t, expected, item):
                self.error("E301", f"this set holds {_plural(expected)}, not {t}", item)
        return set_type(of) if of else Type("set")

    def _expr_RangeLiteral(self, e: n.RangeLiteral, scope: _Scope, want: Type | None) -> Type:
        low = self._expr(e.low, scope)
        high = self._expr(e.high, scope, low if low.kind == "value" else None)
        if low.kind == "number" and high.kind == "value" and isinstance(e.low, n.Number):
            low = self._expr_Number(e.low, scope, high)
            self.types[id(e.low)] = low
        for t, node in ((low, e.low), (high, e.high)):
            if t.kind not in ("number", "value", "any"):
                self.error("E301", f"a range goes over numbers or ordered values, not {t}", node)
        if low.kind == "value" and high.kind == "value" and low.of != high.of:
            self.error("E301", f"a range cannot go from {low} to {high}", e)
        else:
            self._check_range_order(e.low, e.high)
        of = low.of if low.kind == "value" else high.of if high.kind == "value" else "number"
        return range_type(of or "number")

    def _check_range_order(self, low: n.Expr, high: n.Expr) -> None:
        """Refuse a range written with constant bounds the wrong way round (``K to A``): it holds nothing."""
        lref, href = self.refs.get(id(low)), self.refs.get(id(high))
        if isinstance(lref, MemberRef) and isinstance(href, MemberRef) and lref.member.values is href.member.values:
            first, last = lref.member, href.member
            if first.index > last.index:
                self.error(
                    "E305",
                    f"the range {first.name} to {last.name} is empty: "
                    f"{first.name} comes after {last.name} in '{first.values.name}'",
                    Span(low.span.start, high.span.end),
                    f"write {last.name} to {first.name} (a range runs in the order of the 'values' list)",
                )
            return
        a, b = constant_number(low), constant_number(high)
        if a is not None and b is not None and a > b and self.types.get(id(low), NUMBER).kind == "number":
            self.error(
                "E305",
                f"the range {a} to {b} is empty: {a} is more than {b}",
                Span(low.span.start, high.span.end),
                f"write {b} to {a} (a range counts upwards)",
            )

    def _expr_Negate(self, e: n.Negate, scope: _Scope, want: Type | None) -> Type:
        self._expect(e.operand, scope, NUMBER)
        return NUMBER

    def _operand(self, e: n.Expr, scope: _Scope, want: Type | None = None) -> Type:
        # `players` in arithmetic or an ordering means how many players there are.
        return self._expr(e, scope, NUMBER if isinstance(e, n.AllPlayers) else want)

    def _expr_Arith(self, e: n.Arith, scope: _Scope, want: Type | None) -> Type:
        left = self._operand(e.left, scope, NUMBER if want is not None and want.kind == "number" else None)
        right = self._operand(e.right, scope)
        if e.op == "+" and (left.kind in ("zone", "cards", "card") or right.kind in ("zone", "cards", "card")):
            for t, node in ((left, e.left), (right, e.right)):
                if t.kind not in ("zone", "cards", "card", "any"):
                    self.error("E301", f"'+' joins cards with cards, not with {t}", node)
            return CARDS
        for t, node in ((left, e.left), (right, e.right)):
            if not self._fits(t, NUMBER, node):
                self.error("E301", f"'{e.op}' works on numbers, not on {t}", node, _mismatch_hint(t, NUMBER))
        return NUMBER

    def _expr_Compare(self, e: n.Compare, scope: _Scope, want: Type | None) -> Type:
        left = self._operand(e.left, scope)
        right = self._operand(e.right, scope, left if left.kind in ("value", "number") else None)
        if left.kind == "number" and right.kind == "value" and isinstance(e.left, n.Number):
            left = self._expr_Number(e.left, scope, right)
            self.types[id(e.left)] = left
        if left.kind == "any" or right.kind == "any":
            return FLAG
        if e.op in ("==", "!="):
            if not (self._fits(right, left, e.right) or self._fits(left, right, e.left)):
                self.error("E301", f"cannot compare {left} with {right}", e, _mismatch_hint(right, left))
        else:
            for t, node in ((left, e.left), (right, e.right)):
                if t.kind not in ("number", "value", "tuple", "none"):
                    self.error("E301", f"'{e.op}' compares numbers, ordered values or tuples, not {t}", node)
            if left.kind == "value" and right.kind == "value" and left.of != right.of:
                self.error("E301", f"cannot order {left} against {right}", e)
        return FLAG

    def _expr_Member(self, e: n.Member, scope: _Scope, want: Type | None) -> Type:
        if isinstance(e.collection, n.SetLiteral):
            # `r in {2, 3, 10, Joker}`: the element tells what the set holds.
            elem = self._expr(e.element, scope)
            coll = self._expr(e.collection, scope, Type("set", elem.of) if elem.kind == "value" else None)
        else:
            coll = self._expr(e.collection, scope)
        elem_want = element_type(coll)
        t = self._expr(e.element, scope, elem_want)
        if coll.kind not in ("set", "cards", "zone", "players", "range", "any"):
            self.error("E301", f"'in' looks in a set, cards, players or a range, not in {coll}", e.collection)
        elif elem_want is not None and not self._fits(t, elem_want, e.element):
            self.error("E301", f"{coll} cannot hold {t}", e.element)
        return FLAG

    def _expr_Overlaps(self, e: n.Overlaps, scope: _Scope, want: Type | None) -> Type:
        left = self._expr(e.left, scope)
        right = self._expr(e.right, scope, left)
        for t, node in ((left, e.left), (right, e.right)):
            if t.kind not in ("set", "any"):
                self.error("E301", f"'overlaps' compares two sets, not {t}", node)
        if left.kind == right.kind == "set" and left.of and right.of and left.of != right.of:
            self.error("E301", f"{left} and {right} cannot share values", e)
        return FLAG

    def _expr_IsEmpty(self, e: n.IsEmpty, scope: _Scope, want: Type | None) -> Type:
        t = self._expr(e.operand, scope)
        if t.kind not in ("zone", "cards", "set", "players", "any"):
            self.error("E301", f"{t} cannot be empty", e.operand, "write '== none' to test for no value")
        return FLAG

    def _expr_IsOut(self, e: n.IsOut, scope: _Scope, want: Type | None) -> Type:
        self._expect(e.operand, scope, PLAYER)
        return FLAG

    def _expr_IsNamed(self, e: n.IsNamed, scope: _Scope, want: Type | None) -> Type:
        self._expect(e.operand, scope, CARD)
        if e.card_name not in self.symbols.card_names and not self.symbols.has_card_templates:
            self.error(
                "E207",
                f"no card is named '{e.card_name}'",
                e,
                did_you_mean(e.card_name, self.symbols.card_names, "cards"),
            )
        return FLAG

    def _expr_Not(self, e: n.Not, scope: _Scope, want: Type | None) -> Type:
        self._expect(e.operand, scope, FLAG)
        return FLAG

    def _expr_BoolOp(self, e: n.BoolOp, scope: _Scope, want: Type | None) -> Type:
        self._expect(e.left, scope, FLAG)
        self._expect(e.right, scope, FLAG)
        return FLAG

    def _expr_IfExpr(self, e: n.IfExpr, scope: _Scope, want: Type | None) -> Type:
        self._expect(e.cond, scope, FLAG)
        if _mentions_players(e.cond):
            scope = scope.child(players_guard=True)
        a = self._expr(e.then, scope, want)
        b = self._expr(e.else_, scope, want if want is not None else (a if a.kind != "none" else None))
        return self._unify(a, b, e)

    def _unify(self, a: Type, b: Type, e: n.Node) -> Type:
        if a.kind == "any" or b.kind == "any":
            return ANY
        if a.kind == "none":
            return b.maybe_none()
        if b.kind == "none":
            return a.maybe_none()
        if a.kind == b.kind and (a.of == b.of or not a.of or not b.of):
            return a if (a.nullable or not b.nullable) else b
        if {a.kind, b.kind} <= {"zone", "cards", "card"}:
            return CARDS
        self.error(
            "E301",
            f"the two branches give {a} and {b}",
            e,
            "both branches of 'if … then … else' must give the same kind of value",
        )
        return ANY

    def _binder(self, var: str, iterable: n.Expr, scope: _Scope, owner: n.Node) -> _Scope:
        self._reserved(var, owner)
        elem = self._iterable(iterable, scope)
        inner = scope.child()
        inner.locals[var] = LocalSym(var, owner, elem, "loop")
        return inner

    def _expr_Quantifier(self, e: n.Quantifier, scope: _Scope, want: Type | None) -> Type:
        inner = self._binder(e.var, e.iterable, scope, e)
        self._expect(e.cond, inner, FLAG)
        return FLAG

    def _expr_Count(self, e: n.Count, scope: _Scope, want: Type | None) -> Type:
        inner = self._binder(e.var, e.iterable, scope, e)
        if e.where is not None:
            self._expect(e.where, inner, FLAG)
        return NUMBER

    def _expr_Filter(self, e: n.Filter, scope: _Scope, want: Type | None) -> Type:
        t = self._expr(e.iterable, scope)
        inner = self._binder(e.var, e.iterable, scope, e)
        self._expect(e.where, inner, FLAG)
        if t.kind == "players":
            return PLAYERS
        if t.kind not in ("zone", "cards", "any"):
            self.error("E301", f"'cards … where' filters cards or players, not {t}", e.iterable)
        return CARDS

    def _expr_First(self, e: n.First, scope: _Scope, want: Type | None) -> Type:
        inner = self._binder(e.var, e.iterable, scope, e)
        self._expect(e.where, inner, FLAG)
        return inner.locals[e.var].type.maybe_none()

    def _expr_Topmost(self, e: n.Topmost, scope: _Scope, want: Type | None) -> Type:
        t = self._expr(e.iterable, scope)
        if t.kind not in ("zone", "cards", "any"):
            self.error("E301", f"'topmost' looks through a zone or cards, not {t}", e.iterable)
        inner = self._binder(e.var, e.iterable, scope, e)
        self._expect(e.where, inner, FLAG)
        return CARD.maybe_none()

    def _expr_Aggregate(self, e: n.Aggregate, scope: _Scope, want: Type | None) -> Type:
        inner = self._binder(e.var, e.iterable, scope, e)
        if e.where is not None:
            self._expect(e.where, inner, FLAG)
        t = self._expr(e.value, inner)
        if e.op == "distinct":
            return NUMBER
        if e.op == "total":
            if not self._fits(t, NUMBER, e.value):
                self.error("E301", f"'total' adds numbers, not {t}", e.value)
            return NUMBER
        if t.kind not in ("number", "value", "any"):
            self.error("E301", f"'{e.op}' compares numbers or ordered values, not {t}", e.value)
        return t.maybe_none()

    def _expr_Best(self, e: n.Best, scope: _Scope, want: Type | None) -> Type:
        inner = self._binder(e.var, e.iterable, scope, e)
        if e.where is not None:
            self._expect(e.where, inner, FLAG)
        t = self._expr(e.key, inner)
        if t.kind not in ("number", "value", "tuple", "any"):
            hint = f"compare one of its attributes: with {e.op} {e.var}.rank, say" if t.kind == "card" else None
            self.error("E301", f"'with {e.op}' compares numbers, ordered values or tuples, not {t}", e.key, hint)
        return inner.locals[e.var].type.maybe_none()

    def _zone_arg(self, e: n.Expr, scope: _Scope, what: str) -> Type:
        if what in ("top of", "bottom of"):  # `bottom of pile.rank` is `bottom of (pile.rank)`
            self._zone_end[id(e)] = what.split()[0]
        t = self._expr(e, scope)
        if t.kind not in ("zone", "cards", "any"):
            self.error("E301", f"'{what}' takes a zone or cards, not {t}", e)
            return ANY
        return t

    def _expr_TopOf(self, e: n.TopOf, scope: _Scope, want: Type | None) -> Type:
        if self._zone_arg(e.zone, scope, "top of").kind == "any":
            return ANY
        if e.count is not None:
            self._expect(e.count, scope, NUMBER)
            return CARDS
        return CARD.maybe_none()

    def _expr_BottomOf(self, e: n.BottomOf, scope: _Scope, want: Type | None) -> Type:
        if self._zone_arg(e.zone, scope, "bottom of").kind == "any":
            return ANY
        if e.count is not None:
            self._expect(e.count, scope, NUMBER)
            return CARDS
        return CARD.maybe_none()

    def _expr_AllOf(self, e: n.AllOf, scope: _Scope, want: Type | None) -> Type:
        self._zone_arg(e.zone, scope, "all of")
        return CARDS

    def _expr_AllButTop(self, e: n.AllButTop, scope: _Scope, want: Type | None) -> Type:
        self._expect(e.count, scope, NUMBER)
        self._zone_arg(e.zone, scope, "all but top")
        return CARDS

    def _expr_SizeOf(self, e: n.SizeOf, scope: _Scope, want: Type | None) -> Type:
        t = self._expr(e.operand, scope)
        if t.kind not in ("zone", "cards", "set", "players", "range", "any"):
            self.error("E301", f"'size of' counts cards, players or a set, not {t}", e.operand)
        return NUMBER

    def _expr_PositionOf(self, e: n.PositionOf, scope: _Scope, want: Type | None) -> Type:
        self._expect(e.operand, scope, CARD)
        return NUMBER

    def _expr_RunOf(self, e: n.RunOf, scope: _Scope, want: Type | None) -> Type:
        self._zone_arg(e.zone, scope, "run of")
        attr = self.symbols.attributes.get(e.key)
        if attr is not None:
            self.refs[id(e)] = RunKeyAttrRef(attr)
        elif e.key in self.symbols.defines:
            d = self.symbols.defines[e.key]
            self._define_type(d)
            if len(d.params) != 1 or d.params[0][1].kind != "card":
                self.error("E302", f"'{e.key}' must take one card to key a run", e)
            self.refs[id(e)] = DefineRef(d)
        else:
            self.error(
                "E203",
                f"'{e.key}' is neither a card attribute nor a definition of one card",
                e,
                did_you_mean(e.key, [*self.symbols.attributes, *self.symbols.defines], "names"),
            )
        return CARDS

    def _expr_EveryCard(self, e: n.EveryCard, scope: _Scope, want: Type | None) -> Type:
        return CARDS  # at load time: the deck as built for the options chosen

    def _need_player(self, e: n.Node, scope: _Scope, what: str) -> None:
        if scope.load_time:
            self.error("E211", f"'{what}' is not known when the game is loaded", e)

    def _expr_ActingPlayer(self, e: n.ActingPlayer, scope: _Scope, want: Type | None) -> Type:
        if not scope.has_player:
            self.error("E212", "'player' (the player acting) has no meaning here", e)
            return ANY
        return PLAYER

    def _expr_PlayerStep(self, e: n.PlayerStep, scope: _Scope, want: Type | None) -> Type:
        self._need_player(e, scope, "player after")
        self._expect(e.player, scope, PLAYER)
        return PLAYER

    def _expr_AllPlayers(self, e: n.AllPlayers, scope: _Scope, want: Type | None) -> Type:
        if want is not None and want.kind == "number":
            self.refs[id(e)] = CountRef()
            return NUMBER
        return PLAYERS

    def _expr_PlayersAfter(self, e: n.PlayersAfter, scope: _Scope, want: Type | None) -> Type:
        self._need_player(e, scope, "players after")
        self._expect(e.player, scope, PLAYER)
        return PLAYERS

    def _expr_PlayersStarting(self, e: n.PlayersStarting, scope: _Scope, want: Type | None) -> Type:
        self._need_player(e, scope, "players starting with")
        self._expect(e.player, scope, PLAYER)
        return PLAYERS

    def _expr_Neighbour(self, e: n.Neighbour, scope: _Scope, want: Type | None) -> Type:
        self._expect(e.player, scope, PLAYER)
        return PLAYER

    def _expr_Seat(self, e: n.Seat, scope: _Scope, want: Type | None) -> Type:
        self._expect(e.index, scope, NUMBER)
        seen = self._seats.get(id(e))
        self._seats[id(e)] = (e, scope.players_guard and (seen is None or seen[1]))
        return PLAYER

    # ------------------------------------------------------------------ whole-game structure

    def _zone_families(self, e: n.Expr) -> set[str]:
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

    def _check_structure(self) -> None:
        sy = self.symbols
        has_round_end = any(isinstance(d, n.RoundEndDecl) for d in self.file.decls)
        if self._first_end_round is not None and not has_round_end:
            # The runtime ends the game there (by the ranking); a designer who wrote 'end round'
            # most likely meant another round to follow.
            self.warning(
                "W405",
                "'end round' ends the game: there is no 'round end:' section",
                self._first_end_round,
                "to play another round, add 'round end:' (with 'end game' after the last round); "
                "to end the game, write 'end game'",
            )
        elif not self._end_game_seen and sy.phases:
            self.error(
                "E402",
                "the game never ends: no rule says 'end game'",
                self.file.header,
                "add a rule such as: if hand is empty: end game, winner player",
            )
        # Phases reached by no 'go to' are dead, except the first, where play starts.
        first = next(iter(sy.phases.values()), None)
        for phase in sy.phases.values():
            if phase is not first and phase.name not in self._goto_targets:
                self.warning(
                    "W401",
                    f"phase '{phase.name}' is never reached: no rule goes to it",
                    phase.decl,
                    f"write 'go to {phase.name}' where it should begin, or remove it",
                )
        for window in sy.windows.values():
            if window.name not in self._opened_windows:
                self.warning(
                    "W402",
                    f"window '{window.name}' is never opened",
                    window.decl,
                    f"write 'open {window.name}' in the rule after which it applies",
                )
        for d in self.file.decls:
            if isinstance(d, n.TriggerDecl):
                zone = self.refs.get(id(d))
                if isinstance(zone, ZoneSym) and zone.name not in self._move_targets:
                    self.warning("W403", f"this rule never runs: no card is ever moved to '{zone.name}'", d)
        # A procedure that runs itself, even through others, would never end.
        looping = _reaching_cycles(self._procedure_calls)
        for name in sy.procedures:
            path = _find_cycle(name, self._procedure_calls) if name in looping else None
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
        decl = next((d for d in self.file.decls if isinstance(d, n.PlayersDecl)), None)
        if decl is None:
            return
        low, high = constant_number(decl.low), constant_number(decl.high)
        if not valid_players(low, high):
            return
        assert low is not None and high is not None
        for e, guarded in self._seats.values():
            seats = {p: constant_number(e.index, p) for p in range(low, high + 1)}
            if any(i is None for i in seats.values()):
                continue  # known only while playing
            missing = [p for p, i in seats.items() if not 0 <= i < p]  # type: ignore[operator]
            if not missing:
                continue
            first = missing[0]
            what = f"seat {seats[first]}"
            if len(set(seats.values())) > 1:
                what = f"'{self._text(e)}' (seat {seats[first]} with {first} players)"
            if len(missing) == len(seats):
                self.error(
                    "E409",
                    f"{what} does not exist with any number of players the game allows ({_players_range(low, high)})",
                    e,
                    f"seats are numbered from 0: with {high} players they are seat 0 to seat {high - 1}; "
                    "the last player is 'seat (players - 1)'",
                )
            elif not guarded:
                self.warning(
                    "W404",
                    f"{what} does not exist with {or_list(missing)} players",
                    e,
                    f"seats are numbered from 0: with {first} players they are seat 0 to seat {first - 1}; "
                    "test 'players' first, or refuse fewer players with 'require'",
                )

    def _text(self, node: n.Node) -> str:
        """The text of a node as written (its first line)."""
        span = node.span
        text = self.source.line_text(span.start.line)
        end = span.end.col - 1 if span.end.line == span.start.line else len(text)
        return text[span.start.col - 1 : end]

    def _check_trigger_cycles(self) -> None:
        """A rule on cards entering a zone must not move cards into that zone again, even
        through the rules of other zones: they would set each other off without end."""
        hint = "move the cards elsewhere, or run the effect from the action instead"
        watched: dict[str, list[n.TriggerDecl]] = {}  # zone -> the rules on cards entering it
        for t in (d for d in self.file.decls if isinstance(d, n.TriggerDecl)):
            zone = self.refs.get(id(t))
            if isinstance(zone, ZoneSym):
                watched.setdefault(zone.name, []).append(t)
        # What each rule moves cards into (only zones that are watched), in file order.
        fills: dict[int, list[tuple[n.Stmt, str]]] = {}
        for rules in watched.values():
            for t in rules:
                found: list[tuple[n.Stmt, str]] = []
                for s in self._reachable_stmts(t.body):
                    if isinstance(s, n.Move):
                        found += [(s, z) for z in sorted(self._zone_families(s.to)) if z in watched]
                    elif isinstance(s, n.Deal):
                        dealt_to = self.refs.get(id(s))
                        if isinstance(dealt_to, ZoneSym) and dealt_to.name in watched:
                            found.append((s, dealt_to.name))
                fills[id(t)] = sorted(found, key=lambda f: (f[0].span.start.offset, f[1]))
        in_a_cycle: set[int] = set()  # rules already reported, so that a cycle is reported once
        for t in (d for d in self.file.decls if isinstance(d, n.TriggerDecl)):
            own = self.refs.get(id(t))
            if not isinstance(own, ZoneSym) or id(t) in in_a_cycle:
                continue
            for s, zone in fills[id(t)]:
                if zone == own.name:
                    self.error("E405", f"this rule moves cards into '{own.name}', which sets itself off again", s, hint)
                    in_a_cycle.add(id(t))
            for s, zone in fills[id(t)]:
                if id(t) in in_a_cycle:
                    break
                path = self._trigger_path(zone, own.name, watched, fills)
                if path is not None:
                    chain = " -> ".join([own.name, *path])
                    back = f"which sets off rules that move cards back into '{own.name}' ({chain})"
                    self.error("E405", f"this rule moves cards into '{zone}', {back}", s, hint)
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

    def _reachable_stmts(self, body: tuple[n.Stmt, ...]) -> Iterator[n.Stmt]:
        seen: set[str] = set()
        stack = list(body)
        while stack:
            s = stack.pop()
            yield s
            for child in _child_stmts(s):
                stack.append(child)
            if isinstance(s, n.CallStmt) and s.name in self.symbols.procedures and s.name not in seen:
                seen.add(s.name)
                decl = self.symbols.procedures[s.name].decl
                if isinstance(decl, n.ProcedureDecl):
                    stack.extend(decl.body)


#: The most players a game may have.
MAX_PLAYERS = 16
PLAYERS_HINT = f"write a range such as 'players 2 to 6' (at most {MAX_PLAYERS})"


def valid_players(low: object, high: object) -> bool:
    """Whether a game may be for ``low`` to ``high`` players."""
    return isinstance(low, int) and isinstance(high, int) and 1 <= low <= high <= MAX_PLAYERS


def players_message(low: object, high: object) -> str:
    return f"cannot play with {low} to {high} players"


def _mentions_players(e: n.Node) -> bool:
    """Whether an expression uses 'players' (a test of how many play, most likely)."""
    return isinstance(e, n.AllPlayers) or any(_mentions_players(c) for c in e.children())


def _players_range(low: int, high: int) -> str:
    return str(low) if low == high else f"{low} to {high}"


def _grammar_keywords() -> frozenset[str]:
    from ruledsl.syntax.parser import keywords

    return keywords()


#: Expressions that bind a name (``var``) in everything but their ``iterable``.
_BINDERS = (n.Quantifier, n.Count, n.Filter, n.First, n.Topmost, n.Aggregate, n.Best)

_MISSING_HINTS = {
    n.PlayersDecl: "add a line such as: players 2 to 6",
    n.DeckDecl: 'list the cards under "deck:"',
    n.SetupDecl: "add 'setup:' with the shuffle, the deal and who starts",
}


def _span_of(node: n.Node | Span | None) -> Span | None:
    return node if isinstance(node, Span) or node is None else node.span


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


def _child_stmts(s: n.Stmt) -> Iterator[n.Stmt]:
    if isinstance(s, n.If):
        for _cond, body in s.branches:
            yield from body
        yield from s.else_
    elif isinstance(s, (n.ForEach, n.While, n.Repeat)):
        yield from s.body


def _walk_stmts(body: tuple[n.Stmt, ...]) -> Iterator[n.Stmt]:
    for s in body:
        yield s
        if not isinstance(s, (n.ForEach, n.While, n.Repeat)):  # a nested loop's stop is its own
            yield from _walk_stmts(tuple(_child_stmts(s)))


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


def _plural(t: Type) -> str:
    if t.kind == "value":
        return f"{t.of} values"
    return "numbers" if t.kind == "number" else str(t)


def _short(e: n.Expr) -> str:
    if isinstance(e, n.Name):
        return e.id
    if isinstance(e, n.ActingPlayer):
        return "player"
    if isinstance(e, n.Attribute):
        return f"{_short(e.obj)}.{e.name}"
    return "the zone"


def _mismatch_hint(t: Type, want: Type) -> str | None:
    if want.kind == "cards" and t.kind == "zone":
        return None
    if want.kind == "card" and t.kind == "zone":
        return "for its top card, write 'top of' before the zone"
    if want.kind == "number" and t.kind in ("zone", "cards"):
        return "for how many cards, write 'size of' before it"
    if want.kind == "flag" and t.kind in ("zone", "cards"):
        return "to test for cards, write 'is empty' or 'is not empty'"
    if want.kind == "player" and t.kind == "players":
        return "pick one player, such as 'first p in players where …'"
    return None
