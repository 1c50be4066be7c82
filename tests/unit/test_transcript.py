"""What each player is told of the last action, and of the result."""

from __future__ import annotations

from pathlib import Path

import pytest

import ruledsl
from ruledsl.engine.ops import place_values
from ruledsl.tools.records import build_record, replay
from tests.property.test_playthrough import assert_views_ignore_hidden_cards

# Every play ends the round, and the next round gathers and deals the cards again: the
# card just played is back in the deck (or in a hand) by the time the move is described.
TWO_ROUNDS = """\
game "Two rounds"

players 2 to 2

card points: number

deck:
    card "the Ace": points 1
    card "the Two": points 2
    card "the Three": points 3
    card "the Four": points 4

zone deck: shared, hidden
zone pile: shared, public
zone hand: per player, owner

setup:
    move all of pile to deck
    for each p in players:
        move all of p.hand to deck
    shuffle deck
    deal 2 from deck to each hand

phase play:
    action play(c: card from hand):
        label "play {c}"
        move c to pile
        end round

round end:
    if round == 2:
        end game, draw
"""


def test_a_card_played_face_up_stays_named_after_the_next_round_deals_it_again(tmp_path: Path) -> None:
    path = tmp_path / "two_rounds.game"
    path.write_text(TWO_ROUNDS, encoding="utf-8")
    state = ruledsl.load_game(path, players=2).new_initial_state(seed=1)
    action = state.legal_actions()[0]
    state.apply_action(action)
    assert state.round == 2
    played = str(action)
    for viewer in (None, 0, 1):
        assert state.describe_last(viewer) == played
    # A copy describes it the same way.
    assert state.clone().describe_last(None) == played


def test_a_hidden_card_stays_hidden_in_the_text(tmp_path: Path) -> None:
    """The same game with a hidden pile: nobody but the player learns the card."""
    path = tmp_path / "hidden.game"
    path.write_text(TWO_ROUNDS.replace("zone pile: shared, public", "zone pile: shared, hidden"), encoding="utf-8")
    state = ruledsl.load_game(path, players=2).new_initial_state(seed=1)
    action = state.legal_actions()[0]
    state.apply_action(action)
    assert state.describe_last(0) == str(action)
    assert state.describe_last(1) == state.describe_last(None) == "play a hidden card"


@pytest.mark.parametrize(
    ("shown", "told"),
    [
        ("{(seat 1).hand}", "two hidden cards"),  # unseen by the log's readers
        ("{(seat 1).hand + pile}", "the Three and two hidden cards"),
        ("{hand}", "a hidden card"),
        ("{pile}", "the Three"),
    ],
)
def test_hidden_cards_in_a_text_are_counted(tmp_path: Path, shown: str, told: str) -> None:
    """Not 'a hidden card a hidden card': the cards nobody may see are counted, after those named."""
    rules = TWO_ROUNDS.replace(
        """        label "play {c}"
        move c to pile
        end round""",
        f"""        label "play {{c}}"
        move c to pile
        say "{shown}"
        end round""",
    )
    path = tmp_path / "counted.game"
    path.write_text(rules, encoding="utf-8")
    state = ruledsl.load_game(path, players=2).new_initial_state(seed=1, log=True)
    three = next(a for a in state.legal_actions() if str(a) == "play the Three")
    state.apply_action(three)
    assert state.take_log()[-1] == told


@pytest.mark.parametrize(
    ("label", "say"),
    [
        ('label "tell"', 'say if c.points > 0 then "I hold {c}" else "no"'),
        ('label if size of hand > 0 then "tell about {c}" else "tell"', 'say "told"'),
    ],
    ids=["say", "label using the state"],
)
def test_a_text_chosen_by_if_shows_a_hidden_card_to_nobody_but_its_holder(tmp_path: Path, label: str, say: str) -> None:
    """Texts inside an 'if' are written for whoever reads the whole, not for the actor alone."""
    rules = TWO_ROUNDS.replace(
        """        label "play {c}"
        move c to pile""",
        f"""        {label}
        {say}
        move c to deck""",
    ).replace("phase play:\n    action play(", "phase play:\n    action tell(")
    path = tmp_path / "tell.game"
    path.write_text(rules, encoding="utf-8")
    state = ruledsl.load_game(path, players=2).new_initial_state(seed=1, log=True)
    held = state.observation(0)["zones"]["hand"][0]["cards"]
    state.apply_action(state.legal_actions()[0])
    told = [*state.take_log(), state.describe_last(1), state.describe_last(None)]
    assert not [t for t in told if any(name in t for name in held)]
    assert any("a hidden card" in t for t in told)


def test_tied_players_in_the_middle_return_exactly_zero() -> None:
    assert place_values([[0], [1, 3], [2]], 4) == [1.0, 0.0, -1.0, 0.0]
    assert place_values([[2], [0, 1]], 3) == [-0.5, -0.5, 1.0]
    assert place_values([[0, 1, 2, 3, 4]], 5) == [0.0] * 5
    assert place_values([[0]], 1) == [0.0]


# Each player takes a card he cannot see from the next player's hand: chosen by its place.
TAKE = """\
game "Take"

players 2 to 2

card value: number

deck:
    card "{value}" for value in 1 to 6

zone deck: shared, hidden
zone hand: per player, owner
zone pile: shared, public

setup:
    shuffle deck
    deal 3 from deck to each hand

phase play:
    action take(c: card from (player after player).hand):
        move c to pile
        if (player after player).hand is empty:
            end game, winner player
"""


def test_cards_chosen_by_their_place_read_apart(tmp_path: Path) -> None:
    # They all read 'take a hidden card': a player could not tell them apart, nor a record.
    path = tmp_path / "take.game"
    path.write_text(TAKE, encoding="utf-8")
    state = ruledsl.load_game(path, players=2).new_initial_state(seed=0)
    assert [str(a) for a in state.legal_actions()] == ["take hidden card 1", "take hidden card 2", "take hidden card 3"]
    state.apply_action(state.legal_actions()[2])
    assert state.describe_last(0) == "take hidden card 3"  # as its chooser saw it
    played = state.observation(1)["zones"]["pile"]["cards"][-1]  # face up on the pile: seen by all
    assert state.describe_last(1) == state.describe_last(None) == f"take {played}"


def test_a_game_of_cards_chosen_by_their_place_replays_as_it_was_played(tmp_path: Path) -> None:
    # Replaying picked the first action of that label: another card, and another game.
    path = tmp_path / "take.game"
    path.write_text(TAKE, encoding="utf-8")
    game = ruledsl.load_game(path, players=2)
    for seed in range(5):
        state = game.new_initial_state(seed=seed)
        labels = []
        while not state.is_terminal():
            action = state.legal_actions()[-1]
            labels.append(str(action))
            state.apply_action(action)
        record = build_record(game, seed, ["first", "first"], labels, [], state.returns(), False)
        again = replay(record, game)
        assert again.observation(None)["zones"] == state.observation(None)["zones"]
        assert again.returns() == state.returns()


def test_an_attribute_of_a_card_chosen_by_its_place_reads_none_in_a_label(tmp_path: Path) -> None:
    path = tmp_path / "take.game"
    path.write_text(
        TAKE.replace("move c to pile", 'label "take {c} of {c.value}"\n        move c to pile'), encoding="utf-8"
    )
    state = ruledsl.load_game(path, players=2).new_initial_state(seed=0)
    assert str(state.legal_actions()[0]) == "take hidden card 1 of none"


def test_a_label_that_cannot_be_worked_out_is_r504_not_a_traceback(tmp_path: Path) -> None:
    # 'none + 1': a TypeError out of the compiled label, met by 'play' as soon as a person chose.
    path = tmp_path / "take.game"
    path.write_text(
        TAKE.replace("move c to pile", 'label "take {c.value + 1}"\n        move c to pile'), encoding="utf-8"
    )
    state = ruledsl.load_game(path, players=2).new_initial_state(seed=0)
    with pytest.raises(ruledsl.RuleRuntimeError) as info:
        str(state.legal_actions()[0])
    d = info.value.diagnostics[0]
    assert (d.code, d.line, d.message) == ("R504", 20, "this label needs a value that is none here")


# A card taken by its place into the taker's hand: nobody but him sees it, ever.
TAKE_HOME = TAKE.replace("move c to pile", "LABEL\n        move c to hand")


@pytest.mark.parametrize(
    "label",
    [
        'label "take {c} of {c.value}"',
        'label "take {c} of {c.value} from {size of (player after player).hand}"',  # read with the state
        'label "take {c} of {c.value} ({if c.value > 3 then 1 else 2} from {size of deck})"',
    ],
    ids=["from the choices", "with the state", "an if on it"],
)
def test_a_card_chosen_by_its_place_reads_unseen_in_every_label(tmp_path: Path, label: str) -> None:
    """Neither its chooser, before choosing, nor the others, after, read what the card is."""
    path = tmp_path / "take.game"
    path.write_text(TAKE_HOME.replace("LABEL", label), encoding="utf-8")
    game = ruledsl.load_game(path, players=2)
    for seed in range(4):
        state = game.new_initial_state(seed=seed, log=True)  # a log: the others' label is written
        menu = [str(a) for a in state.legal_actions()]
        assert all(" of none" in m and "(1 " not in m for m in menu), menu
        assert_views_ignore_hidden_cards(state, seed)
        state.apply_action(state.legal_actions()[0])
        for viewer in (1, None):
            told = state.describe_last(viewer)
            assert " of none" in told and "(1 " not in told, told
            assert "take a hidden card" in told or "take hidden card" in told


def test_a_card_chosen_by_its_place_is_read_once_its_chooser_sees_it(tmp_path: Path) -> None:
    """Cards face up and face down in one zone: those face up are chosen by what they are."""
    rules = TAKE.replace("zone pile: shared, public", "zone pile: shared, public\nzone table: shared, public").replace(
        "deal 3 from deck to each hand",
        "move top of deck to table face up\n    move top 2 of deck to table face down",
    )
    rules = rules.replace("(player after player).hand)", "table)").replace(
        "move c to pile", 'label "take {c.value} ({size of deck})"\n        move c to pile'
    )
    rules = rules.replace("if (player after player).hand is empty", "if table is empty")
    path = tmp_path / "table.game"
    path.write_text(rules, encoding="utf-8")
    state = ruledsl.load_game(path, players=2).new_initial_state(seed=0)
    (up,) = [c for c in state.observation(0)["zones"]["table"]["cards"] if c is not None]
    assert sorted(str(a) for a in state.legal_actions()) == [f"take {up} (3)", "take none (3)", "take none (3)"]


def test_a_card_revealed_by_the_action_is_named_to_everybody(tmp_path: Path) -> None:
    """'reveal c' shows every player the card: the label names it to them too."""
    path = tmp_path / "show.game"
    path.write_text(TAKE_HOME.replace("LABEL", 'label "take {c}, a {c.value}"\n        reveal c'), encoding="utf-8")
    state = ruledsl.load_game(path, players=2).new_initial_state(seed=0, log=True)
    state.apply_action(state.legal_actions()[0])
    (line,) = state.take_log()
    taken = line.removeprefix("revealed: ")
    assert state.describe_last(0) == "take hidden card 1, a none"  # as he was offered it, before
    assert state.describe_last(1) == state.describe_last(None) == f"take {taken}, a {taken}"
    assert state.clone().describe_last(1) == f"take {taken}, a {taken}"


def test_a_card_revealed_once_is_not_named_again_by_the_next_action(tmp_path: Path) -> None:
    path = tmp_path / "show.game"
    rules = TWO_ROUNDS.replace('label "play {c}"\n        move c to pile\n        end round', 'label "show {c}"')
    rules = rules.replace("phase play:\n", "phase play:\n    action tell(c: card from hand):\n        reveal c\n")
    path.write_text(rules, encoding="utf-8")
    state = ruledsl.load_game(path, players=2).new_initial_state(seed=0)
    tell = state.legal_actions()[0]
    state.apply_action(tell)
    assert "hidden" not in state.describe_last(1)
    state.apply_action(next(a for a in state.legal_actions() if a.name == "play"))
    assert state.describe_last(0) == "show a hidden card"


def _told_game(tmp_path: Path, say: str) -> ruledsl.Game:
    """TWO_ROUNDS where a play says ``say`` once the card is played (his hand holds the other)."""
    rules = TWO_ROUNDS.replace(
        "        move c to pile\n        end round",
        f'        move c to pile\n        say "{say}"\n        end round',
    )
    path = tmp_path / "told.game"
    path.write_text(rules, encoding="utf-8")
    return ruledsl.load_game(path, players=2)


def test_a_say_names_a_card_to_each_player_who_sees_it_when_it_runs(tmp_path: Path) -> None:
    """Issue 37: '{c}' named a card only when every player saw it; its holder read 'a hidden card' too."""
    state = _told_game(tmp_path, "{player} keeps {top of hand}").new_initial_state(seed=1, log=True)
    state.take_log()
    played = state.legal_actions()[0]
    (other,) = [c for c in state.observation(0)["zones"]["hand"][0]["cards"] if f"play {c}" != str(played)]
    state.apply_action(played)
    log = state.log[:]
    assert state.take_log(0) == [f"P0 keeps {other}"]  # in his own hand when the say runs
    state.log = log[:]
    assert state.take_log(1) == ["P0 keeps a hidden card"]
    state.log = log
    assert state.take_log() == ["P0 keeps a hidden card"]  # the spectators: what every seat sees


def test_a_say_tells_a_player_nothing_of_cards_he_cannot_see(tmp_path: Path) -> None:
    """Swapping two cards seat 1 cannot see (leak-harness style) leaves what he is told unchanged."""
    import random

    from ruledsl.tools.leaks import swap

    game = _told_game(tmp_path, "{player} keeps {top of hand}; P1 holds {(seat 1).hand}")
    for seed in range(4):
        state = game.new_initial_state(seed=seed, log=True)
        state.take_log()
        hidden = [c for c in range(len(state.loc)) if not state.sees(1, c)]
        pairs = [(a, b) for a in hidden for b in hidden if a < b]
        random.Random(seed).shuffle(pairs)
        assert pairs
        for a, b in pairs:
            twin = state.clone()
            swap(twin, a, b)
            told = []
            for s in (state.clone(), twin):
                s.apply_action(s.legal_actions()[0])
                told.append(s.take_log(1))
            assert told[0] == told[1]
            assert "a hidden card" in told[0][0]
