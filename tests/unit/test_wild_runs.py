"""Runs with wild cards, pairs in sequence, and the values a run spans (issue 39, item 4)."""

from __future__ import annotations

from pathlib import Path

import pytest

import ruledsl
from ruledsl.format.fmt import format_source

# Seat 0 holds 3, 4, 6, 9 and 10 of hearts, the 3 of spades and a joker; seat 1 the rest.
RUNS = """\
game "Wild runs"
players 2
values rank: A, 2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K
values suit: spades, hearts
card rank: rank
card suit: suit
card joker: flag
deck:
    card "{rank}{suit}" for rank in A to K, suit in spades to hearts
    card "Joker": joker yes
zone deck: shared, hidden
zone hand: per player, owner
zone melds: shared, public
setup:
    for each c in deck:
        if c.joker or (c.suit == hearts and c.rank in {3, 4, 6, 9, 10}) or c is "3spades":
            move c to (seat 0).hand
    move all of deck to (seat 1).hand
phase play:
    action meld(cs: SHAPE from hand with joker wild):
        label "meld {cs}: {run_low(cs)} to {run_high(cs)}"
        move all of cs to melds
        end game, winner player
"""


def _load(tmp_path: Path, text: str) -> ruledsl.Game:
    path = tmp_path / "t.game"
    path.write_text(text, encoding="utf-8")
    return ruledsl.load_game(path, players=2)


def _melds(tmp_path: Path, shape: str) -> list[str]:
    state = _load(tmp_path, RUNS.replace("SHAPE", shape)).new_initial_state(seed=0)
    return [str(a) for a in state.legal_actions()]


def test_a_wild_card_fills_a_gap_in_a_run_and_the_label_tells_what_it_stands_for(tmp_path: Path) -> None:
    melds = _melds(tmp_path, "4 cards in sequence of rank of one suit")
    # 3-4-(5)-6 of hearts, the joker as the 5 (cards shown in the deck order); never with the 3 of spades.
    assert "meld 3hearts 4hearts 6hearts Joker: 3 to 6" in melds
    assert not any("3spades" in m for m in melds)
    # A joker beside the naturals makes the run longer upwards: 9-10-(J)... is three cards.
    three = _melds(tmp_path, "3 cards in sequence of rank of one suit")
    assert "meld 9hearts 10hearts Joker: 9 to J" in three
    assert "meld 3hearts 4hearts Joker: 3 to 5" in three
    # The same cards make one action, read once: never also as (2)-3-4.
    assert sum(m.startswith("meld 3hearts 4hearts Joker") for m in three) == 1
    # A run is never made of wild cards alone, nor of two cards two gaps apart.
    assert "meld 4hearts 6hearts Joker: 4 to 6" in three
    assert not any("6hearts Joker 9hearts" in m for m in _melds(tmp_path, "4 cards in sequence of rank"))


def test_a_wild_card_at_the_top_of_the_order_stands_below_the_run(tmp_path: Path) -> None:
    text = RUNS.replace("SHAPE", "3 cards in sequence of rank").replace("{3, 4, 6, 9, 10}", "{Q, K}")
    state = _load(tmp_path, text).new_initial_state(seed=0)
    assert "meld Qhearts Khearts Joker: J to K" in [str(a) for a in state.legal_actions()]


def test_a_run_of_pairs_takes_two_cards_of_each_value(tmp_path: Path) -> None:
    text = RUNS.replace("{3, 4, 6, 9, 10}", "{4, 5, 6}").replace('c is "3spades"', "c.rank in {4, 5}")
    state = _load(tmp_path, text.replace("SHAPE", "4 to 6 cards in pairs in sequence of rank"))
    melds = [str(a) for a in state.new_initial_state(seed=0).legal_actions()]
    assert "meld 4spades 4hearts 5spades 5hearts: 4 to 5" in melds
    assert "meld 4spades 4hearts 5spades 5hearts 6hearts Joker: 4 to 6" in melds
    assert "meld 5spades 5hearts 6hearts Joker: 5 to 6" in melds
    assert "meld 4spades 5spades 5hearts Joker: 4 to 5" in melds
    assert not any(len(m.split(":")[0].split()) % 2 == 0 for m in melds)  # 'meld' and an even number of cards
    # A run that is not one is refused with the reason (a label of the cards alone reads it).
    plain = text.replace(": {run_low(cs)} to {run_high(cs)}", "")
    st = _load(tmp_path, plain.replace("SHAPE", "4 to 6 cards in pairs in sequence of rank")).new_initial_state(seed=0)
    assert st.why_illegal("meld 4spades 5spades 5hearts 6hearts") == (
        "4spades, 5spades, 5hearts and 6hearts are not in pairs in sequence of rank (jokers stand in for any rank)"
    )


def test_without_wild_cards_runs_are_listed_as_before(tmp_path: Path) -> None:
    text = RUNS.replace(" with joker wild", "").replace("SHAPE", "3 cards in sequence of rank of one suit")
    melds = [str(a) for a in _load(tmp_path, text).new_initial_state(seed=0).legal_actions()]
    assert melds == []  # 3-4 and 9-10 of hearts, no three in a row
    text = text.replace("{3, 4, 6, 9, 10}", "{3, 4, 5}")
    melds = [str(a) for a in _load(tmp_path, text).new_initial_state(seed=0).legal_actions()]
    assert melds == ["meld 3hearts 4hearts 5hearts: 3 to 5"]


def test_a_range_of_sizes_of_pairs_holding_an_even_one_is_accepted(tmp_path: Path) -> None:
    assert _load(tmp_path, RUNS.replace("SHAPE", "3 to 5 cards in pairs in sequence of rank")) is not None


def test_wild_runs_and_pairs_are_written_back_as_read(tmp_path: Path) -> None:
    text = RUNS.replace("SHAPE", "4 to 6 cards in pairs in sequence of rank of one suit")
    assert "cs: 4 to 6 cards in pairs in sequence of rank of one suit from hand with joker wild" in format_source(text)
    assert format_source(format_source(text)) == format_source(text)


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("run_low(cs)", "run_low(melds)", "error[E306]: 'run_low' reads a run chosen in the action"),
        ("SHAPE", "3 cards of one rank", "error[E306]: 'run_low' reads a run chosen in the action"),
        ("SHAPE", "3 cards in pairs in sequence of rank", "error[E307]: a run of pairs takes an even number"),
        ("SHAPE", "4 to 5 cards in triples in sequence of rank", "error[E307]: a run of triples takes a multiple of 3"),
    ],
)
def test_the_values_a_run_spans_are_read_from_a_run_only(tmp_path: Path, old: str, new: str, message: str) -> None:
    text = RUNS.replace(old, new).replace("SHAPE", "3 cards in sequence of rank")
    with pytest.raises(ruledsl.CheckError) as info:
        _load(tmp_path, text)
    assert message in str(info.value)


def test_the_runs_listed_are_every_set_of_cards_read_as_a_run_and_each_once() -> None:
    """``run_groups`` against every subset of small hands, read by ``run_span``: two wild cards,
    runs of one card and of pairs of each value."""
    import itertools
    import random

    from ruledsl.engine import ops

    table = tuple([r for r in range(2, 8) for _suit in range(2)] + [None, None])
    kinds = tuple(range(len(table)))
    wilds = {len(table) - 1, len(table) - 2}
    rng = random.Random(3)
    for _ in range(40):
        hand = rng.sample(range(len(table)), 8)
        for width in (1, 2):
            listed = [
                tuple(sorted(g))
                for g in ops.run_groups(hand, kinds, table, None, range(1, 9), wilds.__contains__, width)
            ]
            assert len(listed) == len(set(listed))
            runs = [
                sub
                for k in range(1, 9)
                for sub in itertools.combinations(sorted(hand), k)
                if ops.run_span(sub, table, wilds.__contains__, width)[0] is not None
            ]
            assert sorted(listed) == sorted(runs)


def test_runs_too_many_to_list_are_picked_card_by_card_in_any_order(tmp_path: Path) -> None:
    # Two decks' A to 10 (40 cards) and two jokers: more runs of pairs than may be listed.
    text = (
        RUNS.replace("SHAPE", "4 to 20 cards in pairs in sequence of rank")
        .replace(": {run_low(cs)} to {run_high(cs)}", "")
        .replace('(c.suit == hearts and c.rank in {3, 4, 6, 9, 10}) or c is "3spades"', "c.rank <= 10")
        .replace('card "Joker"', '2 × card "Joker"')
        .replace('card "{rank}{suit}"', '2 × card "{rank}{suit}"')
    )
    state = _load(tmp_path, text).new_initial_state(seed=0)
    assert [str(a) for a in state.legal_actions()] == ["meld: pick the cards"]
    state.apply_action(state.legal_actions()[0])
    for card in ("3spades", "5spades", "Joker", "4spades", "5hearts"):  # the 4 after the 5
        offered = {str(a): a for a in state.legal_actions()}
        state.apply_action(offered[f"pick {card}"])
    # A third 5 is not offered (the hand holds four): a run of pairs has two of each rank.
    offered = [str(a) for a in state.legal_actions()]
    assert "pick 6spades" in offered and "pick 5spades" not in offered and "pick 5hearts" not in offered
    assert "done" not in offered  # five cards: no run of pairs yet
    state.apply_action(next(a for a in state.legal_actions() if str(a) == "pick 4hearts"))
    state.apply_action(next(a for a in state.legal_actions() if str(a) == "done"))
    assert state.describe_last(None) == "meld 3spades 4spades 4hearts 5spades 5hearts Joker"
