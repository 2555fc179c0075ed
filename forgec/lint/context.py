"""Context files linted like stacks: the format's problems and the shapes a provider refuses.

A context (``--context`` of ``preview``, ``compile`` and ``snapshot``) is forgec's own format, so
its format errors are refusals (FG011, :mod:`forgec.codecs.context`).  The format lets a message be
any object, though, and some messages pass it only to break every provider body later (an
assistant turn without ``usage``, an image without ``data``): :mod:`forgec.emit.hazards` knows
those shapes; this module puts them at the file's line and column, so ``forgec validate ctx.yaml``
and ``forgec preview --context ctx.yaml`` report them before ``compile`` reaches them.

``validate`` recognises a context by its fields (:func:`looks_like_context`): a file outside a
project's stack folders with ``messages``, ``baseSystemPrompt``, ``now`` ... and no ``items``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from forgec.diagnostics import Diagnostic
from forgec.diagnostics.findings import FileResult

if TYPE_CHECKING:
    from forgec.source import SourceDocument

__all__ = ["context_file_findings", "hazard_findings", "lint_context_file", "looks_like_context"]

#: fields only a context has (``tools``, ``variables`` and ``model`` are shared with, or a typo of,
#: stack fields, so they do not decide)
_CONTEXT_ONLY = frozenset(
    {
        "messages",
        "baseSystemPrompt",
        "appendSystemPrompt",
        "contextFiles",
        "now",
        "timezone",
        "cwd",
        "skills",
        "finalizeMessages",
        "latestUserMessage",
        "thinkingLevel",
    }
)
_STACK_ONLY = frozenset({"items", "schemaVersion", "id", "mode", "defaults", "regex"})


def looks_like_context(raw: Any) -> bool:
    """An object with a context-only field and no stack field (a stack without ``items`` still
    has its ``id`` or ``schemaVersion``; a context has neither)."""
    return isinstance(raw, dict) and not _STACK_ONLY.intersection(raw) and bool(_CONTEXT_ONLY.intersection(raw))


def hazard_findings(data: Any, document: SourceDocument | None = None) -> list[Diagnostic]:
    """FG804-FG806 for the messages of a context's data, positioned when ``document`` is given.

    A finding about a field points at the field's value; one about a missing field, at the
    message's ``role`` (one token that names the message), else at the message.
    """
    from forgec.emit.hazards import message_hazards
    from forgec.source import resolve_spans

    messages = data.get("messages") if isinstance(data, dict) else None
    if not isinstance(messages, list):
        return []
    out = []
    for hazard in message_hazards(messages):
        msg = messages[hazard.index]
        pointer: tuple[str | int, ...] = ("messages", hazard.index, *hazard.pointer)
        if isinstance(msg, dict) and len(hazard.pointer) == 1 and hazard.pointer[0] not in msg and "role" in msg:
            pointer = ("messages", hazard.index, "role")
        out.append(
            Diagnostic(
                "error",
                f"Message {hazard.index + 1}: {hazard.reason}.",
                hazard.code,
                pointer=pointer,
                extra=True,
            )
        )
    return resolve_spans(out, document)


def context_file_findings(path: str | Path) -> list[Diagnostic]:
    """The hazards of a context file that the format accepts (``preview``/``compile --context``).

    The file was already loaded (so it is readable and valid); it is read again only for positions.
    """
    from forgec.source import read_source

    document = read_source(path, allow_bom=True)
    if not document.parsed:
        return []
    return hazard_findings(document.data, document)


def lint_context_file(path: Path, display: str) -> FileResult:
    """``validate``'s result for a context file: its refusals (FG011 and the reader's FG0xx, each
    positioned), else its hazards."""
    from forgec.codecs.context import ContextError, load_context
    from forgec.source import read_source

    try:
        load_context(path)
    except ContextError as exc:
        document = read_source(path, allow_bom=True)
        return FileResult(display, "context", None, False, list(exc.problems), document.text)
    document = read_source(path, allow_bom=True)
    findings = hazard_findings(document.data, document)
    return FileResult(display, "context", None, not findings, findings, document.text)
