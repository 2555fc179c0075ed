"""Replaying a block's expansion: the same text, the same variables, the same output (issue 14).

An editor, a test run or a host compiling turn after turn expands the same blocks again and again, and
the macro engine's walk costs ~10-15 µs per block in CPython (a 1,000-block stack: most of a compile).
A block's expansion is a function of its text, where it sits (item id, pointer), the stack's unresolved
policy, the engine's limits, and -- for the built-ins listed in :data:`REPLAYABLE` -- nothing else but
the variables it reads. So the first expansion records what it read and wrote (:class:`Trace`, kept by
:class:`~forgec.compile.macros.engine.Session`), and a later expansion of the same block whose reads
give the same answers writes the same values in the same order, appends the same findings and returns
the same text, without running the engine (:func:`replay`).

Exactness rests on three rules:

- Only these built-ins may run: the ones reading the runtime, the selected tools or the stack's items
  (``date``, ``cwd``, ``iftools``, ``ifslot``…) and every custom macro end the recording, as does any
  failure (a renderer's exception, a length or work cap, recursion: they depend on more than the text).
- A read is kept as what the engine does with it: missing or not, and its macro text (§4.4); every
  built-in uses a variable only through those two (``getvar``, ``ifvar``, ``ifeq``, an unknown macro).
- A block that reads a name it also writes or clears is never replayed: its reads are then answered
  partly by its own writes, so they can all be checked against the store *before* anything is written,
  and a replay that fails its check has changed nothing.

Entries live in a :class:`~forgec.codecs.stack.ByteCache` bounded by an estimate of their size, swept with
the parse cache (:func:`forgec.compile.macros.grammar.sweep_cache`).
"""

from __future__ import annotations

from typing import Any

from forgec.codecs.stack import ByteCache
from forgec.diagnostics import Diagnostic
from forgec.model.variables import MISSING, VariableStore, lookup, to_macro_text

__all__ = ["REPLAYABLE", "REPLAYS", "Trace", "context_of", "record", "replay", "replay_entries"]

#: the built-ins whose output is a function of their arguments and the variables they read
REPLAYABLE = frozenset({
    "setvar", "setturnvar", "setsessionvar", "getvar", "var", "getturnvar", "getsessionvar",
    "clearvar", "clearturnvar", "clearsessionvar", "trim", "upper", "lower", "json", "xml", "ifvar", "ifeq",
})  # fmt: skip

#: the estimate's bytes per recorded read or write and per finding (tuples, references, the finding)
_OP_BYTES = 120
_FINDING_BYTES = 400


class Trace:
    """What one expansion read (``(name, scope, value)``) and wrote (``(scope, name, value)``, value None
    for a clear), in order; the session stops recording (``Session.trace = None``) when it cannot replay."""

    __slots__ = ("reads", "writes")

    def __init__(self) -> None:
        self.reads: list[tuple[str, str, Any]] = []
        self.writes: list[tuple[str, str, str | None]] = []


class _Entry:
    """A recorded expansion: the reads as (name, scope, missing, macro text), the writes, the findings,
    the output, and its share of the cache's estimate."""

    __slots__ = ("findings", "output", "reads", "size", "writes")

    def __init__(self, reads: tuple[tuple[str, str, bool, str], ...], writes: tuple[tuple[str, str, str | None], ...],
                 findings: tuple[Diagnostic, ...], output: str) -> None:
        self.reads = reads
        self.writes = writes
        self.findings = findings
        self.output = output
        self.size = 2 * len(output) + _OP_BYTES * (len(reads) + len(writes)) + _FINDING_BYTES * (len(findings) + 1)


#: recorded expansions by block text, then by :func:`context_of` (a text's hash is kept by the string, a
#: tuple's is not: the cache's own bookkeeping hashes its key three times); 32 MiB of estimated entries
REPLAYS: ByteCache[dict[tuple[Any, ...], _Entry]] = ByteCache(32 * 1024 * 1024, second_sight=True)
#: recorded contexts kept per block text (one per item the text stands in, in practice)
_PER_TEXT = 64


def context_of(item_id: Any, pointer: tuple[Any, ...] | None, policy: str, store: VariableStore | None,
               limits: tuple[int, ...]) -> tuple[Any, ...] | None:
    """Besides the text, what a block's expansion is recorded under, or None when it is not recorded: only
    string (or absent) item ids, since ``1 == True`` in Python but not in the JSON printed; the pointer's
    element types are part of it for the same reason."""
    if item_id is not None and type(item_id) is not str:
        return None
    shape = None if pointer is None else tuple(map(type, pointer))
    return item_id, pointer, shape, policy, store is None, limits


def replay(text: str, context: tuple[Any, ...], store: VariableStore | None, static: dict[str, Any] | None,
           diagnostics: list[Diagnostic]) -> str | None:
    """The recorded output of the block when every read it made answers the same now: its writes
    applied to ``store`` and its findings appended; None (nothing changed) otherwise."""
    return replay_entries(REPLAYS.get(text), context, store, static, diagnostics)


def replay_entries(entries: dict[tuple[Any, ...], _Entry] | None, context: tuple[Any, ...], store: VariableStore | None,
                   static: dict[str, Any] | None, diagnostics: list[Diagnostic]) -> str | None:
    """:func:`replay` with the text's recorded expansions already looked up (``REPLAYS.get(text)``)."""
    entry = None if entries is None else entries.get(context)
    if entry is None:
        return None
    for name, scope, missing, shown in entry.reads:
        value = lookup(name, store, static, scope)  # type: ignore[arg-type]
        if value is MISSING:
            if not missing:
                return None
        elif missing or (value if type(value) is str else to_macro_text(value)) != shown:
            return None
    if store is not None:
        for scope, name, written in entry.writes:
            if written is None:
                store.clear(scope, name)  # type: ignore[arg-type]
            else:
                store.set(scope, name, written)  # type: ignore[arg-type]
    diagnostics.extend(entry.findings)
    return entry.output


def record(text: str, context: tuple[Any, ...], trace: Trace, findings: list[Diagnostic], output: str) -> bool:
    """Keep a finished expansion for :func:`replay`, unless it read a name it also wrote (see above);
    whether it was kept (the cache may still drop it for its size).

    A text's entries are replaced by a new dictionary, never changed in place: another thread may be
    reading the old one."""
    written = {name for _scope, name, _value in trace.writes}
    if any(name in written for name, _scope, _value in trace.reads):
        return False
    reads = tuple((name, scope, value is MISSING, to_macro_text(value)) for name, scope, value in trace.reads)
    entries = dict(REPLAYS.get(text) or {})
    if len(entries) >= _PER_TEXT:
        entries.clear()
    entries[context] = _Entry(reads, tuple(trace.writes), tuple(findings), output)
    REPLAYS.put(text, entries, 2 * len(text) + sum(entry.size for entry in entries.values()))
    return True
