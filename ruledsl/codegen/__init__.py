"""codegen: compile a checked game into Python functions (``compiler`` drives the parts, ``names`` is the glossary).

``listing`` and ``compile_game`` are loaded on first use (PEP 562), so importing a part
(``names``, ``refusal``) does not load the whole compiler.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ruledsl.codegen.compiler import compile_game, listing

__all__ = ["compile_game", "listing"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from ruledsl.codegen import compiler

        return getattr(compiler, name)
    raise AttributeError(f"module 'ruledsl.codegen' has no attribute {name!r}")
