"""Integer actions and numeric tensors for a loaded game: what OpenSpiel, PettingZoo and Gymnasium need.

``ActionSpace`` numbers every action of a game (``ruledsl.spaces.actions``), ``Decisions``
plays it id by id, and ``TensorLayout`` turns a seat's observation into a fixed-length list
of numbers (``ruledsl.spaces.tensors``). Plain Python, no numpy: the bridges add that.
"""

from __future__ import annotations

from ruledsl.spaces.actions import ActionSpace, Decisions, SpaceError
from ruledsl.spaces.loaded import Spaces, options_from_text, spaces_for, view_text
from ruledsl.spaces.tensors import TensorLayout

__all__ = [
    "ActionSpace",
    "Decisions",
    "SpaceError",
    "Spaces",
    "TensorLayout",
    "options_from_text",
    "spaces_for",
    "view_text",
]
