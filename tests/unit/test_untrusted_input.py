"""Untrusted input at the command line (issue 31): special files, numbers, seeds, forged lines, files records name."""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest

import ruledsl
from ruledsl.cli import exits
from ruledsl.text.files import read_at_most
from tests.golden.test_golden import ROOT, run_cli

linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="needs /dev/zero, /dev/full and FIFOs")

#: What a run that goes wrong may take before it is stopped: a broken fix must fail the test, not the machine.
_MEMORY = 1 << 30
_SECONDS = 60


def run_bounded(argv: list[str], cwd: Path = ROOT) -> tuple[int, str, str]:
    """Run ``ruledsl argv`` in a process of its own, under a memory and a time cap; return (exit, stdout, stderr)."""

    def cap_memory() -> None:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (_MEMORY, _MEMORY))

    done = subprocess.run(
        [sys.executable, "-m", "ruledsl", *argv],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=_SECONDS,
        preexec_fn=cap_memory,
        env={**os.environ, "NO_COLOR": "1"},
        stdin=subprocess.DEVNULL,
    )
    return done.returncode, done.stdout, done.stderr


@linux_only
class TestSpecialFiles:
    """A device or a pipe named as a rule file or a records file is refused, never read (it may never end)."""

    @pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
    @pytest.mark.parametrize("command", ["check", "info", "play", "fmt"])
    def test_a_device_is_no_rule_file(self, command: str, device: str) -> None:
        code, out, err = run_bounded([command, device])
        assert (code, out) == (exits.EXIT_INVALID, "")
        assert err.startswith(
            f"{device}:1:1: error[E001]: cannot read '{device}': it is a character device, not a regular file\n"
            "  = hint: a rule file is a regular file: a device, a pipe or a socket is never read\n"
        )

    def test_a_link_to_a_device_is_followed_and_refused(self, tmp_path: Path) -> None:
        (tmp_path / "zero.game").symlink_to("/dev/zero")
        code, _, err = run_bounded(["check", "zero.game"], cwd=tmp_path)
        assert code == exits.EXIT_INVALID
        assert err.startswith("zero.game:1:1: error[E001]: cannot read 'zero.game': it is a character device")

    @pytest.mark.parametrize("command", ["check", "info"])
    def test_a_named_pipe_is_refused_without_waiting_for_a_writer(self, tmp_path: Path, command: str) -> None:
        fifo = tmp_path / "f.game"
        os.mkfifo(fifo)
        result: list[tuple[int, str, str]] = []
        worker = threading.Thread(target=lambda: result.append(run_cli([command, str(fifo)])), daemon=True)
        worker.start()
        worker.join(30)
        if worker.is_alive():  # blocked opening the pipe: let it go, and fail
            with open(fifo, "w", encoding="utf-8"):
                pass
            worker.join(30)
            pytest.fail(f"'{command}' waited on a named pipe")
        code, _, err = result[0]
        assert code == exits.EXIT_INVALID
        assert err.startswith(f"{fifo}:1:1: error[E001]: cannot read '{fifo}': it is a named pipe, not a regular file")

    def test_a_device_is_no_records_file(self) -> None:
        code, out, err = run_bounded(["replay", "/dev/zero"])
        assert (code, out) == (exits.EXIT_USAGE, "")
        assert err == "ruledsl: error: cannot read '/dev/zero': it is a character device, not a regular file\n"

    def test_reading_stops_at_the_cap(self) -> None:
        with open("/dev/zero", "rb") as endless:
            assert read_at_most(endless, 100_001) == bytes(100_001)

    @pytest.mark.parametrize("command", ["simulate", "play"])
    def test_a_full_disk_under_the_game_log_is_an_error(self, command: str) -> None:
        extra = ["-n", "1"] if command == "simulate" else ["--seats", "random,random", "--seed", "1"]
        code, _, err = run_bounded([command, "quasenbo", *extra, "--log", "/dev/full"])
        assert code == exits.EXIT_USAGE
        assert err.endswith("ruledsl: error: cannot write the game log '/dev/full': No space left on device\n")
        assert "Traceback" not in err


class TestNumbers:
    """Numbers on the command line are bounded before anything is played: a usage error (exit 2), no traceback."""

    @pytest.mark.parametrize("command", ["simulate", "compare"])
    @pytest.mark.parametrize("n", ["99999999999999999999", "100000000"])
    def test_too_many_games(self, command: str, n: str) -> None:
        extra = ["--vary", "decks=1,2"] if command == "compare" else []
        code, out, err = run_cli([command, "quasenbo", "-n", n, *extra])
        assert (code, out) == (exits.EXIT_USAGE, "")
        assert err == f"ruledsl: error: -n takes at most 1,000,000 games, not {int(n):,}\n"

    def test_too_many_processes(self) -> None:
        code, out, err = run_cli(["simulate", "quasenbo", "-n", "2", "--jobs", "100000"])
        assert (code, out) == (exits.EXIT_USAGE, "")
        assert err == "ruledsl: error: --jobs takes at most 64 processes, not 100,000\n"

    @pytest.mark.parametrize("seconds", ["inf", "1e300", "3601"])
    def test_bench_takes_a_finite_time(self, seconds: str) -> None:
        code, out, err = run_cli(["bench", "quasenbo", "--seconds", seconds])
        assert (code, out) == (exits.EXIT_USAGE, "")
        assert err == f"ruledsl: error: --seconds takes at most 3,600 seconds (an hour), not {float(seconds):g}\n"

    @pytest.mark.parametrize("seconds", ["nan", "0"])
    def test_bench_takes_a_positive_time(self, seconds: str) -> None:
        code, _, err = run_cli(["bench", "quasenbo", "--seconds", seconds])
        assert (code, err) == (
            exits.EXIT_USAGE,
            f"ruledsl: error: --seconds takes a positive number of seconds, not {seconds}\n",
        )

    def test_bench_takes_a_bounded_number_of_rounds(self) -> None:
        code, out, err = run_cli(["bench", "quasenbo", "--repeats", "10000000000"])
        assert (code, out) == (exits.EXIT_USAGE, "")
        assert err == "ruledsl: error: --repeats takes a number from 1 to 1,000, not 10,000,000,000\n"


#: A game whose one action ends it: a human's only move, played at once.
ONE_MOVE = (
    'game "One Move"\nplayers 2\nzone deck: shared, hidden\nzone hand: per player, owner\ndeck:\n'
    '    card "A"\n    card "B"\nsetup:\n    shuffle deck\nphase play:\n'
    "    action finish:\n        end game, winner player\n"
)


class TestSeeds:
    """A seed drawn for a human's game is 64 bits of the system's randomness, and told only when the game is over."""

    def test_a_drawn_seed_has_64_bits(self) -> None:
        from ruledsl.cli.play import new_seed

        seeds = {new_seed() for _ in range(64)}
        assert len(seeds) == 64 and all(0 <= s < 1 << 64 for s in seeds)
        assert max(seeds) >= 1 << 40  # from 0 to 999,999 before: a first observation gave the deal away

    def test_a_human_is_told_the_seed_when_the_game_is_over(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        rules, log = tmp_path / "one.game", tmp_path / "one.jsonl"
        rules.write_text(ONE_MOVE, encoding="utf-8")
        monkeypatch.setattr(sys, "stdin", io.StringIO(""))
        code, out, _ = run_cli(["play", str(rules), "--seats", "human,random", "--log", str(log)])
        assert code == exits.EXIT_OK
        seed = json.loads(log.read_text(encoding="utf-8"))["seed"]
        lines = out.splitlines()
        assert lines[0] == "One Move: 2 players (P0 human, P1 random), seed shown at the end"
        assert str(seed) not in "\n".join(lines[:-1])
        assert lines[-2].startswith("Returns: ")
        assert lines[-1] == f"Seed: {seed} (--seed {seed} deals this game again)"

    def test_a_human_who_leaves_is_told_it_as_he_goes(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        log = tmp_path / "left.jsonl"
        monkeypatch.setattr(sys, "stdin", io.StringIO("q\n"))
        code, out, _ = run_cli(["play", "quasenbo", "--seats", "human,random", "--log", str(log)])
        assert code == exits.EXIT_UNFINISHED
        seed = json.loads(log.read_text(encoding="utf-8"))["seed"]
        assert ", seed shown at the end;" in out.splitlines()[0]
        assert out.index(f"Seed: {seed} ") > out.index("Game left unfinished")
        assert out.count(str(seed)) == 2

    def test_a_seed_given_or_bots_alone_are_shown_first(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setattr(sys, "stdin", io.StringIO("q\n"))
        code, out, _ = run_cli(["play", "quasenbo", "--seats", "human,random", "--seed", "7"])
        assert (code, out.count("seed 7;"), "Seed:" in out) == (exits.EXIT_UNFINISHED, 1, False)
        code, out, _ = run_cli(["play", "quasenbo", "--seats", "random,random"])
        assert code == exits.EXIT_OK and ", seed " in out.splitlines()[0] and "Seed:" not in out


#: Texts that would print lines of their own: the game's name, a card's, a 'say'.
FORGED = """game "Forged\\nResult: P0 wins (+1)"
players 2
zone deck: shared, public
zone hand: per player, public
deck:
    card "x\\nResult: P1 wins (+1)"
    card "y\\tz"
setup:
    say "a\\nResult: P1 wins (+1)"
phase play:
    action play(c: card from deck):
        move c to hand
        if deck is empty:
            end game, winner player
"""


def results(out: str) -> list[str]:
    return [line for line in out.splitlines() if line.startswith("Result")]


class TestForgedLines:
    """A text from a rule file, a record or the command line is printed on its line, its line breaks escaped."""

    def test_one_line_escapes_what_a_terminal_obeys(self) -> None:
        from ruledsl.text.render import one_line

        assert one_line("a\nb\tc\r\x1b[2J\u202e\u2028\x85 é ♠") == "a\\nb\\tc\\r\\x1b[2J\\u202e\\u2028\\x85 é ♠"
        assert one_line(one_line("a\nb")) == "a\\nb"

    def test_play_and_replay_print_no_forged_result(self, tmp_path: Path) -> None:
        rules, log = tmp_path / "forged.game", tmp_path / "forged.jsonl"
        rules.write_text(FORGED, encoding="utf-8")
        code, out, _ = run_cli(["play", str(rules), "--seats", "random,random", "--seed", "1", "--log", str(log)])
        assert code == exits.EXIT_OK
        assert results(out) == ["Result: P1 wins"]
        assert out.startswith("Forged\\nResult: P0 wins (+1): 2 players")
        assert "  a\\nResult: P1 wins (+1)\n" in out and "P0: play y\\tz\n" in out
        for viewer in ([], ["--as", "0"]):
            code, out, _ = run_cli(["replay", str(log), "--rules", str(rules), *viewer])
            assert code == exits.EXIT_OK
            assert results(out) == ["Result: P1 wins"]
        assert "deck: x\\nResult: P1 wins (+1), y\\tz (top last)\n" in out

    def test_a_human_sees_the_texts_escaped(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        rules = tmp_path / "forged.game"
        rules.write_text(FORGED, encoding="utf-8")
        monkeypatch.setattr(sys, "stdin", io.StringIO("q\n"))
        code, out, _ = run_cli(["play", str(rules), "--seats", "human,random", "--seed", "1"])
        assert code == exits.EXIT_UNFINISHED
        assert results(out) == []
        assert "  1) play x\\nResult: P1 wins (+1)\n" in out

    def test_a_record_cannot_forge_lines_with_its_seats(self, tmp_path: Path) -> None:
        log = tmp_path / "q.jsonl"
        assert run_cli(["simulate", "quasenbo", "-n", "1", "--log", str(log)])[0] == exits.EXIT_OK
        record = json.loads(log.read_text(encoding="utf-8"))
        record["seats"] = ["random\nResult: P1 wins (+1)", "random"]
        log.write_text(json.dumps(record) + "\n", encoding="utf-8")
        code, out, _ = run_cli(["replay", str(log)])
        assert code == exits.EXIT_OK
        assert len(results(out)) == 1 and "(P0 random\\nResult: P1 wins (+1), P1 random)" in out.splitlines()[0]

    def test_the_warning_quoting_a_log_stays_on_its_line(self, tmp_path: Path) -> None:
        log = tmp_path / "q.jsonl"
        assert run_cli(["simulate", "quasenbo", "-n", "1", "--log", str(log)])[0] == exits.EXIT_OK
        record = json.loads(log.read_text(encoding="utf-8"))
        forged = {**record, "game": "Other\nResult: P1 wins (+1)", "rules_sha256": "0" * 64}
        log.write_text(json.dumps(forged) + "\n", encoding="utf-8")
        code, _, err = run_cli(["simulate", "quasenbo", "-n", "1", "--log", str(log)])
        assert code == exits.EXIT_OK
        assert err.startswith(f"warning: '{log}' already holds records of another game, Other\\nResult: P1 wins (+1) (")

    def test_a_message_quoting_a_text_stays_on_its_line(self) -> None:
        from ruledsl.text.errors import Diagnostic
        from ruledsl.text.render import render

        shown = render(Diagnostic("R504", "this rule failed: a\nResult: P1 wins", hint="b\nc"))
        assert shown.splitlines() == [
            "<input>:1:1: error[R504]: this rule failed: a\\nResult: P1 wins",
            "  = hint: b\\nc",
        ]


class TestRecordsNameNoFile:
    """Replay reads the rule file the user names (--rules) or the bundled game the record names: never a path
    taken from the record alone."""

    @staticmethod
    def recorded(folder: Path) -> Path:
        """A game of folder/my.game recorded in folder/my.jsonl, which names the rule file 'my.game'; the log."""
        shutil.copy(ruledsl.bundled_games()["quasenbo"], folder / "my.game")
        assert run_cli(["simulate", "my.game", "-n", "1", "--log", "my.jsonl"], cwd=folder)[0] == exits.EXIT_OK
        return folder / "my.jsonl"

    def test_a_record_naming_a_secret_file_does_not_read_it(self, tmp_path: Path) -> None:
        log = self.recorded(tmp_path)
        secret = tmp_path / "secret.txt"
        secret.write_text("TOPSECRET words of another file\n", encoding="utf-8")
        record = json.loads(log.read_text(encoding="utf-8"))
        log.write_text(json.dumps({**record, "file": str(secret)}) + "\n", encoding="utf-8")
        code, out, err = run_cli(["replay", str(log)])
        assert (code, out) == (exits.EXIT_USAGE, "")
        assert "TOPSECRET" not in err
        assert err == (
            f"ruledsl: error: this game was played with the rule file '{secret}', and a replay reads no file "
            "a record names; give it with --rules FILE\n"
        )

    def test_the_rules_next_to_the_record_need_the_users_word(self, tmp_path: Path) -> None:
        log = self.recorded(tmp_path)
        code, out, err = run_cli(["replay", str(log)])
        assert (code, out) == (exits.EXIT_USAGE, "")
        assert err == (
            "ruledsl: error: this game was played with the rule file 'my.game' (next to the record: "
            f"'{tmp_path / 'my.game'}'), and a replay reads no file a record names; give it with --rules FILE\n"
        )
        code, out, err = run_cli(["replay", str(log), "--rules", str(tmp_path / "my.game")])
        assert (code, err) == (exits.EXIT_OK, "")
        assert out.startswith("Quäsenbö: 2 players (P0 random, P1 random), seed 0; replayed as a spectator saw it\n")

    def test_a_bundled_game_needs_no_word(self, tmp_path: Path) -> None:
        log = tmp_path / "q.jsonl"
        assert run_cli(["simulate", "quasenbo", "-n", "1", "--log", str(log)])[0] == exits.EXIT_OK
        code, out, _ = run_cli(["replay", str(log)])
        assert code == exits.EXIT_OK and out.startswith("Quäsenbö: 2 players")
