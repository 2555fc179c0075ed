"""pi-forge's preview text (compile-core.md §11.2) and forgec's Markdown rendering."""

from __future__ import annotations

from typing import Any

from forgec.output.preview import message_title, render_markdown, render_text


def _report(messages: list[Any], sources: list[Any], diagnostics: list[Any] | None = None) -> dict[str, Any]:
    return {
        "validation": {"stackId": "demo", "diagnostics": diagnostics or []},
        "system": {"prompt": "SYS", "diagnostics": []},
        "messages": {"messages": messages, "sources": sources, "diagnostics": []},
    }


def _observed() -> dict[str, Any]:
    messages = [
        {"role": "user", "content": [{"type": "text", "text": "Pre"}]},
        {"role": "assistant", "content": [{"type": "text", "text": "Asst"}]},
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
        {"role": "user", "content": [{"type": "text", "text": "latest q {{unknownm}}"}]},
    ]
    sources = [
        {"kind": "stack-item", "itemId": "pre", "role": "user"},
        {"kind": "stack-item", "itemId": "nb", "itemName": " Named Block ", "role": "assistant"},
        {"kind": "chat-history", "itemId": "h", "slot": "chat-history", "historyIndex": 2, "historyCount": 2,
         "role": "assistant"},
        {"kind": "stack-item", "itemId": "post", "role": "user"},
    ]
    diagnostics = [
        {"level": "warning", "message": "loader warn", "itemId": "it"},
        {"level": "info", "message": "loader info"},
    ]
    report = _report(messages, sources, diagnostics)
    report["messages"]["diagnostics"] = [
        {"level": "warning", "message": "Unresolved macro: {{unknownm}}", "itemId": "post"}
    ]
    return report


def test_observed_excerpt() -> None:
    text = render_text(_observed())
    assert text.startswith("# Prompt stack preview: demo\n\n## System prompt\n\nSYS\n\n## Message layout\n\n")
    assert text.endswith(
        "## Message layout\n\n"
        "--- pre (user) ---\nPre\n\n"
        "--- Named Block (assistant) ---\nAsst\n\n"
        "--- Chat history #2 (assistant) ---\n<thinking>\nth\n</thinking>\nans\n[toolCall: read]\n[image]\n"
        "[toolCall: unknown]\n\n"
        "--- post (user) ---\nlatest q {{unknownm}}\n\n\n"
        "## Diagnostics\n\n"
        "WARNING [it]: loader warn\nINFO: loader info\nWARNING [post]: Unresolved macro: {{unknownm}}"
    )


def test_no_messages_and_empty_prompt() -> None:
    report = _report([], [])
    report["system"]["prompt"] = ""
    assert render_text(report) == (
        "# Prompt stack preview: demo\n\n## System prompt\n\n(empty)\n\n"
        "## Message layout\n\n\n\n## Diagnostics\n\nNo diagnostics."
    )


def test_truncation_keeps_leading_newline() -> None:
    messages = [{"role": "user", "content": "x" * 9000}]
    text = render_text(_report(messages, [None]))
    layout = text.split("## Message layout\n\n", 1)[1].split("\n\n## Diagnostics", 1)[0]
    assert layout.startswith("\n--- Message 1 (user) ---\n")
    assert layout.endswith("\n\n[preview truncated]")
    assert len(layout) == 8000 + len("\n\n[preview truncated]")


def test_titles() -> None:
    assert message_title(0, {"kind": "stack-item", "itemId": "", "itemName": "  "}) == "Stack item 1"
    assert message_title(2, {"kind": "chat-history", "itemName": "", "historyIndex": 3}) == "Chat history #3"
    assert message_title(0, {"kind": "chat-history", "itemName": " H ", "historyIndex": 1}) == "H #1"
    assert message_title(4, {"kind": "implicit-history", "historyIndex": 5}) == "Conversation history #5"


def test_markdown_shows_roles_sources_and_diagnostics() -> None:
    md = render_markdown(_observed())
    assert "# Prompt stack preview: `demo`" in md
    assert "| 3 | assistant | Chat history #2 | chat history 2/2 (slot h) |" in md
    assert "| 1 | user | pre | stack item pre |" in md
    assert "- **WARNING** `post`: Unresolved macro: {{unknownm}}" in md
    assert "```text\nSYS\n```" in md


def test_rich_rendering_shows_sources_and_diagnostics() -> None:
    from rich.console import Console

    from forgec.output.preview import render_rich

    console = Console(record=True, width=100, color_system=None)
    render_rich(_observed(), console)
    out = console.export_text()
    assert "Prompt stack preview: demo" in out
    assert "3. Chat history #2 (assistant)" in out
    assert "chat history 2/2 (slot h)" in out
    assert "WARNING [post]: Unresolved macro: {{unknownm}}" in out


def test_role_shown_when_truthy() -> None:
    messages = [{"content": "a"}, {"role": [], "content": "b"}, {"role": "", "content": "c"}]
    text = render_text(_report(messages, [None, None, None]))
    assert "--- Message 1 ---\na\n\n--- Message 2 () ---\nb\n\n--- Message 3 ---\nc\n" in text
