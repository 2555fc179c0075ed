"""The rule reference ``docs/rules.md`` is the registry, and every rule URL lands on its entry."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from forgec.output.rules_doc import rules_markdown
from forgec.rules import DOCS_URL, all_rules

DOC = Path(__file__).resolve().parents[2] / "docs" / "rules.md"


def _anchor(heading: str) -> str:
    """GitHub's heading anchor: lower case, punctuation but ``-`` dropped, spaces as ``-``."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_the_committed_reference_is_generated_from_the_registry() -> None:
    if not DOC.is_file():
        pytest.skip("not running from a source checkout")
    assert DOC.read_text(encoding="utf-8") == rules_markdown(), "run: forgec rule --format markdown > docs/rules.md"


def test_every_rule_url_is_an_anchor_of_the_reference() -> None:
    anchors = {_anchor(line[4:]) for line in rules_markdown().splitlines() if line.startswith("### ")}
    for rule in all_rules():
        assert rule.url.startswith(DOCS_URL + "#")
        assert rule.url.split("#", 1)[1] in anchors, rule.code


def test_json_and_sarif_carry_the_url(run, tmp_path: Path) -> None:
    import json

    (tmp_path / "a.json").write_text('{"schemaVersion": 1, "id": "a", "items": []}', encoding="utf-8")
    data = json.loads(run("validate", "a.json", "--format", "json").stdout)
    assert data["files"][0]["diagnostics"][0]["url"] == f"{DOCS_URL}#fg142-no-chat-history"
    sarif = json.loads(run("validate", "a.json", "--format", "sarif").stdout)
    rules = sarif["runs"][0]["tool"]["driver"]["rules"]
    assert all(r["helpUri"].startswith(DOCS_URL + "#") for r in rules)
