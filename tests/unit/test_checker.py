"""Checker tests: one per diagnostic code, each a small mutation of a minimal valid game."""

from __future__ import annotations

import pytest

from ruledsl.analysis.checker import CheckedGame, check
from ruledsl.loading import check_source
from ruledsl.resources import games_dir
from ruledsl.syntax.parser import parse
from ruledsl.text.errors import CheckError, Diagnostic, ParseError, Severity
from ruledsl.text.source import Source

# Line numbers matter: the tests below name them.
MINIMAL = """\
game "Mini"
players 2 to 4
zone deck: shared, hidden
zone hand: per player, owner
deck:
    card "A"
setup:
    shuffle deck
phase play:
    action draw when deck is not empty:
        move top of deck to hand
    action stop_game when deck is empty:
        end game, winner player
"""
NEXT_LINE = 14  # the line of anything appended to MINIMAL

# (code, message, line, column, hint)
Expected = tuple[str, str, int, int, str | None]


def replace(old: str, new: str, base: str = MINIMAL) -> str:
    """Return the minimal game with one piece of text replaced (it must occur exactly once)."""
    assert base.count(old) == 1, old
    return base.replace(old, new)


def append(extra: str, base: str = MINIMAL) -> str:
    return base + extra


def check_text(text: str) -> CheckedGame:
    source = Source("t.game", text)
    return check(parse(text, "t.game"), source)


def diagnostics(text: str) -> tuple[Diagnostic, ...]:
    """Every diagnostic of a file: those of the CheckError, or the warnings of a clean file."""
    try:
        return check_text(text).warnings
    except CheckError as exc:
        return exc.diagnostics


def summary(d: Diagnostic) -> Expected:
    return (d.code, d.message, d.line, d.column, d.hint)


def only(text: str) -> Expected:
    """The one diagnostic a file must have."""
    found = diagnostics(text)
    assert len(found) == 1, [summary(d) for d in found]
    return summary(found[0])


def test_minimal_game_is_clean() -> None:
    checked = check_text(MINIMAL)
    assert checked.warnings == ()
    assert sorted(checked.symbols.zones) == ["deck", "hand"]
    assert list(checked.symbols.phases) == ["play"]


def test_quasenbo_checks_clean() -> None:
    path = games_dir() / "quasenbo.game"
    checked = check_source(Source("games/quasenbo.game", path.read_text(encoding="utf-8")))
    assert checked.warnings == ()
    assert checked.file.name == "Quäsenbö"
    assert list(checked.symbols.phases) == ["play"]
    assert [a.name for a in checked.symbols.phases["play"].actions] == ["place", "play_excuse", "draw", "pass"]


# ============================================================================ E1xx in the checker


def test_e106_reserved_word_as_a_name() -> None:
    assert only(append("zone size: shared, public\n")) == (
        "E106",
        "'size' is a keyword of the language and cannot be used as a name",
        NEXT_LINE,
        6,
        "choose another name, such as 'size_'",
    )


def test_e106_caret_is_under_the_name_not_the_keyword() -> None:
    assert only(replace("shuffle deck", "let the = 1"))[:4] == (
        "E106",
        "'the' is a keyword of the language and cannot be used as a name",
        8,
        9,
    )


# ============================================================================ E2xx names


def test_e201_unknown_name() -> None:
    assert only(replace("shuffle deck", "let x = dek")) == (
        "E201",
        "unknown name 'dek'",
        8,
        13,
        "did you mean 'deck'? known names: deck, direction, hand, round",
    )


def drawing_requires(line: str) -> str:
    """The minimal game, its action draw's condition written as the line ``require ...``."""
    return replace("    action draw when deck is not empty:\n", f"    action draw:\n        {line}\n")


def test_e201_unknown_name_in_a_reason() -> None:
    # A reason is read only when a move is refused, but its names are checked at load time.
    text = drawing_requires('require deck is not empty, "no {card_left}"')
    assert only(text)[:4] == ("E201", "unknown name 'card_left'", 11, 41)


def test_a_reason_may_use_the_choices_and_the_state() -> None:
    text = append(
        "    action give(c: card from hand, q: player from players after player):\n"
        '        require size of hand > 1, "{c} is your last card; {q} holds {size of q.hand}"\n'
        "        move c to q.hand\n"
    )
    checked = check_text(text)
    assert checked.warnings == ()


def test_a_statement_keyword_names_a_zone() -> None:
    # 'require' opens a line, never an expression: a zone may be called so (issue 37: fewer reserved words).
    text = append("zone require: shared, public\n", replace("shuffle deck", "shuffle deck\n    shuffle require"))
    assert [summary(d) for d in diagnostics(text) if d.severity == Severity.ERROR] == []


def test_e301_a_reason_is_text() -> None:
    text = drawing_requires("require deck is not empty, 3")
    assert only(text)[:4] == ("E301", "expected text, found a number", 11, 36)


def test_e301_a_require_condition_is_yes_or_no() -> None:
    text = drawing_requires('require deck, "x"')
    assert only(text)[:3] == ("E301", "expected yes or no, found a zone", 11)


def test_e201_an_option_used_but_not_declared() -> None:
    """A misspelt option is an unknown name, with the declared option suggested."""
    text = replace("players 2 to 4\n", "players 2 to 4\noption hand_size = 3\n")
    text = replace(
        "        move top of deck to hand\n",
        "        move top of deck to hand\n        if hand_sise > 2: again\n",
        text,
    )
    assert only(text) == (
        "E201",
        "unknown name 'hand_sise'",
        13,
        12,
        "did you mean 'hand_size'? known names: deck, direction, hand, hand_size, round",
    )


def test_e201_unknown_zone_where_a_zone_is_expected() -> None:
    assert only(replace("shuffle deck", "shuffle dek")) == (
        "E201",
        "unknown zone 'dek'",
        8,
        13,
        "did you mean 'deck'? known zones: deck, hand",
    )


def test_e201_unknown_zone_in_deal() -> None:
    assert only(replace("shuffle deck", "deal 2 from deck to each hnd")) == (
        "E201",
        "unknown zone 'hnd'",
        8,
        30,
        "did you mean 'hand'? known zones: deck, hand",
    )


def test_e201_card_attribute_alone() -> None:
    assert only(append("card rank: number\ndefine d = rank\n")) == (
        "E201",
        "'rank' is a card attribute; say which card",
        NEXT_LINE + 1,
        12,
        "write c.rank for a card c, such as (top of pile).rank",
    )


def test_e201_hint_lists_no_names_when_there_are_many() -> None:
    many = "".join(f"var v{i} = {i}\n" for i in range(13))
    assert only(append(many + "define d = v99\n")) == (
        "E201",
        "unknown name 'v99'",
        NEXT_LINE + 13,
        12,
        "did you mean 'v9'?",
    )


@pytest.mark.parametrize(("word", "flag"), [("true", "yes"), ("False", "no"), ("TRUE", "yes")])
def test_e201_true_and_false_are_written_yes_and_no(word: str, flag: str) -> None:
    assert only(append(f"var flag = {word}\n")) == (
        "E201",
        f"unknown name '{word}'",
        NEXT_LINE,
        12,
        f"flags are written yes and no: write '{flag}'",
    )


def test_e202_name_defined_twice() -> None:
    assert only(append("zone deck: shared, public\n")) == (
        "E202",
        "'deck' is already defined (line 3)",
        NEXT_LINE,
        6,
        "every option, variable, zone, value, definition and procedure needs its own name",
    )


def test_e202_second_players_declaration() -> None:
    assert only(append("players 2 to 3\n")) == (
        "E202",
        "a second 'players' declaration",
        NEXT_LINE,
        1,
        "a game has only one; merge them",
    )


def test_e202_action_defined_twice() -> None:
    assert only(replace("action stop_game", "action draw")) == (
        "E202",
        "action 'draw' is already defined in 'play'",
        12,
        5,
        None,
    )


def test_e202_let_twice_in_a_block() -> None:
    assert only(replace("shuffle deck", "let x = 1\n    let x = 2")) == (
        "E202",
        "'x' is already named in this block",
        9,
        5,
        "use 'set' to change a variable, or choose another name",
    )


def test_e202_value_listed_twice() -> None:
    assert only(append("values suit: Moons, Suns, Moons\n")) == (
        "E202",
        "'Moons' is listed twice in 'suit'",
        NEXT_LINE,
        27,
        None,
    )


def test_e202_values_defined_twice_name_the_first() -> None:
    assert only(append("values suit: Moons, Suns\nvalues suit: Stars\n")) == (
        "E202",
        "values 'suit' are already defined (line 14)",
        NEXT_LINE + 1,
        8,
        "every list of values needs its own name; merge the two lists, or rename one",
    )


@pytest.mark.parametrize(
    ("second", "column"), [("card rank: number", 6), ("card var rank: number = 0", 10)], ids=["attribute", "card var"]
)
def test_e202_card_attribute_defined_twice_names_the_first(second: str, column: int) -> None:
    assert only(append(f"card rank: number\n{second}\n")) == (
        "E202",
        "cards already have an attribute 'rank' (line 14)",
        NEXT_LINE + 1,
        column,
        "every card attribute and card variable needs its own name",
    )


def test_e202_second_label_in_an_action() -> None:
    # Found while reading the action, so it is a syntax-stage error (the file is not checked further).
    with pytest.raises(ParseError) as info:
        check_text(
            replace(
                "        move top of deck to hand",
                '        label "a"\n        label "b"\n        move top of deck to hand',
            )
        )
    assert [(d.code, d.line, d.column) for d in info.value.diagnostics] == [("E202", 12, 9)]


def test_e203_unknown_attribute_in_the_deck() -> None:
    assert only(append("card rank: number\n", replace('card "A"', 'card "A": rnk 1'))) == (
        "E203",
        "cards have no attribute 'rnk'",
        6,
        15,
        "did you mean 'rank'? known attributes: rank",
    )


def test_e203_a_loop_variable_set_as_an_attribute_names_the_loop_that_does_it() -> None:
    # The loop of other languages, `rank r for r in 1 to 3`: one error at the loop, none at `rank r`.
    assert only(append("card rank: number\n", replace('card "A"', 'card "A": rank r for r in 1 to 3'))) == (
        "E203",
        "cards have no attribute 'r': a card line's loop names the attribute it sets",
        6,
        26,
        "write 'for rank in ...' and leave out 'rank r'",
    )


def test_e203_unknown_attribute_of_a_card() -> None:
    text = append("card rank: number\n", replace("when deck is not empty", "when (top of deck).rnk == 1"))
    assert only(text) == (
        "E203",
        "cards have no attribute 'rnk'",
        10,
        22,
        "did you mean 'rank'? known attributes: rank",
    )


def test_e204_unknown_value() -> None:
    assert only(append("values suit: Moons, Suns\ndefine s = suit.Mons\n")) == (
        "E204",
        "'suit' has no value 'Mons'",
        NEXT_LINE + 1,
        12,
        "did you mean 'Moons'? known values: Moons, Suns",
    )


def test_e205_unknown_phase() -> None:
    assert only(replace("end game, winner player", "end game, winner player\n        go to plya")) == (
        "E205",
        "unknown phase 'plya'",
        NEXT_LINE,
        15,
        "did you mean 'play'? known phases: play",
    )


def test_e207_no_card_of_that_name() -> None:
    assert only(replace("when deck is not empty", 'when top of deck is "B"')) == (
        "E207",
        "no card is named 'B'",
        10,
        22,
        "known cards: A",
    )


def test_e208_unknown_procedure() -> None:
    assert only(replace("shuffle deck", "refil")) == ("E208", "unknown procedure 'refil'", 8, 5, None)


def test_e208_unknown_procedure_did_you_mean() -> None:
    text = append("to refill:\n    shuffle deck\n", replace("shuffle deck\nphase", "refil\nphase"))
    assert only(text) == (
        "E208",
        "unknown procedure 'refil'",
        8,
        5,
        "did you mean 'refill'? known procedures: refill",
    )


def test_e208_unknown_definition() -> None:
    assert only(append("define d = fo(1)\n")) == (
        "E208",
        "unknown definition 'fo'",
        NEXT_LINE,
        12,
        "known definitions: abs, d, max, min, run_high, run_low, words",
    )


def test_e209_unknown_window() -> None:
    assert only(replace("shuffle deck", "open cut")) == ("E209", "unknown window 'cut'", 8, 10, None)


def test_e210_unknown_type() -> None:
    assert only(append("card rank: numbr\n")) == (
        "E210",
        "unknown type 'numbr'",
        NEXT_LINE,
        12,
        "did you mean 'number'? known types: card, cards, flag, number, player, text, zone",
    )


def test_e210_unknown_values_in_a_choice() -> None:
    text = append("values suit: Moons\n", replace("action draw when", "action draw(s: suitt) when"))
    assert only(text) == ("E210", "unknown values 'suitt'", 10, 20, "did you mean 'suit'? known values: suit")


def test_e211_option_declared_later() -> None:
    assert only(append("option a = b\noption b = 1\n")) == (
        "E211",
        "option 'b' is declared later and cannot be used here",
        NEXT_LINE,
        12,
        "an option's default may use 'players' and the options above it",
    )


def test_e211_zone_at_load_time() -> None:
    assert only(append("var v = size of deck\n")) == (
        "E211",
        "'deck' cannot be used here: only options, 'players' and fixed values are known when the game is loaded",
        NEXT_LINE,
        17,
        None,
    )


def test_e212_acting_player_where_there_is_none() -> None:
    assert only(append("var v: player = player\n")) == (
        "E212",
        "'player' (the player acting) has no meaning here",
        NEXT_LINE,
        17,
        None,
    )


# ============================================================================ E3xx types


def test_e301_type_mismatch() -> None:
    assert only(append("var v = 0\n", replace("shuffle deck", "set v = deck"))) == (
        "E301",
        "this variable holds a number, not a zone",
        8,
        13,
        None,
    )


def test_e301_with_hint() -> None:
    assert only(replace("when deck is not empty", "when deck")) == (
        "E301",
        "expected yes or no, found a zone",
        10,
        22,
        "to test for cards, write 'is empty' or 'is not empty'",
    )


def test_e301_zone_attribute_hint() -> None:
    assert only(append("card rank: number\ndefine d = top of deck.rank\n")) == (
        "E301",
        "a zone has no attribute 'rank'",
        NEXT_LINE + 1,
        19,
        "for the top card's rank, write (top of deck).rank",
    )


@pytest.mark.parametrize(
    ("winners", "message", "hint"),
    [
        ("player", "'winners' takes players, found a player", "for one player, write 'end game, winner P'"),
        ("none", "'winners' needs players, found no player", "a game nobody wins: 'end game, draw'"),
        ("{}", "'winners' needs players, found no player", "a game nobody wins: 'end game, draw'"),
        (
            "hand",
            "'winners' takes players, found a zone",
            "for players chosen by a condition: 'cards p in players where …'",
        ),
    ],
)
def test_e301_winners_are_players(winners: str, message: str, hint: str) -> None:
    assert only(replace("end game, winner player", f"end game, winners {winners}")) == ("E301", message, 13, 27, hint)


@pytest.mark.parametrize(
    "winners", ["players", "players after player", "cards p in players where p != player", "side(player)"]
)
def test_winners_take_any_collection_of_players(winners: str) -> None:
    define = "define side(p: player) = cards q in players where q == p or q == left of left of p\n"
    assert check_text(append(define, replace("end game, winner player", f"end game, winners {winners}"))).warnings == ()


@pytest.mark.parametrize(
    ("written", "hint"),
    [
        ("bottom of deck.rank", "for the bottom card's rank, write (bottom of deck).rank"),
        ("bottom 2 of player.hand.rank", "for the bottom card's rank, write (bottom of player.hand).rank"),
        ("deck.rank", "for the top card's rank, write (top of deck).rank"),
    ],
)
def test_e301_zone_attribute_hint_names_the_end_written(written: str, hint: str) -> None:
    """`bottom of deck.rank` reads `bottom of (deck.rank)`: the hint keeps the end the rule wrote."""
    found = only(append(f"card rank: number\ndefine d = {written}\n"))
    assert found[:2] == ("E301", "a zone has no attribute 'rank'")
    assert found[4] == hint


def test_e302_bad_player_range() -> None:
    assert only(replace("players 2 to 4", "players 5 to 3")) == (
        "E302",
        "cannot play with 5 to 3 players",
        2,
        1,
        "write a range such as 'players 2 to 6' (at most 16)",
    )


def test_e302_a_player_range_written_with_a_dash() -> None:
    # 'players 2-4' reads as one count, 2 minus 4.
    assert only(replace("players 2 to 4", "players 2-4")) == (
        "E302",
        "'2-4' is a subtraction, -2 players: a range is written with 'to'",
        2,
        1,
        "write: players 2 to 4",
    )


def test_e302_wrong_argument_count() -> None:
    assert only(append("define f(c: card) = c\ndefine g = f()\n")) == (
        "E302",
        "'f' takes 1 argument (c), not 0",
        NEXT_LINE + 1,
        12,
        None,
    )


@pytest.mark.parametrize(
    ("decl", "message"),
    [
        ("card var v = 0, unlisted", "a card variable is never listed in a player's view; it takes no 'unlisted'"),
        ("var v = 0, hidden, unlisted", "a hidden variable is shown to nobody already; 'unlisted' says nothing more"),
    ],
)
def test_e302_unlisted_where_nothing_is_listed(decl: str, message: str) -> None:
    assert only(append(decl + "\n")) == ("E302", message, NEXT_LINE, 1, None)


def test_unlisted_public_and_owner_variables_check() -> None:
    assert diagnostics(append("var v = 0, unlisted\nplayer var w = 0, owner, unlisted\n")) == ()


def test_e303_type_of_none() -> None:
    assert only(append("var v = none\n")) == (
        "E303",
        "the type of 'v' cannot be told from 'none'",
        NEXT_LINE,
        9,
        "write its type, such as: var v: card = none",
    )


def test_e303_deal_to_a_shared_zone() -> None:
    assert only(replace("shuffle deck", "deal 2 from deck to each deck")) == (
        "E303",
        "'deck' is shared; 'deal ... to each' needs a zone of each player",
        8,
        5,
        None,
    )


def test_e304_move_a_zone() -> None:
    assert only(replace("shuffle deck", "move deck to hand")) == (
        "E304",
        "move cards, not a zone",
        8,
        10,
        "to move every card of a zone, write 'all of' before it",
    )


def test_e304_set_something_not_a_variable() -> None:
    assert only(replace("shuffle deck", "set deck = 1")) == (
        "E304",
        "this cannot be given a new value",
        8,
        9,
        "only variables declared with 'var' (or 'player var', 'card var') can change",
    )


DIRECTION_HINT = "'reverse direction' turns play around; to skip players, give the turn with 'go to PHASE with P'"


@pytest.mark.parametrize(
    ("statement", "message", "column"),
    [
        ("set direction = 2", "direction is 1 (clockwise) or -1 (counterclockwise), not 2", 21),
        ("set direction = 1 - 1", "direction is 1 (clockwise) or -1 (counterclockwise), not 0", 21),
        ("set direction = none", "direction is 1 (clockwise) or -1 (counterclockwise), not none", 21),
        ("add 1 to direction", "direction is 1 (clockwise) or -1 (counterclockwise): adding 1 makes it 2 or 0", 9),
        (
            "subtract 3 from direction",
            "direction is 1 (clockwise) or -1 (counterclockwise): subtracting 3 makes it -2 or -4",
            14,
        ),
    ],
)
def test_e301_a_direction_other_than_1_or_minus_1(statement: str, message: str, column: int) -> None:
    assert only(replace("shuffle deck", statement)) == ("E301", message, 8, column, DIRECTION_HINT)


@pytest.mark.parametrize(
    "statement",
    ["set direction = -1", "set direction = 0 - 1", "set direction = -direction", "add 2 to direction", "set x = 2"],
)
def test_a_direction_of_1_or_minus_1_or_not_known_when_checked_is_accepted(statement: str) -> None:
    # 'add 2' is right from -1; a value not written as a constant is checked when it is set (R504).
    assert diagnostics(append("var x = 0\n", replace("shuffle deck", statement))) == ()


VALUES = append("values rank: A, 2, 3, 10, J, Q, K\ncard rank: rank\n")


@pytest.mark.parametrize(
    ("statement", "message", "hint"),
    [
        (
            "for each r in rank:\n        shuffle deck",
            "a loop cannot go through 'rank', the name of a list of values",
            "to go through every value of 'rank', write for each r in A to K",
        ),
        (
            "let n = count r in rank where r > 2",
            "a loop cannot go through 'rank', the name of a list of values",
            "to go through every value of 'rank', write the range (A to K)",
        ),
        ("let v = rank", "'rank' names a list of values, not one value", "write one of: A, 2, 3, 10, J, Q, K"),
    ],
)
def test_e304_the_name_of_a_values_list(statement: str, message: str, hint: str) -> None:
    code, found, line, _column, found_hint = only(replace("shuffle deck\n", statement + "\n", VALUES))
    assert (code, found, line, found_hint) == ("E304", message, 8, hint)


def test_e304_a_long_values_list_is_cut_with_an_ellipsis() -> None:
    text = append("values n: a, b, c, d, e, f, g, h, i\nvar v: n = n\n")
    assert only(text)[4] == "write one of: a, b, c, d, e, f, g, h, …"


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        # A card loop the wrong way round would make no card; the deal would then blame the deck's size.
        (
            '    card "A"\n',
            '    card "{rank}" for rank in K to A\n',
            ("E305", "the range K to A is empty: K comes after A in 'rank'", 6, 31, "write A to K"),
        ),
        (
            "    shuffle deck\n",
            "    shuffle deck\n    for each r in K to 2:\n        shuffle deck\n",
            ("E305", "the range K to 2 is empty: K comes after 2 in 'rank'", 9, 19, "write 2 to K"),
        ),
        (
            "    shuffle deck\n",
            "    shuffle deck\n    let n = count i in (5 to 1)\n",
            ("E305", "the range 5 to 1 is empty: 5 is more than 1", 9, 25, "write 1 to 5"),
        ),
    ],
)
def test_e305_a_range_written_the_wrong_way_round(old: str, new: str, expected: Expected) -> None:
    code, message, line, column, hint = only(replace(old, new, VALUES))
    assert (code, message, line, column) == expected[:4]
    assert hint is not None and hint.startswith(expected[4] + " (a range ")


def test_e305_not_for_ranges_in_order_or_not_known_when_checked() -> None:
    text = replace('    card "A"\n', '    card "{rank}" for rank in A to K\n', VALUES)
    text = append("define d(n: number) = (count i in (n to 1)) + (count r in (Q to Q))\n", text)
    assert diagnostics(text) == ()


# ============================================================================ E4xx structure and warnings


def test_e401_missing_declaration() -> None:
    assert only(replace("players 2 to 4\n", "")) == (
        "E401",
        "the game has no 'players' declaration",
        1,
        1,
        "add a line such as: players 2 to 6",
    )


def test_e401_every_missing_declaration() -> None:
    assert [summary(d) for d in diagnostics('game "Empty"\n')] == [
        ("E401", "the game has no 'players' declaration", 1, 1, "add a line such as: players 2 to 6"),
        ("E401", "the game has no 'deck:' declaration", 1, 1, 'list the cards under "deck:"'),
        (
            "E401",
            "the game has no 'setup:' declaration",
            1,
            1,
            "add 'setup:' with the shuffle, the deal and who starts",
        ),
        ("E401", "the game has no phase", 1, 1, "add one, with what its player may do: phase play: action name: ..."),
    ]


def test_e402_game_never_ends() -> None:
    assert only(replace("end game, winner player", "again")) == (
        "E402",
        "the game never ends: no rule says 'end game'",
        1,
        1,
        "add a rule such as: if hand is empty: end game, winner player",
    )


def test_a_phase_of_effects_alone_that_hands_play_on_is_clean() -> None:
    found = diagnostics(
        append("phase other:\n    on enter:\n        go to play\n", replace("shuffle deck", "go to other"))
    )
    assert found == ()


def test_e403_phase_without_action_nor_on_enter() -> None:
    found = diagnostics(
        append("phase other:\n    action a:\n        again\nphase last:\n    when unsold: go to play\n")
    )
    assert [summary(d)[:4] for d in found if d.code == "E403"] == [
        ("E403", "phase 'last' has neither an action nor 'on enter:'", NEXT_LINE + 3, 1),
    ]


def test_e403_phase_of_effects_that_never_hands_play_on() -> None:
    found = diagnostics(
        append("phase other:\n    on enter:\n        shuffle deck\n", replace("shuffle deck", "go to other"))
    )
    assert [summary(d) for d in found] == [
        (
            "E403",
            "phase 'other' has no action, and its 'on enter:' never hands play on",
            NEXT_LINE,
            1,
            "a phase made of effects alone must end with 'go to <phase>', 'end round' or 'end game'",
        ),
    ]


def test_e403_a_phase_of_effects_may_hand_on_through_a_procedure() -> None:
    text = append(
        "to deal_out:\n    go to play\nphase other:\n    on enter:\n        deal_out\n",
        replace("shuffle deck", "go to other"),
    )
    assert diagnostics(text) == ()


def test_window_when_all_pass_twice_is_e202_and_may_not_open_a_window() -> None:
    text = append(
        "window w for players after player:\n    action x:\n        again\n"
        "    when all pass:\n        open w\n    when all pass:\n        again\n",
        replace("move top of deck to hand", "move top of deck to hand\n        open w"),
    )
    found = [(d.code, d.message) for d in diagnostics(text)]
    assert ("E202", "window 'w' has a second 'when all pass:'") in found
    assert ("E406", "a window cannot open another when it closes") in found


def test_e403_auction_without_handlers() -> None:
    text = append("auction bid:\n    action b:\n        strength 1\n", replace("shuffle deck", "go to bid"))
    assert [summary(d) for d in diagnostics(text)] == [
        ("E403", "auction 'bid' has no 'when won by <name>:'", NEXT_LINE, 1, "say what the winner gets"),
        ("E403", "auction 'bid' has no 'when unsold:'", NEXT_LINE, 1, "say what happens when everybody passes"),
    ]


def test_e405_definition_cycle() -> None:
    assert only(append("define a = b\ndefine b = a\n")) == (
        "E405",
        "'a' is defined in terms of itself (a -> b -> a)",
        NEXT_LINE,
        1,
        "a definition cannot use itself, even through others",
    )


def test_definitions_are_typed_before_the_definitions_using_them() -> None:
    # Used before they are declared, through a call, a run key and a quantifier.
    text = append(
        "card rank: number\n"
        "define top_rank = if deck is empty then 0 else rank_of(top of deck)\n"
        "define rank_of(c: card) = c.rank + bonus\n"
        "define any_high = any c in deck where rank_of(c) > bonus\n"
        "define bonus = 1\n",
        replace("when deck is not empty", "when deck is not empty and top_rank > 0 and any_high"),
    )
    checked = check_text(text)
    assert {name: str(d.type) for name, d in checked.symbols.defines.items()} == {
        "top_rank": "a number",
        "rank_of": "a number",
        "any_high": "yes or no",
        "bonus": "a number",
    }


def test_a_name_a_quantifier_binds_is_not_the_definition_of_that_name() -> None:
    # 'c' of 'any c in ...' hides the definition 'c': no cycle through it.
    text = append("define c = 1\ndefine d = any c in hand where uses(c)\ndefine uses(c: card) = d\n")
    assert [s[0] for s in map(summary, diagnostics(text))] == ["E405"]
    text = append("define c = d\ndefine d = any c in hand where c == top of hand\n")
    assert diagnostics(text) == ()


def test_a_zone_defined_in_terms_of_itself_is_e405_once() -> None:
    text = append("define z = z\nto f:\n    move top of deck to z\n")
    assert [summary(d)[:3] for d in diagnostics(text) if d.is_error] == [
        ("E405", "'z' is defined in terms of itself (z -> z)", NEXT_LINE)
    ]


def test_a_long_cycle_of_definitions_is_named_by_its_ends() -> None:
    text = append("".join(f"define d{i} = d{i + 1}\n" for i in range(20)) + "define d20 = d0\n")
    assert only(text)[1] == "'d0' is defined in terms of itself (d0 -> d1 -> d2 -> d3 -> ... -> d19 -> d20 -> d0)"


def test_e405_procedure_cycle() -> None:
    assert only(append("to p:\n    q\nto q:\n    p\n")) == (
        "E405",
        "procedure 'p' runs itself (p -> q -> p)",
        NEXT_LINE,
        1,
        "use 'repeat' or 'while' for a rule that repeats",
    )


def test_e405_procedure_cycle_at_the_end_of_a_chain() -> None:
    # p0 -> ... -> p5 do not run themselves; p6 and p7 do, through each other.
    chain = "".join(f"to p{i}:\n    p{i + 1}\n" for i in range(7)) + "to p7:\n    p6\n"
    code, message, *_ = only(append(chain))
    assert (code, message) == ("E405", "procedure 'p6' runs itself (p6 -> p7 -> p6)")


def test_a_long_chain_of_procedures_is_no_cycle() -> None:
    chain = "".join(f"to p{i}:\n    p{i + 1}\n" for i in range(300)) + "to p300:\n    shuffle deck\n"
    assert [d for d in diagnostics(append(chain)) if d.is_error] == []


def test_e405_trigger_sets_itself_off() -> None:
    text = append(
        "zone pile: shared, public\nwhen cs enter pile:\n    move top of deck to pile\n",
        replace("move top of deck to hand", "move top of deck to pile"),
    )
    assert only(text) == (
        "E405",
        "this rule moves cards into 'pile', which sets itself off again",
        NEXT_LINE + 2,
        5,
        "move the cards elsewhere, or run the effect from the action instead",
    )


ZONES = "zone north: shared, public\nzone south: shared, public\nzone east: shared, public\n"


def test_e405_triggers_setting_each_other_off_through_three_zones() -> None:
    text = append(
        ZONES
        + "when cs enter north:\n    move cs to south\n"
        + "when cs enter south:\n    let there = east\n    move cs to there\n"
        + "when cs enter east:\n    if size of east > 2:\n        move all of east to north\n"
        + "to start:\n    move top of deck to north\n",
        replace("shuffle deck", "start"),
    )
    assert only(text) == (
        "E405",
        "this rule moves cards into 'south', which sets off rules that move cards back into 'north' "
        "(north -> south -> east -> north)",
        NEXT_LINE + 4,
        5,
        "move the cards elsewhere, or run the effect from the action instead",
    )


def test_triggers_handing_cards_on_without_a_cycle_are_clean() -> None:
    text = append(
        ZONES
        + "when cs enter north:\n    move cs to south\n"
        + "when cs enter south:\n    move cs to east\n"
        + "when cs enter east:\n    move top of deck to hand\n"
        + "to start:\n    move top of deck to north\n",
        replace("shuffle deck", "start"),
    )
    assert diagnostics(text) == ()


def test_e405_a_deal_sets_off_the_rule_of_its_zone() -> None:
    text = append("when cs enter hand:\n    deal 1 from deck to each hand\n")
    assert only(text)[:3] == ("E405", "this rule moves cards into 'hand', which sets itself off again", NEXT_LINE + 1)


def test_a_rule_on_a_zone_of_each_player_names_its_owner_in_its_effects() -> None:
    text = append("player var got = 0\nwhen cs enter p.hand:\n    add size of cs to p.got\n    move cs to p.hand\n")
    assert only(text)[:3] == ("E405", "this rule moves cards into 'hand', which sets itself off again", NEXT_LINE + 3)
    checked = check_text(append("player var got = 0\nwhen cs enter p.hand:\n    add size of cs to p.got\n"))
    assert checked.warnings == ()


def test_the_owner_is_seen_in_the_rule_only() -> None:
    text = append("when cs enter p.hand:\n    again\ndefine mine = size of p.hand\n")
    assert only(text)[:4] == ("E201", "unknown name 'p'", NEXT_LINE + 2, 23)


def test_e303_a_shared_zone_has_no_owner() -> None:
    assert only(append("when cs enter p.deck:\n    again\n", replace("to hand", "to deck"))) == (
        "E303",
        "'deck' is shared; 'when cs enter p.deck' needs a zone of each player",
        NEXT_LINE,
        17,
        "write 'when cs enter deck:' for a shared zone",
    )


@pytest.mark.parametrize(
    ("rule", "message", "column"),
    [
        ("when cs enter deck.hand:", "'deck' already names something else; here it would name the player", 15),
        ("when cs enter round.hand:", "'round' already names something else; here it would name the player", 15),
        ("when cs enter cs.hand:", "'cs' already names the cards that entered", 15),
    ],
)
def test_e202_the_owner_takes_a_name_of_its_own(rule: str, message: str, column: int) -> None:
    code, found, line, col, _ = only(append(rule + "\n    again\n"))
    assert (code, line, col) == ("E202", NEXT_LINE, column) and found.startswith(message)


def test_e202_a_games_name_as_owner_would_read_as_that_player_only() -> None:
    text = append("var dealer: player = seat 0\nwhen cs enter dealer.hand:\n    again\n")
    assert only(text)[4] == (
        "choose a new name (when cs enter p.hand:); to act for one player only, "
        "test him in the effects: if p == dealer:"
    )


def test_e106_the_cards_that_entered_are_no_keyword() -> None:
    assert only(append("when size enter p.hand:\n    again\n"))[:4] == (
        "E106",
        "'size' is a keyword of the language and cannot be used as a name",
        NEXT_LINE,
        6,
    )


def test_the_owner_may_be_a_word_that_only_follows_an_expression() -> None:
    # 'then' never opens an expression, so it is no reserved word: it may name the owner.
    assert [d.code for d in diagnostics(append("when cs enter then.hand:\n    again\n"))] == []


def test_e201_a_rule_on_an_unknown_zone() -> None:
    assert only(append("when cs enter p.hnad:\n    again\n")) == (
        "E201",
        "unknown zone 'hnad'",
        NEXT_LINE,
        17,
        "did you mean 'hand'? known zones: deck, hand",
    )


def test_e406_stop_outside_a_loop() -> None:
    assert only(replace("shuffle deck", "stop")) == (
        "E406",
        "'stop' leaves a loop, but it is not inside one",
        8,
        5,
        "use it inside 'repeat', 'while' or 'for each'",
    )


def test_e406_pass_in_a_phase() -> None:
    assert only(replace("    action stop_game", '    pass:\n        label "p"\n    action stop_game')) == (
        "E406",
        "'pass:' belongs in an auction or a window",
        12,
        5,
        "in a phase, write an action named pass",
    )


def test_e406_strength_outside_an_auction() -> None:
    assert only(
        replace("        move top of deck to hand", "        strength 1\n        move top of deck to hand")
    ) == (
        "E406",
        "'strength' belongs to the bids of an auction",
        11,
        18,
        "declare the phase with 'auction name:'",
    )


def test_e406_otherwise_bid() -> None:
    auction = (
        "auction bid:\n    action b otherwise:\n        strength 1\n"
        "    when won by w:\n        again\n    when unsold:\n        again\n"
    )
    text = append(auction, replace("end game, winner player", "end game, winner player\n        go to bid"))
    assert only(text) == (
        "E406",
        "a bid cannot be 'otherwise': passing is always possible in an auction",
        NEXT_LINE + 2,
        5,
        None,
    )


def test_require_is_checked_at_load_time() -> None:
    assert diagnostics(append('require players * 2 <= size of every card, "too many players: {players}"\n')) == ()
    assert only(append('require size of deck > 1, "x"\n')) == (
        "E211",
        "'deck' cannot be used here: only options, 'players' and fixed values are known when the game is loaded",
        NEXT_LINE,
        17,
        None,
    )
    assert only(append('require 1, "x"\n')) == ("E301", "expected yes or no, found a number", NEXT_LINE, 9, None)


def test_e407_endless_repeat() -> None:
    assert only(replace("shuffle deck", "repeat:\n        shuffle deck")) == (
        "E407",
        "this 'repeat' has no count and no 'stop': it would never end",
        8,
        5,
        "write 'repeat N times:' or put a 'stop' in it",
    )


SEAT_HINT = (
    "seats are numbered from 0: with 4 players they are seat 0 to seat 3; the last player is 'seat (players - 1)'"
)


@pytest.mark.parametrize(("seat", "shown"), [("7", "seat 7"), ("(-1)", "seat -1")])
def test_e409_a_seat_no_allowed_player_count_has(seat: str, shown: str) -> None:
    assert only(replace("shuffle deck", f"go to play with seat {seat}")) == (
        "E409",
        f"{shown} does not exist with any number of players the game allows (2 to 4)",
        8,
        21,
        SEAT_HINT,
    )


def test_e409_a_seat_worked_out_from_players() -> None:
    assert only(replace("shuffle deck", "go to play with seat (players + 1 - 1)")) == (
        "E409",
        "'seat (players + 1 - 1)' (seat 2 with 2 players) does not exist with any number of players the game "
        "allows (2 to 4)",
        8,
        21,
        SEAT_HINT,
    )


def test_w404_a_seat_some_allowed_player_counts_have_not() -> None:
    checked = check_text(replace("shuffle deck", "go to play with seat 3"))
    assert [summary(d) for d in checked.warnings] == [
        (
            "W404",
            "seat 3 does not exist with 2 or 3 players",
            8,
            21,
            "seats are numbered from 0: with 2 players they are seat 0 to seat 1; "
            "test 'players' first, or refuse fewer players with 'require'",
        )
    ]


W405_HINT = (
    "to play another round, add 'round end:' (with 'end game' after the last round); to end the game, write 'end game'"
)


def test_w405_end_round_without_round_end_ends_the_game_and_says_so() -> None:
    # The runtime ends the game at such an 'end round', so it is no E402 'never ends' either.
    checked = check_text(replace("end game, winner player", "end round"))
    assert [summary(d) for d in checked.warnings] == [
        ("W405", "'end round' ends the game: there is no 'round end:' section", 13, 9, W405_HINT)
    ]


def test_no_w405_when_a_round_end_section_follows_the_round() -> None:
    text = replace("end game, winner player", "end round") + "round end:\n    if round == 3: end game\n"
    assert [d.code for d in diagnostics(text)] == []


def test_e402_still_when_rounds_follow_each_other_for_ever() -> None:
    text = replace("end game, winner player", "end round") + "round end:\n    shuffle deck\n"
    assert [d.code for d in diagnostics(text)] == ["E402"]


@pytest.mark.parametrize(
    "rule",
    [
        "go to play with seat (players - 1)",
        "go to play with seat (max(players - 2, 1))",
        "if players > 3:\n        go to play with seat 3",
        "go to play with seat (if players == 4 then 3 else 0)",
        "go to play with seat (round % players)",  # known only while playing
    ],
)
def test_seats_every_allowed_count_has_or_known_only_in_play_are_clean(rule: str) -> None:
    assert check_text(replace("shuffle deck", rule)).warnings == ()


def test_w401_phase_never_reached() -> None:
    checked = check_text(append("phase other:\n    action x:\n        again\n"))
    assert [summary(d) for d in checked.warnings] == [
        (
            "W401",
            "phase 'other' is never reached: no rule goes to it",
            NEXT_LINE,
            1,
            "write 'go to other' where it should begin, or remove it",
        )
    ]
    assert checked.warnings[0].severity is Severity.WARNING


def test_w402_window_never_opened() -> None:
    checked = check_text(append("window w for players after player:\n    action x:\n        again\n"))
    assert [summary(d) for d in checked.warnings] == [
        ("W402", "window 'w' is never opened", NEXT_LINE, 1, "write 'open w' in the rule after which it applies")
    ]


def test_w403_trigger_never_runs() -> None:
    checked = check_text(append("zone pile: shared, public\nwhen cs enter pile:\n    again\n"))
    assert [summary(d) for d in checked.warnings] == [
        ("W403", "this rule never runs: no card is ever moved to 'pile'", NEXT_LINE + 1, 1, None)
    ]


# ============================================================================ all at once


def test_several_errors_reported_at_once_sorted_by_position() -> None:
    # Found in the order: E210 (pass 2, line 14), E201 (line 8), E402 (last, line 1).
    text = append(
        "card rank: numbr\n", replace("shuffle deck", "shuffle dek").replace("end game, winner player", "again")
    )
    with pytest.raises(CheckError) as info:
        check_text(text)
    assert [(d.code, d.line, d.column) for d in info.value.diagnostics] == [
        ("E402", 1, 1),
        ("E201", 8, 13),
        ("E210", NEXT_LINE, 12),
    ]
    assert str(info.value) == "t.game:1:1: error[E402]: the game never ends: no rule says 'end game'"


def test_errors_come_before_warnings_at_one_place() -> None:
    text = append("phase other:\n    on enter:\n        again\n")
    with pytest.raises(CheckError) as info:
        check_text(text)
    assert [(d.code, d.severity) for d in info.value.diagnostics] == [
        ("E403", Severity.ERROR),
        ("W401", Severity.WARNING),
    ]
    assert [d.code for d in info.value.errors] == ["E403"]
    assert [d.code for d in info.value.warnings] == ["W401"]


@pytest.mark.parametrize(
    "text, expected",
    [
        # One mistake inside a larger expression gives one diagnostic, not one per enclosing node.
        (append("define d = (1 + yes) * 2 + 3\n"), ("E301", NEXT_LINE, 17)),
        (append("define d = size of dek + 1\ndefine e = d * 2\n"), ("E201", NEXT_LINE, 20)),
        (replace("shuffle deck", "move top of dek to hand"), ("E201", 8, 17)),
        (append("define d = dek.rank + 1\n"), ("E201", NEXT_LINE, 12)),
        (replace("shuffle deck", "let x = dek\n    move x to hand\n    shuffle x"), ("E201", 8, 13)),
        (append("card rank: number\ndefine d = top of deck.rank > 1\n"), ("E301", NEXT_LINE + 1, 19)),
        (append("define d = if yes then 1 else deck\ndefine e = d + 1\n"), ("E301", NEXT_LINE, 12)),
        (append("define d = count c in dek where c.rank > 1\n"), ("E201", NEXT_LINE, 23)),
        (append("define d = -dek\n"), ("E201", NEXT_LINE, 13)),
        (append("define d = top 2 of dek\n", replace("shuffle deck", "move d to hand")), ("E201", NEXT_LINE, 21)),
    ],
)
def test_an_error_does_not_cascade(text: str, expected: tuple[str, int, int]) -> None:
    assert [(d.code, d.line, d.column) for d in diagnostics(text)] == [expected]


def test_an_undeclared_name_used_several_times_is_one_error_naming_each_line() -> None:
    # A zone never declared (or misspelt alike each time) is one mistake.
    text = replace("shuffle deck", 'move top of deck to pile\n    move top of pile to hand\n    say "{size of pile}"')
    assert [summary(d) for d in diagnostics(text)] == [
        (
            "E201",
            "unknown zone 'pile'",
            8,
            25,
            "known zones: deck, hand; 'pile' is also used on lines 9 and 10",
        )
    ]


@pytest.mark.parametrize(
    "expr, column",
    [
        ("cards c in dek where yes", 23),
        ("topmost c in dek where yes", 25),
        ("the c in dek with highest 1 where yes", 21),
        ("dek in {1, 2}", 12),
        ("{dek}", 13),
    ],
)
def test_one_mistake_one_diagnostic(expr: str, column: int) -> None:
    assert [(d.code, d.line, d.column) for d in diagnostics(append(f"define d = {expr}\n"))] == [
        ("E201", NEXT_LINE, column)
    ]


def test_check_error_carries_source_and_path() -> None:
    with pytest.raises(CheckError) as info:
        check_text(replace("shuffle deck", "shuffle dek"))
    d = info.value.diagnostics[0]
    assert d.path == "t.game"
    assert d.source is not None and d.source.line_text(d.line) == "    shuffle dek"
    assert d.header() == "t.game:8:13: error[E201]: unknown zone 'dek'"


def test_check_source_reports_parse_errors_too() -> None:
    with pytest.raises(ParseError) as info:
        check_source(Source("t.game", replace("players 2 to 4", "players 2 to")))
    assert [(d.code, d.line) for d in info.value.diagnostics] == [("E101", 2)]


# ============================================================================ label card


def test_label_card_is_text_from_attributes_and_options() -> None:
    text = replace('card "A"', 'card "A": value 3').replace(
        "zone deck", 'card value: number\nlabel card c as "{c} ({c.value})"\nzone deck'
    )
    assert check_text(text).label is not None


def test_label_card_must_be_text() -> None:
    text = replace("zone deck", "card value: number\nlabel card c as c.value\nzone deck")
    assert only(text) == ("E301", "a card's label is text, not a number", 4, 17, 'write it between quotes: "{c} ..."')


def test_label_card_cannot_use_what_changes_in_play() -> None:
    text = replace("zone deck", 'card var seen = no\nlabel card c as "{c} {c.seen}"\nzone deck')
    assert only(text)[:2] == (
        "E211",
        "'seen' is a card variable; a label may use only the card's attributes and the options",
    )
    assert only(replace("zone deck", 'label card c as "{c} {size of deck}"\nzone deck'))[:2] == (
        "E211",
        "'deck' cannot be used here: only options, 'players' and fixed values are known when the game is loaded",
    )


def test_label_card_once_per_game() -> None:
    text = replace("zone deck", 'label card c as "{c}"\nlabel card c as "{c}!"\nzone deck')
    assert only(text)[:3] == ("E202", "a second 'label card' declaration", 4)


DECLARER = MINIMAL.replace("    shuffle deck\n", "    shuffle deck\n    go to play with declarer\n").replace(
    "setup:\n", "var declarer = seat 0\nplayer var points = 0\nsetup:\n"
)


@pytest.mark.parametrize(
    "label, warned",
    [
        ('"score (you have {points})"', True),
        ('"score (you had {held(player)})"', False),  # read through a definition: the value before, on purpose
        ('"score {size of hand}"', False),  # the action changes no variable it reads
    ],
)
def test_w407_a_label_reading_what_its_action_changes(label: str, warned: bool) -> None:
    text = append(
        f"    action score:\n        label {label}\n        add 1 to points\ndefine held(p: player) = p.points\n",
        DECLARER,
    )
    assert ["W407" in d.code for d in diagnostics(text)].count(True) == int(warned)


@pytest.mark.parametrize(
    "ending, warned",
    [("add 1 to points", True), ("again", False), ("end turn", False), ("end game, winner player", False)],
)
def test_w408_the_turn_passing_in_a_phase_for_one_player(ending: str, warned: bool) -> None:
    text = replace(
        "    action draw when deck is not empty:\n        move top of deck to hand\n"
        "    action stop_game when deck is empty:\n        end game, winner player\n",
        f"    action draw when player == declarer:\n        move top of deck to hand\n        {ending}\n",
        DECLARER,
    )
    found = [d for d in diagnostics(text) if d.code == "W408"]
    assert len(found) == int(warned)
    if warned:
        assert found[0].message == (
            "after 'draw' the turn passes to the next player, but every action of phase 'play' is for 'declarer' alone"
        )


def test_a_refused_declaration_is_reported_once_not_at_each_use() -> None:
    text = append(
        '    action count_it when size of hand > 0:\n        say "{(top of hand).size}"\n',
        replace('    card "A"\n', '    card "A": size 1\n', replace("deck:\n", "card size: number\ndeck:\n")),
    )
    found = diagnostics(text)
    assert [(d.code, d.message) for d in found] == [
        ("E106", "'size' is a keyword of the language and cannot be used as a name")
    ]


# ============================================================================ keywords as names (issue 37, bug 4.5)


def any_diagnostics(text: str) -> tuple[Diagnostic, ...]:
    """Every diagnostic of a file, a syntax error's too."""
    try:
        return diagnostics(text)
    except ParseError as exc:
        return exc.diagnostics


#: Words of card games that a rule file may want as names: each is usable wherever a name is.
GAME_WORDS = ("count", "run", "top", "draw", "strength")


@pytest.mark.parametrize("word", GAME_WORDS)
def test_a_game_word_names_a_variable_and_is_read_as_it(word: str) -> None:
    text = replace(
        "    shuffle deck\n",
        f"    shuffle deck\n    let {word} = 1\n    if {word} == 1:\n        set {word} = {word} + size of deck\n"
        f'    say "{{{word}}} {{{word} * 2}}"\n',
    )
    assert [summary(d) for d in any_diagnostics(text) if d.severity == Severity.ERROR] == []


@pytest.mark.parametrize("word", GAME_WORDS)
def test_a_game_word_names_a_game_variable(word: str) -> None:
    text = append(f"var {word} = 0\nphase other:\n    action a when {word} >= 0:\n        set {word} = {word} + 1\n")
    assert [summary(d) for d in any_diagnostics(text) if d.severity == Severity.ERROR] == []


@pytest.mark.parametrize("word", [w for w in GAME_WORDS if w != "strength"])
def test_a_game_word_names_a_procedure(word: str) -> None:
    text = append(f"to {word}:\n    shuffle deck\n", replace("    shuffle deck\n", f"    shuffle deck\n    {word}\n"))
    assert [summary(d) for d in any_diagnostics(text) if d.severity == Severity.ERROR] == []


@pytest.mark.parametrize(
    ("declaration", "use"),
    [
        ("var size = 0\n", "    if size == 0: stop\n"),
        ("var first = 0\n", "    set first = first + 1\n"),
        ("", "    let any = 1\n    if any == 1: stop\n"),
    ],
)
def test_e106_a_reserved_word_is_refused_where_it_is_declared_even_when_a_use_cannot_be_read(
    declaration: str, use: str
) -> None:
    text = append(declaration, replace("    shuffle deck\n", "    shuffle deck\n" + use))
    word = (declaration or use).split()[1]
    at = (NEXT_LINE + 1, 5) if declaration else (9, 9)
    found = [summary(d)[:4] for d in any_diagnostics(text)]
    message = f"'{word}' is a keyword of the language and cannot be used as a name"
    # At the declaration, maybe at uses read as names too ('set first'), never an unexpected '=='.
    assert ("E106", message, *at) in found and {f[:2] for f in found} == {("E106", message)}


def test_e106_strength_cannot_name_a_procedure_and_is_refused_where_it_is_declared() -> None:
    # A line of an action may begin with 'strength': a call of a procedure named so could not be read.
    text = append("to strength:\n    shuffle deck\n", replace("    shuffle deck\n", "    shuffle deck\n    strength\n"))
    assert [summary(d) for d in any_diagnostics(text)] == [
        (
            "E106",
            "'strength' is a keyword of the language and cannot name a procedure",
            NEXT_LINE + 1,
            4,
            "choose another name, such as 'strength_cards'",
        )
    ]


@pytest.mark.parametrize(
    ("declaration", "use", "at"),
    [
        ('    for each size in deck:\n        say "{size}"\n', "    if size == 1: stop\n", (9, 14)),
        ("    let x = count first in deck\n", "    if first == 1: stop\n", (9, 19)),
        ("card var all = 0\n", "    if all == 0: stop\n", (NEXT_LINE, 10)),
    ],
)
def test_e106_wherever_a_reserved_word_is_declared_in_a_file_that_cannot_be_read(
    declaration: str, use: str, at: tuple[int, int]
) -> None:
    if declaration.startswith("card"):
        text = append(declaration + "to broken:\n" + use)
    else:
        text = replace("    shuffle deck\n", "    shuffle deck\n" + declaration + use)
    found = [summary(d)[:4] for d in any_diagnostics(text)]
    assert found and all(f[0] == "E106" for f in found) and found[0][2:] == at, found


def test_a_reserved_word_declared_is_not_blamed_for_an_unrelated_syntax_error() -> None:
    # The use that cannot be read is what ties the declaration to the error.
    text = append("card var all = 0\nto broken:\n    if 1 == == 2: stop\n")
    assert [d.code for d in any_diagnostics(text)] == ["E101"]
