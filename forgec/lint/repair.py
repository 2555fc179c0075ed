"""Applying safe repairs to a file's text (``forgec validate --fix``/``--diff``, an editor's code action).

The repairs are attached to the findings beforehand (:mod:`forgec.lint.hints`,
:mod:`forgec.lint.fixes`).  :func:`apply_fixes` edits the text itself -- only the characters of the
key or value token, inside its quotes -- so comments, indentation, key order and the quoting style
of everything else stay exactly as they were (a YAML or JSON round trip through a parser would
reformat the file).
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from forgec.diagnostics import Diagnostic

if TYPE_CHECKING:
    from forgec.diagnostics.findings import LintReport
    from forgec.source import SourceDocument

__all__ = ["AppliedFix", "FileFix", "apply_fixes", "fix_file", "fix_report"]

_PLAIN_YAML = re.compile(r"[A-Za-z_][A-Za-z0-9_.\-]*")


@dataclass(frozen=True, slots=True)
class AppliedFix:
    """One edit made: the finding it repairs and the line it was on."""

    diagnostic: Diagnostic
    line: int
    before: str
    after: str


def _token(text: str, start: int, end: int, replacement: str, yaml: bool) -> str | None:
    """The new spelling of the token ``text[start:end]``: inside its quotes if it is quoted (JSON
    escaping in double quotes), bare in YAML only where a plain scalar may stand."""
    token = text[start:end]
    if len(token) >= 2 and token[0] == token[-1] == '"':
        return json.dumps(replacement, ensure_ascii=False)
    if len(token) >= 2 and token[0] == token[-1] == "'":
        return "'" + replacement.replace("'", "''") + "'"
    if yaml and _PLAIN_YAML.fullmatch(replacement):
        return replacement
    return None


def apply_fixes(document: SourceDocument, diagnostics: Sequence[Diagnostic]) -> tuple[str, list[AppliedFix]]:
    """The document's text with every fix of ``diagnostics`` applied, and what was done.

    Each fix replaces exactly one key or value token; two fixes of the same token, or fixes whose
    tokens overlap, keep only the first.  A token that cannot be rewritten safely (a YAML block
    scalar, a value that would need quoting) is left alone.
    """
    text = document.text or ""
    yaml = document.path.lower().endswith((".yaml", ".yml"))
    edits: list[tuple[int, int, str, Diagnostic]] = []
    for d in diagnostics:
        if d.fix is None or d.pointer is None:
            continue
        span = document.locate(d.pointer, key=d.fix.target == "key")
        if span is None or span.line != span.end_line:
            continue
        start = document.offset_of(span.line, span.column)
        end = document.offset_of(span.end_line, span.end_column)
        new = _token(text, start, end, d.fix.replacement, yaml)
        if new is None or any(s < end and start < e for s, e, _, _ in edits):
            continue
        edits.append((start, end, new, d))
    applied: list[AppliedFix] = []
    for start, end, new, d in sorted(edits, key=lambda e: -e[0]):
        line = text.count("\n", 0, start) + 1
        applied.append(AppliedFix(d, line, text[start:end], new))
        text = text[:start] + new + text[end:]
    applied.reverse()
    return text, applied


@dataclass(frozen=True, slots=True)
class FileFix:
    """The fixes of one file: its text before and after, the edits, or why it was left alone."""

    path: str
    before: str
    after: str
    applied: list[AppliedFix]
    refused: str | None = None

    def diff(self) -> str:
        """A unified diff of the change (empty when nothing changed)."""
        import difflib

        lines = difflib.unified_diff(
            self.before.splitlines(keepends=True), self.after.splitlines(keepends=True), self.path, self.path
        )
        return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines)


def fix_file(path: str, diagnostics: Sequence[Diagnostic], *, write: bool) -> FileFix:
    """Apply the fixes of ``diagnostics`` (findings of ``path``) to the file; with ``write``, the
    file is replaced atomically -- through a symbolic link, keeping its permissions -- and only when
    its bytes are still the UTF-8 text the findings were made on.  Never raises for file problems:
    ``refused`` says why nothing was written."""
    import os
    from pathlib import Path

    from forgec.atomic import write_bytes_atomic
    from forgec.source import read_source

    document = read_source(path)
    text = document.text or ""
    if not document.parsed:
        return FileFix(path, text, text, [], "the file could not be parsed")
    after, applied = apply_fixes(document, diagnostics)
    if not applied or not write:
        return FileFix(path, text, after, applied)
    target = Path(path).resolve()
    try:
        raw = target.read_bytes()
        if raw.decode("utf-8") != text:
            return FileFix(path, text, text, [], "the file is not plain UTF-8 text (a byte-order mark or invalid bytes)")
        write_bytes_atomic(target, after.encode("utf-8"), overwrite=True, mode=os.stat(target).st_mode & 0o7777)
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        return FileFix(path, text, text, [], f"cannot be written: {reason}")
    return FileFix(path, text, after, applied)


def fix_report(report: LintReport, *, write: bool, stdin_names: Sequence[str] = ()) -> list[FileFix]:
    """The fixes of every reported finding that has one (rule selection applies: an ignored rule
    fixes nothing), file by file; with ``write`` the files are changed.  A stack read from
    standard input (``stdin_names``: its display names) is never written."""
    fixes: list[FileFix] = []
    for reported in report.files:
        path = reported.result.path
        fixable = [f.diagnostic for f in reported.findings if f.diagnostic.fix is not None]
        if not fixable or path == "-" or path in stdin_names:
            continue
        fixes.append(fix_file(path, fixable, write=write))
    return fixes
