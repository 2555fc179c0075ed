"""Cache stability (FG870, FG871): turn-to-turn changes placed where they break the prompt cache.

Every provider caches a request as a *prefix*: Anthropic at the ``cache_control`` breakpoints pi-ai
puts on the system prompt and the last message, OpenAI automatically (requests of 1024 tokens and
more, ``prompt_cache_key`` = Pi's session id), Gemini implicitly.  Text that changes every turn is
harmless at the end of the request and expensive at its start: this check reports it in the system
prompt (FG870) and in message items before the chat-history slot (FG871), naming the item, the
source of the change and the path it took (:mod:`forgec.lint.flow`).  ``forgec cache-check``
measures the same thing on two compiled turns.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from forgec.diagnostics import Diagnostic
from forgec.lint.flow import VOLATILE, StackFlow, analyse_stack, first_uses
from forgec.rules import analyses as codes

if TYPE_CHECKING:
    from forgec.plugins import Registry

__all__ = ["lint_stack_cache"]

_SYSTEM_CONSEQUENCE = (
    "the system prompt opens every request, so the cached prefix ends here each turn: Anthropic "
    "writes a new cache entry at the system-prompt breakpoint instead of reading one, OpenAI's "
    "automatic prefix caching and Gemini's implicit cache stop matching at this byte"
)
_HISTORY_CONSEQUENCE = (
    "it comes before the chat history, so the whole history after it is sent uncached every turn "
    "(Anthropic's last-message breakpoint, OpenAI's prefix caching and Gemini's implicit cache all "
    "need an unchanged prefix)"
)


def lint_stack_cache(stack: Any, registry: Registry | None = None, flow: StackFlow | None = None) -> list[Diagnostic]:
    """FG870/FG871 findings of a stack; ``flow`` reuses an analysis already made."""
    flow = flow if flow is not None else analyse_stack(stack, registry)
    findings: list[Diagnostic] = []
    for item in flow.items:
        if item.place == "system":
            code, where, consequence = codes.VOLATILE_IN_SYSTEM, "the system prompt", _SYSTEM_CONSEQUENCE
        elif item.place == "before-history":
            code, where, consequence = codes.VOLATILE_BEFORE_HISTORY, "a message before the chat history", _HISTORY_CONSEQUENCE
        else:
            continue
        for use, more in first_uses(item.uses, VOLATILE):
            path = f" (via {use.taint.describe()})" if use.taint.path else ""
            again = f" ({more + 1} times)" if more else ""
            findings.append(
                Diagnostic(
                    "warning",
                    f'Item "{item.item_id}" puts {use.taint.source}{path} in {where}{again}; it changes every turn, '
                    f"and {consequence}. Move it after the chat-history slot.",
                    code,
                    item_id=item.item_id,
                    pointer=use.pointer,
                    offset=use.offset,
                    length=use.length,
                    extra=True,
                )
            )
    return findings
