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

from forgec.rules.registry import DOCS_URL, Rule, register, registered, registered_rules

__all__ = ["DOCS_URL", "Rule", "all_rules", "register", "rule_for"]

#: whether :func:`_load_all` has imported every catalog
_loaded_all = False


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
    rule = registered(code_or_name)
    if rule is None:
        _load_all()
        rule = registered(code_or_name)
    if rule is None:
        raise KeyError(code_or_name)
    return rule


def all_rules() -> list[Rule]:
    """Every rule, sorted by code."""
    _load_all()
    return registered_rules()
