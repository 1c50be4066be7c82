"""Game records: written and read back, replayed exactly, refused when the rules changed, shown per seat."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
from pathlib import Path

import pytest

import ruledsl
from ruledsl import cli
from ruledsl.format import unparse
from ruledsl.syntax.parser import parse_source
from ruledsl.text.errors import IllegalActionError, RuleRuntimeError
from ruledsl.tools.records import (
    FORMAT,
    RecordError,
    another_run,
    describe_view,
    load_recorded_game,
    read_entries,
    read_records,
    record_of_game,
    record_of_state,
    render_replay,
    replay,
    rules_hash,
    write_records,
)
from ruledsl.tools.simulate import play_game, run_games
from tests.golden.test_golden import run_cli


def simulated(name: str, players: int, seed: int, seats: list[str]) -> dict:
    game = ruledsl.load_game(name, players=players)
    r = play_game(game, seed, seats, keep_labels=True)
    return record_of_game(game, r)


class TestFiles:
    def test_write_and_read_back(self, tmp_path: Path) -> None:
        records = [simulated("quasenbo", 2, s, ["random", "first"]) for s in range(3)]
        path = tmp_path / "games.jsonl"
        write_records(path, records[:2])
        write_records(path, records[2:])  # appends
        back = read_records(path)
        assert back == json.loads(json.dumps(records))
        assert back[0]["format"] == FORMAT
        assert back[0]["rules_sha256"] == rules_hash(ruledsl.load_game("quasenbo"))

    def test_a_bad_line_is_named(self, tmp_path: Path) -> None:
        path = tmp_path / "bad.jsonl"
        path.write_text('{"file": "x"}\n', encoding="utf-8")
        with pytest.raises(RecordError, match=r"bad.jsonl:1: the record lacks 'format', 'rules_sha256', 'players'"):
            read_records(path)
        path.write_text("\n[1, 2]\n", encoding="utf-8")
        with pytest.raises(RecordError, match=r"bad.jsonl:2: a record is a JSON object"):
            read_records(path)
        path.write_text("{oops\n", encoding="utf-8")
        with pytest.raises(RecordError, match=r"bad.jsonl:1: not a JSON record"):
            read_records(path)

    def test_a_missing_file(self, tmp_path: Path) -> None:
        with pytest.raises(RecordError, match="cannot read"):
            read_records(tmp_path / "none.jsonl")

    @pytest.mark.parametrize(
        ("key", "value", "wrong"),
        [
            ("seed", "abc", 'must be a whole number, not "abc"'),
            ("seed", True, "must be a whole number, not true"),
            ("actions", 5, "must be a list of action labels (texts), not 5"),
            ("options", ["x"], "must be an object of option values (true or false, whole numbers, texts), not a list"),
            ("players", 0, "must be a whole number of at least 1, not 0"),
            ("players", "2", 'must be a whole number of at least 1, not "2"'),
            ("file", "", 'must be the path of a rule file, not ""'),
            ("rules_sha256", "abc", 'must be 64 hex digits, not "abc"'),
            ("bundled", "yes", 'must be true or false, not "yes"'),
            ("ruledsl", 1, "must be a text, not 1"),
            ("max_actions", 0, "must be a whole number of at least 1, not 0"),
            ("unfinished", 1, "must be true or false, not 1"),
            ("rotate", "no", 'must be true or false, not "no"'),
            ("returns", [1, "x"], "must be a list of numbers, but item 2 is a text"),
            # An item is named by its kind alone: the labels of a record hold what each seat saw.
            (
                "actions",
                ["play the Sailor", ["play the Bard"]],
                "must be a list of action labels (texts), but item 2 is a list",
            ),
            ("actors", [0, "play the Bard"], "must be a list of seats (whole numbers), but item 2 is a text"),
            ("seats", {"P0": "random"}, "must be a list of agents (texts), not an object"),
            (
                "options",
                {"decks": [1]},
                "must be an object of option values (true or false, whole numbers, texts), but 'decks' is a list",
            ),
        ],
    )
    def test_a_field_of_the_wrong_kind_is_named(self, key: str, value: object, wrong: str, tmp_path: Path) -> None:
        good = simulated("quasenbo", 2, 0, ["random", "random"])
        path = tmp_path / "bad.jsonl"
        write_records(path, [good, {**good, key: value}])
        with pytest.raises(RecordError) as info:
            read_records(path)
        assert str(info.value) == f"{path}:2: the record's '{key}' {wrong}"

    def test_seats_and_returns_must_be_one_per_player(self, tmp_path: Path) -> None:
        good = simulated("quasenbo", 2, 0, ["random", "random"])
        path = tmp_path / "bad.jsonl"
        write_records(path, [{**good, "seats": ["random"]}])
        with pytest.raises(RecordError, match=r"bad.jsonl:1: the record's 'seats' has 1 entries for 2 players"):
            read_records(path)

    def test_a_format_not_read_is_refused_naming_the_ones_read(self, tmp_path: Path) -> None:
        path = tmp_path / "future.jsonl"
        write_records(path, [{"format": "ruledsl-record/9", "moves": []}])
        with pytest.raises(RecordError) as info:
            read_records(path)
        assert str(info.value) == (
            f'{path}:1: the record\'s format is "ruledsl-record/9"; this version of ruledsl reads '
            "ruledsl-record/2 or ruledsl-record/1"
        )

    def test_lines_end_at_newlines_only(self, tmp_path: Path) -> None:
        # JSON Lines ends a record at \n; other line breaks may stand in a label, unescaped.
        record = {**simulated("quasenbo", 2, 0, ["random", "random"]), "seats": ["a\u2028b", "c\u2029d"]}
        path = tmp_path / "games.jsonl"
        write_records(path, [record, record])
        assert read_records(path) == [record, record]

    @pytest.mark.parametrize(
        ("key", "value", "char"),
        [
            ("seats", ["random\x1b[2J", "random"], "U+001B"),
            ("actions", ["play the Sailor", "\x1b[2Jdraw"], "U+001B"),
            ("game", "Quasenbo\x9b2J", "U+009B"),  # the one-character CSI of 8-bit terminals
            ("file", "quasenbo.game\r", "U+000D"),  # a return: what follows writes over the line
            ("options", {"\x1b[2J": 1}, "U+001B"),
            ("error", {"code": "R506", "message": "stuck", "hint": "\x1b]0;title\x07"}, "U+001B"),
        ],
    )
    def test_a_control_character_in_any_text_is_refused_without_being_printed(
        self, key: str, value: object, char: str, tmp_path: Path
    ) -> None:
        # A record's texts reach the terminal (replay prints labels, seats, recorded errors):
        # as a rule file (E102), a record may hold no character a terminal would obey.
        path = tmp_path / "hostile.jsonl"
        write_records(path, [{**simulated("quasenbo", 2, 0, ["random", "random"]), key: value}])
        with pytest.raises(RecordError) as info:
            read_records(path)
        assert str(info.value) == (
            f"{path}:1: the record's field '{key}' holds the control character {char}, which a terminal could obey; "
            "ruledsl writes none in a record"
        )

    def test_a_control_character_in_a_field_name_is_refused_without_naming_it(self, tmp_path: Path) -> None:
        path = tmp_path / "hostile.jsonl"
        write_records(path, [{**simulated("quasenbo", 2, 0, ["random", "random"]), "x\x1b[2J": 1}])
        with pytest.raises(RecordError, match="hostile.jsonl:1: the name of a field holds the control"):
            read_records(path)

    def test_replay_of_a_hostile_record_prints_no_control_character(self, tmp_path: Path) -> None:
        record = simulated("quasenbo", 2, 0, ["random", "random"])
        clear = "\x1b[2J"
        hostile = {
            **record,
            "seats": ["random" + clear, "random"],
            "actions": [record["actions"][0] + clear, *record["actions"][1:]],
            "error": {"code": "R506", "message": clear, "hint": clear},
            "stuck": True,
        }
        path = tmp_path / "hostile.jsonl"
        write_records(path, [hostile])
        code, out, err = run_cli(["replay", str(path)])
        assert code != 0 and out == ""
        assert "\x1b" not in err and "the control character U+001B" in err

    def test_a_damaged_line_leaves_the_others_readable(self, tmp_path: Path) -> None:
        records = [simulated("quasenbo", 2, s, ["random", "random"]) for s in range(3)]
        path = tmp_path / "cut.jsonl"
        write_records(path, records)
        text = path.read_text(encoding="utf-8")
        # Cut short by a crash, then a game appended; a line not UTF-8; a line nested too deep.
        with open(path, "ab") as f:
            f.write(text.splitlines()[0][:50].encode() + b"\n\xff\n" + b"[" * 100_000 + b"\n\n")
        write_records(path, records[:1])
        entries = read_entries(path)
        assert [e.line for e in entries] == [1, 2, 3, 4, 5, 6, 8]
        assert [e.record for e in entries] == [*records, None, None, None, records[0]]
        assert str(entries[3].problem).startswith(f"{path}:4: not a JSON record (")
        assert str(entries[4].problem) == f"{path}:5: not UTF-8 text"
        assert str(entries[5].problem) == f"{path}:6: not a JSON record ruledsl can read"
        with pytest.raises(RecordError, match=r"cut.jsonl:4: not a JSON record"):
            read_records(path)


class TestReplay:
    @pytest.mark.parametrize(("name", "players"), [("quasenbo", 3), ("katzenjammer_blues", 3), ("cartes_magiques", 2)])
    def test_replays_to_the_same_end(self, name: str, players: int) -> None:
        record = simulated(name, players, 7, ["random"] * players)
        game = load_recorded_game(record)
        state = replay(record, game)
        assert state.returns() == record["returns"]
        assert state.n_actions == len(record["actions"])

    def test_options_are_kept(self) -> None:
        game = ruledsl.load_game("quasenbo", players=2, options={"excuse": "true", "hand_size": "5"})
        r = play_game(game, 3, ["random", "random"], keep_labels=True)
        record = json.loads(json.dumps(record_of_game(game, r)))
        again = load_recorded_game(record)
        assert again.options == game.options
        assert replay(record, again).returns() == r.returns

    @staticmethod
    def recorded_copy(tmp_path: Path) -> tuple[Path, dict]:
        """A copy of Quäsenbö's rules, and the record of a game played with it."""
        rules = tmp_path / "q.game"
        shutil.copy(ruledsl.bundled_games()["quasenbo"], rules)
        game = ruledsl.load_game(str(rules), players=2)
        r = play_game(game, 1, ["random", "random"], keep_labels=True)
        record = record_of_game(game, r)
        assert replay(record, load_recorded_game(record, str(rules))).returns() == r.returns
        return rules, record

    def test_comments_and_layout_may_change(self, tmp_path: Path) -> None:
        rules, record = self.recorded_copy(tmp_path)
        text = rules.read_text(encoding="utf-8")
        text = "# a comment at the top\n" + text.replace("players 2 to 6", "players   2 to 6   # spaced out")
        text = text.replace("    ", "\t").replace("\t", "        ")  # indented by 8 rather than 4
        assert "spaced out" in text
        rules.write_text(text + "\n\n# and one at the end\n", encoding="utf-8")
        game = load_recorded_game(record, str(rules))
        assert replay(record, game).returns() == record["returns"]

    @pytest.mark.parametrize("name", sorted(ruledsl.bundled_games()))
    def test_the_hash_is_taken_of_text_no_width_broke(self, name: str) -> None:
        # So that fmt may learn to break lines differently without orphaning a record: every
        # line hashed closes each bracket it opens, where fmt's own layout breaks long ones.
        tree = parse_source(ruledsl.load_game(name).source)
        hashed = unparse.unparse(tree, unparse.UNBROKEN)
        assert hashlib.sha256(hashed.encode()).hexdigest() == rules_hash(ruledsl.load_game(name))
        assert all(line.count("(") == line.count(")") for line in hashed.splitlines())
        assert unparse.unparse(tree, unparse.UNBROKEN) != unparse.unparse(tree)  # fmt does break some

    def test_a_record_of_format_1_is_checked_against_the_layout_of_its_time(self, tmp_path: Path) -> None:
        # Quäsenbö's triple_suits is broken at its `where (` by fmt now, not when records of format 1
        # were written: their hash is still taken of the layout of then.
        record = simulated("quasenbo", 2, 4, ["random", "random"])
        game = ruledsl.load_game("quasenbo", players=2)
        assert unparse.unparse(parse_source(game.source), unparse.RECORD1) != unparse.unparse(parse_source(game.source))
        old = {**record, "format": "ruledsl-record/1", "rules_sha256": rules_hash(game, "ruledsl-record/1")}
        assert old["rules_sha256"] != record["rules_sha256"]
        assert replay(old, load_recorded_game(old)).returns() == record["returns"]
        with pytest.raises(RecordError, match="has changed since this game was recorded"):
            load_recorded_game({**old, "rules_sha256": record["rules_sha256"]})

    def test_a_changed_rule_is_refused(self, tmp_path: Path) -> None:
        rules, record = self.recorded_copy(tmp_path)
        text = rules.read_text(encoding="utf-8")
        assert "players 2 to 6" in text
        rules.write_text(text.replace("players 2 to 6", "players 2 to 5"), encoding="utf-8")
        with pytest.raises(RecordError) as info:
            load_recorded_game(record, str(rules))
        assert re.fullmatch(
            r"'.*q\.game' has changed since this game was recorded \(rules sha256 [0-9a-f]{12}\.\.\. then, "
            r"[0-9a-f]{12}\.\.\. now\); a replay needs the rule file the game was played with",
            str(info.value),
        )

    def test_rules_that_no_longer_parse_are_refused_as_changed(self, tmp_path: Path) -> None:
        rules, record = self.recorded_copy(tmp_path)
        rules.write_text(rules.read_text(encoding="utf-8").replace("players 2 to 6", "players 2 to"), encoding="utf-8")
        with pytest.raises(
            RecordError, match=r"q\.game' has changed since this game was recorded: it no longer parses \("
        ):
            load_recorded_game(record, str(rules))

    def test_an_action_that_is_not_legal_is_named(self) -> None:
        record = simulated("quasenbo", 2, 2, ["random", "random"])
        record["actions"][3] = "play the Moon Itself"
        with pytest.raises(RecordError, match=r"action 4 \('play the Moon Itself'\) is not legal at that point"):
            replay(record, load_recorded_game(record))


class TestVersion:
    """Each record names the ruledsl that wrote it; replay reads records without it, and of any version."""

    def test_a_record_names_this_version(self) -> None:
        assert simulated("quasenbo", 2, 0, ["random", "random"])["ruledsl"] == ruledsl.__version__

    def test_a_record_without_a_version_still_replays(self, tmp_path: Path) -> None:
        record = simulated("quasenbo", 2, 4, ["random", "random"])
        del record["ruledsl"]  # as written before records named it
        path = tmp_path / "old.jsonl"
        write_records(path, [record])
        code, out, err = run_cli(["replay", str(path)])
        assert (code, err) == (0, "")
        assert out.startswith("Quäsenbö: 2 players (P0 random, P1 random), seed 4")

    def test_another_version_is_not_refused_nor_mentioned_when_the_replay_works(self, tmp_path: Path) -> None:
        path = tmp_path / "other.jsonl"
        write_records(path, [{**simulated("quasenbo", 2, 4, ["random", "random"]), "ruledsl": "0.0.1"}])
        code, _, err = run_cli(["replay", str(path)])
        assert (code, err) == (0, "")

    def test_another_version_is_mentioned_when_the_replay_fails(self, tmp_path: Path) -> None:
        record = {**simulated("quasenbo", 2, 2, ["random", "random"]), "ruledsl": "0.0.1"}
        record["actions"][3] = "play the Moon Itself"
        path = tmp_path / "other.jsonl"
        write_records(path, [record, {**record, "ruledsl": ruledsl.__version__}])
        code, _, err = run_cli(["replay", str(path)])
        assert code == 2
        assert err == (
            "ruledsl: error: action 4 ('play the Moon Itself') is not legal at that point of the replay "
            "(the game was recorded with ruledsl 0.0.1, another version than this one)\n"
        )
        code, _, err = run_cli(["replay", str(path), "--game", "2"])  # this version: nothing to mention
        assert code == 2 and err.endswith("is not legal at that point of the replay\n")

    @pytest.mark.parametrize("command", [["play", "quasenbo", "--seed", "1"], ["simulate", "quasenbo", "-n", "2"]])
    def test_the_command_line_logs_it(self, command: list[str], tmp_path: Path) -> None:
        log = tmp_path / "games.jsonl"
        assert run_cli([*command, "--seats", "random,random", "--log", str(log)])[0] == 0
        assert {r["ruledsl"] for r in read_records(log)} == {ruledsl.__version__}
        assert {r["max_actions"] for r in read_records(log)} == {20_000}  # the bound, the default one here


class TestAnotherRun:
    """Appending to a log that holds records of another game or other settings is allowed, with a warning."""

    def log(self, tmp_path: Path, *records: dict) -> Path:
        path = tmp_path / "runs.jsonl"
        write_records(path, records)
        return path

    def test_records_of_the_same_setting_are_no_other_run(self, tmp_path: Path) -> None:
        game = ruledsl.load_game("quasenbo", players=2)
        path = self.log(tmp_path, *(simulated("quasenbo", 2, s, ["random", "first"]) for s in range(3)))
        with open(path, "a", encoding="utf-8") as f:
            f.write('{"damaged\n\n')  # left for replay to report
        assert another_run(path, [game], [["random", "first"]]) is None
        assert another_run(tmp_path / "none.jsonl", [game], [["random", "first"]]) is None

    def test_another_game_is_named_with_its_rules(self, tmp_path: Path) -> None:
        katz = simulated("katzenjammer_blues", 3, 0, ["random"] * 3)
        path = self.log(tmp_path, simulated("quasenbo", 3, 0, ["random"] * 3), katz)
        game = ruledsl.load_game("quasenbo", players=3)
        assert another_run(path, [game], [["random"] * 3]) == (
            f"records of another game, Katzenjammer Blues (katzenjammer_blues.game, "
            f"sha256 {katz['rules_sha256'][:12]}...)"
        )

    def test_other_rules_of_the_same_game(self, tmp_path: Path) -> None:
        record = {**simulated("quasenbo", 2, 0, ["random", "random"]), "rules_sha256": "0" * 64}
        game = ruledsl.load_game("quasenbo", players=2)
        assert another_run(self.log(tmp_path, record), [game], [["random", "random"]]) == (
            "records of Quäsenbö played with other rules (quasenbo.game, sha256 000000000000...)"
        )

    def test_each_setting_that_differs_is_named(self, tmp_path: Path) -> None:
        path = self.log(tmp_path, simulated("quasenbo", 2, 0, ["random", "random"]))
        game = ruledsl.load_game("quasenbo", players=2, options={"double": "yes", "hand_size": "5"}, max_actions=50)
        assert another_run(path, [game], [["random", "first"]]) == (
            "records of Quäsenbö with other settings (seats random,random, not random,first; "
            "options double=no, hand_size=7, not double=yes, hand_size=5; at most 20,000 actions a game, not 50)"
        )
        three = ruledsl.load_game("quasenbo", players=3)
        assert another_run(path, [three], [["random"] * 3]) == (
            "records of Quäsenbö with other settings (2 players, not 3)"
        )

    def test_a_record_without_a_bound_was_played_with_the_default_one(self, tmp_path: Path) -> None:
        record = simulated("quasenbo", 2, 0, ["random", "random"])
        del record["max_actions"]
        path = self.log(tmp_path, record)
        assert another_run(path, [ruledsl.load_game("quasenbo", players=2)], [["random", "random"]]) is None
        bounded = ruledsl.load_game("quasenbo", players=2, max_actions=50)
        assert another_run(path, [bounded], [["random", "random"]]) == (
            "records of Quäsenbö with other settings (at most 20,000 actions a game, not 50)"
        )

    def test_a_rotating_run_takes_each_rotation_as_its_own(self, tmp_path: Path) -> None:
        path = tmp_path / "runs.jsonl"
        code, _, err = run_cli(
            ["simulate", "quasenbo", "-n", "4", "--rotate", "--seats", "random,first", "--log", str(path)]
        )
        assert (code, err.count("warning")) == (0, 0)
        code, _, err = run_cli(
            [
                "simulate",
                "quasenbo",
                "-n",
                "4",
                "--seed",
                "4",
                "--rotate",
                "--seats",
                "random,first",
                "--log",
                str(path),
            ]
        )
        assert (code, err.count("warning")) == (0, 0)
        code, _, err = run_cli(["simulate", "quasenbo", "-n", "2", "--seats", "random,first", "--log", str(path)])
        assert "(seats first,random, not random,first)" in err

    @pytest.mark.parametrize("command", [["play", "quasenbo", "--seed", "1"], ["simulate", "quasenbo", "-n", "3"]])
    def test_the_command_line_warns_once_and_appends_anyway(self, command: list[str], tmp_path: Path) -> None:
        path = tmp_path / "runs.jsonl"
        for _ in range(2):  # a new file, then one of the same setting: no warning
            code, _, err = run_cli([*command, "--seats", "random,random", "--log", str(path)])
            assert code == 0 and "warning" not in err
        before = len(read_records(path)) // 2
        code, _, err = run_cli([*command, "--seats", "random,first", "--log", str(path)])
        assert code == 0
        assert err.splitlines()[0] == (
            f"warning: '{path}' already holds records of Quäsenbö with other settings "
            "(seats random,random, not random,first); appending anyway"
        )
        assert err.count("warning") == 1
        assert len(read_records(path)) == 3 * before


class TestRuleFiles:
    """Where a replay finds the rules: by name for a bundled game, else from the record file's folder."""

    @staticmethod
    def changed_copy(folder: Path, name: str) -> None:
        """Write a copy of Quäsenbö with a rule changed, as a user may have next to his records."""
        text = ruledsl.bundled_games()["quasenbo"].read_text(encoding="utf-8")
        (folder / name).write_text(text.replace("players 2 to 6", "players 2 to 5"), encoding="utf-8")

    def test_a_bundled_game_is_found_as_bundled(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        record = simulated("quasenbo", 2, 0, ["random", "random"])
        assert (record["file"], record["bundled"]) == ("quasenbo.game", True)
        log = tmp_path / "games.jsonl"
        write_records(log, [record])
        self.changed_copy(tmp_path, "quasenbo.game")
        monkeypatch.chdir(tmp_path)
        back = read_records(log)[0]
        assert replay(back, load_recorded_game(back, folder=tmp_path)).returns() == record["returns"]

    def test_an_older_record_of_a_bundled_game_finds_it_past_a_changed_copy(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        record = {**simulated("quasenbo", 2, 0, ["random", "random"]), "file": "quasenbo.game"}
        del record["bundled"]  # as records were written before
        self.changed_copy(tmp_path, "quasenbo.game")
        monkeypatch.chdir(tmp_path)
        assert replay(record, load_recorded_game(record, folder=tmp_path)).returns() == record["returns"]

    def test_a_bundled_game_this_version_lacks_is_named(self) -> None:
        record = {**simulated("quasenbo", 2, 0, ["random", "random"]), "file": "gone.game"}
        with pytest.raises(RecordError) as info:
            load_recorded_game(record)
        assert str(info.value) == (
            "this game was recorded with the bundled game 'gone', which this version of ruledsl does not have; "
            "give its rules with --rules FILE"
        )

    @staticmethod
    def recorded_apart(root: Path) -> Path:
        """A game of root/rules/my.game recorded in root/logs/games.jsonl; the log's path."""
        (root / "rules").mkdir(parents=True)
        (root / "logs").mkdir()
        shutil.copy(ruledsl.bundled_games()["quasenbo"], root / "rules" / "my.game")
        game = ruledsl.load_game(str(root / "rules" / "my.game"), players=2)
        r = play_game(game, 1, ["random", "random"], keep_labels=True)
        log = root / "logs" / "games.jsonl"
        write_records(log, [record_of_game(game, r)])
        return log

    def test_rules_and_records_moved_together_still_replay(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        log = self.recorded_apart(tmp_path / "before")
        assert json.loads(log.read_text(encoding="utf-8"))["file"] == "../rules/my.game"
        (tmp_path / "before").rename(tmp_path / "after")
        (tmp_path / "elsewhere").mkdir()
        monkeypatch.chdir(tmp_path / "elsewhere")
        folder = Path("../after/logs")
        record = read_records(folder / "games.jsonl")[0]
        with pytest.raises(RecordError, match="a replay reads no file a record names; give it with --rules FILE"):
            load_recorded_game(record, folder=folder)  # the record's path is said, not read (issue 31)
        game = load_recorded_game(record, "../after/rules/my.game", folder)
        assert replay(record, game).returns() == record["returns"]

    def test_rules_not_found_are_named_with_a_hint(self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
        log = self.recorded_apart(tmp_path)
        (tmp_path / "rules" / "my.game").unlink()
        monkeypatch.chdir(tmp_path)
        record = read_records(log)[0]
        with pytest.raises(RecordError) as info:
            load_recorded_game(record, folder="logs")
        assert str(info.value) == (
            "this game was played with the rule file '../rules/my.game' (next to the record: 'rules/my.game'), "
            "and a replay reads no file a record names; give it with --rules FILE"
        )

    def test_rules_of_another_game_are_named_as_such(self) -> None:
        record = simulated("quasenbo", 3, 0, ["random"] * 3)
        with pytest.raises(RecordError) as info:
            load_recorded_game(record, rules="katzenjammer_blues")
        assert str(info.value) == (
            "'katzenjammer_blues' is another game ('Katzenjammer Blues') than the one recorded ('Quäsenbö'); "
            "a replay needs the rule file the game was played with"
        )


class TestRendering:
    # Games in which some card never comes into seat 1's view (in a long game every card can).
    @pytest.mark.parametrize("seed", [0, 1, 3, 4])
    def test_a_seat_sees_no_card_it_never_saw(self, seed: int) -> None:
        record = simulated("quasenbo", 3, seed, ["random", "random", "random"])
        game = load_recorded_game(record)
        viewer = 1
        seen: set[str] = set()
        state = game.new_initial_state(seed=seed)
        for label in [None, *record["actions"]]:
            if label is not None:
                state.apply_action(state.action_from_string(label))
            obs = state.observation(viewer)
            for zone in obs["zones"].values():
                for z in zone if isinstance(zone, list) else [zone]:
                    seen.update(c for c in z.get("cards", []) if c is not None)
        text = "\n".join(render_replay(record, game, viewer))
        shown = {name for name in game.program.card_names if re.search(re.escape(name) + r"\b", text)}
        assert shown and shown <= seen
        never_seen = set(game.program.card_names) - seen
        assert never_seen  # the test means something: some cards stayed hidden

    def test_the_cards_of_each_player_are_kept_apart(self) -> None:
        record = simulated("cartes_magiques", 3, 0, ["random", "random", "random"])
        game = load_recorded_game(record)
        line = next(x for x in render_replay(record, game, 0) if x.startswith("faceup: "))
        p1, p2 = line.removeprefix("faceup: ").split("; ")
        assert p1.startswith("P1: ") and p2.startswith("P2: ") and p1.count(", ") == 2

    def test_each_action_is_shown_as_the_viewer_saw_it(self) -> None:
        record = simulated("quasenbo", 2, 0, ["random", "random"])
        game = load_recorded_game(record)
        lines = list(render_replay(record, game, 0))
        assert lines[0].endswith("replayed as P0 saw it")
        acted = [line for line in lines if re.match(r"P\d( \(you\))?: ", line)]
        assert len(acted) == len(record["actions"])
        assert any(line.startswith("your hand: ") for line in lines)
        assert lines[-1].startswith("Returns: ")
        spectator = list(render_replay(record, game, None))
        assert not any(line.startswith("your hand") for line in spectator)


# Cards turned face up or down: each zone then lists only the cards its viewer sees.
FACES = """game "Faces"
players 2 to 2
values rank: 1, 2, 3
card rank: rank
deck:
    card "c{rank}" for rank in 1 to 3
zone stock: shared, hidden
zone shown: per player, public
zone hand: per player, owner
var score = 0
var opener: player = seat 0
setup:
    shuffle stock
    deal 1 from stock to each hand face up
    go to play with seat 0
phase play:
    action take when stock is not empty:
        move top of stock to shown face up
    action stop when stock is empty:
        end game, winner player
"""


class TestUnfinished:
    def test_a_game_left_before_its_end_is_marked_unfinished_and_replays_to_where_it_stopped(self) -> None:
        game = ruledsl.load_game("quasenbo", players=2)
        state = game.new_initial_state(seed=5)
        for _ in range(3):
            state.apply_action(state.legal_actions()[0])
        # The third action was cut short by Ctrl-C: only the actions of the actors count.
        record = record_of_state(game, 5, ["human", "random"], state, [0, 1])
        assert record["unfinished"] is True and "returns" not in record
        assert record["actions"] == [str(a) for a in state.history()[:2]]
        assert replay(record, game).n_actions == 2
        assert list(render_replay(record, game, None))[-1] == "Result: the game was left unfinished after 2 actions"

    def test_a_finished_game_is_recorded_as_before(self) -> None:
        game = ruledsl.load_game("quasenbo", players=2)
        state = game.new_initial_state(seed=5)
        actors = []
        while not state.is_terminal():
            actors.append(state.current_player())
            state.apply_action(state.legal_actions()[0])
        record = record_of_state(game, 5, ["first", "first"], state, actors)
        assert "unfinished" not in record and record["returns"] == state.returns()


FLAKY = "tests/golden/cli/flaky.game"  # drawing the c5 divides by zero: seed 0 ends, seed 1 fails in action 2
STUCK = "tests/golden/cli/check_stuck.game"  # with 3 players, P2 has no legal action after 5 actions


class TestStuck:
    """A game the rules stopped is recorded up to the error, with it, and its replay meets it again."""

    @staticmethod
    def stopped(path: str, players: int, seed: int) -> tuple[ruledsl.Game, dict, RuleRuntimeError]:
        game = ruledsl.load_game(path, players=players)
        r = play_game(game, seed, ["random"] * players, keep_labels=True)
        assert r.error is not None
        return game, record_of_game(game, r), r.error

    def test_an_action_the_rules_failed_in_is_recorded_with_the_error(self) -> None:
        game = ruledsl.load_game(FLAKY, players=2)
        state = game.new_initial_state(seed=1)
        state.apply_action(state.legal_actions()[0])
        with pytest.raises(RuleRuntimeError) as failed:
            state.apply_action(state.legal_actions()[0])
        record = record_of_state(game, 1, ["random", "random"], state, [0], failed.value)
        assert (record["actions"], record["actors"]) == (["draw", "draw"], [0, 1])
        assert record["stuck"] is True and "returns" not in record and "unfinished" not in record
        assert record["error"] == {
            "code": "R504",
            "message": "division by zero",
            "line": 28,
            "column": 13,
            "end_line": 28,
            "end_column": 26,
            "hint": None,
        }
        with pytest.raises(RuleRuntimeError) as again:
            replay(record, game)
        assert again.value.diagnostics == failed.value.diagnostics

    def test_a_player_without_a_legal_action_is_met_again_at_the_end(self) -> None:
        game, record, error = self.stopped(STUCK, 3, 0)
        assert (len(record["actions"]), record["error"]["code"]) == (5, "R506")
        lines = []
        with pytest.raises(RuleRuntimeError) as again:
            lines.extend(render_replay(record, game, 2))
        assert again.value.diagnostics == error.diagnostics
        assert lines[-1] == "P1: draw"  # the actions up to it, then no result: the error

    def test_simulate_hands_on_the_stopped_game_then_raises(self) -> None:
        game = ruledsl.load_game(FLAKY, players=2)
        seen = []
        with pytest.raises(RuleRuntimeError):
            run_games(game, [0, 1, 2], ["random", "random"], progress=seen.append, keep_labels=True)
        assert [(r.seed, r.error is None) for r in seen] == [(0, True), (1, False)]
        assert (seen[1].returns, seen[1].actors, seen[1].labels) == ([], [0, 1], ["draw", "draw"])

    def test_a_setup_that_fails_is_a_game_of_no_action(self, tmp_path: Path) -> None:
        rules = tmp_path / "broken.game"
        rules.write_text(
            'game "Broken"\nplayers 2\nzone deck: shared, hidden\ndeck:\n    card "A"\nvar x = 0\n'
            "setup:\n    set x = 1 / x\nphase play:\n    action stop:\n        end game, winner player\n",
            encoding="utf-8",
        )
        game = ruledsl.load_game(str(rules))
        r = play_game(game, 0, ["random", "random"], keep_labels=True)
        assert r.error is not None and (r.actors, r.labels) == ([], [])
        record = record_of_game(game, r)
        with pytest.raises(RuleRuntimeError) as again:
            replay(record, game)
        assert again.value.diagnostics == r.error.diagnostics

    def test_an_error_the_replay_does_not_meet_is_shown_as_recorded(self) -> None:
        # As when a bot met it looking ahead: the real game had legal actions there.
        game, record, error = self.stopped(FLAKY, 2, 1)
        record = {**record, "actions": record["actions"][:1], "actors": record["actors"][:1]}
        with pytest.raises(RuleRuntimeError) as shown:
            replay(record, game)
        (d,) = shown.value.diagnostics
        (e,) = error.diagnostics
        assert (d.code, d.message, d.line, d.column, d.end_line, d.end_column, d.path) == (
            e.code,
            e.message,
            e.line,
            e.column,
            e.end_line,
            e.end_column,
            e.path,
        )
        assert d.hint is not None and d.hint.startswith("as recorded: the replay does not meet this error itself")
        without = {k: v for k, v in record.items() if k != "error"}
        with pytest.raises(RecordError, match="the record says the rules stopped its game after 1 action, but"):
            replay(without, game)

    def test_a_stuck_record_whose_game_ends_is_refused(self) -> None:
        record = simulated("quasenbo", 2, 0, ["random", "random"])
        record = {**record, "stuck": True, "error": {"code": "R506", "message": "stuck"}}
        with pytest.raises(RecordError, match=r"the rules stopped its game after \d+ actions, but the game ends there"):
            replay(record, load_recorded_game(record))

    @pytest.mark.parametrize(
        ("key", "value", "wrong"),
        [
            ("stuck", "yes", 'must be true or false, not "yes"'),
            (
                "error",
                "R506",
                "must be an object of the error's code, message and hint (texts) and place (whole "
                'numbers), not "R506"',
            ),
            (
                "error",
                {"code": "R506", "message": "m", "line": [1]},
                "must be an object of the error's code, "
                "message and hint (texts) and place (whole numbers), but 'line' is a list",
            ),
            ("error", {"code": "R506"}, "lacks its code or its message"),
        ],
    )
    def test_fields_of_the_wrong_kind_are_named(self, key: str, value: object, wrong: str, tmp_path: Path) -> None:
        path = tmp_path / "bad.jsonl"
        write_records(path, [{**simulated("quasenbo", 2, 0, ["random", "random"]), key: value}])
        with pytest.raises(RecordError) as info:
            read_records(path)
        assert str(info.value) == f"{path}:1: the record's '{key}' {wrong}"


class TestView:
    def test_a_variable_at_zero_is_shown(self) -> None:
        state = ruledsl.load_game("crazy_eights").new_initial_state(seed=0)
        lines = describe_view(state.observation(0), 0)
        assert re.fullmatch(r"  suit_now .+, passes 0", lines[-1])

    def test_unset_values_empty_lists_and_false_flags_are_left_out(self) -> None:
        obs = {
            "round": 1,
            "phase": "play",
            "direction": "clockwise",
            "zones": {},
            "variables": {"a": 0, "b": None, "c": [], "d": False, "e": True, "f": 0.0},
            "player_variables": {"mice": [0, None]},
            "auction": None,
            "finished": [],
        }
        assert describe_view(obs, 0)[1:] == ["  a 0, e yes, f 0.0", "  mice: you 0"]

    def test_a_player_variable_with_no_value_to_show_is_left_out(self) -> None:
        obs = {
            "round": 1,
            "phase": "play",
            "direction": "clockwise",
            "zones": {},
            "variables": {},
            "player_variables": {"bid": [None, None], "mice": [None, 2]},
            "auction": None,
            "finished": [],
        }
        assert describe_view(obs, 0)[1:] == ["  mice: P1 2"]

    def test_an_unlisted_variable_is_observed_but_left_out_of_the_view(self, tmp_path: Path) -> None:
        rules = tmp_path / "tally.game"
        rules.write_text(
            'game "Tally"\nplayers 2\nzone deck: shared, hidden\ndeck:\n    card "A"\n'
            "var supply = 5\nvar tally = 0, unlisted\nplayer var mice = 1\nplayer var ties = 2, owner, unlisted\n"
            "setup:\n    shuffle deck\nphase play:\n    action stop:\n        end game, winner player\n",
            encoding="utf-8",
        )
        obs = ruledsl.load_game(str(rules)).new_initial_state(seed=0).observation(0)
        # Bots and agents still know them, as their visibility says...
        assert obs["variables"] == {"supply": 5, "tally": 0}
        assert obs["player_variables"] == {"mice": [1, 1], "ties": [2, None]}
        assert obs["unlisted"] == ["tally", "ties"]
        # ...but a person is not shown them.
        assert describe_view(obs, 0)[-2:] == ["  supply 5", "  mice: you 1, P1 1"]

    def test_a_player_offered_a_window_is_told_it_is_out_of_turn(self) -> None:
        obs = {
            "round": 1,
            "phase": "play",
            "direction": "clockwise",
            "zones": {},
            "variables": {},
            "player_variables": {},
            "auction": None,
            "window": {"name": "cut", "player": 2},
            "finished": [],
        }
        assert describe_view(obs, 2)[1:] == ["  out of turn: you may act in 'cut' before play goes on"]

    def test_the_zones_of_the_others_read_in_one_form_per_line(self) -> None:
        hidden, empty, shown = {"size": 3}, {"size": 0, "cards": []}, {"size": 2, "cards": ["8♦", None]}
        obs = {
            "round": 1,
            "phase": "play",
            "direction": "clockwise",
            "zones": {"hand": [{"size": 1, "cards": ["Q♣"]}, hidden, empty], "up": [hidden, shown, empty]},
            "variables": {},
            "player_variables": {},
            "auction": None,
            "finished": [],
        }
        # Counts where no card shows (an empty hand holds 0), cards where one does (a hidden zone holds N cards).
        assert describe_view(obs, 0)[1:] == [
            "your hand: Q♣",
            "hand: P1 3, P2 0",
            "up: you: 3 cards; P1: 8♦, ?; P2: (empty)",
        ]

    def test_an_empty_zone_reads_empty_when_faces_are_tracked(self, tmp_path: Path) -> None:
        rules = tmp_path / "faces.game"
        rules.write_text(FACES, encoding="utf-8")
        state = ruledsl.load_game(str(rules), players=2).new_initial_state(seed=0)
        lines = describe_view(state.observation(0), 0)
        assert "your shown: (empty)" in lines
        assert "shown: P1: (empty)" in lines
        assert "  score 0, opener P0" in lines  # a player is named as everywhere else
        state.apply_action(state.action_from_string("take"))
        lines = describe_view(state.observation(1), 1)
        assert "stock: (empty)" in lines
        assert "your shown: (empty)" in lines
        assert any(re.fullmatch(r"shown: P0: c\d", line) for line in lines)


# Four cards taken blind from a hidden stock, under one label: the actions read alike.
BLIND = """\
game "Blind"

players 2

values rank: 1, 2, 3, 4

card rank: rank

deck:
    card "c{rank}" for rank in 1 to 4

zone stock: shared, hidden
zone hand: per player, owner

setup:
    shuffle stock
    go to play with seat 0

phase play:
    action take(c: card from stock):
        label "take blind"
        move c to hand
        if size of hand == 2:
            end game, winner player
"""


class TestLabelsReadAlike:
    """Text that several legal actions read alike names none of them: not in the API, not in a replay."""

    def test_the_api_refuses_to_pick_one(self, tmp_path: Path) -> None:
        path = tmp_path / "blind.game"
        path.write_text(BLIND, encoding="utf-8")
        state = ruledsl.load_game(path).new_initial_state(seed=0)
        assert len(state.actions_reading("Take  Blind")) == 4
        with pytest.raises(IllegalActionError, match="'take blind' reads like 4 legal actions now"):
            state.action_from_string("take blind")
        assert state.n_actions == 0

    def test_a_replay_says_the_record_cannot_tell_which(self, tmp_path: Path) -> None:
        path = tmp_path / "blind.game"
        path.write_text(BLIND, encoding="utf-8")
        log = tmp_path / "blind.jsonl"
        assert run_cli(["simulate", str(path), "-n", "1", "--log", str(log), "--json"])[0] == 0
        code, _, err = run_cli(["replay", str(log), "--rules", str(path)])
        assert code == 2
        assert err == (
            "ruledsl: error: action 1 ('take blind') reads like 4 legal actions at that point of the replay, so the "
            "record cannot say which was played; the rules' labels must tell them apart (a card chosen by its "
            "place, for one, by '{position of c}')\n"
        )


class TestCommandLine:
    def test_simulate_log_then_replay(self, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        log = tmp_path / "sim.jsonl"
        assert (
            cli.main(["simulate", "quasenbo", "-n", "3", "--seats", "random,first", "--log", str(log), "--json"]) == 0
        )
        capsys.readouterr()
        assert len(read_records(log)) == 3
        assert cli.main(["replay", str(log), "--game", "3", "--as", "P1"]) == 0
        out = capsys.readouterr().out
        assert "seed 2; replayed as P1 saw it" in out

    def test_compare_logs_each_value_s_games_and_each_replays(self, tmp_path: Path) -> None:
        log = tmp_path / "compare.jsonl"
        command = ["compare", "quasenbo", "--vary", "double=no,yes", "-n", "2", "--players", "2", "--log", str(log)]
        code, _, err = run_cli([*command, "--rotate", "--seats", "random,first"])
        assert code == 0 and "warning" not in err
        records = read_records(log)
        assert [(r["options"]["double"], r["seed"], r["seats"], r["rotate"]) for r in records] == [
            (False, 0, ["random", "first"], True),
            (False, 1, ["first", "random"], True),
            (True, 0, ["random", "first"], True),
            (True, 1, ["first", "random"], True),
        ]
        for k in range(1, 5):
            assert run_cli(["replay", str(log), "--game", str(k)])[0] == 0
        # The same comparison appended again is the same run: records of either value are of it.
        assert "warning" not in run_cli([*command, "--rotate", "--seats", "random,first"])[2]
        code, _, err = run_cli([*command, "--option", "hand_size=5", "--rotate", "--seats", "random,first"])
        assert code == 0
        assert err.startswith(
            f"warning: '{log}' already holds records of Quäsenbö with other settings "
            "(options hand_size=7, not hand_size=5); appending anyway\n"
        )

    def test_play_log_then_replay_shows_the_same_game(self, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        log = tmp_path / "play.jsonl"
        assert cli.main(["play", "quasenbo", "--seats", "greedy,random", "--seed", "4", "--log", str(log)]) == 0
        played = capsys.readouterr().out.splitlines()
        assert cli.main(["replay", str(log)]) == 0
        replayed = capsys.readouterr().out.splitlines()
        # The same actions as a spectator saw them, and the same result.
        assert [line for line in played if line.startswith("P")] == [line for line in replayed if line.startswith("P")]
        assert played[-1] == replayed[-1]

    def test_replay_usage_errors(self, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        log = tmp_path / "one.jsonl"
        write_records(log, [simulated("quasenbo", 2, 0, ["random", "random"])])
        with pytest.raises(SystemExit) as info:
            cli.main(["replay", str(log), "--game", "2"])
        assert info.value.code == 2
        assert "holds games 1 to 1" in capsys.readouterr().err
        with pytest.raises(SystemExit):
            cli.main(["replay", str(log), "--as", "P5"])
        assert "--as takes a seat from 0 to 1" in capsys.readouterr().err

    def test_replay_refuses_a_record_of_the_wrong_shape_in_one_line(self, tmp_path: Path) -> None:
        log = tmp_path / "bad.jsonl"
        write_records(log, [{**simulated("quasenbo", 2, 0, ["random", "random"]), "seed": "abc"}])
        code, out, err = run_cli(["replay", str(log)])
        assert (code, out) == (2, "")
        assert err == f"ruledsl: error: {log}:1: the record's 'seed' must be a whole number, not \"abc\"\n"

    def test_replay_reads_an_intact_record_past_a_damaged_line(self, tmp_path: Path) -> None:
        log = tmp_path / "cut.jsonl"
        assert run_cli(["simulate", "quasenbo", "-n", "3", "--log", str(log)])[0] == 0
        with open(log, "a", encoding="utf-8") as f:
            f.write(log.read_text(encoding="utf-8")[:60])  # the last game cut short by a crash
        code, out, err = run_cli(["replay", str(log), "--game", "2"])
        assert code == 0
        assert out.startswith("Quäsenbö: 2 players (P0 random, P1 random), seed 1")
        assert err == f"ruledsl: warning: '{log}': line 4 holds no readable record; record 2 (line 2) is intact\n"
        code, out, err = run_cli(["replay", str(log), "--game", "4"])
        assert (code, out) == (2, "")
        assert err.startswith(f"ruledsl: error: {log}:4: not a JSON record (")

    def test_replay_from_another_folder(self, tmp_path: Path) -> None:
        (tmp_path / "mine").mkdir()
        (tmp_path / "elsewhere").mkdir()
        shutil.copy(ruledsl.bundled_games()["quasenbo"], tmp_path / "mine" / "my.game")
        assert run_cli(["simulate", "my.game", "-n", "1", "--log", "my.jsonl"], cwd=tmp_path / "mine")[0] == 0
        code, out, err = run_cli(["replay", "../mine/my.jsonl"], cwd=tmp_path / "elsewhere")
        assert (code, out) == (2, "")
        assert err.endswith("a replay reads no file a record names; give it with --rules FILE\n")  # issue 31
        argv = ["replay", "../mine/my.jsonl", "--rules", "../mine/my.game"]
        code, out, err = run_cli(argv, cwd=tmp_path / "elsewhere")
        assert (code, err) == (0, "")
        assert out.startswith("Quäsenbö: 2 players")
        (tmp_path / "mine" / "my.game").unlink()
        code, out, err = run_cli(["replay", "../mine/my.jsonl"], cwd=tmp_path / "elsewhere")
        assert (code, out) == (2, "")
        assert err.endswith("; give it with --rules FILE\n")

    def test_replay_with_the_rules_of_another_game(self, tmp_path: Path) -> None:
        log = tmp_path / "q.jsonl"
        write_records(log, [simulated("quasenbo", 3, 0, ["random"] * 3)])
        code, out, err = run_cli(["replay", str(log), "--rules", "katzenjammer_blues"])
        assert (code, out) == (2, "")
        assert "'katzenjammer_blues' is another game ('Katzenjammer Blues') than the one recorded ('Quäsenbö')" in err

    def test_records_of_a_rotating_run_say_who_sat_where_and_agree_with_the_summary(self, tmp_path: Path) -> None:
        log = tmp_path / "rotated.jsonl"
        argv = ["simulate", "quasenbo", "-n", "6", "--seats", "random,first", "--rotate", "--json", "--log", str(log)]
        code, out, _ = run_cli(argv)
        assert code == 0
        records = read_records(log)
        assert [r["seats"] for r in records] == [["random", "first"], ["first", "random"]] * 3
        assert all(r["rotate"] is True for r in records)
        # Grouped by agent from the records alone, as a researcher would: the summary's figures.
        seat_games: dict[str, int] = {}
        wins: dict[str, int] = {}
        for r in records:
            best = max(r["returns"])
            for seat, agent in enumerate(r["seats"]):
                seat_games[agent] = seat_games.get(agent, 0) + 1
                won = r["returns"][seat] == best and min(r["returns"]) != best and not r["truncated"]
                wins[agent] = wins.get(agent, 0) + won
        summary = {a["agent"]: (a["seat_games"], a["wins"]) for a in json.loads(out)["agents"]}
        assert summary == {agent: (seat_games[agent], wins[agent]) for agent in seat_games}

    def test_records_of_runs_that_do_not_rotate_say_so(self, tmp_path: Path) -> None:
        log = tmp_path / "fixed.jsonl"
        assert run_cli(["simulate", "quasenbo", "-n", "2", "--seats", "random,first", "--log", str(log)])[0] == 0
        assert run_cli(["play", "quasenbo", "--seats", "random,first", "--seed", "0", "--log", str(log)])[0] == 0
        assert [(r["seats"], r["rotate"]) for r in read_records(log)] == [(["random", "first"], False)] * 3

    def test_simulate_json_has_every_metric(self, capsys: pytest.CaptureFixture[str]) -> None:
        assert cli.main(["simulate", "quasenbo", "-n", "6", "--seats", "random,first", "--rotate", "--json"]) == 0
        stats = json.loads(capsys.readouterr().out)
        assert {
            "seats",
            "agents",
            "first_player",
            "seat_test",
            "length",
            "lead",
            "actions",
            "draws",
            "truncated",
        } <= set(stats)
        assert [s["agent"] for s in stats["seats"]] == ["rotated", "rotated"]
        assert {a["agent"] for a in stats["agents"]} == {"random", "first"}

    def test_plot_needs_matplotlib_or_draws(self, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
        target = tmp_path / "plot.png"
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            with pytest.raises(SystemExit) as info:
                cli.main(["simulate", "quasenbo", "-n", "2", "--plot", str(target)])
            assert info.value.code == 2
            assert "--plot needs matplotlib" in capsys.readouterr().err
        else:
            assert cli.main(["simulate", "quasenbo", "-n", "4", "--plot", str(target)]) == 0
            assert target.read_bytes()[:4] == b"\x89PNG"
