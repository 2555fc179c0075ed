"""Reading input files: the bytes, the decoding pi-forge applies, the size limits, Node's error texts.

pi-forge reads a stack with ``readFile(path, "utf8")`` and ``JSON.parse`` (compile-core.md §10.2,
§16.10): invalid UTF-8 becomes U+FFFD, a byte-order mark is *not* stripped (so it makes the parse
fail), and any failure is one diagnostic ``Failed to parse JSON: <reason>``.  :func:`read_source`
does exactly that for ``.json`` files; ``.yaml``/``.yml`` files go to :mod:`forgec.source.yaml`.
Every file forgec reads from a user goes through these functions, so the limits and texts are the
same everywhere.  Reading also adds two forgec-only hints: FG009 (info) when a JSON file starts
with a byte-order mark, and FG010 (warning) at the first byte that is not UTF-8.
"""

from __future__ import annotations

import errno
import os
from stat import S_ISREG

from forgec.diagnostics import Diagnostic
from forgec.rules import loader as codes
from forgec.source.collector import LARGE_INPUT_CHARS, gc_paused
from forgec.source.document import SourceDocument
from forgec.source.json import parse_json
from forgec.source.overlay import overlaid

# the public names are re-exported by forgec.source, whose __all__ lists them

#: Larger files are refused with a diagnostic (pi-forge has no limit; V8 strings stop at 512 Mi units).
MAX_FILE_BYTES = 64 * 1024 * 1024
#: ruamel.yaml is pure Python (about 200 KB/s), so YAML input is capped lower.
MAX_YAML_BYTES = 4 * 1024 * 1024

_YAML_SUFFIXES = (".yaml", ".yml")


def is_yaml_path(path: str | os.PathLike[str]) -> bool:
    """Whether forgec reads this file as YAML (by suffix, case-insensitive)."""
    return str(path).lower().endswith(_YAML_SUFFIXES)


def node_error_text(error: OSError | ValueError, path: str) -> str:
    """Node's ``readFile`` error text (``ENOENT: no such file or directory, open '<path>'``).

    A ``ValueError`` is a path the operating system cannot even be asked about: one holding a NUL
    character (Node refuses it with ``ERR_INVALID_ARG_VALUE``) or a lone surrogate (which Node
    would write as U+FFFD, naming no file that exists).
    """
    if isinstance(error, ValueError):
        shown = path.replace("\x00", "\\x00")
        if "\x00" in path:
            return (
                "The argument 'path' must be a string, Uint8Array, or URL without null bytes. "
                f"Received '{shown}'"
            )
        return f"ENOENT: no such file or directory, open '{path}'"
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
#: the largest end offset read in one ``pread`` of that size (``pread`` allocates what it is asked
#: for before reading: an offset a directory reports must never become a buffer)
_SEEK_READ_MAX = 1 << 24
_PREAD = hasattr(os, "pread")  # POSIX
_READ_FLAGS = os.O_RDONLY | getattr(os, "O_BINARY", 0)
#: opening a named pipe that has no writer blocks forever without it (POSIX)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)


def size_problem(size: int, fmt: str) -> Diagnostic | None:
    """FG004 when ``size`` bytes are over forgec's limit for ``fmt`` input (files and standard input alike)."""
    limit = MAX_YAML_BYTES if fmt == "yaml" else MAX_FILE_BYTES
    if size <= limit:
        return None
    return Diagnostic(
        "error",
        f"File is larger than forgec's {limit // (1024 * 1024)} MiB limit for {fmt.upper()} input.",
        codes.FILE_TOO_LARGE,
    )


def read_file_bytes(path: str | os.PathLike[str], limit: int | None = None) -> bytes:
    """The bytes of a file, or its first ``limit + 1`` bytes (enough to tell it is too large).

    A compile reads two small files, so this skips the buffered file object of ``open()`` (about
    3 µs per file) and sizes the first read from the file's end offset (``fstat`` when it cannot
    seek): ``read(n)`` allocates ``n`` bytes up front, which for a 64 MiB cap cost ~20 µs per file.
    Files whose size neither knows (pipes, ``/dev/stdin``) are read in chunks.  Raises ``OSError`` as ``open()`` would
    (``ValueError`` for a path holding NUL).

    A named pipe is opened without blocking and then read normally: with a writer it is read to
    its end, without one it reads as empty at once -- plain ``open()`` would wait forever.
    """
    cap = -1 if limit is None else limit + 1
    unsaved = overlaid(path)
    if unsaved is not None:  # an editor's buffer (forgec.source.overlay), never the disk
        return unsaved if cap < 0 else unsaved[:cap]
    fd = os.open(path, _READ_FLAGS | _NONBLOCK)
    try:
        # the end offset first: for the usual file it is the size, and ``lseek`` returns a plain int
        # where ``fstat`` builds a stat result (~0.6 µs; every compile reads two files).  A pipe cannot
        # seek (it goes the ``fstat`` way below, untouched); a device or ``/proc`` file answers 0 or
        # refuses; a directory, when it answers, fails at the read as before (EISDIR).
        try:
            end = os.lseek(fd, 0, os.SEEK_END)
        except OSError:
            end = -1
        if 0 < end <= _SEEK_READ_MAX and (cap < 0 or end < cap) and _PREAD:
            first = os.pread(fd, end + 1, 0)  # the offset stays at the end: no second seek
            if len(first) <= end:
                return first
            os.lseek(fd, len(first), os.SEEK_SET)  # it grew: read on where pread stopped
            return first + _read_chunks(fd, -1 if cap < 0 else cap - len(first), end)
        if end >= 0:
            os.lseek(fd, 0, os.SEEK_SET)
        stat = os.fstat(fd)
        size = stat.st_size
        if not S_ISREG(stat.st_mode):
            if _NONBLOCK:  # a regular file never blocks: two fcntl calls spared
                os.set_blocking(fd, True)
        elif size > 0 and (cap < 0 or size < cap):
            # the usual file: one read of its size plus one byte, and a short read is its end (the
            # loop below would do the same after building its list of chunks)
            first = os.read(fd, size + 1)
            if len(first) <= size:
                return first
            return first + _read_chunks(fd, -1 if cap < 0 else cap - len(first), size)
        return _read_chunks(fd, cap, size)
    finally:
        os.close(fd)


def _read_chunks(fd: int, cap: int, size: int) -> bytes:
    """The rest of ``fd`` (at most ``cap`` bytes, ``-1``: no cap), ``size`` its ``fstat`` size (0: unknown)."""
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
    return chunks[0] if len(chunks) == 1 else b"".join(chunks)


def read_source(path: str | os.PathLike[str], *, allow_bom: bool = False) -> SourceDocument:
    """Read and parse a stack file; never raises (problems are ``document.diagnostics``).

    ``allow_bom`` as for :func:`decode_source` (contexts only).
    """
    name = os.fspath(path)
    fmt = "yaml" if is_yaml_path(name) else "json"
    try:
        raw = read_file_bytes(name, MAX_FILE_BYTES)
    except (OSError, ValueError) as error:  # ValueError: a NUL or a lone surrogate in the path
        doc = SourceDocument(name, fmt)
        reason = node_error_text(error, name)
        message = f"Failed to parse JSON: {reason}" if fmt == "json" else f"Failed to read YAML: {reason}"
        doc.diagnostics.append(Diagnostic("error", message, codes.FILE_UNREADABLE))
        return doc
    too_large = size_problem(len(raw), fmt)
    if too_large is not None:
        doc = SourceDocument(name, fmt)
        doc.diagnostics.append(too_large)
        return doc
    return decode_source(raw, name, fmt, allow_bom=allow_bom)


def decode_source(
    raw: bytes, path: str = "<memory>", fmt: str = "json", *, allow_bom: bool = False, prose: bool = False
) -> SourceDocument:
    """Decode ``raw`` as Node's ``readFile(path, "utf8")`` does and parse it; never raises.

    Invalid UTF-8 becomes U+FFFD (pi-forge reads it silently), with a forgec-only FG010 warning at
    the first such byte.  ``allow_bom``: a leading byte-order mark is read as a space (so positions
    stay right) instead of failing ``JSON.parse`` — for forgec's own formats (contexts), never for
    stacks, whose JSON must be read exactly as pi-forge reads it.  Bytes over the size limit of
    ``fmt`` (standard input can be any size) are refused with FG004 before anything is decoded.
    ``prose``: JSON with few integer literals (a stack file, whose texts are blocks), read by
    :func:`forgec.js.json.loads_decoded`, which spares it the pass over the text that looks for a
    run of 16 digits (~0.35 ms of a 1,000-block file, a third of its parse) and gives the same value.
    """
    too_large = size_problem(len(raw), fmt)
    if too_large is not None:
        doc = SourceDocument(path, fmt)
        doc.diagnostics.append(too_large)
        return doc
    try:
        text = raw.decode("utf-8")
        bad_at = None
    except UnicodeDecodeError as error:
        text = raw.decode("utf-8", errors="replace")
        bad_at = len(raw[: error.start].decode("utf-8", errors="replace"))
    if allow_bom and text.startswith("\ufeff"):
        text = " " + text[1:]
    doc = parse_source_text(text, path, fmt, data=raw if prose and not allow_bom else None)
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


def parse_source_text(text: str, path: str = "<memory>", fmt: str = "json", *, data: bytes | None = None) -> SourceDocument:
    """Parse already-decoded text as ``fmt`` (``"json"`` or ``"yaml"``); never raises.

    ``data``: the bytes ``text`` was decoded from (bad bytes replaced), for JSON with few integer
    literals (see :func:`decode_source`'s ``prose``)."""
    doc = SourceDocument(str(path), fmt, text)
    if fmt == "yaml":
        from forgec.source.yaml import parse_yaml

        parse_yaml(doc)
    else:
        with gc_paused(len(text), LARGE_INPUT_CHARS):  # a shared no-op for the usual small file
            parse_json(doc, data)
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
