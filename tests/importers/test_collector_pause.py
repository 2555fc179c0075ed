"""The importer pauses the cyclic collector for a large preset (docs/performance-log.md, "Stop 27: the
import rows"): while a file of ``LARGE_INPUT_CHARS`` bytes or more is parsed, and while a preset of
``LARGE_PRESET_PROMPTS`` prompts or more is converted.  Smaller inputs are left alone, the collector
comes back on afterwards (also after a refusal), and a host that runs with it off keeps it off.
"""

from __future__ import annotations

import gc
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import forgec.importers.sillytavern.jsonread as jsonread
from forgec.importers.sillytavern import LARGE_PRESET_PROMPTS, convert_preset
from forgec.source.collector import LARGE_INPUT_CHARS


def _preset(prompts: int, padding: int = 0) -> dict[str, Any]:
    items = [
        {"identifier": f"p{i}", "name": f"P{i}", "role": "system", "content": f"text {i} {{{{char}}}}"}
        for i in range(prompts)
    ]
    if padding:
        items[0]["content"] += " " + "x" * padding
    order = [{"character_id": 100001, "order": [{"identifier": f"p{i}", "enabled": True} for i in range(prompts)]}]
    return {"prompts": items, "prompt_order": order}


@pytest.fixture
def collector_on() -> Iterator[None]:
    was = gc.isenabled()
    gc.enable()
    yield
    if not was:
        gc.disable()


def _enabled_while_converting(raw: Any) -> list[bool]:
    seen: list[bool] = []
    convert_preset(raw, "p.json", "p.json", 100001, now_ms=0, progress=lambda *_: seen.append(gc.isenabled()))
    return seen


@pytest.mark.usefixtures("collector_on")
def test_a_large_preset_is_converted_with_the_collector_paused() -> None:
    seen = _enabled_while_converting(_preset(LARGE_PRESET_PROMPTS))
    assert seen and not any(seen)
    assert gc.isenabled()


@pytest.mark.usefixtures("collector_on")
def test_a_small_preset_leaves_the_collector_alone() -> None:
    seen = _enabled_while_converting(_preset(LARGE_PRESET_PROMPTS - 1))
    assert seen and all(seen)
    assert gc.isenabled()


@pytest.mark.usefixtures("collector_on")
def test_the_collector_comes_back_after_a_refusal() -> None:
    raw = _preset(LARGE_PRESET_PROMPTS)
    raw["prompts"][3]["content"] = 7  # pi-forge's "content must be a string"
    result = convert_preset(raw, "p.json", "p.json", 100001, now_ms=0)
    assert result.error is not None and "content must be a string" in result.error
    assert gc.isenabled()


def test_a_host_without_the_collector_keeps_it_off() -> None:
    was = gc.isenabled()
    gc.disable()
    try:
        seen = _enabled_while_converting(_preset(LARGE_PRESET_PROMPTS))
        assert seen and not any(seen)
        assert not gc.isenabled()
    finally:
        if was:
            gc.enable()


@pytest.mark.usefixtures("collector_on")
@pytest.mark.parametrize("large", [True, False])
def test_a_large_file_is_parsed_with_the_collector_paused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, large: bool
) -> None:
    path = tmp_path / "p.json"
    path.write_text(json.dumps(_preset(3, LARGE_INPUT_CHARS if large else 0)), "utf-8")
    seen: list[bool] = []
    real = jsonread.loads_utf8

    def spy(data: bytes) -> Any:
        seen.append(gc.isenabled())
        return real(data)

    monkeypatch.setattr(jsonread, "loads_utf8", spy)
    value = jsonread.read_json(path)
    assert value == json.loads(path.read_text("utf-8"))
    assert seen == [not large]
    assert gc.isenabled()


@pytest.mark.usefixtures("collector_on")
@pytest.mark.parametrize("large", [True, False])
def test_the_command_keeps_the_collector_paused_until_it_has_printed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, large: bool
) -> None:
    """``import-silly`` of a large file pauses the collector from the read to the printed document
    (``project.collector_pause``), so that no collection walks the parsed preset or the stack."""
    from click.testing import CliRunner

    import forgec.cli.import_silly as command
    from forgec.cli import cli

    path = tmp_path / "p.json"
    path.write_text(json.dumps(_preset(3, LARGE_INPUT_CHARS if large else 0)), "utf-8")
    seen: list[bool] = []
    real = command._print_json

    def spy(done: Any) -> None:
        seen.append(gc.isenabled())
        real(done)

    monkeypatch.setattr(command, "_print_json", spy)
    result = CliRunner().invoke(cli, ["import-silly", str(path), "100001", "--dry-run", "--format", "json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["import"]["stack"]["items"][0]["content"].startswith("text 0")
    assert seen == [not large]
    assert gc.isenabled()
    missing = CliRunner().invoke(cli, ["import-silly", str(tmp_path / "none.json"), "--format", "json"])
    assert missing.exit_code == 2 and gc.isenabled()
