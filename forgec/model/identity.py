"""Resource ids, scope selectors and scoped resolution (profiles-exec.md §1.6, compile-core.md §10.8).

pi-forge names agent profiles and prompt stacks the same way: an *id* (``reviewer``) that lives in
one of two *scopes* (``project`` or ``global``), written ``<scope>:<id>`` when the scope matters.
This module is that grammar and the catalog rules built on it, generic over the resource kind:

* :func:`is_valid_resource_id` -- ``^[A-Za-z0-9][A-Za-z0-9._-]*$`` (the colon is reserved);
* :func:`parse_selector` -- ``reviewer``, ``project:reviewer``, ``global:reviewer``, with pi-forge's
  three error texts (the input is trimmed first; ``none``/``off`` are opt-outs the caller handles);
* :class:`ResourceKey` and :func:`format_selector` -- the canonical texts (``project:reviewer``; a
  bare selector prints as its id);
* :class:`ResourceCatalog`, :func:`resolve_exact`, :func:`resolve_effective`,
  :func:`resolve_selector`, :func:`effective_view` -- resolution over a list of scoped resources:
  *exact* (a scope is given) needs exactly one match; *effective* (a bare id) takes the single
  project resource (even an invalid one: it shadows), fails closed on two project resources, and
  only without any project resource falls back to a single global one.

Resources are any objects; a ``key`` function (by default the resource's ``key`` attribute) tells
the catalog their :class:`ResourceKey`, so loaded profiles and loaded stacks share one implementation.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Final, Generic, Literal, TypeVar, cast

from forgec.js.values import js_trim

__all__ = [
    "DISABLED_SELECTORS",
    "RESOURCE_ID_PATTERN",
    "SCOPES",
    "ResourceCatalog",
    "ResourceKey",
    "ResourceSelector",
    "Scope",
    "SelectorResult",
    "effective_view",
    "format_key",
    "format_selector",
    "invalid_id_message",
    "is_disabled_selector",
    "is_resource_scope",
    "is_valid_resource_id",
    "parse_selector",
    "resolve_effective",
    "resolve_exact",
    "resolve_selector",
]

Scope = Literal["project", "global"]
#: The two scopes, in the order pi-forge loads them (global first, then the project).
SCOPES: Final[tuple[Scope, ...]] = ("global", "project")
#: The resource-id grammar shared by profiles and stacks (the colon is reserved for scopes).
RESOURCE_ID_PATTERN: Final = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")
#: Selector words that mean "no resource"; callers handle them before :func:`parse_selector`.
DISABLED_SELECTORS: Final = ("none", "off")

EMPTY_SELECTOR_MESSAGE: Final = "Resource selector must not be empty."


def is_valid_resource_id(value: object) -> bool:
    """Whether ``value`` is a string matching the resource-id grammar (no trimming)."""
    return isinstance(value, str) and RESOURCE_ID_PATTERN.fullmatch(value) is not None


def is_resource_scope(value: object) -> bool:
    """``project`` or ``global``, exactly."""
    return value == "project" or value == "global"


def is_disabled_selector(text: object) -> bool:
    """``none`` or ``off``: the opt-out words (compared as written, not trimmed)."""
    return text in DISABLED_SELECTORS


def invalid_id_message(text: str) -> str:
    """pi-forge's text for a selector whose id part breaks the grammar."""
    return (
        f"Invalid resource id: {text}. Ids must start with a letter or number and contain only letters, "
        "numbers, dots, underscores, and hyphens."
    )


@dataclass(frozen=True, slots=True)
class ResourceKey:
    """A resource's identity: its scope and its id.  ``str(key)`` is ``<scope>:<id>``."""

    scope: str
    id: str

    def __str__(self) -> str:
        return format_key(self.scope, self.id)

    def to_json(self) -> dict[str, str]:
        return {"scope": self.scope, "id": self.id}


@dataclass(frozen=True, slots=True)
class ResourceSelector:
    """A parsed selector: an id and, when it was qualified, a scope."""

    id: str
    scope: Scope | None = None

    @property
    def formatted(self) -> str:
        """``<scope>:<id>``, or the bare id."""
        return format_selector(self)

    def to_json(self) -> dict[str, str]:
        """pi-forge's ``{scope?, id}`` object."""
        out: dict[str, str] = {}
        if self.scope is not None:
            out["scope"] = self.scope
        out["id"] = self.id
        return out


@dataclass(frozen=True, slots=True)
class SelectorResult:
    """:func:`parse_selector`'s answer: ``selector`` when ``ok``, else pi-forge's ``error`` text."""

    ok: bool
    selector: ResourceSelector | None = None
    error: str | None = None
    #: which rule failed: ``"empty"``, ``"scope"`` (unknown prefix) or ``"id"`` (the id grammar)
    reason: str | None = None

    def to_json(self) -> dict[str, Any]:
        if self.ok and self.selector is not None:
            return {"ok": True, "selector": self.selector.to_json()}
        return {"ok": False, "error": self.error}


def format_key(scope: str, resource_id: str) -> str:
    """The canonical key text ``<scope>:<id>``."""
    return f"{scope}:{resource_id}"


def format_selector(selector: ResourceSelector) -> str:
    """``<scope>:<id>`` for a qualified selector, the id for a bare one."""
    return format_key(selector.scope, selector.id) if selector.scope else selector.id


def parse_selector(text: str) -> SelectorResult:
    """pi-forge's ``parseResourceSelector``: trim, then a bare id or ``<scope>:<id>``.

    The text is split at its *first* colon; the prefix must be exactly ``project`` or ``global``
    (checked before the id), the rest a valid id -- so ``project:`` and ``project:a:b`` fail on the
    id and ``team:x`` on the prefix.
    """
    trimmed = js_trim(text)
    if not trimmed:
        return SelectorResult(False, error=EMPTY_SELECTOR_MESSAGE, reason="empty")
    scope_part, colon, id_part = trimmed.partition(":")
    if not colon:
        if not is_valid_resource_id(trimmed):
            return SelectorResult(False, error=invalid_id_message(trimmed), reason="id")
        return SelectorResult(True, ResourceSelector(trimmed))
    if not is_resource_scope(scope_part):
        message = f'Unknown scope prefix: {scope_part}. Expected "project" or "global".'
        return SelectorResult(False, error=message, reason="scope")
    if not is_valid_resource_id(id_part):
        return SelectorResult(False, error=invalid_id_message(id_part), reason="id")
    return SelectorResult(True, ResourceSelector(id_part, cast(Scope, scope_part)))


# --- resolution over scoped resources ----------------------------------------------------------------

T = TypeVar("T")
KeyOf = Callable[[Any], ResourceKey]


def _key_attribute(resource: Any) -> ResourceKey:
    return cast(ResourceKey, resource.key)


def resolve_exact(
    resources: Iterable[T], scope: str, resource_id: str, key: KeyOf = _key_attribute
) -> T | None:
    """The one resource with this scope and id; ``None`` for none or several."""
    matches = [r for r in resources if (k := key(r)).scope == scope and k.id == resource_id]
    return matches[0] if len(matches) == 1 else None


def resolve_effective(resources: Iterable[T], resource_id: str, key: KeyOf = _key_attribute) -> T | None:
    """Project over global: the single project resource (valid or not), none when the project has
    several (fail closed, no fallback), else the single global resource."""
    items = list(resources)
    project = [r for r in items if (k := key(r)).id == resource_id and k.scope == "project"]
    if len(project) == 1:
        return project[0]
    if project:
        return None
    found = [r for r in items if (k := key(r)).id == resource_id and k.scope == "global"]
    return found[0] if len(found) == 1 else None


def resolve_selector(
    resources: Iterable[T], selector: ResourceSelector, key: KeyOf = _key_attribute
) -> T | None:
    """Exact resolution for a qualified selector, effective resolution for a bare one."""
    if selector.scope:
        return resolve_exact(resources, selector.scope, selector.id, key)
    return resolve_effective(resources, selector.id, key)


def effective_view(resources: Iterable[T], key: KeyOf = _key_attribute) -> list[T]:
    """One resource per distinct id, in first-seen order, after shadowing (ids that resolve to
    nothing, such as a duplicated project id, are left out)."""
    items = list(resources)
    ids: list[str] = []
    seen: set[str] = set()
    for item in items:
        resource_id = key(item).id
        if resource_id not in seen:
            seen.add(resource_id)
            ids.append(resource_id)
    view = (resolve_effective(items, resource_id, key) for resource_id in ids)
    return [item for item in view if item is not None]


class ResourceCatalog(Generic[T]):
    """pi-forge's ``createResourceCatalog``: every loaded resource (``all``, shadowed ones included)
    and the resolutions over them."""

    def __init__(self, resources: Sequence[T], key: KeyOf = _key_attribute) -> None:
        self.all: list[T] = list(resources)
        self._key = key
        self._effective: list[T] | None = None

    def key_of(self, resource: T) -> ResourceKey:
        return self._key(resource)

    @property
    def effective(self) -> list[T]:
        """The effective view (:func:`effective_view`)."""
        if self._effective is None:
            self._effective = effective_view(self.all, self._key)
        return self._effective

    def resolve_exact(self, scope: str, resource_id: str) -> T | None:
        return resolve_exact(self.all, scope, resource_id, self._key)

    def resolve_effective(self, resource_id: str) -> T | None:
        return resolve_effective(self.all, resource_id, self._key)

    def resolve_selector(self, selector: ResourceSelector) -> T | None:
        return resolve_selector(self.all, selector, self._key)

    def resolve(self, text: str) -> T | None:
        """Parse ``text`` as a selector and resolve it; ``None`` when it does not parse or match."""
        parsed = parse_selector(text)
        return self.resolve_selector(parsed.selector) if parsed.selector is not None else None
