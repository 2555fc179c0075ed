"""Code actions: every safe fix ``validate --fix`` makes, one by one or all at once, and suppressions.

A fix is applied by the library (:func:`forgec.lint.fixes.apply_fixes`, the same minimal token edit
``--fix`` writes) to the editor's text, and handed back as the smallest :class:`TextEdit` that
turns the old text into the new, so the editor's undo and the user's formatting are untouched.  In
YAML a finding can also be silenced where it is, with a ``# forgec: ignore[CODE]`` comment on its
line; a JSON file (no comments) gets an entry in ``[tool.forgec.per-file-ignores]`` of the
``pyproject.toml`` in force instead.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from lsprotocol import types

from forgec.diagnostics import Diagnostic
from forgec.lsp.convert import lsp_range
from forgec.lsp.facts import parse_text
from forgec.lsp.positions import LineIndex
from forgec.lsp.project import CheckedFile

__all__ = ["code_actions", "minimal_edit"]

_SUPPRESSION = re.compile(r"#\s*forgec:\s*ignore\[(?P<rules>[^\]]*)\]", re.IGNORECASE)


def minimal_edit(before: str, after: str, lines: LineIndex) -> types.TextEdit:
    """The one edit that turns ``before`` into ``after``: the differing middle, common ends kept."""
    start = 0
    limit = min(len(before), len(after))
    while start < limit and before[start] == after[start]:
        start += 1
    end_before, end_after = len(before), len(after)
    while end_before > start and end_after > start and before[end_before - 1] == after[end_after - 1]:
        end_before -= 1
        end_after -= 1
    return types.TextEdit(
        types.Range(types.Position(*lines.position(start)), types.Position(*lines.position(end_before))),
        after[start:end_after],
    )


def _overlaps(a: types.Range, b: types.Range) -> bool:
    return (a.start.line, a.start.character) <= (b.end.line, b.end.character) and (
        b.start.line,
        b.start.character,
    ) <= (a.end.line, a.end.character)


def _fix_edit(
    checked: CheckedFile, diagnostics: list[Diagnostic], lines: LineIndex
) -> tuple[types.TextEdit, str] | None:
    from forgec.lint.repair import apply_fixes

    after, applied = apply_fixes(parse_text(checked.text, checked.path), diagnostics)
    if not applied or after == checked.text:
        return None
    title = ", ".join(f"{a.before} → {a.after}" for a in applied[:3])
    return minimal_edit(checked.text, after, lines), title


def _suppress_edit(checked: CheckedFile, d: Diagnostic, lines: LineIndex) -> types.TextEdit | None:
    if d.span is None or d.code == "FG153":
        return None
    number = d.span.line - 1
    line = lines.line(number)
    existing = _SUPPRESSION.search(line)
    if existing is not None:
        at = existing.end("rules")
        return types.TextEdit(types.Range(types.Position(*lines.position(lines.starts[number] + at)),
                                          types.Position(*lines.position(lines.starts[number] + at))), f", {d.code}")  # fmt: skip
    end = lines.position(lines.starts[number] + len(line))
    return types.TextEdit(
        types.Range(types.Position(*end), types.Position(*end)), f"  # forgec: ignore[{d.code}]"
    )


def _ignore_in_settings(
    checked: CheckedFile, d: Diagnostic, settings: tuple[Path, str]
) -> types.CodeAction | None:
    """JSON has no comments: the finding's rule is turned off for this one file in
    ``[tool.forgec.per-file-ignores]`` of the ``pyproject.toml`` the settings came from."""
    path, text = settings
    try:
        relative = checked.path.resolve().relative_to(path.parent.resolve()).as_posix()
    except ValueError:
        return None
    key = json.dumps(relative)
    if re.search(r"^\s*per-file-ignores\s*=", text, re.MULTILINE) or re.search(
        rf"^\s*{re.escape(key)}\s*=", text, re.MULTILINE
    ):
        return None  # an inline table, or an entry for this file already: the user edits it
    lines = LineIndex(text)
    header = re.search(r"^\[tool\.forgec\.per-file-ignores\][^\n]*\n?", text, re.MULTILINE)
    if header is not None:
        at = header.end()
        new = ("" if text[:at].endswith("\n") else "\n") + f'{key} = ["{d.code}"]\n'
    else:
        at = len(text)
        new = (
            "\n" if text and not text.endswith("\n") else ""
        ) + f'\n[tool.forgec.per-file-ignores]\n{key} = ["{d.code}"]\n'
    where = types.Position(*lines.position(at))
    return types.CodeAction(
        title=f"Ignore {d.code} in this file (per-file-ignores in {path.name})", kind=types.CodeActionKind.QuickFix,
        edit=types.WorkspaceEdit(changes={path.resolve().as_uri(): [types.TextEdit(types.Range(where, where), new)]}),
    )  # fmt: skip


def code_actions(
    checked: CheckedFile,
    uri: str,
    wanted: types.Range,
    encoding: str = "utf-16",
    settings: tuple[Path, str] | None = None,
) -> list[types.CodeAction]:
    """The quick fixes and suppressions of the findings under ``wanted``, then "fix all".

    ``settings``: the ``pyproject.toml`` in force and its text, for a JSON file's suppressions."""
    if checked.reported is None:
        return []
    lines = LineIndex(checked.text, encoding)
    findings = [f.diagnostic for f in checked.reported.findings]
    actions: list[types.CodeAction] = []
    yaml = checked.path.suffix.lower() in (".yaml", ".yml")
    for d in findings:
        where = lsp_range(d, lines)
        if not _overlaps(where, wanted):
            continue
        shown = types.Diagnostic(range=where, message=d.message, code=d.code, source="forgec")
        if d.fix is not None:
            made = _fix_edit(checked, [d], lines)
            if made is not None:
                edit, title = made
                actions.append(types.CodeAction(
                    title=f"Fix {d.code}: {title}", kind=types.CodeActionKind.QuickFix, diagnostics=[shown],
                    is_preferred=True, edit=types.WorkspaceEdit(changes={uri: [edit]}),
                ))  # fmt: skip
        if not yaml and settings is not None and d.code != "FG153":
            ignore = _ignore_in_settings(checked, d, settings)
            if ignore is not None:
                ignore.diagnostics = [shown]
                actions.append(ignore)
        if yaml:
            suppress = _suppress_edit(checked, d, lines)
            if suppress is not None:
                actions.append(types.CodeAction(
                    title=f"Suppress {d.code} on this line (# forgec: ignore)", kind=types.CodeActionKind.QuickFix,
                    diagnostics=[shown], edit=types.WorkspaceEdit(changes={uri: [suppress]}),
                ))  # fmt: skip
    fixable = [d for d in findings if d.fix is not None]
    if len(fixable) > 1 or (fixable and not actions):
        made = _fix_edit(checked, fixable, lines)
        if made is not None:
            actions.append(types.CodeAction(
                title="Fix all safe forgec findings (validate --fix)", kind=types.CodeActionKind.SourceFixAll,
                edit=types.WorkspaceEdit(changes={uri: [made[0]]}),
            ))  # fmt: skip
    return actions
