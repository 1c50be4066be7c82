"""Resolve what a name, an attribute or a call of an expression refers to, and type it."""

from __future__ import annotations

from ruledsl.analysis.context import BUILTIN_NAMES, CheckerPart
from ruledsl.analysis.refs import (
    BuiltinRef,
    CardAttrRef,
    CardsAttrRef,
    CardVarRef,
    DefineRef,
    DirectionRef,
    GameVarRef,
    LocalRef,
    MemberRef,
    OptionRef,
    PlayerVarRef,
    RunSpanRef,
    ZoneRef,
)
from ruledsl.analysis.scope import Scope
from ruledsl.analysis.symbols import ANY, NUMBER, TEXT, ZONE, DefineSym, MemberSym, Type, VarSym, value_type
from ruledsl.syntax import nodes as n
from ruledsl.text.render import clipped, did_you_mean

#: The functions the language provides: the least and the most arguments (None: no most).
_BUILTIN_FUNCTIONS = {
    "max": (2, None),
    "min": (2, None),
    "abs": (1, 1),
    "words": (1, 1),
    "run_low": (1, 1),
    "run_high": (1, 1),
}
#: The functions reading a run chosen in the action: the lowest and the highest value it spans.
RUN_SPANS = ("run_low", "run_high")


class NameResolver(CheckerPart):
    """Resolve names, attributes and calls into the context's ``refs``, and return their types."""

    def name(self, e: n.Name, scope: Scope, want: Type | None) -> Type:
        """Resolve a bare name: a local, an option, a value, a variable, a zone, a definition..."""
        name = e.id
        local = scope.lookup(name)
        if local is not None:
            self.refs[id(e)] = LocalRef(local)
            return local.type
        sy = self.symbols
        if name in BUILTIN_NAMES and not scope.load_time:
            self.refs[id(e)] = DirectionRef() if name == "direction" else BuiltinRef(name)
            return BUILTIN_NAMES[name]
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
            return sy.options[name].type
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
            return self.var_type(v)
        elif name in sy.player_vars:
            v = sy.player_vars[name]
            if not scope.has_player:
                self.error(
                    "E212", f"'{name}' is a variable of each player; say whose", e, f"write p.{name} for a player p"
                )
                return ANY
            self.refs[id(e)] = PlayerVarRef(v, None)
            return self.var_type(v)
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
            return self.ctx.decls.define_type(d)
        elif name in sy.procedures:
            self.error("E304", f"'{name}' is a procedure: it does something and has no value", e)
            return ANY
        if name in sy.values:
            members = sy.values[name].members
            if id(e) in self.ctx.exprs.looped:  # going through every value: that is a range
                var = self.ctx.exprs.looped[id(e)]
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
        self.ctx.undeclared_name("name", name, e, self._name_hint(name, scope))
        return ANY

    def attribute(self, e: n.Attribute, scope: Scope, want: Type | None) -> Type:
        """Resolve ``obj.name``: a value of a list, a card's attribute or variable, a player's zone or variable."""
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
        t = self.ctx.exprs.check(e.obj, scope)
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
                return self.var_type(v)
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
                return self.var_type(v)
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
            end = self.ctx.exprs.zone_end.get(id(e), "top")  # the end the rule names, if it names one
            hint = (
                f"for the {end} card's {e.name}, write ({end} of {_short(e.obj)}).{e.name}"
                if e.name in sy.attributes
                else None
            )
            self.error("E301", f"a zone has no attribute '{e.name}'", e, hint)
            return ANY
        self.error("E301", f"{t} has no attribute '{e.name}'", e)
        return ANY

    def call(self, e: n.Call, scope: Scope, want: Type | None) -> Type:
        """Resolve a call: a function the language provides, or a definition with its arguments."""
        if e.name in _BUILTIN_FUNCTIONS and e.name not in self.symbols.defines:
            low, high = _BUILTIN_FUNCTIONS[e.name]
            if len(e.args) < low or (high is not None and len(e.args) > high):
                self.error(
                    "E302",
                    f"'{e.name}' takes {'at least ' if high is None else ''}{low} argument{'s' if low != 1 else ''}",
                    e,
                )
            if e.name in RUN_SPANS:
                return self._run_span(e, scope)
            for a in e.args:
                self.ctx.exprs.expect(a, scope, NUMBER)
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
                self.ctx.exprs.check(a, scope)
            return ANY
        if scope.load_time:
            self.error("E211", f"'{e.name}' cannot be used when the game is loaded", e)
            return ANY
        self.refs[id(e)] = DefineRef(d)
        self.check_args(e.args, d.params, e, e.name, scope)
        return self.ctx.decls.define_type(d)

    def _run_span(self, e: n.Call, scope: Scope) -> Type:
        """``run_low(cs)``, ``run_high(cs)``: ``cs`` must be a run chosen in the action (E306);
        the value is of the run's attribute."""
        for a in e.args:
            self.ctx.exprs.check(a, scope)
        arg = e.args[0] if e.args else None
        local = scope.lookup(arg.id) if isinstance(arg, n.Name) else None
        shape = local.decl.shape if local is not None and isinstance(local.decl, n.Choice) else None
        if not (isinstance(shape, n.DifferentChoice) and shape.sequence):
            what = f"'{arg.id}'" if isinstance(arg, n.Name) else "this"
            self.error(
                "E306",
                f"'{e.name}' reads a run chosen in the action, not {what}",
                e,
                "choose the cards 'in sequence of ATTR' in the action and name that choice: run_low(cs)",
            )
            return ANY
        wild = self.ctx.wilds.get(id(shape))
        self.refs[id(e)] = RunSpanRef(e.name, shape, not isinstance(wild, DefineSym))
        attr = self.symbols.attributes.get(shape.attr)
        return attr.type if attr is not None else ANY

    def check_args(
        self, args: tuple[n.Expr, ...], params: tuple[tuple[str, Type], ...], node: n.Node, name: str, scope: Scope
    ) -> None:
        """Check the arguments of a call or a procedure against its parameters."""
        if len(args) != len(params):
            want = ", ".join(p for p, _ in params)
            self.error(
                "E302",
                f"'{name}' takes {len(params)} argument{'s' if len(params) != 1 else ''} ({want}), not {len(args)}",
                node,
            )
        for arg, (pname, ptype) in zip(args, params):
            t = self.ctx.exprs.check(arg, scope, ptype)
            if not self.ctx.exprs.fits(t, ptype, arg):
                self.error("E301", f"'{pname}' of '{name}' is {ptype}, not {t}", arg)
        for arg in args[len(params) :]:
            self.ctx.exprs.check(arg, scope)

    def var_type(self, v: VarSym) -> Type:
        """The type of a variable, checking its declaration first if that is not done yet."""
        if v.type.kind == "any" and isinstance(v.decl, n.VarDecl):
            self.ctx.decls.check_var(v.decl)
        return v.type

    def is_unknown(self, name: str, scope: Scope) -> bool:
        """Whether a bare name refers to nothing at all."""
        sy = self.symbols
        return (
            scope.lookup(name) is None
            and name not in BUILTIN_NAMES
            and name not in sy.global_names()
            and name not in sy.values
            and name not in sy.attributes
            and name not in sy.card_vars
        )

    def _name_hint(self, name: str, scope: Scope) -> str | None:
        if name.lower() in ("true", "false"):
            return f"flags are written yes and no: write '{'yes' if name.lower() == 'true' else 'no'}'"
        sy = self.symbols
        # Name the kind when the closest match is a zone, to read like "unknown zone".
        candidates = [*scope.visible_locals(), *sy.options, *sy.members, *BUILTIN_NAMES]
        if not scope.load_time:
            candidates += [*sy.game_vars, *sy.player_vars, *sy.zones, *sy.defines]
        return did_you_mean(name, candidates, "names")


def _short(e: n.Expr) -> str:
    if isinstance(e, n.Name):
        return e.id
    if isinstance(e, n.ActingPlayer):
        return "player"
    if isinstance(e, n.Attribute):
        return f"{_short(e.obj)}.{e.name}"
    return "the zone"
