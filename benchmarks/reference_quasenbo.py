"""Hand-written Quäsenbö (base game, basic Decktet) in plain Python, a speed yardstick for the interpreter."""

import random
import sys
from collections import namedtuple
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # run as a script too
from benchmarks.harness import random_playout, report  # noqa: E402

# A card is a plain named tuple; `suits` is a frozenset so shared suits are a set intersection.
Card = namedtuple("Card", ["name", "rank", "suits"])

SUITS = ("Moons", "Suns", "Waves", "Leaves", "Wyrms", "Knots")
ACE, CROWN = 1, 10

_TABLE = [
    (2, "the Author", ("Moons", "Knots")),
    (2, "the Desert", ("Suns", "Wyrms")),
    (2, "the Origin", ("Waves", "Leaves")),
    (3, "the Journey", ("Moons", "Waves")),
    (3, "the Painter", ("Suns", "Knots")),
    (3, "the Savage", ("Leaves", "Wyrms")),
    (4, "the Mountain", ("Moons", "Suns")),
    (4, "the Sailor", ("Waves", "Leaves")),
    (4, "the Battle", ("Wyrms", "Knots")),
    (5, "the Forest", ("Moons", "Leaves")),
    (5, "the Discovery", ("Suns", "Waves")),
    (5, "the Soldier", ("Wyrms", "Knots")),
    (6, "the Lunatic", ("Moons", "Waves")),
    (6, "the Penitent", ("Suns", "Wyrms")),
    (6, "the Market", ("Leaves", "Knots")),
    (7, "the Chance Meeting", ("Moons", "Leaves")),
    (7, "the Castle", ("Suns", "Knots")),
    (7, "the Cave", ("Waves", "Wyrms")),
    (8, "the Diplomat", ("Moons", "Suns")),
    (8, "the Mill", ("Waves", "Leaves")),
    (8, "the Betrayal", ("Wyrms", "Knots")),
    (9, "the Pact", ("Moons", "Suns")),
    (9, "the Darkness", ("Waves", "Wyrms")),
    (9, "the Merchant", ("Leaves", "Knots")),
]
_CROWNS = ["the Huntress", "the Bard", "the Sea", "the End", "the Calamity", "the Windfall"]

DECK = (
    [Card("Ace of " + suit, ACE, frozenset([suit])) for suit in SUITS]
    + [Card(name, rank, frozenset(suits)) for rank, name, suits in _TABLE]
    + [Card(name, CROWN, frozenset([suit])) for name, suit in zip(_CROWNS, SUITS)]
)
CARDS = {card.name: card for card in DECK}

# An action is the Card to place, or one of these two strings.
DRAW = "draw"
PASS = "pass"

TERMINAL = -4


def matches(card, top):
    return card.rank == top.rank or bool(card.suits & top.suits)


class State:
    def __init__(self, players: int, seed: int):
        assert 2 <= players <= 6, "Quäsenbö is for 2-6 players"
        self.num_players = players
        self.rng = random.Random(seed)
        # The deck is drawn from its end.
        self.deck = list(DECK)
        self.rng.shuffle(self.deck)
        hand_size = 7 if players <= 4 else 5
        self.hands = [[] for _ in range(players)]
        for _ in range(hand_size):
            for hand in self.hands:
                hand.append(self.deck.pop())
        self.pile = [self.deck.pop()]
        self.player = 0
        self.winner = None

    def current_player(self) -> int:
        return TERMINAL if self.winner is not None else self.player

    def legal_actions(self) -> list:
        """Placeable cards in hand order, else just DRAW (if a card can be had) or PASS."""
        if self.winner is not None:
            return []
        top = self.pile[-1]
        actions = [card for card in self.hands[self.player] if matches(card, top)]
        if actions:
            return actions
        # A draw is possible if the deck has cards or the pile can refill it.
        if self.deck or len(self.pile) > 2:
            return [DRAW]
        return [PASS]

    def apply_action(self, action) -> None:
        assert self.winner is None, "game is over"
        hand = self.hands[self.player]
        if action == DRAW:
            card = self._draw()
            assert card is not None, "nothing to draw"
            hand.append(card)
            return  # the same player acts again
        if action == PASS:
            assert not self.deck and len(self.pile) <= 2, "cannot pass while a card can be drawn"
            self.player = (self.player + 1) % self.num_players
            return
        pile = self.pile
        assert matches(action, pile[-1]), action
        hand.remove(action)
        pile.append(action)
        if len(pile) >= 3 and action.suits & pile[-2].suits & pile[-3].suits:
            penalty = self._draw()
            if penalty is not None:
                hand.append(penalty)
        if not hand:
            self.winner = self.player
        else:
            self.player = (self.player + 1) % self.num_players

    def _draw(self):
        """Top card of the deck, refilling it from the pile first if empty; None if no card can be had."""
        if not self.deck:
            # Everything but the top two pile cards becomes the new deck.
            self.deck = self.pile[:-2]
            del self.pile[:-2]
            self.rng.shuffle(self.deck)
            if not self.deck:
                return None
        return self.deck.pop()

    def is_terminal(self) -> bool:
        return self.winner is not None

    def returns(self) -> list:
        if self.winner is None:
            return [0.0] * self.num_players
        result = [-1.0] * self.num_players
        result[self.winner] = 1.0
        return result

    def clone(self) -> "State":
        other = State.__new__(State)
        other.num_players = self.num_players
        other.rng = random.Random()
        other.rng.setstate(self.rng.getstate())
        other.deck = list(self.deck)
        other.hands = [list(hand) for hand in self.hands]
        other.pile = list(self.pile)
        other.player = self.player
        other.winner = self.winner
        return other


# A game can in principle go on for ever (everybody passing); a playout gives up here.
MAX_ACTIONS = 100_000


def playout(players: int, seed: int, rng: random.Random) -> int:
    """Play one game with uniformly random moves and return the number of actions applied.

    A game cut off at MAX_ACTIONS counts as a draw (all returns zero); it essentially never happens.
    """
    return random_playout(State(players, seed), rng, MAX_ACTIONS)


if __name__ == "__main__":
    print(report("quasenbo", playout, int(sys.argv[1]) if len(sys.argv) > 1 else 4))
