"""The runtime context file (context-format.md): reading, validating, and building the runtime.

A context file is the snapshot Pi hands pi-forge — options, base prompt, model, conversation —
written down as JSON (or YAML).  The reference runner refuses a context with an unknown field or a
value of the wrong type (so a typo never silently becomes a default, compile-core §16.15(c)); forgec
refuses it the same way, with a message that names the field; it reports every such problem at
once (FG011, each at its line and column for a file), so one edit fixes them all.
:meth:`Context.runtime` then builds the :class:`~forgec.model.runtime.Runtime` exactly as the reference runner builds pi-forge's
``PromptRuntime`` ("How the reference runner builds the runtime").

The checks are hand-written rather than delegated to ``jsonschema``: they must name the field in
plain words, and ``forgec validate`` must not pay for importing a schema engine.  The same rules are
published for editors as ``schemas/context.schema.json``; a test keeps the two in agreement.
"""

from __future__ import annotations

import copy
import difflib
import os
import re
from dataclasses import dataclass, field
from itertools import chain, compress, repeat
from operator import is_
from pathlib import PurePath
from sys import getrefcount, intern
from typing import Any, NoReturn, cast

from forgec.diagnostics import Diagnostic
from forgec.errors import InputError
from forgec.js.json import NOT_PARSED, TOO_MANY_OPENINGS, JSONParseError, loads_bytes, loads_shallow
from forgec.js.values import json_stringify
from forgec.model import THINKING_LEVELS
from forgec.model.messages import latest_user_text
from forgec.model.runtime import PI_DOCS_FALLBACK, Runtime
from forgec.model.variables import VariableStore
from forgec.rules import loader as codes
from forgec.source import MAX_FILE_BYTES, is_yaml_path, parse_source_text, read_file_bytes, read_source
from forgec.source.collector import LARGE_INPUT_CHARS, gc_paused

__all__ = [
    "DEFAULTS",
    "Context",
    "ContextError",
    "load_context",
    "parse_instant",
    "sample_context_path",
]

#: top-level defaults (context-format.md, *Top-level fields*); list/dict defaults are copied on use
DEFAULTS: dict[str, Any] = {
    "now": "2026-01-01T00:00:00Z",
    "timezone": "UTC",
    "cwd": "/home/dev/project",
    "model": None,
    "baseSystemPrompt": "",
    "appendSystemPrompt": None,
    "tools": [],
    "skills": [],
    "contextFiles": [],
    "variables": {},
    "messages": [],
}

#: every accepted top-level field, in the order the format documents them
_FIELDS: tuple[str, ...] = (
    "$comment",
    *DEFAULTS,
    "latestUserMessage",
    "finalizeMessages",
    "thinkingLevel",
)
_TOOL_FIELDS: tuple[str, ...] = ("name", "description", "snippet", "guidelines", "active", "parameters")
_FIELD_SET: frozenset[str] = frozenset(_FIELDS)
_TOOL_FIELD_SET: frozenset[str] = frozenset(_TOOL_FIELDS)
_SKILL_STRINGS: tuple[str, ...] = ("name", "description", "filePath")
_CONTEXT_FILE_STRINGS: tuple[str, ...] = ("path", "content")
_MODEL_STRINGS: tuple[str, ...] = ("provider", "id", "api")

# ISO-8601 date-time with a mandatory offset: what ``new Date(...)`` parses and the format requires
# (V8's ISO parser: ``.`` only before a fraction, ``T``/``t``/space between date and time; a date
# without a time is read only when ``Z`` follows it directly, as ``new Date("2026-01-01Z")`` is)
_INSTANT = re.compile(
    r"(?P<year>[+-]\d{6}|\d{4})-(?P<month>\d{2})-(?P<day>\d{2})"
    r"[Tt ](?P<hour>\d{2}):(?P<minute>\d{2})(?::(?P<second>\d{2})(?:\.(?P<fraction>\d+))?)?"
    r"(?P<offset>Z|[+-]\d{2}:\d{2})"
)
_DATE_ONLY_Z = re.compile(r"(?P<year>[+-]\d{6}|\d{4})(?:-(?P<month>\d{2})(?:-(?P<day>\d{2}))?)?Z")


class ContextError(InputError):
    """A context file forgec refuses.

    ``problems`` lists *every* problem found, in the order the fields are checked, as error
    :class:`~forgec.diagnostics.Diagnostic` objects (FG011 ``invalid-context`` for a rule of the
    format, the FG0xx reading code when the file could not be read), each with its ``pointer``
    and, for a file on disk, its ``span``.  ``str(error)`` and the other attributes describe the
    first problem, as they did when reading stopped there.
    """

    def __init__(
        self,
        message: str,
        *,
        path: str | None = None,
        pointer: tuple[str | int, ...] = (),
        code: str | None = None,
        position: tuple[int, int] | None = None,
        problems: list[Diagnostic] | None = None,
    ) -> None:
        self.path = path
        self.pointer = pointer
        self.detail = message
        #: the FG0xx code of a reading problem (the file does not parse, is too large…), else None
        self.code = code
        #: 1-based ``(line, column)`` of the first problem, when known
        self.position = position
        if problems is None:
            from forgec.diagnostics import Span

            span = None if position is None else Span(path or "<context>", *position, *position)
            problems = [Diagnostic("error", message, code or codes.CONTEXT_INVALID, pointer=pointer, span=span)]
        #: every problem, first one first (see the class docstring)
        self.problems: list[Diagnostic] = problems
        if code is not None:  # the diagnostic line every command prints: path:line:col: FGnnn [error] …
            line, column = position or (1, 1)
            text = f"{path or '<context>'}:{line}:{column}: {code} [error] {message}"
        else:
            text = f"{path}: {message}" if path else message
        super().__init__(text, path=path, diagnostics=problems)


# --- instants ------------------------------------------------------------------------------------


def _days_from_civil(year: int, month: int, day: int) -> int:
    """Days since 1970-01-01 in the proleptic Gregorian calendar (any year, like ECMAScript)."""
    year -= month <= 2
    era = year // 400  # floor division: the C original's ``(y >= 0 ? y : y - 399) / 400`` truncates
    yoe = year - era * 400
    doy = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + day - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


def parse_instant(text: str) -> int | None:
    """Epoch milliseconds of an ISO date-time with ``Z`` or ``±HH:MM``; None if it is not one.

    Fractions beyond milliseconds are truncated, as ``Date`` keeps millisecond precision.  As in V8,
    any day from 1 to 31 is accepted and overflows into the next month (``2026-02-30`` is March 2nd),
    since the reference runner accepts whatever ``new Date(now)`` parses.
    """
    common = _common_instant(text)
    if common is not None:
        return common
    return _any_instant(text)


#: every two-digit text and its value: one lookup both checks two ASCII digits and reads them
_TWO_DIGITS: dict[str, int] = {f"{number:02d}": number for number in range(100)}


#: ``(YYYY-MM-DDTHH:, zone)`` -> the epoch ms of that hour's start, for the hours
#: :func:`_common_instant` has read (at most :data:`_HOURS_MAX`, then it starts again)
_HOURS: dict[tuple[str, str], int] = {}
_HOURS_MAX = 4096


def _common_instant(text: str) -> int | None:
    """:func:`parse_instant` of the shape every context uses -- ``YYYY-MM-DDTHH:MM:SS`` then ``Z``
    or ``±HH:MM``, every field in range -- by fixed positions; None for anything else, which
    :func:`_any_instant` then decides (a property test compares the two on generated texts).

    A host's clock moves by seconds or minutes between turns, so the start of the hour (date, hour,
    zone: :func:`_fixed_instant` of the text with ``00:00`` for its minutes and seconds) is
    remembered, and a turn reads its minutes and seconds only (about a third of the steps)."""
    size = len(text)
    if size != 20 and size != 25:
        return None
    two = _TWO_DIGITS.get
    minute, second = two(text[14:16]), two(text[17:19])
    if minute is None or second is None or minute > 59 or second > 59 or text[16] != ":":
        return None
    key = (text[:14], text[19:])
    start = _HOURS.get(key)
    if start is None:
        start = _fixed_instant(text[:14] + "00:00" + text[19:])
        if start is None:
            return None
        if len(_HOURS) >= _HOURS_MAX:
            _HOURS.clear()
        _HOURS[key] = start
    return start + (minute * 60 + second) * 1000


def _fixed_instant(text: str) -> int | None:
    """:func:`_common_instant` read field by field (what it remembers per hour)."""
    size = len(text)
    two = _TWO_DIGITS.get
    if size == 20:
        if text[19] != "Z":
            return None
        offset_minutes = 0
    elif size == 25:
        sign = text[19]
        off_h, off_m = two(text[20:22]), two(text[23:25])
        if (sign != "+" and sign != "-") or text[22] != ":" or off_h is None or off_m is None:
            return None
        if off_h > 23 or off_m > 59:
            return None
        offset_minutes = off_h * 60 + off_m if sign == "+" else -(off_h * 60 + off_m)
    else:
        return None
    if text[10] not in "Tt " or text[13] != ":" or text[16] != ":":
        return None
    days = _DAYS.get(text[:10])
    if days is None:
        days = _date_days(text[:10])
        if days is None:
            return None
    hour, minute, second = two(text[11:13]), two(text[14:16]), two(text[17:19])
    if hour is None or minute is None or second is None or hour > 23 or minute > 59 or second > 59:
        return None
    return (days * 86400 + hour * 3600 + minute * 60 + second - offset_minutes * 60) * 1000


#: ``YYYY-MM-DD`` -> its day number, for the dates :func:`_date_days` has read: a host's clock moves
#: by seconds between turns and its date rarely, so a turn's instant reads only the time of day
_DAYS: dict[str, int] = {}


def _date_days(date: str) -> int | None:
    """Days since 1970-01-01 of a ``YYYY-MM-DD`` text (month 1-12, day 1-31), remembered in
    :data:`_DAYS` (a bounded memo); None for any other text."""
    two = _TWO_DIGITS.get
    if date[4] != "-" or date[7] != "-":
        return None
    century, year, month, day = two(date[:2]), two(date[2:4]), two(date[5:7]), two(date[8:10])
    if century is None or year is None or month is None or day is None:
        return None
    if not (1 <= month <= 12 and 1 <= day <= 31):
        return None
    days = _days_from_civil(century * 100 + year, month, day)
    if len(_DAYS) >= 4096:
        _DAYS.clear()
    _DAYS[date] = days
    return days


def _any_instant(text: str) -> int | None:
    """:func:`parse_instant` for every shape the format accepts (the regular expressions)."""
    match = _INSTANT.fullmatch(text)
    if match is None:
        date_only = _DATE_ONLY_Z.fullmatch(text)
        if date_only is None:
            return None
        year_text, month_text, day_text = date_only.groups()
        hour_text = minute_text = "00"
        second_text = fraction = None
        offset = "Z"
        month_text = month_text or "01"
        day_text = day_text or "01"
    else:
        year_text, month_text, day_text, hour_text, minute_text, second_text, fraction, offset = match.groups()
    if year_text == "-000000":
        return None
    year, month, day = int(year_text), int(month_text), int(day_text)
    hour, minute = int(hour_text), int(minute_text)
    second = int(second_text) if second_text else 0
    millis = int(fraction[:3].ljust(3, "0")) if fraction else 0
    if not (1 <= month <= 12 and 1 <= day <= 31):
        return None
    if hour == 24:
        if minute or second or millis:
            return None
    elif hour > 23 or minute > 59 or second > 59:
        return None
    offset_minutes = 0
    if offset != "Z":
        sign = -1 if offset[0] == "-" else 1
        off_h, off_m = int(offset[1:3]), int(offset[4:6])
        if off_h > 23 or off_m > 59:
            return None
        offset_minutes = sign * (off_h * 60 + off_m)
    days = _days_from_civil(year, month, day)
    seconds = days * 86400 + hour * 3600 + minute * 60 + second - offset_minutes * 60
    value = seconds * 1000 + millis
    if abs(value) > 8.64e15:  # outside ECMAScript's time range: an Invalid Date
        return None
    return value


def _zone_known(name: str) -> bool:
    if name == "UTC":
        return True
    from forgec.js.tz import find_zone

    return find_zone(name) is not None


# --- validation ----------------------------------------------------------------------------------


def _describe(value: Any) -> str:
    """A short rendering of an offending value for messages."""
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "an array"
    text = json_stringify(value) or "undefined"
    return text if len(text) <= 40 else text[:37] + "..."


def _field_name(pointer: tuple[str | int, ...]) -> str:
    out = ""
    for part in pointer:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


#: one problem found by the checks: (pointer, message, whether the position is the key's)
_Problem = tuple[tuple[str | int, ...], str, bool]


class _Checker:
    """Runs every check and collects the problems instead of stopping at the first.

    A check that finds a value of the wrong type reports it and skips the checks *inside* that
    value (a ``now`` that is not a string is not parsed; ``tools`` that is not an array is not
    walked), so one mistake is one problem.  ``problems`` stays empty for a valid context, which
    costs nothing extra: each check only appends when it fails.
    """

    __slots__ = ("problems",)

    def __init__(self) -> None:
        self.problems: list[_Problem] = []

    def fail(self, pointer: tuple[str | int, ...], message: str) -> None:
        self.problems.append((pointer, f"{_field_name(pointer)} {message}", False))

    def expect(self, ok: bool, pointer: tuple[str | int, ...], expected: str, value: Any) -> bool:
        if not ok:
            self.fail(pointer, f"must be {expected}, got {_describe(value)}")
        return ok

    def unknown_keys(
        self, obj: dict[str, Any], allowed: tuple[str, ...], where: tuple[str | int, ...]
    ) -> None:
        for key in obj:
            if key in allowed or not isinstance(key, str):  # a non-string key is reported by string_keys
                continue
            guess = difflib.get_close_matches(key, allowed, n=1)
            hint = f' (did you mean "{guess[0]}"?)' if guess else ""
            label = (
                f'unknown field "{key}"'
                if not where
                else f'{_field_name(where)} has an unknown field "{key}"'
            )
            allowed_text = ", ".join(a for a in allowed if a != "$comment")
            self.problems.append(((*where, key), f"{label}{hint}; allowed fields: {allowed_text}", True))

    def string_keys(self, obj: dict[Any, Any], pointer: tuple[str | int, ...]) -> None:
        try:
            "".join(obj)  # fails exactly when some key is not a str (the common case passes in C)
            return
        except TypeError:
            pass
        for key in obj:
            if not isinstance(key, str):
                self.fail(pointer, f"has a key that is not a string: {key!r}")

    # The checks below run for every tool, skill and message of every compile, so the pointer of
    # an entry is only built once something is wrong with it.

    def objects(self, value: Any, pointer: tuple[str | int, ...]) -> list[Any]:
        """``value`` when it is an array (its entries that are not objects reported), else ``[]``."""
        if not self.expect(isinstance(value, list), pointer, "an array of objects", value):
            return []
        for index, entry in enumerate(value):
            if not isinstance(entry, dict):
                self.fail((*pointer, index), f"must be an object, got {_describe(entry)}")
        return cast(list[Any], value)

    def string_field(self, obj: dict[str, Any], key: str, pointer: tuple[str | int, ...]) -> None:
        value = obj.get(key)
        if isinstance(value, str):
            return
        if key not in obj:
            self.fail(pointer, f'needs a string "{key}"')
        else:
            self.fail((*pointer, key), f"must be a string, got {_describe(value)}")

    def string_fields(self, obj: dict[str, Any], keys: tuple[str, ...], pointer: tuple[str | int, ...]) -> None:
        for key in keys:
            if not isinstance(obj.get(key), str):
                self.string_field(obj, key, pointer)


def _validate(data: Any, path: str | None, document: Any = None) -> tuple[str, int] | None:
    """Apply every rule of context-format.md; raise :class:`ContextError` listing every violation.

    Returns ``(now, epoch ms)`` when the context sets ``now`` (parsed here anyway), else None.
    ``document``: the :class:`~forgec.source.SourceDocument` ``data`` was read from, used only to
    give the problems their line and column.
    """
    instant: tuple[str, int] | None = None
    check = _Checker()
    if not isinstance(data, dict):
        check.problems.append(((), f"a context must be a JSON object, got {_describe(data)}", False))
        _refuse(check.problems, path, document)
    check.string_keys(data, ())
    if not _FIELD_SET.issuperset(data):
        check.unknown_keys(data, _FIELDS, ())

    if "now" in data:
        now = data["now"]
        if check.expect(
            isinstance(now, str), ("now",), 'an ISO date-time string such as "2026-03-14T09:26:53+01:00"', now
        ):
            now_ms = parse_instant(now)
            if now_ms is None:
                check.fail(
                    ("now",),
                    f"must be a date-time ending in Z or ±HH:MM (e.g. 2026-03-14T09:26:53+01:00), got {_describe(now)}",
                )
            else:
                instant = (now, now_ms)
    if "timezone" in data:
        zone = data["timezone"]
        if check.expect(
            isinstance(zone, str) and zone != "", ("timezone",), "a non-empty IANA zone name", zone
        ) and not _zone_known(zone):
            check.fail(
                ("timezone",),
                f'names no known time zone: "{zone}" (use an IANA name such as "Europe/Berlin")',
            )
    for key in ("cwd", "baseSystemPrompt"):
        if key in data:
            check.expect(isinstance(data[key], str), (key,), "a string", data[key])
    if "appendSystemPrompt" in data:
        value = data["appendSystemPrompt"]
        check.expect(
            value is None or isinstance(value, str), ("appendSystemPrompt",), "a string or null", value
        )
    if "model" in data:
        _validate_model(check, data["model"])
    if "tools" in data:
        for index, tool in enumerate(check.objects(data["tools"], ("tools",))):
            if isinstance(tool, dict):
                _validate_tool(check, tool, index)
    if "skills" in data:
        for index, skill in enumerate(check.objects(data["skills"], ("skills",))):
            if isinstance(skill, dict):
                check.string_fields(skill, _SKILL_STRINGS, ("skills", index))
    if "contextFiles" in data:
        for index, entry in enumerate(check.objects(data["contextFiles"], ("contextFiles",))):
            if isinstance(entry, dict):
                check.string_fields(entry, _CONTEXT_FILE_STRINGS, ("contextFiles", index))
    if "variables" in data and check.expect(
        isinstance(data["variables"], dict), ("variables",), "an object", data["variables"]
    ):
        check.string_keys(data["variables"], ("variables",))
    for key in ("messages", "finalizeMessages"):
        if key in data:
            check.objects(data[key], (key,))
    if "latestUserMessage" in data:
        value = data["latestUserMessage"]
        check.expect(
            value is None or isinstance(value, str), ("latestUserMessage",), "a string or null", value
        )
    if "thinkingLevel" in data:
        value = data["thinkingLevel"]
        if not (isinstance(value, str) and value in THINKING_LEVELS):
            check.expect(
                False, ("thinkingLevel",), "one of " + ", ".join(f'"{level}"' for level in THINKING_LEVELS), value
            )
    if check.problems:
        _refuse(check.problems, path, document)
    return instant


def _refuse(problems: list[_Problem], path: str | None, document: Any) -> NoReturn:
    """Raise :class:`ContextError` with every problem, positioned when ``document`` is known.

    Positions are looked up only here, so a valid context never pays for them.  A problem about a
    field that should not be there points at its key; one about a missing field, at the object
    that lacks it (:meth:`~forgec.source.SourceDocument.locate` falls back to the nearest ancestor).
    """
    diagnostics: list[Diagnostic] = []
    for pointer, message, at_key in problems:
        span = document.locate(pointer, key=at_key) if document is not None else None
        diagnostics.append(Diagnostic("error", message, codes.CONTEXT_INVALID, pointer=pointer, span=span))
    first = diagnostics[0]
    position = (first.span.line, first.span.column) if first.span is not None else None
    raise ContextError(first.message, path=path, pointer=problems[0][0], position=position, problems=diagnostics)


def _validate_model(check: _Checker, model: Any) -> None:
    if check.expect(
        model is None or isinstance(model, dict), ("model",), "null or an object {provider, id, api}", model
    ) and model is not None:
        check.string_fields(model, _MODEL_STRINGS, ("model",))


def _validate_tool(check: _Checker, tool: dict[str, Any], index: int) -> None:
    if not _TOOL_FIELD_SET.issuperset(tool):
        check.unknown_keys(tool, _TOOL_FIELDS, ("tools", index))
    if not isinstance(tool.get("name"), str):
        check.string_field(tool, "name", ("tools", index))
    if "snippet" in tool:
        value = tool["snippet"]
        if not (value is None or isinstance(value, str)):
            check.expect(False, ("tools", index, "snippet"), "a string or null", value)
    if "guidelines" in tool:
        value = tool["guidelines"]
        if check.expect(isinstance(value, list), ("tools", index, "guidelines"), "an array of strings", value):
            for position, line in enumerate(value):
                if not isinstance(line, str):
                    check.expect(False, ("tools", index, "guidelines", position), "a string", line)
    if "active" in tool and not isinstance(tool["active"], bool):
        check.expect(False, ("tools", index, "active"), "true or false", tool["active"])
    if "description" in tool and not isinstance(tool["description"], str):
        check.expect(False, ("tools", index, "description"), "a string", tool["description"])
    if "parameters" in tool and not isinstance(tool["parameters"], dict):
        check.expect(False, ("tools", index, "parameters"), "a JSON Schema object", tool["parameters"])


# --- the well-formed path: check and fill the defaults in one pass -------------------------------
#
# Nearly every context a compile reads breaks no rule.  ``_checked_with_defaults`` decides "breaks no
# rule" and builds what ``_with_defaults`` builds in the same walk, answering None at the first
# thing it does not expect; only then do ``_validate`` (every problem, in its order, with its
# pointer) and ``_with_defaults`` run.  It is stricter than ``_validate`` -- exact types only, so a
# ``str`` or ``dict`` subclass goes the slow way -- never looser: whatever it accepts, ``_validate``
# accepts (tests/codecs/test_context_fast.py compares the two on generated contexts).

_ABSENT: Any = object()
_DICT_ONLY: frozenset[type] = frozenset({dict})
_STR_ONLY: frozenset[type] = frozenset({str})


def _checked_with_defaults(data: Any) -> tuple[dict[str, Any], tuple[str, int] | None] | None:
    """``(_with_defaults(data, owned=True), now)`` for a context that breaks no rule, else None."""
    if type(data) is not dict or not _FIELD_SET.issuperset(data):
        return None
    get = data.get
    instant: tuple[str, int] | None = None
    now = get("now", _ABSENT)
    if now is _ABSENT:
        now = "2026-01-01T00:00:00Z"
    else:
        if type(now) is not str:
            return None
        now_ms = parse_instant(now)
        if now_ms is None:
            return None
        instant = (now, now_ms)
    zone = get("timezone", "UTC")
    if type(zone) is not str or not zone or not _zone_known(zone):
        return None
    cwd = get("cwd", "/home/dev/project")
    model = get("model")
    base = get("baseSystemPrompt", "")
    append = get("appendSystemPrompt")
    if type(cwd) is not str or type(base) is not str or (append is not None and type(append) is not str):
        return None
    if model is not None and (
        type(model) is not dict
        or type(model.get("provider")) is not str
        or type(model.get("id")) is not str
        or type(model.get("api")) is not str
    ):
        return None
    tools = _checked_tools(get("tools", _ABSENT))
    if tools is None:
        return None
    skills = get("skills", _ABSENT)
    if skills is _ABSENT:
        skills = []
    elif type(skills) is not list or not _all_have_strings(skills, _SKILL_STRINGS):
        return None
    files = get("contextFiles", _ABSENT)
    if files is _ABSENT:
        files = []
    elif type(files) is not list or not _all_have_strings(files, _CONTEXT_FILE_STRINGS):
        return None
    variables = get("variables", _ABSENT)
    if variables is _ABSENT:
        variables = {}
    elif type(variables) is not dict or (variables and not _STR_ONLY.issuperset(map(type, variables))):
        return None
    messages = get("messages", _ABSENT)
    if messages is _ABSENT:
        messages = []
    elif type(messages) is not list:
        return None
    else:
        for message in messages:  # a turn's few messages: a loop costs less than a map and a call
            if type(message) is not dict:
                return None
    # one display (a constant-keys build), in the order _with_defaults writes them
    out: dict[str, Any] = {
        "now": now,
        "timezone": zone,
        "cwd": cwd,
        "model": model,
        "baseSystemPrompt": base,
        "appendSystemPrompt": append,
        "tools": tools,
        "skills": skills,
        "contextFiles": files,
        "variables": variables,
        "messages": messages,
    }
    if "$comment" in data:  # first, as _with_defaults puts it
        out = {"$comment": data["$comment"], **out}
    if "latestUserMessage" in data:
        latest = data["latestUserMessage"]
        if latest is not None and type(latest) is not str:
            return None
        out["latestUserMessage"] = latest
    if "finalizeMessages" in data:
        finalize = data["finalizeMessages"]
        if type(finalize) is not list or not _DICT_ONLY.issuperset(map(type, finalize)):
            return None
        out["finalizeMessages"] = finalize
    if "thinkingLevel" in data:
        level = data["thinkingLevel"]
        if type(level) is not str or level not in THINKING_LEVELS:
            return None
        out["thinkingLevel"] = level
    return out, instant


def _all_have_strings(entries: list[Any], keys: tuple[str, ...]) -> bool:
    """Every entry an object whose ``keys`` all hold strings."""
    for entry in entries:
        if type(entry) is not dict:
            return False
        for key in keys:
            if type(entry.get(key)) is not str:
                return False
    return True


#: a tool's members in their documented order, each absent one's default (``_ABSENT``: none, or a
#: fresh one made per tool); ``{**_TOOL_TEMPLATE, **tool}`` is one C-level merge per tool
_TOOL_TEMPLATE: dict[str, Any] = {
    "name": _ABSENT,
    "description": "",
    "snippet": None,
    "guidelines": _ABSENT,
    "active": True,
    "parameters": _ABSENT,
}
_TOOL_MEMBERS = len(_TOOL_TEMPLATE)


def _checked_tools(tools: Any) -> list[dict[str, Any]] | None:
    """:func:`_default_tools` of ``tools`` when every tool breaks no rule, else None."""
    if tools is _ABSENT:
        return []
    if type(tools) is not list:
        return None
    out: list[dict[str, Any]] = []
    for tool in tools:
        if type(tool) is not dict:
            return None
        merged = {**_TOOL_TEMPLATE, **tool}
        # a key the template lacks makes one member more, so the length is the key-set test (a set
        # lookup per key spared, ~1k instructions a tool); with only its keys, the template's order
        if len(merged) != _TOOL_MEMBERS:
            return None
        name, description, snippet, guidelines, active, parameters = merged.values()
        if (
            type(name) is not str
            or type(description) is not str
            or (snippet is not None and type(snippet) is not str)
            or type(active) is not bool
        ):
            return None
        if guidelines is _ABSENT:
            merged["guidelines"] = []
        elif type(guidelines) is not list:
            return None
        else:
            # a loop, not ``issuperset(map(type, ...))``: a tool has zero to a few lines, where the
            # map object and the call cost more than the checks (~60 ns a tool)
            for line in guidelines:
                if type(line) is not str:
                    return None
            merged["guidelines"] = guidelines.copy()
        if parameters is _ABSENT:
            merged["parameters"] = {"type": "object", "properties": {}}
        elif type(parameters) is not dict:
            return None
        out.append(merged)
    return out


# --- defaults ------------------------------------------------------------------------------------


def _with_defaults(data: dict[str, Any], *, owned: bool = False) -> dict[str, Any]:
    """A copy with every documented default filled in (tool defaults included).

    ``owned``: ``data`` was just parsed from a file and nobody else holds it, so its values are
    taken without a deep copy (the copy dominated compile throughput; docs/performance.md).
    """
    take = _identity if owned else copy.deepcopy
    out: dict[str, Any] = {}
    if "$comment" in data:
        out["$comment"] = data["$comment"]
    if owned:  # the same as below without a call per member
        for key, default in DEFAULTS.items():
            out[key] = data[key] if key in data else _fresh_default(default)
    else:
        for key, default in DEFAULTS.items():
            out[key] = take(data[key]) if key in data else _fresh_default(default)
    out["tools"] = _default_tools(out["tools"])
    for key in ("latestUserMessage", "finalizeMessages", "thinkingLevel"):
        if key in data:
            out[key] = take(data[key])
    return out


def _default_tools(tools: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Validated tools with every member present (context-format.md, *Tools*)."""
    return [
        {
            "name": tool["name"],
            "description": tool.get("description", ""),
            "snippet": tool.get("snippet"),
            "guidelines": list(tool["guidelines"]) if "guidelines" in tool else [],
            "active": tool.get("active", True),
            "parameters": tool.get("parameters", {"type": "object", "properties": {}}),
        }
        for tool in tools
    ]


def _identity(value: Any) -> Any:
    return value


def _fresh_default(default: Any) -> Any:
    """A private copy of a default; the documented ones are scalars or empty containers, which
    need no ``copy.deepcopy`` (that cost about 10 µs per context)."""
    if default is None or type(default) is str:
        return default
    if not default and type(default) in (list, dict):
        return type(default)()
    return copy.deepcopy(default)


# --- the context ---------------------------------------------------------------------------------


@dataclass(slots=True)
class Context:
    """A validated context with defaults applied; ``data`` is plain JSON data."""

    data: dict[str, Any]
    #: where it was read from (None for a dict or the built-in sample)
    source: str | None = None
    #: ``(now text, epoch ms)`` of the last :attr:`now_ms`, so a compile parses the instant once
    _now: tuple[str, int] | None = field(default=None, repr=False, compare=False)

    @property
    def thinking_level(self) -> str:
        """Pi's thinking level; absent means ``off`` (read only by the provider payloads)."""
        level: str = self.data.get("thinkingLevel", "off")  # annotated, not cast(): these run per compile
        return level

    @property
    def tools(self) -> list[dict[str, Any]]:
        """Every tool, defaults applied: ``{name, description, snippet, guidelines, active, parameters}``."""
        tools: list[dict[str, Any]] = self.data["tools"]
        return tools

    @property
    def active_tools(self) -> list[dict[str, Any]]:
        """The active tools in order: ``selectedTools`` and the tools sent in the provider payloads."""
        return [tool for tool in self.data["tools"] if tool["active"]]

    @property
    def finalize_messages(self) -> list[Any] | None:
        messages: list[Any] | None = self.data.get("finalizeMessages")
        return messages

    @property
    def session_variables(self) -> dict[str, Any]:
        variables: dict[str, Any] = self.data["variables"]
        return variables

    @property
    def messages(self) -> list[Any]:
        messages: list[Any] = self.data["messages"]
        return messages

    @property
    def now_ms(self) -> int:
        text = self.data["now"]
        if self._now is not None and self._now[0] == text:
            return self._now[1]
        value = parse_instant(text)
        assert value is not None  # validated
        self._now = (text, value)
        return value

    def variable_store(self) -> VariableStore:
        """A fresh store for one turn: the session variables, an empty turn scope, not dirty."""
        return VariableStore.fresh(copy.deepcopy(self.data["variables"]))

    def runtime(self) -> Runtime:
        """The runtime the reference runner builds from this context (context-format.md)."""
        data = self.data
        selected: list[str] = []
        snippets: dict[str, str] = {}
        guidelines: list[str] = []
        for tool in data["tools"]:
            if tool["active"]:
                name = tool["name"]
                selected.append(name)
                snippet = tool["snippet"]
                if isinstance(snippet, str) and snippet:
                    snippets[name] = snippet
                guidelines += tool["guidelines"]
        options: dict[str, Any] = {
            "cwd": data["cwd"],
            "selectedTools": selected,
            "toolSnippets": snippets,
            "promptGuidelines": guidelines,
        }
        append = data["appendSystemPrompt"]
        if append is not None:
            options["appendSystemPrompt"] = append
        files: list[dict[str, Any]] = []  # a loop, not a comprehension: a context has none to a few
        for entry in data["contextFiles"]:
            files.append({"path": entry["path"], "content": entry["content"]})
        options["contextFiles"] = files
        options["skills"] = data["skills"]
        messages = data["messages"]
        latest = data["latestUserMessage"] if "latestUserMessage" in data else latest_user_text(messages)
        # by position, every field given (a call by keywords and the ``pi_docs`` default factory cost
        # ~0.3 µs of a compile's ~2); tests/codecs/context checks the fields against a keyword call
        return Runtime(
            options,
            data["model"],
            latest,
            self.now_ms,
            data["timezone"],
            PI_DOCS_FALLBACK.copy(),
            data["baseSystemPrompt"],
            messages,
        )


# --- reading -------------------------------------------------------------------------------------


# Contexts are read by forgec.source, the reader of stacks: the same limits (size, nesting, YAML
# alias expansion), the same YAML data model (timestamps stay strings, duplicate keys refused) and
# the same FG0xx messages with the file's line and column.  Two differences, both because a
# context is forgec's own format: one leading byte-order mark is allowed, and the reader's
# forgec-only warnings (FG008, FG010) are not reported (a context has no diagnostics channel).


#: Deepest nesting a context may have.  Lower than the reader's limit (5,000) because a context's
#: values (variables, tool parameters, messages) are copied and printed by recursive code later
#: (``copy.deepcopy``, the report writer), which Python stops at about 1,000 levels.
CONTEXT_MAX_DEPTH = 500


def _too_deep(value: Any, limit: int) -> tuple[str | int, ...] | None:
    """The pointer of the first value nested deeper than ``limit``, or None (iterative walk).

    The answer is almost always None, so :func:`_deeper_than` decides that without building a
    pointer per node (that cost ~45 % of loading a 10,000-message context); only a context that
    is too deep pays for the walk that names the pointer.
    """
    if not _deeper_than(value, limit):
        return None
    stack: list[tuple[Any, tuple[str | int, ...]]] = [(value, ())]
    while stack:
        current, pointer = stack.pop()
        if len(pointer) > limit:
            return pointer
        if type(current) is dict:
            stack.extend((child, (*pointer, key)) for key, child in current.items() if isinstance(child, (dict, list)))
        elif type(current) is list:
            stack.extend((child, (*pointer, i)) for i, child in enumerate(current) if isinstance(child, (dict, list)))
    return None  # pragma: no cover - _deeper_than and this walk visit the same values


_CONTAINERS = (dict, list)


def _deeper_than(value: Any, limit: int) -> bool:
    """Whether a ``dict``/``list`` sits deeper than ``limit`` (what :func:`_too_deep` finds).

    Level by level, each level built by C-level iteration (``map``, ``compress``, ``chain``): no
    Python code runs per node and no pointer or tuple is built, so a 50,000-message context is
    checked in a few passes over its values.  Like the pointer walk, it counts every
    ``dict``/``list`` (subclasses too) and descends only into exact ``dict`` and ``list`` values.
    """
    level: list[Any] = [value]
    depth = 0
    while level:
        if depth > limit:
            return True
        kinds = list(map(type, level))
        children = list(
            chain(
                chain.from_iterable(map(dict.values, compress(level, map(is_, kinds, repeat(dict))))),
                chain.from_iterable(compress(level, map(is_, kinds, repeat(list)))),
            )
        )
        level = list(compress(children, map(isinstance, children, repeat(_CONTAINERS))))
        depth += 1
    return False


def _document_data(document: Any, label: str | None) -> Any:
    """The parsed value, or :class:`ContextError` for the document's first reading error."""
    if document.parsed:
        text = document.text or ""
        if document.format == "yaml" or text.count("[") + text.count("{") > CONTEXT_MAX_DEPTH:
            pointer = _too_deep(document.data, CONTEXT_MAX_DEPTH)
            if pointer is not None:
                span = document.locate(pointer)
                raise ContextError(
                    f"{_field_name(pointer[:3])}... is nested deeper than forgec's limit of "
                    f"{CONTEXT_MAX_DEPTH} levels for a context.",
                    path=label,
                    pointer=pointer,
                    code=codes.NESTING_TOO_DEEP,
                    position=(span.line, span.column) if span is not None else None,
                )
        return document.data
    error = next(d for d in document.diagnostics if d.level == "error")
    message = error.message
    if error.code == codes.FILE_UNREADABLE:
        message = "cannot read the context file: " + message.split(": ", 1)[-1]
    position = (error.span.line, error.span.column) if error.span is not None else None
    raise ContextError(message, path=label, code=error.code, position=position)


def _parse_json(text: str, path: str | None) -> Any:
    return _document_data(parse_source_text(text, path or "<context>", "json"), path)


def _read(source: str | os.PathLike[str]) -> tuple[Any, str, Any]:
    """The parsed data, its label (the path as given) and the document (for positions)."""
    label = str(source)
    document = read_source(source, allow_bom=True)
    return _document_data(document, label), label, document


def sample_context_path() -> Any:
    """The built-in sample context (a small coding session), as an importlib resource."""
    from importlib.resources import files

    return files("forgec.samples").joinpath("context.json")


def load_context(source: str | os.PathLike[str] | dict[str, Any] | None) -> Context:
    """Read, validate and complete a context. ``None`` gives the built-in sample context.

    Raises :class:`ContextError` (never anything else) for unreadable or invalid input; its
    ``problems`` list every rule the context breaks, with line and column for a file.
    """
    document = None
    # whatever the caller handed in, untyped until _validate refuses a non-object: compiled code checks
    # a narrowed name's type (the else branch would insist on a dict; docs/performance.md)
    given: Any = source
    data: Any
    if source is None:
        text = sample_context_path().read_text(encoding="utf-8")
        data, label = _parse_json(text, "<built-in sample context>"), None
    elif isinstance(source, (str, PurePath, os.PathLike)):  # the ABC last (a tuple is tried in order): it is slow
        direct = _read_direct(source)
        if direct is not None:
            _lay_out_messages(direct.data)
            return direct
        data, label, document = _read(source)
    else:  # already-parsed data (anything but an object is refused below)
        data, label = given, None
        plain = _plain_copy(data)
        if plain is not None:
            return _loaded_copy(data, *plain)
        pointer = _too_deep(data, CONTEXT_MAX_DEPTH)
        if pointer is not None:  # later stages copy and print recursively: refuse it here
            raise ContextError(
                f"{_field_name(pointer[:3])}... is nested deeper than forgec's limit of "
                f"{CONTEXT_MAX_DEPTH} levels for a context.",
                pointer=pointer,
                code=codes.NESTING_TOO_DEEP,
            )
    owned = not isinstance(source, dict)
    checked = _checked_with_defaults(data) if owned else None
    if checked is not None:
        context = Context(data=checked[0], source=label)
        now = checked[1]
    else:
        now = _validate(data, label, document)
        context = Context(data=_with_defaults(data, owned=owned), source=label)
    if now is not None:
        context._now = now
    _lay_out_messages(context.data)
    return context


# --- a context given as data ---------------------------------------------------------------------
#
# ``load_context(dict)`` keeps a copy of its own of what the host handed in (the host may change its
# conversation between turns).  That copy was ``copy.deepcopy`` of each member after ``_too_deep`` had
# walked the whole value: for a 50,000-message history ~0.4 s of deepcopy with the collector off
# (~0.7 s with it on: a memo entry and two calls per value) and ~0.13 s of walk, then the layout
# copied every message again.  A host's context is JSON data -- exact dicts and lists of strings,
# numbers, booleans and None -- so :func:`_plain_copy` copies just that in one pass: containers by
# exact type, every other value shared (immutable, as deepcopy shares them), the nesting counted on
# the way down, a long history's message dicts made one after another (the layout).  The copy is the
# context's own, like a parsed file, so it is checked and completed as a file's data is
# (``_checked_with_defaults``; the full rules when that declines, on the given data).
#
# Whenever the copy could differ from what the deep copy made, it is dropped and the context is
# loaded as before (``_too_deep``, ``_validate``, ``_with_defaults`` with deepcopy, the layout):
# - a value of any other type (a tuple, a set, a subclass, an object) or a key that is not a string;
# - a container deeper than ``CONTEXT_MAX_DEPTH``: ``_too_deep`` then names it (and a cycle of dicts
#   and lists is one: it is refused as nested too deep, as before);
# - a container that occurs twice (:func:`_all_distinct`): deepcopy kept it one object within a
#   member and made one per member, which the plain copy does not reproduce;
# - the interpreter's recursion limit (one frame a level: reached only under a caller already ~500
#   frames deep, where deepcopy, two frames a level, fails as well).


class _NotPlain(Exception):
    """Raised by the plain copy at what it does not copy (see above); the context is loaded as before."""


#: the value types the plain copy shares rather than copies (immutable; ``copy.deepcopy`` returns them as they are)
_SHARED_TYPES: frozenset[type] = frozenset({str, int, float, bool, type(None)})


def _plain_copy(data: Any) -> tuple[dict[str, Any], bool] | None:
    """``(copy, laid out)`` of a context given as JSON data, or None when it must be loaded as before.

    ``laid out``: the history was laid out by the copy (:func:`_lay_out_messages`)."""
    if type(data) is not dict:
        return None
    messages = data.get("messages")
    count = len(messages) if type(messages) is list else 0
    seen: list[Any] = []  # every container copied (the top-level object cannot occur below itself)
    out: dict[str, Any] = data.copy()
    with gc_paused(count, LAY_OUT_MESSAGES):
        try:
            laid_out = _copy_members(out, data, seen)
        except (_NotPlain, RecursionError):
            return None
        # here, not in _copy_members: its locals held the last member (one reference more)
        if not _all_distinct(seen):
            return None
    return out, laid_out


def _copy_members(out: dict[Any, Any], data: dict[Any, Any], seen: list[Any]) -> bool:
    """Copy ``data``'s members into ``out`` (its shallow copy); whether the history was laid out.
    (Keys typed ``Any``: compiled, a ``str`` key type is checked per key and would raise TypeError.)

    A ``$comment`` that is not a string or number is left to the old path: ``_with_defaults`` keeps
    the given object, where this would copy it."""
    room = CONTEXT_MAX_DEPTH - 1  # the members sit at depth 1
    laid_out = False
    for key, item in data.items():
        if type(key) is not str:
            raise _NotPlain
        kind = type(item)
        if kind is list:
            if key == "$comment":
                raise _NotPlain
            if key == "messages" and len(item) >= LAY_OUT_MESSAGES and _DICT_ONLY.issuperset(map(type, item)):
                out[key] = _laid_out_copy(item, seen, room)
                laid_out = True
            else:
                out[key] = _plain_list(item, seen, room)
        elif kind is dict:
            if key == "$comment":
                raise _NotPlain
            seen.append(item)
            child = item.copy()
            _fill_plain(child, item, seen, room)
            out[key] = child
        elif kind not in _SHARED_TYPES:
            raise _NotPlain
    return laid_out


def _laid_out_copy(messages: list[dict[str, Any]], seen: list[Any], room: int) -> list[dict[str, Any]]:
    """The plain copy of a long history, laid out: every message dict first, one after another, by
    :func:`_laid_out` itself (a role that is a string interned), then what each holds.  The deep copy
    and the layout in one pass."""
    seen.append(messages)
    seen += messages
    room -= 1  # the messages sit a level below their list
    if room < 0:
        raise _NotPlain
    laid_out: list[dict[str, Any]] = _laid_out(messages)  # every message an exact dict: each one copied
    for copied, message in zip(laid_out, messages, strict=True):
        _fill_plain(copied, message, seen, room)
    return laid_out


def _fill_plain(out: dict[Any, Any], source: dict[Any, Any], seen: list[Any], room: int) -> None:
    """Replace each container in ``out`` (``source.copy()``) by its plain copy; ``room``: how many
    levels ``source`` sits above the deepest a context may nest (below 0: too deep).

    ``out`` is made by ``dict.copy``: one allocation of the right size, the keys and shared values in
    place, so only the containers are stored again.  One frame a level (:func:`_plain_list` and this
    call each other directly)."""
    if room < 0:
        raise _NotPlain
    room -= 1
    for key, item in source.items():
        if type(key) is not str:
            raise _NotPlain
        kind = type(item)
        if kind is dict:
            seen.append(item)
            child = item.copy()
            _fill_plain(child, item, seen, room)
            out[key] = child
        elif kind is list:
            out[key] = _plain_list(item, seen, room)
        elif kind not in _SHARED_TYPES:
            raise _NotPlain


def _plain_list(source: list[Any], seen: list[Any], room: int) -> list[Any]:
    """The plain copy of the exact list ``source`` (see :func:`_fill_plain`).  (A C-level copy of a list
    of strings and numbers only, after ``_SHARED_TYPES.issuperset(map(type, source))``, was tried: a
    history's lists hold dicts, and the test cost more than it saved -- 3.8 % of a pure load's
    instructions, 12 % of a compiled one's.)"""
    if room < 0:
        raise _NotPlain
    seen.append(source)
    room -= 1
    out: list[Any] = []
    for item in source:
        kind = type(item)
        if kind is dict:
            seen.append(item)
            child = item.copy()
            _fill_plain(child, item, seen, room)
            out.append(child)
        elif kind is list:
            out.append(_plain_list(item, seen, room))
        elif kind in _SHARED_TYPES:
            out.append(item)
        else:
            raise _NotPlain
    return out


def _all_distinct(seen: list[Any]) -> bool:
    """Whether no object occurs twice in ``seen`` (the containers a plain copy visited).

    A container that occurs twice in the data has two references from its parents' slots and two
    from ``seen``: four or more, whatever else holds it.  So when every reference count is at most 3
    (one slot, ``seen``, the count's own argument), none occurred twice -- one C pass, several times
    cheaper than a set of the ids; only when a host holds more references to its containers (or one
    does occur twice) are the ids counted."""
    if max(map(getrefcount, seen), default=0) <= 3:
        return True
    return len(set(map(id, seen))) == len(seen)


def _loaded_copy(data: dict[str, Any], copied: dict[str, Any], laid_out: bool) -> Context:
    """The context of ``copied`` (:func:`_plain_copy` of the given ``data``), checked and completed as
    a parsed file's data is: it is the context's own.  A context the one-pass check declines is
    judged by the full rules on the given data, so a refusal reads exactly as before."""
    checked = _checked_with_defaults(copied)
    if checked is not None:
        context = Context(checked[0], None, checked[1])
    else:
        now = _validate(data, None)
        context = Context(data=_with_defaults(copied, owned=True))
        if now is not None:
            context._now = now
    if not laid_out:
        _lay_out_messages(context.data)
    return context


#: from this many messages up, a loaded context's message objects are laid out anew (:func:`_lay_out_messages`)
LAY_OUT_MESSAGES = 2_000


def _lay_out_messages(data: dict[str, Any]) -> None:
    """Put a long history's message objects next to each other in memory: each message that is an
    exact dict is replaced by its copy (the same members in the same order, equal values), the copies
    made one after another (:func:`_laid_out`).  Only the context's own data changes (``load_context``
    parsed or deep-copied it: no caller holds these dicts), and nothing a compile reads or reports does.

    Why: every compile of the context visits every message object: it reads each one's stored
    ``role`` (the history sources), holds each in its message list (a reference count stored in the
    object) and lets go of each when the report is freed.  As parsed or deep-copied, a message's dict
    and its key table sit among those of its own parts (content lists, part objects, usage and cost:
    the same size classes, allocated in between), so at 50,000 messages each visit is a cache miss
    and a page-table walk of its own.  One after another, the dicts fill whole pages and the visits
    stream: ``history-50k``'s role read alone went from ~8 to ~3 ms a call (stop 31,
    docs/performance-log.md).  A short history fits in the caches either way and is left as it is; the
    copies are made with the collector paused (50,000 new containers would start collections that
    visit the whole loaded context)."""
    messages = data["messages"]
    if len(messages) < LAY_OUT_MESSAGES:
        return
    with gc_paused(len(messages), LAY_OUT_MESSAGES):
        data["messages"] = _laid_out(messages)


def _laid_out(messages: list[Any]) -> list[Any]:
    """:func:`_lay_out_messages`'s copies; a role that is a string is replaced by the interned string
    of the same text (``sys.intern``), so every message of a role holds one object: a parsed file gives
    each message a string object of its own, placed among the message's other strings, which the
    compile's role read would visit too (and compare by its characters with the role names it knows,
    where the interned one is the very object: a file-loaded ``history-50k`` context's role read 6.0 ->
    1.7 ms, the call 43 -> 33 ms at load ~8, stop 31)."""
    laid_out: list[Any] = []
    for message in messages:
        if type(message) is dict:
            message = message.copy()
            role = message.get("role")
            if type(role) is str:
                message["role"] = intern(role)  # the member exists: its place in the key order is kept
        laid_out.append(message)
    return laid_out


# --- the direct path ------------------------------------------------------------------------------
#
# Almost every context a compile reads is a small, valid JSON file.  ``_read_direct`` reads it with
# the fewest steps -- bytes, strict UTF-8, the C JSON scanner, the rules, the defaults -- without
# building the ``SourceDocument`` and position index that only a refusal needs.  Anything out of
# the ordinary (a YAML or large file, a byte-order mark, invalid UTF-8, a parse error, possibly deep
# nesting, a rule broken) returns None, and the full reader reads the file again and explains.
# (Reusing the top-level members whose text repeats between turns was tried: on the corpus's 2-5 KB
# contexts the per-member bookkeeping cost what the skipped parsing saved; docs/performance.md.)

#: set to False to send every file through the full reader (tests compare the two)
DIRECT_READ = True


def _parsed_direct(raw: bytes) -> Any:
    """The value of a context file's bytes ``raw`` by the C scanner, or :data:`NOT_PARSED` when the full
    reader must read it (not UTF-8, a BOM, too large, invalid JSON, possibly nested too deep)."""
    try:
        text = raw.decode("utf-8")
    except ValueError:  # UnicodeDecodeError is a ValueError
        return NOT_PARSED
    if len(raw) > MAX_FILE_BYTES or len(text) >= LARGE_INPUT_CHARS or text.startswith("\ufeff"):
        return NOT_PARSED
    try:
        data = loads_shallow(text, CONTEXT_MAX_DEPTH, raw)
    except JSONParseError:
        return NOT_PARSED
    # too many openings: it might nest too deep, the full reader checks and explains
    return NOT_PARSED if data is TOO_MANY_OPENINGS else data


def _read_direct(source: str | os.PathLike[str]) -> Context | None:
    """The context in ``source`` read directly (see above), or None when the full reader must."""
    label = str(source)
    if not DIRECT_READ or is_yaml_path(label):
        return None
    try:
        raw = read_file_bytes(label, MAX_FILE_BYTES)
    except (OSError, ValueError):
        return None
    # orjson (the [speed] extra) reads the bytes, with no decoded text: what it returns is strict UTF-8
    # without a BOM, under LARGE_INPUT_CHARS characters (they are at most its bytes) and never deeper
    # than CONTEXT_MAX_DEPTH (FAST_MAX_DEPTH is below it), so none of the tests below would refuse it
    data = loads_bytes(raw) if len(raw) < LARGE_INPUT_CHARS else NOT_PARSED
    if data is NOT_PARSED:
        data = _parsed_direct(raw)
        if data is NOT_PARSED:
            return None
    checked = _checked_with_defaults(data)
    if checked is None:  # the full reader refuses it with every problem, positioned
        return None
    # by position, the instant too (a keyword call of the generated ``__init__`` costs more; a test
    # pins the field order)
    return Context(checked[0], label, checked[1])
