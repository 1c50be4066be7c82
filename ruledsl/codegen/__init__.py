"""codegen: compile a checked game into Python functions (``compiler`` drives the parts, ``names`` is the glossary).

``listing``, ``compile_game`` and ``option_values`` are loaded on first use (PEP 562): a
module that needs only the load-time values (``loadtime``) does not load the compiler.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ruledsl.codegen.compiler import compile_game, listing, option_values

__all__ = ["compile_game", "listing", "option_values"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from ruledsl.codegen import compiler

        return getattr(compiler, name)
    raise AttributeError(f"module 'ruledsl.codegen' has no attribute {name!r}")
