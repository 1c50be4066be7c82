"""A private look (issue 39, item 2): 'show CARDS to P' shows cards to one player, where they lie.

He sees them (his view, his labels, 'is seen by'), knows them (a resample he makes keeps
them where he saw them) and reads a line saying what he saw; nobody else sees them: the
others read that he looked, not at what. Once a card moves, what he knows of it is what he
knows of any card he saw go: the engine's own rules.
"""

from __future__ import annotations

import random

import pytest

import ruledsl
from ruledsl.engine import knowledge
from ruledsl.format.fmt import format_source
from ruledsl.syntax import nodes as n
from ruledsl.syntax.parser import parse
from ruledsl.tools.leaks import hidden_pairs
from ruledsl.tools.scenario import arrange

PEEK = """\
game "Peek"
players 3
card rank: number
zone deck: shared, hidden
zone hand: per player, owner
zone pile: shared, hidden
deck:
    card "{rank}" for rank in 1 to 12

setup:
    shuffle deck
    deal 2 from deck to each hand

phase play:
    action peek(q: player from players after player):
        label "look at {q}'s hand"
        show top of q.hand to player
    action bury(q: player from players after player):
        label "bury {q}'s top card"
        move top of q.hand to pile
    action wait:
        label "wait"
    action stop when pile is not empty:
        end game
"""


@pytest.fixture
def peek(tmp_path):  # type: ignore[no-untyped-def]
    path = tmp_path / "peek.game"
    path.write_text(PEEK, encoding="utf-8")
    return ruledsl.load_game(str(path))


def dealt(game: ruledsl.Game) -> ruledsl.GameState:
    state = game.new_initial_state(seed=3, log=True, track=True)
    arrange(state, "hand", ["1", "2"], owner=0)
    arrange(state, "hand", ["3", "4"], owner=1)
    arrange(state, "hand", ["5", "6"], owner=2)
    knowledge.start(state)
    return state


def play(state: ruledsl.GameState, label: str) -> None:
    state.apply_action(state.action_from_string(label))


def hand(state: ruledsl.GameState, seat: int | None, owner: int) -> list[str | None]:
    zone = state.observation(seat)["zones"]["hand"][owner]
    return zone.get("cards", [None] * zone["size"])


def test_the_statement_parses_and_writes_back() -> None:
    tree = parse(PEEK)
    shows = [x for d in tree.decls for x in n.walk(d) if isinstance(x, n.Show)]
    assert len(shows) == 1 and isinstance(shows[0].to, n.ActingPlayer)
    assert "        show top of q.hand to player\n" in format_source(PEEK)


def test_the_looker_sees_the_card_where_it_lies_and_nobody_else_does(peek) -> None:  # type: ignore[no-untyped-def]
    state = dealt(peek)
    assert hand(state, 0, 1) == [None, None]
    play(state, "look at P1's hand")
    assert hand(state, 0, 1) == [None, "4"]  # the top card of P1's hand, to P0
    assert hand(state, 1, 1) == ["3", "4"]  # its owner sees his hand as before
    assert hand(state, 2, 1) == [None, None]  # nobody else sees it
    assert hand(state, None, 1) == [None, None]  # nor do spectators
    card = state.prog.card_names.index("4")
    assert [state.sees(q, card) for q in (0, 1, 2, None)] == [True, True, False, False]


def test_his_log_line_names_the_card_and_the_others_read_only_that_he_looked(peek) -> None:  # type: ignore[no-untyped-def]
    state = dealt(peek)
    play(state, "look at P1's hand")
    lines = state.log
    assert [ruledsl.engine.values.said_to(line, 0) for line in lines] == ["you see P1's 4"]
    others = [ruledsl.engine.values.said_to(line, q) for line in lines for q in (1, 2, None)]
    assert others == ["P0 looks at P1's hand"] * 3
    assert all("4" not in text for text in others)


def test_a_resample_by_the_looker_keeps_the_card_where_he_saw_it(peek) -> None:  # type: ignore[no-untyped-def]
    state = dealt(peek)
    play(state, "look at P1's hand")
    card = state.prog.card_names.index("4")
    for seed in range(30):
        sample = knowledge.resample(state, 0, random.Random(seed))
        assert sample.loc[card] == state.loc[card]
        assert sample.zones[state.loc[card]].index(card) == 1
    # Another seat's resample does not know it: some deal puts another card there.
    others = {knowledge.resample(state, 2, random.Random(seed)).zones[state.loc[card]][1] for seed in range(30)}
    assert len(others) > 1


def test_once_the_card_moves_unseen_he_knows_where_it_went_not_its_place(peek) -> None:  # type: ignore[no-untyped-def]
    state = dealt(peek)
    play(state, "look at P1's hand")
    card = state.prog.card_names.index("4")
    play(state, "wait")
    play(state, "wait")
    play(state, "bury P1's top card")  # the 4 goes into the hidden pile
    assert not state.sees(0, card) and hand(state, 0, 1) == [None]
    pile = state.loc[card]
    assert state.known is not None and state.known[0][card] == 1 << pile
    for seed in range(10):
        assert knowledge.resample(state, 0, random.Random(seed)).loc[card] == pile


def test_a_card_looked_at_is_no_twin_for_the_looker(peek) -> None:  # type: ignore[no-untyped-def]
    state = dealt(peek)
    play(state, "look at P1's hand")
    card = state.prog.card_names.index("4")
    pairs = hidden_pairs(state, 0, random.Random(0), 200)
    assert pairs and all(card not in pair for pair in pairs)
    assert any(card in pair for pair in hidden_pairs(state, 2, random.Random(0), 200))
