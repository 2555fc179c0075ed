"""The readable golden-file format for compiled prompts, and a diff by message and block.

A golden file is what a reviewer reads when a prompt changes, so it shows the prompt the way a model
sees it — the system prompt and each message as plain text, under a heading that names the message's
role and where it came from — and then the whole compile report as canonical JSON, so that nothing
the text view leaves out (diagnostics, variables, payload fields) can change unnoticed.

The format is Markdown: every part starts with a ``## `` heading line.  :func:`diff_golden` compares
two golden texts part by part, so a failing comparison says *which* message or block changed instead
of printing one long line of JSON.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Iterator
from typing import Any

from forgec.js.values import dumps_report, json_stringify

__all__ = ["diff_golden", "render_golden", "split_sections"]

HEADER = "<!-- forgec golden file: regenerate with `pytest --snapshot-update` or `forgec snapshot update` -->"
JSON_HEADING = "## canonical JSON"


def render_golden(data: Any, *, title: str | None = None, notes: Iterable[str] = ()) -> str:
    """Render a compile report (or a provider request body) as a golden file.

    ``notes`` become HTML comments under the header (``forgec snapshot`` records its context there).
    """
    lines: list[str] = [f"# {title}" if title else "# forgec golden file", HEADER]
    lines.extend(f"<!-- {note} -->" for note in notes)
    lines.append("")
    if isinstance(data, dict) and isinstance(data.get("system"), dict) and "messages" in data:
        lines.extend(_report_sections(data))
    elif isinstance(data, dict) and _looks_like_body(data):
        lines.extend(_body_sections(data))
    lines.append(JSON_HEADING)
    lines.append("")
    lines.append("```json")
    lines.append(dumps_report(data).rstrip("\n"))
    lines.append("```")
    # a lone surrogate (JavaScript strings may hold one; a file name that is not UTF-8 arrives as
    # one) cannot be written as UTF-8: show it as its escape, as the canonical JSON does
    return _LONE_SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", "\n".join(lines) + "\n")


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def _report_sections(report: dict[str, Any]) -> Iterator[str]:
    system = report.get("system") or {}
    yield "## system prompt"
    yield ""
    yield from _fenced(str(system.get("prompt", "")))
    messages = (report.get("messages") or {}).get("messages") or []
    sources = (report.get("messages") or {}).get("sources") or []
    for index, message in enumerate(messages, start=1):
        source = sources[index - 1] if index - 1 < len(sources) else {}
        yield f"## message {index} · {_role(message)} · {_describe_source(source)}"
        yield ""
        yield from _fenced(_message_text(message))
    diagnostics = [
        *(((report.get("validation") or {}).get("diagnostics")) or []),
        *(system.get("diagnostics") or []),
        *(((report.get("messages") or {}).get("diagnostics")) or []),
    ]
    if diagnostics:
        yield "## diagnostics"
        yield ""
        for diagnostic in diagnostics:
            item = f" [{diagnostic['itemId']}]" if "itemId" in diagnostic else ""
            yield f"- {diagnostic.get('level')}{item}: {diagnostic.get('message')}"
        yield ""


def _looks_like_body(data: dict[str, Any]) -> bool:
    return any(key in data for key in ("messages", "input", "contents"))


def _body_sections(body: dict[str, Any]) -> Iterator[str]:
    for key in ("system", "instructions"):
        if key in body:
            yield f"## {key}"
            yield ""
            yield from _fenced(_plain(body[key]))
    entries = body.get("messages") or body.get("input") or body.get("contents") or []
    for index, entry in enumerate(entries, start=1):
        role = entry.get("role", entry.get("type", "?")) if isinstance(entry, dict) else "?"
        yield f"## message {index} · {role}"
        yield ""
        yield from _fenced(_plain(entry))


def _fenced(text: str) -> Iterator[str]:
    fence = "````" if "```" in text else "```"
    yield fence
    yield from text.split("\n")
    yield fence
    yield ""


def _role(message: Any) -> str:
    if isinstance(message, dict):
        role = message.get("role")
        return role if isinstance(role, str) else json_stringify(role) or "?"
    return "?"


def _describe_source(source: dict[str, Any]) -> str:
    kind = source.get("kind", "?")
    name = f' "{source["itemName"]}"' if "itemName" in source else ""
    if kind == "stack-item":
        return f"stack item {source.get('itemId')}{name}"
    if kind == "chat-history":
        where = f"{source.get('historyIndex')}/{source.get('historyCount')}"
        return f"chat history {where} from {source.get('itemId')}{name}"
    if kind == "implicit-history":
        return f"implicit history {source.get('historyIndex')}/{source.get('historyCount')}"
    return str(kind)


def _message_text(message: Any) -> str:
    if not isinstance(message, dict):
        return json_stringify(message) or ""
    role = message.get("role")
    header: list[str] = []
    if role == "toolResult":
        header.append(f"[tool result {message.get('toolName')} {message.get('toolCallId')}]")
    elif role in ("branchSummary", "compactionSummary"):
        return f"[{role}] {message.get('summary', '')}"
    elif role == "bashExecution":
        return f"$ {message.get('command', '')}\n{message.get('output', '')}"
    content = message.get("content")
    return "\n".join([*header, _plain(content)])


def _plain(content: Any) -> str:
    """Text of a content value: strings as is, parts one per line, anything else as compact JSON."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(_part_text(part) for part in content)
    if isinstance(content, dict):
        return _part_text(content)
    return json_stringify(content) or ""


def _part_text(part: Any) -> str:
    if not isinstance(part, dict):
        return _plain(part) if isinstance(part, (str, list)) else json_stringify(part) or ""
    kind = part.get("type")
    text = part.get("text")
    if kind == "text" and isinstance(text, str):
        return text
    if kind == "thinking":
        return f"[thinking] {part.get('thinking', '')}"
    if kind == "image":
        return f"[image {part.get('mimeType', '?')}]"
    if kind == "toolCall":
        return f"[tool call {part.get('name')} {part.get('id')}] {json_stringify(part.get('arguments'))}"
    return json_stringify(part) or ""


def split_sections(text: str) -> list[tuple[str, list[str]]]:
    """A golden text as ``(heading, lines)`` parts; the preamble has the heading ``""``."""
    sections: list[tuple[str, list[str]]] = [("", [])]
    fence: str | None = None
    for line in text.split("\n"):
        if fence is None and line.startswith("```"):
            fence = line[: len(line) - len(line.lstrip("`"))]
        elif fence is not None and line == fence:
            fence = None
        elif fence is None and line.startswith("## "):
            sections.append((line[3:], []))
            continue
        sections[-1][1].append(line)
    return sections


def diff_golden(expected: str, actual: str) -> list[str]:
    """A diff that names each changed part (message, block, diagnostics, JSON) before its lines."""
    old = split_sections(expected)
    new = split_sections(actual)
    out: list[str] = []
    old_names = [name for name, _ in old]
    new_names = [name for name, _ in new]
    if old_names != new_names:
        added = [n for n in new_names if n not in old_names]
        removed = [n for n in old_names if n not in new_names]
        for name in removed:
            out.append(f"- part removed: {name}")
        for name in added:
            out.append(f"+ part added: {name}")
    old_map = dict(old)
    for name, lines in new:
        before = old_map.get(name)
        if before is None or before == lines:
            continue
        out.append(f"changed: {name or '(header)'}")
        out.extend(
            "    " + line
            for line in difflib.unified_diff(before, lines, "golden", "actual", n=2, lineterm="")
            if not line.startswith(("---", "+++"))
        )
    return out
