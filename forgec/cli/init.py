"""``forgec init [DIR]``: scaffold a project whose validate, pytest and pre-commit are green at once.

Options and printing only; the files and why they look as they do are :mod:`forgec.scaffold`'s.
"""

from __future__ import annotations

from pathlib import Path

import click

from forgec.cli._common import no_traceback


@click.command("init")
@click.argument("directory", required=False, default=".", type=click.Path(file_okay=False, path_type=Path))
@click.option("--overwrite", is_flag=True, help="Replace scaffold files that already exist (never pyproject.toml).")
@no_traceback
def init(directory: Path, overwrite: bool) -> None:
    """Create a prompt-stack project in DIRECTORY (default: here): a stack, a context, a golden
    test with its golden file, a pre-commit hook and [tool.forgec] settings.

    \b
    Files (paths relative to DIRECTORY):
      .pi/forge/prompt-stacks/assistant.yaml      the stack (YAML, with comments)
      contexts/session.yaml                       a fixed host snapshot for previews and tests
      tests/test_prompts.py                       a golden-file test (forgec's pytest plugin)
      tests/__snapshots__/test_prompts/...        its golden file, already written
      .pre-commit-config.yaml                     runs forgec validate on every commit
      pyproject.toml                              [tool.forgec] and pytest's testpaths
                                                  (an existing one is kept, never changed)

    Nothing is written when one of these files exists, unless --overwrite is given.  Afterwards
    these are green at once:

    \b
      forgec validate
      pytest                      (needs pytest and syrupy: pip install "forgec[test]")
      git init && git add -A && pre-commit run --all-files

    Exit codes: 0 created; 2 a scaffold file exists (without --overwrite) or cannot be written.
    """
    from forgec.atomic import ExistingFilesError
    from forgec.output.textsafe import escape_controls
    from forgec.scaffold import scaffold_project

    try:
        result = scaffold_project(directory, overwrite=overwrite)
    except ExistingFilesError as exc:
        names = ", ".join(escape_controls(str(p)) for p in exc.paths)
        raise click.UsageError(f"already there: {names} (--overwrite replaces them)") from None
    for path in result.written:
        click.echo(f"created {escape_controls(str(path))}")
    for path in result.kept:
        click.echo(
            f"kept {escape_controls(str(path))}: add forgec's settings yourself if you want them:\n\n"
            + result.pyproject_hint
        )
    where = "" if directory == Path(".") else f"cd {escape_controls(str(directory))} && "
    click.echo(
        "\nNext:\n"
        f"  {where}forgec validate . contexts/     lint the stack and the context\n"
        "  forgec preview .pi/forge/prompt-stacks/assistant.yaml --context contexts/session.yaml\n"
        "  pytest                          the golden test (pytest --snapshot-update after an intended change)\n"
        "  git init && git add -A && pre-commit install && pre-commit run --all-files"
    )
