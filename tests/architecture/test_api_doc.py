"""Every Python example of docs/api.md runs, in the example project, as a newcomer would run it."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BLOCKS = re.findall(r"```python\n(.*?)```", (ROOT / "docs" / "api.md").read_text(encoding="utf-8"), re.S)


def test_the_page_has_examples() -> None:
    assert len(BLOCKS) >= 6


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_api_example_runs(index: int, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(ROOT / "examples")
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1767225600")
    exec(compile(BLOCKS[index], f"docs/api.md example {index + 1}", "exec"), {})
    assert os.getcwd() == str(ROOT / "examples")
