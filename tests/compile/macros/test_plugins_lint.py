"""Registry rules of compile-core §12, trust-gated entry points, and validate's FG21x findings."""

from __future__ import annotations

import pytest

from forgec.compile.macros import expand_text
from forgec.compile.macros.lint import lint_stack_macros
from forgec.plugins import PluginError, Registry, load_plugins


def test_registry_names_duplicates_and_unregister() -> None:
    registry = Registry()
    with pytest.raises(PluginError, match=r"^Macro name must start with a letter and contain only letters, numbers, underscore, dot, or hyphen: 1x$"):
        registry.register_macro("1x", lambda ctx: "")
    with pytest.raises(PluginError, match=r"^Macro is already registered: upper$"):
        registry.register_macro("upper", lambda ctx: "")
    with pytest.raises(PluginError, match=r"^Slot is already registered: tools$"):
        registry.register_slot("tools", lambda ctx: "")
    undo = registry.register_macro("acme.hi", lambda ctx: "hi " + ctx.expand_arg(0))
    with pytest.raises(PluginError, match=r"^Macro is already registered: acme.hi$"):
        registry.register_macro("acme.hi", lambda ctx: "")
    assert expand_text("{{acme.hi::{{upper::x}}}}", registry=registry) == ("hi X", [])
    undo()
    assert "acme.hi" not in registry.macros


class _EP:
    def __init__(self, name: str, target: object) -> None:
        self.name = name
        self._target = target
        self.loaded = False

    def load(self) -> object:
        self.loaded = True
        return self._target


def test_plugins_load_only_when_trusted() -> None:
    good = _EP("good", lambda r: r.register_macro("good.m", lambda ctx: "ok"))
    bad = _EP("bad", lambda r: r.register_macro("bad name", lambda ctx: ""))
    other = _EP("other", lambda r: r.register_macro("other.m", lambda ctx: ""))
    registry = Registry()
    diagnostics: list = []
    load_plugins(registry, trusted=["good", "bad"], diagnostics=diagnostics, entry_points=[good, bad, other])
    assert registry.loaded == ["good"] and set(registry.macros) == {"good.m"}
    assert other.loaded is False
    assert [d.code for d in diagnostics] == ["FG950", "FG951"]
    assert all(d.extra for d in diagnostics)
    trusted_all = load_plugins(Registry(), trust_all=True, entry_points=[other])
    assert trusted_all.loaded == ["other"]


def test_lint_findings() -> None:
    stack = {
        "variables": {"topic": "x", "char": "{{char}}"},
        "items": [
            {"kind": "block", "id": "a", "content": "{{tpoic}} {{topic}} {{ifeq::mode}} {{roll::1d20}} {{acme.w}}"},
            {"kind": "block", "id": "b", "content": "{{setvar::mood::calm}}{{setvar::seen::1}}{{seen}} {{char}} {{upper::a::b}}"},
        ],
    }
    found = [(d.code, d.item_id, d.offset) for d in lint_stack_macros(stack)]
    assert found == [
        ("FG210", "a", 0),
        ("FG211", "a", 20),
        ("FG212", "a", 35),
        ("FG214", "a", 50),
        ("FG213", "b", 0),
        ("FG211", "b", 59),
    ]
    assert all(d.extra for d in lint_stack_macros(stack))
    registry = Registry()
    registry.register_macro("acme.w", lambda ctx: "")
    assert "FG214" not in [d.code for d in lint_stack_macros(stack, registry)]


def test_lint_variables_slot_reads_everything() -> None:
    stack = {"items": [{"kind": "block", "id": "a", "content": "{{setvar::x::1}}"}, {"kind": "slot", "id": "v", "slot": "variables"}]}
    assert lint_stack_macros(stack) == []


def test_lint_accepts_names_the_stack_tests_with_ifvar_or_ifeq() -> None:
    # a host-provided session variable is unknown to a static check, but a stack that tests it with
    # ifvar/ifeq shows that it expects it
    stack = {
        "items": [
            {"kind": "block", "id": "a", "content": "{{ifvar::chapter::Chapter {{chapter}}.::Opening.}}"},
            {"kind": "block", "id": "b", "content": "{{ifeq::mood::calm::{{mood}}}} {{weather}}"},
        ]
    }
    found = lint_stack_macros(stack)
    assert [(d.code, d.item_id) for d in found] == [("FG210", "b")]
    assert "{{getvar::weather}}" in found[0].message
