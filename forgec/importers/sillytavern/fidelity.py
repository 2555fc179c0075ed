"""forgec's machine-readable fidelity report (beyond pi-forge): what the import kept and what it lost.

Every prompt the selected order references, every marker, every missing identifier, every detected
macro and every regex script becomes one entry with a status (``converted``, ``approximated``,
``unsupported``) and a stable reason code, so a user (or CI) can see at a glance what a preset loses
in pi-forge.  The Markdown report stays byte-identical to pi-forge's; this is a separate document.
"""

from __future__ import annotations

from typing import Any

from forgec.js.values import UNDEFINED

from .convert import Conversion, ItemOutcome
from .macros import MIGRATION_NOTES, NATIVE_MACROS, NATIVE_NOTES, MacroScan, display_name
from .patterns import template_text
from .preset import NO_MEMBERS
from .regex_scripts import RegexSummary

CONVERTED = "converted"
APPROXIMATED = "approximated"
UNSUPPORTED = "unsupported"

#: regex conversion note (its fixed prefix) -> reason code
_NOTE_CODES = (
    ("not prompt-only", "regex-not-prompt-only"),
    ("disabled non-prompt script", "regex-disabled-display-script"),
    ("mixed prompt/display script requires review", "regex-mixed-prompt-display"),
    ("missing findRegex", "regex-missing-find"),
    ("empty findRegex", "regex-missing-find"),
    ("could not parse regex literal", "regex-bad-literal"),
    ("empty regex pattern", "regex-empty-pattern"),
    ("unsupported regex flag", "regex-unsupported-flag"),
    ("duplicate regex flag", "regex-duplicate-flag"),
    ("regex failed to compile", "regex-compile-error"),
    ("placement has no pi-forge runtime mapping", "regex-placement-unmapped"),
)

#: reason code -> one-line explanation (documented in docs/import-silly.md)
REASONS: dict[str, str] = {
    "block": "converted to a block with the same role and content",
    "block-disabled": "converted to a block, disabled as in prompt_order",
    "block-trim-removed": "converted; {{trim}} formatting hints were removed (pi-forge trims blocks itself)",
    "in-chat-depth-lost": "in-chat prompt (injection_position 1) placed at its prompt_order position; its depth is lost",
    "chat-history-slot": "chatHistory marker became the chat-history slot",
    "st-runtime-marker": "SillyTavern fills this marker at generation time; pi-forge has no equivalent",
    "custom-marker": "custom marker dropped without replacement",
    "empty-content": "prompt has no content after comments and {{trim}} were removed; nothing to convert",
    "unsupported-role": "role is not system, user or assistant; the prompt was dropped",
    "missing-identifier": "prompt_order references an identifier that prompts does not define",
    "native-macro": "pi-forge implements this macro",
    "static-variable": "became a static variable whose value is a placeholder to edit",
    "history-option": "handled by includeLastUserMessage: false on the chat-history slot",
    "needs-migration": "SillyTavern macro without a pi-forge equivalent; rewrite by hand",
    "unknown-macro": "macro name pi-forge does not know; it stays as literal text",
    "regex-rule": "converted to a history-stage outgoing regex rule",
    "regex-rule-with-warnings": "converted, but SillyTavern-only semantics were dropped or rewritten",
    "regex-not-prompt-only": "display/stored-message script; pi-forge only converts prompt-only scripts",
    "regex-disabled-display-script": "disabled script that is not prompt-only",
    "regex-mixed-prompt-display": "script is both prompt-only and markdown-only; review by hand",
    "regex-missing-find": "script has no find regex",
    "regex-bad-literal": "find regex starts with / but has no closing /",
    "regex-empty-pattern": "find regex literal has an empty pattern",
    "regex-unsupported-flag": "regex flag outside g, i, m, s, u",
    "regex-duplicate-flag": "regex flag repeated",
    "regex-compile-error": "JavaScript rejects the pattern",
    "regex-placement-unmapped": "placement reaches neither user input nor AI output",
}


#: reason code -> FG7xx rule code (forgec/rules/importer.py) for the findings worth a rule
RULE_CODES: dict[str, str] = {
    "st-runtime-marker": "FG720",
    "custom-marker": "FG720",
    "missing-identifier": "FG721",
    "needs-migration": "FG722",
    "regex-rule-with-warnings": "FG724",
    "in-chat-depth-lost": "FG725",
}


def _entry(kind: str, ref: Any, status: str, reason: str, **extra: Any) -> dict[str, Any]:
    entry: dict[str, Any] = {"kind": kind, "ref": ref, "status": status, "reason": reason}
    code = RULE_CODES.get(reason, "FG723" if reason.startswith("regex-") and status == UNSUPPORTED else None)
    if code is not None:
        entry["code"] = code
    entry.update({k: v for k, v in extra.items() if v is not None and v is not UNDEFINED})
    return entry


def _ref(value: Any) -> Any:
    return value if isinstance(value, (str, int, float)) and not isinstance(value, bool) else template_text(value)


#: an item outcome other than a block -> its entry's kind, status and reason, and whether it names its item
_OUTCOMES: dict[str, tuple[str, str, str, bool]] = {
    "slot": ("marker", CONVERTED, "chat-history-slot", True),
    "marker": ("marker", UNSUPPORTED, "st-runtime-marker", False),
    "custom-marker": ("marker", UNSUPPORTED, "custom-marker", False),
    "empty": ("prompt", CONVERTED, "empty-content", False),
    "no-role": ("prompt", UNSUPPORTED, "unsupported-role", False),
}


def _item_entry(outcome: ItemOutcome) -> dict[str, Any]:
    """The entry of one conversion item: ``_entry(kind, ref, status, reason, name=…, itemId=…)``
    written out, since a large preset has hundreds (no keyword dictionary, code looked up once)."""
    definition = outcome.conversion.definition
    fields: dict[str, Any] = definition if isinstance(definition, dict) else NO_MEMBERS
    known = _OUTCOMES.get(outcome.outcome)
    if known is not None:
        kind, status, reason, with_id = known
    else:  # a block
        kind, with_id = "prompt", True
        if fields.get("injection_position", UNDEFINED) == 1:
            status, reason = APPROXIMATED, "in-chat-depth-lost"
        elif outcome.trim_removed:
            status, reason = APPROXIMATED, "block-trim-removed"
        elif outcome.order_disabled:
            status, reason = CONVERTED, "block-disabled"
        else:
            status, reason = CONVERTED, "block"
    ref = _ref(outcome.conversion.identifier)
    entry: dict[str, Any] = {"kind": kind, "ref": ref, "status": status, "reason": reason}
    code = RULE_CODES.get(reason)
    if code is not None:
        entry["code"] = code
    name = fields.get("name")
    if isinstance(name, str):
        entry["name"] = name
    if with_id:
        entry["itemId"] = outcome.item_id
    return entry


def build_fidelity(
    stack: dict[str, Any],
    conversion: Conversion,
    missing: list[Any],
    macros: MacroScan,
    regex: RegexSummary | None,
    uses_last_user_message: bool,
) -> dict[str, Any]:
    """The fidelity document (``forgec import-silly --report-format json``)."""
    entries = list(map(_item_entry, conversion.outcomes))
    for identifier in missing:
        entries.append(_entry("identifier", _ref(identifier), UNSUPPORTED, "missing-identifier"))
    for name in macros.detected:
        shown = display_name(name)
        if name in ("char", "user"):
            entries.append(_entry("macro", shown, APPROXIMATED, "static-variable"))
        elif name == "lastusermessage":
            entries.append(_entry("macro", shown, CONVERTED, "history-option"))
        elif name in NATIVE_MACROS:
            entries.append(_entry("macro", shown, CONVERTED, "native-macro", detail=NATIVE_NOTES.get(name)))
        elif name in MIGRATION_NOTES:
            entries.append(
                _entry("macro", shown, UNSUPPORTED, "needs-migration", occurrences=macros.migration.get(name),
                       detail=MIGRATION_NOTES[name])
            )  # fmt: skip
        else:
            entries.append(_entry("macro", shown, UNSUPPORTED, "unknown-macro"))
    for script in regex.scripts if regex is not None else []:
        if script.rule_id is not None:
            status, reason = (
                (APPROXIMATED, "regex-rule-with-warnings") if script.warnings else (CONVERTED, "regex-rule")
            )
            entries.append(
                _entry("regex-script", script.name, status, reason, ruleId=script.rule_id,
                       warnings=list(script.warnings) or None)
            )  # fmt: skip
        else:
            note = script.note or ""
            code = next((c for prefix, c in _NOTE_CODES if note.startswith(prefix)), "regex-not-prompt-only")
            entries.append(_entry("regex-script", script.name, UNSUPPORTED, code, detail=note))
    counts = {CONVERTED: 0, APPROXIMATED: 0, UNSUPPORTED: 0}
    for entry in entries:
        counts[entry["status"]] += 1
    return {
        "schemaVersion": 1,
        "type": "forgec.import-fidelity",
        "stackId": stack["id"],
        "usesLastUserMessage": uses_last_user_message,
        "summary": counts,
        "entries": entries,
    }


# --- the Markdown section forgec adds to the written report ---------------------------------------

_STATUS_ORDER = (UNSUPPORTED, APPROXIMATED, CONVERTED)


def _md(text: Any) -> str:
    """One table cell or list item from preset text: one line, ``|`` and backticks made harmless."""
    from forgec.output.textsafe import escape_controls

    return escape_controls(str(text)).replace("|", "\\|").replace("`", "'")


def fidelity_markdown(fidelity: dict[str, Any], *, stack_path: str) -> str:
    """forgec's section of the Markdown import report: every entry of the fidelity document,
    counted per reason (the counts are the JSON's), what each loss means, and next steps as
    forgec commands.

    It follows pi-forge's report in the written ``<id>.md`` (whose text stays pi-forge's, byte for
    byte, above it); ``forgec import-silly --pi-forge-report`` writes pi-forge's text alone.
    """
    entries: list[dict[str, Any]] = fidelity["entries"]
    summary = fidelity["summary"]
    counts: dict[tuple[str, str], int] = {}
    refs: dict[tuple[str, str], list[str]] = {}
    for entry in entries:
        key = (entry["status"], entry["reason"])
        counts[key] = counts.get(key, 0) + 1
        where = [f"`{_md(entry['ref'])}`"] + ([f"item {_md(entry['itemId'])}"] if entry.get("itemId") is not None else [])
        named = f"{entry['kind']} \"{_md(entry['name'])}\" ({', '.join(where)})" if entry.get("name") else (
            f"{entry['kind']} " + where[0] + (f" ({where[1]})" if len(where) > 1 else "")
        )
        refs.setdefault(key, []).append(named)
    rows = sorted(counts, key=lambda k: (_STATUS_ORDER.index(k[0]), k[1]))
    out = [
        "## Fidelity (forgec)",
        "",
        "forgec's addition to pi-forge's report: every prompt, marker, macro and regex script of the import, "
        "as in `forgec import-silly --report-format json` (`<id>.fidelity.json`).",
        "",
        f"**{summary[CONVERTED]} converted, {summary[APPROXIMATED]} approximated, "
        f"{summary[UNSUPPORTED]} unsupported** ({len(entries)} entries).",
        "",
        "| status | reason | count | rule | what it means |",
        "|---|---|---|---|---|",
    ]
    for status, reason in rows:
        code = next((e.get("code") for e in entries if e["reason"] == reason and e.get("code")), None)
        out.append(
            f"| {status} | `{reason}` | {counts[(status, reason)]} | {code or ''} | {REASONS.get(reason, '')} |"
        )
    losses = [k for k in rows if k[0] != CONVERTED]
    if losses:
        out += ["", "### What was lost or approximated", ""]
        for key in losses:
            out.append(f"- `{key[1]}` ({counts[key]}): " + ", ".join(refs[key]))
    codes = sorted({e["code"] for e in entries if e.get("code") and e["status"] != CONVERTED})
    out += [
        "",
        "## Next steps with forgec",
        "",
        f"1. `forgec validate {stack_path}` -- pi-forge's loader checks and forgec's rules, at file:line:col.",
        f"2. `forgec preview {stack_path}` -- the prompt message by message (with the built-in sample "
        "conversation; `--context FILE` for your own).",
    ]
    step = 3
    if codes:
        out.append(f"{step}. " + ", ".join(f"`forgec rule {c}`" for c in codes) + " -- what each loss means and how to rewrite it.")
        step += 1
    out.append(
        f"{step}. `forgec snapshot update {stack_path}` -- a golden file of the compiled prompt, so "
        "`forgec snapshot check` notices later changes."
    )
    return "\n".join(out) + "\n"
