"""The command line beyond the golden transcripts: fmt in place, check --simulate's JSON and progress, bench."""

from __future__ import annotations

import io
import json
import pickle
import re
import shutil
import sys
from pathlib import Path

import pytest

import ruledsl
from ruledsl import cli
from ruledsl.cli import exits, keyboard
from ruledsl.format import fmt
from ruledsl.format.fmt import format_source
from ruledsl.text.errors import Diagnostic, IllegalActionError, RuleRuntimeError
from ruledsl.tools import records
from ruledsl.tools.scenario import cards_in
from tests.golden.test_golden import ROOT, run_cli


class Terminal(io.StringIO):
    """A terminal: what is typed at it, or its screen."""

    def isatty(self) -> bool:
        return True


MESSY = ROOT / "tests" / "golden" / "cli" / "fmt_messy.game"


class TestFmt:
    def test_the_bundled_games_are_formatted(self) -> None:
        games = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "games").glob("*.game"))
        assert games
        code, out, err = run_cli(["fmt", "--check", *games])
        assert (code, out) == (0, "")
        assert err == f"{len(games)} files already formatted\n"

    def test_rewrites_in_place_only_what_changes(self, tmp_path: Path) -> None:
        messy, clean = tmp_path / "messy.game", tmp_path / "clean.game"
        shutil.copy(MESSY, messy)
        clean.write_text(format_source(MESSY.read_text(encoding="utf-8")), encoding="utf-8")
        before = clean.stat().st_mtime_ns
        code, out, err = run_cli(["fmt", str(messy), str(clean)])
        assert (code, out) == (0, "")
        assert err == f"reformatted {messy}\n1 file reformatted, 1 file left unchanged\n"
        assert messy.read_text(encoding="utf-8") == clean.read_text(encoding="utf-8")
        assert clean.stat().st_mtime_ns == before
        assert run_cli(["fmt", str(messy)]) == (0, "", "1 file left unchanged\n")

    def test_check_and_diff_write_nothing(self, tmp_path: Path) -> None:
        messy = tmp_path / "messy.game"
        shutil.copy(MESSY, messy)
        for flags in (["--check"], ["--diff"]):
            code, out, err = run_cli(["fmt", *flags, str(messy)])
            assert code == 1
            assert f"would reformat {messy}" in err
            assert out.startswith(f"--- {messy}\n+++ {messy}\n") == (flags == ["--diff"])
            assert messy.read_bytes() == MESSY.read_bytes()

    @pytest.mark.parametrize("broken", ["players 2 to 9", "players 2 to"])
    def test_a_formatter_bug_never_changes_the_rules(
        self, broken: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        messy = tmp_path / "messy.game"
        shutil.copy(MESSY, messy)
        monkeypatch.setattr(fmt, "format_text", lambda source: source.text.replace("players 2 to 3", broken))
        code, _, err = run_cli(["fmt", str(messy)])
        assert code == 1
        assert f"ruledsl: internal error: formatting '{messy}' would change its rules, so it is left as it is" in err
        assert messy.read_bytes() == MESSY.read_bytes()

    def test_a_file_that_cannot_be_read_leaves_the_others_formatted(self, tmp_path: Path) -> None:
        messy = tmp_path / "messy.game"
        shutil.copy(MESSY, messy)
        code, _, err = run_cli(["fmt", str(tmp_path / "missing.game"), str(messy)])
        assert code == 65
        assert "error[E001]: cannot read" in err
        assert "1 file reformatted, 1 file could not be formatted (see above)" in err
        assert messy.read_text(encoding="utf-8") == format_source(MESSY.read_text(encoding="utf-8"))


STUCK = "tests/golden/cli/check_stuck.game"
FLAKY = "tests/golden/cli/flaky.game"  # drawing the c5 divides by zero: seed 0 ends, seed 1 fails in action 2


class TestCheckSimulate:
    def test_json_holds_the_diagnostics_and_each_simulation(self) -> None:
        code, out, _ = run_cli(["check", "--simulate", "2", "--format", "json", "crazy_eights", STUCK])
        assert code == 70
        found = json.loads(out)
        assert set(found) == {"diagnostics", "simulations"}
        assert [d["code"] for d in found["diagnostics"] if d["severity"] == "error"] == ["R506"]
        first, stuck = found["simulations"]
        assert (first["file"], stuck["file"]) == ("games/crazy_eights.game", STUCK)
        assert [c["players"] for c in stuck["configurations"]] == [2, 3]
        assert [c["stuck"] for c in stuck["configurations"]] == [0, 2]
        assert first["games"] == 2 * len(first["configurations"])

    def test_without_simulate_json_is_the_list_of_diagnostics(self) -> None:
        code, out, _ = run_cli(["check", "--format", "json", "crazy_eights"])
        assert (code, json.loads(out)) == (0, [])

    def test_players_and_options_choose_one_configuration(self) -> None:
        code, out, _ = run_cli(
            ["check", "--simulate", "2", "--seed", "5", "--players", "3", "--option", "excuse=yes", "quasenbo"]
        )
        assert code == 0
        assert "  random games: 2 per configuration, seeds 5 to 6\n" in out
        rows = [line.split() for line in out.splitlines() if line.startswith("    3 players")]
        assert rows == [["3", "players,", "excuse=yes", "2", "2", "0", "0", "0", rows[0][-1]]]

    def test_a_bad_option_is_a_usage_error(self) -> None:
        code, _, err = run_cli(["check", "--simulate", "1", "--option", "excuse=maybe", "quasenbo"])
        assert code == 2
        assert "error[E602]: option 'excuse' is yes or no, not 'maybe'" in err

    def test_progress_is_drawn_on_a_terminal_and_erased(self, monkeypatch: pytest.MonkeyPatch) -> None:
        terminal = Terminal()
        monkeypatch.setattr(sys, "stderr", terminal)
        monkeypatch.setattr(sys, "stdout", io.StringIO())
        assert cli.main(["check", "--simulate", "2", "crazy_eights"]) == 0
        drawn = terminal.getvalue()
        assert "games/crazy_eights.game: [" in drawn and "8/8 games" in drawn
        assert drawn.endswith("\r")  # erased: what follows starts on a clean line


class TestStuck:
    """A game in which the player to act has no legal action is a rule error (R506), never a traceback."""

    @pytest.mark.parametrize("jobs", ["1", "2"])
    def test_simulate_reports_it(self, jobs: str) -> None:
        code, _, err = run_cli(["simulate", STUCK, "--players", "3", "-n", "4", "--jobs", jobs])
        assert code == 70
        assert "error[R506]: P2 has no legal action in phase 'play', but the game is not over" in err
        assert "Traceback" not in err

    def test_play_logs_the_game_marked_stuck_and_replay_meets_the_error_again(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        log = tmp_path / "stuck.jsonl"
        monkeypatch.setattr(sys, "stdin", io.StringIO(""))
        argv = ["play", STUCK, "--players", "3", "--seats", "random,human,random", "--seed", "0", "--log", str(log)]
        code, out, err = run_cli(argv)
        assert code == exits.EXIT_RUNTIME == 70
        assert out.endswith(f"P1 (you): draw (your only move)\nIts record, marked stuck, is in {log}.\n")
        assert err.startswith(f"{STUCK}:21:1: error[R506]: P2 has no legal action") and "Traceback" not in err
        record = json.loads(log.read_text(encoding="utf-8"))
        assert (record["stuck"], record["error"]["code"], len(record["actions"])) == (True, "R506", 5)
        assert "returns" not in record and "unfinished" not in record
        code, out, again = run_cli(["replay", str(log), "--as", "P2", "--rules", STUCK])
        assert code == 70
        assert out.endswith("P0: draw\nP1: draw\n")
        assert again.splitlines()[1:] == err.splitlines()[1:]  # the same error, the rule file named from the log
        assert "Traceback" not in again

    @pytest.mark.parametrize("jobs", ["1", "2"])
    def test_simulate_logs_the_games_before_and_the_one_stopped(self, jobs: str, tmp_path: Path) -> None:
        log, table = tmp_path / "flaky.jsonl", tmp_path / "flaky.csv"
        argv = ["simulate", FLAKY, "-n", "6", "--jobs", jobs, "--log", str(log), "--csv", str(table)]
        code, out, err = run_cli(argv)
        assert (code, out) == (70, "")
        assert err.endswith(
            f"the rules stopped game 2 of 6 (seed 1), and the run with it; {log} holds its record, marked stuck, "
            f"after those of the 1 game before it; {table} holds the rows of the 1 game before it "
            "(a stuck game has no result)\n"
        )
        records = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
        assert [(r["seed"], r.get("stuck", False), "returns" in r) for r in records] == [
            (0, False, True),
            (1, True, False),
        ]
        assert records[1]["actions"] == ["draw", "draw"]  # the second is the one the rules failed in
        assert [line.split(",")[0] for line in table.read_text().splitlines()] == ["seed", "0"]
        assert run_cli(["replay", str(log), "--game", "2", "--rules", FLAKY])[0] == 70

    def test_an_error_comes_back_from_a_worker_process(self) -> None:
        error = IllegalActionError("not now", [Diagnostic("R505", "not now", hint="wait")])
        again = pickle.loads(pickle.dumps(error))
        assert (type(again), str(again), again.diagnostics) == (IllegalActionError, "not now", error.diagnostics)
        error = RuleRuntimeError([Diagnostic("R501", "endless")])
        assert pickle.loads(pickle.dumps(error)).diagnostics == error.diagnostics


class TestBench:
    def test_json_has_every_figure(self) -> None:
        code, out, err = run_cli(["bench", "crazy_eights", "--seconds", "0.05", "--repeats", "2", "--json"])
        assert (code, err) == (0, "")
        figures = json.loads(out)
        positive = [
            "games_per_s",
            "moves_per_s",
            "mean_moves_per_game",
            "us_legal_actions",
            "us_apply_action",
            "us_clone",
            "clone_over_apply",
            "load_ms",
            "peak_memory_kib_during_playouts",
        ]
        assert set(positive) <= set(figures)
        assert {k: v for k, v in figures.items() if k in positive and not v > 0} == {}
        assert len(figures["moves_per_s_rounds"]) == 2
        assert (figures["game"], figures["players"], figures["repeats"]) == ("Crazy Eights", 2, 2)
        if sys.platform != "win32":
            assert figures["peak_rss_kib"] > 0

    def test_text_names_each_figure(self) -> None:
        code, out, _ = run_cli(["bench", "quasenbo", "--players", "3", "--seconds", "0.02", "--repeats", "1"])
        assert code == 0
        heads = [line.split()[0] for line in out.splitlines()]
        named = ["Quäsenbö", "method:", "playouts", "game", "legal_actions", "apply_action", "clone", "load", "memory"]
        assert heads in (named, [*named, "peak"])  # the peak RSS where the system tells it
        assert "3 players" in out.splitlines()[0]


def test_python_dash_m_runs_the_command_line() -> None:
    import subprocess

    done = subprocess.run(
        [sys.executable, "-m", "ruledsl", "list"], capture_output=True, text=True, cwd=ROOT, timeout=60
    )
    assert done.returncode == 0
    assert "quasenbo" in done.stdout and done.stderr == ""


class TestPlayAndSimulateArguments:
    def test_the_seats_say_how_many_play(self) -> None:
        code, out, err = run_cli(["play", "katzenjammer_blues", "--seats", "random,random,random", "--seed", "2"])
        assert (code, err) == (0, "")
        assert out.startswith("Katzenjammer Blues: 3 players (P0 random, P1 random, P2 random), seed 2")

    def test_at_a_terminal_the_default_opponents_look_ahead(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setattr(sys, "stdin", Terminal("q\n"))
        code, out, _ = run_cli(["play", "quasenbo", "--players", "3", "--seed", "2"])
        assert out.startswith("Quäsenbö: 3 players (P0 human, P1 greedy, P2 greedy), seed 2")
        # A transcript is played by the random bots it always was.
        code, out, _ = run_cli(["play", "quasenbo", "--players", "3", "--seed", "2"], stdin="q\n")
        assert out.startswith("Quäsenbö: 3 players (P0 random, P1 random, P2 random), seed 2")

    def test_players_and_seats_that_disagree_are_refused(self) -> None:
        code, out, err = run_cli(["play", "quasenbo", "--players", "4", "--seats", "random,random,random"])
        assert (code, out) == (2, "")
        assert "--seats names 3 seats, but the game has 4 players" in err

    @pytest.mark.parametrize("command", ["play", "simulate"])
    def test_a_mistyped_lone_seat_is_reported_as_such(self, command: str) -> None:
        # One seat implies one player, which Quäsenbö refuses; the typo is the mistake to report.
        code, out, err = run_cli([command, "quasenbo", "--seats", "ismcst"])
        assert (code, out) == (2, "")
        assert "unknown agent 'ismcst'" in err
        code, out, err = run_cli([command, "quasenbo", "--seats", "ismcts:iterations=0"])
        assert (code, out) == (2, "")
        assert "ismcts option 'iterations' must be at least 1, not 0" in err

    def test_a_player_count_taken_from_the_seats_says_so(self) -> None:
        code, out, err = run_cli(["simulate", "quasenbo", "--seats", ",".join(["random"] * 7)])
        assert (code, out) == (2, "")
        assert err == (
            "ruledsl: error: --seats names 7 seats: 'Quäsenbö' is for 2 to 6 players, not 7;"
            " name one agent per player\n"
        )

    @pytest.mark.parametrize("command", [["play", "quasenbo"], ["simulate", "quasenbo", "-n", "3"]])
    def test_a_log_that_cannot_be_written_is_refused_before_playing(self, command: list[str], tmp_path: Path) -> None:
        for bad, reason in (
            (tmp_path / "no" / "such" / "dir.jsonl", "No such file or directory"),
            (tmp_path, "Is a directory"),
        ):
            code, out, err = run_cli([*command, "--seats", "random,random", "--log", str(bad)])
            assert (code, out) == (2, "")
            assert err == f"ruledsl: error: cannot write the game log '{bad}': {reason}\n"

    def test_jobs_below_one_are_refused(self) -> None:
        code, out, err = run_cli(["simulate", "quasenbo", "-n", "3", "--jobs", "0"])
        assert (code, out, err) == (2, "", "ruledsl: error: --jobs must be at least 1\n")


class TestPlayMaxActions:
    """play --max-actions: simulate's bound, checked and recorded alike; a game that meets it is truncated."""

    def test_a_game_stopped_at_the_bound_says_so_is_logged_truncated_and_replays_to_there(self, tmp_path: Path) -> None:
        log = tmp_path / "bounded.jsonl"
        argv = ["play", "quasenbo", "--seats", "random,random", "--seed", "3", "--max-actions", "12", "--log", str(log)]
        code, out, _ = run_cli(argv)
        assert code == exits.EXIT_OK
        assert out.splitlines()[0].endswith("; at most 12 actions")
        assert out.endswith("Result: stopped at the action bound, after 12 actions, without an end: no winner\n")
        record = json.loads(log.read_text(encoding="utf-8"))
        assert (record["max_actions"], record["truncated"], record["returns"]) == (12, True, [0.0, 0.0])
        assert len(record["actions"]) == 12 and "unfinished" not in record
        code, replayed, _ = run_cli(["replay", str(log)])
        assert code == 0 and replayed.splitlines()[-1] == out.splitlines()[-1]

    def test_a_game_that_ends_within_the_bound_is_as_without_it(self) -> None:
        base = ["play", "quasenbo", "--seats", "random,random", "--seed", "3"]
        code, out, _ = run_cli(base)
        bounded = run_cli([*base, "--max-actions", "20000"])
        assert code == 0 and bounded == (code, out, "")  # the default bound is not printed

    @pytest.mark.parametrize(
        ("value", "message"),
        [
            ("0", "--max-actions takes a number of actions of at least 1, not 0"),
            ("-5", "--max-actions takes a number of actions of at least 1, not -5"),
            ("many", "argument --max-actions: invalid int value: 'many'"),
        ],
    )
    def test_the_checks_of_simulate(self, value: str, message: str) -> None:
        for command in (["play", "quasenbo", "--seats", "random,random"], ["simulate", "quasenbo", "-n", "1"]):
            code, out, err = run_cli([*command, "--max-actions", value])
            assert (code, out) == (2, "") and message in err


class TestGameNames:
    def test_a_folder_named_like_a_bundled_game_does_not_hide_it(self, tmp_path: Path) -> None:
        (tmp_path / "quasenbo").mkdir()
        (tmp_path / "quasenbo.game").mkdir()
        for name in ("quasenbo", "quasenbo.game"):
            code, out, err = run_cli(["simulate", name, "-n", "2"], cwd=tmp_path)
            assert code == 0 and err.startswith("time ")  # the time taken, and nothing else
            assert out.startswith("Quäsenbö: 2 games, 2 players")
        # Nor does it make the bundled game's name a file that fmt may rewrite.
        code, _, err = run_cli(["fmt", "quasenbo"], cwd=tmp_path)
        assert code == 2
        assert "'quasenbo' names a bundled game, not a file" in err

    def test_a_folder_named_as_a_path_or_by_another_name_is_said_to_be_one(self, tmp_path: Path) -> None:
        (tmp_path / "quasenbo").mkdir()
        (tmp_path / "mine").mkdir()
        for name in ("quasenbo/", "mine"):
            code, out, err = run_cli(["check", name], cwd=tmp_path)
            assert (code, out) == (65, "")
            assert f"{name}:1:1: error[E001]: cannot read '{name}': it is a directory" in err


def typed_into(monkeypatch: pytest.MonkeyPatch, path: Path, rules: str, typed: str) -> str:
    """Play the rules written at ``path``, P0 typing ``typed`` against a random P1; return
    the output of a game left unfinished."""
    path.write_text(rules, encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", io.StringIO(typed))
    code, out, _ = run_cli(["play", str(path), "--seats", "human,random", "--seed", "1"])
    assert code == exits.EXIT_UNFINISHED
    return out


class TestHumanPrompt:
    def test_an_entry_that_could_be_many_actions_lists_some_and_says_there_are_more(
        self, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
    ) -> None:
        rules = (
            'game "Many"\nplayers 2\nzone deck: shared, hidden\nzone hand: per player, owner\ndeck:\n    card "A"\n'
            "setup:\n    shuffle deck\nphase play:\n"
            "    action take(k: number 1 to 9):\n        end game, winner player\n"
        )
        out = typed_into(monkeypatch, tmp_path / "many.game", rules, "take\nq\n")
        assert "'take' could be: take 1; take 2; take 3; take 4; take 5; take 6; and 3 more. Type more of it" in out

    def test_an_action_not_allowed_now_is_refused_with_the_reason(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setattr(sys, "stdin", io.StringIO("play the sailor\nzzz\nplay the autor\nq\n"))
        code, out, _ = run_cli(["play", "quasenbo", "--seats", "human,random,random", "--seed", "2"])
        assert code == exits.EXIT_UNFINISHED
        again = "Type a number from 1 to 3, or 'help'."
        assert (
            "'play the sailor' is not one of your actions now: "
            f"the Sailor shares neither its rank nor a suit with the Ace of Knots. {again}"
        ) in out
        assert f"'zzz' is not one of your actions now: no move of this game reads like that. {again}" in out
        assert (
            "'play the autor' is not one of your actions now: "
            f"no card is called 'the autor' (did you mean 'the Author'?). {again}"
        ) in out
        assert out.endswith("Game left unfinished after 0 actions.\n")

    def test_a_refusal_whose_reason_would_tell_of_unseen_cards_gives_none(
        self, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
    ) -> None:
        # 'peek' is possible when the top card of the hidden deck is a 1: saying why not
        # would tell what it is.
        rules = (
            'game "Peek"\nplayers 2\nzone deck: shared, hidden\nzone hand: per player, owner\ncard rank: number\n'
            'deck:\n    card "{rank}" for rank in 1 to 9\nsetup:\n    shuffle deck\nphase play:\n'
            "    action peek:\n"
            '        require (top of deck).rank == 1, "the top card of the deck is {(top of deck).rank}"\n'
            "        end game, winner player\n"
            "    action draw:\n        move top of deck to hand\n"
            "    action wait:\n        again\n"
        )
        out = typed_into(monkeypatch, tmp_path / "peek.game", rules, "peek\nq\n")
        assert "'peek' is not one of your actions now. Type a number from 1 to 2, or 'help'." in out


# After P1 leads, P0 may snap out of turn or let it pass; then leading is his only move.
SNAP = """\
game "Snap"
players 2
zone deck: shared, hidden
deck:
    card "A"
setup:
    shuffle deck
    go to play with seat 1
phase play:
    action lead:
        label "lead"
        open snap
window snap for players after player:
    action snap:
        label "snap"
        end game, winner player
    pass:
        label "let it pass"
"""


class TestForcedMoves:
    @pytest.fixture
    def snap(self, tmp_path: Path) -> str:
        path = tmp_path / "snap.game"
        path.write_text(SNAP, encoding="utf-8")
        return str(path)

    def test_a_lone_move_is_played_at_once_but_a_window_is_a_choice(
        self, snap: str, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        monkeypatch.setattr(sys, "stdin", io.StringIO("let it pass\n"))
        code, out, _ = run_cli(["play", snap, "--seats", "human,random", "--seed", "0"])
        assert code == 0
        # Letting the window pass is one of two choices: asked. Leading is the only move: played.
        assert "  1) snap\n  2) let it pass\nP0 (you)> P0: let it pass\nP0 (you): lead (your only move)\n" in out
        assert "1) lead" not in out

    def test_confirm_forced_asks_for_it(self, snap: str, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setattr(sys, "stdin", io.StringIO("let it pass\n1\n"))
        code, out, _ = run_cli(["play", snap, "--seats", "human,random", "--seed", "0", "--confirm-forced"])
        assert code == 0
        assert "  1) lead\nP0 (you)> P0: lead\n" in out and "your only move" not in out

    def test_humans_sharing_a_keyboard_are_asked_even_for_a_lone_move(
        self, snap: str, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        # Played at once, it would show the others at the table that he had no choice.
        monkeypatch.setattr(sys, "stdin", io.StringIO("\n1\n\n1\n"))
        code, out, _ = run_cli(["play", snap, "--seats", "human,human", "--seed", "0"])
        assert code == 0
        assert "=== P1\n--- round 1, phase play, clockwise\ndeck: 1 card\n  1) lead\nP1 (you)> " in out
        assert "your only move" not in out

    def test_a_replay_shows_a_lone_move_as_play_did(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        log = tmp_path / "forced.jsonl"
        monkeypatch.setattr(sys, "stdin", io.StringIO("1\n1\n1\n1\nq\n"))
        argv = ["play", "quasenbo", "--players", "2", "--seats", "human,random", "--seed", "3", "--log", str(log)]
        code, played, _ = run_cli(argv)
        assert code == exits.EXIT_UNFINISHED
        code, replayed, _ = run_cli(["replay", str(log), "--as", "P0"])
        assert code == 0

        def moves(transcript: str) -> list[str]:
            lines = (line.removeprefix("P0 (you)> ") for line in transcript.splitlines())
            return [line for line in lines if re.match(r"P\d( \(you\))?: ", line)]

        assert moves(replayed) == moves(played)
        assert moves(played).count("P0 (you): draw a card (your only move)") == 2
        # No view before a lone move: he was shown none.
        assert replayed.count("\nyour hand: ") == played.count("\nyour hand: ") == 5


class TestWhenTheHumansAreOut:
    GAME = "tests/golden/cli/play_on.game"  # P0 goes out first; two bots play on for places

    def test_at_a_terminal_they_may_fast_forward_to_the_result(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setattr(sys, "stdin", Terminal("go out\nf\n"))
        code, out, _ = run_cli(["play", self.GAME, "--seats", "human,random,random", "--seed", "1"])
        assert code == 0
        assert out.endswith(
            "P0 (you)> P0: go out\n  P0 is out\n"
            "You are out. Press Enter to watch the rest, or f to fast-forward to the result: "
            "(2 actions fast-forwarded)\nResult: P0 wins\nRanking: P0; P2; P1\nReturns: P0 +1, P1 -1, P2 0\n"
        )

    def test_at_a_terminal_enter_watches_the_rest(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setattr(sys, "stdin", Terminal("go out\n\n"))
        code, out, _ = run_cli(["play", self.GAME, "--seats", "human,random,random", "--seed", "1"])
        assert code == 0
        assert "fast-forward to the result: P1: wait\nP2: go out\n  P2 is out\nResult: P0 wins\n" in out

    def test_a_transcript_is_not_asked_and_shows_the_rest(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setattr(sys, "stdin", io.StringIO("go out\n"))
        code, out, _ = run_cli(["play", self.GAME, "--seats", "human,random,random", "--seed", "1"])
        assert code == 0
        assert "You are out" not in out and "P1: wait\n" in out


class TestUnfinished:
    def test_leaving_records_the_game_as_unfinished_and_exits_3(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        log = tmp_path / "left.jsonl"
        monkeypatch.setattr(sys, "stdin", io.StringIO("1\nq\n"))
        code, out, _ = run_cli(["play", "quasenbo", "--seats", "human,random", "--seed", "2", "--log", str(log)])
        assert code == exits.EXIT_UNFINISHED == 3
        assert out.endswith(f"\nGame left unfinished after 2 actions.\nIts record, marked unfinished, is in {log}.\n")
        record = json.loads(log.read_text(encoding="utf-8"))
        assert record["unfinished"] is True and "returns" not in record
        assert len(record["actions"]) == len(record["actors"]) == 2
        code, out, _ = run_cli(["replay", str(log), "--as", "P0"])
        assert code == 0
        assert out.endswith("Result: the game was left unfinished after 2 actions\n")
        assert out.count("your hand: ") == 2  # before his move, and where he left

    def test_ctrl_c_records_it_too_and_exits_130(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        class Interrupted(io.StringIO):
            def readline(self, *args: object) -> str:
                raise KeyboardInterrupt

        log = tmp_path / "cut.jsonl"
        monkeypatch.setattr(sys, "stdin", Interrupted())
        code, out, err = run_cli(["play", "quasenbo", "--seats", "human,random", "--seed", "2", "--log", str(log)])
        assert (code, err) == (130, "\ninterrupted\n")
        assert "Game left unfinished after 0 actions." in out
        record = json.loads(log.read_text(encoding="utf-8"))
        assert (record["actions"], record["unfinished"]) == ([], True)

    def test_without_a_log_nothing_is_written(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(""))
        code, out, _ = run_cli(["play", "quasenbo", "--seats", "human,random", "--seed", "2"])
        assert code == 3 and out.endswith("\nGame left unfinished after 0 actions.\n")


class TestHotSeat:
    def test_each_human_takes_the_keyboard_before_his_cards_are_shown(self, monkeypatch: pytest.MonkeyPatch) -> None:
        # Enter, a move, Enter, a move: each player's hand appears only after his Enter.
        monkeypatch.setattr(sys, "stdin", io.StringIO("\n1\n\n1\nq\n"))
        code, out, _ = run_cli(["play", "quasenbo", "--seats", "human,human", "--seed", "2"])
        assert code == exits.EXIT_UNFINISHED
        handover = "=== pass the keyboard to P{0}; P{0}, press Enter when the others cannot see\n=== P{0}\n"
        first, second = out.index(handover.format(0)), out.index(handover.format(1))
        assert first < out.index("your hand: the Author") < second < out.index("your hand: the Painter")
        assert "\033[2J" not in out  # a transcript is no screen to clear
        assert out.endswith("Game left unfinished after 2 actions.\n")

    def test_the_screen_is_cleared_on_a_terminal(self) -> None:
        out = Terminal()
        keyboard.hand_over(1, out, io.StringIO("\n"))
        assert out.getvalue().endswith("\033[2J\033[H=== P1\n")
        with pytest.raises(EOFError):
            keyboard.hand_over(1, Terminal(), io.StringIO(""))


class TestPlaySeed:
    def test_without_a_seed_each_game_gets_a_new_one_and_says_it(self, tmp_path: Path) -> None:
        seeds = []
        for k in range(2):
            log = tmp_path / f"g{k}.jsonl"
            code, out, _ = run_cli(["play", "quasenbo", "--seats", "random,random", "--log", str(log)])
            assert code == 0
            seed = int(out.split(", seed ")[1].split(";")[0])
            assert json.loads(log.read_text(encoding="utf-8"))["seed"] == seed  # so the game can be played again
            seeds.append(seed)
        assert seeds[0] != seeds[1]  # 1 chance in a million of a false alarm


class TestCardLabels:
    """Quäsenbö's 'label card': each card shows its rank and suits wherever its player sees it."""

    def test_hand_pile_and_menu_show_labels_while_the_moves_keep_names(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setattr(sys, "stdin", io.StringIO("play the savage (3: leaves, wyrms)\nq\n"))
        code, out, _ = run_cli(["play", "quasenbo", "--players", "2", "--seats", "human,random", "--seed", "3"])
        assert code == exits.EXIT_UNFINISHED
        assert "pile: the Ace of Leaves\n" in out  # an Ace's name says it all
        assert "your hand: the Calamity (Crown: Wyrms), the Savage (3: Leaves, Wyrms), " in out
        assert "  1) play the Savage (3: Leaves, Wyrms)\n" in out
        assert "P0: play the Savage\n" in out  # typed as it reads; played, and told, by name
        assert "pile: the Ace of Leaves, the Savage (3: Leaves, Wyrms), the Market (6: Leaves, Knots) (top last)" in out

    def test_labels_show_no_card_the_seat_cannot_see(self) -> None:
        game = ruledsl.load_game("quasenbo", players=2)
        state = game.new_initial_state(seed=3)
        labels = records.labels_by_name(state.prog)
        shown = "\n".join(keyboard.view_lines(state, 0))
        others = cards_in(state, "hand", 1)
        assert len(others) == 7 and not any(name in shown for name in others)
        assert all(labels[name] in shown for name in cards_in(state, "hand", 0))
        assert labels["the Savage"] == "the Savage (3: Leaves, Wyrms)"
        assert labels["the Ace of Moons"] == "the Ace of Moons"

    def test_a_replay_shows_labels_to_the_end_of_an_unfinished_game(
        self, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
    ) -> None:
        log = tmp_path / "left.jsonl"
        monkeypatch.setattr(sys, "stdin", io.StringIO("1\nq\n"))
        argv = ["play", "quasenbo", "--players", "2", "--seats", "human,random", "--seed", "3", "--log", str(log)]
        assert run_cli(argv)[0] == exits.EXIT_UNFINISHED
        code, out, _ = run_cli(["replay", str(log), "--as", "P0"])
        assert code == 0
        before_end = out.split("Result: the game was left unfinished")[0].splitlines()
        last_hand = [line for line in before_end if line.startswith("your hand: ")][-1]
        assert "the Calamity (Crown: Wyrms)" in last_hand


@pytest.mark.parametrize(
    ("players", "said"), [("2 to 4", "players: 2 to 4"), ("4 to 4", "players: 4"), ("4", "players: 4")]
)
def test_info_says_a_fixed_player_count_once(tmp_path: Path, players: str, said: str) -> None:
    path = tmp_path / "t.game"
    path.write_text(
        f'game "T"\nplayers {players}\ncard value: number\ndeck:\n    card "{{value}}" for value in 1 to 8\n'
        "zone deck: shared, hidden\nsetup:\n    go to play\nphase play:\n    action finish:\n        end game, draw\n",
        encoding="utf-8",
    )
    code, out, _ = run_cli(["info", str(path)])
    assert code == 0
    assert said in out.splitlines()
