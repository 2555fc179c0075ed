"""Typed session values (compile-core §4.2–§4.4, §14.16, §6.13, §16.11) in every reading macro
and in the ``variables`` slot, plus local date/time in named zones across DST (§0.11, §6.8, §6.14;
context-format ``now``/``timezone``).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from forgec.report import compile_report

SESSION_JSON = (
    '{"n":2,"b":true,"z":null,"arr":["brief","technical"],"obj":{"z":1,"1":1.5},'
    '"f":1.0,"big":1e21,"small":0.00001,"nz":-0.0,"e":"","nested":{"a":[1,{"b":null}]}}'
)


def _session() -> dict[str, Any]:
    return json.loads(SESSION_JSON)


def _report(items: list[dict[str, Any]], ctx: dict[str, Any], **stack: Any) -> dict[str, Any]:
    return compile_report({"schemaVersion": 1, "id": "audit", "items": items, **stack}, ctx).to_report()


def _system(content: str, ctx: dict[str, Any] | None = None) -> str:
    items = [{"kind": "block", "id": "b", "role": "system", "content": "<" + content + ">"}]
    report = _report(items, {"variables": _session()} if ctx is None else ctx)
    assert report["system"]["diagnostics"] == []
    return report["system"]["prompt"][1:-1]


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        # §4.4 macro text: strings as is, everything else compact JSON.stringify (§0.3, §0.5)
        ("{{n}}|{{b}}|{{z}}|{{arr}}|{{obj}}", '2|true|null|["brief","technical"]|{"1":1.5,"z":1}'),
        ("{{f}}|{{big}}|{{small}}|{{nz}}|{{e}}", "1|1e+21|0.00001|0|"),
        ("{{getvar::n}}|{{var::obj}}|{{getsessionvar::z}}|{{getturnvar::n}}", '2|{"1":1.5,"z":1}|null|'),
        # §14.16: a null (or empty) session value exists
        ("{{ifvar::z::Y::N}}{{ifvar::e::Y::N}}{{ifvar::nope::Y::N}}", "YYN"),
        # §3.5 ifeq compares the macro text
        ("{{ifeq::n::2::EQ::NE}}{{ifeq::z::null::EQ::NE}}{{ifeq::b::true::EQ::NE}}", "EQEQEQ"),
        ('{{ifeq::arr::["brief","technical"]::EQ::NE}}{{ifeq::nope::::EQ::NE}}', "EQNE"),
        # values flow through the text macros as their macro text
        ('{{json::{{obj}}}}', '"{\\"1\\":1.5,\\"z\\":1}"'),
        ("{{upper::{{arr}}}}|{{lower::{{b}}}}", '["BRIEF","TECHNICAL"]|true'),
        ("{{xml::{{nested}}}}", "{&quot;a&quot;:[1,{&quot;b&quot;:null}]}"),
    ],
)
def test_typed_values_in_macros(content: str, expected: str) -> None:
    assert _system(content) == expected


def test_string_write_over_typed_value_marks_dirty() -> None:
    """§4.3: a non-string existing value is always different from the written string."""
    items = [{"kind": "block", "id": "b", "role": "system", "content": "{{setsessionvar::n::2}}x"}]
    report = _report(items, {"variables": _session()})
    assert report["variables"]["session"]["n"] == "2"
    assert report["variables"]["sessionDirty"] is True


def test_variables_slot_prompt_text_xml() -> None:
    """§4.4 prompt text (pretty JSON) + §6.13 XML escaping without re-indentation."""
    items = [{"kind": "slot", "id": "v", "role": "system", "slot": "variables"}]
    ctx = {"variables": {"obj": {"z": 1, "1": 1.5}, "n": 2, "z": None, "s": "a<"}}
    report = _report(items, ctx)
    assert report["system"]["prompt"] == (
        "<variables>\n  <session>\n"
        '    <var name="n">2</var>\n'
        '    <var name="obj">{\n  &quot;1&quot;: 1.5,\n  &quot;z&quot;: 1\n}</var>\n'
        '    <var name="s">a&lt;</var>\n'
        '    <var name="z">null</var>\n'
        "  </session>\n</variables>"
    )


def test_variables_slot_plain_and_scope_flags() -> None:
    """§6.13: only strictly false excludes a scope (0 keeps static); plain values use continuation indent."""
    items = [
        {"kind": "block", "id": "t", "role": "system", "content": "{{setvar::tv::1}}"},
        {
            "kind": "slot",
            "id": "v",
            "role": "system",
            "slot": "variables",
            "options": {"format": "plain", "includeStatic": 0, "includeTurn": False},
        },
    ]
    ctx = {"variables": {"user.preference": "concise", "agent.note": "a<\n&", "arr": [1]}}
    report = _report(items, ctx, variables={"st": "S"})
    assert report["system"]["prompt"] == (
        "Variables:\nstatic:\n- st: S\nsession:\n- agent.note: a<\n  &\n- arr: [\n    1\n  ]\n"
        "- user.preference: concise"
    )


def test_variables_slot_all_empty_is_empty() -> None:
    items = [
        {"kind": "slot", "id": "v", "role": "system", "slot": "variables", "options": {"includeStatic": False}},
        {"kind": "block", "id": "b", "role": "system", "content": "x"},
    ]
    report = _report(items, {}, variables={"st": "S"})
    assert report["system"]["prompt"] == "x"


def test_variables_slot_collation() -> None:
    """§0.9 observed order (ICU root collation, tertiary)."""
    names = ["_u", "1", "10", "2", "a", "A", "a b", "a-b", "a.b", "ab", "äb", "b", "B", "e", "é", "z", "Zed"]
    shuffled = list(reversed(names))
    items = [
        {"kind": "slot", "id": "v", "role": "system", "slot": "variables", "options": {"format": "plain"}}
    ]
    report = _report(items, {"variables": {name: "x" for name in shuffled}})
    lines = report["system"]["prompt"].split("\n")[2:]
    # integer-like keys come first in object order, the sort is then by collation
    assert [line[2:-3] for line in lines] == names


# --- time zones ------------------------------------------------------------------------------

ZONE_CASES = [
    # context-format: the offset only selects the instant; default zone UTC
    ("2026-07-04T23:05:09-04:00", None, "2026-07-05", "03:05:09", 1783220709000),
    ("2026-07-04T23:05:09-04:00", "Asia/Tokyo", "2026-07-05", "12:05:09", 1783220709000),
    # America/New_York spring forward (02:00 → 03:00 local) and fall back (01:30 occurs twice)
    ("2026-03-08T06:59:59Z", "America/New_York", "2026-03-08", "01:59:59", 1772953199000),
    ("2026-03-08T07:00:00Z", "America/New_York", "2026-03-08", "03:00:00", 1772953200000),
    ("2026-11-01T05:30:00Z", "America/New_York", "2026-11-01", "01:30:00", 1793511000000),
    ("2026-11-01T06:30:00Z", "America/New_York", "2026-11-01", "01:30:00", 1793514600000),
    # Europe/Berlin spring forward, sub-second instant truncated to ms for the timestamp
    ("2026-03-29T00:59:59.999Z", "Europe/Berlin", "2026-03-29", "01:59:59", 1774745999999),
    ("2026-03-29T01:00:00Z", "Europe/Berlin", "2026-03-29", "03:00:00", 1774746000000),
    # half-hour and 45-minute offsets, date line
    ("2026-06-13T09:08:07.123456+02:00", "Asia/Kolkata", "2026-06-13", "12:38:07", 1781334487123),
    ("2026-01-01T00:00:00Z", "Pacific/Chatham", "2026-01-01", "13:45:00", 1767225600000),
    ("2026-12-31T23:30:00Z", "Pacific/Kiritimati", "2027-01-01", "13:30:00", 1798759800000),
]


@pytest.mark.parametrize(("now", "zone", "date", "time", "timestamp"), ZONE_CASES)
def test_local_date_time(now: str, zone: str | None, date: str, time: str, timestamp: int) -> None:
    ctx: dict[str, Any] = {"now": now}
    if zone:
        ctx["timezone"] = zone
    items = [
        {"kind": "block", "id": "b", "role": "system", "content": "{{date}} {{time}}"},
        {"kind": "slot", "id": "d", "role": "system", "slot": "date-cwd", "options": {"includeTime": True}},
        {"kind": "slot", "id": "d2", "role": "system", "slot": "date", "options": {"includeTime": 1}},
        {"kind": "block", "id": "u", "role": "user", "content": "x"},
    ]
    report = _report(items, ctx)
    assert report["system"]["prompt"] == (
        f"{date} {time}\n\nCurrent date: {date}\nCurrent time: {time}\n"
        f"Current working directory: /home/dev/project\n\nCurrent date: {date}"
    )
    assert report["messages"]["messages"][0]["timestamp"] == timestamp


@pytest.mark.parametrize(
    ("now", "zone", "expected"),
    [
        # §6.14: the year is a plain decimal (JavaScript ``getFullYear()``), over Date's whole range
        ("+010000-01-01T00:00:00Z", None, "10000-01-01 00:00:00"),
        ("+275760-09-13T00:00:00Z", None, "275760-09-13 00:00:00"),
        ("-000001-06-01T12:00:00Z", None, "-1-06-01 12:00:00"),
        ("9999-12-31T23:30:00Z", "Asia/Tokyo", "10000-01-01 08:30:00"),
        # before a zone's first transition: local mean time (New York LMT is -4:56:02)
        ("0001-01-01T00:00:00Z", "America/New_York", "0-12-31 19:03:58"),
    ],
)
def test_local_date_time_outside_datetime_range(now: str, zone: str | None, expected: str) -> None:
    ctx: dict[str, Any] = {"now": now}
    if zone:
        ctx["timezone"] = zone
    items = [{"kind": "block", "id": "b", "role": "system", "content": "{{date}} {{time}}"}]
    report = _report(items, ctx)
    assert report["system"]["diagnostics"] == []
    assert report["system"]["prompt"] == expected
