"""The ``active-model``, ``pi-docs`` and ``chat-history`` slots (compile-core.md §6.2, §6.11, §6.12)."""

from __future__ import annotations

from forgec.compile.slots.base import SlotContext
from forgec.js.values import UNDEFINED, js_string, js_truthy
from forgec.model.runtime import PI_DOCS_FALLBACK

PI_DOCS_TEMPLATE = """\
Pi documentation (read only when the user asks about pi itself, its SDK, extensions, themes, skills, or TUI):
- Main documentation: {readme}
- Additional docs: {docs}
- Examples: {examples} (extensions, custom tools, SDK)
- When reading pi docs or examples, resolve docs/... under Additional docs and examples/... under Examples, not the current working directory
- When asked about: extensions (docs/extensions.md, examples/extensions/), themes (docs/themes.md), skills (docs/skills.md), prompt templates (docs/prompt-templates.md), TUI components (docs/tui.md), keybindings (docs/keybindings.md), SDK integrations (docs/sdk.md), custom providers (docs/custom-provider.md), adding models (docs/models.md), pi packages (docs/packages.md)
- When working on pi topics, read the docs and examples, and follow .md cross-references before implementing
- Always read pi .md files completely and follow links to related docs (e.g., tui.md for TUI API details)"""


def render_active_model(ctx: SlotContext) -> str:
    """``Current model: provider/id``; any truthy model object counts (``{}`` -> ``undefined/undefined``)."""
    model = ctx.runtime.model
    if not js_truthy(model):
        return "Current model: (none)"
    fields = model if isinstance(model, dict) else {}
    provider = js_string(fields.get("provider", UNDEFINED))
    model_id = js_string(fields.get("id", UNDEFINED))
    return f"Current model: {provider}/{model_id}"


def render_pi_docs(ctx: SlotContext) -> str:
    """Eight fixed lines naming the Pi documentation paths (fallback paths when unresolved)."""
    paths = {**PI_DOCS_FALLBACK, **(ctx.runtime.pi_docs or {})}
    return PI_DOCS_TEMPLATE.format(
        readme=js_string(paths["readme"]),
        docs=js_string(paths["docs"]),
        examples=js_string(paths["examples"]),
    )


def render_chat_history(ctx: SlotContext) -> str:
    """The conversation's insertion point: no text of its own (the message compile expands it)."""
    return ""
