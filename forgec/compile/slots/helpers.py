"""pi-forge's slot text helpers (compile-core.md §6.14).

Every built-in slot (and every custom slot plugin, through :class:`forgec.compile.slots.base.SlotContext`)
builds its text from these few functions, so their exact behaviour — which characters are escaped,
which lines get an indent — decides the bytes of most system prompts.  They take plain ``str``;
callers that may hold a non-string runtime value go through :func:`forgec.compile.slots.base.require_str`
first, which raises the V8-style error pi-forge would have produced.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta, tzinfo
from functools import cache

from forgec.js.values import civil_from_days

__all__ = [
    "escape_xml",
    "format_local_date",
    "format_local_time",
    "indent_plain_block",
    "local_fields",
    "normalize_path",
    "plain_bullet",
    "plain_continuation",
    "resolve_zone",
]

_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def escape_xml(value: str) -> str:
    """``escapeXml``: exactly five replacements, ``&`` first so entities are not double-escaped."""
    return (
        value.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&quot;")
        .replace("'", "&apos;")
    )


def plain_continuation(value: str, indent: str) -> str:
    """``plainContinuation``: indent every line but the first, so a value continues a bullet."""
    return f"\n{indent}".join(value.split("\n"))


def plain_bullet(label: str, value: str) -> str:
    """``plainBullet``: ``- label: value`` with continuation lines indented by two spaces."""
    return f"- {label}: {plain_continuation(value, '  ')}"


def indent_plain_block(value: str, indent: str) -> str:
    """``indentPlainBlock``: indent *every* line, empty ones and the first included."""
    return "\n".join(indent + line for line in value.split("\n"))


def normalize_path(value: str) -> str:
    """``normalizePath``: backslashes become slashes (nothing else, no collapsing)."""
    return value.replace("\\", "/")


@cache
def resolve_zone(name: str) -> tzinfo:
    """The zone date/time text is rendered in; unknown names fall back to UTC.

    The context codec refuses unknown zones, so the fallback only matters for a host that builds a
    :class:`~forgec.model.runtime.Runtime` itself.
    """
    from forgec.js.tz import find_zone

    if name in ("UTC", "Etc/UTC", "Z"):
        return UTC
    return find_zone(name) or UTC


#: 400 Gregorian years: the calendar (and every zone's recurring DST rule) repeats after this many ms
_CYCLE_MS = 146097 * 86_400_000
#: instants whose UTC date lies in years 2..9998 can be handed to ``datetime`` with any zone offset
_SAFE_MIN_MS = -62_104_060_800_000  # 0002-01-01T00:00:00Z
_SAFE_MAX_MS = 253_370_764_800_000  # 9998-12-31T00:00:00Z


def _offset_ms(now_ms: int, zone: tzinfo) -> int:
    """The zone's UTC offset at the instant, in ms.

    ``datetime`` only holds years 1–9999, while a JavaScript ``Date`` spans ±275,760 years.  Outside
    the safe range the instant is moved by whole 400-year cycles first: before the zone's first
    transition the offset is its constant local mean time, after its last one the recurring rule,
    and both repeat with the Gregorian cycle.
    """
    if zone is UTC:  # the usual zone: no datetime round trip (~1.4 µs)
        return 0
    shifted = now_ms
    if shifted < _SAFE_MIN_MS:  # whole cycles up, ceil((min - t) / cycle) of them
        shifted += -((shifted - _SAFE_MIN_MS) // _CYCLE_MS) * _CYCLE_MS
    elif shifted > _SAFE_MAX_MS:  # whole cycles down, ceil((t - max) / cycle) of them
        shifted -= -((_SAFE_MAX_MS - shifted) // _CYCLE_MS) * _CYCLE_MS
    offset = (_EPOCH + timedelta(milliseconds=shifted)).astimezone(zone).utcoffset()
    return 0 if offset is None else offset // timedelta(milliseconds=1)


def local_fields(now_ms: int, time_zone: str) -> tuple[int, int, int, int, int, int]:
    """``(year, month, day, hours, minutes, seconds)`` of the instant in ``time_zone``.

    pi-forge reads ``getFullYear()``/``getHours()``… of ``new Date()``, i.e. the process's local
    wall clock; forgec takes the zone explicitly (compile-core §0.11, §1.2).  The calendar fields
    are computed arithmetically (proleptic Gregorian, like ECMAScript), so years ≤ 0 and ≥ 10000
    render as JavaScript prints them (``0-06-01``, ``10000-01-01``).
    """
    local = int(now_ms) + _offset_ms(int(now_ms), resolve_zone(time_zone))
    days, millis = divmod(local, 86_400_000)
    year, month, day = civil_from_days(days)
    seconds = millis // 1000
    return year, month, day, seconds // 3600, seconds // 60 % 60, seconds % 60


def format_local_date(now_ms: int, time_zone: str) -> str:
    """``YYYY-MM-DD``: the year unpadded (as JavaScript prints a number), month and day padded."""
    year, month, day, *_ = local_fields(now_ms, time_zone)
    return f"{year}-{month:02d}-{day:02d}"


def format_local_time(now_ms: int, time_zone: str) -> str:
    """``HH:MM:SS`` on a 24-hour clock, each field padded to two digits."""
    *_, hours, minutes, seconds = local_fields(now_ms, time_zone)
    return f"{hours:02d}:{minutes:02d}:{seconds:02d}"
