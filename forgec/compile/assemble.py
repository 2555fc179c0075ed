"""One turn's compile: the system prompt (compile-core.md §7) and the message list (§8).

Both functions are pure apart from the variable store, which the caller passes in explicitly and
shares between them (system first, then messages; §2).  The stack is plain data, normalised by the
loader or raw (the web-editor path), and every field is read with pi-forge's lenient JavaScript rules
(§1.1): only ``enabled: false`` disables an item, roles are compared exactly, raw ``defaults`` and
``context`` values are used for their truthiness.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from itertools import chain, count, islice, repeat
from operator import itemgetter, setitem
from typing import TYPE_CHECKING, Any, Final

from forgec.compile.macros.block import expand_block
from forgec.compile.passes import history as hist
from forgec.compile.passes import regex as rx
from forgec.compile.passes.policy import selected_tools
from forgec.compile.plan import (
    MESSAGE_DUPLICATE_HISTORY,
    MESSAGE_HISTORY,
    MESSAGE_SLOT,
    MESSAGE_TEXT,
    SYSTEM_HISTORY,
    SYSTEM_SLOT,
    SYSTEM_TEXT,
    CompilePlan,
    item_source,
    source_record,
)
from forgec.compile.slots import render_slot
from forgec.diagnostics import Diagnostic
from forgec.js.values import UNDEFINED, js_trim, js_truthy
from forgec.model.messages import roles_of
from forgec.model.runtime import Runtime
from forgec.model.shared_keys import key_shared
from forgec.model.source_record import SourceRecord
from forgec.model.variables import VariableStore
from forgec.resources import is_compiled
from forgec.source.collector import LARGE_COMPILE, gc_paused, make_spares, spare_list

if TYPE_CHECKING:
    from forgec.plugins import Registry
from forgec.rules import compile as codes

__all__ = [
    "CompiledPrompt",
    "MessagesResult",
    "SystemResult",
    "compile_messages",
    "compile_prompt",
    "compile_system_prompt",
    "synthetic_message",
]

CHAT_HISTORY = "chat-history"

#: shared by every synthetic assistant message; copied on use so callers may mutate their messages
_ZERO_USAGE: dict[str, Any] = {
    "input": 0,
    "output": 0,
    "cacheRead": 0,
    "cacheWrite": 0,
    "totalTokens": 0,
    "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0},
}
#: ``_ZERO_USAGE["cost"]``, by name (copied on use as well)
_ZERO_COST: dict[str, Any] = _ZERO_USAGE["cost"]


@dataclass(slots=True)
class SystemResult:
    """``compileSystemPrompt``'s result: the prompt Pi sends and the findings of this stage."""

    prompt: str
    diagnostics: list[Diagnostic] = field(default_factory=list)


@dataclass(slots=True)
class MessagesResult:
    """``compileMessages``'s result; ``sources[i]`` says where ``messages[i]`` came from (§1.4)."""

    messages: list[Any]
    sources: list[dict[str, Any]]
    diagnostics: list[Diagnostic] = field(default_factory=list)


@dataclass(slots=True)
class CompiledPrompt:
    """Both compiles of one turn, sharing one variable store."""

    system: SystemResult
    messages: MessagesResult
    store: VariableStore


class _Tools:
    """The policy-filtered tool list, computed on first use (macro expansion needs it; slots do not)."""

    __slots__ = ("_runtime", "_stack", "_value")

    def __init__(self, stack: Any, runtime: Runtime) -> None:
        self._stack = stack
        self._runtime = runtime
        self._value: list[str] | None = None

    def get(self) -> list[str]:
        if self._value is None:
            self._value = selected_tools(self._stack, self._runtime)
        return self._value


def _items(stack: Any) -> list[tuple[int, dict[str, Any]]]:
    """Enabled items in stack order with their index in ``items`` (for source pointers)."""
    items = stack.get("items") if isinstance(stack, dict) else None
    if not isinstance(items, list):
        return []
    return [(i, item) for i, item in enumerate(items) if isinstance(item, dict) and item.get("enabled") is not False]


def _item_text(
    index: int,
    item: dict[str, Any],
    stack: Any,
    runtime: Runtime,
    store: VariableStore | None,
    diagnostics: list[Diagnostic],
    tools: _Tools,
    registry: Registry | None,
) -> str:
    """A block's content with macros expanded, or a slot's rendering (§3, §6); never trimmed here."""
    if item.get("kind") == "slot":
        return render_slot(item, stack=stack, runtime=runtime, store=store, diagnostics=diagnostics, registry=registry)
    content = item.get("content")
    if not isinstance(content, str) or not content:
        return ""
    if "{{" not in content:  # nothing to expand: skip the macro engine entirely
        return content
    return _expand(index, item, content, stack, runtime, store, diagnostics, tools, registry)


def compile_system_prompt(
    stack: Any, runtime: Runtime, store: VariableStore | None, *, registry: Registry | None = None, regex_budget: rx.RegexBudget | None = None
) -> SystemResult:
    """§7: system items joined with blank lines, combined with Pi's base prompt by ``mode``."""
    return _system_prompt(stack, runtime, store, registry, regex_budget, _items(stack), _Tools(stack, runtime))


def _system_prompt(
    stack: Any,
    runtime: Runtime,
    store: VariableStore | None,
    registry: Registry | None,
    regex_budget: rx.RegexBudget | None,
    items: list[tuple[int, dict[str, Any]]],
    tools: _Tools,
    selections: rx.RuleSelections | None = None,
) -> SystemResult:
    """:func:`compile_system_prompt` over the stack's enabled ``items`` (:func:`_items`), with the
    policy-filtered tool list ``tools`` (shared with the messages stage by :func:`compile_prompt`)
    and the regex rule selections of the stack's content when the caller has them."""
    diagnostics: list[Diagnostic] = []
    parts: list[str] = []
    for index, item in items:
        if item.get("role") != "system":
            continue
        if item.get("slot") == CHAT_HISTORY and item.get("kind") == "slot":
            diagnostics.append(_history_in_system(index, item))
            continue
        text = js_trim(_item_text(index, item, stack, runtime, store, diagnostics, tools, registry))
        if text:
            parts.append(text)
    return _system_result(stack, runtime, "\n\n".join(parts), diagnostics, regex_budget, selections)


def _history_in_system(index: int, item: dict[str, Any]) -> Diagnostic:
    return Diagnostic(
        "warning",
        "chat-history slot cannot be placed in the system prompt.",
        codes.CHAT_HISTORY_IN_SYSTEM,
        item_id=item.get("id"),
        pointer=("items", index, "role"),
    )


def _duplicate_history(index: int, item: dict[str, Any]) -> Diagnostic:
    return Diagnostic(
        "warning",
        "Skipped duplicate chat-history slot.",
        codes.DUPLICATE_CHAT_HISTORY,
        item_id=item.get("id"),
        pointer=("items", index),
    )


def _system_result(
    stack: Any,
    runtime: Runtime,
    compiled: str,
    diagnostics: list[Diagnostic],
    regex_budget: rx.RegexBudget | None,
    selections: rx.RuleSelections | None,
    rules: bool = True,
) -> SystemResult:
    """The system stage's result from the items' joined text ``compiled``: combined with Pi's base
    prompt by the stack's ``mode`` (or the base alone, with a warning, when ``compiled`` is empty),
    then the system regex rules (``rules``: False when the stack has none)."""
    base = runtime.base_system_prompt if isinstance(runtime.base_system_prompt, str) else ""
    mode = stack.get("mode") if isinstance(stack, dict) else None
    if not compiled:
        diagnostics.append(
            Diagnostic(
                "warning",
                "Compiled system prompt is empty; preserving base system prompt.",
                codes.EMPTY_SYSTEM_PROMPT,
                pointer=("items",),
            )
        )
        prompt = base
    elif mode == "append":
        prompt = base + "\n\n" + compiled
    elif mode == "prepend":
        prompt = compiled + "\n\n" + base
    else:
        prompt = compiled
    if rules:
        prompt = rx.apply_to_system(stack, prompt, diagnostics, regex_budget, selections)
    return SystemResult(prompt, diagnostics)


def synthetic_message(role: Any, text: str, stack: Any, runtime: Runtime) -> tuple[dict[str, Any], str]:
    """§8.2: the message a non-system item produces, and the role its source reports."""
    timestamp = runtime.now_ms
    content = [{"type": "text", "text": text}]
    if role == "assistant":
        model = runtime.model if isinstance(runtime.model, dict) else {}
        # read in place, not by a nested helper: one closure and three calls a message (a stack of
        # 1,000 blocks has hundreds of assistant ones)
        api, provider, model_id = model.get("api"), model.get("provider"), model.get("id")
        usage = dict(_ZERO_USAGE)
        usage["cost"] = dict(_ZERO_COST)
        return {
            "role": "assistant",
            "content": content,
            "api": "unknown" if api is None else api,
            "provider": "unknown" if provider is None else provider,
            "model": "unknown" if model_id is None else model_id,
            "usage": usage,
            "stopReason": "stop",
            "timestamp": timestamp,
        }, "assistant"
    if role == "custom":
        defaults = stack.get("defaults") if isinstance(stack, dict) else None
        visible = defaults.get("syntheticMessagesVisible") if isinstance(defaults, dict) else None
        stack_id = stack.get("id", UNDEFINED) if isinstance(stack, dict) else UNDEFINED
        return {
            "role": "custom",
            "customType": "pi-forge",
            "content": content,
            "display": False if visible is None else visible,
            "details": {"stackId": stack_id},
            "timestamp": timestamp,
        }, "custom"
    return {"role": "user", "content": content, "timestamp": timestamp}, "user"


class _MessageMaker:
    """:func:`synthetic_message` for one compile without plugins, where nothing changes the stack or the
    runtime between two messages: the members every assistant message shares (the model's ``api``,
    ``provider`` and ``id``, the compile instant) are read once, and each assistant message is a copy of
    that record with its own content and usage (a dict copy clones the key table; building the
    eight-key display inserted each key, and the model was read three times a message: ~1.5k
    instructions an assistant message compiled, stop 30).  Other roles are :func:`synthetic_message`'s."""

    __slots__ = ("_assistant", "_runtime", "_stack")

    def __init__(self, stack: Any, runtime: Runtime) -> None:
        self._stack = stack
        self._runtime = runtime
        self._assistant: dict[str, Any] | None = None

    def make(self, role: Any, text: str) -> tuple[dict[str, Any], str]:
        """``synthetic_message(role, text, stack, runtime)``: the same message, each its own objects."""
        if role == "assistant":
            head = self._assistant
            if head is None:
                head = self._assistant = synthetic_message("assistant", "", self._stack, self._runtime)[0]
            message = head.copy()
            message["content"] = [{"type": "text", "text": text}]
            usage = _ZERO_USAGE.copy()
            usage["cost"] = _ZERO_COST.copy()
            message["usage"] = usage
            return message, "assistant"
        return synthetic_message(role, text, self._stack, self._runtime)


def _no_plugins(registry: Registry | None) -> bool:
    """Whether a compile runs no plugin code (no registry, or one without slots and macros): then
    nothing but the compile itself changes the stack or the runtime while it runs."""
    return registry is None or not (registry.slots or registry.macros)


#: the members every implicit-history source shares (in the reference's key order)
_IMPLICIT_HEAD: dict[str, Any] = {"kind": "implicit-history", "itemName": "Conversation history", "slot": CHAT_HISTORY}


def _history_sources(head: dict[str, Any], history: list[Any], roles: list[str] | None = None) -> list[dict[str, Any]]:
    """One source per history message (:func:`_add_history_sources`), as a new list."""
    sources: list[dict[str, Any]] = []
    _add_history_sources(sources, head, history, roles)
    return sources


def _add_history_sources(
    sources: list[dict[str, Any]], head: dict[str, Any], history: list[Any], roles: list[str] | None = None
) -> None:
    """Append one source per history message to ``sources``: ``head``'s members, then
    ``historyIndex``, ``historyCount``, ``role``.

    This runs once per message of the host's conversation (50,000 in the scale benchmark), so the
    records are built by C loops, with no bytecode per message (:func:`_add_many_history_sources`):
    the roles are read in a pass of their own, then each message's role picks a record of ``head``
    that already holds it (one per role, :data:`_USUAL_ROLES`, laid out on a shared key table:
    :func:`~forgec.model.shared_keys.key_shared`), which is copied onto the end of ``sources`` and
    numbered in ``historyIndex``.  ``roles``: the :func:`~forgec.model.messages.role_of` of each
    message when the history pipeline read them already; else the stored ``role`` items are read
    (``dict.get``, what ``role_of`` reads).  From :data:`SHARED_HISTORY` messages the records of a
    history compiled before are shared instead (:func:`shared_history_sources`).  (Reading each role
    inside the copying loop, at a first sight when no role list is needed to compare, was measured
    again at stop 33: no faster than the pass of its own, 5.59 against 5.66 ms a 50,000-message call.)

    A message whose role has no record here (no dict, a role that is no string, an unusual name)
    finds ``None``, which ``dict.copy`` refuses: then what was appended is taken back, every role is
    read by :func:`~forgec.model.messages.roles_of` and each distinct one gets its record.

    A short history (up to :data:`_FEW_MESSAGES` messages, a host's usual turn) is built by
    :func:`_add_few_history_sources` instead, a plain loop: building seven role records up front
    cost more than the records themselves (2.7 µs of a five-message turn, 1.5 µs by the loop).
    """
    template = {**head, "historyIndex": 0, "historyCount": len(history), "role": ""}
    if len(history) >= SHARED_HISTORY:
        try:
            stored = _stored_roles(history) if roles is None else roles
        except TypeError:  # a message that is no dict: the general way says what each one's role is
            stored = None
        if stored is not None:
            shared = shared_history_sources(template, stored, copied=roles is None)
            if shared is not None:
                sources.extend(shared)
                return
        _add_many_history_sources(sources, template, history, roles, stored)
        return
    if len(history) > _FEW_MESSAGES or not _add_few_history_sources(sources, template, history, roles):
        _add_many_history_sources(sources, template, history, roles)


#: from this many messages a history's source records may be shared between compiles
#: (:func:`shared_history_sources`); the threshold of a large compile (the collector's pause)
SHARED_HISTORY = LARGE_COMPILE

#: the template (the key) of the last long history whose records were made plain; and the last long
#: history's shared records: ``(key, roles, records)`` (:func:`shared_history_sources`)
_seen: tuple[Any, ...] | None = None
_shared: tuple[tuple[Any, ...], list[Any], list[SourceRecord]] | None = None


def shared_history_sources(template: dict[str, Any], stored: list[Any], *, copied: bool = False) -> list[SourceRecord] | None:
    """The source records of a long history (one per message, as :func:`_add_history_sources` makes
    them from ``template``; ``stored``: each message's stored role, or the names ``roles_of`` gives
    them) as read-only :class:`SourceRecord` records that every compile of the same history gets as
    the same objects; None when the caller is to make plain records (a first sight, or records that
    cannot be shared).  ``copied``: ``stored`` is the caller's own new list (else it is copied before
    it is kept).

    Why: the records are most of a long history's compile (50,000 dicts made and, with the report,
    freed: ~7 ms of a ~9.5 ms compiled call, more than pi-forge's whole call; stop 29 measured the
    floor), yet they depend on nothing but ``template`` (the chat-history item's members and the
    history's length) and each message's role.  So the last long history's records are kept with
    what they were made from -- one entry, a history's worth of records (~14 MB at 50,000 messages,
    beside the context's own ~100 MB) -- and a compile whose template and roles are the same gets the
    same records: the roles are read (a C pass over messages laid out at load) and compared (a
    pointer comparison each: a loaded context's roles are interned), no record is made.  An editor
    or a language server previewing stacks over one loaded conversation, ``Batch.stacks`` and a host
    recompiling an unchanged history take this path.

    At a first sight the records are made plain, by the usual loops, and only the template is kept
    (it holds the history's length): a host whose history grew by a message since its last compile
    must not pay for records no later compile will share (``SourceRecord(record)`` per message and the
    free of the previous shared records: +60 % on such a compile, measured), nor keep its roles (a
    list the collector would visit).  At the next compile with that template the records are made
    read-only and kept, with the roles they were made from.  So the first report of a long history
    holds plain dicts and the later ones the shared records: equal data either way.

    Shared only when nothing in a record can change: the template's values are strings, numbers,
    booleans, null or ``UNDEFINED`` (compared with their types: ``1``, ``1.0`` and ``true`` print as
    different records), and every role picks one of the usual records (:data:`_USUAL_ROLES`, or a
    missing, null or empty role); else None, as for a role that cannot be hashed."""
    global _seen, _shared
    if not all(type(value) in _IMMUTABLE_VALUES for value in template.values()):
        return None
    key = tuple(chain.from_iterable((name, type(value), value) for name, value in template.items()))
    shared = _shared  # read once: another thread may replace it (never change it)
    if shared is not None and shared[0] == key and shared[1] == stored:
        return shared[2]
    if _seen != key:
        _seen = key
        return None
    plain: list[dict[str, Any]] = []
    try:
        if not _copy_role_records(plain, _usual_role_records(template), stored):
            return None  # a role with no usual record
    except TypeError:  # a role that cannot be hashed
        return None
    records = list(map(SourceRecord, plain))  # cheaper than storing the numbers through SourceRecord
    _shared = (key, stored if copied else list(stored), records)
    _seen = None
    return records


#: the types of the template values :func:`shared_history_sources` shares (none holds anything a
#: caller could change)
_IMMUTABLE_VALUES = frozenset((str, int, float, bool, type(None), type(UNDEFINED)))


def _add_many_history_sources(
    sources: list[dict[str, Any]],
    template: dict[str, Any],
    history: list[Any],
    roles: list[str] | None,
    stored: list[Any] | None = None,
) -> None:
    """:func:`_add_history_sources`'s records by C loops (see there), from the record ``template``;
    ``stored``: the roles :func:`_stored_roles` read (or ``roles``) when the caller has them.

    The records are copies of ``template`` laid out on a shared key table (:func:`key_shared`): each
    holds its values only, so it takes about half the memory of a plain dict of the same keys, and
    making and freeing 50,000 of them costs about half as much (stop 33: the first compile of a
    50,000-message history 8.3 -> 5.5 ms compiled, its report's free included)."""
    start = len(sources)
    template = key_shared(template)
    by_role = _usual_role_records(template)
    try:
        # the roles first, in a pass of their own: the message dicts are scattered over the heap and
        # each read is two dependent cache misses, which a short C loop overlaps across messages; read
        # inside the copying loop they were paid one after another (~0.5 ms of 50,000, stop 29)
        if stored is None:
            stored = _stored_roles(history) if roles is None else roles
        built = _copy_role_records(sources, by_role, stored)
    except TypeError:  # a message that is no dict, or an unhashable role
        built = False
    if not built:  # ... or a role with no record: every role read as role_of reads it
        del sources[start:]
        names = roles_of(history) if roles is None else roles
        by_role = _role_templates(template, set(names))
        sources.extend(map(dict.copy, map(by_role.__getitem__, names)))
        _store_all(islice(sources, start, None), "historyIndex", _history_numbers(len(history)))


def _stored_roles(history: list[Any]) -> list[Any]:
    """Each message's stored ``role`` item, ``dict.get(message, "role")`` (``TypeError`` for a message
    that is no dict).  As Python: ``map`` over ``dict.get``, a C loop.  Compiled
    (:data:`NATIVE_RECORD_LOOP`): :func:`_stored_roles_natively`, which reads each exact dict with no
    call through ``map`` and the method wrapper (~320 -> ~110 instructions a message, stop 30)."""
    if NATIVE_RECORD_LOOP:
        stored = _stored_roles_natively(history)
        if stored is not None:
            return stored
    return list(map(dict.get, history, repeat("role")))


def _stored_roles_natively(history: list[Any]) -> list[Any] | None:
    """:func:`_stored_roles` as one loop, for the mypyc build; None when a message is no exact dict
    (then the ``map`` pass reads them all: a dict subclass by ``dict.get``, not by its own ``get``,
    and anything else raises there).  A loop this short keeps several messages' cache misses in
    flight, as the ``map`` pass does (stop 29: the reads stay apart from the copies)."""
    stored: list[Any] = []
    for message in history:
        if type(message) is not dict:
            return None
        read: dict[str, Any] = message
        stored.append(read.get("role"))
    return stored


def _copy_role_records(sources: list[dict[str, Any]], by_role: dict[Any, dict[str, Any]], roles: list[Any]) -> bool:
    """Append a copy of ``by_role[role]`` for each of ``roles`` to ``sources``, numbered ``1, 2, …`` in
    ``historyIndex``; False (part of them may be appended) when a role has no record, ``TypeError``
    when one cannot be hashed.

    Two ways to the same records.  As Python: C loops, the records picked by one ``itemgetter`` call,
    a copy pass, then a ``setitem`` pass over the new records before they are appended (stop 34: 76.6
    -> 71.0 M instructions a first compile of 50,000 messages; ``map`` over ``by_role.get`` and
    ``islice`` over ``sources`` cost more a step).  Compiled (:data:`NATIVE_RECORD_LOOP`): :func:`_copy_role_records_natively`, one C loop
    that numbers each record while it is still in the cache -- the second pass walks 50,000 records
    (13 MB) again, ~1.5 ms; as a Python loop it would cost more than it saves."""
    if NATIVE_RECORD_LOOP:
        numbers = _history_number_list(len(roles))
        if len(roles) < len(numbers):  # else past the kept ints: the C passes number on with count
            return _copy_role_records_natively(sources, by_role, roles, numbers)
    try:
        # the records picked by one itemgetter call (a C loop of look-ups, no call through map a role)
        chosen: Iterable[Any] = itemgetter(*roles)(by_role) if len(roles) > 1 else [by_role[role] for role in roles]
    except KeyError:  # a role with no record
        return False
    records = list(map(dict.copy, chosen))
    _store_all(records, "historyIndex", _history_numbers(len(roles)))
    sources.extend(records)
    return True


#: the three roles of nearly every message (string literals: interned, as a loaded context's roles are)
_USER: Final = "user"
_ASSISTANT: Final = "assistant"
_TOOL_RESULT: Final = "toolResult"


def _copy_role_records_natively(
    sources: list[dict[str, Any]], by_role: dict[Any, dict[str, Any]], roles: list[Any], numbers: list[Any]
) -> bool:
    """:func:`_copy_role_records` as one loop, for the mypyc build: copy, number, append.  ``numbers``
    is :data:`_numbers` (longer than ``roles``), typed ``list[Any]`` so the compiled loop stores its
    int objects as they are (read as ``int`` they would be unboxed and boxed again: a new object for
    every value above 256).  The roles are read beforehand in a pass of their own (see
    :func:`_add_many_history_sources`): fused into this loop they cost more than the pass saves."""
    # the three roles of nearly every message, tested by identity first (a loaded context's roles
    # are interned: the very objects these literals are), a pointer comparison instead of a look-up
    user, assistant, tool_result = by_role.get(_USER), by_role.get(_ASSISTANT), by_role.get(_TOOL_RESULT)
    index = 1
    for role in roles:
        chosen: dict[str, Any] | None
        if role is _USER:  # identity on purpose: a miss takes the look-up below
            chosen = user
        elif role is _ASSISTANT:
            chosen = assistant
        elif role is _TOOL_RESULT:
            chosen = tool_result
        else:
            chosen = by_role.get(role)
        if chosen is None:
            return False
        record = chosen.copy()
        record["historyIndex"] = numbers[index]
        sources.append(record)
        index += 1
    return True


#: whether :func:`_copy_role_records_natively` is compiled (the mypyc build: then it is no Python
#: function); as Python its loop costs more than the C map passes it would replace
NATIVE_RECORD_LOOP: bool = is_compiled(_copy_role_records_natively)


#: the roles pi's agent messages carry: each gets its source template before the records are built
_USUAL_ROLES = ("user", "assistant", "toolResult", "custom", "bashExecution", "branchSummary", "compactionSummary")
#: each usual role by itself: the name a record of a message with that role holds
_USUAL_ROLE_NAMES: dict[Any, str] = {name: name for name in _USUAL_ROLES}
#: up to this many messages, :func:`_add_few_history_sources` builds the records one by one
_FEW_MESSAGES = 24


def _add_few_history_sources(
    sources: list[dict[str, Any]], template: dict[str, Any], history: list[Any], roles: list[str] | None
) -> bool:
    """:func:`_add_history_sources` for a short history (a host's usual turn): a loop per message
    instead of a record per usual role built up front (seven copies of ``template`` cost more than
    the whole history of a few messages).  Each record is ``template`` with the message's
    ``historyIndex`` and the name :data:`_USUAL_ROLE_NAMES` gives its role (``""`` for a missing or
    null one), as the C loops there pick it; False, with nothing appended, when a message is no dict
    or has a role there is no name for (the caller's general way then decides)."""
    # one pass that appends as it reads (a first pass of names and a second of records cost ~0.25 µs
    # more for five messages); what was appended is taken back when a message is refused
    start = len(sources)
    for index, message in enumerate(history, 1):
        try:
            role = dict.get(message, "role") if roles is None else roles[index - 1]
            name = "" if role is None else _USUAL_ROLE_NAMES.get(role)
        except TypeError:  # a message that is no dict, or a role that cannot be hashed
            name = None
        if name is None:
            del sources[start:]
            return False
        record = template.copy()
        record["historyIndex"] = index
        record["role"] = name
        sources.append(record)
    return True


def _usual_role_records(template: dict[str, Any]) -> dict[Any, dict[str, Any]]:
    """``template`` with each of :data:`_USUAL_ROLES`, by name; a missing, null or empty role picks
    ``template`` itself (its role is ``""``, as ``roles_of`` names those)."""
    by_role = _role_templates(template, _USUAL_ROLES)
    by_role[None] = by_role[""] = template
    return by_role


def _role_templates(template: dict[str, Any], names: Iterable[str]) -> dict[Any, dict[str, Any]]:
    """``template`` with ``role`` set to each of ``names``, by name (string keys only: a role that is
    no string never equals one, so it never picks a record meant for another)."""
    by_role: dict[Any, dict[str, Any]] = {}
    for name in names:
        record = template.copy()
        record["role"] = name
        by_role[name] = record
    return by_role


#: ``0, 1, 2, …`` as int objects made once: ``historyIndex`` takes its values from here, so a compile
#: does not allocate (and its report's free release) an int per message (values above 256 are new
#: objects each time ``count`` makes them).  Grown to the longest history compiled, at most
#: :data:`_NUMBERS_KEPT` + 1 ints (~4.7 MB); a longer history takes the rest from ``count``.
_numbers: list[int] = []
_NUMBERS_KEPT = 1 << 17


def _history_number_list(length: int) -> list[int]:
    """:data:`_numbers`, grown first when it holds ``length`` or fewer ints and may grow further."""
    global _numbers
    numbers = _numbers
    if len(numbers) <= length and len(numbers) <= _NUMBERS_KEPT:
        # replaced, never extended in place: a compile on another thread may be reading the old list
        numbers = _numbers = list(range(min(max(length + 1, 2 * len(numbers)), _NUMBERS_KEPT + 1)))
    return numbers


def _history_numbers(length: int) -> Iterator[int]:
    """``1, 2, …``, at least ``length`` of them (the caller stops at the history's end): the shared
    ints of :data:`_numbers` as far as they go, then ``count``'s (the values ``count(1)`` gives)."""
    numbers = _history_number_list(length)
    after_zero = iter(numbers)  # a list iterator past 0: cheaper a step than islice(numbers, 1, None)
    next(after_zero)
    if length < len(numbers):
        return after_zero
    return chain(after_zero, count(len(numbers)))


def _store_all(records: Iterable[dict[str, Any]], key: str, values: Iterable[Any]) -> None:
    """``record[key] = value`` for each record and value in turn, in C (the deque keeps nothing)."""
    deque(map(setitem, records, repeat(key), values), maxlen=0)


def _no_history_options(item: dict[str, Any]) -> bool:
    """Whether a chat-history slot has no options at all (``options`` missing, no object, or ``{}``):
    then :func:`~forgec.compile.passes.history.chat_history` reads every option as absent, reports
    nothing and returns a copy of the messages as they are, which the compile need not make (it
    copies the history into its own message list anyway; 50,000 messages: ~0.2 ms with the free)."""
    options = item.get("options")
    return not isinstance(options, dict) or not options


def _duplicates_allowed(stack: Any) -> bool:
    """``context.allowDuplicateChatHistory`` read as JavaScript does (asked at a second chat-history slot only)."""
    context = stack.get("context") if isinstance(stack, dict) else None
    return isinstance(context, dict) and js_truthy(context.get("allowDuplicateChatHistory"))


def compile_messages(
    stack: Any,
    runtime: Runtime,
    store: VariableStore | None,
    messages: list[Any] | None = None,
    *,
    registry: Registry | None = None,
    regex_budget: rx.RegexBudget | None = None,
) -> MessagesResult:
    """§8: synthetic messages of non-system items, the chat history at its slot, compiled regex rules.

    ``messages`` defaults to ``runtime.messages`` (the host's conversation, never modified).
    ``regex_budget``: the compile's :class:`~forgec.compile.passes.regex.RegexBudget`, shared by both stages.
    """
    original = runtime.messages if messages is None else messages
    return _messages(stack, runtime, store, original, registry, regex_budget, _items(stack), _Tools(stack, runtime))


def _messages(
    stack: Any,
    runtime: Runtime,
    store: VariableStore | None,
    original: Any,
    registry: Registry | None,
    regex_budget: rx.RegexBudget | None,
    items: list[tuple[int, dict[str, Any]]],
    tools: _Tools,
    selections: rx.RuleSelections | None = None,
    new_list: Callable[[], list[Any]] = list,
) -> MessagesResult:
    """:func:`compile_messages` of the history ``original`` over the stack's enabled ``items``, with
    the tool list ``tools`` and the rule ``selections`` (as :func:`_system_prompt`); the message and
    source lists of the result come from ``new_list`` (a large compile's: :func:`spare_list`)."""
    if not isinstance(original, list):
        original = []
    diagnostics: list[Diagnostic] = []
    out: list[Any] = new_list()
    sources: list[dict[str, Any]] = new_list()
    if regex_budget is None:
        regex_budget = rx.RegexBudget()
    inserted = False
    maker = _MessageMaker(stack, runtime) if _no_plugins(registry) else None

    for index, item in items:
        if item.get("slot") == CHAT_HISTORY and item.get("kind") == "slot":
            if inserted and not _duplicates_allowed(stack):
                diagnostics.append(_duplicate_history(index, item))
                continue
            _insert_history(stack, index, item, original, out, sources, diagnostics, regex_budget, selections)
            inserted = True
            continue
        role = item.get("role")
        # a string role (every normalised item's) is truthy when not empty: no js_truthy call an item
        if (role == "" if type(role) is str else not js_truthy(role)) or role == "system":
            continue
        text = _item_text(index, item, stack, runtime, store, diagnostics, tools, registry)
        if not js_trim(text):
            continue
        if maker is None:
            message, source_role = synthetic_message(role, text, stack, runtime)
        else:
            message, source_role = maker.make(role, text)
        out.append(message)
        sources.append(item_source(item, source_role))

    if not inserted:
        out.extend(original)
        _add_history_sources(sources, _IMPLICIT_HEAD, original)

    out = rx.apply_to_messages(stack, out, "compiled", diagnostics, regex_budget, selections)
    return MessagesResult(out, sources, diagnostics)


def _insert_history(
    stack: Any,
    index: int,
    item: dict[str, Any],
    original: list[Any],
    out: list[Any],
    sources: list[dict[str, Any]],
    diagnostics: list[Diagnostic],
    regex_budget: rx.RegexBudget,
    selections: rx.RuleSelections | None,
    head: dict[str, Any] | None = None,
    rules: bool = True,
) -> None:
    """The chat-history slot ``item`` (at ``items[index]``): the host's history ``original`` through the
    slot's options and the history regex rules, appended to ``out`` with one source each.  ``head``:
    the members every history source shares when the caller has them (read only); ``rules``: False
    when the stack has no regex rules (the pass would return its input)."""
    if _no_history_options(item):  # the pipeline would return a copy of ``original`` as it is
        kept, roles = original, None  # read only: ``out`` and the sources copy from it
    else:
        kept, roles = hist.chat_history(original, item, diagnostics, pointer=("items", index))
    history = rx.apply_to_messages(stack, kept, "history", diagnostics, regex_budget, selections) if rules else kept
    if head is None:
        # the members every history source shares, in source_record's key order
        head = source_record("chat-history", item, "", slot=item.get("slot"))
        del head["role"]
    out.extend(history)
    _add_history_sources(sources, head, history, roles if history is kept else None)


def _planned_system(
    plan: CompilePlan,
    stack: Any,
    runtime: Runtime,
    store: VariableStore | None,
    regex_budget: rx.RegexBudget,
    tools: _Tools,
    selections: rx.RuleSelections | None,
) -> SystemResult:
    """:func:`_system_prompt` by the steps of the stack's :class:`~forgec.compile.plan.CompilePlan`
    (same texts, diagnostics and order): plain blocks' trimmed texts come from the plan (all of the
    joined text when every step is one), the items are read only for slots, macros and warnings."""
    diagnostics: list[Diagnostic] = []
    compiled = plan.system_text
    if compiled is None:
        items = stack["items"]
        parts: list[str] = []
        for action, index, text, _, _ in plan.system:
            if action != SYSTEM_TEXT:
                item = items[index]
                if action == SYSTEM_HISTORY:
                    diagnostics.append(_history_in_system(index, item))
                    continue
                if action == SYSTEM_SLOT:
                    text = render_slot(item, stack=stack, runtime=runtime, store=store, diagnostics=diagnostics)
                else:
                    text = _expand(index, item, text, stack, runtime, store, diagnostics, tools)
                text = js_trim(text)
                if not text:
                    continue
            parts.append(text)
        compiled = "\n\n".join(parts)
    return _system_result(stack, runtime, compiled, diagnostics, regex_budget, selections, plan.rules)


def _expand(
    index: int,
    item: dict[str, Any],
    content: str,
    stack: Any,
    runtime: Runtime,
    store: VariableStore | None,
    diagnostics: list[Diagnostic],
    tools: _Tools,
    registry: Registry | None = None,
) -> str:
    """A block's ``content`` (holding ``{{``) with its macros expanded: the one call into the macro
    engine, for :func:`_item_text` and for a compile run by its plan (no plugins there)."""
    return expand_block(
        content,
        item_id=item.get("id"),
        stack=stack,
        runtime=runtime,
        store=store,
        diagnostics=diagnostics,
        selected_tools=tools.get(),
        registry=registry,
        pointer=("items", index, "content"),
    )


def _planned_messages(
    plan: CompilePlan,
    stack: Any,
    runtime: Runtime,
    store: VariableStore | None,
    regex_budget: rx.RegexBudget,
    tools: _Tools,
    selections: rx.RuleSelections | None,
    new_list: Callable[[], list[Any]],
) -> MessagesResult:
    """:func:`_messages` of ``runtime.messages`` by the steps of the stack's plan (as :func:`_planned_system`)."""
    original = runtime.messages
    if not isinstance(original, list):
        original = []
    diagnostics: list[Diagnostic] = []
    out: list[Any] = new_list()
    sources: list[dict[str, Any]] = new_list()
    if plan.messages:
        items = stack["items"]
        maker = _MessageMaker(stack, runtime)  # a plan runs without plugins (compile_prompt)
        for action, index, text, role, record in plan.messages:
            item = items[index]
            if action == MESSAGE_TEXT:
                pass
            elif action == MESSAGE_HISTORY:
                _insert_history(
                    stack, index, item, original, out, sources, diagnostics, regex_budget, selections, record, plan.rules
                )
                continue
            elif action == MESSAGE_DUPLICATE_HISTORY:
                diagnostics.append(_duplicate_history(index, item))
                continue
            else:
                if action == MESSAGE_SLOT:
                    text = render_slot(item, stack=stack, runtime=runtime, store=store, diagnostics=diagnostics)
                else:
                    text = _expand(index, item, text, stack, runtime, store, diagnostics, tools)
                if not js_trim(text):
                    continue
            message, source_role = maker.make(role, text)
            out.append(message)
            sources.append(item_source(item, source_role) if record is None else record.copy())
    if not plan.has_history:
        out.extend(original)
        _add_history_sources(sources, _IMPLICIT_HEAD, original)
    if plan.rules:
        out = rx.apply_to_messages(stack, out, "compiled", diagnostics, regex_budget, selections)
    return MessagesResult(out, sources, diagnostics)


def compile_prompt(
    stack: Any,
    runtime: Runtime,
    store: VariableStore,
    *,
    registry: Registry | None = None,
    regex_budget: rx.RegexBudget | None = None,
    selections: rx.RuleSelections | None = None,
    plan: CompilePlan | None = None,
) -> CompiledPrompt:
    """§2 steps 2–3: the system prompt, then the messages, with one shared variable store.

    ``regex_budget``: one :class:`~forgec.compile.passes.regex.RegexBudget` for both stages (a fresh one
    when omitted), so the regex time of the whole compile is bounded.  A large compile (thousands
    of messages or items) runs with the cyclic garbage collector paused (:mod:`forgec.source.collector`),
    and fills result lists made inside the previous large compile's pause (``spare_list``), which the
    collection right after the pause does not visit element by element.
    ``selections``: the :class:`~forgec.compile.passes.regex.RuleSelections` recorded for this stack's
    content (the report workflow keeps them on the stack-cache entry); only for a stack unchanged
    since they were recorded.  ``plan``: the :class:`~forgec.compile.plan.CompilePlan` of this stack's
    content, on the same terms (the report workflow keeps it on the stack-cache entry too); used only
    without plugins (a ``registry`` with custom slots or macros: a plugin may change the stack while it
    compiles).
    """
    if regex_budget is None:
        regex_budget = rx.RegexBudget()
    if not _no_plugins(registry):
        plan = None  # a plugin may change the stack mid-compile; a registry without any is no plugin
    size = _size(stack, runtime)
    if size < LARGE_COMPILE:  # the usual compile: no pause, so no context manager (two calls) to enter
        if plan is not None:
            tools = _Tools(stack, runtime)
            return CompiledPrompt(
                _planned_system(plan, stack, runtime, store, regex_budget, tools, selections),
                _planned_messages(plan, stack, runtime, store, regex_budget, tools, selections, list),
                store,
            )
        return _both_stages(stack, runtime, store, registry, regex_budget, selections, list)
    with gc_paused(size, LARGE_COMPILE):
        compiled = _both_stages(stack, runtime, store, registry, regex_budget, selections, spare_list)
        make_spares()  # inside the pause: the collection after it ages them for the next large compile
        return compiled


def _both_stages(
    stack: Any,
    runtime: Runtime,
    store: VariableStore,
    registry: Registry | None,
    regex_budget: rx.RegexBudget,
    selections: rx.RuleSelections | None,
    new_list: Callable[[], list[Any]],
) -> CompiledPrompt:
    """The system prompt, then the messages.  Both stages read the same enabled items and, when a
    block has macros, the same tool list (neither stage changes the stack or the runtime): each is
    computed once per compile.  ``new_list`` makes the message stage's result lists."""
    items = _items(stack)
    tools = _Tools(stack, runtime)
    system = _system_prompt(stack, runtime, store, registry, regex_budget, items, tools, selections)
    messages = _messages(
        stack, runtime, store, runtime.messages, registry, regex_budget, items, tools, selections, new_list
    )
    return CompiledPrompt(system, messages, store)


def _size(stack: Any, runtime: Runtime) -> int:
    """Messages plus items: what decides whether the compile pauses the garbage collector."""
    items = stack.get("items") if isinstance(stack, dict) else None
    messages = runtime.messages
    return (len(items) if isinstance(items, list) else 0) + (len(messages) if isinstance(messages, list) else 0)
