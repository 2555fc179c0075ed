"""What the text around the cursor is: which object it is in, a key or a value, a macro.

Completion runs on text the user is in the middle of typing, which seldom parses, so this reads the
text before the cursor the way a person does: JSON by its brackets and strings, YAML by its
indentation (block style, and flow mappings on one line, ``- { kind: slot, slot: tools }``).  The
answer is a :class:`Cursor`: the keys of the enclosing containers (``"[]"`` for a list element),
the key whose value is being typed (``None`` while a key is typed), the word typed so far, the
scalar values of the enclosing objects' keys (so a slot's options know the slot), and the text of
an unclosed ``{{`` before the cursor.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

__all__ = ["Cursor", "read_cursor"]

_WORD = re.compile(r"[A-Za-z0-9_.:\-/]*$")
_YAML_KEY = re.compile(
    r"""^(?P<key>"[^"]*"|'[^']*'|[^\s:#'"{}\[\],][^:#{}\[\],]*?)\s*:(?:\s+(?P<value>.*))?$"""
)


@dataclass(slots=True)
class Cursor:
    path: tuple[str, ...] = ()
    key: str | None = None
    prefix: str = ""
    in_string: bool = False
    macro: str | None = None
    #: per enclosing object (outermost first): its keys' scalar values seen around the cursor
    siblings: list[dict[str, str]] = field(default_factory=list)

    @property
    def typing_key(self) -> bool:
        return self.key is None and (not self.path or self.path[-1] != "[]")

    def sibling(self, name: str, level: int = -1) -> str | None:
        """The value of ``name`` in the enclosing object ``level`` (-1 the innermost, -2 its parent)."""
        try:
            return self.siblings[level].get(name)
        except IndexError:
            return None


def read_cursor(text: str, offset: int, yaml: bool) -> Cursor:
    """The :class:`Cursor` at ``offset`` (a string offset) of ``text``."""
    cursor = _yaml_cursor(text, offset) if yaml else _json_cursor(text, offset)
    before = text[max(0, offset - 4000) : offset]
    opened = before.rfind("{{")
    if opened >= 0 and "}}" not in before[opened:]:
        cursor.macro = before[opened + 2 :]
    return cursor


# --- JSON ------------------------------------------------------------------------------------------


@dataclass(slots=True)
class _Frame:
    array: bool
    name: str
    expect_key: bool = True
    pending: str | None = None
    values: dict[str, str] = field(default_factory=dict)


def _json_cursor(text: str, offset: int) -> Cursor:
    stack: list[_Frame] = [_Frame(False, "")]
    i, end = 0, min(offset, len(text))
    partial: str | None = None
    while i < end:
        c = text[i]
        if c == '"':
            j, chars = i + 1, []
            while j < end and text[j] != '"':
                if text[j] == "\\" and j + 1 < end:
                    j += 1
                chars.append(text[j])
                j += 1
            value = "".join(chars)
            if j >= end:  # the cursor is inside this string
                partial = value
                break
            top = stack[-1]
            if not top.array and top.expect_key:
                top.pending = value
            elif not top.array and top.pending is not None:
                top.values[top.pending] = value
            i = j + 1
            continue
        top = stack[-1]
        if c in "{[":
            name = "[]" if top.array else (top.pending or "")
            stack.append(_Frame(c == "[", name))
        elif c in "}]" and len(stack) > 1:
            stack.pop()
        elif c == ":" and not top.array:
            top.expect_key = False
        elif c == ",":
            top.expect_key = True
            if not top.array:
                top.pending = None
        i += 1
    top = stack[-1]
    path = tuple(f.name for f in stack[2:])  # stack[0] is the document, stack[1] its root value
    objects = [f.values for f in stack[1:] if not f.array] or [{}]
    if partial is not None:
        prefix, in_string = partial, True
    else:
        match = _WORD.search(text[:end])
        prefix, in_string = (match.group(0) if match else ""), False
    if top.array:
        return Cursor(path, top.name, prefix, in_string, siblings=objects)
    key = None if top.expect_key else top.pending
    return Cursor(path, key, prefix, in_string, siblings=objects)


# --- YAML ------------------------------------------------------------------------------------------


def _unquote(key: str) -> str:
    key = key.strip()
    return key[1:-1] if len(key) >= 2 and key[0] == key[-1] and key[0] in "\"'" else key


def _split_line(line: str) -> tuple[int, int, str]:
    """(column of the first ``- `` marker or -1, column of the content after the markers, content)."""
    column = len(line) - len(line.lstrip(" "))
    dash = -1
    while line[column:].startswith("- ") or line[column:] == "-":
        if dash < 0:
            dash = column
        column += 1
        while column < len(line) and line[column] == " ":
            column += 1
    return dash, column, line[column:]


def _scalar(value: str | None) -> str | None:
    if value is None:
        return None
    value = re.sub(r"\s+#.*$", "", value).strip()
    return _unquote(value) if value and value[0] not in "{[|>&*" else None


def _line_key(content: str) -> tuple[str, str | None] | None:
    match = _YAML_KEY.match(content.rstrip())
    if match is None:
        return None
    return _unquote(match.group("key")), _scalar(match.group("value"))


def _flow(content: str) -> tuple[list[tuple[str, dict[str, str]]], str | None, str] | None:
    """The unclosed flow mappings of a line's content: their names (the key before each ``{``) and
    values, then the key being typed (``None``: a key) and the word so far; ``None`` if no ``{``."""
    frames: list[tuple[str, dict[str, str]]] = []
    token, pending = "", None
    quote = ""
    for c in content:
        if quote:
            token += c
            if c == quote:
                quote = ""
            continue
        if c in "\"'":
            quote = c
            token += c
        elif c == "{":
            frames.append((_unquote(pending or ""), {}))
            token, pending = "", None
        elif c == "}" and frames:
            frames.pop()
            token, pending = "", None
        elif c == ":" and frames and pending is None:
            pending, token = token.strip(), ""
        elif c == "," and frames:
            if pending is not None and _scalar(token) is not None:
                frames[-1][1][_unquote(pending)] = _scalar(token) or ""
            token, pending = "", None
        else:
            token += c
    if not frames:
        return None
    word = token.strip().lstrip("\"'")
    return frames, (_unquote(pending) if pending is not None else None), word


def _yaml_cursor(text: str, offset: int) -> Cursor:
    line_start = text.rfind("\n", 0, offset) + 1
    line_end = text.find("\n", offset)
    before = text[:line_start].split("\n")[:-1]
    after = text[line_end + 1 :].split("\n") if line_end >= 0 else []
    dash, column, content = _split_line(text[line_start:offset])

    #: innermost first: (name of the container, values of the object it is, or of the list's parent)
    chain: list[tuple[str, dict[str, str]]] = []
    own: dict[str, str] = {}
    key: str | None
    flow = _flow(content)
    if flow is not None:
        frames, key, prefix = flow
        head = content[: content.find("{")]
        head_key = _line_key(head.strip())
        own = frames[-1][1]
        names = [name for name, _ in frames]
        values = [v for _, v in frames]
        # the outermost flow's name is the block key on this line (``options: {``) or a list element
        outer = head_key[0] if head_key is not None else ("[]" if dash >= 0 else "")
        names[0] = outer
        for index in range(len(frames) - 1, -1, -1):
            chain.append((names[index], values[index]))
        current: dict[str, str] = {}
        threshold = dash if (dash >= 0 and head_key is None) else column
        if head_key is not None and dash >= 0:
            chain.append(("[]", current))
            threshold = dash
    else:
        match = _YAML_KEY.match(content)
        if match is not None and (match.group("value") is not None or content.rstrip().endswith(":")):
            key = _unquote(match.group("key"))
            prefix = (match.group("value") or "").strip().lstrip("\"'")
        else:
            key, prefix = None, content.strip().lstrip("\"'")
        current = own
        threshold = column
        if dash >= 0:  # ``- kin|``: a key of a new list element (or a scalar element)
            chain.append(("[]", own))
            current = {}
            threshold = dash
        _siblings_after(after, column, own)

    for raw in reversed(before):
        stripped = raw.strip()
        if not stripped or stripped.startswith("#") or stripped.startswith("---"):
            continue
        line_dash, line_col, line_content = _split_line(raw)
        found = _line_key(line_content)
        if line_col == threshold and found is not None:
            name, value = found
            if value is not None:
                current.setdefault(name, value)
            if 0 <= line_dash < threshold:  # ``- kind: slot`` opened the element we are in
                chain.append(("[]", current))
                current, threshold = {}, line_dash
            continue
        if line_col < threshold or 0 <= line_dash < threshold:
            if found is not None and line_col < threshold:
                chain.append((found[0], current))
                current, threshold = {}, line_col
                _siblings_after(after, line_col, current)
                if line_dash >= 0:
                    chain.append(("[]", current))
                    current, threshold = {}, line_dash
            elif line_dash >= 0:
                chain.append(("[]", current))
                current, threshold = {}, line_dash
            if threshold == 0:
                break
    root = current
    for raw in reversed(before):  # the root object's own keys, for completions that need them
        _dash, line_col, line_content = _split_line(raw)
        found = _line_key(line_content)
        if line_col == 0 and found is not None and found[1] is not None:
            root.setdefault(found[0], found[1])
    chain.reverse()
    path = tuple(name for name, _ in chain)
    return Cursor(path, key, prefix, False, siblings=_objects(root, chain))


def _objects(root: dict[str, str], chain: list[tuple[str, dict[str, str]]]) -> list[dict[str, str]]:
    """The values of every enclosing object, outermost first: a container followed by ``"[]"`` is
    a list, not an object."""
    out = [root]
    for index, (_name, values) in enumerate(chain):
        if index + 1 == len(chain) or chain[index + 1][0] != "[]":
            out.append(values)
    return out


def _siblings_after(after: list[str], column: int, own: dict[str, str]) -> None:
    """Keys written below the cursor's line at its own column (``slot:`` below ``options:``)."""
    for raw in after:
        stripped = raw.strip()
        if not stripped or stripped.startswith("#"):
            continue
        line_dash, line_col, line_content = _split_line(raw)
        if line_col < column or (line_dash >= 0 and line_dash < column):
            break
        if line_col == column:
            found = _line_key(line_content)
            if found is not None and found[1] is not None:
                own.setdefault(found[0], found[1])
