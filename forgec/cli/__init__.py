"""The ``forgec`` command line.

Each command lives in its own module under :mod:`forgec.cli` and is imported only when it runs, so
``forgec --help`` and ``forgec validate`` stay fast: heavy libraries are loaded by the command that
needs them.  This module only knows the command names.
"""

from __future__ import annotations

import importlib
import sys

import click

from forgec import __version__

#: command name -> (module, attribute, one-line help shown by ``forgec --help``)
COMMANDS: dict[str, tuple[str, str, str]] = {
    "validate": ("forgec.cli.validate", "validate", "Lint prompt stacks: pi-forge's loader checks plus forgec rules."),
    "schema": ("forgec.cli.schema", "schema", "Print a bundled JSON Schema (for editors and CI)."),
    "rule": ("forgec.cli.rule", "rule", "Explain a diagnostic code, with a bad and a good example."),
    "import-silly": ("forgec.cli.import_silly", "import_silly", "Import a SillyTavern preset as a prompt stack."),
    "preview": ("forgec.cli.preview", "preview", "Compile a stack and show its prompt, messages and diagnostics."),
    "compile": ("forgec.cli.compile", "compile_command", "Print the provider request body Pi would send (offline)."),
    "fingerprint": ("forgec.cli.fingerprint", "fingerprint", "Print sha256:v1 fingerprints of stacks, profiles and JSON."),
    "snapshot": ("forgec.cli.snapshot", "snapshot", "Check or update golden files of compiled prompts."),
}


class LazyGroup(click.Group):
    """A click group whose subcommands are imported on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        entry = COMMANDS.get(cmd_name)
        if entry is None:
            return None
        module = importlib.import_module(entry[0])
        command: click.Command = getattr(module, entry[1])
        return command

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = [(name, COMMANDS[name][2]) for name in self.list_commands(ctx)]
        with formatter.section("Commands"):
            formatter.write_dl(rows)


@click.group(
    cls=LazyGroup,
    context_settings={"help_option_names": ["-h", "--help"], "max_content_width": 100},
    epilog=(
        "Examples:\n\n"
        "\b\n"
        "  forgec validate                      lint the stacks of the current project\n"
        "  forgec validate examples/ --format concise\n"
        "  forgec rule FG101                    explain one diagnostic\n"
        "\nExit codes: 0 clean, 1 findings at the failing level, 2 usage error or unreadable input."
    ),
)
@click.version_option(__version__, "-V", "--version", prog_name="forgec")
def cli() -> None:
    """forgec compiles and lints pi-forge prompt stacks.

    A prompt stack is an ordered JSON or YAML list of system/user/assistant blocks and dynamic slots
    (chat history, tools, skills, project context...). forgec checks stacks exactly as pi-forge 0.4.1
    loads them and adds its own rules, with file:line:col positions.
    """


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point."""
    try:
        cli.main(args=argv, prog_name="forgec", standalone_mode=True)
    except KeyboardInterrupt:
        click.echo("interrupted", err=True)
        sys.exit(130)
