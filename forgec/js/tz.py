"""IANA time zones read from the pinned ``tzdata`` package: the database pi-forge's Node ran with.

``ZoneInfo(name)`` prefers the operating system's database, whose version *and build* differ between
machines (Debian's keeps the pre-1970 "backzone" history that upstream merged away), so one context
would render different dates on two machines and differ from the reference (Node 20.20.2, tz 2025c,
``tzdata==2025.3``): 111 of 2,995 zone × instant checks did on the reference machine, none with the
package. The system database is only a fallback for names the package lacks.
"""

from __future__ import annotations

import re
from datetime import tzinfo
from functools import cache

#: what an IANA key can look like; anything else ("..", absolute paths) never touches the file system
_KEY = re.compile(r"[A-Za-z0-9_+\-]+(?:/[A-Za-z0-9_+\-]+)*")


@cache
def find_zone(name: str) -> tzinfo | None:
    """The zone called ``name``, or ``None`` when no database knows it."""
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    if not _KEY.fullmatch(name):
        return None
    try:
        from importlib.resources import files

        with files("tzdata.zoneinfo").joinpath(*name.split("/")).open("rb") as handle:
            return ZoneInfo.from_file(handle, key=name)
    except (ImportError, ValueError, OSError):  # no package, not a zone file, a folder, …
        pass
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        return None
