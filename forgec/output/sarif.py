"""SARIF 2.1.0 (for GitHub code scanning and other SARIF viewers).

One run; ``tool.driver.rules`` lists every registered rule (id = code, name = kebab-case name, the
summary as description, the bad/good examples as help, the default severity); each result points at
its rule by ``ruleId``/``ruleIndex`` and carries a ``physicalLocation`` with a region.  Columns count
Unicode code points (``columnKind``), like forgec's spans.  Relative paths are relative to
``%SRCROOT%`` (the current folder).  A finding without a span gets the region ``1:1``.
A path that could not be checked (missing, unreadable, no stack files) makes the invocation
``executionSuccessful: false`` (exit code 2) and is one ``toolExecutionNotifications`` entry, with
the path as its location.  ``--quiet`` does not apply: a SARIF log is always complete.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO
from urllib.parse import quote

from forgec.output.textsafe import escape_json_controls
from forgec.resources import VERSION

if TYPE_CHECKING:
    from forgec.diagnostics.findings import LintReport
    from forgec.rules import Rule

__all__ = ["document", "render"]

SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
_LEVEL = {"error": "error", "warning": "warning", "info": "note"}


def _rule(rule: Rule) -> dict[str, Any]:
    help_text = rule.summary or rule.name
    markdown = help_text
    if rule.bad:
        help_text += f"\n\nBad:\n{rule.bad}"
        markdown += f"\n\n**Bad**\n\n```\n{rule.bad}\n```"
    if rule.good:
        help_text += f"\n\nGood:\n{rule.good}"
        markdown += f"\n\n**Good**\n\n```\n{rule.good}\n```"
    return {
        "id": rule.code,
        "name": rule.name,
        "shortDescription": {"text": rule.summary or rule.name},
        "help": {"text": help_text, "markdown": markdown},
        "helpUri": rule.url,
        "defaultConfiguration": {"level": _LEVEL.get(rule.level, "note")},
        "properties": {"piForge": rule.pi_forge},
    }


def _artifact(path: str) -> dict[str, Any]:
    """The SARIF artifact location of ``path``.

    The URI is built from the file name's bytes (``os.fsencode``), as ``Path.as_uri`` does for an
    absolute path: a name that is not valid UTF-8 (``bad\\xffname.json``) becomes ``bad%FFname.json``
    instead of failing to encode.
    """
    if os.path.isabs(path):
        return {"uri": Path(path).as_uri()}
    return {"uri": quote(os.fsencode(path.replace(os.sep, "/")), safe="/"), "uriBaseId": "%SRCROOT%"}


def document(report: LintReport) -> dict[str, Any]:
    """The SARIF log as plain data."""
    from forgec.rules import all_rules

    rules = [_rule(r) for r in all_rules()]
    index = {r["id"]: i for i, r in enumerate(rules)}
    results: list[dict[str, Any]] = []
    for reported in report.files:
        for finding in reported.findings:
            if finding.code not in index:  # unregistered (a removed plugin): still a valid log
                index[finding.code] = len(rules)
                rules.append({"id": finding.code, "shortDescription": {"text": finding.code}})
            line, column, end_line, end_column = finding.position
            region = {"startLine": line, "startColumn": column}
            if finding.diagnostic.span is not None:
                region.update(endLine=end_line, endColumn=max(end_column, 1))
            properties: dict[str, Any] = {"piForgeLevel": finding.diagnostic.level}
            if finding.diagnostic.item_id is not None:
                properties["itemId"] = finding.diagnostic.item_id
            if reported.result.stack_id is not None:
                properties["stackId"] = reported.result.stack_id
            if finding.diagnostic.caused_by is not None:
                properties["causedBy"] = finding.diagnostic.caused_by[0]
            results.append(
                {
                    "ruleId": finding.code,
                    "ruleIndex": index[finding.code],
                    "level": _LEVEL.get(finding.severity, "note"),
                    "message": {"text": finding.message or finding.code},
                    "locations": [
                        {
                            "physicalLocation": {
                                "artifactLocation": _artifact(reported.result.path),
                                "region": region,
                            }
                        }
                    ],
                    "properties": properties,
                }
            )
    return {
        "$schema": SCHEMA_URI,
        "version": "2.1.0",
        "runs": [
            {
                "tool": {
                    "driver": {
                        "name": "forgec",
                        "version": VERSION,
                        "semanticVersion": VERSION,
                        "rules": rules,
                    }
                },
                "originalUriBaseIds": {"%SRCROOT%": {"uri": Path.cwd().as_uri().rstrip("/") + "/"}},
                "columnKind": "unicodeCodePoints",
                "invocations": [_invocation(report)],
                "results": results,
            }
        ],
    }


def _invocation(report: LintReport) -> dict[str, Any]:
    """Whether the run itself succeeded (findings do not count; an unchecked path does)."""
    invocation: dict[str, Any] = {"executionSuccessful": not report.usage_errors, "exitCode": report.exit_code}
    notifications = []
    for entry in report.error_entries():
        text = entry["message"] if entry["path"] is None else f"{entry['path']}: {entry['message']}"
        notification: dict[str, Any] = {"level": "error", "message": {"text": text}}
        if entry["path"] is not None:
            notification["locations"] = [{"physicalLocation": {"artifactLocation": _artifact(entry["path"])}}]
        notifications.append(notification)
    if notifications:
        invocation["toolExecutionNotifications"] = notifications
    return invocation


def render(report: LintReport, out: TextIO, *, color: bool = False, quiet: bool = False) -> None:
    out.write(escape_json_controls(json.dumps(document(report), indent=2, ensure_ascii=False)) + "\n")
