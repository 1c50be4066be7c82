"""The example games (games/examples): classic games written to learn from, found by name.

They get a short version of the bundled games' tests: they check clean and formatted, say
where their rules come from, and random playthroughs at their fewest and most players keep
the invariants of tests/property/test_playthrough.py (cards conserved, the end within the
bound, hidden cards hidden, replays identical), with few examples, to keep CI short.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import settings
from hypothesis.stateful import run_state_machine_as_test

import ruledsl
from ruledsl.format.fmt import format_source
from ruledsl.loading import check_file, players_range, resolve_path
from ruledsl.resources import example_games
from tests.golden.test_golden import run_cli
from tests.property.test_playthrough import Playthrough

EXAMPLES = sorted(example_games())


def test_there_are_examples_and_none_takes_a_bundled_games_name() -> None:
    assert {"old_maid", "oh_hell", "go_fish", "whist", "president", "durak"} <= set(EXAMPLES)
    assert not set(EXAMPLES) & set(ruledsl.bundled_games())


@pytest.mark.parametrize("name", EXAMPLES)
def test_an_example_checks_clean_and_formatted(name: str) -> None:
    checked = check_file(name)
    assert checked.warnings == ()
    text = example_games()[name].read_text(encoding="utf-8")
    assert format_source(text) == text


@pytest.mark.parametrize("name", EXAMPLES)
def test_an_example_says_where_its_rules_come_from(name: str) -> None:
    header = example_games()[name].read_text(encoding="utf-8").split('\ngame "')[0]
    assert "# Rules:" in header and "http" in header
    assert "# Shows:" in header


def _ends(name: str) -> list[tuple[str, int]]:
    return [(name, players) for players in players_range(check_file(name))]


@pytest.mark.parametrize(("name", "players"), [c for name in EXAMPLES for c in _ends(name)])
def test_random_playthroughs_of_an_example_keep_the_invariants(name: str, players: int) -> None:
    class Machine(Playthrough):
        pass

    Machine.game = ruledsl.load_game(name, players=players)
    run_state_machine_as_test(Machine, settings=settings(max_examples=3, stateful_step_count=40, deadline=None))


def test_an_example_is_found_by_name_listed_and_replayed(tmp_path: Path) -> None:
    assert resolve_path("old_maid") == example_games()["old_maid"]
    code, out, _ = run_cli(["list"])
    assert code == 0 and "examples" in out and "old_maid" in out
    assert "Old Maid (2-6 players)" in out and "Whist (4 players)" in out  # a fixed count reads as one
    record = tmp_path / "game.jsonl"
    code, _, _ = run_cli(["simulate", "old_maid", "-n", "1", "--players", "3", "--log", str(record)])
    assert code == 0
    line = json.loads(record.read_text(encoding="utf-8").splitlines()[0])
    assert (line["file"], line["bundled"]) == ("old_maid.game", True)
    code, out, err = run_cli(["replay", str(record)])
    assert (code, err) == (0, "") and "Old Maid" in out


def test_old_maid_has_one_loser_and_no_ranking_among_the_others() -> None:
    state = ruledsl.load_game("old_maid", players=4).new_initial_state(seed=3)
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    returns = state.returns()
    assert sorted(returns) == [-1.0, 1 / 3, 1 / 3, 1 / 3]


def test_whist_partners_win_together_and_so_have_equal_win_rates() -> None:
    code, out, _ = run_cli(["simulate", "whist", "-n", "30", "--seats", "random,random,random,random", "--json"])
    assert code == 0
    stats = json.loads(out)
    wins = [seat["wins"] for seat in stats["seats"]]
    assert wins[0] == wins[2] and wins[1] == wins[3] and wins[0] + wins[1] == 30
    assert (stats["shared_wins"], stats["draws"]) == (30, 0)
    assert stats["lead"]["games_with_change"] > 0  # a side leads, though no player ever leads alone
