"""Reading stack files (JSON exactly as pi-forge reads them, and YAML) and finding positions in them.

pi-forge reads a stack with ``readFile(path, "utf8")`` and ``JSON.parse`` (compile-core.md §10.2,
§16.10): invalid UTF-8 becomes U+FFFD, a byte-order mark is *not* stripped (so it makes the parse
fail), and any failure is one diagnostic ``Failed to parse JSON: <reason>``.  :func:`read_source`
does exactly that for ``.json`` files, through :mod:`forgec.js.json` (C ``json`` first, a V8
transliteration only when that fails).

YAML (``.yaml``/``.yml``) is forgec's own addition, read into the same data model with ruamel.yaml
(YAML 1.2 core schema, so ``yes``/``no`` stay strings).  Choices, all reported as diagnostics and
never as exceptions:

* a BOM is allowed, invalid UTF-8 bytes become U+FFFD as for JSON;
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

Every YAML or JSON file forgec reads from a user (stacks, contexts, ``forgec fingerprint``) goes
through :func:`read_source` / :func:`decode_source` / :func:`parse_source_text`, so the limits and
the error texts are the same everywhere.  Reading also adds two forgec-only hints: FG009 (info) when
a JSON file starts with a byte-order mark, and FG010 (warning) at the first byte that is not UTF-8.

Positions are resolved lazily: the fast readers keep no positions, and :meth:`SourceDocument.locate`
re-scans the text (JSON) or walks ruamel's node tree (YAML) only when a diagnostic needs a line and
column.  :func:`resolve_spans` returns a list's diagnostics with :attr:`Diagnostic.span` filled in.
"""

from __future__ import annotations

import errno
import os
import re
import sys
from bisect import bisect_right
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from forgec.diagnostics import Diagnostic, Pointer, Span
from forgec.js.json import MAX_DEPTH, JSONDepthError, JSONParseError, loads
from forgec.rules import loader as codes

__all__ = [
    "MAX_FILE_BYTES",
    "MAX_YAML_BYTES",
    "YAML_MAX_FLOW_DEPTH",
    "YAML_NODE_BUDGET",
    "SourceDocument",
    "decode_source",
    "is_yaml_path",
    "parse_source_text",
    "read_file_bytes",
    "read_source",
    "resolve_spans",
]

#: Larger files are refused with a diagnostic (pi-forge has no limit; V8 strings stop at 512 Mi units).
MAX_FILE_BYTES = 64 * 1024 * 1024
#: ruamel.yaml is pure Python (about 200 KB/s), so YAML input is capped lower.
MAX_YAML_BYTES = 4 * 1024 * 1024
#: Most nodes a YAML document may expand to once aliases are copied.
YAML_NODE_BUDGET = 1_000_000
#: Deepest flow nesting (``[``/``{``) read from YAML.  Lower than JSON's ``MAX_DEPTH`` because
#: ruamel's scanner is quadratic in it (see the module docstring); 1,000 levels take ruamel ~1 s.
YAML_MAX_FLOW_DEPTH = 1000
#: Recursion limit while ruamel composes (it recurses about three frames per nesting level).
_YAML_RECURSION_LIMIT = 12_000
#: Above this size the JSON position index is built only for the pointers asked for.
_FULL_INDEX_CHARS = 2_000_000

_YAML_SUFFIXES = (".yaml", ".yml")


def is_yaml_path(path: str | os.PathLike[str]) -> bool:
    """Whether forgec reads this file as YAML (by suffix, case-insensitive)."""
    return str(path).lower().endswith(_YAML_SUFFIXES)


@dataclass(eq=False)
class SourceDocument:
    """A file as read: its text, the parsed value, reading diagnostics, and lazy positions.

    ``parsed`` is False when the file could not be read or parsed; ``data`` is then ``None`` and
    ``diagnostics`` says why.  Offsets are indexes into ``text`` (code points).
    """

    path: str
    format: str  # "json" | "yaml"
    text: str | None = None
    data: Any = None
    parsed: bool = False
    diagnostics: list[Diagnostic] = field(default_factory=list)
    _yaml_root: Any = field(default=None, repr=False)
    _spans: dict[tuple, tuple] | None = field(default=None, repr=False)
    _partial_spans: dict[tuple, tuple | None] = field(default_factory=dict, repr=False)
    _line_starts: list[int] | None = field(default=None, repr=False)

    # -- offsets -> positions

    def position(self, offset: int) -> tuple[int, int]:
        """1-based ``(line, column)`` of a code-point offset; ``\\n`` ends a line."""
        if self._line_starts is None:
            text = self.text or ""
            self._line_starts = [0] + [m.end() for m in re.finditer("\n", text)]
        index = bisect_right(self._line_starts, offset) - 1
        return index + 1, offset - self._line_starts[index] + 1

    def span(self, start: int, end: int | None = None) -> Span:
        """The span of ``text[start:end]``; ``end_line``/``end_column`` point just past it."""
        line, column = self.position(start)
        end_line, end_column = self.position(start if end is None else max(end, start))
        return Span(self.path, line, column, end_line, end_column)

    # -- pointers -> spans

    def locate(self, pointer: Pointer | None, key: bool = False) -> Span | None:
        """Where the value at ``pointer`` sits (or its key, with ``key=True``).

        A pointer that does not exist (a missing member) resolves to its nearest existing
        ancestor, so "item 3 has no kind" points at item 3.  ``None`` when the document was not
        parsed or the pointer is ``None``.
        """
        if pointer is None or not self.parsed or self.text is None:
            return None
        pointer = tuple(pointer)
        for length in range(len(pointer), -1, -1):
            prefix = pointer[:length]
            found = self._locate_json(prefix, key) if self.format == "json" else self._locate_yaml(prefix, key)
            if found is not None:
                return found
            key = False
        return None

    def locate_in_string(self, pointer: Pointer | None, offset: int, length: int = 0) -> Span | None:
        """Where characters ``[offset, offset+length)`` of the string value at ``pointer`` sit.

        ``offset`` counts characters of the decoded value (Python string indexes).  JSON escapes
        are mapped exactly; YAML block scalars map line by line, and folded or multi-line flow
        scalars approximately.  Falls back to :meth:`locate` when the value is not a string.
        """
        if pointer is None or not self.parsed or self.text is None:
            return None
        pointer = tuple(pointer)
        if self.format == "json":
            spans = self._json_spans({pointer})
            entry = spans.get(pointer)
            if entry is None or self.text[entry[2]] != '"':
                return self.locate(pointer)
            start = _json_string_offset(self.text, entry[2], offset)
            end = _json_string_offset(self.text, entry[2], offset + max(length, 0))
            return self.span(start, end)
        node = self._yaml_node(pointer)
        if node is None or type(node).__name__ != "ScalarNode":
            return self.locate(pointer)
        start = _yaml_scalar_offset(self.text, node, offset)
        end = _yaml_scalar_offset(self.text, node, offset + max(length, 0))
        return self.span(start, end)

    # -- JSON

    def _json_spans(self, wanted: set[tuple]) -> dict[tuple, Any]:
        from forgec.js.json import JSONParseError, scan_spans

        assert self.text is not None
        if self._spans is not None:
            return self._spans
        try:
            if len(self.text) <= _FULL_INDEX_CHARS:
                self._spans = scan_spans(self.text)
                return self._spans
            missing = {p for p in wanted if p not in self._partial_spans}
            if missing:
                found = scan_spans(self.text, missing)
                for p in missing:
                    self._partial_spans[p] = found.get(p)
        except JSONParseError:  # text that only the deep-reading path accepted: no positions
            self._spans = {}
            return self._spans
        return self._partial_spans

    def _locate_json(self, pointer: tuple, key: bool) -> Span | None:
        entry = self._json_spans({pointer}).get(pointer)
        if entry is None:
            return None
        key_start, key_end, start, end = entry
        if key and key_start >= 0:
            return self.span(key_start, key_end)
        return self.span(start, end)

    # -- YAML

    def _yaml_node(self, pointer: tuple, key: bool = False) -> Any:
        node = self._yaml_root
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

    def _locate_yaml(self, pointer: tuple, key: bool) -> Span | None:
        node = self._yaml_node(pointer, key)
        if node is None:
            return None
        start, end = node.start_mark, node.end_mark
        return Span(self.path, start.line + 1, start.column + 1, end.line + 1, end.column + 1)


def resolve_spans(diagnostics: Iterable[Diagnostic], document: SourceDocument | None) -> list[Diagnostic]:
    """The diagnostics with ``span`` filled in where a pointer gives one (copies; the inputs are
    not changed).  Diagnostics that already have a span, or no pointer, are returned as they are."""
    diagnostics = list(diagnostics)
    if document is None or not document.parsed:
        return diagnostics
    pending = [i for i, d in enumerate(diagnostics) if d.span is None and d.pointer is not None]
    if not pending:
        return diagnostics
    if document.format == "json" and document.text is not None and len(document.text) > _FULL_INDEX_CHARS:
        wanted = set()
        for i in pending:
            pointer = tuple(diagnostics[i].pointer or ())
            wanted.update(pointer[:n] for n in range(len(pointer) + 1))
        document._json_spans(wanted)
    for i in pending:
        d = diagnostics[i]
        if d.offset is not None:
            span = document.locate_in_string(d.pointer, d.offset, d.length or 0)
        else:
            span = document.locate(d.pointer)
        if span is not None:
            diagnostics[i] = replace(d, span=span)
    return diagnostics


# --- reading ------------------------------------------------------------------------------------


def _node_error_text(error: OSError, path: str) -> str:
    """Node's ``readFile`` error text (``ENOENT: no such file or directory, open '<path>'``)."""
    if isinstance(error, IsADirectoryError):
        return "EISDIR: illegal operation on a directory, read"
    name = errno.errorcode.get(error.errno or 0, "EIO")
    detail = {
        errno.ENOENT: "no such file or directory",
        errno.EACCES: "permission denied",
        errno.EPERM: "operation not permitted",
    }.get(error.errno or 0, (error.strerror or "i/o error").lower())
    return f"{name}: {detail}, open '{path}'"


_CHUNK = 1 << 16
_READ_FLAGS = os.O_RDONLY | getattr(os, "O_BINARY", 0)


def read_file_bytes(path: str | os.PathLike[str], limit: int | None = None) -> bytes:
    """The bytes of a file, or its first ``limit + 1`` bytes (enough to tell it is too large).

    A compile reads two small files, so this skips the buffered file object of ``open()`` (about
    3 µs per file) and sizes the first read from ``fstat``: ``read(n)`` allocates ``n`` bytes up
    front, which for a 64 MiB cap cost ~20 µs per file.  Files whose size ``fstat`` does not know
    (pipes, ``/dev/stdin``) are read in chunks.  Raises ``OSError`` as ``open()`` would.
    """
    cap = -1 if limit is None else limit + 1
    fd = os.open(path, _READ_FLAGS)
    try:
        size = os.fstat(fd).st_size
        want = size + 1 if size > 0 else _CHUNK
        if cap >= 0:
            want = min(want, cap)
        chunks: list[bytes] = []
        total = 0
        while want > 0:
            chunk = os.read(fd, want)
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
            if size > 0 and len(chunk) < want:  # a regular file read short: its end (no empty read)
                break
            want = _CHUNK if cap < 0 else min(_CHUNK, cap - total)
    finally:
        os.close(fd)
    return chunks[0] if len(chunks) == 1 else b"".join(chunks)


def read_source(path: str | os.PathLike[str], *, allow_bom: bool = False) -> SourceDocument:
    """Read and parse a stack file; never raises (problems are ``document.diagnostics``).

    ``allow_bom`` as for :func:`decode_source` (contexts only).
    """
    name = os.fspath(path)
    fmt = "yaml" if is_yaml_path(name) else "json"
    try:
        raw = read_file_bytes(name, MAX_FILE_BYTES)
    except OSError as error:
        doc = SourceDocument(name, fmt)
        reason = _node_error_text(error, name)
        message = f"Failed to parse JSON: {reason}" if fmt == "json" else f"Failed to read YAML: {reason}"
        doc.diagnostics.append(Diagnostic("error", message, codes.FILE_UNREADABLE))
        return doc
    limit = MAX_YAML_BYTES if fmt == "yaml" else MAX_FILE_BYTES
    if len(raw) > limit:
        doc = SourceDocument(name, fmt)
        doc.diagnostics.append(
            Diagnostic(
                "error",
                f"File is larger than forgec's {limit // (1024 * 1024)} MiB limit for {fmt.upper()} input.",
                codes.FILE_TOO_LARGE,
            )
        )
        return doc
    return decode_source(raw, name, fmt, allow_bom=allow_bom)


def decode_source(raw: bytes, path: str = "<memory>", fmt: str = "json", *, allow_bom: bool = False) -> SourceDocument:
    """Decode ``raw`` as Node's ``readFile(path, "utf8")`` does and parse it; never raises.

    Invalid UTF-8 becomes U+FFFD (pi-forge reads it silently), with a forgec-only FG010 warning at
    the first such byte.  ``allow_bom``: a leading byte-order mark is read as a space (so positions
    stay right) instead of failing ``JSON.parse`` — for forgec's own formats (contexts), never for
    stacks, whose JSON must be read exactly as pi-forge reads it.
    """
    try:
        text = raw.decode("utf-8")
        bad_at = None
    except UnicodeDecodeError as error:
        text = raw.decode("utf-8", errors="replace")
        bad_at = len(raw[: error.start].decode("utf-8", errors="replace"))
    if allow_bom and text.startswith("\ufeff"):
        text = " " + text[1:]
    doc = parse_source_text(text, path, fmt)
    if bad_at is not None:
        line, column = doc.position(bad_at)
        doc.diagnostics.append(
            Diagnostic(
                "warning",
                f"The file is not valid UTF-8 (first bad byte at line {line}, column {column}); pi-forge "
                "reads such bytes as U+FFFD. Re-save the file as UTF-8.",
                codes.INVALID_UTF8,
                span=doc.span(bad_at, bad_at + 1),
                extra=True,
            )
        )
    return doc


def parse_source_text(text: str, path: str = "<memory>", fmt: str = "json") -> SourceDocument:
    """Parse already-decoded text as ``fmt`` (``"json"`` or ``"yaml"``); never raises."""
    doc = SourceDocument(str(path), fmt, text)
    if fmt == "yaml":
        _parse_yaml(doc)
    else:
        _parse_json(doc)
        if not doc.parsed and text.startswith("\ufeff"):
            doc.diagnostics.append(
                Diagnostic(
                    "info",
                    "The file starts with a UTF-8 byte-order mark; pi-forge cannot read it. Save it "
                    "without BOM.",
                    codes.BYTE_ORDER_MARK,
                    span=doc.span(0, 1),
                    extra=True,
                )
            )
    return doc


def _parse_json(doc: SourceDocument) -> None:
    assert doc.text is not None
    try:
        doc.data = loads(doc.text)
        doc.parsed = True
    except JSONDepthError as error:
        doc.diagnostics.append(
            Diagnostic(
                "error",
                f"JSON is nested deeper than forgec's limit of {_max_depth()} levels.",
                codes.NESTING_TOO_DEEP,
                span=doc.span(error.offset or 0),
            )
        )
    except JSONParseError as error:
        span = doc.span(error.offset) if error.offset is not None else None
        doc.diagnostics.append(
            Diagnostic("error", f"Failed to parse JSON: {error.reason}", codes.JSON_PARSE_ERROR, span=span)
        )
    except (RecursionError, MemoryError) as error:  # pragma: no cover - defensive
        doc.diagnostics.append(
            Diagnostic("error", f"Failed to parse JSON: {type(error).__name__}", codes.JSON_PARSE_ERROR)
        )


def _max_depth() -> int:
    return MAX_DEPTH


# --- YAML ---------------------------------------------------------------------------------------


class _YamlProblem(Exception):
    def __init__(self, message: str, code: str, node: Any) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.node = node


def _parse_yaml(doc: SourceDocument) -> None:
    from ruamel.yaml import YAML
    from ruamel.yaml.error import MarkedYAMLError, YAMLError
    from ruamel.yaml.reader import ReaderError

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
    try:
        sys.setrecursionlimit(max(limit, _YAML_RECURSION_LIMIT))
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
        if root is not None:
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
    doc._yaml_root = root
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
            indent = _INDENT.match(text, line_start).end() - line_start
            newline = text.find("\n", at)
            while newline >= 0:
                following = newline + 1
                width = _INDENT.match(text, following).end() - following
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
        if depth > _max_depth():
            raise _YamlProblem(
                f"YAML is nested deeper than forgec's limit of {_max_depth()} levels.",
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
            try:
                value = self.constructor.construct_object(node, deep=True)
            except Exception as error:  # a malformed number such as 0o9
                raise _YamlProblem(f"Invalid YAML scalar {node.value!r}: {error}", codes.YAML_UNSUPPORTED_VALUE, node) from None
            if tag == _TAG + "bool":
                return bool(value)
            if tag == _TAG + "int":
                number = int(value)
                return number if -(2**53) <= number <= 2**53 else float(number)
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


def _yaml_key_text(node: Any) -> str:
    tag = str(node.tag)
    if tag in (_TAG + "str", _TAG + "timestamp"):
        return node.value
    if tag == _TAG + "null":
        return "null"
    if tag == _TAG + "bool":
        return "true" if node.value.lower() == "true" else "false"
    if tag == _TAG + "int":
        try:
            from forgec.js.values import js_string

            return js_string(int(node.value.replace("_", ""), 0))
        except ValueError:
            return node.value
    return node.value


# --- offsets inside string values ---------------------------------------------------------------

_JSON_ESCAPE_U = re.compile(r"\\u([0-9a-fA-F]{4})")


def _json_string_offset(text: str, start: int, index: int) -> int:
    """Text offset of character ``index`` of the JSON string literal starting (``"``) at ``start``."""
    pos = start + 1
    count = 0
    end = len(text)
    while count < index and pos < end:
        char = text[pos]
        if char == '"':
            break
        if char == "\\":
            match = _JSON_ESCAPE_U.match(text, pos)
            if match:
                code = int(match.group(1), 16)
                pos += 6
                if 0xD800 <= code <= 0xDBFF:
                    low = _JSON_ESCAPE_U.match(text, pos)
                    if low and 0xDC00 <= int(low.group(1), 16) <= 0xDFFF:
                        pos += 6
            else:
                pos += 2
        else:
            pos += 1
        count += 1
    return pos


def _yaml_scalar_offset(text: str, node: Any, index: int) -> int:
    """Text offset of character ``index`` of a YAML scalar (exact for literal blocks and plain or
    quoted scalars on one line; approximate where folding joins lines)."""
    style = node.style
    start = node.start_mark.index
    stop = node.end_mark.index
    if style in ("|", ">"):
        line_start = text.find("\n", start)
        if line_start < 0:
            return start
        line_start += 1
        lines = text[line_start:stop].split("\n")
        indent = None
        for line in lines:
            if line.strip():
                indent = len(line) - len(line.lstrip(" "))
                break
        indent = indent or 0
        pos = line_start
        remaining = index
        for line in lines:
            content = len(line) - indent if len(line) > indent else 0
            if remaining <= content:
                return pos + min(indent, len(line)) + remaining
            remaining -= content + 1
            pos += len(line) + 1
        return stop
    quote = style if style in ('"', "'") else None
    pos = start + (1 if quote else 0)
    count = 0
    while count < index and pos < stop:
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
        count += 1
    return pos

