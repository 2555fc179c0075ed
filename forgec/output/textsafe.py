"""Making untrusted text safe to print on a terminal or in a JSON document.

Messages, ids and values come from stack files the user did not necessarily write; printed raw, an
ESC sequence could recolour the terminal, rewrite its title or hide lines, a CR could overwrite what
was printed before, and bidi overrides can reorder what a reader sees.  Every human-facing renderer
(diagnostic formats, previews, snapshot diffs) passes such text through here.
"""

from __future__ import annotations

import re
from functools import cache

__all__ = ["escape_controls", "escape_json_controls"]


def _escape_table() -> dict[int, str]:
    table: dict[int, str] = {}
    for code in (*range(0x00, 0x20), 0x7F, *range(0x80, 0xA0)):
        table[code] = {0x09: "\\t", 0x0A: "\\n", 0x0D: "\\r"}.get(code, f"\\x{code:02x}")
    # bidirectional overrides and isolates can reorder what a terminal shows ("trojan source")
    for code in (*range(0x202A, 0x202F), *range(0x2066, 0x206A)):
        table[code] = f"\\u{code:04x}"
    return table


_ESCAPES = _escape_table()
_KEEP_TAB = {k: v for k, v in _ESCAPES.items() if k != 0x09}
_KEEP_NEWLINE = {k: v for k, v in _KEEP_TAB.items() if k != 0x0A}
_KEEP_LINE_BREAKS = {k: v for k, v in _KEEP_NEWLINE.items() if k != 0x0D}


def escape_controls(text: str, *, keep_newlines: bool = False, keep_cr: bool = False) -> str:
    """``text`` with terminal control characters made visible (ESC -> ``\\x1b``, CR -> ``\\r``).

    Messages and values come from untrusted stack files; printed raw, an ESC sequence could recolour
    the terminal, rewrite its title or hide lines, a CR could overwrite what was printed before.
    C0 and C1 controls, DEL and the bidi overrides are escaped except tab; newline is escaped too
    (a message must stay one line) unless ``keep_newlines`` (multi-line text such as a prompt,
    where newlines are the layout).  ``keep_cr`` (with ``keep_newlines``) leaves CR alone too, for a
    format with its own encoding of line breaks (GitHub's ``%0D``/``%0A``).
    """
    if _scanners()[0].search(text) is None:  # the usual case, scanned in C
        return text
    if keep_newlines:
        return text.translate(_KEEP_LINE_BREAKS if keep_cr else _KEEP_NEWLINE)
    return text.translate(_KEEP_TAB)


def escape_json_controls(text: str) -> str:
    """JSON text with DEL, the C1 controls and the bidi overrides written as ``\\uXXXX`` escapes.

    ``json.dumps(..., ensure_ascii=False)`` escapes C0 controls but prints U+0080-U+009F raw, and
    U+009B is a CSI to some terminals.  The escaped document parses to the same data.

    ``str.translate`` with a mapping looks every character up (8 s for the 17 MB SARIF document of
    20,000 findings, issue 13), so the text is first searched in C and returned as is when clean.
    """
    if _scanners()[1].search(text) is None:
        return text
    return text.translate(_JSON_ESCAPES)


_JSON_ESCAPES = {k: f"\\u{k:04x}" for k in _ESCAPES if k >= 0x7F}


def _char_class(codes: list[int]) -> str:
    """A regex class of ``codes`` written as ranges (``[\\u0000-\\u0008…]``): the same set as one
    escape per character, but a few ranges compile several times faster than ~70 single escapes."""
    codes = sorted(codes)
    parts = []
    start = 0
    for index, code in enumerate(codes):
        if index + 1 == len(codes) or codes[index + 1] != code + 1:
            first = codes[start]
            parts.append(f"\\u{first:04x}" if first == code else f"\\u{first:04x}-\\u{code:04x}")
            start = index + 1
    return "[" + "".join(parts) + "]"


@cache
def _scanners() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """The searches for "anything to escape" (every escaped character but tab) and "anything JSON
    must escape", compiled on first use rather than at import: a clean ``forgec validate`` prints
    no untrusted text, and every cold start would pay for the compile."""
    return (re.compile(_char_class([k for k in _ESCAPES if k != 0x09])),
            re.compile(_char_class(list(_JSON_ESCAPES))))  # fmt: skip
