"""Find the comments, tokens and blank lines of a rule file's text, so that fmt can keep them."""

from __future__ import annotations

import bisect

from attrs import frozen


@frozen
class Comment:
    """A comment of the source: its line, the column of its '#', its text, and whether code precedes it."""

    line: int
    col: int
    offset: int
    text: str
    after_code: bool


@frozen
class ScannedToken:
    """A word, a string or a single character of the source, where it starts."""

    offset: int
    line: int
    text: str


class Scan:
    """The comments, tokens and blank lines of a source text (whose line ends are ``\\n``)."""

    def __init__(self, text: str) -> None:
        self.lines = text.split("\n")
        self.comments: list[Comment] = []
        self.tokens: list[ScannedToken] = []
        i, line, line_start, after_code = 0, 1, 0, False
        while i < len(text):
            ch = text[i]
            if ch == "\n":
                i, line, line_start, after_code = i + 1, line + 1, i + 1, False
            elif ch in " \t\f":
                i += 1
            elif ch == "#":
                end = text.find("\n", i)
                end = len(text) if end < 0 else end
                self.comments.append(Comment(line, i - line_start, i, text[i:end].rstrip(), after_code))
                i = end
            elif ch == '"':
                j = i + 1
                while j < len(text) and text[j] not in '"\n':
                    j += 2 if text[j] == "\\" else 1
                self.tokens.append(ScannedToken(i, line, text[i : j + 1]))
                i, after_code = j + 1, True
            elif ch.isalnum() or ch == "_":
                j = i
                while j < len(text) and (text[j].isalnum() or text[j] == "_"):
                    j += 1
                self.tokens.append(ScannedToken(i, line, text[i:j]))
                i, after_code = j, True
            else:
                self.tokens.append(ScannedToken(i, line, ch))
                i, after_code = i + 1, True
        self._offsets = [t.offset for t in self.tokens]

    def is_blank(self, line: int) -> bool:
        return 1 <= line <= len(self.lines) and not self.lines[line - 1].strip()

    def token_after(self, offset: int) -> ScannedToken | None:
        """Return the first token at or after a character offset."""
        i = bisect.bisect_left(self._offsets, offset)
        return self.tokens[i] if i < len(self.tokens) else None

    def token_before(self, offset: int) -> ScannedToken | None:
        """Return the last token that starts before a character offset."""
        i = bisect.bisect_left(self._offsets, offset)
        return self.tokens[i - 1] if i > 0 else None
