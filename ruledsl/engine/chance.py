"""Seeded randomness: the only module that draws random numbers.

A game's randomness is one 64-bit integer of splitmix64 state kept in the game state,
so cloning a state copies its future exactly, and the same seed gives the same game on
every machine and Python version (unlike ``random.shuffle``, whose algorithm may change).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def seed_state(seed: int) -> int:
    """Return the generator state for a seed (any integer, negative ones included)."""
    return (seed * 0xD1B54A32D192ED03 + 0x632BE59BD9B4E019) & _MASK


def next_u64(state: int) -> tuple[int, int]:
    """Return (new state, a uniformly random 64-bit integer)."""
    state = (state + _GOLDEN) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return state, z ^ (z >> 31)


def below(state: int, n: int) -> tuple[int, int]:
    """Return (new state, a uniformly random integer in 0..n-1); n must be positive."""
    # Lemire's multiply-shift, with the rejection that keeps every outcome equally likely.
    state, r = next_u64(state)
    m = r * n
    low = m & _MASK
    if low < n:
        threshold = ((1 << 64) - n) % n
        while low < threshold:
            state, r = next_u64(state)
            m = r * n
            low = m & _MASK
    return state, m >> 64


def shuffle(state: int, items: list[int]) -> int:
    """Shuffle a list in place (Fisher-Yates, exactly uniform); return the new state."""
    # Each 64-bit draw gives two 32-bit ones (Lemire's multiply-shift, with its rejection),
    # and next_u64 is written out: a shuffle is most of a game's setup time.
    mask = _MASK
    low32 = 0xFFFFFFFF
    i = len(items) - 1
    z = 0
    half = False  # whether z's high half is still unused
    while i > 0:
        n = i + 1
        if half:
            r = z >> 32
            half = False
        else:
            state = (state + _GOLDEN) & mask
            z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & mask
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
            z ^= z >> 31
            r = z & low32
            half = True
        m = r * n
        if m & low32 < n:
            threshold = ((1 << 32) - n) % n
            while m & low32 < threshold:
                state, r = next_u64(state)
                m = (r & low32) * n
        j = m >> 32
        items[i], items[j] = items[j], items[i]
        i -= 1
    return state


# ---------------------------------------------------------------- chance outcomes given from outside
#
# A state whose ``rng`` is a ``Drawer`` instead of an integer takes each random draw as an
# outcome it is given (the OpenSpiel bridge's chance nodes), and raises ``ChanceNeeded`` with
# the equally likely outcomes when it has none left: the caller picks one and plays the step
# again from where it began. A zone shuffled where no player sees any of its cards becomes a
# ``LazyZone``, whose order is decided card by card as it is read, from the top down (as
# ``shuffle`` decides it): dealing k cards from it costs k draws, not the whole shuffle. The
# same draws of a seeded state (an integer ``rng``) are untouched by any of this.


class ChanceNeeded(BaseException):
    """A draw the state was given no outcome for; ``outcomes`` are (outcome, probability) pairs.

    A BaseException: no rule's error handling takes it; an action it cuts short rolls back."""

    def __init__(self, outcomes: list[tuple[int, float]]) -> None:
        super().__init__(f"a chance outcome among {[o for o, _ in outcomes]}")
        self.outcomes = outcomes


class Drawer:
    """The outcomes of a step's draws, given in the order they are drawn (``given``, ``used`` so far).

    With none left, a draw asks ``ask`` (the caller's: it may pause the step until an outcome is
    given, and return it) or, without one, raises ``ChanceNeeded``."""

    __slots__ = ("given", "used", "ask")

    def __init__(
        self, given: list[int] | None = None, ask: Callable[[list[tuple[int, float]]], int] | None = None
    ) -> None:
        self.given: list[int] = given if given is not None else []
        self.used = 0
        self.ask = ask

    def take(self, outcomes: list[int]) -> int:
        """Return the next outcome given, one of ``outcomes`` (equally likely); ChanceNeeded if none is left."""
        if len(outcomes) == 1:
            return outcomes[0]
        if self.used < len(self.given):
            outcome = self.given[self.used]
            if outcome not in outcomes:
                raise ValueError(f"chance outcome {outcome} is not one of {outcomes}")
            self.used += 1
            return outcome
        p = 1.0 / len(outcomes)
        needed = [(o, p) for o in outcomes]
        if self.ask is None:
            raise ChanceNeeded(needed)
        outcome = self.ask(needed)  # given meanwhile, as the last of ``given``
        self.used += 1
        return outcome

    def below(self, n: int) -> int:
        """A uniformly random integer in 0..n-1, as ``below``."""
        return self.take(list(range(n)))

    def shuffle(self, zones: list[list[int]], z: int, seen: bool) -> None:
        """Shuffle zone ``z``: lazily if no player sees any of its cards (``seen`` False), else draw by draw."""
        cards = zones[z]
        if not seen:
            zones[z] = LazyZone(list.copy(cards), len(cards), self)
            return
        items = list(cards)
        for i in range(len(items) - 1, 0, -1):  # Fisher-Yates, as ``shuffle``
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
        zones[z] = items


def _whole(method: str) -> Any:
    """A list method that reads or changes the order of every card: the order is decided first."""
    plain = getattr(list, method)

    def decided(self: LazyZone, *args: Any, **kwargs: Any) -> Any:
        self.decide(0)
        return plain(self, *args, **kwargs)

    decided.__name__ = method
    return decided


class LazyZone(list[int]):
    """A zone's cards, bottom to top, the lowest ``hidden`` of them in an order not decided yet.

    Those are a shuffle nobody has seen: each read of a place among them decides the places
    from the lowest decided one down to it, each a draw of the drawer among the cards still
    undecided (the top first, as ``shuffle`` decides them). Its length, membership, appends on
    top and removals of a card named by itself need no decision."""

    __slots__ = ("hidden", "drawer")

    def __init__(self, cards: list[int], hidden: int, drawer: Drawer) -> None:
        super().__init__(cards)
        self.hidden = hidden
        self.drawer = drawer

    def decide(self, place: int) -> None:
        """Decide the order from ``place`` up (0: the whole zone)."""
        get, put = list.__getitem__, list.__setitem__
        while self.hidden > max(place, 1):
            i = self.hidden - 1
            card = self.drawer.take(sorted(get(self, slice(0, i + 1))))
            j = list.index(self, card)
            put(self, j, get(self, i))
            put(self, i, card)
            self.hidden = i
        if place == 0 or self.hidden <= 1:
            self.hidden = 0

    def copy_for(self, drawer: Drawer) -> LazyZone:
        """A copy whose undecided places are decided by ``drawer``."""
        return LazyZone(list.copy(self), self.hidden, drawer)

    def __getitem__(self, i: Any) -> Any:
        if self.hidden:
            if isinstance(i, slice):
                start, stop, step = i.indices(len(self))
                if (stop - start) * step > 0:  # not empty
                    self.decide(min(start, stop - step) if step > 0 else 0)
            elif isinstance(i, int):
                self.decide(i + len(self) if i < 0 else i)
        return list.__getitem__(self, i)

    def remove(self, card: int) -> None:
        if list.index(self, card) < self.hidden:
            self.hidden -= 1
        list.remove(self, card)

    def clear(self) -> None:
        self.hidden = 0
        list.clear(self)

    def sort(self, *args: Any, **kwargs: Any) -> None:
        self.hidden = 0
        list.sort(self, *args, **kwargs)

    def pop(self, i: Any = -1) -> int:
        self.__getitem__(i)  # decides it and every place above it
        return list.pop(self, i)

    __iter__ = _whole("__iter__")
    __reversed__ = _whole("__reversed__")
    __eq__ = _whole("__eq__")
    __ne__ = _whole("__ne__")
    __lt__ = _whole("__lt__")
    __le__ = _whole("__le__")
    __gt__ = _whole("__gt__")
    __ge__ = _whole("__ge__")
    __repr__ = _whole("__repr__")
    __setitem__ = _whole("__setitem__")
    __delitem__ = _whole("__delitem__")
    __add__ = _whole("__add__")
    __mul__ = _whole("__mul__")
    __rmul__ = _whole("__rmul__")
    __imul__ = _whole("__imul__")
    insert = _whole("insert")
    index = _whole("index")
    reverse = _whole("reverse")
    copy = _whole("copy")
    __hash__ = None


def copy_zone(cards: list[int], drawer: Any) -> list[int]:
    """A copy of a zone's cards for a state drawing from ``drawer`` (a LazyZone stays one)."""
    return cards.copy_for(drawer) if type(cards) is LazyZone else cards[:]


def seeded(st: Any, seed: int) -> Any:
    """A copy of a state that draws from outside (a ``Drawer``) drawing from ``seed`` instead.

    Each zone whose order is not decided yet is shuffled from the seed (every order of it is
    as likely, as undecided), then the draws to come: a state for the engine's own agents."""
    copy = st.clone()
    rng = seed_state(seed)
    for z, cards in enumerate(copy.zones):
        if type(cards) is LazyZone:
            plain = list.copy(cards)
            undecided = plain[: cards.hidden]
            rng = shuffle(rng, undecided)
            plain[: cards.hidden] = undecided
            copy.zones[z] = plain
    copy.rng = rng
    copy.rebase()  # a failed action rolls back to here, not through the outside draws
    return copy
