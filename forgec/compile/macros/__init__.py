"""pi-forge's macro language: ``{{macro::arg::…}}`` in block content (compile-core.md §3, §4).

* :mod:`forgec.compile.macros.grammar` parses text into an offset-carrying AST (``grammar/macros.lark``);
* :mod:`forgec.compile.macros.builtins` is the one table of built-in macros;
* :mod:`forgec.compile.macros.engine` runs one expansion session;
* :mod:`forgec.compile.macros.lint` is the static analysis of ``forgec validate``;
* :mod:`forgec.compile.macros.block` expands one block, what the compiler calls once per block
  (:func:`expand_block` here forwards to it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from forgec.diagnostics import Diagnostic
    from forgec.model.runtime import Runtime
    from forgec.model.variables import VariableStore
    from forgec.plugins import Registry

__all__ = ["expand_block", "expand_text"]


def expand_block(
    text: str,
    *,
    item_id: Any,
    stack: dict[str, Any],
    runtime: Runtime,
    store: VariableStore | None,
    diagnostics: list[Diagnostic],
    selected_tools: list[str],
    registry: Registry | None = None,
    pointer: tuple[Any, ...] | None = None,
) -> str:
    """:func:`.block.expand_block` (one block's expansion session, §3), imported on first use so that
    importing the package (``forgec validate``'s linter) does not load it; the compiler calls that
    function itself (imported at module level there: native calls in the mypyc build)."""
    from forgec.compile.macros.block import expand_block as expand

    return expand(text, item_id=item_id, stack=stack, runtime=runtime, store=store, diagnostics=diagnostics,
                  selected_tools=selected_tools, registry=registry, pointer=pointer)


def expand_text(text: str, **kwargs: Any) -> tuple[str, list[Diagnostic]]:
    """Convenience for tests and tools: :func:`expand_block` with a fresh diagnostics list."""
    from forgec.model.runtime import Runtime

    diagnostics: list[Diagnostic] = []
    kwargs.setdefault("item_id", "item")
    kwargs.setdefault("stack", {})
    kwargs.setdefault("runtime", Runtime())
    kwargs.setdefault("store", None)
    kwargs.setdefault("selected_tools", [])
    out = expand_block(text, diagnostics=diagnostics, **kwargs)
    return out, diagnostics
