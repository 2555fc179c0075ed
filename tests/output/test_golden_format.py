"""The golden-file renderer and the part-by-part diff."""

from __future__ import annotations

from forgec.output.golden import diff_golden, render_golden, split_sections

REPORT = {
    "system": {"prompt": "Be brief.", "diagnostics": []},
    "messages": {
        "messages": [
            {"role": "user", "content": [{"type": "text", "text": "hi"}, {"type": "image", "mimeType": "image/png"}]},
            {
                "role": "assistant",
                "content": [
                    {"type": "thinking", "thinking": "hmm"},
                    {"type": "toolCall", "id": "c1", "name": "read", "arguments": {"path": "a"}},
                ],
            },
        ],
        "sources": [
            {"kind": "stack-item", "itemId": "ask", "itemName": "Ask", "role": "user"},
            {"kind": "implicit-history", "historyIndex": 1, "historyCount": 1, "role": "assistant"},
        ],
        "diagnostics": [{"level": "warning", "message": "Unsupported slot: x", "itemId": "x"}],
    },
}


def test_report_renders_prompt_messages_diagnostics_and_json() -> None:
    text = render_golden(REPORT, title="demo")
    names = [name for name, _ in split_sections(text)]
    assert names == [
        "",
        "system prompt",
        'message 1 · user · stack item ask "Ask"',
        "message 2 · assistant · implicit history 1/1",
        "diagnostics",
        "canonical JSON",
    ]
    assert "[image image/png]" in text
    assert '[tool call read c1] {"path":"a"}' in text
    assert "- warning [x]: Unsupported slot: x" in text


def test_fences_grow_when_a_message_contains_a_fence() -> None:
    report = {**REPORT, "system": {"prompt": "```\n## not a heading\n```", "diagnostics": []}}
    text = render_golden(report)
    assert "````\n```\n## not a heading\n```\n````" in text
    assert "not a heading" not in [name for name, _ in split_sections(text)]


def test_diff_names_only_the_changed_parts() -> None:
    before = render_golden(REPORT)
    changed = {
        **REPORT,
        "system": {"prompt": "Be very brief.", "diagnostics": []},
    }
    lines = diff_golden(before, render_golden(changed))
    assert "changed: system prompt" in lines
    assert "    -Be brief." in lines and "    +Be very brief." in lines
    assert not any(line.startswith("changed: message") for line in lines)
    assert "changed: canonical JSON" in lines


def test_diff_reports_added_and_removed_messages() -> None:
    fewer = {**REPORT, "messages": {**REPORT["messages"], "messages": REPORT["messages"]["messages"][:1]}}
    lines = diff_golden(render_golden(REPORT), render_golden(fewer))
    assert "- part removed: message 2 · assistant · implicit history 1/1" in lines


def test_equal_texts_have_no_diff() -> None:
    text = render_golden(REPORT)
    assert diff_golden(text, text) == []
