"""The click-free path of the console script: a plain ``forgec validate [PATH]...`` without click.

Issue 14 asks for a cold ``forgec validate FILE`` under 60 ms; ``import click`` alone is ~30 ms of
it (docs/performance-log.md, "Stop 25: cold validate").  :func:`forgec.cli.main` hands the words after
``validate`` to :func:`run_plain_validate`, which runs them only when it recognises every one:

- PATHs that do not start with ``-`` (and are not empty: ``''`` is click's usage error);
- ``--format NAME`` / ``--format=NAME`` once, NAME one of :data:`forgec.output.FORMATS` exactly;
- ``--strict`` / ``--no-strict`` (the last one wins) and ``-q`` / ``--quiet``, each spelt alone;
- ``--no-cache`` (repeated or not), else ``$FORGEC_NO_CACHE`` unset, empty or one of a few spellings;
- ``$FORGEC_CACHE_DIR`` unset, empty, missing or a readable folder (click's ``Path`` checks pass).

Anything else -- another option, ``--help``, ``-``, ``--``, a format click would refuse, shell
completion, a stream ``click.echo`` would re-wrap (:func:`forgec.cli._echo.plain_streams`) -- returns
without a side effect and click runs the command line as before.  The run itself is shared:
:func:`forgec.cli._validate_options.start` under the command's guard
(:func:`forgec.cli._common.no_traceback`), printing through :mod:`forgec.cli._echo`.
"""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from forgec.cli._validate_options import ValidateOptions

__all__ = ["parse_plain_validate", "run_plain_validate"]

#: ``$FORGEC_NO_CACHE`` values read here as click's boolean flag reads them (others: click decides)
_NO_CACHE_VALUES = {"1": True, "true": True, "0": False, "false": False}

#: click's variable asking for shell completion (``_{PROG}_COMPLETE``): completion is click's
_COMPLETION_ENVVAR = "_FORGEC_COMPLETE"


def parse_plain_validate(words: list[str]) -> ValidateOptions | None:
    """The options of ``forgec validate WORDS...`` when the click-free path can run them, else None."""
    paths: list[str] = []
    fmt: str | None = None
    no_cache = quiet = False
    strict: bool | None = None
    rest = iter(words)
    for word in rest:  # the words first: ``validate --help`` and the like go to click before any import
        if word == "--no-cache":
            no_cache = True
        elif word in ("-q", "--quiet"):
            quiet = True
        elif word in ("--strict", "--no-strict"):
            strict = word == "--strict"  # the last one wins, as in click
        elif word == "--format" or word.startswith("--format="):
            value = word[len("--format="):] if word != "--format" else next(rest, None)
            if fmt is not None or value is None:
                return None
            fmt = value
        elif word.startswith("-") or not word:
            return None
        else:
            paths.append(word)
    from forgec.cli._echo import plain_streams
    from forgec.cli._validate_options import CACHE_DIR_ENVVAR, DEFAULTS, NO_CACHE_ENVVAR, ValidateOptions

    if os.environ.get(_COMPLETION_ENVVAR) or not plain_streams():
        return None
    if fmt is not None:
        from forgec.output import FORMATS

        if fmt not in FORMATS:
            return None
    if not no_cache:
        flag = _NO_CACHE_VALUES.get(os.environ.get(NO_CACHE_ENVVAR) or "false")
        if flag is None:
            return None
        no_cache = flag
    accepted, cache_dir = _cache_dir_from_environment(CACHE_DIR_ENVVAR)
    if not accepted:
        return None
    return ValidateOptions(paths=tuple(paths), fmt=DEFAULTS["fmt"] if fmt is None else fmt,
                           strict=DEFAULTS["strict"] if strict is None else strict,
                           quiet=quiet or DEFAULTS["quiet"], no_cache=no_cache, cache_dir=cache_dir)  # fmt: skip


def _cache_dir_from_environment(name: str) -> tuple[bool, Path | None]:
    """``$FORGEC_CACHE_DIR`` as ``click.Path(file_okay=False, path_type=Path)`` reads it: None when
    unset or empty, the path when it is missing or a readable non-file; not accepted (False) when
    click would refuse it (a file, an unreadable folder), which is click's to report."""
    value = os.environ.get(name)
    if not value:
        return True, None
    try:
        info = os.stat(value)
    except OSError:
        return True, Path(value)
    if stat.S_ISREG(info.st_mode) or not os.access(value, os.R_OK):
        return False, None
    return True, Path(value)


def run_plain_validate(words: list[str]) -> None:
    """Run ``forgec validate WORDS...`` without click and exit, or return at once (nothing printed,
    nothing read) when click should run it.

    Ctrl-C during the run prints the newline click prints to end the terminal's ``^C`` before the
    caller's ``forgec: interrupted``.
    """
    try:
        options = parse_plain_validate(words)
        if options is None:
            return
        from forgec.cli._common import no_traceback
        from forgec.cli._echo import click_free_command
        from forgec.cli._validate_options import start

        with click_free_command("forgec validate"):
            code = no_traceback(start)(options)
    except KeyboardInterrupt:
        sys.stderr.write("\n")
        sys.stderr.flush()
        raise
    sys.exit(code)
