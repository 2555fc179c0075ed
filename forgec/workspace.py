"""Which files ``forgec validate`` checks: project discovery (compile-core §10.1) and PATH arguments.

The rules, chosen so that a file is always checked the way pi-forge would load it:

* no PATH: the current project's stacks, exactly as pi-forge lists them -- ``.pi/forge/prompt-stacks``
  then legacy ``.pi/prompt-stacks``, a file of the same name in the new folder shadowing the legacy
  one -- loaded together so cross-file duplicate ids are reported as pi-forge reports them;
* a file: checked.  If it sits in a project stack folder, the whole project group is loaded (for the
  duplicate-id check) but only that file is reported;
* a folder that is a project root (it has ``.pi/forge/prompt-stacks`` or ``.pi/prompt-stacks``): that
  project's stacks, as with no PATH;
* any other folder: its ``*.json``, ``*.yaml`` and ``*.yml`` files, **not recursively** (pi-forge reads
  one folder level; recursing would pick up ``package.json`` and friends), loaded as one group;
* ``-``: a stack read from standard input (``--stdin-filename`` names it);
* a path that does not exist or cannot be read is a usage error (exit code 2), and so is a folder
  (or, with no PATH, a current folder) in which nothing is found: a typo'd path in CI must not pass
  as "0 files checked".
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "STACK_SUFFIXES",
    "DiscoveryResult",
    "Target",
    "expand_paths",
    "project_root_of",
    "project_stack_dirs",
]

STACK_SUFFIXES = (".json", ".yaml", ".yml")


@dataclass(frozen=True, slots=True)
class Target:
    """One thing to check.

    ``path`` is ``None`` for a whole group (report everything the loader returns for ``group``);
    otherwise the file to report.  ``group`` is the tuple of folders to load together (pi-forge's
    directory group, §10.1), or ``None`` to load the file on its own.  ``display`` is how the file is
    named in output: as the user wrote it, or relative to the current folder.
    """

    display: str
    path: Path | None = None
    group: tuple[Path, ...] | None = None
    #: for a whole group: how to name its files (the argument the user gave, and the folder it meant)
    display_base: tuple[str, Path] | None = None
    stdin: bool = False


@dataclass(slots=True)
class DiscoveryResult:
    targets: list[Target]
    #: usage problems (missing or unreadable paths), one message each
    errors: list[str]


def project_stack_dirs(root: Path) -> tuple[Path, Path]:
    """The project's stack folders in priority order: primary, then legacy."""
    return root / ".pi" / "forge" / "prompt-stacks", root / ".pi" / "prompt-stacks"


def project_root_of(folder: Path) -> Path | None:
    """The project root when ``folder`` is one of its stack folders, else ``None``."""
    folder = folder.resolve()
    if folder.name != "prompt-stacks":
        return None
    parent = folder.parent
    if parent.name == "forge" and parent.parent.name == ".pi":
        return parent.parent.parent
    if parent.name == ".pi":
        return parent.parent
    return None


_PATTERNS = ", ".join(f"*{suffix}" for suffix in STACK_SUFFIXES)


def _group_has_stacks(group: tuple[Path, ...]) -> bool:
    """Whether any folder of a project group holds a stack file (unreadable folders: "maybe",
    the loader reports them)."""
    for folder in group:
        try:
            if folder.is_dir() and _list_stack_files(folder):
                return True
        except OSError:
            return True
    return False


def _is_project_root(folder: Path) -> bool:
    return any(d.is_dir() for d in project_stack_dirs(folder))


def _list_stack_files(folder: Path) -> list[Path]:
    """A folder's stack files, sorted the way pi-forge sorts names (UTF-16 code units, §0.10)."""
    names = [
        entry.name
        for entry in os.scandir(folder)
        if entry.name.endswith(STACK_SUFFIXES) and entry.is_file()
    ]
    names.sort(key=lambda name: name.encode("utf-16-be", "surrogatepass"))
    return [folder / name for name in names]


def _display(arg: str, base: Path, file: Path) -> str:
    return os.path.normpath(os.path.join(arg, os.path.relpath(file, base)))


def expand_paths(args: list[str], cwd: Path | None = None) -> DiscoveryResult:
    """Turn PATH arguments (none: the current project) into targets; problems go to ``errors``."""
    cwd = cwd if cwd is not None else Path.cwd()
    targets: list[Target] = []
    errors: list[str] = []
    seen: set[Path] = set()
    if not args:
        root = cwd.resolve()
        group = project_stack_dirs(root)
        if not any(d.is_dir() for d in group):
            errors.append(
                f"no prompt stacks found: {root} is not a Pi project (looked for .pi/forge/prompt-stacks "
                "and .pi/prompt-stacks); give a PATH to check"
            )
        elif not _group_has_stacks(group):
            errors.append(
                f"no stack files ({_PATTERNS}) found in {root}/.pi/forge/prompt-stacks or {root}/.pi/prompt-stacks"
            )
        else:
            targets.append(Target(display=".", group=group, display_base=("", root)))
        return DiscoveryResult(targets, errors)
    for arg in args:
        if arg == "-":
            targets.append(Target(display="-", stdin=True))
            continue
        path = Path(arg) if os.path.isabs(arg) else cwd / arg
        try:
            path.stat()
        except PermissionError:  # inside a folder we may not search
            errors.append(f"{arg}: cannot be read (permission denied)")
            continue
        except OSError:
            pass  # missing, or a broken link: reported just below
        if not path.exists():
            broken = "a symbolic link that cannot be followed (a loop, or its target is missing)"
            errors.append(f"{arg}: {broken if path.is_symlink() else 'no such file or directory'}")
            continue
        if path.is_dir():
            if not os.access(path, os.R_OK | os.X_OK):
                errors.append(f"{arg}: folder cannot be read (permission denied)")
                continue
            found = _expand_folder(arg, path.resolve())
            if not found:
                errors.append(f"{arg}: no stack files ({_PATTERNS}) found")
            targets.extend(found)
            continue
        if not os.access(path, os.R_OK):
            errors.append(f"{arg}: file cannot be read (permission denied)")
            continue
        resolved = path.resolve()
        if resolved in seen:
            continue  # the same file named twice is checked once
        seen.add(resolved)
        root = project_root_of(resolved.parent)
        group = project_stack_dirs(root) if root is not None else None
        targets.append(Target(display=arg, path=resolved, group=group))
    return DiscoveryResult(targets, errors)


def _expand_folder(arg: str, folder: Path) -> list[Target]:
    root = project_root_of(folder)
    if root is not None:
        # a project stack folder itself: every file in it, each loaded with its project group
        group = project_stack_dirs(root)
        return [Target(_display(arg, folder, f), f, group) for f in _list_stack_files(folder)]
    if _is_project_root(folder):
        if not _group_has_stacks(project_stack_dirs(folder)):
            return []
        return [Target(display=arg, group=project_stack_dirs(folder), display_base=(arg, folder))]
    group = (folder,)
    return [Target(_display(arg, folder, f), f, group) for f in _list_stack_files(folder)]
