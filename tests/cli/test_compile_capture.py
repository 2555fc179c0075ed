"""``forgec compile --capture FILE``: pi-forge's payload capture record (profiles-exec.md §5).

The record is what pi-forge's ``/payload`` keeps for the body it would send: the key-based
redaction (a secret-looking key gets ``[redacted]``, token counts are kept), the rendered text, its
length in UTF-16 units, ``approxTokens`` = ceil(chars / 4), ``truncated``; ``capturedAt`` comes
from ``--now``, else ``SOURCE_DATE_EPOCH``, else the clock.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from forgec.emit.redact import capture_payload

from .helpers import CLEAN_STACK, write_json

_CONTEXT = {
    "tools": [
        {
            "name": "deploy",
            "description": "Deploy a build.",
            "parameters": {"type": "object", "properties": {"api_key": {"type": "string"}, "target": {"type": "string"}}},
        }
    ]
}


@pytest.fixture
def stack(tmp_path: Path) -> Path:
    write_json(tmp_path / "ctx.json", _CONTEXT)
    return write_json(tmp_path / "s.json", CLEAN_STACK)


def test_the_record_is_pi_forges_capture_of_the_body(run, stack: Path, tmp_path: Path) -> None:
    result = run("compile", "s.json", "--context", "ctx.json", "--target", "openai-completions",
                 "--capture", "cap.json", "--now", "2026-03-14T08:26:53Z")  # fmt: skip
    assert result.exit_code == 0, result.output
    body = json.loads(result.stdout)
    record = json.loads((tmp_path / "cap.json").read_text(encoding="utf-8"))
    assert record["capturedAt"] == "2026-03-14T08:26:53.000Z"
    assert record["stackId"] == "clean"
    assert record == capture_payload(body, captured_at="2026-03-14T08:26:53.000Z", stack_id="clean").to_json()
    properties = record["payload"]["tools"][0]["function"]["parameters"]["properties"]
    assert properties["api_key"] == "[redacted]" and properties["target"] == {"type": "string"}
    assert record["payload"]["max_completion_tokens"] == body["max_completion_tokens"]  # token counts kept
    assert record["chars"] == len(record["text"]) and record["approxTokens"] == math.ceil(record["chars"] / 4)
    assert record["truncated"] is False


def test_source_date_epoch_fixes_the_time(run, stack: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1773476813")
    run("compile", "s.json", "--target", "anthropic-messages", "--capture", "cap.json")
    assert json.loads((tmp_path / "cap.json").read_text(encoding="utf-8"))["capturedAt"] == "2026-03-14T08:26:53.000Z"


def test_an_existing_capture_is_kept_without_overwrite(run, stack: Path, tmp_path: Path) -> None:
    (tmp_path / "cap.json").write_text("mine", encoding="utf-8")
    result = run("compile", "s.json", "--target", "anthropic-messages", "--capture", "cap.json")
    assert result.exit_code == 2
    assert "already exists; pass --overwrite" in result.stderr
    assert (tmp_path / "cap.json").read_text(encoding="utf-8") == "mine"
    assert run("compile", "s.json", "--target", "anthropic-messages", "--capture", "cap.json", "--overwrite").exit_code == 0
    assert json.loads((tmp_path / "cap.json").read_text(encoding="utf-8"))["stackId"] == "clean"


def test_a_bad_now_is_refused_before_anything_is_written(run, stack: Path, tmp_path: Path) -> None:
    result = run("compile", "s.json", "--target", "anthropic-messages", "--capture", "cap.json", "--now", "soon")
    assert result.exit_code == 2
    assert "not an instant: 'soon'" in result.stderr
    assert result.stdout == "" and not (tmp_path / "cap.json").exists()
