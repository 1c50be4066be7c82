"""ruledsl sweep: every combination of option values and player counts, one row each, as a table and a plot."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pytest

from ruledsl import cli
from ruledsl.cli import progress
from ruledsl.tools.simulate import GameRecord
from ruledsl.tools.sweep import combinations, mean_interval, sweep_row
from tests.extras import require


def _run_json(capsys: pytest.CaptureFixture[str], argv: list[str]) -> dict[str, Any]:
    assert cli.main(argv) == 0
    return json.loads(capsys.readouterr().out)


class TestCombinations:
    def test_player_counts_outermost_then_the_options_as_given(self) -> None:
        combos = combinations([3, 4], {"hand_size": ["5", "7"], "double": ["no", "yes"]})
        assert combos[:3] == [
            (3, {"hand_size": "5", "double": "no"}),
            (3, {"hand_size": "5", "double": "yes"}),
            (3, {"hand_size": "7", "double": "no"}),
        ]
        assert len(combos) == 8 and combos[4] == (4, {"hand_size": "5", "double": "no"})

    def test_the_mean_and_its_interval(self) -> None:
        assert mean_interval([]) == (None, None)
        assert mean_interval([4.0]) == (4.0, None)
        mean, (low, high) = mean_interval([1.0, 3.0])  # sd sqrt(2), se 1
        assert mean == 2.0 and high - mean == pytest.approx(1.959963984540054) and mean - low == high - mean

    def test_a_row_gives_each_seats_mean_payoff_in_a_game_of_payoffs(self) -> None:
        records = [
            GameRecord(s, ["random"] * 2, r, False, [0], ["p.a"], None) for s, r in enumerate([[2, -2], [-1, 1]])
        ]
        payoffs = sweep_row(2, {}, records, scores=True)["payoffs"]
        assert [(p["seat"], p["mean"]) for p in payoffs] == [(0, 0.5), (1, -0.5)]
        assert sweep_row(2, {}, records)["payoffs"] is None


class TestSweepCommand:
    def test_a_sweep_writes_its_table_and_plot(self, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        require("matplotlib", "plot")
        table, as_json, picture = tmp_path / "sweep.csv", tmp_path / "sweep.json", tmp_path / "sweep.png"
        argv = ["sweep", "quasenbo", "--vary", "hand_size=5,7", "--players", "2,3", "-n", "20", "--seed", "7"]
        assert cli.main([*argv, "--out", str(table), "--plot", str(picture)]) == 0
        out = capsys.readouterr().out.splitlines()
        assert (
            out[0]
            == "Quäsenbö: 20 games for each of 4 combinations, random in every seat, the same seeds 7..26 for each"
        )
        assert [line.split("  ")[0] for line in out[1:5]] == [
            "2 players, hand_size=5",
            "2 players, hand_size=7",
            "3 players, hand_size=5",
            "3 players, hand_size=7",
        ]
        assert out[5:] == [f"table: {table}", f"plot: {picture}"]
        rows = list(csv.DictReader(table.read_text(encoding="utf-8").splitlines()))
        assert [(r["players"], r["hand_size"]) for r in rows] == [("2", "5"), ("2", "7"), ("3", "5"), ("3", "7")]
        assert rows[0]["win_rate_P2"] == "" and rows[2]["win_rate_P2"] != ""  # no third seat with two players
        assert picture.read_bytes()[:4] == b"\x89PNG"
        assert cli.main([*argv, "--out", str(as_json)]) == 0
        capsys.readouterr()
        result = json.loads(as_json.read_text(encoding="utf-8"))
        assert result["varied"] == {"hand_size": ["5", "7"]} and len(result["rows"]) == 4

        # A row says what simulate says of the same games.
        alone = ["simulate", "quasenbo", "--players", "3", "--option", "hand_size=7", "-n", "20", "--seed", "7"]
        stats = _run_json(capsys, [*alone, "--json"])
        row = result["rows"][3]
        assert [s["win_rate"] for s in row["seats"]] == [s["win_rate"] for s in stats["seats"]]
        assert [s["ci95"] for s in row["seats"]] == [s["ci95"] for s in stats["seats"]]
        assert row["first_player"]["win_rate"] == stats["first_player"]["win_rate"]
        assert row["mean_actions"] == stats["length"]["actions"]["mean"]
        assert float(rows[3]["mean_actions"]) == row["mean_actions"]

    def test_jobs_give_the_same_table(self, capsys: pytest.CaptureFixture[str]) -> None:
        argv = ["sweep", "quasenbo", "--vary", "pawns=no,yes", "--players", "2,3", "-n", "12", "--json"]
        assert _run_json(capsys, [*argv, "--jobs", "2"]) == _run_json(capsys, argv)

    @pytest.mark.parametrize(
        ("argv", "message"),
        [
            (["--vary", "hand_sze=5,7"], "error[E601]: 'Quäsenbö' has no option 'hand_sze'"),
            (["--vary", "hand_size=5,70"], "error[E602]: option 'hand_size' must be from 1 to 12, not 70"),
            (["--players", "1,2"], "error[E603]: 'Quäsenbö' is for 2 to 6 players, not 1"),
        ],
    )
    def test_options_and_players_are_checked_as_everywhere(
        self, argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
    ) -> None:
        assert cli.main(["sweep", "quasenbo", "-n", "3", *argv]) == 2
        assert message in capsys.readouterr().err

    @pytest.mark.parametrize(
        ("argv", "message"),
        [
            (["--players", "2,x"], "--players takes player counts separated by commas, as 2,3,4; not '2,x'"),
            (["--players", "3,3"], "--players names a player count twice: 3,3"),
            (["--vary", "double"], "--vary takes an option and one value or more"),
            (["--vary", "double=no", "--vary", "double=yes"], "--vary gives 'double' twice"),
            (["--vary", "double=no,yes", "--option", "double=no"], "--vary and --option both set 'double'"),
            (["--vary", "double=yes,true"], "--vary gives 2 players, double=yes twice"),
            (["--out", "table.txt"], "--out writes a table to a .csv or a .json file, not 'table.txt'"),
            (["--agent", "human"], "--agent names the one bot that plays every seat, not 'human'"),
            (["--agent", "random,first"], "--agent names the one bot that plays every seat"),
            (["-n", "0"], "-n takes 1 to 1,000,000 games, not 0"),
            (["--jobs", "2", "--cluster", "local:2"], "--cluster and --jobs both say where to play"),
        ],
    )
    def test_usage_errors(self, argv: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
        with pytest.raises(SystemExit) as exit_:
            cli.main(["sweep", "quasenbo", "-n", "3", *argv])
        assert exit_.value.code == 2
        err = capsys.readouterr().err
        assert message in err and len(err.splitlines()) == 1


class TestInterrupted:
    """Ctrl-C: the combinations finished so far are written and printed, marked partial; exit 130."""

    @staticmethod
    def _interrupt_at(monkeypatch: pytest.MonkeyPatch, games: int) -> None:
        added = progress.Progress.add

        def until(bar: progress.Progress, k: int, total: int) -> None:
            if bar.done == games:
                raise KeyboardInterrupt
            added(bar, k, total)

        monkeypatch.setattr(progress.Progress, "add", until)

    def test_ctrl_c_writes_the_finished_combinations_marked_partial(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
    ) -> None:
        require("matplotlib", "plot")
        argv = ["sweep", "quasenbo", "--vary", "hand_size=5,7", "--players", "2,3", "-n", "10"]
        whole = _run_json(capsys, [*argv, "--json"])
        self._interrupt_at(monkeypatch, 25)  # two combinations finished, the third under way
        as_json, table, picture = tmp_path / "sweep.json", tmp_path / "sweep.csv", tmp_path / "sweep.png"
        assert cli.main([*argv, "--out", str(as_json), "--json"]) == 130
        printed = json.loads(capsys.readouterr().out)
        written = json.loads(as_json.read_text(encoding="utf-8"))
        assert printed == written
        assert (written["partial"], written["combinations"], whole["partial"]) == (True, 4, False)
        assert written["rows"] == whole["rows"][:2]  # what a whole run says of them
        assert cli.main([*argv, "--out", str(table), "--plot", str(picture)]) == 130
        out, err = capsys.readouterr()
        assert out.splitlines()[0].startswith("Quäsenbö: 10 games for each of 4 combinations (partial: 2 finished), ")
        assert [line.split("  ")[0] for line in out.splitlines()[1:3]] == [
            "2 players, hand_size=5",
            "2 players, hand_size=7",
        ]
        assert len(table.read_text(encoding="utf-8").splitlines()) == 1 + 2
        assert picture.read_bytes()[:4] == b"\x89PNG"
        assert f"2 of 4 combinations finished: the table holds their rows only ({table}, {picture})\n" in err
        assert err.endswith("interrupted\n")

    def test_ctrl_c_before_a_combination_finished_writes_nothing(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
    ) -> None:
        self._interrupt_at(monkeypatch, 3)
        table = tmp_path / "sweep.csv"
        argv = ["sweep", "quasenbo", "--vary", "pawns=no,yes", "-n", "10", "--out", str(table)]
        assert cli.main(argv) == 130
        out, err = capsys.readouterr()
        assert out == "" and not table.exists()
        assert "0 of 2 combinations finished\n" in err
