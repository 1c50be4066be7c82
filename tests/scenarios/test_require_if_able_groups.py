"""Scenario tests of 'require if able' on a choice of a group of cards ("lay hearts only, if you can").

While some group meets the condition, only such groups are legal; with none, every group is. It
holds for groups listed whole and for groups offered card by card (then a pick is offered only
where it can still complete a group meeting it, and 'done' only for such a group); a group left
out is refused with the rule's reason.
"""

from __future__ import annotations

import itertools

import ruledsl
from ruledsl.codegen.refusal import why_illegal
from ruledsl.loading import check_source, load_checked
from ruledsl.text.source import Source
from ruledsl.tools.scenario import arrange
from tests.scenarios.support import act, labels

_HEARTS = """game "Hearts first"

players 2

values suit: spades "S", hearts "H", clubs "C", diamonds "D"
values rank: 2, 3, 4, 5, 6, 7, 8, 9, T, J, Q, K, A

card rank: rank
card suit: suit

zone deck: shared, hidden
zone pile: shared, public
zone hand: per player, owner

deck:
    card "{rank}{suit}" for rank in 2 to A, suit in spades to diamonds

setup:
    shuffle deck
    deal 4 from deck to each hand

phase play:
    action lay(cs: 2 cards from hand):
        require if able every c in cs satisfies c.suit == hearts, "you must lay hearts: you have two"
        label "lay {cs}"
        move cs to pile
        end game
"""

# 40 cards: 10,660 groups of 2 or 3, too many to list.
_STEPPED = _HEARTS.replace("cs: 2 cards from hand", "cs: 2 to 3 cards from hand").replace(
    "deal 4 from deck", "deal 12 from deck"
)

_PLAIN = [f"{r}{s}" for s in "SCD" for r in "23456789TJQKA"]  # 39 cards, no heart


def dealt(text: str, first: list[str]) -> ruledsl.GameState:
    state = load_checked(check_source(Source("hearts.game", text)), 2).new_initial_state(seed=0)
    others = [c for c in state.prog.card_names if c not in first][:4]
    arrange(state, "hand", first, owner=0)
    arrange(state, "hand", others, owner=1)
    return state


def pairs(cards: list[str]) -> list[str]:
    return sorted(f"lay {a} {b}" for a, b in itertools.combinations(cards, 2))


class TestListedWhole:
    def test_only_the_groups_meeting_it_are_legal_while_one_does(self) -> None:
        state = dealt(_HEARTS, ["2H", "5S", "7H", "9C"])
        assert sorted(labels(state)) == ["lay 2H 7H"]

    def test_without_such_a_group_every_group_is_legal(self) -> None:
        hand = ["2H", "5S", "7D", "9C"]  # one heart: no pair of hearts
        state = dealt(_HEARTS, hand)
        assert sorted(labels(state)) == pairs(hand)

    def test_a_group_left_out_is_refused_with_the_reason(self) -> None:
        state = dealt(_HEARTS, ["2H", "5S", "7H", "9C"])
        assert why_illegal(state, "lay 2H 5S") == "you must lay hearts: you have two"


class TestOfferedCardByCard:
    def test_only_picks_that_complete_a_group_meeting_it_are_offered(self) -> None:
        state = dealt(_STEPPED, [*_PLAIN[:38], "2H", "7H"])
        assert labels(state) == ["lay: pick the cards"]
        act(state, "lay: pick the cards")
        assert sorted(labels(state)) == ["pick 2H", "pick 7H"]
        act(state, "pick 7H")
        assert labels(state) == ["pick 2H"]  # 7H alone is too few, and no other heart goes with it
        act(state, "pick 2H")
        assert labels(state) == ["done"]
        act(state, "done")
        assert state.describe_last(None) == "lay 2H 7H"

    def test_without_such_a_group_every_pick_and_done_are_offered(self) -> None:
        hand = [*_PLAIN, "2H"]  # one heart: no group of hearts
        state = dealt(_STEPPED, hand)
        act(state, "lay: pick the cards")
        assert sorted(labels(state)) == sorted(f"pick {c}" for c in hand)
        act(state, "pick 5S")
        act(state, "pick 2H")
        assert "done" in labels(state) and len(labels(state)) == 39

    def test_a_group_typed_whole_is_refused_with_the_reason(self) -> None:
        state = dealt(_STEPPED, [*_PLAIN[:38], "2H", "7H"])
        assert why_illegal(state, "lay 2H 5S") == "you must lay hearts: you have two"
        act(state, "lay 2H 7H")  # a group meeting it, typed whole, is taken
        assert state.describe_last(None) == "lay 2H 7H"
