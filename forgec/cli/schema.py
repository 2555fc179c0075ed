"""``forgec schema``: print one of the bundled JSON Schemas, or list them.

The schemas are the files ``schemas/<name>.schema.json`` shipped with forgec (the same files the
validator uses), printed byte for byte so editors and ``check-jsonschema`` can consume them.
"""

from __future__ import annotations

import click

from forgec.cli._common import fail, no_traceback

_EPILOG = """\b
Examples:
  forgec schema                                 list the bundled schema names
  forgec schema prompt-stack                    print one schema
  forgec schema prompt-stack > stack.schema.json
  forgec schema prompt-stack --strict > .vscode/prompt-stack.schema.json
  # editors: point "$schema" (or yaml-language-server) at the saved file (docs/editors.md)

\b
Exit codes: 0 printed, 2 unknown schema name."""

_SUFFIX = ".schema.json"


def schema_names() -> list[str]:
    """Names of the bundled schemas, sorted."""
    from forgec.resources import data_dir

    try:
        folder = data_dir("schemas")
    except FileNotFoundError:
        return []
    return sorted(p.name[: -len(_SUFFIX)] for p in folder.glob(f"*{_SUFFIX}"))


@click.command(epilog=_EPILOG, context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("name", required=False)
@click.option("--strict", is_flag=True,
              help="The editor variant: unknown keys and values forgec warns about are errors, at the same "
                   "JSON pointer as forgec's finding (prompt-stack, agent-profile, forge-config, context, model-catalog).")
@no_traceback
def schema(name: str | None, strict: bool) -> None:
    """Print the bundled JSON Schema NAME (without NAME, list the names).

    prompt-stack: a stack file (.pi/forge/prompt-stacks/*.json or YAML); context: a context file
    for --context of preview, compile and snapshot; model-catalog: a --models file of compile.
    Every stack pi-forge loads without an error validates against prompt-stack.
    """
    names = schema_names()
    if name is None:
        for item in names:
            click.echo(item)
        return
    key = name.removesuffix(_SUFFIX).removesuffix(".json")
    if key not in names:
        import difflib

        close = difflib.get_close_matches(key, names, n=1, cutoff=0.6)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        fail(f"unknown schema {name!r}{hint}; available: {', '.join(names) or '(none)'}")
        return
    from forgec.resources import schema_path

    text = schema_path(key).read_text(encoding="utf-8")
    if strict:
        import json

        from forgec.output.strict_schema import STRICT_SCHEMAS, strict_schema

        if key not in STRICT_SCHEMAS:
            fail(f"schema {key!r} has no strict variant; strict: {', '.join(STRICT_SCHEMAS)}")
        text = json.dumps(strict_schema(key, json.loads(text)), indent=2, ensure_ascii=False) + "\n"
    click.echo(text, nl=False)
