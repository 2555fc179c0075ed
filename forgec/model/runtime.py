"""The host snapshot a compile consumes (compile-core.md §1.2).

pi-forge receives these values from the Pi SDK; forgec builds them from a context file
(:mod:`forgec.codecs.context`) or takes them from a caller.  ``options`` keeps Pi's
``BuildSystemPromptOptions`` as plain data (keys ``cwd``, ``selectedTools``, ``toolSnippets``,
``promptGuidelines``, ``appendSystemPrompt``, ``contextFiles``, ``skills``) because the compiler
reads those values with JavaScript's lenient rules and must see exactly what a host passed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

#: what the ``pi-docs`` slot prints when the Pi package cannot be resolved (conformance *Determinism*)
PI_DOCS_FALLBACK: dict[str, str] = {
    "readme": "@earendil-works/pi-coding-agent/README.md",
    "docs": "@earendil-works/pi-coding-agent/docs",
    "examples": "@earendil-works/pi-coding-agent/examples",
}


@dataclass(slots=True)
class Runtime:
    """Everything a compile reads besides the stack and the variable store."""

    #: Pi's BuildSystemPromptOptions (absent keys mean absent, as in JavaScript)
    options: dict[str, Any] = field(default_factory=dict)
    #: ``{provider, id, api}`` of the selected model, or None
    model: dict[str, Any] | None = None
    #: value of ``{{lastUserMessage}}``; None = absent
    latest_user_message: str | None = None
    #: the compile instant in epoch milliseconds
    now_ms: int = 1767225600000
    #: IANA zone in which date/time text is rendered
    time_zone: str = "UTC"
    #: paths printed by the ``pi-docs`` slot
    pi_docs: dict[str, str] = field(default_factory=lambda: dict(PI_DOCS_FALLBACK))
    #: Pi's base system prompt for this turn
    base_system_prompt: str = ""
    #: the conversation (agent messages, oldest first)
    messages: list[Any] = field(default_factory=list)
