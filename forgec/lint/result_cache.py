"""The on-disk cache of ``forgec validate`` (ruff-style): a stack's findings are reused while the
files they were computed from are unchanged.

Why it is safe.  What is cached is a target's :class:`FileResult` list exactly as
:func:`forgec.lint.lint_targets` produced it -- before rule selection, suppressions, severities and
``--strict``, which are applied afresh on every run, so those options need not be part of the key.
A key is a hash of everything the result depends on: forgec's version (and, in a source checkout,
the state of its files), the cache format, the Python version, how the file is named in output and
the current folder, and the content hash of *every file the result reads*:

* a stack in a folder group (a project stack folder, a folder named as PATH) is loaded with its
  group, and what the group adds to its findings is only §10.7's duplicate-id error; so each member
  is keyed by its own content plus the names of the other files with its id.  The ids of unchanged
  files are remembered with their content hash (:meth:`ResultCache.stack_id`), so a run loads only
  the files that changed to find the group's duplicates;
* a stack file on its own is keyed by its content;
* agent profiles, forge config and model catalogs are keyed together by every file of the project's
  and the user-global profile and stack folders and every configured catalog (a profile is checked
  against the stacks it names and the catalog); not with ``--check-auth`` (the environment's
  credentials variables decide then);
* standard input is never cached, nor anything when a plugin is loaded (foreign code).

Why it is cheap.  A file is hashed only when its ``(mtime, size, inode)`` differs from the recorded
one (as ruff and git do); a file modified within two seconds of being hashed is not trusted by its
``stat`` (git's "racily clean" rule) and is hashed again next time.  The hash is BLAKE2b from the
``_blake2`` module: ``hashlib`` would load OpenSSL (~10 ms) on every cold run.  The whole cache is
one JSON file per forgec version, read once, rewritten (temporary file + rename, no ``fsync``: a
cache lost in a crash is only a slower next run) only when something changed.

Why it never hurts.  A missing, unreadable, corrupt, foreign-format or read-only cache is treated
as empty or left unwritten without a word (``FORGEC_DEBUG_CACHE=1`` prints one line on stderr
about it); a result is stored only if it reads back equal to itself.
"""

from __future__ import annotations

import json
import os
import stat
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from forgec.diagnostics.findings import FileResult
from forgec.resources import VERSION
from forgec.workspace import (
    STACK_SUFFIXES,
    Target,
    global_profile_dir,
    global_stack_dir,
    list_resource_files,
    project_profile_dir,
    project_stack_dirs,
)

if TYPE_CHECKING:
    from forgec.diagnostics import Diagnostic

__all__ = ["CACHE_DIR_NAME", "CACHE_FORMAT", "ResultCache", "default_cache_dir"]

#: the folder name, in the project root (as ``.ruff_cache``)
CACHE_DIR_NAME = ".forgec_cache"
#: bumped whenever what a cache file holds changes meaning
CACHE_FORMAT = 1
#: the one file of a version's folder
_FILE_NAME = "validate.json"
#: entries not used for this many days are dropped when the cache is next written
_MAX_AGE_DAYS = 30
#: at most this many targets are kept (the most recently used)
_MAX_TARGETS = 4096
#: a file whose modification time is this close to the moment it was hashed is hashed again
_RACY_NS = 2_000_000_000
_TAG = (
    "Signature: 8a477f597d28d172789f06886806bc55\n"
    "# This file is a cache directory tag created by forgec (forgec validate's cache).\n"
    "# For information about cache directory tags see https://bford.info/cachedir/\n"
)


def _debug(message: str) -> None:
    if os.environ.get("FORGEC_DEBUG_CACHE"):
        print(f"forgec validate: cache: {message}", file=sys.stderr)


def _blake2b() -> Any:
    try:
        from _blake2 import blake2b
    except ImportError:  # an interpreter built without it: hashlib's (slower to import) is the same
        from hashlib import blake2b
    return blake2b


def default_cache_dir(settings_file: Path | None, project_root: Path | None) -> Path:
    """Where the cache lives without ``--cache-dir``/``$FORGEC_CACHE_DIR``: ``.forgec_cache`` in
    the folder of the ``pyproject.toml`` whose ``[tool.forgec]`` configured the run, else in the Pi
    project's root, else in the current folder -- ruff's rule (its project root is the folder of
    the configuration file, else the current folder), with the Pi project in between."""
    if settings_file is not None:
        base = settings_file.parent
    elif project_root is not None:
        base = project_root
    else:
        base = Path.cwd()
    return base / CACHE_DIR_NAME


def _source_state() -> str:
    """In a source checkout (not an installed wheel), the newest modification time of forgec's files
    (code, the bundled model catalog, the compiled modules of an experimental build) and of the
    checkout's ``schemas/`` and ``grammar/``: editing the linter invalidates results its version
    number would not."""
    package = Path(__file__).resolve().parents[1]
    if "site-packages" in package.parts or "dist-packages" in package.parts:
        return ""
    newest = 0
    stack = [str(package), str(package.parent / "schemas"), str(package.parent / "grammar")]
    while stack:
        try:
            with os.scandir(stack.pop()) as entries:
                for entry in entries:
                    if entry.is_dir(follow_symlinks=False):
                        if entry.name != "__pycache__":
                            stack.append(entry.path)
                    else:
                        newest = max(newest, entry.stat(follow_symlinks=False).st_mtime_ns)
        except OSError:
            continue
    return str(newest)


class ResultCache:
    """One run's view of the cache folder: look up and store targets' results, then :meth:`save`."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self._file = folder / VERSION / _FILE_NAME
        self._salt = json.dumps([CACHE_FORMAT, VERSION, sys.version, _source_state()])
        self._today = int(time.time() // 86400)
        self._files: dict[str, list[Any]] = {}  # path -> [mtime_ns, size, inode, hash, day]
        self._targets: dict[str, dict[str, Any]] = {}  # key -> {"deps": [...], "results": [...], "day": n}
        self._ids: dict[str, str] = {}  # scope NUL path NUL content hash -> the stack id it loads as
        self._dirty = False
        self._used: set[str] = set()
        self._deps: dict[str, list[str]] = {}
        self._groups: dict[tuple[Path, ...], tuple[str, list[str]] | None] = {}
        #: targets answered from the cache, and targets checked (and stored), in this run
        self.hits = 0
        self.misses = 0
        self._load()

    # -- reading

    def _load(self) -> None:
        try:
            data = json.loads(self._file.read_bytes())
        except FileNotFoundError:
            return
        except (OSError, ValueError) as exc:
            _debug(f"{self._file}: not read ({exc.__class__.__name__}); starting empty")
            return
        if not (isinstance(data, dict) and data.get("salt") == self._salt
                and isinstance(data.get("files"), dict) and isinstance(data.get("targets"), dict)):  # fmt: skip
            _debug(f"{self._file}: another forgec or format; starting empty")
            return
        self._files = data["files"]
        self._targets = data["targets"]
        ids = data.get("ids")
        self._ids = ids if isinstance(ids, dict) else {}

    def _hash(self, path: Path) -> str | None:
        """The content hash of ``path`` (recorded stat first), or None when it is not a readable
        regular file (then the target is not cached: the loader reports the failure)."""
        name = str(path)
        try:
            info = path.stat()
        except (OSError, ValueError):
            return None
        if not stat.S_ISREG(info.st_mode):
            return None
        state = [info.st_mtime_ns, info.st_size, info.st_ino]
        entry = self._files.get(name)
        if isinstance(entry, list) and len(entry) == 5 and entry[:3] == state and isinstance(entry[3], str):
            if entry[4] != self._today:
                entry[4] = self._today
                self._dirty = True
            return entry[3]
        try:
            data = path.read_bytes()
        except (OSError, ValueError):
            return None
        digest: str = _blake2b()(data, digest_size=20).hexdigest()
        trusted = time.time_ns() - info.st_mtime_ns > _RACY_NS
        self._files[name] = [*(state if trusted else [-1, -1, -1]), digest, self._today]
        self._dirty = True
        return digest

    def _files_digest(self, paths: list[Path]) -> tuple[str, list[str]] | None:
        """One hash of ``paths`` (names and contents, in order) and their names; None when one
        cannot be read."""
        hashes = []
        for path in paths:
            digest = self._hash(path)
            if digest is None:
                return None
            hashes.append(f"{path}\0{digest}")
        material = "\0\0".join(hashes).encode("utf-8", "surrogateescape")
        return _blake2b()(material, digest_size=20).hexdigest(), [str(p) for p in paths]

    def _group_digest(self, dirs: tuple[Path, ...]) -> tuple[str, list[str]] | None:
        """The digest of a folder group's listing (every ``.json``/``.yaml``/``.yml`` entry, as
        the stack loader lists them) and contents, computed once per run."""
        if dirs not in self._groups:
            self._groups[dirs] = self._files_digest(list_resource_files(list(dirs), STACK_SUFFIXES))
        return self._groups[dirs]

    def _key(self, material: list[Any], deps: list[str]) -> str:
        text = json.dumps([self._salt, *material])
        key: str = _blake2b()(text.encode("utf-8", "surrogateescape"), digest_size=20).hexdigest()
        self._deps[key] = deps
        self._used.update(deps)
        return key

    def key(self, target: Target, cwd: Path) -> str | None:
        """The key of a stack target's results taken whole, or None when it is not cached (standard
        input, not a stack, a file that cannot be read).  A group's members are keyed one by one
        first (:meth:`member_key`); this is the fallback, keyed by every file of the group."""
        if target.stdin or target.kind != "stack":
            return None
        group = self._group_digest(target.group) if target.group is not None else ("", [])
        own = self._files_digest([target.path]) if target.path is not None else ("", [])
        if group is None or own is None:
            return None
        base = target.display_base
        return self._key([
            target.kind, target.scope, target.display, str(target.path) if target.path else None,
            [str(g) for g in target.group] if target.group is not None else None,
            [base[0], str(base[1])] if base is not None else None, str(cwd), group[0], own[0],
        ], group[1] + own[1])  # fmt: skip

    def stack_id(self, path: Path, scope: str) -> str | None:
        """The id the stack file ``path`` loaded as when it last had this content (None: unknown,
        or the file cannot be read) -- enough to find a folder group's duplicate ids without
        loading its unchanged files."""
        digest = self._hash(path)
        found = self._ids.get(f"{scope}\0{path}\0{digest}") if digest is not None else None
        return found if isinstance(found, str) else None

    def record_stack_id(self, path: Path, scope: str, stack_id: object) -> bool:
        """Remember what :meth:`stack_id` answers; False when the file cannot be keyed (then its
        group is not cached this run)."""
        digest = self._hash(path)
        if digest is None or not isinstance(stack_id, str):
            return False
        self._ids[f"{scope}\0{path}\0{digest}"] = stack_id
        self._used.add(str(path))
        self._dirty = True
        return True

    def member_key(self, path: Path, material: list[Any]) -> str | None:
        """The key of one group member's result: its own content, and ``material`` (how it is
        named, the names of the other files with its id -- the only thing its group adds)."""
        own = self._files_digest([path])
        if own is None:
            return None
        return self._key(["member", str(path), own[0], *material], own[1])

    def agents_key(self, targets: list[Target], global_forge_dir: Path, catalog_files: tuple[Path, ...],
                   cwd: Path) -> str | None:  # fmt: skip
        """The key of the profile, config and catalog targets' results, taken together (a profile
        is checked against the stacks and profiles of its project and of the user-global folder,
        and against the configured catalog): every file of those folders and every configured
        catalog is part of it.  The caller does not ask with ``--check-auth`` (the environment's
        credentials variables decide then)."""
        described: list[Any] = []
        dirs: list[Path] = []
        files: list[Path] = list(catalog_files)
        for target in targets:
            if target.kind == "stack":
                continue
            base = target.display_base
            described.append([target.kind, target.scope, target.display, str(target.path) if target.path else None,
                              [str(g) for g in target.group] if target.group is not None else None,
                              [base[0], str(base[1])] if base is not None else None])  # fmt: skip
            if target.path is not None:
                files.append(target.path)
            if target.kind == "profile" and target.group:
                folder = target.group[0]  # as lint.agents._workspace_for reads it
                project = folder.parent.parent.parent if target.scope == "project" else None
                forge = folder.parent if target.scope == "global" else global_forge_dir
                dirs += [global_profile_dir(forge), global_stack_dir(forge), folder]
                if project is not None:
                    dirs += [project_profile_dir(project), *project_stack_dirs(project)]
        deps: list[str] = []
        digests = []
        for folder in dict.fromkeys(dirs):
            group = self._group_digest((folder,))
            if group is None:
                return None
            digests.append(group[0])
            deps += group[1]
        own = self._files_digest(list(dict.fromkeys(files)))
        if own is None:
            return None
        return self._key(["agents", described, [str(d) for d in dict.fromkeys(dirs)], str(global_forge_dir),
                          [str(c) for c in catalog_files], str(cwd), digests, own[0]], deps + own[1])  # fmt: skip

    def get(self, key: str) -> list[FileResult] | None:
        """The stored results of ``key`` (new objects each time), or None."""
        entry = self._targets.get(key)
        if not isinstance(entry, dict):
            return None
        try:
            results = [_decode_result(item) for item in entry["results"]]
        except (KeyError, TypeError, ValueError, IndexError):
            _debug(f"entry {key[:12]}: unreadable; checking again")
            return None
        if entry.get("day") != self._today:
            entry["day"] = self._today
            self._dirty = True
        self.hits += 1
        return results

    def get_agents(self, key: str) -> dict[int, list[FileResult]] | None:
        """:meth:`get` for :meth:`agents_key`: the results by target index."""
        flat = self.get(key)
        entry = self._targets.get(key)
        if flat is None or entry is None:
            return None
        out: dict[int, list[FileResult]] = {}
        try:
            for index, count in entry["index"]:
                out[index], flat = flat[:count], flat[count:]
        except (KeyError, TypeError, ValueError):
            return None
        return out

    def put_agents(self, key: str, results: dict[int, list[FileResult]]) -> None:
        self.put(key, [r for index in sorted(results) for r in results[index]])
        if key in self._targets:
            self._targets[key]["index"] = [[index, len(results[index])] for index in sorted(results)]

    # -- writing

    def put(self, key: str, results: list[FileResult]) -> None:
        """Remember ``results`` under ``key`` -- only if they read back equal to themselves (a value
        JSON cannot carry, such as a YAML date as an item id, is never cached)."""
        try:
            encoded = [_encode_result(r) for r in results]
            if [_decode_result(json.loads(json.dumps(item))) for item in encoded] != results:
                _debug(f"entry {key[:12]}: does not round-trip; not cached")
                return
        except (TypeError, ValueError, KeyError, IndexError):
            return
        deps = self._deps.get(key, [])
        seen = {name: entry[3] for name in deps if isinstance(entry := self._files.get(name), list) and len(entry) == 5}
        self._targets[key] = {"results": encoded, "day": self._today, "deps": deps, "seen": seen}
        self._dirty = True
        self.misses += 1

    def save(self) -> None:
        """Write the cache if anything changed: pruned (entries unused for 30 days, entries of files
        that are gone, the oldest beyond 4,096 targets), atomically; other versions' files removed.
        Any failure (a read-only folder, a full disk) is ignored."""
        _debug(f"{self.hits} target(s) from the cache, {self.misses} checked and stored")
        if not self._dirty:
            return
        try:
            self._prune()
            self._write()
        except OSError as exc:
            _debug(f"{self.folder}: not written ({exc.__class__.__name__}: {exc})")

    def _prune(self) -> None:
        cutoff = self._today - _MAX_AGE_DAYS
        gone = {name for name, entry in self._files.items()
                if name not in self._used and (not isinstance(entry, list) or len(entry) != 5
                                               or entry[4] < cutoff or not os.path.exists(name))}  # fmt: skip
        for name in gone:
            del self._files[name]
        current = {(name, entry[3]) for name, entry in self._files.items() if isinstance(entry, list) and len(entry) == 5}
        self._ids = {key: value for key, value in self._ids.items() if tuple(key.split("\0")[1:3]) in current}
        keep = {key: entry for key, entry in self._targets.items()
                if isinstance(entry, dict) and isinstance(entry.get("day"), int) and entry["day"] >= cutoff
                and not gone.intersection(entry.get("deps", ())) and self._current(entry)}  # fmt: skip
        if len(keep) > _MAX_TARGETS:
            newest = sorted(keep, key=lambda k: keep[k]["day"], reverse=True)[:_MAX_TARGETS]
            keep = {key: keep[key] for key in newest}
        self._targets = keep

    def _current(self, entry: dict[str, Any]) -> bool:
        """Whether an entry still describes the files as they are (an entry of an older content of
        a file is never asked for again, unless the edit is undone: it is dropped, so the cache
        stays the size of the project rather than of its history)."""
        seen = entry.get("seen")
        if not isinstance(seen, dict):
            return False
        for name, digest in seen.items():
            now = self._files.get(name)
            if isinstance(now, list) and len(now) == 5 and now[3] != digest:
                return False
        return True

    def _write(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        for name, text in (("CACHEDIR.TAG", _TAG), (".gitignore", "# Automatically created by forgec.\n*\n")):
            marker = self.folder / name
            if not marker.exists():
                marker.write_text(text, encoding="utf-8")
        self._file.parent.mkdir(exist_ok=True)
        data = json.dumps({"salt": self._salt, "files": self._files, "targets": self._targets, "ids": self._ids},
                          separators=(",", ":")).encode("utf-8", "surrogatepass")  # fmt: skip
        temp = self._file.with_name(f".{_FILE_NAME}.{os.getpid()}.tmp")
        try:
            temp.write_bytes(data)
            os.replace(temp, self._file)
        finally:
            if temp.exists():
                temp.unlink()
        for other in self.folder.iterdir():  # an older (or newer) forgec's file: never read by this one
            old = other / _FILE_NAME
            if other.name != VERSION and other.is_dir() and old.is_file():
                old.unlink()
                if not any(other.iterdir()):
                    other.rmdir()


# -- the records as JSON (only what is not the default is written)


def _encode_result(result: FileResult) -> dict[str, Any]:
    return {"p": result.path, "k": result.kind, "s": result.stack_id, "u": result.usable, "t": result.text,
            "d": [_encode_diagnostic(d) for d in result.diagnostics]}  # fmt: skip


def _decode_result(item: dict[str, Any]) -> FileResult:
    return FileResult(item["p"], item["k"], item["s"], item["u"], [_decode_diagnostic(d) for d in item["d"]], item["t"])


def _encode_diagnostic(d: Diagnostic) -> dict[str, Any]:
    out: dict[str, Any] = {"l": d.level, "m": d.message, "c": d.code}
    if d.item_id is not None:
        out["i"] = d.item_id
    if d.pointer is not None:
        out["p"] = list(d.pointer)
    if d.offset is not None:
        out["o"] = d.offset
    if d.length is not None:
        out["n"] = d.length
    if d.span is not None:
        s = d.span
        out["s"] = [s.path, s.line, s.column, s.end_line, s.end_column]
    if d.extra:
        out["x"] = True
    if d.field is not None:
        out["f"] = d.field
    if d.at_key:
        out["k"] = True
    if d.fix is not None:
        out["F"] = [d.fix.target, d.fix.replacement]
    if d.caused_by is not None:
        code, pointer = d.caused_by
        out["C"] = [code, list(pointer) if pointer is not None else None]
    return out


def _decode_diagnostic(o: dict[str, Any]) -> Diagnostic:
    from forgec.diagnostics import Diagnostic, Fix, Span  # not at the top: a clean file has no diagnostic

    span = o.get("s")
    fix = o.get("F")
    cause = o.get("C")
    return Diagnostic(
        o["l"], o["m"], o["c"], item_id=o.get("i"),
        pointer=tuple(o["p"]) if "p" in o else None, offset=o.get("o"), length=o.get("n"),
        span=Span(*span) if span is not None else None, extra=bool(o.get("x")), field=o.get("f"),
        at_key=bool(o.get("k")), fix=Fix(fix[0], fix[1]) if fix is not None else None,
        caused_by=(cause[0], tuple(cause[1]) if cause[1] is not None else None) if cause is not None else None,
    )  # fmt: skip
