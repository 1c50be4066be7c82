"""The command line's commands beyond the golden transcripts: fmt in place, bench's figures."""

from __future__ import annotations

import shutil
from pathlib import Path

from ruledsl.unparse import format_source
from tests.golden.test_golden import ROOT, run_cli

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

    def test_a_file_that_cannot_be_read_leaves_the_others_formatted(self, tmp_path: Path) -> None:
        messy = tmp_path / "messy.game"
        shutil.copy(MESSY, messy)
        code, _, err = run_cli(["fmt", str(tmp_path / "missing.game"), str(messy)])
        assert code == 65
        assert "error[E001]: cannot read" in err
        assert "1 file reformatted, 1 file could not be formatted (see above)" in err
        assert messy.read_text(encoding="utf-8") == format_source(MESSY.read_text(encoding="utf-8"))
