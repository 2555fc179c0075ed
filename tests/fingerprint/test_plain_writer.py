"""The template writer of ``canonical_json`` (``_plain_text``) against the C encoder it shortcuts.

Objects of plain strings in an object's list member (a stack's items) are written by a ``%`` template
per key shape when no string needs an escape; every other element, and every object with a string
the encoder would escape, is written by the C encoder.  Both must give the same text for every value
``_check_plain`` vouches for, whichever path each element takes.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from forgec import fingerprint
from forgec.fingerprint import _C_ENCODE, _CONTROL_ESCAPES, _ESCAPED_CHARS, _plain_text, canonical_json

pytestmark = pytest.mark.skipif(_C_ENCODE is None, reason="needs CPython's C json encoder")


def _encoded(value: Any) -> str:
    return "".join(_C_ENCODE(value, 0))


def _checked(value: Any) -> str:
    return fingerprint.write_canonical(
        value, "$", fingerprint.canonical_scalar, fingerprint._canon_members, fingerprint._canon_elements
    )


def _same(value: Any, *, plain: bool = True) -> None:
    try:
        fingerprint._check_plain(value, 0)  # the writer only sees values the check vouched for
    except fingerprint._Unusual:
        assert not plain
    else:
        if isinstance(value, dict):
            assert _plain_text(value, _C_ENCODE) == _encoded(value)
    assert canonical_json(value) == _checked(value)


def _block(i: int, content: str) -> dict[str, Any]:
    return {"kind": "block", "id": f"item-{i}", "name": f"Item {i}", "role": "user", "content": content}


def test_the_escaped_characters_are_the_encoders() -> None:
    escaped = {chr(c) for c in range(0x110000) if not 0xD800 <= c < 0xE000 and _encoded(chr(c)) != f'"{chr(c)}"'}
    assert escaped == set(_ESCAPED_CHARS)
    assert set(_CONTROL_ESCAPES) == escaped - {'"', "\\"}


@pytest.mark.parametrize("char", _ESCAPED_CHARS)
def test_one_string_to_escape_is_escaped_as_the_encoder_does(char: str) -> None:
    items = [_block(i, f"content {i}") for i in range(50)]
    items[17]["content"] = f"a {char} in the middle"
    items[30]["name"] = f"{char}"
    _same({"schemaVersion": 1, "id": "s", "items": items})


def test_a_stack_of_plain_blocks() -> None:
    items: list[Any] = [_block(i, f"Rule {i}: {{{{getvar::k{i}}}}} 100% é 漢 \U0001f600") for i in range(300)]
    items.append({"kind": "slot", "id": "chat-history", "slot": "chat-history"})
    _same({"schemaVersion": 1, "type": "pi-forge.prompt-stack", "id": "s", "variables": {"a": "b"}, "items": items})


def test_members_that_are_not_strings_take_the_encoder() -> None:
    items: list[Any] = [
        {"kind": "block", "id": "a", "enabled": True, "content": "x"},
        {"kind": "slot", "id": "b", "slot": "s", "options": {"x": [1, 2.5, None, False]}},
        {"kind": "block", "id": "c", "tags": ["t", "u"], "content": "y"},
        {"kind": "block", "id": "d", "content": None},
        {"only": "one member"},
        {},
        ["a", "list"],
        "a string",
        3,
        None,
        {"id": "e", "n": 7},
    ]
    _same({"items": items * 2, "other": [{"a": "b", "c": "d"}], "z": {"y": [{"k": "v", "l": "w"}]}})


def test_true_false_and_null_members_are_written_in_the_template() -> None:
    items: list[Any] = [{**_block(i, f"text {i}"), "enabled": i % 3 == 0} for i in range(30)]
    items += [{"kind": "block", "id": "n", "enabled": None, "name": None, "content": "x"}]
    items += [{"kind": "block", "id": "m", "enabled": None, "name": True, "content": "y"}]
    items += [{"kind": "block", "id": "o", "enabled": 1, "content": "1 is not true"}]
    items += [{"kind": "block", "id": "p", "enabled": 0.5, "content": "0.5 is not false"}]
    items += [{"kind": "block", "id": "q", "enabled": "yes", "content": "a string where a literal was"}]
    items += [{"kind": "block", "id": True, "enabled": False, "content": "a literal where a string was"}]
    items += [{"a": True, "b": False, "c": "one string only"}, {"a": None, "b": None}]
    _same({"items": items})


def test_control_characters_with_and_without_quotes() -> None:
    lines = [_block(i, f"line one\nline two\t{chr(i % 32)} {i}") for i in range(40)]
    _same({"items": lines})
    lines[7]["content"] += ' and "quoted"'
    lines[9]["name"] = "back\\slash"
    _same({"items": [*lines, ["a\nlist", {"x": "y\n"}], {"nested": {"a": "b\n"}, "z": "\x01"}], "k\n": "v\t"})


@pytest.mark.parametrize("every", [1, 3, 4, 5, 16])
def test_lists_with_many_quotes(every: int) -> None:
    items = [_block(i, f'say "hi" {i}' if i % every == 0 else f"say hi {i}") for i in range(60)]
    _same({"items": items})
    _same({"items": [_block(i, "clean") for i in range(20)] + items})  # a clean head, then quotes


def test_keys_with_percent_and_escapes() -> None:
    items = [{"%s": "v", "a%%b": "w", 'q"k': "x", "t\tk": "y", "é": "z", "": "empty key"} for _ in range(20)]
    _same({"items": items})


def test_key_order_is_the_sorted_one_whatever_the_insertion_order() -> None:
    items = [{"role": "user", "id": "1", "kind": "block"}, {"kind": "block", "id": "2", "role": "user"}] * 8
    _same({"items": items, "a": [], "B": [{"z": "1", "a": "2"}] * 16})


def test_more_shapes_than_the_cache_keeps() -> None:
    items = [{f"k{i}": "a", f"j{i}": "b", "x": str(i)} for i in range(fingerprint._SHAPES_LIMIT * 2 + 5)]
    _same({"items": items})
    assert len(fingerprint._SHAPES) <= fingerprint._SHAPES_LIMIT


def test_values_that_are_not_objects_at_the_top() -> None:
    for value in ([{"a": "b", "c": "d"}] * 20, [], "text", {"items": []}, {}):
        assert canonical_json(value) == _encoded(value)
    for mapping in ({"items": []}, {}, {"a": "b"}):
        assert _plain_text(mapping, _C_ENCODE) == _encoded(mapping)


def test_short_lists_take_the_encoder_long_ones_the_templates() -> None:
    short = {"items": [_block(i, "x") for i in range(fingerprint._SAMPLE - 1)]}
    long = {"items": [_block(i, "x") for i in range(fingerprint._SAMPLE)], "more": [], "other": "y"}
    assert not fingerprint._has_long_list(short)
    assert fingerprint._has_long_list(long)
    _same(short)
    _same(long)


_TEXT = st.text(alphabet=st.sampled_from([*"ab %{}é漢\U0001f600", *_ESCAPED_CHARS[::5], '"', "\\", "\x7f", "\u2028"]))
_MEMBER = st.one_of(_TEXT, _TEXT, _TEXT, st.booleans(), st.none(), st.integers(-1000, 1000), st.lists(_TEXT, max_size=2))
_OBJECT = st.dictionaries(st.sampled_from(["kind", "id", "name", "role", "content", "%", "é"]), _MEMBER, max_size=6)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(_OBJECT, _OBJECT, _OBJECT, _TEXT), min_size=16, max_size=40), st.dictionaries(_TEXT, _TEXT, max_size=3))
def test_random_lists_equal_the_encoder(items: list[Any], top: dict[str, Any]) -> None:
    value = {**top, "items": items}
    _same(value, plain=False)


def test_a_lone_surrogate_in_an_item_still_takes_the_checked_writer() -> None:
    items = [_block(i, "text") for i in range(20)]
    items[5]["content"] = "half a pair: \ud800 here"
    value = {"items": items}
    assert canonical_json(value) == _checked(value)
    assert "\\ud800" in canonical_json(value)
