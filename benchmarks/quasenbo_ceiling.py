"""How often can a bot that does not cheat beat `random` at 2-player Quäsenbö?

    python benchmarks/quasenbo_ceiling.py -n 1000 --jobs 2                 # like ismcts:others=random
    python benchmarks/quasenbo_ceiling.py -n 1000 --jobs 2 --deal hand     # told the other's hand
    python benchmarks/quasenbo_ceiling.py -n 1000 --jobs 2 --policy reply --deal empty

A study behind docs/agents.md ("Against the 75% aim"), on the hand-written Quäsenbö of
``reference_quasenbo`` (the base game), which plays several times faster than the rule
file, so that thousands of games settle what hundreds cannot. The searcher is the
engine's ``ismcts:others=random``: single-observer IS-MCTS with 1000 iterations, UCB1
with availability counts (c = 0.7), the other seat's moves drawn at random in the tree
and in playouts, playouts of 40 actions judged by who holds fewer cards. It sits in
seat 0 against a uniformly random player. What changes is what its deals know:

- ``honest``: every card it cannot see is dealt anew (what ``GameState.resample`` did
  before zones left empty were remembered);
- ``empty``: also what an empty deck tells: every card unseen then was in the other hand,
  and the deck made again from the pile holds only cards seen there;
- ``hand``: the other's true hand (the deck's order still unknown): not a player, a bound.

and how its playouts choose its own moves: ``standing`` (the best of 3 random actions by
the cards it then holds, as ``rollout_by_standing``) or ``reply`` (every action judged
after the other's random reply, as ``rollout_by_reply``).
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run as a script too
from benchmarks.reference_quasenbo import DECK, State  # noqa: E402

ITERATIONS = 1000
C = 0.7
DEPTH = 40
DEALS = ("honest", "empty", "hand")


class Seat:
    """What seat 0 knows of the cards: the other's hand when the deck last ran out."""

    def __init__(self, deal: str) -> None:
        self.deal = deal
        self.held: set = set()  # cards known to be in the other hand

    def saw(self, st: State, actor: int, action: object) -> None:
        self.held.discard(action)
        if self.deal == "empty" and not st.deck:
            self.held = set(unseen(st))

    def world(self, st: State, rng: random.Random) -> State:
        """A deal of what seat 0 cannot see, as its knowledge allows."""
        w = copy(st, rng)
        if self.deal == "hand":
            w.deck = st.deck[:]
            rng.shuffle(w.deck)
            return w
        free = [c for c in unseen(st) if c not in self.held]
        rng.shuffle(free)
        k = len(st.hands[1]) - len(self.held)
        w.hands[1] = list(self.held) + free[:k]
        w.deck = free[k:]
        return w


def copy(st: State, rng: random.Random) -> State:
    """A copy of ``st`` that draws its shuffles from ``rng`` (State.clone copies its Random: slow)."""
    other = State.__new__(State)
    other.num_players = st.num_players
    other.rng = rng
    other.deck = st.deck[:]
    other.hands = [hand[:] for hand in st.hands]
    other.pile = st.pile[:]
    other.player = st.player
    other.winner = st.winner
    return other


def unseen(st: State) -> list:
    """The cards seat 0 cannot see, in table order: the deck and the other hand."""
    seen = set(st.hands[0]) | set(st.pile)
    return [c for c in DECK if c not in seen]


def fewer_cards(st: State) -> int:
    return len(st.hands[1]) - len(st.hands[0])


def by_standing(st: State, rng: random.Random) -> object:
    """The first of 3 random legal actions after which seat 0 stands best: a win, else
    ahead of the other (fewer cards) or level, else behind; the margin does not count."""
    legal = st.legal_actions()
    picks = rng.sample(legal, 3) if len(legal) > 3 else legal
    best, best_score = picks[0], None
    for action in picks:
        trial = copy(st, rng)
        trial.apply_action(action)
        score = 1 if trial.winner == 0 else (-1 if fewer_cards(trial) < 0 else 0)
        if best_score is None or score > best_score:
            best, best_score = action, score
    return best


def by_reply(st: State, rng: random.Random) -> object:
    """Every legal action, judged after the other's random reply by who holds fewer cards."""
    legal = st.legal_actions()
    best, best_score = [], None
    for action in legal:
        trial = copy(st, rng)
        trial.apply_action(action)
        for _ in range(20):
            if trial.winner is not None or trial.player == 0:
                break
            replies = trial.legal_actions()
            trial.apply_action(replies[rng.randrange(len(replies))])
        result = 0 if trial.winner is None else (1 if trial.winner == 0 else -1)
        score = (result, fewer_cards(trial))
        if best_score is None or score > best_score:
            best, best_score = [action], score
        elif score == best_score:
            best.append(action)
    return best[rng.randrange(len(best))]


POLICIES = {"standing": by_standing, "reply": by_reply}


class Node:
    __slots__ = ("visits", "available", "reward", "children")

    def __init__(self) -> None:
        self.visits = 0
        self.available = 1
        self.reward = 0.0
        self.children: dict = {}


def playout(st: State, rng: random.Random, policy) -> float:
    """Seat 0's reward after a playout: 1 won, 0 lost, 0.75 / 0.25 ahead or behind at its end."""
    for _ in range(DEPTH):
        if st.winner is not None:
            break
        legal = st.legal_actions()
        if st.player != 0 and len(legal) > 1:
            st.apply_action(legal[rng.randrange(len(legal))])
        else:
            st.apply_action(legal[0] if len(legal) == 1 else policy(st, rng))
    if st.winner is not None:
        return 1.0 if st.winner == 0 else 0.0
    lead = fewer_cards(st)
    return 0.5 + (0.25 if lead > 0 else -0.25 if lead < 0 else 0.0)


def choose(seat: Seat, st: State, rng: random.Random, policy, iterations: int) -> object:
    legal = st.legal_actions()
    if len(legal) == 1:
        return legal[0]
    root = Node()
    for _ in range(iterations):
        w = seat.world(st, rng)
        node, path = root, []
        while w.winner is None:
            moves = w.legal_actions()
            if w.player != 0:  # the other's move is chance, as others=random
                action = moves[rng.randrange(len(moves))]
                w.apply_action(action)
                child = node.children.get(action)
                if child is None:
                    child = node.children[action] = Node()
                    path.append(child)
                    break
                path.append(child)
                node = child
                continue
            untried = [a for a in moves if a not in node.children]
            for a in moves:
                if a in node.children:
                    node.children[a].available += 1
            if untried:
                action = untried[rng.randrange(len(untried))]
                child = node.children[action] = Node()
                w.apply_action(action)
                path.append(child)
                break
            best, best_score = None, -1.0
            for a in moves:
                ch = node.children[a]
                score = ch.reward / ch.visits + C * math.sqrt(math.log(ch.available) / ch.visits)
                if score > best_score:
                    best, best_score = a, score
            w.apply_action(best)
            node = node.children[best]
            path.append(node)
        reward = playout(w, rng, policy)
        for n in path:
            n.visits += 1
            n.reward += reward
    return max(legal, key=lambda a: root.children[a].visits if a in root.children else -1)


def play(task: tuple[int, str, str, int]) -> tuple[int, bool]:
    """One game of seed ``seed``: the searcher in seat 0, ``random`` in seat 1; did it win?"""
    seed, deal, policy_name, iterations = task
    policy = POLICIES[policy_name]
    st = State(2, seed)
    seat = Seat(deal)
    rngs = [random.Random(seed * 1000 + 7), random.Random(seed * 1000 + 8)]
    for _ in range(5000):
        if st.winner is not None:
            break
        actor = st.player
        legal = st.legal_actions()
        if actor == 0:
            action = choose(seat, st, rngs[0], policy, iterations)
        else:
            action = legal[rngs[1].randrange(len(legal))]
        st.apply_action(action)
        seat.saw(st, actor, action)
    return seed, st.winner == 0


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    p = k / n
    d = 1 + z * z / n
    centre = p + z * z / (2 * n)
    r = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (centre - r) / d, (centre + r) / d


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("-n", "--games", type=int, default=200, help="games (default 200)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game (default 0)")
    parser.add_argument("--deal", choices=DEALS, default="honest", help="what deals know")
    parser.add_argument("--policy", choices=sorted(POLICIES), default="standing", help="the searcher's playouts")
    parser.add_argument("--iterations", type=int, default=ITERATIONS, help=f"per move (default {ITERATIONS})")
    parser.add_argument("--jobs", type=int, default=1, help="processes (default 1)")
    parser.add_argument("--out", type=Path, help="write 'seed won' lines here, for comparing runs seed by seed")
    args = parser.parse_args(argv)
    tasks = [(s, args.deal, args.policy, args.iterations) for s in range(args.seed, args.seed + args.games)]
    started = time.perf_counter()
    results = []
    with Pool(args.jobs) as pool:
        for i, result in enumerate(pool.imap(play, tasks), 1):
            results.append(result)
            if i % 50 == 0 and sys.stderr.isatty():
                print(f"  {i}/{len(tasks)} games", file=sys.stderr, end="\r")
    won = sum(w for _, w in results)
    lo, hi = wilson(won, len(results))
    print(
        f"deal={args.deal} policy={args.policy} seeds {args.seed}-{args.seed + args.games - 1}: "
        f"won {won}/{len(results)} = {won / len(results):.3f} (95% {lo:.3f} to {hi:.3f}), "
        f"{time.perf_counter() - started:.0f} s"
    )
    if args.out:
        args.out.write_text("".join(f"{s} {int(w)}\n" for s, w in results), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
