"""Whether a pattern compiles in Node 20, without loading the matcher.

The answer is V8's alone, and the V8-parser port (:mod:`._parser`) gives it: V8 accepts a pattern
exactly when that parser does.  Emitting a ``regex`` pattern and compiling it (:mod:`.pattern`) is
only needed to *run* the pattern; it imports the ``regex`` module and the Unicode tables, tens of
milliseconds that a cold ``forgec validate`` (pi-forge's load-time "pattern failed to compile"
check) should not pay.  Parses are cached, and :func:`forgec.js.regex.compile_js` reuses them.
"""

from __future__ import annotations

from functools import lru_cache

from ._parser import Parsed, PatternSyntaxError, parse
from .errors import JSRegexError

__all__ = ["FLAG_ORDER", "normalize_flags", "parse_checked", "syntax_error"]

FLAG_ORDER = "gimsu"


def normalize_flags(flags: str) -> str:
    """``flags`` in V8's canonical order; raises :class:`JSRegexError` for unknown or repeated flags."""
    if len(set(flags)) != len(flags) or any(c not in FLAG_ORDER for c in flags):
        raise JSRegexError(f"Invalid flags supplied to RegExp constructor '{flags}'", "invalid flags")
    return "".join(c for c in FLAG_ORDER if c in flags)


@lru_cache(maxsize=1024)
def parse_checked(pattern: str, flags: str) -> Parsed:
    """The V8 parse of ``pattern`` under normalised ``flags``; raises :class:`JSRegexError` with V8's
    ``Invalid regular expression: /…/…: reason``."""
    try:
        return parse(pattern, flags)
    except PatternSyntaxError as exc:
        raise JSRegexError(f"Invalid regular expression: /{pattern}/{flags}: {exc.reason}", exc.reason) from None


def syntax_error(pattern: str, flags: str = "") -> str | None:
    """V8's error message for ``new RegExp(pattern, flags)``, or ``None`` when Node 20 accepts it."""
    try:
        parse_checked(pattern, normalize_flags(flags))
    except JSRegexError as error:
        return str(error)
    return None
