"""The rule registry's records: :class:`Rule` and :func:`register`, which each stage's catalog module
(``loader.py``, ``macros.py`` ...) imports to declare its rules.

Kept apart from the package's ``__init__`` (which imports every catalog in :func:`forgec.rules._load_all`)
so that the catalogs depend on this module and the package on both, with no import circle between them.
"""

from __future__ import annotations

from dataclasses import FrozenInstanceError
from typing import Any, NoReturn

__all__ = ["DOCS_URL", "Rule", "register", "registered", "registered_rules"]


class Rule:
    """A diagnostic rule.  ``level`` is the default severity (pi-forge's where pi-forge has the message).

    An immutable record that compares, hashes and prints by its fields, as the frozen dataclass it was
    until stop 31 did (same ``__init__`` signature, ``==``, ``hash``, ``repr``, ``match`` positions,
    :class:`~dataclasses.FrozenInstanceError` on assignment), written out by hand: defining the frozen
    slotted dataclass cost ~5.7 M instructions (~1.5 ms) of every ``forgec validate --no-cache``, as
    :mod:`dataclasses` compiles generated source for each of its methods (docs/performance-log.md, "Stop 31:
    cold validate").  It is not a dataclass: nothing reads a rule through :mod:`dataclasses`.
    """

    __slots__ = ("bad", "code", "good", "level", "name", "pi_forge", "summary")
    __match_args__ = ("code", "name", "level", "summary", "bad", "good", "pi_forge")

    code: str
    name: str
    level: str
    summary: str
    bad: str
    good: str
    #: True when the message comes from pi-forge (kept exact, part of the compatible output)
    pi_forge: bool

    def __init__(
        self, code: str, name: str, level: str, summary: str, bad: str = "", good: str = "", pi_forge: bool = True
    ) -> None:
        set_field = object.__setattr__
        set_field(self, "code", code)
        set_field(self, "name", name)
        set_field(self, "level", level)
        set_field(self, "summary", summary)
        set_field(self, "bad", bad)
        set_field(self, "good", good)
        set_field(self, "pi_forge", pi_forge)

    def _values(self) -> tuple[str, str, str, str, str, str, bool]:
        return (self.code, self.name, self.level, self.summary, self.bad, self.good, self.pi_forge)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return self._values() == other._values()
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        return (
            f"{self.__class__.__qualname__}(code={self.code!r}, name={self.name!r}, level={self.level!r}, "
            f"summary={self.summary!r}, bad={self.bad!r}, good={self.good!r}, pi_forge={self.pi_forge!r})"
        )

    def __setattr__(self, name: str, value: Any) -> NoReturn:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> NoReturn:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def __reduce__(self) -> tuple[type[Rule], tuple[str, str, str, str, str, str, bool]]:
        """Copies and pickles through ``__init__`` (the default would set the slots through the refusing
        ``__setattr__``)."""
        return self.__class__, self._values()

    @property
    def url(self) -> str:
        """The rule's entry in the rule reference (``docs/rules.md``, generated from this registry)."""
        return f"{DOCS_URL}#{self.code.lower()}-{self.name}"


#: where the rule reference is published (``forgec rule --format markdown`` writes it)
DOCS_URL = "https://github.com/forgec/forgec/blob/main/docs/rules.md"

_REGISTRY: dict[str, Rule] = {}
_BY_NAME: dict[str, Rule] = {}


def register(*rules: Rule) -> None:
    """Add rules to the registry; codes and names must be unique."""
    for rule in rules:
        existing = _REGISTRY.get(rule.code)
        if existing is not None and existing != rule:
            raise ValueError(f"rule code {rule.code} registered twice")
        if rule.name in _BY_NAME and _BY_NAME[rule.name].code != rule.code:
            raise ValueError(f"rule name {rule.name} registered twice")
        _REGISTRY[rule.code] = rule
        _BY_NAME[rule.name] = rule


def registered(code_or_name: str) -> Rule | None:
    """The rule registered under this code (``FG101``) or name (``stack-id-invalid``), if any so far."""
    key = code_or_name.strip()
    return _REGISTRY.get(key.upper()) or _BY_NAME.get(key.lower())


def registered_rules() -> list[Rule]:
    """Every rule registered so far, sorted by code."""
    return sorted(_REGISTRY.values(), key=lambda r: r.code)
