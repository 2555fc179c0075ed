"""Agent profiles of both scopes, read together from disk (profiles-exec.md §1).

:func:`load_workspace` reads what pi-forge reads for a project: the user-global profiles and prompt
stacks, then -- when the project is trusted -- the project's (stacks from ``.pi/forge/prompt-stacks``,
then the legacy ``.pi/prompt-stacks``, a file of the same name in the first shadowing the second).
The :class:`ProfileWorkspace` it returns holds every loaded file and answers the questions a front
end asks:

* the effective views (project shadows global, §1.6) and selector lookups (``reviewer``,
  ``project:reviewer``, ``global:reviewer``);
* auto-activation (§1.8): the profile chosen (project candidates take precedence and fail closed),
  and the stack standalone stack autoload would pick (compile-core §10.8) when no profile asks;
* resolution against a model catalog (§1.9, :func:`resolve_profile`): unknown model, missing
  credentials, thinking-level clamping, the referenced stack's findings, allow patterns that match
  no registered tool;
* capture and the scope-guarded writes and deletes (§1.7, §1.11): paths strictly inside the scope's
  profile folder, no symbolic link on the way, exclusive creation (or an atomic replace with
  ``overwrite``; both through :mod:`forgec.atomic`), 2-space JSON plus a newline;
* provenance drift (:meth:`ProfileWorkspace.status`).

Nothing here prints; the command line and ``forgec validate`` call these functions.
"""

from __future__ import annotations

import errno
import os
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, Final

from forgec.atomic import write_text_atomic
from forgec.codecs.catalog import Catalog, Model, clamp_thinking_level
from forgec.codecs.profile import (
    CaptureResult,
    LoadedProfile,
    capture_profile,
    check_stack_scope,
    find_profile_stack,
    has_errors,
    legacy_fingerprint,
    load_profile_file,
    load_profile_folder,
    profile_runtime_status,
    render_diagnostics,
    serialize_profile,
    stack_reference_diagnostics,
    validate_profile,
)
from forgec.codecs.stack import LoadedStack, load_stack_folder
from forgec.compile.passes.policy import matches_pattern
from forgec.diagnostics import Diagnostic
from forgec.js.values import UNDEFINED, js_string
from forgec.model.identity import ResourceCatalog, ResourceKey, parse_selector
from forgec.rules import profiles as codes
from forgec.workspace import (
    global_forge_dir,
    global_profile_dir,
    global_stack_dir,
    project_profile_dir,
    project_stack_dirs,
)

#: loads one listing group of stack folders with the built-in loader's rules: ``(folders, scope)``
StackGroupLoader = Callable[[tuple[Path, ...], str], list[LoadedStack]]

__all__ = [
    "AUTO_ACTIVATION_CONFLICT_NOTICE",
    "AutoActivation",
    "DeleteResult",
    "ProfileWorkspace",
    "ResolvedProfile",
    "WriteResult",
    "choose_auto_activate_profile",
    "choose_auto_activate_stack",
    "delete_profile",
    "is_safe_profile_path",
    "load_profiles",
    "load_stacks",
    "load_workspace",
    "profile_target_path",
    "resolve_profile",
    "stack_key",
    "write_profile",
]

#: The Pi host's notice when some profile asked for auto-activation but none could be chosen.
AUTO_ACTIVATION_CONFLICT_NOTICE: Final = "pi-forge: multiple agent profiles request auto-activation; no profile or fallback prompt stack was applied."


def stack_key(stack: LoadedStack) -> ResourceKey:
    """A loaded stack's ``{scope, id}`` (its normalised id: the file stem at worst)."""
    return ResourceKey(stack.scope, stack.stack_id)


# --- loading -----------------------------------------------------------------------------------------


def load_profiles(project: Path | None, global_dir: Path, *, trusted: bool = True) -> list[LoadedProfile]:
    """The profiles pi-forge loads: the global list, then (trusted project only) the project list,
    each with the cross-file checks of §1.5."""
    profiles = load_profile_folder([global_profile_dir(global_dir)], "global")
    if trusted and project is not None:
        profiles += load_profile_folder([project_profile_dir(project)], "project")
    return profiles


def load_stacks(
    project: Path | None,
    global_dir: Path,
    *,
    trusted: bool = True,
    supported_slots: Iterable[str] | None = None,
    include_yaml: bool = True,
    load_group: StackGroupLoader | None = None,
) -> list[LoadedStack]:
    """The prompt stacks: ``<global>/prompt-stacks``, then (trusted project only) the project's two
    stack folders as one listing group.  ``include_yaml=False`` is pi-forge's exact listing.
    ``load_group(folders, scope)`` (with ``include_yaml``) loads a group instead of
    :func:`load_stack_folder`: a caller that already loaded the same group (``forgec validate``
    checking the project's stacks and its profiles in one run) reads it once."""
    slots = tuple(supported_slots) if supported_slots is not None else None

    def group(folders: list[Path], scope: str) -> list[LoadedStack]:
        if load_group is not None and include_yaml:
            return load_group(tuple(folders), scope)
        return load_stack_folder(folders, scope, supported_slots=slots, include_yaml=include_yaml)

    stacks = group([global_stack_dir(global_dir)], "global")
    if trusted and project is not None:
        stacks += group(list(project_stack_dirs(project)), "project")
    return stacks


def load_workspace(
    project: str | os.PathLike[str] | None = None,
    *,
    global_dir: str | os.PathLike[str] | None = None,
    trusted: bool = True,
    supported_slots: Iterable[str] | None = None,
    include_yaml: bool = True,
    load_group: StackGroupLoader | None = None,
) -> ProfileWorkspace:
    """Read the profiles and stacks of a project and of the user-global forge folder.

    ``project`` is the project root (``None``: global only); ``global_dir`` defaults to
    ``$PI_FORGE_GLOBAL_DIR`` or ``~/.pi/forge``.  An untrusted project contributes nothing (pi-forge
    reads only the global lists then).  ``supported_slots`` are the slot names the stack loader
    accepts (a plugin registry's ``supported_slot_names()``; default: the built-in ones);
    ``load_group``: see :func:`load_stacks`.
    """
    root = Path(project) if project is not None else None
    forge = Path(global_dir) if global_dir is not None else global_forge_dir()
    profiles = load_profiles(root, forge, trusted=trusted)
    stacks = load_stacks(
        root, forge, trusted=trusted, supported_slots=supported_slots, include_yaml=include_yaml,
        load_group=load_group,
    )
    return ProfileWorkspace(root, forge, trusted, profiles, stacks)


# --- auto-activation (§1.8, compile-core §10.8) ---------------------------------------------------------


def choose_auto_activate_profile(profiles: Sequence[LoadedProfile]) -> LoadedProfile | None:
    """pi-forge's ``chooseAutoActivateAgentProfile``: among ``autoActivate: true`` profiles, the
    project candidates if there is any (exactly one, without errors, else none -- no fallback to
    global), otherwise the global candidates by the same rule."""
    for scope in ("project", "global"):
        candidates = [p for p in profiles if p.scope == scope and p.profile.get("autoActivate") is True]
        if candidates:
            return candidates[0] if len(candidates) == 1 and candidates[0].usable else None
    return None


def choose_auto_activate_stack(stacks: Sequence[LoadedStack]) -> LoadedStack | None:
    """pi-forge's ``chooseAutoActivateStack`` (standalone stack autoload): project stacks with
    ``autoActivate: true`` first (exactly one and usable, else none); without any, global ones
    whose id no project stack uses (valid or not), by the same rule."""
    project = [s for s in stacks if s.scope == "project" and s.stack.get("autoActivate") is True]
    if project:
        return project[0] if len(project) == 1 and project[0].usable else None
    taken = {s.stack_id for s in stacks if s.scope == "project"}
    found = [
        s
        for s in stacks
        if s.scope == "global" and s.stack.get("autoActivate") is True and s.stack_id not in taken
    ]
    return found[0] if len(found) == 1 and found[0].usable else None


@dataclass(frozen=True, slots=True)
class AutoActivation:
    """What a fresh session would activate (§1.8).

    ``requested``: some profile has ``autoActivate: true``; ``chosen``: the profile chosen (it still
    has to resolve, §1.9); ``stack_fallback``: the stack standalone autoload would pick -- applied only
    when no profile requested auto-activation.
    """

    requested: bool
    chosen: LoadedProfile | None
    stack_fallback: LoadedStack | None

    @property
    def notice(self) -> str | None:
        """The host's notice when a profile asked but none could be chosen (else ``None``)."""
        return AUTO_ACTIVATION_CONFLICT_NOTICE if self.requested and self.chosen is None else None

    def to_json(self) -> dict[str, Any]:
        return {
            "requested": self.requested,
            "chosen": str(self.chosen.key) if self.chosen is not None else None,
            "stackFallback": str(stack_key(self.stack_fallback)) if self.stack_fallback is not None else None,
        }


# --- resolution against a model catalog (§1.9) ---------------------------------------------------------


@dataclass(eq=False)
class ResolvedProfile:
    """pi-forge's ``ResolvedAgentProfile``: the model found, the stack resolved, the effective
    thinking level, and the diagnostics (the loaded ones first)."""

    loaded: LoadedProfile
    model: Model | None
    stack: LoadedStack | None
    effective_thinking_level: str
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def usable(self) -> bool:
        """No error, and a model was found."""
        return self.model is not None and not has_errors(self.diagnostics)

    @property
    def rendered(self) -> str:
        return render_diagnostics(self.diagnostics)

    def to_json(self) -> dict[str, Any]:
        return {
            "profile": str(self.loaded.key),
            "diagnostics": [d.to_pi() for d in self.diagnostics if not d.extra],
            "usable": self.usable,
            "model": {"provider": self.model.provider, "id": self.model.id}
            if self.model is not None
            else None,
            "effectiveThinkingLevel": self.effective_thinking_level,
            "promptStack": str(stack_key(self.stack)) if self.stack is not None else None,
            "rendered": self.rendered,
        }


def _model_list(models: Catalog | Iterable[Model] | None) -> list[Model]:
    if models is None:
        return []
    if isinstance(models, Catalog):
        return list(models.models.values())
    return list(models)


def _refs(models: Iterable[Model | tuple[str, str]]) -> set[tuple[str, str]]:
    return {(m.provider, m.id) if isinstance(m, Model) else (m[0], m[1]) for m in models}


def resolve_profile(
    loaded: LoadedProfile,
    *,
    stacks: Sequence[LoadedStack],
    models: Catalog | Iterable[Model] | None = None,
    available: Iterable[Model | tuple[str, str]] | None = None,
    tool_names: Collection[str] | None = None,
) -> ResolvedProfile:
    """pi-forge's ``resolveAgentProfile``.

    ``models``: every known model (a :class:`Catalog`, or models; ``None`` is an empty catalog, so
    every model is unknown).  ``available``: the models with configured credentials (``None``: no
    authentication check; :meth:`Catalog.authenticated` gives them).  ``tool_names``: the registered
    tools (``None``: no allow-pattern check).  The thinking-level clamp is an error: a profile Pi
    would silently clamp is unusable.
    """
    diagnostics = list(loaded.diagnostics)
    profile = loaded.profile
    provider, model_id = profile["model"]["provider"], profile["model"]["id"]
    level: str = profile["thinkingLevel"]
    model = next((m for m in _model_list(models) if m.provider == provider and m.id == model_id), None)
    effective = level
    name = f"{provider}/{model_id}"
    if model is None:
        diagnostics.append(
            Diagnostic(
                "error",
                f"Unknown model: {name}",
                codes.PROFILE_MODEL_UNKNOWN,
                pointer=("model",),
                field="model",
            )
        )
    else:
        if available is not None and (provider, model_id) not in _refs(available):
            diagnostics.append(
                Diagnostic(
                    "error",
                    f"Model {name} has no configured authentication.",
                    codes.PROFILE_MODEL_NO_AUTH,
                    pointer=("model",),
                    field="model",
                )
            )
        effective = clamp_thinking_level(model, level)
        if effective != level:
            diagnostics.append(
                Diagnostic(
                    "error",
                    f"Model {name} does not support thinking level {level}; Pi would clamp it to {effective}.",
                    codes.PROFILE_THINKING_LEVEL_CLAMPED,
                    pointer=("thinkingLevel",),
                    field="thinkingLevel",
                )
            )
    stack: LoadedStack | None = None
    found = find_profile_stack(profile, loaded.scope, stacks)
    if found is not None:
        diagnostics.extend(stack_reference_diagnostics(found, loaded.profile_id))
        stack = found.stack
    if stack is not None:
        stack_id = stack.stack_id
        for d in stack.diagnostics:
            if d.extra:
                continue
            diagnostics.append(
                Diagnostic(
                    d.level,
                    f"Prompt stack {stack_id}: {d.message}",
                    codes.PROFILE_STACK_DIAGNOSTIC,
                    pointer=("promptStack",),
                    field="promptStack",
                )
            )
        tools = stack.stack.get("tools")
        allow = tools.get("allow") if isinstance(tools, dict) else None
        if tool_names is not None and isinstance(allow, list) and "*" not in allow:
            for pattern in allow:
                if pattern == "*" or any(matches_pattern(pattern, tool) for tool in tool_names):
                    continue
                diagnostics.append(
                    Diagnostic(
                        "warning",
                        f'Prompt stack {stack_id} allows tool pattern "{pattern}", but it matches no registered tools.',
                        codes.PROFILE_TOOL_PATTERN_UNMATCHED,
                        pointer=("promptStack",),
                        field="promptStack",
                    )
                )
    return ResolvedProfile(loaded, model, stack, effective, diagnostics)


# --- writes and deletes (§1.11) ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class WriteResult:
    """``{ok: true, profile, filePath}`` or ``{ok: false, reason, diagnostics, error?}``.

    ``reason``: ``validation`` (``diagnostics`` says why), ``invalid-path``, ``exists`` or ``io``
    (``error`` is the text).
    """

    ok: bool
    profile: Any = None
    file_path: str | None = None
    reason: str | None = None
    diagnostics: tuple[Diagnostic, ...] = ()
    error: str | None = None

    def to_json(self) -> dict[str, Any]:
        if self.ok:
            return {"ok": True, "profile": self.profile, "filePath": self.file_path}
        out: dict[str, Any] = {
            "ok": False,
            "reason": self.reason,
            "diagnostics": [d.to_pi() for d in self.diagnostics if not d.extra],
        }
        if self.error is not None:
            out["error"] = self.error
        return out


@dataclass(frozen=True, slots=True)
class DeleteResult:
    """``{ok: true, filePath}`` or ``{ok: false, reason, filePath, error?}``; ``reason`` is
    ``invalid-path``, ``missing``, ``changed`` (the file no longer holds the loaded profile) or ``io``."""

    ok: bool
    file_path: str
    reason: str | None = None
    error: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"ok": self.ok}
        if self.reason is not None:
            out["reason"] = self.reason
        out["filePath"] = self.file_path
        if self.error is not None:
            out["error"] = self.error
        return out


def _storage(scope: str, project: Path | None, global_dir: Path) -> tuple[Path, Path]:
    """The scope's profile folder and the root the symbolic-link check starts from."""
    if scope == "global":
        return global_profile_dir(global_dir), global_dir
    if project is None:
        raise ValueError("a project profile needs a project root")
    return project_profile_dir(project), project


def profile_target_path(scope: str, profile_id: str, *, project: Path | None, global_dir: Path) -> str:
    """Where a writer puts profile ``profile_id`` of ``scope``: ``<storage>/<id>.json``."""
    storage, _ = _storage(scope, project, global_dir)
    return os.path.normpath(os.path.join(storage, f"{profile_id}.json"))


def is_safe_profile_path(
    path: str | os.PathLike[str], *, scope: str, project: Path | None, global_dir: Path
) -> bool:
    """pi-forge's mutation-path guard: ``path`` lies strictly inside the scope's profile folder, and
    no existing component from the root (project: the project folder; global: the global forge
    folder) down to the file is a symbolic link."""
    storage, root = _storage(scope, project, global_dir)
    target = os.path.abspath(path)
    inside = os.path.relpath(target, os.path.abspath(storage))
    if inside == "." or inside.startswith("..") or os.path.isabs(inside):
        return False
    base = os.path.abspath(root)
    current = base
    for segment in os.path.relpath(target, base).split(os.sep):
        current = os.path.join(current, segment)
        if os.path.exists(current) and os.path.islink(current):
            return False
    return True


def _system_message(error: OSError, syscall: str, path: str) -> str:
    """Node's ``fs`` error text, ``EACCES: permission denied, open '<path>'``."""
    name = errno.errorcode.get(error.errno or 0, "EIO")
    if isinstance(error, IsADirectoryError) and syscall == "open":
        return f"EISDIR: illegal operation on a directory, open '{path}'"
    detail = (error.strerror or "i/o error").lower()
    return f"{name}: {detail}, {syscall} '{path}'"


def write_profile(
    profile: Any,
    *,
    scope: str = "project",
    project: Path | None,
    global_dir: Path,
    file_path: str | os.PathLike[str] | None = None,
    overwrite: bool = False,
) -> WriteResult:
    """pi-forge's ``writeAgentProfile``: post-validation plus the write-time scope guard, then the
    path guard, then an exclusive create (or, with ``overwrite``, an atomic replace).

    Raises :class:`~forgec.codecs.profile.MalformedProfileError` for an object the validator cannot
    read (pi-forge throws there).
    """
    diagnostics = (*validate_profile(profile), *check_stack_scope(profile, scope))
    if has_errors(diagnostics):
        return WriteResult(False, reason="validation", diagnostics=diagnostics)
    if file_path is not None:
        target = os.fspath(file_path)
    else:
        profile_id = js_string(profile.get("id", UNDEFINED))  # `${profile.id}.json`
        target = profile_target_path(scope, profile_id, project=project, global_dir=global_dir)
    if not is_safe_profile_path(target, scope=scope, project=project, global_dir=global_dir):
        error = (
            f"Profile path is outside {scope} agent-profile storage or traverses a symbolic link: {target}"
        )
        return WriteResult(False, reason="invalid-path", diagnostics=diagnostics, error=error)
    path = Path(target)
    if not overwrite and os.path.exists(path):
        return WriteResult(False, reason="exists", diagnostics=diagnostics)
    text = serialize_profile(profile)
    try:
        os.makedirs(path.parent, exist_ok=True)
    except FileExistsError:  # the folder's name is taken by a file: Node's EEXIST, which pi-forge reports so
        return WriteResult(False, reason="exists", diagnostics=diagnostics)
    except OSError as error:
        return WriteResult(
            False,
            reason="io",
            diagnostics=diagnostics,
            error=_system_message(error, "mkdir", str(path.parent)),
        )
    try:  # a new file is created exclusively (a race is reported as "exists"); a replace is atomic
        write_text_atomic(path, text, overwrite=overwrite, create_dirs=False)
    except FileExistsError:
        return WriteResult(False, reason="exists", diagnostics=diagnostics)
    except OSError as error:
        return WriteResult(
            False, reason="io", diagnostics=diagnostics, error=_system_message(error, "open", target)
        )
    return WriteResult(True, profile=profile, file_path=target)


def delete_profile(loaded: LoadedProfile, *, project: Path | None, global_dir: Path) -> DeleteResult:
    """Delete a loaded profile's file: refused outside the scope's storage or through a symbolic
    link (``invalid-path``), when it is gone (``missing``), or when the file no longer holds the
    loaded profile -- another id or another legacy fingerprint (``changed``, stale-delete protection)."""
    target = loaded.path
    scope = "global" if loaded.scope == "global" else "project"
    if not is_safe_profile_path(target, scope=scope, project=project, global_dir=global_dir):
        error = (
            f"Profile path is outside {scope} agent-profile storage or traverses a symbolic link: {target}"
        )
        return DeleteResult(False, target, "invalid-path", error)
    if not os.path.exists(target):
        return DeleteResult(False, target, "missing")
    current = load_profile_file(target, scope=scope)
    if (
        current.profile_id != loaded.profile_id
        or legacy_fingerprint(current.profile) != loaded.legacy_fingerprint
    ):
        return DeleteResult(False, target, "changed")
    try:
        os.unlink(target)
    except FileNotFoundError:
        return DeleteResult(False, target, "missing")
    except OSError as error:
        return DeleteResult(False, target, "io", _system_message(error, "unlink", target))
    return DeleteResult(True, target)


# --- the workspace -----------------------------------------------------------------------------------


@dataclass(eq=False)
class ProfileWorkspace:
    """The profiles and prompt stacks of one project and the user-global folder, loaded together.

    ``profiles`` and ``stacks`` are every loaded file, global first, in pi-forge's order; shadowed
    and broken ones included (:attr:`effective_profiles` is what selectors see).
    """

    project: Path | None
    global_dir: Path
    trusted: bool
    profiles: list[LoadedProfile]
    stacks: list[LoadedStack]

    @cached_property
    def profile_catalog(self) -> ResourceCatalog[LoadedProfile]:
        return ResourceCatalog(self.profiles)

    @cached_property
    def stack_catalog(self) -> ResourceCatalog[LoadedStack]:
        return ResourceCatalog(self.stacks, stack_key)

    @property
    def effective_profiles(self) -> list[LoadedProfile]:
        """One profile per id after project-over-global shadowing (§1.6)."""
        return self.profile_catalog.effective

    @property
    def effective_stacks(self) -> list[LoadedStack]:
        return self.stack_catalog.effective

    def find_profile(self, selector: str) -> LoadedProfile | None:
        """The profile a selector names (``reviewer``: project first; ``global:reviewer``)."""
        return self.profile_catalog.resolve(selector)

    def find_stack(self, selector: str) -> LoadedStack | None:
        return self.stack_catalog.resolve(selector)

    def profile_by_key(self, key: ResourceKey | str) -> LoadedProfile | None:
        """The one profile with exactly this ``<scope>:<id>`` key."""
        parsed = parse_selector(str(key))
        selector = parsed.selector
        if selector is None or selector.scope is None:
            return None
        return self.profile_catalog.resolve_exact(selector.scope, selector.id)

    def auto_activation(self) -> AutoActivation:
        requested = any(p.profile.get("autoActivate") is True for p in self.profiles)
        return AutoActivation(
            requested, choose_auto_activate_profile(self.profiles), choose_auto_activate_stack(self.stacks)
        )

    def resolve(
        self,
        loaded: LoadedProfile,
        *,
        models: Catalog | Iterable[Model] | None = None,
        available: Iterable[Model | tuple[str, str]] | None = None,
        tool_names: Collection[str] | None = None,
    ) -> ResolvedProfile:
        """:func:`resolve_profile` against this workspace's stacks."""
        return resolve_profile(
            loaded, stacks=self.stacks, models=models, available=available, tool_names=tool_names
        )

    def resolve_all(
        self,
        *,
        models: Catalog | Iterable[Model] | None = None,
        available: Iterable[Model | tuple[str, str]] | None = None,
        tool_names: Collection[str] | None = None,
    ) -> list[ResolvedProfile]:
        refs = list(available) if available is not None else None
        return [self.resolve(p, models=models, available=refs, tool_names=tool_names) for p in self.profiles]

    def capture(
        self,
        profile_id: str,
        target_scope: str,
        *,
        model: dict[str, Any] | None,
        thinking_level: str,
        prompt_stack: ResourceKey | None,
        existing: LoadedProfile | None = None,
    ) -> CaptureResult:
        """The current runtime as a profile of ``target_scope`` (§1.7; see
        :func:`~forgec.codecs.profile.capture_profile`)."""
        return capture_profile(
            profile_id,
            target_scope,
            model=model,
            thinking_level=thinking_level,
            prompt_stack=prompt_stack,
            existing=existing,
        )

    def write(
        self,
        profile: Any,
        *,
        scope: str = "project",
        file_path: str | os.PathLike[str] | None = None,
        overwrite: bool = False,
    ) -> WriteResult:
        """:func:`write_profile` into this workspace's folders (the loaded lists are not reloaded)."""
        return write_profile(
            profile,
            scope=scope,
            project=self.project,
            global_dir=self.global_dir,
            file_path=file_path,
            overwrite=overwrite,
        )

    def delete(self, loaded: LoadedProfile) -> DeleteResult:
        return delete_profile(loaded, project=self.project, global_dir=self.global_dir)

    def status(self, provenance: dict[str, Any] | None, current: dict[str, Any]) -> dict[str, Any]:
        """Drift of the current runtime from a provenance record (§1.11)."""
        return profile_runtime_status(self.profiles, provenance, current)
