"""Fixed-seed games of the bundled games, played by random agents, pinned action by action.

Same file, options, seed and actions give the same game byte for byte: a change meant only
to make the engine faster must leave every game here as it was. Each game is pinned by its
returns, its length and a hash of its actions as their actors read them; rewrite
``fixed_seeds.json`` with ``--update-golden`` only for a change meant to alter play.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

import ruledsl
from ruledsl.tools.simulate import play_game

GOLDEN = Path(__file__).parent / "fixed_seeds.json"

#: (game, players, options, seeds): each bundled game, with its windows, auctions and options in play.
CASES: list[tuple[str, int, dict[str, Any], range]] = [
    ("cartes_magiques", 2, {}, range(8)),
    ("cartes_magiques", 4, {}, range(8)),  # two decks: cuts in out of turn
    ("cartes_magiques", 3, {"opening": "race", "faceup_fail": "all"}, range(6)),
    ("crazy_eights", 3, {}, range(6)),
    ("quasenbo", 2, {}, range(6)),
    ("katzenjammer_blues", 4, {}, range(4)),
]


def _case_id(game: str, players: int, options: dict[str, Any]) -> str:
    return " ".join([game, f"{players}p", *(f"{k}={v}" for k, v in sorted(options.items()))])


def _played(game: str, players: int, options: dict[str, Any], seeds: range) -> list[dict[str, Any]]:
    loaded = ruledsl.load_game(game, players=players, options=options)
    games = []
    for seed in seeds:
        record = play_game(loaded, seed, ["random"] * players, keep_labels=True)
        assert record.error is None, record.error
        assert record.labels is not None
        actions = "\n".join(f"P{p} {label}" for p, label in zip(record.actors, record.labels, strict=True))
        games.append(
            {
                "seed": seed,
                "returns": record.returns,
                "length": len(record.labels),
                "actions_sha256": hashlib.sha256(actions.encode()).hexdigest(),
            }
        )
    return games


@pytest.mark.parametrize("case", CASES, ids=[_case_id(*case[:3]) for case in CASES])
def test_fixed_seed_games_are_unchanged(
    case: tuple[str, int, dict[str, Any], range], request: pytest.FixtureRequest
) -> None:
    key = _case_id(*case[:3])
    actual = _played(*case)
    golden = json.loads(GOLDEN.read_text(encoding="utf-8")) if GOLDEN.exists() else {}
    if request.config.getoption("--update-golden") or key not in golden:
        missing = key not in golden
        golden[key] = actual
        GOLDEN.write_text(json.dumps(golden, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        if missing and not request.config.getoption("--update-golden"):
            # Pinned now for review, but no pass: a case without its pinned games checks nothing.
            pytest.fail(f"{key} was not pinned in {GOLDEN.name}: pinned now from this run; read it, then commit it")
    assert actual == golden[key]
