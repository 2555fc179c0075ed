"""``forgec validate`` for the agent side: agent profiles, forge config files, model catalogs.

A profile is checked as pi-forge loads it (the §1.3 checks and the cross-file checks of §1.5 over
its scope's folder) and as pi-forge would resolve it: its ``promptStack`` reference against the
stacks of both scopes (§1.7: a project profile's bare reference never falls back to a global
stack), and -- when a model catalog is configured (``--models``, ``.pi/forge/models.json``,
``~/.config/forgec/models.json``) -- its model and thinking level against that catalog (§1.9).
Without a configured catalog the model checks are left out with one note (§6.2): the bundled
catalog only knows the four reference models, and a pre-commit hook must not fail every profile
that names another.  Credentials are checked only when asked (``check_auth``, ``validate
--check-auth``: then the models are checked even against the bundled catalog alone): committing a
profile must not depend on the committer's environment (§6.3; ``forgec profile resolve`` checks them).

A config file is checked as if it were in force (a project file as if its project were trusted);
a catalog file against ``schemas/model-catalog.schema.json``.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from forgec.diagnostics import Diagnostic
from forgec.diagnostics.findings import FileResult
from forgec.rules.profiles import CATALOG_NOT_CONFIGURED, PROFILE_MODEL_UNKNOWN, PROFILE_STACK_DIAGNOSTIC
from forgec.source import resolve_spans
from forgec.workspace import Target, shown_path

if TYPE_CHECKING:
    from forgec.agents.profiles import ProfileWorkspace, StackGroupLoader
    from forgec.codecs.catalog import Catalog
    from forgec.codecs.profile import LoadedProfile
    from forgec.environment import Environment

__all__ = ["catalog_note", "lint_agent_targets", "profile_findings", "with_catalog_targets"]


def catalog_note() -> Diagnostic:
    """FG552: profiles were checked without a configured catalog (one note per run)."""
    return Diagnostic(
        "info",
        "No model catalog is configured (--models, .pi/forge/models.json, ~/.config/forgec/models.json): the "
        "profiles' models and thinking levels were not checked; `forgec profile resolve` checks them.",
        CATALOG_NOT_CONFIGURED,
        extra=True,
    )


def with_catalog_targets(targets: Sequence[Target], env: Environment) -> list[Target]:
    """``targets`` and, when profiles are among them, every configured catalog file not already
    there (the user's, ``--models``): the profiles are checked against them, so their problems are
    reported at their own line and column, once, rather than aborting the run."""
    targets = list(targets)
    if not any(t.kind == "profile" for t in targets):
        return targets
    named = {t.path.resolve() for t in targets if t.path is not None}
    for path in env.catalog_files:
        if path.resolve() not in named:
            targets.append(Target(shown_path(path), path.resolve(), kind="catalog", scope="user"))
    return targets


def _catalog(env: Environment) -> Catalog | None:
    """The configured catalog, or ``None`` when a file of it is broken (reported as that file's FG812)."""
    from forgec.codecs.catalog import CatalogError

    try:
        return env.catalog
    except CatalogError:
        return None


def _workspace_for(target: Target, env: Environment | None, load_group: StackGroupLoader | None = None) -> ProfileWorkspace:
    """The profiles and stacks a profile target is read with: its project's and the global ones."""
    from forgec.agents.profiles import load_workspace

    folder = target.group[0] if target.group else (target.path.parent if target.path else Path.cwd())
    project = folder.parent.parent.parent if target.scope == "project" and target.group else None
    global_dir = folder.parent if target.scope == "global" else (env.global_forge_dir if env else None)
    slots = env.supported_slots if env is not None else None
    return load_workspace(project, global_dir=global_dir, trusted=True, supported_slots=slots, load_group=load_group)


def profile_findings(
    loaded: LoadedProfile, workspace: ProfileWorkspace | None, env: Environment | None, *, check_auth: bool = False
) -> list[Diagnostic]:
    """Everything ``validate`` says about one profile (see the module docstring), in order."""
    from forgec.agents.profiles import resolve_profile
    from forgec.codecs.profile import find_profile_stack, stack_reference_diagnostics

    found = list(loaded.diagnostics)
    if loaded.document is None or not loaded.document.parsed:
        return found
    catalog = _catalog(env) if env is not None and (env.catalog_files or check_auth) else None
    if catalog is not None:
        available = catalog.authenticated() if check_auth else None
        resolved = resolve_profile(loaded, stacks=workspace.stacks if workspace else [], models=catalog, available=available)
        model = loaded.profile.get("model") or {}
        skip = {PROFILE_STACK_DIAGNOSTIC}  # stacks are checked as files of their own
        if not (model.get("provider") and model.get("id")):
            skip.add(PROFILE_MODEL_UNKNOWN)  # already "model.provider/id must not be empty"
        found = [d for d in resolved.diagnostics if d.code not in skip]
    elif workspace is not None:
        reference = find_profile_stack(loaded.profile, loaded.scope, workspace.stacks)
        if reference is not None:
            found.extend(stack_reference_diagnostics(reference, loaded.profile_id))
    return found


def _lint_profiles(
    target: Target, env: Environment | None, cache: dict[tuple[Path, ...], ProfileWorkspace], check_auth: bool,
    load_group: StackGroupLoader | None = None,
) -> list[FileResult]:
    from forgec.codecs.profile import load_profile_file

    results: list[FileResult] = []
    if target.group is None:  # a profile file kept outside any agent-profiles folder
        assert target.path is not None
        loaded = load_profile_file(target.path, scope=target.scope)
        return [_result(target.display, loaded, profile_findings(loaded, None, env, check_auth=check_auth))]
    if target.group not in cache:
        cache[target.group] = _workspace_for(target, env, load_group)
    workspace = cache[target.group]
    folder = target.group[0].resolve()
    members = [p for p in workspace.profiles if Path(p.path).resolve().parent == folder]
    for loaded in members:
        if target.path is not None and Path(loaded.path).resolve() != target.path:
            continue
        if target.path is not None:
            display = target.display
        else:
            arg, base = target.display_base or ("", Path.cwd())
            display = os.path.normpath(os.path.join(arg, os.path.relpath(loaded.path, base)))
        results.append(_result(display, loaded, profile_findings(loaded, workspace, env, check_auth=check_auth)))
    return results


def _result(display: str, loaded: LoadedProfile, diagnostics: Sequence[Diagnostic]) -> FileResult:
    document = loaded.document
    positioned = resolve_spans(diagnostics, document)
    text = document.text if document is not None else None
    usable = not any(d.level == "error" for d in diagnostics)
    return FileResult(display, "profile", loaded.profile_id, usable, positioned, text)


def _lint_config(target: Target) -> FileResult:
    from forgec.codecs.forge_config import check_config_file

    assert target.path is not None
    check = check_config_file(target.path, "global" if target.scope == "global" else "project")
    diagnostics = check.positioned()
    return FileResult(target.display, "config", None, not any(d.level == "error" for d in diagnostics), diagnostics, check.file.text)


def _lint_catalog(target: Target) -> FileResult:
    from forgec.codecs.catalog import catalog_diagnostics

    assert target.path is not None
    _, problems, document = catalog_diagnostics(target.path)
    diagnostics = resolve_spans(problems, document)
    return FileResult(target.display, "catalog", None, not problems, diagnostics, document.text)


def lint_agent_targets(
    targets: Sequence[Target], *, env: Environment | None = None, check_auth: bool = False,
    load_group: StackGroupLoader | None = None,
) -> dict[int, list[FileResult]]:
    """The results of every profile, config and catalog target, keyed by the target's index.
    ``load_group`` loads the stack folder groups profiles are resolved against (see
    :func:`forgec.agents.profiles.load_stacks`; the caller's loads shared with the stack targets)."""
    cache: dict[tuple[Path, ...], ProfileWorkspace] = {}
    out: dict[int, list[FileResult]] = {}
    for index, target in enumerate(targets):
        if target.kind == "profile":
            out[index] = _lint_profiles(target, env, cache, check_auth, load_group)
        elif target.kind == "config":
            out[index] = [_lint_config(target)]
        elif target.kind == "catalog":
            out[index] = [_lint_catalog(target)]
    return out


