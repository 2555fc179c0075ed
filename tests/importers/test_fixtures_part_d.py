"""import-regex.md Part D: the 13 real presets import with the reference's numbers.

Each row: fixture, whether importing without a character id succeeds, the id used, stack id, items,
chat-history slots, skipped marker/empty/disabled, missing ids, regex total/converted (None = no
regex section), variables, migration macros.  No fixture sets includeLastUserMessage.
"""

from __future__ import annotations

import re

import pytest

from forgec.importers.sillytavern import import_preset

from .conftest import require_fixtures

ROWS = [
    ("atelier-fieldkit.json", False, 100001, "atelier-fieldkit", 30, 0, (0, 7, 29), 0, None, ["char", "user"], 0),
    ("lucid-loom-3.0b7.json", False, 100001, "lucid-loom-3-0b7", 250, 1, (7, 5, 130), 0, (4, 3), ["char", "user"], 6),
    ("magpie-v1-beta-2.1.json", True, 100001, "magpie-v1-beta-2-1", 60, 1, (7, 12, 24), 0, (33, 3), ["user"], 6),
    ("marinara-gemini.json", False, 100001, "marinara-gemini", 11, 1, (7, 1, 2), 0, None, ["char", "user"], 6),
    ("marinara-spaghetti-recipe.json", False, 100001, "marinara-spaghetti-recipe", 57, 1, (7, 15, 16), 0, None,
     ["char", "user"], 1),
    ("marinara-special.json", False, 100001, "marinara-special", 11, 1, (7, 1, 2), 0, None, ["char", "user"], 6),
    ("nemo-engine-11.5.2.json", False, 100001, "nemo-engine-11-5-2", 398, 1, (7, 50, 341), 0, (97, 6),
     ["char", "user"], 9),
    ("nemo-engine-5.4-action.json", True, 100001, "nemo-engine-5-4-action", 163, 1, (7, 5, 120), 0, None,
     ["char", "user"], 7),
    ("nemo-tgsjji.json", True, 100001, "nemo-tgsjji", 35, 1, (7, 2, 1), 0, None, ["char", "user"], 3),
    ("nemonet-2.0.json", True, 100000, "nemonet-2-0", 459, 1, (7, 44, 390), 0, (118, 3), ["char"], 8),
    ("st-default.json", False, 100001, "st-default", 3, 1, (7, 2, 1), 0, None, ["char", "user"], 0),
    ("storyweaver-1.1.json", False, 100001, "storyweaver-1-1", 20, 1, (7, 3, 2), 0, None, ["char", "user"], 2),
    ("vivarium-1.0-beta.json", True, 100001, "vivarium-1-0-beta", 5, 1, (7, 3, 0), 0, None, ["user"], 5),
]  # fmt: skip


def _count(report: str, pattern: str) -> int:
    match = re.search(pattern, report)
    return int(match.group(1)) if match else 0


@pytest.mark.parametrize("row", ROWS, ids=[r[0] for r in ROWS])
def test_part_d_numbers(row: tuple) -> None:
    folder = require_fixtures()
    name, ok_without, char_id, stack_id, items, slots, skipped, missing, regex, variables, migration = row
    without = import_preset(folder / name)
    assert (without.error is None) == ok_without, without.error
    if not ok_without:
        assert (
            without.error
            == "Multiple character configs found: [100000, 100001]. Choose a character_id and retry."
        )
    result = import_preset(folder / name, char_id)
    assert result.error is None
    stack, report = result.stack, result.report
    assert stack is not None and report is not None
    assert stack["id"] == stack_id
    assert len(stack["items"]) == items
    history = [i for i in stack["items"] if i.get("slot") == "chat-history"]
    assert len(history) == slots
    assert all("options" not in i for i in history)
    assert (
        _count(report, r"- (\d+) marker items"),
        _count(report, r"- (\d+) items with empty"),
        _count(report, r"- (\d+) items disabled"),
    ) == skipped
    assert report.count("(referenced in prompt_order but not found in prompts)") == missing
    if regex is None:
        assert "## SillyTavern regex scripts" not in report
    else:
        assert (
            _count(report, r"\*\*Total scripts\*\*: (\d+)"),
            len(stack.get("regex", {}).get("rules", [])),
        ) == regex
    assert list(stack.get("variables", {})) == variables
    section = report.split("## ⚠️ Macros needing manual migration")
    lines = section[1].split("\n\n## ")[0] if len(section) > 1 else ""
    assert sum(1 for line in lines.splitlines() if line.startswith("- **`{{")) == migration


def test_nemonet_has_no_100001() -> None:
    folder = require_fixtures()
    result = import_preset(folder / "nemonet-2.0.json", 100001)
    assert result.error == "Multiple character configs found: [100000]. Choose a character_id and retry."


def test_golden_rules() -> None:
    folder = require_fixtures()
    loom = import_preset(folder / "lucid-loom-3.0b7.json", 100001).stack
    rule = next(r for r in loom["regex"]["rules"] if r["id"] == "st-loom-contextsaver")
    assert (rule["enabled"], "flags" in rule, rule["pattern"], rule["roles"], rule["minDepth"]) == (
        False, False, r"[\s\S]*", ["user", "assistant"], 9,
    )  # fmt: skip
    magpie = {
        r["id"]: r for r in import_preset(folder / "magpie-v1-beta-2.1.json", 100001).stack["regex"]["rules"]
    }
    assert all(r["roles"] == ["assistant"] for r in magpie.values())
    assert magpie["st-magpie-0-plan-close-repair-prompt"]["enabled"] is True
    assert "flags" not in magpie["st-magpie-0-plan-close-repair-prompt"]
    assert magpie["st-magpie-19-plan-context-strip"]["flags"] == "gi"
    assert magpie["st-magpie-22-old-ledger-context-strip"]["flags"] == "gi"
    assert magpie["st-magpie-22-old-ledger-context-strip"]["minDepth"] == 5
    nemo = {
        r["id"]: r for r in import_preset(folder / "nemo-engine-11.5.2.json", 100001).stack["regex"]["rules"]
    }
    assert len(nemo) == 6
    assert nemo["st-nemo-magpie-0-plan-close-repair-prompt"]["flags"] == "i"


def test_every_fixture_has_a_complete_fidelity_report() -> None:
    folder = require_fixtures()
    for row in ROWS:
        result = import_preset(folder / row[0], row[2])
        fidelity = result.fidelity
        assert fidelity is not None
        statuses = {e["status"] for e in fidelity["entries"]}
        assert statuses <= {"converted", "approximated", "unsupported"}
        assert sum(fidelity["summary"].values()) == len(fidelity["entries"])
        prompts = [e for e in fidelity["entries"] if e["kind"] in ("prompt", "marker")]
        item_ids = {i["id"] for i in result.stack["items"]}
        assert {e["itemId"] for e in prompts if "itemId" in e} == item_ids
