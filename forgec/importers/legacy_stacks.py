"""Moving legacy stacks into the current folder: pi-forge's ``/preset migrate-stacks`` (import-regex.md C13).

pi-forge 0.4 reads stacks from ``.pi/forge/prompt-stacks/`` and, as a legacy fallback, from
``.pi/prompt-stacks/`` (a file of the same name in the first shadows the second).  The migration
copies every legacy ``*.json`` file (sorted by name) to the current folder: a target that exists is
skipped unless ``overwrite``; with ``delete_legacy`` the legacy file is removed after the copy.  The
report and the notice are pi-forge's texts.

forgec's copies are safer than a plain copy: each target is written atomically (complete or
unchanged; a new file created exclusively), and a legacy file is deleted only after its copy has
been read back and found byte-identical -- nothing the user had is lost, whatever fails halfway.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

from forgec.workspace import list_resource_files, project_stack_dirs

__all__ = ["MigrationEntry", "MigrationReport", "migrate_legacy_stacks"]


@dataclass(frozen=True, slots=True)
class MigrationEntry:
    """One file's outcome: ``action`` is ``copy``, ``overwrite``, ``skip`` or ``error``."""

    action: str
    name: str
    source: Path | None
    target: Path | None
    reason: str | None = None
    deleted: bool = False


@dataclass(slots=True)
class MigrationReport:
    source_dir: Path
    target_dir: Path
    dry_run: bool
    overwrite: bool
    delete_legacy: bool
    entries: list[MigrationEntry] = field(default_factory=list)

    def count(self, action: str) -> int:
        return sum(1 for entry in self.entries if entry.action == action)

    @property
    def deleted(self) -> int:
        return sum(1 for entry in self.entries if entry.deleted)

    @property
    def notice(self) -> str:
        """pi-forge's notification (a warning when there were errors)."""
        if self.dry_run:
            return f"pi-forge: migration dry run found {len(self.entries)} legacy stack file(s)."
        moved = self.count("copy") + self.count("overwrite")
        return f"pi-forge: migrated {moved} legacy stack file(s), skipped {self.count('skip')}, errors {self.count('error')}."

    def render(self) -> str:
        """The Markdown report pi-forge shows in its ``pi-forge prompt-stack migration`` panel."""
        yes = {True: "yes", False: "no"}
        lines = [
            "# Prompt Stack Migration", "", f"Source: {self.source_dir}", f"Target: {self.target_dir}",
            f"Mode: {'dry run' if self.dry_run else 'write'}", f"Overwrite existing target files: {yes[self.overwrite]}",
            f"Delete legacy files after copy: {yes[self.delete_legacy]}", "", f"Copied: {self.count('copy')}",
            f"Overwritten: {self.count('overwrite')}", f"Skipped: {self.count('skip')}", f"Errors: {self.count('error')}",
            f"Deleted legacy files: {self.deleted}", "", "## Files", "",
        ]  # fmt: skip
        if not self.entries:
            lines.append("No legacy prompt-stack JSON files found.")
        for entry in self.entries:
            lines.append(f"- {entry.action}: {entry.name}" + (f" ({entry.reason})" if entry.reason else ""))
            if entry.source is not None:
                lines.append(f"  from: {entry.source}")
            if entry.target is not None:
                lines.append(f"  to:   {entry.target}")
            if self.delete_legacy and entry.action in ("copy", "overwrite"):
                lines.append("  legacy delete: yes")
        moved = self.count("copy") + self.count("overwrite")
        if not self.delete_legacy and not self.dry_run and moved:
            lines += ["", "Legacy files were left in place. Re-run with `--delete-legacy` after checking the "
                          "migrated stacks if you want to remove them."]  # fmt: skip
        return "\n".join(lines) + "\n"


def _copy(source: Path, target: Path, *, overwrite: bool) -> None:
    """Copy ``source`` to ``target`` atomically, byte for byte, then read the copy back."""
    from forgec.atomic import write_bytes_atomic
    from forgec.source.read import read_file_bytes

    data = read_file_bytes(source)
    write_bytes_atomic(target, data, overwrite=overwrite)
    if read_file_bytes(target) != data:
        raise OSError(f"the copy at {target} differs from {source}; the legacy file was kept")


def migrate_legacy_stacks(
    root: Path, *, dry_run: bool = False, overwrite: bool = False, delete_legacy: bool = False
) -> MigrationReport:
    """Copy ``<root>/.pi/prompt-stacks/*.json`` to ``<root>/.pi/forge/prompt-stacks/`` (C13)."""
    target_dir, source_dir = project_stack_dirs(root)
    report = MigrationReport(source_dir, target_dir, dry_run, overwrite, delete_legacy)
    if not source_dir.exists():
        return report
    try:
        os.listdir(source_dir)
    except OSError as exc:
        report.entries.append(MigrationEntry("error", "(legacy directory)", source_dir, None, exc.strerror or str(exc)))
        return report
    for source in list_resource_files([source_dir], (".json",)):
        target = target_dir / source.name
        exists = target.exists() or target.is_symlink()
        if exists and not overwrite:
            report.entries.append(MigrationEntry("skip", source.name, source, target, "target already exists"))
            continue
        action = "overwrite" if exists else "copy"
        if dry_run:
            report.entries.append(MigrationEntry(action, source.name, source, target))
            continue
        try:
            _copy(source, target, overwrite=overwrite)
        except OSError as exc:
            report.entries.append(MigrationEntry("error", source.name, source, target, exc.strerror or str(exc)))
            continue
        deleted = False
        if delete_legacy:
            try:
                source.unlink()
                deleted = True
            except OSError as exc:
                report.entries.append(MigrationEntry("error", source.name, source, target, f"copied, but the legacy file could not be deleted: {exc.strerror or exc}"))
                continue
        report.entries.append(MigrationEntry(action, source.name, source, target, deleted=deleted))
    return report
