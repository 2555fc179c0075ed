"""The ``forgec validate`` pipeline: load -> pi-forge's loader diagnostics -> forgec's extra checks.

Loading is the stack codec's job (:mod:`forgec.codecs.stack`); this module decides *what* to load
together (a file in a project stack folder is loaded with its whole folder group, so cross-file
duplicate ids come out exactly as pi-forge reports them), runs the extra checks, resolves positions
once, and applies the user's rule selection.

Rule selection and re-levelling change only what is reported and the exit code: the ``level``,
``message`` and ``itemId`` of a pi-forge diagnostic, the ``stackId`` and the ``usable`` flag always
stay pi-forge's.  A :class:`Finding` therefore carries both the diagnostic (untouched) and the
``severity`` forgec reports it at.
"""

from __future__ import annotations

import importlib
import os
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from forgec.diagnostics import Diagnostic, level_rank
from forgec.settings import RuleSelection
from forgec.workspace import Target

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = [
    "EXTRA_CHECKS",
    "FileResult",
    "Finding",
    "Report",
    "build_report",
    "lint_targets",
    "run_extra_checks",
]

#: forgec-only checks, ``"module:function"``; each is ``fn(loaded) -> list[Diagnostic]`` (extra=True).
#: Named as strings so a check's module is imported only when a stack is actually checked.
EXTRA_CHECKS: list[str] = ["forgec.compile.macros.lint:lint_stack_macros", "forgec.lint.hints:lint_stack_hints"]


@dataclass(slots=True)
class FileResult:
    """One checked file: pi-forge's view (``stack_id``, ``usable``) plus every diagnostic, in order."""

    path: str
    kind: str
    stack_id: str | None
    usable: bool | None
    diagnostics: list[Diagnostic]
    #: the file's text, for source excerpts (``None`` when it could not be read)
    text: str | None = None


@dataclass(frozen=True, slots=True)
class Finding:
    """A diagnostic as reported: the untouched diagnostic and the severity after configuration."""

    diagnostic: Diagnostic
    severity: str

    @property
    def code(self) -> str:
        return self.diagnostic.code

    @property
    def name(self) -> str:
        try:
            return self.diagnostic.name
        except KeyError:  # a plugin's diagnostic whose rule is gone: still print it
            return ""

    @property
    def message(self) -> str:
        return self.diagnostic.message

    @property
    def position(self) -> tuple[int, int, int, int]:
        """(line, column, end line, end column), 1-based; a finding without a span is at 1:1."""
        span = self.diagnostic.span
        if span is None:
            return 1, 1, 1, 1
        return span.line, span.column, span.end_line, span.end_column


@dataclass(slots=True)
class ReportedFile:
    result: FileResult
    findings: list[Finding]


@dataclass(slots=True)
class Report:
    """What the formatters print: files with their findings, and the totals."""

    files: list[ReportedFile]
    strict: bool = False
    #: usage problems already printed to stderr (missing paths...): they force exit code 2
    usage_errors: list[str] = field(default_factory=list)
    #: the PATH arguments, to tell which path each usage error is about (see :meth:`error_entries`)
    paths: list[str] = field(default_factory=list)

    def error_entries(self) -> list[dict[str, Any]]:
        """The usage errors as ``{"path", "message"}`` (``path`` None when no PATH is concerned).

        The messages read ``<PATH>: <reason>`` (discovery's shape); the longest PATH argument that
        prefixes a message is its path, and the reason alone is the message.
        """
        out: list[dict[str, Any]] = []
        for text in self.usage_errors:
            owner = max((p for p in self.paths if text.startswith(f"{p}: ")), key=len, default=None)
            message = text[len(owner) + 2 :] if owner is not None else text
            out.append({"path": owner, "message": message})
        return out

    def counts(self) -> dict[str, int]:
        out = {"error": 0, "warning": 0, "info": 0}
        for reported in self.files:
            for finding in reported.findings:
                out[finding.severity] = out.get(finding.severity, 0) + 1
        return out

    @property
    def failed(self) -> bool:
        """Whether a finding is at the failing level (error; warning too with ``strict``)."""
        threshold = level_rank("warning" if self.strict else "error")
        return any(
            level_rank(f.severity) >= threshold for reported in self.files for f in reported.findings
        )

    @property
    def exit_code(self) -> int:
        if self.usage_errors:
            return 2
        return 1 if self.failed else 0

    def summary(self) -> dict[str, Any]:
        counts = self.counts()
        return {
            "files": len(self.files),
            "errors": counts["error"],
            "warnings": counts["warning"],
            "infos": counts["info"],
            "unusable": sum(1 for r in self.files if r.result.usable is False),
            "strict": self.strict,
            "exitCode": self.exit_code,
        }

    def summary_line(self) -> str:
        counts = self.counts()
        n = len(self.files)
        files = f"{n} file{'s' if n != 1 else ''}"
        if self.usage_errors:
            k = len(self.usage_errors)
            unread = f" {k} path{'s' if k != 1 else ''} could not be checked (see above)."
        else:
            unread = ""
        if not any(counts.values()):
            return f"No problems in {files}.{unread}" if unread else f"All checks passed ({files} checked)."
        parts = [
            f"{counts['error']} error{'s' if counts['error'] != 1 else ''}",
            f"{counts['warning']} warning{'s' if counts['warning'] != 1 else ''}",
            f"{counts['info']} info",
        ]
        return f"Found {', '.join(parts)} in {files}.{unread}"


def run_extra_checks(loaded: Any, checks: list[str] | None = None, *, registry: Any = None) -> list[Diagnostic]:
    """forgec's own checks on a loaded stack, in the order of ``checks`` (default :data:`EXTRA_CHECKS`).

    With a plugin ``registry`` each check is called as ``fn(loaded, registry)``, so custom macros
    and slots of trusted plugins count as known.
    """
    out: list[Diagnostic] = []
    for spec in EXTRA_CHECKS if checks is None else checks:
        fn = _resolve_check(spec)
        for diagnostic in fn(loaded) if registry is None else fn(loaded, registry):
            diagnostic.extra = True
            out.append(diagnostic)
    return out


_CHECK_CACHE: dict[str, Callable[..., list[Diagnostic]]] = {}


def _resolve_check(spec: str) -> Callable[..., list[Diagnostic]]:
    fn = _CHECK_CACHE.get(spec)
    if fn is None:
        module_name, _, attr = spec.partition(":")
        fn = _CHECK_CACHE[spec] = getattr(importlib.import_module(module_name), attr)
    return fn


def _finish(loaded: Any, display: str, registry: Any = None) -> FileResult:
    """Extra checks, positions resolved once, and the result record of one loaded stack."""
    from forgec.source import resolve_spans

    diagnostics = list(loaded.diagnostics)
    document = loaded.document
    if document is not None and document.parsed:
        diagnostics.extend(run_extra_checks(loaded, registry=registry))
    resolve_spans(diagnostics, document)
    text = document.text if document is not None else None
    return FileResult(display, "stack", loaded.stack_id, loaded.usable, diagnostics, text)


def _resolved(path: str | os.PathLike[str]) -> Path:
    try:
        return Path(path).resolve()
    except OSError:
        return Path(os.path.abspath(path))


def lint_targets(
    targets: list[Target], *, stdin_filename: str | None = None, cwd: Path | None = None, registry: Any = None
) -> list[FileResult]:
    """Load and check every target; each project group is loaded at most once.

    ``registry`` (a :class:`forgec.plugins.Registry`) adds the trusted plugins' slot names to the
    loader's supported slots and their macros to the macro lint.
    """
    from forgec.codecs.stack import load_stack_file, load_stack_folder

    slots = _supported_slots(registry)
    cwd = cwd if cwd is not None else Path.cwd()
    groups: dict[tuple[Path, ...], list[Any]] = {}
    by_path: dict[tuple[Path, ...], dict[Path, Any]] = {}

    def group_of(dirs: tuple[Path, ...]) -> list[Any]:
        if dirs not in groups:
            groups[dirs] = load_stack_folder(list(dirs), scope="project", supported_slots=slots)
        return groups[dirs]

    def member(dirs: tuple[Path, ...], path: Path) -> Any:
        """The group's stack loaded from ``path``, if the group loader listed that file."""
        if dirs not in by_path:
            by_path[dirs] = {_resolved(x.path): x for x in group_of(dirs)}
        return by_path[dirs].get(path)

    results: list[FileResult] = []
    for target in targets:
        if target.stdin:
            results.append(_lint_stdin(stdin_filename, slots, registry))
        elif target.path is None:
            assert target.group is not None
            arg, base = target.display_base or ("", cwd.resolve())
            for loaded in group_of(target.group):
                display = os.path.normpath(os.path.join(arg, os.path.relpath(loaded.path, base)))
                results.append(_finish(loaded, display, registry))
        else:
            found = None
            if target.group is not None:
                found = member(target.group, target.path)
            if found is None:
                # not in a group, or not something the group loader lists (a YAML file, a legacy
                # file shadowed by the primary folder): load it on its own
                found = load_stack_file(target.path, scope="project", supported_slots=slots)
            results.append(_finish(found, target.display, registry))
    return results


def _supported_slots(registry: Any) -> list[str] | None:
    """The loader's supported slot names: built-ins plus the registry's (None: built-ins only)."""
    if registry is None:
        return None
    from forgec.compile.slots import supported_slot_names

    return supported_slot_names(registry)


def _lint_stdin(stdin_filename: str | None, slots: list[str] | None = None, registry: Any = None) -> FileResult:
    """A stack from standard input, checked as if it were a file named ``--stdin-filename``.

    The file name matters (fallback id, the ``default.json`` warning, JSON vs YAML); bytes are
    decoded as pi-forge's ``readFile(path, "utf8")`` does, invalid UTF-8 becoming U+FFFD.
    """
    from forgec.codecs.stack import load_stack_data

    display = stdin_filename or "-"
    name = os.path.basename(stdin_filename) if stdin_filename else "stdin.json"
    text = sys.stdin.buffer.read().decode("utf-8", errors="replace")
    loaded = load_stack_data(text, name, scope="project", path=display, supported_slots=slots)
    return _finish(loaded, display, registry)


def build_report(results: list[FileResult], selection: RuleSelection, *, strict: bool) -> Report:
    """Apply rule selection and severities; order of files and diagnostics is kept."""
    files: list[ReportedFile] = []
    for result in results:
        findings = [
            Finding(d, selection.level(d.code, d.level))
            for d in result.diagnostics
            if selection.enabled(d.code)
        ]
        files.append(ReportedFile(result, findings))
    return Report(files, strict=strict)
