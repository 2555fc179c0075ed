"""The forge config of both scopes (profiles-exec.md §2): the layered subagent settings, the effective
policy per profile selector, the web editor's port, and the config updater's atomic writes.

pi-forge 0.4.1 reads two files (:class:`ForgeConfigPaths`):

* the user-global ``~/.pi/forge/config.json`` (``$PI_FORGE_GLOBAL_CONFIG_PATH`` if set), always honoured
  for its ``subagents`` section;
* the project's ``<project>/.pi/forge/config.json``, honoured only when the project is trusted -- an
  untrusted project's file is not read at all.

:func:`load_subagent_settings` reads the global file, then (trusted) the project file, each with
:func:`forgec.codecs.forge_config.read_subagents_section`; a later valid value overwrites an earlier
one, a bad value is ignored with a warning.  :func:`resolve_policy` answers "may this profile be
delegated, on which backend, with which timeout" (§2.5); :func:`load_web_editor` is §2.7;
:func:`update_profile_config` is the updater (§2.6), written atomically: the file is either replaced
whole or left as it was.
"""

from __future__ import annotations

import errno
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from forgec.atomic import write_text_atomic
from forgec.codecs.forge_config import (
    BUILTIN_BACKEND,
    DEFAULT_TIMEOUT_MS,
    ConfigScope,
    ProfileConfigUpdate,
    ProfileSettings,
    SubagentsSection,
    WebEditorPort,
    config_key_for_selector,
    plan_profile_update,
    read_config_file,
    read_subagents_section,
    read_web_editor_port,
    validate_profile_update,
)
from forgec.diagnostics import Diagnostic
from forgec.js.values import js_truthy
from forgec.workspace import global_config_path, global_forge_dir, project_config_path

__all__ = [
    "BackendSource",
    "ConfigSource",
    "ForgeConfig",
    "ForgeConfigPaths",
    "ProfileConfigResult",
    "ProfilePolicy",
    "ResolvedBackend",
    "ResolvedTimeout",
    "SubagentSettings",
    "TimeoutSource",
    "configured_profile",
    "layer_sections",
    "load_forge_config",
    "load_subagent_settings",
    "load_web_editor",
    "resolve_backend",
    "resolve_policy",
    "resolve_timeout",
    "update_profile_config",
]

ConfigSource = Literal["project", "global"]
BackendSource = Literal["explicit", "project-profile", "global-profile", "project", "global", "built-in"]
TimeoutSource = Literal["project-profile", "global-profile", "project", "global", "built-in"]


# --- where the files are ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ForgeConfigPaths:
    """The two config files of one project: ``project`` (``<root>/.pi/forge/config.json``) and
    ``global_`` (the user's)."""

    root: Path
    project: Path
    global_: Path

    @classmethod
    def for_project(
        cls,
        root: str | os.PathLike[str],
        *,
        global_dir: str | os.PathLike[str] | None = None,
        global_config: str | os.PathLike[str] | None = None,
        environ: dict[str, str] | None = None,
    ) -> ForgeConfigPaths:
        """The files pi-forge reads for the project at ``root``.

        ``global_config`` names the user's file outright; otherwise it is
        ``$PI_FORGE_GLOBAL_CONFIG_PATH`` or ``<global_dir>/config.json``, where ``global_dir`` defaults
        to the user-global forge folder (``$PI_FORGE_GLOBAL_DIR`` or ``~/.pi/forge``).  ``environ``
        replaces ``os.environ`` for those lookups.
        """
        project_root = Path(root)
        if global_config is not None:
            user = Path(global_config)
        else:
            folder = Path(global_dir) if global_dir is not None else global_forge_dir(environ)
            user = global_config_path(folder, environ)
        return cls(project_root, project_config_path(project_root), user)

    def for_scope(self, scope: ConfigScope) -> Path:
        """The file a scope's updates go to."""
        return self.project if scope == "project" else self.global_


# --- the layered settings (§2.3) ------------------------------------------------------------------


@dataclass(frozen=True)
class SubagentSettings:
    """pi-forge's ``ForgeSubagentSettings``: both files' ``subagents`` sections layered.

    ``backend``/``backend_source`` and ``summary_in_tool_description_source`` stay ``None`` until a
    valid value is read; ``timeout_source`` is ``"built-in"`` until one is.  ``profiles`` maps
    ``global:<id>``/``project:<id>`` to the valid per-profile fields (global entries first, each file
    in its key order).  ``warnings`` are pi-forge's, in reading order; ``diagnostics`` the same
    findings with codes and pointers, and ``sections`` what each file read contributed (global, then
    the project's when it was read) -- their ``path`` pairs a diagnostic with its file.
    """

    config_path: str
    global_config_path: str
    allow_agent_invocation_without_approval: bool = False
    backend: str | None = None
    backend_source: ConfigSource | None = None
    timeout_ms: int = DEFAULT_TIMEOUT_MS
    timeout_source: ConfigSource | Literal["built-in"] = "built-in"
    summary_in_tool_description: bool = False
    summary_in_tool_description_source: ConfigSource | None = None
    profiles: dict[str, ProfileSettings] = field(default_factory=dict)
    sections: tuple[SubagentsSection, ...] = ()
    #: the order in which the optional members first appeared on pi-forge's object (for ``to_json``)
    _late_keys: tuple[str, ...] = field(default=(), repr=False)

    @property
    def diagnostics(self) -> list[Diagnostic]:
        return [d for section in self.sections for d in section.diagnostics]

    @property
    def warnings(self) -> list[str]:
        return [d.message for d in self.diagnostics]

    def to_json(self) -> dict[str, Any]:
        """The settings object exactly as pi-forge builds it (key order included)."""
        out: dict[str, Any] = {
            "allowAgentInvocationWithoutApproval": self.allow_agent_invocation_without_approval,
            "timeoutMs": self.timeout_ms,
            "timeoutSource": self.timeout_source,
            "summaryInToolDescription": self.summary_in_tool_description,
            "profiles": {key: entry.to_json() for key, entry in self.profiles.items()},
            "configPath": self.config_path,
            "globalConfigPath": self.global_config_path,
            "warnings": self.warnings,
        }
        for key in self._late_keys:
            if key == "backend":
                out["backend"] = self.backend
                out["backendSource"] = self.backend_source
            else:
                out["summaryInToolDescriptionSource"] = self.summary_in_tool_description_source
        return out


def load_subagent_settings(paths: ForgeConfigPaths, *, trusted: bool) -> SubagentSettings:
    """``loadForgeSubagentSettings``: the global file, then -- only if ``trusted`` -- the project file."""
    sections = [read_subagents_section(read_config_file(paths.global_), "global")]
    if trusted:
        sections.append(read_subagents_section(read_config_file(paths.project), "project"))
    return layer_sections(str(paths.project), str(paths.global_), sections)


def layer_sections(config_path: str, global_config_path: str, sections: list[SubagentsSection]) -> SubagentSettings:
    """Layer files already read (global first): a later valid value overwrites an earlier one.

    The unattended flag is only ever taken from a project section (the reader never reads it from a
    global file).  Same-id global and project profile entries have different keys and never merge.
    """
    values: dict[str, Any] = {}
    late: list[str] = []
    profiles: dict[str, ProfileSettings] = {}
    for section in sections:
        source: ConfigSource = section.scope
        if section.backend is not None:
            values["backend"], values["backend_source"] = section.backend, source
            if "backend" not in late:
                late.append("backend")
        if section.timeout_ms is not None:
            values["timeout_ms"], values["timeout_source"] = section.timeout_ms, source
        if section.summary_in_tool_description is not None:
            values["summary_in_tool_description"] = section.summary_in_tool_description
            values["summary_in_tool_description_source"] = source
            if "summary" not in late:
                late.append("summary")
        profiles.update(section.profiles)
        if section.scope == "project" and section.allow_agent_invocation_without_approval is not None:
            values["allow_agent_invocation_without_approval"] = section.allow_agent_invocation_without_approval
    return SubagentSettings(
        config_path,
        global_config_path,
        profiles=profiles,
        sections=tuple(sections),
        _late_keys=tuple(late),
        **values,
    )


# --- the effective policy (§2.5) ------------------------------------------------------------------


@dataclass(frozen=True)
class ResolvedBackend:
    id: str
    source: BackendSource

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "source": self.source}


@dataclass(frozen=True)
class ResolvedTimeout:
    milliseconds: int
    source: TimeoutSource

    def to_json(self) -> dict[str, Any]:
        return {"milliseconds": self.milliseconds, "source": self.source}


@dataclass(frozen=True)
class ProfilePolicy:
    """pi-forge's ``ResolvedSubagentProfilePolicy``; ``profile_id`` is the selector exactly as passed."""

    profile_id: str
    enabled: bool
    enabled_source: Literal["project-profile", "global-profile", "built-in"]
    backend: ResolvedBackend
    timeout: ResolvedTimeout

    def to_json(self) -> dict[str, Any]:
        return {
            "profileId": self.profile_id,
            "enabled": self.enabled,
            "enabledSource": self.enabled_source,
            "backend": self.backend.to_json(),
            "timeout": self.timeout.to_json(),
        }


def configured_profile(settings: SubagentSettings, selector: str) -> ProfileSettings | None:
    """``configuredProfileForSelector``: the entry a selector addresses -- exactly ``<scope>:<id>`` for
    a qualified selector, ``project:<id>`` only for a bare one, nothing for a malformed one."""
    key = config_key_for_selector(selector)
    return settings.profiles.get(key) if key is not None else None


def resolve_backend(
    settings: SubagentSettings, explicit_backend: str | None = None, selector: str | None = None
) -> ResolvedBackend:
    """The backend of one run: the per-run override (an empty string is none), the profile's backend,
    the configured default (project over global), then ``pi-subprocess-readonly``.  There is no
    fallback when the chosen backend is not registered: the run fails."""
    if js_truthy(explicit_backend):
        assert explicit_backend is not None
        return ResolvedBackend(explicit_backend, "explicit")
    profile = configured_profile(settings, selector) if selector else None
    if profile is not None and profile.backend:
        return ResolvedBackend(profile.backend, profile.backend_source or "project-profile")
    if settings.backend:
        return ResolvedBackend(settings.backend, settings.backend_source or "global")
    return ResolvedBackend(BUILTIN_BACKEND, "built-in")


def resolve_timeout(settings: SubagentSettings, selector: str | None = None) -> ResolvedTimeout:
    """The timeout of one run: the profile's ``timeoutMs``, the configured default (project over
    global), then 60000 ms."""
    profile = configured_profile(settings, selector) if selector else None
    if profile is not None and profile.timeout_ms is not None:
        return ResolvedTimeout(profile.timeout_ms, profile.timeout_source or "project-profile")
    return ResolvedTimeout(settings.timeout_ms, settings.timeout_source)


def resolve_policy(settings: SubagentSettings, selector: str, explicit_backend: str | None = None) -> ProfilePolicy:
    """``resolveSubagentProfilePolicy``: a profile is delegatable only when its entry says exactly
    ``enabled: true``; unlisted profiles are not."""
    profile = configured_profile(settings, selector)
    return ProfilePolicy(
        selector,
        profile is not None and profile.enabled is True,
        (profile.enabled_source if profile is not None else None) or "built-in",
        resolve_backend(settings, explicit_backend, selector),
        resolve_timeout(settings, selector),
    )


# --- the web editor's port (§2.7) ----------------------------------------------------------------


def load_web_editor(paths: ForgeConfigPaths, *, trusted: bool) -> WebEditorPort:
    """The editor's preferred port: read only from a trusted project's file."""
    if not trusted:
        return WebEditorPort(str(paths.project))
    return read_web_editor_port(read_config_file(paths.project))


@dataclass(frozen=True)
class ForgeConfig:
    """Everything the forge config says for one project, read once."""

    paths: ForgeConfigPaths
    trusted: bool
    subagents: SubagentSettings
    web_editor: WebEditorPort

    def policy(self, selector: str, explicit_backend: str | None = None) -> ProfilePolicy:
        return resolve_policy(self.subagents, selector, explicit_backend)


def load_forge_config(paths: ForgeConfigPaths, *, trusted: bool) -> ForgeConfig:
    """Both readers over both files: the layered subagent settings and the web editor's port."""
    return ForgeConfig(paths, trusted, load_subagent_settings(paths, trusted=trusted), load_web_editor(paths, trusted=trusted))


# --- the config updater (§2.6) ----------------------------------------------------------------------


@dataclass(frozen=True)
class ProfileConfigResult:
    """pi-forge's ``{ok: true, configPath}`` or ``{ok: false, error}``."""

    ok: bool
    config_path: str | None = None
    error: str | None = None

    def to_json(self) -> dict[str, Any]:
        if self.ok:
            return {"ok": True, "configPath": self.config_path}
        return {"ok": False, "error": self.error}


def update_profile_config(
    paths: ForgeConfigPaths,
    profile_id: str,
    update: ProfileConfigUpdate,
    *,
    scope: ConfigScope = "project",
) -> ProfileConfigResult:
    """``updateForgeSubagentProfileConfig``: update ``subagents.profiles.<profile_id>`` in the scope's
    file, preserving everything else, and write it back atomically (parent folders created).

    Refusals come back as ``ok=False`` with pi-forge's text and leave the file untouched.  Project
    updates need a trusted project: that is the caller's check, as in pi-forge.  A config file that
    is a symbolic link is written through the link (Node's ``writeFile`` follows it).
    """
    path = str(paths.for_scope(scope))
    refusal = validate_profile_update(profile_id, update)  # before the file is read, as pi-forge does
    if refusal is not None:
        return ProfileConfigResult(False, error=refusal)
    plan = plan_profile_update(read_config_file(path), profile_id, update)
    if plan.error is not None or plan.text is None:
        return ProfileConfigResult(False, error=plan.error)
    failure = _write(Path(path), plan.text)
    if failure is not None:
        return ProfileConfigResult(False, error=f"Failed to write {path}: {failure}")
    return ProfileConfigResult(True, config_path=path)


def _write(path: Path, text: str) -> str | None:
    """``mkdirSync(dirname(path), {recursive: true})`` then the file, atomically; Node's error text on failure."""
    folder = path.parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except (OSError, ValueError) as error:
        return _node_error(error, "mkdir", str(folder))
    target = Path(os.path.realpath(path)) if path.is_symlink() else path
    try:
        write_text_atomic(target, text, overwrite=True, create_dirs=False)
    except (OSError, ValueError) as error:
        return _node_error(error, "open", str(path))
    return None


#: libuv's descriptions of the errors a write can meet (``uv_strerror``)
_UV_TEXTS = {
    errno.EACCES: "permission denied",
    errno.EEXIST: "file already exists",
    errno.ENOTDIR: "not a directory",
    errno.ENOENT: "no such file or directory",
    errno.EISDIR: "illegal operation on a directory",
    errno.EROFS: "read-only file system",
    errno.ENOSPC: "no space left on device",
    errno.EPERM: "operation not permitted",
    errno.ELOOP: "too many symbolic links encountered",
    errno.ENAMETOOLONG: "name too long",
    errno.EDQUOT: "disk quota exceeded",
    errno.EIO: "i/o error",
    errno.EMFILE: "too many open files",
    errno.EBUSY: "resource busy or locked",
    errno.EINVAL: "invalid argument",
}
#: errors Node reports from the ``write`` call itself, without a path
_WRITE_ERRORS = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EIO})


def _node_error(error: OSError | ValueError, syscall: str, path: str) -> str:
    """Node's ``fs`` error message: ``EACCES: permission denied, open '<path>'``."""
    if isinstance(error, ValueError):  # a NUL in the path: Node refuses the argument itself
        shown = path.replace("\x00", "\\x00")
        return f"The argument 'path' must be a string, Uint8Array, or URL without null bytes. Received '{shown}'"
    number = error.errno or errno.EIO
    name = errno.errorcode.get(number, "EIO")
    text = _UV_TEXTS.get(number, (error.strerror or "i/o error").lower())
    if syscall == "open" and number in _WRITE_ERRORS:
        return f"{name}: {text}, write"
    return f"{name}: {text}, {syscall} '{path}'"
