"""Safe repairs attached to pi-forge's own findings.

A :class:`~forgec.diagnostics.Fix` renames the key at a finding's pointer or replaces the string
value there.  forgec's hints carry theirs (:mod:`forgec.lint.hints`); :func:`attach_loader_fixes`
adds the ones pi-forge's findings admit (a repeated regex flag).  Applying them to a file's text is
:mod:`forgec.lint.repair` (``--fix``, ``--diff``, an editor's code action): every check attaches,
few runs apply, and the applying half's records cost a cold ``forgec validate`` ~2 ms to define.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from forgec.diagnostics import Diagnostic, Fix
from forgec.rules import regex_config as regex_codes

__all__ = ["attach_loader_fixes"]

_SUPPORTED_FLAGS = frozenset("gimsu")


def attach_loader_fixes(diagnostics: Sequence[Diagnostic], raw: Any) -> list[Diagnostic]:
    """pi-forge's "duplicate regex flag" gets the flags with each letter once (``gg`` -> ``g``)."""
    out = list(diagnostics)
    for index, d in enumerate(out):
        if d.code != regex_codes.REGEX_FLAG_DUPLICATE or d.fix is not None or d.pointer is None:
            continue
        node: Any = raw
        for part in d.pointer:
            try:
                node = node[part]
            except (KeyError, IndexError, TypeError):
                node = None
                break
        if isinstance(node, str) and set(node) <= _SUPPORTED_FLAGS:
            out[index] = replace(d, fix=Fix("value", "".join(dict.fromkeys(node))))
    return out
