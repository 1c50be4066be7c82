"""Traps a newcomer falls into (issue 29, 'walls'): each one reproduced by a minimal rule file."""

from __future__ import annotations

from pathlib import Path

import pytest

import ruledsl
from ruledsl.engine.reading import NO_REASON
from tests.property.test_playthrough import assert_views_ignore_hidden_cards
from tests.unit.test_named_as_seen import ROW_AND_COLUMN

OWN_HAND = "a card in 'hand' that only its owner sees"


def _load(tmp_path: Path, text: str, players: int = 2) -> ruledsl.Game:
    path = tmp_path / "t.game"
    path.write_text(text, encoding="utf-8")
    return ruledsl.load_game(path, players=players)


# ---------------------------------------------------------------- a label that reads the state

# The same row and column, but the label also reads the state (the size of the hand).
ROW_COUNTED = ROW_AND_COLUMN.replace(
    "        move c to hand", '        label "take {c}, holding {size of hand}"\n        move c to hand'
)


def test_a_label_reading_the_state_names_cards_as_a_label_from_the_choices_does(tmp_path: Path) -> None:
    plain = _load(tmp_path, ROW_AND_COLUMN).new_initial_state(seed=0)
    state = _load(tmp_path, ROW_COUNTED).new_initial_state(seed=0)
    # Face-up cards by name, the face-down one by its place ('hidden card 2'), never 'a hidden card':
    # two face-down cards would read alike, and neither he nor a record could tell them apart.
    assert sorted(str(a) for a in state.legal_actions()) == sorted(f"{a}, holding 0" for a in plain.legal_actions())
    assert_views_ignore_hidden_cards(state, 0)
    for typed in (str(a) for a in state.legal_actions()):
        copy = state.clone()
        copy.apply_action(copy.action_from_string(typed))


def test_two_face_down_cards_read_apart_in_a_label_reading_the_state(tmp_path: Path) -> None:
    text = ROW_COUNTED.replace("move top of deck to column face up", "move top of deck to row face down")
    plain = _load(tmp_path, ROW_AND_COLUMN.replace("column face up", "row face down")).new_initial_state(seed=0)
    state = _load(tmp_path, text).new_initial_state(seed=0, log=True)
    labels = [str(a) for a in state.legal_actions()]
    assert len(set(labels)) == len(labels) == 3, labels
    assert labels == [f"{a}, holding 0" for a in plain.legal_actions()]
    assert [x for x in labels if "hidden" in x] == ["take hidden card 1, holding 0", "take hidden card 2, holding 0"]
    state.apply_action(state.action_from_string("take hidden card 2, holding 0"))
    # The others are told a hidden card was taken, not which place it had.
    assert state.describe_last(1) == "take a hidden card, holding 0"


# ---------------------------------------------------------------- a require on a hidden variable

# Seat 0 hides a number; seat 1 may guess only while the secret is high, with a card in the deck,
# and names a card he holds.
SECRET = """\
game "Secret"
players 2
card rank: number
deck:
    card "{rank}" for rank in 1 to 3
zone deck: shared, hidden
zone hand: per player, owner
var secret = 0, hidden
setup:
    move all of deck to (seat 1).hand
phase hide:
    action hide(n: number 1 to 5):
        set secret = n
        go to guess with player after player
phase guess:
    action guess(c: card from hand) when secret > 3:
        require deck is not empty, "the deck is empty"
        require c.rank > 1, "{c} is too low to guess with"
        end game, winner player
    action give_up:
        end game, draw
"""


def test_a_reason_the_seat_may_be_told_follows_a_require_on_a_hidden_variable(tmp_path: Path) -> None:
    game = _load(tmp_path, SECRET)
    for hidden in (2, 5):
        state = game.new_initial_state(seed=1)
        state.apply_action(state.action_from_string(f"hide {hidden}"))
        # Whatever the secret, the deck is empty: that he may be told, and it tells nothing of it.
        assert state.why_illegal("guess 1") == "the deck is empty"
        assert state.why_illegal("guess 3") == "the deck is empty"
    # One card back in the deck: the second require speaks, when it fails; when it holds, nothing is said.
    game = _load(tmp_path, SECRET.replace("(seat 1).hand\n", "(seat 1).hand\n    move top of (seat 1).hand to deck\n"))
    for hidden in (2, 5):
        state = game.new_initial_state(seed=1)
        state.apply_action(state.action_from_string(f"hide {hidden}"))
        assert state.why_illegal("guess 1") == "1 is too low to guess with"
        assert state.why_illegal("guess 2") == (NO_REASON if hidden == 2 else None)


# ---------------------------------------------------------------- two actions read alike

# 'play {c}' for a low card, 'play {c}, naming {k}' for a high one (Uno's Wild): typing
# 'play 5' reads as the first action only, though the player meant the second.
NAMING = """\
game "Naming"
players 2
values colour: red, blue
card rank: number
deck:
    card "{rank}" for rank in 1 to 6
zone deck: shared, hidden
zone hand: per player, owner
zone pile: shared, public
var named: colour = none
setup:
    move all of deck to (seat 0).hand
phase play:
    action play(c: card from hand) when c.rank <= 3:
        move c to pile
    action wild(c: card from hand, k: colour) when c.rank > 3:
        require c.rank != 6 or size of pile > 0, "a 6 is played on another card"
        label "play {c}, naming {k}"
        move c to pile
        set named = k
        end game, winner player
"""


def test_a_move_read_as_two_actions_is_explained_by_the_one_it_matches_best(tmp_path: Path) -> None:
    state = _load(tmp_path, NAMING).new_initial_state(seed=0)
    # 'play 6' is all of a 'play' and the start of a 'play …, naming …': the second gets further.
    assert state.why_illegal("play 6") == "a 6 is played on another card"
    assert state.why_illegal("play 6, naming red") == "a 6 is played on another card"
    # A move that says too little is told what it lacks.
    assert state.why_illegal("play 5") == "say which colour too: 'play 5, naming …'"
    # And 'play 2, naming red' is the second action's: its condition speaks.
    assert state.why_illegal("play 2, naming red") == "the rank of 2 is not more than 3"
    with pytest.raises(ruledsl.IllegalActionError, match="say which colour too"):
        state.action_from_string("play 5")


# ---------------------------------------------------------------- W406 after a reveal in a loop


def _w406(rules: str) -> list[str]:
    from tests.unit.test_disclosure import warnings

    return [message for message, _, _ in warnings(rules)]


def test_cards_revealed_one_by_one_in_a_loop_are_seen_after_it() -> None:
    total = '        say "{player} holds {count c in hand where c.rank == 5} fives"\n'
    shown = "    action show:\n        for each c in hand:\n            reveal c\n" + total
    assert _w406(shown) == []
    assert _w406("    action show:\n        reveal all of hand\n" + total) == []
    # Not when the loop may stop early, skips some cards, or cards come in after it.
    assert _w406(shown.replace("reveal c\n", "reveal c\n            stop\n"))
    assert _w406(shown.replace("in hand:", "in hand where c.rank == 4:"))
    assert _w406(shown.replace("reveal c\n", "reveal c\n        move top of stock to hand\n"))
    assert _w406(shown.replace("            reveal c\n", "            if c.rank == 4:\n                reveal c\n"))
    assert _w406(shown.replace("reveal c\n", "reveal c\n            move c to pile\n"))
    assert _w406(shown + '        say "{(top of hand).rank}"\n') == []


# ---------------------------------------------------------------- a local name given a new value

# Seat 0 counts the ranks over 2 in his hand with a local, then keeps the sum in a variable.
SUM = """\
game "Sum"
players 2
card rank: number
deck:
    card "{rank}" for rank in 1 to 6
zone deck: shared, hidden
zone hand: per player, owner
var best = 0
setup:
    shuffle deck
    deal 3 from deck to each hand
phase play:
    action count:
        let n = 0
        let high = top of hand
        for each c in hand:
            if c.rank > 2:
                set n = n + c.rank
                add 1 to n
            if c.rank > high.rank:
                set high = c
        subtract 1 from n
        set best = n + high.rank
        end game, draw
"""


def test_a_let_local_is_given_a_new_value_with_set(tmp_path: Path) -> None:
    state = _load(tmp_path, SUM).new_initial_state(seed=2)
    ranks = [int(c) for c in state.observation(0)["zones"]["hand"][0]["cards"]]
    state.apply_action(state.action_from_string("count"))
    over = [r for r in ranks if r > 2]
    assert state.observation(0)["variables"]["best"] == sum(over) + len(over) - 1 + max(ranks)


def test_a_local_keeps_its_type_and_a_zone_local_stays_fixed(tmp_path: Path) -> None:
    with pytest.raises(ruledsl.CheckError) as info:
        _load(tmp_path, SUM.replace("set n = n + c.rank", "set n = c"))
    assert "error[E301]: 'n' holds a number, not a card" in str(info.value)
    with pytest.raises(ruledsl.CheckError) as info:
        _load(tmp_path, SUM.replace("let n = 0", "let n = 0\n        let z = hand\n        set z = deck"))
    assert "error[E304]: a local name for a zone cannot be given a new value" in str(info.value)


def test_a_local_set_from_a_hidden_card_is_told_of() -> None:
    rules = (
        "    action tell:\n        let r = last\n        for each c in hand:\n            set r = c.rank\n"
        '        say "{r}"\n'
    )
    assert _w406(rules) == ["this text tells every player the rank of 'c' (through 'r'), " + OWN_HAND]


# ---------------------------------------------------------------- a value's place as a number

RANKS = """\
game "Ranks"
players 2
values rank: A, 2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K
card rank: rank
deck:
    card "{rank}" for rank in A to K
zone deck: shared, hidden
zone pile: shared, public
var points = 0
setup:
    shuffle deck
phase play:
    action draw:
        move top of deck to pile
        add (top of pile).rank as number to points
        if points > RANK_AS:
            end game, draw
"""


def test_a_value_as_number_is_its_place_in_its_list(tmp_path: Path) -> None:
    state = _load(tmp_path, RANKS.replace("RANK_AS", "Q as number + 40")).new_initial_state(seed=0)
    order = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    total = 0
    while not state.is_terminal():
        state.apply_action(state.action_from_string("draw"))
        total += order.index(state.observation(0)["zones"]["pile"]["cards"][-1]) + 1
        if not state.is_terminal():
            assert state.observation(0)["variables"]["points"] == total <= 12 + 40
    from ruledsl.format.fmt import format_source

    text = RANKS.replace("RANK_AS", "Q as number + 40")
    assert "add (top of pile).rank as number to points" in format_source(text)


def test_a_card_as_number_is_refused_with_what_to_write(tmp_path: Path) -> None:
    with pytest.raises(ruledsl.CheckError) as info:
        _load(tmp_path, RANKS.replace("RANK_AS", "(top of pile) as number"))
    assert "error[E301]: 'as number' gives the place of a value in its list, not of a card" in str(info.value)
    assert "position of c" in (info.value.diagnostics[0].hint or "")


# ---------------------------------------------------------------- a run chosen as a group

RUNS = """\
game "Runs"
players 2
values rank: A, 2, 3, 4, 5, 6, 7, 8, 9, 10, J, Q, K
values suit: spades, hearts
card rank: rank
card suit: suit
deck:
    card "{rank}{suit}" for rank in A to K, suit in spades to hearts
zone deck: shared, hidden
zone hand: per player, owner
zone melds: shared, public
setup:
    for each c in deck:
        if c.rank <= 5 and (c.suit == hearts or c.rank == 2 or c.rank == 9):
            move c to (seat 0).hand
    move all of deck to (seat 1).hand
phase play:
    action meld(cs: 3 to 4 cards in sequence of rank of one suit from hand):
        label "meld {cs}"
        move all of cs to melds
        end game, winner player
"""


def test_a_run_is_chosen_as_a_group_of_consecutive_values_sharing_one(tmp_path: Path) -> None:
    state = _load(tmp_path, RUNS).new_initial_state(seed=0)
    # Seat 0 holds A-5 of hearts and the 2 of spades: the runs of 3 or 4 hearts, no spade.
    hearts = ["Ahearts", "2hearts", "3hearts", "4hearts", "5hearts"]
    runs = [hearts[i : i + k] for k in (3, 4) for i in range(len(hearts) - k + 1)]
    assert sorted(str(a) for a in state.legal_actions()) == sorted("meld " + " ".join(r) for r in runs)
    assert state.why_illegal("meld 2spades 3hearts 4hearts") == (
        "2spades, 3hearts and 4hearts are not in sequence of rank of one suit"
    )
    assert state.why_illegal("meld Ahearts 2hearts 4hearts") == (
        "Ahearts, 2hearts and 4hearts are not in sequence of rank of one suit"
    )
    from ruledsl.format.fmt import format_source

    assert "3 to 4 cards in sequence of rank of one suit from hand" in format_source(RUNS)
    # Without 'of one suit', a run may mix them.
    loose = _load(tmp_path, RUNS.replace(" of one suit", "")).new_initial_state(seed=0)
    assert "meld 2spades 3hearts 4hearts" in [str(a) for a in loose.legal_actions()]


def test_a_run_needs_an_ordered_attribute_and_a_shared_one_that_exists(tmp_path: Path) -> None:
    text = RUNS.replace("card suit: suit\n", "card suit: suit\ncard name: text\ncard wild: flag\n")
    for old, new, message in (
        (" of one suit", " of one colour", "error[E203]: cards have no attribute 'colour'"),
        ("in sequence of rank", "in sequence of name", "error[E301]: a run is in sequence of numbers or of a values"),
    ):
        with pytest.raises(ruledsl.CheckError) as info:
            _load(tmp_path, text.replace(old, new))
        assert message in str(info.value)


def test_a_move_read_as_actions_of_two_phases_is_explained_by_the_phase_being_played(tmp_path: Path) -> None:
    text = NAMING.replace("phase play:\n", "phase play:\n    action pass_on:\n        go to other\n") + (
        "phase other:\n    action lay(c: card from hand):\n"
        '        require c.rank > 5, "only a 6 is laid here"\n        label "play {c}"\n'
        "        move c to pile\n"
    )
    state = _load(tmp_path, text).new_initial_state(seed=0)
    state.apply_action(state.action_from_string("pass on"))
    # 'play 2' reads as 'play' of the first phase and 'lay' of this one: this one speaks.
    assert state.why_illegal("play 2") == "only a 6 is laid here"
    assert state.why_illegal("play 6") is None


def test_the_others_read_a_card_that_ends_face_up_by_name_in_a_label_reading_the_state(tmp_path: Path) -> None:
    from tests.unit.test_named_as_seen import SHOWN_HAND

    told = {}
    for name, label in (("static", '"take {c}"'), ("state", '"take {c} at {size of pile}"')):
        text = SHOWN_HAND.replace("SHOWN", "").replace(
            "        move c to pile", f"        label {label}\n        move c to pile"
        )
        state = _load(tmp_path, text).new_initial_state(seed=3, log=True)
        state.apply_action(state.legal_actions()[0])
        told[name] = [state.describe_last(v) for v in (0, 1, None)]
    # The card lies face up on the pile now: every seat saw it, and is told it, as with a label of the choices.
    assert told["static"] == ["take hidden card 1", "take 4", "take 4"]
    assert told["state"] == ["take hidden card 1 at 0", "take 4 at 0", "take 4 at 0"]


@pytest.mark.parametrize("shown", ["hand", "all of hand", "hand + pile"])
def test_a_zone_revealed_or_turned_shows_its_cards(tmp_path: Path, shown: str) -> None:
    """A zone where cards are expected means its cards: 'reveal hand' is 'reveal all of hand' (E301 before)."""
    from tests.unit.test_disclosure import GAME

    total = '        say "{player} holds {count c in hand where c.rank == 5} fives"\n'
    assert _w406(f"    action show:\n        reveal {shown}\n" + total) == []
    path = tmp_path / "t.game"
    path.write_text(GAME.replace("RULES\n", f"    action show:\n        turn up {shown}\n"), encoding="utf-8")
    state = ruledsl.load_game(path, players=2).new_initial_state(seed=1)
    (held,) = state.observation(0)["zones"]["hand"][0]["cards"]
    state.apply_action(next(a for a in state.legal_actions() if str(a) == "show"))
    assert state.observation(1)["zones"]["hand"][0]["cards"] == [held]
