"""One forge config file (``.pi/forge/config.json``) as pi-forge 0.4.1 reads and rewrites it
(profiles-exec.md §2): its ``subagents`` section, its ``webEditor.port``, and the updater's pure part.

Not forgec's own configuration: that is ``[tool.forgec]`` (:mod:`forgec.settings`).  Which files are
read together, trust, layering, the effective policy and the updater's writes are
:mod:`forgec.agents.config`; this module knows one file at a time.

* :func:`read_config_file` / :func:`parse_config_text` -- the file as pi-forge reads it: absent when
  ``existsSync`` says so, else ``readFileSync(path, "utf8")`` and ``JSON.parse``; a failure is one
  reason text (Node's ``fs`` message or V8's ``JSON.parse`` message), used by every reader of the file.
* :func:`read_subagents_section` -- §2.3/§2.4 for one file and its scope: the valid values, the
  per-profile entries under their canonical keys (``global:<id>``/``project:<id>``), and every
  warning in pi-forge's order and exact text.
* :func:`read_web_editor_port` -- §2.7.
* :func:`plan_profile_update` -- §2.6 without the disk: the new text of the file, or pi-forge's refusal.

Each warning is also a :class:`~forgec.diagnostics.Diagnostic` (codes FG570-FG586,
:mod:`forgec.rules.forge_config`) whose pointer names the offending value, so a front end can show
it at ``file:line:col`` (:meth:`ConfigCheck.positioned`); ``warnings`` gives the plain strings.

Objects are walked in JavaScript key order (integer-like keys first, :func:`forgec.js.values.js_items`),
which is the order of the warnings and of the keys of a rewritten file.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final, Literal, TypeGuard

from forgec.diagnostics import Diagnostic, Pointer, Span
from forgec.js.json import v8_parse_error
from forgec.js.values import (
    UNDEFINED,
    JSBigInt,
    is_integral_number,
    js_items,
    js_key_order,
    js_string,
    js_trim,
    js_truthy,
    json_stringify,
)
from forgec.model.identity import Scope, format_key, is_valid_resource_id, parse_selector
from forgec.rules import forge_config as codes
from forgec.source import (
    SourceDocument,
    decode_source,
    node_error_text,
    parse_source_text,
    read_file_bytes,
    resolve_spans,
)

__all__ = [
    "BUILTIN_BACKEND",
    "DEFAULT_TIMEOUT_MS",
    "MAX_PORT",
    "MAX_TIMEOUT_MS",
    "MIN_PORT",
    "MIN_TIMEOUT_MS",
    "PROFILE_FIELDS",
    "REGISTERED_BACKENDS",
    "ConfigCheck",
    "ConfigScope",
    "ConfigUpdatePlan",
    "ForgeConfigFile",
    "ProfileConfigUpdate",
    "ProfileSettings",
    "ProfileSource",
    "SubagentsSection",
    "WebEditorPort",
    "check_config_file",
    "config_key_for_selector",
    "is_valid_port",
    "is_valid_timeout_ms",
    "parse_config_text",
    "plan_profile_update",
    "read_config_file",
    "read_subagents_section",
    "read_web_editor_port",
    "validate_profile_update",
]

#: The backend used when neither a per-run override nor a configured default applies (§2.2).
BUILTIN_BACKEND: Final = "pi-subprocess-readonly"
#: The backends pi-forge 0.4.1 registers.
REGISTERED_BACKENDS: Final = ("pi-subprocess-readonly", "pi-rpc-readonly")
#: The built-in foreground timeout and the valid range (inclusive, safe integers).
DEFAULT_TIMEOUT_MS: Final = 60_000
MIN_TIMEOUT_MS: Final = 1_000
MAX_TIMEOUT_MS: Final = 3_600_000
#: The web editor's port range (§2.7).
MIN_PORT: Final = 1
MAX_PORT: Final = 65_535
#: The keys of one ``subagents.profiles`` entry, in the order pi-forge checks them.
PROFILE_FIELDS: Final = ("enabled", "backend", "timeoutMs")

#: A config file's scope: the project's file or the user's global one.
ConfigScope = Scope
ProfileSource = Literal["project-profile", "global-profile"]

_SAFE_INTEGER = 2**53 - 1
_MISSING: Final = object()


# --- profile selectors (§2.5) ---------------------------------------------------------------------


def config_key_for_selector(selector: str) -> str | None:
    """The ``profiles`` key a profile selector looks up (§2.5, ``configuredProfileForSelector``):
    ``global:<id>``/``project:<id>`` for a qualified selector, ``project:<id>`` for a bare one (global
    authority is never inferred from a bare id), ``None`` for a malformed one.  The selector is
    parsed as every resource selector is (:func:`forgec.model.identity.parse_selector`, trimmed first)."""
    parsed = parse_selector(selector).selector
    if parsed is None:
        return None
    return format_key(parsed.scope or "project", parsed.id)


# --- values ---------------------------------------------------------------------------------------


def is_valid_timeout_ms(value: object) -> TypeGuard[int | float]:
    """pi-forge's ``isValidSubagentTimeoutMs``: a safe integer from 1000 to 3600000.

    A boolean is not a number; ``60000.0`` (and ``6e4``) is the integer 60000, as in JavaScript.
    """
    return (
        is_integral_number(value)
        and abs(value) <= _SAFE_INTEGER
        and MIN_TIMEOUT_MS <= value <= MAX_TIMEOUT_MS
    )


def is_valid_port(value: object) -> TypeGuard[int | float]:
    """``typeof v === "number" && Number.isInteger(v) && v >= 1 && v <= 65535`` (§2.7)."""
    return is_integral_number(value) and MIN_PORT <= value <= MAX_PORT


def _non_blank_string(value: object) -> TypeGuard[str]:
    return isinstance(value, str) and js_trim(value) != ""


def _as_int(value: int | float) -> int:
    return value if isinstance(value, int) else int(value)


# --- the file --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ForgeConfigFile:
    """One config file as pi-forge reads it.

    ``exists`` is Node's ``existsSync`` (a dangling link or an unreachable path does not exist).  When
    it exists, either ``error`` is the reason it could not be used -- Node's ``readFileSync`` message
    or V8's ``JSON.parse`` message, exactly as pi-forge appends it to its warnings -- or
    ``document.data`` is the parsed value.  ``document`` keeps the text and positions
    (``error_span``: where ``JSON.parse`` failed); ``hints`` are forgec's reading hints (a
    byte-order mark, bytes that are not UTF-8).
    """

    path: str
    exists: bool
    document: SourceDocument | None = None
    error: str | None = None
    hints: tuple[Diagnostic, ...] = ()
    error_span: Span | None = None

    @property
    def parsed(self) -> bool:
        return self.document is not None and self.document.parsed

    @property
    def root(self) -> Any:
        """The parsed value (any JSON value), or ``None`` when there is none."""
        return self.document.data if self.document is not None and self.document.parsed else None

    @property
    def text(self) -> str | None:
        return self.document.text if self.document is not None else None


def read_config_file(path: str | os.PathLike[str]) -> ForgeConfigFile:
    """Read a config file as pi-forge does; never raises (see :class:`ForgeConfigFile`)."""
    name = os.fspath(path)
    if not os.path.exists(name):
        return ForgeConfigFile(name, False)
    try:
        raw = read_file_bytes(name)
    except (OSError, ValueError) as error:
        return ForgeConfigFile(name, True, error=node_error_text(error, name))
    return _from_document(decode_source(raw, name, "json"))


def parse_config_text(text: str, path: str = "<memory>") -> ForgeConfigFile:
    """A config file's text that is already in memory (an editor buffer), read as if from ``path``."""
    return _from_document(parse_source_text(text, path, "json"))


def _from_document(doc: SourceDocument) -> ForgeConfigFile:
    hints = tuple(d for d in doc.diagnostics if d.extra)
    if doc.parsed:
        return ForgeConfigFile(doc.path, True, doc, hints=hints)
    failure = v8_parse_error(doc.text or "")
    if failure is None:  # pragma: no cover - the C parser and V8's scanner agree on what is JSON
        return ForgeConfigFile(doc.path, True, doc, error="Unexpected end of JSON input", hints=hints)
    span = doc.span(failure.offset) if failure.offset is not None else None
    return ForgeConfigFile(doc.path, True, doc, error=failure.reason, hints=hints, error_span=span)


# --- the subagents section (§2.3, §2.4) -------------------------------------------------------------


@dataclass(frozen=True)
class ProfileSettings:
    """The valid per-profile settings of one ``subagents.profiles`` entry
    (pi-forge's ``ForgeSubagentProfileSettings``); a field that was absent or invalid is ``None``."""

    enabled: bool | None = None
    enabled_source: ProfileSource | None = None
    backend: str | None = None
    backend_source: ProfileSource | None = None
    timeout_ms: int | None = None
    timeout_source: ProfileSource | None = None

    @property
    def empty(self) -> bool:
        return self.enabled is None and self.backend is None and self.timeout_ms is None

    def to_json(self) -> dict[str, Any]:
        """pi-forge's object: only the fields that were set, in the order it sets them."""
        out: dict[str, Any] = {}
        if self.enabled is not None:
            out["enabled"] = self.enabled
            out["enabledSource"] = self.enabled_source
        if self.backend is not None:
            out["backend"] = self.backend
            out["backendSource"] = self.backend_source
        if self.timeout_ms is not None:
            out["timeoutMs"] = self.timeout_ms
            out["timeoutSource"] = self.timeout_source
        return out


@dataclass(frozen=True)
class SubagentsSection:
    """What one file's ``subagents`` section contributes (§2.3, §2.4), before layering.

    A value is ``None`` when the file does not set it validly.  ``profiles`` maps canonical keys
    (``<scope>:<id>``) to the entries that kept at least one valid field, in JavaScript key order.
    ``allow_agent_invocation_without_approval`` is only ever read from a project file.
    ``diagnostics`` are pi-forge's warnings in order (``warnings`` the plain strings).
    """

    path: str
    scope: ConfigScope
    backend: str | None = None
    timeout_ms: int | None = None
    summary_in_tool_description: bool | None = None
    allow_agent_invocation_without_approval: bool | None = None
    profiles: Mapping[str, ProfileSettings] = field(default_factory=dict)
    diagnostics: tuple[Diagnostic, ...] = ()

    @property
    def warnings(self) -> list[str]:
        return [d.message for d in self.diagnostics]


def _warning(message: str, code: str, pointer: Pointer | None, span: Span | None = None) -> Diagnostic:
    return Diagnostic("warning", message, code, pointer=pointer, span=span)


def read_subagents_section(file: ForgeConfigFile, scope: ConfigScope) -> SubagentsSection:
    """Read one file's ``subagents`` section for its scope, exactly as pi-forge does (§2.3, §2.4).

    ``scope`` decides the canonical keys and sources of the profile entries and whether
    ``allowAgentInvocationWithoutApproval`` is read at all (project only; silently ignored in the
    global file).  Unknown keys at the top level and inside ``subagents`` are ignored silently.
    """
    path = file.path
    out: list[Diagnostic] = []
    if not file.exists:
        return SubagentsSection(path, scope)
    if file.error is not None:
        out.append(
            _warning(
                f"pi-forge: failed to read {path}; its subagent settings are ignored. {file.error}",
                codes.CONFIG_UNREADABLE,
                None,
                file.error_span,
            )
        )
        return SubagentsSection(path, scope, diagnostics=tuple(out))
    raw = file.root
    if not isinstance(raw, dict):
        out.append(
            _warning(
                f"pi-forge: {path} must be a JSON object; its subagent settings are ignored.",
                codes.CONFIG_ROOT_NOT_OBJECT,
                (),
            )
        )
        return SubagentsSection(path, scope, diagnostics=tuple(out))
    if "subagents" not in raw:
        return SubagentsSection(path, scope)
    section = raw["subagents"]
    if not isinstance(section, dict):
        out.append(
            _warning(
                f"pi-forge: {path} subagents must be a JSON object; its subagent settings are ignored.",
                codes.CONFIG_SUBAGENTS_NOT_OBJECT,
                ("subagents",),
            )
        )
        return SubagentsSection(path, scope, diagnostics=tuple(out))

    backend: str | None = None
    if "backend" in section:
        value = section["backend"]
        if _non_blank_string(value):
            backend = value
        else:
            out.append(
                _warning(
                    f"pi-forge: {path} subagents.backend must be a non-empty string; the configured value is ignored.",
                    codes.CONFIG_BACKEND_INVALID,
                    ("subagents", "backend"),
                )
            )
    timeout: int | None = None
    if "timeoutMs" in section:
        value = section["timeoutMs"]
        if is_valid_timeout_ms(value):
            timeout = _as_int(value)
        else:
            out.append(
                _warning(
                    f"pi-forge: {path} subagents.timeoutMs must be an integer from {MIN_TIMEOUT_MS} to "
                    f"{MAX_TIMEOUT_MS}; the configured value is ignored.",
                    codes.CONFIG_TIMEOUT_INVALID,
                    ("subagents", "timeoutMs"),
                )
            )
    summary: bool | None = None
    if "summaryInToolDescription" in section:
        value = section["summaryInToolDescription"]
        if isinstance(value, bool):
            summary = value
        else:
            out.append(
                _warning(
                    f"pi-forge: {path} subagents.summaryInToolDescription must be boolean; the configured "
                    "value is ignored.",
                    codes.CONFIG_SUMMARY_FLAG_INVALID,
                    ("subagents", "summaryInToolDescription"),
                )
            )
    profiles = _read_profiles(section, path, scope, out)
    unattended: bool | None = None
    if scope == "project" and "allowAgentInvocationWithoutApproval" in section:
        value = section["allowAgentInvocationWithoutApproval"]
        if isinstance(value, bool):
            unattended = value
        else:
            out.append(
                _warning(
                    f"pi-forge: {path} subagents.allowAgentInvocationWithoutApproval must be boolean; per-run "
                    "subagent approval remains required.",
                    codes.CONFIG_UNATTENDED_FLAG_INVALID,
                    ("subagents", "allowAgentInvocationWithoutApproval"),
                )
            )
    return SubagentsSection(path, scope, backend, timeout, summary, unattended, profiles, tuple(out))


def _read_profiles(
    section: dict[str, Any], path: str, scope: ConfigScope, out: list[Diagnostic]
) -> dict[str, ProfileSettings]:
    """``applyProfiles``: each entry of ``subagents.profiles`` in ``Object.entries`` order."""
    profiles: dict[str, ProfileSettings] = {}
    if "profiles" not in section:
        return profiles
    entries = section["profiles"]
    if not isinstance(entries, dict):
        out.append(
            _warning(
                f"pi-forge: {path} subagents.profiles must be a JSON object; its per-profile settings are ignored.",
                codes.CONFIG_PROFILES_NOT_OBJECT,
                ("subagents", "profiles"),
            )
        )
        return profiles
    source: ProfileSource = "project-profile" if scope == "project" else "global-profile"
    for profile_id, entry in js_items(entries):
        where = f"subagents.profiles.{profile_id}"
        pointer: Pointer = ("subagents", "profiles", profile_id)
        if not is_valid_resource_id(profile_id):
            out.append(
                _warning(
                    f"pi-forge: {path} {where} has an invalid profile id; the entry is ignored.",
                    codes.CONFIG_PROFILE_ID_INVALID,
                    pointer,
                )
            )
            continue
        if not isinstance(entry, dict):
            out.append(
                _warning(
                    f"pi-forge: {path} {where} must be a JSON object; the entry is ignored.",
                    codes.CONFIG_PROFILE_ENTRY_NOT_OBJECT,
                    pointer,
                )
            )
            continue
        for key in js_key_order(entry):
            if key not in PROFILE_FIELDS:
                out.append(
                    _warning(
                        f"pi-forge: {path} {where}.{key} is unsupported and ignored.",
                        codes.CONFIG_PROFILE_KEY_UNSUPPORTED,
                        (*pointer, key),
                    )
                )
        enabled: bool | None = None
        if "enabled" in entry:
            if isinstance(entry["enabled"], bool):
                enabled = entry["enabled"]
            else:
                out.append(
                    _warning(
                        f"pi-forge: {path} {where}.enabled must be boolean; the configured value is ignored.",
                        codes.CONFIG_PROFILE_ENABLED_INVALID,
                        (*pointer, "enabled"),
                    )
                )
        backend: str | None = None
        if "backend" in entry:
            if _non_blank_string(entry["backend"]):
                backend = entry["backend"]
            else:
                out.append(
                    _warning(
                        f"pi-forge: {path} {where}.backend must be a non-empty string; the configured value "
                        "is ignored.",
                        codes.CONFIG_PROFILE_BACKEND_INVALID,
                        (*pointer, "backend"),
                    )
                )
        timeout: int | None = None
        if "timeoutMs" in entry:
            value = entry["timeoutMs"]
            if is_valid_timeout_ms(value):
                timeout = _as_int(value)
            else:
                out.append(
                    _warning(
                        f"pi-forge: {path} {where}.timeoutMs must be an integer from {MIN_TIMEOUT_MS} to "
                        f"{MAX_TIMEOUT_MS}; the configured value is ignored.",
                        codes.CONFIG_PROFILE_TIMEOUT_INVALID,
                        (*pointer, "timeoutMs"),
                    )
                )
        settings = ProfileSettings(
            enabled,
            source if enabled is not None else None,
            backend,
            source if backend is not None else None,
            timeout,
            source if timeout is not None else None,
        )
        if not settings.empty:  # an entry whose every field was invalid is not stored
            profiles[f"{scope}:{profile_id}"] = settings
    return profiles


# --- webEditor.port (§2.7) --------------------------------------------------------------------------


@dataclass(frozen=True)
class WebEditorPort:
    """The web editor's preferred port from a trusted project's file (``None``: any free port)."""

    config_path: str
    preferred_port: int | None = None
    diagnostics: tuple[Diagnostic, ...] = ()

    @property
    def warnings(self) -> list[str]:
        return [d.message for d in self.diagnostics]

    def to_json(self) -> dict[str, Any]:
        """pi-forge's ``{preferredPort?, configPath, warnings}``."""
        out: dict[str, Any] = {}
        if self.preferred_port is not None:
            out["preferredPort"] = self.preferred_port
        out["configPath"] = self.config_path
        out["warnings"] = self.warnings
        return out


def read_web_editor_port(file: ForgeConfigFile) -> WebEditorPort:
    """``webEditor.port`` of one (trusted project) file, exactly as pi-forge reads it (§2.7).

    The value is ``webEditor.port`` when ``webEditor`` is an object, falling back to the legacy
    top-level ``webEditorPort`` when that is absent or null (or ``webEditor`` is not an object);
    only a final absent value means "no port, no warning".
    """
    path = file.path
    if not file.exists:
        return WebEditorPort(path)
    if file.error is not None:
        message = f"pi-forge: failed to read {path}; using an available editor port. {file.error}"
        found = _warning(message, codes.WEB_EDITOR_CONFIG_UNREADABLE, None, file.error_span)
        return WebEditorPort(path, diagnostics=(found,))
    raw = file.root
    if not isinstance(raw, dict):
        message = f"pi-forge: {path} must be a JSON object; using an available editor port."
        return WebEditorPort(path, diagnostics=(_warning(message, codes.WEB_EDITOR_ROOT_NOT_OBJECT, ()),))
    editor = raw.get("webEditor")
    port: Any = editor.get("port") if isinstance(editor, dict) else None
    pointer: Pointer = ("webEditor", "port")
    if port is None:  # `webEditor?.port ?? raw.webEditorPort`: null and undefined both fall back
        port = raw.get("webEditorPort", _MISSING)
        pointer = ("webEditorPort",)
        if port is _MISSING:
            return WebEditorPort(path)
    if is_valid_port(port):
        return WebEditorPort(path, _as_int(port))
    message = f"pi-forge: {path} webEditor.port must be an integer from {MIN_PORT} to {MAX_PORT}; using an available editor port."
    return WebEditorPort(path, diagnostics=(_warning(message, codes.WEB_EDITOR_PORT_INVALID, pointer),))


# --- forgec validate ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class ConfigCheck:
    """Every finding about one config file: forgec's reading hints, then pi-forge's warnings (the
    subagent reader's, then -- for a project file -- the web editor's)."""

    file: ForgeConfigFile
    scope: ConfigScope
    diagnostics: tuple[Diagnostic, ...]

    def positioned(self) -> list[Diagnostic]:
        """The diagnostics with their spans (line and column) resolved in the file's text."""
        return resolve_spans(self.diagnostics, self.file.document)


def check_config_file(file: ForgeConfigFile | str | os.PathLike[str], scope: ConfigScope) -> ConfigCheck:
    """Check one config file as if it were in force (a project file as if its project were trusted)."""
    if not isinstance(file, ForgeConfigFile):
        file = read_config_file(file)
    found = [*file.hints, *read_subagents_section(file, scope).diagnostics]
    if scope == "project":
        found += read_web_editor_port(file).diagnostics
    return ConfigCheck(file, scope, tuple(found))


# --- the config updater, without the disk (§2.6) ----------------------------------------------------


@dataclass(frozen=True)
class ProfileConfigUpdate:
    """One per-profile update (pi-forge's ``ForgeSubagentProfileConfigUpdate``).

    A field left :data:`~forgec.js.values.UNDEFINED` is not touched.  ``enabled`` is read for its
    truthiness (truthy sets ``true``, falsy deletes the key); ``backend`` is a non-blank string
    (stored trimmed) or ``None`` to delete; ``timeout_ms`` a valid timeout or ``None`` to delete.
    """

    enabled: object = UNDEFINED
    backend: object = UNDEFINED
    timeout_ms: object = UNDEFINED

    @classmethod
    def from_json(cls, update: Mapping[str, Any]) -> ProfileConfigUpdate:
        """From pi-forge's object ``{enabled?, backend?, timeoutMs?}`` (other keys are ignored)."""
        return cls(
            update.get("enabled", UNDEFINED),
            update.get("backend", UNDEFINED),
            update.get("timeoutMs", UNDEFINED),
        )


@dataclass(frozen=True)
class ConfigUpdatePlan:
    """The outcome of :func:`plan_profile_update`: the file's new ``text``, or pi-forge's ``error``."""

    path: str
    text: str | None = None
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.error is None


def validate_profile_update(profile_id: str, update: ProfileConfigUpdate) -> str | None:
    """The refusals pi-forge returns before it reads the file (§2.6), or ``None``."""
    profile_id = _as_key(profile_id)
    if not is_valid_resource_id(profile_id):
        return f"Invalid agent profile id: {profile_id}"
    backend = update.backend
    if backend is not UNDEFINED and backend is not None and not _non_blank_string(backend):
        return "subagent backend must be a non-empty string or null to clear the override."
    timeout = update.timeout_ms
    if timeout is not UNDEFINED and timeout is not None and not is_valid_timeout_ms(timeout):
        return (
            f"subagent timeoutMs must be an integer from {MIN_TIMEOUT_MS} to {MAX_TIMEOUT_MS} "
            "or null to clear the override."
        )
    return None


def _as_key(profile_id: object) -> str:
    """A property key as JavaScript makes one (``String(id)``): pi-forge tests and uses the id as given."""
    return profile_id if isinstance(profile_id, str) else js_string(profile_id)


def _truthy(value: object) -> bool:
    """JavaScript truthiness, a ``bigint`` included (``0n`` is falsy)."""
    return value.value != 0 if isinstance(value, JSBigInt) else js_truthy(value)


#: ``Object.prototype`` members that are valid profile ids: ``profiles[id]`` finds them (a function,
#: not an object) when the file has no such own key, so pi-forge refuses to update such a profile.
_INHERITED: Final = frozenset(
    {"constructor", "hasOwnProperty", "isPrototypeOf", "propertyIsEnumerable", "toLocaleString", "toString", "valueOf"}
)
_FUNCTION: Final = object()


def plan_profile_update(file: ForgeConfigFile, profile_id: str, update: ProfileConfigUpdate) -> ConfigUpdatePlan:
    """``updateForgeSubagentProfileConfig`` without the write: ``subagents.profiles.<id>`` of ``file``
    updated, as ``JSON.stringify(root, null, 2) + "\\n"``, or pi-forge's refusal text.

    Unknown keys at every level are preserved; existing keys keep their place, new keys are
    appended (a key deleted and set again moves to the end), integer-like keys come first and
    numbers print as JavaScript prints them.  An entry, ``profiles`` or ``subagents`` left empty is
    removed.  An update that changes nothing still yields the file's (re-serialised) text; a missing
    file yields ``{}`` plus a newline at least.  ``file`` is not changed.
    """
    path = file.path
    profile_id = _as_key(profile_id)
    error = validate_profile_update(profile_id, update)
    if error is not None:
        return ConfigUpdatePlan(path, error=error)
    root: dict[str, Any] = {}
    if file.exists:
        if file.error is not None:
            return ConfigUpdatePlan(path, error=f"Refusing to update unreadable {path}: {file.error}")
        if not isinstance(file.root, dict):
            return ConfigUpdatePlan(path, error=f"Refusing to update {path}: the config root must be a JSON object.")
        root = dict(file.root)  # the three objects the update changes are copies; the rest is shared
    current = root.get("subagents", _MISSING)
    if current is not _MISSING and not isinstance(current, dict):
        return ConfigUpdatePlan(path, error=f"Refusing to update {path}: subagents must be a JSON object.")
    subagents: dict[str, Any] = dict(current) if isinstance(current, dict) else {}
    current = subagents.get("profiles", _MISSING)
    if current is not _MISSING and not isinstance(current, dict):
        return ConfigUpdatePlan(path, error=f"Refusing to update {path}: subagents.profiles must be a JSON object.")
    profiles: dict[str, Any] = dict(current) if isinstance(current, dict) else {}
    current = profiles.get(profile_id, _FUNCTION if profile_id in _INHERITED else _MISSING)
    if current is not _MISSING and not isinstance(current, dict):
        return ConfigUpdatePlan(
            path, error=f"Refusing to update {path}: subagents.profiles.{profile_id} must be a JSON object."
        )
    entry: dict[str, Any] = dict(current) if isinstance(current, dict) else {}

    if update.enabled is not UNDEFINED:
        if _truthy(update.enabled):
            entry["enabled"] = True
        else:
            entry.pop("enabled", None)
    if update.backend is not UNDEFINED:
        if _non_blank_string(update.backend):
            entry["backend"] = js_trim(update.backend)
        else:
            entry.pop("backend", None)
    if update.timeout_ms is not UNDEFINED:
        if update.timeout_ms is None:
            entry.pop("timeoutMs", None)
        else:
            entry["timeoutMs"] = update.timeout_ms

    if entry:
        profiles[profile_id] = entry
    else:
        profiles.pop(profile_id, None)
    if profiles:
        subagents["profiles"] = profiles
    else:
        subagents.pop("profiles", None)
    if subagents:
        root["subagents"] = subagents
    else:
        root.pop("subagents", None)
    text = json_stringify(root, 2)
    assert text is not None  # an object always prints
    return ConfigUpdatePlan(path, text=text + "\n")
