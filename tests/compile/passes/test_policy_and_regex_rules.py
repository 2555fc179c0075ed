"""Policy and regex rules end to end: compile-core §5 (policy), §7 (system assembly), §9 (regex
selection, scoping, statistics), §16.3 (maxChars cut) and the conformance notes on regex scoping.
"""

from __future__ import annotations

from typing import Any

import pytest

from forgec.compile.passes.policy import apply_policy
from forgec.report import compile_report

NAMES = ["read", "bash", "browser-search", "browser-danger", "a?b", "axb", "x\n", "multi\nline-x", "review"]


@pytest.mark.parametrize(
    ("policy", "kept"),
    [
        ({"allow": ["*"]}, NAMES),  # "no policy"
        ({"allow": ["*"], "deny": ["bash"]}, [n for n in NAMES if n != "bash"]),  # allow ineffective → deny
        ({"allow": [], "deny": ["bash"]}, [n for n in NAMES if n != "bash"]),  # allow [] falls back to deny
        ({"allow": ["*", "read"]}, NAMES),  # conformance: lets everything through
        ({"allow": ["review", "browser-*"]}, ["browser-search", "browser-danger", "review"]),  # §5 observed
        ({"allow": ["a?b"]}, ["a?b"]),  # ? is literal
        ({"allow": ["x"]}, []),  # no trailing-newline forgiveness
        ({"allow": ["multi*"]}, []),  # * does not cross a line terminator
        ({"allow": ["read"], "deny": ["read"]}, ["read"]),  # effective allow ignores deny
        ({"deny": []}, NAMES),
    ],
)
def test_policy(policy: dict[str, Any], kept: list[str]) -> None:
    assert apply_policy(policy, NAMES) == kept


def _report(items: list[dict[str, Any]], ctx: dict[str, Any] | None = None, **stack: Any) -> dict[str, Any]:
    return compile_report({"schemaVersion": 1, "id": "audit", "items": items, **stack}, ctx or {}).to_report()


def _sys(id_: str, content: str) -> dict[str, Any]:
    return {"kind": "block", "id": id_, "role": "system", "content": content}


def test_combined_tool_and_skill_policies() -> None:
    """Tool policy filters every selected-tools reader; guidelines stay; skill policy only in skills."""
    ctx = {
        "tools": [
            {"name": "read", "snippet": "R"},
            {"name": "bash", "guidelines": ["Prefer bash."]},
            {"name": "grep"},
        ],
        "skills": [
            {"name": "review", "description": "d", "filePath": "/r"},
            {"name": "browser", "description": "b", "filePath": "/b"},
        ],
    }
    items = [
        _sys("m", "{{tools}}|{{iftools::bash::B::NB}}|{{iftools::review::S::NS}}"),
        {"kind": "slot", "id": "t", "role": "system", "slot": "tools", "options": {"format": "plain"}},
        {"kind": "slot", "id": "g", "role": "system", "slot": "tool-guidelines", "options": {"format": "plain"}},
        {"kind": "slot", "id": "s", "role": "system", "slot": "skills", "options": {"format": "plain", "requireReadTool": True}},
    ]
    report = _report(items, ctx, tools={"deny": ["bash", "gr*"]}, skills={"allow": ["rev*"]})
    parts = report["system"]["prompt"].split("\n\n")
    assert parts[0] == "read|NB|NS"
    assert parts[1] == "Available tools:\n- read: R"
    assert parts[2] == "Tool guidelines:\n- Prefer bash."  # no bash sentence: bash is denied
    assert parts[-1] == "Available skills:\n- review: d\n  Location: /r"


def test_system_assembly_modes() -> None:
    """§7: parts trimmed and joined; empty → base for every mode; separators with an empty base."""
    items = [_sys("a", "A\n"), _sys("b", "   "), _sys("c", "\nB"), {**_sys("d", "D"), "enabled": False}]
    assert _report(items)["system"]["prompt"] == "A\n\nB"
    one = [_sys("x", "X")]
    assert _report(one, mode="append")["system"]["prompt"] == "\n\nX"
    assert _report(one, mode="prepend")["system"]["prompt"] == "X\n\n"
    assert _report(one, {"baseSystemPrompt": "P"}, mode="append")["system"]["prompt"] == "P\n\nX"
    empty = _report([_sys("e", "  ")], {"baseSystemPrompt": "BASE"}, mode="append")
    assert empty["system"]["prompt"] == "BASE"
    assert empty["system"]["diagnostics"] == [
        {"level": "warning", "message": "Compiled system prompt is empty; preserving base system prompt."}
    ]


def test_system_diagnostic_order() -> None:
    """§7 step 7: per item (macro errors, unresolved, slot), then the empty warning, then regex."""
    rules = [
        {"id": "bad", "stage": "compiled", "targets": ["system"], "pattern": "("},
        {"id": "r", "stage": "compiled", "targets": ["system"], "pattern": "B", "flags": "g", "replace": "b"},
    ]
    items = [
        _sys("a", "{{setvar::v::{{zz}}}}"),
        {"kind": "slot", "id": "h", "role": "system", "slot": "chat-history"},
        {"kind": "slot", "id": "u", "role": "system", "slot": "nope"},
    ]
    report = _report(items, {"baseSystemPrompt": "BB"}, regex={"rules": rules})
    assert report["system"]["prompt"] == "bb"
    assert report["system"]["diagnostics"] == [
        {"level": "warning", "message": "Unresolved macro: {{zz}}", "itemId": "a"},
        {"level": "warning", "message": "chat-history slot cannot be placed in the system prompt.", "itemId": "h"},
        {"level": "warning", "message": "Unsupported slot: nope", "itemId": "u"},
        {"level": "warning", "message": "Compiled system prompt is empty; preserving base system prompt."},
        {"level": "error", "message": "Regex rule bad failed to compile: Invalid regular expression: /(/: Unterminated group"},
        {"level": "info", "message": "Regex rule r matched 2 time(s) and changed 1 text segment(s) in compiled/system."},
    ]


def test_regex_selection_and_scoping() -> None:
    """§9.1/§9.3 and conformance 'Regex scoping': roles/depth/maxMessages per call site."""

    def rule(id_: str, **kw: Any) -> dict[str, Any]:
        return {"id": id_, "pattern": "x", "flags": "g", "replace": "Y", **kw}

    messages = [
        {"role": "user", "content": "x1"},
        {"role": "assistant", "content": [{"type": "text", "text": "x2"}, {"type": "thinking", "thinking": "x"}]},
        {"content": "x3"},
        {"role": None, "content": "x4"},
        {"role": "user", "content": [{"type": "text", "text": "x5"}]},
    ]
    rules = [
        rule("  r1 ", stage="history", roles=["user"], targets=["system"]),  # history ignores targets
        rule("r2", stage="history", minDepth=1, maxDepth=3, maxMessages=2),  # depths 3,2,1 → last two
        rule("r3", stage="history", roles=["undefined", "null"]),  # nothing left to match
        rule("r4", stage="compiled", targets=["system", "messages"], roles=["user"], maxDepth=0, maxChars=1),
        rule("r5", stage="compiled", targets=[]),  # empty list excludes everywhere
        rule("r6", stage="compiled", targets="system"),  # non-list targets do not restrict
        rule("r7", stage="compiled", effect="display"),
        rule("r8", stage="compiled", flags="gg"),
        rule("r9", stage="compiled", enabled=False),
    ]
    items = [
        _sys("s", "sx"),
        {"kind": "block", "id": "u0", "role": "user", "content": "ux"},
        {"kind": "slot", "id": "h", "slot": "chat-history"},
        {"kind": "block", "id": "u1", "role": "user", "content": "ux2"},
    ]
    report = _report(items, {"messages": messages}, regex={"rules": rules})
    assert report["system"]["prompt"] == "sY"
    assert [d["message"] for d in report["system"]["diagnostics"]] == [
        "Regex rule r4 matched 1 time(s) and changed 1 text segment(s) in compiled/system."
    ]
    out = report["messages"]["messages"]
    assert [m["content"] if isinstance(m["content"], str) else m["content"][0]["text"] for m in out] == [
        "uY", "Y1", "Y2", "Y3", "Y4", "Y5", "uY2",
    ]  # fmt: skip
    assert out[2]["content"][1] == {"type": "thinking", "thinking": "x"}
    assert "role" not in out[3]
    assert [d["message"] for d in report["messages"]["diagnostics"]] == [
        "Regex rule r1 matched 2 time(s) and changed 2 text segment(s) in history/messages.",
        "Regex rule r2 matched 2 time(s) and changed 2 text segment(s) in history/messages.",
        "Regex rule r6 matched 3 time(s) and changed 3 text segment(s) in compiled/messages.",
    ]


def test_compile_error_repeated_per_call_site() -> None:
    """§9.1: the error is emitted at every call site that selects the rule (two slots + compiled)."""
    rules = [{"id": " bad ", "stage": "history", "pattern": "["}, {"id": "c", "stage": "compiled", "pattern": "("}]
    items = [
        {"kind": "slot", "id": "h1", "slot": "chat-history"},
        {"kind": "slot", "id": "h2", "slot": "chat-history"},
    ]
    report = _report(items, {"messages": []}, regex={"rules": rules}, context={"allowDuplicateChatHistory": True})
    assert [d["message"] for d in report["messages"]["diagnostics"]] == [
        "Regex rule  bad  failed to compile: Invalid regular expression: /[/: Unterminated character class",
        "Regex rule  bad  failed to compile: Invalid regular expression: /[/: Unterminated character class",
        "Regex rule c failed to compile: Invalid regular expression: /(/: Unterminated group",
    ]
    assert [d["message"] for d in report["system"]["diagnostics"]][-1] == (
        "Regex rule c failed to compile: Invalid regular expression: /(/: Unterminated group"
    )


def test_match_without_change_still_reports() -> None:
    """§9.5: a rule that matches but produces identical text reports 0 changed segments."""
    rules = [{"id": "same", "stage": "compiled", "targets": ["system"], "pattern": "a", "flags": "g", "replace": "$&"}]
    report = _report([_sys("s", "banana")], regex={"rules": rules})
    assert report["system"]["diagnostics"] == [
        {"level": "info", "message": "Regex rule same matched 3 time(s) and changed 0 text segment(s) in compiled/system."}
    ]


def test_observed_replacement_template() -> None:
    """§9.2 observed: ``[$0|$&|$$0|$1]`` on ``foo foo``."""
    rules = [{"id": "t", "stage": "compiled", "targets": ["system"], "pattern": "foo", "flags": "g", "replace": "[$0|$&|$$0|$1]"}]
    report = _report([_sys("s", "foo foo")], regex={"rules": rules})
    assert report["system"]["prompt"] == "[foo|foo|$0|$1] [foo|foo|$0|$1]"


def test_verified_max_chars_cut_inside_surrogate_pair() -> None:
    """§16.3 verified: maxChars 2 on ``x😺b``."""

    def run(pattern: str, flags: str, replace: str) -> dict[str, Any]:
        rule = {"id": "m", "stage": "compiled", "targets": ["system"], "pattern": pattern, "flags": flags,
                "replace": replace, "maxChars": 2}  # fmt: skip
        return _report([_sys("s", "x😺b")], regex={"rules": [rule]})

    assert run("b", "g", "B")["system"]["prompt"] == "x😺B"
    for flags in ("g", "gu"):
        report = run(".", flags, "$&")
        assert report["system"]["prompt"] == "x😺b"
        assert report["system"]["diagnostics"][0]["message"] == (
            "Regex rule m matched 2 time(s) and changed 0 text segment(s) in compiled/system."
        )


def test_verified_finalize() -> None:
    """§16.5 verified: g rule x→y plus an uncompilable rule."""
    rules = [
        {"id": "f", "stage": "compiled", "effect": "finalize", "pattern": "x", "flags": "g", "replace": "y"},
        {"id": "bad", "stage": "compiled", "effect": "finalize", "pattern": "("},
    ]
    ctx = {
        "finalizeMessages": [
            {"role": "assistant", "content": [{"type": "text", "text": "xx"}]},
            {"role": "assistant", "content": [{"type": "text", "text": "zz"}]},
            {"role": "user", "content": "xx"},
            {"role": ["assistant"], "content": "x"},
        ]
    }
    report = _report([_sys("s", "S")], ctx, regex={"rules": rules})
    entries = report["finalize"]
    error = {"level": "error", "message": "Regex rule bad failed to compile: Invalid regular expression: /(/: Unterminated group"}
    assert entries[0]["message"]["content"] == [{"type": "text", "text": "yy"}]
    assert entries[0]["diagnostics"] == [
        error,
        {"level": "info", "message": "Regex rule f matched 2 time(s) and changed 1 text segment(s) in finalize/messages."},
        {
            "level": "warning",
            "message": "Finalize regex replaced finalized assistant message content; "
            "original model output is not preserved in the stored transcript.",
        },
    ]
    assert entries[1] == {"message": None, "diagnostics": [error]}
    assert entries[2] == {"message": None, "diagnostics": []}
    assert entries[3]["message"]["content"] == "y"
