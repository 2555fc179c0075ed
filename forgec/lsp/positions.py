"""Positions: forgec counts 1-based lines and *characters*; LSP counts 0-based lines and UTF-16 units.

The two agree until a line holds a character outside the Basic Multilingual Plane (an emoji in a
prompt), which is one character to forgec and two units to an editor.  Converting through the
line's text keeps every underline on its token.  A client may negotiate ``utf-8`` or ``utf-32``
units instead (``positionEncoding``); :class:`LineIndex` counts in whichever was agreed.
"""

from __future__ import annotations

__all__ = ["LineIndex"]


class LineIndex:
    """The lines of one text, for converting between character columns and UTF-16 offsets."""

    def __init__(self, text: str, encoding: str = "utf-16") -> None:
        self.text = text
        self.encoding = encoding
        self.lines = text.split("\n")
        starts = [0]
        for line in self.lines[:-1]:
            starts.append(starts[-1] + len(line) + 1)
        self.starts = starts

    def _units(self, text: str) -> int:
        """How many code units of the negotiated encoding ``text`` is (LSP's ``positionEncoding``)."""
        if self.encoding == "utf-32" or text.isascii():
            return len(text)
        if self.encoding == "utf-8":
            return len(text.encode("utf-8", errors="surrogatepass"))
        return len(text) + sum(1 for c in text if ord(c) > 0xFFFF)

    def line(self, number: int) -> str:
        """The 0-based line ``number`` (empty past the end)."""
        return self.lines[number] if 0 <= number < len(self.lines) else ""

    def utf16(self, line: int, column: int) -> tuple[int, int]:
        """forgec's 1-based (line, column) as LSP's 0-based (line, UTF-16 character)."""
        text = self.line(line - 1)
        prefix = text[: max(column - 1, 0)]
        return max(line - 1, 0), self._units(prefix)

    def offset(self, line: int, character: int) -> int:
        """The string offset of LSP's 0-based (line, UTF-16 character), clamped to the text."""
        if line < 0:
            return 0
        if line >= len(self.lines):
            return len(self.text)
        text = self.lines[line]
        units = 0
        for index, c in enumerate(text):
            if units >= character:
                return self.starts[line] + index
            units += self._units(c)
        return self.starts[line] + len(text)

    def position(self, offset: int) -> tuple[int, int]:
        """LSP's 0-based (line, UTF-16 character) of a string offset."""
        from bisect import bisect_right

        offset = min(max(offset, 0), len(self.text))
        line = bisect_right(self.starts, offset) - 1
        prefix = self.text[self.starts[line] : offset]
        return line, self._units(prefix)
