"""The loader's clean-item shortcut (``_item_is_clean``) against the full item checks (§10.3).

Items the shortcut vouches for skip the message-building checks, so it must never vouch for an
item those checks would report; for plain JSON types it agrees with them exactly.  The loader's
own pass (``_clean_item``) vouches for the same items and makes their normalised form on the way:
it must be :func:`_normalize_item`'s, key order included, and a load must equal the three stages
run apart (the shape checks, normalisation and validation, which do not take it).
"""

from __future__ import annotations

from pathlib import Path
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
    monkeypatch.setattr(stack, "_clean_item", lambda item: None)
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


# --- the loader's one pass: checked and normalised together ---------------------------------------

CASES = Path(__file__).resolve().parents[2] / "conformance" / "cases"


def _apart(value: Any, file_name: str = "x.json") -> tuple[Any, list[tuple[Any, ...]]]:
    """What ``load_value`` gives, by the public stages (none of which takes the one-pass items)."""
    found = stack.raw_shape_checks(value)
    normalised, normalising = stack.normalize_stack(value, file_name)
    found += normalising
    found += stack.validate_stack(normalised, normalised=True)
    return normalised, [(d.level, d.message, d.code, d.item_id, d.pointer) for d in found]


def _loaded(value: Any, file_name: str = "x.json") -> tuple[Any, list[tuple[Any, ...]]]:
    normalised, found = stack.load_value(value, file_name)
    return normalised, [(d.level, d.message, d.code, d.item_id, d.pointer) for d in found]


def _ordered(value: Any) -> Any:
    """``value`` with every dict as its list of pairs: equal only with the same key order."""
    if isinstance(value, dict):
        return [(k, _ordered(v)) for k, v in value.items()]
    if isinstance(value, list):
        return [_ordered(v) for v in value]
    return value


@settings(max_examples=600, deadline=None)
@given(_ITEMS)
def test_the_one_pass_item_is_the_normalised_item(item: dict[str, Any]) -> None:
    made = stack._clean_item(item)
    assert (made is not None) == stack._item_is_clean(item)
    if made is not None:
        found: list[Any] = []
        assert _ordered(made) == _ordered(stack._normalize_item(item, 0, found))
        assert found == []
        if "tags" in made:
            assert made["tags"] is not item["tags"]  # a new list, as normalisation makes


#: clean items only (every member absent or of a good value), so each example takes the one pass
_CLEAN_ITEMS = st.tuples(
    st.sampled_from([{"id": "a"}, {"id": " b "}]),
    st.sampled_from([{"kind": "block"}, {"kind": "slot"}]),
    _member("name", ["n", ""], []),
    _member("enabled", [True, False], []),
    _member("role", ["system", "user", "assistant", "custom"], []),
    _member("tags", [[], ["a", "b"]], []),
    _member("source", [{}, {"k": 1}], []),
    st.sampled_from([{"content": "x"}, {"content": ""}]),
    st.sampled_from([{"slot": "chat-history"}, {"slot": "s"}]),
    _member("options", [{}, {"maxMessages": 2}], []),
    _member("extra", [1], []),
    st.randoms(use_true_random=False),
).map(lambda parts: dict(sorted(((k, v) for part in parts[:-1] for k, v in part.items()), key=lambda kv: parts[-1].random())))


@settings(max_examples=400, deadline=None)
@given(_CLEAN_ITEMS)
def test_every_clean_item_takes_the_one_pass(item: dict[str, Any]) -> None:
    made = stack._clean_item(item)
    assert made is not None
    assert _ordered(made) == _ordered(stack._normalize_item(item, 0, []))


def test_subclassed_values_are_left_to_the_full_path() -> None:
    item = {"kind": "block", "id": _Text("a"), "role": "user", "content": "x"}
    assert stack._clean_item(item) is None
    assert stack._clean_item({"kind": "block", "id": "a", "content": _Text("x")}) is None
    assert stack._clean_item({"kind": "slot", "id": "a", "slot": "s", "options": []}) is None
    made = stack._clean_item({"kind": "slot", "id": " a ", "slot": "s", "options": {}, "content": 1})
    assert _ordered(made) == [("kind", "slot"), ("id", "a"), ("slot", "s"), ("options", [])]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.one_of(_ITEMS, st.sampled_from([1, "x", None, [], _Text("t")])), max_size=8))
def test_a_load_equals_the_stages_apart(items: list[Any]) -> None:
    raw = {"schemaVersion": 1, "id": "x", "items": items}
    assert _ordered(_loaded(raw)) == _ordered(_apart(raw))


class _Root(dict):  # type: ignore[type-arg]
    """A root that is a ``dict`` subclass: its items take the stages one by one."""


def test_roots_the_one_pass_does_not_take() -> None:
    items = [{"kind": "block", "id": "a", "role": "user", "content": "x"}, 3]
    for raw in (_Root(id="x", items=items), {"id": "x", "items": "none"}, {"id": "x"}, [items], "text", None):
        assert _ordered(_loaded(raw)) == _ordered(_apart(raw))


def test_every_corpus_stack_loads_as_its_stages_apart() -> None:
    from forgec.source import read_source

    files = sorted(CASES.glob("*/stack.json"))
    assert files
    for path in files:
        document = read_source(str(path))
        if document.parsed:
            assert _ordered(_loaded(document.data, path.name)) == _ordered(_apart(document.data, path.name)), path
