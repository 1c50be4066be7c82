"""Simulation statistics: each metric of docs/metrics.md on hand-built game records, then real runs."""

from __future__ import annotations

import csv
import importlib.util
import json
import math
from pathlib import Path

import pytest

import ruledsl
from ruledsl import cli
from ruledsl.agents import AGENTS
from ruledsl.resources import bundled_games
from ruledsl.tools import simulate
from ruledsl.tools.simulate import (
    GameRecord,
    behind_threshold,
    binomial_p_value,
    chi_square_uniform,
    count_turns,
    declared_actions,
    distribution,
    game_columns,
    game_row,
    histogram,
    lead_changes,
    mean_interval,
    play_game,
    run_games,
    seats_for,
    summarize,
    wilson,
    winner_was_behind,
)
from tests.extras import require
from tests.golden.test_golden import run_cli


def record(
    returns: list[float],
    actors: list[int],
    names: list[str] | None = None,
    leaders: list[tuple[int, ...]] | None = None,
    agents: list[str] | None = None,
    truncated: bool = False,
    seed: int = 0,
) -> GameRecord:
    names = names if names is not None else ["play.place"] * len(actors)
    agents = agents if agents is not None else [f"a{q}" for q in range(len(returns))]
    return GameRecord(seed, agents, returns, truncated, actors, names, leaders)


class TestTurns:
    def test_a_turn_is_a_run_of_one_seats_actions(self) -> None:
        assert count_turns([0, 0, 1, 0, 1, 1, 1]) == 4

    def test_edge_cases(self) -> None:
        assert count_turns([]) == 0
        assert count_turns([2]) == 1
        assert count_turns([1, 1, 1]) == 1
        assert count_turns([0, 1, 0, 1]) == 4

    def test_record_counts_actions_and_turns(self) -> None:
        r = record([1, -1], [0, 1, 1, 0])
        assert (r.actions, r.turns) == (4, 3)


class TestWinners:
    def test_single_shared_draw_and_truncated(self) -> None:
        assert record([1, -1, -1], []).winners == [0]
        assert record([1, 1, -1], []).winners == [0, 1]
        assert record([0, 0], []).winners == []
        assert record([1, -1], [], truncated=True).winners == []


class TestLeadChanges:
    def test_counts_changes_of_the_sole_leader(self) -> None:
        leaders = [(0, 1), (0,), (0, 1), (0,), (1,), (0, 1), (1,), (0,)]
        # sole leaders in order: 0, 0, 1, 1, 0 -> two changes
        assert lead_changes(leaders) == 2

    def test_a_tie_then_the_same_leader_is_no_change(self) -> None:
        assert lead_changes([(0,), (0, 1), (0,), (0, 1, 2), (0,)]) == 0

    def test_caught_then_passed_is_one_change(self) -> None:
        assert lead_changes([(0,), (0, 1), (1,)]) == 1

    def test_no_sole_leader_no_change(self) -> None:
        assert lead_changes([(0, 1), (0, 1)]) == 0
        assert lead_changes([]) == 0

    def test_the_first_sole_leader_is_not_a_change(self) -> None:
        assert lead_changes([(0, 1), (1,), (1,)]) == 0

    def test_partners_who_always_lead_together_lead_as_a_side(self) -> None:
        # Seats 0 and 2 against 1 and 3: a tie of all four is skipped, as a tie of two players is.
        sides = [(0, 1, 2, 3), (0, 2), (0, 1, 2, 3), (0, 2), (1, 3), (1, 3), (0, 2)]
        assert lead_changes(sides) == 2


class TestWinnerBehind:
    # leaders[k]: after k actions (leaders[0]: after setup)
    LEADERS = [(0, 1), (0,), (0, 1), (1,), (1,), (0,), (0,)]

    def test_behind_anywhere(self) -> None:
        assert winner_was_behind(self.LEADERS, [0], 0)  # after actions 3 and 4
        assert winner_was_behind(self.LEADERS, [1], 0)  # after action 1

    def test_threshold_in_actions(self) -> None:
        assert winner_was_behind(self.LEADERS, [0], 4)  # after action 4
        assert not winner_was_behind(self.LEADERS, [0], 5)
        assert winner_was_behind(self.LEADERS, [1], 6)  # the final state counts

    def test_threshold_in_percent_of_the_game(self) -> None:
        assert behind_threshold("50%", 6) == 3
        assert behind_threshold("10%", 6) == 1  # rounded up
        assert behind_threshold(4, 6) == 4
        assert winner_was_behind(self.LEADERS, [0], "50%")
        assert not winner_was_behind(self.LEADERS, [0], "75%")  # from action 5 on

    def test_shared_winners_count_if_any_was_behind(self) -> None:
        assert winner_was_behind([(0, 1), (0,), (0, 1)], [0, 1], 0)
        assert not winner_was_behind([(0, 1), (0, 1)], [0, 1], 0)


class TestIntervalsAndTests:
    def test_wilson_known_values(self) -> None:
        lo, hi = wilson(5, 10)
        assert lo == pytest.approx(0.2366, abs=1e-4) and hi == pytest.approx(0.7634, abs=1e-4)
        lo, hi = wilson(0, 10)
        assert lo == 0.0 and hi == pytest.approx(0.2775, abs=1e-4)
        lo, hi = wilson(150, 200)
        assert lo == pytest.approx(0.6857, abs=1e-4) and hi == pytest.approx(0.8049, abs=1e-4)
        assert wilson(0, 0) == (0.0, 1.0)

    @pytest.mark.parametrize("trials", [1, 2, 3, 7, 10, 99, 200, 1000])
    def test_wilson_holds_the_rate_at_none_and_all(self, trials: int) -> None:
        # Rounding once put 0 of 3 above its lower bound, and the plot refused the interval.
        for wins in (0, trials):
            lo, hi = wilson(wins, trials)
            assert 0.0 <= lo <= wins / trials <= hi <= 1.0

    def test_binomial_two_sided(self) -> None:
        # As R's binom.test: outcomes no more likely than the observed one.
        assert binomial_p_value(9, 10, 0.5) == pytest.approx(0.02148, abs=1e-5)
        assert binomial_p_value(5, 10, 0.5) == pytest.approx(1.0)
        assert binomial_p_value(60, 100, 0.5) == pytest.approx(0.05689, abs=1e-5)
        assert binomial_p_value(20, 40, 1 / 3) == pytest.approx(0.029372, abs=1e-6)  # exact, with fractions
        assert binomial_p_value(0, 0, 0.5) == 1.0

    def test_chi_square(self) -> None:
        stat, df, p = chi_square_uniform([10, 20])
        assert (stat, df) == (pytest.approx(10 / 3), 1)
        assert p == pytest.approx(0.06789, abs=1e-5)
        assert chi_square_uniform([30, 30, 30])[2] == pytest.approx(1.0)
        # Critical values at 5%: 5.991 (2 df), 11.070 (5 df), 31.410 (20 df).
        from ruledsl.tools.simulate import _chi_square_sf

        assert _chi_square_sf(5.991, 2) == pytest.approx(0.05, abs=1e-4)
        assert _chi_square_sf(11.070, 5) == pytest.approx(0.05, abs=1e-4)
        assert _chi_square_sf(31.410, 20) == pytest.approx(0.05, abs=1e-4)
        assert chi_square_uniform([0, 0]) == (0.0, 1, 1.0)


class TestDistribution:
    def test_quantiles_interpolate(self) -> None:
        d = distribution([1, 2, 3, 4, 10])
        assert d["mean"] == 4 and d["median"] == 3 and d["min"] == 1 and d["max"] == 10
        assert d["p10"] == pytest.approx(1.4) and d["p90"] == pytest.approx(7.6)
        assert d["stdev"] == pytest.approx(math.sqrt(50 / 4))

    def test_histogram_bins_cover_every_value(self) -> None:
        h = histogram([3, 3, 4, 10], bins=4)
        assert h["edges"][0] == 3 and h["edges"][-1] > 10
        assert sum(h["counts"]) == 4 and len(h["counts"]) == len(h["edges"]) - 1
        assert h["counts"][0] == 3  # 3, 3, 4 in [3, 5)


class TestSummary:
    def records(self) -> list[GameRecord]:
        return [
            record([1, -1], [0, 1, 0], ["p.a", "p.b", "p.a"], [(0, 1), (0,), (0, 1), (0,)], ["x", "y"]),
            record([-1, 1], [1, 0, 1, 1], ["p.a", "p.a", "p.a", "p.a"], [(0, 1), (1,), (0,), (1,), (1,)], ["y", "x"]),
            record([0, 0], [0, 1], ["p.a", "p.c"], [(0, 1), (0,), (0, 1)], ["x", "y"]),
            record([0, 0], [0], ["p.a"], [(0, 1), (0,)], ["y", "x"], truncated=True),
        ]

    def test_counts(self) -> None:
        s = summarize(self.records(), 2, declared_actions=["p.a", "p.b", "p.c", "p.never"], behind_after=0)
        assert s["games"] == 4 and s["draws"] == 1 and s["truncated"] == 1 and s["shared_wins"] == 0
        assert [row["agent"] for row in s["seats"]] == ["rotated", "rotated"]
        assert [row["wins"] for row in s["seats"]] == [1, 1]
        agents = {row["agent"]: row for row in s["agents"]}
        assert agents["x"]["seat_games"] == 4 and agents["x"]["wins"] == 2
        assert agents["y"]["wins"] == 0
        assert agents["x"]["ci95"] == pytest.approx(list(wilson(2, 4)))

    def test_payoffs_are_each_seats_mean_return_with_its_interval(self) -> None:
        games = [record([2, -2], [0]), record([-1, 1], [0]), record([1, -1], [0]), record([0, 0], [0], truncated=True)]
        payoffs = summarize(games, 2, scores=True)["payoffs"]
        assert [row["seat"] for row in payoffs] == [0, 1]
        assert payoffs[0]["mean"] == pytest.approx(0.5) and payoffs[1]["mean"] == pytest.approx(-0.5)
        assert payoffs[0]["ci95"] == pytest.approx(mean_interval([2, -1, 1, 0]))
        assert summarize(games, 2)["payoffs"] is None  # places: the mean return says it all

    def test_first_player_is_who_acted_first(self) -> None:
        s = summarize(self.records(), 2)
        f = s["first_player"]
        # first actors 0, 1, 0, 0; winners [0], [1], -, - : of the two games won alone, the first player won both
        assert (f["games"], f["wins"], f["seats"]) == (2, 2, [3, 1])
        assert f["p_value"] == pytest.approx(binomial_p_value(2, 2, 0.5))
        assert s["seat_test"]["games"] == 2

    def test_first_player_test_ignores_shared_wins_and_unfinished_games(self) -> None:
        # 3 players, the seats take turns opening. Shared wins include the opener; games
        # stopped at the bound have no winner. Neither says anything about going first:
        # over the 30 games won alone, the opener won 10, an equal share.
        games = []
        for i in range(30):
            first = i // 3 % 3
            returns = [-1.0] * 3
            returns[(first + i) % 3] = 1.0  # the opener wins alone when i % 3 == 0: 10 games of 30
            games.append(record(returns, [first, (first + 1) % 3]))
            shared = [1.0, 1.0, 1.0]
            shared[(first + 2) % 3] = -1.0
            games.append(record(shared, [first]))
            games.append(record([0.0, 0.0, 0.0], [first], truncated=True))
        f = summarize(games, 3)["first_player"]
        assert (f["games"], f["wins"], f["expected"]) == (30, 10, pytest.approx(1 / 3))
        assert f["p_value"] == pytest.approx(1.0)

    def test_lengths(self) -> None:
        s = summarize(self.records(), 2)
        assert s["length"]["actions"]["max"] == 4 and s["length"]["actions"]["min"] == 1
        assert s["length"]["turns"]["mean"] == pytest.approx((3 + 3 + 2 + 1) / 4)

    def test_leads(self) -> None:
        s = summarize(self.records(), 2, behind_after=0)
        lead = s["lead"]
        assert lead["games"] == 4
        assert lead["changes"]["max"] == 2  # game 2: 1 -> 0 -> 1
        assert lead["games_with_change"] == 1
        behind = lead["winner_was_behind"]
        assert (behind["games"], behind["behind"]) == (2, 1)  # game 2: P1 trailed after 2 actions

    def test_action_shares_list_never_taken_actions(self) -> None:
        s = summarize(self.records(), 2, declared_actions=["p.a", "p.b", "p.c", "p.never"])
        acts = s["actions"]
        assert acts["p.a"]["share"] == 1.0 and acts["p.a"]["per_game"] == pytest.approx(8 / 4)
        assert acts["p.b"]["games"] == 1 and acts["p.c"]["share"] == 0.25
        assert acts["p.never"] == {"games": 0, "share": 0.0, "per_game": 0.0}
        assert list(acts)[-1] == "p.never"

    def test_no_standing_no_lead(self) -> None:
        s = summarize([record([1, -1], [0, 1])], 2)
        assert s["lead"] is None

    def test_fixed_seats_are_named(self) -> None:
        s = summarize([record([1, -1], [0], agents=["ismcts", "random"])], 2, seats=["ismcts", "random"])
        assert [row["agent"] for row in s["seats"]] == ["ismcts", "random"]
        assert s["seats"][0]["win_rate"] == 1.0


class TestGameRows:
    """--csv: one row per game, of the values the summary is computed from."""

    def test_each_outcome_on_hand_built_records(self) -> None:
        games = [*TestSummary().records(), record([1, 1, -1], [2, 0], seed=9)]
        rows = [game_row(r, 0) for r in games]
        assert game_columns(2)[:5] == ["seed", "agent_P0", "agent_P1", "return_P0", "return_P1"]
        assert game_columns(2)[5:] == [
            "winners",
            "outcome",
            "first_player",
            "actions",
            "turns",
            "truncated",
            "lead_changes",
            "winner_was_behind",
        ]
        assert rows[0] == [0, "x", "y", 1.0, -1.0, "P0", "win", "P0", 3, 3, "false", 0, "false"]
        assert rows[1] == [0, "y", "x", -1.0, 1.0, "P1", "win", "P1", 4, 3, "false", 2, "true"]
        assert rows[2] == [0, "x", "y", 0.0, 0.0, "", "draw", "P0", 2, 2, "false", 0, ""]
        assert rows[3] == [0, "y", "x", 0.0, 0.0, "", "truncated", "P0", 1, 1, "true", 0, ""]
        # Without 'standing:' there are no leads to count; a shared win names every winner.
        assert rows[4] == [9, "a0", "a1", "a2", 1.0, 1.0, -1.0, "P0 P1", "shared_win", "P2", 2, 2, "false", "", ""]
        assert len(rows[4]) == len(game_columns(3))

    def test_a_game_without_actions_has_no_first_player(self) -> None:
        assert game_row(record([1, -1], []), "50%")[7] == ""

    @staticmethod
    def run(tmp_path: Path, name: str, *argv: str) -> tuple[list[dict[str, str]], dict]:
        table = tmp_path / name
        code, out, _ = run_cli(["simulate", *argv, "--json", "--csv", str(table)])
        assert code == 0
        with open(table, encoding="utf-8", newline="") as f:
            return list(csv.DictReader(f)), json.loads(out)

    @pytest.mark.parametrize(
        "argv",
        [
            ["quasenbo", "-n", "12", "--seed", "3", "--max-actions", "40"],
            ["katzenjammer_blues", "-n", "6", "--players", "3", "--seats", "random,first,random", "--rotate"],
        ],
    )
    def test_the_rows_add_up_to_the_report(self, tmp_path: Path, argv: list[str]) -> None:
        rows, stats = self.run(tmp_path, "games.csv", *argv)
        players = stats["players"]
        assert [int(row["seed"]) for row in rows] == list(range(stats["seed"], stats["seed"] + stats["games"]))
        outcomes = [row["outcome"] for row in rows]
        assert outcomes.count("draw") == stats["draws"]
        assert outcomes.count("shared_win") == stats["shared_wins"]
        assert outcomes.count("truncated") == stats["truncated"] == sum(row["truncated"] == "true" for row in rows)
        for q in range(players):
            wins = sum(f"P{q}" in row["winners"].split() for row in rows)
            assert wins == stats["seats"][q]["wins"]
            mean = sum(float(row[f"return_P{q}"]) for row in rows) / len(rows)
            assert mean == pytest.approx(stats["seats"][q]["mean_return"])
        for agent in stats["agents"]:
            seat_games = sum(row[f"agent_P{q}"] == agent["agent"] for row in rows for q in range(players))
            assert seat_games == agent["seat_games"]
        assert sum(int(row["actions"]) for row in rows) / len(rows) == pytest.approx(stats["length"]["actions"]["mean"])
        assert sum(int(row["turns"]) for row in rows) / len(rows) == pytest.approx(stats["length"]["turns"]["mean"])
        assert [sum(row["first_player"] == f"P{q}" for row in rows) for q in range(players)] == stats["first_player"][
            "seats"
        ]
        lead = stats["lead"]
        assert sum(int(row["lead_changes"]) > 0 for row in rows) == lead["games_with_change"]
        assert sum(row["winner_was_behind"] == "true" for row in rows) == lead["winner_was_behind"]["behind"]
        assert sum(row["winner_was_behind"] != "" for row in rows) == lead["winner_was_behind"]["games"]

    def test_the_same_run_writes_the_same_bytes_whatever_the_jobs(self, tmp_path: Path) -> None:
        argv = ["quasenbo", "-n", "8", "--seats", "random,first"]
        self.run(tmp_path, "one.csv", *argv)
        self.run(tmp_path, "two.csv", *argv, "--jobs", "2")
        (tmp_path / "old.csv").write_text("a table of another run\n" * 50, encoding="utf-8")
        self.run(tmp_path, "old.csv", *argv)  # a table is written anew, never appended to
        one = (tmp_path / "one.csv").read_bytes()
        assert one == (tmp_path / "two.csv").read_bytes() == (tmp_path / "old.csv").read_bytes()
        assert one.startswith(b"seed,agent_P0,agent_P1,return_P0,return_P1,winners,") and b"\r" not in one
        assert one.count(b"\n") == 9

    @pytest.mark.parametrize(
        "name, message",
        [
            ("missing/games.csv", "cannot write the table '{tmp}/missing/games.csv': no folder '{tmp}/missing'"),
            (".", "--csv names a file to write, and '{tmp}' is a directory"),
        ],
    )
    def test_a_table_that_cannot_be_written_is_refused_before_any_game(
        self, tmp_path: Path, name: str, message: str
    ) -> None:
        log = tmp_path / "games.jsonl"
        code, out, err = run_cli(["simulate", "quasenbo", "-n", "2", "--log", str(log), "--csv", str(tmp_path / name)])
        assert (code, out) == (2, "")
        assert err == f"ruledsl: error: {message.format(tmp=tmp_path)}\n"
        assert not log.exists()  # nothing played, nothing written


class TestRuns:
    def test_rotation(self) -> None:
        assert seats_for(0, ["a", "b", "c"], True) == ["a", "b", "c"]
        assert seats_for(1, ["a", "b", "c"], True) == ["b", "c", "a"]
        assert seats_for(5, ["a", "b"], False) == ["a", "b"]

    def test_a_played_game_fills_its_record(self) -> None:
        game = ruledsl.load_game("quasenbo", players=3)
        r = play_game(game, 4, ["random", "first", "random"], keep_labels=True)
        assert len(r.actors) == len(r.names) == len(r.labels or []) == r.actions > 0
        assert r.leaders is not None and len(r.leaders) == r.actions + 1
        assert set(r.names) <= set(declared_actions(game))
        assert r.agents == ["random", "first", "random"]

    def test_results_do_not_depend_on_jobs(self) -> None:
        game = ruledsl.load_game("crazy_eights", players=2)
        seeds = list(range(10))
        seen: list[int] = []
        one = run_games(game, seeds, ["random", "first"], jobs=1, rotate=True)
        two = run_games(game, seeds, ["random", "first"], jobs=2, rotate=True, progress=lambda r: seen.append(r.seed))
        assert one == two
        assert seen == seeds  # each game is handed on as it ends, in seed order, from every process
        assert [r.agents[0] for r in one[:2]] == ["random", "first"]
        assert [r.seed for r in one] == seeds

    def test_declared_actions_name_phases_and_windows(self) -> None:
        names = declared_actions(ruledsl.load_game("cartes_magiques", players=3))
        assert {"play.play", "cut.cut", "cut.pass", "complete.pass", "opening.open"} <= set(names)


class TestSimulateCommand:
    def test_the_report_names_the_options_and_keeps_the_time_apart(self, capsys: pytest.CaptureFixture[str]) -> None:
        assert cli.main(["simulate", "quasenbo", "-n", "4", "--option", "double=yes"]) == 0
        first = capsys.readouterr()
        assert "\noptions: courts=no, decks=1, double=yes, " in first.out
        assert "\ntime " not in first.out and first.err.startswith("time ")
        assert cli.main(["simulate", "quasenbo", "-n", "4", "--option", "double=yes"]) == 0
        assert capsys.readouterr().out == first.out  # byte for byte

    def test_json_names_the_rules_and_the_version(self, capsys: pytest.CaptureFixture[str]) -> None:
        assert cli.main(["simulate", "quasenbo", "-n", "2", "--json"]) == 0
        stats = json.loads(capsys.readouterr().out)
        assert stats["file"] == "quasenbo" and len(stats["rules_sha256"]) == 64
        assert stats["ruledsl"] == ruledsl.__version__ and stats["max_actions"] == 20_000
        assert "to refill" in stats["rules"]

    def test_max_actions_bounds_each_game_and_is_reported(self, capsys: pytest.CaptureFixture[str]) -> None:
        argv = ["simulate", "quasenbo", "-n", "8", "--seed", "3", "--max-actions", "40", "--json"]
        assert cli.main(argv) == 0
        stats = json.loads(capsys.readouterr().out)
        assert stats["max_actions"] == 40
        assert stats["length"]["actions"]["max"] == 40
        assert stats["truncated"] == 5  # games 3..10 at this bound: 3 end, 5 are stopped
        assert cli.main([*argv, "--jobs", "2"]) == 0
        again = json.loads(capsys.readouterr().out)
        assert {**again, "seconds": 0} == {**stats, "seconds": 0}  # the worker processes keep the bound

    def test_max_actions_is_logged_so_that_a_replay_stops_where_the_game_did(
        self, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        log = tmp_path / "games.jsonl"
        assert cli.main(["simulate", "quasenbo", "-n", "1", "--max-actions", "30", "--log", str(log)]) == 0
        record = json.loads(log.read_text(encoding="utf-8"))
        assert (record["max_actions"], record["truncated"], len(record["actions"])) == (30, True, 30)
        capsys.readouterr()
        assert cli.main(["replay", str(log)]) == 0
        assert capsys.readouterr().out.splitlines()[-1] == (
            "Result: stopped at the action bound, after 30 actions, without an end: no winner"
        )

    @pytest.mark.parametrize(
        "argv, message",
        [
            (["--max-actions", "0"], "--max-actions takes a number of actions of at least 1, not 0"),
            (["--max-actions", "-5"], "--max-actions takes a number of actions of at least 1, not -5"),
            (["--max-actions", "many"], "argument --max-actions: invalid int value: 'many'"),
            (["--option", "double=yes", "--option", "double=no"], "--option double is given twice"),
            (["--seats", "ismcts:iterations=1:iterations=2,random"], "agent option 'iterations' is given twice"),
            (["--seats", "ismcts:c=nan,random"], "ismcts option 'c' takes a number, not 'nan'"),
            (["--seats", "ismcts:c=inf,random"], "ismcts option 'c' takes a number, not 'inf'"),
        ],
    )
    def test_refused(self, capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
        with pytest.raises(SystemExit) as info:
            cli.main(["simulate", "quasenbo", "-n", "2", *argv])
        assert info.value.code == 2 and message in capsys.readouterr().err

    def test_one_agent_however_spelt(self, capsys: pytest.CaptureFixture[str]) -> None:
        assert cli.main(["simulate", "quasenbo", "-n", "2", "--seats", "RANDOM, random", "--json"]) == 0
        stats = json.loads(capsys.readouterr().out)
        assert [a["agent"] for a in stats["agents"]] == ["random"]

    def test_rotate_warns_when_seats_cannot_even_out(self, capsys: pytest.CaptureFixture[str]) -> None:
        assert cli.main(["simulate", "quasenbo", "-n", "3", "--rotate"]) == 0
        assert "make -n a multiple of 2" in capsys.readouterr().err
        assert cli.main(["simulate", "quasenbo", "-n", "4", "--rotate"]) == 0
        assert "warning" not in capsys.readouterr().err

    def test_help_lists_every_agent_and_option(self, capsys: pytest.CaptureFixture[str]) -> None:
        with pytest.raises(SystemExit):
            cli.main(["simulate", "--help"])
        out = capsys.readouterr().out
        for name, factory in AGENTS.items():
            assert f"\n  {name} " in out or f"\n  {name}:COMMAND " in out
            for key in factory.OPTIONS:
                assert f" {key}=" in out or "the options of ismcts" in out or (name, key) == ("process", "command")
        assert "human" not in out.split("agents for --seats")[1]
        assert "game i is played with seed S+i" in " ".join(out.split())
        assert "--max-actions N" in out and "(default 20,000)" in " ".join(out.split())
        assert "--csv FILE.csv" in out and "one row per game" in out

    def test_an_interrupted_run_keeps_the_games_it_finished(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
    ) -> None:
        played = simulate.play_game

        def until_seed_3(game: ruledsl.Game, seed: int, seats: list[str], keep_labels: bool = False) -> GameRecord:
            if seed == 3:
                raise KeyboardInterrupt
            return played(game, seed, seats, keep_labels)

        monkeypatch.setattr(simulate, "play_game", until_seed_3)
        log = tmp_path / "games.jsonl"
        assert cli.main(["simulate", "quasenbo", "-n", "10", "--log", str(log)]) == 130
        assert [json.loads(line)["seed"] for line in log.read_text().splitlines()] == [0, 1, 2]
        assert f"3 finished games of 10 kept in {log}\n" in capsys.readouterr().err
        table = tmp_path / "games.csv"
        assert cli.main(["simulate", "quasenbo", "-n", "10", "--csv", str(table)]) == 130
        assert [line.split(",")[0] for line in table.read_text().splitlines()] == ["seed", "0", "1", "2"]
        assert f"3 finished games of 10 kept in {table}\n" in capsys.readouterr().err
        assert cli.main(["simulate", "quasenbo", "-n", "10", "--log", str(log), "--csv", str(table)]) == 130
        assert f"3 finished games of 10 kept in {log} and {table}\n" in capsys.readouterr().err

    def test_plot_draws_extreme_rates(self, tmp_path: Path) -> None:
        require("matplotlib", "plot")
        # Seat P1 wins none of these 3 games: the interval of a rate of 0 once broke the plot.
        target = tmp_path / "rates"
        assert cli.main(["simulate", "quasenbo", "-n", "3", "--plot", str(target)]) == 0
        assert (tmp_path / "rates.png").read_bytes()[:4] == b"\x89PNG"  # no extension: a PNG, as the report says

    def test_plot_counts_games_in_whole_numbers(self) -> None:
        require("matplotlib", "plot")
        import matplotlib.pyplot as plt

        # 35 games in 17 bins: matplotlib's own ticks counted them in halves (17.5 games).
        records = [record([1, -1], [0] * (10 + (k % 17)), seed=k) for k in range(35)]
        fig = simulate.figure(summarize(records, 2))
        try:
            ticks = fig.axes[1].get_yticks()
            assert len(ticks) > 2 and all(t == int(t) for t in ticks)
        finally:
            plt.close(fig)

    @pytest.mark.parametrize(
        "name, message",
        [
            ("out.xyz", "--plot cannot draw a '.xyz' file; name a file ending in one of: "),
            ("missing/out.png", "cannot write the plot '{tmp}/missing/out.png': no folder '{tmp}/missing'"),
            (".", "--plot names a file to draw into, and '{tmp}/.' is a directory"),
        ],
    )
    def test_plot_refused_before_any_game(
        self, tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, message: str
    ) -> None:
        require("matplotlib", "plot")
        log = tmp_path / "games.jsonl"
        with pytest.raises(SystemExit) as info:
            cli.main(["simulate", "quasenbo", "-n", "2", "--log", str(log), "--plot", f"{tmp_path}/{name}"])
        assert info.value.code == 2
        assert message.format(tmp=tmp_path) in capsys.readouterr().err
        assert not log.exists()  # nothing played, nothing written

    def test_plot_without_matplotlib(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
    ) -> None:
        real = importlib.util.find_spec
        monkeypatch.setattr(importlib.util, "find_spec", lambda name: None if name == "matplotlib" else real(name))
        with pytest.raises(SystemExit) as info:
            cli.main(["simulate", "quasenbo", "-n", "2", "--plot", str(tmp_path / "p.png")])
        assert info.value.code == 2
        assert "--plot needs matplotlib: pip install 'ruledsl[plot]'" in capsys.readouterr().err


def quasenbo_say(text: str) -> str:
    """The counted name of Quäsenbö's 'say' of ``text``: its line moves when the file is edited."""
    lines = bundled_games()["quasenbo"].read_text(encoding="utf-8").splitlines()
    line = next(i for i, t in enumerate(lines, 1) if "say" in t and f'"{text}' in t)
    return f'line {line}: say "{text}'


class TestRulesFired:
    def test_counted_in_the_game_not_in_its_copies(self) -> None:
        game = ruledsl.load_game("quasenbo", players=2)
        events = game.program.events
        assert events == (
            "to refill",
            "to draw_card",
            "to after_playing",
            quasenbo_say("Quäsenbö! {player} draws a penalty card") + '" …',
        )
        state = game.new_initial_state(seed=5, count=True)
        copy = state.clone()
        assert copy.fired is None and game.new_initial_state(seed=5).fired is None
        plays = 0
        while not state.is_terminal():
            action = state.legal_actions()[0]
            plays += action.name == "place"
            state.apply_action(action)
            copy = state.clone()
            copy.apply_action(copy.legal_actions()[0]) if not copy.is_terminal() else None
        fired = dict(zip(events, state.fired or (), strict=True))
        assert fired["to after_playing"] == plays  # after every card played, and only in the game itself
        assert fired["to refill"] == fired["to draw_card"] > 0

    def test_a_run_reports_each_rule_and_announcement(self) -> None:
        game = ruledsl.load_game("quasenbo", players=2)
        records = run_games(game, list(range(20)), ["random", "random"])
        stats = summarize(records, 2, declared_rules=game.program.events)
        penalty = stats["rules"][quasenbo_say("Quäsenbö! {player} draws a penalty card") + '" …']
        assert 0 < penalty["games"] <= 20 and penalty["per_game"] >= penalty["share"]
        assert stats["rules"]["to after_playing"]["share"] == 1.0
        order = list(game.program.events)
        assert list(stats["rules"]) == sorted(order, key=lambda k: -stats["rules"][k]["games"])

    def test_shares_on_hand_built_records(self) -> None:
        records = [record([1, -1], [0]), record([1, -1], [0]), record([-1, 1], [0]), record([-1, 1], [0])]
        records[0].fired = {"to a": 3, "say b": 1}
        records[1].fired = {"to a": 1}
        stats = summarize(records, 2, declared_rules=["to a", "say b", "to never"])
        assert stats["rules"] == {
            "to a": {"games": 2, "share": 0.5, "per_game": 1.0},
            "say b": {"games": 1, "share": 0.25, "per_game": 0.25},
            "to never": {"games": 0, "share": 0.0, "per_game": 0.0},
        }

    def test_a_rule_under_an_option_that_is_off_is_not_listed(self) -> None:
        off = ruledsl.load_game("quasenbo", players=2).program.events
        on = ruledsl.load_game("quasenbo", players=2, options={"play_on": "yes"}).program.events
        out = quasenbo_say("{player} is out") + '"'
        assert out in on and out not in off


class TestValuesThatDoNotExist:
    def test_no_decided_game(self) -> None:
        stopped = [record([0, 0], [0, 1], leaders=[(0, 1), (0,), (1,)], truncated=True)] * 2
        s = summarize(stopped, 2)
        assert s["first_player"]["games"] == 0 and s["first_player"]["p_value"] is None
        assert s["first_player"]["win_rate"] is None
        assert s["seat_test"]["p_value"] is None and s["seat_test"]["chi2"] is None
        assert s["lead"]["winner_was_behind"]["share"] is None

    def test_one_game_has_no_standard_deviation(self) -> None:
        assert distribution([5])["stdev"] is None
        assert distribution([5, 7])["stdev"] == pytest.approx(math.sqrt(2))

    def test_report_says_so(self, capsys: pytest.CaptureFixture[str]) -> None:
        assert cli.main(["simulate", "quasenbo", "-n", "1"]) == 0
        out = capsys.readouterr().out
        assert "sd n/a" in out and "-0.000" not in out
