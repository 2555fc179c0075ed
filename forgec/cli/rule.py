"""``forgec rule``: explain a diagnostic code with a bad and a good example (ruff's ``ruff rule``).

The text comes from the rule registry (:mod:`forgec.rules`), so documentation and code cannot drift.
"""

from __future__ import annotations

import json
import sys

import click

from forgec.cli._common import fail, no_traceback

_EPILOG = """\b
Examples:
  forgec rule FG135                 explain one rule (by code)
  forgec rule duplicate-item-id     the same rule, by name
  forgec rule                       list every rule: code, name, default level
  forgec rule ALL                   the same (ALL as in --select ALL)
  forgec rule FG1                   list the rules of one group (a code prefix)
  forgec rule FG135 --format json   the rule as JSON (for editors and docs tooling)
  forgec rule --format markdown     the rule reference, docs/rules.md

\b
Exit codes: 0 found, 2 unknown code or name."""


def _text(rule: object) -> str:
    from forgec.rules import Rule

    assert isinstance(rule, Rule)
    origin = "pi-forge diagnostic" if rule.pi_forge else "forgec rule (not reported by pi-forge)"
    import textwrap

    summary = textwrap.fill(rule.summary, width=88)
    lines = [f"{rule.code} {rule.name}", "", f"Default level: {rule.level}  ({origin})", "", summary]
    for title, example in (("Bad", rule.bad), ("Good", rule.good)):
        if example:
            lines += ["", f"{title}:", *("    " + line for line in example.splitlines())]
    return "\n".join(lines) + "\n"


def _data(rule: object) -> dict[str, object]:
    from forgec.rules import Rule

    assert isinstance(rule, Rule)
    return {
        "code": rule.code,
        "name": rule.name,
        "level": rule.level,
        "summary": rule.summary,
        "bad": rule.bad,
        "good": rule.good,
        "piForge": rule.pi_forge,
        "url": rule.url,
    }


@click.command(epilog=_EPILOG, context_settings={"help_option_names": ["-h", "--help"]})
@click.argument("code", required=False, metavar="[CODE|NAME|PREFIX]")
@click.option("--format", "fmt", type=click.Choice(["text", "json", "markdown"]), default="text", show_default=True,
              help="markdown: the whole rule reference (docs/rules.md).")
@no_traceback
def rule(code: str | None, fmt: str) -> None:
    """Explain a diagnostic rule: what it means, its default level, a bad and a good example.

    Without CODE, with ALL, or with a code prefix such as FG1, list the rules."""
    from forgec.rules import all_rules, rule_for

    if fmt == "markdown":
        from forgec.output.rules_doc import rules_markdown

        click.echo(rules_markdown(), nl=False)
        return
    if code is not None and code.strip().upper() == "ALL":
        code = None  # the selector ``ALL`` of --select/[tool.forgec] means every rule here too
    if code is not None:
        try:
            found = rule_for(code)
        except KeyError:
            found = None
        if found is not None:
            click.echo(json.dumps(_data(found), indent=2, ensure_ascii=False) if fmt == "json" else _text(found), nl=fmt == "json")
            return
        prefix = code.strip().upper()
        rules = [r for r in all_rules() if r.code.startswith(prefix)] if prefix.startswith("FG") else []
        if not rules:
            from forgec.settings import suggest_rule

            fail(f"unknown rule {code!r}{suggest_rule(code)}; `forgec rule` lists every code and name")
            return
    else:
        rules = all_rules()
    if fmt == "json":
        click.echo(json.dumps([_data(r) for r in rules], indent=2, ensure_ascii=False))
    else:
        width = max((len(r.name) for r in rules), default=0)
        for r in rules:
            click.echo(f"{r.code}  {r.name.ljust(width)}  {r.level}")
    sys.exit(0)
