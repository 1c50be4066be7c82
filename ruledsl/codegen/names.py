"""The names generated code gives its functions and tables: one place, one line each."""

from __future__ import annotations


def _ident(name: str) -> str:
    """A Python identifier for a values name (which may hold any Unicode letter)."""
    return "".join(ch if ch.isascii() and (ch.isalnum() or ch == "_") else f"_{ord(ch):x}_" for ch in name)


def display_table(values_name: str) -> str:
    """The table of how the members of a ``values`` declaration are shown."""
    return f"DISP_{_ident(values_name)}"
