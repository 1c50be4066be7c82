"""The OpenSpiel bridge's ``resample_from_infostate`` under the leak harness (issue 41, item 2).

A resample is a surface an agent reads: at sampled states of random games, each seat's
resample (the cards as they lie after it, for the same sampler) must be the same in every
swap twin, two cards he cannot see exchanged. ``tests/bridges/test_chance.py`` checks the
same on Kuhn and Leduc by hand; this runs it over bundled games of every shape.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import ruledsl
from ruledsl.engine import knowledge
from ruledsl.engine.state import GameState
from ruledsl.tools import leaks
from tests.extras import require

pyspiel = require("pyspiel", "openspiel")
bridge = require("ruledsl.openspiel", "openspiel")


def _bridge_resample(name: str, players: int) -> leaks.Surface:
    """The cards as they lie in the bridge's resample for ``seat`` of a bridge state standing at ``st``."""
    from ruledsl.spaces import Decisions

    game = pyspiel.load_game("ruledsl", {"game": name, "players": players})

    def surface(st: GameState, seat: int, probe: leaks.Probe) -> Any:
        state = game.new_initial_state()
        play = state._play
        play.fresh = False  # stand at ``st``: its setup is made, nothing waits on chance
        play.decisions = Decisions(bridge._spaces(play.params).actions, st.clone())
        u = (probe.seed % 1000) / 1000
        resampled = state.resample_from_infostate(seat, lambda: u)
        dealt = resampled._play.decisions.state
        # What the table was told of each place (Hanabi's hints) stays with the place.
        told = [
            [v[c] for z in dealt.zones for c in z]
            for v, var in zip(dealt.cv, dealt.prog.card_vars)
            if var.visibility == "told"
        ]
        return [list.copy(z) for z in dealt.zones], told

    return surface


@pytest.mark.parametrize(("name", "players"), [("crazy_eights", 3), ("quasenbo", 2), ("hearts", 4), ("hanabi", 3)])
def test_a_bridge_resample_is_the_same_in_every_swap_twin(name: str, players: int) -> None:
    game = ruledsl.load_game(name, players=players)
    surfaces = {"bridge resample": _bridge_resample(name, players)}
    report = leaks.check_game(game, range(2), 3, 2, leaks.Report(), surfaces=surfaces, ahead=2)
    assert report.comparisons > 0 and not report.leaks, "\n".join(str(leak)[:400] for leak in report.leaks[:3])


def test_the_check_finds_a_resample_dealt_from_the_true_cards() -> None:
    """The bug of item 2: hidden cards dealt anew from where they really lie, with a sampler the caller
    picks, come back in an order the caller can undo. Such a resample differs between swap twins."""
    game = ruledsl.load_game("crazy_eights", players=3)

    def from_the_true_deal(st: GameState, seat: int, probe: leaks.Probe) -> Any:
        resampled = knowledge.resample(st, seat, random.Random(probe.seed))
        return [list.copy(z) for z in resampled.zones]

    report = leaks.check_game(game, range(1), 2, 2, leaks.Report(), surfaces={"true deal": from_the_true_deal}, ahead=1)
    assert report.leaks
