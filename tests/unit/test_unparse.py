"""The formatter's exact output: precedence, strings, statements, comments, blank lines, long lines."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from ruledsl.format.fmt import format_file, format_source
from ruledsl.format.unparse import unparse
from ruledsl.syntax import nodes as n
from ruledsl.syntax.parser import parse, parse_expr
from ruledsl.text.errors import ParseError


def expr(text: str) -> str:
    """Parse an expression and write it back."""
    return unparse(parse_expr(text))


def fmt(text: str) -> str:
    """Format a file given as an indented block (dedented first)."""
    return format_source(textwrap.dedent(text).lstrip("\n"))


def dedent(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


class TestPrecedence:
    @pytest.mark.parametrize(
        ("source", "expected"),
        [
            # Prefix forms take the whole postfix operand: parentheses only where meant.
            ("top of pile.rank", "top of pile.rank"),
            ("(top of pile).rank", "(top of pile).rank"),
            ("top of (pile.rank)", "top of pile.rank"),
            ("top of (-x)", "top of (-x)"),
            ("top (3 - size of p.hand) of deck", "top (3 - size of p.hand) of deck"),
            ("top (n) of deck", "top n of deck"),
            ("size of (a + b)", "size of (a + b)"),
            ("size of run of tas sharing rank >= flush_size", "size of run of tas sharing rank >= flush_size"),
            ("seat (players - 1)", "seat (players - 1)"),
            ("player after (player after p)", "player after player after p"),
            ("players starting with left of leader", "players starting with left of leader"),
            # Arithmetic is left-associative.
            ("a - (b - c)", "a - (b - c)"),
            ("(a - b) - c", "a - b - c"),
            ("(a + b) * c", "(a + b) * c"),
            ("a * (b % c)", "a * (b % c)"),
            ("-(a + b)", "-(a + b)"),
            ("- -a", "--a"),
            ("-a.b", "-a.b"),
            # Comparisons do not chain.
            ("(a < b) == c", "(a < b) == c"),
            ("(a in b) in c", "(a in b) in c"),
            ("x not in (1 to 5)", "x not in (1 to 5)"),
            ("not (a in b)", "not a in b"),
            ("not (a and b)", "not (a and b)"),
            ("not not a", "not not a"),
            # and binds tighter than or; an `and` inside an `or` keeps parentheses for the reader.
            ("a or b and c", "a or (b and c)"),
            ("(a or b) and c", "(a or b) and c"),
            ("a or (b or c)", "a or (b or c)"),
            ("(a or b) or c", "a or b or c"),
            ("(a and b) and c", "a and b and c"),
            ("a and (b and c)", "a and (b and c)"),
            # Binder forms and if-values go in parentheses inside a larger expression.
            ("1 + (count c in hand)", "1 + (count c in hand)"),
            ("(count c in hand where c.x) > 1", "(count c in hand where c.x) > 1"),
            ("a and (any c in hand where c.x)", "a and (any c in hand where c.x)"),
            ("(if a then 1 else 2) + 1", "(if a then 1 else 2) + 1"),
            ("any c in (cards d in hand where d.x) where c.y", "any c in (cards d in hand where d.x) where c.y"),
            ("min(3, (count c in hand))", "min(3, count c in hand)"),
            (
                "if a then (if b then 1 else 2) else if c then 3 else 4",
                "if a then (if b then 1 else 2) else if c then 3 else 4",
            ),
            ("if (any c in h where c.x) then 1 else 2", "if (any c in h where c.x) then 1 else 2"),
            ("highest (count c in p.hand) for p in players", "highest (count c in p.hand) for p in players"),
            ("distinct c.value for c in hand where not c.joker", "distinct c.value for c in hand where not c.joker"),
            ("any c in hand where (c.x and c.y)", "any c in hand where c.x and c.y"),
            ("every c in cs satisfies identical(c, top of tas)", "every c in cs satisfies identical(c, top of tas)"),
            # Other atoms.
            ("( 1 ,2 )", "(1, 2)"),
            ("{ }", "{}"),
            ("{Moons,Suns}", "{Moons, Suns}"),
            ("f( )", "f()"),
            ("every card", "every card"),
            ('c is not "the Excuse"', 'c is not "the Excuse"'),
            ("p is not out", "p is not out"),
            ("deck is not empty", "deck is not empty"),
            ("c.suits overlaps top_card.suits", "c.suits overlaps top_card.suits"),
        ],
    )
    def test_expression(self, source: str, expected: str) -> None:
        assert expr(source) == expected
        assert parse_expr(expected) == parse_expr(source)

    def test_hand_built_trees_get_the_parentheses_they_need(self) -> None:
        count = n.Count(var="c", iterable=n.Name(id="hand"))
        assert unparse(n.Arith(op="*", left=count, right=n.Number(value=2))) == "(count c in hand) * 2"
        top = n.TopOf(zone=n.Name(id="pile"))
        assert unparse(n.Attribute(obj=top, name="rank")) == "(top of pile).rank"
        assert unparse(n.TopOf(zone=n.Negate(operand=n.Name(id="x")))) == "top of (-x)"
        seat = n.Seat(index=n.Arith(op="-", left=n.AllPlayers(), right=n.Number(value=1)))
        assert unparse(seat) == "seat (players - 1)"
        assert unparse(n.RangeLiteral(low=n.Number(value=1), high=n.Number(value=5))) == "(1 to 5)"


class TestStrings:
    @pytest.mark.parametrize(
        ("source", "expected"),
        [
            ('"play {c}"', '"play {c}"'),
            ('"{{literal}} and {x}"', '"{{literal}} and {x}"'),
            ('"}}{{"', '"}}{{"'),
            ('"{{{x}}}"', '"{{{x}}}"'),
            ('"a \\"quote\\" and a \\\\ backslash"', '"a \\"quote\\" and a \\\\ backslash"'),
            ('"line\\nbreak\\ttab"', '"line\\nbreak\\ttab"'),
            ('"\\q"', '"q"'),
            ('"{ {a, b} }"', '"{ {a, b} }"'),
            ('"{(top of pile).rank}s"', '"{(top of pile).rank}s"'),
            ('"{ size of hand }"', '"{size of hand}"'),
            ('""', '""'),
            ('"♠ {s}"', '"♠ {s}"'),
        ],
    )
    def test_template(self, source: str, expected: str) -> None:
        assert expr(source) == expected
        assert parse_expr(expected) == parse_expr(source)

    def test_hand_built_text(self) -> None:
        text = n.Text(parts=("{", n.Name(id="x"), '} "q" \\'))
        assert unparse(text) == '"{{{x}}} \\"q\\" \\\\"'
        assert parse_expr(unparse(text)) == text

    def test_plain_strings_keep_braces_single(self) -> None:
        # A card's name, the game's name and a description are not templates.
        source = 'game "G {x}"\n\noption o = 1\n    "uses {o}"\n\ndeck:\n    card "{rank}\\"": rank 1\n'
        assert format_source(source) == source
        assert unparse(n.GameHeader(name='a "b" {c}')) == 'game "a \\"b\\" {c}"'

    def test_a_string_cannot_hold_a_carriage_return(self) -> None:
        with pytest.raises(ValueError, match="carriage return"):
            unparse(n.Text(parts=("a\rb",)))

    def test_an_expression_in_a_string_cannot_hold_a_string(self) -> None:
        inner = n.IsNamed(operand=n.Name(id="c"), card_name="x")
        with pytest.raises(ValueError, match="cannot hold a string"):
            unparse(n.Text(parts=(inner,)))


class TestStatements:
    def test_blocks_go_on_their_own_lines(self) -> None:
        source = 'game "g"\nsetup: shuffle deck\nphase p: action a: again\nround end: end game\n'
        assert format_source(source) == dedent(
            """
            game "g"

            setup:
                shuffle deck

            phase p:
                action a:
                    again

            round end:
                end game
            """
        )

    def test_defaults_are_left_out(self) -> None:
        source = dedent(
            """
            game "g"
            var v = 1, public
            player var w: cards = {}, owner
            setup:
                move top of deck to hand at top
                move top of deck to hand at bottom face down
                refill()
                top_up(player)
                repeat 2 times: again
                repeat: stop
            """
        )
        assert format_source(source) == dedent(
            """
            game "g"

            var v = 1
            player var w: cards = {}, owner

            setup:
                move top of deck to hand
                move top of deck to hand at bottom face down
                refill
                top_up(player)
                repeat 2 times:
                    again
                repeat:
                    stop
            """
        )

    def test_every_statement(self) -> None:
        source = dedent(
            """
            game "g"

            setup:
                deal 7 from deck to each hand starting with left of dealer face up
                shuffle deck
                cut deck
                reveal top of deck
                turn up top of deck
                turn down c
                let x = 1
                set (top of deck).mark = yes
                add 1 to p.score
                subtract 5 from p.score
                stop
                again
                end turn
                end round
                end game
                end game, winner player
                end game, draw
                end game, winners cards p in players where p.score > 3
                go to play with seat 0
                go to play
                open cut
                reverse direction
                finish player
                say "hi {player}"
                for each r in 4 to A where natural(r):
                    stop
                for each p in (1 to 3):
                    stop
                while deck is not empty:
                    stop
                if a:
                    stop
                else if b:
                    again
                else:
                    if c:
                        stop
            """
        )
        formatted = format_source(source)
        assert formatted == source.replace("for each p in (1 to 3):", "for each p in 1 to 3:")
        assert parse(formatted) == parse(source)

    def test_label_and_strength_come_first(self) -> None:
        source = dedent(
            """
            game "g"
            auction b:
                action bid(n: number 1 to 5):
                    set x = n
                    strength (n, 1)
                    label "bid {n}"
            """
        )
        assert format_source(source) == dedent(
            """
            game "g"

            auction b:
                action bid(n: number 1 to 5):
                    label "bid {n}"
                    strength (n, 1)
                    set x = n
            """
        )


class TestDeclarations:
    def test_every_declaration(self) -> None:
        source = dedent(
            """
            game "g"

            players 2 to 6

            option double = no
                "a description"
            option decks: 1 to 2 = 1
            option mode: "one", "all" = "one"

            values suit: spades "♠", hearts "♥"
            values rank: 2, 3, J

            card suits: set of suit
            card owner_: player

            deck:
                card "A": rank 1, suits {spades} for suit in spades to hearts
                15 × card "{value}" for value in 1 to 5
                repeat decks times:
                    card "J"
                if double:
                    card "X"
                else:
                    card "Y"

            zone deck: shared, hidden
            zone hand: per player, owner

            var named: suit = none
            card var named_with: suit = none, hidden

            define kept = if double then max(2, n) else 2
            define held(v: number, c: card) = count c in hand where c.value == v

            to top_up(p: player):
                again

            when cs enter tas:
                again

            when cs enter p.hand:
                again

            phase play:
                on enter:
                    again
                action draw otherwise when can_draw:
                    again
                action play(c: card from hand with joker wild, q: player from players after player):
                    again

            auction bidding:
                action same(v: number 1 to 5, n: number 1 to held(v), s: suit):
                    strength (n, 1, v)
                action mixed(cs: 3 cards from faceup + hand, ds: cards of one rank from hand):
                    strength 1
                action sq(cs: 4 cards of value v from hand with joker wild, ds: cards of different value from hand):
                    strength 2
                pass:
                    label "pass"
                when won by w:
                    go to paying with w
                when unsold:
                    end round

            window cut for players after player:
                pass:
                    label "let it pass"

            round end:
                end game

            require players * 5 < size of every card, "{players} is too many"

            ranking: highest score, then lowest total_jokers

            standing: finishing order, then lowest size of hand
            """
        )
        assert format_source(source) == source

    def test_players_written_as_one_number_stay_so(self) -> None:
        assert format_source('game "g"\nplayers  4\n') == 'game "g"\n\nplayers 4\n'
        assert format_source('game "g"\nplayers 4 to 4\n') == 'game "g"\n\nplayers 4 to 4\n'

    def test_copies_are_written_with_the_times_sign(self) -> None:
        source = 'game "g"\ndeck:\n    3 x card "A"\n    n ×card "B"\n'
        assert format_source(source) == 'game "g"\n\ndeck:\n    3 × card "A"\n    n × card "B"\n'

    def test_an_indented_definition_body_comes_up(self) -> None:
        assert (
            fmt(
                """
            game "g"
            define f(c: card) =
                c.rank == 1
            """
            )
            == 'game "g"\n\ndefine f(c: card) = c.rank == 1\n'
        )

    def test_fragments(self) -> None:
        assert unparse(n.Choice(name="c", shape=n.CardChoice(pool=n.Name(id="hand")))) == "c: card from hand"
        assert unparse(n.SetType(element=n.NamedType(name="suit"))) == "set of suit"
        assert unparse(n.ChoiceDomain(choices=("a", "b"))) == '"a", "b"'
        assert unparse(n.RankingKey(order="finishing")) == "finishing order"
        assert unparse(n.CardLoop(name="v", low=n.Number(value=1), high=n.Number(value=5))) == "v in 1 to 5"

    def test_a_declaration_alone_has_no_final_newline(self) -> None:
        setup = n.SetupDecl(body=(n.Shuffle(zone=n.Name(id="deck")),))
        assert unparse(setup) == "setup:\n    shuffle deck"

    @pytest.mark.parametrize(
        "node",
        [
            n.Number(value=-1),
            n.TupleLiteral(items=(n.Number(value=1),)),
            n.ChoiceDomain(choices=("only",)),
            n.PlayerStep(player=n.ActingPlayer(), step=2),
            n.SetupDecl(body=()),
            n.EndGame(winner=n.ActingPlayer(), draw=True),
            n.EndGame(winner=n.ActingPlayer(), winners=n.AllPlayers()),
            n.PassDecl(label=None, body=()),
        ],
        ids=lambda node: type(node).__name__,
    )
    def test_a_tree_the_parser_cannot_build_is_refused(self, node: n.Node) -> None:
        with pytest.raises(ValueError):
            unparse(node)


class TestComments:
    def test_full_line_and_trailing_comments(self) -> None:
        source = dedent(
            """
            # Header comment.

            game "T"   # after the name
            players 2 to 4
            # before the option
            option x = 1    # option
                # between the option and its description
                "doc"   # description
            zone deck: shared, hidden # one space
            zone hand: per player, owner
            """
        )
        assert format_source(source) == dedent(
            """
            # Header comment.

            game "T"   # after the name

            players 2 to 4

            # before the option
            option x = 1    # option
                # between the option and its description
                "doc"   # description

            zone deck: shared, hidden  # one space
            zone hand: per player, owner
            """
        )

    def test_comments_in_blocks(self) -> None:
        source = dedent(
            """
            game "T"
            setup: shuffle deck   # one-line block
            phase play:
                action a:
                    if x: stop  # in one line
                    else if y:    # else if
                        again
                    # before else
                    else:   # else
                        again
                    # end of the block
                action b: again
            # at the end of the file
            """
        )
        assert format_source(source) == dedent(
            """
            game "T"

            setup:
                shuffle deck      # one-line block

            phase play:
                action a:
                    if x:
                        stop    # in one line
                    else if y:    # else if
                        again
                    # before else
                    else:   # else
                        again
                # end of the block
                action b:
                    again
            # at the end of the file
            """
        )

    def test_comments_inside_a_construct_that_becomes_one_line(self) -> None:
        source = dedent(
            """
            game "T"
            define d = (a    # on a
                # inside
                or b)        # on b
            phase play:
                action a(c: card from hand) when (  # on the head
                        c.rank == 1
                        # inside the condition
                        or c.rank == 2):
                    move c to hand
            """
        )
        assert format_source(source) == dedent(
            """
            game "T"

            # on a
            # inside
            define d = a or b  # on b

            phase play:
                # on the head
                # inside the condition
                action a(c: card from hand) when c.rank == 1 or c.rank == 2:
                    move c to hand
            """
        )

    def test_comments_on_broken_lines_stay_on_their_line(self) -> None:
        source = dedent(
            """
            game "T"

            define has_cards(p: player) = (
                p.hand is not empty         # the hand
                # then the table
                or p.faceup is not empty    # face up
                or p.facedown is not empty)
            """
        )
        assert format_source(source) == source

    def test_a_column_past_the_width_is_not_kept(self) -> None:
        code = "define d = " + " or ".join(["a_rather_long_name"] * 5)
        formatted = format_source(f'game "T"\n{code}  # why\n')
        assert formatted.splitlines()[-1] == "    or a_rather_long_name)  # why"

    def test_hashes_in_strings_are_not_comments(self) -> None:
        source = 'game "#1"\n\nsetup:\n    say "no # comment"  # a comment\n'
        assert format_source(source) == source


class TestBlankLines:
    def test_between_declarations(self) -> None:
        source = dedent(
            """
            game "g"
            players 2 to 4
            zone a: shared, hidden
            zone b: shared, hidden

            zone c: shared, hidden
            var x = 1
            define d = 1
            define e = 2
            setup:
                stop
            to p:
                stop
            to q:
                stop
            """
        )
        assert format_source(source) == dedent(
            """
            game "g"

            players 2 to 4

            zone a: shared, hidden
            zone b: shared, hidden

            zone c: shared, hidden

            var x = 1

            define d = 1
            define e = 2

            setup:
                stop

            to p:
                stop

            to q:
                stop
            """
        )

    def test_runs_collapse_and_none_start_a_block(self) -> None:
        source = dedent(
            """


            game "g"



            setup:

                # first

                shuffle deck



                stop


            """
        )
        assert format_source(source) == dedent(
            """
            game "g"

            setup:
                # first

                shuffle deck

                stop
            """
        )


class TestLongLines:
    def test_a_long_definition_is_broken_before_and_or(self) -> None:
        source = (
            'game "g"\n'
            "define has_cards(p: player) = p.hand is not empty or p.faceup is not empty or p.facedown is not empty\n"
        )
        assert format_source(source) == dedent(
            """
            game "g"

            define has_cards(p: player) = (
                p.hand is not empty
                or p.faceup is not empty
                or p.facedown is not empty)
            """
        )

    def test_a_long_if_value_is_broken_before_else(self) -> None:
        source = (
            'game "g"\ndefine source(p: player) = if p.hand is not empty or deck is not empty then p.hand '
            "else if p.faceup is not empty then p.faceup else p.facedown\n"
        )
        assert format_source(source) == dedent(
            """
            game "g"

            define source(p: player) = (
                if p.hand is not empty or deck is not empty then p.hand
                else if p.faceup is not empty then p.faceup
                else p.facedown)
            """
        )

    def test_a_long_operand_is_broken_inside_its_parentheses(self) -> None:
        source = dedent(
            """
            game "g"
            phase p:
                action cut(cs: cards of one rank from hand) when (source(player) != facedown
                    and ((cuts and (every c in cs satisfies identical(c, top of tas)))
                    or (flush_cuts and top_rank != Joker and size of cs >= flush_missing))):
                    again
            """
        )
        assert format_source(source) == dedent(
            """
            game "g"

            phase p:
                action cut(cs: cards of one rank from hand) when (
                        source(player) != facedown
                        and ((cuts and (every c in cs satisfies identical(c, top of tas)))
                             or (flush_cuts and top_rank != Joker and size of cs >= flush_missing))):
                    again
            """
        )

    def test_a_parenthesised_if_value_is_broken_before_else(self) -> None:
        source = (
            'game "g"\ndefine may_follow(c: card) = c is "the Excuse" or (if named != none then named in c.suits '
            "else (c.rank != none and c.rank == top_card.rank) or c.suits overlaps top_card.suits)\n"
        )
        assert format_source(source) == dedent(
            """
            game "g"

            define may_follow(c: card) = (
                c is "the Excuse"
                or (if named != none then named in c.suits
                    else (c.rank != none and c.rank == top_card.rank) or c.suits overlaps top_card.suits))
            """
        )

    def test_if_and_while_conditions_are_broken_too(self) -> None:
        long = " and ".join(f"condition_number_{i} > 0" for i in range(4))
        source = f'game "g"\nsetup:\n    if {long}:\n        stop\n    else if {long}:\n        stop\n'
        formatted = format_source(source)
        assert formatted == dedent(
            """
            game "g"

            setup:
                if (
                        condition_number_0 > 0
                        and condition_number_1 > 0
                        and condition_number_2 > 0
                        and condition_number_3 > 0):
                    stop
                else if (
                        condition_number_0 > 0
                        and condition_number_1 > 0
                        and condition_number_2 > 0
                        and condition_number_3 > 0):
                    stop
            """
        )
        source = f'game "g"\nsetup:\n    while {long}:\n        stop\n'
        assert format_source(source).splitlines()[3] == "    while ("

    def test_a_condition_that_cannot_be_broken_goes_on_the_next_line(self) -> None:
        source = (
            'game "g"\nphase p:\n'
            "    action pay_same(cs: bid_count cards of value bid_value from hand with joker wild) "
            "when bid_value > 0:\n"
            "        again\n"
        )
        assert format_source(source).splitlines()[3:5] == [
            "    action pay_same(cs: bid_count cards of value bid_value from hand with joker wild) when (",
            "            bid_value > 0):",
        ]

    def test_a_line_that_fits_is_joined(self) -> None:
        source = dedent(
            """
            game "g"
            define d = (
                a
                or b)
            phase p:
                action a when (
                        x
                        and y):
                    again
            """
        )
        assert format_source(source) == dedent(
            """
            game "g"

            define d = a or b

            phase p:
                action a when x and y:
                    again
            """
        )

    def test_a_long_binder_is_broken_at_its_condition(self) -> None:
        source = (
            'game "g"\ndefine c(p: player) = count c in p.hand where size of p.hand > 3 and size of deck < 10 '
            "and size of p.hand != 7 and size of deck > 1\n"
        )
        assert (
            format_source(source)
            == dedent(
                """
            game "g"

            define c(p: player) = (
                count c in p.hand where (
                    size of p.hand > 3
                    and size of deck < 10
                    and size of p.hand != 7
                    and size of deck > 1))
            """
            ).lstrip()
        )

    def test_a_long_sum_comparison_or_not_is_broken_before_its_operators(self) -> None:
        source = (
            'game "g"\ndefine s = size of hand + size of deck + size of hand * 2 + size of deck * 3 + size of hand * 4 '
            "+ size of deck * 5\n"
            "define d = (size of hand > 3 and size of deck < 10) == (size of hand != 7 and size of deck > 1 "
            "and size of deck > 2)\n"
            "define e = not (size of hand > 3 and size of deck < 10 and size of hand != 7 and size of deck > 1 "
            "and size of deck > 2)\n"
        )
        assert (
            format_source(source)
            == dedent(
                """
            game "g"

            define s = (
                size of hand
                + size of deck
                + size of hand * 2
                + size of deck * 3
                + size of hand * 4
                + size of deck * 5)
            define d = (
                (size of hand > 3 and size of deck < 10)
                == (size of hand != 7 and size of deck > 1 and size of deck > 2))
            define e = (
                not (
                    size of hand > 3
                    and size of deck < 10
                    and size of hand != 7
                    and size of deck > 1
                    and size of deck > 2))
            """
            ).lstrip()
        )

    def test_a_long_reason_breaks_no_short_condition(self) -> None:
        reason = "r" * 90
        source = f'game "g"\nphase p:\n    action a:\n        require x == 1, "{reason}"\n        again\n'
        assert f'require x == 1, "{reason}"' in format_source(source)

    def test_other_long_lines_stay_whole(self) -> None:
        message = "x" * 120
        source = f'game "g"\n\nsetup:\n    say "{message}"\n'
        assert format_source(source) == source


class TestEntryPoints:
    def test_parse_errors_are_raised(self) -> None:
        with pytest.raises(ParseError):
            format_source('game "g"\nsetup\n    stop\n', "bad.game")

    def test_line_ends_and_byte_order_mark(self) -> None:
        assert format_source('\ufeffgame "g"\r\nsetup:\r\n    stop  # x') == 'game "g"\n\nsetup:\n    stop  # x\n'

    def test_format_file(self, tmp_path: Path) -> None:
        path = tmp_path / "g.game"
        path.write_text('game "g"\nsetup: stop\n', encoding="utf-8")
        assert format_file(path) == ('game "g"\n\nsetup:\n    stop\n', True)
        path.write_text('game "g"\n\nsetup:\n    stop\n', encoding="utf-8")
        assert format_file(str(path)) == ('game "g"\n\nsetup:\n    stop\n', False)

    def test_crlf_files_differ_from_their_formatting(self, tmp_path: Path) -> None:
        path = tmp_path / "g.game"
        path.write_bytes(b'game "g"\r\n\r\nsetup:\r\n    stop\r\n')
        assert format_file(path) == ('game "g"\n\nsetup:\n    stop\n', True)

    def test_unparse_of_a_whole_file(self) -> None:
        file = n.GameFile(header=n.GameHeader(name="g"), decls=(n.SetupDecl(body=(n.Stop(),)),))
        assert unparse(file) == 'game "g"\n\nsetup:\n    stop\n'
