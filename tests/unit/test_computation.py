"""Computation on cards (issue 29, item 4): a value's position, sorting, the k-th item, sums of some
cards, tuples as values and variables, and the errors the checker gives for them."""

from __future__ import annotations

from pathlib import Path

import pytest

import ruledsl
from ruledsl.engine.state import GameState
from ruledsl.text.errors import CheckError, RuleRuntimeError

# The deck is dealt unshuffled from its top (the last card listed): P0 holds 3s 5h 5s (in that
# order), P1 2h 4s Ks, and the table the joker, which has no rank and no value.
TABLE = """\
game "Table"
players 2
values rank: 2, 3, 4, 5, K
values suit: spades, hearts
card rank: rank
card suit: suit
card value: number
deck:
    card "joker"
    card "Ks": rank K, suit spades, value 10
    card "5s": rank 5, suit spades, value 5
    card "4s": rank 4, suit spades, value 4
    card "5h": rank 5, suit hearts, value 5
    card "2h": rank 2, suit hearts, value 2
    card "3s": rank 3, suit spades, value 3
zone deck: shared, public
zone hand: per player, public
zone table: shared, public
DECLS
setup:
    deal 3 from deck to each hand
    move all of deck to table
phase play:
    action show:
        say "{SHOWN}"
        end game, draw
"""


def game_of(tmp_path: Path, expr: str = "1", decls: str = "") -> ruledsl.Game:
    path = tmp_path / "table.game"
    path.write_text(TABLE.replace("SHOWN", expr).replace("DECLS", decls), encoding="utf-8")
    return ruledsl.load_game(path, players=2)


def said(tmp_path: Path, expr: str, decls: str = "") -> str:
    """What the rules say about ``expr``, in the log everybody reads."""
    state: GameState = game_of(tmp_path, expr, decls).new_initial_state(seed=0, log=True)
    state.apply_action(state.legal_actions()[0])
    return state.take_log()[-1]


def errors(tmp_path: Path, expr: str, decls: str = "") -> list[str]:
    with pytest.raises(CheckError) as info:
        game_of(tmp_path, expr, decls)
    return [f"{d.code}: {d.message}" for d in info.value.diagnostics if d.is_error]


@pytest.mark.parametrize(
    ("expr", "expected"),
    [
        # A value's place in its 'values' list, from 1: ranks need not be restated card by card.
        ("position of (top of hand).rank", "4"),
        ("position of K", "5"),
        ("position of (top of table).rank", "none"),  # the joker has no rank
        ("total position of c.rank for c in hand", "10"),
        # Sorting: lowest first, ties in the order they came (5h before 5s); a key of none goes last.
        ("cards c in hand sorted by c.rank", "3s 5h 5s"),
        ("cards c in hand sorted by c.rank descending", "5h 5s 3s"),
        ("cards c in hand sorted by (c.rank, c.suit) descending", "5h 5s 3s"),
        ("cards c in hand + p1_hand + table sorted by c.rank", "2h 3s 4s 5h 5s Ks joker"),
        ("cards c in hand + table sorted by c.rank descending", "5h 5s 3s joker"),
        ("cards q in players sorted by size of q.hand descending", "P0, P1"),
        # The k-th item, from 1, in the order a zone or cards are read; none past either end.
        ("the item 1 of cards c in hand sorted by c.rank descending", "5h"),
        ("the item 3 of hand", "5s"),
        ("the item 4 of hand", "none"),
        ("the item 0 of hand", "none"),
        ("(the item 2 of cards c in p1_hand sorted by c.rank).rank", "4"),
        ("the item 2 of players", "P1"),
        # Some cards (one at least) adding up to a number.
        ("some cards c in p1_hand with total c.value == 12", "yes"),  # 2 + 10
        ("some cards c in p1_hand with total c.value == 16", "yes"),  # all three
        ("some cards c in p1_hand with total c.value == 5", "no"),
        ("some cards c in p1_hand with total c.value == 0", "no"),  # not with no cards
        ("some cards c in table with total c.value == 0", "no"),  # the joker's value is none
        ("some cards c in hand with total c.value - 5 == 0", "yes"),  # a key may be negative: 5 - 5
        ("some cards c in hand with total c.value - 5 == -2", "yes"),  # 3 - 5
        # Tuples compare item by item; a number written in one stands for a value where the other has one.
        ("(2, K) < (3, 2)", "yes"),
        ("((top of hand).rank, 1) > (4, 2)", "yes"),
        ("(4, 2) < ((top of hand).rank, 1)", "yes"),
        ("(position of (top of hand).rank, (top of hand).rank)", "(4, 5)"),
        # The highest (lowest) tuple, as the element with it has: one with none in it passed over.
        ("highest (c.rank, c.suit) for c in hand", "(5, hearts)"),
        ("lowest (c.rank, c.value) for c in hand + table", "(3, 3)"),
        ("highest (c.rank, c.value) for c in table", "none"),  # the joker's rank is none
        ("(the c in hand with highest (c.rank, c.suit)).suit", "hearts"),
    ],
)
def test_computation_on_cards(tmp_path: Path, expr: str, expected: str) -> None:
    decls = "define p1_hand = (seat 1).hand\n"
    assert said(tmp_path, expr, decls) == expected


def test_a_tuple_variable_keeps_its_shape_and_shows_its_values_by_name(tmp_path: Path) -> None:
    decls = (
        "var best: (number, rank) = (0, 2)\n"
        "player var mine = (0, K)\n"
        "define p1_hand = (seat 1).hand\n"
        "to improve:\n"
        "    set best = (size of hand, (the item 1 of cards c in hand sorted by c.rank descending).rank)\n"
        "    set player.mine = (1, (top of hand).rank)\n"
    )
    game = game_of(tmp_path, "{best}", decls)
    state = game.new_initial_state(seed=0, log=True)
    assert state.observation(0)["variables"]["best"] == [0, "2"]
    source = TABLE.replace("DECLS", decls).replace('say "{SHOWN}"', 'improve\n        say "{best} {(3, 5) <= best}"')
    path = tmp_path / "table2.game"
    path.write_text(source, encoding="utf-8")
    state = ruledsl.load_game(path, players=2).new_initial_state(seed=0, log=True)
    state.apply_action(state.legal_actions()[0])
    assert state.take_log()[-1] == "(3, 5) yes"
    assert state.observation(1)["variables"]["best"] == [3, "5"]
    assert state.observation(1)["player_variables"]["mine"] == [[1, "5"], [0, "K"]]


def sum_game(tmp_path: Path, values: list[int], target: str) -> GameState:
    """A game whose one action wins if some cards of the deck, valued ``values``, add up to ``target``."""
    deck = "".join(f'    card "c{i}": value {v}\n' for i, v in enumerate(values))
    source = f"""\
game "Sums"
players 2
card value: number
deck:
{deck}zone deck: shared, public
setup:
    shuffle deck
phase play:
    action go:
        if some cards c in deck with total c.value == {target}:
            end game, winner player
        end game, draw
"""
    path = tmp_path / "sums.game"
    path.write_text(source, encoding="utf-8")
    return ruledsl.load_game(path).new_initial_state(seed=0)


def test_a_subset_sum_over_many_cards_of_every_size_stops_with_r504(tmp_path: Path) -> None:
    # Thirty cards valued 1, 2, 4, 8...: every subset has its own sum, so the sums cannot be kept
    # to a few, and the target is too large for a table of every sum up to it; the search is
    # refused at the step budget instead of running for ever.
    state = sum_game(tmp_path, [2**i for i in range(30)], "1000000000 * 1000")
    with pytest.raises(RuleRuntimeError) as info:
        state.apply_action(state.legal_actions()[0])
    d = info.value.diagnostics[0]
    assert d.code == "R504"
    assert "took more than 100,000 steps" in d.message
    assert d.span is not None and d.span.start.line == 40


def test_a_subset_sum_of_repeating_values_stays_cheap(tmp_path: Path) -> None:
    # Two hundred cards valued 1 to 10: a table of the sums up to the target, whatever the number of cards.
    state = sum_game(tmp_path, [i % 10 + 1 for i in range(200)], "1099")
    state.apply_action(state.legal_actions()[0])
    assert state.returns()[0] == 1.0  # the 200 cards add up to 1,100: less one 1 is 1,099


@pytest.mark.parametrize(
    ("expr", "decls", "expected"),
    [
        (
            "cards c in hand sorted by c",
            "",
            "E301: 'sorted by' orders by numbers, ordered values or tuples, not a card",
        ),
        ("cards c in (1 to 3) sorted by c", "", "E301: 'cards … sorted by' sorts cards or players, not a range"),
        ("(1, 2) < (1, 2, 3)", "", "E301: cannot order a tuple (number, number) against a tuple (number, number,"),
        ("(1, K) < (1, spades)", "", "E301: cannot order a tuple (number, rank) against a tuple (number, suit)"),
        (
            "some cards c in hand with total c.rank == 3",
            "",
            "E301: 'with total' adds numbers, not a rank",
        ),
        (
            "some cards c in hand with total c.value >= 3",
            "",
            "E301: 'some cards … with total' tests a total equal to a number, not '>='",
        ),
        ("the item 1 of 5", "", "E301: 'the item … of' picks one of cards or players, not a number"),
        ("position of 3", "", "E301: expected a card, found a number"),
        ("1", "var t: (number, card) = (1, none)\n", "E301: a tuple holds numbers or values, not a card"),
        ("1", "var t = (1, 2)\nto f:\n    set t = (1, 2, 3)\n", "E301"),
    ],
)
def test_errors_of_computation(tmp_path: Path, expr: str, decls: str, expected: str) -> None:
    found = errors(tmp_path, expr, decls)
    assert any(e.startswith(expected) for e in found), found


def test_a_tuple_variable_is_one_number_per_item_in_the_tensors(tmp_path: Path) -> None:
    from ruledsl.spaces import ActionSpace, TensorLayout

    game = game_of(tmp_path, "1", "var best: (number, rank) = (7, K)\n")
    layout = TensorLayout(game, ActionSpace(game).num_distinct_actions)
    segments = layout.segments()
    at = sum(w for _, w in segments[: segments.index(("variable best", 2))])
    tensor = layout.observation(game.new_initial_state(seed=0).observation(0))
    assert tensor[at : at + 2] == [7.0, 5.0]  # K is the fifth rank


def test_an_attribute_of_a_sorted_hidden_card_said_to_all_is_w406(tmp_path: Path) -> None:
    from ruledsl.loading import check_file

    path = tmp_path / "table.game"
    shown = "(the item 1 of cards c in hand sorted by c.rank).rank"
    path.write_text(
        TABLE.replace("SHOWN", shown)
        .replace("DECLS", "")
        .replace("hand: per player, public", "hand: per player, owner"),
        encoding="utf-8",
    )
    assert [d.code for d in check_file(path).warnings] == ["W406"]
