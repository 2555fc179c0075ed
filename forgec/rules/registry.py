"""The rule registry's records: :class:`Rule` and :func:`register`, which each stage's catalog module
(``loader.py``, ``macros.py`` ...) imports to declare its rules.

Kept apart from the package's ``__init__`` (which imports every catalog in :func:`forgec.rules._load_all`)
so that the catalogs depend on this module and the package on both, with no import circle between them.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["DOCS_URL", "Rule", "register", "registered", "registered_rules"]


@dataclass(frozen=True, slots=True)
class Rule:
    """A diagnostic rule.  ``level`` is the default severity (pi-forge's where pi-forge has the message)."""

    code: str
    name: str
    level: str
    summary: str
    bad: str = ""
    good: str = ""
    #: True when the message comes from pi-forge (kept exact, part of the compatible output)
    pi_forge: bool = True

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
