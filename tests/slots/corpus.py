"""Shared helper of the slot corpus test: compile the system stage of macro-free stacks.

Only what the slots decide is derived here (§6 rendering, §7 joining and modes); stacks whose system
items hold macros or whose regex rules touch the system prompt are left to the compiler's
conformance test.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from forgec.codecs.context import load_context
from forgec.diagnostics import Diagnostic, to_pi_list
from forgec.jscompat import js_trim
from forgec.slots import render_slot

CASES = Path(__file__).resolve().parents[1] / "conformance" / "cases"


def system_items(stack: dict[str, Any]) -> list[dict[str, Any]]:
    items = stack.get("items") if isinstance(stack.get("items"), list) else []
    return [
        i
        for i in items
        if isinstance(i, dict) and i.get("enabled") is not False and i.get("role") == "system"
    ]


def slot_only_case(case: Path) -> bool:
    """A stack case whose system stage needs no macro engine and no regex pass."""
    expected = json.loads((case / "expected.json").read_text(encoding="utf-8"))
    if "validation" not in expected or "system" not in expected:
        return False
    stack = expected["validation"]["stack"]
    regex = stack.get("regex")
    if isinstance(regex, dict) and regex.get("rules"):
        return False
    for item in system_items(stack):
        if item.get("kind") != "slot" and "{{" in str(item.get("content", "")):
            return False
    return True


def compile_system(case: Path) -> tuple[str, list[dict[str, Any]]]:
    """§7 over the normalised stack: slots rendered, parts trimmed and joined, mode applied."""
    expected = json.loads((case / "expected.json").read_text(encoding="utf-8"))
    stack = expected["validation"]["stack"]
    context = load_context(case / "context.json")
    runtime = context.runtime()
    store = context.variable_store()
    diagnostics: list[Diagnostic] = []
    parts = []
    for item in system_items(stack):
        if item.get("kind") == "slot":
            if item.get("slot") == "chat-history":
                diagnostics.append(
                    Diagnostic(
                        "warning",
                        "chat-history slot cannot be placed in the system prompt.",
                        "FG350",
                        item.get("id"),
                    )
                )
                continue
            text = js_trim(
                render_slot(item, stack=stack, runtime=runtime, store=store, diagnostics=diagnostics)
            )
        else:
            text = js_trim(item.get("content") or "")
        if text:
            parts.append(text)
    compiled = "\n\n".join(parts)
    base = runtime.base_system_prompt
    mode = stack.get("mode")
    if not compiled:
        diagnostics.append(
            Diagnostic("warning", "Compiled system prompt is empty; preserving base system prompt.", "FG351")
        )
        prompt = base
    elif mode == "append":
        prompt = base + "\n\n" + compiled
    elif mode == "prepend":
        prompt = compiled + "\n\n" + base
    else:
        prompt = compiled
    return prompt, to_pi_list(diagnostics)
