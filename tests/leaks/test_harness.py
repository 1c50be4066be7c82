"""The leak harness over every shipped game: no surface a seat reads changes when cards hidden from him swap.

CI runs small counts (about 30 s of one core). For the large run (about 15 times as much)::

    RULEDSL_LEAKS=long .venv/bin/python -m pytest -q -p no:cacheprovider tests/leaks/test_harness.py -s

which plays every game at each player count from 2 to 5 it allows and prints what it compared.
"""

from __future__ import annotations

import os

import pytest

import ruledsl
from ruledsl.resources import named_games
from ruledsl.tools import leaks

LONG = os.environ.get("RULEDSL_LEAKS") == "long"
GAMES = sorted(named_games())


def player_counts(name: str) -> list[int]:
    low, high = ruledsl.players_range(ruledsl.check_file(str(named_games()[name])))
    # A patience has one count: the cards hidden from its player (the stock) are checked too.
    counts = list(range(max(low, 2), min(high, 5) + 1)) or [low]
    if LONG:
        return counts
    return [3 if 3 in counts else counts[0]]


@pytest.mark.parametrize("name", GAMES)
def test_no_surface_tells_a_hidden_card(name: str) -> None:
    seeds, samples, swaps = (4, 4, 2) if LONG else (1, 3, 2)
    report = leaks.Report()
    for players in player_counts(name):
        game = ruledsl.load_game(name, players=players)
        leaks.check_game(game, range(seeds), samples, swaps, report)
    if LONG:
        print(
            f"\n{name}: {report.states:,} seat-states, {report.followed:,} twins followed, "
            f"{report.comparisons:,} comparisons, {len(report.leaks)} leaks"
        )
    assert report.comparisons > 0 and report.followed > 0
    assert set(report.by_surface) == set(leaks.SURFACES)
    assert not report.leaks, "\n".join(str(leak)[:400] for leak in report.leaks[:5])


def test_every_surface_is_checked() -> None:
    assert {
        "observation",
        "legal actions",
        "refusal reasons",
        "last action",
        "transcript",
        "table",
        "agent view",
        "process agent",
    } <= set(leaks.SURFACES)


def test_a_planted_leak_is_found() -> None:
    """A surface that reads the true zones is caught, with the seat, the surface and the cards."""
    game = ruledsl.load_game("crazy_eights", players=2)
    planted = {"zones": lambda st, seat, probe: [list(z) for z in st.zones]}
    report = leaks.check_game(game, range(1), 2, 2, leaks.Report(), surfaces=planted)
    assert report.leaks and report.leaks[0].surface == "zones"
    assert "swap" in str(report.leaks[0])


def test_a_surface_plugs_in_with_one_function() -> None:
    def hand_sizes(st: ruledsl.GameState, seat: int, probe: leaks.Probe) -> object:
        return [zone["size"] for zone in st.observation(seat)["zones"]["hand"]]

    try:
        leaks.register("hand sizes", hand_sizes)
        report = leaks.check_game(ruledsl.load_game("crazy_eights", players=2), range(1), 2, 2, leaks.Report())
        assert report.by_surface["hand sizes"] > 0 and not report.leaks
    finally:
        del leaks.SURFACES["hand sizes"]
