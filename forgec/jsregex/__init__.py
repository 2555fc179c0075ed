"""JavaScript-exact regular expressions for Python (import-regex Part B, compile-core §16.2).

pi-forge rules and SillyTavern ``findRegex`` values are V8 ``RegExp`` sources.  This package parses
them with a port of V8's parser (so exactly the patterns Node 20 accepts compile, with V8's error
texts), emits an equivalent pattern for the ``regex`` module (which gives variable-length lookbehind,
``\\p{…}`` and a per-call ``timeout``), and matches on a UTF-16 unit view of the text when ``u`` is
absent.  See docs/architecture.md, "JavaScript regular expressions", for why.
"""

from __future__ import annotations

from .pattern import JSMatch, JSPattern, JSRegexError, JSRegexTimeout, compile_js, transform_string
from .replace import expand_js_replacement, expand_trim_replacement, prepass_dollar_zero

__all__ = [
    "JSMatch",
    "JSPattern",
    "JSRegexError",
    "JSRegexTimeout",
    "compile_js",
    "expand_js_replacement",
    "expand_trim_replacement",
    "prepass_dollar_zero",
    "transform_string",
]
