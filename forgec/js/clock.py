"""The instant a run reads, and how JavaScript prints it.

Several outputs carry a time stamp -- an import report's ``convertedAt``, a capture record's
``capturedAt``, a plan's ``preparedAt`` -- and golden files and fingerprints need them to be
reproducible.  One rule for all of them: ``--now`` when a command was given one, else
``SOURCE_DATE_EPOCH`` (seconds, the reproducible-builds convention), else the wall clock; printed
as ``Date.prototype.toISOString`` prints it.
"""

from __future__ import annotations

import os
import re
import time

from forgec.errors import UsageError
from forgec.js.values import civil_from_days

__all__ = ["iso_timestamp", "now_ms", "parse_instant"]

_ISO = re.compile(
    r"(?P<y>[+-]\d{6}|\d{4})-(?P<mo>\d{2})-(?P<d>\d{2})"
    r"(?:[T ](?P<h>\d{2}):(?P<mi>\d{2})(?::(?P<s>\d{2})(?:\.(?P<f>\d{1,9}))?)?"
    r"(?P<z>Z|[+-]\d{2}:?\d{2})?)?"
)


def now_ms() -> int:
    """``SOURCE_DATE_EPOCH`` (seconds) when set, for reproducible output; else the wall clock."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if epoch:
        try:
            return int(float(epoch) * 1000)
        except (ValueError, OverflowError):
            pass
    return time.time_ns() // 1_000_000


def iso_timestamp(ms: int) -> str:
    """``new Date(ms).toISOString()``: UTC, exactly three fraction digits (E15c).

    Computed arithmetically (not through :mod:`datetime`, which stops at years 1 and 9999) so
    every instant JavaScript can represent works: years outside 0-9999 print as ``+YYYYYY`` /
    ``-YYYYYY``, as V8 does.
    """
    days, rest = divmod(int(ms), 86_400_000)
    seconds, millis = divmod(rest, 1000)
    hour, seconds = divmod(seconds, 3600)
    minute, second = divmod(seconds, 60)
    year, month, day = civil_from_days(days)
    year_text = f"{year:04d}" if 0 <= year <= 9999 else f"{year:+07d}"
    return f"{year_text}-{month:02d}-{day:02d}T{hour:02d}:{minute:02d}:{second:02d}.{millis:03d}Z"


def _days_from_civil(year: int, month: int, day: int) -> int:
    """Days since 1970-01-01 of a proleptic Gregorian date (the inverse of ``civil_from_days``)."""
    year -= month <= 2
    era = (year if year >= 0 else year - 399) // 400
    yoe = year - era * 400
    doy = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + day - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


def parse_instant(text: str) -> int:
    """An instant given on the command line (``--now``), as epoch milliseconds.

    Accepts an ISO 8601 date-time (``2026-03-14T08:26:53Z``, ``2026-03-14T09:26:53.5+01:00``; no
    zone means UTC, so a run does not depend on the machine's zone), a date (midnight UTC), or
    epoch seconds (``1773476813``).  Anything else is a :class:`~forgec.errors.UsageError`.
    """
    value = text.strip()
    if re.fullmatch(r"-?\d+(?:\.\d+)?", value):
        return int(float(value) * 1000)
    match = _ISO.fullmatch(value)
    if match is None:
        raise UsageError(f"not an instant: {text!r} (give an ISO 8601 date-time such as 2026-03-14T08:26:53Z, or epoch seconds)")
    year, month, day = int(match["y"]), int(match["mo"]), int(match["d"])
    hour, minute, second = int(match["h"] or 0), int(match["mi"] or 0), int(match["s"] or 0)
    millis = int((match["f"] or "0").ljust(3, "0")[:3])
    if not (1 <= month <= 12 and 1 <= day <= 31 and hour <= 24 and minute <= 59 and second <= 59):
        raise UsageError(f"not an instant: {text!r} (a field is out of range)")
    offset = 0
    zone = match["z"]
    if zone and zone != "Z":
        sign = -1 if zone[0] == "-" else 1
        digits = zone[1:].replace(":", "")
        offset = sign * (int(digits[:2]) * 60 + int(digits[2:]))
    days = _days_from_civil(year, month, day)
    return ((days * 24 + hour) * 60 + minute - offset) * 60_000 + second * 1000 + millis
