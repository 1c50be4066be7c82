"""Write the functions that list an action's legal choices and apply the one chosen."""

from __future__ import annotations

import re
from collections.abc import Callable

from ruledsl.analysis.refs import CardAttrRef, CardVarRef, LocalRef, ZoneRef
from ruledsl.analysis.symbols import AttributeSym
from ruledsl.codegen import names
from ruledsl.codegen.context import ActionInfo, CompileContext, CompilerPart, Scope
from ruledsl.codegen.labels import label_is_static
from ruledsl.engine.limits import STEP_AT, STEP_BUDGET
from ruledsl.syntax import nodes as n


class Actions(CompilerPart):
    """Listing functions (a loop per choice, each condition in the loop of its last choice) and apply functions."""

    def __init__(self, cx: CompileContext) -> None:
        super().__init__(cx)
        self.exprs = cx.exprs
        self.stmts = cx.stmts
        self.labels = cx.labels
        self._step_from: str | None = None  # while a steppable action is listed: st.steps when it began
        self._step_room: str | None = None  # and how many actions may still be offered beside those before it

    def wild(self, shape: n.ChoiceShape, player: str) -> str:
        """Python for the test of a choice's wild cards (None without any)."""
        if getattr(shape, "wild", None) is None:
            return "None"
        wild = self.c.wilds[id(shape)]
        if isinstance(wild, AttributeSym):
            return f"{names.ATTRIBUTE(wild.index)}.__getitem__"
        return f"(lambda c_: {names.DEFINE(wild.index)}(st, {player}, c_))"

    def new_action(self, item: n.ActionDecl | n.PassDecl, owner: str, owner_kind: str) -> ActionInfo:
        """Number a new action (or pass) of a phase or window: its ActionDef's index."""
        info = ActionInfo(
            index=len(self.cx.action_defs),
            item=item,
            name=item.name if isinstance(item, n.ActionDecl) else "pass",
            owner=owner,
            owner_kind=owner_kind,
            is_pass=isinstance(item, n.PassDecl),
            static_label=item.label is None or label_is_static(item.label, self.c, item),
        )
        self.cx.action_defs.append(info)
        return info

    def actions_of(
        self, items: tuple[n.Node, ...], owner: str, owner_kind: str, needs_pass: bool
    ) -> list[tuple[n.ActionDecl | n.PassDecl, ActionInfo]]:
        """The actions of a phase or window, numbered; a pass added where one is needed and none is written."""
        listed: list[n.ActionDecl | n.PassDecl] = [i for i in items if isinstance(i, (n.ActionDecl, n.PassDecl))]
        if needs_pass and not any(isinstance(i, n.PassDecl) for i in listed):
            listed.append(n.PassDecl(label=None, body=()))
        return [(item, self.new_action(item, owner, owner_kind)) for item in listed]

    def list_all(self, actions: list[tuple[n.ActionDecl | n.PassDecl, ActionInfo]], bid: bool) -> None:
        """List the ordinary actions, then, if there is none, the 'otherwise' ones."""
        self.cx.listing = True
        try:
            self._enumerate_all_(actions, bid)
        finally:
            self.cx.listing = False

    def _enumerate_all_(self, actions: list[tuple[n.ActionDecl | n.PassDecl, ActionInfo]], bid: bool) -> None:
        ordinary = [(i, info) for i, info in actions if isinstance(i, n.ActionDecl) and not i.otherwise]
        fallback = [(i, info) for i, info in actions if isinstance(i, n.ActionDecl) and i.otherwise]
        bound = [(i, info) for i, info in ordinary if must_clauses(i)]
        if bound:
            # 'must if able': first the choices meeting it; if there are any, nothing else is legal.
            mark = self.fresh()
            self.em.line(f"{mark} = len(out)")
            for item, info in bound:
                self._enumerate(item, info, bid, must=True)
            self.em.line(f"if len(out) > {mark}:")
            with self.em.block():
                self.em.line("return None")
        if fallback:
            self.em.line("base_ = len(out)")
        for item, info in ordinary:
            self._enumerate(item, info, bid)
        if fallback:
            self.em.line("if len(out) == base_:")
            with self.em.block():
                for item, info in fallback:
                    self._enumerate(item, info, bid)
        self.em.line("return None")

    def _enumerate(self, a: n.ActionDecl, info: ActionInfo, bid: bool, must: bool = False) -> None:
        """Emit, inside a legal function, the loops that list this action's legal choices (with
        ``must``, only those meeting its 'must if able' conditions too)."""
        scope = Scope()
        choice_names = [self.fresh() for _ in a.choices]
        for ch, py in zip(a.choices, choice_names):
            scope.names[ch.name] = py
        # Each condition is tested in the loop of the last choice it uses, so that
        # conditions on no choice are tested once, before any loop.
        levels: list[list[n.Expr]] = [[] for _ in range(len(a.choices) + 1)]
        for cond, _reason, level in action_clauses(a) + (must_clauses(a) if must else []):
            levels[level].append(cond)
        self.em.at(a.span)
        able = able_clauses(a)
        strict = [list(level) for level in levels]
        for cond, _reason, level in able:
            strict[level].append(cond)

        def listing() -> None:
            # With 'require if able', first the choices meeting it; if none does, all of them as without it.
            if not able:
                self._emit_level(a, info, bid, choice_names, scope, levels, 0, [])
                return
            mark = self.fresh()
            self.em.line(f"{mark} = len(out)")
            self._emit_level(a, info, bid, choice_names, scope, strict, 0, [])
            self.em.line(f"if len(out) == {mark}:")
            with self.em.block():
                self._emit_level(a, info, bid, choice_names, scope, levels, 0, [])

        if not self._steppable(a, info, bid):
            listing()
            return
        # Listed whole while its sets are few; once listing them would offer more than STEP_AT
        # actions, with those of the actions before it, offered card by card instead
        # (ruledsl.engine.stepping, which honours its 'require if able' too): the sets listed
        # so far are taken back.
        em = self.em
        mark, self._step_from, self._step_room = self.fresh(), self.fresh(), self.fresh()
        em.line(f"{mark} = len(out)")
        em.line(f"{self._step_from} = st.steps")
        em.line(f"{self._step_room} = {STEP_AT} - {mark}")
        em.line("try:")
        with em.block():
            listing()
        self._step_from = self._step_room = None
        em.line("except op_StepInstead:")
        with em.block():
            em.line(f"del out[{mark}:]")
            em.line(f"st.offer_steps({names.ACTION_DEF(info.index)}, out, {must})")

    def _steppable(self, a: n.ActionDecl, info: ActionInfo, bid: bool) -> bool:
        """Whether an action may be offered card by card: one choice, of a group of cards, in a
        phase (not a bid, a window, an 'otherwise' action nor a phase played together)."""
        if bid or info.owner_kind != "phase" or a.otherwise or len(a.choices) != 1:
            return False
        shape = a.choices[0].shape
        if not isinstance(shape, n.POOLED_CHOICES) or isinstance(shape, n.CardChoice):
            return False
        decl = self.sy.phases[info.owner].decl
        return not (isinstance(decl, n.PhaseDecl) and decl.together)

    def _emit_level(
        self,
        a: n.ActionDecl,
        info: ActionInfo,
        bid: bool,
        choice_names: list[str],
        scope: Scope,
        levels: list[list[n.Expr]],
        i: int,
        key_parts: list[str],
    ) -> None:
        em = self.em
        opened = 0
        if levels[i]:
            test = " and ".join(self.exprs.ex(cj, scope) for cj in levels[i])
            if i > 0 and isinstance(a.choices[i - 1].shape, n.CardChoice):
                test = self._read_attributes_once(test, choice_names[i - 1])
            em.line("if " + test + ":")
            em.indent += 1
            opened += 1
        if i == len(a.choices):
            self._emit_emission(a, info, bid, scope, key_parts)
        elif i == 0 and scope.hoist is None:
            # Open the hoisting sink for everything inside the loops; its lines go here,
            # before the first loop, once the loops have been written.
            at, indent = len(em.lines), em.indent
            sink: dict[str, str] = {}
            loop_scope = Scope(scope.names, scope.player, scope.overrides, sink, frozenset(choice_names))
            self._emit_level(a, info, bid, choice_names, loop_scope, [[], *levels[1:]], 0, key_parts)
            lines = ["    " * indent + f"{name} = {code}" for code, name in sink.items()]
            em.lines[at:at] = lines
            em.spans[at:at] = [a.span] * len(lines)
        else:
            ch, py = a.choices[i], choice_names[i]
            em.at(ch.span)

            def inner(key: str) -> None:
                if i > 0:  # the first choice's cards: one round per card of the deck, at most
                    self._count_choice(ch.shape)
                key_parts.append(key)
                self._emit_level(a, info, bid, choice_names, scope, levels, i + 1, key_parts)
                key_parts.pop()

            if isinstance(ch.shape, n.CardChoice):
                self._emit_card_loop(ch.shape, py, scope, inner)
            else:
                value_ok = None
                if isinstance(ch.shape, n.SameChoice):
                    # Conditions that use the group only through its shared value are
                    # tested once per value, before any group of that value is built.
                    by_value = [cj for cj in levels[i + 1] if _only_through(cj, ch.name, ch.shape.attr)]
                    if by_value:
                        levels = [
                            *levels[: i + 1],
                            [cj for cj in levels[i + 1] if cj not in by_value],
                            *levels[i + 2 :],
                        ]
                        value_ok = self._value_filter(by_value, ch, scope)
                opened += self._emit_loop(ch.shape, py, scope, key_parts, value_ok, counted=i > 0)
                self._emit_level(a, info, bid, choice_names, scope, levels, i + 1, key_parts)
                key_parts.pop()
        em.indent -= opened

    def _read_attributes_once(self, test: str, card: str) -> str:
        """Read each attribute of the chosen card that a test reads twice or more once, before it."""
        for read in sorted(set(r for r in _ATTRIBUTE_READ.findall(test) if r.endswith(f"[({card})]"))):
            if test.count(read) > 1:
                name = self.fresh(names.READ_ONCE)
                self.em.line(f"{name} = {read}")  # a card's attribute is always there: safe before the test
                test = test.replace(read, name)
        return test

    def _emit_card_loop(self, shape: n.CardChoice, py: str, scope: Scope, inner: Callable[[str], None]) -> None:
        """Loop over one card choice: by kind over cards the chooser sees, by place otherwise."""
        em = self.em
        pool = self.fresh(names.POOL)
        em.line(f"{pool} = {self.exprs.cards(shape.pool, scope)}")
        visible = self._pool_visibility(shape.pool)

        def by_kind(each_card: bool = False) -> None:
            """``each_card``: ask of each card whether he sees it (the pool's cards may lie apart)."""
            if self.layout.unique and not self.cx.uses_faces and not each_card:
                em.line(f"for {py} in {pool}:")
                with em.block():
                    inner(py)
                return
            seen, k, j = self.fresh(names.SEEN), self.fresh(names.KIND_KEY), self.fresh(names.PLACE_INDEX)
            em.line(f"{seen} = set()")
            em.line(f"for {j}, {py} in enumerate(reversed({pool})):")
            with em.block():
                if self.cx.uses_faces or each_card:
                    em.line(f"{k} = KIND[{py}] if st.sees({scope.player}, {py}) else -1 - {j}")
                else:
                    em.line(f"{k} = KIND[{py}]")
                em.line(f"if {k} in {seen}:")
                with em.block():
                    em.line("continue")
                em.line(f"{seen}.add({k})")
                inner(k)

        def by_place() -> None:
            j = self.fresh(names.PLACE_INDEX)
            em.line(f"for {j}, {py} in enumerate(reversed({pool})):")
            with em.block():
                inner(f"-1 - {j}")

        if visible is True:
            by_kind()
        elif visible is False:
            by_place()
        else:
            one_zone = self.type_of(shape.pool).kind == "zone"
            if one_zone:
                em.line(f"if st.zone_visible({scope.player}, {self.exprs.ex(shape.pool, scope)}):")
            else:
                em.line(f"if st.all_visible({scope.player}, {pool}):")
            with em.block():
                by_kind()
            em.line("else:")
            with em.block():
                # Cards of several zones, or turned up, may be seen though others are not:
                # each is named as he sees it. An unseen zone without faces hides them all.
                if one_zone and not self.cx.uses_faces:
                    by_place()
                else:
                    by_kind(each_card=True)

    def _value_filter(self, conjuncts: list[n.Expr], ch: n.Choice, scope: Scope) -> str:
        """A lambda testing conditions on a group's shared value alone."""
        value = self.fresh(names.GROUP_VALUE)
        overrides = dict(scope.overrides)
        for cj in conjuncts:
            for x in n.walk(cj):
                if isinstance(x, n.Attribute) and isinstance(x.obj, n.Name) and x.obj.id == ch.name:
                    overrides[id(x)] = value
        inner = Scope(scope.names, scope.player, overrides, scope.hoist, scope.varying | {value})
        return f"(lambda {value}: " + " and ".join(self.exprs.ex(cj, inner) for cj in conjuncts) + ")"

    def _emit_loop(
        self,
        shape: n.ChoiceShape,
        py: str,
        scope: Scope,
        key_parts: list[str],
        value_ok: str | None = None,
        counted: bool = True,
    ) -> int:
        """Open the loop of a non-card choice; push its key; return the blocks opened.

        Its rounds count against the budget (R507) when ``counted`` (a choice after another:
        choices multiply), and always for numbers and groups of cards, countless alone; the
        first choice's values or players are as many as the list or the players, at most."""
        em = self.em
        if isinstance(shape, n.NumberChoice):
            # Every number is an action: they count against the step budget, once per loop.
            low, high = self.exprs.ex(shape.low, scope), self.exprs.ex(shape.high, scope)
            em.line(f"for {py} in range({low}, {high} + 1):")
            em.indent += 1
            self._count_choice(shape)
            key_parts.append(py)
            return 1
        if isinstance(shape, n.ValueChoice):
            em.line(f"for {py} in range({len(self.sy.values[shape.type_name].members)}):")
            em.indent += 1
            if counted:
                self._count_choice(shape)
            key_parts.append(py)
            return 1
        if isinstance(shape, n.PlayerChoice):
            em.line(f"for {py} in {self.exprs.ex(shape.pool, scope)}:")
            em.indent += 1
            if counted:
                self._count_choice(shape)
            key_parts.append(py)
            return 1
        assert isinstance(shape, n.POOLED_CHOICES)  # the shapes above are all those without a pool
        pool = self.fresh(names.POOL)
        em.line(f"{pool} = {self.exprs.cards(shape.pool, scope)}")
        if self._pool_visibility(shape.pool) is not True:
            # A group is chosen by its kinds, which name its cards: never from cards the
            # chooser cannot see (a single card is chosen by its place instead).
            em.line(f"if not st.all_visible({scope.player}, {pool}):")
            with em.block():
                em.line(f"st.hidden_group({scope.player})")
        size = self.group_size(shape, scope)
        if self._step_from is not None and isinstance(shape, n.CardsChoice):
            # Its groups are counted before any is made: past the room left, they are offered card
            # by card at once, as they would be after that many rounds of listing them.
            em.line(f"if op_count_combinations({pool}, KIND, {size}) > {self._step_room}:")
            with em.block():
                em.line("op_step_instead()")
        gen = self.groups(shape, pool, size, scope, value_ok)
        em.line(f"for {py} in {gen}:")
        em.indent += 1
        self._count_choice(shape)
        # Sorted kinds: the same cards make the same action, whatever order they lie in.
        key_parts.append(f"tuple(sorted(map(KIND.__getitem__, {py})))")  # map: no generator per group
        return 1

    def group_size(self, shape: n.ChoiceShape, scope: Scope) -> str:
        """Python for how many cards a group choice takes: a number, None (one or more), or for
        'LOW to HIGH cards' a range of sizes."""
        count = getattr(shape, "count", None)
        high = getattr(shape, "high", None)
        if count is None:
            return "None"
        if high is not None:
            return f"range({self.exprs.ex(count, scope)}, {self.exprs.ex(high, scope)} + 1)"
        return self.exprs.ex(count, scope)

    def _count_choice(self, shape: n.ChoiceShape) -> None:
        """Count one round of a choice's loop against the step budget (R507), whatever it chooses:
        numbers, values, players, cards or groups of cards. Choices multiply (nine values of a list
        of 14 are 14 ** 9 rounds), and a hand's groups may be countless (2 ** 30 subsets of 30 cards)."""
        self.em.line("st.steps += 1")
        if self._step_from is not None and not isinstance(shape, n.CardChoice):
            self.em.line(f"if st.steps - {self._step_from} > {self._step_room}:")
            with self.em.block():
                self.em.line("op_step_instead()")
        self.em.line(f"if st.steps > {STEP_BUDGET}:")
        with self.em.block():
            self.em.line(f"st.too_many_choices({_CHOICE_KIND.get(type(shape), 'groups')!r})")

    def groups(self, shape: n.ChoiceShape, pool: str, size: str, scope: Scope, value_ok: str | None = None) -> str:
        """Python for the groups of cards a choice of this shape offers from ``pool``."""
        wild = self.wild(shape, scope.player)
        if isinstance(shape, n.CardsChoice):
            return f"op_combinations({pool}, KIND, {size})"
        attribute = self.ref(shape)
        assert isinstance(attribute, AttributeSym)  # the checker resolves a group's attribute
        table = names.ATTRIBUTE(attribute.index)  # the attribute the group's cards share, or differ by
        if isinstance(shape, n.SameChoice):
            return f"op_same_groups({pool}, KIND, {table}, {size}, {wild}, {value_ok or 'None'})"
        if isinstance(shape, n.ValuedChoice):
            value = self.exprs.ex(shape.value, scope)
            return f"op_valued_groups({pool}, KIND, {table}, {value}, {size}, {wild})"
        assert isinstance(shape, n.DifferentChoice)
        if shape.sequence:  # a run: consecutive in the attribute's order, sharing one value of another
            return f"op_run_groups({pool}, KIND, {table}, {self._sharing(shape)}, {size}, {wild}, {shape.width})"
        return f"op_different_groups({pool}, KIND, {table}, {size}, {wild})"

    def _sharing(self, shape: n.DifferentChoice) -> str:
        shared = self.c.symbols.attributes.get(shape.sharing or "")
        return "None" if shared is None else names.ATTRIBUTE(shared.index)

    def run_part(self, shape: n.DifferentChoice, cards: str, size: str, scope: Scope) -> str:
        """Python telling whether ``cards`` may be part of a run of this shape (picked card by card)."""
        attribute = self.ref(shape)
        assert isinstance(attribute, AttributeSym)  # the checker resolves a run's attribute
        table, wild = names.ATTRIBUTE(attribute.index), self.wild(shape, scope.player)
        return f"op_run_part({cards}, {table}, {self._sharing(shape)}, {wild}, {shape.width}, {size})"

    def _pool_visibility(self, pool: n.Expr) -> bool | None:
        """Whether the acting player surely sees (True) or surely does not see (False) a pool's cards."""
        ref = self.ref(pool)
        if isinstance(ref, ZoneRef):
            z = ref.zone
            if z.visibility == "owner" and z.per_player and ref.owner is None:
                return True  # the acting player's own zone: he sees its cards, even face down
            if self.cx.uses_faces:
                return None  # a card turned up or down lies otherwise than its zone shows it
            if z.visibility == "others" and ref.owner is None:
                return False  # his own zone 'seen by others': all see its cards but him
            if z.visibility == "public":
                return True
            if z.visibility == "hidden":
                return False
        return None

    def _emit_emission(self, a: n.ActionDecl, info: ActionInfo, bid: bool, scope: Scope, key_parts: list[str]) -> None:
        em = self.em
        idx = info.index
        opened = 0
        if bid and a.strength is not None:  # (a call, without one, leaves the standing bid)
            strength = self.fresh(names.SHOWN)
            em.line(f"{strength} = {self.exprs.ex(a.strength, scope)}")
            em.line(f"if st.auction[0] is None or {strength} > st.auction[0]:")
            em.indent += 1
            opened += 1
        key = "(" + "".join(k + ", " for k in key_parts) + ")"
        if info.static_label:
            if not key_parts:
                em.line(f"out.append({names.ACTION_CONST(idx)})")  # an action with no choice is always the same object
            else:
                # One card chosen: the card is the cache's key, with no tuple to build.
                info.single = len(key_parts) == 1 and isinstance(a.choices[0].shape, n.CardChoice)
                em.line(f"out.append({names.ACTION_CACHE(idx)}[{key_parts[0] if info.single else key}])")
        else:
            assert a.label is not None
            labels = []
            scope = self._unseen_choices_read_none(a, scope, key_parts)
            for viewer in (scope.player, "None"):
                show = f"st.show_card({viewer}, {{}})" if viewer != "None" else "st.public_card({})"
                shown = self._places_named(a, scope, key_parts) if viewer == scope.player else scope
                labels.append(
                    self.exprs.text(a.label, shown, show)
                    if isinstance(a.label, n.Text)
                    else self.exprs.show(a.label, shown, show)
                )
            seen_by_all = f"{labels[1]} if st.log is not None else None"  # the label a log shows
            em.line(f"out.append(Action({names.ACTION_DEF(idx)}, {key}, {labels[0]}, {seen_by_all}))")
        em.indent -= opened

    def _unseen_choices_read_none(self, a: n.ActionDecl, scope: Scope, key_parts: list[str]) -> Scope:
        """``scope`` for a label computed with the state, where each attribute of a card chosen
        by its place reads none, as in a label made from the choices alone: its chooser does
        not see the card, and the others read the label he was offered (the card itself
        already reads 'a hidden card')."""
        overrides = dict(scope.overrides)
        assert a.label is not None
        for x in n.walk(a.label):
            if not isinstance(x, n.Attribute):
                continue
            ref = self.c.refs.get(id(x))
            chosen = self.c.refs.get(id(x.obj)) if isinstance(x.obj, n.Name) else None
            if not isinstance(ref, (CardAttrRef, CardVarRef)):
                continue
            if not isinstance(chosen, LocalRef):
                continue
            at = [i for i, ch in enumerate(a.choices) if chosen.local.decl is ch]
            if not at:
                continue
            key = key_parts[at[0]]
            assert isinstance(x.obj, n.Name)  # a LocalRef was found for it
            if key == scope.names[x.obj.id]:
                continue  # chosen by its kind, always: a card its chooser sees
            if key.startswith("-1 - "):
                overrides[id(x)] = "None"  # chosen by its place, always
            else:  # by its kind where he sees it (key >= 0), by its place where he does not
                overrides[id(x)] = f"({self.exprs.ex(x, scope)} if {key} >= 0 else None)"
        return scope.with_overrides(overrides)

    def _places_named(self, a: n.ActionDecl, scope: Scope, key_parts: list[str]) -> Scope:
        """``scope`` for the chooser's label computed with the state, where a card chosen by its
        place and shown as such reads by its place ('hidden card 2'), as in a label made from the
        choices alone: two of them must read apart, for him and for a record."""
        assert a.label is not None
        overrides = dict(scope.overrides)
        shown = [a.label] + [p for x in n.walk(a.label) if isinstance(x, n.Text) for p in x.parts]
        for x in shown:
            if not isinstance(x, n.Name):
                continue
            chosen = self.c.refs.get(id(x))
            at = [i for i, ch in enumerate(a.choices) if isinstance(chosen, LocalRef) and chosen.local.decl is ch]
            if not at or not isinstance(a.choices[at[0]].shape, n.CardChoice):
                continue
            key = key_parts[at[0]]
            if key != scope.names[x.id]:  # chosen by its place where he does not see it
                overrides[id(x)] = f"({scope.names[x.id]} if {key} >= 0 else PLACE(-({key})))"
        return scope.with_overrides(overrides)

    def finish(self, item: n.ActionDecl | n.PassDecl, info: ActionInfo, bid: bool) -> None:
        """Emit the action's apply, label and (for a bid) strength functions."""
        idx = info.index
        choices = item.choices if isinstance(item, n.ActionDecl) else ()
        scope = Scope()
        block = self.cx.function(names.APPLY(idx), ["st", "p", "key"], item.span, info.construct)
        self._emit_resolve(choices, scope)
        # What was chosen, shown later (describe_last) as each player sees it.
        self.em.line("st.last_args = (" + "".join(scope.names[ch.name] + ", " for ch in choices) + ")")
        self.stmts.body(item.body, scope)
        self.cx.end_function(block)
        self.labels.emit_label(item, info, choices)
        if bid and isinstance(item, n.ActionDecl) and item.strength is not None:
            scope = Scope()
            block = self.cx.function(
                names.STRENGTH(idx), ["st", "p", "key"], item.strength.span, f"{info.construct}: its strength"
            )
            self._emit_resolve(choices, scope)
            self.em.line(f"return {self.exprs.ex(item.strength, scope)}")
            self.cx.end_function(block)

    def _emit_resolve(self, choices: tuple[n.Choice, ...], scope: Scope) -> None:
        """Emit code turning an action's key back into the values of its choices."""
        em = self.em
        for i, ch in enumerate(choices):
            py = self.fresh()
            shape = ch.shape
            em.at(ch.span)
            if isinstance(shape, (n.NumberChoice, n.ValueChoice, n.PlayerChoice)):
                em.line(f"{py} = key[{i}]")
            elif isinstance(shape, n.CardChoice):
                pool = self.exprs.cards(shape.pool, scope)
                find = f"key[{i}]" if self.layout.unique else f"op_find_kind({pool}, KIND, key[{i}])"
                if self._pool_visibility(shape.pool) is True:
                    em.line(f"{py} = {find}")  # a seen card is always chosen by its kind
                else:
                    em.line(f"{py} = {find} if key[{i}] >= 0 else {pool}[len({pool}) + key[{i}]]")
            else:
                assert isinstance(shape, n.POOLED_CHOICES)  # the shapes above are all those without a pool
                pool = self.exprs.cards(shape.pool, scope)
                em.line(
                    f"{py} = list(key[{i}])" if self.layout.unique else f"{py} = op_find_kinds({pool}, KIND, key[{i}])"
                )
            scope.names[ch.name] = py


#: An attribute table read at a card, as the compiler writes it: ``A3[(v12)]``.
_ATTRIBUTE_READ = re.compile(rf"(?<![\w.]){names.ATTRIBUTE.text}\d+\[\(\w+\)\]")


def action_clauses(a: n.ActionDecl) -> list[tuple[n.Expr, n.Expr | None, int]]:
    """An action's conditions, in order: each with its reason (None: none given) and its
    level, the number of choices made when it is tested (the last one it or its reason uses)."""
    found: list[tuple[n.Expr, n.Expr | None]] = [(cj, None) for cj in _conjuncts(a.when)]
    found += [(r.cond, r.reason) for r in a.requires if not r.able and not r.must]
    return _levelled(a, found)


def able_clauses(a: n.ActionDecl) -> list[tuple[n.Expr, n.Expr | None, int]]:
    """An action's ``require if able`` conditions, as ``action_clauses`` gives the others."""
    return _levelled(a, [(r.cond, r.reason) for r in a.requires if r.able])


def must_clauses(a: n.ActionDecl) -> list[tuple[n.Expr, n.Expr | None, int]]:
    """An action's ``must if able`` conditions (binding its whole phase), as ``action_clauses`` gives the others."""
    return _levelled(a, [(r.cond, r.reason) for r in a.requires if r.must])


def _levelled(a: n.ActionDecl, found: list[tuple[n.Expr, n.Expr | None]]) -> list[tuple[n.Expr, n.Expr | None, int]]:
    out = []
    for cond, reason in found:
        used = _names_used(cond) | (set() if reason is None else _names_used(reason))
        level = 0
        for i, ch in enumerate(a.choices):
            if ch.name in used:
                level = i + 1
        out.append((cond, reason, level))
    return out


def _conjuncts(e: n.Expr | None) -> list[n.Expr]:
    if e is None:
        return []
    if isinstance(e, n.BoolOp) and e.op == "and":
        return _conjuncts(e.left) + _conjuncts(e.right)
    return [e]


def _names_used(e: n.Expr) -> set[str]:
    return {x.id for x in n.walk(e) if isinstance(x, n.Name)}


def _only_through(e: n.Expr, name: str, attr: str) -> bool:
    """Whether ``e`` uses the choice ``name`` only as ``name.attr`` (and uses it at all)."""
    uses = sum(1 for x in n.walk(e) if isinstance(x, n.Name) and x.id == name)
    via = sum(
        1
        for x in n.walk(e)
        if isinstance(x, n.Attribute) and x.name == attr and isinstance(x.obj, n.Name) and x.obj.id == name
    )
    return uses > 0 and uses == via


#: What a choice of each shape chooses, for the hint of R507 (groups of cards otherwise).
_CHOICE_KIND = {n.NumberChoice: "numbers", n.ValueChoice: "values", n.PlayerChoice: "players", n.CardChoice: "cards"}
