"""The meaning of each keyword, in a line: read from keywords.md, which docs/language.md quotes word for word."""

from __future__ import annotations

import functools
import re
from importlib import resources

_ENTRY = re.compile(r"^- \*\*`([a-z]+)`\*\*: (.+)$")


def keywords_text() -> str:
    """Return keywords.md as it is (docs/language.md holds the same text)."""
    return resources.files("ruledsl.lsp").joinpath("keywords.md").read_text(encoding="utf-8")


@functools.cache
def keyword_meanings() -> dict[str, str]:
    """Return each keyword's line of meaning, by keyword."""
    found = {}
    for line in keywords_text().splitlines():
        m = _ENTRY.match(line)
        if m:
            found[m[1]] = m[2]
    return found
