"""``forgec lsp``: start the language server on standard input and output (one call, :mod:`forgec.lsp`)."""

from __future__ import annotations

import click

from forgec.cli._common import fail

_EPILOG = """\b
The server speaks the Language Server Protocol over stdio; an editor starts it
(see docs/editors.md for VS Code, Neovim, Helix and Zed).  It answers for
  .pi/forge/prompt-stacks/*.json|yaml|yml (and .pi/prompt-stacks/), agent profiles
  (.pi/forge/agent-profiles/), .pi/forge/config.json, .pi/forge/models.*,
  contexts (*/contexts/*.json|yaml, *.context.json|yaml) and pyproject.toml.

\b
What it does:
  diagnostics   as `forgec validate --format json` reports them, on the unsaved
                text (nothing is written), refreshed in every open file on change
  completion    keys, roles, modes, slots and their options, macros inside {{,
                variables after {{getvar::, regex flags, promptStack ids
  hover         macros, slots, rule codes, where a variable is set, the stack a
                profile's promptStack resolves to
  navigation    profile -> stack, getvar -> setvar; references; document symbols
  code actions  every --fix repair, "fix all", # forgec: ignore[...] in YAML,
                a per-file-ignores entry in pyproject.toml for JSON
  preview       workspace/executeCommand "forgec.preview" [uri] returns the
                compiled system prompt and messages

\b
initializationOptions (all optional):
  {"trustPlugins": false, "debounceMs": 150, "formatting": false,
   "context": "examples/contexts/coding-session.yaml",
   "contextFiles": ["*/contexts/*.json", "*.context.yaml"]}

Needs the optional extra: pip install 'forgec[lsp]'.  Exit codes: 0 the client
said exit, 2 the extra is not installed."""


@click.command(epilog=_EPILOG, context_settings={"help_option_names": ["-h", "--help"]})
@click.option(
    "--stdio", is_flag=True, help="Speak over standard input/output (the default and only transport)."
)
def lsp(stdio: bool) -> None:
    """Run forgec's language server for editors (stdio)."""
    from forgec.lsp import INSTALL_HINT, missing_extra

    missing = missing_extra()
    if missing is not None:
        fail(f"{missing} is not installed: {INSTALL_HINT}")
    from forgec.lsp.server import serve

    serve()
