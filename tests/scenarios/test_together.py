"""Scenario tests of a phase played together (issue 29, item 1), on the sealed bid of tests/leaks.

Each player offers a card from his hand in secret, or folds; once all have chosen the
offers are applied in seat order and the highest takes the lot. Three players; the hands
are set by hand: P0 5♠ 2♠ 3♥, P1 7♥ 4♠ 2♥, P2 6♠ 3♠ 4♥; the lot is 7♠.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import ruledsl
from ruledsl.agents import SeatView
from ruledsl.engine import knowledge, together
from ruledsl.engine.state import GameState
from ruledsl.tools import leaks
from ruledsl.tools.scenario import arrange, cards_in
from tests.scenarios.support import act, hand, labels

SEALED_BID = str(Path(__file__).parents[1] / "leaks" / "sealed_bid.game")
HANDS = {0: ["5♠", "2♠", "3♥"], 1: ["7♥", "4♠", "2♥"], 2: ["6♠", "3♠", "4♥"]}


def dealt(track: bool = False) -> GameState:
    state = ruledsl.load_game(SEALED_BID, players=3).new_initial_state(seed=0, log=True, track=track)
    for seat, cards in HANDS.items():
        arrange(state, "hand", cards, owner=seat)
    arrange(state, "lot", ["7♠"])
    if track:
        knowledge.start(state)  # what each seat knows, from the hands as set
    state.take_log()
    state.rebase()
    return state


def test_the_choosers_act_in_seat_order_and_each_is_told_whose_choice_is_awaited() -> None:
    state = dealt()
    assert state.current_player() == 0
    assert state.observation(2)["together"] == {"chosen": [], "waiting": [0, 1, 2]}
    act(state, "offer 5♠")
    assert state.current_player() == 1
    assert state.observation(2)["together"] == {"chosen": [0], "waiting": [1, 2]}
    assert labels(state) == ["offer 7♥", "offer 4♠", "offer 2♥", "fold"]


def test_a_choice_is_held_hidden_until_all_have_chosen() -> None:
    state = dealt()
    before = {seat: state.observation(seat) for seat in (1, 2)}
    act(state, "offer 5♠")
    assert hand(state, 0) == ["5♠", "2♠", "3♥"]  # held: nothing moved yet
    assert cards_in(state, "shown") == [] and state.take_log() == []
    for seat in (1, 2):
        seen = state.observation(seat)
        assert seen.pop("together") == {"chosen": [0], "waiting": [1, 2]}
        seen["current_player"] = before[seat]["current_player"]
        before[seat].pop("together")
        seen.pop("legal_actions", None)
        before[seat].pop("legal_actions", None)
        assert seen == before[seat]  # all he reads is that P0 has chosen
        assert state.describe_last(seat) == "choose in secret"
        assert [str(a) for a in state.history_seen_by(seat)] == ["offer"]  # the rule's name, no choice
    assert state.describe_last(None) == "choose in secret"
    assert state.describe_last(0) == "offer 5♠"  # his own, as he chose it
    other = dealt()
    act(other, "fold")  # P0 chose otherwise: P1 and P2 are refused alike
    for move in ("offer 5♠", "offer 7♥", "fold", "offer 6♠"):
        for seat in (1, 2):
            assert state.why_illegal(move, player=seat) == other.why_illegal(move, player=seat)


def test_the_effects_run_once_all_have_chosen_in_seat_order() -> None:
    state = dealt()
    act(state, "offer 2♠")
    act(state, "fold")
    assert cards_in(state, "shown") == [] and state.take_log() == []
    act(state, "offer 6♠")
    assert cards_in(state, "shown") == ["2♠", "6♠"]  # P0's effects first, then P2's
    assert state.take_log() == ["P0 offers 2♠", "P2 offers 6♠", "P2 takes the lot"]
    assert state.describe_last(0) == "choose in secret"  # the label hides even after the reveal
    assert cards_in(state, "won", owner=2) == ["7♠"]
    assert state.current_player() == 0 and state.observation(0)["together"] == {"chosen": [], "waiting": [0, 1, 2]}


def test_replaying_the_choices_gives_the_same_game() -> None:
    state = dealt()
    rng = random.Random(3)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    again = dealt()
    for action in state.history():
        again.apply_action(action)
    assert again.observation(None) == state.observation(None) and again.returns() == state.returns()


def test_a_resample_does_not_know_the_others_choices() -> None:
    """P2's resample makes P0's and P1's held choices again, legally in the resampled hands."""
    state = dealt(track=True)
    act(state, "offer 5♠")
    act(state, "offer 7♥")
    assert state.current_player() == 2
    offered = set()
    for seed in range(30):
        sample = state.resample(2, random.Random(seed))
        assert sample.held is not None and [q for q, _ in sample.held[1]] == [0, 1]
        for q, action in sample.held[1]:
            assert action in together.legal_for(sample, q)
            if action.key:
                assert sample.prog.card_names[action.key[0]] in cards_in(sample, "hand", owner=q)
        offered.add(str(sample.held[1][0][1]))
    assert len(offered) > 2  # P0's offer re-chosen, not kept


def test_a_seat_view_resamples_alike_whatever_the_others_chose() -> None:
    """Two states that differ only in what P0 chose look the same to P2: so do his resamples."""
    first, second = dealt(track=True), dealt(track=True)
    act(first, "offer 5♠")
    act(second, "fold")
    for state in (first, second):
        act(state, "offer 4♠")
    a = SeatView(first, 2).resample(random.Random(7))
    b = SeatView(second, 2).resample(random.Random(7))
    assert a.held == b.held and a.zones == b.zones
    assert a.observation(2) == b.observation(2)


def test_the_leak_harness_finds_no_leak_in_a_sealed_bid() -> None:
    report = leaks.Report()
    for players in (2, 3):
        game = ruledsl.load_game(SEALED_BID, players=players)
        leaks.check_game(game, range(3), 5, 2, report)
    assert report.comparisons > 0 and not report.leaks, "\n".join(str(x)[:400] for x in report.leaks[:3])


def test_the_leak_harness_catches_a_surface_that_reads_held_choices() -> None:
    """A planted surface that tells the others' held choices is found, by a held twin."""
    state = dealt(track=True)
    act(state, "offer 5♠")
    twins = list(leaks.held_twins(state, 2, random.Random(0), 4))
    assert twins and all(t.observation(2) == state.observation(2) for t in twins)
    game = ruledsl.load_game(SEALED_BID, players=3)
    planted = {"held": lambda st, seat, probe: repr(st.held)}
    report = leaks.check_game(game, range(2), 6, 2, leaks.Report(), surfaces=planted)
    assert any(leak.twin == "held" for leak in report.leaks)


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_the_view_at_the_table_says_who_has_chosen(seat: int) -> None:
    from ruledsl.tools.records import describe_view

    state = dealt()
    act(state, "offer 5♠")
    lines = describe_view(state.observation(seat), seat)
    you = {0: "chosen: you; still to choose: P1, P2", 1: "chosen: P0; still to choose: you, P2"}
    expected = you.get(seat, "chosen: P0; still to choose: P1, you")
    assert f"  choosing together: {expected}" in lines


def test_play_with_two_humans_at_one_keyboard_echoes_no_choice(tmp_path: Path) -> None:
    """Each is handed the keyboard and told who is awaited; a choice made is shown as 'P0: choose in secret'."""
    from tests.golden.test_golden import run_cli

    log = tmp_path / "game.jsonl"
    typed = "".join(["\n1\n"] * 12)  # Enter at each hand-over, then the first action
    code, out, _ = run_cli(
        ["play", SEALED_BID, "--seats", "human,human", "--seed", "3", "--log", str(log)], stdin=typed
    )
    assert code == 0, out
    assert "=== pass the keyboard to P1" in out and "choosing together: chosen: P0; still to choose: you" in out
    assert "P0: choose in secret" in out and "P1: choose in secret" in out
    assert "P0: offer" not in out and "P1: offer" not in out  # nobody's choice is echoed
    code, replayed, _ = run_cli(["replay", str(log), "--as", "1", "--rules", SEALED_BID])
    assert code == 0
    assert "P1: offer" in replayed and "P0: offer" not in replayed and "P0: choose in secret" in replayed
