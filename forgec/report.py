"""The compile report: the document a conformance case's ``expected.json`` holds (conformance.md
*Output*), built the way the reference runner builds it (context-format.md, *How the reference runner
builds the runtime*).

It is forgec's stable machine interface (``forgec preview --format json``), so its shape follows the
corpus exactly: ``validation`` (the loader's view of the file, with the other files of its stack
folder), ``system``, ``messages``, ``variables`` (the store right after the messages compile,
§16.1), ``fingerprints`` and, when the context lists ``finalizeMessages``, ``finalize``.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from forgec.codecs.context import Context, load_context
from forgec.codecs.stack import load_stack_data, load_stack_file, load_stack_folder
from forgec.compile.assemble import compile_prompt
from forgec.compile.passes.regex import RegexBudget, finalize_message
from forgec.diagnostics import Diagnostic
from forgec.fingerprint import stack_fingerprint
from forgec.model.variables import VariableStore

__all__ = ["ReportInputs", "compile_report", "load_for_report"]

#: the names of pi-forge's project stack directories (compile-core.md §10.1), primary first
_STACK_DIRS = ((".pi", "forge", "prompt-stacks"), (".pi", "prompt-stacks"))


def _pi_list(diagnostics: Any) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for d in diagnostics or ():
        if isinstance(d, Diagnostic):
            if not d.extra:
                out.append(d.to_pi())
        elif isinstance(d, dict):
            out.append(d)
    return out


def _stack_folder_group(path: Path) -> list[Path] | None:
    """The directory group a stack file belongs to, when it sits in a project stack folder."""
    parent = path.parent
    for parts in _STACK_DIRS:
        if tuple(parent.parts[-len(parts) :]) == parts:
            root = parent
            for _ in parts:
                root = root.parent
            return [root.joinpath(*p) for p in _STACK_DIRS]
    return None


def _same_file(loaded: Any, path: Path) -> bool:
    for attr in ("path", "file_path"):
        value = getattr(loaded, attr, None)
        if value:
            try:
                return Path(value).resolve() == path.resolve()
            except OSError:
                return False
    return getattr(loaded, "file_name", None) == path.name


def _load_path(path: Path, supported_slots: list[str] | None = None) -> tuple[Any, list[Any]]:
    """The loaded main file and the other files of its folder, in the loader's order (§16.15a)."""
    # the substring test spares the common case (a file outside any stack folder) the Path walk
    group = _stack_folder_group(path) if "prompt-stacks" in str(path) else None
    if group is not None:
        # pi-forge lists only ``*.json``; YAML siblings take part only when the main file is YAML
        loaded_all = load_stack_folder(
            group, scope="project", include_yaml=path.suffix != ".json", supported_slots=supported_slots
        )
        for position, loaded in enumerate(loaded_all):
            if _same_file(loaded, path):
                return loaded, loaded_all[:position] + loaded_all[position + 1 :]
    return load_stack_file(path, supported_slots=supported_slots), []


@dataclass(slots=True)
class ReportInputs:
    """What a compile report is built from: the loaded stack, its folder siblings and the context."""

    loaded: Any  # forgec.codecs.stack.LoadedStack
    others: list[Any]
    context: Any  # forgec.codecs.context.Context


def load_for_report(stack: Any, context: Any = None, *, registry: Any = None) -> ReportInputs:
    """Load a stack (path, raw data or a ``LoadedStack``) and a context (path, dict, ``Context`` or None).

    A ``Context`` that is already loaded is used as it is — a host that compiles many turns against one
    snapshot validates it once.  ``registry``'s custom slots count as supported when the stack is
    validated (§12).
    """
    slots: list[str] | None = None
    if registry is not None:
        from forgec.compile.slots import supported_slot_names

        slots = supported_slot_names(registry)
    others: list[Any] = []
    if isinstance(stack, (str, Path)):
        loaded, others = _load_path(stack if isinstance(stack, Path) else Path(stack), slots)
    elif isinstance(stack, (dict, list)) or not hasattr(stack, "stack"):
        loaded = load_stack_data(stack, "stack.json", supported_slots=slots)
    else:
        loaded = stack
    return ReportInputs(loaded, others, context if isinstance(context, Context) else load_context(context))


def _validation(loaded: Any, others: list[Any]) -> dict[str, Any]:
    section: dict[str, Any] = {
        "file": loaded.file_name,
        "stackId": loaded.stack_id,
        "usable": bool(loaded.usable),
        "diagnostics": _pi_list(loaded.diagnostics),
        "stack": loaded.stack,
    }
    if others:
        section["otherFiles"] = [
            {"file": o.file_name, "stackId": o.stack_id, "diagnostics": _pi_list(o.diagnostics)} for o in others
        ]
    return section


def _fingerprints(stack: Any) -> dict[str, Any] | None:
    try:
        return {"promptStack": stack_fingerprint(stack)}
    except (TypeError, ValueError, RecursionError):
        return None


def compile_report(
    stack: Any,
    context: Any = None,
    *,
    finalize: bool | None = None,
    payloads: bool = False,
    registry: Any = None,
) -> dict[str, Any]:
    """The compile report of ``stack`` under ``context`` (without ``payloads`` unless asked).

    ``stack``: a file path (a file inside ``.pi/forge/prompt-stacks/`` is loaded together with its
    folder, so duplicate ids and ``validation.otherFiles`` come out as the reference reports them),
    raw stack data, or a ``LoadedStack``.  ``context``: a context file path, its data, a loaded
    ``Context`` (used as it is), or None for the built-in sample context.  ``finalize``: None adds
    the section when the context has ``finalizeMessages``; True/False force it on/off.
    ``payloads=True`` adds the provider request bodies of the four reference models
    (:func:`forgec.emit.report_payloads`).  ``registry``: the custom macros and slots of trusted
    plugins (:mod:`forgec.plugins`), used by both the loader (supported slots) and the compiler.
    """
    inputs = stack if isinstance(stack, ReportInputs) else load_for_report(stack, context, registry=registry)
    return build_report(inputs, finalize=finalize, payloads=payloads, registry=registry)


def build_report(
    inputs: ReportInputs,
    *,
    finalize: bool | None = None,
    payloads: bool = False,
    registry: Any = None,
    diagnostics_out: list[Diagnostic] | None = None,
) -> dict[str, Any]:
    """The report for already loaded inputs (the preview command keeps the loaded objects).

    ``diagnostics_out`` receives the compile's :class:`Diagnostic` objects (system, then messages),
    with their codes and pointers, which the report's pi-forge-shaped lists leave out.
    """
    loaded, ctx = inputs.loaded, inputs.context
    normalised = loaded.stack
    runtime = ctx.runtime()
    store = VariableStore.fresh(ctx.session_variables)
    budget = RegexBudget()  # one regex time budget for the compile and its finalize section
    compiled = compile_prompt(normalised, runtime, store, registry=registry, regex_budget=budget)
    if diagnostics_out is not None:
        for part in (compiled.system.diagnostics, compiled.messages.diagnostics):
            diagnostics_out.extend(d for d in part or () if isinstance(d, Diagnostic))
    doc: dict[str, Any] = {
        "validation": _validation(loaded, inputs.others),
        "system": {"prompt": compiled.system.prompt, "diagnostics": _pi_list(compiled.system.diagnostics)},
        "messages": {
            "messages": compiled.messages.messages,
            "sources": compiled.messages.sources,
            "diagnostics": _pi_list(compiled.messages.diagnostics),
        },
        "variables": store.snapshot(),
    }
    fingerprints = _fingerprints(normalised)
    if fingerprints is not None:
        doc["fingerprints"] = fingerprints
    finalize_messages = getattr(ctx, "finalize_messages", None)
    if finalize is True or (finalize is None and finalize_messages is not None):
        entries = []
        for message in finalize_messages or []:
            replaced, diagnostics = finalize_message(normalised, message, budget)
            entries.append({"message": replaced, "diagnostics": _pi_list(diagnostics)})
        doc["finalize"] = entries
    if payloads:
        from forgec.emit import report_payloads  # provider bodies: imported only when asked for

        doc["payloads"] = report_payloads(doc, ctx)
    return doc
