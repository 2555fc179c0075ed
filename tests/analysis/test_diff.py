"""``forgec diff``: message-by-message changes (markdown for a pull request, snapshot-tested),
a stack against its last commit, and the four provider bodies side by side."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest
from syrupy.extensions.single_file import SingleFileSnapshotExtension, WriteMode

from forgec.analysis.diff import diff_stack_targets, diff_stacks
from tests.analysis.helpers import CONTEXTS

STACKS = Path(__file__).parent / "stacks"


class MarkdownSnapshot(SingleFileSnapshotExtension):
    """One ``.comment.md`` file per snapshot, readable (and renderable) as the comment it stands for.

    Not plain ``.md``: syrupy counts every file of its extension in a run's snapshot folders as its own,
    and would call the examples' ``.prompt.md`` golden files unused (which fails the session)."""

    _write_mode = WriteMode.TEXT
    file_extension = "comment.md"

    def serialize(self, data: Any, **_: Any) -> str:
        return str(data)


@pytest.fixture
def md_snapshot(snapshot: Any) -> Any:
    return snapshot.use_extension(MarkdownSnapshot)


def _pr_comment(run) -> str:
    result = run("diff", "pr-before.json", "pr-after.json", "--context", "../contexts/turn-2.yaml",
                 "--format", "markdown", cwd=STACKS)  # fmt: skip
    assert result.exit_code == 0, result.output
    return result.stdout


def test_markdown_pr_comment_snapshot(run, md_snapshot: Any) -> None:
    assert _pr_comment(run) == md_snapshot


def test_markdown_is_a_well_formed_github_comment(run) -> None:
    text = _pr_comment(run)
    lines = text.splitlines()
    table = [line for line in lines if line.startswith("|")]
    assert table[0] == "| # | role | source | change |" and all(line.endswith("|") for line in table)
    assert all(len(re.findall(r"(?<!\\)\|", line)) == 5 for line in table)  # no cell breaks the table
    assert text.count("<details>") == text.count("</details>") == 2
    # every fence is closed by the same fence, and the one around text holding ``` is longer
    fences = [line for line in lines if re.fullmatch(r"`{3,}(diff)?", line)]
    assert len(fences) % 2 == 0
    for opening, closing in zip(fences[::2], fences[1::2], strict=True):
        assert opening.removesuffix("diff") == closing
    assert "````diff" in text


def test_changes_carry_their_sources() -> None:
    diff = diff_stacks(STACKS / "pr-before.json", STACKS / "pr-after.json", CONTEXTS / "turn-2.yaml")
    assert diff.counts == {"changed": 1, "added": 1, "removed": 0, "equal": 5}
    system = diff.changes[0]
    assert system.status == "changed" and system.source_b == 'system items "role" (changed), "guidelines" (removed)'
    assert "-Tool guidelines:" in system.unified()
    added = next(c for c in diff.changes if c.status == "added")
    assert (added.role, added.source_b, added.index_b) == ("user", 'item "reminder"', 5)
    unchanged = [c.source_b for c in diff.changes if c.status == "equal"]
    assert unchanged == [f'chat-history "history" {i}/5' for i in range(1, 6)]


def test_identical_stacks_and_exit_code(run) -> None:
    same = run("diff", "pr-before.json", "pr-before.json", "--context", "../contexts/turn-2.yaml", "--exit-code", cwd=STACKS)
    assert same.exit_code == 0 and "0 changed, 0 added, 0 removed" in same.stdout
    changed = run("diff", "pr-before.json", "pr-after.json", "--exit-code", cwd=STACKS)
    assert changed.exit_code == 1


def test_json_output(run) -> None:
    result = run("diff", "pr-before.json", "pr-after.json", "--context", "../contexts/turn-2.yaml", "--format", "json", cwd=STACKS)
    data = json.loads(result.stdout)
    assert data["counts"]["added"] == 1
    assert data["changes"][0]["status"] == "changed" and any(line.startswith("-Tool guidelines") for line in data["changes"][0]["diff"])


def _git(folder: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@example.invalid", *args], cwd=folder, check=True,
                   capture_output=True)  # fmt: skip


def test_git_revision_against_the_working_file(run, tmp_path: Path) -> None:
    stack = tmp_path / "coding.json"
    stack.write_text((STACKS / "pr-before.json").read_text(encoding="utf-8"), encoding="utf-8")
    _git(tmp_path, "init", "-q")
    _git(tmp_path, "add", "coding.json")
    _git(tmp_path, "commit", "-q", "-m", "stack")
    stack.write_text((STACKS / "pr-after.json").read_text(encoding="utf-8"), encoding="utf-8")
    result = run("diff", "coding.json", "--git", "HEAD", "--context", str(CONTEXTS / "turn-2.yaml"), cwd=tmp_path)
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("diff coding.json@HEAD -> coding.json")
    assert "1 changed, 1 added, 0 removed" in result.stdout
    missing = run("diff", "coding.json", "--git", "no-such-ref", cwd=tmp_path)
    assert missing.exit_code == 2 and "git cannot show coding.json at no-such-ref" in missing.output
    option = run("diff", "coding.json", "--git", f"--output={tmp_path / 'written'}", cwd=tmp_path)
    assert option.exit_code == 2 and "not a git revision" in option.output
    assert not any(p.name.startswith("written") for p in tmp_path.iterdir())


def test_usage_errors(run) -> None:
    assert run("diff", "pr-before.json", cwd=STACKS).exit_code == 2
    assert run("diff", "pr-before.json", "pr-after.json", "--targets", "all", cwd=STACKS).exit_code == 2


def test_targets_all_shows_what_each_provider_receives(tmp_path: Path) -> None:
    context = tmp_path / "ctx.json"
    context.write_text(json.dumps({
        "thinkingLevel": "xhigh",
        "tools": [{"name": "read", "parameters": {"type": "object", "properties": {"path": {"type": "string"}}}}],
        "messages": [
            {"role": "user", "content": "read a.py", "timestamp": 1},
            {"role": "assistant", "content": [{"type": "toolCall", "id": "call|a/b", "name": "read", "arguments": {"path": "a.py"}}],
             "api": "openai-responses", "provider": "openai", "model": "gpt-5.1", "stopReason": "toolUse",
             "usage": {"input": 10, "output": 5, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 15}, "timestamp": 2},
            {"role": "toolResult", "toolCallId": "call|a/b", "toolName": "read", "content": [{"type": "text", "text": "x = 1"}],
             "isError": False, "timestamp": 3},
            {"role": "user", "content": "thanks", "timestamp": 4},
        ],
    }), encoding="utf-8")  # fmt: skip
    stack = tmp_path / "s.json"
    stack.write_text(json.dumps({"schemaVersion": 1, "id": "s", "items": [
        {"kind": "block", "id": "role", "role": "system", "content": "Be brief."},
        {"kind": "slot", "id": "h", "slot": "chat-history"},
        {"kind": "block", "id": "note", "role": "custom", "content": "(a note)"},
    ]}), encoding="utf-8")  # fmt: skip
    diff = diff_stack_targets(stack, context)
    rows = diff.rows
    assert set(rows["thinking"].values()) == {"high (asked xhigh)"}
    assert set(rows["custom"].values()) == {"user"}
    assert rows["messages"]["openai-completions"].endswith("+ system message")
    assert rows["messages"]["openai-responses"].endswith("+ system message")
    assert rows["cache"]["anthropic-messages"].endswith("cache_control")
    assert rows["cache"]["openai-responses"] == "prompt_cache_key" and rows["cache"]["google-generative-ai"] == "none"
    assert rows["tool_ids"]["anthropic-messages"] == "1 of 1 rewritten"  # '|' and '/' are not allowed in Anthropic ids
    assert rows["tool_ids"]["google-generative-ai"] == "not sent (calls matched by name)"
    assert rows["roles"]["google-generative-ai"].split()[1] == "model"
    assert rows["cap"]["anthropic-messages"].startswith("max_tokens ")
    assert "roles" in diff.differing_rows() and "cap" in diff.differing_rows()
    assert set(rows["error"].values()) == {"none"}


def test_unparsable_stack_is_refused_not_compiled_as_the_fallback(run, tmp_path: Path) -> None:
    (tmp_path / "bad.json").write_text('{"id": "x", "items": [', encoding="utf-8")
    for args in (("diff", "bad.json", str(STACKS / "pr-before.json")), ("diff", "bad.json", "--targets", "all"),
                 ("tokens", "bad.json"),
                 ("cache-check", "bad.json", "--context", str(CONTEXTS / "turn-1.yaml"), "--context", str(CONTEXTS / "turn-2.yaml"))):
        result = run(*args, cwd=tmp_path)
        assert result.exit_code == 2, (args, result.output)
        assert "could not be parsed" in result.output and "Traceback" not in result.output
