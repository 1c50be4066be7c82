"""Format a rule file: parse it and write it again in the canonical layout, its comments kept."""

from __future__ import annotations

from pathlib import Path

from ruledsl.format.scan import Scan
from ruledsl.format.unparse import unparse_file
from ruledsl.syntax.parser import parse


def format_source(text: str, path: str = "<input>") -> str:
    """Parse a rule file and return its canonical text, comments kept; raise ParseError as parse does."""
    tree = parse(text, path)
    if text.startswith("\ufeff"):
        text = text[1:]
    # Line ends as the parser counts them, so that node spans and comments agree.
    return unparse_file(tree, Scan(text.replace("\r\n", "\n").replace("\r", "\n")))


def format_file(path: str | Path) -> tuple[str, bool]:
    """Return the canonical text of a rule file and whether it differs from the file's text."""
    with open(path, encoding="utf-8", newline="") as f:
        text = f.read()
    formatted = format_source(text, str(path))
    return formatted, formatted != text
