"""What this installation ships: its version and where the bundled data files live.

``schemas/`` and ``grammar/`` sit at the top of the repository (the single source for editors and
for the code) and are copied into the wheel as ``forgec/_data/``.  This module finds them in either
layout, so an editable checkout and an installed wheel behave the same.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from types import FunctionType

#: forgec's version (the one place it is written besides pyproject.toml; a test holds them equal)
VERSION = "0.1.0"

_PACKAGE = Path(__file__).resolve().parent


@cache
def data_dir(name: str) -> Path:
    """The folder ``schemas`` or ``grammar``, from the wheel or from the source checkout."""
    for candidate in (_PACKAGE / "_data" / name, _PACKAGE.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"forgec data folder {name!r} is missing from this installation")


def schema_path(name: str) -> Path:
    """Path of a bundled JSON Schema, e.g. ``schema_path("prompt-stack")``."""
    return data_dir("schemas") / f"{name}.schema.json"


def grammar_path(name: str) -> Path:
    """Path of a bundled lark grammar, e.g. ``grammar_path("macros")``."""
    return data_dir("grammar") / f"{name}.lark"


#: The modules a compiled build (``FORGEC_MYPYC=1 pip install .``, see ``hatch_build.py`` and
#: docs/performance.md, "Compiled modules") turns into C extensions with mypyc: the hot path of a
#: compile, as profiled by ``benchmarks/bench_fresh.py --profile``.  The one list: the build hook reads
#: it from this file (a literal tuple, parsed without importing forgec), and :func:`compiled_modules`
#: reports which of them an installation loads.  Paths below ``forgec/`` (not dotted names, which
#: tests/architecture/test_layers.py would read as imports).  A module leaves the list rather than
#: being rewritten for mypyc; the pure-Python sources stay the reference behaviour.
COMPILED_MODULES: tuple[str, ...] = (
    "codecs/context.py",
    "codecs/regex_config.py",
    "codecs/stack.py",
    "compile/assemble.py",
    "compile/macros/__init__.py",
    "compile/macros/block.py",
    "compile/macros/builtins.py",
    "compile/macros/casemap.py",
    "compile/macros/engine.py",
    "compile/macros/grammar.py",
    "compile/macros/lint.py",
    "compile/macros/nodes.py",
    "compile/passes/__init__.py",
    "compile/passes/history.py",
    "compile/passes/policy.py",
    "compile/passes/regex.py",
    "compile/plan.py",
    "compile/slots/__init__.py",
    "compile/slots/base.py",
    "compile/slots/clock.py",
    "compile/slots/helpers.py",
    "compile/slots/info.py",
    "compile/slots/project.py",
    "compile/slots/skills.py",
    "compile/slots/tools.py",
    "compile/slots/variables.py",
    "diagnostics/core.py",
    "diagnostics/quick.py",
    "fingerprint.py",
    "importers/sillytavern/convert.py",
    "importers/sillytavern/macros.py",
    "importers/sillytavern/patterns.py",
    "importers/sillytavern/regex_scripts.py",
    "importers/sillytavern/report.py",
    "js/json.py",
    "js/regex/pattern.py",
    "js/regex/replace.py",
    "js/report_utf8.py",
    "js/values.py",
    "model/messages.py",
    "model/slot_schemas.py",
    "model/variables.py",
    "report.py",
    "source/json.py",
    "source/overlay.py",
    "source/read.py",
)


@cache
def compiled_modules() -> tuple[str, ...]:
    """The files of :data:`COMPILED_MODULES` that this installation loads as compiled extensions.

    Empty for the pure-Python package (the default).  Python's importer prefers an extension module to
    a ``.py`` file of the same name in the same folder, so a module is loaded compiled exactly when its
    extension file sits beside its source; this looks at the files without importing any module."""
    import importlib.machinery

    suffixes = importlib.machinery.EXTENSION_SUFFIXES
    found = []
    for path in COMPILED_MODULES:
        source = _PACKAGE / path
        if any(source.with_suffix(suffix).is_file() for suffix in suffixes):
            found.append(path)
    return tuple(found)


def is_compiled(function: object) -> bool:
    """Whether ``function`` runs compiled (its module built by mypyc: a compiled function is a built-in,
    no Python :class:`~types.FunctionType`).  For the module-level switches between a loop that pays only
    when compiled and the C-level passes (``map``, ``split``) the pure build prefers:
    ``assemble.NATIVE_RECORD_LOOP``, ``grammar.NATIVE_SCAN``."""
    return not isinstance(function, FunctionType)
