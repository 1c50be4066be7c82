"""A window that closes with nobody acting: its 'when all pass:' runs, and its 'go to' is where play goes on,
whether the window was offered to someone who passed or to nobody at all."""

from __future__ import annotations

from pathlib import Path

import ruledsl

# After every card laid, a window: objecting is possible only with the option on. When all
# pass, play goes on to 'counting', which ends the game at once.
QUIET = """\
game "Quiet"
players 2
option objecting: 0 to 1 = 1
    "whether the other player may object"
zone deck: shared, hidden
zone hand: per player, owner
zone pile: shared, public
deck:
    4 × card "card"
var quiet = 0

setup:
    shuffle deck
    deal 2 from deck to each hand
    go to play

phase play:
    action lay(c: card from hand):
        move c to pile
        open objection

window objection for players after player:
    action object when objecting == 1:
        end game, winner player
    pass:
        label "let it pass"
    when all pass:
        add 1 to quiet
        go to counting

phase counting:
    on enter:
        end game

ranking: lowest size of hand
"""


def _laid(tmp_path: Path, objecting: int) -> ruledsl.GameState:
    path = tmp_path / "quiet.game"
    path.write_text(QUIET, encoding="utf-8")
    game = ruledsl.load_game(path, players=2, options={"objecting": objecting})
    state = game.new_initial_state(seed=0)
    state.apply_action(state.legal_actions()[0])  # P0 lays a card: the window opens
    return state


def test_when_all_pass_goes_to_its_phase_when_someone_passed(tmp_path: Path) -> None:
    state = _laid(tmp_path, objecting=1)
    assert state.current_player() == 1 and state.windows is not None  # offered to P1
    (skip,) = [a for a in state.legal_actions() if a.defn.is_pass]
    state.apply_action(skip)
    assert state.is_terminal()


def test_when_all_pass_goes_to_its_phase_when_nobody_was_offered_the_window(tmp_path: Path) -> None:
    """Nobody can object: the window closes at once, its 'when all pass:' runs (the body and the 'go to')."""
    state = _laid(tmp_path, objecting=0)
    assert state.windows is None
    assert state.is_terminal(), (state.current_player(), state.prog.phases[state.phase].name)


def test_the_others_read_the_window_as_closed_with_its_when_all_pass(tmp_path: Path) -> None:
    """A seat the window is not offered to reads the state as if it were offered to nobody: play
    gone on as it would then, 'when all pass:' and its 'go to' included (tests/leaks/test_windows.py)."""
    state = _laid(tmp_path, objecting=1)
    assert state.current_player() == 1 and state.windows is not None
    after = state.clone()
    (skip,) = [a for a in after.legal_actions() if a.defn.is_pass]
    after.apply_action(skip)
    assert after.is_terminal()
    assert state.unoffered().is_terminal()
    assert state.observation(0) == after.observation(0)
