"""``forgec cache-check``: will the provider's prompt cache hit on the next turn?

Two contexts of one session (turn 1 and turn 2) are compiled with the same stack, and each turn's
request body is built for one target exactly as ``forgec compile`` builds and prints it.  Three
answers:

* ``prefix_bytes`` -- the length of the common byte prefix of the two bodies as ``forgec compile``
  prints them (2-space JSON and a final newline, UTF-8): the number a test can check with ``cmp``;
* ``difference`` -- the first part that differs in the order the provider caches a request
  (Anthropic: tools, system, messages; Gemini: system instruction, tools, contents; OpenAI: tools,
  then the messages / input items, the system message first), compared without Anthropic's
  ``cache_control`` markers (they move to the newest message every turn and are not content), and
  the stack item that produced it: the system item whose output changed (found by compiling the
  system items one more at a time), or the message's source (a stack item, or the chat-history
  slot and the position in it);
* ``cached_share`` -- the part of turn 2's request, in characters of those cache-order parts, that
  lies before the first difference: what can be read from the cache, estimated (``cached_tokens``
  is that many characters / 4, pi-ai's estimate).  Providers cache only prefixes of roughly 1024
  tokens or more; a shorter prompt is sent uncached whatever the share says.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from forgec.environment import Environment
    from forgec.report import CompileResult, ReportInputs

__all__ = ["CacheCheck", "Difference", "body_text", "cache_check", "cache_units", "common_prefix_length"]

#: what a miss costs at each provider, in one line (shown with the first difference)
CONSEQUENCE = {
    "anthropic-messages": "Anthropic reads its cache only up to the last cache_control breakpoint whose whole "
    "prefix is unchanged (pi-ai marks the system prompt and the newest message); everything after the "
    "difference is written to the cache again at the cache-write price.",
    "google-generative-ai": "Gemini's implicit cache matches request prefixes only; everything after the "
    "difference is billed as uncached input.",
    "openai-completions": "OpenAI's automatic prompt caching matches the longest unchanged prefix (in "
    "128-token steps from 1024 tokens); everything after the difference is uncached input.",
    "openai-responses": "OpenAI's automatic prompt caching (prompt_cache_key = Pi's session id) matches the "
    "longest unchanged prefix (in 128-token steps from 1024 tokens); everything after the difference is "
    "uncached input.",
}


def body_text(body: Any) -> str:
    """A body exactly as ``forgec compile`` prints it: 2-space JSON and a newline."""
    from forgec.js.values import json_stringify

    return (json_stringify(body, 2) or "") + "\n"


def common_prefix_length(a: bytes, b: bytes) -> int:
    """The number of leading bytes ``a`` and ``b`` share."""
    limit = min(len(a), len(b))
    low, high = 0, limit
    while low < high:  # binary search on equal prefixes: bodies can be megabytes long
        mid = (low + high + 1) // 2
        if a[:mid] == b[:mid]:
            low = mid
        else:
            high = mid - 1
    return low


def _strip_cache_markers(value: Any) -> Any:
    """The body without Anthropic's ``cache_control`` markers, and a message's string content as the
    one text block pi-ai sends for the newest message (the same tokens either way)."""
    if isinstance(value, dict):
        if isinstance(value.get("content"), str) and value.get("role") in ("user", "assistant"):
            value = {**value, "content": [{"type": "text", "text": value["content"]}]}
        return {k: _strip_cache_markers(v) for k, v in value.items() if k != "cache_control"}
    if isinstance(value, list):
        return [_strip_cache_markers(v) for v in value]
    return value


def cache_units(target: str, body: dict[str, Any]) -> list[tuple[str, Any]]:
    """The parts of ``body`` in the order ``target``'s provider caches them: ``(label, value)``."""
    units: list[tuple[str, Any]] = []
    body = _strip_cache_markers(body)
    if target == "anthropic-messages":
        if "tools" in body:
            units.append(("tools", body["tools"]))
        if "system" in body:
            units.append(("system", body["system"]))
        units.extend((f"messages[{i}]", m) for i, m in enumerate(body.get("messages") or []))
    elif target == "google-generative-ai":
        config = body.get("config") if isinstance(body.get("config"), dict) else {}
        assert isinstance(config, dict)
        if "systemInstruction" in config:
            units.append(("config.systemInstruction", config["systemInstruction"]))
        if "tools" in config:
            units.append(("config.tools", config["tools"]))
        units.extend((f"contents[{i}]", m) for i, m in enumerate(body.get("contents") or []))
    else:
        key = "input" if target == "openai-responses" else "messages"
        if "tools" in body:
            units.append(("tools", body["tools"]))
        units.extend((f"{key}[{i}]", m) for i, m in enumerate(body.get(key) or []))
    return units


@dataclass(frozen=True, slots=True)
class Difference:
    """The first cache-order part that differs between the two turns, and what produced it."""

    part: str
    #: "system" (a system item), "tools" (the context's tools), "message", or "length" (turn 2 only adds)
    kind: str
    #: the stack item (or chat-history position) behind it, in words; "" when unknown
    produced_by: str
    item_id: str | None = None
    message_index: int | None = None


@dataclass(frozen=True, slots=True)
class CacheCheck:
    """The result of :func:`cache_check`."""

    target: str
    model: str
    prefix_bytes: int
    body_bytes: tuple[int, int]
    difference: Difference | None
    cached_chars: int
    total_chars: int
    errors: tuple[str, ...] = ()

    @property
    def cached_share(self) -> float:
        return self.cached_chars / self.total_chars if self.total_chars else 0.0

    @property
    def cached_tokens(self) -> int:
        return math.ceil(self.cached_chars / 4)

    def to_json(self) -> dict[str, Any]:
        diff = self.difference
        return {
            "target": self.target,
            "model": self.model,
            "prefixBytes": self.prefix_bytes,
            "bodyBytes": list(self.body_bytes),
            "firstDifference": None if diff is None else {
                "part": diff.part, "kind": diff.kind, "producedBy": diff.produced_by,
                "itemId": diff.item_id, "messageIndex": diff.message_index,
            },
            "cachedChars": self.cached_chars,
            "totalChars": self.total_chars,
            "cachedShare": round(self.cached_share, 4),
            "cachedTokensEstimate": self.cached_tokens,
            "consequence": CONSEQUENCE.get(self.target, ""),
            "errors": list(self.errors),
        }  # fmt: skip


def _without_timestamps(messages: list[Any]) -> list[Any]:
    """Compiled messages compared as the provider sees them: synthetic messages carry the turn's
    clock as ``timestamp``, which no body sends."""
    return [{k: v for k, v in m.items() if k != "timestamp"} if isinstance(m, dict) else m for m in messages]


def _system_item(first: ReportInputs, second: ReportInputs, env: Environment | None) -> tuple[str, str | None]:
    """The system item from which on the two turns' system prompts differ (compiling the system
    items one more at a time); ``("the base system prompt", None)`` when the items agree."""
    import copy

    from forgec.compile.assemble import compile_prompt
    from forgec.model.variables import VariableStore

    stack = first.loaded.stack
    items = stack.get("items") if isinstance(stack, dict) else None
    if not isinstance(items, list):
        return "", None
    registry = env.registry if env is not None else None
    system = [i for i, it in enumerate(items) if isinstance(it, dict) and it.get("role") == "system" and it.get("enabled") is not False]
    for upto in system:
        trimmed = copy.deepcopy(stack)
        for i, it in enumerate(trimmed["items"]):
            if i > upto and isinstance(it, dict):
                it["enabled"] = False
        prompts = []
        for inputs in (first, second):
            ctx = inputs.context
            compiled = compile_prompt(trimmed, ctx.runtime(), VariableStore.fresh(ctx.session_variables), registry=registry)
            prompts.append(compiled.system.prompt)
        if prompts[0] != prompts[1]:
            item_id = items[upto].get("id")
            return f'system item "{item_id}"', item_id if isinstance(item_id, str) else None
    return "the base system prompt (the context's baseSystemPrompt, by the stack's mode)", None


def _produced_by(one: CompileResult, two: CompileResult, env: Environment | None, tools_differ: bool) -> tuple[str, str, str | None, int | None]:
    """(kind, words, item id, message index) of the first compiled difference between the turns."""
    from forgec.analysis.tokens import source_label

    if one.system_prompt != two.system_prompt:
        words, item_id = _system_item(one.inputs, two.inputs, env)
        return "system", words, item_id, None
    if tools_differ:
        return "tools", "the context's tools (their list, descriptions or parameters)", None, None
    m1, m2 = _without_timestamps(one.messages), _without_timestamps(two.messages)
    s1, s2 = one.prompt.messages.sources, two.prompt.messages.sources
    for index in range(max(len(m1), len(m2))):
        if index < len(m1) and index < len(m2) and m1[index] == m2[index]:
            continue
        if index >= len(m1):
            return "length", (f"nothing changed: turn 2 only adds messages from compiled message {index} on "
                              f"({source_label(s2[index])}), so the whole of turn 1 can be read from the cache"), None, index
        source = s2[index] if index < len(s2) else s1[index]
        before = f"; turn 1 had {source_label(s1[index])} there" if index < len(s1) and index < len(s2) and s1[index] != s2[index] else ""
        item_id = source.get("itemId") if isinstance(source, dict) else None
        return "message", f"compiled message {index}: {source_label(source)}{before}", item_id, index
    return "message", "", None, None


def _body(result: CompileResult, target: str, model: Any, catalog: Any, session_id: str | None) -> tuple[dict[str, Any] | None, str | None]:
    from forgec.emit import build_request

    built = build_request(target, result.request_prompt(session_id=session_id), model, catalog=catalog)
    return built.body, built.error


def cache_check(
    stack: Any,
    first_context: Any,
    second_context: Any,
    target: str,
    *,
    env: Environment | None = None,
    model: Any = None,
    session_id: str | None = None,
) -> CacheCheck:
    """Compile ``stack`` under two turns' contexts and compare the ``target`` bodies (see the module)."""
    from forgec.emit import resolve_model
    from forgec.js.values import js_len, json_stringify
    from forgec.report import compile_inputs, load_inputs

    catalog = env.catalog if env is not None and env.catalog_files else None
    chosen = resolve_model(target, model, catalog)
    from forgec.analysis import require_parsed

    first = load_inputs(stack, first_context, env=env)
    require_parsed(first.loaded, str(stack))
    one = compile_inputs(first, env=env)
    two = compile_inputs(load_inputs(one.loaded, second_context, env=env), env=env)
    (body1, err1), (body2, err2) = (_body(r, target, chosen, catalog, session_id) for r in (one, two))
    errors = tuple(f"turn {n}: pi-ai fails to build the request: {e}" for n, e in ((1, err1), (2, err2)) if e)
    text1 = body_text(body1).encode("utf-8", "surrogatepass") if body1 is not None else b""
    text2 = body_text(body2).encode("utf-8", "surrogatepass") if body2 is not None else b""
    prefix = common_prefix_length(text1, text2)
    units1 = cache_units(target, body1) if body1 is not None else []
    units2 = cache_units(target, body2) if body2 is not None else []
    sizes2 = [js_len(json_stringify(value) or "") for _, value in units2]
    cached, difference = 0, None
    for position, (label, value) in enumerate(units2):
        same = position < len(units1) and units1[position] == (label, value)
        if not same:
            tools_differ = any(lbl.endswith("tools") and (lbl, v) not in units1 for lbl, v in units2)
            kind, words, item_id, index = _produced_by(one, two, env, tools_differ)
            difference = Difference(label, kind, words, item_id, index)
            break
        cached += sizes2[position]
    return CacheCheck(target, chosen.key, prefix, (len(text1), len(text2)), difference, cached, sum(sizes2), errors)
