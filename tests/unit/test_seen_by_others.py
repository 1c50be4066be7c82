"""Zones 'seen by others' (issue 39, item 1): a hand seen by everybody but its owner (Hanabi's
outward hands), and card variables told to every player ('card var ..., public'), which the
owner of a card he cannot see still knows."""

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
from ruledsl.tools import leaks
from ruledsl.tools.scenario import arrange
from ruledsl.tools.simulate import play_game

OUTWARD = """\
game "Outward"
players 3
values colour: red, blue
card colour: colour
card n: number
zone deck: shared, hidden
zone hand: per player, seen by others
zone pile: shared, public
var hints = 4
card var told: colour = none, public
define told_of(q: player, k: colour) = any c in q.hand where c.colour == k
deck:
    card "{colour}{n}" for colour in red to blue, n in 1 to 4

setup:
    shuffle deck
    deal 2 from deck to each hand

phase play:
    action tell(q: player from players after player, k: colour) when hints > 0 and told_of(q, k):
        label "tell {q} {k}"
        subtract 1 from hints
        for each c in q.hand where c.colour == k:
            set c.told = k
    action lay(c: card from hand):
        label "lay {c}"
        move c to pile
        if size of pile == 4:
            end game, draw
"""


@pytest.fixture
def outward(tmp_path):  # type: ignore[no-untyped-def]
    path = tmp_path / "outward.game"
    path.write_text(OUTWARD, encoding="utf-8")
    return ruledsl.load_game(str(path))


def dealt(game: ruledsl.Game) -> ruledsl.GameState:
    state = game.new_initial_state(seed=3, log=True, track=True)
    arrange(state, "hand", ["red1", "blue1"], owner=0)
    arrange(state, "hand", ["red2", "blue2"], owner=1)
    arrange(state, "hand", ["red3", "blue3"], owner=2)
    knowledge.start(state)  # each seat knows the cards as they lie now
    return state


def play(state: ruledsl.GameState, label: str) -> None:
    state.apply_action(state.action_from_string(label))


def test_the_zone_parses_and_writes_back() -> None:
    tree = parse(OUTWARD)
    zone = next(d for d in tree.decls if isinstance(d, n.ZoneDecl) and d.name == "hand")
    assert zone.visibility == "others"
    told = next(d for d in tree.decls if isinstance(d, n.VarDecl) and d.name == "told")
    assert told.visibility == "told"
    written = format_source(OUTWARD)
    assert "zone hand: per player, seen by others\n" in written
    assert "card var told: colour = none, public\n" in written


def test_a_shared_zone_has_no_owner_to_hide_from() -> None:
    bad = OUTWARD.replace("zone pile: shared, public", "zone pile: shared, seen by others")
    with pytest.raises(CheckError) as caught:
        check_source(Source("bad.game", bad))
    assert "E302" in str(caught.value)


def test_the_owner_does_not_see_his_hand_the_others_do(outward: ruledsl.Game) -> None:
    state = dealt(outward)
    mine = state.observation(0)["zones"]["hand"]
    assert mine[0] == {"size": 2}  # his own: only how many
    assert mine[1]["cards"] == ["red2", "blue2"] and mine[2]["cards"] == ["red3", "blue3"]
    assert "cards" not in state.observation(None)["zones"]["hand"][1]  # a spectator sees what all see


def test_the_owner_chooses_his_cards_by_their_place_the_others_are_told_the_card(outward: ruledsl.Game) -> None:
    state = dealt(outward)
    labels = [str(a) for a in state.legal_actions()]
    assert "lay hidden card 1" in labels and "lay hidden card 2" in labels
    assert not any("red1" in label or "blue1" in label for label in labels)
    assert "tell P1 red" in labels and "tell P2 blue" in labels
    play(state, "lay hidden card 1")
    assert state.describe_last(0) == "lay hidden card 1"
    laid = state.observation(1)["zones"]["pile"]["cards"][-1]
    assert laid in ("red1", "blue1")
    assert state.describe_last(1) == f"lay {laid}"  # the others saw it in his hand, and see it on the pile


def test_a_hint_is_known_to_the_owner_of_the_card_he_cannot_see(outward: ruledsl.Game) -> None:
    state = dealt(outward)
    play(state, "tell P1 blue")  # P0 tells P1 where his blue card is
    seen_by_owner = state.observation(1)
    assert seen_by_owner["zones"]["hand"][1]["told"] == {"told": [None, "blue"]}
    assert "cards" not in seen_by_owner["zones"]["hand"][1]
    # The others see the card itself, so they know it by name as well.
    assert state.observation(2)["card_variables"]["told"] == [["blue2", "blue"]]


def test_a_resample_for_the_owner_deals_his_own_unseen_cards_and_keeps_the_others_hands(
    outward: ruledsl.Game,
) -> None:
    state = dealt(outward)
    play(state, "tell P1 blue")
    seen = state.observation(1)
    moved = False
    for seed in range(20):
        copy = knowledge.resample(state, 1, random.Random(seed))
        assert copy.observation(1)["zones"] == seen["zones"]  # the hint stays where he saw it told
        hand = copy.observation(0)["zones"]["hand"][1]["cards"]
        moved = moved or hand != ["red2", "blue2"]
    assert moved  # his own hand is dealt anew: he cannot tell which cards he holds


def test_the_leak_harness_swaps_a_hinted_card_with_its_hint_left_in_place(outward: ruledsl.Game) -> None:
    state = dealt(outward)
    play(state, "tell P1 blue")
    pairs = leaks.hidden_pairs(state, 1, random.Random(0), 100)
    names = state.prog.card_names
    blue2 = names.index("blue2")
    assert any(blue2 in pair for pair in pairs)  # the hinted card may swap with a card of the deck
    twin = state.clone()
    a, b = next(pair for pair in pairs if blue2 in pair)
    leaks.swap(twin, a, b)
    assert twin.observation(1) == state.observation(1)


def test_no_surface_tells_a_seat_his_own_cards(outward: ruledsl.Game) -> None:
    report = leaks.Report()
    leaks.check_game(outward, range(3), 3, 2, report)
    assert report.comparisons > 0
    assert not report.leaks, "\n".join(str(leak)[:400] for leak in report.leaks[:5])


@pytest.mark.parametrize("agent", ["greedy", "ismcts:iterations=20"])
def test_the_bots_play_it_through(outward: ruledsl.Game, agent: str) -> None:
    record = play_game(outward, 1, [agent, agent, agent])
    assert record.actions > 0


@pytest.mark.parametrize(
    ("line", "said"),
    [
        ("player var seen = 0, seen by others", "only a zone's cards are seen by all but their owner"),
        ("card var secret = no, hidden", "written 'public', told to every player"),
    ],
)
def test_only_zones_are_seen_by_others_and_a_card_variable_is_told_or_seen_with_its_card(line: str, said: str) -> None:
    bad = OUTWARD.replace("var hints = 4\n", f"var hints = 4\n{line}\n")
    with pytest.raises(CheckError) as caught:
        check_source(Source("bad.game", bad))
    assert "E302" in str(caught.value) and said in str(caught.value)
