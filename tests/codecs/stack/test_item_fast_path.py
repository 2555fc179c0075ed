"""The loader's clean-item shortcut (``_item_is_clean``) against the full item checks (§10.3).

Items the shortcut vouches for skip the message-building checks, so it must never vouch for an
item those checks would report; for plain JSON types it agrees with them exactly.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from forgec.codecs import stack
from forgec.codecs.stack import load_stack_data


class _Text(str):
    """A ``str`` subclass: the shortcut leaves it to the full checks."""


def _member(key: str, good: list[Any], bad: list[Any]) -> st.SearchStrategy[dict[str, Any]]:
    return st.one_of(st.just({}), st.sampled_from(good + bad).map(lambda value: {key: value}))


_ITEMS = st.tuples(
    _member("id", ["a", " b ", "\ufeffc"], ["", " ", "\ufeff", 3, None]),
    _member("kind", ["block", "slot"], ["Block", "", 1, None]),
    _member("name", ["n", ""], [1, None, ["n"]]),
    _member("enabled", [True, False], [0, "true", None]),
    _member("role", ["system", "user", "assistant", "custom"], ["System", "", None, 1]),
    _member("tags", [[], ["a", "b"]], [["a", 1], "a", None]),
    _member("source", [{}, {"k": 1}], [[], "x", None]),
    _member("content", ["", "x {{y}}"], [None, 1, ["x"]]),
    _member("slot", ["chat-history", "custom-thing"], ["", " ", None, 2]),
    _member("options", [{}, {"maxMessages": 2}], [[], 1, None]),
    _member("extra", [1], []),
).map(lambda parts: {k: v for part in parts for k, v in part.items()})


def _full_findings(item: dict[str, Any]) -> list[tuple[Any, ...]]:
    found: list[tuple[Any, ...]] = []
    stack._raw_item_checks(item, 0, lambda *args: found.append(args))
    return found


@settings(max_examples=600, deadline=None)
@given(_ITEMS)
def test_shortcut_agrees_with_the_full_checks(item: dict[str, Any]) -> None:
    assert stack._item_is_clean(item) == (not _full_findings(item))


def test_subclassed_values_take_the_full_path_and_still_pass() -> None:
    item = {"kind": _Text("block"), "id": _Text("a"), "role": _Text("user"), "content": _Text("x")}
    assert not stack._item_is_clean(item)
    assert _full_findings(item) == []


def test_loading_reports_the_same_diagnostics_with_and_without_the_shortcut(monkeypatch: Any) -> None:
    items = [
        {"kind": "block", "id": "ok", "role": "system", "content": "fine"},
        {"kind": "blok", "id": " ", "role": "nobody", "tags": ["a", 1]},
        {"kind": "slot", "id": "h", "slot": "chat-history"},
        {"kind": "slot", "id": "s", "slot": " ", "options": []},
        {"kind": "block", "id": "u", "role": "user", "content": "hi", "tags": ["t"], "source": {}},
    ]
    raw = {"schemaVersion": 1, "id": "x", "items": items}

    def findings() -> list[tuple[Any, ...]]:
        loaded = load_stack_data(raw, "x.json")
        return [(d.level, d.message, d.code, d.item_id, d.pointer) for d in loaded.diagnostics]

    with_shortcut = findings()
    monkeypatch.setattr(stack, "_item_is_clean", lambda item: False)
    assert with_shortcut == findings()
    assert len(with_shortcut) > 5


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(_ITEMS, st.sampled_from([1, "x", None, []])), max_size=6))
def test_validating_a_normalised_stack_with_the_shortcut_reports_the_same(items: list[Any]) -> None:
    """``validate_stack(..., normalised=True)`` (the loader's call) skips the item checks that
    normalisation makes impossible; the findings are those of the full checks."""
    normalised, _ = stack.normalize_stack({"id": "x", "items": items}, "x.json")

    def findings(flag: bool) -> list[tuple[Any, ...]]:
        found = stack.validate_stack(normalised, normalised=flag)
        return [(d.level, d.message, d.code, d.item_id, d.pointer) for d in found]

    assert findings(True) == findings(False)


def test_fallback_ids_of_items_without_a_usable_id() -> None:
    """The fallback ``item-N`` (made only when an item needs it) for a missing, blank, non-string or
    non-finite id and for an item that is no object; a number's text and a trimmed string otherwise."""
    from forgec.codecs.stack import normalize_stack

    raw_items: list[Any] = [
        {"kind": "block", "content": "a"},
        {"kind": "block", "id": "  ", "content": "b"},
        {"kind": "block", "id": None},
        "not an item",
        {"kind": "slot", "id": 12.5, "slot": "date"},
        {"kind": "block", "id": float("inf")},
        {"kind": "block", "id": " kept "},
        {"kind": "block", "id": True},
    ]
    stack, _ = normalize_stack({"id": "s", "items": raw_items}, "s.json")
    assert [item["id"] for item in stack["items"]] == ["item-1", "item-2", "item-3", "item-4", "12.5", "item-6", "kept", "item-8"]
