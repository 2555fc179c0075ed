"""forgec: the compiler and linter for pi-forge prompt stacks.

The public API (docs/api.md) is re-exported here lazily, so ``import forgec`` stays cheap for the
command line: a name's module is imported on first use.  The module keeps no helper names of its
own (no ``from __future__ import annotations``, no ``typing`` name at run time): ``dir(forgec)``
shows the public API and the subpackages, nothing else.
"""

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from typing import Any

del TYPE_CHECKING

__version__ = "0.1.0"

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
    # importing
    "import_preset": "forgec.importers.sillytavern",
    # errors
    "ForgecError": "forgec.errors",
    "InputError": "forgec.errors",
    "UsageError": "forgec.errors",
    "SettingsError": "forgec.errors",
    "OutputError": "forgec.errors",
    "ContextError": "forgec.codecs.context",
}

__all__ = ["__version__", *_EXPORTS]


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
