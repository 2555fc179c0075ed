"""An obviously-correct reference of compile-core §3.1-§3.4, written straight from the spec text.

It re-scans strings character pair by character pair exactly as the spec describes (no parser, no
AST) and implements a handful of built-ins, enough for property tests to compare the lark-based
engine with it on random text.
"""

from __future__ import annotations

from forgec.js.values import js_trim


def find_end(text: str, start: int) -> int:
    """§3.1 step 3: position of the closing ``}}`` for the ``{{`` ending at ``start``, or -1."""
    depth = 1
    i = start
    while i + 1 < len(text):
        pair = text[i : i + 2]
        if pair == "{{":
            depth += 1
            i += 2
        elif pair == "}}":
            depth -= 1
            if depth == 0:
                return i
            i += 2
        else:
            i += 1
    return -1


def split_parts(expression: str) -> list[str]:
    """§3.2 step 2: split on ``::`` at depth 0 with pairwise skipping."""
    parts = []
    depth = 0
    current_start = 0
    i = 0
    while i + 1 < len(expression):
        pair = expression[i : i + 2]
        if pair == "{{":
            depth += 1
            i += 2
        elif pair == "}}" and depth > 0:
            depth -= 1
            i += 2
        elif pair == "::" and depth == 0:
            parts.append(expression[current_start:i])
            i += 2
            current_start = i
        else:
            i += 1
    parts.append(expression[current_start:])
    return parts


class ReferenceSession:
    """One expansion session; ``turn`` is the (only) variable scope modelled."""

    def __init__(self, variables: dict[str, str], policy: str = "warn") -> None:
        self.variables = variables
        self.unresolved: dict[str, None] = {}
        self.policy = policy

    def scan(self, text: str) -> str:
        out = []
        cursor = 0
        while True:
            start = text.find("{{", cursor)
            if start < 0:
                out.append(text[cursor:])
                return "".join(out)
            out.append(text[cursor:start])
            end = find_end(text, start + 2)
            if end < 0:
                out.append("{{")
                cursor = start + 2
                continue
            out.append(self.render(text[start + 2 : end], text[start : end + 2]))
            cursor = end + 2

    def render(self, expression: str, full: str) -> str:
        trimmed = js_trim(expression)
        if not trimmed:
            return full
        parts = split_parts(trimmed)
        command = js_trim(parts[0])
        if not command:
            return full
        raw = parts[1:]
        cache: dict[int, str] = {}

        def arg(i: int) -> str:
            if i not in cache:
                cache[i] = self.scan(raw[i]) if i < len(raw) else ""
            return cache[i]

        builtins = {"upper", "lower", "setvar", "getvar", "ifvar"}
        if command in builtins:
            result: str | None
            if command == "upper":
                result = arg(0).upper()
            elif command == "lower":
                result = arg(0).lower()
            elif command == "getvar":
                name = js_trim(arg(0))
                result = self.variables.get(name, "") if name else None
            elif command == "ifvar":
                name = js_trim(arg(0))
                result = (arg(1) if name in self.variables else arg(2)) if name else None
            else:  # setvar, turn scope only (a first argument "turn" selects it explicitly)
                first = js_trim(arg(0))
                name, start = (js_trim(arg(1)), 2) if first in ("turn",) else (first, 1)
                if name:
                    self.variables[name] = "::".join(arg(i) for i in range(start, len(raw)))
                    result = ""
                else:
                    result = None
            if result is None:
                self.unresolved.setdefault(trimmed)
                return full
            return result
        if command in self.variables:
            return self.variables[command]
        self.unresolved.setdefault(trimmed)
        return full

    def messages(self) -> list[str]:
        if self.policy == "keep":
            return []
        return [f"Unresolved macro: {{{{{e}}}}}" for e in self.unresolved]
