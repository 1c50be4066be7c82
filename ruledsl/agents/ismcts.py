"""Information-set Monte Carlo tree search, and its perfect-information ceiling ``cheat``.

Single-observer IS-MCTS (Cowling, Powley and Whitehouse, "Information Set Monte Carlo
Tree Search", IEEE TCIAIG 4(2), 2012): one tree over the searching seat's information
set. Each iteration deals the hidden cards anew (``view.resample``), walks down the
tree through the actions legal in that deal, choosing by UCB1 with availability counts
(a child's exploration term counts the iterations in which it was legal, not its
parent's visits), adds one node, finishes with random actions, and backs the result up.
A node stands for an action as its player names it: ``Action`` equality (the same rule
and the same choices, cards named by kind or by hidden place) holds across deals.
Playouts follow a cheap default policy (``rollout_by_standing``) for at most ``depth``
actions; a game still going is then judged by its standing (``evaluate``).

Every node keeps the reward of the player who chose the action leading to it, so the
same tree serves any number of players, each maximising his own result. With
``others=random`` the search instead expects the other seats to play uniformly at random
(an opponent model: their moves are chance in the tree and random in playouts), which
pays against weak players and costs against strong ones.
"""

from __future__ import annotations

import math
import random
import time
from typing import TYPE_CHECKING, Any, ClassVar

from ruledsl.agents.base import (
    CLONE_WORK,
    Option,
    budget_option,
    deal_work,
    evaluate,
    rollout,
    rollout_by_standing,
    work_budget,
)

if TYPE_CHECKING:
    from ruledsl.agents.view import SeatView
    from ruledsl.engine.values import Action

#: Iterations per move unless --seats says otherwise; see docs/agents.md for the choice.
DEFAULT_ITERATIONS = 1000
#: Random actions after the tree before a game still going is judged by its standing.
DEFAULT_DEPTH = 40


class _Node:
    """One action in the tree: its visits, availability and the reward of its chooser."""

    __slots__ = ("player", "visits", "available", "reward", "children")

    def __init__(self, player: int) -> None:
        self.player = player  # who chose the action leading here
        self.visits = 0
        self.available = 1
        self.reward = 0.0  # sum of the chooser's rewards, each from 0 (worst) to 1 (best)
        self.children: dict[Action, _Node] = {}


class IsmctsAgent:
    """Searches the seat's information set: many deals of what it cannot see, one tree."""

    name: ClassVar[str] = "ismcts"
    omniscient: ClassVar[bool] = False
    resamples: ClassVar[bool] = True
    OPTIONS: ClassVar[dict[str, Option]] = {
        "iterations": Option(int, DEFAULT_ITERATIONS, "search iterations per move", low=1),
        "budget": budget_option(),
        "time": Option(
            float, 0.0, "wall-clock seconds a move, as well (a game then depends on the machine's speed)", low=0
        ),
        "c": Option(float, 0.7, "UCB1 exploration constant (rewards run from 0 to 1)", low=0),
        "depth": Option(
            int, DEFAULT_DEPTH, "playout actions after the tree before judging by the standing (0: to the end)", low=0
        ),
        "reuse": Option(int, 1, "iterations per deal of the hidden cards (more is faster, less varied)", low=1),
        "policy": Option(
            str,
            "standing",
            "rollout policy: standing (best of 3 random actions by the standing) or random",
            choices=("standing", "random"),
        ),
        "others": Option(
            str,
            "search",
            "how the other seats are expected to play: search (their best replies) or random (uniformly)",
            choices=("search", "random"),
        ),
    }

    def __init__(
        self,
        seed: int = 0,
        iterations: int = DEFAULT_ITERATIONS,
        budget: float = 1.0,
        time: float = 0.0,
        c: float = 0.7,
        depth: int = DEFAULT_DEPTH,
        reuse: int = 1,
        policy: str = "standing",
        others: str = "search",
    ) -> None:
        self.rng = random.Random(seed)
        self.iterations = iterations
        self.work = work_budget(budget)
        self.time = time
        self.c = c
        self.depth = depth
        self.reuse = reuse
        self.policy = policy
        self.others = others
        #: Iterations run and seconds spent over all moves (for measuring the cost).
        self.total_iterations = 0
        self.total_seconds = 0.0
        #: The iterations (probes) and work of the last search, and the most work one took.
        self.last_probes = self.last_work = self.last_probe_most = 0

    def choose(self, view: SeatView) -> Action:
        legal = view.legal_actions()
        if len(legal) == 1:
            return legal[0]
        root = self.search(view)
        return max(legal, key=lambda a: _visits(root, a))

    def search(self, view: SeatView) -> _Node:
        """Run the search from the seat's view; return the root (children: its actions)."""
        rng = self.rng
        root = _Node(view.seat)
        started = time.perf_counter()
        deadline = started + self.time if self.time > 0 else None
        done = 0
        reuse = self.reuse
        deal = None
        work = most = 0
        while done < self.iterations and work < self.work:
            if reuse == 1:
                deal = view.resample(rng)
                spent = deal_work(deal) + self._iterate(root, deal, rng)
            else:
                spent = 0
                if done % reuse == 0:
                    deal = view.resample(rng)
                    spent = deal_work(deal)
                assert deal is not None
                spent += CLONE_WORK + self._iterate(root, deal.clone(), rng)
            done += 1
            work += spent
            most = max(most, spent)
            if deadline is not None and time.perf_counter() >= deadline:
                break
        self.last_probes, self.last_work, self.last_probe_most = done, work, most
        self.total_iterations += done
        self.total_seconds += time.perf_counter() - started
        return root

    def _iterate(self, root: _Node, state: Any, rng: random.Random) -> int:
        """One iteration on a deal; return its work (the actions listed, see ``base.WORK_PER_SECOND``)."""
        c = self.c
        log = math.log
        sqrt = math.sqrt
        me = root.player
        others_random = self.others == "random"
        node = root
        path = [root]
        work = 0
        # Selection and expansion, through the actions legal in this deal.
        while not state.terminal:
            legal = state.legal_actions()
            work += len(legal)
            if not legal:
                break
            children = node.children
            mover = state.current_player()
            if others_random and mover != me:
                # The modelled opponent's move is chance: drawn, not chosen.
                action = legal[rng.randrange(len(legal))] if len(legal) > 1 else legal[0]
                child = children.get(action)
                state.apply_action(action)
                if child is None:
                    child = children[action] = _Node(mover)
                    path.append(child)
                    break
                path.append(child)
                node = child
                continue
            # Every child legal in this deal was available to choose, whether or not the
            # node is fully expanded yet: its exploration term counts this visit.
            untried = []
            for a in legal:
                ch = children.get(a)
                if ch is None:
                    untried.append(a)
                else:
                    ch.available += 1
            if untried:
                action = untried[rng.randrange(len(untried))] if len(untried) > 1 else untried[0]
                child = children[action] = _Node(mover)
                state.apply_action(action)
                path.append(child)
                break
            best_score = -1.0
            action = legal[0]
            child = children[action]
            for a in legal:
                ch = children[a]
                score = ch.reward / ch.visits + c * sqrt(log(ch.available) / ch.visits)
                if score > best_score:
                    best_score, action, child = score, a, ch
            state.apply_action(action)
            path.append(child)
            node = child
        if self.policy == "random":
            work += rollout(state, rng, self.depth)
        else:
            work += rollout_by_standing(state, rng, self.depth, only=me if others_random else None)
        values = evaluate(state)
        for n in path[1:]:
            n.visits += 1
            n.reward += (values[n.player] + 1.0) * 0.5
        return work


class CheatAgent(IsmctsAgent):
    """A ceiling, not a player: tree search over the true state, every card in sight.

    It sees the other hands, the order of the deck and even the outcome of later
    shuffles. Use it to measure how far honest agents are from perfect information;
    it is never a default.
    """

    name: ClassVar[str] = "cheat"
    omniscient: ClassVar[bool] = True
    resamples: ClassVar[bool] = False


def _visits(root: _Node, action: Action) -> tuple[int, float]:
    child = root.children.get(action)
    if child is None:
        return (0, 0.0)
    return (child.visits, child.reward / child.visits if child.visits else 0.0)
