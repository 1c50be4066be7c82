"""The docs site builds with `mkdocs build --strict` (no broken link), and colours rule files with ruledsl's lexer."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from tests.extras import require

ROOT = Path(__file__).resolve().parents[2]


def test_the_site_builds_strictly_with_game_code_highlighted(tmp_path: Path) -> None:
    require("mkdocs", "docs")
    require("material", "docs")
    site = tmp_path / "site"
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    # Not --quiet: it hides the warnings, and --strict only fails on the warnings it sees.
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    warnings = [line for line in (done.stdout + done.stderr).splitlines() if line.startswith(("WARNING", "ERROR"))]
    assert (done.returncode, warnings) == (0, []), done.stderr
    assert (site / "index.html").exists()
    # Every page of docs/ is on the site (a page the nav leaves out is a warning, so a failure, above).
    pages = {p.stem for p in (ROOT / "docs").glob("*.md")} - {"index"}
    assert {p for p in pages if not (site / p / "index.html").exists()} == set()
    # The nav in reading order: the overview, then the tutorial; 'ruledsl' once at the top, not again as a page.
    lost = (site / "404.html").read_text(encoding="utf-8")  # a page with the nav and no table of contents
    titles = re.findall(r'md-ellipsis">\s*([^<]*?)\s*<', lost[lost.index("md-nav--primary") :])
    assert titles[:2] == ["Overview", "Tutorial"] and "ruledsl" not in titles, titles  # the nav's title is one
    # The fonts come with the site (the system's), never from a font CDN.
    for page in site.rglob("*.html"):
        assert "fonts.googleapis" not in page.read_text(encoding="utf-8"), page
    # A ```game block went through the Pygments lexer: its keywords are marked as such.
    tutorial = (site / "tutorial" / "index.html").read_text(encoding="utf-8")
    assert '<span class="k">phase</span>' in tutorial
