"""What each player knows of where the cards are, and resampling what he cannot see.

For every player and card the state may keep a bit set of the zones (instances) the card
could be in, as far as that player can tell (``state.known``; None when not tracked). A
card he sees is where it is. A card he sees go from one zone to another stays known. When a
card moves between two places he cannot see into, he does not know which card it was: every
card that could have been in the first place could now be in the second. And a zone
left empty holds none of them, as its size shows everybody: when a stock runs out, a
player who sees all but one hand knows that hand, and a stock made again from the pile
holds only cards he saw there.

``resample(state, player, rng)`` deals the cards ``player`` cannot see among the places
where hidden cards lie, each card only into a zone it could be in, so that the new state
looks the same to him and agrees with everything he has seen.

What a player could infer from others' actions (a bid announced, an opening called) is
not tracked, only what he saw of the cards. So that a resampled state can at least go on,
it must let the player to move act: resampling is tried again (up to ``TRIES`` times)
until it does, and failing that, the cards of the player to move stay where they are.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from ruledsl.engine import chance, together

if TYPE_CHECKING:
    from ruledsl.engine.state import GameState


def start(st: Any) -> None:
    """(Re)start tracking from what each player sees now (after a setup)."""
    n_cards = len(st.loc)
    known = []
    for q in range(st.n):
        hidden_zones = 0
        for c in range(n_cards):
            if not st.sees(q, c):
                hidden_zones |= 1 << st.loc[c]
        row = [(1 << st.loc[c]) if st.sees(q, c) else hidden_zones for c in range(n_cards)]
        if st.known is not None:  # a new deal: what he did not know of a card's variables, he still does not
            bit = _vars_unknown(st)
            for c, before in enumerate(st.known[q]):
                if before & bit and not st.sees(q, c):
                    row[c] |= bit
        known.append(row)
    st.known = known


def moved(st: Any, c: int, src: int, dst: int, seen_before: list[bool]) -> None:
    """Update after card ``c`` moved from zone ``src`` to ``dst``.

    ``seen_before[q]`` tells whether player q saw the card where it was.
    """
    bit_dst = 1 << dst
    bit_src = 1 << src
    for q, row in enumerate(st.known):
        if seen_before[q] or st.sees(q, c):
            row[c] = bit_dst
        else:
            # He saw a card go from src to dst, not which: any card that could have been
            # in src could now be in dst.
            for d, mask in enumerate(row):
                if mask & bit_src:
                    row[d] = mask | bit_dst
            row[c] |= bit_dst


def emptied(st: Any, z: int) -> None:
    """Update after zone ``z`` was left empty (after ``moved`` for each card that left it).

    Everybody sees a zone's size, so everybody knows no card is there now. Without this, a
    card that a player could only place in a stock or another's hand would stay possible
    in the stock after it ran out and was filled again from seen cards, and deals would put
    cards he knows are in the other's hand back in the stock.
    """
    keep = ~(1 << z)
    for row in st.known:
        for d, mask in enumerate(row):
            if mask & ~keep:
                row[d] = mask & keep


def _vars_unknown(st: Any) -> int:
    """The bit of a player's entry for a card that says he does not know the card's variables
    (they were written while he could not see it): above the bits of every zone."""
    return 1 << len(st.zones)


def variables_written(st: Any, c: int) -> None:
    """A variable of card ``c`` was written: the players who see the card know it, now and
    wherever the card goes; the others know it no more (until they see the card)."""
    bit = _vars_unknown(st)
    for q, row in enumerate(st.known):
        if st.sees(q, c):
            row[c] &= ~bit
        else:
            row[c] |= bit


def seen_by(st: Any, c: int) -> list[bool]:
    return [st.sees(q, c) for q in range(st.n)]


def revealed(st: Any, cards: list[int]) -> None:
    """Every player has seen these cards where they lie."""
    for row in st.known:
        for c in cards:
            row[c] = 1 << st.loc[c]


def refresh(st: Any, cards: list[int]) -> None:
    """Cards turned face up or down: those now seen are known where they are."""
    for q, row in enumerate(st.known):
        for c in cards:
            if st.sees(q, c):
                row[c] = 1 << st.loc[c]


#: Resamplings tried until the player to move can act in one of them.
TRIES = 50


def resample(st: GameState, player: int, rng: random.Random) -> GameState:
    """Return a copy of ``st`` in which the cards ``player`` cannot see are dealt anew."""
    if st.terminal:
        return _resample_once(st, player, rng, keep=())
    for _ in range(TRIES):
        copy = _resample_once(st, player, rng, keep=())
        if copy.legal_actions() and copy.bid_still_covered():
            return copy
    # The rules tie some hidden cards to the state (a bid to pay, a rank to open with):
    # keep the cards of the player to move, and of a standing bidder, where they are.
    keep = (st.current_player(),) + ((st.auction[1],) if st.auction is not None and st.auction[1] is not None else ())
    return _resample_once(st, player, rng, keep=keep)


def canonical(st: GameState, player: int, variant: int = 0) -> GameState:
    """Return a copy of ``st`` whose cards hidden from ``player`` are dealt from what he knows alone.

    The hidden cards are taken in card order (never in the order they lie) and dealt with
    a fixed generator (``variant`` picks another fixed deal), each only where he knows it
    could be: two states that look the same to him give the same copy. Whatever is
    worked out in it (a resample for search, a refusal's reason) is a function of his
    knowledge, never of where the hidden cards really are.
    """
    base = st.clone()
    # The last action's chosen values may name a card he never saw (a face-down card
    # taken into a hand), and where every card lay before it is kept to label it: a copy
    # for him drops both.
    base.last_args = ()
    base.last_before = None
    _forget_picks(base, player)
    slots = [(z, i) for z, cards in enumerate(base.zones) for i, c in enumerate(cards) if not base.sees(player, c)]
    if not slots:
        return _first_choices(base, player)
    cards = sorted(base.zones[z][i] for z, i in slots)
    if base.known is not None:
        masks = {c: base.known[player][c] for c in cards}
    else:
        anywhere = 0
        for z, _ in slots:
            anywhere |= 1 << z
        masks = {c: anywhere for c in cards}
    assignment = _match(cards, slots, masks, random.Random(variant))
    replaced = {}
    for (z, i), c in zip(slots, assignment, strict=True):
        replaced[base.zones[z][i]] = c
        base.zones[z][i] = c
        base.loc[c] = z
    _faces_stay(base, replaced)
    told_stay(base, replaced)
    _remap_variables(base, replaced)
    _forget_variables(base, player, cards)
    base._legal = None
    return _first_choices(base, player)


def _forget_picks(copy: GameState, player: int) -> None:
    """Another's set half chosen card by card is his to know: a copy made for ``player`` has none."""
    if copy.picking is not None and copy.actor != player:
        copy.picking = None
        copy._legal = None


def _first_choices(base: GameState, player: int) -> GameState:
    """Nor may the copy keep what the others chose in a phase played together: the first
    legal choice of each, in the copy as dealt, stands in for it."""
    together.rechoose(base, player, lambda offered: offered[0])
    return base


def _resample_once(st: GameState, player: int, rng: random.Random, keep: tuple[int, ...]) -> GameState:
    """One new deal of the unseen cards."""
    copy = st.clone()
    _forget_picks(copy, player)
    owner = st.prog.zone_owner
    slots = [
        (z, i)
        for z, cards in enumerate(copy.zones)
        for i, c in enumerate(cards)
        if not copy.sees(player, c) and owner[z] not in keep
    ]
    cards = [copy.zones[z][i] for z, i in slots]
    if st.known is not None:
        assignment = _match(cards, slots, {c: st.known[player][c] for c in cards}, rng)
    else:
        anywhere = 0
        for z, _ in slots:
            anywhere |= 1 << z
        assignment = _match(cards, slots, {c: anywhere for c in cards}, rng)
    replaced = {}  # card that was at a slot -> card now at that slot
    for (z, i), c in zip(slots, assignment):
        replaced[copy.zones[z][i]] = c
        copy.zones[z][i] = c
        copy.loc[c] = z
    _faces_stay(copy, replaced)
    told_stay(copy, replaced)
    # A variable that pointed at a hidden card now points at the card in its place.
    _remap_variables(copy, replaced)
    if st.known is not None:
        _forget_variables(copy, player, cards)
    copy.rng = chance.seed_state(rng.getrandbits(64))
    copy.known = None
    copy._legal = None
    copy.log = None
    copy.rebase()  # a failed action must roll back to this deal, never to the true one
    return copy


def _faces_stay(st: Any, replaced: dict[int, int]) -> None:
    """Keep how each card lies with its place, as the leak harness's swap does: the card dealt
    into a face-down card's place lies face down, the card dealt into a place of a zone 'seen
    by mover' is the one its mover laid there, and the card dealt out of a place lies as its
    new place shows it."""
    face = st.face
    if face is None:
        return
    old = {c: face[c] for c in replaced}
    for before, after in replaced.items():
        face[after] = old[before]


def told_stay(st: Any, replaced: dict[int, int]) -> None:
    """Keep the card variables told to every player (written 'public') with their places, as faces:
    a player who cannot see a card still knows what was told of the card in that place (a hint on a
    card of his hand 'seen by others'), so the card dealt there bears it. The deal does not reason
    from what was told to which card it must be: it may bear a hint its face belies."""
    for i in st.prog.told:
        values = st.cv[i]
        old = {c: values[c] for c in replaced}
        for before, after in replaced.items():
            values[after] = old[before]


def _remap_variables(st: Any, replaced: dict[int, int]) -> None:
    """A game or player variable that named a card dealt anew names the card now in its place.

    A card's own variables stay with the card, not with its place: a place (in a hand kept in
    order, say) may tell which card lies there, and the card's variables would then tell
    where it is. Those a player does not know go, see ``_forget_variables``."""
    for values, i in _card_valued(st):
        values[i] = _remap(values[i], replaced)


def cards_named(st: Any) -> set[int]:
    """The cards a game or player variable names."""
    named: set[int] = set()
    for values, i in _card_valued(st):
        value = values[i]
        if isinstance(value, list):
            named.update(value)
        elif value is not None:
            named.add(value)
    return named


def _card_valued(st: Any) -> Iterator[tuple[list[Any], int]]:
    """Where each game or player variable of cards keeps its value: (the list, the index)."""
    prog = st.prog
    for i, v in enumerate(prog.game_vars):
        if v.kind in ("card", "cards"):
            yield st.gv, i
    for i, v in enumerate(prog.player_vars):
        if v.kind in ("card", "cards"):
            row = st.pv[i]
            for q in range(len(row)):
                yield row, q


def _forget_variables(st: Any, player: int, cards: list[int]) -> None:
    """Give the variables of each of ``cards`` that ``player`` does not know (written while he
    could not see it) their first values: which of the cards he cannot see bears them is not his
    to know, and the copy must not tell."""
    if st.known is None:
        return
    bit = _vars_unknown(st)
    row = st.known[player]
    unknown = [c for c in cards if row[c] & bit]
    if not unknown:
        return
    told = st.prog.told
    for i, (values, initial) in enumerate(zip(st.cv, st.prog.card_var_init)):  # a copy's own rows
        if i in told:
            continue  # every player knows it: it stays with its place (told_stay)
        for c in unknown:
            values[c] = initial[:] if type(initial) is list else initial


def _remap(value: Any, replaced: dict[int, int]) -> Any:
    if value is None:
        return None
    if isinstance(value, list):
        return [replaced.get(c, c) for c in value]
    return replaced.get(value, value)


def _match(cards: list[int], slots: list[tuple[int, int]], masks: dict[int, int], rng: random.Random) -> list[int]:
    """Assign each slot a card allowed in its zone, at random, always succeeding.

    Random order and random choices, repaired by augmenting paths when a card has no free
    slot left (the true position of every card is one valid assignment).
    """
    order = list(range(len(slots)))
    rng.shuffle(order)
    by_slot: dict[int, int] = {}  # slot index -> card
    slot_of: dict[int, int] = {}  # card -> slot index
    shuffled = cards[:]
    rng.shuffle(shuffled)
    for c in shuffled:
        free = [s for s in order if s not in by_slot and masks[c] >> slots[s][0] & 1]
        if free:
            s = free[rng.randrange(len(free))]
            by_slot[s] = c
            slot_of[c] = s
        elif not _augment(c, slots, masks, by_slot, slot_of, set(), rng):
            raise AssertionError("no assignment of hidden cards agrees with what the player saw")
    return [by_slot[s] for s in range(len(slots))]


def _augment(
    c: int,
    slots: list[tuple[int, int]],
    masks: dict[int, int],
    by_slot: dict[int, int],
    slot_of: dict[int, int],
    visited: set[int],
    rng: random.Random,
) -> bool:
    candidates = [s for s in range(len(slots)) if masks[c] >> slots[s][0] & 1 and s not in visited]
    rng.shuffle(candidates)
    for s in candidates:
        visited.add(s)
        other = by_slot.get(s)
        if other is None or _augment(other, slots, masks, by_slot, slot_of, visited, rng):
            by_slot[s] = c
            slot_of[c] = s
            return True
    return False
