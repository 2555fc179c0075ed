"""The ``forgec`` click group: its lazily imported commands, ``--help`` and ``--version``.

Kept apart from :mod:`forgec.cli` so that the console script can run a plain ``forgec validate``
without importing click (:mod:`forgec.cli._fast`); ``from forgec.cli import cli`` still finds the
group here (PEP 562).
"""

from __future__ import annotations

import importlib

import click

from forgec.cli import COMMANDS, _printable_streams
from forgec.resources import VERSION


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

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        """click's lookup, plus "Did you mean 'validate'?" for a mistyped command name."""
        name = click.utils.make_str(args[0]) if args else ""
        if args and name not in COMMANDS and not name.startswith("-"):
            import difflib

            close = difflib.get_close_matches(name, list(COMMANDS), n=1, cutoff=0.6)
            if close:
                ctx.fail(f"No such command {name!r}. Did you mean {close[0]!r}?")
        return super().resolve_command(ctx, args)

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
        "  forgec validate                               lint this project's stacks, profiles, config\n"
        "  forgec validate examples/ --format concise    one line per finding\n"
        "  forgec rule FG101                             explain one diagnostic\n"
        "  forgec preview stack.json --context ctx.yaml  the prompt, message by message\n"
        "  forgec compile stack.json --target all        the provider request bodies\n"
        "  forgec snapshot check                         fail if a prompt changed\n"
        "  forgec profile resolve reviewer               can Pi use this agent profile, and why not\n"
        "\n'forgec COMMAND --help' shows a command's options, formats, examples and exit codes.\n"
        "\nExit codes: 0 clean, 1 findings at the failing level, 2 usage error or unreadable input, "
        "130 interrupted (Ctrl-C)."
    ),
)
@click.option(
    "-V",
    "--version",
    is_flag=True,
    expose_value=False,
    is_eager=True,
    callback=lambda ctx, _param, value: _print_version(ctx, value),
    help="Show the version (and whether compiled modules are loaded) and exit.",
)
def cli() -> None:
    """forgec compiles and lints pi-forge prompt stacks.

    A prompt stack is an ordered JSON or YAML list of system/user/assistant blocks and dynamic slots
    (chat history, tools, skills, project context...). forgec checks stacks exactly as pi-forge 0.4.1
    loads them and adds its own rules, with file:line:col positions.
    """
    _printable_streams()  # again here: in-process runs (click's CliRunner) do not go through main()


def _print_version(ctx: click.Context, value: bool) -> None:
    """``forgec, version X`` as click prints it; a compiled build (docs/performance.md) adds how many
    of its hot modules run compiled, so a bug report tells which of the two builds ran."""
    if not value or ctx.resilient_parsing:
        return
    from forgec.resources import COMPILED_MODULES, compiled_modules

    line = f"forgec, version {VERSION}"
    if compiled := compiled_modules():
        line += f" (compiled with mypyc: {len(compiled)} of {len(COMPILED_MODULES)} hot modules)"
    click.echo(line)
    ctx.exit()
