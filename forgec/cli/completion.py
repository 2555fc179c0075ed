"""``forgec completion bash|zsh|fish``: the shell completion script, printed.

click already answers completion requests (``_FORGEC_COMPLETE=bash_complete forgec``); what users
lacked was the script that asks, and where to put it.  This command prints click's script for the
shell, with the one variable name forgec answers to, so installing it is one line.
"""

from __future__ import annotations

import click

from forgec.cli._common import no_traceback

#: the variable click's completion scripts set when they ask ``forgec`` for candidates
COMPLETE_VAR = "_FORGEC_COMPLETE"


@click.command("completion")
@click.argument("shell", type=click.Choice(["bash", "zsh", "fish"]))
@no_traceback
def completion(shell: str) -> None:
    """Print the completion script for SHELL: commands, options, their choices (formats, targets)
    and file names then complete with TAB.

    \b
    Install it once:
      bash   echo 'eval "$(forgec completion bash)"' >> ~/.bashrc
      zsh    echo 'eval "$(forgec completion zsh)"' >> ~/.zshrc
      fish   forgec completion fish > ~/.config/fish/completions/forgec.fish
    then open a new shell.  bash needs version 4.4 or later.

    Exit codes: 0 printed, 2 unknown shell.
    """
    from click.shell_completion import get_completion_class

    from forgec.cli import cli

    cls = get_completion_class(shell)
    assert cls is not None  # the Choice above lists only shells click knows
    click.echo(cls(cli, {}, "forgec", COMPLETE_VAR).source())
