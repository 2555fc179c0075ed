"""Host resolution of an agent profile into an ``AgentProfileSnapshot`` (profiles-exec.md §4.3).

What a subagent is started from, independent of any backend: no model registry, authentication,
tools, mounts or limits are looked at.  :func:`resolve_host_profile` takes a loaded profile, the
loaded prompt stacks and the registered custom macros and slots, and returns a
:class:`HostResolution`: the profile's load diagnostics re-coded for the contract
(``profile.validation``), the stack reference resolved relative to the profile's scope
(``profile.stack-reference``/``-missing``/``-ambiguous``; the stack's own findings as
``profile.stack-validation``), the *dependency scan* of the stack (custom slots and macros it needs,
:func:`collect_prompt_dependencies`), and -- when nothing is an error -- the snapshot with the profile
and stack fingerprints.

Contract diagnostics are ``{level, code, message, path}`` (:class:`ContractDiagnostic`), not the
profile's ``{level, message, field}``; the delegation contract's validators use the same type.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from forgec.codecs.profile import LoadedProfile, MalformedProfileError, find_profile_stack, validate_profile
from forgec.fingerprint import FINGERPRINT_SHAPE_MESSAGE, is_fingerprint, sha256_v1
from forgec.js.collation import locale_key
from forgec.js.values import UNDEFINED, is_number, js_key_order, js_string, js_trim, utf16_key
from forgec.model import BUILTIN_MACRO_NAMES, BUILTIN_SLOT_NAMES, MODES
from forgec.model.identity import format_key, parse_selector

if TYPE_CHECKING:
    from forgec.codecs.stack import LoadedStack
    from forgec.plugins import Registry

__all__ = [
    "ContractDiagnostic",
    "HostResolution",
    "Registration",
    "Registrations",
    "collect_macro_command_names",
    "collect_prompt_dependencies",
    "resolve_host_profile",
    "validate_agent_profile_snapshot",
]

_BUILTIN_MACROS: Final = frozenset(BUILTIN_MACRO_NAMES)
_BUILTIN_SLOTS: Final = frozenset(BUILTIN_SLOT_NAMES)
_COMMAND: Final = re.compile(r"[A-Za-z][A-Za-z0-9_.-]*")


@dataclass(frozen=True, slots=True)
class ContractDiagnostic:
    """A finding of the delegation contract: ``{level, code, message, path?}``."""

    level: str
    code: str
    message: str
    path: str | None = None

    def to_json(self) -> dict[str, str]:
        out = {"level": self.level, "code": self.code, "message": self.message}
        if self.path is not None:
            out["path"] = self.path
        return out


@dataclass(frozen=True, slots=True)
class Registration:
    """A registered custom macro or slot: its name and the stable identity of what provides it."""

    name: str
    source: str | None = None


@dataclass(frozen=True, slots=True)
class Registrations:
    """The custom macros and slots a host offers (pi-forge's ``SubagentPromptRegistrationCatalog``).

    The built-in macros and slots are never dependencies, so they need not be listed.
    """

    macros: tuple[Registration, ...] = ()
    slots: tuple[Registration, ...] = ()

    @classmethod
    def from_json(cls, value: Any) -> Registrations:
        """``{macros: [{name, source?}], slots: [...]}``."""
        doc = value if isinstance(value, dict) else {}

        def entries(key: str) -> tuple[Registration, ...]:
            items = doc.get(key)
            out = []
            for item in items if isinstance(items, list) else []:
                if isinstance(item, dict) and isinstance(item.get("name"), str):
                    source = item.get("source")
                    out.append(Registration(item["name"], source if isinstance(source, str) else None))
            return tuple(out)

        return cls(entries("macros"), entries("slots"))

    @classmethod
    def from_registry(cls, registry: Registry) -> Registrations:
        """The custom macros and slots of a forgec plugin registry (an empty ``source`` is none)."""
        return cls(
            tuple(Registration(d.name, d.source or None) for d in registry.macros.values()),
            tuple(Registration(d.name, d.source or None) for d in registry.slots.values()),
        )


@dataclass(slots=True)
class HostResolution:
    """pi-forge's ``SubagentHostResolution``; ``snapshot`` only when no diagnostic is an error."""

    profile_id: str
    dependencies: list[dict[str, Any]] = field(default_factory=list)
    missing_dependencies: list[dict[str, str]] = field(default_factory=list)
    diagnostics: list[ContractDiagnostic] = field(default_factory=list)
    snapshot: dict[str, Any] | None = None
    #: the resolved prompt stack (``None`` without a reference or when it did not resolve)
    stack: LoadedStack | None = None

    @property
    def ok(self) -> bool:
        return self.snapshot is not None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"profileId": self.profile_id}
        if self.snapshot is not None:
            out["snapshot"] = copy.deepcopy(self.snapshot)
        out["dependencies"] = copy.deepcopy(self.dependencies)
        out["missingDependencies"] = copy.deepcopy(self.missing_dependencies)
        out["diagnostics"] = [d.to_json() for d in self.diagnostics]
        return out


def resolve_host_profile(
    loaded: LoadedProfile, stacks: Sequence[LoadedStack], registrations: Registrations | None = None
) -> HostResolution:
    """pi-forge's ``resolveSubagentHostProfile`` (§4.3 steps 1-4)."""
    diagnostics = [
        ContractDiagnostic(
            d.level, "profile.validation", d.message, f"profile.{d.field}" if d.field else "profile"
        )
        for d in loaded.diagnostics
        if not d.extra
    ]
    registered = registrations if registrations is not None else Registrations()
    profile = loaded.profile
    stack: LoadedStack | None = None
    stack_key: str | None = None
    found = find_profile_stack(profile, loaded.scope, stacks)
    if found is not None:
        where = "profile.promptStack"
        if found.outcome == "invalid":
            diagnostics.append(
                ContractDiagnostic("error", "profile.stack-reference", found.parsed.error or "", where)
            )
        elif found.outcome == "global-project":
            stack_id = found.selector.id if found.selector else ""
            message = f"Global profile {profile['id']} cannot reference project prompt stack {stack_id}."
            diagnostics.append(ContractDiagnostic("error", "profile.stack-reference", message, where))
        elif found.outcome == "missing":
            diagnostics.append(
                ContractDiagnostic(
                    "error", "profile.stack-missing", f"Unknown prompt stack: {found.reference}", where
                )
            )
        elif found.outcome == "ambiguous":
            message = f"Prompt stack id is ambiguous: {found.reference}"
            diagnostics.append(ContractDiagnostic("error", "profile.stack-ambiguous", message, where))
        else:
            stack = found.stack
            assert stack is not None
            stack_key = str(found.stack_key)
            for d in stack.diagnostics:
                if d.extra:
                    continue
                path = f"promptStack.items.{d.item_id}" if d.item_id else "promptStack"
                diagnostics.append(ContractDiagnostic(d.level, "profile.stack-validation", d.message, path))
            mode = stack.stack.get("mode")
            if mode is not None and mode not in MODES:
                message = f"Unsupported prompt stack mode: {js_string(mode)}"
                diagnostics.append(
                    ContractDiagnostic("error", "profile.stack-mode", message, "promptStack.mode")
                )
    dependencies: list[dict[str, Any]] = []
    missing: list[dict[str, str]] = []
    if stack is not None:
        dependencies, missing, found_diagnostics = collect_prompt_dependencies(stack.stack, registered)
        diagnostics.extend(found_diagnostics)
    resolution = HostResolution(str(loaded.key), dependencies, missing, diagnostics, None, stack)
    if not any(d.level == "error" for d in diagnostics):
        resolution.snapshot = {
            "schemaVersion": 1,
            "profileId": str(loaded.key),
            "profile": copy.deepcopy(profile),
            "promptStackId": stack_key,
            "promptStack": copy.deepcopy(stack.stack) if stack is not None else None,
            "dependencies": copy.deepcopy(dependencies),
            "profileFingerprint": sha256_v1(profile),
            "promptStackFingerprint": sha256_v1(stack.stack) if stack is not None else None,
        }
    return resolution


# --- validating a snapshot ---------------------------------------------------------------------------


def _error(code: str, message: str, path: str) -> ContractDiagnostic:
    return ContractDiagnostic("error", code, message, path)


def _fingerprint_shape(value: Any, path: str, diagnostics: list[ContractDiagnostic]) -> None:
    if not is_fingerprint(value):
        diagnostics.append(_error("fingerprint.invalid", FINGERPRINT_SHAPE_MESSAGE, path))


def _parses(value: Any) -> bool:
    return isinstance(value, str) and parse_selector(value).ok


def validate_agent_profile_snapshot(value: Any) -> list[ContractDiagnostic]:
    """pi-forge's ``validateAgentProfileSnapshot`` (§4.3): the snapshot's shape, the profile's
    post-validation, the dependency list, both fingerprints recomputed, and the stack reference
    checked against the snapshot's stack and ids.  An empty list means the snapshot is sound."""
    if not isinstance(value, dict):
        return [_error("snapshot.type", "AgentProfileSnapshot must be an object.", "$")]
    get = value.get
    diagnostics: list[ContractDiagnostic] = []
    version = get("schemaVersion", UNDEFINED)
    if not (is_number(version) and version == 1):
        diagnostics.append(_error("snapshot.schema-version", "schemaVersion must be 1.", "schemaVersion"))
    if not _parses(get("profileId", UNDEFINED)):
        diagnostics.append(
            _error("snapshot.profile-id", "profileId must be a valid scoped profile selector.", "profileId")
        )
    profile = get("profile", UNDEFINED)
    if not isinstance(profile, dict):
        diagnostics.append(_error("snapshot.profile", "profile must be an object.", "profile"))
    else:
        try:
            for d in validate_profile(profile):
                diagnostics.append(_error("snapshot.profile-validation", d.message, f"profile.{d.field}"))
        except MalformedProfileError as problem:
            diagnostics.append(
                _error("snapshot.profile-malformed", f"Malformed profile: {problem}", "profile")
            )
    stack = get("promptStack", UNDEFINED)
    if not (stack is None or isinstance(stack, dict)):
        diagnostics.append(_error("snapshot.stack", "promptStack must be an object or null.", "promptStack"))
    dependencies = get("dependencies", UNDEFINED)
    if not isinstance(dependencies, list):
        diagnostics.append(_error("snapshot.dependencies", "dependencies must be an array.", "dependencies"))
    else:
        identities: set[str] = set()
        for index, dependency in enumerate(dependencies):
            if not (
                isinstance(dependency, dict)
                and dependency.get("kind") in ("macro", "slot")
                and isinstance(dependency.get("name"), str)
                and isinstance(dependency.get("identity"), str)
            ):
                message = "Dependency requires kind, name, and identity."
                diagnostics.append(_error("snapshot.dependency", message, f"dependencies[{index}]"))
                continue
            identity = dependency["identity"]
            if identity in identities:
                message = f"Duplicate dependency identity: {identity}"
                diagnostics.append(
                    _error("snapshot.duplicate-dependency", message, f"dependencies[{index}].identity")
                )
            identities.add(identity)
    profile_fingerprint = get("profileFingerprint", UNDEFINED)
    _fingerprint_shape(profile_fingerprint, "profileFingerprint", diagnostics)
    stack_id = get("promptStackId", UNDEFINED)
    if stack_id is not None and not _parses(stack_id):
        message = "promptStackId must be a valid scoped prompt-stack selector or null."
        diagnostics.append(_error("snapshot.stack-id", message, "promptStackId"))
    stack_fingerprint = get("promptStackFingerprint", UNDEFINED)
    if stack_fingerprint is not None:
        _fingerprint_shape(stack_fingerprint, "promptStackFingerprint", diagnostics)
    if (
        isinstance(profile, dict)
        and is_fingerprint(profile_fingerprint)
        and sha256_v1(profile) != profile_fingerprint
    ):
        diagnostics.append(
            _error(
                "snapshot.profile-fingerprint",
                "profileFingerprint does not match profile.",
                "profileFingerprint",
            )
        )
    if (
        isinstance(stack, dict)
        and is_fingerprint(stack_fingerprint)
        and sha256_v1(stack) != stack_fingerprint
    ):
        message = "promptStackFingerprint does not match promptStack."
        diagnostics.append(_error("snapshot.stack-fingerprint", message, "promptStackFingerprint"))
    if stack is None and stack_fingerprint is not None:
        message = "A null promptStack must have a null promptStackFingerprint."
        diagnostics.append(_error("snapshot.null-stack-fingerprint", message, "promptStackFingerprint"))
    if isinstance(profile, dict):
        _check_snapshot_reference(value, profile, stack, stack_id, diagnostics)
    return diagnostics


def _check_snapshot_reference(
    value: dict[str, Any],
    profile: dict[str, Any],
    stack: Any,
    stack_id: Any,
    diagnostics: list[ContractDiagnostic],
) -> None:
    referenced = profile.get("promptStack", UNDEFINED)
    if referenced is None:
        if stack is not None:
            message = "Profile references no prompt stack, but the snapshot contains one."
            diagnostics.append(_error("snapshot.unexpected-stack", message, "promptStack"))
        if stack_id is not None:
            diagnostics.append(
                _error(
                    "snapshot.null-stack-id",
                    "A null promptStack must have a null promptStackId.",
                    "promptStackId",
                )
            )
        return
    if not isinstance(referenced, str):
        return
    parsed = parse_selector(referenced)
    if parsed.selector is None:
        diagnostics.append(_error("snapshot.stack-reference", parsed.error or "", "promptStack"))
        return
    selector = parsed.selector
    profile_id = value.get("profileId")
    owner = parse_selector(profile_id if isinstance(profile_id, str) else "").selector
    scope = (owner.scope or "project") if owner is not None else "project"
    if scope == "global" and selector.scope == "project":
        message = f"Global profile cannot reference project prompt stack {selector.id}."
        diagnostics.append(_error("snapshot.stack-reference", message, "promptStack"))
    expected = format_key(selector.scope or scope, selector.id)
    if (
        not isinstance(stack, dict)
        or stack.get("id", UNDEFINED) != selector.id
        or not isinstance(stack.get("id"), str)
    ):
        message = "Snapshot promptStack does not match profile.promptStack."
        diagnostics.append(_error("snapshot.stack-reference", message, "promptStack"))
    if stack_id != expected or not isinstance(stack_id, str):
        message = "Snapshot promptStackId does not match the profile.promptStack selector scope."
        diagnostics.append(_error("snapshot.stack-reference-scope", message, "promptStackId"))


# --- the dependency scan ----------------------------------------------------------------------------


def collect_prompt_dependencies(
    stack: dict[str, Any], registrations: Registrations | None = None
) -> tuple[list[dict[str, Any]], list[dict[str, str]], list[ContractDiagnostic]]:
    """pi-forge's ``collectSubagentPromptDependencies`` on a normalised stack.

    Every item is scanned, whatever its ``enabled`` flag or role: a slot item's name unless it is
    built in, a block's macro command names (:func:`collect_macro_command_names`) unless built in or
    a static variable of the stack.  Returns ``(dependencies, missingDependencies, diagnostics)``;
    the two lists are sorted by kind then name (locale order), the diagnostics are in scan order.
    """
    registered = registrations if registrations is not None else Registrations()
    catalogs = {
        "macro": {entry.name: entry for entry in registered.macros},
        "slot": {entry.name: entry for entry in registered.slots},
    }
    variables = stack.get("variables")
    static = set(js_key_order(variables)) if isinstance(variables, dict) else set()
    dependencies: dict[str, dict[str, Any]] = {}
    missing: dict[str, dict[str, str]] = {}
    diagnostics: list[ContractDiagnostic] = []

    def add(kind: str, name: str, path: str) -> None:
        key = f"{kind}:{name}"
        registration = catalogs[kind].get(name)
        if registration is None:
            missing[key] = {"kind": kind, "name": name}
            diagnostics.append(
                ContractDiagnostic(
                    "error", "profile.dependency-missing", f"Missing required custom {kind}: {name}", path
                )
            )
            return
        source = registration.source
        entry: dict[str, Any] = {
            "kind": kind,
            "name": name,
            "identity": f"{kind}:{'anonymous' if source is None else source}:{name}",
        }
        if source is not None:
            entry["source"] = source
        dependencies[key] = entry
        if not source:
            message = f"Custom {kind} {name} has no stable source identity."
            diagnostics.append(ContractDiagnostic("warning", "profile.dependency-anonymous", message, path))

    items = stack.get("items")
    for item in items if isinstance(items, list) else []:
        if not isinstance(item, dict):
            continue
        path = f"promptStack.items.{js_string(item.get('id'))}"
        if item.get("kind") == "slot":
            slot = item.get("slot")
            if isinstance(slot, str) and slot not in _BUILTIN_SLOTS:
                add("slot", slot, path)
            continue
        content = item.get("content")
        for name in collect_macro_command_names(content if isinstance(content, str) else ""):
            if name not in _BUILTIN_MACROS and name not in static:
                add("macro", name, path)
    order = _dependency_order()
    return (
        sorted(dependencies.values(), key=order),
        sorted(missing.values(), key=order),
        diagnostics,
    )


def collect_macro_command_names(text: str) -> list[str]:
    """The macro command names in ``text``, de-duplicated and sorted by UTF-16 code units.

    pi-forge's scanner (not the compiler's parser): each ``{{`` is matched with its ``}}`` counting
    nested pairs (an unterminated one ends the scan); the trimmed inside is split on ``::`` at depth
    0; a first part matching ``^[A-Za-z][A-Za-z0-9_.-]*$`` is a command; the other parts are scanned
    the same way.  ``{{outer::{{inner::x}}}} {{date}}`` gives ``date``, ``inner``, ``outer``.
    """
    names: set[str] = set()
    _scan(text, names)
    return sorted(names, key=utf16_key)


def _scan(text: str, names: set[str]) -> None:
    index = 0
    while index < len(text):
        start = text.find("{{", index)
        if start == -1:
            return
        end = _macro_end(text, start + 2)
        if end is None:
            return
        parts = _split_arguments(js_trim(text[start + 2 : end]))
        command = js_trim(parts[0])
        if command and _COMMAND.fullmatch(command):
            names.add(command)
        for argument in parts[1:]:
            _scan(argument, names)
        index = end + 2


def _macro_end(text: str, start: int) -> int | None:
    depth = 1
    index = start
    while index < len(text) - 1:
        pair = text[index : index + 2]
        if pair == "{{":
            depth += 1
            index += 1
        elif pair == "}}":
            depth -= 1
            if depth == 0:
                return index
            index += 1
        index += 1
    return None


def _split_arguments(expression: str) -> list[str]:
    parts: list[str] = []
    start = 0
    depth = 0
    index = 0
    while index < len(expression) - 1:
        pair = expression[index : index + 2]
        if pair == "{{":
            depth += 1
            index += 1
        elif pair == "}}" and depth > 0:
            depth -= 1
            index += 1
        elif pair == "::" and depth == 0:
            parts.append(expression[start:index])
            start = index + 2
            index += 1
        index += 1
    parts.append(expression[start:])
    return parts


def _dependency_order() -> Callable[[dict[str, Any]], Any]:
    key = locale_key()  # localeCompare (ICU, or forgec.js.collation's fallback without PyICU)
    return lambda entry: (key(entry["kind"]), key(entry["name"]))
