"""The findings of a lint run: what ``forgec validate`` reports, and what every format prints.

A :class:`Finding` is a :class:`~forgec.diagnostics.Diagnostic` as reported: the diagnostic
untouched (pi-forge's level, message and item id stay exact) plus the severity forgec reports it at
after the user's rule selection.  A :class:`FileResult` is one checked file; a :class:`LintReport`
is the whole run, with the exit-code contract (0 clean, 1 findings at the failing level, 2 usage
errors).  These records sit beside the diagnostic type and below everything that produces or
prints them, so the output formats (:mod:`forgec.output`) depend on this module, not on the lint
pipeline (:mod:`forgec.lint`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    # only named in annotations: a clean run (no finding) then never imports the diagnostic type,
    # whose three frozen dataclasses are ~3 ms of a cold ``forgec validate`` answered from the cache
    from forgec.diagnostics import Diagnostic

__all__ = ["FileResult", "Finding", "LintReport", "ReportedFile", "group_severity"]


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
    """One checked file as the report shows it: its result and the findings that rule selection,
    ignores and suppression comments left, each at its selected severity."""

    result: FileResult
    findings: list[Finding]

    def grouped(self) -> list[tuple[Finding, list[Finding]]]:
        """What a person reads: one entry per mistake, sorted by line and column (findings without
        a position first), each with the findings it caused (``caused_by``) as its notes.

        A finding whose cause was not reported (its rule is ignored) stands on its own; a chain of
        causes folds under its root.  Machine formats keep :attr:`findings` as they are.
        """
        place = {(f.code, _pointer(f.diagnostic.pointer)): f for f in reversed(self.findings)}

        def root(finding: Finding) -> Finding:
            seen = {id(finding)}
            while finding.diagnostic.caused_by is not None:
                code, pointer = finding.diagnostic.caused_by
                cause = place.get((code, _pointer(pointer)))
                if cause is None or id(cause) in seen:
                    break
                seen.add(id(cause))
                finding = cause
            return finding

        notes: dict[int, list[Finding]] = {}
        heads: list[Finding] = []
        shown: set[tuple[int, str, str]] = set()
        for finding in self.findings:
            head = root(finding)
            if head is finding:
                heads.append(finding)
            elif (id(head), finding.code, finding.message) not in shown:  # pi-forge checks some fields twice
                shown.add((id(head), finding.code, finding.message))
                notes.setdefault(id(head), []).append(finding)
        heads.sort(key=lambda f: f.position[:2] if f.diagnostic.span is not None else (0, 0))
        return [(head, notes.get(id(head), [])) for head in heads]


def _pointer(pointer: Any) -> tuple[Any, ...] | None:
    return tuple(pointer) if pointer is not None else None


@dataclass(slots=True)
class LintReport:
    """What the formatters print: files with their findings, and the totals.

    ``setup_diagnostics`` are findings about the run rather than a file (an untrusted or missing
    plugin, FG951/FG952), for the front end to print apart; a plugin that failed to load (FG950)
    is attached to every file instead, since each was checked without it.
    """

    files: list[ReportedFile]
    strict: bool = False
    #: usage problems already printed to stderr (missing paths...): they force exit code 2
    usage_errors: list[str] = field(default_factory=list)
    #: the PATH arguments, to tell which path each usage error is about (see :meth:`error_entries`)
    paths: list[str] = field(default_factory=list)
    setup_diagnostics: list[Diagnostic] = field(default_factory=list)

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
        severities = [f.severity for reported in self.files for f in reported.findings]
        if not severities:
            return False
        from forgec.diagnostics import level_rank

        threshold = level_rank("warning" if self.strict else "error")
        return any(level_rank(severity) >= threshold for severity in severities)

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

    def summary_line(self, *, folded: bool = True) -> str:
        """``Found 1 error, 2 warnings, 0 info in 1 file.``; ``folded`` adds how many findings the
        human formats show as notes (off for ``--statistics``, which lists every rule)."""
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
        notes = sum(len(n) for r in self.files for _, n in r.grouped()) if folded else 0
        shown = sum(counts.values()) - notes
        # the counts are every finding (as json and sarif count them); a reader who sees fewer
        # entries is told where the rest are
        also = f" ({shown} shown, {notes} more as notes under the mistake that caused them)" if notes else ""
        return f"Found {', '.join(parts)} in {files}{also}.{unread}"


def group_severity(finding: Finding, notes: list[Finding]) -> str:
    """The most severe level of a mistake and what it caused: what an annotation, a JUnit failure
    or a Code Quality issue is filed as, so a folded error is never reported as a warning."""
    from forgec.diagnostics import level_rank

    return max((finding, *notes), key=lambda f: level_rank(f.severity)).severity
