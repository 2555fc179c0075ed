"""``__proto__`` as a variable name behaves as JavaScript's object semantics make it in pi-forge
(compile-core §4.3, §15.9): plain assignment ``obj["__proto__"] = "…"`` reaches ``Object.prototype``'s
setter, which ignores a string, while an own ``__proto__`` key that ``JSON.parse`` created is ordinary.
"""

from __future__ import annotations

from typing import Any

from forgec.model.variables import MISSING, VariableStore, lookup
from forgec.report import compile_report


def _run(content: str, ctx: dict[str, Any] | None = None, **stack: Any) -> dict[str, Any]:
    items = [{"kind": "block", "id": "b", "role": "system", "content": content}]
    return compile_report({"schemaVersion": 1, "id": "p", "items": items, **stack}, ctx or {}).to_report()


def test_turn_setvar_of_proto_stores_nothing() -> None:
    report = _run("{{setvar::__proto__::x}}{{setturnvar::__proto__::y}}[{{getvar::__proto__}}][{{getturnvar::__proto__}}]"
                  "{{setvar::ok::1}}[{{ok}}]")
    assert report["system"]["prompt"] == "[][][1]"
    assert report["variables"]["turn"] == {"ok": "1"}
    assert report["variables"]["sessionDirty"] is False


def test_a_bare_proto_macro_stays_unresolved_after_setvar() -> None:
    report = _run("{{setvar::__proto__::x}}[{{__proto__}}]")
    assert report["system"]["prompt"] == "[{{__proto__}}]"


def test_static_proto_is_dropped_by_the_loader() -> None:
    report = _run("[{{getvar::__proto__}}][{{__proto__}}][{{a}}]", variables={"__proto__": "s", "a": "b"})
    assert report["system"]["prompt"] == "[][{{__proto__}}][b]"


def test_static_proto_is_absent_from_the_variables_slot() -> None:
    items = [{"kind": "slot", "id": "v", "role": "system", "slot": "variables",
              "options": {"includeStatic": True, "includeSession": False, "includeTurn": False}}]
    report = compile_report({"schemaVersion": 1, "id": "p", "items": items,
                             "variables": {"__proto__": "s", "a": "b"}}, {}).to_report()
    prompt = report["system"]["prompt"]
    assert "a" in prompt and "__proto__" not in prompt


def test_session_setvar_of_proto_without_an_own_key_only_marks_dirty() -> None:
    report = _run("{{setvar::session::__proto__::y}}[{{getsessionvar::__proto__}}]", {"variables": {"k": 1}})
    assert report["system"]["prompt"] == "[]"
    assert report["variables"]["session"] == {"k": 1}
    assert report["variables"]["sessionDirty"] is True


def test_an_own_proto_key_from_the_persisted_session_is_ordinary() -> None:
    report = _run("[{{getvar::__proto__}}]{{setvar::session::__proto__::y}}[{{__proto__}}]",
                  {"variables": {"__proto__": "own"}})
    assert report["system"]["prompt"] == "[own][y]"
    assert report["variables"]["session"] == {"__proto__": "y"}


def test_the_store_itself() -> None:
    store = VariableStore.fresh({"x": "1"})
    store.set("turn", "__proto__", "v")
    assert store.turn == {} and lookup("__proto__", store, None) is MISSING
    store.set("turn", "constructor", "c")  # only __proto__ has an accessor; other prototype names are plain keys
    assert store.turn == {"constructor": "c"}
    store.clear("turn", "__proto__")
    assert store.snapshot() == {"session": {"x": "1"}, "turn": {"constructor": "c"}, "sessionDirty": False}
