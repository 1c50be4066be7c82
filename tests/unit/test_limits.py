"""The limits of ruledsl.engine.limits (issue 31): numbers, texts and choices bounded when loaded, folded and run."""

from __future__ import annotations

from pathlib import Path

import pytest

import ruledsl
from ruledsl.engine import limits
from ruledsl.engine.failures import _runtime_message
from ruledsl.loading import check_file
from ruledsl.text.errors import OptionError, RuleRuntimeError
from tests.golden.test_golden import run_cli

HOSTILE = Path(__file__).resolve().parents[1] / "hostile"

MINI = """game "Mini"
players 2
zone deck: shared, hidden
zone hand: per player, owner
deck:
    card "A"
    card "B"
"""


def write(tmp_path: Path, body: str, head: str = MINI) -> Path:
    path = tmp_path / "t.game"
    path.write_text(head + body, encoding="utf-8")
    return path


def run_error(path: Path, **kwargs: object) -> RuleRuntimeError:
    """The error a game's first random moves stop with."""
    with pytest.raises(RuleRuntimeError) as info:
        state = ruledsl.load_game(path, **kwargs).new_initial_state(seed=0)  # type: ignore[arg-type]
        while not state.is_terminal():
            state.apply_action(state.legal_actions()[0])
    return info.value


def line_of(path: Path, text: str) -> int:
    """The line of a file where ``text`` first appears."""
    return next(i for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if text in line)


def header(error: RuleRuntimeError) -> str:
    d = error.diagnostics[0]
    assert d.span is not None
    return f"{d.span.start.line}:{d.span.start.col}: {d.code}: {d.message}"


class TestNumbers:
    def test_a_number_that_squares_itself_stops_at_the_rule(self) -> None:
        error = run_error(HOSTILE / "numbers_square.game")
        assert header(error) == (
            "14:9: R510: a number of 20 digits, beyond the limit of ±10^15 every number keeps within"
        )
        assert error.diagnostics[0].hint

    @pytest.mark.parametrize(
        ("name", "where"),
        [
            ("numbers_add_doubling.game", "add x to x"),
            ("numbers_let_chain.game", "let b = a * a"),
            ("numbers_define_chain.game", "define d5 ="),
        ],
    )
    def test_numbers_grown_by_add_let_or_definitions_stop_too(self, name: str, where: str) -> None:
        error = run_error(HOSTILE / name)
        assert error.diagnostics[0].code == "R510"
        span = error.diagnostics[0].span
        assert span is not None and span.start.line == line_of(HOSTILE / name, where)

    def test_the_limit_itself_is_allowed(self, tmp_path: Path) -> None:
        path = write(
            tmp_path,
            "var x = 1\nsetup:\n    set x = 1000000 * 1000000000\n    set x = x - 1 + 1\n"
            "phase play:\n    action end:\n        end game, draw\n",
        )
        state = ruledsl.load_game(path).new_initial_state(seed=0)
        assert state.gv[0] == limits.MAX_INTEGER

    def test_option_defaults_that_multiply_are_refused_at_once(self) -> None:
        for name in ("options_tower.game", "options_tower_30.game"):
            with pytest.raises(OptionError) as info:
                ruledsl.load_game(HOSTILE / name)
            d = info.value.diagnostics[0]
            assert (d.code, d.span is not None and d.span.start.line) == ("E604", 13)
            assert "beyond the limit of ±10^15" in d.message
            code, _, err = run_cli(["check", str(HOSTILE / name)])
            assert code == 65 and "error[E604]: no player count it allows (2) can load the game" in err

    @pytest.mark.parametrize("value", ["99999999999999999999", "1" + "0" * 5000, "-1000000000000001"])
    def test_an_option_given_beyond_the_limit_is_refused(self, tmp_path: Path, value: str) -> None:
        path = write(
            tmp_path,
            "option stake = 5\nsetup:\n    shuffle deck\nphase play:\n    action end:\n        end game, draw\n",
        )
        with pytest.raises(OptionError) as info:
            ruledsl.load_game(path, options={"stake": value})
        d = info.value.diagnostics[0]
        assert d.code == "E602" and "within ±10^15" in d.message and len(d.message) < 120


class TestTexts:
    def test_a_text_that_doubles_stops_at_the_rule(self) -> None:
        error = run_error(HOSTILE / "texts_doubling.game")
        assert header(error) == (
            "14:9: R510: a text of 16,384 characters, beyond the limit of 10,000 every text keeps within"
        )

    def test_texts_doubled_by_definitions_stop_in_the_label(self) -> None:
        error = run_error(HOSTILE / "texts_define_chain.game")
        assert error.diagnostics[0].code in ("R510", "R504")
        assert "10,000" in error.diagnostics[0].message


class TestMessages:
    @pytest.mark.parametrize("exc", [MemoryError(), ValueError(), KeyboardInterrupt.__base__()])
    def test_a_rule_that_fails_never_has_an_empty_message(self, exc: BaseException) -> None:
        message = _runtime_message(exc)  # type: ignore[arg-type]
        assert message and not message.endswith(": ")


class TestChoices:
    @pytest.mark.parametrize(
        ("name", "hint"),
        [
            ("choices_nine_values.game", "offer fewer values"),
            ("choices_nine_values_filtered.game", "offer fewer values"),
            ("choices_seven_players.game", "offer fewer players"),
            ("choices_huge_range.game", "narrow the range"),
            ("choices_bet.game", "offer fewer"),
        ],
    )
    def test_every_kind_of_choice_counts_against_the_budget(self, name: str, hint: str) -> None:
        error = run_error(HOSTILE / name)
        d = error.diagnostics[0]
        assert (d.code, d.span is not None and d.span.start.line) == ("R507", line_of(HOSTILE / name, "    action "))
        assert d.hint is not None and hint in d.hint

    def test_check_warns_where_the_choices_multiply_past_the_budget(self) -> None:
        checked = check_file(str(HOSTILE / "choices_nine_values.game"))
        warnings = [d for d in checked.warnings if d.code == "W409"]
        assert len(warnings) == 1
        assert warnings[0].message == (
            "the choices of 'pick' may offer up to 20,661,046,784 actions at once, more than 10,000"
        )

    def test_check_says_nothing_of_a_choice_of_a_few(self, tmp_path: Path) -> None:
        path = write(
            tmp_path,
            "setup:\n    deal 1 from deck to each hand\nphase play:\n"
            "    action give(c: card from hand, p: player from players, n: number 1 to 3):\n"
            "        end game, draw\n",
        )
        assert [d.code for d in check_file(str(path)).warnings] == []


WORK_HEAD = """game "Work"
players 2
card n: number
zone deck: shared, public
zone hand: per player, public
zone pile: shared, public
deck:
    card "c{n}" for n in 1 to 8
var k = 0
setup:
    deal 2 from deck to each hand
    go to play
"""


def work_of(tmp_path: Path, effects: str) -> int:
    """The work counted by an action of these effects (none by its listing: the action alone)."""
    body = "phase play:\n    action go:\n" + "".join(f"        {line}\n" for line in effects.splitlines())
    game = ruledsl.load_game(write(tmp_path, body + "        end game, draw\n", WORK_HEAD))
    state = game.new_initial_state(seed=0, log=True)  # a log: 'say' is worked out
    state.apply_action(state.legal_actions()[0])
    return state.work


class TestWork:
    """Work inside one expression counts against WORK_BUDGET (R511; issue 41, item 10)."""

    @pytest.mark.parametrize(
        ("effects", "work"),
        [
            ("set k = count c in deck where c.n > 2", 4),  # the 4 cards left in the deck
            ("set k = total c.n for c in deck", 4),
            ("set k = (the c in deck with highest (c.n, c.n)).n", 4),
            ("set k = (the item 1 of cards c in deck sorted by c.n).n", 4 * 3),  # n·log2(n), as bit_length
            ("set k = size of deck", 0),  # a length: no element gone through
            ("set k = count p in players where size of p.hand == 2", 0),  # 16 at most: not counted
            ("if (top of pile) in deck:\n    add 1 to k", 0),  # none, and one look where a card lies
            ("if (top of deck) in deck:\n    add 1 to k", 0),
            ("if (top of deck) in (cards c in deck where c.n > 0):\n    add 1 to k", 8),  # a list: gone through
            ("move all of deck to pile", 4),  # each card moved
            ("shuffle deck", 4 * 8),  # each card shuffled counts eight
            ('say "{deck}"', 4 * 10 * 3),  # each card shown counts ten, to each of the players and the spectators
        ],
    )
    def test_what_counts(self, tmp_path: Path, effects: str, work: int) -> None:
        assert work_of(tmp_path, effects) == work

    def test_membership_in_a_zone_reads_as_a_scan_would(self, tmp_path: Path) -> None:
        effects = (
            "if (top of pile) in deck or (top of pile) in pile:\n    add 1 to k\n"  # none: in no zone
            "if (top of pile) not in deck:\n    add 2 to k\n"
            "if (top of deck) in deck and (top of deck) not in pile:\n    add 10 to k\n"
            "if (top of deck) in (player after player).hand:\n    add 100 to k\n"
            "if (top of hand) in hand and (top of hand) not in (player after player).hand:\n    add 1000 to k"
        )
        body = "phase play:\n    action go:\n" + "".join(f"        {line}\n" for line in effects.splitlines())
        state = ruledsl.load_game(write(tmp_path, body + "        end game, draw\n", WORK_HEAD)).new_initial_state()
        state.apply_action(state.legal_actions()[0])
        assert state.gv[0] == 1012

    def test_a_loop_of_counts_within_its_rounds_stops_at_the_budget(self, tmp_path: Path) -> None:
        head = WORK_HEAD.replace("1 to 8", "1 to 1000")
        path = write(
            tmp_path,
            "phase play:\n    action go:\n        move top of deck to pile\n        repeat 10000 times:\n"
            "            set k = count c in deck where c.n > k\n        end game, draw\n",
            head,
        )
        state = ruledsl.load_game(path).new_initial_state(seed=0)
        before = state.clone()
        with pytest.raises(RuleRuntimeError) as info:
            state.apply_action(state.legal_actions()[0])
        assert header(info.value) == (
            f"{line_of(path, 'set k = count')}:13: R511: this action's rules went through more than 5,000,000 "
            "cards, players or numbers (counting, summing, sorting, searching, moving or shuffling them)"
        )
        assert (state.zones, state.gv) == (before.zones, before.gv)  # rolled back whole
        assert limits.WORK_BUDGET == 5_000_000

    def test_a_card_label_is_worked_out_with_no_work_counted(self, tmp_path: Path) -> None:
        head = WORK_HEAD.replace("card n: number", "values suit: a, b, c\ncard n: number\ncard suits: set of suit")
        head = head.replace('card "c{n}" for n in 1 to 8', 'card "x": n 1, suits {a, b}\n    card "y": n 2, suits {c}')
        label = 'label card c as "{c} ({count s in c.suits where s != a})"\n'
        path = write(tmp_path, label + "phase play:\n    action go:\n        end game, draw\n", head)
        assert ruledsl.load_game(path).program.card_labels == ("x (1)", "y (1)")
