"""Find the grammar, the keywords' meanings and the bundled games, in a checkout or an installed package."""

from __future__ import annotations

import functools
import re
from importlib import resources
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent
# An installed wheel carries them in ruledsl/_data (see pyproject.toml); a source
# checkout (or an editable install) has them at the top of the repository.
_CANDIDATES = (_PACKAGE / "_data", _PACKAGE.parent)


def _find(relative: str) -> Path:
    for root in _CANDIDATES:
        path = root / relative
        if path.exists():
            return path
    raise FileNotFoundError(f"ruledsl is installed without its {relative}; reinstall it with 'pip install .'")


def grammar_path() -> Path:
    """Return the path of the Lark grammar of the rule language."""
    return _find("grammar/ruledsl.lark")


_ENTRY = re.compile(r"^- \*\*`([a-z]+)`\*\*: (.+)$")


def keywords_text() -> str:
    """Return ruledsl/lsp/keywords.md as it is: the one text of each keyword's meaning (docs/language.md
    quotes it; the language server shows it; a syntax error's hint quotes a statement's shape from it)."""
    return resources.files("ruledsl").joinpath("lsp", "keywords.md").read_text(encoding="utf-8")


@functools.cache
def keyword_meanings() -> dict[str, str]:
    """Return each keyword's line of meaning, by keyword."""
    found = {}
    for line in keywords_text().splitlines():
        m = _ENTRY.match(line)
        if m:
            found[m[1]] = m[2]
    return found


def games_dir() -> Path:
    """Return the folder of the bundled games."""
    return _find("games")


def bundled_games() -> dict[str, Path]:
    """Return the bundled games by name (the file name without '.game')."""
    return {p.stem: p for p in sorted(games_dir().glob("*.game"))}


def example_games() -> dict[str, Path]:
    """Return the example games by name: classic games written to learn from (games/examples)."""
    return {p.stem: p for p in sorted((games_dir() / "examples").glob("*.game"))}


def named_games() -> dict[str, Path]:
    """Return every game a name finds (``ruledsl play NAME``): the bundled ones and the examples."""
    return {**example_games(), **bundled_games()}


def bundled_name(path: Path) -> str | None:
    """Return the name of the bundled (or example) game whose rule file ``path`` is, or None."""
    resolved = path.resolve()
    return next((name for name, p in named_games().items() if p.resolve() == resolved), None)
