"""The compile plan (forgec.compile.plan): a compile run by a stack's plan equals the item-by-item walk.

Every corpus stack and a few thousand random ones (odd roles, kinds, slots, contents, ``enabled``
values, items that are no objects, duplicate and system-role chat-history slots) are compiled both
ways from the same inputs: the prompts, messages, sources, diagnostics (codes and pointers) and the
variable store must be equal, with the same key order.  Then the hand-overs: a plugin registry, a
stack above the item limit and a large compile walk item by item; the report workflow keeps one plan
per cache entry and the plan holds nothing a caller could change.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest

from forgec.codecs.context import load_context
from forgec.codecs.stack import STACK_CACHE
from forgec.compile import assemble
from forgec.compile.assemble import CompiledPrompt, compile_prompt
from forgec.compile.plan import MAX_PLANNED_ITEMS, CompilePlan, plan_of
from forgec.js.values import _Undefined
from forgec.model.runtime import Runtime
from forgec.model.variables import VariableStore
from forgec.plugins import Registry
from forgec.report import compile_report

CASES = Path(__file__).resolve().parents[1] / "conformance" / "cases"


def _stack_value(case: Path) -> bool:
    """Whether ``case`` has a stack file holding a JSON value (a case of an unreadable stack file has
    no stack to plan; the loader's fallback for it is the conformance tests' business)."""
    try:
        json.loads((case / "stack.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return True


STACK_CASES = sorted(c.name for c in CASES.iterdir() if _stack_value(c))


def _snapshot(compiled: CompiledPrompt) -> Any:
    """Everything a compile gives, in a form that compares key order too."""
    return (
        compiled.system.prompt,
        compiled.system.diagnostics,
        json.dumps(compiled.messages.messages, default=repr),
        json.dumps(compiled.messages.sources, default=repr),
        compiled.messages.diagnostics,
        json.dumps(compiled.store.snapshot(), default=repr),
    )


def _both_ways(stack: Any, runtime: Runtime, variables: dict[str, Any]) -> tuple[Any, Any]:
    plan = plan_of(stack)
    assert plan is not None
    walked = compile_prompt(copy.deepcopy(stack), runtime, VariableStore.fresh(copy.deepcopy(variables)))
    planned = compile_prompt(copy.deepcopy(stack), runtime, VariableStore.fresh(copy.deepcopy(variables)), plan=plan)
    return _snapshot(walked), _snapshot(planned)


@pytest.mark.parametrize("case", STACK_CASES)
def test_corpus_stacks_compile_the_same_by_plan(case: str) -> None:
    stack = json.loads((CASES / case / "stack.json").read_text(encoding="utf-8"))
    context = load_context(CASES / case / "context.json")
    walked, planned = _both_ways(stack, context.runtime(), context.session_variables)
    assert planned == walked


_ROLES = ["system", "user", "assistant", "custom", "", None, 0, 1, [], {}, "System", "tool", True, False]
_SLOTS = ["chat-history", "tools", "variables", "date", "cwd", "skills", "nope", None, 3]
_CONTENTS = [
    "plain text",
    "",
    "   ",
    "\ufeff \n",
    "\u0085",
    "  padded  ",
    "{{setvar::x::1}}{{getvar::x}}",
    "{{getvar::x}} and {{user}}",
    "{{",
    "{{ }}",
    "{{setvar::y::{{getvar::x}}}}",
    "{{random::a::b}} {{unknownMacro}}",
    None,
    5,
    ["a"],
]


def _item(rng: random.Random, index: int) -> Any:
    if rng.random() < 0.04:
        return rng.choice([None, "item", 3, []])
    item: dict[str, Any] = {}
    if rng.random() < 0.9:
        item["id"] = rng.choice([f"item-{index}", f"item-{index}", None, 7, ["x"]])
    if rng.random() < 0.5:
        item["name"] = rng.choice(["Name", "", None])
    item["role"] = rng.choice(_ROLES)
    kind = rng.choice(["block", "block", "slot", "slot", "other", None])
    if kind is not None:
        item["kind"] = kind
    if kind == "slot" or rng.random() < 0.1:
        item["slot"] = rng.choice(_SLOTS)
        if rng.random() < 0.4:
            item["options"] = rng.choice([{}, {"maxMessages": 2}, {"format": "plain"}, {"roles": ["user"]}, None, 4])
    if kind != "slot" or rng.random() < 0.2:
        item["content"] = rng.choice(_CONTENTS)
    enabled = rng.random()
    if enabled < 0.15:
        item["enabled"] = rng.choice([False, 0, None, "false"])
    elif enabled < 0.3:
        item["enabled"] = True
    return item


def _stack(rng: random.Random) -> Any:
    if rng.random() < 0.02:
        return rng.choice([None, [], "stack", {"items": "no list"}, {"items": None}])
    stack: dict[str, Any] = {"id": rng.choice(["s", None, 4]), "items": [_item(rng, i) for i in range(rng.randrange(0, 9))]}
    if rng.random() < 0.7:
        stack["mode"] = rng.choice(["append", "prepend", "replace", "other", None])
    if rng.random() < 0.3:
        stack["context"] = rng.choice([{"allowDuplicateChatHistory": rng.choice([True, 1, 0, "", "yes", None])}, None, []])
    if rng.random() < 0.3:
        stack["defaults"] = {"syntheticMessagesVisible": rng.choice([True, False, None]), "unresolvedMacroPolicy": "warn"}
    if rng.random() < 0.2:
        stack["variables"] = {"x": "static"}
    if rng.random() < 0.3:
        stack["regex"] = rng.choice([None, [], {"rules": []}, {"rules": "x"}, {"rules": [
            {"id": "h", "stage": "history", "pattern": "a", "flags": "g", "replace": "A"},
            {"id": "c", "stage": "compiled", "pattern": "e", "flags": "g", "replace": "E"},
            {"id": "s", "stage": "compiled", "target": "system", "pattern": "t", "flags": "g", "replace": "T"},
        ]}])  # fmt: skip
    return stack


def _runtime(rng: random.Random) -> Runtime:
    messages: list[Any] = [
        {"role": "user", "content": "hello", "timestamp": 1},
        {"role": "assistant", "content": [{"type": "text", "text": "hi"}], "timestamp": 2},
        {"role": "user", "content": "again", "timestamp": 3},
    ][: rng.randrange(0, 4)]
    return Runtime(
        options={"cwd": "/work", "selectedTools": ["read"], "toolSnippets": {"read": "Read files"}, "promptGuidelines": []},
        model=rng.choice([None, {"provider": "p", "id": "m", "api": "a"}]),
        latest_user_message=rng.choice([None, "again"]),
        base_system_prompt=rng.choice(["", "Base prompt.", None]),  # type: ignore[arg-type]
        messages=messages,
    )


def test_random_stacks_compile_the_same_by_plan() -> None:
    rng = random.Random(20261203)
    for _ in range(3000):
        stack = _stack(rng)
        runtime = _runtime(rng)
        variables = rng.choice([{}, {"x": "session"}])
        walked, planned = _both_ways(stack, runtime, variables)
        assert planned == walked, stack


def _planned_compiles(monkeypatch: pytest.MonkeyPatch) -> list[int] | None:
    """A list that grows by one per compile that runs by a plan; None in the compiled build, whose
    ``assemble`` binds its functions at import (a patch would not reach them: only the outputs are
    checked there)."""
    if not assemble.__file__ or not assemble.__file__.endswith(".py"):
        return None
    calls: list[int] = []
    original = assemble._planned_system

    def counting(*args: Any) -> Any:
        calls.append(1)
        return original(*args)

    monkeypatch.setattr(assemble, "_planned_system", counting)
    return calls


def test_a_registry_walks_item_by_item(monkeypatch: pytest.MonkeyPatch) -> None:
    """A plugin's slot receives the stack and may change its items mid-compile: the walk reads them as
    they are then, so the plan is not used (here the slot drops the next block's text)."""
    calls = _planned_compiles(monkeypatch)
    registry = Registry()

    def rewriting(ctx: Any) -> str:
        ctx.stack["items"][1]["content"] = "changed"
        return "slot text"

    registry.register_slot("rewrite", rewriting)
    stack = {"id": "s", "items": [
        {"id": "a", "kind": "slot", "slot": "rewrite", "role": "system"},
        {"id": "b", "kind": "block", "role": "system", "content": "original"},
    ]}  # fmt: skip
    plan = plan_of(copy.deepcopy(stack))
    compiled = compile_prompt(stack, Runtime(), VariableStore.fresh({}), registry=registry, plan=plan)
    assert compiled.system.prompt == "slot text\n\nchanged"
    assert calls is None or not calls


def test_a_registry_without_plugins_uses_the_plan(monkeypatch: pytest.MonkeyPatch) -> None:
    """The command line hands every compile its environment's registry, empty without plugins: that
    compile runs by the plan, with the output of the walk."""
    calls = _planned_compiles(monkeypatch)
    stack = json.loads((CASES / "example-default" / "stack.json").read_text(encoding="utf-8"))
    context = load_context(CASES / "example-default" / "context.json")
    plan = plan_of(stack)
    planned = compile_prompt(
        copy.deepcopy(stack), context.runtime(), VariableStore.fresh(dict(context.session_variables)), registry=Registry(), plan=plan
    )
    walked = compile_prompt(copy.deepcopy(stack), context.runtime(), VariableStore.fresh(dict(context.session_variables)))
    assert _snapshot(planned) == _snapshot(walked)
    assert calls is None or len(calls) == 1


def test_large_stacks_get_no_plan(tmp_path: Path) -> None:
    stack = {"id": "s", "items": [{"id": f"i{n}", "kind": "block", "role": "system", "content": f"t{n}"} for n in range(MAX_PLANNED_ITEMS + 1)]}
    assert plan_of(stack) is None
    assert plan_of({"id": "s", "items": stack["items"][:MAX_PLANNED_ITEMS]}) is not None
    path = tmp_path / "stack.json"
    path.write_text(json.dumps(stack), encoding="utf-8")
    first = compile_report(path).to_report()
    entry = STACK_CACHE.get((path.read_bytes(), str(path), "project", None))
    assert entry is not None and entry.plan == (None,)
    assert compile_report(path).to_report() == first
    assert first["system"]["prompt"] == "\n\n".join(f"t{n}" for n in range(MAX_PLANNED_ITEMS + 1))


def test_a_large_compile_walks_item_by_item(monkeypatch: pytest.MonkeyPatch) -> None:
    """A compile that pauses the collector (thousands of messages) takes the item-by-item walk."""
    calls = _planned_compiles(monkeypatch)
    stack = {"id": "s", "items": [{"id": "a", "kind": "block", "role": "system", "content": "text"}]}
    messages = [{"role": "user", "content": "m", "timestamp": 1}] * 2500
    compiled = compile_prompt(stack, Runtime(messages=messages), VariableStore.fresh({}), plan=plan_of(stack))
    assert compiled.system.prompt == "text" and len(compiled.messages.messages) == 2500
    assert calls is None or not calls


def _containers(value: Any) -> list[Any]:
    """The values in ``value`` that a caller could change (a source record counts by its values:
    the compile hands out copies of it, never the record)."""
    found = []
    if isinstance(value, tuple):
        for member in value:
            found += _containers(member)
    elif type(value) is dict:
        found += [member for member in value.values() if not isinstance(member, (str, int, float, type(None), _Undefined))]
    elif not isinstance(value, (str, int, type(None))):
        found.append(value)
    return found


@pytest.mark.parametrize("case", ["example-default", "example-image-reader", "history-duplicate-default", "macro-conditionals"])
def test_the_report_keeps_one_plan_per_entry(case: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The report workflow makes the plan on the first compile of a file, keeps it on the cache
    entry and runs later compiles by it; the plan holds only strings and numbers (nothing a caller
    could change), and changing one compile's result changes no later one."""
    calls = _planned_compiles(monkeypatch)
    path = tmp_path / "stack.json"
    path.write_bytes((CASES / case / "stack.json").read_bytes())
    context = CASES / case / "context.json"
    plain = compile_report(json.loads(path.read_text(encoding="utf-8")), context).to_report()
    plain["validation"]["file"] = "stack.json"
    first = compile_report(path, context)
    entry = STACK_CACHE.get((path.read_bytes(), str(path), "project", None))
    assert entry is not None and isinstance(entry.plan, tuple)
    plan = entry.plan[0]
    assert isinstance(plan, CompilePlan)
    assert _containers((plan.system, plan.system_text, plan.messages, plan.has_history, plan.rules)) == []
    assert any(step[4] is not None for step in plan.messages)
    report = first.to_report()
    assert report == plain
    for message in report["messages"]["messages"]:  # a caller changing its result
        message["content"] = "mutated"
    for source in report["messages"]["sources"]:
        source["itemId"] = "mutated"
    first.loaded.stack["items"].clear()
    for _ in range(2):
        assert compile_report(path, context).to_report() == plain
    assert entry.plan[0] is plan
    assert calls is None or len(calls) == 3


def test_records_with_changeable_values_are_made_per_compile() -> None:
    """A raw stack's item id may be a list: such a record is not kept (two compiles' sources would
    share the list), while string ids are."""
    stack = {"id": "s", "items": [
        {"id": ["x"], "kind": "block", "role": "user", "content": "a"},
        {"id": "b", "name": "B", "kind": "block", "role": "assistant", "content": "b"},
        {"id": {"k": 1}, "kind": "slot", "slot": "chat-history"},
    ]}  # fmt: skip
    plan = plan_of(stack)
    assert plan is not None
    assert [step[4] for step in plan.messages] == [
        None,
        {"kind": "stack-item", "itemId": "b", "itemName": "B", "role": "assistant"},
        None,
    ]
    first = compile_prompt(copy.deepcopy(stack), Runtime(), VariableStore.fresh({}), plan=plan)
    second = compile_prompt(copy.deepcopy(stack), Runtime(), VariableStore.fresh({}), plan=plan)
    assert first.messages.sources == second.messages.sources
    assert first.messages.sources[0]["itemId"] is not second.messages.sources[0]["itemId"]
    assert first.messages.sources[1] is not second.messages.sources[1]
