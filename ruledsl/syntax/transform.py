"""Turn Lark parse trees into nodes: one Transformer method per grammar rule, grouped by concern."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from lark import Token, Transformer, Tree, UnexpectedCharacters, UnexpectedInput, UnexpectedToken, v_args
from lark.exceptions import VisitError
from lark.indenter import DedentError

from ruledsl.syntax import nodes as n
from ruledsl.syntax.diagnosis import describe_expected
from ruledsl.syntax.grammar import grammar
from ruledsl.syntax.limits import MAX_NUMBER, check_depth
from ruledsl.syntax.spans import meta_span, token_span
from ruledsl.text.errors import Diagnostic, ParseError
from ruledsl.text.source import Pos, Source, Span


def _fail(source: Source, code: str, message: str, span: Span, hint: str | None = None) -> ParseError:
    return ParseError([Diagnostic(code, message, span, hint, source=source)])


def _with_meta(method: Callable[..., Any]) -> Callable[..., Any]:
    return v_args(meta=True, inline=True)(method)


class _Tokens:
    """Read the tokens of a rule: names, strings with the expressions inside them, and numbers."""

    source: Source
    base: Pos | None  # where an expression inside a string starts, or None

    def _span(self, meta: Any) -> Span:
        return meta_span(self.source, meta, self.base)

    def _name(self, token: Token) -> str:
        return str(token)

    def _string(self, token: Token) -> str:
        raw = str(token)[1:-1]
        out = []
        i = 0
        while i < len(raw):
            ch = raw[i]
            if ch == "\\" and i + 1 < len(raw):
                nxt = raw[i + 1]
                out.append({"n": "\n", "t": "\t"}.get(nxt, nxt))
                i += 2
                continue
            out.append(ch)
            i += 1
        return "".join(out)

    def _template(self, token: Token) -> n.Text:
        """Split a string token into literal text and ``{expr}`` parts."""
        raw = str(token)[1:-1]
        parts: list[str | n.Expr] = []
        literal: list[str] = []
        i = 0
        base_col = (token.column or 1) + 1
        base_offset = (token.start_pos or 0) + 1
        while i < len(raw):
            ch = raw[i]
            if ch == "\\" and i + 1 < len(raw):
                nxt = raw[i + 1]
                literal.append({"n": "\n", "t": "\t"}.get(nxt, nxt))
                i += 2
            elif ch in "{}" and raw[i + 1 : i + 2] == ch:
                literal.append(ch)
                i += 2
            elif ch == "{":
                end = self._closing_brace(raw, i, token)
                if literal:
                    parts.append("".join(literal))
                    literal = []
                inner = raw[i + 1 : end]
                base = Pos(token.line or 1, base_col + i + 1, base_offset + i + 1)
                parts.append(self._inner_expr(inner, base, token))
                i = end + 1
            elif ch == "}":
                span = Span(
                    Pos(token.line or 1, base_col + i, base_offset + i), Pos(token.line or 1, base_col + i + 1, 0)
                )
                raise _fail(
                    self.source,
                    "E110",
                    "'}' without an opening '{' in this string",
                    span,
                    "write '}}' for a '}' in text",
                )
            else:
                literal.append(ch)
                i += 1
        if literal:
            parts.append("".join(literal))
        return n.Text(
            parts=tuple(parts),
            span=token_span(self.source, token) if self.base is None else self._token_span_in_base(token),
        )

    def _token_span_in_base(self, token: Token) -> Span:
        assert self.base is not None
        return Span(
            Pos(self.base.line, self.base.col + (token.column or 1) - 1, self.base.offset + (token.start_pos or 0)),
            Pos(self.base.line, self.base.col + (token.end_column or 1) - 1, self.base.offset + (token.end_pos or 0)),
        )

    def _closing_brace(self, raw: str, start: int, token: Token) -> int:
        depth = 0
        for j in range(start, len(raw)):
            if raw[j] == "{":
                depth += 1
            elif raw[j] == "}":
                depth -= 1
                if depth == 0:
                    return j
        col = (token.column or 1) + 1 + start
        span = Span(Pos(token.line or 1, col, 0), Pos(token.line or 1, col + 1, 0))
        raise _fail(
            self.source, "E110", "'{' without a closing '}' in this string", span, "write '{{' for a '{' in text"
        )

    def _inner_expr(self, inner: str, base: Pos, token: Token) -> n.Expr:
        if not inner.strip():
            span = Span(base, Pos(base.line, base.col + 1, base.offset + 1))
            raise _fail(
                self.source,
                "E110",
                "empty '{}' in this string",
                span,
                "put an expression between the braces, such as {c}",
            )
        try:
            tree = grammar().parse(inner, start="expr")
        except UnexpectedInput as exc:
            col = base.col + max(0, (getattr(exc, "column", 1) or 1) - 1)
            span = Span(Pos(base.line, col, base.offset), Pos(base.line, col + 1, base.offset))
            if isinstance(exc, UnexpectedCharacters) and inner[exc.pos_in_stream :].startswith('"'):
                hint = "an expression in a string cannot contain another string; name it with 'define'"
            elif isinstance(exc, UnexpectedToken):
                hint = f"expected {describe_expected(set(exc.expected))}"
            else:
                hint = None
            raise _fail(
                self.source, "E110", f"cannot read the expression '{{{inner}}}' in this string", span, hint
            ) from None
        except DedentError:
            span = Span(base, Pos(base.line, base.col + len(inner), base.offset))
            raise _fail(self.source, "E110", f"cannot read the expression '{{{inner}}}' in this string", span) from None
        check_depth(self.source, tree, base)
        result = to_nodes(self.source, tree, base)
        assert isinstance(result, n.Expr)
        return result

    def _int(self, token: Token) -> int:
        text = str(token)
        if len(text) > 10 or int(text) > MAX_NUMBER:
            span = token_span(self.source, token) if self.base is None else self._token_span_in_base(token)
            raise _fail(self.source, "E112", f"number too large (at most {MAX_NUMBER:,})", span)
        return int(text)


class _Declarations(_Tokens):
    """Build the declarations of a file: header, options, values, types, deck, zones, variables, phases..."""

    @_with_meta
    def game_file(self, meta: Any, header: n.GameHeader, *decls: n.Decl) -> n.GameFile:
        return n.GameFile(header=header, decls=tuple(decls), span=self._span(meta))

    @_with_meta
    def game_header(self, meta: Any, name: Token) -> n.GameHeader:
        return n.GameHeader(name=self._string(name), span=self._span(meta))

    @_with_meta
    def players_decl(self, meta: Any, low: n.Expr, high: n.Expr | None) -> n.PlayersDecl:
        # 'players 4' is 'players 4 to 4': one node for both ends, so that fmt writes it back as it was.
        return n.PlayersDecl(low=low, high=low if high is None else high, span=self._span(meta))

    @_with_meta
    def option_decl(self, meta: Any, name: Token, domain: Any, default: n.Expr, doc: str | None) -> n.OptionDecl:
        return n.OptionDecl(name=self._name(name), domain=domain, default=default, doc=doc, span=self._span(meta))

    @_with_meta
    def range_domain(self, meta: Any, low: n.Expr, high: n.Expr) -> n.RangeDomain:
        return n.RangeDomain(low=low, high=high, span=self._span(meta))

    @_with_meta
    def choice_domain(self, meta: Any, *choices: Token) -> n.ChoiceDomain:
        return n.ChoiceDomain(choices=tuple(self._string(c) for c in choices), span=self._span(meta))

    @_with_meta
    def doc_block(self, meta: Any, text: Token) -> str:
        return self._string(text)

    @_with_meta
    def values_decl(self, meta: Any, name: Token, *members: n.ValueMember) -> n.ValuesDecl:
        return n.ValuesDecl(name=self._name(name), members=tuple(members), span=self._span(meta))

    @_with_meta
    def value_member(self, meta: Any, name: Token, display: Token | None) -> n.ValueMember:
        return n.ValueMember(
            name=str(name), display=self._string(display) if display is not None else None, span=self._span(meta)
        )

    @_with_meta
    def attribute_decl(self, meta: Any, name: Token, type_: n.TypeRef) -> n.AttributeDecl:
        return n.AttributeDecl(name=self._name(name), type=type_, span=self._span(meta))

    @_with_meta
    def named_type(self, meta: Any, name: Token) -> n.NamedType:
        return n.NamedType(name=self._name(name), span=self._span(meta))

    @_with_meta
    def card_type(self, meta: Any) -> n.CardType:
        return n.CardType(span=self._span(meta))

    @_with_meta
    def cards_type(self, meta: Any) -> n.CardsType:
        return n.CardsType(span=self._span(meta))

    @_with_meta
    def player_type(self, meta: Any) -> n.PlayerType:
        return n.PlayerType(span=self._span(meta))

    @_with_meta
    def set_type(self, meta: Any, element: n.TypeRef) -> n.SetType:
        return n.SetType(element=element, span=self._span(meta))

    @_with_meta
    def tuple_type(self, meta: Any, *items: n.TypeRef) -> n.TupleType:
        return n.TupleType(items=tuple(items), span=self._span(meta))

    @_with_meta
    def deck_decl(self, meta: Any, *entries: n.Node) -> n.DeckDecl:
        return n.DeckDecl(entries=tuple(entries), span=self._span(meta))

    @_with_meta
    def card_entry(self, meta: Any, copies: n.Expr | None, _mark: Any, name: Token, *rest: Any) -> n.CardEntry:
        assigns = tuple(x for x in rest if isinstance(x, n.CardAssign))
        loops = tuple(x for x in rest if isinstance(x, n.CardLoop))
        return n.CardEntry(name=self._string(name), copies=copies, assigns=assigns, loops=loops, span=self._span(meta))

    def copies(self, children: list[Token]) -> str:
        return str(children[0])

    @_with_meta
    def card_assign(self, meta: Any, name: Token, value: n.Expr) -> n.CardAssign:
        return n.CardAssign(name=self._name(name), value=value, span=self._span(meta))

    @_with_meta
    def card_loop(self, meta: Any, name: Token, low: n.Expr, high: n.Expr) -> n.CardLoop:
        return n.CardLoop(name=self._name(name), low=low, high=high, span=self._span(meta))

    @_with_meta
    def deck_if(self, meta: Any, cond: n.Expr, *rest: Any) -> n.DeckIf:
        else_ = rest[-1] if rest and isinstance(rest[-1], tuple) else ()
        body = tuple(x for x in rest if isinstance(x, n.Node))
        return n.DeckIf(cond=cond, body=body, else_=else_, span=self._span(meta))

    def deck_else(self, children: list[Any]) -> tuple[n.Node, ...]:
        return tuple(children)

    @_with_meta
    def deck_repeat(self, meta: Any, count: n.Expr, *body: n.Node) -> n.DeckRepeat:
        return n.DeckRepeat(count=count, body=tuple(body), span=self._span(meta))

    @_with_meta
    def zone_decl(
        self,
        meta: Any,
        name: Token,
        scope: str,
        visibility: str,
        order: tuple[str, ...] | None,
        unlisted: bool | None,
    ) -> n.ZoneDecl:
        return n.ZoneDecl(
            name=self._name(name),
            per_player=scope == "per player",
            visibility=visibility,
            sorted_by=order or (),
            unlisted_when_empty=bool(unlisted),
            span=self._span(meta),
        )

    def zone_order(self, children: list[Token]) -> tuple[str, ...]:
        return tuple(self._name(c) for c in children)

    def zone_unlisted(self, children: list[Token]) -> bool:
        return True

    def var_label(self, children: list[Token]) -> str:
        return self._string(children[0])

    def zone_scope(self, children: list[Token]) -> str:
        return " ".join(str(c) for c in children)

    def visibility(self, children: list[Token]) -> str:
        # 'seen by mover': each card seen by the player who moved it there (zones only);
        # 'seen by others': seen by every player but the zone's owner (zones only).
        return str(children[-1])

    def var_scope(self, children: list[Token]) -> str:
        return str(children[0])

    def unlisted(self, children: list[Token]) -> bool:
        return True

    def for_the_round(self, children: list[Token]) -> bool:
        return True

    @_with_meta
    def var_decl(
        self,
        meta: Any,
        scope: str | None,
        name: Token,
        type_: n.TypeRef | None,
        init: n.Expr,
        visibility: str | None,
        unlisted: bool | None,
        label: str | None,
    ) -> n.VarDecl:
        return n.VarDecl(
            scope=scope or "game",
            name=self._name(name),
            type=type_,
            init=init,
            # A card variable written 'public' is told to every player, even one who cannot see the card
            # ("told"); unwritten, it is seen by whoever sees the card.
            visibility="told" if scope == "card" and visibility == "public" else visibility or "public",
            unlisted=bool(unlisted),
            label=label,
            span=self._span(meta),
        )

    @_with_meta
    def define_decl(
        self, meta: Any, name: Token, params: tuple[n.TypedParam, ...] | None, body: n.Expr
    ) -> n.DefineDecl:
        return n.DefineDecl(name=self._name(name), params=params or (), body=body, span=self._span(meta))

    @_with_meta
    def procedure_decl(
        self, meta: Any, name: Token, params: tuple[n.TypedParam, ...] | None, body: tuple[n.Stmt, ...]
    ) -> n.ProcedureDecl:
        return n.ProcedureDecl(name=self._name(name), params=params or (), body=body, span=self._span(meta))

    def param_list(self, children: list[n.TypedParam]) -> tuple[n.TypedParam, ...]:
        return tuple(children)

    @_with_meta
    def typed_param(self, meta: Any, name: Token, type_: n.TypeRef) -> n.TypedParam:
        return n.TypedParam(name=self._name(name), type=type_, span=self._span(meta))

    @_with_meta
    def trigger_decl(self, meta: Any, var: Token, zone: n.Expr, body: tuple[n.Stmt, ...]) -> n.TriggerDecl:
        owner = None
        if isinstance(zone, n.Attribute) and isinstance(zone.obj, n.Name):
            # `when cs enter p.hand`: p is not looked up but bound, to the zone's owner.
            owner = zone.obj.id
            end = zone.span.end
            width = len(zone.name)  # a NAME token ends the attribute, on one line
            start = Pos(end.line, end.col - width, end.offset - width)
            zone = n.Name(id=zone.name, span=Span(start, end))
        return n.TriggerDecl(var=self._name(var), zone=zone, body=body, owner=owner, span=self._span(meta))

    @_with_meta
    def setup_decl(self, meta: Any, body: tuple[n.Stmt, ...]) -> n.SetupDecl:
        return n.SetupDecl(body=body, span=self._span(meta))

    @_with_meta
    def phase_decl(self, meta: Any, name: Token, *items: n.Node) -> n.PhaseDecl:
        return n.PhaseDecl(name=self._name(name), items=tuple(items), span=self._span(meta))

    @_with_meta
    def auction_decl(self, meta: Any, name: Token, passes: int | None, *items: n.Node) -> n.PhaseDecl:
        return n.PhaseDecl(
            name=self._name(name), items=tuple(items), is_auction=True, passes=passes, span=self._span(meta)
        )

    def until_passes(self, children: list[Token]) -> int:
        return int(children[0])

    @_with_meta
    def together_decl(self, meta: Any, name: Token, who: n.Expr | None, *items: n.Node) -> n.PhaseDecl:
        return n.PhaseDecl(name=self._name(name), items=tuple(items), together=True, who=who, span=self._span(meta))

    @_with_meta
    def all_chosen_handler(self, meta: Any, body: tuple[n.Stmt, ...]) -> n.AllChosenHandler:
        return n.AllChosenHandler(body=body, span=self._span(meta))

    @_with_meta
    def on_enter(self, meta: Any, body: tuple[n.Stmt, ...]) -> n.OnEnter:
        return n.OnEnter(body=body, span=self._span(meta))

    @_with_meta
    def won_handler(self, meta: Any, var: Token, body: tuple[n.Stmt, ...]) -> n.WonHandler:
        return n.WonHandler(var=self._name(var), body=body, span=self._span(meta))

    @_with_meta
    def unsold_handler(self, meta: Any, body: tuple[n.Stmt, ...]) -> n.UnsoldHandler:
        return n.UnsoldHandler(body=body, span=self._span(meta))

    @_with_meta
    def offer_item(self, meta: Any, name: Token, phase: Token) -> n.OfferItem:
        return n.OfferItem(name=self._name(name), phase=self._name(phase), span=self._span(meta))

    @_with_meta
    def all_pass_handler(self, meta: Any, body: tuple[n.Stmt, ...]) -> n.AllPassHandler:
        return n.AllPassHandler(body=body, span=self._span(meta))

    @_with_meta
    def window_decl(self, meta: Any, name: Token, who: n.Expr, *items: n.Node) -> n.WindowDecl:
        return n.WindowDecl(name=self._name(name), who=who, items=tuple(items), span=self._span(meta))

    @_with_meta
    def round_end_decl(self, meta: Any, body: tuple[n.Stmt, ...]) -> n.RoundEndDecl:
        return n.RoundEndDecl(body=body, span=self._span(meta))

    @_with_meta
    def require_decl(self, meta: Any, cond: n.Expr, message: Token) -> n.RequireDecl:
        return n.RequireDecl(cond=cond, message=self._template(message), span=self._span(meta))

    @_with_meta
    def label_decl(self, meta: Any, var: Token, text: n.Expr) -> n.LabelDecl:
        return n.LabelDecl(var=self._name(var), text=text, span=self._span(meta))

    @_with_meta
    def ranking_decl(self, meta: Any, *keys: n.RankingKey) -> n.RankingDecl:
        return n.RankingDecl(keys=tuple(keys), span=self._span(meta))

    @_with_meta
    def standing_decl(self, meta: Any, *keys: n.RankingKey) -> n.StandingDecl:
        return n.StandingDecl(keys=tuple(keys), span=self._span(meta))

    @_with_meta
    def payoff_decl(self, meta: Any, value: n.Expr, low: n.Expr | None, high: n.Expr | None) -> n.PayoffDecl:
        return n.PayoffDecl(value=value, low=low, high=high, span=self._span(meta))

    @_with_meta
    def highest_key(self, meta: Any, value: n.Expr) -> n.RankingKey:
        return n.RankingKey(order="highest", value=value, span=self._span(meta))

    @_with_meta
    def lowest_key(self, meta: Any, value: n.Expr) -> n.RankingKey:
        return n.RankingKey(order="lowest", value=value, span=self._span(meta))

    @_with_meta
    def finishing_key(self, meta: Any) -> n.RankingKey:
        return n.RankingKey(order="finishing", span=self._span(meta))


class _Actions(_Tokens):
    """Build actions and passes: their choices, conditions, label, strength and effects."""

    def _split_items(
        self, items: tuple[Any, ...]
    ) -> tuple[n.Expr | None, n.Expr | None, tuple[n.RequireClause, ...], tuple[n.Stmt, ...]]:
        found: dict[str, n.Expr] = {}
        requires: list[n.RequireClause] = []
        body: list[n.Stmt] = []
        for item in items:
            if isinstance(item, n.RequireClause):
                if body:
                    # A condition written after an effect would read as tested after it.
                    raise _fail(
                        self.source,
                        "E406",
                        "'require' after an effect: an action's conditions come before its effects",
                        item.span,
                        "they are tested before the action is taken: write the 'require' lines first",
                    )
                requires.append(item)
            elif isinstance(item, tuple) and item and item[0] in ("label", "strength"):
                kind, value, span = item
                if kind in found:
                    raise _fail(
                        self.source,
                        "E202",
                        f"a second '{kind}' in this action",
                        span,
                        f"an action has one {kind}; "
                        f"for a {kind} that depends on the choices, write 'if ... then ... else ...'",
                    )
                found[kind] = value
            else:
                body.append(item)
        return found.get("label"), found.get("strength"), tuple(requires), tuple(body)

    @_with_meta
    def action_decl(
        self,
        meta: Any,
        name: Token,
        choices: tuple[n.Choice, ...] | None,
        otherwise: Any,
        when: n.Expr | None,
        *items: Any,
    ) -> n.ActionDecl:
        label, strength, requires, body = self._split_items(items)
        return n.ActionDecl(
            name=self._name(name),
            choices=choices or (),
            when=when,
            requires=requires,
            label=label,
            strength=strength,
            body=body,
            otherwise=otherwise is not None,
            span=self._span(meta),
        )

    def otherwise(self, children: list[Any]) -> bool:
        return True

    @_with_meta
    def pass_decl(self, meta: Any, *items: Any) -> n.PassDecl:
        label, _strength, requires, body = self._split_items(items)
        if requires:
            raise _fail(
                self.source,
                "E406",
                "a pass has no conditions: 'require' belongs to an action",
                requires[0].span,
                "passing is always possible; move the condition to the action it is about",
            )
        return n.PassDecl(label=label, body=body, span=self._span(meta))

    @_with_meta
    def require_clause(self, meta: Any, able: Any, cond: n.Expr, reason: n.Expr) -> n.RequireClause:
        return n.RequireClause(cond=cond, reason=reason, able=able is not None, span=self._span(meta))

    @_with_meta
    def must_clause(self, meta: Any, cond: n.Expr, reason: n.Expr) -> n.RequireClause:
        return n.RequireClause(cond=cond, reason=reason, must=True, span=self._span(meta))

    def able(self, meta: Any) -> bool:
        return True

    @_with_meta
    def label_clause(self, meta: Any, value: n.Expr) -> tuple[str, n.Expr, Span]:
        return ("label", value, self._span(meta))

    @_with_meta
    def strength_clause(self, meta: Any, value: n.Expr) -> tuple[str, n.Expr, Span]:
        return ("strength", value, self._span(meta))

    def choice_list(self, children: list[n.Choice]) -> tuple[n.Choice, ...]:
        return tuple(children)

    @_with_meta
    def choice(self, meta: Any, name: Token, shape: n.ChoiceShape) -> n.Choice:
        return n.Choice(name=self._name(name), shape=shape, span=self._span(meta))

    @_with_meta
    def card_choice(self, meta: Any, pool: n.Expr, wild: str | None) -> n.CardChoice:
        return n.CardChoice(pool=pool, wild=wild, span=self._span(meta))

    @_with_meta
    def number_choice(self, meta: Any, low: n.Expr, high: n.Expr) -> n.NumberChoice:
        return n.NumberChoice(low=low, high=high, span=self._span(meta))

    @_with_meta
    def player_choice(self, meta: Any, pool: n.Expr) -> n.PlayerChoice:
        return n.PlayerChoice(pool=pool, span=self._span(meta))

    @_with_meta
    def value_choice(self, meta: Any, name: Token) -> n.ValueChoice:
        return n.ValueChoice(type_name=self._name(name), span=self._span(meta))

    @_with_meta
    def cards_choice(self, meta: Any, count: n.Expr | None, pool: n.Expr, wild: str | None) -> n.CardsChoice:
        return n.CardsChoice(count=count, pool=pool, wild=wild, span=self._span(meta))

    @_with_meta
    def cards_range_choice(self, meta: Any, low: n.Expr, high: n.Expr, pool: n.Expr, wild: str | None) -> n.CardsChoice:
        return n.CardsChoice(count=low, high=high, pool=pool, wild=wild, span=self._span(meta))

    @_with_meta
    def same_choice(self, meta: Any, count: n.Expr | None, attr: Token, pool: n.Expr, wild: str | None) -> n.SameChoice:
        return n.SameChoice(count=count, attr=self._name(attr), pool=pool, wild=wild, span=self._span(meta))

    @_with_meta
    def same_range_choice(
        self, meta: Any, low: n.Expr, high: n.Expr, attr: Token, pool: n.Expr, wild: str | None
    ) -> n.SameChoice:
        return n.SameChoice(count=low, high=high, attr=self._name(attr), pool=pool, wild=wild, span=self._span(meta))

    @_with_meta
    def valued_choice(
        self, meta: Any, count: n.Expr | None, attr: Token, value: n.Expr, pool: n.Expr, wild: str | None
    ) -> n.ValuedChoice:
        return n.ValuedChoice(
            count=count, attr=self._name(attr), value=value, pool=pool, wild=wild, span=self._span(meta)
        )

    @_with_meta
    def different_choice(
        self, meta: Any, count: n.Expr | None, attr: Token, pool: n.Expr, wild: str | None
    ) -> n.DifferentChoice:
        return n.DifferentChoice(count=count, attr=self._name(attr), pool=pool, wild=wild, span=self._span(meta))

    @_with_meta
    def run_choice(
        self,
        meta: Any,
        count: n.Expr | None,
        width: int | None,
        attr: Token,
        sharing: str | None,
        pool: n.Expr,
        wild: str | None,
    ) -> n.DifferentChoice:
        return self._run(meta, count, None, width, attr, sharing, pool, wild)

    @_with_meta
    def run_range_choice(
        self,
        meta: Any,
        low: n.Expr,
        high: n.Expr,
        width: int | None,
        attr: Token,
        sharing: str | None,
        pool: n.Expr,
        wild: str | None,
    ) -> n.DifferentChoice:
        return self._run(meta, low, high, width, attr, sharing, pool, wild)

    def _run(
        self,
        meta: Any,
        low: n.Expr | None,
        high: n.Expr | None,
        width: int | None,
        attr: Token,
        sharing: str | None,
        pool: n.Expr,
        wild: str | None,
    ) -> n.DifferentChoice:
        return n.DifferentChoice(
            width=width or 1,
            count=low,
            high=high,
            attr=self._name(attr),
            pool=pool,
            wild=wild,
            sequence=True,
            sharing=sharing,
            span=self._span(meta),
        )

    def sharing(self, children: list[Token]) -> str:
        return self._name(children[0])

    def run_width(self, children: list[Token]) -> int:
        return 2 if str(children[0]) == "pairs" else 3

    def wild(self, children: list[Token]) -> str:
        return self._name(children[0])


class _Statements(_Tokens):
    """Build statements: the effects in a block."""

    def block(self, children: list[n.Stmt]) -> tuple[n.Stmt, ...]:
        return tuple(children)

    @_with_meta
    def move_stmt(self, meta: Any, what: n.Expr, to: n.Expr, placement: str | None, facing: str | None) -> n.Move:
        return n.Move(what=what, to=to, placement=placement or "top", facing=facing, span=self._span(meta))

    def placement(self, children: list[Token]) -> str:
        return str(children[1])

    def facing(self, children: list[Token]) -> str:
        return str(children[1])

    @_with_meta
    def deal_stmt(
        self, meta: Any, count: n.Expr, source: n.Expr, target: Token, start: n.Expr | None, facing: str | None
    ) -> n.Deal:
        return n.Deal(
            count=count, source=source, target=self._name(target), start=start, facing=facing, span=self._span(meta)
        )

    @_with_meta
    def shuffle_stmt(self, meta: Any, zone: n.Expr) -> n.Shuffle:
        return n.Shuffle(zone=zone, span=self._span(meta))

    @_with_meta
    def cut_stmt(self, meta: Any, zone: n.Expr) -> n.Cut:
        return n.Cut(zone=zone, span=self._span(meta))

    @_with_meta
    def reveal_stmt(self, meta: Any, what: n.Expr) -> n.Reveal:
        return n.Reveal(what=what, span=self._span(meta))

    @_with_meta
    def show_stmt(self, meta: Any, what: n.Expr, to: n.Expr) -> n.Show:
        return n.Show(what=what, to=to, span=self._span(meta))

    @_with_meta
    def turn_face_stmt(self, meta: Any, _turn: Token, way: Token, what: n.Expr) -> n.TurnFace:
        return n.TurnFace(up=str(way) == "up", what=what, span=self._span(meta))

    @_with_meta
    def let_stmt(self, meta: Any, name: Token, value: n.Expr) -> n.Let:
        return n.Let(name=self._name(name), value=value, span=self._span(meta))

    @_with_meta
    def set_stmt(self, meta: Any, target: n.Expr, value: n.Expr) -> n.SetStmt:
        return n.SetStmt(target=target, value=value, span=self._span(meta))

    @_with_meta
    def add_stmt(self, meta: Any, value: n.Expr, target: n.Expr) -> n.Add:
        return n.Add(value=value, target=target, span=self._span(meta))

    @_with_meta
    def subtract_stmt(self, meta: Any, value: n.Expr, target: n.Expr) -> n.Subtract:
        return n.Subtract(value=value, target=target, span=self._span(meta))

    @_with_meta
    def stop_stmt(self, meta: Any) -> n.Stop:
        return n.Stop(span=self._span(meta))

    @_with_meta
    def again_stmt(self, meta: Any) -> n.Again:
        return n.Again(span=self._span(meta))

    @_with_meta
    def end_turn_stmt(self, meta: Any) -> n.EndTurn:
        return n.EndTurn(span=self._span(meta))

    @_with_meta
    def end_round_stmt(self, meta: Any) -> n.EndRound:
        return n.EndRound(span=self._span(meta))

    @_with_meta
    def end_game_stmt(self, meta: Any, outcome: Any) -> n.EndGame:
        if outcome == "draw":
            return n.EndGame(draw=True, span=self._span(meta))
        if isinstance(outcome, tuple):
            field = outcome[0]
            return n.EndGame(**{field: outcome[1]}, span=self._span(meta))
        return n.EndGame(winner=outcome, span=self._span(meta))

    @_with_meta
    def winner_outcome(self, meta: Any, player: n.Expr) -> n.Expr:
        return player

    @_with_meta
    def winners_outcome(self, meta: Any, players: n.Expr) -> tuple[str, n.Expr]:
        return ("winners", players)

    @_with_meta
    def loser_outcome(self, meta: Any, player: n.Expr) -> tuple[str, n.Expr]:
        return ("loser", player)

    @_with_meta
    def losers_outcome(self, meta: Any, players: n.Expr) -> tuple[str, n.Expr]:
        return ("losers", players)

    @_with_meta
    def draw_outcome(self, meta: Any) -> str:
        return "draw"

    @_with_meta
    def go_to_stmt(self, meta: Any, phase: Token, player: n.Expr | None) -> n.GoTo:
        return n.GoTo(phase=self._name(phase), player=player, span=self._span(meta))

    @_with_meta
    def open_stmt(self, meta: Any, window: Token) -> n.Open:
        return n.Open(window=self._name(window), span=self._span(meta))

    @_with_meta
    def reverse_stmt(self, meta: Any) -> n.Reverse:
        return n.Reverse(span=self._span(meta))

    @_with_meta
    def finish_stmt(self, meta: Any, player: n.Expr, for_round: bool | None = None) -> n.Finish:
        return n.Finish(player=player, for_round=bool(for_round), span=self._span(meta))

    @_with_meta
    def say_stmt(self, meta: Any, message: n.Expr) -> n.Say:
        return n.Say(message=message, span=self._span(meta))

    @_with_meta
    def call_stmt(self, meta: Any, name: Token, args: tuple[n.Expr, ...] | None) -> n.CallStmt:
        return n.CallStmt(name=self._name(name), args=args or (), span=self._span(meta))

    @_with_meta
    def if_stmt(self, meta: Any, cond: n.Expr, body: tuple[n.Stmt, ...], *rest: Any) -> n.If:
        branches = [(cond, body)]
        else_: tuple[n.Stmt, ...] = ()
        for item in rest:
            if item is None:
                continue
            if item[0] == "elif":
                branches.append((item[1], item[2]))
            else:
                else_ = item[1]
        return n.If(branches=tuple(branches), else_=else_, span=self._span(meta))

    def elif_clause(self, children: list[Any]) -> tuple[str, n.Expr, tuple[n.Stmt, ...]]:
        return ("elif", children[0], children[1])

    def else_clause(self, children: list[Any]) -> tuple[str, tuple[n.Stmt, ...]]:
        return ("else", children[0])

    @_with_meta
    def for_stmt(
        self, meta: Any, var: Token, iterable: n.Expr, where: n.Expr | None, body: tuple[n.Stmt, ...]
    ) -> n.ForEach:
        return n.ForEach(var=self._name(var), iterable=iterable, where=where, body=body, span=self._span(meta))

    @_with_meta
    def while_stmt(self, meta: Any, cond: n.Expr, body: tuple[n.Stmt, ...]) -> n.While:
        return n.While(cond=cond, body=body, span=self._span(meta))

    @_with_meta
    def repeat_stmt(self, meta: Any, count: n.Expr | None, body: tuple[n.Stmt, ...]) -> n.Repeat:
        return n.Repeat(count=count, body=body, span=self._span(meta))


class _Expressions(_Tokens):
    """Build expressions: operators, quantifiers, literals, zones and players."""

    @_with_meta
    def if_expr(self, meta: Any, cond: n.Expr, then: n.Expr, else_: n.Expr) -> n.IfExpr:
        return n.IfExpr(cond=cond, then=then, else_=else_, span=self._span(meta))

    def _quantifier(self, kind: str, meta: Any, var: Token, iterable: n.Expr, cond: n.Expr) -> n.Quantifier:
        return n.Quantifier(kind=kind, var=self._name(var), iterable=iterable, cond=cond, span=self._span(meta))

    @_with_meta
    def any_expr(self, meta: Any, var: Token, iterable: n.Expr, cond: n.Expr) -> n.Quantifier:
        return self._quantifier("any", meta, var, iterable, cond)

    @_with_meta
    def no_expr(self, meta: Any, var: Token, iterable: n.Expr, cond: n.Expr) -> n.Quantifier:
        return self._quantifier("no", meta, var, iterable, cond)

    @_with_meta
    def every_expr(self, meta: Any, var: Token, iterable: n.Expr, cond: n.Expr) -> n.Quantifier:
        return self._quantifier("every", meta, var, iterable, cond)

    @_with_meta
    def count_expr(self, meta: Any, var: Token, iterable: n.Expr, where: n.Expr | None) -> n.Count:
        return n.Count(var=self._name(var), iterable=iterable, where=where, span=self._span(meta))

    @_with_meta
    def filter_expr(self, meta: Any, var: Token, iterable: n.Expr, where: n.Expr) -> n.Filter:
        return n.Filter(var=self._name(var), iterable=iterable, where=where, span=self._span(meta))

    @_with_meta
    def first_expr(self, meta: Any, var: Token, iterable: n.Expr, where: n.Expr) -> n.First:
        return n.First(var=self._name(var), iterable=iterable, where=where, span=self._span(meta))

    @_with_meta
    def topmost_expr(self, meta: Any, var: Token, iterable: n.Expr, where: n.Expr) -> n.Topmost:
        return n.Topmost(var=self._name(var), iterable=iterable, where=where, span=self._span(meta))

    @_with_meta
    def aggregate_expr(
        self, meta: Any, op: str, value: n.Expr, var: Token, iterable: n.Expr, where: n.Expr | None
    ) -> n.Aggregate:
        return n.Aggregate(
            op=op, value=value, var=self._name(var), iterable=iterable, where=where, span=self._span(meta)
        )

    def aggregate_op(self, children: list[Token]) -> str:
        return str(children[0])

    @_with_meta
    def best_expr(self, meta: Any, var: Token, iterable: n.Expr, op: str, key: n.Expr, where: n.Expr | None) -> n.Best:
        return n.Best(var=self._name(var), iterable=iterable, op=op, key=key, where=where, span=self._span(meta))

    def best_op(self, children: list[Token]) -> str:
        return str(children[0])

    @_with_meta
    def sorted_expr(self, meta: Any, var: Token, iterable: n.Expr, key: n.Expr, descending: str | None) -> n.Sorted:
        return n.Sorted(
            var=self._name(var), iterable=iterable, key=key, descending=descending is not None, span=self._span(meta)
        )

    def descending(self, children: list[Token]) -> str:
        return str(children[0])

    @_with_meta
    def count_sets_expr(self, meta: Any, var: Token, iterable: n.Expr, where: n.Expr) -> n.CountSets:
        return n.CountSets(var=self._name(var), iterable=iterable, where=where, span=self._span(meta))

    @_with_meta
    def subset_sum_expr(
        self, meta: Any, var: Token, iterable: n.Expr, key: n.Expr, op: Token, target: n.Expr
    ) -> n.SubsetSum:
        return n.SubsetSum(
            var=self._name(var), iterable=iterable, key=key, op=str(op), target=target, span=self._span(meta)
        )

    @_with_meta
    def range_literal(self, meta: Any, low: n.Expr, high: n.Expr) -> n.RangeLiteral:
        return n.RangeLiteral(low=low, high=high, span=self._span(meta))

    @_with_meta
    def or_op(self, meta: Any, left: n.Expr, right: n.Expr) -> n.BoolOp:
        return n.BoolOp(op="or", left=left, right=right, span=self._span(meta))

    @_with_meta
    def and_op(self, meta: Any, left: n.Expr, right: n.Expr) -> n.BoolOp:
        return n.BoolOp(op="and", left=left, right=right, span=self._span(meta))

    @_with_meta
    def not_op(self, meta: Any, operand: n.Expr) -> n.Not:
        return n.Not(operand=operand, span=self._span(meta))

    @_with_meta
    def compare(self, meta: Any, left: n.Expr, op: Token, right: n.Expr) -> n.Compare:
        return n.Compare(op=str(op), left=left, right=right, span=self._span(meta))

    @_with_meta
    def member(self, meta: Any, element: n.Expr, collection: n.Expr) -> n.Member:
        return n.Member(element=element, collection=collection, span=self._span(meta))

    @_with_meta
    def not_member(self, meta: Any, element: n.Expr, collection: n.Expr) -> n.Member:
        return n.Member(element=element, collection=collection, negated=True, span=self._span(meta))

    @_with_meta
    def overlaps(self, meta: Any, left: n.Expr, right: n.Expr) -> n.Overlaps:
        return n.Overlaps(left=left, right=right, span=self._span(meta))

    @_with_meta
    def is_empty(self, meta: Any, operand: n.Expr) -> n.IsEmpty:
        return n.IsEmpty(operand=operand, span=self._span(meta))

    @_with_meta
    def is_not_empty(self, meta: Any, operand: n.Expr) -> n.IsEmpty:
        return n.IsEmpty(operand=operand, negated=True, span=self._span(meta))

    @_with_meta
    def is_out(self, meta: Any, operand: n.Expr) -> n.IsOut:
        return n.IsOut(operand=operand, span=self._span(meta))

    @_with_meta
    def is_not_out(self, meta: Any, operand: n.Expr) -> n.IsOut:
        return n.IsOut(operand=operand, negated=True, span=self._span(meta))

    @_with_meta
    def is_face_up(self, meta: Any, operand: n.Expr) -> n.IsSeen:
        return n.IsSeen(operand=operand, span=self._span(meta))

    @_with_meta
    def is_not_face_up(self, meta: Any, operand: n.Expr) -> n.IsSeen:
        return n.IsSeen(operand=operand, negated=True, span=self._span(meta))

    @_with_meta
    def is_seen_by(self, meta: Any, operand: n.Expr, viewer: n.Expr) -> n.IsSeen:
        return n.IsSeen(operand=operand, viewer=viewer, span=self._span(meta))

    @_with_meta
    def is_not_seen_by(self, meta: Any, operand: n.Expr, viewer: n.Expr) -> n.IsSeen:
        return n.IsSeen(operand=operand, viewer=viewer, negated=True, span=self._span(meta))

    @_with_meta
    def is_named(self, meta: Any, operand: n.Expr, name: Token) -> n.IsNamed:
        return n.IsNamed(operand=operand, card_name=self._string(name), span=self._span(meta))

    @_with_meta
    def is_not_named(self, meta: Any, operand: n.Expr, name: Token) -> n.IsNamed:
        return n.IsNamed(operand=operand, card_name=self._string(name), negated=True, span=self._span(meta))

    @_with_meta
    def arith(self, meta: Any, left: n.Expr, op: Token, right: n.Expr) -> n.Arith:
        return n.Arith(op=str(op), left=left, right=right, span=self._span(meta))

    @_with_meta
    def negate(self, meta: Any, operand: n.Expr) -> n.Negate:
        return n.Negate(operand=operand, span=self._span(meta))

    @_with_meta
    def attribute(self, meta: Any, obj: n.Expr, name: Token) -> n.Attribute:
        return n.Attribute(obj=obj, name=self._name(name), span=self._span(meta))

    @_with_meta
    def number(self, meta: Any, token: Token) -> n.Number:
        return n.Number(value=self._int(token), span=self._span(meta))

    @_with_meta
    def text(self, meta: Any, token: Token) -> n.Text:
        return self._template(token)

    @_with_meta
    def yes(self, meta: Any) -> n.BoolLit:
        return n.BoolLit(value=True, span=self._span(meta))

    @_with_meta
    def no(self, meta: Any) -> n.BoolLit:
        return n.BoolLit(value=False, span=self._span(meta))

    @_with_meta
    def none(self, meta: Any) -> n.NoneLit:
        return n.NoneLit(span=self._span(meta))

    @_with_meta
    def name(self, meta: Any, token: Token) -> n.Name:
        return n.Name(id=self._name(token), span=self._span(meta))

    @_with_meta
    def call(self, meta: Any, name: Token, args: tuple[n.Expr, ...]) -> n.Call:
        return n.Call(name=self._name(name), args=args, span=self._span(meta))

    def arg_list(self, children: list[n.Expr | None]) -> tuple[n.Expr, ...]:
        return tuple(c for c in children if c is not None)

    @_with_meta
    def tuple_literal(self, meta: Any, *items: n.Expr) -> n.TupleLiteral:
        return n.TupleLiteral(items=tuple(items), span=self._span(meta))

    @_with_meta
    def set_literal(self, meta: Any, *items: n.Expr | None) -> n.SetLiteral:
        return n.SetLiteral(items=tuple(i for i in items if i is not None), span=self._span(meta))

    @_with_meta
    def top_of(self, meta: Any, zone: n.Expr) -> n.TopOf:
        return n.TopOf(zone=zone, span=self._span(meta))

    @_with_meta
    def top_n_of(self, meta: Any, count: n.Expr, zone: n.Expr) -> n.TopOf:
        return n.TopOf(zone=zone, count=count, span=self._span(meta))

    @_with_meta
    def bottom_of(self, meta: Any, zone: n.Expr) -> n.BottomOf:
        return n.BottomOf(zone=zone, span=self._span(meta))

    @_with_meta
    def bottom_n_of(self, meta: Any, count: n.Expr, zone: n.Expr) -> n.BottomOf:
        return n.BottomOf(zone=zone, count=count, span=self._span(meta))

    @_with_meta
    def all_of(self, meta: Any, zone: n.Expr) -> n.AllOf:
        return n.AllOf(zone=zone, span=self._span(meta))

    @_with_meta
    def all_but_top(self, meta: Any, count: n.Expr, zone: n.Expr) -> n.AllButTop:
        return n.AllButTop(count=count, zone=zone, span=self._span(meta))

    @_with_meta
    def size_of(self, meta: Any, operand: n.Expr) -> n.SizeOf:
        return n.SizeOf(operand=operand, span=self._span(meta))

    @_with_meta
    def position_of(self, meta: Any, operand: n.Expr) -> n.PositionOf:
        return n.PositionOf(operand=operand, span=self._span(meta))

    @_with_meta
    def as_number(self, meta: Any, operand: n.Expr) -> n.PositionOf:
        return n.PositionOf(operand=operand, as_number=True, span=self._span(meta))

    @_with_meta
    def item_of(self, meta: Any, index: n.Expr, operand: n.Expr) -> n.ItemOf:
        return n.ItemOf(index=index, operand=operand, span=self._span(meta))

    @_with_meta
    def run_of(self, meta: Any, zone: n.Expr, key: Token) -> n.RunOf:
        return n.RunOf(zone=zone, key=self._name(key), span=self._span(meta))

    @_with_meta
    def every_card(self, meta: Any) -> n.EveryCard:
        return n.EveryCard(span=self._span(meta))

    @_with_meta
    def acting_player(self, meta: Any) -> n.ActingPlayer:
        return n.ActingPlayer(span=self._span(meta))

    @_with_meta
    def player_after(self, meta: Any, player: n.Expr) -> n.PlayerStep:
        return n.PlayerStep(player=player, step=1, span=self._span(meta))

    @_with_meta
    def player_before(self, meta: Any, player: n.Expr) -> n.PlayerStep:
        return n.PlayerStep(player=player, step=-1, span=self._span(meta))

    @_with_meta
    def all_players(self, meta: Any) -> n.AllPlayers:
        return n.AllPlayers(span=self._span(meta))

    @_with_meta
    def players_after(self, meta: Any, player: n.Expr) -> n.PlayersAfter:
        return n.PlayersAfter(player=player, span=self._span(meta))

    @_with_meta
    def players_starting(self, meta: Any, player: n.Expr) -> n.PlayersStarting:
        return n.PlayersStarting(player=player, span=self._span(meta))

    @_with_meta
    def left_of(self, meta: Any, player: n.Expr) -> n.Neighbour:
        return n.Neighbour(side="left", player=player, span=self._span(meta))

    @_with_meta
    def right_of(self, meta: Any, player: n.Expr) -> n.Neighbour:
        return n.Neighbour(side="right", player=player, span=self._span(meta))

    @_with_meta
    def seat(self, meta: Any, index: n.Expr) -> n.Seat:
        return n.Seat(index=index, span=self._span(meta))


class ToNodes(_Declarations, _Actions, _Statements, _Expressions, Transformer):
    """Turn Lark trees into nodes; one method per grammar rule or alias."""

    def __init__(self, source: Source, base: Pos | None = None) -> None:
        super().__init__(visit_tokens=False)
        self.source = source
        self.base = base


def to_nodes(source: Source, tree: Tree, base: Pos | None = None) -> Any:
    """Turn a parse tree into nodes; a ParseError raised by a rule's method comes out as itself."""
    try:
        return ToNodes(source, base).transform(tree)
    except VisitError as exc:
        if isinstance(exc.orig_exc, ParseError):
            raise exc.orig_exc from None
        raise
