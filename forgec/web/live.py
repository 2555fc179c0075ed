"""Live results for the text in the editor: findings, compile, provider body, fingerprint, diff.

Each is the library workflow the command line runs, on text held in memory, so the editor shows
what ``forgec validate``, ``preview``, ``compile --redact`` and ``fingerprint`` would print for the
same file:

* findings: :func:`forgec.lint.lint_targets` on a standard-input target named like the file, then
  the run's rule selection (:func:`forgec.lint.select_findings`) and ``validate --format json``'s
  document;
* the compile: :func:`forgec.report.compile_report` against the chosen context (the built-in
  sample by default), with each message's source;
* the provider body for one API target (:func:`forgec.emit.build_request`), redacted by
  :func:`forgec.emit.redact.capture_payload` before it leaves the server;
* the stack's ``sha256:v1`` fingerprint, and a unified diff of the compiled prompt against the
  same compile of the saved file.
"""

from __future__ import annotations

import difflib
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from forgec.codecs.context import Context
    from forgec.environment import Environment

__all__ = ["analyze", "findings", "load_context_file", "prompt_text"]


def findings(env: Environment, text: str, file_name: str) -> list[dict[str, Any]]:
    """``forgec validate``'s findings for ``text`` as the file ``file_name`` (JSON document rows)."""
    from forgec.lint import lint_targets, select_findings
    from forgec.output.json_format import document
    from forgec.settings import RuleSelection
    from forgec.workspace import Target

    results = lint_targets(
        [Target(display=file_name, stdin=True)], env=env,
        read_stdin=lambda: text.encode("utf-8"), stdin_filename=file_name,
    )  # fmt: skip
    report = select_findings(results, RuleSelection(env.settings), strict=env.settings.strict)
    files = document(report)["files"]
    return list(files[0]["diagnostics"]) if files else []


def load_context_file(path: Path | None) -> Context:
    """A context file of the project, or the built-in sample context (``None``)."""
    from forgec.codecs.context import load_context

    return load_context(path)


def _compile(env: Environment, text: str, file_name: str, context: Context) -> dict[str, Any] | None:
    """The compile report of ``text``, or None when the text does not parse (pi-forge would
    compile its fallback stack, which would look as if the user's stack had compiled)."""
    from forgec.codecs.stack import load_stack_data
    from forgec.report import ReportInputs, compile_inputs

    loaded = load_stack_data(text, file_name, supported_slots=env.supported_slots)
    if loaded.document is None or not loaded.document.parsed:
        return None
    result = compile_inputs(ReportInputs(loaded, (), context), env=env)
    report = result.to_report()
    report["_result"] = result
    return report


def prompt_text(report: dict[str, Any] | None) -> str:
    """The compiled prompt as the diff shows it: the system prompt, then each message."""
    if report is None:
        return ""
    lines = ["# system", report["system"]["prompt"]]
    for message, source in zip(report["messages"]["messages"], report["messages"]["sources"], strict=False):
        lines.append(f"# {message.get('role')} ({_source_label(source)})")
        lines.append(_content_text(message.get("content")))
    return "\n".join(lines) + "\n"


def _source_label(source: Any) -> str:
    if isinstance(source, dict):
        return ", ".join(f"{k}={v}" for k, v in source.items() if isinstance(v, (str, int)))
    return str(source)


def _content_text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(part.get("text", "") if isinstance(part, dict) else str(part) for part in content)
    return "" if content is None else str(content)


def _payload(env: Environment, report: dict[str, Any], target: str) -> dict[str, Any]:
    """The redacted provider body ``target`` would receive (or why there is none)."""
    from forgec.emit import build_request
    from forgec.emit.redact import capture_payload
    from forgec.errors import ForgecError

    result = report["_result"]
    try:
        built = build_request(target, result.request_prompt(), catalog=env.catalog if env.catalog_files else None)
    except ForgecError as exc:
        return {"target": target, "error": str(exc)}
    notes = [{"code": d.code, "level": d.level, "message": d.message} for d in built.diagnostics]
    if built.body is None:
        return {"target": target, "error": built.error or "no body", "notes": notes}
    capture = capture_payload(built.body, deep=True)  # as `forgec compile --redact` prints it
    return {"target": target, "model": built.model.key, "text": capture.text, "notes": notes}


def analyze(
    env: Environment,
    text: str,
    file_name: str,
    *,
    context: Context,
    target: str | None = None,
    saved_text: str | None = None,
) -> dict[str, Any]:
    """Everything the editor's results panel shows for ``text`` (see the module docstring)."""
    report = _compile(env, text, file_name, context)
    out: dict[str, Any] = {"findings": findings(env, text, file_name), "parsed": report is not None}
    if report is not None:
        out["system"] = report["system"]["prompt"]
        out["messages"] = [
            {"role": m.get("role"), "text": _content_text(m.get("content")), "source": s}
            for m, s in zip(report["messages"]["messages"], report["messages"]["sources"], strict=False)
        ]
        out["compileDiagnostics"] = report["system"]["diagnostics"] + report["messages"]["diagnostics"]
        out["fingerprint"] = (report.get("fingerprints") or {}).get("promptStack")
        out["stackId"] = report["validation"].get("stackId")
        if target:
            out["payload"] = _payload(env, report, target)
    if saved_text is not None:
        saved = _compile(env, saved_text, file_name, context)
        diff = difflib.unified_diff(
            prompt_text(saved).splitlines(keepends=True), prompt_text(report).splitlines(keepends=True),
            "saved", "editor",
        )  # fmt: skip
        out["diff"] = "".join(diff)
    return out
