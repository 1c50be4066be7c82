"""Integer actions and numeric tensors for a loaded game: what OpenSpiel, PettingZoo and Gymnasium need.

``ActionSpace`` numbers every action of a game (``ruledsl.spaces.actions``), ``Decisions``
plays it id by id, and ``TensorLayout`` turns a seat's observation into a fixed-length list
of numbers (``ruledsl.spaces.tensors``). Plain Python, no numpy: the bridges add that.
"""

from __future__ import annotations

from ruledsl.spaces.actions import ActionSpace, Decisions, SpaceError
from ruledsl.spaces.loaded import (
    RENDER_MODES,
    Spaces,
    checked_render_mode,
    options_from_text,
    render_view,
    spaces_for,
    view_text,
)
from ruledsl.spaces.tensors import TensorLayout

__all__ = [
    "RENDER_MODES",
    "ActionSpace",
    "Decisions",
    "SpaceError",
    "Spaces",
    "TensorLayout",
    "checked_render_mode",
    "options_from_text",
    "render_view",
    "spaces_for",
    "view_text",
]
