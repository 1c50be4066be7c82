"""Bots decide within a budget of work per move (issue 38.1): counted, never timed, so a seed replays."""

from __future__ import annotations

import pytest

import ruledsl
from ruledsl.agents import AgentSpecError, SeatView, decide, make_agent
from ruledsl.agents.base import WORK_PER_SECOND, work_budget
from ruledsl.engine.state import GameState


def hearts_pass() -> GameState:
    """Hearts at its first pass: 286 ways to pass three cards of thirteen."""
    state = ruledsl.load_game("hearts").new_initial_state(seed=3, track=True)
    assert len(state.legal_actions()) == 286
    return state


def test_the_budget_is_work_per_second() -> None:
    assert work_budget(1.0) == WORK_PER_SECOND
    assert work_budget(0.5) == WORK_PER_SECOND // 2
    assert make_agent("greedy", 0).work == WORK_PER_SECOND
    assert make_agent("greedy:budget=0.5:samples=3", 0).work == WORK_PER_SECOND // 2
    assert make_agent("ismcts:budget=2:iterations=50", 0).work == 2 * WORK_PER_SECOND


@pytest.mark.parametrize("spec", ["greedy:budget=-1", "ismcts:budget=x"])
def test_a_bad_budget_is_refused(spec: str) -> None:
    with pytest.raises(AgentSpecError, match="budget"):
        make_agent(spec, 0)


@pytest.mark.parametrize("spec", ["greedy", "greedy:budget=0.2", "ismcts", "ismcts:budget=0.2"])
def test_a_decision_in_hearts_pass_keeps_to_its_budget(spec: str) -> None:
    state = hearts_pass()
    agent = make_agent(spec, 1)
    action = decide(agent, state, state.current_player())
    assert action in state.legal_actions()
    # At most one probe (or playout) past the budget: it stops as soon as the budget is spent.
    assert agent.last_work <= agent.work + agent.last_probe_most
    assert agent.last_probes < 286  # not every way to pass is probed, let alone 8 times each


def test_greedy_is_unchanged_where_its_budget_suffices() -> None:
    state = ruledsl.load_game("quasenbo", players=2).new_initial_state(seed=11, track=True)
    legal = state.legal_actions()
    agent = make_agent("greedy:samples=3", 5)
    decide(agent, state, state.current_player())
    assert agent.last_probes == 3 * len(legal)


@pytest.mark.parametrize("spec", ["greedy", "ismcts:budget=0.3"])
def test_the_same_seed_makes_the_same_choice_in_hearts_pass(spec: str) -> None:
    state = hearts_pass()
    seat = state.current_player()
    picks = [make_agent(spec, 9).choose(SeatView(state, seat)) for _ in range(2)]
    assert picks[0] == picks[1]
