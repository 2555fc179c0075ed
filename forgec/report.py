"""The compile workflow: load a stack and a context, compile, fingerprint, finalize, build bodies.

Every front end that compiles one stack -- ``forgec preview`` and ``compile``, ``forgec snapshot``,
the pytest plugin, the library API -- goes through these functions, so the same stack, plugins
and context give the same result everywhere:

* :func:`load_stack` reads a stack as the compile reads it: a file inside a project stack folder
  together with its folder (duplicate ids and ``validation.otherFiles`` come out as the reference
  reports them), with the environment's supported slots; a file that cannot be read at all raises
  :class:`~forgec.errors.InputError` instead of compiling pi-forge's fallback stack;
* :func:`load_inputs` adds the context (:func:`forgec.codecs.context.load_context`);
* :func:`compile_inputs` / :func:`compile_report` compile and return a typed :class:`CompileResult`,
  whose :meth:`~CompileResult.to_report` is the compile report -- the document a conformance case's
  ``expected.json`` holds (conformance.md *Output*), built the way the reference runner builds it
  (context-format.md, *How the reference runner builds the runtime*).  It is forgec's stable
  machine interface (``forgec preview --format json``): ``validation`` (the loader's view of the
  file, with the other files of its stack folder), ``system``, ``messages``, ``variables`` (the
  store right after the messages compile, §16.1), ``fingerprints`` and, when the context lists
  ``finalizeMessages``, ``finalize``; ``payloads`` when asked for.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path, PurePath
from typing import TYPE_CHECKING, Any

from forgec.codecs.context import Context, load_context
from forgec.codecs.stack import (
    LoadedStack,
    load_stack_bytes,
    load_stack_data,
    load_stack_file,
    load_stack_folder,
)
from forgec.compile.assemble import CompiledPrompt, MessagesResult, SystemResult, compile_prompt
from forgec.compile.passes.regex import RegexBudget, RuleSelections, finalize_message
from forgec.compile.plan import CompilePlan, plan_of
from forgec.diagnostics import Diagnostic, to_pi_list
from forgec.diagnostics.records import record_maker
from forgec.errors import InputError
from forgec.fingerprint import stack_fingerprint
from forgec.model.variables import VariableStore
from forgec.rules.loader import FILE_UNREADABLE
from forgec.workspace import stack_folder_group, stdin_stack_name

if TYPE_CHECKING:
    from forgec.emit import Prompt
    from forgec.environment import Environment

__all__ = [
    "CompileResult",
    "ReportInputs",
    "compile_inputs",
    "compile_report",
    "load_inputs",
    "load_stack",
    "load_stack_group",
    "load_stdin_stack",
]


# --- loading ----------------------------------------------------------------------------------------


def _same_file(loaded: LoadedStack, path: Path, wanted: str) -> bool:
    """Whether the group loader's ``loaded`` is the file ``path`` (``wanted`` its text): the path
    text first, a ``resolve()`` only when the spellings differ (a link, ``..``)."""
    if loaded.path == wanted:
        return True
    try:
        return Path(loaded.path).resolve() == path.resolve()
    except OSError:
        return False


def _load_path(text: str, supported_slots: tuple[str, ...] | None) -> tuple[LoadedStack, list[LoadedStack]]:
    """The loaded main file and the other files of its folder, in the loader's order (§16.15a).

    ``text`` is the path as ``str(Path(...))`` spells it (:func:`_path_text`).
    """
    # the substring test spares the common case (a file outside any stack folder) the Path walk
    if "prompt-stacks" in text:
        path = Path(text)
        group = stack_folder_group(path)
        if group is not None:
            # pi-forge lists only ``*.json``; YAML siblings take part only when the main file is YAML
            loaded_all = load_stack_folder(
                group, scope="project", include_yaml=path.suffix != ".json", supported_slots=supported_slots
            )
            for position, loaded in enumerate(loaded_all):
                if _same_file(loaded, path, text):
                    return loaded, loaded_all[:position] + loaded_all[position + 1 :]
    return load_stack_file(text, supported_slots=supported_slots), []


def _path_text(stack: str | os.PathLike[str]) -> str:
    """``str(Path(stack))`` -- the spelling every loaded path and message uses -- without building
    a ``Path`` when the text is already in that form (a POSIX path with no empty or ``.`` part and
    no trailing slash; every compile of a file asks this)."""
    if type(stack) is str:
        if _POSIX and _clean(stack):
            return stack
    elif isinstance(stack, PurePath):
        return str(stack)  # already in that form (and cached on the object)
    return str(Path(stack))


_POSIX = os.name == "posix"


def _clean(text: str) -> bool:
    """Whether ``PurePosixPath`` leaves ``text`` as it is: not empty, no ``//`` (two leading ones
    are kept, but are rare enough to take the ``Path`` way), no ``.`` part, no trailing ``/`` except
    the root's.  Substring tests, not a regular expression: a search with anchored alternatives cost
    ~1.9 µs on a 60-character path, these ~0.2 µs (every compile of a file asks)."""
    if not text or "//" in text or "/./" in text or text.startswith("./") or text.endswith("/."):
        return False
    if text[-1] == "/":
        return text == "/"
    return text != "."


def _refuse_unreadable(loaded: LoadedStack) -> None:
    """A stack file that cannot be read at all is an :class:`InputError`, not pi-forge's fallback stack."""
    for diagnostic in loaded.diagnostics:
        if diagnostic.code == FILE_UNREADABLE:  # pi-forge's text: "Failed to parse JSON: ENOENT: …"
            reason = diagnostic.message.split(": ", 1)[-1]
            raise InputError(f"cannot read the stack file {loaded.path}: {reason}", path=loaded.path, diagnostics=[diagnostic])


def _slots(env: Environment | None) -> tuple[str, ...] | None:
    return env.supported_slots if env is not None else None


@dataclass(frozen=True, slots=True)
class ReportInputs:
    """What a compile is built from: the loaded stack, its folder siblings and the context."""

    loaded: LoadedStack
    others: tuple[LoadedStack, ...]
    context: Context


def _load_with_folder(stack: Any, env: Environment | None) -> tuple[LoadedStack, list[LoadedStack]]:
    """The loaded stack and the other files of its project stack folder (empty outside one)."""
    slots = _slots(env)
    if isinstance(stack, LoadedStack):
        return stack, []
    # ``str`` and ``Path`` first (a tuple is tried in order): the ``os.PathLike`` ABC check is a Python-level call
    if isinstance(stack, (str, PurePath, os.PathLike)):
        loaded, others = _load_path(_path_text(stack), slots)
    else:
        loaded, others = load_stack_data(stack, "stack.json", supported_slots=slots), []
    _refuse_unreadable(loaded)
    return loaded, others


def load_stack(stack: str | os.PathLike[str] | Any, *, env: Environment | None = None) -> LoadedStack:
    """Load ``stack`` as a compile reads it: a file path, raw stack data (a parsed value), or a
    ``LoadedStack`` (returned as it is).

    A file inside a project stack folder is checked together with its folder (a duplicate id in
    another file is an error of this one, as pi-forge reports it).  Raises :class:`InputError`
    when a stack *file* cannot be read (missing, a folder, no permission); a file that is read but
    does not parse is a stack with loader diagnostics (``loaded.usable`` is False).
    """
    return _load_with_folder(stack, env)[0]


def load_stack_group(
    stack: str | os.PathLike[str] | Any, *, env: Environment | None = None
) -> tuple[LoadedStack, tuple[LoadedStack, ...]]:
    """:func:`load_stack`, and the other files of its project stack folder (empty outside one),
    as a compile reports them (``validation.otherFiles``)."""
    loaded, others = _load_with_folder(stack, env)
    return loaded, tuple(others)


def load_stdin_stack(raw: bytes, stdin_filename: str | None, *, env: Environment | None = None) -> LoadedStack:
    """A stack read from standard input, named ``--stdin-filename`` (default ``stdin.json``).

    Decoded as pi-forge's ``readFile(path, "utf8")`` decodes a file; the name gives the fallback
    id, JSON vs YAML and the name shown in output (``-`` without one).
    """
    return load_stack_bytes(
        raw, stdin_stack_name(stdin_filename), path=stdin_filename or "-", supported_slots=_slots(env)
    )


def load_inputs(stack: Any, context: Any = None, *, env: Environment | None = None) -> ReportInputs:
    """Load a stack (see :func:`load_stack`) and a context (path, data, ``Context`` or None).

    A ``Context`` that is already loaded is used as it is -- a host that compiles many turns against
    one snapshot validates it once.  ``None`` is the built-in sample context.  Raises
    :class:`InputError` (a :class:`~forgec.codecs.context.ContextError` for the context) for input
    that cannot be used.
    """
    loaded, others = _load_with_folder(stack, env)
    ctx = context if isinstance(context, Context) else load_context(context)
    inputs: ReportInputs = _MAKE_INPUTS(loaded, tuple(others), ctx)
    return inputs


# --- the result -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CompileResult:
    """One compile: the inputs, the compiled prompt, and what the report adds to it.

    :meth:`to_report` is the JSON document; the attributes are the typed parts (``prompt`` is the
    compiler's :class:`~forgec.compile.assemble.CompiledPrompt`, whose diagnostics keep their codes
    and pointers, which the report's pi-forge-shaped lists leave out).
    """

    inputs: ReportInputs
    prompt: CompiledPrompt
    #: the variable store right after the messages compile (``{session, turn, sessionDirty}``)
    variables: dict[str, Any]
    #: ``{"promptStack": sha256:v1…}``, or ``None`` when the stack holds a value canonical JSON refuses
    fingerprints: dict[str, str] | None
    #: ``[{message, diagnostics}]`` for the context's ``finalizeMessages``, or ``None``
    finalize: list[dict[str, Any]] | None = None
    #: the provider request bodies of the four reference models, when asked for
    payloads: dict[str, Any] | None = field(default=None)

    @property
    def loaded(self) -> LoadedStack:
        return self.inputs.loaded

    @property
    def context(self) -> Context:
        return self.inputs.context

    @property
    def system_prompt(self) -> str:
        return self.prompt.system.prompt

    @property
    def messages(self) -> list[Any]:
        return self.prompt.messages.messages

    @property
    def diagnostics(self) -> list[Diagnostic]:
        """The compile's own diagnostics: the system prompt's, then the messages' (codes, pointers)."""
        return [*self.prompt.system.diagnostics, *self.prompt.messages.diagnostics]

    def request_prompt(self, *, thinking_level: str | None = None, session_id: str | None = None) -> Prompt:
        """What the host hands pi-ai for this compile: the prompt, the context's tools and level."""
        from forgec.emit import Prompt

        return Prompt.for_context(
            self.system_prompt, self.messages, self.context, thinking_level=thinking_level, session_id=session_id
        )

    def validation(self) -> dict[str, Any]:
        """The report's ``validation`` section: the loader's view, with the folder's other files."""
        section = self.loaded.validation()
        if self.inputs.others:
            section["otherFiles"] = [
                {"file": o.file_name, "stackId": o.stack_id, "diagnostics": to_pi_list(o.diagnostics)}
                for o in self.inputs.others
            ]
        return section

    def to_report(self) -> dict[str, Any]:
        """The compile report (see the module docstring); a new document on every call."""
        compiled = self.prompt
        doc: dict[str, Any] = {
            "validation": self.validation(),
            "system": {"prompt": compiled.system.prompt, "diagnostics": to_pi_list(compiled.system.diagnostics)},
            "messages": {
                "messages": compiled.messages.messages,
                "sources": compiled.messages.sources,
                "diagnostics": to_pi_list(compiled.messages.diagnostics),
            },
            "variables": self.variables,
        }
        if self.fingerprints is not None:
            doc["fingerprints"] = self.fingerprints
        if self.finalize is not None:
            doc["finalize"] = self.finalize
        if self.payloads is not None:
            doc["payloads"] = self.payloads
        return doc


# --- making the two records of every compile ------------------------------------------------------
#
# Every compile makes one ReportInputs and one CompileResult.  A frozen dataclass's generated
# ``__init__`` sets each field by ``object.__setattr__``: ~0.7 µs for CompileResult's six in the pure
# build, ~1.2 µs in the mypyc build (ReportInputs' three: 0.5 / 0.8 µs).  They are made by
# :func:`forgec.diagnostics.records.record_maker`'s makers instead: in the mypyc build the storing
# functions below (compiled, their stores skip the frozen ``__setattr__``), in the pure build the
# plain-slots twin, and the constructors for a class changed since the field lists were written.
# The dataclasses are unchanged (frozen, compared and hashed by their fields);
# tests/report/test_records.py holds the fast makers on and their records equal to the constructors'.

#: the fields of :class:`ReportInputs` and :class:`CompileResult`, in their order
INPUTS_FIELDS = ("loaded", "others", "context")
RESULT_FIELDS = ("inputs", "prompt", "variables", "fingerprints", "finalize", "payloads")


def _stored_inputs(loaded: LoadedStack, others: tuple[LoadedStack, ...], context: Context) -> ReportInputs:
    """``ReportInputs(loaded, others, context)`` by storing each field: compiled, C stores into the native
    object; as Python the first store raises ``FrozenInstanceError`` (and the maker passes it over)."""
    inputs: ReportInputs = ReportInputs.__new__(ReportInputs)
    inputs.loaded = loaded  # type: ignore[misc]
    inputs.others = others  # type: ignore[misc]
    inputs.context = context  # type: ignore[misc]
    return inputs


def _stored_result(
    inputs: ReportInputs,
    prompt: CompiledPrompt,
    variables: dict[str, Any],
    fingerprints: dict[str, str] | None,
    finalize: list[dict[str, Any]] | None,
    payloads: dict[str, Any] | None,
) -> CompileResult:
    """``CompileResult(inputs, prompt, variables, fingerprints, finalize, payloads)`` by storing each
    field (as :func:`_stored_inputs`)."""
    result: CompileResult = CompileResult.__new__(CompileResult)
    result.inputs = inputs  # type: ignore[misc]
    result.prompt = prompt  # type: ignore[misc]
    result.variables = variables  # type: ignore[misc]
    result.fingerprints = fingerprints  # type: ignore[misc]
    result.finalize = finalize  # type: ignore[misc]
    result.payloads = payloads  # type: ignore[misc]
    return result


def _probes() -> tuple[tuple[Any, ...], tuple[Any, ...]]:
    """Values of each field of the two records (of the types a compile passes, each a distinct object),
    which a maker's record is held against the constructor's with."""
    inputs: tuple[Any, ...] = (LoadedStack("probe.json", "probe.json", "project", {}, {}), (), Context({}))
    prompt = CompiledPrompt(SystemResult(""), MessagesResult([], []), VariableStore({}, {}, False))
    result: tuple[Any, ...] = (ReportInputs(*inputs), prompt, {"turn": {}}, {"promptStack": ""}, [], {"models": {}})
    return inputs, result


_INPUTS_PROBE, _RESULT_PROBE = _probes()
#: ``make(loaded, others, context)`` and ``make(inputs, prompt, variables, fingerprints, finalize, payloads)``
_MAKE_INPUTS: Any = record_maker(ReportInputs, INPUTS_FIELDS, probe=_INPUTS_PROBE, native=_stored_inputs)
_MAKE_RESULT: Any = record_maker(CompileResult, RESULT_FIELDS, probe=_RESULT_PROBE, native=_stored_result)


# --- compiling --------------------------------------------------------------------------------------


def _fingerprints(stack: dict[str, Any]) -> dict[str, str] | None:
    from forgec.fingerprint import FingerprintError

    try:
        return {"promptStack": stack_fingerprint(stack)}
    except (FingerprintError, ValueError, TypeError, RecursionError):
        return None


def compile_inputs(
    inputs: ReportInputs,
    *,
    env: Environment | None = None,
    finalize: bool | None = None,
    payloads: bool = False,
) -> CompileResult:
    """Compile already loaded inputs.

    ``finalize``: None adds the finalize section when the context has ``finalizeMessages``;
    True/False force it on/off.  ``payloads=True`` adds the provider request bodies of the four
    reference models (:func:`forgec.emit.build_payloads`).  ``env`` supplies the trusted plugins'
    custom macros and slots.
    """
    return _compile(inputs, env, finalize, payloads, fresh=False)


def _stack_fingerprints(loaded: LoadedStack, fresh: bool) -> dict[str, str] | None:
    """The report's ``fingerprints``.  ``fresh``: ``loaded`` came straight from the loader in this
    call (no caller could have changed its stack since), so the fingerprint a compile of the same
    file content computed before (kept on its cache entry) is this one too."""
    memo = loaded.memo if fresh else None
    if memo is not None and memo.fingerprint is not None:
        known = memo.fingerprint[0]
        return None if known is None else {"promptStack": known}
    fingerprints = _fingerprints(loaded.stack)
    if memo is not None:
        memo.fingerprint = (None if fingerprints is None else fingerprints["promptStack"],)
    return fingerprints


def _compile(
    inputs: ReportInputs, env: Environment | None, finalize: bool | None, payloads: bool, *, fresh: bool
) -> CompileResult:
    loaded, ctx = inputs.loaded, inputs.context
    normalised = loaded.stack
    store = VariableStore.fresh(ctx.session_variables)
    budget = RegexBudget()  # one regex time budget for the compile and its finalize section
    registry = env.registry if env is not None else None
    # the regex rule selections and the compile plan kept on the stack-cache entry (each made on first
    # use), when ``fresh`` (as for _stack_fingerprints: the stack is the entry's content, unchanged);
    # read here in one step rather than by a call each (every compile asks)
    memo = loaded.memo if fresh else None
    selections: RuleSelections | None = None
    plan: CompilePlan | None = None
    if memo is not None:
        selections = memo.selections
        if selections is None:
            selections = memo.selections = RuleSelections()
        known = memo.plan
        if known is None:
            known = memo.plan = (plan_of(normalised),)
        plan = known[0]
    # a long history runs with the collector paused: compile_prompt takes care of it
    compiled = compile_prompt(
        normalised, ctx.runtime(), store, registry=registry, regex_budget=budget, selections=selections, plan=plan
    )
    finalized: list[dict[str, Any]] | None = None
    finalize_messages = ctx.finalize_messages
    if finalize is True or (finalize is None and finalize_messages is not None):
        finalized = []
        for message in finalize_messages or []:
            replaced, diagnostics = finalize_message(normalised, message, budget, selections)
            finalized.append({"message": replaced, "diagnostics": to_pi_list(diagnostics)})
    result: CompileResult = _MAKE_RESULT(
        inputs, compiled, store.snapshot(), _stack_fingerprints(loaded, fresh), finalized, None
    )
    if not payloads:
        return result
    from forgec.emit import build_payloads  # provider bodies: imported only when asked for

    models = env.catalog if env is not None and env.catalog_files else None
    section = build_payloads(result.request_prompt(), models=models)
    return CompileResult(inputs, compiled, result.variables, result.fingerprints, finalized, section)


#: what compile_report takes as a file path without load_inputs's steps (``str`` first: the usual one)
_PATH_TYPES = (str, PurePath)


def compile_report(
    stack: Any,
    context: Any = None,
    *,
    env: Environment | None = None,
    finalize: bool | None = None,
    payloads: bool = False,
) -> CompileResult:
    """Compile ``stack`` under ``context``; ``.to_report()`` is the compile report.

    ``stack``: a file path (a file inside ``.pi/forge/prompt-stacks/`` is loaded together with its
    folder), raw stack data, a ``LoadedStack``, or :class:`ReportInputs`.  ``context``: a context
    file path, its data, a loaded ``Context`` (used as it is), or None for the built-in sample
    context.  ``env``: the run's :class:`~forgec.environment.Environment` (trusted plugins);
    ``finalize`` and ``payloads`` as for :func:`compile_inputs`.

    Raises :class:`InputError` for a stack file that cannot be read and a context that is refused.
    """
    if isinstance(stack, _PATH_TYPES) and isinstance(context, _PATH_TYPES):
        # two file paths (every call of a host or a runner): load_inputs's steps, without its two calls
        loaded, others = _load_path(_path_text(stack), env.supported_slots if env is not None else None)
        _refuse_unreadable(loaded)
        inputs: ReportInputs = _MAKE_INPUTS(loaded, tuple(others), load_context(context))
        return _compile(inputs, env, finalize, payloads, fresh=True)
    if isinstance(stack, ReportInputs):
        return _compile(stack, env, finalize, payloads, fresh=False)
    fresh = not isinstance(stack, LoadedStack)
    return _compile(load_inputs(stack, context, env=env), env, finalize, payloads, fresh=fresh)
