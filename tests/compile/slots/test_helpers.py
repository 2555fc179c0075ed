"""§6.14 helpers."""

from __future__ import annotations

from forgec.compile.slots.helpers import (
    escape_xml,
    format_local_date,
    format_local_time,
    indent_plain_block,
    normalize_path,
    plain_bullet,
    plain_continuation,
)


def test_escape_xml_five_characters_in_order() -> None:
    assert escape_xml("""a&b<c>d"e'f""") == "a&amp;b&lt;c&gt;d&quot;e&apos;f"
    assert escape_xml("&lt;") == "&amp;lt;"
    assert escape_xml("\u00e9\n\t/") == "\u00e9\n\t/"


def test_plain_continuation_and_bullet() -> None:
    assert plain_continuation("a\nb\n\nc", "  ") == "a\n  b\n  \n  c"
    assert plain_bullet("read", "Read files\nfrom disk.\n  (indented third line)") == (
        "- read: Read files\n  from disk.\n    (indented third line)"
    )
    assert plain_bullet("deploy", "") == "- deploy: "


def test_indent_plain_block_indents_every_line() -> None:
    assert indent_plain_block("Rule <1>\n\nRule 2\n", "  ") == "  Rule <1>\n  \n  Rule 2\n  "
    assert indent_plain_block("", "  ") == "  "


def test_normalize_path() -> None:
    assert normalize_path("C:\\Users\\Dev\\My Project") == "C:/Users/Dev/My Project"
    assert normalize_path("\\\\server\\share") == "//server/share"


def test_local_date_time_in_zone() -> None:
    instant = 1773476813000  # 2026-03-14T08:26:53Z
    assert format_local_date(instant, "UTC") == "2026-03-14"
    assert format_local_time(instant, "UTC") == "08:26:53"
    assert format_local_time(instant, "Asia/Tokyo") == "17:26:53"
    assert format_local_date(1773446400000 - 1, "UTC") == "2026-03-13"  # one millisecond before midnight
    assert format_local_time(0, "America/New_York") == "19:00:00"
    assert format_local_date(-62135596800000, "UTC") == "1-01-01"  # the year is not padded


def test_utc_offset_shortcut_equals_the_datetime_way() -> None:
    """``_offset_ms`` answers 0 for ``UTC`` without converting; another spelling of UTC (a distinct
    ``timezone`` object) still goes through ``datetime`` and must agree, far instants included."""
    import random
    from datetime import UTC, timedelta, timezone

    from forgec.compile.slots.helpers import _offset_ms

    other_utc = timezone(timedelta(0))
    rng = random.Random(25)
    instants = [0, -1, 1773476813000, -62_104_060_800_001, 253_370_764_800_001, 8.64e15, -8.64e15]
    instants += [rng.randint(-8_640_000_000_000_000, 8_640_000_000_000_000) for _ in range(2_000)]
    for now_ms in instants:
        assert _offset_ms(int(now_ms), UTC) == _offset_ms(int(now_ms), other_utc) == 0
