"""forgec: the compiler and linter for pi-forge prompt stacks.

The public API is re-exported here lazily, so ``import forgec`` stays cheap for the command line.
"""

from __future__ import annotations

from typing import Any

__version__ = "0.1.0"

_EXPORTS = {
    "load_stack_file": "forgec.codecs.stack",
    "load_stack_folder": "forgec.codecs.stack",
    "compile_report": "forgec.report",
}

__all__ = ["__version__", *_EXPORTS]


def __getattr__(name: str) -> Any:
    module_name = _EXPORTS.get(name)
    if module_name is None:
        raise AttributeError(f"module 'forgec' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module_name), name)
