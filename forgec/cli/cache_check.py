"""``forgec cache-check STACK --context TURN1 --context TURN2``: will the prompt cache hit next turn?

One library call (:func:`forgec.analysis.cache.cache_check`) per target, then printing.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from forgec.cli._common import fail, no_traceback, trust_plugins_option
from forgec.model import API_ORDER

_EPILOG = """\b
Examples:
  forgec cache-check coding.json --context turn1.yaml --context turn2.yaml
  forgec cache-check coding.json --context t1.yaml --context t2.yaml --target all --format markdown
  forgec cache-check coding.json --context t1.yaml --context t2.yaml --fail-under 0.5

Give two contexts of one session: turn 1, and turn 2 with turn 1's messages plus the new ones
(what Pi sends one turn later). Both are compiled and each request body is built exactly as
`forgec compile` prints it. The report has: the common byte prefix of the two bodies; the first
part that differs in the order the provider caches a request (tools, system, messages), with the
stack item that produced it (a system item, or a message's item / chat-history position); and the
estimated share of turn 2 that can be read from the cache (characters / 4 of the parts before the
difference). Anthropic's cache_control markers move every turn and are not compared.

`forgec validate` reports the same problems without compiling: FG870 (changing content in the
system prompt) and FG871 (changing content before the chat history).

Exit codes: 0 report printed; 1 pi-ai cannot build a body, or the cached share is below
--fail-under; 2 usage error or unreadable input."""


@click.command("cache-check", epilog=_EPILOG, context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("stack", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--context", "contexts", multiple=True, required=True,
              type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="A turn's context file; give it twice: turn 1, then turn 2.")
@click.option("--target", type=click.Choice([*API_ORDER, "all"]), default="anthropic-messages", show_default=True,
              help="Provider API whose body is compared (all: the four).")
@click.option("--format", "fmt", type=click.Choice(["text", "markdown", "json"]), default="text", show_default=True)
@click.option("--fail-under", type=click.FloatRange(0, 1), default=None, metavar="SHARE",
              help="Exit 1 when the estimated cached share of turn 2 is below SHARE (0-1).")
@trust_plugins_option
@no_traceback
def cache_check_command(
    stack: Path, contexts: tuple[Path, ...], target: str, fmt: str, fail_under: float | None, trust_plugins: bool = False
) -> None:
    """Compile two turns of STACK and report how much of the second request the provider can cache."""
    from forgec.analysis.cache import cache_check
    from forgec.analysis.render import render_cache_check
    from forgec.cli._stack import echo_context_errors, stack_environment
    from forgec.codecs.context import ContextError
    from forgec.errors import InputError

    if len(contexts) != 2:
        raise click.UsageError("give --context exactly twice: turn 1, then turn 2")
    env = stack_environment(stack, None, trust_plugins)
    targets = list(API_ORDER) if target == "all" else [target]
    checks = []
    try:
        for api in targets:
            checks.append(cache_check(stack, contexts[0], contexts[1], api, env=env))
    except ContextError as exc:
        echo_context_errors(exc)
    except InputError as exc:
        fail(str(exc))
    if fmt == "json":
        import json

        value = [c.to_json() for c in checks] if target == "all" else checks[0].to_json()
        click.echo(json.dumps(value, indent=2, ensure_ascii=False))
    else:
        click.echo("\n".join(render_cache_check(c, fmt) for c in checks), nl=False)
    failed = any(c.errors for c in checks)
    low = fail_under is not None and any(c.cached_share < fail_under for c in checks)
    sys.exit(1 if failed or low else 0)
