"""``forgec migrate-stacks``: copy legacy ``.pi/prompt-stacks`` into ``.pi/forge/prompt-stacks``.

pi-forge's ``/preset migrate-stacks`` (import-regex.md C13), with forgec's safety: atomic copies
checked byte for byte before any legacy file is deleted.  The library does the work
(:mod:`forgec.importers.legacy_stacks`); this module prints the report.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from forgec.cli._common import no_traceback

_EPILOG = """\b
Examples:
  forgec migrate-stacks --dry-run            what would be copied, nothing written
  forgec migrate-stacks                      copy; legacy files stay in place
  forgec migrate-stacks --delete-legacy      copy, then delete each legacy file whose copy is verified

\b
A target that exists is skipped unless --overwrite (replaced atomically). A legacy file
is deleted only after its copy was read back and found identical.
Exit codes: 0 done (or dry run), 1 a file could not be copied or deleted, 2 usage error."""


@click.command("migrate-stacks", epilog=_EPILOG, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--dry-run", is_flag=True, help="Report what would be copied; write nothing.")
@click.option("--overwrite", is_flag=True, help="Replace stacks that already exist in .pi/forge/prompt-stacks.")
@click.option("--delete-legacy", is_flag=True, help="Delete each legacy file after its copy is verified.")
@click.option("--project", "project", type=click.Path(file_okay=False, exists=True, path_type=Path),
              help="The project folder (default: the current folder).")
@no_traceback
def migrate_stacks(dry_run: bool, overwrite: bool, delete_legacy: bool, project: Path | None) -> None:
    """Copy the project's legacy stacks (.pi/prompt-stacks/*.json) to .pi/forge/prompt-stacks/."""
    from forgec.importers.legacy_stacks import migrate_legacy_stacks

    report = migrate_legacy_stacks((project or Path.cwd()).absolute(), dry_run=dry_run, overwrite=overwrite,
                                   delete_legacy=delete_legacy)  # fmt: skip
    click.echo(report.render(), nl=False)
    click.echo(report.notice, err=True)
    sys.exit(1 if report.count("error") else 0)
