"""Operations compiled rules call: moving cards, runs, turn order, showing values.

Every function takes plain lists and integers (card ids, zone indexes, seats), so that
the generated code stays short and the hot path does no attribute lookups it can avoid.
"""

from __future__ import annotations

import collections
import itertools
import math
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from ruledsl.engine import chance, knowledge
from ruledsl.engine.fields import Face
from ruledsl.engine.limits import (
    MAX_INTEGER,
    MAX_RANGE,
    MAX_SET_CARDS,
    MAX_TEXT,
    WORK_BUDGET,
    too_large_number,
    too_long_text,
)
from ruledsl.engine.values import HIDDEN_CARD, GameOver, RoundOver


class RangeTooLong(ValueError):
    """A range in a rule holds more numbers than a rule may go through in one action."""


class RuleFailed(ValueError):
    """A rule did something the language does not allow; the message and hint are for the user."""

    def __init__(self, message: str, hint: str | None = None) -> None:
        super().__init__(message)
        self.hint = hint


class StepInstead(Exception):
    """Raised by a compiled listing whose sets of cards are too many to list: offer them card by card."""


def step_instead() -> None:
    """Stop listing an action's sets of cards: they are offered card by card (``engine.stepping``)."""
    raise StepInstead


class TooLarge(RuleFailed):
    """A number or a text beyond the limits of ``ruledsl.engine.limits`` (R510)."""


class TooMuchWork(RuleFailed):
    """The expressions of one action went through more than WORK_BUDGET elements (R511)."""


_NUMBER_HINT = "numbers in a game are counts and scores: a product or sum this large is a mistake of the rules"
_TEXT_HINT = 'a text is a line or two: one that grows each time it is set ("{t}{t}") must stop growing'


def num(x: int) -> int:
    """Return ``x``, a number a rule worked out; TooLarge if it lies beyond ±MAX_INTEGER."""
    if -MAX_INTEGER <= x <= MAX_INTEGER:
        return x
    raise TooLarge(too_large_number(x), _NUMBER_HINT)


def num_or_none(x: int | None) -> int | None:
    """Return ``x``, a number or none; TooLarge if it is a number beyond ±MAX_INTEGER."""
    return x if x is None else num(x)


def text(s: str) -> str:
    """Return ``s``, a text a rule built; TooLarge if it is longer than MAX_TEXT characters."""
    if len(s) <= MAX_TEXT:
        return s
    raise TooLarge(too_long_text(len(s)), _TEXT_HINT)


#: What showing a card in a text costs, in elements of work: whether each reader sees it, and its name.
SHOWN_UNITS = 10


def work(st: Any, xs: Any, units: int = 1) -> Any:
    """Return ``xs``, a collection an expression goes through (counts, sums, tests, searches, shows),
    its elements counted against the work of the action, ``units`` each: TooMuchWork (R511) past
    WORK_BUDGET."""
    st.work += len(xs) * units
    if st.work > WORK_BUDGET:
        too_much_work()
    return xs


def work_sorted(st: Any, xs: Any) -> Any:
    """As ``work``, for a collection to be sorted: n·log2(n) for n elements (its keys and comparisons)."""
    size = len(xs)
    st.work += size * size.bit_length()
    if st.work > WORK_BUDGET:
        too_much_work()
    return xs


def spend(st: Any, units: int) -> None:
    """Count ``units`` of work (a search's steps, a sum's tries) against the action's: R511 past WORK_BUDGET."""
    st.work += units
    if st.work > WORK_BUDGET:
        too_much_work()


def too_much_work() -> None:
    raise TooMuchWork(
        f"this action's rules went through more than {WORK_BUDGET:,} cards, players or numbers "
        "(counting, summing, sorting, searching, moving or shuffling them)",
        "work a value out once (name it with 'let', or keep it in a variable) rather than again in each round "
        "of a loop, or go through fewer cards",
    )


def fail(message: str, hint: str | None = None) -> None:
    """Stop the rule running: compiled rules call this where a check of theirs fails."""
    raise RuleFailed(message, hint)


def numbers(low: int, high: int) -> range:
    """The numbers from ``low`` to ``high``, both included; RangeTooLong past MAX_RANGE of them."""
    if high - low >= MAX_RANGE:
        raise RangeTooLong(f"the range {low:,} to {high:,} holds more than {MAX_RANGE:,} numbers")
    return range(low, high + 1)


def place_values(groups: list[list[int]], n: int) -> list[float]:
    """Each player's value from his place, +1 first down to -1 last; tied players share the
    mean of their places (worked out over whole numbers, so that a tie in the middle is 0)."""
    values = [0.0] * n
    if n == 1:
        return values
    place = 0
    for group in groups:
        # The mean of 1 - 2i/(n-1) over the places i of the group, with one division.
        value = ((n - 1) - 2 * place - (len(group) - 1)) / (n - 1)
        for q in group:
            values[q] = value
        place += len(group)
    return values


def winners_of(returns: list[float]) -> list[int]:
    """The players with the best result, a win shared among them; none in a draw.

    Equal results are a draw when nobody gained (a ranking that ties everyone gives each 0),
    but a win of every player when they all did (``end game, winners players``).
    """
    if not returns:
        return []
    best = max(returns)
    if min(returns) == best and best <= 0:
        return []
    return [q for q, r in enumerate(returns) if r == best]


_WORDS = (
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
    "sixteen seventeen eighteen nineteen twenty"
).split()


# ============================================================================ cards and zones


def card_variables_written(st: Any, c: int) -> None:
    knowledge.variables_written(st, c)


#: Where moved cards go in their new zone (``move``'s ``where``): on top, at the bottom, each at a random place.
TOP, BOTTOM, RANDOM = 0, 1, 2


def move(
    st: Any, cards: Iterable[int], dst: int, where: int = TOP, face: Face = None, mover: int | None = None
) -> list[int]:
    """The one way cards move: ``cards`` go from wherever they lie to zone ``dst``; return them.

    Every statement that moves cards calls this (the compiled rules, through one emitter:
    ``codegen.statements.Statements.emit_move``), and fires the rules on cards entering
    ``dst`` with what it returns. It alone keeps the state whole:

    - the zones: each list is changed in place, never replaced, since a statement may hold
      one (``deal`` holds its source) while the rules it sets off move cards; and ``loc``;
    - what each player knows of where the cards are (``knowledge.moved``, ``emptied``),
      which resampling relies on;
    - how the cards lie (``fields.Face``): ``face`` (True up, False down, None as ``dst``
      shows it), but a card not laid face up in a zone 'seen by mover' is seen by ``mover``
      alone.

    They go on top of ``dst`` (``TOP``) or at its bottom (``BOTTOM``) keeping their order,
    or each in turn at a random place (``RANDOM``: one draw of ``chance`` per card).
    """
    moved = list(cards)
    if not moved:
        return moved
    spend(st, len(moved))  # 'move all of deck to pile' and back, in each round of a loop
    zones = st.zones
    loc = st.loc
    tracked = st.known is not None
    if tracked:  # where each card was, and who saw it there (loops, not comprehensions: no call each)
        srcs = []
        seen = []
        for c in moved:
            srcs.append(loc[c])
            seen.append(knowledge.seen_by(st, c))
    first = zones[loc[moved[0]]]
    if len(moved) == 1:
        first.remove(moved[0])
    elif len(first) == len(moved) and first == moved:
        first.clear()  # every card of one zone (``move all of``): no search for each
    else:
        for c in moved:
            zones[loc[c]].remove(c)
    target = zones[dst]
    if where == TOP:
        target.extend(moved)
    elif where == BOTTOM:
        target[0:0] = moved
    else:
        for c in moved:
            target.insert(draw_below(st, len(target) + 1), c)
    for c in moved:
        loc[c] = dst
    if tracked:
        for c, src, was_seen in zip(moved, srcs, seen):
            knowledge.moved(st, c, src, dst, was_seen)
        for src in set(srcs):
            if not zones[src]:
                knowledge.emptied(st, src)
    if st.face is not None:
        lay(st, moved, (mover,) if mover is not None and face is not True and st.zone_shows_mover(dst) else face)
    return moved


def lay(st: Any, cards: list[int], face: Face) -> None:
    """Lay cards as ``face`` says where they lie, in a game that keeps faces ('turn up', and
    ``move`` for the cards it moves); the players who see them now know where they are."""
    faces = st.face
    for c in cards:
        faces[c] = face
    if st.known is not None:
        knowledge.refresh(st, cards)


def show_to(st: Any, cards: Iterable[int], player: int) -> None:
    """Show ``cards`` to ``player`` where they lie ('show CARDS to P'): he sees each until it moves
    or is turned (its face, ``fields.Face``, names who sees it), and knows where it is; the line
    said names them to him alone, the others read where he looked."""
    shown = list(cards)
    faces = st.face
    for c in shown:
        viewers = [q for q in range(st.n) if st.sees(q, c)]
        if player not in viewers:
            faces[c] = tuple(sorted([*viewers, player]))
    if st.known is not None:
        knowledge.refresh(st, shown)
    if st.log is not None and shown:
        st.log.append(_shown_line(st, shown, player))


def _shown_line(st: Any, shown: list[int], player: int) -> tuple[str, ...]:
    """What a 'show' says: to ``player``, the cards by name in their places ("you see P1's 4");
    to everybody else (spectators last), only where he looked ("P0 looks at P1's hand")."""
    prog = st.prog
    places: dict[int, list[str]] = {}
    for c in shown:
        places.setdefault(st.loc[c], []).append(prog.card_names[c])
    named, looked = [], []
    for z, names in places.items():
        zone = prog.zones[prog.zone_family[z]].name
        owner = prog.zone_owner[z]
        if owner < 0:  # a shared zone
            named.append(f"{' '.join(names)} in the {zone}")
            looked.append(f"the {zone}")
        else:
            named.append(f"P{owner}'s {' '.join(names)}")
            looked.append(f"P{owner}'s {zone}")
    to_him = "you see " + ", ".join(named)
    to_others = f"P{player} looks at " + ", ".join(looked)
    return tuple(to_him if q == player else to_others for q in (*range(st.n), None))


def move_zone(st: Any, src: int, dst: int, face: bool | None = None, mover: int | None = None) -> list[int]:
    """``move``, on top of zone ``dst``, every card of zone ``src``; none when they are one zone."""
    return [] if src == dst else move(st, st.zones[src], dst, TOP, face, mover)


#: What shuffling costs per card, in elements of work (``spend``): a draw of chance and a swap, in Python.
_SHUFFLE_UNITS = 8


def draw_below(st: Any, n: int) -> int:
    """A uniformly random integer in 0..n-1: from the seed, or an outcome given (``chance.Drawer``)."""
    rng = st.rng
    if type(rng) is int:
        st.rng, i = chance.below(rng, n)
        return i
    return int(rng.below(n))


def shuffle_zone(st: Any, z: int) -> None:
    spend(st, _SHUFFLE_UNITS * len(st.zones[z]))
    rng = st.rng
    if type(rng) is int:
        st.rng = chance.shuffle(rng, st.zones[z])
    else:  # drawn from outside: lazily where no player sees a card of it
        seen = any(st.sees(q, c) for c in list.__iter__(st.zones[z]) for q in range(st.n))
        rng.shuffle(st.zones, z, seen)


def cut_zone(st: Any, z: int) -> None:
    cards = st.zones[z]
    if len(cards) > 1:
        cut = draw_below(st, len(cards) - 1) + 1
        cards[:] = cards[cut:] + cards[:cut]


def top(cards: list[int]) -> int | None:
    return cards[-1] if cards else None


def bottom(cards: list[int]) -> int | None:
    return cards[0] if cards else None


def top_n(cards: list[int], n: int) -> list[int]:
    return cards[len(cards) - n :] if n > 0 else []


def bottom_n(cards: list[int], n: int) -> list[int]:
    return cards[:n] if n > 0 else []


def all_but_top(cards: list[int], n: int) -> list[int]:
    return cards[: max(0, len(cards) - n)] if n > 0 else cards[:]


def lies_in(st: Any, c: int | None, z: int) -> bool:
    """Whether the card ``c`` (none lies nowhere) lies in zone ``z``: one look, not a search of the zone."""
    return c is not None and st.loc[c] == z


def one(c: int | None) -> list[int]:
    """A single card as cards (none is no card)."""
    return [] if c is None else [c]


def position(st: Any, c: int | None) -> int | None:
    """Return a card's place in its zone, 1 being the top."""
    if c is None:
        return None
    cards: list[int] = st.zones[st.loc[c]]
    return len(cards) - cards.index(c)


def run(cards: list[int], table: tuple[Any, ...]) -> list[int]:
    """Return the cards at the top that share one value of ``table``, topmost first."""
    if not cards:
        return []
    value = table[cards[-1]]
    out = []
    for c in reversed(cards):
        if table[c] != value:
            break
        out.append(c)
    return out


def run_sets(cards: list[int], key: Callable[[int], int]) -> list[int]:
    """Return the top cards whose bit sets all share a bit, topmost first."""
    out = []
    common = -1
    for c in reversed(cards):
        common &= key(c)
        if not common:
            break
        out.append(c)
    return out


def run_key(cards: list[int], key: Callable[[int], Any]) -> list[int]:
    """Like ``run``, with the value given by a function of the card."""
    if not cards:
        return []
    value = key(cards[-1])
    out = []
    for c in reversed(cards):
        if key(c) != value:
            break
        out.append(c)
    return out


def first_attr(table: tuple[Any, ...], cards: list[int]) -> Any:
    """The attribute of some cards: that of the first one (none for no cards)."""
    return table[cards[0]] if cards else None


def attr(table: tuple[Any, ...], c: int | None) -> Any:
    return None if c is None else table[c]


def label_attr(table: tuple[Any, ...], c: Any) -> Any:
    """An attribute in a label: none for a card its chooser does not see (None, or a Place)."""
    return table[c] if type(c) is int else None


def find_kind(pool: Iterable[int], kind: tuple[int, ...], k: int) -> int:
    """Return the first card of kind ``k`` in a pool."""
    for c in pool:
        if kind[c] == k:
            return c
    raise LookupError(f"no card of kind {k}")


def find_kinds(pool: Iterable[int], kind: tuple[int, ...], kinds: tuple[int, ...]) -> list[int]:
    """Return distinct cards of the given kinds (with repeats) from a pool, first ones first."""
    wanted: dict[int, int] = {}
    for k in kinds:
        wanted[k] = wanted.get(k, 0) + 1
    chosen: dict[int, list[int]] = {}
    for c in pool:
        k = kind[c]
        if wanted.get(k, 0):
            wanted[k] -= 1
            chosen.setdefault(k, []).append(c)
    if any(wanted.values()):
        raise LookupError("cards not in pool")
    # Return them in the order of the choice key, so labels and moves agree.
    taken: dict[int, int] = {}
    out = []
    for k in kinds:
        i = taken.get(k, 0)
        out.append(chosen[k][i])
        taken[k] = i + 1
    return out


# ============================================================================ sets as bits


def bit(x: int | None) -> int:
    return 0 if x is None else 1 << x


def one_number(x: int | None) -> frozenset[int]:
    """A set of numbers holding ``x``, or none when ``x`` is none (``add x to s``)."""
    return frozenset() if x is None else frozenset((x,))


def set_size(numbers: frozenset[int]) -> frozenset[int]:
    """Return ``numbers``, a set of numbers a rule made larger; TooLarge (R510) past MAX_RANGE of them."""
    if len(numbers) <= MAX_RANGE:
        return numbers
    raise TooLarge(
        f"a set of numbers grew to {len(numbers):,} numbers, more than {MAX_RANGE:,}",
        "a set holds a few numbers (those called, those seen): one that grows at each action must be emptied",
    )


def has(bits: int, x: int | None) -> bool:
    return x is not None and (bits >> x) & 1 == 1


def bits(mask: int) -> list[int]:
    out = []
    i = 0
    while mask:
        if mask & 1:
            out.append(i)
        mask >>= 1
        i += 1
    return out


def distinct(values: Iterable[Any]) -> int:
    return len({v for v in values if v is not None})


def best(pairs: Iterable[tuple[Any, Any]], highest: bool) -> Any:
    """Of (key, element) pairs, the element with the highest (or lowest) key: the first of a tie; none keys skipped."""
    found = None
    top = None
    for key, x in pairs:
        if key is not None and (top is None or (key > top if highest else key < top)):
            top, found = key, x
    return found


def best_of_tuples(pairs: Iterable[tuple[Any, Any]], highest: bool) -> Any:
    """As ``best``, for keys that are tuples, compared item by item: a key holding none is
    skipped whole (none is no number, and would win every 'lowest' if it sorted first)."""
    found = None
    top = None
    for key, x in pairs:
        if key is not None and None not in key and (top is None or (key > top if highest else key < top)):
            top, found = key, x
    return found


# ============================================================================ sorting, k-th, sums of some cards


def sorted_by(pairs: Iterable[tuple[Any, Any]], descending: bool) -> list[Any]:
    """The elements of (key, element) pairs in the order of their keys; ties keep their order.

    An element whose key is none, or a tuple holding none, goes last either way: none is no
    number and sorts nowhere (as in ``best``)."""
    known = []
    unknown = []
    for key, x in pairs:
        if key is None or (isinstance(key, tuple) and None in key):
            unknown.append(x)
        else:
            known.append((key, x))
    known.sort(key=lambda p: p[0], reverse=descending)  # a stable sort, also reversed
    return [x for _, x in known] + unknown


def item(elements: list[Any], k: int) -> Any:
    """The ``k``-th element, from 1; none past either end."""
    return elements[k - 1] if 1 <= k <= len(elements) else None


def position_in_values(v: int | None) -> int | None:
    """A value's place in its 'values' list, from 1 (a value is its index there)."""
    return None if v is None else v + 1


def show_tuple(displays: tuple[tuple[str, ...] | None, ...], x: tuple[Any, ...] | None) -> str:
    """A tuple as people read it, ``(5, K, 9)``: numbers, and values by name; none when there is none."""
    if x is None:
        return "none"
    return "(" + ", ".join(show_number(v) if d is None else show_value(d, v) for d, v in zip(displays, x)) + ")"


def adds_up(st: Any, keys: Iterable[Any], target: int) -> bool:
    """Whether some of ``keys`` (one at least; none skipped) add up to ``target``.

    With no key negative and a target up to MAX_RANGE, the sums reachable so far are the
    bits of one integer (a card's key shifts them), which is quick whatever the number of
    cards. Otherwise they are kept as a set, trimmed above ``target`` when no key is
    negative; building it may take at most MAX_RANGE steps (RuleFailed: R504), so a rule
    over a large zone with keys of every size stops with an error instead of for ever.
    Either way the sums tried count against the action's work (``spend``: R511): a key
    shifts a table of ``target`` bits, a word of them costing about one element."""
    values = [k for k in keys if k is not None]
    trim = target >= 0 and all(v >= 0 for v in values)
    if trim and target <= MAX_RANGE:
        spend(st, len(values) * (1 + target // _BITS_PER_UNIT))
        mask = (1 << (target + 1)) - 1
        bits = 0
        for v in values:
            bits = (bits | (bits << v) | (1 << v)) & mask if v <= target else bits
        return bool(bits >> target & 1)
    reach: set[int] = set()
    steps = 0
    for v in values:
        steps += len(reach) + 1
        if steps > MAX_RANGE:
            raise RuleFailed(
                f"adding up some of {len(values):,} cards took more than {MAX_RANGE:,} steps",
                "add up fewer cards, or keys that repeat (card values of 1 to 10 add up quickly)",
            )
        spend(st, len(reach) + 1)
        new = {v, *(s + v for s in reach)}
        reach |= {s for s in new if s <= target} if trim else new
        if target in reach:
            return True
    return False


def sets(st: Any, cards: list[int]) -> Iterator[list[int]]:
    """Each set of ``cards`` (one card at least) once, fewest cards first, each in the order of ``cards``.

    Its 2^n - 1 sets count against the action's work (``spend``: R511), before the first is made;
    more than 2^MAX_SET_CARDS - 1 are refused at once (TooMuchWork, R511), however few are wanted."""
    _set_work(st, len(cards), 2 ** len(cards) - 1)
    for k in range(1, len(cards) + 1):
        for chosen in itertools.combinations(cards, k):
            yield list(chosen)


def sets_of(st: Any, cards: list[int], k: int | None) -> Iterator[list[int]]:
    """The sets of ``k`` of ``cards`` alone (none for a ``k`` of none), as ``sets`` makes them: a count
    whose condition opens with ``size of s == k`` (pairs, runs of k) goes through no other."""
    if k is None or k < 1 or k > len(cards):
        return
    _set_work(st, len(cards), math.comb(len(cards), k))
    for chosen in itertools.combinations(cards, k):
        yield list(chosen)


def _set_work(st: Any, size: int, count: int) -> None:
    """Count the sets a count goes through against the action's work: R511 at once past 2^MAX_SET_CARDS - 1."""
    if count > 2**MAX_SET_CARDS - 1:
        raise TooMuchWork(
            f"counting the sets of {size:,} cards would go through {count:,} of them "
            f"(at most {2**MAX_SET_CARDS - 1:,}, the sets of {MAX_SET_CARDS} cards)",
            "count the sets of a hand, or of fewer cards picked out first (cards c in … where …), or of one size "
            "(where size of s == 2 and …)",
        )
    spend(st, count)


#: The bits of a table of sums (``adds_up``) that cost about as much to shift as one element to count.
_BITS_PER_UNIT = 2048


# ============================================================================ comparisons with none


def lt(a: Any, b: Any) -> bool:
    return a is not None and b is not None and a < b


def le(a: Any, b: Any) -> bool:
    return a is not None and b is not None and a <= b


def gt(a: Any, b: Any) -> bool:
    return a is not None and b is not None and a > b


def ge(a: Any, b: Any) -> bool:
    return a is not None and b is not None and a >= b


def tuple_order(a: tuple[Any, ...], op: str, b: tuple[Any, ...]) -> bool:
    """``a < b`` (or ``<=``, ``>``, ``>=``) item by item; false when either holds none, as a
    comparison with none is, and as ``the ... with highest (a, b)`` passes such keys over."""
    if None in a or None in b:
        return False
    return a < b if op == "<" else a <= b if op == "<=" else a > b if op == ">" else a >= b


def rank_highest(v: Any) -> Any:
    """A ranking key's part for 'highest v': smaller sorts first; none last."""
    return math.inf if v is None else -v


def rank_lowest(v: Any) -> Any:
    """A ranking key's part for 'lowest v': none last."""
    return math.inf if v is None else v


# ============================================================================ players and turn order


def step(st: Any, q: int, d: int) -> int:
    """The next player from ``q`` in direction ``d`` times the direction of play, skipping those out."""
    n = st.n
    out = st.out
    d = d * st.direction
    for _ in range(n):
        q = (q + d) % n
        if not out[q]:
            return q
    return q


def next_to_act(st: Any, q: int) -> int:
    """The player the turn passes to after ``q``, skipping those out; once every player is out
    the round is over when some are out for the round only ('end round'), else the game is over
    (as 'end game' ends it: its ranking places them), for nobody is left to act."""
    nxt = step(st, q, 1)
    if st.out[nxt]:
        if st.round_out:
            raise RoundOver()
        raise GameOver()
    return nxt


def players_after(st: Any, q: int) -> list[int]:
    """The other players not out, in turn order, from the one after ``q``."""
    n = st.n
    out = st.out
    d = st.direction
    return [r for r in ((q + d * i) % n for i in range(1, n)) if not out[r]]


def players_from(st: Any, q: int) -> list[int]:
    """The players not out, in turn order, from ``q``."""
    n = st.n
    out = st.out
    d = st.direction
    return [r for r in ((q + d * i) % n for i in range(n)) if not out[r]]


#: What a direction may be, and how to get what was meant; the checker says the same.
DIRECTION_RULE = "direction is 1 (clockwise) or -1 (counterclockwise)"
DIRECTION_HINT = "'reverse direction' turns play around; to skip players, give the turn with 'go to PHASE with P'"


def direction(d: Any) -> int:
    """A new direction of play, checked: 1 (clockwise) or -1 (counterclockwise), nothing else."""
    if d == 1 or d == -1:
        checked: int = d
        return checked
    raise RuleFailed(f"{DIRECTION_RULE}, not {'none' if d is None else d}", DIRECTION_HINT)


def seat(st: Any, i: int) -> int:
    if not 0 <= i < st.n:
        raise IndexError(f"there is no seat {i}: seats go from 0 to {st.n - 1}")
    return i


def finish(st: Any, q: int) -> None:
    """'finish P': out for the rest of the game (also when he was out for the round only)."""
    if q in st.round_out:
        st.round_out.remove(q)
        st.out[q] = False
    if not st.out[q]:
        st.out[q] = True
        st.finished.append(q)


def finish_round(st: Any, q: int) -> None:
    """'finish P for the round': out until the next round starts, not in the game's finishing order."""
    if not st.out[q]:
        st.out[q] = True
        st.round_out.append(q)


# ============================================================================ choices of cards


def kinds_in(pool: Iterable[int], kind: tuple[int, ...]) -> dict[int, list[int]]:
    """Group a pool's cards by kind, keeping first-seen order."""
    groups: dict[int, list[int]] = {}
    for c in pool:
        groups.setdefault(kind[c], []).append(c)
    return groups


def _multisets(groups: list[list[int]], size: int | None) -> Iterator[list[int]]:
    """Yield non-empty sub-multisets (by kind) of the given groups, of a size if given.

    ``groups`` holds the cards of each kind; a sub-multiset takes the first few of each.
    Larger takes come first, so the order is stable for a given pool.
    """
    if not groups:
        return
    if len(groups) == 1:
        cards = groups[0]
        if size is None:
            for take in range(len(cards), 0, -1):
                yield cards[:take]
        elif 0 < size <= len(cards):
            yield cards[:size]
        return
    if size is not None and len(groups) <= _SIZED_DEPTH:
        every: Iterable[tuple[int, ...]] = _takes_of_size([len(g) for g in groups], size)
    else:
        every = itertools.product(*(range(len(g), -1, -1) for g in groups))
    for takes in every:
        total = sum(takes)
        if total == 0 or (size is not None and total != size):
            continue
        out: list[int] = []
        for g, take in zip(groups, takes):
            if take:
                out.extend(g[:take])
        yield out


#: Kinds of cards up to which the takes of one size are made one kind after another (a recursion as
#: deep as the kinds): beyond, they are filtered from every take, as before.
_SIZED_DEPTH = 200


def _takes_of_size(lens: list[int], size: int) -> Iterator[tuple[int, ...]]:
    """How many cards of each kind make ``size`` cards, in the order ``itertools.product`` of the
    takes (each from the most down to none) would give them, without going through the others:
    2 cards of a hand of 26 kinds are 325 takes, not 2 ** 26."""
    rest = [0] * (len(lens) + 1)
    for i in range(len(lens) - 1, -1, -1):
        rest[i] = rest[i + 1] + lens[i]

    def takes(i: int, need: int) -> Iterator[tuple[int, ...]]:
        if i == len(lens):
            yield ()
            return
        for t in range(min(lens[i], need), max(0, need - rest[i + 1]) - 1, -1):
            for tail in takes(i + 1, need - t):
                yield (t, *tail)

    if 0 < size <= rest[0]:
        yield from takes(0, size)


def combinations(pool: Iterable[int], kind: tuple[int, ...], size: int | range | None) -> Iterator[list[int]]:
    """Yield every distinct (by kind) choice of ``size`` cards (any non-empty number if None; for a
    range, each size in it, fewest cards first)."""
    if isinstance(size, range):
        groups = list(kinds_in(pool, kind).values())
        # Sizes past the cards there are hold no group: never count through a huge HIGH.
        sizes = range(max(size.start, 1), min(size.stop, sum(map(len, groups)) + 1))
        return itertools.chain.from_iterable(_multisets(groups, k) for k in sizes)
    if size is not None and size <= 0:
        return iter(())
    return _multisets(list(kinds_in(pool, kind).values()), size)


def count_combinations(pool: Iterable[int], kind: tuple[int, ...], size: int | range | None) -> int:
    """How many groups ``combinations`` would yield, counted without making them."""
    counts = [len(g) for g in kinds_in(pool, kind).values()]
    if size is None:
        return math.prod(c + 1 for c in counts) - 1
    sizes = size if isinstance(size, range) else range(size, size + 1)
    most = min(max(sizes.stop - 1, 0), sum(counts))
    ways = [1] + [0] * most  # ways[k]: the groups of k cards of the kinds so far
    for c in counts:
        ways = [sum(ways[k - t] for t in range(min(c, k) + 1)) for k in range(most + 1)]
    return sum(ways[k] for k in sizes if 1 <= k <= most)


def same_groups(
    pool: Iterable[int],
    kind: tuple[int, ...],
    table: tuple[Any, ...],
    size: int | range | None,
    wild: Callable[[int], bool] | None,
    value_ok: Callable[[Any], bool] | None = None,
) -> Iterator[list[int]]:
    """Yield groups of cards sharing one value of ``table``; wild cards may join any group.

    ``value_ok`` rules a shared value out before any of its groups is built. A range of sizes
    keeps the groups of one or more cards whose size is in it.
    """
    if isinstance(size, range):
        sizes = size
        return (g for g in same_groups(pool, kind, table, None, wild, value_ok) if len(g) in sizes)
    return _same_groups(pool, kind, table, size, wild, value_ok)


def _same_groups(
    pool: Iterable[int],
    kind: tuple[int, ...],
    table: tuple[Any, ...],
    size: int | None,
    wild: Callable[[int], bool] | None,
    value_ok: Callable[[Any], bool] | None,
) -> Iterator[list[int]]:
    naturals: dict[Any, list[int]] = {}
    wilds: list[int] = []
    for c in pool:
        if wild is not None and wild(c):
            wilds.append(c)
        else:
            naturals.setdefault(table[c], []).append(c)
    wild_groups = list(kinds_in(wilds, kind).values())
    for value, cards in naturals.items():
        if value_ok is not None and not value_ok(value):
            continue
        if size is None and not wild_groups:
            yield from _multisets(list(kinds_in(cards, kind).values()), None)
            continue
        for nat in _multisets(list(kinds_in(cards, kind).values()), None):
            if size is None:
                yield nat
                for extra in _multisets(wild_groups, None):
                    yield nat + extra
                continue
            need = size - len(nat)
            if need == 0:
                yield nat
            elif need > 0:
                for extra in _multisets(wild_groups, need):
                    yield nat + extra


def valued_groups(
    pool: Iterable[int],
    kind: tuple[int, ...],
    table: tuple[Any, ...],
    value: Any,
    size: int | None,
    wild: Callable[[int], bool] | None,
) -> Iterator[list[int]]:
    """Yield groups whose cards have ``value`` (wild cards standing in for it)."""
    naturals: list[int] = []
    wilds: list[int] = []
    for c in pool:
        if wild is not None and wild(c):
            wilds.append(c)
        elif table[c] == value:
            naturals.append(c)
    nat_groups = list(kinds_in(naturals, kind).values())
    wild_groups = list(kinds_in(wilds, kind).values())
    if size is None:
        for nat in _multisets(nat_groups, None):
            yield nat
        return
    for k in range(min(size, len(naturals)), -1, -1):
        nats = [[]] if k == 0 else list(_multisets(nat_groups, k))
        fills = [[]] if size - k == 0 else list(_multisets(wild_groups, size - k))
        for nat in nats:
            for fill in fills:
                yield nat + fill


def different_groups(
    pool: Iterable[int],
    kind: tuple[int, ...],
    table: tuple[Any, ...],
    size: int | None,
    wild: Callable[[int], bool] | None,
) -> Iterator[list[int]]:
    """Yield groups whose values all differ; wild cards stand for further values."""
    by_value: dict[Any, list[int]] = {}
    wilds: list[int] = []
    for c in pool:
        if wild is not None and wild(c):
            wilds.append(c)
        elif table[c] is not None:
            by_value.setdefault(table[c], []).append(c)
    values = sorted(by_value, key=lambda v: (str(type(v)), v))
    choices_per_value = [list(kinds_in(by_value[v], kind).values()) for v in values]
    wild_groups = list(kinds_in(wilds, kind).values())

    def rec(i: int, acc: list[int]) -> Iterator[list[int]]:
        if i == len(values):
            k = len(acc)
            if size is None:
                if acc:
                    yield acc
                return
            need = size - k
            if need < 0:
                return
            if need == 0:
                yield acc
            else:
                for fill in _multisets(wild_groups, need):
                    yield acc + fill
            return
        if size is not None and len(acc) > size:
            return
        for group in choices_per_value[i]:
            yield from rec(i + 1, acc + group[:1])
        yield from rec(i + 1, acc)

    return rec(0, [])


def run_groups(
    pool: Iterable[int],
    kind: tuple[int, ...],
    table: tuple[Any, ...],
    sharing: tuple[Any, ...] | None,
    size: int | range | None,
    wild: Callable[[int], bool] | None = None,
    width: int = 1,
) -> Iterator[list[int]]:
    """Yield runs: groups of cards whose values of ``table`` are consecutive numbers (a values
    list's places), ``width`` cards of each (one; two for pairs in sequence), all with one value
    of ``sharing`` if given; of ``size`` cards (a number, a range, or any). Wild cards stand in
    for missing cards, beside one natural card at least; a set of cards is one run, read as
    ``run_span`` reads it. Identical cards are one choice. Shortest runs first, from the lowest
    value, in a fixed order for a given pool."""
    parts: dict[Any, dict[int, list[int]]] = {}
    wilds: list[int] = []
    for c in pool:
        if wild is not None and wild(c):
            wilds.append(c)
            continue
        v = table[c]
        if v is None or (sharing is not None and sharing[c] is None):
            continue
        parts.setdefault(None if sharing is None else sharing[c], {}).setdefault(v, []).append(c)
    wild_groups = list(kinds_in(wilds, kind).values())
    most = max((sum(min(len(cs), width) for cs in by_value.values()) for by_value in parts.values()), default=0)
    most += len(wilds) if parts else 0
    sizes = range(1, most + 1) if size is None else range(size, size + 1) if isinstance(size, int) else size
    bounds = _value_bounds(table) if wilds else None
    # Per value, the natural cards a run may take of it: 0 to ``width`` (identical cards once).
    takes = [
        {v: [_takes(list(kinds_in(cs, kind).values()), k) for k in range(width + 1)] for v, cs in by_value.items()}
        for by_value in parts.values()
    ]
    for length in sizes:
        if length > most:
            break  # no run is longer than the cards there are (a range's HIGH may be huge)
        if length < 1 or length % width:
            continue
        for choices in takes:
            yield from _runs_of(choices, length // width, width, wild_groups, len(wilds), bounds)


def _takes(groups: list[list[int]], k: int) -> list[list[int]]:
    """The sub-multisets of ``k`` cards of these kinds (one card: the first of each kind, in order)."""
    if k == 0:
        return [[]]
    if k == 1:
        return [[g[0]] for g in groups]
    return list(_multisets(groups, k))


def _runs_of(
    choices: dict[int, list[list[list[int]]]],
    ranks: int,
    width: int,
    wild_groups: list[list[int]],
    wilds: int,
    bounds: tuple[int, int] | None,
) -> Iterator[list[int]]:
    """The runs of ``ranks`` values from ``choices`` (per value, its takes of 0 to ``width``
    cards), wild cards filling the rest, each set of cards once: where ``run_span`` reads it."""
    if bounds is None:  # no wild card: every card natural
        for low in sorted(choices):
            values = range(low, low + ranks)
            if all(v in choices for v in values):
                takes = itertools.product(*(choices[v][width] for v in values))
                yield from ([c for take in run for c in take] for run in takes)
        return
    lowest, highest = bounds
    for low in range(lowest, highest - ranks + 2):
        values = range(low, low + ranks)
        if any(v in choices for v in values):
            yield from _fill_run(values, choices, width, wild_groups, wilds, bounds)


def _fill_run(
    values: range,
    choices: dict[int, list[list[list[int]]]],
    width: int,
    wild_groups: list[list[int]],
    wilds: int,
    bounds: tuple[int, int],
) -> Iterator[list[int]]:
    """The runs over ``values``: natural cards of each value (from most to none), wild cards for
    the rest; only those read as spanning ``values`` (others are another run's)."""

    def go(i: int, need: int, naturals: list[int], present: list[int]) -> Iterator[list[int]]:
        if i == len(values):
            if present and _span(present[0], present[-1], len(values), bounds) == values.start:
                yield from (naturals + extra for extra in ([[]] if need == 0 else _multisets(wild_groups, need)))
            return
        v = values[i]
        for k in range(width, -1, -1) if v in choices else (0,):
            if need + width - k <= wilds:
                for take in choices[v][k] if k else [[]]:
                    yield from go(i + 1, need + width - k, naturals + take, [*present, v] if k else present)

    return go(0, 0, [], [])


def _span(first: int, last: int, ranks: int, bounds: tuple[int, int]) -> int:
    """The lowest value of a run of ``ranks`` values whose natural cards go from ``first`` to
    ``last``: its wild cards stand above them, and below only past the highest value."""
    return max(bounds[0], min(first, bounds[1] - ranks + 1))


def _value_bounds(table: tuple[Any, ...]) -> tuple[int, int]:
    """The lowest and highest value of the attribute among the deck's cards: what a wild card may stand for."""
    values = [v for v in table if v is not None]
    return (min(values), max(values)) if values else (0, -1)


def run_part(
    cards: Iterable[int],
    table: tuple[Any, ...],
    sharing: tuple[Any, ...] | None,
    wild: Callable[[int], bool] | None,
    width: int,
    size: int | range | None,
) -> bool:
    """Whether these cards may be part of a run (cards picked one by one): natural cards with
    values, ``width`` at most of each, sharing one value of ``sharing``, spanning no more values
    than the longest run holds."""
    cards = list(cards)
    most = size if isinstance(size, int) else size.stop - 1 if isinstance(size, range) else len(table)
    if len(cards) > most:
        return False
    naturals = [c for c in cards if not (wild is not None and wild(c))]
    values = [table[c] for c in naturals]
    if None in values:
        return False
    shared = {sharing[c] for c in naturals} if sharing is not None else set()
    if None in shared or len(shared) > 1:
        return False
    if not values:
        return True
    counts = collections.Counter(values)
    return max(counts.values()) <= width and (max(values) - min(values) + 1) * width <= most


def run_span(
    cards: Iterable[int], table: tuple[Any, ...], wild: Callable[[int], bool] | None = None, width: int = 1
) -> tuple[Any, Any]:
    """The lowest and the highest value a run of these cards spans, its wild cards standing for
    the values missing between its natural cards, then above them (below only past the highest
    value a card has); (None, None) for cards that are no run."""
    cards = list(cards)
    naturals = [table[c] for c in cards if not (wild is not None and wild(c))]
    if not naturals or None in naturals or len(cards) % width:
        return (None, None)
    naturals.sort()
    ranks = len(cards) // width
    first, last = naturals[0], naturals[-1]
    if last - first >= ranks or any(naturals.count(v) > width for v in set(naturals)):
        return (None, None)
    if len(naturals) == len(cards):
        return (first, last)
    bounds = _value_bounds(table)
    low = _span(first, last, ranks, bounds)
    return (low, low + ranks - 1) if low + ranks - 1 <= bounds[1] else (None, None)


def can_form_valued(
    pool: Iterable[int], table: tuple[Any, ...], value: Any, size: int, wild: Callable[[int], bool] | None
) -> bool:
    count = 0
    for c in pool:
        if (wild is not None and wild(c)) or table[c] == value:
            count += 1
    return count >= size


# ============================================================================ showing values


def words(n: int | None) -> str:
    if n is None:
        return "none"
    return _WORDS[n] if 0 <= n < len(_WORDS) else str(n)


def show_number(x: Any) -> str:
    return "none" if x is None else str(x)


def whole_if_whole(x: float) -> str:
    """A number as people write it: 3, not 3.0; 2.5 as it is."""
    return str(int(x)) if float(x).is_integer() else str(x)


#: What to do about a payoff outside its declared range; the checker says the same (E308).
PAYOFF_RANGE_HINT = "widen the range to hold every payoff the game can end with, or change the payoff"


def payoff_in_range(v: Any, low: float, high: float, text: str, q: int) -> Any:
    """A player's payoff ``v``, checked against the range the game declares ('payoff: E, from LOW to HIGH')."""
    if not low <= v <= high:
        raise RuleFailed(
            f"the payoff '{text}' is {whole_if_whole(v)} for {show_player(q)}, "
            f"outside its declared range {whole_if_whole(low)} to {whole_if_whole(high)}",
            PAYOFF_RANGE_HINT,
        )
    return v


def show_flag(x: Any) -> str:
    return "none" if x is None else ("yes" if x else "no")


def show_player(q: int | None) -> str:
    return "nobody" if q is None else f"P{q}"


def show_players(qs: Iterable[int]) -> str:
    return ", ".join(f"P{q}" for q in qs) or "nobody"


def show_cards(shown: list[str]) -> str:
    """Cards as one text: those seen by name, those hidden counted ('5♠ and two hidden cards')."""
    hidden = shown.count(HIDDEN_CARD)
    if not hidden:
        return " ".join(shown)
    named = " ".join(x for x in shown if x != HIDDEN_CARD)
    counted = HIDDEN_CARD if hidden == 1 else f"{words(hidden)} hidden cards"
    return f"{named} and {counted}" if named else counted


def show_value(display: tuple[str, ...], x: int | None) -> str:
    return "none" if x is None else display[x]


def show_numbers(numbers: frozenset[int]) -> str:
    """A set of numbers as people read it, lowest first (``3, 4``), or none when it is empty."""
    return ", ".join(show_number(x) for x in sorted(numbers)) or "none"


def show_bits(display: tuple[str, ...], mask: int) -> str:
    return ", ".join(display[i] for i in bits(mask)) or "none"
