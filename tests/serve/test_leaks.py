"""No frame the server sends names a card its receiver may not see: every shipped game, played through, seat by seat.

Each game is played by random choices through the table (as the server plays moves); after
each action the frame of every seat and of a spectator is built as the server builds it. The
view in a frame (everything but the transcript) may name only cards the engine says that
viewer sees now (``state.sees``); the transcript only cards the engine says he has known at
some moment of the game: seen, shown to all by a 'reveal', known to be in one place (``state.known``, which a twin
state tracks), or named in the engine's own account of an action to him
(``describe_last(viewer)``, computed on the twin: a card played to a trick that is gathered
in the same move was seen by all) — and the transcript must hold that account, not another
seat's. A spectator may be told only what every seat knew.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterable
from typing import Any

import pytest

from tests.extras import require

require("starlette", "serve")

from ruledsl import load_game  # noqa: E402
from ruledsl.resources import named_games  # noqa: E402
from ruledsl.serve.frames import view_frame  # noqa: E402
from ruledsl.serve.tables import SPECTATOR, Table  # noqa: E402

GAMES = sorted(named_games())


def _players(name: str) -> list[int]:
    from ruledsl import check_file, players_range

    low, high = players_range(check_file(str(named_games()[name])))
    return sorted({low, min(max(low, 3), high)})


CASES = [(name, n) for name in GAMES for n in _players(name)]


def _pattern(names: Iterable[str]) -> re.Pattern[str]:
    """Finds the card names in a text, each as a whole (not '8♣' inside '18♣'); longest first."""
    alternatives = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True)) or "(?!)"  # none: never
    return re.compile(rf"(?<![\w♠♥♦♣])(?:{alternatives})(?![\w♠♥♦♣])")


def _cards_in(frame: dict[str, Any]) -> set[str]:
    """The names of the cards a frame draws, and that its actions name."""
    drawn = {card["name"] for zone in frame.get("zones", ()) for card in zone["cards"] or () if card is not None}
    return drawn | {name for action in frame["actions"] for name in action["cards"]}


def _named_freely(frame: dict[str, Any], state: Any, viewer: int) -> dict[str, Any]:
    """The frame without the texts of choices of no card: a bid '5♣' (the labels of the actions that choose
    no card, the standing bid) names a contract, not the card of that name. Every label is the leak harness's
    'labels' surface, swapped cards and all; the cards an action names are its 'cards', checked above."""
    offered = [] if viewer == SPECTATOR else state.actions_seen_by(viewer)
    actions = [{**a, "label": None} if not offered[a["index"]].defn.card_choices else a for a in frame["actions"]]
    out = {**frame, "actions": actions}
    standing = state.auction[3] if state.auction is not None else None
    if frame.get("auction") and (standing is None or not standing.defn.card_choices):
        out["auction"] = {**frame["auction"], "standing": None}
    return out


def _value_names(name: str) -> set[str]:
    """The names of the game's values (Love Letter's kinds are its cards' names: 'does P1 hold a Priest?')."""
    from ruledsl import check_file

    values = check_file(str(named_games()[name])).symbols.values
    return {shown for sym in values.values() for shown in (*sym.members, *sym.displays)}


def _seen_now(state: Any, viewer: int | None) -> set[str]:
    names = state.prog.card_names
    return {names[c] for c in range(len(names)) if state.sees(viewer, c)}


@pytest.mark.parametrize(("name", "players"), CASES, ids=[f"{n}-{p}" for n, p in CASES])
def test_no_frame_names_a_card_its_viewer_cannot_see(name: str, players: int) -> None:
    game = load_game(name, players=players)
    table = Table(game, ["human"] * players, seed=players)  # every seat a human: the test moves for each
    state = table.state
    assert state is not None
    twin = game.new_initial_state(seed=players, log=True, track=True)  # the same game, with what each seat knows
    names = state.prog.card_names
    # A card named by a number alone ('4' in Katzenjammer Blues) reads like any count: such
    # cards are checked where frames draw and name cards, not in free text.
    # A card named as a value reads like that value: checked where frames draw and name cards, too.
    pattern = _pattern(n for n in set(names) - _value_names(name) if not n.isdigit())
    viewers: list[int] = [*range(players), SPECTATOR]
    ever: dict[int, set[str]] = {v: set() for v in viewers}
    rng = random.Random(f"{name}-{players}")
    checked = 0
    told: dict[int, str] = {}  # the last action, as the engine tells it to each viewer
    while True:
        for v in viewers:
            ever[v] |= _seen_now(state, None if v == SPECTATOR else v)
        known = [{names[c] for c, zones in enumerate(row) if zones.bit_count() == 1} for row in twin.known]
        for q in range(players):
            ever[q] |= known[q]
        ever[SPECTATOR] |= set.intersection(*known)
        if twin.last_revealed is not None:  # shown to the whole table by a 'reveal'
            for v in viewers:
                ever[v] |= {names[c] for c in twin.last_revealed[1]}
        for v in viewers:
            frame = view_frame(table, v)
            lines = frame.pop("transcript")
            if told.get(v):
                assert told[v] in lines[-20:], f"{v} is not told the last action as the engine tells it to him"
            transcript = json.dumps(lines, ensure_ascii=False)
            shown = json.dumps(_named_freely(frame, state, v), ensure_ascii=False)
            now = _seen_now(state, None if v == SPECTATOR else v)
            who = "a spectator" if v == SPECTATOR else f"P{v}"
            assert _cards_in(frame) <= now, f"{who} is shown {_cards_in(frame) - now}"
            assert set(pattern.findall(shown)) <= now, f"{who}'s view names {set(pattern.findall(shown)) - now}"
            unseen = set(pattern.findall(transcript)) - ever[v]
            assert not unseen, f"{who}'s transcript names {unseen}, never seen"
            checked += 1
        if table.is_over():
            break
        seat = table.to_act()
        assert seat is not None
        index = rng.randrange(len(state.legal_actions()))
        twin_action = twin.legal_actions()[index]
        assert str(twin_action) == str(state.legal_actions()[index])
        table.move(seat, table.version_of(seat), index=index)
        twin.apply_action(twin_action)
        twin.take_log()
        for v in viewers:
            seen = twin.describe_last(None if v == SPECTATOR else v)
            told[v] = f"P{seat}: {seen}" if seen else ""
            ever[v] |= set(pattern.findall(seen))
    assert table.error is None and state.is_terminal()
    assert checked > players * 3


def test_the_check_can_fail() -> None:
    # Guard: the view of one seat names the cards of its own hand, which another may not see.
    game = load_game("quasenbo", players=2)
    table = Table(game, ["human", "human"])
    assert table.state is not None
    hand = set(table.state.observation(0)["zones"]["hand"][0]["cards"])
    assert hand and not hand & _seen_now(table.state, 1)
    shown = json.dumps(view_frame(table, 0), ensure_ascii=False)
    assert hand <= set(_pattern(hand).findall(shown)) and hand <= _cards_in(view_frame(table, 0))
    assert not _pattern(hand).findall(json.dumps(view_frame(table, 1), ensure_ascii=False))
    assert not hand & _cards_in(view_frame(table, 1))


def test_a_say_is_told_to_each_viewer_as_he_sees_its_cards(tmp_path: Any) -> None:
    """Issue 37: each seat's transcript names a card a 'say' shows where he sees it, and only there."""
    from tests.unit.test_transcript import _told_game

    table = Table(_told_game(tmp_path, "{player} keeps {top of hand}"), ["human", "human"])
    assert table.state is not None
    played = table.state.legal_actions()[0]
    (kept,) = [c for c in table.state.observation(0)["zones"]["hand"][0]["cards"] if f"play {c}" != str(played)]
    table.move(0, table.version_of(0), index=0)
    assert f"  P0 keeps {kept}" in table.transcript(0)
    assert "  P0 keeps a hidden card" in table.transcript(1)
    assert "  P0 keeps a hidden card" in table.transcript(SPECTATOR)
