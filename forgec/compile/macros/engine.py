"""One expansion session (compile-core.md §3): scanning, rendering, lazy arguments, unresolved set.

A session owns what §3 says it owns (stack, runtime, diagnostics, item id, unresolved set) plus the
variable store, passed in by the caller and mutated in place (it is the caller's explicit value,
never a global).  Rendering walks the AST of :mod:`forgec.compile.macros.nodes`; arguments are expanded
only when a renderer asks for them (:meth:`MacroContext.expand_arg`), which is what keeps
conditional branches lazy and unknown macros side-effect free.

Limits (§16.16): the reference expands until V8's stack runs out; forgec allows
:data:`MAX_DEPTH` nested renderer calls and fails the macro that crosses it with V8's message, and
fails any macro whose result exceeds V8's string length with ``Invalid string length``.

Every string the engine builds (an argument's expansion, joined arguments, a macro's result, the
block's output) is measured *before* it is built, from the lengths of its parts: ``len`` is a lower
bound of the UTF-16 length and at most half of it, so the exact (expensive) count is only taken near
a limit.  Besides V8's limit, forgec caps every such string at :data:`MAX_BLOCK_LENGTH` units
(a deliberate deviation, docs/compatibility.md "Macros"): the macro whose work would cross it fails
like a V8 overflow (text kept, outer macros continue) with forgec's FG203, and a block whose own
output would cross it is kept as written with FG203.  This keeps memory and time bounded.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, Final

from forgec.compile.macros.grammar import Span, parse_macro_at
from forgec.compile.macros.nodes import Macro, Node
from forgec.compile.macros.replay import REPLAYABLE, Trace
from forgec.diagnostics import Diagnostic
from forgec.diagnostics.quick import NATIVE_POSITIONED, POSITIONED, native_make
from forgec.js.values import JS_WHITESPACE, js_concat, js_len
from forgec.model.runtime import Runtime
from forgec.model.variables import MISSING, VariableStore, lookup, to_macro_text, to_prompt_text
from forgec.resources import is_compiled
from forgec.rules.macros import EXPANSION_TOO_LONG, MACRO_FAILED, UNRESOLVED_MACRO

__all__ = [
    "MAX_BLOCK_LENGTH",
    "MAX_BLOCK_WORK",
    "MAX_DEPTH",
    "MAX_STRING_LENGTH",
    "NATIVE_TRIM",
    "ExpansionTooLong",
    "JsRangeError",
    "MacroContext",
    "Session",
    "Variables",
    "check_length",
    "check_parts",
    "check_units",
    "dispatch_table",
    "expand_first_sight",
    "register_builtins",
    "set_plain_renderers",
    "string_limit",
]

#: nested renderer calls forgec supports (the reference manages about 1,646; §16.16 asks >= 1,600)
MAX_DEPTH = 2_000
#: V8's maximum string length in UTF-16 units
MAX_STRING_LENGTH = 536_870_888
#: forgec's own cap (UTF-16 units) on any string built while expanding one block (a deviation)
MAX_BLOCK_LENGTH = 64 * 1024 * 1024
#: forgec's cap on the characters all macros of one block may produce together (a deviation): the
#: length cap alone bounds each string, not the work of building ever new ones near it
MAX_BLOCK_WORK = 2 * MAX_BLOCK_LENGTH
#: built-in macros that only read a variable: they build no new string, so they cost no work
_READERS = frozenset({"getvar", "var", "getturnvar", "getsessionvar"})
#: Python frames one nesting level may use (render -> renderer -> expand_arg -> expand_nodes ...)
_FRAMES_PER_LEVEL: Final = 6
#: ``sys.getrecursionlimit`` bound once: :func:`expand_session` asks it every block (a module attribute
#: look-up and a generic call less in the mypyc build; Final: a C static there, not a globals look-up)
_recursion_limit: Final = sys.getrecursionlimit
#: :data:`.quick.NATIVE_POSITIONED` and the unresolved-macro code, as Final copies: read every block with a
#: finding, and an imported name is a globals look-up in the mypyc build (~130 instructions), a Final one a C static
_NATIVE_FINDINGS: Final = NATIVE_POSITIONED
#: :data:`forgec.model.variables.MISSING`, likewise (every variable read and unknown macro compares with it)
_MISSING: Final = MISSING
_UNRESOLVED_CODE: Final = UNRESOLVED_MACRO
#: what a plain renderer is: (kind, scope, transform) -- kind ``get``, ``set`` or ``filter``
PlainEntry = tuple[str, str, Callable[[str], str] | None]
#: built-in renderers :meth:`Session.render` may run without a render context when the arguments they
#: use are plain text (:meth:`Session._render_plain`): renderer -> (kind, scope, transform), set by
#: :mod:`forgec.compile.macros.builtins` through :func:`register_builtins` (keyed by the renderer object,
#: so a different table gets none); change it only through :func:`set_plain_renderers`, which keeps the
#: dispatch table (:func:`dispatch_table`) in step with it
PLAIN_RENDERERS: dict[Any, PlainEntry] = {}


class JsRangeError(Exception):
    """A V8 ``RangeError`` the reference would raise (stack overflow, string too long)."""


class ExpansionTooLong(Exception):
    """A string would exceed forgec's :data:`MAX_BLOCK_LENGTH` (but not V8's limit)."""


class _WorkExhausted(ExpansionTooLong):
    """The block's macros have produced more than :data:`MAX_BLOCK_WORK` characters."""


def string_limit() -> int:
    """The lower of V8's limit and forgec's cap, read when asked (tests lower either one).

    Each read once: a module global is a dictionary look-up in the mypyc build (~120 instructions), and
    every session asks this."""
    v8 = MAX_STRING_LENGTH
    cap = MAX_BLOCK_LENGTH
    return v8 if v8 < cap else cap


def check_units(units: int) -> None:
    """Fail a string of exactly ``units`` UTF-16 units: V8's ``Invalid string length`` first, then forgec's cap."""
    if units > MAX_STRING_LENGTH:
        raise JsRangeError("Invalid string length")
    if units > MAX_BLOCK_LENGTH:
        raise ExpansionTooLong(units)


def check_parts(parts: list[str] | tuple[str, ...], extra: int = 0) -> None:
    """Check, before joining, the string ``parts`` plus ``extra`` ASCII units would make.

    ``len`` counts code points, a lower bound of UTF-16 units and at least half of them, so the
    exact count (:func:`js_len` on every part) is only needed when twice the lower bound passes a limit.
    """
    size = extra
    for part in parts:
        size += len(part)
    if size * 2 > string_limit():
        # code points are a lower bound: past the limit already, no exact count is needed
        check_units(size if size > string_limit() else extra + sum(js_len(part) for part in parts))


def check_length(text: str) -> str:
    """Fail ``text`` when it is longer than a V8 string or forgec's cap allows; else return it."""
    size = len(text)
    # the two limits read directly (not through string_limit()): this runs once per macro result
    if size * 2 > MAX_BLOCK_LENGTH or size * 2 > MAX_STRING_LENGTH:
        check_units(size if size > string_limit() else js_len(text))
    return text


class Variables:
    """The §4.5 variable access object handed to custom macros and slots."""

    __slots__ = ("_static", "_store")

    def __init__(self, store: VariableStore | None, static: dict[str, Any] | None) -> None:
        self._store = store
        self._static = static

    def get(self, name: str, scope: str | None = None) -> Any:
        """The value (turn -> session -> static unless ``scope`` narrows it), or ``None`` if missing."""
        value = lookup(name, self._store, self._static, scope or "any")  # type: ignore[arg-type]
        return None if value is MISSING else value

    def has(self, name: str, scope: str | None = None) -> bool:
        return lookup(name, self._store, self._static, scope or "any") is not MISSING  # type: ignore[arg-type]

    def set(self, scope: str, name: str, value: Any) -> None:
        if self._store is not None and scope in ("turn", "session"):
            self._store.set(scope, name, value)  # type: ignore[arg-type]

    def clear(self, scope: str, name: str) -> None:
        if self._store is not None and scope in ("turn", "session"):
            self._store.clear(scope, name)  # type: ignore[arg-type]

    to_macro_text = staticmethod(to_macro_text)
    to_prompt_text = staticmethod(to_prompt_text)


class MacroContext:
    """The render context of §3.3 for one macro call (argument expansions cached per index)."""

    __slots__ = ("_cache", "_macro", "_session", "name")

    def __init__(self, session: Session, macro: Macro, name: str) -> None:
        self._session = session
        self._macro = macro
        self._cache: dict[int, str] | None = None
        self.name = name

    # §3.3 names --------------------------------------------------------------------------------
    @property
    def command(self) -> str:
        return self.name

    @property
    def stack(self) -> dict[str, Any]:
        return self._session.stack

    @property
    def runtime(self) -> Runtime:
        return self._session.runtime

    @property
    def raw_args(self) -> list[str]:
        return self._macro.raw_args(self._session.text)

    @property
    def arg_count(self) -> int:
        return len(self._macro.seps)

    @property
    def variables(self) -> Variables:
        return self._session.variables

    @property
    def helpers(self) -> Any:
        from forgec.compile.slots import helpers

        return helpers

    @property
    def selected_tools(self) -> list[str]:
        return self._session.selected_tools

    def expand_arg(self, index: int) -> str:
        """Argument ``index`` expanded in this session (once; ``""`` when it does not exist)."""
        cache = self._cache
        if cache is None:
            cache = self._cache = {}
        elif index in cache:
            return cache[index]
        macro = self._macro
        session = self._session
        parts = macro.parts  # the command, then the arguments
        nodes = parts[index + 1] if 0 <= index < len(parts) - 1 else None
        if nodes is None:
            value = ""
        elif len(nodes) == 1 and type(nodes[0]) is str:
            # a plain-text argument (the usual name) is its own expansion: no call, nothing built;
            # the last one loses its trailing white space, as :meth:`Macro.args` gives it
            value = nodes[0] if index < len(parts) - 2 else nodes[0].rstrip(JS_WHITESPACE)
        elif not nodes:
            value = ""
        else:
            args = macro._args  # memoised on the (cached) AST: no call once known
            if args is None:
                args = macro.args()
            nodes = args[index]
            value = nodes[0] if len(nodes) == 1 and isinstance(nodes[0], str) else session.expand_nodes(nodes)
        if session.work > MAX_BLOCK_WORK and self.name not in _READERS:  # before anything is built from it
            raise _WorkExhausted(0)
        cache[index] = value
        return value

    def expand_joined_args(self, start: int) -> str:
        """Arguments from ``start`` on, each expanded, joined with ``::`` (the original separators)."""
        count = len(self._macro.seps)
        if start >= count:
            return ""
        if count - start == 1:  # one argument (a setvar's usual value): nothing to join
            value = self.expand_arg(start)
            if len(value) * 2 > string_limit():
                check_parts([value])
            return value
        parts = [self.expand_arg(i) for i in range(start, count)]
        check_parts(parts, 2 * (len(parts) - 1))
        return "::".join(parts)

    def name_arg(self, index: int = 0) -> str:
        """A "name argument": the expansion trimmed (§3.5)."""
        return self.expand_arg(index).strip(JS_WHITESPACE)  # js_trim, inlined (one call per macro)


Renderer = Callable[[MacroContext], "str | None"]
#: a built-in's command -> (its renderer, its :data:`PLAIN_RENDERERS` entry or None)
Dispatch = dict[str, tuple[Renderer, PlainEntry | None]]

#: the registry's built-in table (:data:`.builtins.BUILTIN_RENDERERS`) and its :data:`Dispatch`: one
#: dictionary look-up per macro instead of two (the built-in table by name, then :data:`PLAIN_RENDERERS`
#: by renderer), ~270 instructions each in the mypyc build; remade by :func:`register_builtins` and
#: :func:`set_plain_renderers` (one tuple, so a session reads one name), which replace the list's one
#: element: the list is Final, a C static compiled, where a rebound module global is a globals look-up
_DISPATCH: Final[list[tuple[dict[str, Renderer], Dispatch]]] = [({}, {})]


def _make_dispatch(builtins: dict[str, Renderer]) -> Dispatch:
    return {name: (renderer, PLAIN_RENDERERS.get(renderer)) for name, renderer in builtins.items()}


def dispatch_table(builtins: dict[str, Renderer]) -> Dispatch:
    """``builtins`` with each renderer's :data:`PLAIN_RENDERERS` entry: the registered table's, kept, or one
    made now for any other table (tests, tools)."""
    current = _DISPATCH[0]
    if builtins is current[0]:
        return current[1]
    return _make_dispatch(builtins)


def register_builtins(builtins: dict[str, Renderer], plain: dict[Any, PlainEntry]) -> None:
    """The built-in table sessions are usually given and its plain renderers (:mod:`.builtins`, at import)."""
    _DISPATCH[0] = (builtins, {})
    set_plain_renderers(plain)


def set_plain_renderers(plain: dict[Any, PlainEntry]) -> None:
    """:data:`PLAIN_RENDERERS` replaced (in place) by ``plain``, and the dispatch table made again to match:
    the tests switch the direct renders off (``{}``) and on again through this."""
    PLAIN_RENDERERS.clear()
    PLAIN_RENDERERS.update(plain)
    builtins = _DISPATCH[0][0]
    _DISPATCH[0] = (builtins, _make_dispatch(builtins))


#: :meth:`Session._write_plain`'s answer for a ``setvar`` whose name is empty (an unresolved macro)
_NO_NAME: Final = "\x00no name"


class Session:
    """One block's expansion session."""

    __slots__ = (
        "_variables",
        "builtins",
        "custom",
        "depth",
        "diagnostics",
        "dispatch",
        "item_id",
        "limit",
        "max_depth",
        "pointer",
        "runtime",
        "selected_tools",
        "stack",
        "static",
        "store",
        "text",
        "trace",
        "unresolved",
        "work",
        "work_cap",
    )

    def __init__(
        self,
        text: str,
        *,
        item_id: Any,  # the raw id: any JSON value in a stack handed over unnormalised
        stack: dict[str, Any],
        runtime: Runtime,
        store: VariableStore | None,
        diagnostics: list[Diagnostic],
        selected_tools: list[str],
        builtins: dict[str, Renderer],
        custom: dict[str, Any],
        pointer: tuple[Any, ...] | None,
    ) -> None:
        self.text = text
        self.item_id = item_id
        self.stack = stack
        self.runtime = runtime
        self.store = store
        variables = stack.get("variables") if isinstance(stack, dict) else None
        self.static = variables if isinstance(variables, dict) else None
        self.diagnostics = diagnostics
        self.selected_tools = selected_tools
        self.builtins = builtins
        self.custom = custom
        self.pointer = pointer
        #: trimmed expression -> its first completed occurrence (offset and length of the finding): its
        #: macro, or a first sight's top-level macro as its start and end offsets (:meth:`render_span`)
        self.unresolved: dict[str, Macro | tuple[int, int]] = {}
        self.depth = 0
        #: characters the block's macros have produced so far (bounded by MAX_BLOCK_WORK)
        self.work = 0
        self._variables: Variables | None = None
        # the limits, read once a block: module globals (tests lower them), each read a dictionary look-up
        # in the mypyc build, and the plain built-ins below would read them again for every macro
        #: :func:`string_limit` (the lower of V8's length and forgec's cap)
        self.limit = string_limit()
        #: :data:`MAX_DEPTH` and :data:`MAX_BLOCK_WORK`
        self.max_depth = MAX_DEPTH
        self.work_cap = MAX_BLOCK_WORK
        #: ``builtins`` with their plain entries (:func:`dispatch_table`, inlined for the registry's table)
        current = _DISPATCH[0]
        self.dispatch = current[1] if builtins is current[0] else _make_dispatch(builtins)
        #: what the expansion reads and writes, for a later replay (:mod:`.replay`); None: not recorded
        self.trace: Trace | None = None

    def read(self, name: str, scope: str = "any") -> Any:
        """A variable's value (:func:`lookup`), recorded in :attr:`trace`."""
        value = lookup(name, self.store, self.static, scope)  # type: ignore[arg-type]
        if self.trace is not None:
            self.trace.reads.append((name, scope, value))
        return value

    def write(self, scope: str, name: str, value: str | None) -> None:
        """``store.set`` (``store.clear`` for None), recorded in :attr:`trace`; nothing without a store."""
        store = self.store
        if store is None:
            return
        if value is None:
            store.clear(scope, name)  # type: ignore[arg-type]
        else:
            store.set(scope, name, value)  # type: ignore[arg-type]
        if self.trace is not None:
            self.trace.writes.append((scope, name, value))

    @property
    def variables(self) -> Variables:
        """The §4.5 access object, made on first use: only custom macros and slots ask for it."""
        variables = self._variables
        if variables is None:
            variables = self._variables = Variables(self.store, self.static)
        return variables

    def expand_nodes(self, nodes: list[Node] | tuple[Node, ...]) -> str:
        """§3.1 over parsed nodes: text as is, each complete macro rendered; never re-scanned.

        Every piece is measured as it arrives, before anything is joined: ``len`` (code points) is a
        lower bound of the UTF-16 units and at least half of them, so the exact count is only taken
        once the lower bound passes half the limit.  The block's work grows by every piece of a
        concatenation (the first piece counted when the second arrives, as a concatenation is only
        built then), updated before the next macro renders, since that macro checks it.
        """
        count = len(nodes)
        if count == 0:
            return ""
        rest = iter(nodes)
        node = next(rest)
        piece = node if isinstance(node, str) else self.render(node)
        size = len(piece)  # code points: a lower bound of UTF-16 units, at least half of them
        half = self.limit // 2  # size > half  <=>  size * 2 > limit
        if count == 1:
            if size > half:
                _check_exact(size, [piece])
            return piece
        out = [piece]
        append = out.append
        render = self.render
        exact = -1  # UTF-16 units, counted once the lower bound comes near a limit
        if size > half:
            exact = _check_exact(size, out)
        pending = size  # the first piece's work, counted when the second arrives
        for node in rest:
            piece = node if isinstance(node, str) else render(node)
            append(piece)
            length = len(piece)
            self.work += length + pending
            pending = 0
            if exact >= 0:
                exact += js_len(piece)
                check_units(exact)
            else:
                size += length
                if size > half:  # near a limit: measure exactly, before anything is joined
                    exact = _check_exact(size, out)
        return _joined(out)

    def expand_block(self, nodes: list[Node] | tuple[Node, ...]) -> str:
        """The block's own output: :meth:`expand_nodes` outside any macro.

        In the reference, the scanner's own concatenation overflowing is caught by no macro and
        would fail the whole compile; forgec instead keeps the block as written with FG203 (the
        same finding as for its lower cap), so one runaway block cannot take the compile down.
        """
        try:
            return self.expand_nodes(nodes)
        except (JsRangeError, ExpansionTooLong):
            return self._block_too_long()

    def _block_too_long(self) -> str:
        """The block's own output would cross a length limit: FG203, the block kept as written."""
        self.trace = None
        self.diagnostics.append(
            Diagnostic(
                "error",
                f"Block output would be longer than forgec's limit of {string_limit()} UTF-16 units; "
                "the block is kept as written.",
                EXPANSION_TOO_LONG,
                item_id=self.item_id,
                pointer=self.pointer,
            )
        )
        return self.text

    def render(self, macro: Macro) -> str:
        """§3.2 for one complete macro."""
        text = self.text
        command = macro._command  # memoised on the (cached) AST: no call once known
        if command is None:  # Macro.command, inlined (once per macro of a new block)
            seps = macro.seps
            command = text[macro.start + 2 : seps[0] if seps else macro.end - 2]
            if not command.isalnum():  # an alphanumeric text has no white space to trim (mypyc: native)
                command = command.strip(JS_WHITESPACE)
            macro._command = command
        if not command:
            return text[macro.start : macro.end]
        entry = self.dispatch.get(command)  # the built-in and its plain entry: one look-up
        # Any, not Renderer: a custom renderer may return anything (handled below), and in the mypyc build a
        # Renderer's call would check its result for ``str | None``
        renderer: Any
        plain: PlainEntry | None
        if entry is not None:
            renderer, plain = entry
        else:
            renderer = self.custom.get(command)
            plain = None if renderer is None else PLAIN_RENDERERS.get(renderer)  # read only for a custom macro
        if renderer is not None:
            if self.trace is not None and command not in REPLAYABLE:
                self.trace = None  # it reads more than the variables (the runtime, the tools, the stack)
            if plain is not None and self.depth < self.max_depth:
                done = self._render_plain(macro, plain)
                if done is not None:
                    return done
            reads = command in _READERS
            if self.work > MAX_BLOCK_WORK and not reads:
                return self._too_much_work(macro, command)
            self.depth += 1
            try:
                if self.depth > MAX_DEPTH:
                    raise JsRangeError("Maximum call stack size exceeded")
                result = renderer(MacroContext(self, macro, command))
                if isinstance(result, str):
                    size = len(result)
                    if size * 2 > MAX_BLOCK_LENGTH or size * 2 > MAX_STRING_LENGTH:
                        check_length(result)
                    if not reads:
                        self.work += size
            except RecursionError:
                return self._failed(macro, command, "Maximum call stack size exceeded")
            except _WorkExhausted:
                return self._too_much_work(macro, command)
            except ExpansionTooLong as error:
                self.work += error.args[0] if error.args and isinstance(error.args[0], int) else MAX_BLOCK_LENGTH
                return self._too_long(macro, command)
            except Exception as failure:  # a renderer's failure is a diagnostic (§3.2 step 4)
                return self._failed(macro, command, str(failure))
            finally:
                self.depth -= 1
            if type(result) is str:
                return result
            if result is None:
                self._unresolved(macro)
                return text[macro.start : macro.end]
            return result if isinstance(result, str) else _result_text(result)
        value = lookup(command, self.store, self.static, "any")  # self.read, inlined: every unknown macro
        if self.trace is not None:
            self.trace.reads.append((command, "any", value))
        if value is not _MISSING:
            return value if type(value) is str else to_macro_text(value)
        self._unresolved(macro)
        return text[macro.start : macro.end]

    def _read_plain(self, name: str, scope: str) -> str | None:
        """The value of ``{{getvar::name}}`` (or its scoped twins) for :meth:`_render_plain` and
        :meth:`_render_plain_pieces`: the read recorded in the trace, None for a value the generic path
        must render (not a string, or one near a length limit) before anything is recorded."""
        value = lookup(name, self.store, self.static, scope)  # type: ignore[arg-type]
        if value is _MISSING:
            result = ""
        elif type(value) is str:
            result = value
            if len(result) * 2 > self.limit:  # past V8's length or forgec's cap: the generic path fails it
                return None
        else:
            return None
        if self.trace is not None:
            self.trace.reads.append((name, scope, value))
        return result

    def _write_plain(self, scope: str, transform: Callable[[str], str] | None, args: list[str]) -> str | None:
        """A filter's result, or a ``setvar``'s write (``""``), from the plain ``args`` :meth:`_render_plain`
        and :meth:`_render_plain_pieces` read; :data:`_NO_NAME` for a ``setvar`` with no name (each caller
        records its unresolved macro its own way), None for what the generic path must render."""
        if transform is not None:  # a filter
            result = transform(args[0] if args else "")
            size = len(result)
            if size * 2 > self.limit:
                return None
            self.work += size
            return result
        count = len(args)
        first = args[0] if count else ""
        if not first.isalnum():  # the usual name needs no trim (an alphanumeric text has no white space)
            first = first.strip(JS_WHITESPACE)
        start = 1
        if not scope:  # setvar: [turn|session::]name::value
            if first in ("turn", "session"):
                scope = first
                first = args[1].strip(JS_WHITESPACE) if count > 1 else ""
                start = 2
            else:
                scope = "turn"
        if not first:
            return _NO_NAME
        if start >= count:
            value = ""
        elif count - start == 1:
            value = args[start]
        else:
            value = "::".join(args[start:])
        if len(value) * 2 > self.limit:
            return None
        self.write(scope, first, value)
        return ""

    def _render_plain(self, macro: Macro, plain: PlainEntry) -> str | None:
        """A variable or filter built-in whose arguments are plain text, rendered without a render context.

        A first-sight block (a stack file no call read before) cannot be replayed, and the generic
        path's render context, renderer call and lazy argument look-ups cost more than the work of a
        ``{{getvar::name}}``.  This does exactly what the built-in does through the generic path
        (:mod:`.builtins`: ``_get_in``, ``_setvar``, ``_set_in``, the filters), for the arguments it
        uses when each is one text piece: the same reads and writes (recorded in the trace alike), the
        same unresolved macro for an empty name, the same work counted.  Whatever could fail or needs
        more (a nested macro in a used argument, a value that is not a string, a string near a length
        limit, the work cap reached) returns None *before anything is read or written*, and the generic
        path renders the macro as always.  The caller has checked the nesting depth.
        """
        kind, scope, transform = plain
        parts = macro.parts
        last = len(parts) - 1  # the last argument's index in parts (the command is parts[0])
        if kind == "get":
            if last < 1:
                name = ""
            else:
                nodes = parts[1]
                if not nodes:
                    name = ""
                elif len(nodes) == 1 and type(nodes[0]) is str:
                    name = nodes[0]
                    if not name.isalnum():  # the usual name needs no trim
                        name = name.strip(JS_WHITESPACE)
                else:
                    return None
            if not name:
                self._unresolved(macro)
                return self.text[macro.start : macro.end]
            return self._read_plain(name, scope)
        if self.work > self.work_cap:
            return None
        args: list[str] = []
        used = last if kind == "set" else min(last, 1)  # a filter uses its first argument only
        for index in range(1, used + 1):
            nodes = parts[index]
            if not nodes:
                args.append("")
            elif len(nodes) == 1 and type(nodes[0]) is str:
                args.append(nodes[0] if index < last else nodes[0].rstrip(JS_WHITESPACE))
            else:
                return None
        result = self._write_plain(scope, transform, args)
        if result is _NO_NAME:
            self._unresolved(macro)
            return self.text[macro.start : macro.end]
        return result

    # --- a first sight: the top level from its spans (expand_first_sight) --------------------------

    def expand_spans(self, spans: list[str | Span]) -> str:
        """:meth:`expand_nodes` over :func:`.grammar.scan_top_level`'s top level: the same pieces, measured,
        counted and joined the same way, each macro rendered by :meth:`render_span`."""
        count = len(spans)
        if count == 0:
            return ""
        node = spans[0]
        piece = node if isinstance(node, str) else self.render_span(node)
        size = len(piece)  # code points: a lower bound of UTF-16 units, at least half of them
        half = self.limit // 2  # size > half  <=>  size * 2 > limit
        if count == 1:
            if size > half:
                _check_exact(size, [piece])
            return piece
        out = [piece]
        exact = -1  # UTF-16 units, counted once the lower bound comes near a limit
        if size > half:
            exact = _check_exact(size, out)
        pending = size  # the first piece's work, counted when the second arrives
        first = True
        for node in spans:
            if first:
                first = False
                continue
            piece = node if isinstance(node, str) else self.render_span(node)
            out.append(piece)
            length = len(piece)
            self.work += length + pending
            pending = 0
            if exact >= 0:
                exact += js_len(piece)
                check_units(exact)
            else:
                size += length
                if size > half:  # near a limit: measure exactly, before anything is joined
                    exact = _check_exact(size, out)
        return _joined(out)

    def render_span(self, span: Span) -> str:
        """:meth:`render` for a top-level macro of a first sight, given by its offsets (:data:`.grammar.Span`).

        A macro with macros inside is parsed on its own and rendered by :meth:`render`.  A flat one is
        read from its text: its inside is one segment, so its parts are the pieces between its ``::``,
        each one text piece (or none); the command, an unknown macro's variable and the plain built-ins
        (:meth:`_render_plain_pieces`) are done here as :meth:`render` does them, and anything else gets
        the parser's very :class:`Macro` and :meth:`render`.  Traced as :meth:`render` traces (a second sight
        is recorded): the reads of a variable, the writes, and the end of the recording at a built-in that
        is not :data:`.replay.REPLAYABLE`.

        A flat macro's pieces are found with ``str.find`` from its first ``::`` on (``split`` cuts at the
        same leftmost, non-overlapping ``::``), not split into a list: the command and a ``getvar``'s name
        are two slices, an unknown macro needs no more than its command, and only a ``setvar`` or a
        generic renderer splits its arguments.
        """
        start, end, flat = span
        text = self.text
        cut = -1  # a flat macro's first "::" (-1: none, the command alone)
        if flat:
            cut = text.find("::", start + 2, end - 2)
            command = text[start + 2 : end - 2 if cut < 0 else cut]
            if not command.isalnum():  # an alphanumeric text has no white space to trim (mypyc: native)
                command = command.strip(JS_WHITESPACE)
        else:
            # the command is the text up to the macro's first "::"; when that comes before the first inner
            # "{{" it is the first segment's (no "}}" there: it would have closed the macro), else the parse's
            cut = text.find("::", start + 2, text.find("{{", start + 2))
            if cut < 0:
                return self.render(parse_macro_at(text, start, end))
            command = text[start + 2 : cut]
            if not command.isalnum():
                command = command.strip(JS_WHITESPACE)
        if not command:
            return text[start:end]
        entry = self.dispatch.get(command)  # the built-in and its plain entry: one look-up
        renderer: Renderer | None = None
        plain: PlainEntry | None = None
        if entry is not None:
            renderer, plain = entry
        elif self.custom:  # no look-up in an empty table (no custom macros: the usual case)
            renderer = self.custom.get(command)
            if renderer is not None:
                plain = PLAIN_RENDERERS.get(renderer)
        if renderer is not None:
            if not flat:  # its arguments hold macros: the parser's macro, rendered as always
                return self.render(parse_macro_at(text, start, end))
            if self.trace is not None and command not in REPLAYABLE:
                self.trace = None  # as render(): it reads more than the variables
            if plain is not None and self.depth < self.max_depth:
                if plain[0] == "get":  # here, not in _render_plain_pieces: one call less for the usual macro
                    # the name is the first argument, whatever follows it
                    if cut < 0:
                        name = ""
                    else:
                        after = text.find("::", cut + 2, end - 2)
                        name = text[cut + 2 : end - 2 if after < 0 else after]
                        if not name.isalnum():  # the usual name needs no trim
                            name = name.strip(JS_WHITESPACE)
                    if not name:
                        self._unresolved_span(start, end)
                        return text[start:end]
                    done = self._read_plain(name, plain[1])
                else:
                    done = self._render_plain_pieces(start, end, cut, plain)
                if done is not None:
                    return done
            return self.render(_flat_macro(text, start, end, None if cut < 0 else text[start + 2 : end - 2].split("::")))
        value = lookup(command, self.store, self.static, "any")
        if self.trace is not None:  # as render() records it (a second sight is traced)
            self.trace.reads.append((command, "any", value))
        if value is not _MISSING:
            return value if type(value) is str else to_macro_text(value)
        if flat and cut < 0:  # the trimmed inside is the command: no second slice
            self.unresolved.setdefault(command, (start, end))
        else:
            self._unresolved_span(start, end)
        return text[start:end]

    def _unresolved_span(self, start: int, end: int) -> None:
        """:meth:`_unresolved` for a top-level macro of a first sight: its offsets kept, not a :class:`Macro`
        (:meth:`report_unresolved` makes its finding afresh: a first sight keeps no parse to hold it)."""
        text = self.text
        expression = text[start + 2 : end - 2]
        # compiled, no trim when both ends are printable ASCII (no JS_WHITESPACE character is): two inline
        # character reads instead of ``strip`` with an argument (a generic call, ~500 instructions); as
        # Python the reads cost more than the strip, which is then made
        if not (NATIVE_TRIM and 32 < ord(text[start + 2]) < 127 and 32 < ord(text[end - 3]) < 127):
            expression = expression.strip(JS_WHITESPACE)
        self.unresolved.setdefault(expression, (start, end))

    def _render_plain_pieces(self, start: int, end: int, cut: int,
                             plain: PlainEntry) -> str | None:
        """:meth:`_render_plain` for a flat ``setvar`` or filter (:meth:`render_span` reads a ``getvar`` itself)
        whose first ``::`` is at ``cut`` (-1: none, the command alone): its parts are the pieces between its
        ``::``, each one text piece or empty, so nothing falls back for a nested macro; the rest -- writes,
        results, work, the None before any of them -- is :meth:`_render_plain`'s, through the same
        :meth:`_write_plain`.  The pieces are sliced at the ``::`` ``str.find`` gives (``split``'s cuts), the
        last argument ending at the macro's ``}}``."""
        kind, scope, transform = plain
        text = self.text
        inner_end = end - 2
        if self.work > self.work_cap:
            return None
        args: list[str]
        if cut < 0:
            args = []
        elif kind == "set":  # every argument, the last one without its trailing white space
            args = text[cut + 2 : inner_end].split("::")
            tail = args[-1]  # it ends where the macro's inside does: its last character is text[inner_end - 1]
            if not (NATIVE_TRIM and 32 < ord(text[inner_end - 1]) < 127) and not tail[-1:].isalnum():
                args[-1] = tail.rstrip(JS_WHITESPACE)  # (compiled: printable ASCII, read inline, is no white space)
        else:  # a filter uses its first argument only (trimmed at the end when it is the last)
            after = text.find("::", cut + 2, inner_end)
            if after < 0:
                arg = text[cut + 2 : inner_end]
                # no white space to trim after a letter or digit, nor (compiled, read inline) printable ASCII
                if not (NATIVE_TRIM and 32 < ord(text[inner_end - 1]) < 127) and not arg[-1:].isalnum():
                    arg = arg.rstrip(JS_WHITESPACE)
            else:
                arg = text[cut + 2 : after]
            args = [arg]
        result = self._write_plain(scope, transform, args)
        if result is _NO_NAME:
            self._unresolved_span(start, end)
            return text[start:end]
        return result

    def _failed(self, macro: Macro, command: str, detail: str, code: str = MACRO_FAILED) -> str:
        """Record ``Macro {{command}} failed: detail`` and keep the macro's text, as pi-forge does."""
        self.trace = None  # a failure may depend on more than the text (recursion, the caps)
        self.diagnostics.append(
            Diagnostic(
                "error",
                f"Macro {{{{{command}}}}} failed: {detail}",
                code,
                item_id=self.item_id,
                pointer=self.pointer,
                offset=macro.start,
                length=macro.end - macro.start,
            )
        )
        return macro.full(self.text)

    def _too_long(self, macro: Macro, command: str) -> str:
        """forgec's cap crossed inside ``macro``: fail it like V8's overflow, with forgec's own finding."""
        detail = (
            f"a string it builds would be longer than forgec's limit of {MAX_BLOCK_LENGTH} UTF-16 units "
            f"per block (a deliberate deviation; pi-forge allows {MAX_STRING_LENGTH})."
        )
        return self._failed(macro, command, detail, EXPANSION_TOO_LONG)

    def _too_much_work(self, macro: Macro, command: str) -> str:
        """The block's macros have built more than forgec's work cap: fail every later one at once."""
        detail = (
            f"the macros of this block have built more than forgec's limit of {MAX_BLOCK_WORK} characters "
            "(a deliberate deviation: strings near the length limit built again and again)."
        )
        return self._failed(macro, command, detail, EXPANSION_TOO_LONG)

    def _unresolved(self, macro: Macro) -> None:
        expression = macro._expression  # memoised on the (cached) AST: no call once known
        if expression is None:  # Macro.expression, inlined
            expression = macro._expression = self.text[macro.start + 2 : macro.end - 2].strip(JS_WHITESPACE)
        self.unresolved.setdefault(expression, macro)  # the first completed occurrence: one look-up

    def report_unresolved(self) -> None:
        """§3.4: one diagnostic per distinct expression, in first-completion order, per the policy."""
        if not self.unresolved:
            return
        policy = unresolved_policy(self.stack)
        if policy == "keep":
            return
        level = "error" if policy == "error" else "warning"
        diagnostics = self.diagnostics  # its append called by name: a list primitive in the mypyc build
        native = _NATIVE_FINDINGS  # read once, not once a finding
        code = _UNRESOLVED_CODE
        for expression, macro in self.unresolved.items():
            if isinstance(macro, Macro):
                diagnostics.append(unresolved_diagnostic(macro, expression, level, self.item_id, self.pointer))
            else:  # a first sight's: unresolved_diagnostic's new finding, with no parse to keep it on
                start, end = macro
                message = f"Unresolved macro: {{{{{expression}}}}}"
                if native:  # POSITIONED itself, called natively in the mypyc build
                    found = native_make(level, message, code, self.item_id, self.pointer,  # type: ignore[arg-type]
                                        start, end - start)
                else:
                    found = POSITIONED(level, message, code, self.item_id, self.pointer,  # type: ignore[arg-type]
                                       start, end - start)
                diagnostics.append(found)


def unresolved_diagnostic(macro: Macro, expression: str, level: str, item_id: Any, pointer: tuple[Any, ...] | None) -> Diagnostic:
    """§3.4's finding for ``macro`` (the first completed occurrence of ``expression``).

    A :class:`Diagnostic` is immutable, and making one costs more than expanding a small macro, so
    the finding is kept on the (cached) parsed macro and handed out again while the block it is
    reported for is the same: same level, same item id, same pointer.  Only string (or absent) ids
    are kept, since ``1 == True`` in Python but not in the JSON printed (any other raw id gets a new
    finding each time); pointers are compared with their elements' types.  Everything else in it
    comes from the macro.
    """
    memo = macro._report
    if (
        memo is not None
        and memo[0] == level
        and memo[1] == item_id  # a str or None: equal only to the same kind
        and _same_pointer(memo[2], pointer)
    ):
        found: Diagnostic = memo[3]
        return found
    # the same finding without the dataclass's __init__ (diagnostics/quick.py; its fallback calls it)
    message = f"Unresolved macro: {{{{{expression}}}}}"
    diagnostic: Diagnostic  # native_make answers Any (no result check in its compiled body): checked here
    if NATIVE_POSITIONED:  # POSITIONED itself, called natively in the mypyc build
        diagnostic = native_make(level, message, UNRESOLVED_MACRO, item_id, pointer,  # type: ignore[arg-type]
                                 macro.start, macro.end - macro.start)
    else:
        diagnostic = POSITIONED(level, message, UNRESOLVED_MACRO, item_id, pointer,  # type: ignore[arg-type]
                                macro.start, macro.end - macro.start)
    if item_id is None or type(item_id) is str:
        macro._report = (level, item_id, pointer, diagnostic)
    return diagnostic


def _flat_macro(text: str, start: int, end: int, pieces: list[str] | None) -> Macro:
    """The :class:`Macro` the parser makes for the flat macro ``text[start:end]``, given the ``pieces``
    between its ``::`` (None: it has none): one part per piece (a text piece, or none for an empty one), the
    separators' offsets."""
    if pieces is None:
        inside = text[start + 2 : end - 2]
        return Macro(start, end, [[inside] if inside else []], [])
    parts: list[list[Node]] = []
    seps: list[int] = []
    pos = start + 2
    for piece in pieces:
        if parts:
            seps.append(pos)
            pos += 2
        parts.append([piece] if piece else [])
        pos += len(piece)
    return Macro(start, end, parts, seps)


def _same_pointer(a: tuple[Any, ...] | None, b: tuple[Any, ...] | None) -> bool:
    """Equal pointers, element types included (``("items", 1)`` is not ``("items", True)``)."""
    if a is b:
        return True
    if a is None or b is None:
        return False
    return a == b and tuple(map(type, a)) == tuple(map(type, b))


def _joined(pieces: list[str]) -> str:
    """The tail :meth:`Session.expand_nodes` and :meth:`Session.expand_spans` share, once per call (not per
    piece): the measured pieces joined.  Their per-piece loops stay two, one over the parse's nodes and one
    over the scan's spans: one loop over a union of the two lists lost mypyc's native list operations
    (~3 % of a new block compiled, stop 28)."""
    text = "".join(pieces)
    if text.isascii():
        return text
    return js_concat(pieces)  # halves of a surrogate pair that meet here form the character


def _check_exact(size: int, parts: list[str]) -> int:
    """``parts`` hold ``size`` code points, past half the limit: fail them, or return their exact UTF-16 units."""
    if size > string_limit():  # the lower bound is past the limit already
        check_units(size)
    exact = 0
    for part in parts:
        exact += js_len(part)
    check_units(exact)
    return exact


def _result_text(result: Any) -> str:
    """A custom renderer returned a non-string: JavaScript would interpolate it with ``String()``."""
    from forgec.js.values import js_string

    return check_length(js_string(result))


def unresolved_policy(stack: Any) -> str:
    """``defaults.unresolvedMacroPolicy`` read leniently: ``keep``/``error`` exactly, else ``warn``."""
    defaults = stack.get("defaults") if isinstance(stack, dict) else None
    if not isinstance(defaults, dict):  # the usual stack: no comparisons of None (generic ones, compiled)
        return "warn"
    value = defaults.get("unresolvedMacroPolicy")
    return value if value in ("keep", "error") else "warn"


def ensure_recursion_headroom() -> None:
    """Allow :data:`MAX_DEPTH` nested macros in CPython (3.11 frames do not use the C stack)."""
    needed = MAX_DEPTH * _FRAMES_PER_LEVEL + 1_000
    if sys.getrecursionlimit() < needed:
        sys.setrecursionlimit(needed)


def expand_first_sight(text: str, spans: list[str | Span], item_id: Any, stack: dict[str, Any], runtime: Runtime,
                       store: VariableStore | None, diagnostics: list[Diagnostic], selected_tools: list[str],
                       builtins: dict[str, Renderer], custom: dict[str, Any], pointer: tuple[Any, ...] | None,
                       trace: Trace | None) -> tuple[str, Trace | None]:
    """:func:`expand_session` for a block never recorded (its first or second sight), from
    :func:`.grammar.scan_top_level`'s ``spans`` instead of its whole parse: the block's output, its
    unresolved-macro findings appended, and the trace (``trace`` given: a second sight) the session kept.

    A first sight is neither recorded nor kept parsed (the caches keep a text from its second sight on),
    so its parse would be made, walked once and freed: seven ``Macro`` objects, their lists and the
    parser's frames for the benchmark's block, for macros most of which are a variable or a filter over
    plain text.  A second sight is recorded, and then replayed: it needs no parse either (the parse cache
    gets it only when the recording fails, :func:`forgec.compile.macros.block.expand_block`).
    :meth:`Session.render_span` renders those from their text and parses only the macros
    with macros inside; output, findings, writes, the trace and their order are :func:`expand_session`'s
    (``tests/compile/macros/test_first_sight.py`` compares the two)."""
    session = Session(
        text,
        item_id=item_id,
        stack=stack,
        runtime=runtime,
        store=store,
        diagnostics=diagnostics,
        selected_tools=list(selected_tools),
        builtins=builtins,
        custom=custom,
        pointer=pointer,
    )
    session.trace = trace
    # ensure_recursion_headroom, inlined, with the session's MAX_DEPTH (one globals look-up less, compiled)
    if _recursion_limit() < session.max_depth * _FRAMES_PER_LEVEL + 1_000:
        ensure_recursion_headroom()
    try:
        result = session.expand_spans(spans)
    except (JsRangeError, ExpansionTooLong):
        result = session._block_too_long()
    if session.unresolved:
        session.report_unresolved()
    return result, session.trace


def expand_session(text: str, doc: tuple[Node, ...], item_id: Any, stack: dict[str, Any], runtime: Runtime,
                   store: VariableStore | None, diagnostics: list[Diagnostic], selected_tools: list[str],
                   builtins: dict[str, Renderer], custom: dict[str, Any], pointer: tuple[Any, ...] | None,
                   trace: Trace | None) -> tuple[str, Trace | None]:
    """One block's session from start to end (:func:`forgec.compile.macros.block.expand_block`'s engine part):
    the block's output, with its unresolved-macro findings appended, and the trace the session kept
    (``trace`` given, None once the session stopped recording).

    One call with its arguments by position: when the package imported this module lazily its calls
    were generic calls into it, and in the mypyc build a keyword call into the native ``Session``
    matched its ten keyword names one by one, with four more generic calls for the trace, the walk and
    the findings; made here they are native calls (~15,000 instructions a block less, compiled)."""
    if _recursion_limit() < MAX_DEPTH * _FRAMES_PER_LEVEL + 1_000:  # ensure_recursion_headroom, inlined
        ensure_recursion_headroom()
    session = Session(
        text,
        item_id=item_id,
        stack=stack,
        runtime=runtime,
        store=store,
        diagnostics=diagnostics,
        selected_tools=list(selected_tools),
        builtins=builtins,
        custom=custom,
        pointer=pointer,
    )
    session.trace = trace
    try:  # Session.expand_block, inlined (one frame less a block)
        result = session.expand_nodes(doc)
    except (JsRangeError, ExpansionTooLong):
        result = session._block_too_long()
    if session.unresolved:  # most blocks have no unresolved macro: no call
        session.report_unresolved()
    return result, session.trace


#: whether this module runs compiled (mypyc): :meth:`Session._unresolved_span` then reads an expression's two
#: end characters (``ord(text[i])``, inline) to skip its trim; as Python those reads cost more than ``strip``
NATIVE_TRIM: Final = is_compiled(check_units)
