"""Where pi-forge's files live, how a folder is listed, and which files a command reads.

One module owns the ``.pi/forge`` layout, so that no command, codec or workflow spells a storage
path itself:

* **Layout** (compile-core.md §10.1, profiles-exec.md §1.1, §2.1): project stacks in
  ``.pi/forge/prompt-stacks`` (primary) and ``.pi/prompt-stacks`` (legacy), profiles in
  ``.pi/forge/agent-profiles``, the forge config ``.pi/forge/config.json``, import reports in
  ``.pi/forge/import-reports``; the user-global forge folder is ``$PI_FORGE_GLOBAL_DIR`` or
  ``~/.pi/forge``.
* **Listing** (§10.1, §0.10): :func:`list_resource_files` is pi-forge's listing of a group of
  folders -- names by suffix, sorted by UTF-16 code units, an earlier folder's name shadowing a later
  one's -- used for stacks and profiles alike.
* **PATH discovery** for ``forgec validate`` and ``forgec snapshot``: :func:`expand_paths`.  The
  rules, chosen so that a file is always checked the way pi-forge would load it:

  - no PATH: the current project's stacks, exactly as pi-forge lists them -- ``.pi/forge/prompt-stacks``
    then legacy ``.pi/prompt-stacks``, a file of the same name in the new folder shadowing the legacy
    one -- loaded together so cross-file duplicate ids are reported as pi-forge reports them;
  - a file: checked.  If it sits in a project stack folder, the whole project group is loaded (for the
    duplicate-id check) but only that file is reported;
  - a folder that is a project root (it has ``.pi/forge/prompt-stacks`` or ``.pi/prompt-stacks``): that
    project's stacks, as with no PATH;
  - any other folder: its ``*.json``, ``*.yaml`` and ``*.yml`` files, **not recursively** (pi-forge reads
    one folder level; recursing would pick up ``package.json`` and friends), loaded as one group;
  - ``-``: a stack read from standard input (``--stdin-filename`` names it);
  - a path that does not exist or cannot be read is a usage error (exit code 2), and so is a folder
    (or, with no PATH, a current folder) in which nothing is found: a typo'd path in CI must not pass
    as "0 files checked".
* **Small path rules** every front end needs: where ``pyproject.toml`` lookup starts for an argument,
  the name a stack read from standard input is loaded as.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "GLOBAL_CONFIG_VARIABLE",
    "GLOBAL_DIR_VARIABLE",
    "STACK_SUFFIXES",
    "STDIN_STACK_NAME",
    "DiscoveryResult",
    "Target",
    "config_start",
    "expand_paths",
    "find_project_root",
    "global_config_path",
    "global_forge_dir",
    "global_profile_dir",
    "global_stack_dir",
    "home_targets",
    "import_report_paths",
    "list_folder_files",
    "list_resource_files",
    "may_exist",
    "project_catalog_path",
    "project_config_path",
    "project_profile_dir",
    "project_root_of",
    "project_stack_dirs",
    "shown_path",
    "stack_folder_group",
    "stdin_stack_name",
    "user_catalog_path",
    "windows_reserved_name",
]

#: The suffixes forgec reads as stacks (pi-forge lists ``.json`` only; YAML is forgec's addition).
STACK_SUFFIXES = (".json", ".yaml", ".yml")
#: The environment variable that moves the user-global forge folder (pi-forge's test/dev override).
GLOBAL_DIR_VARIABLE = "PI_FORGE_GLOBAL_DIR"
#: The environment variable that moves the user-global forge config file (pi-forge's test override).
GLOBAL_CONFIG_VARIABLE = "PI_FORGE_GLOBAL_CONFIG_PATH"

#: Project stack folders relative to the project root, primary first (§10.1).
_PROJECT_STACK_DIRS = ((".pi", "forge", "prompt-stacks"), (".pi", "prompt-stacks"))
_FORGE_DIR = (".pi", "forge")
_IMPORT_REPORTS = "import-reports"
_PROFILES = "agent-profiles"
_STACKS = "prompt-stacks"
_CONFIG = "config.json"
#: The name of a stack read from standard input without ``--stdin-filename``.
STDIN_STACK_NAME = "stdin.json"


# --- layout -----------------------------------------------------------------------------------------


def project_stack_dirs(root: Path) -> tuple[Path, Path]:
    """The project's stack folders in priority order: primary, then legacy."""
    return root.joinpath(*_PROJECT_STACK_DIRS[0]), root.joinpath(*_PROJECT_STACK_DIRS[1])


def global_forge_dir(environ: Mapping[str, str] | None = None) -> Path:
    """The user-global forge folder: ``$PI_FORGE_GLOBAL_DIR`` if set, else ``~/.pi/forge``."""
    env = os.environ if environ is None else environ
    value = env.get(GLOBAL_DIR_VARIABLE)
    return Path(value) if value else Path.home().joinpath(*_FORGE_DIR)


def global_stack_dir(global_dir: Path) -> Path:
    """The user-global prompt-stack folder (its own listing group: it never shadows project stacks)."""
    return global_dir / _STACKS


def project_profile_dir(root: Path) -> Path:
    """``<project>/.pi/forge/agent-profiles`` (profiles-exec.md §1.1)."""
    return root.joinpath(*_FORGE_DIR, _PROFILES)


def global_profile_dir(global_dir: Path) -> Path:
    """``<global forge folder>/agent-profiles``."""
    return global_dir / _PROFILES


def project_config_path(root: Path) -> Path:
    """``<project>/.pi/forge/config.json``, the project's forge config (§2.1)."""
    return root.joinpath(*_FORGE_DIR, _CONFIG)


def global_config_path(global_dir: Path, environ: Mapping[str, str] | None = None) -> Path:
    """The user-global forge config: ``$PI_FORGE_GLOBAL_CONFIG_PATH`` if set, else
    ``<global forge folder>/config.json`` (§2.1)."""
    env = os.environ if environ is None else environ
    value = env.get(GLOBAL_CONFIG_VARIABLE)
    return Path(value) if value else global_dir / _CONFIG


_CATALOG_NAMES = ("models.json", "models.yaml", "models.yml")


def _first_catalog(folder: Path) -> Path | None:
    for name in _CATALOG_NAMES:
        candidate = folder / name
        if candidate.is_file():
            return candidate
    return None


def project_catalog_path(root: Path) -> Path | None:
    """The project's model catalog, ``.pi/forge/models.{json,yaml,yml}``, if there is one (§6.2)."""
    return _first_catalog(root.joinpath(*_FORGE_DIR))


def user_catalog_path(environ: Mapping[str, str] | None = None) -> Path | None:
    """The user's model catalog, ``$XDG_CONFIG_HOME/forgec/models.{json,yaml,yml}`` (default
    ``~/.config/forgec``), if there is one (§6.2)."""
    env = os.environ if environ is None else environ
    base = Path(env["XDG_CONFIG_HOME"]) if env.get("XDG_CONFIG_HOME") else Path.home() / ".config"
    return _first_catalog(base / "forgec")


def import_report_paths(root: Path, stack_id: str) -> tuple[Path, Path, Path]:
    """Where ``import-silly`` writes for ``stack_id`` under project ``root``: the stack, the
    Markdown report and forgec's fidelity report."""
    forge = root.joinpath(*_FORGE_DIR)
    report = forge / _IMPORT_REPORTS / f"{stack_id}.md"
    return project_stack_dirs(root)[0] / f"{stack_id}.json", report, report.with_name(f"{stack_id}.fidelity.json")


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


def stack_folder_group(path: Path) -> list[Path] | None:
    """The project folder group a stack file belongs to (both stack folders), when it sits in one.

    Lexical (no ``resolve()``): the compile of one file asks this for every call.
    """
    parent = path.parent
    for parts in _PROJECT_STACK_DIRS:
        if tuple(parent.parts[-len(parts) :]) == parts:
            root = parent
            for _ in parts:
                root = root.parent
            return list(project_stack_dirs(root))
    return None


# --- listing ----------------------------------------------------------------------------------------


def list_resource_files(
    directories: Iterable[str | os.PathLike[str]], suffixes: tuple[str, ...] = (".json",)
) -> list[Path]:
    """pi-forge's listing of one group of folders (§10.1; profiles §1.1).

    Per folder, in order (a missing or unreadable one is skipped): the entry names ending in one
    of ``suffixes`` (case-sensitive), sorted by UTF-16 code units; a name an earlier folder of the
    group already supplied is skipped (a primary file shadows a legacy file of the same name).
    Entries are not checked to be files: pi-forge reads a folder named ``x.json`` as a file and
    reports the read error, so the loader sees it too.
    """
    seen: set[str] = set()
    files: list[Path] = []
    for directory in directories:
        names = _sorted_names(directory)
        if names is None:
            continue
        for name in names:
            if name in seen or not name.endswith(suffixes):
                continue
            seen.add(name)
            files.append(Path(directory) / name)
    return files


#: folder -> (its state, its entry names in UTF-16 order); see :func:`_sorted_names`
_LISTINGS: dict[str, tuple[tuple[int, int, int, int], tuple[str, ...]]] = {}
_LISTINGS_MAX = 256
#: a folder changed this recently may change again within its clock tick: not memoised
_RACY_NS = 100_000_000


def _sorted_names(directory: str | os.PathLike[str]) -> tuple[str, ...] | None:
    """The entry names of ``directory`` in UTF-16 order, or None when it cannot be listed.

    Memoised by the folder's state (device, inode, modification time in ns, size): adding,
    removing or renaming an entry changes the modification time, so a compile that lists its stack
    folder on every call lists it again only when it changed.  A folder modified within the last
    100 ms is listed afresh (its next change could fall within the same tick of the file system's
    clock and keep the time), as git treats "racily clean" files.
    """
    key = os.fspath(directory)
    try:
        state = os.stat(key)
    except (OSError, ValueError):
        return None
    signature = (state.st_dev, state.st_ino, state.st_mtime_ns, state.st_size)
    known = _LISTINGS.get(key)
    if known is not None and known[0] == signature:
        return known[1]
    from forgec.js.values import utf16_key  # here, not at the top: a cold single-file run lists no folder

    try:
        names = tuple(sorted(os.listdir(key), key=utf16_key))
    except OSError:
        return None
    if time.time_ns() - state.st_mtime_ns > _RACY_NS:
        if len(_LISTINGS) >= _LISTINGS_MAX:
            _LISTINGS.clear()
        _LISTINGS[key] = (signature, names)
    return names


def list_folder_files(folder: str | os.PathLike[str], suffixes: tuple[str, ...] = STACK_SUFFIXES) -> list[Path]:
    """The regular files of one folder whose names end in ``suffixes``, in UTF-16 order.

    What a folder argument stands for (``forgec validate DIR``, ``forgec fingerprint DIR``): unlike
    :func:`list_resource_files`, sub-folders are left out.  Raises ``OSError`` when the folder
    cannot be listed.
    """
    from forgec.js.values import utf16_key

    names = [entry.name for entry in os.scandir(folder) if entry.name.endswith(suffixes) and entry.is_file()]
    names.sort(key=utf16_key)
    return [Path(folder) / name for name in names]


# --- small path rules -------------------------------------------------------------------------------


def may_exist(path: Path) -> bool:
    """``path.exists()``, but True when the answer is "permission denied" (a file in a folder we may
    not search): it is there, and the command that opens it reports the problem with its name."""
    try:
        return path.exists()
    except OSError:
        return True


def config_start(paths: Iterable[str | os.PathLike[str]], stdin_filename: str | None = None) -> Path:
    """Where to look for ``pyproject.toml``: the first PATH (``-`` skipped), else the stdin file
    name, else the current folder.  A name that does not exist yet (a ``--stdin-filename``) starts
    at its nearest existing folder."""
    first = next((os.fspath(p) for p in paths if os.fspath(p) != "-"), None) or stdin_filename
    if first is None:
        return Path.cwd()
    path = Path(first)
    while not may_exist(path) and path != path.parent:
        path = path.parent
    return path if str(path) else Path.cwd()


_WINDOWS_DEVICES = frozenset(
    {"con", "prn", "aux", "nul", *(f"com{n}" for n in range(1, 10)), *(f"lpt{n}" for n in range(1, 10))}
)


def windows_reserved_name(name: str) -> bool:
    """Whether Windows reserves ``name`` for a device (``CON``, ``nul.json``, ``Com1.yaml``: the part
    before the first dot decides); such a file cannot be checked out there."""
    return name.split(".", 1)[0].rstrip(" ").lower() in _WINDOWS_DEVICES


def stdin_stack_name(stdin_filename: str | None) -> str:
    """The file name a stack read from standard input is loaded as (JSON unless it ends in .yaml/.yml)."""
    return os.path.basename(stdin_filename) if stdin_filename else STDIN_STACK_NAME


# --- PATH discovery ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Target:
    """One thing to check.

    ``path`` is ``None`` for a whole group (report everything the loader returns for ``group``);
    otherwise the file to report.  ``group`` is the tuple of folders to load together (pi-forge's
    directory group, §10.1; for a profile, its scope's profile folder), or ``None`` to load the file
    on its own.  ``display`` is how the file is named in output: as the user wrote it, or relative
    to the current folder.  ``kind`` is what the file is (``stack``, ``profile``, ``config``,
    ``catalog``) and ``scope`` whose it is (``project`` or ``global``).
    """

    display: str
    path: Path | None = None
    group: tuple[Path, ...] | None = None
    #: for a whole group: how to name its files (the argument the user gave, and the folder it meant)
    display_base: tuple[str, Path] | None = None
    stdin: bool = False
    kind: str = "stack"
    scope: str = "project"


@dataclass(slots=True)
class DiscoveryResult:
    """What the PATH arguments name: the targets to check, and the usage problems found on the way."""

    targets: list[Target]
    #: usage problems (missing or unreadable paths), one message each
    errors: list[str]


_PATTERNS = ", ".join(f"*{suffix}" for suffix in STACK_SUFFIXES)


def _group_has_stacks(group: tuple[Path, ...]) -> bool:
    """Whether any folder of a project group holds a stack file (unreadable folders: "maybe",
    the loader reports them)."""
    for folder in group:
        try:
            if folder.is_dir() and list_folder_files(folder):
                return True
        except OSError:
            return True
    return False


def _has_profiles(folder: Path) -> bool:
    try:
        return folder.is_dir() and bool(list_folder_files(folder, (".json",)))
    except OSError:
        return True


def _is_project_root(folder: Path) -> bool:
    forge = folder.joinpath(*_FORGE_DIR)
    return any(d.is_dir() for d in project_stack_dirs(folder)) or any(
        (forge / name).exists() for name in (_PROFILES, _CONFIG, *_CATALOG_NAMES)
    )


def find_project_root(start: Path, global_dir: Path | None = None) -> Path | None:
    """The Pi project ``start`` is in: ``start`` (a file: its folder) or the nearest folder above
    it that holds ``.pi/forge`` content or a stack folder, as git finds its repository.  The
    user-global forge folder is never taken for a project (``~/.pi/forge`` would make the home
    folder one).  ``None`` outside any project."""
    try:
        folder = start.resolve()
        if not folder.is_dir():
            folder = folder.parent
        home_forge = (global_dir if global_dir is not None else global_forge_dir()).resolve()
    except (OSError, RuntimeError):
        return None
    for candidate in (folder, *folder.parents):
        if candidate.joinpath(*_FORGE_DIR) != home_forge and _is_project_root(candidate):
            return candidate
    return None


def shown_path(path: str | os.PathLike[str]) -> str:
    """A path as the user would type it: relative to the current folder when it is below it, else
    as given (a global profile keeps its full name)."""
    try:
        here = Path.cwd().resolve()
        resolved = Path(path).resolve()
        return os.path.relpath(resolved, here) if resolved.is_relative_to(here) else os.fspath(path)
    except (OSError, ValueError, RuntimeError):
        return os.fspath(path)


def _display(arg: str, base: Path, file: Path) -> str:
    return os.path.normpath(os.path.join(arg, os.path.relpath(file, base)))


def _project_targets(root: Path, arg: str) -> list[Target]:
    """What a project holds for ``validate``: its stacks (one group), profiles, config and catalog."""
    shown = arg or "."
    targets: list[Target] = []
    stacks = project_stack_dirs(root)
    if _group_has_stacks(stacks):
        targets.append(Target(display=shown, group=stacks, display_base=(arg, root)))
    profiles = project_profile_dir(root)
    if _has_profiles(profiles):
        targets.append(Target(display=shown, group=(profiles,), display_base=(arg, root), kind="profile"))
    config = project_config_path(root)
    if config.exists():
        targets.append(Target(_display(arg, root, config), config, kind="config"))
    catalog = project_catalog_path(root)
    if catalog is not None:
        targets.append(Target(_display(arg, root, catalog), catalog, kind="catalog"))
    return targets


def global_targets(global_dir: Path, environ: Mapping[str, str] | None = None) -> list[Target]:
    """What the user-global forge folder holds: its stacks, profiles and config (named by full path)."""
    targets: list[Target] = []
    base = str(global_dir)
    stacks = (global_stack_dir(global_dir),)
    if _group_has_stacks(stacks):
        targets.append(Target(display=base, group=stacks, display_base=(base, global_dir), scope="global"))
    profiles = global_profile_dir(global_dir)
    if _has_profiles(profiles):
        targets.append(Target(display=base, group=(profiles,), display_base=(base, global_dir), kind="profile", scope="global"))
    config = global_config_path(global_dir, environ)
    if config.exists():
        targets.append(Target(str(config), config, kind="config", scope="global"))
    return targets


def home_targets(global_dir: Path, project_root: Path) -> list[Target]:
    """:func:`global_targets` of the default user-global folder, for ``validate`` without PATH:
    nothing when it does not exist, or when it is the project's own ``.pi/forge`` (run in ``~``)."""
    try:
        if not global_dir.is_dir() or global_dir.resolve() == project_root.joinpath(*_FORGE_DIR).resolve():
            return []
    except OSError:
        return []
    return global_targets(global_dir)


def _profile_scope(folder: Path) -> str:
    """``project`` for ``<root>/.pi/forge/agent-profiles``, else ``global``."""
    return "project" if folder.parent.name == "forge" and folder.parent.parent.name == ".pi" else "global"


def _file_target(arg: str, resolved: Path) -> Target:
    """A file PATH: a profile, config or catalog where pi-forge keeps those, else a stack."""
    parent = resolved.parent
    in_forge = parent.name == "forge" and parent.parent.name == ".pi"
    if parent.name == _PROFILES:
        return Target(arg, resolved, (parent,), kind="profile", scope=_profile_scope(parent))
    if resolved.name == _CONFIG and in_forge:
        return Target(arg, resolved, kind="config")
    if resolved.name in _CATALOG_NAMES and in_forge:
        return Target(arg, resolved, kind="catalog")
    if resolved.suffix == ".json" and _looks_like_profile(resolved):
        return Target(arg, resolved, kind="profile")
    project = project_root_of(parent)
    return Target(display=arg, path=resolved, group=project_stack_dirs(project) if project else None)


def _looks_like_profile(path: Path) -> bool:
    """A JSON file that says it is an agent profile (its ``type``), wherever it is kept."""
    try:
        with open(path, "rb") as handle:
            head = handle.read(4096)
    except OSError:
        return False
    return b'"pi-forge.agent-profile"' in head


def expand_paths(args: list[str], cwd: Path | None = None, *, global_dir: Path | None = None) -> DiscoveryResult:
    """Turn PATH arguments (none: the current project) into targets; problems go to ``errors``.

    ``global_dir``: also check the user-global forge folder (``--global-dir``).
    """
    cwd = cwd if cwd is not None else Path.cwd()
    targets: list[Target] = []
    errors: list[str] = []
    seen: set[Path] = set()
    extra = global_targets(global_dir) if global_dir is not None else []
    if not args:
        root = cwd.resolve()
        targets = _project_targets(root, "") + extra
        if targets:
            return DiscoveryResult(targets, errors)
        if not _is_project_root(root):
            errors.append(
                f"no prompt stacks found: {root} is not a Pi project (looked for .pi/forge/prompt-stacks "
                "and .pi/prompt-stacks); give a PATH to check"
            )
        else:
            errors.append(
                f"no stack files ({_PATTERNS}) found in {root}/.pi/forge/prompt-stacks or {root}/.pi/prompt-stacks"
            )
        return DiscoveryResult(targets, errors)
    targets.extend(extra)
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
        targets.append(_file_target(arg, resolved))
    return DiscoveryResult(targets, errors)


def _expand_folder(arg: str, folder: Path) -> list[Target]:
    root = project_root_of(folder)
    if root is not None:
        # a project stack folder itself: every file in it, each loaded with its project group
        project_group = project_stack_dirs(root)
        return [Target(_display(arg, folder, f), f, project_group) for f in list_folder_files(folder)]
    if folder.name == _PROFILES:
        return [
            Target(_display(arg, folder, f), f, (folder,), kind="profile", scope=_profile_scope(folder))
            for f in list_folder_files(folder, (".json",))
        ]
    if _is_project_root(folder):
        return _project_targets(folder, arg)
    group = (folder,)
    return [Target(_display(arg, folder, f), f, group) for f in list_folder_files(folder)]
