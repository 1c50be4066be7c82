"""Agents out of process from the command line (process:COMMAND): seated, played, and refused clearly when they fail."""

from __future__ import annotations

import json
import os
import random
import re
import sys
from pathlib import Path

import pytest

import ruledsl
from ruledsl.agents import (
    AgentSpecError,
    ProcessAgent,
    ProcessAgentError,
    SeatView,
    canonical_spec,
    decide,
    make_agent,
    parse_spec,
    split_seats,
)
from ruledsl.agents.process import message
from ruledsl.cli.app import main
from ruledsl.tools import leaks
from tests.extras import require

AGENT = Path(__file__).resolve().parent / "process_agent.py"


def spec(mode: str, *args: object, timeout: float | None = None, near: bool = False) -> str:
    """The --seats entry of the test agent in ``mode``; ``near``: named from its own directory (the
    working directory then), so that the command is short in a message wherever the tests are cloned."""
    options = f"timeout={timeout:g}:" if timeout is not None else ""
    return f"process:{options}{AGENT.name if near else AGENT} {mode}" + "".join(f" {a}" for a in args)


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def crazy_eights_at_p1() -> ruledsl.GameState:
    state = ruledsl.load_game("crazy_eights", players=2).new_initial_state(seed=7)
    while state.current_player() != 1:
        state.apply_action(state.legal_actions()[0])
    return state


class TestSpecs:
    def test_the_command_is_the_rest_of_the_entry(self) -> None:
        assert parse_spec("process:python3 bot.py --at 1:30") == ("process", {"command": "python3 bot.py --at 1:30"})
        assert parse_spec("Process:timeout=5:./bot") == ("process", {"timeout": "5", "command": "./bot"})
        assert canonical_spec(" PROCESS: timeout = 5 :./bot -x") == "process:timeout=5:./bot -x"
        assert parse_spec("ismcts:iterations=5") == ("ismcts", {"iterations": "5"})  # others as they were

    def test_a_comma_in_quotes_stays_in_the_command(self) -> None:
        seats = "human,process:bot.py --names 'a,b' \"c,d\" e\\,f,random"
        assert split_seats(seats) == ["human", "process:bot.py --names 'a,b' \"c,d\" e\\,f", "random"]
        assert split_seats("random,greedy") == ["random", "greedy"]

    def test_a_python_script_runs_with_this_interpreter(self) -> None:
        agent = make_agent(spec("first"), 0)
        assert agent.command == [sys.executable, str(AGENT), "first"]

    @pytest.mark.parametrize(
        ("entry", "error"),
        [
            ("process:", "needs a command"),
            ("process:   ", "needs a command"),
            ("process:no-such-program-here --x", "no program on PATH named 'no-such-program-here'"),
            ("process:/no/such/bot", "no program '/no/such/bot'"),
            ("process:missing_agent.py", "no script 'missing_agent.py'"),
            ("process:timeout=soon:./bot", "takes a number, not 'soon'"),
            ("process:timeout=0:./bot", "must be at least"),
            ("process:'python3 bot.py", "No closing quotation"),
        ],
    )
    def test_bad_entries_are_usage_errors(self, entry: str, error: str, capsys: pytest.CaptureFixture[str]) -> None:
        with pytest.raises(AgentSpecError, match=error):
            make_agent(entry, 0)
        with pytest.raises(SystemExit) as stop:
            main(["simulate", "crazy_eights", "-n", "1", "--players", "2", "--seats", f"random,{entry}"])
        err = capsys.readouterr().err
        assert stop.value.code == 2 and err.startswith("ruledsl: error: ") and err.count("\n") == 1
        assert "Traceback" not in err

    def test_serve_seats_none(self, capsys: pytest.CaptureFixture[str]) -> None:
        require("starlette", "serve")
        with pytest.raises(SystemExit) as stop:
            main(["serve", "crazy_eights", "--players", "2", "--seats", f"human,{spec('first')}"])
        assert stop.value.code == 2 and "no process agent" in capsys.readouterr().err


class TestPlaying:
    def test_play_seats_a_program(self, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        log = tmp_path / "games.jsonl"
        argv = ["play", "crazy_eights", "--players", "2", "--seed", "3", "--seats", f"random,{spec('first')}"]
        code, out, err = run([*argv, "--log", str(log)], capsys)
        assert code == 0, err
        assert out.splitlines()[0].startswith("Crazy Eights: 2 players (P0 random, P1 process:")
        assert "Result:" in out
        record = json.loads(log.read_text(encoding="utf-8").splitlines()[0])
        assert record["seats"][1] == canonical_spec(spec("first"))
        assert run(argv, capsys)[1] == out  # the same game again

    def test_simulate_is_the_same_in_one_process_or_two(self, capsys: pytest.CaptureFixture[str]) -> None:
        argv = ["simulate", "crazy_eights", "-n", "4", "--players", "2", "--seats", f"{spec('first')},random"]
        one = run([*argv, "--json"], capsys)
        two = run([*argv, "--json", "--jobs", "2"], capsys)
        assert one[0] == two[0] == 0, one[2] + two[2]
        results = [json.loads(o[1]) for o in (one, two)]
        for r in results:
            r.pop("seconds", None), r.pop("jobs", None), r.pop("games_per_second", None)
        assert results[0]["games"] == 4 and results[0] == results[1]

    def test_compare_seats_a_program(self, capsys: pytest.CaptureFixture[str]) -> None:
        argv = ["compare", "quasenbo", "--vary", "double=no,yes", "-n", "2", "--players", "2"]
        argv += ["--seats", f"{spec('first')},random"]
        code, out, err = run(argv, capsys)
        assert code == 0, err


class TestBrokenAgents:
    """Each way a program can fail: one line naming the seat, exit 3, the game as it was, the program gone."""

    @pytest.fixture(autouse=True)
    def _at_the_agent(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.chdir(AGENT.parent)  # for spec(..., near=True): a message holds the whole command

    @pytest.mark.parametrize(
        ("mode", "timeout", "error"),
        [
            ("crash", None, r"P1's agent \(process_agent.py crash\) exited with code 3 "),
            ("hang", 1, r"P1's agent \(.*\) did not answer within 1 s"),
            ("half", 1, "did not answer within 1 s"),
            ("deaf", 1, "did not answer within 1 s"),
            ("garbage", None, r"answered 'I play the ace', not \{\"action\": LABEL\}"),
            ("flood", None, "answered a line of over 65,536 bytes"),
            ("steal", None, r"chose 'play (\S+)', which is not one of its legal actions: \1 is not in your hand"),
        ],
    )
    def test_play_stops_with_one_line(
        self, mode: str, timeout: float | None, error: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        args = [tmp_path / "pid"] if mode == "hang" else []
        entry = spec(mode, *args, timeout=timeout, near=True)
        log = tmp_path / "games.jsonl"
        argv = ["play", "crazy_eights", "--players", "2", "--seed", "7", "--seats", f"first,{entry}", "--log", str(log)]
        code, out, err = run(argv, capsys)
        assert code == 3, err
        assert "Traceback" not in err and len(err.splitlines()) == 1, err
        assert err.startswith("ruledsl: error: P1's agent (") and re.search(error, err), err
        assert "Game left unfinished after" in out
        record = json.loads(log.read_text(encoding="utf-8").splitlines()[-1])
        assert record["unfinished"] is True, record

    def test_simulate_stops_with_one_line(self, capsys: pytest.CaptureFixture[str]) -> None:
        argv = [
            "simulate",
            "crazy_eights",
            "-n",
            "3",
            "--players",
            "2",
            "--seats",
            f"random,{spec('garbage', near=True)}",
        ]
        for jobs in ("1", "2"):
            code, out, err = run([*argv, "--jobs", jobs], capsys)
            assert code == 3 and "Traceback" not in err
            assert err.splitlines() == [
                "ruledsl: error: P1's agent (process_agent.py garbage)"
                + """ answered 'I play the ace', not {"action": LABEL}"""
            ]

    def test_the_game_is_left_as_it_was_and_the_program_ends(self, tmp_path: Path) -> None:
        state = crazy_eights_at_p1()
        before = (state.n_actions, [state.observation(q) for q in range(2)], [str(a) for a in state.history()])
        agent = make_agent(spec("hang", tmp_path / "pid", timeout=1), 0)
        with pytest.raises(ProcessAgentError, match="did not answer within 1 s"):
            decide(agent, state, 1)
        assert (state.n_actions, [state.observation(q) for q in range(2)], [str(a) for a in state.history()]) == before
        pid = int((tmp_path / "pid").read_text())
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)  # killed and reaped at once, not left to run
        state.apply_action(state.legal_actions()[0])  # the game goes on, with another player in the seat
        assert state.n_actions == before[0] + 1


class TestWhatTheProgramIsSent:
    def test_it_is_sent_its_seats_view_alone(self, tmp_path: Path) -> None:
        """Each line the program reads is the seat's observation and legal labels, nothing else."""
        seen = tmp_path / "seen.jsonl"
        state = ruledsl.load_game("president", players=3).new_initial_state(seed=2)
        expected = []
        rng = random.Random(2)
        with ProcessAgent([sys.executable, str(AGENT), "record", str(seen)], timeout=30) as agent:
            while not state.is_terminal() and state.n_actions < 60:
                seat = state.current_player()
                if seat == 1:
                    expected.append(
                        {
                            "seat": 1,
                            "observation": state.observation(1),
                            "legal_actions": [str(a) for a in state.legal_actions()],
                        }
                    )
                    assert message(SeatView(state, 1)) == json.dumps(expected[-1])
                    action = decide(agent, state, seat)
                else:
                    action = rng.choice(state.legal_actions())
                state.apply_action(action)
        lines = seen.read_text(encoding="utf-8").splitlines()
        assert len(lines) == len(expected) > 3
        assert [json.loads(line) for line in lines] == expected

    def test_its_seed_does_not_lead_back_to_the_games(self, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        """RULEDSL_AGENT_SEED was (seed * 1,000,003 + seat * 7,919 + 17) mod 2**32: an agent undid it,
        found the low 32 bits of the game's seed, searched the other 32 with its first view, and so knew
        every hidden card. Now it is a one-way function of the game's seed: the same for the same seed
        and seat (the game replays), another for another seat."""
        game_seed = 0x5EED_CAFE_F00D_1234

        def seeds(run_dir: Path) -> list[int]:
            files = [run_dir / f"seat{q}" for q in range(2)]
            seats = f"{spec('seed', files[0])},{spec('seed', files[1])}"
            code, _, err = run(
                ["play", "crazy_eights", "--players", "2", "--seed", str(game_seed), "--seats", seats], capsys
            )
            assert code == 0, err
            return [int(f.read_text()) for f in files]

        (tmp_path / "a").mkdir()
        (tmp_path / "b").mkdir()
        first, again = seeds(tmp_path / "a"), seeds(tmp_path / "b")
        assert first == again and first[0] != first[1]
        undo = pow(1_000_003, -1, 2**32)
        for seat, agent_seed in enumerate(first):
            assert ((agent_seed - 17 - seat * 7_919) * undo) % 2**32 != game_seed % 2**32
            assert agent_seed % 2**32 != ((game_seed * 1_000_003 + seat * 7_919 + 17) % 2**32)

    @pytest.mark.parametrize(("name", "players"), [("president", 3), ("crazy_eights", 2), ("go_fish", 3)])
    def test_the_line_hangs_on_no_hidden_card(self, name: str, players: int) -> None:
        only = {"process agent": leaks.SURFACES["process agent"]}
        report = leaks.check_game(
            ruledsl.load_game(name, players=players), range(1), 3, 2, leaks.Report(), surfaces=only
        )
        assert report.comparisons > 20 and report.followed
        assert not report.leaks, str(report.leaks[0])[:300]
