"""The greedy agent: each legal action judged by a few short rollouts in resampled deals."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, ClassVar

from ruledsl.agents.base import Option, budget_option, deal_work, evaluate, rollout, work_budget

if TYPE_CHECKING:
    from ruledsl.agents.view import SeatView
    from ruledsl.engine.values import Action

#: The fewest deals an action drawn among too many to probe all is judged on.
FEWEST_SAMPLES = 2


class GreedyAgent:
    """Plays the legal action whose short determinized rollouts rate best for its seat.

    For each legal action it deals the hidden cards anew ``samples`` times, plays the
    action, then ``depth`` random actions, and scores the result: the returns if the
    game ended, else the standing (see ``evaluate``), averaged over the deals in which the
    action is legal. It chooses only among the seat's true legal actions (a deal where one
    is not legal is skipped). Ties go to a random best action.
    No tree, no look further: a cheap baseline above random.

    It keeps to its ``budget`` of work a move (``base.WORK_PER_SECOND``): when probing every
    action ``samples`` times would pass it, the actions left get fewer deals each, and when
    even ``FEWEST_SAMPLES`` each would pass it (a choice of several cards: 286 ways to pass
    three), it judges a random draw of them; it stops at the first probe past the budget.
    """

    name: ClassVar[str] = "greedy"
    omniscient: ClassVar[bool] = False
    resamples: ClassVar[bool] = True
    OPTIONS: ClassVar[dict[str, Option]] = {
        "samples": Option(int, 8, "deals per legal action", low=1),
        "depth": Option(int, 4, "random actions after the action judged (0: to the end)", low=0),
        "budget": budget_option(),
    }

    def __init__(self, seed: int = 0, samples: int = 8, depth: int = 4, budget: float = 1.0) -> None:
        self.rng = random.Random(seed)
        self.samples = samples
        self.depth = depth
        self.work = work_budget(budget)
        #: The probes and work of the last decision, and the most work one probe took.
        self.last_probes = self.last_work = self.last_probe_most = 0

    def choose(self, view: SeatView) -> Action:
        legal = view.legal_actions()
        if len(legal) == 1:
            return legal[0]
        rng = self.rng
        best: list[Action] = []
        best_score = float("-inf")
        self.last_probes = self.last_work = self.last_probe_most = 0
        todo = list(legal)
        i = 0
        while i < len(todo):
            samples = self._samples(todo, i)
            if samples == 0:
                break
            total, counted = self._probe(view, todo[i], samples, len(todo) - i)
            if counted < self.samples:  # scaled to the deals of an action legal in all
                total = total / counted * self.samples if counted else float("-inf")
            if total > best_score + 1e-9 or not best:
                best, best_score = [todo[i]], total
            elif total == best_score or abs(total - best_score) <= 1e-9:
                best.append(todo[i])
            i += 1
        return best[rng.randrange(len(best))] if len(best) > 1 else best[0]

    def _samples(self, todo: list[Action], i: int) -> int:
        """The deals the ``i``th action gets from the work left (0: none, stop); past the work for
        ``FEWEST_SAMPLES`` each, the actions left become a random draw of those it allows."""
        if not self.last_probes:
            return self.samples  # the first probes measure what one costs
        left = self.work - self.last_work
        each = self.last_work / self.last_probes
        affordable = int(left / each) if left > 0 else 0
        waiting = len(todo) - i
        if affordable >= self.samples * waiting:
            return self.samples
        if affordable < FEWEST_SAMPLES * waiting:
            drawn = affordable // FEWEST_SAMPLES
            if drawn == 0:
                return 0
            todo[i:] = self.rng.sample(todo[i:], drawn)
            waiting = drawn
        return max(1, min(self.samples, affordable // waiting))

    def _probe(self, view: SeatView, action: Action, samples: int, actions: int) -> tuple[float, int]:
        """Judge ``action`` (one of ``actions`` waiting) on up to ``samples`` deals; return the total
        and the deals counted."""
        rng = self.rng
        total, counted = 0.0, 0
        done = 0
        while done < samples:
            done += 1
            if self.last_probes and self.last_work >= self.work:
                break  # the budget is spent: what is judged so far decides
            state = view.resample(rng)
            legal = state.legal_actions()
            work = deal_work(state) + len(legal)
            # A deal may not allow what the true one does (legality that hangs on cards the
            # seat cannot see): such deals are not the seat's to meet, and are not counted.
            if action in legal:
                state.apply_action(action)
                work += rollout(state, rng, self.depth)
                total += evaluate(state)[view.seat]
                counted += 1
            self.last_probes += 1
            self.last_work += work
            self.last_probe_most = max(self.last_probe_most, work)
            if self.last_probes == 1 and work * self.samples * actions > self.work:
                samples = min(samples, FEWEST_SAMPLES)  # the first probe tells all cannot have their deals
        return total, counted
