"""The Markdown import report tells the whole truth (issue 15, point 8): every fidelity entry of
the JSON is counted in the written ``<id>.md`` under pi-forge's untouched text, the losses are
listed by name, and the next steps are forgec commands."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.cli.test_import_silly_command import invoke
from tests.importers.conftest import DATA, FIXTURES

_ROW = re.compile(r"^\| (converted|approximated|unsupported) \| `([a-z-]+)` \| (\d+) \| (FG\d+)? \| ")


def _import(tmp_path: Path, preset: Path, *extra: str, character: str = "100001") -> tuple[dict, dict, str]:
    code, out, err = invoke(str(preset), character, "--report-format", "json", "--format", "json", *extra, cwd=tmp_path)
    assert code == 0, err
    doc = json.loads(out)
    stack_id = doc["import"]["stack"]["id"]
    md = (tmp_path / ".pi/forge/import-reports" / f"{stack_id}.md").read_text("utf-8")
    return doc["import"], doc["fidelity"], md


def _rows(md: str) -> dict[tuple[str, str], int]:
    return {(m.group(1), m.group(2)): int(m.group(3)) for line in md.splitlines() if (m := _ROW.match(line))}


def _presets() -> list[tuple[Path, str]]:
    found = [(DATA / "storyteller-mini.json", "100001"), (DATA / "hostile-regex.json", "1"),
             (DATA / "real-world-shapes.json", "100001")]
    found += [(FIXTURES / n, "100001") for n in ("atelier-fieldkit.json", "nemo-engine-5.4-action.json",
                                                 "vivarium-1.0-beta.json")]
    return [p for p in found if p[0].is_file()]


@pytest.mark.parametrize(("preset", "character"), _presets(), ids=lambda p: getattr(p, "stem", p))
def test_markdown_counts_match_the_json(tmp_path: Path, preset: Path, character: str) -> None:
    imported, fidelity, md = _import(tmp_path, preset, character=character)
    # pi-forge's report first, byte for byte, then forgec's section
    assert md.startswith(imported["report"] + "\n\n## Fidelity (forgec)\n")
    expected: dict[tuple[str, str], int] = {}
    for entry in fidelity["entries"]:
        key = (entry["status"], entry["reason"])
        expected[key] = expected.get(key, 0) + 1
    assert _rows(md) == expected
    s = fidelity["summary"]
    assert f"**{s['converted']} converted, {s['approximated']} approximated, {s['unsupported']} unsupported**" in md
    for status, reason in expected:
        if status != "converted":
            assert f"- `{reason}` ({expected[(status, reason)]}): " in md


def test_in_chat_depth_loss_is_named(tmp_path: Path) -> None:
    preset = FIXTURES / "atelier-fieldkit.json"
    if not preset.is_file():
        pytest.skip("the shared SillyTavern fixtures are not available")
    _, fidelity, md = _import(tmp_path, preset)
    lost = [e for e in fidelity["entries"] if e["reason"] == "in-chat-depth-lost"]
    assert lost and f"| approximated | `in-chat-depth-lost` | {len(lost)} | FG725 |" in md
    for entry in lost:
        assert f"`{entry['ref']}`, item {entry['itemId']})" in md
    assert "`forgec rule FG725`" in md


def test_next_steps_are_forgec_commands(tmp_path: Path) -> None:
    _, _, md = _import(tmp_path, DATA / "storyteller-mini.json")
    steps = md.split("## Next steps with forgec\n\n", 1)[1].splitlines()
    assert steps[0].startswith("1. `forgec validate .pi/forge/prompt-stacks/storyteller-mini.json`")
    assert all(re.match(r"\d\. `forgec ", line) for line in steps if line)


def test_pi_forge_report_writes_pi_forges_text_alone(tmp_path: Path) -> None:
    imported, _, md = _import(tmp_path, DATA / "storyteller-mini.json", "--pi-forge-report")
    assert md == imported["report"]


def test_the_json_report_field_stays_pi_forges(tmp_path: Path) -> None:
    imported, _, md = _import(tmp_path, DATA / "storyteller-mini.json")
    assert "Fidelity (forgec)" not in imported["report"]
    assert md != imported["report"]
