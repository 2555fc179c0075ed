"""Unicode handling of the compile core — case mapping (§0.8, Unicode 17 per §16), the JS trim
set (§0.6), UTF-16 lengths (§0.7) in ``maxChars``/preview truncation (§11.2), CRLF text in blocks
and slots (§3, §6.14 helpers split on ``\\n`` only).
"""

from __future__ import annotations

from typing import Any

import pytest

from forgec.compile.macros.casemap import js_lower, js_upper
from forgec.output.preview import render_text
from forgec.report import compile_report


def _report(items: list[dict[str, Any]], ctx: dict[str, Any] | None = None, **stack: Any) -> dict[str, Any]:
    return compile_report({"schemaVersion": 1, "id": "audit", "items": items, **stack}, ctx or {}).to_report()


def _system(content: str, ctx: dict[str, Any] | None = None) -> str:
    return _report([{"kind": "block", "id": "b", "role": "system", "content": content}], ctx)["system"]["prompt"]


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        # §0.8 examples
        ("{{upper::ßﬁ straße}}", "SSFI STRASSE"),
        ("{{lower::ΣΑΣ İ}}", "σας i̇"),
        ("{{lower::ΌΣΟΣ. Σ}}", "όσος. σ"),
        ("{{upper::ǅ ŉ}}", "Ǆ ʼN"),
    ],
)
def test_case_mapping_examples(content: str, expected: str) -> None:
    assert _system(content) == expected


def test_case_pairs_new_in_unicode_15_to_17() -> None:
    """The reference maps the case pairs added after Python 3.11's Unicode 14 (checked in Node 20.20.2)."""
    assert js_upper("ƛ ɤ \u1c8a \ua7cd \U00010d70 \U00016ebb") == "\ua7dc \ua7cb \u1c89 \ua7cc \U00010d50 \U00016ea0"
    assert js_lower("\ua7dc \ua7cb \u1c89 \ua7cc \U00010d50 \U00016ea0") == "ƛ ɤ \u1c8a \ua7cd \U00010d70 \U00016ebb"
    assert _system("{{upper::ƛ}}{{lower::\ua7cb}}") == "\ua7dcɤ"


def test_js_trim_set() -> None:
    """§0.6: U+FEFF and U+1680 are trimmed, U+0085 and U+001C are not; system parts use it too."""
    ctx = {"latestUserMessage": "\ufeff\u1680 a\x1c\x85\u2028"}
    assert _system("<{{trim::{{lastUserMessage}}}}>", ctx) == "<a\x1c\x85>"
    assert _system("\ufeff\u3000X\x85") == "X\x85"
    assert _system("\u180eX\u200b") == "\u180eX\u200b"


def test_json_escapes_only_controls() -> None:
    """§0.5: control characters escaped with lower-case hex; U+0085, U+2028, U+FEFF raw."""
    ctx = {"latestUserMessage": "\ufeffa\x1c\x85\u2028\x7f/"}
    assert _system("{{json::{{lastUserMessage}}}}", ctx) == '"\ufeffa\\u001c\x85\u2028\x7f/"'


def test_crlf_inside_blocks_and_slots() -> None:
    """CRLF survives in block text; the expression trim drops it at the ends; helpers split on LF only."""
    ctx = {
        "contextFiles": [{"path": "/p/A.md", "content": "L1\r\nL2\r\n"}],
        "tools": [{"name": "read", "snippet": "one\r\ntwo", "guidelines": [" g1\r\n", "g1", "g2\r\nx"]}],
        "variables": {"v": "a\r\nb"},
        "cwd": "C:\\Users\\me",
    }
    items = [
        {"kind": "slot", "id": "p", "role": "system", "slot": "project-context", "options": {"format": "plain"}},
        {"kind": "slot", "id": "t", "role": "system", "slot": "tools", "options": {"format": "plain"}},
        {"kind": "slot", "id": "g", "role": "system", "slot": "tool-guidelines", "options": {"format": "plain"}},
        {"kind": "slot", "id": "v", "role": "system", "slot": "variables", "options": {"format": "plain"}},
        {"kind": "slot", "id": "c", "role": "system", "slot": "cwd"},
        {"kind": "block", "id": "b", "role": "system", "content": "{{json::x\r\ny}}|{{cwd}}|{{ v\r\n }}|{{setvar::k::v\r\n}}[{{k}}]\r\n"},
        {"kind": "block", "id": "u", "role": "user", "content": "\r\nline1\r\nline2\r\n"},
    ]
    report = _report(items, ctx)
    assert report["system"]["prompt"].split("\n\n") == [
        "Project context:",
        "Project-specific instructions and guidelines:",
        "Path: /p/A.md\n  L1\r\n  L2",
        "Available tools:\n- read: one\r\n  two",
        "Tool guidelines:\n- g1\n- g2\r\n  x",
        "Variables:\nsession:\n- v: a\r\n  b",
        "Current working directory: C:/Users/me",
        '"x\\r\\ny"|C:\\Users\\me|a\r\nb|[v]',
    ]
    assert report["messages"]["messages"][0]["content"][0]["text"] == "\r\nline1\r\nline2\r\n"


def test_preview_truncation_counts_utf16_and_keeps_leading_newline() -> None:
    """§11.2: the layout is cut at 8000 UTF-16 units; the leading ``\\n`` is kept when truncated."""
    header = "\n--- u (user) ---\n"  # 18 units
    body = "😺" * 3991  # 7982 units: 18 + 7982 = 8000 exactly, plus the closing "\n" = 8001
    items = [{"kind": "block", "id": "u", "role": "user", "content": body, "name": "   "}]
    text = render_text(_report(items))
    layout = text.split("## Message layout\n\n", 1)[1].split("\n\n## Diagnostics", 1)[0]
    assert layout == header + body + "\n\n[preview truncated]"
    short = "😺" * 3990
    items = [{"kind": "block", "id": "u", "role": "user", "content": short}]
    text = render_text(_report(items))
    assert "## Message layout\n\n--- u (user) ---\n" + short + "\n\n\n## Diagnostics" in text


def test_preview_titles_and_roles() -> None:
    """§11.2 titles: trimmed name, else id; chat history '<name> #i' or 'Chat history #i'."""
    messages = [
        {"role": "user", "content": "q1"},
        {
            "role": "assistant",
            "content": [
                {"type": "thinking", "thinking": "th"},
                {"type": "text", "text": "ans"},
                {"type": "toolCall", "name": "read"},
                {"type": "image"},
                {"type": "toolCall"},
            ],
        },
        {"content": "no role"},
    ]
    items = [
        {"kind": "block", "id": "pre", "role": "user", "content": "Pre"},
        {"kind": "block", "id": "nb", "role": "assistant", "content": "Asst", "name": "  Named Block "},
        {"kind": "slot", "id": "h", "slot": "chat-history", "name": "  "},
        {"kind": "block", "id": "post", "role": "user", "content": "latest q {{unknownm}}"},
    ]
    text = render_text(_report(items, {"messages": messages}))
    assert text.split("## Message layout\n\n", 1)[1] == (
        "--- pre (user) ---\nPre\n\n"
        "--- Named Block (assistant) ---\nAsst\n\n"
        "--- Chat history #1 (user) ---\nq1\n\n"
        "--- Chat history #2 (assistant) ---\n<thinking>\nth\n</thinking>\nans\n[toolCall: read]\n[image]\n"
        "[toolCall: unknown]\n\n"
        "--- Chat history #3 ---\nno role\n\n"
        "--- post (user) ---\nlatest q {{unknownm}}\n\n\n"
        "## Diagnostics\n\n"
        "WARNING: Compiled system prompt is empty; preserving base system prompt.\n"
        "WARNING [post]: Unresolved macro: {{unknownm}}"
    )


def test_preview_without_messages() -> None:
    """§11.2: no messages → ``## Message layout\\n\\n\\n\\n## Diagnostics``; empty prompt → ``(empty)``."""
    items = [{"kind": "slot", "id": "h", "slot": "chat-history"}]
    text = render_text(_report(items))
    assert text.startswith("# Prompt stack preview: audit\n\n## System prompt\n\n(empty)\n\n")
    assert "## Message layout\n\n\n\n## Diagnostics\n\n" in text
