"""Regex rules at compile time and finalize (import-regex.md A4–A7, compile-core.md §9, §16.5),
with the verified vectors of the specification."""

from __future__ import annotations

from typing import Any

import pytest

from forgec.compile.passes.regex import (
    FINALIZE_WARNING,
    apply_to_messages,
    apply_to_system,
    finalize_message,
    select_rules,
)
from forgec.diagnostics import Diagnostic


def _stack(*rules: dict[str, Any]) -> dict[str, Any]:
    return {"id": "s", "items": [], "regex": {"rules": list(rules)}}


def _rule(rule_id: str = "r", **kw: Any) -> dict[str, Any]:
    return {"id": rule_id, "stage": "compiled", **kw}


def _texts(messages: list[dict[str, Any]]) -> list[str]:
    return [m["content"] for m in messages]


def _msgs(*pairs: tuple[str, str]) -> list[dict[str, Any]]:
    return [{"role": role, "content": text} for role, text in pairs]


def test_roles_max_messages_max_chars_vector() -> None:
    stack = _stack(_rule(roles=["user"], maxMessages=1, maxChars=6, pattern="secret", flags="g", replace="redacted"))
    diags: list[Diagnostic] = []
    messages = _msgs(("user", "secret old"), ("assistant", "secret assistant"), ("user", "prefix secret"))
    out = apply_to_messages(stack, messages, "compiled", diags)
    assert _texts(out) == ["secret old", "secret assistant", "prefix redacted"]
    assert out[0] is messages[0]
    assert [d.message for d in diags] == [
        "Regex rule r matched 1 time(s) and changed 1 text segment(s) in compiled/messages."
    ]


def test_depth_window_vector() -> None:
    stack = _stack(_rule(roles=["user"], minDepth=1, maxDepth=2, pattern="secret", flags="g", replace="redacted"))
    messages = _msgs(("user", "old secret"), ("assistant", "assistant secret"), ("user", "latest secret"))
    out = apply_to_messages(stack, messages, "compiled", [])
    assert _texts(out) == ["old redacted", "assistant secret", "latest secret"]


def test_max_depth_and_max_messages_vector() -> None:
    stack = _stack(_rule(roles=["user"], maxDepth=4, maxMessages=2, pattern="s", replace="S"))
    messages = _msgs(*[("user" if i % 2 == 0 else "assistant", f"s{i}") for i in range(7)])
    out = apply_to_messages(stack, messages, "compiled", [])
    assert _texts(out) == ["s0", "s1", "s2", "s3", "S4", "s5", "S6"]


def test_empty_roles_matches_no_message_but_system_still_runs() -> None:
    stack = _stack(_rule(roles=[], pattern="a", replace="b"))
    messages = _msgs(("user", "a"))
    assert apply_to_messages(stack, messages, "compiled", []) is messages
    diags: list[Diagnostic] = []
    assert apply_to_system(stack, "a", diags) == "b"
    assert [d.message for d in diags] == [
        "Regex rule r matched 1 time(s) and changed 1 text segment(s) in compiled/system."
    ]


def test_selection_rules() -> None:
    rules = [
        _rule("off", enabled=False, pattern="x"),
        _rule("on", enabled="false", pattern="x"),
        _rule("display", effect="display", pattern="x"),
        _rule("nulleffect", effect=None, pattern="x"),
        _rule("hist", stage="history", targets=["system"], pattern="x"),
        _rule("sys-only", targets=["system"], pattern="x"),
        _rule("none", targets=[], pattern="x"),
        _rule("nontarget", targets="messages", pattern="x"),
        _rule("   ", pattern="x"),
        _rule("empty", pattern=""),
        _rule("badflags", pattern="x", flags="gg"),
        _rule("numflags", pattern="x", flags=3),
        "not a rule",
    ]
    stack = _stack(*rules)
    names = [r.id for r in select_rules(stack, "compiled", "messages", "outgoing", [])]
    assert names == ["on", "nulleffect", "nontarget", "numflags"]
    assert [r.id for r in select_rules(stack, "history", "messages", "outgoing", [])] == ["hist"]


def test_compile_error_uses_untrimmed_id_and_precedes_statistics() -> None:
    stack = _stack(_rule("ok", pattern="a", replace="b"), _rule(" sp ", pattern="("))
    diags: list[Diagnostic] = []
    assert apply_to_system(stack, "a", diags) == "b"
    assert diags[0].level == "error"
    assert diags[0].message.startswith("Regex rule  sp  failed to compile: ")
    assert diags[0].item_id is None
    assert diags[1].message == "Regex rule ok matched 1 time(s) and changed 1 text segment(s) in compiled/system."


def test_trimmed_id_in_statistics_and_match_without_change() -> None:
    stack = _stack(_rule(" pad ", pattern="a", flags="g", replace="a"))
    diags: list[Diagnostic] = []
    assert apply_to_system(stack, "aaa", diags) == "aaa"
    assert [d.message for d in diags] == [
        "Regex rule pad matched 3 time(s) and changed 0 text segment(s) in compiled/system."
    ]


def test_parts_are_separate_segments_and_others_untouched() -> None:
    call = {"type": "toolCall", "id": "c", "name": "x", "arguments": {}}
    message = {
        "role": "assistant",
        "content": [{"type": "text", "text": "x1"}, call, {"type": "text", "text": "x2"}, {"type": "text", "text": 5}],
    }
    diags: list[Diagnostic] = []
    out = apply_to_messages(_stack(_rule(pattern="x", flags="g", replace="y")), [message], "history", [])
    assert out == [message]  # stage mismatch: untouched
    out = apply_to_messages(_stack(_rule(pattern="x", flags="g", replace="y")), [message], "compiled", diags)
    assert [p.get("text") for p in out[0]["content"]] == ["y1", None, "y2", 5]
    assert out[0]["content"][1] is call
    assert diags[0].message.endswith("matched 2 time(s) and changed 2 text segment(s) in compiled/messages.")


def test_regex_roles_read_missing_role_as_undefined() -> None:
    stack = _stack(_rule(roles=["undefined"], pattern="a", replace="b"))
    out = apply_to_messages(stack, [{"content": "a"}], "compiled", [])
    assert out[0]["content"] == "b"


def test_finalize_vector() -> None:
    """§16.5: a g rule x -> y and an uncompilable rule."""
    stack = _stack(
        _rule("x", effect="finalize", pattern="x", flags="g", replace="y"),
        _rule("bad", effect="finalize", pattern="("),
    )
    replaced, diags = finalize_message(stack, {"role": "assistant", "content": [{"type": "text", "text": "xx"}]})
    assert replaced == {"role": "assistant", "content": [{"type": "text", "text": "yy"}]}
    assert [d.level for d in diags] == ["error", "info", "warning"]
    assert diags[1].message == "Regex rule x matched 2 time(s) and changed 1 text segment(s) in finalize/messages."
    assert diags[2].message == FINALIZE_WARNING
    replaced, diags = finalize_message(stack, {"role": "assistant", "content": "nothing"})
    assert replaced is None and [d.level for d in diags] == ["error"]
    assert finalize_message(stack, {"role": "user", "content": "xx"}) == (None, [])
    replaced, _ = finalize_message(stack, {"role": ["assistant"], "content": "x"})
    assert replaced is not None and replaced["content"] == "y"


def test_timeout_skips_rule_with_forgec_error(monkeypatch: pytest.MonkeyPatch) -> None:
    """A catastrophically backtracking rule never hangs: it is skipped with FG623 (A5.6)."""
    import forgec.compile.passes.regex as rx

    monkeypatch.setattr(rx, "REGEX_TIMEOUT_SECONDS", 0.1)
    stack = _stack(_rule("slow", pattern="(a|aa)+c", flags="g", replace="x"), _rule("ok", pattern="b", replace="B"))
    diags: list[Diagnostic] = []
    # the text holds a "c" (every match needs one), so the required-literal prefilter lets the engine run
    messages = [{"role": "user", "content": "a" * 40 + "bc"}]
    out = apply_to_messages(stack, messages, "compiled", diags)
    assert out[0]["content"] == "a" * 40 + "Bc"
    assert [(d.level, d.code) for d in diags] == [("error", "FG623"), ("info", "FG621")]
    assert diags[0].message == "Regex rule slow exceeded the 0.1s time limit in compiled/messages and was skipped."
