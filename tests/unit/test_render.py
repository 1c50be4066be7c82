"""Rendering tests: the exact text of a diagnostic, carets, hints, and did-you-mean suggestions."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ruledsl.syntax.parser import parse
from ruledsl.text.errors import Diagnostic, ParseError, Severity
from ruledsl.text.render import SHOWN_WIDTH, did_you_mean, render, render_all, summary
from ruledsl.text.source import Pos, Source, Span

SOURCE = Source(
    "games/crazy_eights.game",
    'game "Crazy Eights"\n'
    "setup:\n"
    "    move top of dicard to hand\n"
    "\tmove x to hand\n"
    '    say "Quäsenbö ♥ {c}"\n'
    "phase play:\n"
    "    action a:\n"
    "        again\n"
    "        again\n"
    "        end game\n",
)


def at(line: int, col: int, end_line: int | None = None, end_col: int | None = None) -> Span:
    return Span(Pos(line, col, 0), Pos(end_line or line, end_col or col, 0))


def diag(
    span: Span | None, hint: str | None = None, severity: Severity = Severity.ERROR, source: Source | None = SOURCE
) -> Diagnostic:
    return Diagnostic("E201", "unknown zone 'dicard'", span, hint, severity, source)


def test_header_gutter_caret_and_hint() -> None:
    d = diag(at(3, 17, 3, 23), "did you mean 'discard'?")
    assert render(d) == (
        "games/crazy_eights.game:3:17: error[E201]: unknown zone 'dicard'\n"
        "  |\n"
        "3 |     move top of dicard to hand\n"
        "  |                 ^^^^^^\n"
        "  = hint: did you mean 'discard'?"
    )


def test_no_hint_line_without_a_hint() -> None:
    assert render(diag(at(3, 17, 3, 23))) == (
        "games/crazy_eights.game:3:17: error[E201]: unknown zone 'dicard'\n"
        "  |\n"
        "3 |     move top of dicard to hand\n"
        "  |                 ^^^^^^"
    )


def test_empty_span_gets_one_caret() -> None:
    assert render(diag(at(3, 17))).splitlines()[-1] == "  |                 ^"


def test_one_caret_per_character() -> None:
    assert render(diag(at(3, 5, 3, 31))).splitlines()[-1] == "  |     " + "^" * 26


def test_tabs_are_expanded_before_the_caret() -> None:
    # Line 4 is "\tmove x to hand": the tab shows as 8 spaces, and the caret follows it.
    lines = render(diag(at(4, 7, 4, 8))).splitlines()
    assert lines[2] == "4 |         move x to hand"
    assert lines[3] == "  |              ^"
    assert lines[3].index("^") == lines[2].index("x")


def test_unicode_source_line() -> None:
    # Line 5 is '    say "Quäsenbö ♥ {c}"': one caret per character, whatever its UTF-8 length.
    lines = render(diag(at(5, 10, 5, 20))).splitlines()
    assert lines[2] == '5 |     say "Quäsenbö ♥ {c}"'
    assert lines[3] == "  |          ^^^^^^^^^^"
    assert lines[2][lines[3].index("^") :][:10] == "Quäsenbö ♥"


def test_control_characters_of_the_line_are_drawn_not_sent_to_the_terminal() -> None:
    # A file that is not UTF-8 still gets its line shown; its controls must not reach the terminal.
    source = Source("t.game", 'game "X"\nplayers \x1b]0;title\x07 2\x9b\n')
    lines = render(Diagnostic("E003", "not UTF-8", at(2, 9, 2, 10), source=source)).splitlines()
    assert lines[2] == "2 | players \u241b]0;title\u2407 2\ufffd"
    assert lines[3] == "  |         ^"
    assert lines[2].index("\u241b") == lines[3].index("^")


def test_span_over_several_lines_marks_only_its_first_line() -> None:
    d = diag(at(7, 5, 10, 17), "a hint")
    assert render(d) == (
        "games/crazy_eights.game:7:5: error[E201]: unknown zone 'dicard'\n"
        "  |\n"
        "7 |     action a:\n"
        "  |     ^^^^^^^^^\n"
        "  = hint: a hint"
    )


def test_gutter_widens_with_the_line_number() -> None:
    source = Source("t.game", "\n" * 9 + "zone x\n")
    d = Diagnostic("E101", "unexpected end of the line", at(10, 7), "expected ':'", source=source)
    assert render(d) == (
        "t.game:10:7: error[E101]: unexpected end of the line\n   |\n10 | zone x\n   |       ^\n   = hint: expected ':'"
    )


def test_caret_after_the_end_of_the_line() -> None:
    source = Source("t.game", 'game "g"\nplayers 2 to\n')
    d = Diagnostic("E101", "unexpected end of the line", at(2, 13, 2, 14), source=source)
    assert render(d).splitlines()[2:] == ["2 | players 2 to", "  |             ^"]


def test_line_past_the_end_of_the_file() -> None:
    source = Source("t.game", 'game "g"\n')
    d = Diagnostic("E107", "unexpected end of the file", at(2, 1), source=source)
    assert render(d).splitlines()[1:] == ["  |", "2 | ", "  | ^"]


def test_windows_line_ends_do_not_show() -> None:
    source = Source("t.game", 'game "g"\r\nplayers 2 to 4 $\r\n')
    d = Diagnostic("E102", "unexpected character '$'", at(2, 16, 2, 17), source=source)
    assert render(d).splitlines()[2:] == ["2 | players 2 to 4 $", "  |                ^"]


def test_lone_carriage_return_line_ends() -> None:
    with pytest.raises(ParseError) as info:
        parse('game "g"\rplayers 2 to 4 $\r', "t.game")
    assert render(info.value.diagnostics[0]).splitlines()[2:4] == ["2 | players 2 to 4 $", "  |                ^"]


def test_no_span() -> None:
    d = Diagnostic("E002", "file too large", None, "split it", source=Source("big.game", "x"))
    assert render(d) == "big.game:1:1: error[E002]: file too large\n  = hint: split it"


def test_no_span_no_hint_no_source() -> None:
    assert render(Diagnostic("R505", "not a legal action")) == "<input>:1:1: error[R505]: not a legal action"


def test_no_source_keeps_the_hint() -> None:
    assert render(diag(at(3, 17, 3, 23), "a hint", source=None)) == (
        "<input>:3:17: error[E201]: unknown zone 'dicard'\n  = hint: a hint"
    )


def test_warning_header() -> None:
    d = Diagnostic("W401", "phase 'x' is never reached", at(6, 1, 6, 12), None, Severity.WARNING, SOURCE)
    assert render(d).splitlines()[0] == "games/crazy_eights.game:6:1: warning[W401]: phase 'x' is never reached"


def test_colour_is_off_by_default() -> None:
    d = diag(at(3, 17, 3, 23), "did you mean 'discard'?")
    assert "\x1b" not in render(d)
    assert "\x1b" not in render_all([d, d])


def test_colour_on_request() -> None:
    coloured = render(diag(at(3, 17, 3, 23)), colour=True)
    assert coloured.splitlines()[0] == (
        "\x1b[1mgames/crazy_eights.game:3:17:\x1b[0m \x1b[1;31merror[E201]\x1b[0m\x1b[1m: unknown zone 'dicard'\x1b[0m"
    )
    assert coloured.splitlines()[3] == "  \x1b[1;34m|\x1b[0m \x1b[1;31m                ^^^^^^\x1b[0m"


def test_render_all_and_summary() -> None:
    a = diag(at(3, 17, 3, 23))
    w = Diagnostic("W402", "window 'w' is never opened", None, None, Severity.WARNING)
    assert render_all([a, w]) == render(a) + "\n\n" + render(w)
    assert summary([a, a, w]) == "2 errors, 1 warning"
    assert summary([w, w]) == "2 warnings"
    assert summary([a]) == "1 error"
    assert summary([]) == "no problems"


def test_parse_error_renders_from_the_real_source() -> None:
    with pytest.raises(ParseError) as info:
        parse('game "g"\nsetup:\n\tsay "ü" $\n', "t.game")
    assert render(info.value.diagnostics[0]) == (
        "t.game:3:10: error[E102]: unexpected character '$'\n"
        "  |\n"
        '3 |         say "ü" $\n'
        "  |                 ^\n"
        "  = hint: names are letters, digits and '_'; text goes between double quotes"
    )


# ============================================================================ did_you_mean


def test_did_you_mean_one_close_match_and_the_known_names() -> None:
    assert did_you_mean("dicard", ["deck", "discard", "hand"], "zones") == (
        "did you mean 'discard'? known zones: deck, discard, hand"
    )


def test_did_you_mean_several_close_matches() -> None:
    assert (
        did_you_mean("dekc", ["hand", "decks", "deck"])
        == "did you mean 'deck' or 'decks'? known names: deck, decks, hand"
    )


def test_did_you_mean_ignores_case_as_a_last_resort() -> None:
    assert did_you_mean("HAND", ["hand", "x"]) == "did you mean 'hand'? known names: hand, x"


def test_did_you_mean_lists_names_without_a_close_match() -> None:
    assert did_you_mean("xyz", ["deck", "deck"], "zones") == "known zones: deck"


def test_did_you_mean_stops_listing_past_twelve_names() -> None:
    names = "alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike".split()
    assert did_you_mean("bravp", names) == "did you mean 'bravo'?"
    assert did_you_mean("zzz", names) is None
    assert did_you_mean("zzz", names[:12]) == "known names: " + ", ".join(names[:12])


def test_did_you_mean_nothing_known() -> None:
    assert did_you_mean("q", []) is None


def test_did_you_mean_names_no_unrelated_name() -> None:
    assert did_you_mean("total", ["tally"]) == "known names: tally"
    assert did_you_mean("hand_sise", ["hand", "hand_size"]) == "did you mean 'hand_size'? known names: hand, hand_size"


class TestLongLines:
    """A source line longer than the excerpt's width is cut around the caret, never printed whole."""

    @staticmethod
    def excerpt(line: str, col: int, end_col: int | None = None) -> tuple[str, str]:
        source = Source("t.game", 'game "g"\n' + line + "\n")
        shown, caret = render(diag(at(2, col, 2, end_col), source=source)).splitlines()[2:4]
        assert shown.startswith("2 | ") and caret.startswith("  | ")
        return shown[4:], caret[4:]

    def test_a_line_of_the_width_is_shown_whole(self) -> None:
        line = "x" * (SHOWN_WIDTH - 1) + "$"
        assert self.excerpt(line, SHOWN_WIDTH) == (line, " " * (SHOWN_WIDTH - 1) + "^")

    def test_a_caret_near_the_start_cuts_the_right(self) -> None:
        line = "say " + "a" * 5000
        shown, caret = self.excerpt(line, 1, 4)
        assert shown == line[: SHOWN_WIDTH - 1] + "…"
        assert caret == "^^^"

    def test_a_caret_near_the_end_cuts_the_left(self) -> None:
        line = "a" * 5000 + " $"
        shown, caret = self.excerpt(line, 5002, 5003)
        assert shown == "…" + line[-(SHOWN_WIDTH - 1) :]
        assert len(shown) == SHOWN_WIDTH and shown[caret.index("^")] == "$" and caret.count("^") == 1

    def test_a_caret_in_the_middle_cuts_both_sides_and_stays_under_its_text(self) -> None:
        line = "b" * 2500 + "dicard" + "c" * 2500
        shown, caret = self.excerpt(line, 2501, 2507)
        assert shown.startswith("…b") and shown.endswith("c…") and len(shown) == SHOWN_WIDTH
        start = caret.index("^")
        assert caret[start:] == "^^^^^^" and shown[start : start + 6] == "dicard"

    def test_a_long_span_is_cut_with_its_line(self) -> None:
        line = "d" * 5000
        shown, caret = self.excerpt(line, 3, 4990)
        assert len(shown) == SHOWN_WIDTH and caret == "  " + "^" * (SHOWN_WIDTH - 3)

    def test_tabs_in_a_long_line(self) -> None:
        line = "\t" * 300 + "$" + "\t" * 300
        shown, caret = self.excerpt(line, 301, 302)
        assert "\t" not in shown and len(shown) <= SHOWN_WIDTH and shown.startswith("…") and shown.endswith("…")
        assert shown[caret.index("^")] == "$"

    def test_wide_characters_take_two_columns(self) -> None:
        # A terminal gives each of 漢 and 字 two columns: the caret counts them so, cut or not.
        shown, caret = self.excerpt('say "漢字" $', 10, 11)
        assert shown == 'say "漢字" $' and caret == " " * 11 + "^"
        line = "漢" * 3000 + "$" + "字" * 3000
        shown, caret = self.excerpt(line, 3001, 3002)
        cells = sum(2 if c in "漢字" else 1 for c in shown)
        assert cells <= SHOWN_WIDTH and shown.startswith("…漢") and shown.endswith("字…")
        before = shown[: shown.index("$")]
        assert caret == " " * sum(2 if c in "漢字" else 1 for c in before) + "^"

    def test_combining_marks_take_no_column(self) -> None:
        shown, caret = self.excerpt("say e\u0301e\u0301 $", 10, 11)
        assert caret == " " * 7 + "^"

    def test_a_caret_past_the_end_of_a_long_line(self) -> None:
        line = "e" * 5000
        shown, caret = self.excerpt(line, 5001, 5002)
        assert shown == "…" + line[-(SHOWN_WIDTH - 1) :] and caret == " " * SHOWN_WIDTH + "^"

    def test_a_parse_error_on_a_long_line(self) -> None:
        with pytest.raises(ParseError) as info:
            parse('game "g"\nplayers 2 to 4 ' + "+" * 5000 + "\n", "t.game")
        lines = render(info.value.diagnostics[0]).splitlines()
        assert all(len(line) <= SHOWN_WIDTH + 10 for line in lines)
        assert lines[2].startswith("2 | players 2 to 4 +") and lines[3].endswith("^")


class TestPositions:
    """``Source.pos_at`` bisects over line ends: the same positions as counting them, in any text."""

    @staticmethod
    def counted(text: str, offset: int) -> Pos:
        """Positions as pos_at gave them by counting line ends from the start (linear in the offset)."""
        offset = max(0, min(offset, len(text)))
        line = text.count("\n", 0, offset) + text.count("\r", 0, offset) - text.count("\r\n", 0, offset) + 1
        line_start = max(text.rfind("\n", 0, offset), text.rfind("\r", 0, offset)) + 1
        return Pos(line, offset - line_start + 1, offset)

    @given(st.text(alphabet="ab\r\n\t\x0c", max_size=40))
    def test_same_positions_as_counting_line_ends(self, text: str) -> None:
        source = Source("t.game", text)
        for offset in range(-1, len(text) + 2):
            assert source.pos_at(offset) == self.counted(text, offset), (text, offset)

    def test_the_lines_agree_with_line_text(self) -> None:
        source = Source("t.game", "ab\r\ncd\ref\n\ngh")
        for offset, ch in enumerate(source.text):
            if ch not in "\r\n":
                pos = source.pos_at(offset)
                assert source.line_text(pos.line)[pos.col - 1] == ch

    def test_many_positions_in_a_large_file_read_no_text(self) -> None:
        # A hostile file: 200,000 lines and a diagnostic's span asked on each. Counting line ends
        # read the text up to each offset (quadratic: hours); bisecting reads none of it once the
        # line ends are found: the text is swapped for one that fails if read.
        source = Source("t.game", "x = 1\n" * 200_000)
        assert source.pos_at(7) == Pos(2, 2, 7)
        object.__setattr__(source, "text", _Unreadable(source.text))
        for line in range(1, 200_001, 7):
            assert source.span_at(6 * (line - 1), 6 * line - 1).start == Pos(line, 1, 6 * (line - 1))


class _Unreadable(str):
    """A text whose length may be asked but which may not be searched or sliced."""

    def _refuse(self, *args: object) -> None:
        raise AssertionError("pos_at read the text")

    count = rfind = find = __getitem__ = _refuse  # type: ignore[assignment]
