"""Seeded randomness: the only module that draws random numbers.

A game's randomness is one 64-bit integer of splitmix64 state kept in the game state,
so cloning a state copies its future exactly, and the same seed gives the same game on
every machine and Python version (unlike ``random.shuffle``, whose algorithm may change).
"""

from __future__ import annotations

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
