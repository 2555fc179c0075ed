"""Static analysis of a stack's macros for ``forgec validate`` (FG21x, forgec-only findings).

Works on the parsed AST of every block's content, without compiling: every macro is visited,
including those inside arguments and untaken branches (a compile would never reach them).  Only
literal names are judged; a name built by a nested macro (``{{getvar::{{pointer}}}}``) could be
anything, so it is never reported and it turns off the unread-variable check.

These findings are ``extra=True``: they never change pi-forge's own diagnostics.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from forgec.compile.macros.grammar import Macro, iter_macros, parse
from forgec.diagnostics import Diagnostic
from forgec.js.values import js_trim
from forgec.model import BUILTIN_MACRO_ARGS

if TYPE_CHECKING:
    from forgec.plugins import Registry

from forgec.rules.macros import (
    MACRO_ARGUMENTS,
    MISSING_MACRO_PLUGIN,
    SILLYTAVERN_MACRO,
    UNCLOSED_MACRO,
    UNKNOWN_MACRO,
    UNREAD_VARIABLE,
)

__all__ = ["SILLYTAVERN_MACROS", "lint_stack_macros"]

#: SillyTavern macros pi-forge does not implement (compared case-insensitively, as ST does)
_ST_NAMES = """
char user persona description personality scenario mesExamples mesExamplesRaw charPrompt
charJailbreak charInstruction charVersion char_version group groupNotMuted notChar original
input lastMessage lastMessageId lastCharMessage lastUserMessage firstIncludedMessageId
currentSwipeId lastSwipeId model isodate isotime weekday datetimeformat idle_duration
timeDiff time_UTC random pick roll newline noop trim reverse banned bias
addvar incvar decvar getglobalvar setglobalvar addglobalvar incglobalvar decglobalvar
maxPrompt exampleSeparator chatStart systemPrompt defaultSystemPrompt instructSystem
summary authorsNote charDepthPrompt if else hasvar hasglobalvar getglobal setglobal outlet
"""
#: SillyTavern macros pi-forge does not implement (compared case-insensitively, as ST does)
SILLYTAVERN_MACROS = frozenset(_ST_NAMES.lower().split())

_READERS = {"getvar", "var", "getturnvar", "getsessionvar", "ifvar", "ifeq"}
_SETTERS = {"setvar", "setturnvar", "setsessionvar"}


def _literal(text: str) -> str | None:
    """A raw argument as a name, or None when it contains a macro (its value is only known at run time)."""
    return None if "{{" in text else js_trim(text)


def _scoped(name: str, args: list[str]) -> tuple[str | None, int]:
    """``setvar``/``clearvar`` scope detection on raw arguments: (name, index of the first value)."""
    first = _literal(args[0]) if args else ""
    if first in ("turn", "session"):
        return (_literal(args[1]) if len(args) > 1 else ""), 2
    return first, 1


def _items(stack: dict[str, Any]) -> list[tuple[int, dict[str, Any]]]:
    items = stack.get("items") if isinstance(stack, dict) else None
    return [(i, it) for i, it in enumerate(items) if isinstance(it, dict)] if isinstance(items, list) else []


def lint_stack_macros(stack: dict[str, Any], registry: Registry | None = None) -> list[Diagnostic]:
    """forgec's macro findings for a stack (the loader's normalised stack, or raw stack data)."""
    if not isinstance(stack, dict):
        return []
    variables = stack.get("variables")
    static: dict[str, Any] = variables if isinstance(variables, dict) else {}
    custom = set(registry.macros) if registry is not None else set()

    blocks: list[tuple[int, dict[str, Any], str, list[Macro]]] = []
    findings_unclosed: list[Diagnostic] = []
    for index, item in _items(stack):
        content = item.get("content")
        if item.get("kind") == "slot" or not isinstance(content, str) or "{{" not in content:
            continue
        macros = list(iter_macros(parse(content)))  # the fast parser: no lark import
        if macros:
            blocks.append((index, item, content, macros))
        unclosed = _unclosed_openers(content, macros)
        for offset in unclosed:
            findings_unclosed.append(
                Diagnostic(
                    "warning",
                    "Unclosed macro: this '{{' has no matching '}}', so pi-forge sends it as literal text.",
                    UNCLOSED_MACRO,
                    item_id=item.get("id"),
                    pointer=("items", index, "content"),
                    offset=offset,
                    length=2,
                    extra=True,
                )
            )

    # names written by the stack itself, names it reads, and names it tests with ifvar/ifeq (a stack
    # that tests a name expects the host to provide it as a session variable)
    written: set[str] = set()
    guarded: set[str] = set()
    read: set[str] = set()
    dynamic_read = any(
        it.get("kind") == "slot" and it.get("slot") == "variables" and it.get("enabled") is not False
        for _, it in _items(stack)
    )
    for _index, _item, text, macros in blocks:
        for macro in macros:
            command = macro.command(text)
            args = macro.raw_args(text)
            if command in ("setvar", "clearvar"):
                name, _ = _scoped(command, args)
                if name and command == "setvar":
                    written.add(name)
            elif command in _SETTERS and args and _literal(args[0]):
                written.add(_literal(args[0]) or "")
            elif command in _READERS:
                name = _literal(args[0]) if args else ""
                if name is None:
                    dynamic_read = True
                elif name:
                    read.add(name)
            elif command and command not in BUILTIN_MACRO_ARGS:
                read.add(command)
            if command in ("ifvar", "ifeq") and args and _literal(args[0]):
                guarded.add(_literal(args[0]) or "")

    findings: list[Diagnostic] = findings_unclosed
    suggest = _Suggestions([*BUILTIN_MACRO_ARGS, *static, *written, *custom])
    for index, item, text, macros in blocks:

        def add(code: str, level: str, message: str, macro: Macro, item: dict[str, Any] = item, index: int = index) -> None:
            findings.append(
                Diagnostic(
                    level,  # type: ignore[arg-type]
                    message,
                    code,
                    item_id=item.get("id"),
                    pointer=("items", index, "content"),
                    offset=macro.start,
                    length=macro.end - macro.start,
                    extra=True,
                )
            )

        for macro in macros:
            command = macro.command(text)
            if not command:
                continue
            args = macro.raw_args(text)
            shape = BUILTIN_MACRO_ARGS.get(command)
            if shape is not None:
                _check_arguments(command, shape[0], shape[1], args, macro, add)
                if command in _SETTERS or command == "setvar":
                    name = _scoped(command, args)[0] if command == "setvar" else (_literal(args[0]) if args else "")
                    if name and not dynamic_read and name not in read:
                        add(
                            UNREAD_VARIABLE,
                            "info",
                            f"Variable {name} is set by {{{{{command}}}}} but nothing in this stack reads it.",
                            macro,
                        )
                continue
            if command in custom or command in static or command in written or command in guarded or "{{" in command:
                continue
            if command.lower() in SILLYTAVERN_MACROS:
                add(
                    SILLYTAVERN_MACRO,
                    "warning",
                    f"SillyTavern macro {{{{{command}}}}} is not supported by pi-forge; it stays in the text.",
                    macro,
                )
            elif "." in command:
                add(
                    MISSING_MACRO_PLUGIN,
                    "warning",
                    f"Custom macro {{{{{command}}}}} is not registered: missing dependency (install and trust "
                    "the plugin that provides it).",
                    macro,
                )
            else:
                suggestion = suggest(command)
                add(
                    UNKNOWN_MACRO,
                    "warning",
                    f"Unknown macro {{{{{command}}}}}{suggestion}: not a built-in, a stack variable, a variable set by this "
                    "stack or a registered custom macro. If the host provides it as a session variable, read it "
                    f"with {{{{getvar::{command}}}}} or guard it with {{{{ifvar::{command}::…}}}}.",
                    macro,
                )
    return findings


#: name comparisons one stack's did-you-mean hints may cost (each a few µs): past it, no more hints
SUGGESTION_COMPARISONS = 200_000


class _Suggestions:
    """Did-you-mean hints of one stack: one search per distinct name, and at most
    :data:`SUGGESTION_COMPARISONS` comparisons in all. 20,000 unknown macros once took 17 s, each
    searched again, and a stack that sets thousands of variables and uses thousands of unknown names
    would compare every pair (issue 13, family 6)."""

    def __init__(self, choices: list[str]) -> None:
        self.choices = choices
        self.left = SUGGESTION_COMPARISONS
        self.found: dict[str, str] = {}

    def __call__(self, name: str) -> str:
        text = self.found.get(name)
        if text is None:
            if self.left < len(self.choices):
                text = ""
            else:
                self.left -= len(self.choices)
                text = _suggest(name, self.choices)
            self.found[name] = text
        return text


def _suggest(name: str, choices: list[str]) -> str:
    """`` (did you mean {{x}}?)`` for a close known name, else ``""``."""
    import difflib

    close = difflib.get_close_matches(name, choices, n=1, cutoff=0.75)
    return f" (did you mean {{{{{close[0]}}}}}?)" if close else ""


def _unclosed_openers(text: str, macros: list[Macro]) -> list[int]:
    """Offsets of ``{{`` that start no macro and lie inside none: pi-forge keeps them as text.

    The macros' spans are merged into disjoint sorted intervals once and each opener is looked up
    by bisection, so a block of thousands of macros and openers is checked in ``n log n``.
    """
    if "{{" not in text:
        return []
    import bisect

    starts = {m.start for m in macros}
    merged: list[list[int]] = []
    for start, end in sorted((m.start, m.end) for m in macros):
        if merged and start < merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end])
    left = [interval[0] for interval in merged]
    found: list[int] = []
    at = text.find("{{")
    while at != -1:
        if at not in starts:
            i = bisect.bisect_left(left, at) - 1  # the last interval starting before ``at``
            if not (i >= 0 and left[i] < at < merged[i][1]):
                found.append(at)
        at = text.find("{{", at + 2)
    return found


def _check_arguments(name: str, min_args: int, max_args: int | None, args: list[str], macro: Macro, add: Any) -> None:
    count = len(args)
    name_index = 0
    if name in ("setvar", "clearvar") and args and _literal(args[0]) in ("turn", "session"):
        name_index = 1
        min_args += 1
        if max_args is not None:
            max_args += 1
    empty_name = bool(min_args) and count > name_index and _literal(args[name_index]) == ""
    if count < min_args or empty_name:
        what = "arguments" if min_args > 1 else "argument"
        add(
            MACRO_ARGUMENTS,
            "warning",
            f"{{{{{name}}}}} needs at least {min_args} {what} and a non-empty name; as written it stays unresolved.",
            macro,
        )
    elif max_args is not None and count > max_args:
        add(
            MACRO_ARGUMENTS,
            "info",
            f"{{{{{name}}}}} ignores arguments after the first {max_args}."
            if max_args
            else f"{{{{{name}}}}} takes no arguments; they are ignored.",
            macro,
        )
