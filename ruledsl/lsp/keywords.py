"""The meaning of each keyword, in a line: read from keywords.md, which docs/language.md quotes word for word.

The reading is in ruledsl.resources, since a syntax error's hint quotes it too.
"""

from __future__ import annotations

from ruledsl.resources import keyword_meanings, keywords_text

__all__ = ["keyword_meanings", "keywords_text"]
