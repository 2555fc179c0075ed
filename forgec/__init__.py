"""forgec: the compiler and linter for pi-forge prompt stacks.

The public API (docs/api.md) is re-exported here lazily, so ``import forgec`` stays cheap for the
command line: a name's module is imported on first use.  The module keeps no helper names of its
own (no ``from __future__ import annotations``, no ``typing`` name at run time): ``dir(forgec)``
shows the public API and the subpackages, nothing else.
"""

from typing import TYPE_CHECKING

from forgec.resources import VERSION as __version__

if TYPE_CHECKING:  # the real names, for type checkers and readers; at run time they load lazily
    from typing import Any

    from forgec.agents.config import (
        ForgeConfigPaths,
        load_subagent_settings,
        resolve_policy,
        update_profile_config,
    )
    from forgec.agents.profiles import ProfileWorkspace, load_workspace, resolve_profile
    from forgec.codecs.catalog import load_catalog
    from forgec.codecs.context import Context, ContextError, load_context
    from forgec.codecs.profile import load_profile_file
    from forgec.codecs.stack import LoadedStack, load_stack_file, load_stack_folder
    from forgec.diagnostics import Diagnostic
    from forgec.diagnostics.findings import LintReport
    from forgec.emit import Prompt, build_payloads, build_request, emit_body
    from forgec.environment import Environment
    from forgec.errors import ForgecError, InputError, OutputError, SettingsError, UsageError
    from forgec.fingerprint import canonical_json, profile_fingerprint, sha256_v1, stack_fingerprint
    from forgec.importers.legacy_stacks import migrate_legacy_stacks
    from forgec.importers.sillytavern import import_preset
    from forgec.lint import lint_paths
    from forgec.model.identity import parse_selector
    from forgec.report import CompileResult, compile_report, load_stack

del TYPE_CHECKING

#: public name -> the module that defines it
_EXPORTS = {
    # loading
    "load_stack": "forgec.report",
    "load_stack_file": "forgec.codecs.stack",
    "load_stack_folder": "forgec.codecs.stack",
    "load_context": "forgec.codecs.context",
    "LoadedStack": "forgec.codecs.stack",
    "Context": "forgec.codecs.context",
    # compiling
    "compile_report": "forgec.report",
    "CompileResult": "forgec.report",
    "Environment": "forgec.environment",
    # provider requests
    "Prompt": "forgec.emit",
    "build_request": "forgec.emit",
    "build_payloads": "forgec.emit",
    "emit_body": "forgec.emit",
    "load_catalog": "forgec.codecs.catalog",
    # fingerprints
    "canonical_json": "forgec.fingerprint",
    "sha256_v1": "forgec.fingerprint",
    "stack_fingerprint": "forgec.fingerprint",
    "profile_fingerprint": "forgec.fingerprint",
    # linting
    "lint_paths": "forgec.lint",
    "LintReport": "forgec.diagnostics.findings",
    "Diagnostic": "forgec.diagnostics",
    # agent profiles and the forge config
    "load_workspace": "forgec.agents.profiles",
    "ProfileWorkspace": "forgec.agents.profiles",
    "resolve_profile": "forgec.agents.profiles",
    "load_profile_file": "forgec.codecs.profile",
    "parse_selector": "forgec.model.identity",
    "ForgeConfigPaths": "forgec.agents.config",
    "load_subagent_settings": "forgec.agents.config",
    "resolve_policy": "forgec.agents.config",
    "update_profile_config": "forgec.agents.config",
    # importing
    "import_preset": "forgec.importers.sillytavern",
    "migrate_legacy_stacks": "forgec.importers.legacy_stacks",
    # errors
    "ForgecError": "forgec.errors",
    "InputError": "forgec.errors",
    "UsageError": "forgec.errors",
    "SettingsError": "forgec.errors",
    "OutputError": "forgec.errors",
    "ContextError": "forgec.codecs.context",
}

__all__ = [
    "CompileResult",
    "Context",
    "ContextError",
    "Diagnostic",
    "Environment",
    "ForgeConfigPaths",
    "ForgecError",
    "InputError",
    "LintReport",
    "LoadedStack",
    "OutputError",
    "ProfileWorkspace",
    "Prompt",
    "SettingsError",
    "UsageError",
    "__version__",
    "build_payloads",
    "build_request",
    "canonical_json",
    "compile_report",
    "emit_body",
    "import_preset",
    "lint_paths",
    "load_catalog",
    "load_context",
    "load_profile_file",
    "load_stack",
    "load_stack_file",
    "load_stack_folder",
    "load_subagent_settings",
    "load_workspace",
    "migrate_legacy_stacks",
    "parse_selector",
    "profile_fingerprint",
    "resolve_policy",
    "resolve_profile",
    "sha256_v1",
    "stack_fingerprint",
    "update_profile_config",
]


def __getattr__(name: str) -> "Any":
    module_name = _EXPORTS.get(name)
    if module_name is None:
        raise AttributeError(f"module 'forgec' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module_name), name)


def __dir__() -> "list[str]":
    """The public names, plus the subpackages already imported (``forgec.cli`` ...)."""
    import sys

    loaded = {key.split(".")[1] for key in sys.modules if key.startswith("forgec.") and not key.split(".")[1].startswith("_")}
    return sorted({*__all__, *loaded})
