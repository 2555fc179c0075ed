"""The instant a run reads (``--now``, ``SOURCE_DATE_EPOCH``) and ``Date.prototype.toISOString``."""

from __future__ import annotations

import pytest

from forgec.errors import UsageError
from forgec.js.clock import iso_timestamp, now_ms, parse_instant


@pytest.mark.parametrize(
    ("text", "iso"),
    [
        ("2026-03-14T08:26:53Z", "2026-03-14T08:26:53.000Z"),
        ("2026-03-14T09:26:53.5+01:00", "2026-03-14T08:26:53.500Z"),
        ("2026-03-14T08:26:53.123456-0230", "2026-03-14T10:56:53.123Z"),
        ("2026-03-14T08:26", "2026-03-14T08:26:00.000Z"),  # no zone: UTC, never the machine's
        ("2026-03-14", "2026-03-14T00:00:00.000Z"),
        ("1773476813", "2026-03-14T08:26:53.000Z"),
        ("0", "1970-01-01T00:00:00.000Z"),
        ("2024-02-29T23:59:59Z", "2024-02-29T23:59:59.000Z"),
        ("0001-01-01T00:00:00Z", "0001-01-01T00:00:00.000Z"),
    ],
)
def test_instants_round_trip_through_to_iso_string(text: str, iso: str) -> None:
    assert iso_timestamp(parse_instant(text)) == iso


@pytest.mark.parametrize("text", ["", "soon", "2026-13-01", "2026-03-14T25:00", "14/03/2026"])
def test_what_is_not_an_instant_is_a_usage_error(text: str) -> None:
    with pytest.raises(UsageError, match="not an instant"):
        parse_instant(text)


def test_source_date_epoch_wins_over_the_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1773476813")
    assert now_ms() == 1773476813000
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "not a number")
    assert now_ms() > 1773476813000  # ignored: the wall clock
