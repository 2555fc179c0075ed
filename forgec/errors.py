"""One family for every exception forgec raises on purpose, and the exit-code contract.

A *finding* about an input (a bad role, an unknown macro) is a :class:`~forgec.diagnostics.Diagnostic`,
never an exception.  An exception means the request itself cannot be served: a file cannot be
read, a configuration is broken, a model is unknown, an output cannot be written.  Each of those
derives from :class:`ForgecError`, which carries the exit code a command ends with when the error
reaches it, so the command-line guard (:func:`forgec.cli._common.no_traceback`) maps the whole
family in one place: the message, then ``exit_code``.  Anything else that escapes is a bug in
forgec and is reported as ``internal error``.

Library users catch :class:`ForgecError` (or a subclass) and never see ``ValueError``/``OSError``
from forgec's own decisions; the classes that were ``ValueError`` subclasses before this family
existed still are, so old ``except ValueError`` code keeps working.

This module imports nothing: every layer may raise these.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, ClassVar

if TYPE_CHECKING:
    from forgec.diagnostics import Diagnostic

__all__ = [
    "EXIT_FAILED",
    "EXIT_INTERRUPTED",
    "EXIT_OK",
    "EXIT_REFUSED",
    "EXIT_USAGE",
    "ForgecError",
    "InputError",
    "OutputError",
    "SettingsError",
    "UsageError",
]

#: Nothing wrong (``validate``: no finding at the failing level).
EXIT_OK = 0
#: Findings at the failing level, or an input that cannot be used for what was asked.
EXIT_FAILED = 1
#: A usage error, an unreadable input, a broken configuration or an output that cannot be written.
EXIT_USAGE = 2
#: A run refused before anything was sent (no approval, a stale plan, no consent, no credentials).
EXIT_REFUSED = 3
#: Interrupted (Ctrl-C): 128 + SIGINT, the shell convention.
EXIT_INTERRUPTED = 130


class ForgecError(Exception):
    """Base of forgec's exceptions.  ``str(error)`` is the message for the user.

    ``exit_code`` is a class default that an instance may override (``ImportFailure`` does: the
    same refusal is exit 1 or 2 depending on its cause).  ``diagnostics`` are the positioned
    findings behind the error, when there are any (every problem of a refused context file).
    """

    exit_code: ClassVar[int] = EXIT_USAGE

    def __init__(self, message: str = "", *, diagnostics: Iterable[Diagnostic] = ()) -> None:
        super().__init__(message)
        self.diagnostics: tuple[Diagnostic, ...] = tuple(diagnostics)

    @property
    def message(self) -> str:
        return str(self)


class UsageError(ForgecError):
    """The request cannot be served as asked: an option value, a model or a target that does not exist."""


class InputError(ForgecError):
    """An input cannot be read, or is refused as a whole before any finding could be made about it.

    ``path`` is the file as the caller named it (``None`` for data passed in memory).
    """

    def __init__(self, message: str = "", *, path: str | None = None, diagnostics: Iterable[Diagnostic] = ()) -> None:
        super().__init__(message, diagnostics=diagnostics)
        self.path = path


class SettingsError(ForgecError):
    """``[tool.forgec]`` (or a selector on the command line) is broken: checking on would check the wrong thing."""


class OutputError(ForgecError):
    """An output file cannot be written, or writing it would destroy something the user has."""
