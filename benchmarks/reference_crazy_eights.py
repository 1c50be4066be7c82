"""Hand-written Crazy Eights in plain Python, a speed yardstick for the rules-language interpreter."""

import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run as a script too
from benchmarks.harness import random_playout, report  # noqa: E402

# A card is a plain tuple (rank, suit): rank 1 (ace) .. 13 (king), suit one of SUITS.
SUITS = ("S", "H", "D", "C")
DECK = [(rank, suit) for suit in SUITS for rank in range(1, 14)]
HAND_SIZE = 5

# An action is either a play (card, suit_after_play) -- for a non-8 that is the
# card's own suit, for an 8 it is the named suit -- or one of these two strings.
DRAW = "draw"
PASS = "pass"

TERMINAL = -4


def penalty(card):
    rank = card[0]
    if rank == 8:
        return 50
    if rank >= 11:
        return 10
    return rank


class State:
    def __init__(self, players: int, seed: int):
        assert 2 <= players <= 5, "Crazy Eights is for 2-5 players"
        self.num_players = players
        self.rng = random.Random(seed)
        # The stock is drawn from its end.
        self.stock = list(DECK)
        self.rng.shuffle(self.stock)
        self.hands = [[] for _ in range(players)]
        for _ in range(HAND_SIZE):
            for hand in self.hands:
                hand.append(self.stock.pop())
        starter = self.stock.pop()
        while starter[0] == 8:
            # Anywhere but the very top, so that a different card is turned next.
            self.stock.insert(self.rng.randrange(len(self.stock)), starter)
            starter = self.stock.pop()
        self.discard = [starter]
        self.suit = starter[1]
        self.player = 0
        self.passes = 0  # consecutive passes; any play resets it
        self.result = None  # list of returns once the game is over

    def current_player(self) -> int:
        return TERMINAL if self.result is not None else self.player

    def legal_actions(self) -> list:
        """Plays in hand order (each 8 expanded to S, H, D, C), else just DRAW or PASS."""
        if self.result is not None:
            return []
        top_rank = self.discard[-1][0]
        actions = []
        for card in self.hands[self.player]:
            rank, suit = card
            if rank == 8:
                for named in SUITS:
                    actions.append((card, named))
            elif suit == self.suit or rank == top_rank:
                actions.append((card, suit))
        if not actions:
            actions.append(DRAW if self.stock else PASS)
        return actions

    def apply_action(self, action) -> None:
        assert self.result is None, "game is over"
        hand = self.hands[self.player]
        if action == DRAW:
            assert self.stock, "cannot draw from an empty stock"
            hand.append(self.stock.pop())
            return  # the same player acts again
        if action == PASS:
            assert not self.stock, "cannot pass while the stock has cards"
            self.passes += 1
            if self.passes == self.num_players:
                self._end_blocked()
            else:
                self.player = (self.player + 1) % self.num_players
            return
        card, named = action
        rank, suit = card
        assert rank == 8 or (named == suit and (suit == self.suit or rank == self.discard[-1][0])), action
        hand.remove(card)
        self.discard.append(card)
        self.suit = named
        self.passes = 0
        if not hand:
            self._end_with_winner(self.player)
        else:
            self.player = (self.player + 1) % self.num_players

    def _end_with_winner(self, winner):
        self.result = [-1.0] * self.num_players
        self.result[winner] = 1.0

    def _end_blocked(self):
        scores = [sum(penalty(card) for card in hand) for hand in self.hands]
        best = min(scores)
        if scores.count(best) > 1:
            self.result = [0.0] * self.num_players
        else:
            self._end_with_winner(scores.index(best))

    def is_terminal(self) -> bool:
        return self.result is not None

    def returns(self) -> list:
        if self.result is None:
            return [0.0] * self.num_players
        return list(self.result)

    def clone(self) -> "State":
        other = State.__new__(State)
        other.num_players = self.num_players
        other.rng = random.Random()
        other.rng.setstate(self.rng.getstate())
        other.stock = list(self.stock)
        other.hands = [list(hand) for hand in self.hands]
        other.discard = list(self.discard)
        other.suit = self.suit
        other.player = self.player
        other.passes = self.passes
        other.result = None if self.result is None else list(self.result)
        return other


def playout(players: int, seed: int, rng: random.Random) -> int:
    """Play one game with uniformly random moves and return the number of actions applied."""
    return random_playout(State(players, seed), rng, None)


if __name__ == "__main__":
    print(report("crazy eights", playout, int(sys.argv[1]) if len(sys.argv) > 1 else 4))
