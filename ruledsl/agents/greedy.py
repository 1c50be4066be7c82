"""The greedy agent: each legal action judged by a few short rollouts in resampled deals."""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, ClassVar

from ruledsl.agents.base import Option, evaluate, rollout

if TYPE_CHECKING:
    from ruledsl.agents.view import SeatView
    from ruledsl.engine.values import Action


class GreedyAgent:
    """Plays the legal action whose short determinized rollouts rate best for its seat.

    For each legal action it deals the hidden cards anew ``samples`` times, plays the
    action, then ``depth`` random actions, and scores the result: the returns if the
    game ended, else the standing (see ``evaluate``), averaged over the deals in which the
    action is legal. It chooses only among the seat's true legal actions (a deal where one
    is not legal is skipped). Ties go to a random best action.
    No tree, no look further: a cheap baseline above random.
    """

    name: ClassVar[str] = "greedy"
    omniscient: ClassVar[bool] = False
    resamples: ClassVar[bool] = True
    OPTIONS: ClassVar[dict[str, Option]] = {
        "samples": Option(int, 8, "deals per legal action", low=1),
        "depth": Option(int, 4, "random actions after the action judged (0: to the end)", low=0),
    }

    def __init__(self, seed: int = 0, samples: int = 8, depth: int = 4) -> None:
        self.rng = random.Random(seed)
        self.samples = samples
        self.depth = depth

    def choose(self, view: SeatView) -> Action:
        legal = view.legal_actions()
        if len(legal) == 1:
            return legal[0]
        rng = self.rng
        seat = view.seat
        best: list[Action] = []
        best_score = float("-inf")
        for action in legal:
            # A deal may not allow what the true one does (legality that hangs on cards the
            # seat cannot see): such deals are not the seat's to meet, and are not counted.
            total, counted = 0.0, 0
            for _ in range(self.samples):
                state = view.resample(rng)
                if action not in state.legal_actions():
                    continue
                state.apply_action(action)
                rollout(state, rng, self.depth)
                total += evaluate(state)[seat]
                counted += 1
            if counted < self.samples:  # scaled to the deals of an action legal in all
                total = total / counted * self.samples if counted else float("-inf")
            if total > best_score + 1e-9 or not best:
                best, best_score = [action], total
            elif total == best_score or abs(total - best_score) <= 1e-9:
                best.append(action)
        return best[rng.randrange(len(best))] if len(best) > 1 else best[0]
