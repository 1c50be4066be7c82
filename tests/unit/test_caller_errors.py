"""A caller's own exception raised while a rule runs is the caller's: it comes back unchanged, never as
a rule's failure (R504) placed at a line of the rule file, and the action it cut short is undone."""

from __future__ import annotations

import signal
from collections.abc import Iterator
from pathlib import Path

import pytest

import ruledsl
from ruledsl.engine import ops
from ruledsl.text.errors import RuleRuntimeError

# 'think' takes a while (tenths of a second); 'lay' moves a card, when some card of the deck is high.
LONG = """\
game "Long"
players 2
values rank: 1, 2, 3, 4, 5, 6, 7, 8, 9, 10
card rank: rank
zone deck: shared, hidden
zone pile: shared, public
deck:
    card "r{rank}" for rank in 1 to 10
    card "s{rank}" for rank in 1 to 10
var tally = 0

setup:
    shuffle deck
    go to play

phase play:
    action think:
        repeat 90000 times:
            add count c in deck where c.rank > 3 to tally
    action lay when any c in deck where c.rank > 1:
        move top of deck to pile
        if deck is empty:
            end game
"""


class MyTimeout(Exception):
    """The caller's own: raised by his alarm handler."""


class MyValueError(ValueError):
    """The caller's own, on a base a rule's computation may raise too: still his."""


def _game(tmp_path: Path, tag: str) -> ruledsl.Game:
    path = tmp_path / f"long_{tag}.game"
    path.write_text(f"# {tag}\n{LONG}", encoding="utf-8")  # its own text: compiled anew, with the ops of now
    return ruledsl.load_game(path)


@pytest.fixture
def alarm() -> Iterator[None]:
    yield
    signal.setitimer(signal.ITIMER_REAL, 0)
    signal.signal(signal.SIGALRM, signal.SIG_DFL)


def _action(state: ruledsl.GameState, label: str) -> ruledsl.Action:
    (action,) = [a for a in state.legal_actions() if str(a) == label]
    return action


@pytest.mark.parametrize("error", [MyTimeout, MyValueError, KeyboardInterrupt])
def test_a_signal_handlers_exception_during_an_action_comes_back_unchanged(
    tmp_path: Path, alarm: None, error: type[BaseException]
) -> None:
    state = _game(tmp_path, error.__name__).new_initial_state(seed=0)
    before = state.clone()
    raised = error("out of time")

    def handler(signum: int, frame: object) -> None:
        raise raised

    signal.signal(signal.SIGALRM, handler)
    signal.setitimer(signal.ITIMER_REAL, 0.005)  # the action runs for tenths of a second
    with pytest.raises(error) as info:
        state.apply_action(_action(state, "think"))
    signal.setitimer(signal.ITIMER_REAL, 0)
    assert info.value is raised and not isinstance(info.value, RuleRuntimeError)
    # Cut short, the action is undone, as one whose rule failed is: the game goes on from before it.
    assert state.history() == [] and state.observation(0) == before.observation(0)
    state.apply_action(_action(state, "lay"))
    assert len(state.history()) == 1


@pytest.mark.parametrize("where", ["apply_action", "legal_actions"])
def test_a_callers_exception_from_an_op_comes_back_unchanged(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    failing = "move" if where == "apply_action" else "gt"
    original = getattr(ops, failing)
    armed = [False]

    def patched(*args: object) -> object:
        if armed[0]:
            raise MyTimeout("the caller's")
        return original(*args)

    monkeypatch.setattr(ops, failing, patched)
    state = _game(tmp_path, f"op_{where}").new_initial_state(seed=0, track=True)  # tracked: moves go through ops
    lay = _action(state, "lay")
    state._legal = None  # listed anew, with the op armed
    armed[0] = True
    with pytest.raises(MyTimeout, match="the caller's"):
        if where == "apply_action":
            state.apply_action(lay)
        else:
            state.legal_actions()
    armed[0] = False
    assert state.history() == []


def test_a_rules_own_failure_is_still_a_rule_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A ZeroDivisionError, as a rule's arithmetic raises, is still R504 at the rule."""

    def patched(*args: object) -> object:
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr(ops, "move", patched)
    state = _game(tmp_path, "zero").new_initial_state(seed=0, track=True)
    with pytest.raises(RuleRuntimeError) as info:
        state.apply_action(_action(state, "lay"))
    assert info.value.diagnostics[0].code == "R504"
