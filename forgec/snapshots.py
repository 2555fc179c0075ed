"""Golden files without pytest: ``forgec snapshot check|update``.

Each stack ``<dir>/<name>`` gets the golden file ``<dir>/__golden__/<name>.prompt.md`` — in a
subfolder, because pi-forge loads every ``*.json`` file of a stack folder and must not see anything
but stacks there.  The format is the one the pytest plugin writes (:mod:`forgec.golden`), so a team can
move between the two.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from forgec.golden import diff_golden, render_golden

GOLDEN_DIR = "__golden__"
GOLDEN_SUFFIX = ".prompt.md"


def compile_for_snapshot(
    stack: Path,
    context: Path | None,
    *,
    target: str | None = None,
    model: str | None = None,
    registry: Any = None,
) -> Any:
    """The compile report of ``stack`` (or its request body for ``target``), ready to snapshot.

    ``registry``: custom macros and slots of trusted plugins (:mod:`forgec.plugins`).
    """
    from forgec.report import compile_report

    if target is None:
        return compile_report(stack, context, registry=registry)
    from forgec.codecs.context import load_context
    from forgec.emit import emit_body

    report = compile_report(stack, context, registry=registry)
    ctx = load_context(context)
    return emit_body(
        target,
        report["system"]["prompt"],
        report["messages"]["messages"],
        ctx.tools,
        ctx.thinking_level,
        model,
    )


def golden_path(stack: Path) -> Path:
    """Where the golden file of ``stack`` lives."""
    return stack.parent / GOLDEN_DIR / (stack.name + GOLDEN_SUFFIX)


@dataclass(slots=True)
class SnapshotResult:
    """The outcome for one stack: ``status`` is ``same``, ``changed``, ``missing``, ``written``."""

    stack: Path
    golden: Path
    status: str
    diff: list[str]


def render_stack(stack: Path, context: Path | None, *, registry: Any = None) -> str:
    """The golden text of one stack."""
    title = f"{stack.name}" + (f" with {context.name}" if context else " with the built-in sample context")
    return render_golden(compile_for_snapshot(stack, context, registry=registry), title=title)


def check(stack: Path, context: Path | None, *, registry: Any = None) -> SnapshotResult:
    """Compare a stack's compile output with its golden file."""
    golden = golden_path(stack)
    actual = render_stack(stack, context, registry=registry)
    if not golden.is_file():
        return SnapshotResult(stack, golden, "missing", [])
    expected = golden.read_text(encoding="utf-8")
    if expected == actual:
        return SnapshotResult(stack, golden, "same", [])
    return SnapshotResult(stack, golden, "changed", diff_golden(expected, actual))


def update(stack: Path, context: Path | None, *, registry: Any = None) -> SnapshotResult:
    """Write (atomically) the golden file when it is missing or different."""
    result = check(stack, context, registry=registry)
    if result.status == "same":
        return result
    text = render_stack(stack, context, registry=registry)
    result.golden.parent.mkdir(parents=True, exist_ok=True)
    tmp = result.golden.with_name(result.golden.name + f".tmp{os.getpid()}")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, result.golden)
    result.status = "written"
    return result
