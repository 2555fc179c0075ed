"""pi-forge 0.4.1's prompt-stack loader (compile-core.md §10), diagnostic for diagnostic.

One file goes through :func:`load_stack_file`: read (:mod:`forgec.source`), raw shape checks
(§10.3), normalisation (§10.4), validation of the normalised stack, which runs the raw shape checks a
second time (§10.5; so some problems are reported twice, as pi-forge does), the regex configuration
checks (§10.6) and the ``default.json`` migration warning.  :func:`load_stack_folder` lists a group
of directories as pi-forge does and annotates duplicate stack ids across the files (§10.7).

Every diagnostic carries pi-forge's exact level, message and item id, a registered rule code, and a
``pointer`` to the offending value in the file (``("items", 2, "role")``); a pointer to a member
that is missing resolves to its parent.  The normalised stack is plain data in pi-forge's shape.

YAML stacks (forgec's addition) go through exactly the same pipeline.  In a folder they are listed
together with the JSON files (one sort over all names, by UTF-16 code units), a YAML file shadows
nothing and is shadowed by nothing except a file of the *same* name in an earlier directory, and
their stem drops ``.yaml``/``.yml`` as a JSON file's drops ``.json``.  Pass ``include_yaml=False``
for pi-forge's exact listing.
"""

from __future__ import annotations

import marshal
import math
import os
import re
from _thread import allocate_lock  # threading.Lock, without importing threading (cold start)
from collections import OrderedDict
from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any, Final, Generic, TypeVar

from forgec.codecs.regex_config import check_regex_config
from forgec.diagnostics import Diagnostic, Pointer, to_pi_list
from forgec.js.values import (
    JS_WHITESPACE,
    is_integral_number,
    is_number,
    is_string_array,
    js_items,
    js_number_to_string,
    js_string,
    js_trim,
    js_truthy,
)
from forgec.model import BUILTIN_SLOT_NAMES, MODES, ROLES, STACK_TYPE
from forgec.rules import loader as codes
from forgec.rules import regex_config as regex_codes
from forgec.source import (
    MAX_FILE_BYTES,
    SourceDocument,
    decode_source,
    is_yaml_path,
    parse_source_text,
    read_file_bytes,
    read_source,
)
from forgec.source.json import JsonLocator
from forgec.workspace import STACK_SUFFIXES, list_resource_files

__all__ = [
    "STACK_CACHE",
    "ByteCache",
    "LoadedStack",
    "annotate_duplicate_ids",
    "duplicate_id_diagnostic",
    "fallback_stack",
    "file_stem",
    "load_stack_bytes",
    "load_stack_data",
    "load_stack_file",
    "load_stack_folder",
    "load_value",
    "normalize_stack",
    "raw_shape_checks",
    "validate_stack",
]

_MACRO_POLICIES = ("warn", "keep", "error")
_ID_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")
_HISTORY_BOOLEANS = ("includeLastUserMessage", "stripAssistantThinking", "includeSummaries")
_ROLE_SET = frozenset(ROLES)
_LEVEL = attrgetter("level")
#: the built-in slot names as a set (validation needs it for every stack)
_BUILTIN_SLOTS = frozenset(BUILTIN_SLOT_NAMES)


class _Pending:
    """What :attr:`LoadedStack.raw` and :attr:`LoadedStack.document` hold until a cache hit makes
    them: one object, which copies and pickles as itself (a copied hit still makes its raw value)."""

    __slots__ = ()

    def __reduce__(self) -> str:
        return "_PENDING"


_PENDING: Any = _Pending()
#: held while a raw value or document of a hit is made (rare: a compile reads neither)
_LAZY_LOCK = allocate_lock()


@dataclass(eq=False, init=False)
class LoadedStack:
    """One loaded stack file: pi-forge's ``LoadedPromptStack`` plus the parsed value and document.

    On a :data:`STACK_CACHE` hit the parsed value (:attr:`raw`) and the :attr:`document` are made
    when first read: a compile reads neither (only ``forgec lint`` and the profile codec do), and
    unmarshalling the raw value was ~40 % of a hit.  They are what a fresh load gives: the raw
    value shares with :attr:`stack` exactly the objects a fresh load shares (``defaults``,
    ``context``, ``regex``, slot ``options``) -- the ones the stack held when it was loaded.
    """

    path: str
    file_name: str
    scope: str
    stack: dict[str, Any]
    _raw: Any
    diagnostics: list[Diagnostic]
    _document: Any
    #: the :data:`STACK_CACHE` entry this load came from or filled (its fingerprint memo)
    memo: _CachedStack | None = field(repr=False)
    #: on a cache hit, until :attr:`raw` is made: the stack's containers the raw value shares
    _shared: list[Any] | None = field(repr=False)

    def __init__(
        self,
        path: str,
        file_name: str,
        scope: str,
        stack: dict[str, Any],
        raw: Any,
        diagnostics: list[Diagnostic] | None = None,
        document: SourceDocument | None = None,
        memo: _CachedStack | None = None,
        shared: list[Any] | None = None,
    ) -> None:
        self.path = path
        self.file_name = file_name
        self.scope = scope
        self.stack = stack
        self._raw = raw
        self.diagnostics = [] if diagnostics is None else diagnostics
        self._document = document
        self.memo = memo
        self._shared = shared

    @property
    def raw(self) -> Any:
        """The parsed file content (``None`` when the file could not be parsed)."""
        if self._raw is _PENDING:
            self._make_raw()
        return self._raw

    @raw.setter
    def raw(self, value: Any) -> None:
        self._raw = value

    @property
    def document(self) -> SourceDocument | None:
        """The file as read (text, parsed value, reading diagnostics); ``None`` for data loaded from memory."""
        if self._document is _PENDING:
            raw = self.raw
            with _LAZY_LOCK:  # the language server reads loaded stacks from worker threads
                if self._document is _PENDING:
                    memo = self.memo
                    assert memo is not None
                    self._document = memo.document(self.path, raw)
        document: SourceDocument | None = self._document
        return document

    @document.setter
    def document(self, value: SourceDocument | None) -> None:
        self._document = value

    def _make_raw(self) -> None:
        with _LAZY_LOCK:  # made once, even when two threads ask at the same time
            if self._raw is _PENDING:
                memo, shared = self.memo, self._shared
                assert memo is not None and shared is not None
                self._raw = memo.raw_value(shared)
                self._shared = None

    @property
    def usable(self) -> bool:
        """pi-forge's ``isUsablePromptStack``: no error-level diagnostic."""
        return "error" not in map(_LEVEL, self.diagnostics)  # in C, no generator: every report asks

    @property
    def stack_id(self) -> str:
        """The normalised stack's id (normalisation always gives one: the file stem at worst)."""
        stack_id: str = self.stack["id"]  # annotated, not cast(): a call and a generic alias per report
        return stack_id

    def validation(self) -> dict[str, Any]:
        """The conformance report's ``validation`` section for this file (without ``otherFiles``)."""
        return {
            "file": self.file_name,
            "stackId": self.stack_id,
            "usable": self.usable,
            "diagnostics": to_pi_list(self.diagnostics),
            "stack": self.stack,
        }


# --- files ----------------------------------------------------------------------------------------


def file_stem(file_name: str) -> str:
    """pi-forge's ``fileStem``: the name without ``.json`` (``.json`` alone keeps its name).

    forgec strips ``.yaml``/``.yml`` the same way (case-sensitively, as pi-forge does ``.json``).
    """
    for suffix in (".json", ".yaml", ".yml"):
        if file_name.endswith(suffix) and file_name != suffix:
            return file_name[: -len(suffix)]
    return file_name


def fallback_stack(file_name: str) -> dict[str, Any]:
    """The stack pi-forge uses for a file it cannot parse or whose root is not an object."""
    return {"schemaVersion": 1, "type": STACK_TYPE, "id": file_stem(file_name), "name": file_name, "items": []}


#: "/" is the only separator (``posixpath``): a base name is what follows the last one
_SLASH_ONLY = os.sep == "/" and os.altsep is None


def load_stack_file(
    path: str | os.PathLike[str], *, scope: str = "project", supported_slots: Iterable[str] | None = None
) -> LoadedStack:
    """Load one stack file (§10.2).  Never raises: every problem is a diagnostic.

    A JSON file is read on every call; its bytes are the key of :data:`STACK_CACHE`, so loading
    the same content again (the same path, scope and slots) unmarshals a private copy of the
    first load's result instead of parsing and checking it again.
    """
    name = os.fspath(path)
    # ``posixpath.basename`` of a ``str`` is what follows its last "/" (0.17 µs a call; this 0.06)
    file_name = name.rpartition("/")[2] if _SLASH_ONLY and type(name) is str else os.path.basename(name)
    if is_yaml_path(name) or STACK_CACHE.capacity <= 0:
        return _load_document(read_source(name), name, file_name, scope, supported_slots)
    try:
        raw = read_file_bytes(name, MAX_FILE_BYTES)
    except (OSError, ValueError):  # read_source words the failure as Node does
        return _load_document(read_source(name), name, file_name, scope, supported_slots)
    slots = supported_slots if supported_slots is None or type(supported_slots) is tuple else tuple(supported_slots)
    key = (raw, name, scope, slots)
    entry = STACK_CACHE.get(key)
    if entry is not None:
        return entry.loaded(name, file_name, scope)
    document = decode_source(raw, name, "json", prose=True)  # blocks: few integer literals
    loaded = _load_document(document, name, file_name, scope, slots)
    if document.text is not None:  # parsed, or refused by JSON.parse (its V8 reason costs a Python scan)
        try:
            entry = _CachedStack(loaded)
        except ValueError:  # nested deeper than marshal writes (2,000 levels): not kept
            return loaded
        STACK_CACHE.put(key, entry, len(raw) + entry.size)
        loaded.memo = entry
    return loaded


# --- the cache of loaded files -------------------------------------------------------------------
#
# A host that compiles turn after turn, the conformance runner, the golden-file plugin and the
# language server read the same stack file again and again; loading it (JSON parse, shape checks,
# normalisation, validation, regex configuration) is a third of a compile.  STACK_CACHE keeps the
# results keyed by the *content* that produced them -- the file's bytes themselves, never its name
# or modification time (the path, scope and slots are part of the key too) -- so a hit is exactly
# what a fresh load would give.
#
# Nothing mutable is ever shared: an entry holds the loaded values as a ``marshal`` blob (plain JSON
# data round-trips exactly: dictionary order, lone surrogates, ``-0.0`` and shared sub-objects
# included), and every hit unmarshals a new copy, which costs a fraction of parsing and checking the
# text again.  The caller may mutate what it gets; the cache cannot see it.  (This lives here rather
# than in a module of its own so that ``forgec validate`` imports nothing more.)

_V = TypeVar("_V")


#: hashes a second-sight :class:`ByteCache` remembers before it forgets them all (ints: ~64 bytes each)
_SEEN_ONCE_LIMIT = 1 << 16


class ByteCache(Generic[_V]):
    """A least-recently-used map bounded by the byte sizes its callers declare per entry.

    Thread-safe (the language server loads from worker threads).  ``get`` moves a hit to the
    most recent end; ``put`` evicts from the oldest end until the total fits ``capacity``; an
    entry larger than a quarter of the capacity is not stored at all (it would flush the rest).
    """

    def __init__(self, capacity: int, *, second_sight: bool = False) -> None:
        self.capacity = capacity
        self._entries: OrderedDict[Hashable, tuple[_V, int]] = OrderedDict()
        self._size = 0
        self._lock = allocate_lock()
        #: store a key only when it is put a second time (:meth:`put`); the hashes of keys put once
        self._second_sight = second_sight
        self._seen_once: set[int] = set()
        #: keys read or stored since the last :meth:`sweep`
        self._touched: set[Hashable] = set()
        #: counters for tests and ``--profile`` runs
        self.hits = 0
        self.misses = 0

    @property
    def size(self) -> int:
        """The bytes the entries hold now (as declared to :meth:`put`)."""
        return self._size

    def __len__(self) -> int:
        return len(self._entries)

    def held(self) -> list[Hashable]:
        """The keys held now, least recently used first (a snapshot)."""
        with self._lock:
            return list(self._entries)

    def get(self, key: Hashable) -> _V | None:
        with self._lock:
            found = self._entries.get(key)
            if found is None:
                self.misses += 1
                return None
            self._entries.move_to_end(key)
            self._touched.add(key)
            self.hits += 1
            return found[0]

    def put(self, key: Hashable, value: _V, size: int, *, seen: bool = False) -> None:
        """Keep ``value`` under ``key``.  With ``second_sight``, a key not held is kept only when it
        was put before: a cache of parsed macro texts fed a stream of texts seen once (1,000 blocks of
        a stack file no call read before) would otherwise fill with entries never read again, each
        one more object for the cyclic collector to walk; by its hash, so a collision only keeps a key
        at its first put.  ``seen``: the caller knows the key was seen before (another cache's
        first-sight answer, see :func:`forgec.compile.macros.grammar.parse_seen`), so it is kept now."""
        if size > self.capacity // 4:
            return
        with self._lock:
            if self._second_sight and key not in self._entries:
                mark = hash(key)
                if not seen and self._first_sight(mark):
                    return
                self._seen_once.discard(mark)
            old = self._entries.pop(key, None)
            if old is not None:
                self._size -= old[1]
            self._entries[key] = (value, size)
            self._size += size
            self._touched.add(key)
            while self._size > self.capacity:
                dropped_key, (_, dropped) = self._entries.popitem(last=False)
                self._size -= dropped
                self._touched.discard(dropped_key)

    def get_or_mark(self, key: Hashable) -> tuple[_V | None, bool]:
        """:meth:`get` and a first-sight mark in one call: ``(value, True)`` for a key held, else
        ``(None, whether a put now would keep it)``, a miss counted and a first sight marked as a
        first :meth:`put` would mark it (so the next put of the key is kept).

        For a caller that looks a key up and, on a miss, makes the value and puts it only when it would
        be kept (a block's parse, its recorded expansion): one call instead of two on a first sight,
        and nothing put that the cache would only drop.

        A miss takes no lock.  It is the usual answer for a block of a stack file no call read before
        (two such calls a block), where the lock's acquire and release were a third of the call; what
        a miss reads and writes are single operations on a dict and a set, each atomic on its own, and
        the worst a race between two misses of one key can do is what :meth:`put` already allows (a
        key kept one sight early or late).  A hit moves the key in the LRU order and notes it for the
        sweep, under the lock, after looking again there (another thread may have evicted it)."""
        entries = self._entries
        if key in entries:
            with self._lock:
                found = entries.get(key)
                if found is not None:
                    entries.move_to_end(key)
                    self._touched.add(key)
                    self.hits += 1
                    return found[0], True
        self.misses += 1
        if not self._second_sight:
            return None, True
        return None, not self._first_sight(hash(key))

    def _first_sight(self, mark: int) -> bool:
        """Whether ``mark`` (a key's hash) was not seen before, marking it seen: a first sight is what
        a second-sight cache does not keep.  The set of marks is bounded: full, it starts again (a key
        then needs one more sight to be kept).  Each step is one atomic set operation, so
        :meth:`get_or_mark` may call it without the lock (see there)."""
        seen = self._seen_once
        if mark in seen:
            return False
        if len(seen) >= _SEEN_ONCE_LIMIT:
            seen.clear()
        seen.add(mark)
        return True

    def sweep(self) -> None:
        """Drop every entry not read or stored since the previous sweep.

        For a long-running checker (the language server sweeps after each whole check): the files
        and buffers the check loaded stay, the superseded versions of an edited buffer go at once
        instead of filling the capacity.
        """
        with self._lock:
            touched = self._touched
            for key in [k for k in self._entries if k not in touched]:
                self._size -= self._entries.pop(key)[1]
            touched.clear()

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._seen_once.clear()
            self._size = 0
            self._touched.clear()
            self.hits = self.misses = 0


#: Loaded JSON stack files by content (see above); 32 MiB of entries.
STACK_CACHE: ByteCache[_CachedStack] = ByteCache(32 * 1024 * 1024)


class _CachedStack:
    """One loaded file, kept as plain data: the stack and the raw value marshalled apart (a hit
    unmarshals the stack; the raw value only when read, :class:`LoadedStack`), where in the raw
    value it holds the stack's own containers (:attr:`shared`: a fresh load's normalised stack keeps
    ``defaults``/``context``/``regex`` and slot ``options`` as parsed), the immutable diagnostics and
    text, and what compiles derived from the stack alone: its fingerprint (:attr:`fingerprint`) and
    its regex rule selections (:attr:`selections`) and its compile plan (:attr:`plan`)."""

    __slots__ = (
        "diagnostics", "doc_diagnostics", "fingerprint", "parsed", "plan", "raw_blob", "selections", "shared", "stack_blob", "text"
    )

    def __init__(self, loaded: LoadedStack) -> None:
        assert loaded.document is not None
        #: whether ``JSON.parse`` took the text (False: the fallback stack, a ``None`` raw value and a
        #: document without a parsed value or locator, as the fresh load of such a file has)
        self.parsed = loaded.document.parsed
        self.stack_blob = marshal.dumps(loaded.stack)
        self.raw_blob = marshal.dumps(loaded.raw)
        #: ``(path in the stack, paths in the raw value)`` of every container both hold (outermost only)
        self.shared = _normalised_sharing(loaded.stack, loaded.raw)
        self.diagnostics = tuple(loaded.diagnostics)
        self.doc_diagnostics = tuple(loaded.document.diagnostics)
        self.text = loaded.document.text
        #: ``(fingerprint,)`` once known (``(None,)``: canonical JSON refuses the stack)
        self.fingerprint: tuple[str | None] | None = None
        #: the regex rule selections of this content (a ``forgec.compile.passes.regex.RuleSelections``,
        #: made by the first compile that reads them; typed loosely so that loading a stack imports no compiler)
        self.selections: Any = None
        #: ``(plan,)`` once made: the ``forgec.compile.plan.CompilePlan`` of this content, or ``(None,)``
        #: for a stack too large to get one (typed loosely for the same reason)
        self.plan: tuple[Any] | None = None

    @property
    def size(self) -> int:
        return len(self.stack_blob) + len(self.raw_blob) + 2 * len(self.text or "") + 64 * (len(self.diagnostics) + len(self.shared) + 4)

    def loaded(self, path: str, file_name: str, scope: str) -> LoadedStack:
        """A new :class:`LoadedStack` equal to the one this entry was made from (raw value and
        document made when first read; the stack's shared containers noted now, before anyone can
        replace them)."""
        stack = marshal.loads(self.stack_blob)
        shared = [_at(stack, where) for where, _ in self.shared] if self.shared else []
        return LoadedStack(path, file_name, scope, stack, _PENDING, list(self.diagnostics), _PENDING, self, shared)

    def raw_value(self, shared: list[Any]) -> Any:
        """A new copy of the raw value holding ``shared`` (the stack's containers, as noted by
        :meth:`loaded`) where the fresh load's raw value held the stack's own."""
        raw = marshal.loads(self.raw_blob)
        for (_, places), container in zip(self.shared, shared, strict=True):
            for place in places:
                _at(raw, place[:-1])[place[-1]] = container
        return raw

    def document(self, path: str, raw: Any) -> SourceDocument:
        """The document of a hit: the file's text and ``raw`` as its parsed value."""
        document = SourceDocument(path, "json", self.text, raw, self.parsed, list(self.doc_diagnostics))
        if self.parsed:
            document.locator = JsonLocator()
        return document


def _at(value: Any, where: tuple[str | int, ...]) -> Any:
    for step in where:
        value = value[step]
    return value


def _container_ids(value: Any) -> set[int]:
    """The ids of every ``dict``/``list`` inside ``value``, itself included (exact types: see
    :func:`_shared_containers`)."""
    seen: set[int] = set()
    pending = [value]
    while pending:
        value = pending.pop()
        if id(value) in seen:
            continue
        seen.add(id(value))
        for child in value.values() if type(value) is dict else value:
            kind = type(child)
            if kind is dict or kind is list:
                pending.append(child)
    return seen


def _holds_any(raw: Any, ids: set[int]) -> bool:
    """Whether a container strictly inside ``raw`` has its id in ``ids``."""
    pending = [raw]
    while pending:
        value = pending.pop()
        for child in value.values() if type(value) is dict else value:
            kind = type(child)
            if kind is dict or kind is list:
                if id(child) in ids:
                    return True
                pending.append(child)
    return False


def _shared_containers(stack: Any, raw: Any) -> tuple[tuple[tuple[str | int, ...], tuple[tuple[str | int, ...], ...]], ...]:
    """Every container (``dict``/``list``) that ``stack`` and ``raw`` both hold, outermost first:
    its path in the stack and its paths in the raw value (the parsed JSON of a file holds each
    object once; a container held inside a shared one is not listed again).

    Called once per new file content, and for a file read once (a stack no call read before) the entry
    is never read again; so the common answer, nothing shared, is found first without paths: the ids
    of the stack's containers, then a walk of the raw value that stops at the first shared one (a stack
    of 1,000 items: ~0.8 ms, where the walks with a path tuple per value took ~2.9 ms of a ~3.6 ms
    entry, on a load of ~2.4 ms).  Only then are the paths made, by walks that push containers only,
    which keeps their order on the walk's stack (the same container reached first, by the same path).
    Only exact ``dict``/``list`` values are containers: the caller has marshalled both values, and
    ``marshal`` refuses their subclasses.
    """
    kinds = (dict, list)
    if type(stack) not in kinds or type(raw) not in kinds or not _holds_any(raw, _container_ids(stack)):
        return ()
    in_stack: dict[int, tuple[str | int, ...]] = {}
    pending: list[tuple[Any, tuple[str | int, ...]]] = [(stack, ())]
    while pending:
        value, where = pending.pop()
        if id(value) in in_stack:
            continue
        in_stack[id(value)] = where
        for key, child in value.items() if type(value) is dict else enumerate(value):
            if type(child) in kinds:
                pending.append((child, (*where, key)))
    found: dict[int, list[tuple[str | int, ...]]] = {}
    order: list[int] = []
    pending.append((raw, ()))
    while pending:
        value, where = pending.pop()
        if where and id(value) in in_stack:
            places = found.get(id(value))
            if places is None:
                order.append(id(value))
                places = found[id(value)] = []
            places.append(where)
            continue  # what it holds is shared with it
        for key, child in value.items() if type(value) is dict else enumerate(value):
            if type(child) in kinds:
                pending.append((child, (*where, key)))
    return tuple((in_stack[key], tuple(found[key])) for key in order)


#: the members :func:`_normalize_stack` hands on as they were parsed (a dict only), at the top ...
_PASSED_ON = frozenset(("defaults", "context", "regex", "import"))
#: ... and of an item (``options`` only a slot's)
_ITEM_PASSED_ON = ("source", "options")
_Sharing = tuple[tuple[tuple[str | int, ...], tuple[tuple[str | int, ...], ...]], ...]


def _normalised_sharing(stack: Any, raw: Any) -> _Sharing:
    """:func:`_shared_containers` of a loaded stack and the value it was normalised from, without
    walking either: what they share is what :func:`_normalize_stack` hands on unchanged -- the
    top-level ``defaults``, ``context``, ``regex`` and ``import`` objects and each item's ``source``
    and slot ``options`` objects -- every other container of the stack is made by normalisation,
    and a parsed value holds each container once.  So each one is at the same path on both sides,
    and the order is the walk's (it pops the last container pushed): the top-level members in
    reverse order, the items from the last, an item's members in reverse order.

    The walks cost ~0.6 ms for a stack of 1,000 items (the file's every container, twice) on every
    new file content; this looks up two keys an item.  ``stack`` must be what :func:`load_value`
    (or the fallback stack) made of ``raw``; ``tests/codecs/cache/test_shared_containers.py`` holds
    it equal to the walk on the corpus and on random stacks.
    """
    if type(stack) is not dict or type(raw) is not dict:
        return _shared_containers(stack, raw)  # not a loaded stack (no test or caller makes one)
    found: list[tuple[tuple[str | int, ...], tuple[tuple[str | int, ...], ...]]] = []
    for key in reversed(raw):
        value = raw[key]
        kind = type(value)
        if kind is dict and key in _PASSED_ON and stack.get(key) is value:
            found.append(((key,), ((key,),)))
        elif kind is list and key == "items":
            items = stack.get("items")
            if type(items) is not list or len(items) != len(value):
                return _shared_containers(stack, raw)  # not normalised from this value
            for index in range(len(value) - 1, -1, -1):
                item = items[index]
                if "source" in item or "options" in item:
                    _item_sharing(item, value[index], index, found)
    return tuple(found)


def _item_sharing(item: dict[str, Any], raw_item: Any, index: int, found: list[Any]) -> None:
    """:func:`_normalised_sharing` of the normalised ``item`` at ``items[index]`` and its raw item."""
    if type(raw_item) is not dict:
        return
    for key in reversed(raw_item):
        value = raw_item[key]
        if type(value) is dict and key in _ITEM_PASSED_ON and item.get(key) is value:
            found.append((("items", index, key), (("items", index, key),)))


def load_stack_data(
    data_or_text: Any,
    file_name: str,
    *,
    scope: str = "project",
    supported_slots: Iterable[str] | None = None,
    path: str | None = None,
) -> LoadedStack:
    """Load a stack held in memory: ``str`` is parsed as the file's text (JSON, or YAML when
    ``file_name`` ends in ``.yaml``/``.yml``), anything else is taken as the parsed value."""
    where = path or file_name
    if isinstance(data_or_text, str):
        document = parse_source_text(data_or_text, where, "yaml" if is_yaml_path(file_name) else "json")
        return _load_document(document, where, file_name, scope, supported_slots)
    stack, diagnostics = load_value(data_or_text, file_name, supported_slots=supported_slots)
    return LoadedStack(where, file_name, scope, stack, data_or_text, diagnostics, None)


def load_stack_bytes(
    raw: bytes,
    file_name: str,
    *,
    path: str | None = None,
    scope: str = "project",
    supported_slots: Iterable[str] | None = None,
) -> LoadedStack:
    """A stack read from a stream (standard input), as if it were the file ``file_name``.

    The bytes are decoded as pi-forge's ``readFile(path, "utf8")`` decodes a file (invalid UTF-8
    becomes U+FFFD); ``file_name`` gives the fallback id, the ``default.json`` warning and JSON vs
    YAML; ``path`` is the name shown in output (``-``).
    """
    from forgec.source import size_problem

    too_large = size_problem(len(raw), "yaml" if is_yaml_path(file_name) else "json")
    if too_large is not None:  # a file would have been refused before parsing: so is a stream
        where = path or file_name
        return LoadedStack(where, file_name, scope, fallback_stack(file_name), None, [too_large], SourceDocument(where, "json"))
    text = raw.decode("utf-8", errors="replace")
    return load_stack_data(text, file_name, scope=scope, path=path, supported_slots=supported_slots)


def _load_document(
    document: SourceDocument, path: str, file_name: str, scope: str, supported_slots: Iterable[str] | None
) -> LoadedStack:
    diagnostics = list(document.diagnostics)
    if not document.parsed:
        return LoadedStack(path, file_name, scope, fallback_stack(file_name), None, diagnostics, document)
    try:
        stack, found = load_value(document.data, file_name, supported_slots=supported_slots)
        diagnostics.extend(found)
    except RecursionError:  # a value nested deeper than a later stage can walk; never a traceback
        diagnostics = [
            *document.diagnostics,
            Diagnostic("error", "The stack is nested too deeply to check.", codes.NESTING_TOO_DEEP),
        ]
        stack = fallback_stack(file_name)
    return LoadedStack(path, file_name, scope, stack, document.data, diagnostics, document)


def load_value(
    value: Any, file_name: str, *, supported_slots: Iterable[str] | None = None
) -> tuple[dict[str, Any], list[Diagnostic]]:
    """Steps 2–5 of §10.2 on a parsed value: the normalised stack and the diagnostics, in order."""
    diagnostics: list[Diagnostic] = []
    made: list[Any] = []
    _raw_shape_checks(value, diagnostics, made=made)
    stack = _normalize_stack(value, file_name, diagnostics, made)
    _validate_stack(stack, diagnostics, supported_slots=supported_slots, normalised=True)
    if file_name == "default.json" and isinstance(value, dict) and "autoActivate" not in value:
        diagnostics.append(
            Diagnostic(
                "warning",
                'default.json no longer auto-activates by filename; set "autoActivate": true to keep '
                "auto-activating this stack.",
                codes.DEFAULT_JSON_AUTO_ACTIVATE,
                pointer=(),
            )
        )
    return stack, diagnostics


def raw_shape_checks(value: Any, *, normalised: bool = False) -> list[Diagnostic]:
    """§10.3's findings on a raw (or, with ``normalised``, a normalised) stack value."""
    diagnostics: list[Diagnostic] = []
    _raw_shape_checks(value, diagnostics, normalised=normalised)
    return diagnostics


def normalize_stack(value: Any, file_name: str) -> tuple[dict[str, Any], list[Diagnostic]]:
    """§10.4: pi-forge's normalised stack (a new object) and normalisation's own findings."""
    diagnostics: list[Diagnostic] = []
    return _normalize_stack(value, file_name, diagnostics), diagnostics


def validate_stack(
    stack: Any, *, supported_slots: Iterable[str] | None = None, normalised: bool = False
) -> list[Diagnostic]:
    """§10.5's findings on a (normally normalised) stack, in pi-forge's order.

    ``normalised``: ``stack`` is :func:`normalize_stack`'s result (see :func:`raw_shape_checks`).
    """
    diagnostics: list[Diagnostic] = []
    _validate_stack(stack, diagnostics, supported_slots=supported_slots, normalised=normalised)
    return diagnostics


# --- raw shape checks (§10.3) ---------------------------------------------------------------------


def _is_blank_or_not_string(value: Any) -> bool:
    return not isinstance(value, str) or js_trim(value) == ""


def _raw_shape_checks(
    value: Any, diagnostics: list[Diagnostic], *, normalised: bool = False, made: list[Any] | None = None
) -> None:
    """§10.3 on a raw (or normalised) stack value; nothing for a non-object.

    ``normalised``: ``value`` is :func:`normalize_stack`'s result, whose items got their member
    types from normalisation, so the only item finding left possible is a blank slot name; only
    such items take the item checks (§10.5 runs these checks a second time on every stack).

    ``made``: a list to fill with one entry per item of an exact ``dict`` root's ``items`` list --
    the item's normalised form (:func:`_clean_item`) when the item is clean, else None -- which
    :func:`_normalize_stack` then takes instead of normalising those items again (left empty
    for any other root).
    """
    if not isinstance(value, dict):
        return

    def add(message: str, code: str, pointer: Pointer, item_id: str | None = None) -> None:
        diagnostics.append(Diagnostic("error", message, code, item_id=item_id, pointer=pointer))

    if _is_blank_or_not_string(value.get("id")):
        add("Stack id must be a non-empty string.", codes.STACK_ID_MISSING, ("id",))
    if "type" in value and value["type"] != STACK_TYPE:
        add('Stack type must be "pi-forge.prompt-stack" when provided.', codes.STACK_TYPE_INVALID, ("type",))
    if "name" in value and not isinstance(value["name"], str):
        add("Stack name must be a string when provided.", codes.STACK_NAME_TYPE, ("name",))
    if "description" in value and not isinstance(value["description"], str):
        add("Stack description must be a string when provided.", codes.STACK_DESCRIPTION_TYPE, ("description",))
    if "autoActivate" in value and not isinstance(value["autoActivate"], bool):
        add("Stack autoActivate must be a boolean when provided.", codes.STACK_AUTO_ACTIVATE_TYPE, ("autoActivate",))
    if "mode" in value and not (isinstance(value["mode"], str) and value["mode"] in MODES):
        add(
            'Stack mode must be "append", "prepend", or "replace" when provided.',
            codes.STACK_MODE_INVALID,
            ("mode",),
        )
    if "defaults" in value:
        defaults = value["defaults"]
        if not isinstance(defaults, dict):
            add("Stack defaults must be an object when provided.", codes.STACK_DEFAULTS_TYPE, ("defaults",))
        else:
            if "syntheticMessagesVisible" in defaults and not isinstance(defaults["syntheticMessagesVisible"], bool):
                add(
                    "defaults.syntheticMessagesVisible must be a boolean when provided.",
                    codes.DEFAULTS_SYNTHETIC_VISIBLE_TYPE,
                    ("defaults", "syntheticMessagesVisible"),
                )
            if "unresolvedMacroPolicy" in defaults and js_string(defaults["unresolvedMacroPolicy"]) not in _MACRO_POLICIES:
                add(
                    'defaults.unresolvedMacroPolicy must be "warn", "keep", or "error" when provided.',
                    codes.DEFAULTS_MACRO_POLICY_INVALID,
                    ("defaults", "unresolvedMacroPolicy"),
                )
    if "context" in value:
        context = value["context"]
        if not isinstance(context, dict):
            add("Stack context must be an object when provided.", codes.STACK_CONTEXT_TYPE, ("context",))
        elif "allowDuplicateChatHistory" in context and not isinstance(context["allowDuplicateChatHistory"], bool):
            add(
                "context.allowDuplicateChatHistory must be a boolean when provided.",
                codes.CONTEXT_DUPLICATE_HISTORY_TYPE,
                ("context", "allowDuplicateChatHistory"),
            )
    if "variables" in value:
        variables = value["variables"]
        if not isinstance(variables, dict):
            add("Stack variables must be an object when provided.", codes.STACK_VARIABLES_TYPE, ("variables",))
        else:
            for name, item in js_items(variables):
                if not isinstance(item, str):
                    add(f"Stack variable {name} must be a string.", codes.STACK_VARIABLE_VALUE_TYPE, ("variables", name))
    items = value.get("items")
    if not isinstance(items, list):
        return
    if normalised:
        for index, item in enumerate(items):
            if item["kind"] == "slot" and not item["slot"].strip(JS_WHITESPACE):
                _raw_item_checks(item, index, add)
        return
    if made is not None and type(value) is dict:
        for index, item in enumerate(items):
            clean = _clean_item(item) if type(item) is dict else None
            made.append(clean)
            if clean is None and isinstance(item, dict):
                _raw_item_checks(item, index, add)
        return
    for index, item in enumerate(items):
        if isinstance(item, dict) and not _item_is_clean(item):
            _raw_item_checks(item, index, add)


#: the marker :func:`_clean_item` reads an absent member as (no parsed value is this object)
_ABSENT: Final = object()


def _clean_item(item: dict[str, Any]) -> dict[str, Any] | None:
    """:func:`_normalize_item`'s result for an item :func:`_item_is_clean` vouches for, made while
    testing it; None for any other item (it then takes the full checks and :func:`_normalize_item`).

    A new stack file of 1,000 blocks is loaded once: the shape checks and normalisation each read
    every member of every item, so one pass that reads each member once and builds the normalised
    item from what it read halves that work (``tests/codecs/stack/test_item_fast_path.py`` holds the two
    equal, members, key order and findings, on every corpus stack and on items of every shape).
    Members are read by ``item.get`` with a marker, not a bound ``get``: compiled, the bound method
    is a Python call per member where ``dict.get`` is a direct one.
    """
    raw_id = item.get("id")
    if type(raw_id) is not str:
        return None
    item_id = raw_id.strip(JS_WHITESPACE)
    if not item_id:
        return None
    kind = item.get("kind")
    if type(kind) is not str:
        return None
    slot: Any = None
    options: Any = _ABSENT
    content: Any = None
    if kind == "block":
        content = item.get("content")
        if type(content) is not str:
            return None
        out: dict[str, Any] = {"kind": "block", "id": item_id}
    elif kind == "slot":
        slot = item.get("slot")
        if type(slot) is not str or not slot.strip(JS_WHITESPACE):
            return None
        options = item.get("options", _ABSENT)
        if options is not _ABSENT and type(options) is not dict:
            return None
        out = {"kind": "slot", "id": item_id}
    else:
        return None
    value = item.get("name", _ABSENT)
    if value is not _ABSENT:
        if type(value) is not str:
            return None
        out["name"] = value
    value = item.get("enabled", _ABSENT)
    if value is not _ABSENT:
        if type(value) is not bool:
            return None
        out["enabled"] = value
    value = item.get("role", _ABSENT)
    if value is not _ABSENT:
        if type(value) is not str or value not in _ROLE_SET:
            return None
        out["role"] = value
    value = item.get("tags", _ABSENT)
    if value is not _ABSENT:
        if type(value) is not list:
            return None
        for tag in value:
            if type(tag) is not str:
                return None
        out["tags"] = list(value)
    value = item.get("source", _ABSENT)
    if value is not _ABSENT:
        if type(value) is not dict:
            return None
        out["source"] = value
    if content is not None:
        out["content"] = content
        return out
    out["slot"] = slot
    if options is not _ABSENT:
        out["options"] = options
    return out


def _item_is_clean(item: dict[str, Any]) -> bool:
    """Whether :func:`_raw_item_checks` would find nothing, by a stricter and much cheaper test.

    The checks run twice per item of every loaded stack (§10.3, §10.5); almost every item passes,
    so only the items this test does not vouch for go through the full, message-building checks.
    Exact ``type`` tests are stricter than the full checks' ``isinstance``: a subclass just takes
    the full path, which decides.
    """
    get = item.get
    raw_id = get("id")
    if type(raw_id) is not str or not raw_id.strip(JS_WHITESPACE):
        return False
    kind = get("kind")
    if type(kind) is not str:
        return False
    if kind == "block":
        if type(get("content")) is not str:
            return False
    elif kind == "slot":
        slot = get("slot")
        if type(slot) is not str or not slot.strip(JS_WHITESPACE):
            return False
        if "options" in item and type(item["options"]) is not dict:
            return False
    else:
        return False
    if "name" in item and type(item["name"]) is not str:
        return False
    if "enabled" in item and type(item["enabled"]) is not bool:
        return False
    if "role" in item:
        role = item["role"]
        if type(role) is not str or role not in _ROLE_SET:
            return False
    if "tags" in item:
        tags = item["tags"]
        if type(tags) is not list or not all(type(tag) is str for tag in tags):
            return False
    return not ("source" in item and type(item["source"]) is not dict)


def _raw_item_checks(item: dict[str, Any], index: int, add: Any) -> None:
    n = index + 1
    raw_id = item.get("id")
    item_id = js_trim(raw_id) if isinstance(raw_id, str) and js_trim(raw_id) else f"item-{n}"
    base = ("items", index)
    kind = item.get("kind")
    if kind not in ("block", "slot") or not isinstance(kind, str):
        add(f'Item {n} kind must be "block" or "slot".', codes.ITEM_KIND_INVALID, (*base, "kind"), item_id)
    if _is_blank_or_not_string(raw_id):
        add(f"Item {n} id must be a non-empty string.", codes.ITEM_ID_MISSING, (*base, "id"), item_id)
    if "name" in item and not isinstance(item["name"], str):
        add("Item name must be a string when provided.", codes.ITEM_NAME_TYPE, (*base, "name"), item_id)
    if "enabled" in item and not isinstance(item["enabled"], bool):
        add("Item enabled must be a boolean when provided.", codes.ITEM_ENABLED_TYPE, (*base, "enabled"), item_id)
    if "role" in item and not _valid_role(item["role"]):
        add(f"Invalid role: {js_string(item['role'])}", codes.ITEM_ROLE_INVALID, (*base, "role"), item_id)
    if "tags" in item and not is_string_array(item["tags"]):
        add("Item tags must be an array of strings when provided.", codes.ITEM_TAGS_TYPE, (*base, "tags"), item_id)
    if "source" in item and not isinstance(item["source"], dict):
        add("Item source must be an object when provided.", codes.ITEM_SOURCE_TYPE, (*base, "source"), item_id)
    if kind == "block" and not isinstance(item.get("content"), str):
        add("Block content must be a string.", codes.BLOCK_CONTENT_TYPE, (*base, "content"), item_id)
    elif kind == "slot":
        if _is_blank_or_not_string(item.get("slot")):
            add("Slot name must be a non-empty string.", codes.SLOT_NAME_MISSING, (*base, "slot"), item_id)
        if "options" in item and not isinstance(item["options"], dict):
            add("Slot options must be an object when provided.", codes.SLOT_OPTIONS_TYPE, (*base, "options"), item_id)


def _valid_role(role: Any) -> bool:
    return isinstance(role, str) and role in ROLES


# --- normalisation (§10.4) ------------------------------------------------------------------------


def _normalize_stack(
    value: Any, file_name: str, diagnostics: list[Diagnostic], made: list[Any] | None = None
) -> dict[str, Any]:
    """§10.4: pi-forge's normalised stack (a new object; ``defaults``/``context``/``regex`` kept raw).

    ``made``: what :func:`_raw_shape_checks` made of ``value``'s items (the list is taken over),
    used when it has one entry per item; its None entries are normalised here."""
    if not isinstance(value, dict):
        diagnostics.append(
            Diagnostic("error", "Prompt stack root must be a JSON object.", codes.STACK_ROOT_NOT_OBJECT, pointer=())
        )
        return fallback_stack(file_name)
    raw_id = value.get("id")
    trimmed = (js_trim(raw_id) or None) if isinstance(raw_id, str) else None
    if trimmed is not None and _ID_PATTERN.fullmatch(trimmed):
        stack_id = trimmed
    else:
        stack_id = file_stem(file_name)  # (a file whose stem is the invalid id gets no error)
        if trimmed is not None and stack_id != trimmed:
            diagnostics.append(
                Diagnostic(
                    "error",
                    f"Stack id {trimmed} must start with a letter or number and contain only letters, numbers, "
                    f"dots, underscores, and hyphens; falling back to {stack_id}.",
                    codes.STACK_ID_INVALID,
                    pointer=("id",),
                )
            )
    version = value.get("schemaVersion")
    if not (is_number(version) and version == 1):
        diagnostics.append(
            Diagnostic(
                "warning",
                "Missing or unsupported schemaVersion; assuming 1.",
                codes.SCHEMA_VERSION_UNSUPPORTED,
                pointer=("schemaVersion",),
            )
        )
    raw_items = value.get("items")
    if isinstance(raw_items, list):
        if made is not None and len(made) == len(raw_items):
            items = made
            for index, clean in enumerate(made):
                if clean is None:
                    items[index] = _normalize_item(raw_items[index], index, diagnostics)
        else:
            items = [_normalize_item(item, index, diagnostics) for index, item in enumerate(raw_items)]
    else:
        items = []
        diagnostics.append(
            Diagnostic("error", "Prompt stack must contain an items array.", codes.ITEMS_MISSING, pointer=("items",))
        )
    state = value.get("state")
    if isinstance(state, dict) and state:
        diagnostics.append(
            Diagnostic(
                "info",
                "state is no longer supported and was ignored; use stack.variables and template variable "
                "macros instead.",
                codes.STATE_UNSUPPORTED,
                pointer=("state",),
            )
        )

    stack: dict[str, Any] = {"schemaVersion": 1}
    if value.get("type") == STACK_TYPE:
        stack["type"] = STACK_TYPE
    stack["id"] = stack_id
    for key in ("name", "description"):
        if isinstance(value.get(key), str):
            stack[key] = value[key]
    if isinstance(value.get("autoActivate"), bool):
        stack["autoActivate"] = value["autoActivate"]
    if isinstance(value.get("mode"), str) and value["mode"] in MODES:
        stack["mode"] = value["mode"]
    for key in ("defaults", "context"):
        if isinstance(value.get(key), dict):
            stack[key] = value[key]
    for label in ("tools", "skills"):
        policy = _normalize_policy(value, label, diagnostics) if label in value else None
        if policy is not None:
            stack[label] = policy
    variables = value.get("variables")
    if isinstance(variables, dict):
        # pi-forge copies the strings into a new object by assignment: `out["__proto__"] = "…"` reaches
        # Object.prototype's setter, which ignores a string, so that variable is dropped (compile-core §15.9)
        stack["variables"] = {k: v for k, v in js_items(variables) if isinstance(v, str) and k != "__proto__"}
    if "regex" in value:
        if isinstance(value["regex"], dict):
            stack["regex"] = value["regex"]
        else:
            diagnostics.append(
                Diagnostic(
                    "warning",
                    "regex must be an object when provided.",
                    regex_codes.REGEX_NOT_OBJECT,
                    pointer=("regex",),
                )
            )
    stack["items"] = items
    if isinstance(value.get("import"), dict):
        stack["import"] = value["import"]
    return stack


def _normalize_item(item: Any, index: int, diagnostics: list[Diagnostic]) -> dict[str, Any]:
    """§10.4 for one item of any shape.  Kept apart from :func:`_clean_item` (the one-pass form for
    items of exact types): that one gives up (None) at the first member it does not vouch for and
    builds nothing, this one normalises whatever is there by ``isinstance`` (subclasses, numeric
    ids, non-string tags dropped); one function would make every clean item pay for the other's rules."""
    if not isinstance(item, dict):
        n = index + 1
        fallback = f"item-{n}"
        diagnostics.append(
            Diagnostic(
                "error",
                f"Item {n} must be an object.",
                codes.ITEM_NOT_OBJECT,
                item_id=fallback,
                pointer=("items", index),
            )
        )
        return {"kind": "block", "id": fallback, "enabled": False, "content": ""}
    get = item.get
    kind = "slot" if get("kind") == "slot" else "block"
    raw_id = get("id")
    trimmed = raw_id.strip(JS_WHITESPACE) if isinstance(raw_id, str) else ""
    if trimmed:
        item_id = trimmed
    elif is_number(raw_id) and math.isfinite(raw_id):
        item_id = js_number_to_string(raw_id)
    else:
        item_id = f"item-{index + 1}"  # made only here: nearly every item has an id (~0.1 µs an item)
    out: dict[str, Any] = {"kind": kind, "id": item_id}
    value = get("name")
    if isinstance(value, str):
        out["name"] = value
    value = get("enabled")
    if isinstance(value, bool):
        out["enabled"] = value
    value = get("role")
    if isinstance(value, str) and value in _ROLE_SET:
        out["role"] = value
    value = get("tags")
    if isinstance(value, list):
        out["tags"] = [tag for tag in value if isinstance(tag, str)]
    value = get("source")
    if isinstance(value, dict):
        out["source"] = value
    if kind == "slot":
        value = get("slot")
        out["slot"] = value if isinstance(value, str) else ""
        value = get("options")
        if isinstance(value, dict):
            out["options"] = value
    else:
        value = get("content")
        out["content"] = value if isinstance(value, str) else ""
    return out


def _normalize_policy(value: dict[str, Any], label: str, diagnostics: list[Diagnostic]) -> dict[str, Any] | None:
    if label not in value:
        return None
    raw = value[label]
    if not isinstance(raw, dict):
        diagnostics.append(
            Diagnostic("error", f"{label} policy must be an object when provided.", codes.POLICY_TYPE, pointer=(label,))
        )
        return None
    lists: dict[str, list[str] | None] = {}
    for key in ("allow", "deny"):
        sub = f"{label}.{key}"
        if key not in raw:
            lists[key] = None
            continue
        patterns = raw[key]
        if not isinstance(patterns, list):
            diagnostics.append(
                Diagnostic(
                    "error",
                    f"{sub} must be an array of strings when provided.",
                    codes.POLICY_LIST_TYPE,
                    pointer=(label, key),
                )
            )
            lists[key] = None
            continue
        kept: list[str] = []
        for i, pattern in enumerate(patterns):
            if _is_blank_or_not_string(pattern):
                diagnostics.append(
                    Diagnostic(
                        "error",
                        f"{sub}[{i}] must be a non-empty string.",
                        codes.POLICY_ENTRY_INVALID,
                        pointer=(label, key, i),
                    )
                )
            else:
                kept.append(js_trim(pattern))
        lists[key] = kept or None
    allow, deny = lists["allow"], lists["deny"]
    if allow and deny:
        diagnostics.append(
            Diagnostic(
                "error",
                f"{label} policy must use either allow or deny, not both.",
                codes.POLICY_ALLOW_AND_DENY,
                pointer=(label,),
            )
        )
        return {"allow": allow}
    if allow:
        return {"allow": allow}
    if deny:
        return {"deny": deny}
    return {}


# --- validation (§10.5) ---------------------------------------------------------------------------


def _validate_stack(
    stack: Any,
    diagnostics: list[Diagnostic],
    *,
    supported_slots: Iterable[str] | None = None,
    normalised: bool = False,
) -> None:
    """§10.5 on a (normally normalised) stack: appends pi-forge's validation diagnostics in order.

    ``normalised``: ``stack`` is :func:`normalize_stack`'s result (see :func:`raw_shape_checks`).
    """
    supported = _BUILTIN_SLOTS if supported_slots is None else frozenset(supported_slots)
    _raw_shape_checks(stack, diagnostics, normalised=normalised)
    if not isinstance(stack, dict):
        return
    if _is_blank_or_not_string(stack.get("id")):
        diagnostics.append(Diagnostic("error", "Stack id must not be empty.", codes.STACK_ID_EMPTY, pointer=("id",)))
    items = stack.get("items")
    history: list[int] = []
    seen: set[Any] = set()
    for index, item in enumerate(items if isinstance(items, list) else []):
        if not isinstance(item, dict):
            continue
        _validate_item(item, index, seen, history, supported, diagnostics)
    if not history:
        diagnostics.append(
            Diagnostic(
                "warning",
                "No enabled chat-history slot found; Pi chat context will be appended at the end.",
                codes.NO_CHAT_HISTORY,
                pointer=("items",),
            )
        )
    elif len(history) > 1:
        context = stack.get("context")
        allowed = context.get("allowDuplicateChatHistory") if isinstance(context, dict) else None
        if not js_truthy(allowed):
            diagnostics.append(
                Diagnostic(
                    "warning",
                    "Multiple enabled chat-history slots found; only the first will be expanded unless "
                    "context.allowDuplicateChatHistory is true.",
                    codes.MULTIPLE_CHAT_HISTORY,
                    pointer=("items", history[1]),
                )
            )
    for label in ("tools", "skills"):
        _validate_policy(stack.get(label), label, diagnostics)
    if _policy_active(stack.get("skills")):
        diagnostics.append(
            Diagnostic(
                "info",
                "skills policy only filters model-visible skills rendered by pi-forge skills slots; it does "
                "not disable explicit skill invocation and is not a security boundary.",
                codes.SKILLS_POLICY_NOT_SECURITY,
                pointer=("skills",),
            )
        )
        if stack.get("mode") in ("append", "prepend"):
            diagnostics.append(
                Diagnostic(
                    "warning",
                    'skills policy only filters pi-forge skills slots. Use mode "replace" if you need the base '
                    "Pi prompt to omit filtered skills.",
                    codes.SKILLS_POLICY_BASE_PROMPT,
                    pointer=("mode",),
                )
            )
    diagnostics.extend(check_regex_config(stack))


def _validate_item(
    item: dict[str, Any],
    index: int,
    seen: set[Any],
    history: list[int],
    supported: frozenset[str],
    diagnostics: list[Diagnostic],
) -> None:
    # members read by ``item.get``, not a bound ``get``: compiled, that is a direct call (the bound
    # method a Python-level one); the pointer base is made only for a finding
    item_id = item.get("id")
    shown_id: str
    key: Any
    if type(item_id) is str:
        shown_id = key = item_id
    else:
        shown_id = item_id if isinstance(item_id, str) else js_string(item_id)
        key = item_id if isinstance(item_id, (str, int, float, bool, type(None))) else id(item_id)
    if key in seen:
        diagnostics.append(
            Diagnostic(
                "error", f"Duplicate item id: {shown_id}", codes.DUPLICATE_ITEM_ID, item_id=shown_id, pointer=("items", index, "id")
            )
        )
    seen.add(key)
    role = item.get("role")
    if not (isinstance(role, str) and role in _ROLE_SET) and "role" in item:
        diagnostics.append(
            Diagnostic(
                "error", f"Invalid role: {js_string(role)}", codes.ITEM_ROLE_INVALID, item_id=shown_id, pointer=("items", index, "role")
            )
        )
    enabled = item.get("enabled") is not False
    if item.get("kind") == "slot":
        slot = item.get("slot")
        if not (isinstance(slot, str) and slot in supported):
            diagnostics.append(
                Diagnostic(
                    "warning",
                    f"Unsupported slot: {js_string(slot)}",
                    codes.SLOT_NOT_REGISTERED,
                    item_id=shown_id,
                    pointer=("items", index, "slot"),
                )
            )
        if slot == "chat-history":
            if enabled:
                history.append(index)
            options = item.get("options")
            if isinstance(options, dict):
                _chat_history_options(options, ("items", index, "options"), shown_id, diagnostics)
    elif enabled and role != "system" and not (role != "" if type(role) is str else js_truthy(role)):
        diagnostics.append(
            Diagnostic(
                "warning",
                "Enabled block has no role and will be ignored.",
                codes.BLOCK_WITHOUT_ROLE,
                item_id=shown_id,
                pointer=("items", index),
            )
        )


def _chat_history_options(
    options: dict[str, Any], base: Pointer, item_id: str, diagnostics: list[Diagnostic]
) -> None:
    for key in _HISTORY_BOOLEANS:
        if key in options and not isinstance(options[key], bool):
            diagnostics.append(
                Diagnostic(
                    "warning",
                    f"chat-history option {key} should be a boolean.",
                    codes.CHAT_HISTORY_OPTION_BOOLEAN,
                    item_id=item_id,
                    pointer=(*base, key),
                )
            )
    if "roles" in options and not is_string_array(options["roles"]):
        diagnostics.append(
            Diagnostic(
                "error",
                "chat-history option roles must be an array of strings.",
                codes.CHAT_HISTORY_ROLES_TYPE,
                item_id=item_id,
                pointer=(*base, "roles"),
            )
        )
    if "toolMode" in options and options["toolMode"] not in ("keep", "drop"):
        diagnostics.append(
            Diagnostic(
                "error",
                'chat-history option toolMode must be "keep" or "drop".',
                codes.CHAT_HISTORY_TOOL_MODE_INVALID,
                item_id=item_id,
                pointer=(*base, "toolMode"),
            )
        )
    for key in ("maxMessages", "maxChars"):
        if key in options and not (is_integral_number(options[key]) and options[key] > 0):
            diagnostics.append(
                Diagnostic(
                    "error",
                    f"chat-history option {key} must be a positive integer.",
                    codes.CHAT_HISTORY_LIMIT_INVALID,
                    item_id=item_id,
                    pointer=(*base, key),
                )
            )


def _has_patterns(value: Any) -> bool:
    return isinstance(value, list) and len(value) > 0


def _policy_active(policy: Any) -> bool:
    """§5: present and (an effective allow list or a non-empty deny list)."""
    if not isinstance(policy, dict):
        return False
    allow = policy.get("allow")
    if isinstance(allow, list) and allow and any(p != "*" for p in allow):
        return True
    return _has_patterns(policy.get("deny"))


def _validate_policy(policy: Any, label: str, diagnostics: list[Diagnostic]) -> None:
    if not isinstance(policy, dict):
        return
    if _has_patterns(policy.get("allow")) and _has_patterns(policy.get("deny")):
        diagnostics.append(
            Diagnostic(
                "error",
                f"{label} policy must use either allow or deny, not both.",
                codes.POLICY_ALLOW_AND_DENY,
                pointer=(label,),
            )
        )
    for key in ("allow", "deny"):
        patterns = policy.get(key)
        if not isinstance(patterns, list):
            continue
        seen: set[str] = set()
        for pattern in patterns:
            text = pattern if isinstance(pattern, str) else js_string(pattern)
            if text in seen:
                diagnostics.append(
                    Diagnostic(
                        "warning",
                        f"Duplicate {label}.{key} pattern: {text}.",
                        codes.DUPLICATE_POLICY_PATTERN,
                        pointer=(label, key),
                    )
                )
            seen.add(text)


# --- folders (§10.1, §10.7) -----------------------------------------------------------------------


def load_stack_folder(
    directories: Iterable[str | os.PathLike[str]],
    scope: str = "project",
    *,
    supported_slots: Iterable[str] | None = None,
    include_yaml: bool = True,
) -> list[LoadedStack]:
    """Load every stack file of one directory group (§10.1) and annotate duplicate ids (§10.7)."""
    slots = tuple(supported_slots) if supported_slots is not None else None
    loaded = [
        load_stack_file(path, scope=scope, supported_slots=slots)
        for path in list_resource_files(directories, STACK_SUFFIXES if include_yaml else (".json",))
    ]
    annotate_duplicate_ids(loaded)
    return loaded


def annotate_duplicate_ids(stacks: list[LoadedStack]) -> None:
    """§10.7: every member of a (scope, id) group of two or more gets the duplicate-id error."""
    groups: dict[tuple[str, str], list[LoadedStack]] = {}
    for loaded in stacks:
        groups.setdefault((loaded.scope, loaded.stack_id), []).append(loaded)
    for members in groups.values():
        if len(members) < 2:
            continue
        names = ", ".join(member.file_name for member in members)
        for member in members:
            member.diagnostics.append(duplicate_id_diagnostic(member, names))


def duplicate_id_diagnostic(member: LoadedStack, names: str) -> Diagnostic:
    """§10.7's error on one member of a duplicate-id group; ``names``: the group's file names in
    listing order, joined by ``", "`` (:func:`annotate_duplicate_ids`, and ``forgec validate``'s
    cache, which knows the other members' ids without loading them)."""
    return Diagnostic(
        "error",
        f"Duplicate {member.scope} stack id: {member.stack_id} appears in multiple files ({names}).",
        codes.DUPLICATE_STACK_ID,
        pointer=("id",) if member.document is not None and member.document.parsed else None,
    )
