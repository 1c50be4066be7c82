"""The paired comparison of option values: each test on hand-built records or a small run."""

from __future__ import annotations

import json

import pytest

from ruledsl.tools.compare import compare, outcome_rows, paired_mean, paired_outcome, report_lines
from ruledsl.tools.simulate import GameRecord
from tests.golden.test_golden import run_cli


def game(
    seed: int, returns: list[float], actions: int = 4, first: int = 0, agents: list[str] | None = None
) -> GameRecord:
    actors = [(first + k) % len(returns) for k in range(actions)]
    return GameRecord(seed, agents or ["x", "y"], returns, False, actors, ["p.a"] * actions)


class TestPairedOutcome:
    def test_only_changed_pairs_count_and_the_test_is_exact(self) -> None:
        # 6 games turn from no to yes, none the other way, 4 stay yes: McNemar p = 2 / 2**6.
        before = [False] * 6 + [True] * 4
        after = [True] * 10
        row = paired_outcome(before, after)
        assert (row["gained"], row["lost"]) == (6, 0)
        assert row["before"]["rate"] == 0.4 and row["after"]["rate"] == 1.0
        assert row["difference"] == pytest.approx(0.6)
        assert row["p_value"] == pytest.approx(2 / 64)
        lo, hi = row["ci95"]
        half = 1.959963984540054 * (6 - 36 / 10) ** 0.5 / 10
        assert (lo, hi) == (pytest.approx(0.6 - half), pytest.approx(0.6 + half))

    def test_the_same_outcomes_differ_by_nothing(self) -> None:
        row = paired_outcome([True, False, True], [True, False, True])
        assert row["difference"] == 0 and row["ci95"] == [0, 0] and row["p_value"] == 1.0

    def test_a_balanced_change_is_no_change(self) -> None:
        row = paired_outcome([True] * 5 + [False] * 5, [False] * 5 + [True] * 5)
        assert row["difference"] == 0 and row["p_value"] == pytest.approx(1.0)
        assert row["ci95"][0] < 0 < row["ci95"][1]


class TestPairedMean:
    def test_mean_difference_interval_and_p(self) -> None:
        row = paired_mean([10, 20, 30, 40], [12, 21, 33, 42])  # differences 2, 1, 3, 2
        assert (row["before"], row["after"], row["difference"]) == (25, 27, 2)
        se = (2 / 3) ** 0.5 / 2  # sample sd of 2, 1, 3, 2 is sqrt(2/3)
        assert row["ci95"] == [pytest.approx(2 - 1.959963984540054 * se), pytest.approx(2 + 1.959963984540054 * se)]
        assert row["p_value"] < 0.001

    def test_one_pair_has_no_interval(self) -> None:
        row = paired_mean([5], [7])
        assert row["difference"] == 2 and row["ci95"] is None and row["p_value"] is None

    def test_a_constant_shift_is_certain(self) -> None:
        assert paired_mean([1, 2, 3], [4, 5, 6])["p_value"] == 0.0
        assert paired_mean([1, 2, 3], [1, 2, 3])["p_value"] == 1.0


class TestCompare:
    def test_each_value_is_compared_with_the_first_pair_by_pair(self) -> None:
        base = [game(0, [1, -1]), game(1, [-1, 1]), game(2, [1, -1], first=1)]
        other = [game(0, [-1, 1], actions=6), game(1, [-1, 1], actions=6), game(2, [-1, 1], actions=8, first=1)]
        result = compare("double", ["no", "yes"], [base, other], 2, rotate=False)
        (block,) = result["comparisons"]
        assert block["value"] == "yes"
        outcomes = block["outcomes"]
        assert list(outcomes) == ["first player won alone", "P0 (x) won", "P1 (y) won", "no winner (draw or bound)"]
        # Game 2: P1 opened and won under 'yes'; P0 won under 'no', while P1 opened.
        assert outcomes["first player won alone"]["before"]["count"] == 1  # game 0
        assert outcomes["first player won alone"]["after"]["count"] == 1  # game 2
        assert (outcomes["P0 (x) won"]["gained"], outcomes["P0 (x) won"]["lost"]) == (0, 2)
        assert block["lengths"]["actions"]["difference"] == pytest.approx(8 / 3)

    def test_payoffs_are_compared_seat_by_seat_as_the_lengths_are(self) -> None:
        base = [game(0, [2, -2]), game(1, [-1, 1])]
        other = [game(0, [1, -1]), game(1, [-2, 2])]
        lengths = compare("bet", ["1", "2"], [base, other], 2, rotate=False, scores=True)["comparisons"][0]["lengths"]
        assert lengths["P0 payoff"]["difference"] == pytest.approx(-1.0)
        assert lengths["P1 payoff"]["difference"] == pytest.approx(1.0)
        places = compare("bet", ["1", "2"], [base, other], 2, rotate=False)
        assert "P0 payoff" not in places["comparisons"][0]["lengths"]

    def test_with_rotation_each_agent_is_compared_wherever_it_sat(self) -> None:
        records = [game(0, [1, -1], agents=["a", "b"]), game(1, [1, -1], agents=["b", "a"])]
        rows = outcome_rows(records, 2, rotate=True)
        assert [rows["a won"](r) for r in records] == [True, False]
        assert [rows["b won"](r) for r in records] == [False, True]

    def test_runs_on_other_seeds_are_not_compared(self) -> None:
        with pytest.raises(AssertionError):
            compare("o", ["a", "b"], [[game(0, [1, -1])], [game(1, [1, -1])]], 2, rotate=False)

    def test_the_report_reads_each_row(self) -> None:
        result = compare("double", ["no", "yes"], [[game(0, [1, -1])], [game(0, [-1, 1])]], 2, rotate=False)
        lines = report_lines(result, ["header"])
        assert lines[0] == "header" and lines[2] == "double=yes against double=no, game by game:"
        assert "  mean actions" in "\n".join(lines) and "n/a" in "\n".join(lines)  # one pair: no interval


class TestCommandLine:
    def test_a_rule_that_lengthens_the_game_is_found(self) -> None:
        code, out, err = run_cli(
            ["compare", "quasenbo", "--vary", "double=false,yes", "-n", "60", "--players", "2", "--json"]
        )
        assert code == 0, err
        result = json.loads(out)
        assert result["values"] == ["no", "yes"] and result["games"] == 60 and "double" not in result["options"]
        actions = result["comparisons"][0]["lengths"]["actions"]
        assert actions["difference"] > 0 and actions["p_value"] < 0.01

    def test_the_same_command_gives_the_same_report(self) -> None:
        argv = ["compare", "quasenbo", "--vary", "hand_size=5,7", "-n", "20", "--players", "3"]
        first, second = run_cli(argv), run_cli(argv)
        assert first[0] == 0 and first[1] == second[1]
        assert "hand_size=7 against hand_size=5, game by game:" in first[1]

    @pytest.mark.parametrize(
        ("argv", "message"),
        [
            (
                ["--vary", "double=no"],
                "--vary takes an option and two values or more, as double=no,yes; not 'double=no'",
            ),
            (["--vary", "double"], "--vary takes an option and two values or more"),
            (["--vary", "double=no,false"], "--vary gives double=no twice (no, false)"),
            (["--vary", "double=no,yes", "--option", "double=yes"], "--vary and --option both set 'double'"),
            (["--vary", "double=no,yes", "--seats", "human,random"], "compare plays bots only"),
            (["--vary", "double=no,yes", "-n", "0"], "-n must be at least 1"),
        ],
    )
    def test_mistakes_are_refused(self, argv: list[str], message: str) -> None:
        code, out, err = run_cli(["compare", "quasenbo", *argv])
        assert code == 2 and out == ""
        assert message in err

    def test_an_unknown_option_or_value_is_the_game_s_error(self) -> None:
        code, _, err = run_cli(["compare", "quasenbo", "--vary", "doubel=no,yes"])
        assert code == 2 and "E601" in err and "doubel" in err
        code, _, err = run_cli(["compare", "quasenbo", "--vary", "double=no,maybe"])
        assert code == 2 and "E602" in err
