"""Resource ids, selectors and scoped resolution (profiles-exec.md §1.6), from the spec's examples."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from forgec.model.identity import (
    ResourceCatalog,
    ResourceKey,
    ResourceSelector,
    effective_view,
    is_disabled_selector,
    is_valid_resource_id,
    parse_selector,
    resolve_effective,
    resolve_exact,
    resolve_selector,
)

ID_TEXT = "Ids must start with a letter or number and contain only letters, numbers, dots, underscores, and hyphens."


@pytest.mark.parametrize("text", ["reviewer", "my.stack", "a_b-c", "A0", "0", "x.", "a--b"])
def test_valid_ids(text: str) -> None:
    assert is_valid_resource_id(text)


@pytest.mark.parametrize(
    "text", ["", " reviewer", "proj:reviewer", "a b", "-leading", ".leading", "with/slash", "é", "a\n"]
)
def test_invalid_ids(text: str) -> None:
    assert not is_valid_resource_id(text)


def test_non_strings_are_not_ids() -> None:
    assert not is_valid_resource_id(None) and not is_valid_resource_id(7)


@pytest.mark.parametrize(
    ("text", "selector", "formatted"),
    [
        ("reviewer", ResourceSelector("reviewer"), "reviewer"),
        ("project:reviewer", ResourceSelector("reviewer", "project"), "project:reviewer"),
        ("global:reviewer", ResourceSelector("reviewer", "global"), "global:reviewer"),
        ("  global:reviewer\n", ResourceSelector("reviewer", "global"), "global:reviewer"),
    ],
)
def test_selectors_that_parse(text: str, selector: ResourceSelector, formatted: str) -> None:
    parsed = parse_selector(text)
    assert parsed.ok and parsed.selector == selector and parsed.error is None
    assert parsed.selector.formatted == formatted


@pytest.mark.parametrize(
    ("text", "error", "reason"),
    [
        ("", "Resource selector must not be empty.", "empty"),
        (" \t ", "Resource selector must not be empty.", "empty"),
        ("a b", f"Invalid resource id: a b. {ID_TEXT}", "id"),
        ("project:", f"Invalid resource id: . {ID_TEXT}", "id"),
        ("project:a:b", f"Invalid resource id: a:b. {ID_TEXT}", "id"),
        ("global:-x", f"Invalid resource id: -x. {ID_TEXT}", "id"),
        ("unknown:reviewer", 'Unknown scope prefix: unknown. Expected "project" or "global".', "scope"),
        ("bad:scope:reviewer", 'Unknown scope prefix: bad. Expected "project" or "global".', "scope"),
        ("Project:reviewer", 'Unknown scope prefix: Project. Expected "project" or "global".', "scope"),
        (":reviewer", 'Unknown scope prefix: . Expected "project" or "global".', "scope"),
    ],
)
def test_selectors_that_fail(text: str, error: str, reason: str) -> None:
    parsed = parse_selector(text)
    assert not parsed.ok and parsed.selector is None
    assert parsed.error == error and parsed.reason == reason
    assert parsed.to_json() == {"ok": False, "error": error}


def test_selector_json_shapes() -> None:
    assert parse_selector("reviewer").to_json() == {"ok": True, "selector": {"id": "reviewer"}}
    assert parse_selector("project:x").to_json() == {"ok": True, "selector": {"scope": "project", "id": "x"}}


def test_opt_out_words_are_the_callers_business() -> None:
    assert is_disabled_selector("none") and is_disabled_selector("off")
    assert not is_disabled_selector(" none") and not is_disabled_selector("reviewer")
    assert parse_selector("none").ok  # a valid id as far as the parser is concerned


def test_canonical_key_text() -> None:
    assert str(ResourceKey("project", "reviewer")) == "project:reviewer"
    assert ResourceKey("global", "x").to_json() == {"scope": "global", "id": "x"}


@dataclass
class Thing:
    key: ResourceKey
    label: str = ""


def things(*keys: str) -> list[Thing]:
    out = []
    for index, text in enumerate(keys):
        scope, _, ident = text.partition(":")
        out.append(Thing(ResourceKey(scope, ident), f"#{index}"))
    return out


def test_exact_resolution_needs_exactly_one() -> None:
    items = things("project:a", "global:a", "project:b", "project:b")
    assert resolve_exact(items, "project", "a") is items[0]
    assert resolve_exact(items, "global", "a") is items[1]
    assert resolve_exact(items, "project", "b") is None  # two: ambiguous
    assert resolve_exact(items, "global", "b") is None  # none


def test_effective_resolution_project_over_global() -> None:
    items = things(
        "global:a",
        "project:a",
        "global:g",
        "project:dup",
        "project:dup",
        "global:dup",
        "global:two",
        "global:two",
    )
    assert resolve_effective(items, "a") is items[1]  # the project resource shadows
    assert resolve_effective(items, "g") is items[2]  # no project resource: the global one
    assert resolve_effective(items, "dup") is None  # two project resources: fail closed, no global fallback
    assert resolve_effective(items, "two") is None
    assert resolve_effective(items, "nothing") is None


def test_selector_resolution_and_effective_view() -> None:
    items = things("global:reviewer", "global:writer", "project:reviewer", "project:dup", "project:dup")
    assert resolve_selector(items, ResourceSelector("reviewer")) is items[2]
    assert resolve_selector(items, ResourceSelector("reviewer", "global")) is items[0]
    assert resolve_selector(items, ResourceSelector("writer", "project")) is None
    # one per distinct id in first-seen order; the duplicated id resolves to nothing and is left out
    assert effective_view(items) == [items[2], items[1]]


def test_catalog_with_a_key_function() -> None:
    pairs = [("project", "x"), ("global", "x"), ("global", "y")]
    catalog = ResourceCatalog(pairs, key=lambda pair: ResourceKey(*pair))
    assert catalog.effective == [("project", "x"), ("global", "y")]
    assert catalog.resolve("global:x") == ("global", "x")
    assert catalog.resolve("y") == ("global", "y")
    assert catalog.resolve("bad id") is None
    assert catalog.key_of(("global", "y")) == ResourceKey("global", "y")
