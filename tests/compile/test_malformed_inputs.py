"""Any stack shape and any message list compile without raising (README *Quality targets*)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from forgec.compile.assemble import compile_messages, compile_system_prompt
from forgec.compile.passes.regex import finalize_message
from forgec.js.values import dumps_report
from forgec.model.runtime import Runtime
from forgec.model.variables import VariableStore

_scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 3), st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=8)
)
_json = st.recursive(
    _scalars,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=8,
)
_roles = st.sampled_from(["user", "assistant", "system", "custom", "toolResult", "bashExecution", "", "x"])
_text = st.sampled_from(["", "  ", "hi {{topic}}", "{{setvar::x::1}}{{x}}", "{{unknown::a}}", "a😺b", "{{"])
_part = st.fixed_dictionaries(
    {"type": st.sampled_from(["text", "thinking", "toolCall", "image", "other"])},
    optional={"text": _text, "thinking": _text, "id": st.sampled_from(["c1", "c2", ""]), "name": _scalars},
)
_message = st.fixed_dictionaries(
    {},
    optional={
        "role": st.one_of(_roles, _json),
        "content": st.one_of(_text, st.lists(st.one_of(_part, _json), max_size=4), _json),
        "toolCallId": st.sampled_from(["c1", "c2", ""]),
        "summary": _scalars,
    },
)
_item = st.fixed_dictionaries(
    {},
    optional={
        "kind": st.sampled_from(["block", "slot", "weird"]),
        "id": st.one_of(st.text(max_size=3), _scalars),
        "role": st.one_of(_roles, _json),
        "enabled": _scalars,
        "content": st.one_of(_text, _json),
        "slot": st.sampled_from(["chat-history", "tools", "variables", "date", "nope", ""]),
        "options": st.one_of(
            _json,
            st.fixed_dictionaries(
                {},
                optional={
                    "roles": st.one_of(st.lists(_roles, max_size=3), _json),
                    "toolMode": st.one_of(st.sampled_from(["drop", "keep"]), _json),
                    "maxMessages": _scalars,
                    "maxChars": _scalars,
                    "stripAssistantThinking": _scalars,
                    "includeLastUserMessage": _scalars,
                    "includeSummaries": _scalars,
                },
            ),
        ),
    },
)
_rule = st.fixed_dictionaries(
    {"id": st.sampled_from(["r", " r ", ""]), "pattern": st.sampled_from(["a", "(", "x*", "\\w+", ""])},
    optional={
        "stage": st.sampled_from(["history", "compiled", "x"]),
        "effect": st.sampled_from(["outgoing", "finalize", "display", None]),
        "flags": st.one_of(st.sampled_from(["g", "gi", "gu", "gg", "q"]), _scalars),
        "replace": st.one_of(st.sampled_from(["$0", "$1", "[$&]", "$<n>"]), _scalars),
        "roles": st.one_of(st.lists(_roles, max_size=2), _json),
        "targets": st.one_of(st.lists(st.sampled_from(["system", "messages"]), max_size=2), _json),
        "maxMessages": _scalars,
        "maxChars": _scalars,
        "minDepth": _scalars,
        "maxDepth": _scalars,
        "trimStrings": st.one_of(st.lists(st.text(max_size=2), max_size=2), _json),
    },
)
_stack = st.fixed_dictionaries(
    {"id": st.just("s")},
    optional={
        "mode": st.one_of(st.sampled_from(["append", "prepend", "replace"]), _json),
        "items": st.one_of(st.lists(st.one_of(_item, _json), max_size=5), _json),
        "defaults": _json,
        "context": _json,
        "regex": st.one_of(st.fixed_dictionaries({"rules": st.lists(st.one_of(_rule, _json), max_size=3)}), _json),
        "variables": st.dictionaries(st.text(max_size=3), st.text(max_size=3), max_size=2),
    },
)


@pytest.mark.filterwarnings("ignore:The recursion limit will not be reset")
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(stack=_stack, messages=st.lists(st.one_of(_message, _json), max_size=6))
def test_compile_never_raises(stack: dict[str, Any], messages: list[Any]) -> None:
    runtime = Runtime(options={"cwd": "/p", "selectedTools": ["read"]}, messages=messages)
    store = VariableStore.fresh({"topic": "t"})
    system = compile_system_prompt(stack, runtime, store)
    result = compile_messages(stack, runtime, store, messages)
    assert isinstance(system.prompt, str)
    assert len(result.messages) == len(result.sources)
    dumps_report({"m": result.messages, "s": result.sources})
    for message in messages:
        finalize_message(stack, message)
