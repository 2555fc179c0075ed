"""pi-forge's macro language: ``{{macro::arg::…}}`` in block content (compile-core.md §3, §4).

* :mod:`forgec.compile.macros.grammar` parses text into an offset-carrying AST (``grammar/macros.lark``);
* :mod:`forgec.compile.macros.builtins` is the one table of built-in macros;
* :mod:`forgec.compile.macros.engine` runs one expansion session;
* :mod:`forgec.compile.macros.lint` is the static analysis of ``forgec validate``.

The compiler calls :func:`expand_block` once per block.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from forgec.diagnostics import Diagnostic
    from forgec.model.runtime import Runtime
    from forgec.model.variables import VariableStore
    from forgec.plugins import Registry

__all__ = ["expand_block", "expand_text"]


#: what :func:`_custom_renderers` gives without custom macros: one shared dictionary, never changed (the
#: engine only reads it), instead of a new one per block
_NO_CUSTOM: dict[str, Any] = {}


def _custom_renderers(registry: Registry | None) -> dict[str, Any]:
    """The registry's custom macros as ``name -> render(ctx)``, what the engine dispatches on."""
    if registry is None or not registry.macros:
        return _NO_CUSTOM
    return {name: definition.render for name, definition in registry.macros.items()}


#: the engine's entry points, imported on the first block with a macro (``validate`` never needs
#: them) and then kept: a block is expanded thousands of times per second, three import statements
#: per block were a measurable part of a 1,000-item compile
_ENGINE: tuple[Any, Any, Any, Any, Any, Any] | None = None


def _load_engine() -> tuple[Any, Any, Any, Any, Any, Any]:
    global _ENGINE
    from forgec.compile.macros import engine, replay
    from forgec.compile.macros.builtins import BUILTIN_RENDERERS
    from forgec.compile.macros.grammar import Macro, parse, parse_seen

    _ENGINE = (BUILTIN_RENDERERS, engine, Macro, parse, parse_seen, replay)
    return _ENGINE


def _context_of(engine: Any, replay: Any, item_id: Any, pointer: tuple[Any, ...] | None, stack: Any,
                store: VariableStore | None) -> tuple[Any, ...]:
    """Everything besides the text and the variables a block's expansion depends on (:func:`.replay.context_of`)."""
    limits = (engine.MAX_STRING_LENGTH, engine.MAX_BLOCK_LENGTH, engine.MAX_BLOCK_WORK, engine.MAX_DEPTH)
    context: tuple[Any, ...] = replay.context_of(item_id, pointer, engine.unresolved_policy(stack), store, limits)
    return context


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
    """Expand one block's content as one expansion session (§3).

    Appends the block's ``Macro … failed`` errors as they happen and then its unresolved-macro
    diagnostics per ``defaults.unresolvedMacroPolicy`` (§3.4); ``store`` is mutated in place by
    the variable macros.  Never raises for any input text.
    """
    if "{{" not in text:  # fast path: no parser, no session
        return text
    BUILTIN_RENDERERS, engine, Macro, parse, parse_seen, replay = _ENGINE or _load_engine()
    custom = _NO_CUSTOM if registry is None or not registry.macros else _custom_renderers(registry)
    # recorded and replayed only without custom macros, and for string (or absent) item ids (:mod:`.replay`)
    recordable = not custom and (item_id is None or type(item_id) is str)
    context = None
    recorded = None
    # whether a record made now would be kept: the replay cache keeps a text from its second sight on,
    # so a first sight is only marked (in the same locked call as the look-up) and not traced
    keep = False
    if recordable:
        recorded, keep = replay.REPLAYS.get_or_mark(text)
        if recorded is not None:  # a text never recorded (a first sight) needs no context to look in
            limits = (engine.MAX_STRING_LENGTH, engine.MAX_BLOCK_LENGTH, engine.MAX_BLOCK_WORK, engine.MAX_DEPTH)
            context = replay.context_of(item_id, pointer, engine.unresolved_policy(stack), store, limits)
            variables = stack.get("variables") if isinstance(stack, dict) else None
            static = variables if isinstance(variables, dict) else None
            replayed: str | None = replay.replay_entries(recorded, context, store, static, diagnostics)
            if replayed is not None:
                return replayed
        # the parse cache takes the replay cache's word on a first sight: one cache call per new block
        doc = parse_seen(text, keep)
    else:
        doc = parse(text)
    if (len(doc) == 1 and not isinstance(doc[0], Macro)) or not doc:
        return text
    first = len(diagnostics)
    trace = None
    if keep:
        # recorded from the text's second sight on: a first sight's record would only be dropped
        if context is None:
            context = _context_of(engine, replay, item_id, pointer, stack, store)
        trace = replay.Trace()
    result: str
    result, trace = engine.expand_session(text, doc, item_id, stack, runtime, store, diagnostics, selected_tools,
                                          BUILTIN_RENDERERS, custom, pointer, trace)
    if context is not None and trace is not None:
        replay.record(text, context, trace, diagnostics[first:], result)
    return result


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
