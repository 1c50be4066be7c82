"""A table's frames never tell a seat that a window he cannot see was offered (issue 41.3).

Cartes Magiques offers a cut to whoever holds the card just played: that it is offered tells
what he holds. Every seat but the one offered it (and the spectators) must be sent the same
frame, every field and ``version`` included, whether the cut is still offered or every seat
offered it has let it pass (play gone on as if it had been offered to nobody); the turn
player may choose his move meanwhile, and it is played once the window closes.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.extras import require

require("starlette", "serve")

from ruledsl import load_game  # noqa: E402
from ruledsl.serve.frames import view_frame  # noqa: E402
from ruledsl.serve.tables import SPECTATOR, MoveRefused, Table  # noqa: E402

PLAYERS = 4


def _play(table: Table, seat: int, index: int) -> None:
    table.move(seat, view_frame(table, seat)["version"], index=index)


def _pass_window(table: Table) -> None:
    """The seat offered the open window lets it pass, through the table as a page would."""
    state = table.state
    assert state is not None and state.windows is not None
    seat = state.current_player()
    (skip,) = [i for i, a in enumerate(state.legal_actions()) if a.defn.is_pass]
    _play(table, seat, skip)


def _frames(table: Table, viewers: list[int]) -> dict[int, dict[str, Any]]:
    return {v: view_frame(table, v) for v in viewers}


def _check_window(table: Table, rng: random.Random, stats: dict[str, int]) -> None:
    """At an open window: the frames of the seats not offered it stay what they are while it is
    let pass, to the end, where play has gone on as if nobody had been offered it."""
    state = table.state
    assert state is not None
    offered = {state.current_player()}
    viewers = [v for v in (*range(PLAYERS), SPECTATOR) if v not in offered]
    viewers = [v for v in viewers if not state.seen_by(None if v == SPECTATOR else v)[1]]  # a pause shows itself
    before = _frames(table, viewers)
    turn = state.seen_by(None)[0].current_player()
    held = None
    if turn in before and before[turn]["actions"] and rng.random() < 0.5:
        # The turn player chooses while the cut is offered (to him, it is his turn): held, not refused.
        held = rng.randrange(len(before[turn]["actions"]))
        _play(table, turn, held)
        assert _frames(table, viewers) == before
    start = len(table.actors)
    while table.state is not None and table.state.windows is not None:
        _pass_window(table)
        offered.add(table.state.current_player())
        if held is not None and turn in table.actors[start:]:
            break  # closed: the held move is played, and the views change with it
        for v in viewers:
            if v not in offered:
                assert view_frame(table, v) == before[v], (v, before[v], view_frame(table, v))
                stats["compared"] += 1
    if held is not None and turn not in offered:
        # Every seat offered the cut let it pass: the held move is played, as if chosen then.
        label = before[turn]["actions"][held]["label"]
        assert f"P{turn}: {label}" in table.transcript(turn)[-3:]
        stats["held"] += 1


@pytest.mark.parametrize("seed", range(3))
def test_no_frame_tells_a_window_another_seat_is_offered(seed: int) -> None:
    game = load_game("cartes_magiques", players=PLAYERS)
    table = Table(game, ["human"] * PLAYERS, seed=seed)
    rng = random.Random(seed)
    stats = {"windows": 0, "compared": 0, "held": 0}
    while not table.is_over() and len(table.actors) < 400:
        state = table.state
        assert state is not None
        if state.windows is not None and rng.random() < 0.7:
            stats["windows"] += 1
            _check_window(table, rng, stats)
            continue
        seat = state.current_player()
        _play(table, seat, rng.randrange(len(state.legal_actions())))
    assert stats["windows"] >= 5 and stats["compared"] >= 10, stats


def test_a_move_held_during_a_window_is_dropped_when_someone_acts_in_it() -> None:
    """Where the seat offered the cut takes it, the turn player's held move is not played: his
    view changed (the cut is seen by all), and he chooses again in it."""
    game = load_game("cartes_magiques", players=PLAYERS)
    for seed in range(20):
        table = Table(game, ["human"] * PLAYERS, seed=seed)
        rng = random.Random(seed)
        while not table.is_over() and len(table.actors) < 400:
            state = table.state
            assert state is not None
            if state.windows is not None:
                actor = state.current_player()
                turn = state.seen_by(None)[0].current_player()
                cut = [i for i, a in enumerate(state.legal_actions()) if not a.defn.is_pass]
                frame = view_frame(table, turn)
                if turn != actor and cut and frame["actions"]:
                    _play(table, turn, 0)
                    n = len(table.actors)
                    _play(table, actor, cut[0])
                    assert table.actors[n:][:1] == [actor]
                    assert turn not in table.actors[n:]  # his move was not played
                    assert view_frame(table, turn)["version"] != frame["version"]
                    with pytest.raises(MoveRefused, match="moved on"):
                        table.move(turn, frame["version"], index=0)
                    return
            _play(table, state.current_player(), rng.randrange(len(state.legal_actions())))
    raise AssertionError("no game offered a cut that was taken")


def _let_pass(table: Table) -> int:
    """Every open window let pass by the seat it is offered to; return how many passes that took."""
    passes = 0
    while table.state is not None and table.state.windows is not None and not table.is_over():
        _pass_window(table)
        passes += 1
    return passes


def _follow_twins(deal: int, seat: int) -> tuple[int, int]:
    """Deal two tables alike, swap two cards hidden from ``seat`` at the second (one in another's hand,
    one in the stock), then play both alike, each window let pass, until one of the two cards moves.
    Compare ``seat``'s frames (and the spectators') at every step; return (steps compared, steps
    at which the two tables let a different number of windows pass)."""
    from ruledsl.tools.leaks import _matching, swap

    game = load_game("cartes_magiques", players=PLAYERS)
    tables = [Table(game, ["human"] * PLAYERS, seed=deal) for _ in range(2)]
    first, second = (t.state for t in tables)
    assert first is not None and second is not None
    rng = random.Random(deal)
    names, kinds = first.prog.card_names, first.prog.card_kinds
    hands = [z.base + q for z in first.prog.zones if z.name == "hand" for q in range(PLAYERS) if q != seat]
    (stock,) = [z.base for z in first.prog.zones if z.name == "deck"]
    start = rng.randrange(8, 40)  # the twins' cards swapped after the setup, where play goes on
    while len(tables[0].actors) < start and not tables[0].is_over():
        _let_pass(tables[0])
        _let_pass(tables[1])
        actor, index = first.current_player(), rng.randrange(len(first.legal_actions()))
        for t in tables:
            t.move(actor, t.version_of(actor), index=index)
    if tables[0].is_over() or not first.zones[stock]:
        return 0, 0
    a = rng.choice([c for z in hands for c in first.zones[z]])
    b = rng.choice([c for c in first.zones[stock] if names[c] != names[a]])
    swap(second, a, b)
    exchanged = {kinds[a]: kinds[b], kinds[b]: kinds[a]}
    at = (first.loc[a], first.loc[b])
    compared = asymmetric = 0
    while True:
        passes = [_let_pass(t) for t in tables]
        asymmetric += passes[0] != passes[1]
        if (
            any(t.is_over() for t in tables)
            or at != (first.loc[a], first.loc[b])
            or at != (second.loc[b], second.loc[a])
        ):
            return compared, asymmetric
        for viewer in (seat, SPECTATOR):
            assert view_frame(tables[0], viewer) == view_frame(tables[1], viewer), (deal, viewer, compared)
        compared += 1
        actor = first.current_player()
        action = rng.choice(first.legal_actions())
        other = _matching(second.legal_actions(), action, exchanged)  # one card of each kind: kinds are cards
        if other is None or second.current_player() != actor:
            return compared, asymmetric
        tables[0].move(actor, tables[0].version_of(actor), index=first.legal_actions().index(action))
        tables[1].move(actor, tables[1].version_of(actor), index=second.legal_actions().index(other))


def test_swap_twins_frames_alike_with_and_without_a_window() -> None:
    """Swap twins: where one of the two cards lets its holder cut, a window is offered at one table
    only; the seat's frames, every field and ``version`` included, must be the same at both."""
    compared = asymmetric = 0
    for deal in range(80):
        steps, windows = _follow_twins(deal, deal % PLAYERS)
        compared += steps
        asymmetric += windows
    assert compared >= 200 and asymmetric >= 5, (compared, asymmetric)
