"""Analyses of compiled prompts: cache stability across turns, diffs, token counts and budgets.

The workflows behind ``forgec cache-check``, ``forgec diff`` and ``forgec tokens``.  They compile
with :mod:`forgec.report` and build bodies with :mod:`forgec.emit`, so what they measure is exactly
what ``forgec compile`` prints:

* :mod:`forgec.analysis.cache` -- two turns of one stack: the common byte prefix of the two request
  bodies, the first message that differs in the provider's cache order and the stack item behind it;
* :mod:`forgec.analysis.diff` -- two compiled prompts message by message (two stacks, or a stack
  and its version at a git revision), and the four provider bodies of one prompt side by side;
* :mod:`forgec.analysis.tokens` -- pi-ai's chars/4 estimate per message and per request, real
  OpenAI counts from an offline vocabulary (the ``[tokens]`` extra), the ``max-prompt-tokens`` budget;
* :mod:`forgec.analysis.render` -- text, markdown (a pull-request comment) and JSON of those results.

The static side of the same questions (a stack read without compiling) is the linter's:
:mod:`forgec.lint.cache` and :mod:`forgec.lint.injection`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from forgec.errors import InputError

if TYPE_CHECKING:
    from forgec.codecs.stack import LoadedStack

__all__ = ["require_parsed"]


def require_parsed(loaded: LoadedStack, label: str) -> None:
    """Refuse a stack file that did not parse: pi-forge would compile its fallback stack, and a
    comparison or a count of that would describe a prompt nobody wrote."""
    document = loaded.document
    if document is not None and not document.parsed:
        reason = next((d.message for d in loaded.diagnostics if d.level == "error"), "parse error")
        raise InputError(f"{label} could not be parsed: {reason}", path=loaded.path, diagnostics=list(loaded.diagnostics))
