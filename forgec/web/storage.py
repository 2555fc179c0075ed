"""The editor's files: which stack folders it lists, and the only writes it makes.

Every path the browser names is a *reference* ``<location>/<file name>``, never a path: the
location is one of :data:`LOCATIONS` (the project's ``.pi/forge/prompt-stacks``, the legacy
``.pi/prompt-stacks``, the user-global ``prompt-stacks``), the file name a plain name with a stack
suffix.  :meth:`StackStorage.path_of` turns a reference into a path and refuses anything else (a
separator, ``..``, a hidden name, a symbolic link on the way), so a request can never reach a file
outside stack storage.  The user-global folder is written only when the server was started with
``--global``; ``--read-only`` refuses every write.

Writes are atomic (:mod:`forgec.atomic`) and guarded against lost updates: the browser sends the
sha256 of the bytes it loaded, and a save or delete whose file changed on disk since then is a
:class:`Conflict` that carries the file's current text, so neither side's work is lost.
"""

from __future__ import annotations

import hashlib
import itertools
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from forgec.atomic import ExistingFilesError, symlink_on_path, write_bytes_atomic
from forgec.errors import ForgecError
from forgec.workspace import STACK_SUFFIXES, global_stack_dir, project_stack_dirs

__all__ = [
    "LOCATIONS",
    "Conflict",
    "Refused",
    "StackStorage",
    "StoredFile",
    "digest",
    "render_stack",
]

#: location name -> scope; the order is pi-forge's listing order (global first, then the project group)
LOCATIONS = {"global": "global", "project": "project", "legacy": "project"}

_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]*")
#: pi-forge's stack id syntax (an id becomes a file name)
_ID = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_-]*")


class Refused(ForgecError):
    """A request the editor will not carry out; ``status`` is the HTTP status (400, 403, 404, 422)."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


class Conflict(ForgecError):
    """The file changed on disk since the browser loaded it (HTTP 409)."""

    def __init__(self, message: str, current: StoredFile | None) -> None:
        super().__init__(message)
        self.current = current


def digest(data: bytes) -> str:
    """The version tag of a file's bytes that a save must name (sha256, hex)."""
    return hashlib.sha256(data).hexdigest()


@dataclass(frozen=True, slots=True)
class StoredFile:
    """One stack file as read: its reference, path, text and the digest of its bytes."""

    ref: str
    path: Path
    text: str
    hash: str

    def to_json(self) -> dict[str, Any]:
        return {"ref": self.ref, "path": str(self.path), "text": self.text, "hash": self.hash,
                "format": "yaml" if self.path.suffix in (".yaml", ".yml") else "json"}  # fmt: skip


def check_id(stack_id: str) -> str:
    """A new stack id must be pi-forge's id syntax: it becomes the file name."""
    if not isinstance(stack_id, str) or not _ID.fullmatch(stack_id) or len(stack_id) > 200:
        raise Refused(f"invalid stack id {stack_id!r}: letters, digits, '_' and '-' only")
    return stack_id


@dataclass(frozen=True)
class StackStorage:
    """The stack folders of one project and of the user-global forge folder."""

    root: Path
    global_dir: Path
    read_only: bool = False
    allow_global: bool = False

    def folder(self, location: str) -> Path:
        if location == "global":
            return global_stack_dir(self.global_dir)
        primary, legacy = project_stack_dirs(self.root)
        if location == "project":
            return primary
        if location == "legacy":
            return legacy
        raise Refused(f"unknown storage location {location!r}")

    def _base(self, location: str) -> Path:
        """Where the symbolic-link check starts: the project root, or the global forge folder."""
        return self.global_dir if location == "global" else self.root

    def path_of(self, ref: str) -> tuple[str, Path]:
        """``(location, path)`` of a reference; :class:`Refused` for anything outside storage."""
        if not isinstance(ref, str) or ref.count("/") != 1:
            raise Refused(f"not a stack reference: {ref!r}", 403)
        location, name = ref.split("/")
        if location not in LOCATIONS:
            raise Refused(f"not a stack storage location: {location!r}", 403)
        if not _NAME.fullmatch(name) or not name.endswith(STACK_SUFFIXES) or ".." in name:
            raise Refused(f"not a stack file name: {name!r}", 403)
        folder = self.folder(location)
        path = folder / name
        base = self._base(location)
        if symlink_on_path(base.absolute(), path.absolute()) is not None:
            raise Refused(f"refusing a path through a symbolic link: {path}", 403)
        return location, path

    def check_writable(self, location: str, what: str = "user-global stacks are", them: str = "them") -> None:
        """Refuse a write in ``--read-only`` mode, or to the user-global scope without ``--global``
        (``what`` names the refused resource: stacks, profiles, the config)."""
        if self.read_only:
            raise Refused("the editor was started with --read-only", 403)
        if location == "global" and not self.allow_global:
            raise Refused(f"{what} read-only here; start 'forgec ui --global' to edit {them}", 403)

    def read(self, ref: str) -> StoredFile:
        _, path = self.path_of(ref)
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            raise Refused(f"no such stack file: {ref}", 404) from None
        except OSError as exc:
            raise Refused(f"cannot read {path}: {exc.strerror or exc}", 400) from None
        return StoredFile(ref, path, data.decode("utf-8", errors="replace"), digest(data))

    def _current(self, path: Path, ref: str) -> StoredFile | None:
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            return None
        return StoredFile(ref, path, data.decode("utf-8", errors="replace"), digest(data))

    def save(self, ref: str, text: str, base_hash: str | None) -> StoredFile:
        """Write ``text`` to ``ref`` atomically.  ``base_hash`` None creates a new file (refused
        when one exists); otherwise the file must still hold the bytes with that digest."""
        location, path = self.path_of(ref)
        self.check_writable(location)
        current = self._current(path, ref)
        if base_hash is None and current is not None:
            raise Conflict(f"{ref} already exists", current)
        if base_hash is not None and (current is None or current.hash != base_hash):
            what = "was deleted" if current is None else "changed on disk"
            raise Conflict(f"{ref} {what} since it was loaded; nothing was written", current)
        data = text.encode("utf-8")
        mode = (path.stat().st_mode & 0o777) if current is not None else None
        try:
            write_bytes_atomic(path, data, overwrite=current is not None, mode=mode)
        except ExistingFilesError:
            raise Conflict(f"{ref} was created meanwhile; nothing was written", self._current(path, ref)) from None
        except OSError as exc:
            raise Refused(f"cannot write {path}: {exc.strerror or exc}", 500) from None
        return StoredFile(ref, path, text, digest(data))

    def delete(self, ref: str, base_hash: str) -> Path:
        """Delete ``ref`` if it still holds the bytes the browser loaded."""
        location, path = self.path_of(ref)
        self.check_writable(location)
        current = self._current(path, ref)
        if current is None or current.hash != base_hash:
            raise Conflict(f"{ref} changed on disk since it was loaded; it was not deleted", current)
        os.unlink(path)
        return path

    def new_ref(self, location: str, stack_id: str, fmt: str) -> str:
        check_id(stack_id)
        suffix = ".yaml" if fmt == "yaml" else ".json"
        return f"{location}/{stack_id}{suffix}"


def render_stack(data: Any, fmt: str, original: str | None = None) -> str:
    """The text a stack edited as data is saved as.

    JSON: two-space ``JSON.stringify``, byte for byte what ``forgec import-silly`` writes.  YAML:
    the original text is loaded with ruamel's round-trip loader and the new data merged into it,
    so comments and key order of what did not change survive the edit.
    """
    if fmt != "yaml":
        from forgec.js.values import json_stringify

        return json_stringify(data, 2) or ""
    text = _dump_yaml(data, original, literal=True)
    if _reads_as(text, data):
        return text
    text = _dump_yaml(data, original, literal=False)  # a string block style could not carry
    if _reads_as(text, data):
        return text
    raise Refused("this edit cannot be written as YAML without changing the data; use the raw editor", 422)


def _dump_yaml(data: Any, original: str | None, *, literal: bool) -> str:
    import io

    from ruamel.yaml import YAML

    yaml = YAML(typ="rt")
    yaml.preserve_quotes = True
    yaml.width = 4096
    tree = None
    if original:
        from ruamel.yaml.util import load_yaml_guess_indent

        _, indent, offset = load_yaml_guess_indent(original)  # keep the file's own indentation
        if indent is not None:
            yaml.indent(mapping=_mapping_indent(original), sequence=max(indent, (offset or 0) + 2), offset=offset or 0)
        tree = yaml.load(original)
    merged = _merge(tree, data, literal)
    out = io.StringIO()
    yaml.dump(merged, out)
    return out.getvalue()


def _mapping_indent(text: str) -> int:
    """How far the file indents a nested mapping under its key (2 when nothing shows it)."""
    lines = [line for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    for line, following in itertools.pairwise(lines):
        stripped = line.strip()
        if stripped.endswith(":") and not stripped.startswith("- ") and not following.lstrip().startswith("- "):
            step = (len(following) - len(following.lstrip())) - (len(line) - len(line.lstrip()))
            if step > 0:
                return step
    return 2


def _reads_as(text: str, data: Any) -> bool:
    """Whether forgec's YAML reader reads ``text`` back as exactly ``data`` (types included)."""
    from forgec.source import parse_source_text

    document = parse_source_text(text, "stack.yaml", "yaml")
    return document.parsed and _same(document.data, data)


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, dict) and isinstance(b, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return type(a) is type(b) and a == b


def _merge(old: Any, new: Any, literal: bool = True) -> Any:
    """``new`` with ``old``'s ruamel containers (and their comments) kept wherever they match:
    mappings key by key, lists of items by ``id`` (so a moved item keeps its comments); an
    unchanged scalar keeps its quoting and block style, a changed multi-line string becomes a
    ``|`` block when ``literal``."""
    from ruamel.yaml.comments import CommentedMap, CommentedSeq
    from ruamel.yaml.scalarstring import LiteralScalarString

    if isinstance(new, dict):
        target = old if isinstance(old, CommentedMap) else CommentedMap()
        for key in [k for k in target if k not in new]:
            del target[key]
        for key, value in new.items():
            target[key] = _merge(target.get(key), value, literal)
        if list(target) != list(new):  # new order wins (a key added or moved)
            ordered = CommentedMap()
            ordered.ca.comment = target.ca.comment
            if target.fa.flow_style():
                ordered.fa.set_flow_style()
            for key in new:
                ordered[key] = target[key]
                if key in target.ca.items:
                    ordered.ca.items[key] = target.ca.items[key]
            target = ordered
        return target
    if isinstance(new, list):
        old_list = old if isinstance(old, CommentedSeq) else None
        by_id: dict[str, list[tuple[int, Any]]] = {}  # id -> old entries (a duplicate id keeps its order)
        if old_list is not None:
            for index, entry in enumerate(old_list):
                if isinstance(entry, dict) and isinstance(entry.get("id"), str):
                    by_id.setdefault(entry["id"], []).append((index, entry))
        seq = CommentedSeq()
        for position, value in enumerate(new):
            key = value.get("id") if isinstance(value, dict) else None
            if isinstance(key, str) and by_id.get(key):
                index, previous = by_id[key].pop(0)
            elif old_list is not None and position < len(old_list) and not isinstance(value, dict):
                index, previous = position, old_list[position]
            else:
                index, previous = -1, None
            seq.append(_merge(previous, value, literal))
            if old_list is not None and index in old_list.ca.items:
                seq.ca.items[position] = old_list.ca.items[index]
        if old_list is not None:
            seq.ca.comment = old_list.ca.comment
            if old_list.fa.flow_style():
                seq.fa.set_flow_style()
        return seq
    if isinstance(new, (str, int, float)) and not isinstance(new, bool):
        if isinstance(old, type(new)) and not isinstance(old, bool) and old == new:
            return old  # unchanged: its quotes, block style or number spelling stay
        if literal and isinstance(new, str) and "\n" in new:
            return LiteralScalarString(new)
    return new
