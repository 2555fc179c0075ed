"""pi-forge 0.4.1's agent-profile format (profiles-exec.md §1), check for check.

One file goes through :func:`load_profile_file`: read (:mod:`forgec.source`; a file that cannot be
read or parsed is one ``Failed to parse JSON: …`` error and the *fallback profile*), the shape
checks and normalisation of §1.3 step 3 (:func:`load_profile_value`), then the post-validation of
step 4 (:func:`validate_profile`, also what a writer runs).  :func:`load_profile_folder` lists a
folder as pi-forge does and runs the cross-file checks of §1.5 (:func:`annotate_profiles`).

The rest of the file format's rules are pure functions too:

* :func:`render_diagnostics` (§1.4), :func:`legacy_fingerprint` (§1.11, compact JSON, not hashed),
  :func:`serialize_profile` (what a writer puts in a file);
* :func:`find_profile_stack` -- the profile's ``promptStack`` reference resolved against loaded
  stacks (§1.7), shared by the catalog resolution and the subagent host, which word the outcome
  differently (:func:`stack_reference_diagnostics` gives the profile texts);
* :func:`check_stack_scope` -- the write-time scope guard;
* :func:`capture_profile` -- a profile built from the current runtime for a target scope;
* :func:`is_profile_provenance` and :func:`profile_runtime_status` -- provenance records and drift.

Every diagnostic carries pi-forge's exact level and text, pi-forge's ``field``, a registered FG5xx
code and a ``pointer`` to the value it is about, so :func:`forgec.source.resolve_spans` can give it a
line and column.  The normalised profile is plain data in pi-forge's key order (§1.2).
"""

from __future__ import annotations

import copy
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final, Literal

from forgec.diagnostics import Diagnostic, Pointer
from forgec.errors import ForgecError
from forgec.js.values import UNDEFINED, is_number, js_key_order, js_string, js_trim, js_truthy, json_stringify
from forgec.model import PROFILE_TYPE, THINKING_LEVELS
from forgec.model.identity import (
    ResourceKey,
    ResourceSelector,
    SelectorResult,
    format_key,
    is_resource_scope,
    is_valid_resource_id,
    parse_selector,
)
from forgec.rules import profiles as codes
from forgec.source import SourceDocument, parse_source_text, read_source
from forgec.workspace import list_resource_files

if TYPE_CHECKING:
    from forgec.codecs.stack import LoadedStack

__all__ = [
    "MODEL_FIELDS",
    "PROFILE_FIELDS",
    "CaptureResult",
    "LoadedProfile",
    "MalformedProfileError",
    "StackReference",
    "annotate_profiles",
    "capture_profile",
    "check_stack_scope",
    "fallback_profile",
    "find_profile_stack",
    "has_errors",
    "is_profile_provenance",
    "legacy_fingerprint",
    "load_profile_data",
    "load_profile_file",
    "load_profile_folder",
    "load_profile_value",
    "normalize_profile",
    "profile_file_stem",
    "profile_runtime_status",
    "render_diagnostics",
    "serialize_profile",
    "stack_reference_diagnostics",
    "validate_profile",
]

#: The top-level keys of schema v1 (anything else is an error).
PROFILE_FIELDS: Final = (
    "schemaVersion", "type", "id", "name", "description", "model", "thinkingLevel", "promptStack", "autoActivate",
)  # fmt: skip
#: The keys of ``model``.
MODEL_FIELDS: Final = ("provider", "id")
_PROFILE_FIELD_SET: Final = frozenset(PROFILE_FIELDS)
_MODEL_FIELD_SET: Final = frozenset(MODEL_FIELDS)
_LEVELS: Final = frozenset(THINKING_LEVELS)
_LEVEL_LIST: Final = ", ".join(THINKING_LEVELS)
_ID_GRAMMAR_TEXT: Final = "Profile id must start with a letter or number and contain only letters, numbers, dots, underscores, and hyphens."
_SELECTOR_CODES: Final = {
    "empty": codes.STACK_SELECTOR_EMPTY,
    "scope": codes.STACK_SELECTOR_SCOPE_UNKNOWN,
    "id": codes.STACK_SELECTOR_ID_INVALID,
}


class MalformedProfileError(ForgecError, ValueError):
    """A profile object whose shape pi-forge's validator cannot even read (``model`` missing, a
    non-string ``promptStack``...): pi-forge throws a ``TypeError``; the message is V8's."""


@dataclass(eq=False)
class LoadedProfile:
    """One loaded profile file: pi-forge's ``LoadedAgentProfile`` plus the parsed value and document."""

    #: the file as it was named (pi-forge's ``filePath``)
    path: str
    file_name: str
    scope: str
    #: the normalised profile (§1.2 key order; the fallback profile when the file could not be used)
    profile: dict[str, Any]
    #: the parsed file content (``None`` when the file could not be read or parsed)
    raw: Any
    diagnostics: list[Diagnostic] = field(default_factory=list)
    document: SourceDocument | None = None

    @property
    def profile_id(self) -> str:
        return str(self.profile["id"])

    @property
    def key(self) -> ResourceKey:
        """``{scope, id}``; ``str(key)`` is ``<scope>:<id>``."""
        return ResourceKey(self.scope, self.profile_id)

    @property
    def usable(self) -> bool:
        """pi-forge's ``isUsableAgentProfile``: no error-level diagnostic."""
        return not has_errors(self.diagnostics)

    @property
    def rendered(self) -> str:
        """The human rendering of the diagnostics (§1.4)."""
        return render_diagnostics(self.diagnostics)

    @property
    def legacy_fingerprint(self) -> str:
        """pi-forge's ``agentProfileFingerprint`` (§1.11)."""
        return legacy_fingerprint(self.profile)

    def to_json(self) -> dict[str, Any]:
        """``{file, filePath, scope, key, profile, diagnostics, usable}`` (pi-forge's diagnostics only)."""
        return {
            "file": self.file_name,
            "filePath": self.path,
            "scope": self.scope,
            "key": str(self.key),
            "profile": copy.deepcopy(self.profile),
            "diagnostics": [d.to_pi() for d in self.diagnostics if not d.extra],
            "usable": self.usable,
        }


def has_errors(diagnostics: Iterable[Diagnostic]) -> bool:
    """pi-forge's ``hasAgentProfileErrors``."""
    return any(d.level == "error" for d in diagnostics)


def render_diagnostics(diagnostics: Iterable[Diagnostic]) -> str:
    """§1.4: ``No diagnostics.``, or one ``LEVEL: [field: ]message`` line per diagnostic
    (forgec-only findings left out)."""
    lines = [
        f"{d.level.upper()}: {d.field + ': ' if d.field else ''}{d.message}"
        for d in diagnostics
        if not d.extra
    ]
    return "\n".join(lines) if lines else "No diagnostics."


def legacy_fingerprint(profile: Any) -> str:
    """``agentProfileFingerprint``: the compact JSON of the profile in its own key order (§1.11)."""
    return json_stringify(profile) or ""


def serialize_profile(profile: Any) -> str:
    """The text a writer puts in a profile file: 2-space JSON and a trailing newline."""
    return (json_stringify(profile, 2) or "") + "\n"


# --- files -----------------------------------------------------------------------------------------


def profile_file_stem(file_name: str) -> str:
    """Node's ``basename(file, ".json")``: the name without ``.json`` (``.json`` alone keeps it)."""
    return file_name[: -len(".json")] if file_name.endswith(".json") and file_name != ".json" else file_name


def fallback_profile(file_name: str) -> dict[str, Any]:
    """The profile pi-forge uses for a file it cannot parse or whose root is not an object."""
    return {
        "schemaVersion": 1,
        "type": PROFILE_TYPE,
        "id": profile_file_stem(os.path.basename(file_name)),
        "model": {"provider": "", "id": ""},
        "thinkingLevel": "off",
        "promptStack": None,
    }


def load_profile_file(path: str | os.PathLike[str], *, scope: str = "project") -> LoadedProfile:
    """Load one profile file (§1.3).  Never raises: every problem is a diagnostic."""
    name = os.fspath(path)
    return _load_document(read_source(name), name, os.path.basename(name), scope)


def load_profile_data(
    data_or_text: Any, file_name: str, *, scope: str = "project", path: str | None = None
) -> LoadedProfile:
    """Load a profile held in memory: ``str`` is parsed as the file's JSON text, anything else is
    taken as the parsed value.  ``file_name`` gives the fallback id."""
    where = path or file_name
    if isinstance(data_or_text, str):
        return _load_document(parse_source_text(data_or_text, where, "json"), where, file_name, scope)
    profile, diagnostics = load_profile_value(data_or_text, file_name)
    return LoadedProfile(where, file_name, scope, profile, data_or_text, diagnostics, None)


def _load_document(document: SourceDocument, path: str, file_name: str, scope: str) -> LoadedProfile:
    diagnostics = list(document.diagnostics)
    if not document.parsed:
        return LoadedProfile(path, file_name, scope, fallback_profile(file_name), None, diagnostics, document)
    profile, found = load_profile_value(document.data, file_name)
    diagnostics.extend(found)
    return LoadedProfile(path, file_name, scope, profile, document.data, diagnostics, document)


def load_profile_folder(
    directories: Iterable[str | os.PathLike[str]], scope: str = "project"
) -> list[LoadedProfile]:
    """Every ``*.json`` entry of the folders (pi-forge's listing: UTF-16 order, a missing or
    unreadable folder is empty), loaded, with the cross-file checks of §1.5."""
    loaded = [load_profile_file(path, scope=scope) for path in list_resource_files(directories, (".json",))]
    annotate_profiles(loaded)
    return loaded


# --- one value: shape checks and normalisation (§1.3 steps 2-3) -----------------------------------


def _error(message: str, code: str, pointer: Pointer | None, field_name: str | None = None) -> Diagnostic:
    return Diagnostic("error", message, code, pointer=pointer, field=field_name)


def _prompt_stack_invalid() -> Diagnostic:
    """The one text for a ``promptStack`` that is neither a usable id nor null (read and normalise)."""
    return _error(
        "promptStack must be a non-empty stack id or null.", codes.PROFILE_PROMPT_STACK_INVALID, ("promptStack",), "promptStack"
    )


def _non_blank(value: Any) -> str | None:
    """pi-forge's ``nonEmptyString``: the trimmed string when it has content."""
    if isinstance(value, str):
        trimmed = js_trim(value)
        if trimmed:
            return trimmed
    return None


def load_profile_value(value: Any, file_name: str) -> tuple[dict[str, Any], list[Diagnostic]]:
    """Steps 2-4 of §1.3 on a parsed value: the normalised profile and the diagnostics, in order."""
    diagnostics: list[Diagnostic] = []
    profile = _normalize(value, file_name, diagnostics)
    diagnostics.extend(validate_profile(profile))
    return profile, diagnostics


def normalize_profile(value: Any, fallback_id: str = "") -> dict[str, Any]:
    """The normalised profile of a parsed value (§1.2), without the diagnostics.

    ``fallback_id`` is the id used when the value has none (pi-forge uses the file's name without
    ``.json``).  Ids and model fields are trimmed, unknown keys dropped, wrongly typed optional
    fields left out, a missing or invalid ``model``/``thinkingLevel``/``promptStack`` replaced by
    ``{provider: "", id: ""}``/``off``/``null``; this is the object the profile fingerprint hashes.
    """
    return _normalize(value, fallback_id + ".json" if fallback_id else "", [])


def _normalize(raw: Any, file_name: str, diagnostics: list[Diagnostic]) -> dict[str, Any]:
    if not isinstance(raw, dict):
        diagnostics.append(
            _error("Agent profile root must be a JSON object.", codes.PROFILE_ROOT_NOT_OBJECT, ())
        )
        return fallback_profile(file_name)
    for key in js_key_order(raw):
        if key not in _PROFILE_FIELD_SET:
            diagnostics.append(
                _error(f"Unsupported profile field: {key}", codes.PROFILE_FIELD_UNSUPPORTED, (key,), key)
            )
    version = raw.get("schemaVersion", UNDEFINED)
    if not (is_number(version) and version == 1):
        diagnostics.append(
            _error(
                "schemaVersion must be 1.", codes.PROFILE_SCHEMA_VERSION, ("schemaVersion",), "schemaVersion"
            )
        )
    if raw.get("type") != PROFILE_TYPE:
        diagnostics.append(
            _error(f'type must be "{PROFILE_TYPE}".', codes.PROFILE_TYPE_INVALID, ("type",), "type")
        )
    profile_id = _non_blank(raw.get("id"))
    if profile_id is None:
        diagnostics.append(
            _error("Profile id must be a non-empty string.", codes.PROFILE_ID_MISSING, ("id",), "id")
        )
    model = _normalize_model(raw.get("model", UNDEFINED), diagnostics)
    level = raw.get("thinkingLevel", UNDEFINED)
    if not (isinstance(level, str) and level in _LEVELS):
        diagnostics.append(
            _error(
                f"thinkingLevel must be one of: {_LEVEL_LIST}.",
                codes.PROFILE_THINKING_LEVEL_INVALID,
                ("thinkingLevel",),
                "thinkingLevel",
            )
        )
        level = "off"
    stack = _normalize_stack_reference(raw, diagnostics)
    for key, code in (("name", codes.PROFILE_NAME_TYPE), ("description", codes.PROFILE_DESCRIPTION_TYPE)):
        member = raw.get(key, UNDEFINED)
        if member is not UNDEFINED and not isinstance(member, str):
            diagnostics.append(_error(f"{key} must be a string when provided.", code, (key,), key))
    auto = raw.get("autoActivate", UNDEFINED)
    if auto is not UNDEFINED and not isinstance(auto, bool):
        diagnostics.append(
            _error(
                "autoActivate must be a boolean when provided.",
                codes.PROFILE_AUTO_ACTIVATE_TYPE,
                ("autoActivate",),
                "autoActivate",
            )
        )
    profile: dict[str, Any] = {
        "schemaVersion": 1,
        "type": PROFILE_TYPE,
        "id": profile_id if profile_id is not None else profile_file_stem(os.path.basename(file_name)),
    }
    for key in ("name", "description"):
        if isinstance(raw.get(key), str):
            profile[key] = raw[key]
    if isinstance(auto, bool):
        profile["autoActivate"] = auto
    profile["model"] = model
    profile["thinkingLevel"] = level
    profile["promptStack"] = stack
    return profile


def _normalize_model(raw: Any, diagnostics: list[Diagnostic]) -> dict[str, str]:
    if not isinstance(raw, dict):
        diagnostics.append(
            _error(
                "model must be an object containing provider and id.",
                codes.PROFILE_MODEL_NOT_OBJECT,
                ("model",),
                "model",
            )
        )
        return {"provider": "", "id": ""}
    for key in js_key_order(raw):
        if key not in _MODEL_FIELD_SET:
            diagnostics.append(
                _error(
                    f"Unsupported model field: {key}",
                    codes.PROFILE_MODEL_FIELD_UNSUPPORTED,
                    ("model", key),
                    f"model.{key}",
                )
            )
    return {"provider": _non_blank(raw.get("provider")) or "", "id": _non_blank(raw.get("id")) or ""}


def _normalize_stack_reference(raw: dict[str, Any], diagnostics: list[Diagnostic]) -> str | None:
    if "promptStack" not in raw:
        diagnostics.append(
            _error(
                "promptStack is required and must be a stack id or null.",
                codes.PROFILE_PROMPT_STACK_REQUIRED,
                ("promptStack",),
                "promptStack",
            )
        )
        return None
    value = raw["promptStack"]
    if value is None:
        return None
    reference = _non_blank(value)
    if reference is not None:
        return reference
    diagnostics.append(_prompt_stack_invalid())
    return None


# --- post-validation (§1.3 step 4) -----------------------------------------------------------------


def _read(value: Any, key: str) -> Any:
    """``value[key]`` as JavaScript reads a property (``TypeError`` on null and undefined)."""
    if value is None or value is UNDEFINED:
        raise MalformedProfileError(f"Cannot read properties of {js_string(value)} (reading '{key}')")
    if isinstance(value, dict):
        return value.get(key, UNDEFINED)
    return UNDEFINED


def _trim(value: Any, expression: str) -> str:
    """``<expression>.trim()`` as JavaScript runs it."""
    if isinstance(value, str):
        return js_trim(value)
    if value is None or value is UNDEFINED:
        raise MalformedProfileError(f"Cannot read properties of {js_string(value)} (reading 'trim')")
    raise MalformedProfileError(f"{expression}.trim is not a function")


def validate_profile(profile: Any) -> list[Diagnostic]:
    """pi-forge's ``validateAgentProfile`` on a (normally normalised) profile object.

    Used after loading, before writing and on snapshots.  A value whose shape the original cannot
    read raises :class:`MalformedProfileError` with V8's ``TypeError`` text.
    """
    diagnostics: list[Diagnostic] = []
    version = _read(profile, "schemaVersion")
    if not (is_number(version) and version == 1):
        diagnostics.append(
            _error(
                "schemaVersion must be 1.", codes.PROFILE_SCHEMA_VERSION, ("schemaVersion",), "schemaVersion"
            )
        )
    kind = _read(profile, "type")
    if not (isinstance(kind, str) and kind == PROFILE_TYPE):
        diagnostics.append(
            _error(f'type must be "{PROFILE_TYPE}".', codes.PROFILE_TYPE_INVALID, ("type",), "type")
        )
    if not is_valid_resource_id(js_string(_read(profile, "id"))):  # RegExp.test() reads String(id)
        diagnostics.append(_error(_ID_GRAMMAR_TEXT, codes.PROFILE_ID_INVALID, ("id",), "id"))
    model = _read(profile, "model")
    if not _trim(_read(model, "provider"), "profile.model.provider"):
        diagnostics.append(
            _error(
                "model.provider must not be empty.",
                codes.PROFILE_MODEL_PROVIDER_EMPTY,
                ("model", "provider"),
                "model.provider",
            )
        )
    if not _trim(_read(model, "id"), "profile.model.id"):
        diagnostics.append(
            _error("model.id must not be empty.", codes.PROFILE_MODEL_ID_EMPTY, ("model", "id"), "model.id")
        )
    level = _read(profile, "thinkingLevel")
    if not (isinstance(level, str) and level in _LEVELS):
        diagnostics.append(
            _error(
                f"Unsupported thinkingLevel: {js_string(level)}",
                codes.PROFILE_THINKING_LEVEL_UNSUPPORTED,
                ("thinkingLevel",),
                "thinkingLevel",
            )
        )
    stack = _read(profile, "promptStack")
    if stack is not None and not _trim(stack, "profile.promptStack"):
        diagnostics.append(_prompt_stack_invalid())
    return diagnostics


# --- cross-file checks (§1.5) ----------------------------------------------------------------------


def annotate_profiles(profiles: Sequence[LoadedProfile]) -> None:
    """§1.5 over one loaded list, in pi-forge's order: duplicate ids, then auto-activation conflicts.

    Each affected profile gets a new diagnostic appended (its earlier ones are kept as they are).
    """
    groups: dict[tuple[str, str], list[LoadedProfile]] = {}
    for loaded in profiles:
        groups.setdefault((loaded.scope, loaded.profile_id), []).append(loaded)
    for (scope, profile_id), members in groups.items():
        if len(members) < 2:
            continue
        names = ", ".join(os.path.basename(member.path) for member in members)
        for member in members:
            member.diagnostics.append(
                Diagnostic(
                    "error",
                    f"Duplicate {scope} profile id: {profile_id} appears in multiple files ({names}).",
                    codes.DUPLICATE_PROFILE_ID,
                    pointer=_id_pointer(member),
                )
            )
    by_scope: dict[str, list[LoadedProfile]] = {}
    for loaded in profiles:
        if loaded.profile.get("autoActivate") is True:
            by_scope.setdefault(loaded.scope, []).append(loaded)
    for scope, candidates in by_scope.items():
        if len(candidates) < 2:
            continue
        names = ", ".join(os.path.basename(member.path) for member in candidates)
        for member in candidates:
            member.diagnostics.append(
                _error(
                    f"Multiple {scope} profiles request auto-activation ({names}); exactly one is allowed.",
                    codes.MULTIPLE_AUTO_ACTIVATE_PROFILES,
                    ("autoActivate",),
                    "autoActivate",
                )
            )


def _id_pointer(loaded: LoadedProfile) -> Pointer | None:
    """Where a cross-file finding points: the id, the root of a non-object, nothing for a file
    that was not parsed."""
    if isinstance(loaded.raw, dict):
        return ("id",)
    return () if loaded.document is None or loaded.document.parsed else None


# --- the promptStack reference (§1.7) --------------------------------------------------------------

Outcome = Literal["resolved", "invalid", "global-project", "missing", "ambiguous"]


@dataclass(frozen=True, slots=True)
class StackReference:
    """How a profile's ``promptStack`` reference resolves against the loaded stacks.

    ``outcome`` is ``resolved`` (``stack`` is the one match), ``invalid`` (the selector does not
    parse: ``error`` is the parser's text), ``global-project`` (a global profile naming a project
    stack), ``missing`` or ``ambiguous``.  ``scope`` is the scope searched (the selector's, else the
    profile's own: bare references are scope-relative); ``suggestion`` is pi-forge's
    `` Use global:<id> to reference the global stack.`` hint for a project profile whose bare
    reference exists only globally (else empty).
    """

    reference: str
    outcome: Outcome
    parsed: SelectorResult
    scope: str | None = None
    stack: LoadedStack | None = None
    suggestion: str = ""

    @property
    def selector(self) -> ResourceSelector | None:
        return self.parsed.selector

    @property
    def stack_key(self) -> ResourceKey | None:
        """The resolved stack's key (``<scope>:<id>`` via ``str``)."""
        return None if self.stack is None else ResourceKey(self.stack.scope, self.stack.stack_id)


def find_profile_stack(
    profile: dict[str, Any], scope: str, stacks: Sequence[LoadedStack]
) -> StackReference | None:
    """Resolve the profile's ``promptStack`` (§1.7 steps 1-4); ``None`` when it is ``null``."""
    reference = profile.get("promptStack")
    if reference is None:
        return None
    parsed = parse_selector(reference)
    selector = parsed.selector
    if selector is None:
        return StackReference(reference, "invalid", parsed)
    if scope == "global" and selector.scope == "project":
        return StackReference(reference, "global-project", parsed, "project")
    target = selector.scope or scope
    matches = [s for s in stacks if s.scope == target and s.stack_id == selector.id]
    if len(matches) == 1:
        return StackReference(reference, "resolved", parsed, target, matches[0])
    if matches:
        return StackReference(reference, "ambiguous", parsed, target)
    suggestion = ""
    if (
        scope == "project"
        and target == "project"
        and any(s.scope == "global" and s.stack_id == selector.id for s in stacks)
    ):
        suggestion = f" Use {format_key('global', selector.id)} to reference the global stack."
    return StackReference(reference, "missing", parsed, target, suggestion=suggestion)


def _global_project_message(profile_id: Any, stack_id: str) -> str:
    return f"Global profile {js_string(profile_id)} cannot reference project prompt stack {stack_id}."


def stack_reference_diagnostics(found: StackReference, profile_id: str) -> list[Diagnostic]:
    """The catalog resolution's diagnostics for an unresolved reference (§1.7; none when resolved)."""
    pointer: Pointer = ("promptStack",)
    if found.outcome == "invalid":
        code = _SELECTOR_CODES.get(found.parsed.reason or "id", codes.STACK_SELECTOR_ID_INVALID)
        return [_error(found.parsed.error or "", code, pointer, "promptStack")]
    if found.outcome == "global-project":
        stack_id = found.selector.id if found.selector else ""
        message = _global_project_message(profile_id, stack_id)
        return [_error(message, codes.GLOBAL_PROFILE_PROJECT_STACK, pointer, "promptStack")]
    if found.outcome == "missing":
        message = f"Unknown prompt stack: {found.reference}.{found.suggestion}"
        return [_error(message, codes.PROFILE_STACK_UNKNOWN, pointer, "promptStack")]
    if found.outcome == "ambiguous":
        message = f"Prompt stack id is ambiguous: {found.reference}"
        return [_error(message, codes.PROFILE_STACK_AMBIGUOUS, pointer, "promptStack")]
    return []


def check_stack_scope(profile: Any, scope: str) -> list[Diagnostic]:
    """The write-time scope guard (§1.7): a parse error, or a global profile naming a project stack.

    Independent of which stacks exist: bare and ``global:`` references always pass.
    """
    reference = _read(profile, "promptStack")
    if reference is None:
        return []
    if not isinstance(reference, str):
        raise MalformedProfileError("input.trim is not a function")
    parsed = parse_selector(reference)
    if parsed.selector is None:
        code = _SELECTOR_CODES.get(parsed.reason or "id", codes.STACK_SELECTOR_ID_INVALID)
        return [_error(parsed.error or "", code, ("promptStack",), "promptStack")]
    if scope == "global" and parsed.selector.scope == "project":
        message = _global_project_message(_read(profile, "id"), parsed.selector.id)
        return [_error(message, codes.GLOBAL_PROFILE_PROJECT_STACK, ("promptStack",), "promptStack")]
    return []


# --- capture (§1.7) --------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CaptureResult:
    """``{ok: true, profile, diagnostics}`` or ``{ok: false, diagnostics}``."""

    ok: bool
    profile: dict[str, Any] | None
    diagnostics: tuple[Diagnostic, ...]

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"ok": self.ok}
        if self.ok and self.profile is not None:
            out["profile"] = copy.deepcopy(self.profile)
        out["diagnostics"] = [d.to_pi() for d in self.diagnostics if not d.extra]
        return out


def capture_profile(
    profile_id: str,
    target_scope: str,
    *,
    model: Any,
    thinking_level: str,
    prompt_stack: ResourceKey | None,
    existing: LoadedProfile | None = None,
) -> CaptureResult:
    """pi-forge's ``captureAgentProfile``: the current runtime (``model``, ``thinking_level``, the
    active stack's key) as a profile of ``target_scope``.

    The stack is written as a bare id when its scope is the target's, as ``global:<id>`` from a
    project profile; a global profile cannot capture a project stack.  ``name`` (default: the id),
    ``description`` and ``autoActivate`` come from ``existing``.  The profile is then post-validated.
    """
    if not js_truthy(model):
        return CaptureResult(
            False,
            None,
            (
                _error(
                    "Cannot capture an agent profile without a selected model.",
                    codes.CAPTURE_WITHOUT_MODEL,
                    None,
                    "model",
                ),
            ),
        )
    reference: str | None = None
    if prompt_stack is not None:
        if prompt_stack.scope == target_scope:
            reference = prompt_stack.id
        elif target_scope == "project" and prompt_stack.scope == "global":
            reference = str(prompt_stack)
        else:
            message = (
                f"Cannot capture a {target_scope} profile referencing a {prompt_stack.scope} prompt stack "
                f"{prompt_stack.id}."
            )
            return CaptureResult(
                False, None, (_error(message, codes.CAPTURE_STACK_SCOPE, None, "promptStack"),)
            )
    kept = existing.profile if existing is not None else {}
    profile: dict[str, Any] = {"schemaVersion": 1, "type": PROFILE_TYPE, "id": profile_id}
    name = kept.get("name")
    profile["name"] = name if name is not None else profile_id
    for key in ("description", "autoActivate"):
        if kept.get(key) is not None:
            profile[key] = kept[key]
    profile["model"] = dict(model) if isinstance(model, dict) else {}
    profile["thinkingLevel"] = thinking_level
    profile["promptStack"] = reference
    diagnostics = tuple(validate_profile(profile))
    if has_errors(diagnostics):
        return CaptureResult(False, None, diagnostics)
    return CaptureResult(True, profile, diagnostics)


# --- provenance and drift (§1.11) ------------------------------------------------------------------


def is_profile_provenance(value: Any) -> bool:
    """pi-forge's ``isAgentProfileProvenance``: whether a stored record is accepted."""
    if not isinstance(value, dict):
        return False
    snapshot = value.get("snapshot")
    if not isinstance(snapshot, dict) or not isinstance(snapshot.get("model"), dict):
        return False
    model = snapshot["model"]
    level = snapshot.get("thinkingLevel")
    stack = snapshot.get("promptStack", UNDEFINED)
    return (
        is_valid_resource_id(value.get("profileId"))
        and ("scope" not in value or value["scope"] is UNDEFINED or is_resource_scope(value["scope"]))
        and all(isinstance(value.get(key), str) for key in ("sourcePath", "sourceFingerprint", "appliedAt"))
        and _non_blank(model.get("provider")) is not None
        and _non_blank(model.get("id")) is not None
        and isinstance(level, str)
        and level in _LEVELS
        and (stack is None or _non_blank(stack) is not None)
    )


def _clone_current(current: dict[str, Any]) -> dict[str, Any]:
    model = current.get("model")
    return {
        "model": dict(model) if isinstance(model, dict) else (copy.deepcopy(model) if js_truthy(model) else None),
        "thinkingLevel": current.get("thinkingLevel", UNDEFINED),
        "promptStack": current.get("promptStack", UNDEFINED),
        "effectiveTools": list(current.get("effectiveTools") or []),
    }


def _same_model(left: Any, right: Any) -> bool:
    if left is None or right is None:
        return left is right
    get_left = left.get if isinstance(left, dict) else (lambda _k: UNDEFINED)
    get_right = right.get if isinstance(right, dict) else (lambda _k: UNDEFINED)
    return bool(get_left("provider") == get_right("provider") and get_left("id") == get_right("id"))


def _same(left: Any, right: Any) -> bool:
    """``Object.is`` on JSON values (strings, null, numbers)."""
    if is_number(left) and is_number(right):
        return bool(left == right) or (left != left and right != right)
    if isinstance(left, (dict, list)) or isinstance(right, (dict, list)):
        return left is right
    return type(left) is type(right) and bool(left == right)


def profile_runtime_status(
    profiles: Sequence[LoadedProfile], provenance: dict[str, Any] | None, current: dict[str, Any]
) -> dict[str, Any]:
    """pi-forge's ``getAgentProfileRuntimeStatus``: ``{current, lastApplied?}`` (§1.11).

    ``current`` is ``{model, thinkingLevel, promptStack, effectiveTools}``; ``lastApplied`` (only
    with a ``provenance`` record) has the record, ``sourceState`` (``missing`` when no loaded profile
    has the record's ``sourcePath``, else ``unchanged``/``changed`` by legacy fingerprint) and the
    drift of model, thinking level and stack.  Rejecting malformed records is the caller's job.
    """
    status: dict[str, Any] = {"current": _clone_current(current)}
    if not provenance:
        return status
    source = next((p for p in profiles if p.path == provenance.get("sourcePath")), None)
    if source is None:
        state = "missing"
    else:
        state = "unchanged" if source.legacy_fingerprint == provenance.get("sourceFingerprint") else "changed"
    snapshot = provenance.get("snapshot")
    recorded = snapshot if isinstance(snapshot, dict) else {}

    def drift(name: str, equal: Any) -> dict[str, Any]:
        expected = copy.deepcopy(recorded.get(name, UNDEFINED))
        actual = copy.deepcopy(current.get(name, UNDEFINED))
        return {"expected": expected, "actual": actual, "changed": not equal(expected, actual)}

    status["lastApplied"] = {
        "provenance": copy.deepcopy(provenance),
        "sourceState": state,
        "drift": {
            "model": drift("model", _same_model),
            "thinkingLevel": drift("thinkingLevel", _same),
            "promptStack": drift("promptStack", _same),
        },
    }
    return status
