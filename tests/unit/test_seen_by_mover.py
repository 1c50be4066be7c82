"""Zones 'seen by mover' (issue 29, item 5b): each card seen by the player who moved it there, and by nobody else."""

from __future__ import annotations

import random

import pytest

import ruledsl
from ruledsl.engine import knowledge
from ruledsl.format.fmt import format_source
from ruledsl.loading import check_source
from ruledsl.syntax import nodes as n
from ruledsl.syntax.parser import parse
from ruledsl.text.errors import CheckError
from ruledsl.text.source import Source
from ruledsl.tools.leaks import hidden_pairs, swap
from ruledsl.tools.scenario import arrange

BLUFF = """\
game "Bluff"
players 3
values rank: A, K, Q
card rank: rank
card n: number
zone deck: shared, hidden
zone hand: per player, owner
zone pile: shared, seen by mover
deck:
    card "{rank}{n}" for rank in A to Q, n in 1 to 4

setup:
    shuffle deck
    deal 4 from deck to each hand

phase play:
    action lay(c: card from hand):
        label "lay {c}"
        move c to pile
    action show when pile is not empty:
        label "show the top card"
        move top of pile to pile face up
    action take(c: card from pile):
        label "take {c}"
        move c to hand
        end game
"""


@pytest.fixture
def bluff(tmp_path):  # type: ignore[no-untyped-def]
    path = tmp_path / "bluff.game"
    path.write_text(BLUFF, encoding="utf-8")
    return ruledsl.load_game(str(path))


def dealt(game: ruledsl.Game) -> ruledsl.GameState:
    state = game.new_initial_state(seed=3, log=True, track=True)
    for seat in range(3):
        arrange(state, "hand", [f"{r}{seat + 1}" for r in "AKQ"], owner=seat)
    knowledge.start(state)  # each seat knows the cards as they lie now
    return state


def play(state: ruledsl.GameState, label: str) -> None:
    state.apply_action(state.action_from_string(label))


def pile(state: ruledsl.GameState, seat: int | None) -> list[str | None]:
    zone = state.observation(seat)["zones"]["pile"]
    return zone.get("cards", [None] * zone["size"])


def test_the_zone_parses_and_writes_back() -> None:
    tree = parse(BLUFF)
    zone = next(d for d in tree.decls if isinstance(d, n.ZoneDecl) and d.name == "pile")
    assert zone.visibility == "mover"
    assert "zone pile: shared, seen by mover\n" in format_source(BLUFF)


def test_a_variable_is_not_seen_by_a_mover() -> None:
    source = Source("<x>", BLUFF.replace("zone deck:", "var v = 0, seen by mover\nzone deck:"))
    with pytest.raises(CheckError, match=r"E302.*only a zone's cards are seen by the player who moved them"):
        check_source(source)


def test_each_card_is_seen_by_its_mover_alone(bluff: ruledsl.Game) -> None:
    state = dealt(bluff)
    play(state, "lay A1")  # seat 0
    play(state, "lay K2")  # seat 1
    assert pile(state, 0) == ["A1", None]
    assert pile(state, 1) == [None, "K2"]
    assert pile(state, 2) == [None, None]
    assert pile(state, None) == [None, None]
    assert state.describe_last(0) == "lay a hidden card"
    assert state.describe_last(1) == "lay K2"
    # Seat 2 takes from the pile by place; seat 0's card is named to seat 0 alone.
    assert state.current_player() == 2
    takes = sorted(str(a) for a in state.legal_actions() if a.name == "take")
    assert takes == ["take hidden card 1", "take hidden card 2"]


def test_a_card_turned_face_up_is_seen_by_all_and_a_card_taken_by_its_taker(bluff: ruledsl.Game) -> None:
    state = dealt(bluff)
    play(state, "lay A1")
    play(state, "lay K2")
    play(state, "show the top card")  # seat 2 turns K2 up where it lies
    assert pile(state, 0) == ["A1", "K2"]
    assert pile(state, 2) == [None, "K2"]
    play(state, "take A1")  # seat 0 knows which card is his
    assert "A1" in state.observation(0)["zones"]["hand"][0]["cards"]


def test_a_resample_keeps_who_laid_each_card_in_its_place(bluff: ruledsl.Game) -> None:
    state = dealt(bluff)
    play(state, "lay A1")
    play(state, "lay K2")
    for seed in range(20):
        copy = state.resample(2, random.Random(seed))
        assert pile(copy, 2) == [None, None]
        assert pile(copy, 0)[0] is not None and pile(copy, 0)[1] is None
        assert pile(copy, 1)[1] is not None and pile(copy, 1)[0] is None
        assert pile(state.resample(0, random.Random(seed)), 0)[0] == "A1"


def test_the_leak_harness_swaps_laid_cards_for_the_others_only(bluff: ruledsl.Game) -> None:
    state = dealt(bluff)
    play(state, "lay A1")
    a1 = state.prog.card_names.index("A1")
    pairs = list(hidden_pairs(state, 0, random.Random(0), 200))
    assert pairs and all(a1 not in pair for pair in pairs)  # seat 0 sees what he laid
    others = [pair for pair in hidden_pairs(state, 1, random.Random(0), 200) if a1 in pair]
    assert others  # seat 1 cannot tell A1 from a card he does not see
    twin = state.clone()
    swap(twin, *others[0])
    assert twin.observation(1) == state.observation(1)
    assert pile(twin, 0) != ["A1"] and pile(twin, 0)[0] is not None  # the place stays seat 0's
