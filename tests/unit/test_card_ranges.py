"""Choices of LOW to HIGH cards (issue 29, item 3, in part): 'cs: 1 to 4 cards of one rank from hand'."""

from __future__ import annotations

import collections
from math import comb
from pathlib import Path

import pytest

import ruledsl
from ruledsl.format.fmt import format_source
from ruledsl.loading import check_source
from ruledsl.spaces.actions import ActionSpace, Decisions
from ruledsl.syntax import nodes as n
from ruledsl.syntax.parser import parse
from ruledsl.text.errors import CheckError
from ruledsl.text.source import Source
from ruledsl.tools.scenario import arrange

RANGES = """\
game "Ranges"

players 2

values rank: A, K, Q, J

card rank: rank
card n: number

zone deck: shared, hidden
zone hand: per player, owner
zone pile: shared, public

deck:
    card "{rank}{n}" for rank in A to J, n in 1 to 5

setup:
    shuffle deck
    deal 9 from deck to each hand

phase play:
    action play(cs: 1 to 3 cards of one rank from hand):
        label "play {cs}"
        move cs to pile
        if hand is empty:
            end game, winner player
    action discard(cs: 2 to HIGH cards from hand):
        label "discard {cs}"
        move cs to pile
        if hand is empty:
            end game, winner player
"""
HAND = ["K2", "J3", "K5", "Q5", "Q2", "J1", "K3", "J4", "A2"]


def load(tmp_path: Path, high: str = "3") -> ruledsl.Game:
    path = tmp_path / "ranges.game"
    path.write_text(RANGES.replace("HIGH", high), encoding="utf-8")
    return ruledsl.load_game(str(path))


def dealt(game: ruledsl.Game) -> ruledsl.GameState:
    state = game.new_initial_state(seed=1)
    arrange(state, "hand", HAND, owner=0)
    return state


def test_a_range_parses_and_writes_back() -> None:
    text = RANGES.replace("HIGH", "3")
    shapes = [ch.shape for d in parse(text).decls for ch in _choices(d)]
    assert [type(s).__name__ for s in shapes] == ["SameChoice", "CardsChoice"]
    assert all(s.high is not None for s in shapes)  # type: ignore[attr-defined]
    assert format_source(text) == text


def _choices(d: n.Node) -> list[n.Choice]:
    if isinstance(d, n.PhaseDecl):
        return [ch for item in d.items if isinstance(item, n.ActionDecl) for ch in item.choices]
    return []


def test_each_group_of_a_size_in_the_range_is_offered(tmp_path: Path) -> None:
    state = dealt(load(tmp_path))
    sizes = collections.Counter((a.name, len(a.key[0])) for a in state.legal_actions())
    # Kings and Jacks: three each, Queens two, one Ace.
    assert sizes == {
        ("play", 1): 9,
        ("play", 2): 3 + 1 + 3,
        ("play", 3): 1 + 1,
        ("discard", 2): comb(9, 2),
        ("discard", 3): comb(9, 3),
    }


def test_a_group_outside_the_range_is_refused_with_the_range(tmp_path: Path) -> None:
    state = dealt(load(tmp_path))
    assert state.why_illegal("discard K2 J3 K5 Q5") == "that takes two to three cards, not four"
    assert state.why_illegal("play K2 K3 K5") is None
    state.apply_action(state.action_from_string("play K2 K3 K5"))
    assert sorted(state.observation(0)["zones"]["pile"]["cards"]) == ["K2", "K3", "K5"]


def test_a_huge_high_bound_costs_only_the_cards_there(tmp_path: Path) -> None:
    state = dealt(load(tmp_path, high="1000000000"))
    discards = [a for a in state.legal_actions() if a.name == "discard"]
    assert len(discards) == sum(comb(9, k) for k in range(2, 10))


def test_the_bounds_are_numbers() -> None:
    source = Source("<x>", RANGES.replace("HIGH", "A"))
    with pytest.raises(CheckError, match="E301"):
        check_source(source)


def test_the_bridges_choose_a_range_card_by_card(tmp_path: Path) -> None:
    game = load(tmp_path)
    state = dealt(game)
    space = ActionSpace(game)
    play = state.action_from_string("play J1 J3")
    ids = space.tokens(play)
    assert len(ids) == 4 and ids[-1] == space.done  # the head, two cards, done
    decisions = Decisions(space, state)
    for i in ids:
        assert i in decisions.legal_actions()
        decisions.apply_action(i)
    assert decisions.state.history() == [play]
