"""The exceptions of :mod:`forgec.js.regex`, in a module of their own so the cheap syntax check
(:mod:`forgec.js.regex.syntax`) can raise them without importing the matcher."""

from __future__ import annotations

from forgec.errors import ForgecError

__all__ = ["JSRegexError", "JSRegexTimeout"]


class JSRegexError(ForgecError, ValueError):
    """The pattern is not a valid JavaScript regular expression; ``str()`` is V8's message."""

    def __init__(self, message: str, reason: str = "", unsupported: bool = False) -> None:
        super().__init__(message)
        self.reason = reason
        #: True when V8 accepts the pattern but forgec cannot run it (a forgec limitation, not a JS error).
        self.unsupported = unsupported


class JSRegexTimeout(ForgecError, TimeoutError):
    """Matching exceeded its time budget (catastrophic backtracking); the text should be left unchanged."""
