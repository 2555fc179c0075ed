"""``forgec.preview``: the open stack compiled against the workspace's context, for a side panel.

The same workflow as ``forgec preview --format json`` (:func:`forgec.report.load_inputs` and
:func:`forgec.report.compile_inputs`), on the editor's unsaved text: the stack and its folder, and
the context (the command's argument, else the client's ``initializationOptions.context``, else the
built-in sample context).  The answer is plain JSON an editor can render: the system prompt, the
messages, and the compile's diagnostics.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from forgec.lsp.project import Project

__all__ = ["preview"]


def preview(project: Project, path: Path, context: Path | None = None) -> dict[str, Any]:
    """``{stackId, usable, systemPrompt, messages, diagnostics, context}``, or ``{error}`` when
    the stack or the context cannot be used."""
    from forgec.errors import ForgecError
    from forgec.report import compile_inputs, load_inputs
    from forgec.source.overlay import overlay

    env = project.environment(path)
    chosen = context if context is not None else project.context
    try:
        with overlay(project.unsaved()):
            inputs = load_inputs(path, str(chosen) if chosen is not None else None, env=env)
            result = compile_inputs(inputs, env=env)
    except ForgecError as error:
        return {"error": str(error)}
    report = result.to_report()
    return {
        "stackId": result.loaded.stack_id,
        "usable": result.loaded.usable,
        "context": str(chosen) if chosen is not None else "<built-in sample context>",
        "systemPrompt": result.system_prompt,
        "messages": report["messages"]["messages"],
        "diagnostics": [
            {
                "code": d.code,
                "level": d.level,
                "message": d.message,
                **({"itemId": d.item_id} if d.item_id else {}),
            }
            for d in result.diagnostics
        ],
    }
