"""The rule reference, ``docs/rules.md``, written from the rule registry.

The registry is the one source (code, name, default level, summary, bad and good examples,
whether the message is pi-forge's); this page is generated from it (``forgec rule --format
markdown > docs/rules.md``) and a test fails when the committed page and the registry disagree, so
the ``url`` in JSON and SARIF output always lands on a true entry.
"""

from __future__ import annotations

from forgec.rules import all_rules

__all__ = ["rules_markdown"]

_GROUPS = {
    "FG0": "Reading files", "FG1": "Stack shape, normalisation and validation", "FG2": "Macros",
    "FG3": "Slots, system prompt and messages", "FG4": "Chat history",
    "FG5": "Agent profiles and the forge config", "FG6": "Regex rules", "FG7": "SillyTavern import",
    "FG8": "Provider payloads, fingerprints, model catalogs", "FG9": "forgec configuration and plugins",
}  # fmt: skip


def _fence(text: str) -> list[str]:
    return ["```", *text.splitlines(), "```"]


def rules_markdown() -> str:
    """The whole page (Markdown, ending in a newline)."""
    lines = [
        "# Rule reference",
        "",
        "Every diagnostic forgec reports, by code. Generated from the rule registry",
        "(`forgec rule --format markdown > docs/rules.md`); `forgec rule CODE` prints one entry.",
        "A *pi-forge* rule's level and message are pi-forge's own; a *forgec* rule is forgec's",
        "extra analysis and never changes pi-forge's `usable`.",
    ]
    group = None
    for rule in all_rules():
        if rule.code[:3] != group:
            group = rule.code[:3]
            lines += ["", f"## {group}xx — {_GROUPS.get(group, 'Other')}"]
        origin = "pi-forge" if rule.pi_forge else "forgec"
        lines += ["", f"### {rule.code} {rule.name}", "", f"Default level: **{rule.level}** ({origin} rule)", "", rule.summary]
        for title, example in (("Bad", rule.bad), ("Good", rule.good)):
            if example:
                lines += ["", f"{title}:", "", *_fence(example)]
    return "\n".join(lines) + "\n"
