"""A choice of a group of cards at the keyboard is made card by card (issue 38.2): toggle, see, confirm."""

from __future__ import annotations

import io

import ruledsl
from ruledsl.cli.keyboard import choose_human
from ruledsl.engine.state import GameState


def hearts_pass() -> GameState:
    state = ruledsl.load_game("hearts").new_initial_state(seed=3)
    assert len(state.legal_actions()) == 286
    return state


def play(state: GameState, lines: list[str]) -> tuple[object, str]:
    out = io.StringIO()
    action = choose_human(state, state.current_player(), out, io.StringIO("".join(f"{x}\n" for x in lines)))
    return action, out.getvalue()


def test_three_cards_are_passed_by_toggling_them_then_confirming() -> None:
    state = hearts_pass()
    # 1 opens the picker (the only entry), 1 2 3 toggle three cards, 2 untoggles one, 4 takes another.
    action, out = play(state, ["1", "1", "2", "3", "2", "4", "done"])
    assert action in state.legal_actions()
    assert str(action).startswith("pass ")
    assert out.count("\n") < 150  # never a line per way to pass
    assert "chosen: (none)" in out
    assert "done" in out
    chosen = [line for line in out.splitlines() if line.startswith("chosen: ")]
    assert len(chosen[-1].split(",")) == 3


def test_only_cards_that_can_still_complete_a_legal_choice_are_offered() -> None:
    state = hearts_pass()
    out_lines: list[str] = []
    buf = io.StringIO()
    try:
        choose_human(state, state.current_player(), buf, io.StringIO("1\n1\n2\n3\n"))
    except EOFError:
        out_lines = buf.getvalue().splitlines()
    # After three cards, only those three may be toggled (off): no fourth card makes a legal pass.
    last = max(i for i, line in enumerate(out_lines) if line.startswith("chosen: "))
    offered = [line for line in out_lines[last + 1 :] if line.strip()[:1].isdigit() and "back" not in line]
    assert len(offered) == 3
    assert all("[x]" in line for line in offered)


def test_a_card_can_be_typed_by_name_and_the_whole_move_still_can() -> None:
    state = hearts_pass()
    legal = state.legal_actions()
    action, _ = play(state, [str(legal[5])])
    assert action == legal[5]
    action, _ = play(state, ["1", "3♥", "5♣", "4♦", "d"])
    assert str(action) == "pass 3♥ 4♦ 5♣"
