"""Every built-in macro, in one table (compile-core.md §3.5, §16.9, §16.13).

Each renderer takes a :class:`~forgec.compile.macros.engine.MacroContext` and returns the output text, or
``None`` for "returns nothing" (the macro stays in the text and is reported as unresolved).  All
built-ins ignore surplus arguments.  :data:`BUILTIN_MACROS` also carries the argument shapes that
``forgec validate`` checks (:mod:`forgec.compile.macros.lint`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from forgec.compile.macros import engine
from forgec.compile.macros.casemap import js_lower, js_upper
from forgec.compile.macros.engine import MacroContext, check_length, check_units
from forgec.js.values import UNDEFINED, js_len, js_string, js_trim, json_quote
from forgec.model import BUILTIN_MACRO_ARGS
from forgec.model.variables import MISSING, to_macro_text

__all__ = ["BUILTIN_MACROS", "BUILTIN_RENDERERS", "BuiltinMacro", "escape_xml", "local_date", "local_time"]

_SCOPES = ("turn", "session")


# --- helpers (§6.14) ----------------------------------------------------------------------------


def escape_xml(text: str) -> str:
    """``&``, ``<``, ``>``, ``"``, ``'`` escaped in that order; nothing else."""
    if len(text) * 6 > engine.string_limit():  # may not fit: measure before building
        grow = 4 * text.count("&") + 3 * (text.count("<") + text.count(">")) + 5 * (text.count('"') + text.count("'"))
        check_units(js_len(text) + grow)
    return (
        text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;").replace("'", "&apos;")
    )


def local_date(now_ms: int, time_zone: str) -> str:
    """``YYYY-MM-DD`` in the runtime's zone (year unpadded, month and day two digits)."""
    from forgec.compile.slots.helpers import format_local_date

    return format_local_date(now_ms, time_zone)


def local_time(now_ms: int, time_zone: str) -> str:
    """``HH:MM:SS``, 24-hour, in the runtime's zone."""
    from forgec.compile.slots.helpers import format_local_time

    return format_local_time(now_ms, time_zone)


# --- value macros -------------------------------------------------------------------------------


def _cwd(ctx: MacroContext) -> str | None:
    value = ctx.runtime.options.get("cwd") if isinstance(ctx.runtime.options, dict) else None
    if value is None:
        return None
    return value if isinstance(value, str) else js_string(value)


def _date(ctx: MacroContext) -> str:
    return local_date(ctx.runtime.now_ms, ctx.runtime.time_zone)


def _time(ctx: MacroContext) -> str:
    return local_time(ctx.runtime.now_ms, ctx.runtime.time_zone)


def _last_user_message(ctx: MacroContext) -> str:
    value = ctx.runtime.latest_user_message
    return value if isinstance(value, str) else ""


def _selected_tools(ctx: MacroContext) -> str:
    return check_length(", ".join(ctx.selected_tools))


def _active_model(ctx: MacroContext) -> str:
    model = ctx.runtime.model
    if model is None:
        return ""
    if not isinstance(model, dict):
        return "undefined/undefined"
    return f"{js_string(model.get('provider', UNDEFINED))}/{js_string(model.get('id', UNDEFINED))}"


# --- variables (§4) -----------------------------------------------------------------------------


def _scoped_name(ctx: MacroContext) -> tuple[str, str, int]:
    """``setvar``/``clearvar`` scope detection: ``(scope, name, first value index)``."""
    first = ctx.name_arg(0)
    if first in _SCOPES:
        return first, ctx.name_arg(1), 2
    return "turn", first, 1


def _store_set(ctx: MacroContext, scope: str, name: str, value: str) -> None:
    ctx._session.write(scope, name, value)


def _store_clear(ctx: MacroContext, scope: str, name: str) -> None:
    ctx._session.write(scope, name, None)


def _setvar(ctx: MacroContext) -> str | None:
    scope, name, start = _scoped_name(ctx)
    if not name:
        return None
    _store_set(ctx, scope, name, ctx.expand_joined_args(start))
    return ""


def _set_in(scope: str) -> Callable[[MacroContext], str | None]:
    def render(ctx: MacroContext) -> str | None:
        name = ctx.name_arg(0)
        if not name:
            return None
        _store_set(ctx, scope, name, ctx.expand_joined_args(1))
        return ""

    return render


def _clearvar(ctx: MacroContext) -> str | None:
    scope, name, _start = _scoped_name(ctx)
    if not name:
        return None
    _store_clear(ctx, scope, name)
    return ""


def _clear_in(scope: str) -> Callable[[MacroContext], str | None]:
    def render(ctx: MacroContext) -> str | None:
        name = ctx.name_arg(0)
        if not name:
            return None
        _store_clear(ctx, scope, name)
        return ""

    return render


def _get_in(scope: str) -> Callable[[MacroContext], str | None]:
    def render(ctx: MacroContext) -> str | None:
        name = ctx.name_arg(0)
        if not name:
            return None
        return to_macro_text(ctx._session.read(name, scope))

    return render


# --- filters ------------------------------------------------------------------------------------


def _trim(ctx: MacroContext) -> str:
    return js_trim(ctx.expand_arg(0))


def _upper(ctx: MacroContext) -> str:
    return js_upper(ctx.expand_arg(0))


def _lower(ctx: MacroContext) -> str:
    return js_lower(ctx.expand_arg(0))


_CONTROL_BYTES = bytes(range(32))
_SHORT_ESCAPES = b"\b\f\n\r\t"
_CONTROL = re.compile(r"[\x00-\x1f\ud800-\udfff]")


def _has_control(value: str) -> bool:
    """Whether ``value`` holds a C0 control or a surrogate (what needs a ``\\u`` escape).

    ``isascii() and isprintable()`` answers "no" in C for the usual text; the regular expression
    only runs when that is not enough (a big string is scanned once, not twice)."""
    if value.isascii() and value.isprintable():
        return False
    return _CONTROL.search(value) is not None


def _json(ctx: MacroContext) -> str:
    value = ctx.expand_arg(0)
    if len(value) * 6 + 2 > engine.string_limit():  # may not fit: measure before building
        size = js_len(value) + 2 + value.count('"') + value.count("\\")
        if value.isascii():  # bytes.translate counts the controls in C, in two passes
            raw = value.encode("ascii")
            controls = len(raw) - len(raw.translate(None, _CONTROL_BYTES))
            if controls:
                short = len(raw) - len(raw.translate(None, _SHORT_ESCAPES))
                size += short + 5 * (controls - short)
        elif _has_control(value):
            size += sum(value.count(c) * (1 if c in "\b\f\n\r\t" else 5) for c in map(chr, range(32)))
        check_units(size)
    return json_quote(value)


def _xml(ctx: MacroContext) -> str:
    return escape_xml(ctx.expand_arg(0))


# --- conditionals (lazy: only the chosen branch is expanded) -------------------------------------


def _branch(ctx: MacroContext, condition: bool, then_index: int) -> str:
    return ctx.expand_arg(then_index if condition else then_index + 1)


def _ifvar(ctx: MacroContext) -> str | None:
    name = ctx.name_arg(0)
    if not name:
        return None
    return _branch(ctx, ctx._session.read(name) is not MISSING, 1)


def _ifeq(ctx: MacroContext) -> str | None:
    name = ctx.name_arg(0)  # expanded first, side effects included (§16.13)
    if not name or ctx.arg_count < 2:
        return None
    value = ctx._session.read(name)  # read before argument 1 is expanded
    expected = ctx.expand_arg(1)
    return _branch(ctx, value is not MISSING and to_macro_text(value) == expected, 2)


def _iftools(ctx: MacroContext) -> str | None:
    name = ctx.name_arg(0)
    if not name:
        return None
    return _branch(ctx, name in ctx.selected_tools, 1)


def _ifslot(ctx: MacroContext) -> str | None:
    name = ctx.name_arg(0)
    if not name:
        return None
    items = ctx.stack.get("items") if isinstance(ctx.stack, dict) else None
    found = isinstance(items, list) and any(
        isinstance(item, dict)
        and item.get("kind") == "slot"
        and item.get("enabled") is not False
        and isinstance(item.get("slot"), str)
        and item.get("slot") == name
        for item in items
    )
    return _branch(ctx, found, 1)


# --- the table ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BuiltinMacro:
    """A built-in: its renderer and the argument shape ``forgec validate`` checks.

    ``min_args``: fewer raw arguments leave the macro unresolved; ``max_args``: later ones are
    ignored (``None`` = all are used).
    """

    name: str
    render: Callable[[MacroContext], str | None]
    kind: str
    min_args: int = 0
    max_args: int | None = 0
    summary: str = ""


def _builtin(name: str, render: Callable[[MacroContext], str | None], kind: str, summary: str) -> BuiltinMacro:
    """A row of the table, its argument shape read from :data:`forgec.model.BUILTIN_MACRO_ARGS`, the one
    place the shapes are written (``forgec validate``'s macro lint reads them there without importing
    this module and the engine)."""
    least, most = BUILTIN_MACRO_ARGS[name]
    return BuiltinMacro(name, render, kind, least, most, summary)


_TABLE: tuple[BuiltinMacro, ...] = (
    _builtin("cwd", _cwd, "value", "Pi's working directory"),
    _builtin("date", _date, "value", "local date YYYY-MM-DD"),
    _builtin("time", _time, "value", "local time HH:MM:SS"),
    _builtin("lastUserMessage", _last_user_message, "value", "the latest user message"),
    _builtin("selectedTools", _selected_tools, "value", "selected tools, comma separated"),
    _builtin("tools", _selected_tools, "value", "selected tools, comma separated"),
    _builtin("activeModel", _active_model, "value", "provider/id of the model"),
    _builtin("setvar", _setvar, "set", "set a variable ([turn|session::]name::value)"),
    _builtin("setturnvar", _set_in("turn"), "set", "set a turn variable"),
    _builtin("setsessionvar", _set_in("session"), "set", "set a session variable"),
    _builtin("getvar", _get_in("any"), "get", "a variable's value, empty if missing"),
    _builtin("var", _get_in("any"), "get", "a variable's value, empty if missing"),
    _builtin("getturnvar", _get_in("turn"), "get", "a turn variable's value"),
    _builtin("getsessionvar", _get_in("session"), "get", "a session variable's value"),
    _builtin("clearvar", _clearvar, "clear", "remove a variable ([turn|session::]name)"),
    _builtin("clearturnvar", _clear_in("turn"), "clear", "remove a turn variable"),
    _builtin("clearsessionvar", _clear_in("session"), "clear", "remove a session variable"),
    _builtin("trim", _trim, "filter", "JavaScript trim"),
    _builtin("upper", _upper, "filter", "upper case"),
    _builtin("lower", _lower, "filter", "lower case"),
    _builtin("json", _json, "filter", "a JSON string literal"),
    _builtin("xml", _xml, "filter", "XML-escaped text"),
    _builtin("ifvar", _ifvar, "if", "branch on a variable's existence"),
    _builtin("ifeq", _ifeq, "if", "branch on a variable's value"),
    _builtin("iftools", _iftools, "if", "branch on a selected tool"),
    _builtin("ifslot", _ifslot, "if", "branch on an enabled slot"),
)

#: name -> definition, in pi-forge's registration order
BUILTIN_MACROS: dict[str, BuiltinMacro] = {m.name: m for m in _TABLE}
#: name -> renderer (what the engine dispatches on)
BUILTIN_RENDERERS: dict[str, Callable[[MacroContext], str | None]] = {m.name: m.render for m in _TABLE}

#: the variable and filter built-ins the engine renders directly when the arguments they use are plain
#: text (``Session._render_plain``: the same reads, writes and results as the renderers above)
engine.register_builtins(BUILTIN_RENDERERS, {
    BUILTIN_RENDERERS["getvar"]: ("get", "any", None),
    BUILTIN_RENDERERS["var"]: ("get", "any", None),
    BUILTIN_RENDERERS["getturnvar"]: ("get", "turn", None),
    BUILTIN_RENDERERS["getsessionvar"]: ("get", "session", None),
    BUILTIN_RENDERERS["setvar"]: ("set", "", None),
    BUILTIN_RENDERERS["setturnvar"]: ("set", "turn", None),
    BUILTIN_RENDERERS["setsessionvar"]: ("set", "session", None),
    BUILTIN_RENDERERS["trim"]: ("filter", "", js_trim),
    BUILTIN_RENDERERS["upper"]: ("filter", "", js_upper),
    BUILTIN_RENDERERS["lower"]: ("filter", "", js_lower),
})  # fmt: skip
