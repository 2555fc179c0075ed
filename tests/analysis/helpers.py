"""Loading a stack from data and running the static analyses on it, as ``forgec validate`` does."""

from __future__ import annotations

import json
from typing import Any

from forgec.codecs.stack import load_stack_data
from forgec.diagnostics import Diagnostic
from forgec.lint import extra_checks

CONTEXTS = __import__("pathlib").Path(__file__).parent / "contexts"


def analyses(stack: Any, registry: Any = None) -> list[Diagnostic]:
    """The FG87x/FG88x findings of a stack (data or JSON text), from the validate pipeline's checks."""
    data = json.loads(stack) if isinstance(stack, str) else stack
    loaded = load_stack_data(data, "stack.json")
    return [d for d in extra_checks(loaded, registry) if d.code.startswith(("FG87", "FG88"))]


def codes_and_items(stack: Any, registry: Any = None) -> list[tuple[str, str | None]]:
    return [(d.code, d.item_id) for d in analyses(stack, registry)]
