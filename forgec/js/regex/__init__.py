"""JavaScript-exact regular expressions for Python (import-regex Part B, compile-core §16.2).

pi-forge rules and SillyTavern ``findRegex`` values are V8 ``RegExp`` sources.  This package parses
them with a port of V8's parser (so exactly the patterns Node 20 accepts compile, with V8's error
texts), emits an equivalent pattern for the ``regex`` module (which gives variable-length lookbehind,
``\\p{…}`` and a per-call ``timeout``), and matches on a UTF-16 unit view of the text when ``u`` is
absent.  See docs/architecture.md, "JavaScript regular expressions", for why.

The names below are loaded on first access (PEP 562): the matcher pulls in the ``regex`` module and
large Unicode tables, while ``forgec validate`` only needs :func:`syntax_error` (the V8 parser).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .errors import JSRegexError, JSRegexTimeout
    from .pattern import (
        JSMatch,
        JSPattern,
        compile_js,
        replace_literal,
        transform_prefiltered,
        transform_string,
    )
    from .replace import expand_js_replacement, expand_trim_replacement, prepass_dollar_zero
    from .syntax import syntax_error

__all__ = [
    "JSMatch",
    "JSPattern",
    "JSRegexError",
    "JSRegexTimeout",
    "compile_js",
    "expand_js_replacement",
    "expand_trim_replacement",
    "prepass_dollar_zero",
    "replace_literal",
    "syntax_error",
    "transform_prefiltered",
    "transform_string",
]

#: public name -> submodule that defines it
_HOME = {
    "JSMatch": "pattern",
    "JSPattern": "pattern",
    "JSRegexError": "errors",
    "JSRegexTimeout": "errors",
    "compile_js": "pattern",
    "transform_string": "pattern",
    "transform_prefiltered": "pattern",
    "replace_literal": "pattern",
    "expand_js_replacement": "replace",
    "expand_trim_replacement": "replace",
    "prepass_dollar_zero": "replace",
    "syntax_error": "syntax",
}


def __getattr__(name: str) -> Any:
    home = _HOME.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{home}"), name)
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
