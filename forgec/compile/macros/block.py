"""One block's expansion (:func:`expand_block`), the compiler's per-block entry into the macro engine.

Its own module so that it can import the engine, the parser and the replay cache at module level: the
package (:mod:`forgec.compile.macros`) imports them lazily, which the mypyc build turns into generic
Python-level calls (attribute look-ups on ``Any`` module objects, vectorcalls with boxed arguments),
about a fifth of a new block's cost there.  Imported here, the calls into the compiled modules are
native C calls.  Only the compile path imports this module (``compile/assemble.py``); the package's
:func:`forgec.compile.macros.expand_block` forwards to it for tests and tools, so ``forgec validate``
(tests/cli/test_cold_imports.py) loads nothing more than before.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from forgec.compile.macros import engine, replay
from forgec.compile.macros.builtins import BUILTIN_RENDERERS
from forgec.compile.macros.grammar import parse, parse_seen, parsed, scan_top_level
from forgec.compile.macros.nodes import Document, Macro
from forgec.compile.macros.replay import REPLAYS

if TYPE_CHECKING:
    from forgec.diagnostics import Diagnostic
    from forgec.model.runtime import Runtime
    from forgec.model.variables import VariableStore
    from forgec.plugins import Registry

__all__ = ["expand_block"]

#: what :func:`_custom_renderers` gives without custom macros: one shared dictionary, never changed (the
#: engine only reads it), instead of a new one per block
_NO_CUSTOM: Final[dict[str, Any]] = {}
#: the built-in table and the replay cache, as Final names: every block reads them, and in the mypyc build an
#: imported name is a globals look-up (~130 instructions), a Final one a C static
_BUILTINS: Final = BUILTIN_RENDERERS
_REPLAYS: Final = REPLAYS
#: the engine's limits, part of every recorded context (:func:`.replay.context_of`): one tuple, not one per block
_LIMITS: tuple[int, ...] = (engine.MAX_STRING_LENGTH, engine.MAX_BLOCK_LENGTH, engine.MAX_BLOCK_WORK, engine.MAX_DEPTH)


def _custom_renderers(registry: Registry | None) -> dict[str, Any]:
    """The registry's custom macros as ``name -> render(ctx)``, what the engine dispatches on."""
    if registry is None or not registry.macros:
        return _NO_CUSTOM
    return {name: definition.render for name, definition in registry.macros.items()}


def _context_of(item_id: Any, pointer: tuple[Any, ...] | None, stack: Any,
                store: VariableStore | None) -> tuple[Any, ...] | None:
    """Everything besides the text and the variables a block's expansion depends on (:func:`.replay.context_of`)."""
    return replay.context_of(item_id, pointer, engine.unresolved_policy(stack), store, _LIMITS)


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
    custom = _NO_CUSTOM if registry is None or not registry.macros else _custom_renderers(registry)
    # recorded and replayed only without custom macros, and for string (or absent) item ids (:mod:`.replay`)
    recordable = not custom and (item_id is None or type(item_id) is str)
    context: tuple[Any, ...] | None = None
    # whether a record made now would be kept: the replay cache keeps a text from its second sight on,
    # so a first sight is only marked (in the same locked call as the look-up) and not traced
    keep = False
    doc: Document | None = None
    trace: replay.Trace | None = None
    first = len(diagnostics)
    if recordable:
        recorded, keep = _REPLAYS.get_or_mark(text)  # by name: a module attribute is a generic get_attr compiled
        if recorded is not None:  # a text never recorded (a first sight) needs no context to look in
            context = _context_of(item_id, pointer, stack, store)
            variables = stack.get("variables") if isinstance(stack, dict) else None
            static = variables if isinstance(variables, dict) else None
            replayed = replay.replay_entries(recorded, context, store, static, diagnostics)  # type: ignore[arg-type]
            if replayed is not None:
                return replayed
        elif keep:  # seen, never recorded: its second sight, or a text whose recording failed (parse kept then)
            doc = parsed(text)
        if recorded is None and doc is None:
            # a first or second sight: kept parsed by neither cache, so its top level is enough
            # (engine.expand_first_sight), traced from the second sight on; None: a "{{" left unclosed,
            # which the whole parse handles
            spans = scan_top_level(text)
            if spans is not None:
                # no macro at the top level: the scan gives the whole text as one piece (or none), since it
                # cuts the text only where a macro is
                if len(spans) < 2 and (not spans or isinstance(spans[0], str)):
                    return text
                if keep:
                    context = _context_of(item_id, pointer, stack, store)
                    trace = replay.Trace()
                result, trace = engine.expand_first_sight(text, spans, item_id, stack, runtime, store, diagnostics,
                                                          selected_tools, _BUILTINS, custom, pointer, trace)
                if keep and (context is None or trace is None
                             or not replay.record(text, context, trace, diagnostics[first:], result)):
                    # not recorded (it never will be, or not with these variables): its parse kept for the next
                    # sight, as the whole-parse path keeps it from the second sight on
                    parse_seen(text, True)
                return result
        if doc is None:
            # the parse cache takes the replay cache's word on a first sight: one cache call per new block
            doc = parse_seen(text, keep)
    else:
        doc = parse(text)
    if (len(doc) == 1 and not isinstance(doc[0], Macro)) or not doc:
        return text
    if keep:
        # recorded from the text's second sight on: a first sight's record would only be dropped
        if context is None:
            context = _context_of(item_id, pointer, stack, store)
        trace = replay.Trace()
    result, trace = engine.expand_session(text, doc, item_id, stack, runtime, store, diagnostics, selected_tools,
                                          _BUILTINS, custom, pointer, trace)
    if context is not None and trace is not None:
        replay.record(text, context, trace, diagnostics[first:], result)
    return result
