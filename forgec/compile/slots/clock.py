"""The ``date``, ``cwd`` and ``date-cwd`` slots (compile-core.md §6.8–§6.10).

Date and time are the local calendar fields of the compile instant in the runtime's zone.  ``cwd``
is the only slot that normalises a path (backslashes to slashes); the ``{{cwd}}`` macro does not.
"""

from __future__ import annotations

from forgec.compile.slots.base import SlotContext, require_str
from forgec.compile.slots.helpers import format_local_date, format_local_time, normalize_path
from forgec.js.values import UNDEFINED


def render_date(ctx: SlotContext) -> str:
    """``Current date: YYYY-MM-DD``, plus ``Current time: HH:MM:SS`` with ``includeTime: true``."""
    runtime = ctx.runtime
    text = f"Current date: {format_local_date(runtime.now_ms, runtime.time_zone)}"
    if ctx.flag("includeTime"):
        text += f"\nCurrent time: {format_local_time(runtime.now_ms, runtime.time_zone)}"
    return text


def render_cwd(ctx: SlotContext) -> str:
    """``Current working directory: <cwd>``; a missing cwd fails like V8's ``undefined.replace``."""
    cwd = require_str(ctx.runtime.options.get("cwd", UNDEFINED), "replace")
    return f"Current working directory: {normalize_path(cwd)}"


def render_date_cwd(ctx: SlotContext) -> str:
    """The ``date`` text (honouring ``includeTime``), a newline, the ``cwd`` text."""
    return render_date(ctx) + "\n" + render_cwd(ctx)
