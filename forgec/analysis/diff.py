"""``forgec diff``: what changed in the compiled prompt, message by message, and between providers.

Two questions, one module:

* :func:`diff_prompts` -- two compiles (two stacks, or a stack and its version at a git revision,
  :func:`stack_at_revision`) under one context: the system prompt, then the messages aligned with
  :class:`difflib.SequenceMatcher` on (role, text); each entry is ``equal``, ``changed``, ``added``
  or ``removed``, carries the sources of both sides (stack item or chat-history position) and, when
  changed, a line diff of the text;
* :func:`diff_targets` -- one compile, the four provider bodies side by side: how many messages each
  sends and which compiled messages were dropped or merged, the roles custom messages become, the
  thinking level after the clamp, tool-call ids rewritten for the API, what happens to images, the
  cache markers and the output-token cap.
"""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from forgec.errors import InputError
from forgec.model import API_ORDER

if TYPE_CHECKING:
    from forgec.environment import Environment
    from forgec.report import CompileResult

__all__ = [
    "MessageChange",
    "PromptDiff",
    "TargetsDiff",
    "diff_prompts",
    "diff_revision",
    "diff_stack_targets",
    "diff_stacks",
    "diff_targets",
    "message_text",
    "stack_at_revision",
]


def message_text(message: Any) -> str:
    """A compiled message as text: string content, text parts, thinking, tool calls, images."""
    if not isinstance(message, dict):
        return json.dumps(message)
    content = message.get("content")
    pieces: list[str] = []
    if isinstance(content, str):
        pieces.append(content)
    for part in content if isinstance(content, list) else []:
        if not isinstance(part, dict):
            continue
        kind = part.get("type")
        if kind == "text" and isinstance(part.get("text"), str):
            pieces.append(part["text"])
        elif kind == "thinking":
            pieces.append(f"<thinking>\n{part.get('thinking')}\n</thinking>")
        elif kind == "toolCall":
            arguments = json.dumps(part.get("arguments"), ensure_ascii=False, sort_keys=True)
            pieces.append(f"[toolCall {part.get('name')} {arguments}]")
        elif kind == "image":
            pieces.append(f"[image {part.get('mimeType')}]")
    for key in ("summary", "command", "output"):
        if isinstance(message.get(key), str):
            pieces.append(f"{key}: {message[key]}")
    return "\n".join(pieces)


@dataclass(frozen=True, slots=True)
class MessageChange:
    """One entry of a prompt diff (``index_a``/``index_b``: positions in each compile, -1 for the system prompt)."""

    status: str
    role: str
    index_a: int | None
    index_b: int | None
    source_a: str = ""
    source_b: str = ""
    text_a: str = ""
    text_b: str = ""

    def unified(self) -> list[str]:
        """The line diff of a changed entry (``-``/``+``/`` `` lines, no headers)."""
        lines = difflib.unified_diff(self.text_a.splitlines(), self.text_b.splitlines(), lineterm="", n=2)
        return [line for line in lines if not line.startswith(("---", "+++"))]


@dataclass(slots=True)
class PromptDiff:
    """Two compiles compared; ``label_a``/``label_b`` name the sides (file, or ``file@REF``)."""

    label_a: str
    label_b: str
    context: str
    changes: list[MessageChange] = field(default_factory=list)

    @property
    def counts(self) -> dict[str, int]:
        out = {"changed": 0, "added": 0, "removed": 0, "equal": 0}
        for change in self.changes:
            out[change.status] += 1
        return out

    @property
    def identical(self) -> bool:
        return all(c.status == "equal" for c in self.changes)

    def to_json(self) -> dict[str, Any]:
        return {
            "a": self.label_a,
            "b": self.label_b,
            "context": self.context,
            "counts": self.counts,
            "changes": [
                {
                    "status": c.status, "role": c.role, "indexA": c.index_a, "indexB": c.index_b,
                    "sourceA": c.source_a or None, "sourceB": c.source_b or None,
                    **({"diff": c.unified()} if c.status == "changed" else {}),
                    **({"text": c.text_b} if c.status == "added" else {}),
                    **({"text": c.text_a} if c.status == "removed" else {}),
                }
                for c in self.changes
            ],
        }  # fmt: skip


def _entries(result: CompileResult) -> list[tuple[str, str, str]]:
    from forgec.analysis.tokens import source_label

    out = [(str(m.get("role") if isinstance(m, dict) else "?"), message_text(m), source_label(s))
           for m, s in zip(result.messages, result.prompt.messages.sources, strict=False)]  # fmt: skip
    return out


def _system_parts(result: CompileResult, registry: Any) -> dict[str, str]:
    """Each enabled system item's own text: the system prompt compiled with only that system item
    (mode replace; message items and variables as they are), keyed by item id."""
    import copy

    from forgec.compile.assemble import compile_prompt
    from forgec.model.variables import VariableStore

    stack = result.loaded.stack
    items = stack.get("items") if isinstance(stack, dict) else None
    if not isinstance(items, list):
        return {}
    ctx = result.context
    parts: dict[str, str] = {}
    for index, item in enumerate(items):
        if not isinstance(item, dict) or item.get("role") != "system" or item.get("enabled") is False:
            continue
        alone = copy.deepcopy(stack)
        alone["mode"] = "replace"
        for other, it in enumerate(alone["items"]):
            if other != index and isinstance(it, dict) and it.get("role") == "system":
                it["enabled"] = False
        compiled = compile_prompt(alone, ctx.runtime(), VariableStore.fresh(ctx.session_variables), registry=registry)
        parts[str(item.get("id"))] = compiled.system.prompt
    return parts


def _system_sources(a: CompileResult, b: CompileResult, registry: Any) -> str:
    """``items "role" (changed), "guidelines" (removed)``: which system items the change comes from."""
    pa, pb = _system_parts(a, registry), _system_parts(b, registry)
    notes = []
    for item_id in [*pa, *(k for k in pb if k not in pa)]:
        if item_id not in pb:
            notes.append(f'"{item_id}" (removed)')
        elif item_id not in pa:
            notes.append(f'"{item_id}" (added)')
        elif pa[item_id] != pb[item_id]:
            notes.append(f'"{item_id}" (changed)')
    if not notes:
        return "system prompt (base prompt or mode)"
    return "system items " + ", ".join(notes)


def diff_prompts(
    a: CompileResult, b: CompileResult, *, label_a: str, label_b: str, context: str, registry: Any = None
) -> PromptDiff:
    """Compare two compiles message by message (see the module docstring); a changed system prompt
    names the system items it comes from (``registry``: the run's plugin macros and slots)."""
    result = PromptDiff(label_a, label_b, context)
    sys_a, sys_b = a.system_prompt, b.system_prompt
    status = "equal" if sys_a == sys_b else "changed"
    source = "system prompt" if status == "equal" else _system_sources(a, b, registry)
    result.changes.append(MessageChange(status, "system", -1, -1, source, source, sys_a, sys_b))
    ea, eb = _entries(a), _entries(b)
    keys_a = [(role, text) for role, text, _ in ea]
    keys_b = [(role, text) for role, text, _ in eb]
    matcher = difflib.SequenceMatcher(a=keys_a, b=keys_b, autojunk=False)
    for op, a0, a1, b0, b1 in matcher.get_opcodes():
        if op == "equal":
            for i, j in zip(range(a0, a1), range(b0, b1), strict=True):
                result.changes.append(MessageChange("equal", ea[i][0], i, j, ea[i][2], eb[j][2], ea[i][1], eb[j][1]))
            continue
        paired = min(a1 - a0, b1 - b0) if op == "replace" else 0
        for k in range(paired):
            i, j = a0 + k, b0 + k
            role = eb[j][0] if ea[i][0] == eb[j][0] else f"{ea[i][0]} -> {eb[j][0]}"
            result.changes.append(MessageChange("changed", role, i, j, ea[i][2], eb[j][2], ea[i][1], eb[j][1]))
        for i in range(a0 + paired, a1):
            result.changes.append(MessageChange("removed", ea[i][0], i, None, ea[i][2], "", ea[i][1], ""))
        for j in range(b0 + paired, b1):
            result.changes.append(MessageChange("added", eb[j][0], None, j, "", eb[j][2], "", eb[j][1]))
    return result


def stack_at_revision(path: str, revision: str) -> tuple[bytes, str]:
    """The bytes of the stack file ``path`` at git ``revision`` (``git show REV:./path``, run in the
    file's folder), and a label ``path@REV``.  Raises :class:`InputError` when git cannot give it."""
    import os
    import subprocess

    if not revision or revision.startswith("-"):  # never an option of git show (--output=FILE writes a file)
        raise InputError(f"not a git revision: {revision!r}", path=path)
    folder = os.path.dirname(os.path.abspath(path)) or "."
    name = os.path.basename(path)
    try:
        done = subprocess.run(
            ["git", "show", f"{revision}:./{name}"], cwd=folder, capture_output=True, timeout=60, check=False
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise InputError(f"cannot run git to read {path} at {revision}: {exc}", path=path) from exc
    if done.returncode != 0:
        reason = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise InputError(f"git cannot show {path} at {revision}: {reason[-1] if reason else 'failed'}", path=path)
    return done.stdout, f"{path}@{revision}"


# --- the four provider bodies -------------------------------------------------------------------

_ROWS = (
    ("messages", "messages sent"),
    ("dropped", "compiled messages not sent / merged"),
    ("roles", "roles in order"),
    ("custom", "custom messages become"),
    ("thinking", "thinking level (after clamp)"),
    ("tool_ids", "tool-call ids"),
    ("images", "images"),
    ("cache", "cache markers"),
    ("cap", "output-token cap"),
    ("error", "pi-ai error"),
)


@dataclass(slots=True)
class TargetsDiff:
    """One compile's bodies for the four APIs, described row by row (:data:`_ROWS`)."""

    label: str
    context: str
    models: dict[str, str]
    rows: dict[str, dict[str, str]]
    bodies: dict[str, Any]

    @staticmethod
    def row_titles() -> tuple[tuple[str, str], ...]:
        return _ROWS

    def differing_rows(self) -> list[str]:
        return [key for key, _ in _ROWS if len(set(self.rows[key].values())) > 1]

    def to_json(self) -> dict[str, Any]:
        return {
            "stack": self.label,
            "context": self.context,
            "models": self.models,
            "rows": {key: self.rows[key] for key, _ in _ROWS},
            "differs": self.differing_rows(),
        }


def _body_messages(api: str, body: dict[str, Any]) -> list[Any]:
    if api == "anthropic-messages":
        return list(body.get("messages") or [])
    if api == "google-generative-ai":
        return list(body.get("contents") or [])
    if api == "openai-responses":
        return list(body.get("input") or [])
    return list(body.get("messages") or [])


def _role_of(api: str, item: Any) -> str:
    if not isinstance(item, dict):
        return "?"
    if api == "openai-responses" and "role" not in item:
        return str(item.get("type", "?"))
    return str(item.get("role", "?"))


def _walk(value: Any) -> list[Any]:
    out, todo = [], [value]
    while todo:
        node = todo.pop()
        out.append(node)
        if isinstance(node, dict):
            todo.extend(node.values())
        elif isinstance(node, list):
            todo.extend(node)
    return out


def _tool_ids(api: str, body: dict[str, Any]) -> set[str]:
    ids: set[str] = set()
    for node in _walk(body):
        if not isinstance(node, dict):
            continue
        if (api == "anthropic-messages" and node.get("type") == "tool_use" and isinstance(node.get("id"), str)) or (api == "openai-completions" and node.get("type") == "function" and isinstance(node.get("id"), str)):
            ids.add(node["id"])
        elif api == "openai-responses" and node.get("type") == "function_call" and isinstance(node.get("call_id"), str):
            ids.add(node["call_id"])
        elif api == "google-generative-ai" and isinstance(node.get("functionCall"), dict):
            fid = node["functionCall"].get("id")
            if isinstance(fid, str):
                ids.add(fid)
    return ids


def _images(api: str, body: dict[str, Any]) -> str:
    count = 0
    for node in _walk(body):
        if isinstance(node, dict) and (
            node.get("type") in ("image", "image_url", "input_image") or "inlineData" in node
        ):
            count += 1
    return f"{count} image part(s)" if count else "none"


def _cap(body: dict[str, Any]) -> str:
    for key in ("max_tokens", "max_completion_tokens", "max_output_tokens"):
        if key in body:
            return f"{key} {body[key]}"
    config = body.get("config")
    if isinstance(config, dict) and "maxOutputTokens" in config:
        return f"maxOutputTokens {config['maxOutputTokens']}"
    return "none"


def diff_targets(result: CompileResult, *, label: str, context: str, env: Environment | None = None) -> TargetsDiff:
    """The four provider bodies of ``result`` side by side (see the module docstring)."""
    from forgec.emit import build_request
    from forgec.emit.convert import convert_to_llm

    catalog = env.catalog if env is not None and env.catalog_files else None
    prompt = result.request_prompt()
    llm = convert_to_llm(prompt.messages)
    original_ids: set[str] = set()
    for msg in llm:
        content = msg.get("content")
        for part in content if isinstance(content, list) else []:
            if isinstance(part, dict) and part.get("type") == "toolCall" and isinstance(part.get("id"), str):
                original_ids.add(part["id"])
    customs = sum(1 for m in prompt.messages if isinstance(m, dict) and m.get("role") == "custom")
    rows: dict[str, dict[str, str]] = {key: {} for key, _ in _ROWS}
    models: dict[str, str] = {}
    bodies: dict[str, Any] = {}
    for api in API_ORDER:
        catalog_model = catalog.default_for(api) if catalog is not None else None
        built = build_request(api, prompt, catalog_model, catalog=catalog)
        models[api] = built.model.key
        rows["thinking"][api] = built.thinking_level + (
            f" (asked {prompt.thinking_level})" if (prompt.thinking_level or "off") != built.thinking_level else ""
        )
        rows["error"][api] = built.error or "none"
        body = built.body or {}
        bodies[api] = built.body
        sent = _body_messages(api, body)
        system_inline = 1 if api.startswith("openai") and sent and _role_of(api, sent[0]) in ("system", "developer") else 0
        rows["messages"][api] = str(len(sent) - system_inline) + (" + system message" if system_inline else "")
        delta = len(llm) - (len(sent) - system_inline)
        rows["dropped"][api] = f"{len(result.messages) - len(llm)} not sent" if len(result.messages) != len(llm) else ""
        merged = f"{delta} fewer items than pi-ai messages" if delta > 0 else (f"{-delta} more items (split)" if delta < 0 else "")
        rows["dropped"][api] = ", ".join(x for x in (rows["dropped"][api], merged) if x) or "none"
        rows["roles"][api] = " ".join(_role_of(api, m) for m in sent) or "(none)"
        rows["custom"][api] = "user" if customs else "(no custom messages)"
        body_ids = _tool_ids(api, body)
        rewritten = len({i for i in original_ids if i not in body_ids}) if original_ids else 0
        if not original_ids:
            rows["tool_ids"][api] = "(no tool calls)"
        elif not body_ids:
            rows["tool_ids"][api] = "not sent (calls matched by name)"
        else:
            rows["tool_ids"][api] = f"{rewritten} of {len(original_ids)} rewritten"
        rows["images"][api] = _images(api, body)
        markers = sum(1 for node in _walk(body) if isinstance(node, dict) and "cache_control" in node)
        key = body.get("prompt_cache_key")
        rows["cache"][api] = (f"{markers} cache_control" if markers else "") + (
            f"{', ' if markers else ''}prompt_cache_key" if key is not None else ""
        ) or "none"
        rows["cap"][api] = _cap(body)
    return TargetsDiff(label, context, models, rows, bodies)


# --- the workflows the command line calls ----------------------------------------------------------


def _context_label(context: Any) -> str:
    return str(context) if context is not None else "built-in sample context"


def diff_stacks(stack_a: Any, stack_b: Any, context: Any = None, *, env: Environment | None = None) -> PromptDiff:
    """Compile two stacks (paths, data or loaded stacks) under one context and compare them."""
    from forgec.analysis import require_parsed
    from forgec.codecs.context import load_context
    from forgec.report import compile_inputs, load_inputs

    ctx = load_context(context)
    inputs_a, inputs_b = load_inputs(stack_a, ctx, env=env), load_inputs(stack_b, ctx, env=env)
    require_parsed(inputs_a.loaded, str(stack_a))
    require_parsed(inputs_b.loaded, str(stack_b))
    a, b = compile_inputs(inputs_a, env=env), compile_inputs(inputs_b, env=env)
    registry = env.registry if env is not None else None
    return diff_prompts(a, b, label_a=str(stack_a), label_b=str(stack_b), context=_context_label(context), registry=registry)


def diff_revision(path: str, revision: str, context: Any = None, *, env: Environment | None = None) -> PromptDiff:
    """Compare the stack file ``path`` at git ``revision`` (A) with the file as it is now (B)."""
    import os

    from forgec.codecs.stack import load_stack_bytes

    raw, label = stack_at_revision(path, revision)
    slots = env.supported_slots if env is not None else None
    old = load_stack_bytes(raw, os.path.basename(path), path=label, supported_slots=slots)
    result = diff_stacks(old, path, context, env=env)
    result.label_a, result.label_b = label, str(path)
    return result


def diff_stack_targets(stack: Any, context: Any = None, *, env: Environment | None = None) -> TargetsDiff:
    """Compile ``stack`` and compare the four provider bodies (:func:`diff_targets`)."""
    from forgec.analysis import require_parsed
    from forgec.report import compile_inputs, load_inputs

    inputs = load_inputs(stack, context, env=env)
    require_parsed(inputs.loaded, str(stack))
    return diff_targets(compile_inputs(inputs, env=env), label=str(stack), context=_context_label(context), env=env)
