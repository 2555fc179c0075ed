"""YAML documents: forgec's addition, read into the same data model as JSON with ruamel.yaml.

YAML 1.2 core schema, so ``yes``/``no`` stay strings.  Choices, all reported as diagnostics and
never as exceptions:

* duplicate keys are an error (YAML requires unique keys; JSON's last-wins would hide a typo);
* aliases are expanded into independent copies, at most :data:`YAML_NODE_BUDGET` nodes in total
  (an "alias bomb" is refused), and a recursive alias is an error;
* a timestamp (``2024-01-01``) is kept as the text written, with a forgec-only warning; a
  non-string scalar key (``1:``, ``true:``) becomes ``String(key)`` with a warning;
* values JSON cannot hold (``.nan``, ``!!set``, ``!!binary``, ``!!omap``, custom ``!tags``,
  collection keys) are an error;
* multiple documents are a parse error; an empty file is the value ``null``;
* flow collections (``[[[…]]]``) nested deeper than :data:`YAML_MAX_FLOW_DEPTH` are refused by a
  cheap pre-scan before ruamel runs: ruamel's scanner re-checks every open flow level at each token,
  so its time grows with the square of the depth (1,000 levels: 1 s; 5,000: 16 s).  Block nesting
  is linear in ruamel and is bounded by :data:`forgec.js.json.MAX_DEPTH` as JSON is.

Positions come from ruamel's node tree, kept by :class:`YamlLocator`.  The tree is composed by
libyaml in C (:mod:`forgec.source.yaml_fast`, about ten times faster) wherever that reads the text
exactly as ruamel's pure-Python composer does, and by the pure composer otherwise -- always for a
text with an error, whose messages are the pure composer's.
"""

from __future__ import annotations

import math
import re
import sys
from typing import Any

from forgec.diagnostics import Diagnostic, Span
from forgec.js.json import MAX_DEPTH
from forgec.rules import loader as codes
from forgec.source.document import SourceDocument

__all__ = ["YAML_MAX_FLOW_DEPTH", "YAML_NODE_BUDGET", "YamlLocator", "parse_yaml", "yaml_flow_depth_exceeded"]

#: Most nodes a YAML document may expand to once aliases are copied.
YAML_NODE_BUDGET = 1_000_000
#: Deepest flow nesting (``[``/``{``) read from YAML.  Lower than JSON's ``MAX_DEPTH`` because
#: ruamel's scanner is quadratic in it (see the module docstring); 1,000 levels take ruamel ~1 s.
YAML_MAX_FLOW_DEPTH = 1000
#: Below this many characters a text without aliases (no ``*``) cannot reach
#: :data:`YAML_NODE_BUDGET` nodes (each node takes at least half a character), so the expansion
#: check is skipped for it.
_NO_ALIAS_SIZE_LIMIT = YAML_NODE_BUDGET // 2 - 1
#: Recursion limit while ruamel composes (it recurses about three frames per nesting level).
_YAML_RECURSION_LIMIT = 12_000


class _YamlProblem(Exception):
    def __init__(self, message: str, code: str, node: Any) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.node = node


def parse_yaml(doc: SourceDocument) -> None:
    """Parse ``doc.text`` into ``doc.data`` (or a diagnostic) as described above; never raises."""
    from ruamel.yaml import YAML
    from ruamel.yaml.error import MarkedYAMLError, YAMLError
    from ruamel.yaml.reader import ReaderError

    from forgec.source.yaml_fast import compose_fast

    assert doc.text is not None
    too_deep = yaml_flow_depth_exceeded(doc.text, YAML_MAX_FLOW_DEPTH)
    if too_deep is not None:
        doc.diagnostics.append(
            Diagnostic(
                "error",
                f"YAML flow collections ([...], {{...}}) are nested deeper than forgec's limit of "
                f"{YAML_MAX_FLOW_DEPTH} levels.",
                codes.NESTING_TOO_DEEP,
                span=doc.span(too_deep, too_deep + 1),
            )
        )
        return
    yaml = YAML(typ="safe", pure=True)
    limit = sys.getrecursionlimit()
    fast, root = compose_fast(doc.text)
    try:
        sys.setrecursionlimit(max(limit, _YAML_RECURSION_LIMIT))
        if not fast:
            root = yaml.compose(doc.text)
    except MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        parts = [_yaml_error_text(p) for p in (error.context, error.problem) if p]
        message = "Failed to parse YAML: " + ("; ".join(p for p in parts if p) or "invalid YAML")
        span = Span(doc.path, mark.line + 1, mark.column + 1, mark.line + 1, mark.column + 1) if mark else None
        doc.diagnostics.append(Diagnostic("error", message, codes.YAML_PARSE_ERROR, span=span))
        return
    except ReaderError as error:
        # a character YAML forbids (NUL, most C0 controls): ruamel gives its offset in the text,
        # not a line and column
        message = "Failed to parse YAML: " + (_yaml_error_text(str(error)) or "invalid YAML")
        span = None
        if isinstance(error.position, int) and 0 <= error.position <= len(doc.text):
            span = doc.span(error.position, error.position + 1)
        doc.diagnostics.append(Diagnostic("error", message, codes.YAML_PARSE_ERROR, span=span))
        return
    except RecursionError:
        doc.diagnostics.append(
            Diagnostic("error", "YAML is nested too deeply for forgec to read.", codes.NESTING_TOO_DEEP)
        )
        return
    except (YAMLError, ValueError) as error:
        message = "Failed to parse YAML: " + (_yaml_error_text(str(error)) or "invalid YAML")
        doc.diagnostics.append(Diagnostic("error", message, codes.YAML_PARSE_ERROR))
        return
    finally:
        sys.setrecursionlimit(limit)
    converter = _YamlConverter(yaml, doc)
    try:
        sys.setrecursionlimit(max(limit, _YAML_RECURSION_LIMIT))
        if root is not None and ("*" in doc.text or len(doc.text) >= _NO_ALIAS_SIZE_LIMIT):
            _check_expansion(root)
        doc.data = None if root is None else converter.convert(root, 0)
    except RecursionError:
        doc.diagnostics.append(
            Diagnostic("error", "YAML is nested too deeply for forgec to read.", codes.NESTING_TOO_DEEP)
        )
        return
    except _YamlProblem as problem:
        span = None
        if problem.node is not None:
            mark = problem.node.start_mark
            span = Span(doc.path, mark.line + 1, mark.column + 1, mark.line + 1, mark.column + 1)
        doc.diagnostics.append(Diagnostic("error", problem.message, problem.code, span=span))
        return
    finally:
        sys.setrecursionlimit(limit)
    doc.diagnostics.extend(converter.warnings)
    doc.locator = YamlLocator(root)
    doc.parsed = True


#: ruamel's location tail (``\n  in "<unicode string>", line 2, column 1:`` plus a source excerpt,
#: or ``, position 22``): forgec reports the position itself, as line:col
_YAML_WHERE = re.compile(r'\n[ \t]*in "[^"\n]*", (?:line \d+, column \d+|position \d+).*', re.S)


def _yaml_error_text(text: str) -> str:
    """One clean line from a ruamel message part: no location tail, no excerpt, no line breaks."""
    text = _YAML_WHERE.sub("", text)
    return re.sub(r"\s*\n\s*", " ", text).strip()


#: the characters the flow-depth pre-scan stops at
_FLOW_SCAN = re.compile(r"[\[\]{}\"'#\n|>]")
_BLOCK_HEADER = re.compile(r"[|>][-+1-9]{0,2}[ \t]*(?:#[^\n]*)?(?=\n|$)")
_DQ_END = re.compile(r'(?:[^"\\]|\\.)*"', re.S)
_SQ_END = re.compile(r"(?:[^']|'')*'(?!')")
_INDENT = re.compile(r"[ ]*")


def yaml_flow_depth_exceeded(text: str, limit: int) -> int | None:
    """Offset of the first ``[``/``{`` that opens flow level ``limit + 1``, or ``None``.

    A linear pre-scan (it visits only brackets, quotes, comments, line ends and block-scalar
    headers), approximate in the safe direction: quoted scalars, comments and the lines of block
    scalars (``|``/``>``) are skipped; in block context a bracket counts only where a token starts
    (after a space or at a line start), while inside a flow collection every bracket is structure.
    A malformed document may be under-counted; ruamel then reports it.
    """
    if text.count("[") + text.count("{") <= limit:
        return None
    depth = 0
    pos = 0
    end = len(text)
    line_start = 0
    search = _FLOW_SCAN.search
    while True:
        match = search(text, pos)
        if match is None:
            return None
        at = match.start()
        char = text[at]
        prev = text[at - 1] if at > line_start else " "
        pos = at + 1
        if char == "\n":
            line_start = pos
        elif char in "[{":
            if depth or prev in " \t":
                depth += 1
                if depth > limit:
                    return at
        elif char in "]}":
            if depth:
                depth -= 1
        elif char == "#":
            if prev in " \t":
                newline = text.find("\n", pos)
                pos = end if newline < 0 else newline
        elif char in "\"'":
            if prev in " \t[{,:-?":
                closing = (_DQ_END if char == '"' else _SQ_END).match(text, pos)
                if closing is None:
                    return None
                pos = closing.end()
        elif not depth and prev in " \t" and _BLOCK_HEADER.match(text, at):
            # a block scalar: skip every following line indented more than this one (or blank)
            indent = _match_end(_INDENT, text, line_start) - line_start
            newline = text.find("\n", at)
            while newline >= 0:
                following = newline + 1
                width = _match_end(_INDENT, text, following) - following
                rest = text[following + width : following + width + 1]
                if width > indent or rest in ("\n", "\r", ""):
                    if following >= end:
                        return None
                    newline = text.find("\n", following)
                    continue
                break
            if newline < 0:
                return None
            pos = newline


_TAG = "tag:yaml.org,2002:"


def _check_expansion(root: Any) -> None:
    """Refuse an alias bomb before copying anything: sizes are summed once per distinct node.

    Raises :class:`_YamlProblem` at the node whose children together, but none alone, expand past
    :data:`YAML_NODE_BUDGET` (the anchor that multiplies).  Cycles count once here; the converter
    reports them.
    """
    sizes: dict[int, int] = {}
    active: set[int] = set()

    def children(node: Any) -> list[Any]:
        if type(node).__name__ == "SequenceNode":
            return list(node.value)
        return [part for pair in node.value for part in pair]

    def size(node: Any) -> int:
        key = id(node)
        known = sizes.get(key)
        if known is not None:
            return known
        if type(node).__name__ == "ScalarNode" or key in active:
            return 1
        active.add(key)
        total = 1
        for child in children(node):
            total += size(child)
            if total > YAML_NODE_BUDGET:
                break
        active.discard(key)
        sizes[key] = total
        return total

    if size(root) <= YAML_NODE_BUDGET:
        return
    node = root
    while True:
        heavy = next((c for c in children(node) if sizes.get(id(c), 0) > YAML_NODE_BUDGET), None)
        if heavy is None:
            break
        node = heavy
    raise _YamlProblem(
        f"YAML aliases expand to more than {YAML_NODE_BUDGET} values; refusing to read it.",
        codes.YAML_ALIAS_EXPANSION,
        node,
    )


class _YamlConverter:
    """ruamel's node tree -> plain JSON data, with an expansion budget and cycle detection."""

    def __init__(self, yaml: Any, doc: SourceDocument) -> None:
        self.constructor = yaml.constructor
        self.doc = doc
        self.count = 0
        self.active: set[int] = set()
        self.warnings: list[Diagnostic] = []

    def _warn(self, message: str, node: Any) -> None:
        mark = node.start_mark
        span = Span(self.doc.path, mark.line + 1, mark.column + 1, mark.line + 1, mark.column + 1)
        self.warnings.append(Diagnostic("warning", message, codes.YAML_VALUE_CONVERTED, span=span, extra=True))

    def convert(self, node: Any, depth: int) -> Any:
        self.count += 1
        if self.count > YAML_NODE_BUDGET:
            raise _YamlProblem(
                f"YAML aliases expand to more than {YAML_NODE_BUDGET} values; refusing to read it.",
                codes.YAML_ALIAS_EXPANSION,
                node,
            )
        if depth > MAX_DEPTH:
            raise _YamlProblem(
                f"YAML is nested deeper than forgec's limit of {MAX_DEPTH} levels.",
                codes.NESTING_TOO_DEEP,
                node,
            )
        kind = type(node).__name__
        if kind == "ScalarNode":
            return self._scalar(node)
        if id(node) in self.active:
            raise _YamlProblem("YAML alias refers to itself (a recursive structure).", codes.YAML_ALIAS_EXPANSION, node)
        tag = str(node.tag)
        self.active.add(id(node))
        try:
            if kind == "SequenceNode":
                if tag != _TAG + "seq":
                    raise self._unsupported(node)
                return [self.convert(child, depth + 1) for child in node.value]
            if tag != _TAG + "map":
                raise self._unsupported(node)
            return self._mapping(node, depth)
        finally:
            self.active.discard(id(node))

    def _unsupported(self, node: Any) -> _YamlProblem:
        tag = str(node.tag)
        shown = "!!" + tag[len(_TAG) :] if tag.startswith(_TAG) else tag
        return _YamlProblem(
            f"YAML value tagged {shown} has no JSON equivalent; write it as a string, number, "
            "boolean, null, list or mapping.",
            codes.YAML_UNSUPPORTED_VALUE,
            node,
        )

    def _key(self, node: Any) -> str:
        if type(node).__name__ != "ScalarNode":
            raise _YamlProblem(
                "YAML mapping key is a list or mapping; keys must be strings.", codes.YAML_UNSUPPORTED_VALUE, node
            )
        value = self._scalar(node, as_key=True)
        if isinstance(value, str):
            return value
        from forgec.js.values import js_string

        text = js_string(value)
        self._warn(f"YAML key {node.value} is not a string; it is read as {text!r}. Quote it.", node)
        return text

    def _mapping(self, node: Any, depth: int) -> dict[str, Any]:
        merged: dict[str, Any] = {}
        explicit: dict[str, Any] = {}
        for key_node, value_node in node.value:
            if str(key_node.tag) == _TAG + "merge":
                sources = value_node.value if type(value_node).__name__ == "SequenceNode" else [value_node]
                for source in sources:
                    if type(source).__name__ != "MappingNode":
                        raise _YamlProblem("YAML merge key << needs a mapping.", codes.YAML_UNSUPPORTED_VALUE, source)
                    for k, v in self.convert(source, depth + 1).items():
                        merged.setdefault(k, v)
                continue
            key = self._key(key_node)
            if key in explicit:
                raise _YamlProblem(f"Duplicate YAML key: {key}", codes.YAML_PARSE_ERROR, key_node)
            explicit[key] = self.convert(value_node, depth + 1)
        if not merged:
            return explicit
        for k, v in explicit.items():
            merged[k] = v
        return merged

    def _scalar(self, node: Any, as_key: bool = False) -> Any:
        tag = str(node.tag)
        if tag == _TAG + "str":
            return node.value
        if tag == _TAG + "null":
            return None
        if tag == _TAG + "timestamp":
            if not as_key:
                self._warn(f"YAML reads {node.value} as a date; it is kept as the string {node.value!r}. Quote it.", node)
            return node.value
        if tag in (_TAG + "bool", _TAG + "int", _TAG + "float"):
            from ruamel.yaml.error import YAMLError

            try:
                value = self.constructor.construct_object(node, deep=True)
            except (YAMLError, ValueError, KeyError, TypeError, ArithmeticError) as error:  # !!int x, !!bool maybe
                raise _YamlProblem(f"Invalid YAML scalar {node.value!r}: {error}", codes.YAML_UNSUPPORTED_VALUE, node) from None
            if tag == _TAG + "bool":
                return bool(value)
            if tag == _TAG + "int":
                integer = int(value)
                return integer if -(2**53) <= integer <= 2**53 else _to_double(integer)
            number = float(value)
            if number != number:
                raise _YamlProblem("YAML .nan has no JSON equivalent.", codes.YAML_UNSUPPORTED_VALUE, node)
            return number
        raise self._unsupported(node)


def _yaml_member(node: Any, part: str) -> tuple[Any, Any] | None:
    """The last ``(key_node, value_node)`` of a mapping whose key reads as ``part`` (merges too)."""
    found = None
    for key_node, value_node in node.value:
        if type(key_node).__name__ == "ScalarNode" and str(key_node.tag).endswith(":merge"):
            continue
        if type(key_node).__name__ == "ScalarNode" and _yaml_key_text(key_node) == part:
            found = (key_node, value_node)
    if found is not None:
        return found
    for key_node, value_node in node.value:
        if str(key_node.tag).endswith(":merge"):
            sources = value_node.value if type(value_node).__name__ == "SequenceNode" else [value_node]
            for source in sources:
                if type(source).__name__ == "MappingNode":
                    inner = _yaml_member(source, part)
                    if inner is not None:
                        return inner
    return None


def _to_double(integer: int) -> float:
    """An integer beyond 2**53 as JavaScript reads its literal: the nearest double, or +/-Infinity
    past the double range (``JSON.parse`` and forgec's JSON reader do the same)."""
    try:
        return float(integer)
    except OverflowError:
        return math.inf if integer > 0 else -math.inf


def _match_end(pattern: re.Pattern[str], text: str, pos: int) -> int:
    """Where ``pattern`` -- one that matches the empty string too -- stops matching at ``pos``."""
    match = pattern.match(text, pos)
    assert match is not None
    return match.end()


def _yaml_key_text(node: Any) -> str:
    tag = str(node.tag)
    value: str = node.value
    if tag in (_TAG + "str", _TAG + "timestamp"):
        return value
    if tag == _TAG + "null":
        return "null"
    if tag == _TAG + "bool":
        return "true" if value.lower() == "true" else "false"
    if tag == _TAG + "int":
        try:
            from forgec.js.values import js_string

            return js_string(int(value.replace("_", ""), 0))
        except ValueError:
            return value
    return value


class YamlLocator:
    """Positions in a YAML text, from ruamel's composed node tree."""

    def __init__(self, root: Any) -> None:
        self._root = root
        #: id(scalar node) -> its characters' offsets (the tree keeps the nodes alive)
        self._offsets: dict[int, list[int]] = {}
        #: (pointer, key) -> node: thousands of findings often share one pointer (one block's text)
        self._nodes: dict[tuple[tuple[Any, ...], bool], Any] = {}

    def prepare(self, doc: SourceDocument, pointers: set[tuple[Any, ...]]) -> None:
        """Nothing to prepare: the node tree is already there."""

    def _node(self, pointer: tuple[Any, ...], key: bool = False) -> Any:
        memo = (pointer, key)
        if memo in self._nodes:
            return self._nodes[memo]
        node = self._nodes[memo] = self._walk(pointer, key)
        return node

    def _walk(self, pointer: tuple[Any, ...], key: bool) -> Any:
        node = self._root
        key_node = None
        for part in pointer:
            if node is None:
                return None
            kind = type(node).__name__
            if kind == "MappingNode" and isinstance(part, str):
                found = _yaml_member(node, part)
                if found is None:
                    return None
                key_node, node = found
            elif kind == "SequenceNode" and isinstance(part, int):
                if not 0 <= part < len(node.value):
                    return None
                key_node, node = None, node.value[part]
            else:
                return None
        if key and key_node is not None:
            return key_node
        return node

    def locate(self, doc: SourceDocument, pointer: tuple[Any, ...], key: bool) -> Span | None:
        node = self._node(pointer, key)
        if node is None:
            return None
        start, end = node.start_mark, node.end_mark
        return Span(doc.path, start.line + 1, start.column + 1, end.line + 1, end.column + 1)

    def locate_in_string(self, doc: SourceDocument, pointer: tuple[Any, ...], offset: int, length: int) -> Span | None:
        assert doc.text is not None
        node = self._node(pointer)
        if node is None or type(node).__name__ != "ScalarNode":
            return None
        offsets = self._offsets.get(id(node))
        if offsets is None:
            offsets = self._offsets[id(node)] = _yaml_scalar_offsets(doc.text, node)
        last = len(offsets) - 1
        return doc.span(offsets[min(offset, last)], offsets[min(offset + length, last)])


def _yaml_scalar_offsets(text: str, node: Any) -> list[int]:
    """The text offset of every character of a YAML scalar, then its end (exact for literal blocks
    and plain or quoted scalars on one line; approximate where folding joins lines).  Built once
    per scalar, so thousands of findings in one value are located in linear time."""
    style = node.style
    start: int = node.start_mark.index
    stop: int = node.end_mark.index
    offsets: list[int] = []
    if style in ("|", ">"):
        line_start = text.find("\n", start)
        if line_start < 0:
            return [start]
        line_start += 1
        lines = text[line_start:stop].split("\n")
        indent = 0
        for line in lines:
            if line.strip():
                indent = len(line) - len(line.lstrip(" "))
                break
        pos = line_start
        for line in lines:
            content = len(line) - indent if len(line) > indent else 0
            first = pos + min(indent, len(line))
            offsets.extend(range(first, first + content + 1))
            pos += len(line) + 1
        offsets.append(stop)
        return offsets
    quote = style if style in ('"', "'") else None
    pos = start + (1 if quote else 0)
    # most scalars are one line without escapes: every character is one text character (the
    # loop below would step one at a time, through the closing quote, to ``stop``)
    if "\n" not in text[start:stop] and (
        quote is None
        or (quote == '"' and "\\" not in text[pos:stop])
        or (quote == "'" and "''" not in text[pos : stop + 1])
    ):
        return list(range(pos, max(stop, pos) + 1))
    offsets.append(pos)
    while pos < stop:
        char = text[pos]
        if char == "\n":
            pos += 1
            while pos < stop and text[pos] in " \t":
                pos += 1
        elif quote == '"' and char == "\\":
            nxt = text[pos + 1 : pos + 2]
            pos += {"x": 4, "u": 6, "U": 10}.get(nxt, 2)
        elif quote == "'" and char == "'" and text[pos + 1 : pos + 2] == "'":
            pos += 2
        else:
            pos += 1
        offsets.append(pos)
    return offsets
