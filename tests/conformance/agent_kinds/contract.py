"""The ``contract`` kind: the delegation contract's functions called step by step (profiles-exec.md
§3-§4; the agent-cases README, *contract*).

``input.json`` holds ``defs`` (named values) and ``steps`` ``{op, args, saveAs?}``.  Inside ``args``
an object ``{"$ref": name, "$pointer"?: JSON pointer, "$patch"?: [JSON Patch add/remove/replace]}``
is a deep copy of a def or of an earlier step's saved result (``$ref`` s inside ``$patch`` values are
resolved first).  Each step runs the library function its ``op`` names (the table :data:`OPS`) and
gives ``{op, result}`` or, when the reference throws, ``{op, threw: {name, message}}`` -- the
exception is mapped by :func:`forgec.execute.contract.thrown_as_js`, and anything that function does
not know is a bug and propagates.  Values come from forgec's library only; this module lays out
inputs and shapes the document.
"""

from __future__ import annotations

import copy
import os
from collections.abc import Callable
from typing import Any

from forgec.codecs.profile import LoadedProfile
from forgec.codecs.stack import LoadedStack
from forgec.diagnostics import Diagnostic
from forgec.execute import contract as c
from forgec.execute.host import (
    ContractDiagnostic,
    Registrations,
    collect_macro_command_names,
    collect_prompt_dependencies,
    resolve_host_profile,
    validate_agent_profile_snapshot,
)
from forgec.js.values import UNDEFINED

#: the code the loaded JSON diagnostics get (it never reaches the output: host resolution re-codes them)
_LOADED_CODE = "FG000"


def run(case: Any) -> dict[str, Any]:
    spec = case.input if isinstance(case.input, dict) else {}
    names: dict[str, Any] = dict(spec.get("defs") or {})
    steps_out: list[dict[str, Any]] = []
    for step in spec.get("steps") or []:
        op = step["op"]
        args = _resolve(step.get("args") or {}, names)
        entry: dict[str, Any] = {"op": op}
        try:
            result = _shape(OPS[op](args))
        except BaseException as exc:
            mapped = c.thrown_as_js(exc)
            if mapped is None:
                raise
            entry["threw"] = {"name": mapped[0], "message": mapped[1]}
        else:
            entry["result"] = result
            if "saveAs" in step:
                names[step["saveAs"]] = copy.deepcopy(result)
        if "saveAs" in step:
            entry["saveAs"] = step["saveAs"]
        steps_out.append(entry)
    return {"steps": steps_out}


# --- $ref / $pointer / $patch ---------------------------------------------------------------------------


def _resolve(value: Any, names: dict[str, Any], seen: set[int] | None = None) -> Any:
    """``value`` with every ``$ref`` object replaced, in place (the decoded input is this case's own;
    cyclic and shared values of ``$special`` stay as they are)."""
    seen = set() if seen is None else seen
    if isinstance(value, dict) and type(value) is dict and "$ref" in value:
        target = copy.deepcopy(names[value["$ref"]])
        if "$pointer" in value:
            target = _pointer(target, value["$pointer"])
        for operation in value.get("$patch") or []:
            operation = {k: (_resolve(v, names, seen) if k == "value" else v) for k, v in operation.items()}
            target = _apply_patch(target, operation)
        return target
    if id(value) in seen or not isinstance(value, (list, dict)):
        return value
    seen.add(id(value))
    if isinstance(value, list):
        for index, item in enumerate(value):
            value[index] = _resolve(item, names, seen)
    else:
        for key, item in list(value.items()):
            value[key] = _resolve(item, names, seen)
    return value


def _tokens(pointer: str) -> list[str]:
    if pointer == "":
        return []
    return [t.replace("~1", "/").replace("~0", "~") for t in pointer.split("/")[1:]]


def _step(container: Any, token: str) -> Any:
    if isinstance(container, list):
        return container[int(token)] if token.isdigit() and int(token) < len(container) else UNDEFINED
    if isinstance(container, dict):
        return container.get(token, UNDEFINED)
    return UNDEFINED


def _pointer(value: Any, pointer: str) -> Any:
    for token in _tokens(pointer):
        value = _step(value, token)
    return value


def _apply_patch(document: Any, operation: dict[str, Any]) -> Any:
    tokens = _tokens(operation["path"])
    op = operation["op"]
    if not tokens:
        return copy.deepcopy(operation.get("value")) if op in ("add", "replace") else UNDEFINED
    parent = document
    for token in tokens[:-1]:
        parent = _step(parent, token)
    last = tokens[-1]
    if isinstance(parent, list):
        index = len(parent) if last == "-" else int(last)
        if op == "add":
            parent.insert(index, operation["value"])
        elif op == "remove":
            del parent[index]
        elif op == "replace":
            parent[index] = operation["value"]
    elif isinstance(parent, dict):
        if op in ("add", "replace"):
            parent[last] = operation["value"]
        elif op == "remove":
            parent.pop(last, None)
    else:
        raise ValueError(f"cannot apply {operation} here")
    return document


# --- results ---------------------------------------------------------------------------------------


def _shape(value: Any) -> Any:
    if isinstance(value, ContractDiagnostic):
        return value.to_json()
    if isinstance(value, list):
        return [_shape(v) for v in value]
    if hasattr(value, "to_json"):
        return value.to_json()
    return value


# --- host-resolution inputs as JSON -------------------------------------------------------------------


def _loaded_profile(value: Any) -> LoadedProfile:
    path = str(value.get("filePath", ""))
    diagnostics = [
        Diagnostic(d.get("level"), d.get("message"), _LOADED_CODE, field=d.get("field"))
        for d in value.get("diagnostics") or []
    ]
    return LoadedProfile(path, os.path.basename(path), value.get("scope"), value["profile"], value["profile"], diagnostics)


def _loaded_stack(value: Any) -> LoadedStack:
    path = str(value.get("filePath", ""))
    diagnostics = [
        Diagnostic(d.get("level"), d.get("message"), _LOADED_CODE, item_id=d.get("itemId"))
        for d in value.get("diagnostics") or []
    ]
    return LoadedStack(path, os.path.basename(path), value.get("scope"), value["stack"], value["stack"], diagnostics)


def _registrations(value: Any) -> Registrations | None:
    return Registrations.from_json(value) if value is not UNDEFINED and value is not None else None


def _resolve_host(args: dict[str, Any]) -> Any:
    stacks = [_loaded_stack(s) for s in args.get("promptStacks") or []]
    resolution = resolve_host_profile(_loaded_profile(args["loaded"]), stacks, _registrations(args.get("registrations", UNDEFINED)))
    return resolution.to_json()


def _dependencies(args: dict[str, Any]) -> Any:
    found, missing, diagnostics = collect_prompt_dependencies(args["stack"], _registrations(args.get("registrations", UNDEFINED)))
    return {"dependencies": found, "missingDependencies": missing, "diagnostics": [d.to_json() for d in diagnostics]}


def _a(args: Any, name: str) -> Any:
    """A named argument; a missing one (or one of a non-object) is ``undefined``."""
    return args.get(name, UNDEFINED) if isinstance(args, dict) else UNDEFINED


def _prepare(args: dict[str, Any]) -> Any:
    given = _a(args, "input")
    return c.prepare_subagent_host_plan(_a(given, "request"), _a(given, "snapshot"), _a(given, "preflight"), _a(given, "runtime"))


def _create_plan(args: dict[str, Any]) -> Any:
    given = _a(args, "input")
    return c.create_agent_execution_plan(
        run_id=_a(given, "runId"),
        request=_a(given, "request"),
        snapshot=_a(given, "snapshot"),
        preflight=_a(given, "preflight"),
        preparation=_a(given, "preparation"),
        runtime=_a(given, "runtime"),
        conversation_fingerprint=_a(given, "conversationFingerprint"),
        execution_fingerprint=_a(given, "executionFingerprint"),
    )


def _response(args: dict[str, Any]) -> Any:
    context = _a(args, "context")
    context = context if isinstance(context, dict) else {}
    return c.validate_agent_response(_a(args, "response"), _a(context, "request"), _a(context, "plan"))


def _runtime_execution(args: dict[str, Any]) -> Any:
    value = next(iter(args.values()), UNDEFINED) if len(args) == 1 else _a(args, "plan")
    return c.execution_fingerprint(value)


def _with_path(function: Callable[..., Any], default: str) -> Callable[[dict[str, Any]], Any]:
    return lambda a: function(_a(a, "value"), a.get("path", default))


OPS: dict[str, Callable[[dict[str, Any]], Any]] = {
    "let": lambda a: _a(a, "value"),
    "canonicalSubagentJson": lambda a: c.canonical_subagent_json(_a(a, "value")),
    "subagentFingerprint": lambda a: c.subagent_fingerprint(_a(a, "value")),
    "subagentSourceProfileFingerprint": lambda a: c.source_profile_fingerprint(_a(a, "profile")),
    "subagentPromptStackFingerprint": lambda a: c.prompt_stack_fingerprint(_a(a, "stack")),
    "subagentPromptRuntimeFingerprint": lambda a: c.prompt_runtime_fingerprint(_a(a, "runtime")),
    "subagentExecutionFingerprint": lambda a: c.execution_fingerprint(_a(a, "plan")),
    "runtime.conversationFingerprint": lambda a: c.conversation_fingerprint(_a(a, "conversation")),
    "runtime.executionFingerprint": _runtime_execution,
    "validateAgentRequest": lambda a: c.validate_agent_request(_a(a, "value")),
    "validateAgentProfileSnapshot": lambda a: validate_agent_profile_snapshot(_a(a, "value")),
    "validateBackendPreflight": lambda a: c.validate_backend_preflight(_a(a, "value"), _a(a, "request"), _a(a, "snapshot")),
    "validatePreflightAgainstRequest": lambda a: c.validate_preflight_against_request(_a(a, "preflight"), _a(a, "request")),
    "validatePreparationRuntime": lambda a: c.validate_preparation_runtime(
        _a(a, "value"), a.get("path", "runtime"), None, a.get("expectedFidelity") or None
    ),
    "negotiateSubagentTools": lambda a: c.negotiate_subagent_tools(_a(a, "catalog"), _a(a, "policy"), _a(a, "access")),
    "budgetSubagentContext": lambda a: c.budget_subagent_context(_a(a, "context")),
    "renderSubagentSelectedContext": lambda a: c.render_subagent_selected_context(_a(a, "items")),
    "prepareSubagentInitialMessages": lambda a: c.prepare_subagent_initial_messages(_a(a, "request"), _a(a, "promptStackMessages")),
    "createProtectedSubagentTask": lambda a: c.create_protected_subagent_task(_a(a, "input")),
    "appendProtectedSubagentTask": lambda a: c.append_protected_subagent_task(_a(a, "messages"), _a(a, "input")),
    "isProtectedSubagentTaskPreserved": lambda a: c.is_protected_subagent_task_preserved(_a(a, "messages"), _a(a, "input")),
    "createAgentExecutionPlan": _create_plan,
    "validateAgentExecutionPlan": lambda a: c.validate_agent_execution_plan(_a(a, "plan"), _a(a, "request")),
    "validateAgentResponse": _response,
    "validateSubagentArtifactReference": _with_path(c.validate_subagent_artifact_reference, "artifact"),
    "validateSubagentTraceReference": _with_path(c.validate_subagent_trace_reference, "trace"),
    "resolveSubagentHostProfile": _resolve_host,
    "collectMacroCommandNames": lambda a: collect_macro_command_names(_a(a, "text")),
    "collectSubagentPromptDependencies": _dependencies,
    "prepareSubagentHostPlan": _prepare,
}
