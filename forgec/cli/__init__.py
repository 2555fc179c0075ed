"""The ``forgec`` command line.

Each command lives in its own module under :mod:`forgec.cli` and is imported only when it runs, so
``forgec --help`` and ``forgec validate`` stay fast: heavy libraries are loaded by the command that
needs them.  This module only knows the command names.
"""

from __future__ import annotations

import contextlib
import sys

try:
    import importlib

    import click

    from forgec.resources import VERSION
except KeyboardInterrupt:  # Ctrl-C while click loads (the console script imports us first): no traceback
    sys.stderr.write("forgec: interrupted\n")
    raise SystemExit(130) from None

#: command name -> (module, attribute, one-line help shown by ``forgec --help``)
COMMANDS: dict[str, tuple[str, str, str]] = {
    "validate": ("forgec.cli.validate", "validate", "Lint stacks, agent profiles, forge config, model catalogs."),
    "schema": ("forgec.cli.schema", "schema", "Print a bundled JSON Schema (for editors and CI)."),
    "rule": ("forgec.cli.rule", "rule", "Explain a diagnostic code, with a bad and a good example."),
    "import-silly": ("forgec.cli.import_silly", "import_silly", "Import a SillyTavern preset as a prompt stack."),
    "preview": ("forgec.cli.preview", "preview", "Compile a stack and show its prompt, messages and diagnostics."),
    "compile": ("forgec.cli.compile", "compile_command", "Print the provider request body Pi would send (offline)."),
    "fingerprint": ("forgec.cli.fingerprint", "fingerprint", "Print sha256:v1 fingerprints of stacks, profiles and JSON."),
    "snapshot": ("forgec.cli.snapshot", "snapshot", "Check or update golden files of compiled prompts."),
    "profile": ("forgec.cli.profile", "profile", "Agent profiles: list, validate, show, resolve against a model catalog."),
    "plan": ("forgec.cli.plan", "plan_command", "Plan a delegation to an agent profile: what would be sent, where (offline)."),
    "run": ("forgec.cli.run", "run_command", "Approve and send a plan once through the provider's SDK; print the result."),
    "migrate-stacks": ("forgec.cli.migrate_stacks", "migrate_stacks", "Copy legacy .pi/prompt-stacks into .pi/forge/prompt-stacks."),
    "init": ("forgec.cli.init", "init", "Create a project: a stack, a context, a golden test, a pre-commit hook."),
    "completion": ("forgec.cli.completion", "completion", "Print the shell completion script (bash, zsh, fish)."),
    "ui": ("forgec.cli.ui", "ui", "Edit stacks and profiles in a local web editor (the [ui] extra)."),
    "cache-check": ("forgec.cli.cache_check", "cache_check_command", "Will the provider's prompt cache hit next turn? (two turns compared)"),
    "diff": ("forgec.cli.diff", "diff_command", "A compiled prompt's changes message by message, or its four provider bodies."),
    "tokens": ("forgec.cli.tokens", "tokens_command", "Token counts per message and request; the max-prompt-tokens budget."),
    "lsp": ("forgec.cli.lsp", "lsp", "Run the language server (stdio) for editors: diagnostics, completion, preview."),
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


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point.

    click's standalone mode turns Ctrl-C into ``Aborted!`` and exit code 1, which a script cannot
    tell from "findings".  forgec runs click without it and maps the outcomes itself: usage errors
    exactly as click prints them (exit 2), ``Exit`` codes unchanged, and an interrupt -- wherever
    it happens, even while a command imports its libraries -- to ``forgec: interrupted`` and exit
    code 130 (128 + SIGINT, the shell convention).  The interrupt guard covers the whole function,
    including the handlers themselves; the module's own imports have their own guard above.
    """
    try:
        _printable_streams()
        try:
            code = cli.main(args=argv, prog_name="forgec", standalone_mode=False)
        except click.exceptions.Abort as exc:
            if isinstance(exc.__context__, EOFError):  # end of input at a prompt: click's behaviour
                click.echo("Aborted!", err=True)
                sys.exit(1)
            _interrupted()
        except click.exceptions.ClickException as exc:
            exc.show()
            sys.exit(exc.exit_code)
    except KeyboardInterrupt:
        _interrupted()
    sys.exit(code if isinstance(code, int) else 0)


def _printable_streams() -> None:
    """Never fail on printing: characters the output encoding cannot hold are written as escapes.

    A stack may hold lone surrogates (JavaScript strings can) and a file name that is not UTF-8
    arrives as one; with Python's default ``strict`` error handler, printing such text would end
    the command with ``UnicodeEncodeError`` halfway through its output.  ``\\ud800`` is printed
    instead, on every encoding (an ASCII-only terminal gets ``\\u2026`` for ``…``).
    """
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            with contextlib.suppress(OSError, ValueError):  # a closed or detached stream: nothing to print to
                reconfigure(errors="backslashreplace")


def _interrupted() -> None:
    try:
        sys.stderr.write("forgec: interrupted\n")
        sys.stderr.flush()
    except (OSError, ValueError, KeyboardInterrupt):  # stderr closed, or a second Ctrl-C
        pass
    sys.exit(130)
