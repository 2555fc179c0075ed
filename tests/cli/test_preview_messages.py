"""``forgec preview`` on a long conversation: pi-forge's cut is kept and explained, and
``--max-messages N`` / ``--all`` show more (issue 15, point 10)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.helpers import CLEAN_STACK, write_json

_USAGE = {"input": 1, "output": 1, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 2}


@pytest.fixture
def long_chat(tmp_path: Path) -> tuple[Path, Path]:
    messages = []
    for i in range(20):
        messages.append({"role": "user", "content": f"question {i} " + "lorem ipsum " * 40, "timestamp": 2 * i})
        messages.append(
            {"role": "assistant", "content": [{"type": "text", "text": f"answer {i}"}], "usage": _USAGE, "timestamp": 2 * i + 1}
        )
    context = write_json(tmp_path / "long.json", {"messages": messages})
    return write_json(tmp_path / "s.json", CLEAN_STACK), context


def _sections(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("--- ")]


def test_default_is_pi_forges_cut_and_says_where(run, long_chat: tuple[Path, Path]) -> None:
    stack, context = long_chat
    result = run("preview", str(stack), "--context", str(context), "--no-color")
    assert result.exit_code == 0
    assert "\n\n[preview truncated]\n\n## Diagnostics" in result.stdout
    cut = len(_sections(result.stdout))
    assert 1 < cut < 40
    assert (
        f"forgec preview: the layout was cut after 8000 characters, in message {cut} of 40 ({40 - cut} more not shown)"
        in result.stderr
    )


def test_max_messages_shows_n_in_full_and_counts_the_rest(run, long_chat: tuple[Path, Path]) -> None:
    stack, context = long_chat
    result = run("preview", str(stack), "--context", str(context), "--no-color", "--max-messages", "3")
    assert result.exit_code == 0
    assert _sections(result.stdout) == [
        "--- Chat history #1 (user) ---",
        "--- Chat history #2 (assistant) ---",
        "--- Chat history #3 (user) ---",
    ]
    assert "[3 of 40 messages shown; --all shows every message]" in result.stdout
    assert "[preview truncated]" not in result.stdout
    assert "cut after" not in result.stderr


def test_all_shows_every_message(run, long_chat: tuple[Path, Path]) -> None:
    stack, context = long_chat
    result = run("preview", str(stack), "--context", str(context), "--no-color", "--all")
    assert len(_sections(result.stdout)) == 40
    assert "answer 19" in result.stdout
    assert "truncated" not in result.stdout


def test_markdown_takes_max_messages(run, long_chat: tuple[Path, Path]) -> None:
    stack, context = long_chat
    out = run("preview", str(stack), "--context", str(context), "--format", "markdown", "--max-messages", "2").stdout
    assert out.count("\n### ") == 2
    assert "*[2 of 40 messages shown; --all shows every message]*" in out


def test_all_and_max_messages_conflict(run, long_chat: tuple[Path, Path]) -> None:
    stack, context = long_chat
    result = run("preview", str(stack), "--context", str(context), "--all", "--max-messages", "2")
    assert result.exit_code == 2
    assert "--all and --max-messages N cannot be used together" in result.output


def test_json_report_is_unchanged_by_the_options(run, long_chat: tuple[Path, Path]) -> None:
    stack, context = long_chat
    plain = json.loads(run("preview", str(stack), "--context", str(context), "--format", "json").stdout)
    limited = json.loads(
        run("preview", str(stack), "--context", str(context), "--format", "json", "--max-messages", "2").stdout
    )
    assert plain == limited
