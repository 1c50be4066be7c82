"""Build positions by hand, for scenario tests and puzzles: put named cards in zones, set variables.

Every function keeps the cards conserved (a card is taken from wherever it is) and
leaves the state consistent, so that play can go on from the position by the rules.

    state = game.new_initial_state(seed=0)
    arrange(state, "pile", ["the Ace of Moons", "the Mountain"])     # bottom to top
    arrange(state, "hand", ["the Forest"], owner=0)
    give_turn(state, 0)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ruledsl.engine import ops
from ruledsl.engine.state import GameState


def _zone_index(state: GameState, zone: str, owner: int | None) -> int:
    for layout in state.prog.zones:
        if layout.name == zone:
            if layout.per_player:
                if owner is None:
                    raise ValueError(f"zone '{zone}' belongs to each player: give owner=")
                return layout.base + owner
            return layout.base
    raise ValueError(f"no zone '{zone}'; zones: {', '.join(z.name for z in state.prog.zones)}")


def _take(state: GameState, name: str, taken: set[int], prefer: int | None = None) -> int:
    names = state.prog.card_names
    candidates = [c for c in range(len(names)) if names[c] == name and c not in taken]
    if not candidates:
        raise ValueError(f"no (more) card named '{name}' in this game")
    if prefer is not None:
        # Prefer a copy already in the target zone, so that arranging moves as little as possible.
        in_place = [c for c in candidates if state.loc[c] == prefer]
        if in_place:
            return in_place[0]
    return candidates[0]


def _move(state: GameState, c: int, dst: int, at_bottom: bool = False) -> None:
    """Move a card as the rules do (``ops.move``: what each player knows follows), lying as it lay."""
    ops.move(state, (c,), dst, ops.BOTTOM if at_bottom else ops.TOP, None if state.face is None else state.face[c])


def arrange(
    state: GameState, zone: str, cards: Sequence[str], owner: int | None = None, rest: str | None = None
) -> None:
    """Make a zone hold exactly the named cards, bottom to top.

    The cards come from wherever they are; the cards the zone held before go to the
    bottom of ``rest`` (default: the first zone declared, where the cards start).
    """
    z = _zone_index(state, zone, owner)
    spare = _zone_index(state, rest, None) if rest is not None else 0
    if spare == z:
        spare = next(i for i in range(len(state.zones)) if i != z)
    taken: set[int] = set()
    chosen = []
    for name in cards:
        c = _take(state, name, taken, prefer=z)
        taken.add(c)
        chosen.append(c)
    for c in list(state.zones[z]):
        if c not in taken:
            _move(state, c, spare, at_bottom=True)
    for c in chosen:
        _move(state, c, z)
    _changed(state)


def stack_top(state: GameState, zone: str, cards: Sequence[str], owner: int | None = None) -> None:
    """Put the named cards on top of a zone, the first named on the very top."""
    z = _zone_index(state, zone, owner)
    taken: set[int] = set()
    chosen = []
    for name in cards:
        c = _take(state, name, taken)
        taken.add(c)
        chosen.append(c)
    for c in reversed(chosen):
        _move(state, c, z)
    _changed(state)


def set_face(state: GameState, cards: Sequence[str], face: bool | None) -> None:
    """Lay the named cards (the first of each name) face up (True), face down (False), or as
    their zone shows them (None), where they lie: 'turn up' and 'turn down' in a scenario."""
    names = state.prog.card_names
    state.set_faces([names.index(name) for name in cards], face)
    _changed(state)


def cards_in(state: GameState, zone: str, owner: int | None = None) -> list[str]:
    """Return the names of a zone's cards, bottom to top."""
    return [state.prog.card_names[c] for c in state.zones[_zone_index(state, zone, owner)]]


def _value_of(state: GameState, current: Any, value: Any) -> Any:
    names = state.prog.card_names
    if isinstance(value, str) and value in names:
        return names.index(value)
    if isinstance(value, (list, tuple)) and all(isinstance(v, str) for v in value):
        return [names.index(v) for v in value]
    return value


def set_var(state: GameState, name: str, value: Any, owner: int | None = None) -> None:
    """Set a game or player variable; a values name (such as "Moons") is turned into its value."""
    prog = state.prog
    value = _resolve_member(state, name, value)
    for i, v in enumerate(prog.game_vars):
        if v.name == name:
            state.gv[i] = _value_of(state, state.gv[i], value)
            _changed(state)
            return
    for i, v in enumerate(prog.player_vars):
        if v.name == name:
            if owner is None:
                raise ValueError(f"'{name}' belongs to each player: give owner=")
            state.pv[i][owner] = _value_of(state, state.pv[i][owner], value)
            _changed(state)
            return
    raise ValueError(f"no variable '{name}'")


def get_var(state: GameState, name: str, owner: int | None = None) -> Any:
    """Return a variable's raw value (value lists as their index)."""
    for i, v in enumerate(state.prog.game_vars):
        if v.name == name:
            return state.gv[i]
    for i, v in enumerate(state.prog.player_vars):
        if v.name == name:
            if owner is None:
                return list(state.pv[i])
            return state.pv[i][owner]
    raise ValueError(f"no variable '{name}'")


def _resolve_member(state: GameState, var: str, value: Any) -> Any:
    if not isinstance(value, str):
        return value
    symbols = state.game.checked.symbols
    member = symbols.members.get(value)
    if member is not None:
        return member.index
    return value


def give_turn(state: GameState, player: int, phase: str | None = None, direction: int | None = None) -> None:
    """Make it ``player``'s turn (in ``phase``), closing any window.

    In a phase played together every chooser is awaited again, from the first in seat order
    (``player`` is then where its 'for' is worked out from); choices held before are dropped.
    """
    if phase is not None:
        names = [p.name for p in state.prog.phases]
        if phase not in names:
            raise ValueError(f"no phase '{phase}'; phases: {', '.join(names)}")
        state.phase = names.index(phase)
        if state.prog.phases[state.phase].is_auction:
            state.auction = [None, None, list(state.out), None, 0]
    if direction is not None:
        state.direction = direction
    state.turn = state.actor = player
    state.windows = None
    state.pending_phase = None
    state.held = None
    if state.prog.phases[state.phase].together:
        state._start_together()
    _changed(state)


def _changed(state: GameState) -> None:
    state._legal = None
    state.rebase()  # a failed action rolls back to the scenario, not to the deal it was made from
