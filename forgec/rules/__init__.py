"""The rule registry: every diagnostic forgec can emit has a stable code and a kebab-case name.

Codes are ``FG`` + three digits, grouped by pipeline stage:

=========  =====================================================================
FG0xx      reading files (parse errors, encoding, size and depth limits)
FG1xx      stack shape, normalisation and validation (pi-forge's loader)
FG2xx      macros (pi-forge's compile-time macro findings and forgec's static analysis)
FG3xx      slots and system/message assembly
FG4xx      chat history
FG5xx      agent profiles (FG500-FG569) and the forge config (FG570-FG599)
FG6xx      regex rules
FG7xx      SillyTavern import
FG8xx      provider payloads and fingerprints (FG800-FG819), the delegation contract and execution (FG820-),
           prompt analyses: cache stability, injection boundaries, token budgets (FG870-FG899)
FG9xx      forgec configuration and plugins
=========  =====================================================================

Each stage declares its rules in a module of this package (``loader.py``, ``macros.py`` ...) as
:class:`Rule` objects; the docstring-like fields ``summary``, ``bad`` and ``good`` are the user
documentation that ``forgec rule CODE`` prints (the sqlfluff/ruff habit).  Rules are registered when
their module is imported; :func:`all_rules` imports every stage module, by name in
:func:`_load_all` (visible to readers and tools; a test holds the list complete).
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Rule", "all_rules", "register", "rule_for"]


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
_loaded_all = False


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


def _load_all() -> None:
    """Import every stage's catalog (each registers its rules); imported only when a lookup needs it."""
    global _loaded_all
    if _loaded_all:
        return
    from forgec.rules import (  # noqa: F401  (imported for their registrations)
        analyses,
        compile,
        forge_config,
        hints,
        importer,
        loader,
        macros,
        payloads,
        plugins,
        profiles,
        regex_config,
        slots,
    )

    _loaded_all = True


def rule_for(code_or_name: str) -> Rule:
    """The rule with this code (``FG101``) or name (``stack-id-invalid``); KeyError if none."""
    key = code_or_name.strip()
    rule = _REGISTRY.get(key.upper()) or _BY_NAME.get(key.lower())
    if rule is None:
        _load_all()
        rule = _REGISTRY.get(key.upper()) or _BY_NAME.get(key.lower())
    if rule is None:
        raise KeyError(code_or_name)
    return rule


def all_rules() -> list[Rule]:
    """Every rule, sorted by code."""
    _load_all()
    return sorted(_REGISTRY.values(), key=lambda r: r.code)
