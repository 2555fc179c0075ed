"""The server's state that is not protocol: the open buffers, one environment per folder, linting.

Every check reads the buffers the editor holds in place of the files (:mod:`forgec.source.overlay`),
never writing them.  All open files are linted in one :func:`forgec.lint.lint_paths` call, so a
stack folder is loaded once and the cross-file findings -- duplicate ids, shadowing, a profile's
``promptStack`` that no longer resolves -- are those of the buffers as they are now, in every
open file at once.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from forgec.diagnostics import Diagnostic, Span
from forgec.lsp.files import DEFAULT_CONTEXT_PATTERNS, FileKind, file_kind

if TYPE_CHECKING:
    from forgec.agents.profiles import ProfileWorkspace
    from forgec.diagnostics.findings import ReportedFile
    from forgec.environment import Environment

__all__ = ["CheckedFile", "Project", "resources"]


@dataclass(slots=True)
class CheckedFile:
    """What the server knows about one open file after a check."""

    path: Path
    kind: FileKind
    text: str
    #: the findings as ``validate`` reports them (rule selection and suppressions applied)
    reported: ReportedFile | None = None
    #: findings of files ``validate`` does not lint (contexts, ``[tool.forgec]``)
    diagnostics: list[Diagnostic] = field(default_factory=list)


def _key(path: Path) -> Path:
    try:
        return path.resolve()
    except OSError:
        return Path(os.path.abspath(path))


class Project:
    """The open files of one editor session and the environments they are checked in."""

    def __init__(
        self,
        roots: Sequence[Path] = (),
        *,
        trust_plugins: bool = False,
        context_patterns: Sequence[str] = DEFAULT_CONTEXT_PATTERNS,
        context: Path | None = None,
    ) -> None:
        self.roots = [_key(r) for r in roots]
        self.trust_plugins = trust_plugins
        self.context_patterns = tuple(context_patterns)
        #: the context the preview compiles against (``None``: the built-in sample)
        self.context = context
        self.buffers: dict[Path, str] = {}
        self._envs: dict[Path, Environment] = {}

    # --- buffers --------------------------------------------------------------------------------

    def kind(self, path: Path) -> FileKind | None:
        return file_kind(_key(path), self.context_patterns)

    def open(self, path: Path, text: str) -> None:
        self.buffers[_key(path)] = text
        if path.name == "pyproject.toml":
            self._envs.clear()

    def close(self, path: Path) -> None:
        self.buffers.pop(_key(path), None)

    def saved(self, path: Path) -> None:
        """A file changed on disk: settings are read again when it was a ``pyproject.toml``."""
        if path.name == "pyproject.toml":
            self._envs.clear()

    def unsaved(self) -> dict[str, str]:
        return {str(path): text for path, text in self.buffers.items()}

    # --- environments ---------------------------------------------------------------------------

    def start_of(self, path: Path) -> Path:
        """The folder settings are discovered from: the workspace folder holding ``path``."""
        path = _key(path)
        for root in sorted(self.roots, key=lambda r: -len(r.parts)):
            if path.is_relative_to(root):
                return root
        return path.parent

    def environment(self, path: Path) -> Environment:
        """The environment of ``path``'s folder, built once; a broken ``[tool.forgec]`` gives the
        defaults (reported on the ``pyproject.toml`` itself) rather than no checks at all."""
        from forgec.environment import Environment
        from forgec.errors import SettingsError

        start = self.start_of(path)
        env = self._envs.get(start)
        if env is None:
            try:
                env = Environment.discover(start, trust_plugins=self.trust_plugins)
            except SettingsError:  # FG012 on the pyproject.toml says why (_check_settings)
                env = Environment.discover(start, trust_plugins=self.trust_plugins, isolated=True)
            self._envs[start] = env
        return env

    # --- checking -------------------------------------------------------------------------------

    def check(self, paths: Sequence[Path] | None = None) -> dict[Path, CheckedFile]:
        """Check ``paths`` (default: every open buffer forgec reads); keyed by resolved path."""
        from forgec.lint import lint_paths

        wanted = [_key(p) for p in (paths if paths is not None else list(self.buffers))]
        out: dict[Path, CheckedFile] = {}
        linted: dict[Path, list[Path]] = {}
        for path in wanted:
            kind = self.kind(path)
            if kind is None:
                continue
            text = self.buffers.get(path)
            if text is None:
                try:
                    text = path.read_text(encoding="utf-8", errors="replace")
                except OSError:
                    continue
            checked = out[path] = CheckedFile(path, kind, text)
            if kind == "context":
                checked.diagnostics = self._check_context(path)
            elif kind == "settings":
                checked.diagnostics = _check_settings(path, text)
            else:
                linted.setdefault(self.start_of(path), []).append(path)
        unsaved = self.unsaved()
        for _start, group in linted.items():
            env = self.environment(group[0])
            report = lint_paths([str(p) for p in group], env=env, unsaved=unsaved)
            for reported in report.files:
                key = _key(Path(reported.result.path))
                if key in out:
                    out[key].reported = reported
        if paths is None:
            # A whole check loaded every file and parsed every block the open workspace holds: the
            # caches keep those and forget the superseded versions of edited buffers and blocks, so
            # memory stays flat while typing instead of filling each cache's byte budget.
            from forgec.codecs.stack import STACK_CACHE
            from forgec.compile.macros.grammar import sweep_cache

            STACK_CACHE.sweep()
            sweep_cache()
        return out

    def _check_context(self, path: Path) -> list[Diagnostic]:
        from forgec.codecs.context import ContextError, load_context
        from forgec.rules import loader as codes
        from forgec.source.overlay import overlay

        with overlay(self.unsaved()):
            try:
                load_context(path)
            except ContextError as error:
                if error.problems:
                    return list(error.problems)
                span = Span(str(path), *(error.position or (1, 1)), *(error.position or (1, 1)))
                return [Diagnostic("error", str(error), error.code or codes.CONTEXT_INVALID, span=span)]
        return []


def _check_settings(path: Path, text: str) -> list[Diagnostic]:
    """``[tool.forgec]`` as forgec reads it: the first problem, at the line it names."""
    import tomllib

    from forgec.errors import SettingsError
    from forgec.rules import loader as codes
    from forgec.settings import parse_table

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        line = getattr(error, "lineno", 1) or 1
        return [
            Diagnostic(
                "error",
                f"invalid pyproject.toml: {error}",
                codes.SETTINGS_INVALID,
                span=Span(str(path), line, 1, line, 1),
            )
        ]
    tool = data.get("tool")
    table = tool.get("forgec") if isinstance(tool, dict) else None
    if table is None:
        return []
    try:
        if not isinstance(table, dict):
            raise SettingsError(f"{path}: [tool.forgec] must be a table")
        parse_table(table, path)
    except SettingsError as error:
        message = str(error).removeprefix(f"{path}: ")
        line = _settings_line(text, message)
        return [
            Diagnostic(
                "error",
                message,
                codes.SETTINGS_INVALID,
                span=Span(str(path), line, 1, line, len(text.split("\n")[line - 1]) + 1),
            )
        ]
    return []


def _settings_line(text: str, message: str) -> int:
    """The line a settings problem is about: the key it quotes, else the ``[tool.forgec]`` header."""
    import re

    lines = text.split("\n")
    header = next((i for i, line in enumerate(lines, 1) if line.strip().startswith("[tool.forgec")), 1)
    quoted = re.findall(r"'([^']+)'|^([\w-]+)", message)
    for first, second in quoted:
        key = first or second
        for number in range(header, len(lines) + 1):
            if re.match(rf"\s*\"?{re.escape(key)}\"?\s*=", lines[number - 1]):
                return number
    return header


def resources(project: Project, path: Path) -> ProfileWorkspace:
    """The profiles and stacks of ``path``'s project and of the user-global folder, as the buffers
    hold them (a stack id typed a moment ago is already a ``promptStack`` candidate)."""
    from forgec.agents.profiles import load_workspace
    from forgec.source.overlay import overlay
    from forgec.workspace import find_project_root

    env = project.environment(path)
    root = find_project_root(_key(path).parent, env.global_dir) or env.project_root
    with overlay(project.unsaved()):
        return load_workspace(
            root, global_dir=env.global_forge_dir, trusted=True, supported_slots=env.supported_slots
        )
