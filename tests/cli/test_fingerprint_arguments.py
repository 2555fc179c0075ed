"""``forgec fingerprint`` arguments: a folder stands for its stack files (a golden-file folder given
explicitly is skipped with a note), and ``--as profile`` / ``--as runtime`` check the document's kind.
"""

from __future__ import annotations

from pathlib import Path

from .helpers import CLEAN_STACK, write_json, write_text


def test_fingerprint_folder_arguments(run, tmp_path: Path) -> None:
    write_json(tmp_path / "d" / "a.json", CLEAN_STACK)
    write_text(tmp_path / "d" / "__golden__" / "a.json.prompt.md", "# golden\n")
    result = run("fingerprint", "d/a.json", "d/__golden__")
    assert result.exit_code == 0
    assert "skipping folder d/__golden__" in result.stderr and "EISDIR" not in result.stderr
    folder = run("fingerprint", "d")
    assert folder.exit_code == 0
    assert folder.stdout.split() == [result.stdout.split()[0], str(Path("d") / "a.json")]


def test_fingerprint_as_profile_or_runtime_checks_the_kind(run, tmp_path: Path) -> None:
    write_json(tmp_path / "stack.json", CLEAN_STACK)
    result = run("fingerprint", "--as", "profile", "stack.json")
    assert result.exit_code == 1 and result.stdout == ""
    assert "FG811 [error] not an agent profile" in result.stderr and "prompt stack" in result.stderr
    assert run("fingerprint", "--as", "runtime", "stack.json").exit_code == 1
    runtime = {
        "baseSystemPrompt": "base",
        "options": {"selectedTools": [], "toolSnippets": {}, "promptGuidelines": [], "cwd": ".",
                    "contextFiles": [], "skills": []},
        "model": {"provider": "test", "id": "model"},
        "preparedAt": "2026-07-14T00:00:00.000Z",
        "fidelity": "backend-assisted",
    }
    write_json(tmp_path / "rt.json", runtime)
    ok = run("fingerprint", "--as", "runtime", "rt.json")
    # profiles-exec.md §3.6 worked example
    assert ok.stdout.split()[0] == "sha256:v1:296fc580aef0f9ce18bc33f182a75cd9a7f9e25a9684f20181e39363019f95b4"
