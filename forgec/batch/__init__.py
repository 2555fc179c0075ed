"""Compiling many times in one process: one context against many stacks, one stack under many contexts.

:func:`forgec.report.compile_report` loads both inputs on every call, as a one-shot command must.
A host that compiles turn after turn, a golden-file run over a project's stacks, or a language
server previewing as the user types repeats most of that work.  :class:`Batch` keeps what a run
loads once:

* :meth:`Batch.stacks` -- one context, many stacks: the context is read and validated once and
  every stack compiles against it (the golden-file run: one ``--context``, every stack);
* :meth:`Batch.contexts` -- one stack, many contexts: the stack (and its stack folder) is loaded and
  fingerprinted once and compiled under each context in turn (a host's turns; a stack checked
  against a folder of recorded conversations);
* :meth:`Batch.compile` -- one compile, with each context *file* read once per batch (later calls
  with the same path reuse it: a batch is one run, during which its input files do not change).

The results are the same documents :func:`~forgec.report.compile_report` gives (a test compares
them), and the loaded inputs are shared between the results of one call: the compiler never
changes a stack or a context (tests/report/test_no_mutation.py compiles twice and compares), and
callers must not either.  Results are yielded one at a time, so a long run holds one at a time.

The cyclic collector is already paused where it costs (parsing a large file, compiling
:data:`~forgec.source.collector.LARGE_COMPILE` messages and items or more: :mod:`forgec.source.collector`),
so a batch adds no collector management of its own.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Any

from forgec.codecs.context import Context, load_context
from forgec.report import CompileResult, ReportInputs, compile_inputs, load_inputs, load_stack_group

if TYPE_CHECKING:
    from forgec.environment import Environment

__all__ = ["Batch"]


class Batch:
    """A run of compiles sharing an environment, the loaded contexts, and the compile options.

    ``env``: the run's :class:`~forgec.environment.Environment` (trusted plugins, slots, models);
    ``finalize`` and ``payloads`` as for :func:`forgec.report.compile_inputs`.
    """

    def __init__(self, env: Environment | None = None, *, finalize: bool | None = None, payloads: bool = False) -> None:
        self.env = env
        self.finalize = finalize
        self.payloads = payloads
        self._contexts: dict[str, Context] = {}

    def context(self, source: Any) -> Context:
        """``source`` loaded as a context: a path (read once per batch), data, a ``Context`` (as it
        is) or None (the built-in sample).  Raises :class:`~forgec.codecs.context.ContextError`."""
        if isinstance(source, Context):
            return source
        if isinstance(source, (str, os.PathLike)):
            key = os.fspath(source)
            found = self._contexts.get(key)
            if found is None:
                found = self._contexts[key] = load_context(source)
            return found
        return load_context(source)

    def compile(self, stack: Any, context: Any = None) -> CompileResult:
        """Compile ``stack`` (anything :func:`~forgec.report.compile_report` takes) under ``context``."""
        return self._compile(load_inputs(stack, self.context(context), env=self.env))

    def stacks(self, stacks: Iterable[Any], context: Any = None) -> Iterator[CompileResult]:
        """Compile each of ``stacks`` against one ``context``, loaded once; one result per stack.

        A stack that cannot be read raises :class:`~forgec.errors.InputError` when its turn comes.
        """
        ctx = self.context(context)
        for stack in stacks:
            yield self._compile(load_inputs(stack, ctx, env=self.env))

    def contexts(self, stack: Any, contexts: Iterable[Any]) -> Iterator[CompileResult]:
        """Compile one ``stack``, loaded once (with its stack folder), under each of ``contexts``."""
        loaded, others = load_stack_group(stack, env=self.env)
        for context in contexts:
            yield self._compile(ReportInputs(loaded, others, self.context(context)))

    def _compile(self, inputs: ReportInputs) -> CompileResult:
        return compile_inputs(inputs, env=self.env, finalize=self.finalize, payloads=self.payloads)
