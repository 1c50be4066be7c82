"""Parser tests: text -> nodes, and every syntax error the parser reports (E0xx, E1xx)."""

from __future__ import annotations

import gc
import textwrap
from pathlib import Path
from typing import Any

import pytest

from ruledsl.syntax import nodes as n
from ruledsl.syntax import parser as parser_module
from ruledsl.syntax.parser import MAX_DEPTH, MAX_SOURCE_BYTES, parse, parse_expr
from ruledsl.text.errors import CheckError, Diagnostic, ParseError, RuleDslError
from ruledsl.text.source import Pos, Span

HEADER = 'game "g"\n'


def decls(body: str) -> tuple[n.Decl, ...]:
    """Parse declarations written after a game header."""
    return parse(HEADER + textwrap.dedent(body), "t.game").decls


def stmts(body: str) -> tuple[n.Stmt, ...]:
    """Parse statements written as the body of 'setup:'."""
    block = textwrap.indent(textwrap.dedent(body).strip("\n") + "\n", "    ")
    (setup,) = parse(HEADER + "setup:\n" + block, "t.game").decls
    assert isinstance(setup, n.SetupDecl)
    return setup.body


def syntax_error(text: str) -> Diagnostic:
    """Parse a file that must fail; return its one diagnostic."""
    with pytest.raises(ParseError) as info:
        parse(text, "t.game")
    assert len(info.value.diagnostics) == 1
    return info.value.diagnostics[0]


def where(d: Diagnostic) -> tuple[str, str, int, int]:
    return (d.code, d.message, d.line, d.column)


def span_of(node: n.Node) -> tuple[int, int, int, int]:
    return (node.span.start.line, node.span.start.col, node.span.end.line, node.span.end.col)


# ============================================================================ declarations


class TestDeclarations:
    def test_header_only(self) -> None:
        assert parse('game "Crazy Eights"\n') == n.GameFile(header=n.GameHeader(name="Crazy Eights"), decls=())

    def test_header_after_blank_lines_and_comments(self) -> None:
        assert parse('\n\n# rules\ngame "g"\n').header == n.GameHeader(name="g")

    def test_header_name_keeps_braces_and_reads_escapes(self) -> None:
        # The game's name is plain text: no {expr} in it.
        assert parse('game "a \\"b\\" {c}"\n').name == 'a "b" {c}'

    def test_players(self) -> None:
        assert decls("players 2 to 6\n") == (n.PlayersDecl(low=n.Number(value=2), high=n.Number(value=6)),)
        # One number: exactly that many.
        assert decls("players 4\n") == (n.PlayersDecl(low=n.Number(value=4), high=n.Number(value=4)),)

    def test_option_plain_range_and_choice(self) -> None:
        assert decls(
            """\
            option double = no
            option n: 1 to 20 = 3
            option mode: "one_group", "all" = "all"
                "which groups score"
            """
        ) == (
            n.OptionDecl(name="double", domain=None, default=n.BoolLit(value=False)),
            n.OptionDecl(
                name="n",
                domain=n.RangeDomain(low=n.Number(value=1), high=n.Number(value=20)),
                default=n.Number(value=3),
            ),
            n.OptionDecl(
                name="mode",
                domain=n.ChoiceDomain(choices=("one_group", "all")),
                default=n.Text(parts=("all",)),
                doc="which groups score",
            ),
        )

    def test_values_with_displays_and_numbers(self) -> None:
        assert decls('values rank: Ace "A", 2, King "K"\n') == (
            n.ValuesDecl(
                name="rank",
                members=(
                    n.ValueMember(name="Ace", display="A"),
                    n.ValueMember(name="2"),
                    n.ValueMember(name="King", display="K"),
                ),
            ),
        )

    def test_card_attributes_of_every_type(self) -> None:
        assert decls(
            """\
            card suits: set of suit
            card c: card
            card cs: cards
            card p: player
            card v: number
            """
        ) == (
            n.AttributeDecl(name="suits", type=n.SetType(element=n.NamedType(name="suit"))),
            n.AttributeDecl(name="c", type=n.CardType()),
            n.AttributeDecl(name="cs", type=n.CardsType()),
            n.AttributeDecl(name="p", type=n.PlayerType()),
            n.AttributeDecl(name="v", type=n.NamedType(name="number")),
        )

    def test_deck_entries(self) -> None:
        (deck,) = decls(
            """\
            deck:
                2 x card "A": rank 1, suits {Moons}
                15 × card "{value}" for value in 1 to 5, b in 2 to 3
                if excuse:
                    card "E"
                else:
                    card "F"
                repeat decks times:
                    card "J"
            """
        )
        assert deck == n.DeckDecl(
            entries=(
                n.CardEntry(
                    name="A",
                    copies=n.Number(value=2),
                    assigns=(
                        n.CardAssign(name="rank", value=n.Number(value=1)),
                        n.CardAssign(name="suits", value=n.SetLiteral(items=(n.Name(id="Moons"),))),
                    ),
                ),
                n.CardEntry(
                    name="{value}",  # a card name's {attr} is filled in per card, not parsed as an expression
                    copies=n.Number(value=15),
                    loops=(
                        n.CardLoop(name="value", low=n.Number(value=1), high=n.Number(value=5)),
                        n.CardLoop(name="b", low=n.Number(value=2), high=n.Number(value=3)),
                    ),
                ),
                n.DeckIf(cond=n.Name(id="excuse"), body=(n.CardEntry(name="E"),), else_=(n.CardEntry(name="F"),)),
                n.DeckRepeat(count=n.Name(id="decks"), body=(n.CardEntry(name="J"),)),
            )
        )

    def test_zones(self) -> None:
        assert decls(
            """\
            zone hand: per player, owner
            zone pile: shared, public
            zone deck: shared, hidden
            """
        ) == (
            n.ZoneDecl(name="hand", per_player=True, visibility="owner"),
            n.ZoneDecl(name="pile", per_player=False, visibility="public"),
            n.ZoneDecl(name="deck", per_player=False, visibility="hidden"),
        )

    def test_variables(self) -> None:
        assert decls(
            """\
            var a = 1
            player var b: number = 0, hidden
            card var c: suit = none
            var d = 0, unlisted
            player var e = 0, owner, unlisted
            var unlisted = 0
            """
        ) == (
            n.VarDecl(scope="game", name="a", type=None, init=n.Number(value=1)),
            n.VarDecl(
                scope="player", name="b", type=n.NamedType(name="number"), init=n.Number(value=0), visibility="hidden"
            ),
            n.VarDecl(scope="card", name="c", type=n.NamedType(name="suit"), init=n.NoneLit()),
            n.VarDecl(scope="game", name="d", type=None, init=n.Number(value=0), unlisted=True),
            n.VarDecl(scope="player", name="e", type=None, init=n.Number(value=0), visibility="owner", unlisted=True),
            n.VarDecl(scope="game", name="unlisted", type=None, init=n.Number(value=0)),
        )

    def test_define_with_params_and_indented_body(self) -> None:
        assert decls(
            """\
            define f(c: card, p: player) =
                c.rank + 1
            define g = 1
            """
        ) == (
            n.DefineDecl(
                name="f",
                params=(n.TypedParam(name="c", type=n.CardType()), n.TypedParam(name="p", type=n.PlayerType())),
                body=n.Arith(op="+", left=n.Attribute(obj=n.Name(id="c"), name="rank"), right=n.Number(value=1)),
            ),
            n.DefineDecl(name="g", params=(), body=n.Number(value=1)),
        )

    def test_procedure_trigger_setup_round_end(self) -> None:
        assert decls(
            """\
            to give(k: number):
                again
            when cs enter tas: again
            setup: shuffle deck
            round end:
                end game
            """
        ) == (
            n.ProcedureDecl(
                name="give", params=(n.TypedParam(name="k", type=n.NamedType(name="number")),), body=(n.Again(),)
            ),
            n.TriggerDecl(var="cs", zone=n.Name(id="tas"), body=(n.Again(),)),
            n.SetupDecl(body=(n.Shuffle(zone=n.Name(id="deck")),)),
            n.RoundEndDecl(body=(n.EndGame(),)),
        )

    def test_a_trigger_on_a_zone_of_each_player_names_its_owner(self) -> None:
        (trigger,) = decls("when cs enter p . hand: again\n")
        assert trigger == n.TriggerDecl(var="cs", owner="p", zone=n.Name(id="hand"), body=(n.Again(),))
        assert span_of(trigger.zone) == (2, 19, 2, 23)  # the zone's name alone, for its errors
        (other,) = decls("when cs enter (seat 1).hand: again\n")  # no name to bind: a zone the checker refuses
        assert isinstance(other, n.TriggerDecl) and other.owner is None and isinstance(other.zone, n.Attribute)

    def test_ranking(self) -> None:
        assert decls("ranking: highest score, then lowest jokers, then finishing order\n") == (
            n.RankingDecl(
                keys=(
                    n.RankingKey(order="highest", value=n.Name(id="score")),
                    n.RankingKey(order="lowest", value=n.Name(id="jokers")),
                    n.RankingKey(order="finishing"),
                )
            ),
        )

    def test_phase_with_on_enter_and_actions(self) -> None:
        (phase,) = decls(
            """\
            phase play:
                on enter: again
                action place(c: card from hand, s: suit) when yes:
                    label "play {c}"
                    move c to pile
            """
        )
        assert phase == n.PhaseDecl(
            name="play",
            items=(
                n.OnEnter(body=(n.Again(),)),
                n.ActionDecl(
                    name="place",
                    choices=(
                        n.Choice(name="c", shape=n.CardChoice(pool=n.Name(id="hand"))),
                        n.Choice(name="s", shape=n.ValueChoice(type_name="suit")),
                    ),
                    when=n.BoolLit(value=True),
                    label=n.Text(parts=("play ", n.Name(id="c"))),
                    strength=None,
                    body=(n.Move(what=n.Name(id="c"), to=n.Name(id="pile")),),
                ),
            ),
        )

    def test_auction(self) -> None:
        (auction,) = decls(
            """\
            auction bid:
                action b(k: number 1 to 5):
                    strength (k, 1)
                pass:
                    label "pass"
                when won by w:
                    go to play with w
                when unsold:
                    end round
            """
        )
        assert auction == n.PhaseDecl(
            name="bid",
            is_auction=True,
            items=(
                n.ActionDecl(
                    name="b",
                    choices=(n.Choice(name="k", shape=n.NumberChoice(low=n.Number(value=1), high=n.Number(value=5))),),
                    when=None,
                    label=None,
                    strength=n.TupleLiteral(items=(n.Name(id="k"), n.Number(value=1))),
                    body=(),
                ),
                n.PassDecl(label=n.Text(parts=("pass",)), body=()),
                n.WonHandler(var="w", body=(n.GoTo(phase="play", player=n.Name(id="w")),)),
                n.UnsoldHandler(body=(n.EndRound(),)),
            ),
        )

    def test_window(self) -> None:
        (window,) = decls(
            """\
            window cut for players after player:
                action take:
                    again
                pass:
                    label "no"
            """
        )
        assert window == n.WindowDecl(
            name="cut",
            who=n.PlayersAfter(player=n.ActingPlayer()),
            items=(
                n.ActionDecl(name="take", choices=(), when=None, label=None, strength=None, body=(n.Again(),)),
                n.PassDecl(label=n.Text(parts=("no",)), body=()),
            ),
        )

    def test_otherwise_action(self) -> None:
        (phase,) = decls(
            """\
            phase p:
                action draw otherwise when deck is not empty:
                    again
            """
        )
        assert phase == n.PhaseDecl(
            name="p",
            items=(
                n.ActionDecl(
                    name="draw",
                    choices=(),
                    when=n.IsEmpty(operand=n.Name(id="deck"), negated=True),
                    label=None,
                    strength=None,
                    body=(n.Again(),),
                    otherwise=True,
                ),
            ),
        )

    def test_require(self) -> None:
        assert decls('require players < 5, "at most {players}"\n') == (
            n.RequireDecl(
                cond=n.Compare(op="<", left=n.AllPlayers(), right=n.Number(value=5)),
                message=n.Text(parts=("at most ", n.AllPlayers())),
            ),
        )

    @pytest.mark.parametrize(
        "shape, expected",
        [
            ("card from hand with joker wild", n.CardChoice(pool=n.Name(id="hand"), wild="joker")),
            ("player from players", n.PlayerChoice(pool=n.AllPlayers())),
            ("cards from hand", n.CardsChoice(count=None, pool=n.Name(id="hand"))),
            (
                "3 cards from faceup + hand",
                n.CardsChoice(
                    count=n.Number(value=3), pool=n.Arith(op="+", left=n.Name(id="faceup"), right=n.Name(id="hand"))
                ),
            ),
            ("cards of one rank from hand", n.SameChoice(count=None, attr="rank", pool=n.Name(id="hand"))),
            (
                "4 cards of value v from hand with joker wild",
                n.ValuedChoice(
                    count=n.Number(value=4), attr="value", value=n.Name(id="v"), pool=n.Name(id="hand"), wild="joker"
                ),
            ),
            (
                "(k) cards of different suit from hand",
                n.DifferentChoice(count=n.Name(id="k"), attr="suit", pool=n.Name(id="hand")),
            ),
        ],
    )
    def test_choice_shapes(self, shape: str, expected: n.ChoiceShape) -> None:
        (phase,) = decls(f"phase p:\n    action a(x: {shape}):\n        again\n")
        action = phase.items[0]
        assert isinstance(action, n.ActionDecl)
        assert action.choices == (n.Choice(name="x", shape=expected),)

    def test_keyword_may_name_a_zone_where_the_keyword_cannot_stand(self) -> None:
        # The grammar reads a keyword as a plain name where only a name can come
        # (the checker then rejects the reserved ones with E106).
        assert decls("zone move: shared, hidden\n") == (n.ZoneDecl(name="move", per_player=False, visibility="hidden"),)

    def test_declaration_spans(self) -> None:
        players, zone = decls("players 2 to 6\nzone deck: shared, hidden   # the stock\n")
        assert span_of(players) == (2, 1, 2, 15)
        assert span_of(zone) == (3, 1, 3, 26)  # ends at the last token, not at the comment


# ============================================================================ statements


class TestRequire:
    """An action's 'require COND, REASON' lines: conditions with the reason a refused player reads."""

    def test_require_lines_are_conditions_with_reasons(self) -> None:
        (phase,) = decls(
            """
            phase play:
                action place(c: card from hand) when c is not "x":
                    require may_follow(c), "{c} may not follow {top_card}"
                    require size of hand > 1, if a then "one" else "two"
                    label "play {c}"
                    move c to pile
            """
        )
        assert isinstance(phase, n.PhaseDecl)
        (action,) = phase.items
        assert isinstance(action, n.ActionDecl)
        assert action.when == n.IsNamed(operand=n.Name(id="c"), card_name="x", negated=True)
        assert action.requires == (
            n.RequireClause(
                cond=n.Call(name="may_follow", args=(n.Name(id="c"),)),
                reason=n.Text(parts=(n.Name(id="c"), " may not follow ", n.Name(id="top_card"))),
            ),
            n.RequireClause(
                cond=n.Compare(op=">", left=n.SizeOf(operand=n.Name(id="hand")), right=n.Number(value=1)),
                reason=n.IfExpr(cond=n.Name(id="a"), then=n.Text(parts=("one",)), else_=n.Text(parts=("two",))),
            ),
        )
        assert action.label == n.Text(parts=("play ", n.Name(id="c")))
        assert len(action.body) == 1
        assert span_of(action.requires[0]) == (5, 9, 5, 63)

    def test_an_action_may_have_require_lines_alone(self) -> None:
        (phase,) = decls('phase play:\n    action wait: require deck is empty, "not yet"\n')
        (action,) = phase.items  # type: ignore[attr-defined]
        assert action.body == () and action.label is None and len(action.requires) == 1

    def test_a_long_condition_and_reason_go_in_parentheses(self) -> None:
        (phase,) = decls(
            """
            phase play:
                action a:
                    require (
                            first_condition
                            or second_condition), (
                        if a then "one reason"
                        else "another")
                    again
            """
        )
        (action,) = phase.items  # type: ignore[attr-defined]
        assert action.requires[0].cond == n.BoolOp(
            op="or", left=n.Name(id="first_condition"), right=n.Name(id="second_condition")
        )

    def test_require_after_an_effect_is_e406(self) -> None:
        d = syntax_error(HEADER + 'phase play:\n    action a:\n        again\n        require x, "y"\n')
        assert where(d) == ("E406", "'require' after an effect: an action's conditions come before its effects", 5, 9)
        assert d.hint == "they are tested before the action is taken: write the 'require' lines first"

    def test_require_in_a_pass_is_e406(self) -> None:
        d = syntax_error(HEADER + 'auction bids:\n    pass:\n        require x, "y"\n')
        assert where(d) == ("E406", "a pass has no conditions: 'require' belongs to an action", 4, 9)

    def test_require_needs_a_reason(self) -> None:
        d = syntax_error(HEADER + "phase play:\n    action a:\n        require x\n        again\n")
        assert d.code == "E101"


class TestStatements:
    def test_moves(self) -> None:
        assert stmts(
            """\
            move c to pile at bottom face down
            move top 2 of deck to hand at random
            move c to pile face up
            move c to pile
            """
        ) == (
            n.Move(what=n.Name(id="c"), to=n.Name(id="pile"), placement="bottom", facing="down"),
            n.Move(
                what=n.TopOf(zone=n.Name(id="deck"), count=n.Number(value=2)), to=n.Name(id="hand"), placement="random"
            ),
            n.Move(what=n.Name(id="c"), to=n.Name(id="pile"), facing="up"),
            n.Move(what=n.Name(id="c"), to=n.Name(id="pile"), placement="top", facing=None),
        )

    def test_deals(self) -> None:
        assert stmts(
            """\
            deal 7 from deck to each hand starting with left of dealer face down
            deal 7 from deck to each hand
            """
        ) == (
            n.Deal(
                count=n.Number(value=7),
                source=n.Name(id="deck"),
                target="hand",
                start=n.Neighbour(side="left", player=n.Name(id="dealer")),
                facing="down",
            ),
            n.Deal(count=n.Number(value=7), source=n.Name(id="deck"), target="hand"),
        )

    def test_zone_statements(self) -> None:
        top = n.TopOf(zone=n.Name(id="deck"))
        assert stmts(
            """\
            shuffle deck
            cut deck
            reveal top of deck
            turn up top of deck
            turn down c
            """
        ) == (
            n.Shuffle(zone=n.Name(id="deck")),
            n.Cut(zone=n.Name(id="deck")),
            n.Reveal(what=top),
            n.TurnFace(up=True, what=top),
            n.TurnFace(up=False, what=n.Name(id="c")),
        )

    def test_variable_statements(self) -> None:
        mice = n.Attribute(obj=n.Name(id="p"), name="mice")
        assert stmts(
            """\
            let x = 1
            set p.mice = 0
            set named = none
            add 1 to passes
            subtract 5 from p.mice
            """
        ) == (
            n.Let(name="x", value=n.Number(value=1)),
            n.SetStmt(target=mice, value=n.Number(value=0)),
            n.SetStmt(target=n.Name(id="named"), value=n.NoneLit()),
            n.Add(value=n.Number(value=1), target=n.Name(id="passes")),
            n.Subtract(value=n.Number(value=5), target=mice),
        )

    def test_flow_statements(self) -> None:
        assert stmts(
            """\
            stop
            again
            end turn
            end round
            end game
            end game, winner player
            end game, draw
            end game, winners players after w
            go to play
            go to play with w
            open cut
            reverse direction
            finish player
            """
        ) == (
            n.Stop(),
            n.Again(),
            n.EndTurn(),
            n.EndRound(),
            n.EndGame(winner=None, draw=False),
            n.EndGame(winner=n.ActingPlayer()),
            n.EndGame(draw=True),
            n.EndGame(winners=n.PlayersAfter(player=n.Name(id="w"))),
            n.GoTo(phase="play"),
            n.GoTo(phase="play", player=n.Name(id="w")),
            n.Open(window="cut"),
            n.Reverse(),
            n.Finish(player=n.ActingPlayer()),
        )

    def test_say_and_procedure_calls(self) -> None:
        assert stmts(
            """\
            say "hi"
            refill
            give(1, p)
            give()
            """
        ) == (
            n.Say(message=n.Text(parts=("hi",))),
            n.CallStmt(name="refill"),
            n.CallStmt(name="give", args=(n.Number(value=1), n.Name(id="p"))),
            n.CallStmt(name="give", args=()),
        )

    def test_if_else_if_else(self) -> None:
        assert stmts(
            """\
            if a:
                again
            else if b:
                stop
            else if c: end turn
            else:
                end round
            """
        ) == (
            n.If(
                branches=(
                    (n.Name(id="a"), (n.Again(),)),
                    (n.Name(id="b"), (n.Stop(),)),
                    (n.Name(id="c"), (n.EndTurn(),)),
                ),
                else_=(n.EndRound(),),
            ),
        )

    def test_loops(self) -> None:
        one_to_five = n.RangeLiteral(low=n.Number(value=1), high=n.Number(value=5))
        assert stmts(
            """\
            for each p in players where p is out:
                again
            for each i in 1 to 5: again
            for each i in (1 to 5): again
            while deck is not empty: stop
            repeat 3 times: again
            repeat:
                stop
            """
        ) == (
            n.ForEach(var="p", iterable=n.AllPlayers(), where=n.IsOut(operand=n.Name(id="p")), body=(n.Again(),)),
            n.ForEach(var="i", iterable=one_to_five, body=(n.Again(),)),
            n.ForEach(var="i", iterable=one_to_five, body=(n.Again(),)),
            n.While(cond=n.IsEmpty(operand=n.Name(id="deck"), negated=True), body=(n.Stop(),)),
            n.Repeat(count=n.Number(value=3), body=(n.Again(),)),
            n.Repeat(count=None, body=(n.Stop(),)),
        )

    def test_line_continuation_and_comments(self) -> None:
        assert stmts(
            """\
            move top of deck \\
                to hand          # a comment
            """
        ) == (n.Move(what=n.TopOf(zone=n.Name(id="deck")), to=n.Name(id="hand")),)

    def test_newlines_inside_brackets_are_ignored(self) -> None:
        assert decls("define d = (1 +\n   2)\n") == (
            n.DefineDecl(name="d", params=(), body=n.Arith(op="+", left=n.Number(value=1), right=n.Number(value=2))),
        )

    def test_crlf_and_cr_line_ends(self) -> None:
        expected = (n.PlayersDecl(low=n.Number(value=2), high=n.Number(value=4)), n.SetupDecl(body=(n.Again(),)))
        assert parse('game "g"\r\nplayers 2 to 4\r\nsetup:\r\n    again\r\n').decls == expected
        assert parse('game "g"\rplayers 2 to 4\rsetup:\r    again\r').decls == expected

    def test_statement_spans(self) -> None:
        (shuffle, move) = stmts("shuffle deck\nmove top of deck to hand   # comment\n")
        assert span_of(shuffle) == (3, 5, 3, 17)
        assert span_of(move) == (4, 5, 4, 29)
        assert span_of(move.what) == (4, 10, 4, 21)
        assert span_of(move.to) == (4, 25, 4, 29)


# ============================================================================ expressions


def arith(op: str, left: n.Expr, right: n.Expr) -> n.Arith:
    return n.Arith(op=op, left=left, right=right)


A, B, C = n.Name(id="a"), n.Name(id="b"), n.Name(id="c")
ONE, TWO, THREE = n.Number(value=1), n.Number(value=2), n.Number(value=3)
DECK = n.Name(id="deck")


class TestExpressions:
    @pytest.mark.parametrize(
        "text, expected",
        [
            ("a + 1", arith("+", A, ONE)),
            ("1 + 2 * 3", arith("+", ONE, arith("*", TWO, THREE))),
            ("a - b - c", arith("-", arith("-", A, B), C)),
            ("(a - b) * c", arith("*", arith("-", A, B), C)),
            ("10 / 3 % 2", arith("%", arith("/", n.Number(value=10), THREE), TWO)),
            ("-1", n.Negate(operand=ONE)),
            ("- - a", n.Negate(operand=n.Negate(operand=A))),
            ("-a.b", n.Negate(operand=n.Attribute(obj=A, name="b"))),
            ("size of hand - 1", arith("-", n.SizeOf(operand=n.Name(id="hand")), ONE)),
            ("seat (players - 1)", n.Seat(index=arith("-", n.AllPlayers(), ONE))),
        ],
    )
    def test_arithmetic(self, text: str, expected: n.Expr) -> None:
        assert parse_expr(text) == expected

    @pytest.mark.parametrize(
        "text, expected",
        [
            ("not a and b", n.BoolOp(op="and", left=n.Not(operand=A), right=B)),
            ("a or b and c", n.BoolOp(op="or", left=A, right=n.BoolOp(op="and", left=B, right=C))),
            ("not not a", n.Not(operand=n.Not(operand=A))),
            ("1 + 2 == 3", n.Compare(op="==", left=arith("+", ONE, TWO), right=THREE)),
            ("a != b", n.Compare(op="!=", left=A, right=B)),
            ("a <= 1", n.Compare(op="<=", left=A, right=ONE)),
            ("a in b", n.Member(element=A, collection=B)),
            ("a not in b", n.Member(element=A, collection=B, negated=True)),
            ("a overlaps b", n.Overlaps(left=A, right=B)),
            ("deck is empty", n.IsEmpty(operand=DECK)),
            ("deck is not empty", n.IsEmpty(operand=DECK, negated=True)),
            ("a is out", n.IsOut(operand=A)),
            ("a is not out", n.IsOut(operand=A, negated=True)),
            ('c is "the Excuse"', n.IsNamed(operand=C, card_name="the Excuse")),
            ('c is not "X"', n.IsNamed(operand=C, card_name="X", negated=True)),
            ("if a then 1 else 2", n.IfExpr(cond=A, then=ONE, else_=TWO)),
        ],
    )
    def test_logic_and_comparison(self, text: str, expected: n.Expr) -> None:
        assert parse_expr(text) == expected

    @pytest.mark.parametrize(
        "text, expected",
        [
            # A prefix form takes the whole operand on its right.
            ("top of pile.rank", n.TopOf(zone=n.Attribute(obj=n.Name(id="pile"), name="rank"))),
            ("(top of pile).rank", n.Attribute(obj=n.TopOf(zone=n.Name(id="pile")), name="rank")),
            ("top 2 of deck", n.TopOf(zone=DECK, count=TWO)),
            ("bottom of deck", n.BottomOf(zone=DECK)),
            ("bottom 3 of deck", n.BottomOf(zone=DECK, count=THREE)),
            ("all of deck", n.AllOf(zone=DECK)),
            ("all but top 2 of deck", n.AllButTop(count=TWO, zone=DECK)),
            ("position of c", n.PositionOf(operand=C)),
            ("run of deck sharing rank", n.RunOf(zone=DECK, key="rank")),
            ("top of deck is empty", n.IsEmpty(operand=n.TopOf(zone=DECK))),
            ("every card", n.EveryCard()),
        ],
    )
    def test_card_expressions(self, text: str, expected: n.Expr) -> None:
        assert parse_expr(text) == expected

    @pytest.mark.parametrize(
        "text, expected",
        [
            ("player", n.ActingPlayer()),
            ("players", n.AllPlayers()),
            ("player after a", n.PlayerStep(player=A, step=1)),
            ("player before a", n.PlayerStep(player=A, step=-1)),
            ("players after player", n.PlayersAfter(player=n.ActingPlayer())),
            (
                "players starting with left of a",
                n.PlayersStarting(player=n.Neighbour(side="left", player=A)),
            ),
            ("right of a", n.Neighbour(side="right", player=A)),
            ("seat 0", n.Seat(index=n.Number(value=0))),
        ],
    )
    def test_player_expressions(self, text: str, expected: n.Expr) -> None:
        assert parse_expr(text) == expected

    @pytest.mark.parametrize(
        "text, expected",
        [
            ("42", n.Number(value=42)),
            ("yes", n.BoolLit(value=True)),
            ("no", n.BoolLit(value=False)),
            ("none", n.NoneLit()),
            ("(a, 1, b)", n.TupleLiteral(items=(A, ONE, B))),
            ("{}", n.SetLiteral(items=())),
            ("{a, b}", n.SetLiteral(items=(A, B))),
            ("(1 to 5)", n.RangeLiteral(low=ONE, high=n.Number(value=5))),
            ("f()", n.Call(name="f", args=())),
            ("max(2, a)", n.Call(name="max", args=(TWO, A))),
            ("a.b.c", n.Attribute(obj=n.Attribute(obj=A, name="b"), name="c")),
            ("(((1)))", ONE),  # parentheses make no node
        ],
    )
    def test_atoms(self, text: str, expected: n.Expr) -> None:
        assert parse_expr(text) == expected

    @pytest.mark.parametrize(
        "text, expected",
        [
            (
                "any c in hand where c.x",
                n.Quantifier(kind="any", var="c", iterable=n.Name(id="hand"), cond=n.Attribute(obj=C, name="x")),
            ),
            (
                "no c in hand where yes",
                n.Quantifier(kind="no", var="c", iterable=n.Name(id="hand"), cond=n.BoolLit(value=True)),
            ),
            (
                "every c in hand satisfies yes",
                n.Quantifier(kind="every", var="c", iterable=n.Name(id="hand"), cond=n.BoolLit(value=True)),
            ),
            ("count c in hand", n.Count(var="c", iterable=n.Name(id="hand"))),
            ("count c in hand where a", n.Count(var="c", iterable=n.Name(id="hand"), where=A)),
            ("cards c in hand where a", n.Filter(var="c", iterable=n.Name(id="hand"), where=A)),
            ("first p in players where a", n.First(var="p", iterable=n.AllPlayers(), where=A)),
            ("topmost c in deck where a", n.Topmost(var="c", iterable=DECK, where=A)),
            (
                "the c in hand with highest c.v where a",
                n.Best(var="c", iterable=n.Name(id="hand"), op="highest", key=n.Attribute(obj=C, name="v"), where=A),
            ),
            (
                "the p in players with lowest size of p.hand",
                n.Best(
                    var="p",
                    iterable=n.AllPlayers(),
                    op="lowest",
                    key=n.SizeOf(operand=n.Attribute(obj=n.Name(id="p"), name="hand")),
                ),
            ),
            (
                "highest size of p.hand for p in players",
                n.Aggregate(
                    op="highest",
                    value=n.SizeOf(operand=n.Attribute(obj=n.Name(id="p"), name="hand")),
                    var="p",
                    iterable=n.AllPlayers(),
                ),
            ),
            (
                "total c.v for c in hand where a",
                n.Aggregate(
                    op="total", value=n.Attribute(obj=C, name="v"), var="c", iterable=n.Name(id="hand"), where=A
                ),
            ),
            (
                "distinct c.v for c in hand",
                n.Aggregate(op="distinct", value=n.Attribute(obj=C, name="v"), var="c", iterable=n.Name(id="hand")),
            ),
            (
                "lowest c.v for c in hand",
                n.Aggregate(op="lowest", value=n.Attribute(obj=C, name="v"), var="c", iterable=n.Name(id="hand")),
            ),
            # The condition of a quantifier runs to the end: 'or' is inside it.
            (
                "any c in hand where a or b",
                n.Quantifier(kind="any", var="c", iterable=n.Name(id="hand"), cond=n.BoolOp(op="or", left=A, right=B)),
            ),
        ],
    )
    def test_comprehensions(self, text: str, expected: n.Expr) -> None:
        assert parse_expr(text) == expected

    def test_span_equality_is_ignored_but_spans_are_kept(self) -> None:
        e = parse_expr("a + 1")
        assert e == arith("+", A, ONE)
        assert e.span == Span(Pos(1, 1, 0), Pos(1, 6, 5))
        assert isinstance(e, n.Arith)
        assert e.right.span == Span(Pos(1, 5, 4), Pos(1, 6, 5))

    def test_comparisons_do_not_chain(self) -> None:
        with pytest.raises(ParseError) as info:
            parse_expr("a == b == c")
        d = info.value.diagnostics[0]
        assert (d.code, d.message, d.line, d.column) == ("E101", "comparisons do not chain", 1, 8)
        assert d.hint == "compare two values at a time, and join the tests with 'and': a == b and b == c"


# ============================================================================ strings


class TestStrings:
    def test_plain(self) -> None:
        assert parse_expr('"hello"') == n.Text(parts=("hello",))

    def test_empty(self) -> None:
        assert parse_expr('""') == n.Text(parts=())

    def test_interpolation(self) -> None:
        assert parse_expr('"play {c}"') == n.Text(parts=("play ", C))

    def test_several_interpolations(self) -> None:
        assert parse_expr('"x{c.rank}y{1 + 2}"') == n.Text(
            parts=("x", n.Attribute(obj=C, name="rank"), "y", arith("+", ONE, TWO))
        )

    def test_only_an_expression(self) -> None:
        assert parse_expr('"{c}"') == n.Text(parts=(C,))

    def test_doubled_braces_are_literal(self) -> None:
        assert parse_expr('"a {{b}} c}}"') == n.Text(parts=("a {b} c}",))

    def test_set_literal_inside_interpolation(self) -> None:
        assert parse_expr('"{ {1} }"') == n.Text(parts=(n.SetLiteral(items=(ONE,)),))

    def test_escapes(self) -> None:
        assert parse_expr(r'"tab\tnl\nq\"bs\\"') == n.Text(parts=('tab\tnl\nq"bs\\',))

    def test_unknown_escape_keeps_the_character(self) -> None:
        assert parse_expr(r'"\q"') == n.Text(parts=("q",))

    def test_unicode(self) -> None:
        assert parse_expr('"ü {c} ♥"') == n.Text(parts=("ü ", C, " ♥"))

    def test_interpolated_expression_has_its_place_in_the_file(self) -> None:
        (say,) = stmts('say "n = {a + 1}"\n')
        assert isinstance(say, n.Say) and isinstance(say.message, n.Text)
        inner = say.message.parts[1]
        assert isinstance(inner, n.Arith)
        assert span_of(inner) == (3, 15, 3, 20)
        assert span_of(inner.right) == (3, 19, 3, 20)

    def test_value_display_and_card_names_are_not_templates(self) -> None:
        assert decls('values suit: hearts "{♥}"\n') == (
            n.ValuesDecl(name="suit", members=(n.ValueMember(name="hearts", display="{♥}"),)),
        )

    @pytest.mark.parametrize(
        "line, message, column, hint",
        [
            ('say "a {b"', "'{' without a closing '}' in this string", 12, "write '{{' for a '{' in text"),
            ('say "a } b"', "'}' without an opening '{' in this string", 12, "write '}}' for a '}' in text"),
            ('say "a {} b"', "empty '{}' in this string", 13, "put an expression between the braces, such as {c}"),
            (
                'say "{(a}"',
                "cannot read the expression '{(a}' in this string",
                12,
                "expected a comparison, ')', '+' or '-', ',', 'and', 'in', 'is', 'not' or 3 more",
            ),
        ],
    )
    def test_bad_interpolation_is_e110(self, line: str, message: str, column: int, hint: str) -> None:
        d = syntax_error(HEADER + "setup:\n    " + line + "\n")
        assert where(d) == ("E110", message, 3, column)
        assert d.hint == hint

    def test_bad_interpolation_hint_names_the_real_problem(self) -> None:
        d = syntax_error(HEADER + 'setup:\n    say "n = {1 2}"\n')
        assert where(d) == ("E110", "cannot read the expression '{1 2}' in this string", 3, 17)
        assert d.hint is not None and d.hint.startswith("expected ")

    def test_number_too_large_inside_interpolation(self) -> None:
        d = syntax_error(HEADER + 'setup:\n    say "n = {99999999999}"\n')
        assert where(d) == ("E112", "number too large (at most 1,000,000,000)", 3, 15)
        assert (d.end_line, d.end_column) == (3, 26)


# ============================================================================ syntax errors


class TestSyntaxErrors:
    def test_e002_file_too_large(self) -> None:
        text = HEADER + ("# " + "x" * 98 + "\n") * 15_000  # 1.5 MB of comments
        assert len(text.encode()) > 1_500_000
        d = syntax_error(text)
        assert where(d) == (
            "E002",
            f"file too large ({len(text.encode()):,} bytes; a rule file may have at most 1,000,000)",
            1,
            1,
        )
        assert d.span is None
        assert d.hint == "a rule file describes one game; split generated data out of it"

    def test_e002_limit_is_exact(self) -> None:
        text = HEADER + "#" * (MAX_SOURCE_BYTES - len(HEADER) - 1) + "\n"
        assert len(text.encode()) == MAX_SOURCE_BYTES
        assert parse(text).decls == ()
        assert syntax_error(text + "\n").code == "E002"

    def test_e002_message_counts_what_the_limit_counts(self) -> None:
        text = HEADER + "# " + "ä" * 600_000 + "\n"
        d = syntax_error(text)
        assert d.code == "E002"
        assert d.message == f"file too large ({len(text.encode()):,} bytes; a rule file may have at most 1,000,000)"

    def test_e101_unexpected_token(self) -> None:
        d = syntax_error(HEADER + "players 2 to\n")
        assert where(d) == ("E101", "unexpected end of the line", 2, 13)
        assert d.hint == "expected a name, a number, a string, '(', '-', 'all', 'bottom', 'card' or 15 more"

    def test_e101_hint_lists_few_expectations_in_full(self) -> None:
        d = syntax_error(HEADER + "zone deck shared, hidden\n")
        assert where(d) == ("E101", "unexpected 'shared'", 2, 11)
        assert d.hint == "expected a new line or ':'"

    def test_e101_message_reads_well_for_numbers(self) -> None:
        d = syntax_error(HEADER + "players 2 4\n")
        assert where(d) == ("E101", "unexpected number 4", 2, 11)

    # A misspelt keyword at the start of a line is named, with the keyword it is close to;
    # the examples are mistakes in a copy of games/crazy_eights.game.
    @pytest.mark.parametrize(
        "old, new, message, line, column, hint",
        [
            ("shuffle stock", "shufle stock", "unknown statement 'shufle'", 39, 5, "did you mean 'shuffle'?"),
            ("deal 5 from", "dael 5 from", "unknown statement 'dael'", 40, 5, "did you mean 'deal'?"),
            ("\nphase play:", "\nphsae play:", "unknown declaration 'phsae'", 55, 1, "did you mean 'phase'?"),
            ('label "pass"', 'lable "pass"', "unknown statement 'lable'", 84, 9, "did you mean 'label'?"),
            ("    action pass ", "    acton pass ", "unknown declaration 'acton'", 82, 5, "did you mean 'action'?"),
            ("\nzone hand:", "\nzoen hand:", "unknown declaration 'zoen'", 33, 1, "did you mean 'zone'?"),
            ('card "K{suit}"', 'crad "K{suit}"', "unknown declaration 'crad'", 29, 5, "did you mean 'card'?"),
        ],
    )
    def test_e101_misspelt_keyword(self, old: str, new: str, message: str, line: int, column: int, hint: str) -> None:
        text = (Path(__file__).parents[2] / "games" / "crazy_eights.game").read_text(encoding="utf-8")
        assert text.count(old) == 1
        d = syntax_error(text.replace(old, new))
        assert where(d) == ("E101", message, line, column)
        assert d.hint == hint
        assert (d.end_line, d.end_column) == (line, column + len(message.split("'")[1]))

    def test_e101_misspelt_keyword_names_every_keyword_as_close(self) -> None:
        d = syntax_error(HEADER + "setup:\n    elt x = 1\n")
        assert where(d) == ("E101", "unknown statement 'elt'", 3, 5)
        assert d.hint == "did you mean 'let' or 'set'?"

    def test_e101_misspelt_keyword_only_among_what_can_start_the_line(self) -> None:
        # 'label' is a clause of an action, not a statement of setup.
        d = syntax_error(HEADER + 'setup:\n    labl "x"\n')
        assert where(d) == ("E101", 'unexpected text "x"', 3, 10)
        assert d.hint == "expected a new line or '('"
        # Inside brackets a line continues an expression: 'adn' is not a statement.
        d = syntax_error(HEADER + "define d = (a\n    adn b)\n")
        assert where(d) == ("E101", "unexpected 'adn'", 3, 5)

    def test_e101_no_keyword_suggested_for_a_procedure_the_file_declares(self) -> None:
        # 'sey' is close to 'say', but it is the file's own procedure, called without brackets.
        d = syntax_error(HEADER + "to sey:\n    again\nsetup:\n    sey 3\n")
        assert where(d) == ("E101", "unexpected number 3", 5, 9)
        assert d.hint == "expected a new line or '('"
        # A name close to no keyword is a procedure call gone wrong, not a misspelling.
        d = syntax_error(HEADER + "setup:\n    refill 3\n")
        assert where(d) == ("E101", "unexpected number 3", 3, 12)

    def test_e101_missing_to_in_a_move(self) -> None:
        # The same parser state reads 'a and count c' (E115), but only a quantifier comes before it there.
        d = syntax_error(HEADER + "setup:\n    shuffle deck\n    move c discard\n")
        assert where(d) == ("E101", "expected 'to' before 'discard'", 4, 12)
        assert d.hint == "write 'move CARDS to ZONE'"
        assert (d.end_line, d.end_column) == (4, 19)

    def test_statement_shapes_come_from_the_grammar_and_keywords_md(self) -> None:
        # Not restated (issue 37): the joining words are each statement rule's keywords after an
        # expression, the shape is the statement's first code in keywords.md, brackets left out.
        from ruledsl.resources import keyword_meanings
        from ruledsl.syntax.mistakes import statement_shapes

        shapes = statement_shapes()
        assert {word: words for word, (words, _) in shapes.items()}.items() >= {
            "move": ("to",),
            "deal": ("from", "to"),
            "add": ("to",),
            "subtract": ("from",),
        }.items()
        assert not {"set", "let", "go", "shuffle", "end"} & set(shapes)  # no keyword after an expression
        for word, (_, shape) in shapes.items():
            assert keyword_meanings()[word].startswith(f"`{shape}")

    @pytest.mark.parametrize(
        "statement, message, column, hint",
        [
            ("move top of deck hand", "expected 'to' before 'hand'", 22, "write 'move CARDS to ZONE'"),
            ("if x: move c.y 1", "expected 'to' before number 1", 20, "write 'move CARDS to ZONE'"),
            (
                "deal 5 deck to each hand",
                "expected 'from' before 'deck'",
                12,
                "write 'deal N from ZONE to each ZONE'",
            ),
            (
                "deal 5 from deck each hand",
                "expected 'to' before 'each'",
                22,
                "write 'deal N from ZONE to each ZONE'",
            ),
            ("add 1 score", "expected 'to' before 'score'", 11, "write 'add N to TARGET'"),
            ("subtract 1 score", "expected 'from' before 'score'", 16, "write 'subtract N from TARGET'"),
        ],
    )
    def test_e101_missing_joining_word(self, statement: str, message: str, column: int, hint: str) -> None:
        d = syntax_error(HEADER + "setup:\n    " + statement + "\n")
        assert where(d) == ("E101", message, 3, column)
        assert d.hint == hint

    def test_e101_joining_word_already_there(self) -> None:
        d = syntax_error(HEADER + "setup:\n    move c to d e\n")
        assert where(d) == ("E101", "unexpected 'e'", 3, 17)

    def test_e101_stray_else(self) -> None:
        # Not E106 ('else' is no name here): an 'else' with no 'if' to continue.
        d = syntax_error(HEADER + "setup:\n    shuffle deck\n    else:\n        again\n")
        assert where(d) == ("E101", "'else' without an 'if' before it", 4, 5)
        assert d.hint == "an 'else' stands right after the block of its 'if', indented like that 'if'"
        assert (d.end_line, d.end_column) == (4, 9)

    @pytest.mark.parametrize(
        "text, line, column",
        [
            ("setup:\n    else:\n        again\n", 3, 5),  # read as a procedure's name
            ("setup:\n    again\n    else if x:\n        again\n", 4, 5),
            ("setup:\n    while x:\n        again\n    else:\n        again\n", 5, 5),
            ("setup:\n    if x:\n        again\n    else:\n        again\n    else:\n        again\n", 7, 5),
            ("setup:\n    if x:\n        again\n        else:\n            again\n", 5, 9),
            ("else:\n    again\n", 2, 1),
            ("phase p:\n    action a: again\n    else:\n        again\n", 4, 5),
            ('deck:\n    card "a"\n    else:\n        card "b"\n', 4, 5),
            ("setup:\n    again\n    else\n", 4, 5),
        ],
    )
    def test_e101_stray_else_everywhere(self, text: str, line: int, column: int) -> None:
        assert where(syntax_error(HEADER + text)) == ("E101", "'else' without an 'if' before it", line, column)

    def test_e101_unexpected_indentation_points_at_the_indented_line(self) -> None:
        d = syntax_error(HEADER + "setup:\n    shuffle deck\n        again\n")
        assert where(d) == ("E101", "unexpected indentation", 4, 9)
        assert d.hint == "this line is indented more than the one before; only a line ending with ':' opens a block"
        assert (d.end_line, d.end_column) == (4, 14)

    def test_e101_unexpected_indentation_after_comments_and_blank_lines(self) -> None:
        d = syntax_error(HEADER + "players 2 to 4  # two\n\n# zones\n  zone z: shared, public\n")
        assert where(d) == ("E101", "unexpected indentation", 5, 3)

    def test_e102_unexpected_character(self) -> None:
        d = syntax_error(HEADER + "players 2 to 4 $\n")
        assert where(d) == ("E102", "unexpected character '$'", 2, 16)
        assert d.hint == "names are letters, digits and '_'; text goes between double quotes"
        assert (d.end_line, d.end_column) == (2, 17)

    def test_e102_names_an_invisible_character_by_code_point(self) -> None:
        d = syntax_error(HEADER + "players 2 to 4 \x07\n")
        assert where(d) == ("E102", "unexpected character 'U+0007'", 2, 16)

    @pytest.mark.parametrize(
        ("line", "char", "col"),
        [
            ('say "clear \x1b[2J"', "\x1b", 12),  # in text: 'play' would print it to the terminal
            ("shuffle deck  # \x9b2J", "\x9b", 17),  # in a comment: echoed under a diagnostic
            ('say "\u202e evil"', "\u202e", 6),  # the line would read otherwise than it is
        ],
    )
    def test_e102_control_characters_are_refused_even_in_text_and_comments(
        self, line: str, char: str, col: int
    ) -> None:
        d = syntax_error(HEADER + "setup:\n    " + line + "\n")
        assert where(d) == ("E102", f"unexpected character 'U+{ord(char):04X}'", 3, 4 + col)
        assert d.hint is not None and "no control characters, even in text or a comment" in d.hint

    def test_e103_missing_colon(self) -> None:
        d = syntax_error(HEADER + "phase play\n    action a:\n        again\n")
        assert where(d) == ("E103", "expected ':' at the end of this line", 2, 11)
        assert d.hint == "a line that opens a block ends with ':'"

    def test_e103_missing_colon_after_setup(self) -> None:
        d = syntax_error(HEADER + "setup\n    shuffle deck\n")
        assert where(d) == ("E103", "expected ':' at the end of this line", 2, 6)

    def test_e103_missing_colon_after_a_condition(self) -> None:
        d = syntax_error(HEADER + "setup:\n    if deck is empty\n        shuffle deck\n")
        assert where(d) == ("E103", "expected ':' at the end of this line", 3, 21)

    def test_e103_missing_colon_after_repeat(self) -> None:
        d = syntax_error(HEADER + "setup:\n    repeat 3 times\n        again\n")
        assert where(d) == ("E103", "expected ':' at the end of this line", 3, 19)

    def test_e104_bad_dedent(self) -> None:
        d = syntax_error(HEADER + "setup:\n    shuffle deck\n  shuffle deck\n")
        assert where(d) == ("E104", "this line's indentation matches no enclosing block", 4, 3)
        assert d.hint == "indent a block's lines alike, with spaces (a tab counts as 8 columns)"
        assert (d.end_line, d.end_column) == (4, 15)

    def test_e104_a_tab_counts_as_eight_columns(self) -> None:
        # A tab and eight spaces are the same indent; four spaces then match nothing.
        d = syntax_error(HEADER + "setup:\n\tshuffle deck\n        shuffle deck\n    shuffle deck\n")
        assert where(d) == ("E104", "this line's indentation matches no enclosing block", 5, 5)

    def test_e104_points_at_the_misindented_line_not_a_continuation(self) -> None:
        d = syntax_error(HEADER + "setup:\n    let x = (1 +\n  2)\n    again\n  again\n")
        assert where(d) == ("E104", "this line's indentation matches no enclosing block", 6, 3)

    def test_e105_unclosed_string(self) -> None:
        d = syntax_error(HEADER + 'setup:\n    say "hello\n')
        assert where(d) == ("E105", "this string has no closing '\"' on its line", 3, 9)
        assert d.hint == 'close it on the same line; write \\" for a quote inside it'

    def test_e105_in_the_header(self) -> None:
        assert where(syntax_error('game "g\n')) == ("E105", "this string has no closing '\"' on its line", 1, 6)

    def test_e106_keyword_used_as_a_name(self) -> None:
        # 'players' is read as the keyword here, so it cannot be the name of a procedure.
        d = syntax_error(HEADER + "setup:\n    shuffle deck\n    players\n")
        assert where(d) == (
            "E106",
            "'players' is a keyword of the language and cannot be used as a name here",
            4,
            5,
        )
        assert d.hint == "choose another name, such as 'players_'"
        assert (d.end_line, d.end_column) == (4, 12)

    def test_keyword_named_procedure_is_refused_where_declared(self) -> None:
        # A call at the start of a line could be read as the keyword, so the name is refused
        # where the procedure is declared, with a clear message, not where it is called.
        from ruledsl.loading import check_source
        from ruledsl.text.source import Source

        with pytest.raises(CheckError) as info:
            check_source(
                Source(
                    "t.game",
                    HEADER
                    + 'players 2 to 2\ndeck:\n    card "a"\nzone pile: shared, public\nto deck:\n'
                    + "    shuffle pile\nsetup:\n    deck\n    end game\n"
                    "phase play:\n    action finish:\n        end game\n",
                )
            )
        d = info.value.diagnostics[0]
        assert (d.code, d.message, d.line, d.column) == (
            "E106",
            "'deck' is a keyword of the language and cannot name a procedure",
            6,
            4,
        )

    def test_e107_unexpected_end_of_file(self) -> None:
        d = syntax_error(HEADER + "define d = (1 + 2\n")
        assert where(d) == ("E107", "unexpected end of the file", 3, 1)
        assert d.hint == "a bracket or a block may be left open"

    def test_e107_without_final_newline(self) -> None:
        d = syntax_error(HEADER + "setup:")
        assert where(d) == ("E107", "unexpected end of the file", 2, 1)

    def test_empty_file_is_e111(self) -> None:
        d = syntax_error("# nothing yet\n")
        assert d.code == "E111"

    def test_e108_deep_nesting(self) -> None:
        d = syntax_error(HEADER + "define d = " + "-" * 100 + "1\n")
        # Depth counts from the file: game_file, define_decl, then 58 negations fit.
        assert where(d) == ("E108", f"nested more than {MAX_DEPTH} levels deep", 2, 12 + MAX_DEPTH - 2)
        assert d.hint == "name the inner parts with 'define' or 'to'"

    @pytest.mark.parametrize(
        ("joined", "named"), [(" and ", "'and'"), (" or ", "'or'"), (" + ", "arithmetic operators")]
    )
    def test_e108_says_when_a_flat_chain_is_too_long(self, joined: str, named: str) -> None:
        d = syntax_error(HEADER + "define d = " + joined.join(["x"] * (MAX_DEPTH + 10)) + "\n")
        assert d.code == "E108"
        assert d.message == f"nested more than {MAX_DEPTH} levels deep: a chain of {named} counts one level per term"
        assert d.hint == "split the chain: name parts of it with 'define' and join the names"
        # Split in two named halves, the same terms are accepted.
        half = joined.join(["x"] * ((MAX_DEPTH + 10) // 2))
        assert parse(HEADER + f"define a = {half}\ndefine b = {half}\ndefine d = a{joined}b\n") is not None

    @pytest.mark.parametrize(
        "expr",
        [
            "-" * 100 + "1",
            "not " * 100 + "yes",
            "1" + " + 1" * 100,
            "top of " * 100 + "deck",
            "{" * 100 + "1" + "}" * 100,
            "(" * 100 + "1" + " + 1)" * 100,
            "if a then " * 100 + "1" + " else 2" * 100,
        ],
    )
    def test_e108_never_recursion_error(self, expr: str) -> None:
        for parse_one in (lambda: parse(HEADER + "define d = " + expr + "\n"), lambda: parse_expr(expr)):
            with pytest.raises(RuleDslError) as info:
                parse_one()
            assert [d.code for d in info.value.diagnostics] == ["E108"]

    def test_e108_deep_blocks(self) -> None:
        text = (
            HEADER + "setup:\n" + "".join("    " * (i + 1) + "if x:\n" for i in range(100)) + "    " * 101 + "again\n"
        )
        assert syntax_error(text).code == "E108"

    def test_e108_inside_a_string_points_into_the_file(self) -> None:
        d = syntax_error(HEADER + 'setup:\n    say "{' + "-" * 100 + '1}"\n')
        assert where(d) == ("E108", f"nested more than {MAX_DEPTH} levels deep", 3, 11 + MAX_DEPTH)

    def test_e108_not_reached_at_the_limit(self) -> None:
        assert parse_expr("-" * (MAX_DEPTH - 1) + "1") is not None
        with pytest.raises(ParseError):
            parse_expr("-" * MAX_DEPTH + "1")

    def test_e109_missing_indented_block(self) -> None:
        d = syntax_error(HEADER + "phase play:\n    action a:\n    again\n")
        assert where(d) == ("E109", "expected an indented block after ':'", 4, 5)
        assert d.hint == "indent the lines that belong to the block"

    def test_e109_block_at_column_one(self) -> None:
        assert where(syntax_error(HEADER + 'deck:\ncard "x"\n')) == (
            "E109",
            "expected an indented block after ':'",
            3,
            1,
        )

    def test_e109_whatever_the_first_statement(self) -> None:
        d = syntax_error(HEADER + "setup:\nshuffle deck\n")
        assert where(d) == ("E109", "expected an indented block after ':'", 3, 1)

    def test_e110_assignment_used_as_comparison(self) -> None:
        d = syntax_error(HEADER + "setup:\n    if x = 1:\n        again\n")
        assert where(d) == ("E110", "'=' cannot compare; use '=='", 3, 10)
        assert d.hint == "'=' gives a value, in 'let', 'set' and 'option'"

    @pytest.mark.parametrize(
        "text, line, column",
        [
            ("phase p:\n    action a when x = 1:\n        again\n", 3, 21),
            ("define d = x = 1\n", 2, 14),
            ("setup:\n    while x = 1:\n        again\n", 3, 13),
            ("setup:\n    let y = x = 1\n", 3, 15),
        ],
    )
    def test_e110_everywhere(self, text: str, line: int, column: int) -> None:
        assert where(syntax_error(HEADER + text)) == ("E110", "'=' cannot compare; use '=='", line, column)

    def test_e111_missing_header(self) -> None:
        d = syntax_error("players 2 to 4\n")
        assert where(d) == ("E111", 'a rule file must start with: game "Name"', 1, 1)
        assert d.hint == 'add a first line such as: game "Crazy Eights"'

    def test_e112_number_too_large(self) -> None:
        d = syntax_error(HEADER + "players 2 to 99999999999\n")
        assert where(d) == ("E112", "number too large (at most 1,000,000,000)", 2, 14)
        assert d.hint is None
        assert (d.end_line, d.end_column) == (2, 25)

    def test_e112_limit_is_exact(self) -> None:
        assert parse_expr("1000000000") == n.Number(value=1_000_000_000)
        with pytest.raises(ParseError) as info:
            parse_expr("1000000001")
        assert info.value.diagnostics[0].code == "E112"

    def test_e113_statement_at_top_level(self) -> None:
        d = syntax_error(HEADER + "shuffle deck\n")
        assert where(d) == ("E113", "a statement cannot stand at the top of the file", 2, 1)
        assert d.hint == "effects go inside a block: setup:, an action of a phase, or a procedure (to name:)"

    def test_e114_if_value_without_else(self) -> None:
        d = syntax_error(HEADER + "define d = if x then 1\n")
        assert where(d) == ("E114", "an 'if' value needs 'then' and 'else'", 2, 23)
        assert d.hint == "write: if condition then value else other_value"

    def test_e114_if_value_without_then(self) -> None:
        assert where(syntax_error(HEADER + "define d = if x 1 else 2\n")) == (
            "E114",
            "an 'if' value needs 'then' and 'else'",
            2,
            17,
        )

    def test_e115_quantifier_inside_a_larger_expression(self) -> None:
        d = syntax_error(HEADER + "define d = a and any c in hand where c.x\n")
        assert where(d) == (
            "E115",
            "'any', 'no', 'every', 'count', 'first' and the like need parentheses inside a larger expression",
            2,
            22,
        )
        assert d.hint == "write, for example: a and (any c in hand where c.rank == 7)"
        assert parse_expr("a and (any c in hand where c.x)") == n.BoolOp(
            op="and",
            left=A,
            right=n.Quantifier(kind="any", var="c", iterable=n.Name(id="hand"), cond=n.Attribute(obj=C, name="x")),
        )

    def test_e115_after_an_aggregate_too(self) -> None:
        d = syntax_error(HEADER + "define d = 1 + total c.x for c in hand\n")
        assert (d.code, d.line, d.column) == ("E115", 2, 22)

    def test_a_reserved_word_as_the_variable_is_e106_where_it_is_declared(self) -> None:
        # 'players' cannot name the variable at all: that is said first, at the name (issue 37).
        d = syntax_error(HEADER + "define d = players > 2 and any players in deck where players.rank == 1\n")
        assert (d.code, d.line, d.column) == ("E106", 2, 32)

    @pytest.mark.parametrize("var", ["x", "card", "c"])
    def test_e115_whatever_the_name_of_the_variable(self, var: str) -> None:
        # 'x' (as in `2 x card`) and 'card' are keywords the parser reads first; in parentheses they are names.
        d = syntax_error(HEADER + f"define d = players > 2 and any {var} in deck where {var}.rank == 1\n")
        assert (d.code, d.line, d.column) == ("E115", 2, 32)
        d = syntax_error(HEADER + f"define d = 1 + total {var}.v for {var} in deck\n")
        assert (d.code, d.line, d.column) == ("E115", 2, 22)

    @pytest.mark.parametrize("var", ["x", "card"])
    def test_keywords_that_may_name_a_quantifier_variable(self, var: str) -> None:
        e = parse_expr(f"a and (any {var} in hand where {var}.x)")
        assert isinstance(e, n.BoolOp) and isinstance(e.right, n.Quantifier) and e.right.var == var

    @pytest.mark.parametrize(
        "line, column, hint",
        [
            (
                "if count c in p.hand where c.rank == r == 4:",
                44,
                "'count' reads to the end of the expression; write (count c in p.hand where c.rank == r) == 4",
            ),
            (
                "let t = total c.v for c in hand where c.v > 1 > 0",
                51,
                "'total' reads to the end of the expression; write (total c.v for c in hand where c.v > 1) > 0",
            ),
            # the condition ends in a test that is not a comparison: 'is not out', 'is empty', 'in', 'is "A"'
            (
                "if count p in players where p is not out <= 1:",
                46,
                "'count' reads to the end of the expression; write (count p in players where p is not out) <= 1",
            ),
            (
                "if count p in players where p.hand is empty > 2:",
                49,
                "'count' reads to the end of the expression; write (count p in players where p.hand is empty) > 2",
            ),
            (
                "if count c in hand where c.rank in {J, Q} == 2:",
                47,
                "'count' reads to the end of the expression; write (count c in hand where c.rank in {J, Q}) == 2",
            ),
            (
                'if count c in hand where c is "A" == 1:',
                39,
                "'count' reads to the end of the expression; write (count c in hand where c is \"A\") == 1",
            ),
        ],
    )
    def test_e115_a_comparison_chained_to_a_quantifier(self, line: str, column: int, hint: str) -> None:
        d = syntax_error(HEADER + f"setup:\n    {line}\n        again\n")
        assert (d.code, d.line, d.column, d.hint) == ("E115", 3, column, hint)

    @pytest.mark.parametrize(
        "condition, column, hint",
        [
            ("a < b < c", 14, "a < b and b < c"),
            ("x.rank == r == 4", 20, "x.rank == r and r == 4"),
            ("(size of hand) >= 2 >= (n + 1)", 28, "(size of hand) >= 2 and 2 >= (n + 1)"),
            ("any c in hand where (c.x < 1 < c.y)", 37, "c.x < 1 and 1 < c.y"),
        ],
    )
    def test_e101_comparisons_do_not_chain(self, condition: str, column: int, hint: str) -> None:
        d = syntax_error(HEADER + f"setup:\n    if {condition}: again\n")
        assert where(d) == ("E101", "comparisons do not chain", 3, column)
        assert d.hint == "compare two values at a time, and join the tests with 'and': " + hint

    @pytest.mark.parametrize("condition", ["deck is empty == no", "p is not out != b", "x in {1, 2} == yes"])
    def test_e101_a_comparison_chained_to_another_test(self, condition: str) -> None:
        d = syntax_error(HEADER + f"setup:\n    if {condition}: again\n")
        assert (d.code, d.message) == ("E101", "comparisons do not chain")
        assert d.hint == "compare two values at a time, and join the tests with 'and'"

    @pytest.mark.parametrize(
        "condition, column, message",
        [
            ("any c in hand satisfies c.x", 26, "'any' and 'no' take 'where'; 'satisfies' goes with 'every'"),
            ("a and (no c in hand satisfies c.x)", 32, "'any' and 'no' take 'where'; 'satisfies' goes with 'every'"),
            (
                "every c in hand where c.x",
                28,
                "'every' takes 'satisfies'; 'where' goes with 'any', 'no', 'count' and the like",
            ),
        ],
    )
    def test_e101_the_joining_word_of_a_quantifier(self, condition: str, column: int, message: str) -> None:
        d = syntax_error(HEADER + f"define d = {condition}\n")
        assert where(d) == ("E101", message, 2, column)

    @pytest.mark.parametrize("loop", ["for each r in A to K:", "for r in A to K:"])
    def test_e101_a_loop_in_a_deck(self, loop: str) -> None:
        d = syntax_error(HEADER + f'deck:\n    {loop}\n        card "{{r}}": rank r\n')
        assert where(d) == ("E101", "a deck has no loops: a card line takes its ranges at its end", 3, 5)
        assert d.hint is not None and "for rank in A to K" in d.hint

    @pytest.mark.parametrize(
        "head, column",
        [("otherwise action draw:", 5), ("action draw when x otherwise:", 24), ("action draw: again otherwise", 24)],
    )
    def test_e101_otherwise_out_of_its_place(self, head: str, column: int) -> None:
        d = syntax_error(HEADER + f"phase play:\n    action a:\n        again\n    {head}\n        again\n")
        assert where(d) == ("E101", "'otherwise' goes right after the action's name and choices", 5, column)
        assert d.hint is not None and "action draw otherwise when" in d.hint

    @pytest.mark.parametrize(
        "text, column",
        [
            # inside an 'if' of an action, read as a procedure named 'require'
            ('phase play:\n    action a:\n        if x:\n            require y > 1, "r"\n', 13),
            ('phase play:\n    action a:\n        for each c in hand:\n            require x, "r"\n', 13),
            # after an effect of the setup, and in a phase outside its actions
            ('setup:\n    shuffle deck\n    require not x, "r"\n', 5),
            ('phase play:\n    require x, "r"\n', 5),
        ],
    )
    def test_e101_require_out_of_its_place(self, text: str, column: int) -> None:
        d = syntax_error(HEADER + text)
        assert (d.code, d.message, d.column) == (
            "E101",
            "'require' stands only among the first lines of an action, or at the top of the file",
            column,
        )
        assert d.hint == (
            "to require something only in some cases, put the case in the condition: "
            'require not CASE or CONDITION, "reason"'
        )

    @pytest.mark.parametrize(
        "statement, name, column",
        [
            ("passes += 1", "passes", 12),
            ("passes = passes + 1", "passes", 12),
            ("score -= 1", "score", 11),
            ("set passes += 1", "passes", 16),
            ("set p.n -= 1", "p.n", 13),
        ],
    )
    def test_e101_a_variable_changed_as_in_other_languages(self, statement: str, name: str, column: int) -> None:
        d = syntax_error(HEADER + f"setup:\n    {statement}\n")
        assert where(d) == ("E101", "a variable changes with 'set', 'add' or 'subtract'", 3, column)
        assert d.hint == f"write: set {name} = …, add 1 to {name}, or subtract 1 from {name}"

    def test_e101_else_if_as_in_other_languages(self) -> None:
        d = syntax_error(HEADER + "setup:\n    if x:\n        again\n    elif y:\n        again\n")
        assert where(d) == ("E101", "unknown statement 'elif'", 5, 5)
        assert d.hint == "write 'else if', indented like its 'if'"

    @pytest.mark.parametrize(
        "text, message, hint",
        [
            (
                "setup:\n    go to play with next player\n",
                "the next player is written 'player after player'",
                "'player after P' and 'player before P' are P's neighbours in turn order",
            ),
            (
                "setup:\n    go to play with player 1\n",
                "a seat is written 'seat 1'",
                "'player' is the player acting now; seats are numbered from 0",
            ),
            (
                "define d = count of hand\n",
                "'count' counts the elements of a collection that meet a condition",
                "write: size of hand, or count c in hand where c.rank == 7",
            ),
            (
                "define d = size(hand)\n",
                "'size' takes 'of', without brackets",
                "write: size of hand",
            ),
            (
                "setup:\n    deal all from deck to each hand\n",
                "'deal' takes a number of rounds",
                "to deal the whole deck, one card at a time: while deck is not empty: deal 1 from deck to each hand",
            ),
        ],
        ids=["next_player", "player_1", "count_of", "size_brackets", "deal_all"],
    )
    def test_e101_words_a_designer_may_try(self, text: str, message: str, hint: str) -> None:
        d = syntax_error(HEADER + text)
        assert (d.code, d.message, d.hint) == ("E101", message, hint)

    @pytest.mark.parametrize(
        "condition, char, hint",
        [("a && b", "&", "write 'and'"), ("a || b", "|", "write 'or'"), ("!a", "!", "write 'not', or '!=' to compare")],
    )
    def test_e102_operators_of_other_languages(self, condition: str, char: str, hint: str) -> None:
        d = syntax_error(HEADER + f"define d = {condition}\n")
        assert (d.code, d.message, d.hint) == ("E102", f"unexpected character '{char}'", hint)

    def test_e114_only_after_an_if(self) -> None:
        # `a 1` fails in the parser state of `if a 1`, but it lacks no 'then'.
        d = syntax_error(HEADER + "define d = a 1\n")
        assert where(d) == ("E101", "unexpected number 1", 2, 14)

    def test_e106_bare_keyword_line(self) -> None:
        d = syntax_error(HEADER + "setup:\n    again\n    shuffle\n")
        assert where(d) == (
            "E106",
            "'shuffle' is a keyword of the language: alone on a line it is an unfinished statement",
            4,
            5,
        )
        assert d.hint == "to run a procedure, give it another name than 'shuffle'"

    def test_parser_stops_at_the_first_error(self) -> None:
        with pytest.raises(ParseError) as info:
            parse(HEADER + "players 2 to 4 $\nzone @\n", "t.game")
        assert [(d.code, d.line) for d in info.value.diagnostics] == [("E102", 2)]
        assert str(info.value) == "t.game:2:16: error[E102]: unexpected character '$'"

    def test_file_without_final_newline(self) -> None:
        assert parse(HEADER + "setup:\n    shuffle deck").decls == (n.SetupDecl(body=(n.Shuffle(zone=DECK),)),)
        assert parse('game "g"').decls == ()


def test_parsing_pauses_the_cycle_collector_and_restores_it() -> None:
    seen: list[bool] = []
    real = parser_module._parse_tree

    def spy(*args: Any) -> Any:
        seen.append(gc.isenabled())
        return real(*args)

    with pytest.MonkeyPatch.context() as m:
        m.setattr(parser_module, "_parse_tree", spy)
        assert gc.isenabled()
        parse('game "T"\n')
        assert gc.isenabled()
        gc.disable()  # whoever disabled it finds it disabled
        try:
            parse('game "T"\n')
            assert not gc.isenabled()
        finally:
            gc.enable()
    assert seen == [False, False]
