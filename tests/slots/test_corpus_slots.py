"""The slots against the corpus: the system prompt of every stack case, derived from the slots.

For stacks whose system items need only slots and plain blocks, the whole system prompt and its
diagnostics must equal ``expected.json``.  Where a system block holds macros (the compiler's part),
the block becomes a wildcard and the slot texts must still sit in the expected prompt, in order.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from forgec.diagnostics import Diagnostic
from forgec.jscompat import js_trim
from forgec.slots import render_slot

from .corpus import CASES, compile_system, slot_only_case, system_items

STACK_CASES = sorted(
    c for c in CASES.iterdir() if (c / "expected.json").is_file() and (c / "stack.json").is_file()
)
EXACT = [c for c in STACK_CASES if slot_only_case(c)]
FOCUS = ("slot-", "policy-", "adapted-pi-style-slots")


def test_corpus_coverage() -> None:
    exact = {c.name for c in EXACT}
    assert len(exact) >= 50
    assert {"slot-tools-plain", "slot-project-context", "slot-skills-xml", "adapted-pi-style-slots"} <= exact


@pytest.mark.parametrize("case", EXACT, ids=lambda c: c.name)
def test_system_prompt_exact(case: Path) -> None:
    expected = json.loads((case / "expected.json").read_text(encoding="utf-8"))["system"]
    prompt, diagnostics = compile_system(case)
    assert prompt == expected["prompt"]
    assert diagnostics == expected["diagnostics"]


MACRO_CASES = [c for c in STACK_CASES if c.name.startswith(FOCUS) and c not in EXACT]


@pytest.mark.parametrize("case", MACRO_CASES, ids=lambda c: c.name)
def test_slot_parts_inside_macro_stacks(case: Path) -> None:
    from forgec.codecs.context import load_context

    expected = json.loads((case / "expected.json").read_text(encoding="utf-8"))
    stack = expected["validation"]["stack"]
    context = load_context(case / "context.json")
    runtime, store = context.runtime(), context.variable_store()
    # the macro engine's writes are not replayed here: take the turn scope as the compile left it
    # (these cases write turn variables only before their variables slots; expected.json sorts keys,
    # so the session scope, whose values keep their key order, comes from the context)
    store.turn = dict(expected["variables"]["turn"])
    pieces: list[str | None] = []  # None = a block the macro engine renders
    diagnostics: list[Diagnostic] = []
    for item in system_items(stack):
        if item.get("kind") != "slot":
            content = js_trim(item.get("content") or "")
            pieces.append(None if "{{" in content else content or "")
        elif item.get("slot") != "chat-history":
            pieces.append(
                js_trim(render_slot(item, stack=stack, runtime=runtime, store=store, diagnostics=diagnostics))
            )
    literal = [p for p in pieces if p]
    assert literal, "no slot text to check"
    pattern = "(?:\n\n)?.*?".join(re.escape(p) for p in literal)
    assert re.search(pattern, expected["system"]["prompt"], re.S), case.name
    pi = [d.to_pi() for d in diagnostics]
    assert all(d in expected["system"]["diagnostics"] for d in pi)
