"""``parse_instant``'s fixed-position path for the common shape gives what the general parser gives."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from forgec.codecs import context as context_codec
from forgec.codecs.context import _any_instant, _common_instant, _fixed_instant, parse_instant

_CHARS = st.sampled_from([*"0123456789-:+TtZz x.٣", ""])


@st.composite
def _instants(draw: st.DrawFn) -> str:
    """A date-time of the common shape, its fields near and beyond their ranges, then up to two
    characters replaced, dropped or added (other shapes, bad digits, a fraction)."""
    year = draw(st.integers(0, 9999))
    month, day = draw(st.integers(0, 13)), draw(st.integers(0, 32))
    hour, minute, second = draw(st.integers(0, 25)), draw(st.integers(0, 60)), draw(st.integers(0, 60))
    separator = draw(st.sampled_from("Tt "))
    offset = draw(st.sampled_from(["Z"]) | st.builds(lambda s, h, m: f"{s}{h:02d}:{m:02d}", st.sampled_from("+-"), st.integers(0, 24), st.integers(0, 60)))
    text = f"{year:04d}-{month:02d}-{day:02d}{separator}{hour:02d}:{minute:02d}:{second:02d}{offset}"
    for _ in range(draw(st.integers(0, 2))):
        at = draw(st.integers(0, len(text)))
        text = text[:at] + draw(_CHARS) + text[at + draw(st.integers(0, 1)) :]
    return text


@settings(max_examples=3000, deadline=None)
@given(_instants())
def test_common_shape_path_agrees_with_the_general_parser(text: str) -> None:
    fast = _common_instant(text)
    assert fast is None or fast == _any_instant(text), text
    assert parse_instant(text) == _any_instant(text), text


def test_the_common_shapes_take_the_fixed_position_path() -> None:
    for text in ("2026-03-14T09:26:53+01:00", "2026-01-01T00:00:00Z", "1970-01-01 00:00:00-00:00", "2026-02-30t23:59:59-23:59"):
        assert _common_instant(text) is not None and _common_instant(text) == _any_instant(text), text
    assert _common_instant("1970-01-01T00:00:00Z") == 0
    assert _common_instant("2026-02-30T00:00:00Z") == _any_instant("2026-03-02T00:00:00Z")  # V8 rolls the day over
    for text in ("2026-01-01T24:00:00Z", "2026-01-01T00:00:60Z", "2026-13-01T00:00:00Z", "2026-01-01T00:00:00.5Z", "٢٠٢٦-01-01T00:00:00Z"):
        assert _common_instant(text) is None, text
    assert _any_instant("2026-01-01T24:00:00Z") == _any_instant("2026-01-02T00:00:00Z")


@settings(max_examples=2000, deadline=None)
@given(_instants(), _instants())
def test_the_remembered_hour_answers_what_the_fields_give(text: str, other: str) -> None:
    """The hour memo answers what reading every field answers, for a text seen first or again, for
    another minute and second of an hour remembered (a bad one included), and after it starts again."""
    for candidate in (text, text, text[:14] + other[14:19] + text[19:], other):
        assert _common_instant(candidate) == _fixed_instant(candidate), candidate


def test_the_hour_memo_starts_again_when_full() -> None:
    context_codec._HOURS.clear()
    limit = context_codec._HOURS_MAX
    texts = [f"{1000 + i // 24:04d}-01-01T{i % 24:02d}:59:59Z" for i in range(limit + 5)]  # a new hour each
    assert [_common_instant(t) for t in texts] == [_fixed_instant(t) for t in texts]
    assert 0 < len(context_codec._HOURS) <= 5
    assert _common_instant("2026-03-14T09:26:53+01:00") == _any_instant("2026-03-14T09:26:53+01:00")
