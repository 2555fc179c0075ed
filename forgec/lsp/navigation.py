"""Go to definition and find references: profile -> stack, ``getvar`` -> ``setvar``, selector -> file.

Resolution is the library's: a profile's ``promptStack`` goes through
:func:`forgec.codecs.profile.find_profile_stack` (scopes, shadowing and the project-never-falls-
back rule of profiles-exec §1.7) over the stacks as the editor holds them; variables are the
sites :func:`forgec.lsp.facts.variable_sites` finds in the stack's own parse.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from forgec.diagnostics import Span
from forgec.lsp.facts import macro_at, parse_text, variable_sites
from forgec.model import VARIABLE_READER_MACROS, VARIABLE_SETTER_MACROS

if TYPE_CHECKING:
    from forgec.lsp.project import Project

__all__ = ["Target", "definitions", "profile_stack", "references"]

#: a place to jump to: the file and the span there (``None``: the file's start)
Target = tuple[Path, Span | None]



def _variable(text: str, offset: int) -> str | None:
    macro = macro_at(text, offset)
    if macro is None or macro.part < 0 or not macro.args:
        return None
    if macro.command not in VARIABLE_READER_MACROS and macro.command not in VARIABLE_SETTER_MACROS:
        return None
    scoped = (
        macro.command in ("setvar", "clearvar")
        and macro.args[0] in ("turn", "session")
        and len(macro.args) > 1
    )
    return macro.args[1] if scoped else macro.args[0]


def profile_stack(project: Project, path: Path, text: str, offset: int) -> tuple[str, str, str] | None:
    """(stack file, stack id, scope) the profile's ``promptStack`` resolves to, when the cursor is
    on that value and it resolves."""
    from forgec.codecs.profile import find_profile_stack, load_profile_data
    from forgec.lsp.project import resources

    document = parse_text(text, path)
    if not document.parsed or not isinstance(document.data, dict):
        return None
    span = document.locate(("promptStack",))
    if span is None:
        return None
    start = document.offset_of(span.line, span.column)
    end = document.offset_of(span.end_line, span.end_column)
    if not start <= offset <= end:
        return None
    workspace = resources(project, path)
    scope = (
        "global"
        if path.resolve().parent.parent.resolve() == project.environment(path).global_forge_dir.resolve()
        else "project"
    )
    loaded = load_profile_data(document.data, path.name, scope=scope)
    reference = find_profile_stack(loaded.profile, scope, workspace.stacks)
    if reference is None or reference.stack is None:
        return None
    return reference.stack.path, reference.stack.stack_id, reference.stack.scope


def definitions(project: Project, path: Path, kind: str, text: str, offset: int) -> list[Target]:
    if kind == "profile":
        target = profile_stack(project, path, text, offset)
        return [(Path(target[0]), None)] if target is not None else []
    if kind == "stack":
        name = _variable(text, offset)
        if name is not None:
            return [(path, span) for span in variable_sites(parse_text(text, path)).get(name, [])]
    return []


def references(project: Project, path: Path, kind: str, text: str, offset: int) -> list[Target]:
    """Every use of the variable under the cursor; on a stack's ``id``, the profiles naming it."""
    import re

    if kind != "stack":
        return []
    name = _variable(text, offset)
    document = parse_text(text, path)
    if name is not None:
        out: list[Target] = []
        pattern = re.compile(
            r"\{\{\s*[a-z]+\s*::\s*(?:(?:turn|session)\s*::\s*)?" + re.escape(name) + r"\s*(?:::|\}\})"
        )
        for match in pattern.finditer(text):
            out.append(
                (path, document.span(match.start(), match.end()) if document.text is not None else None)
            )
        return out
    id_span = document.locate(("id",)) if document.parsed else None
    if id_span is None:
        return []
    if (
        not document.offset_of(id_span.line, id_span.column)
        <= offset
        <= document.offset_of(id_span.end_line, id_span.end_column)
    ):
        return []
    from forgec.codecs.profile import find_profile_stack
    from forgec.lsp.project import resources

    workspace = resources(project, path)
    found: list[Target] = []
    for profile in workspace.profiles:
        reference = find_profile_stack(profile.profile, profile.scope, workspace.stacks)
        if (
            reference is not None
            and reference.stack is not None
            and Path(reference.stack.path).resolve() == path.resolve()
        ):
            span = profile.document.locate(("promptStack",)) if profile.document is not None else None
            found.append((Path(profile.path), span))
    return found
