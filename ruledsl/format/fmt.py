"""Format a rule file: parse it and write it again in the canonical layout, its comments kept."""

from __future__ import annotations

from pathlib import Path

from ruledsl.format.scan import Scan
from ruledsl.format.unparse import unparse_file
from ruledsl.syntax.parser import parse_source
from ruledsl.text.source import Source


def format_source(text: str, path: str = "<input>") -> str:
    """Parse a rule file and return its canonical text, comments kept; raise ParseError as parse does."""
    if text.startswith("\ufeff"):
        text = text[1:]  # an editor's byte-order mark is not part of the rules; a second one is (E102)
    return format_text(Source(path, text))


def format_text(source: Source) -> str:
    """Return the canonical text of a rule file read as ``check`` reads it (its byte-order mark dropped)."""
    tree = parse_source(source)
    # Line ends as the parser counts them, so that node spans and comments agree.
    return unparse_file(tree, Scan(source.text.replace("\r\n", "\n").replace("\r", "\n")))


def format_file(path: str | Path) -> tuple[str, bool]:
    """Return the canonical text of a rule file and whether it differs from the file's text."""
    with open(path, encoding="utf-8", newline="") as f:
        text = f.read()
    formatted = format_source(text, str(path))
    return formatted, formatted != text
