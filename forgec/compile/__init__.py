"""One turn's compile: stack + host snapshot + variable store -> system prompt and messages.

The stage in one room (compile-core.md §2-§9):

* :mod:`forgec.compile.assemble` — system-prompt and message assembly, the entry point;
* :mod:`forgec.compile.macros` — the ``{{macro}}`` language (grammar, engine, built-ins, static lint);
* :mod:`forgec.compile.slots` — the twelve built-in slots and the slot dispatcher;
* :mod:`forgec.compile.passes` — chat history, tool/skill policy and regex rules.

Only the assembler is re-exported; it is imported on first use so that ``import forgec.compile``
(done by every submodule import) stays free.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from forgec.compile.assemble import CompiledPrompt, compile_prompt

__all__ = ["CompiledPrompt", "compile_prompt"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from forgec.compile import assemble

        return getattr(assemble, name)
    raise AttributeError(f"module 'forgec.compile' has no attribute {name!r}")
