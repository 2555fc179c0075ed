"""``forgec migrate-stacks``: pi-forge's ``/preset migrate-stacks`` (import-regex.md C13), safely.

The report and the notice are pi-forge's texts; the copies are exact, a target that exists is kept
without ``--overwrite``, and a legacy file is deleted only after its copy was verified.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .helpers import write_text

_A = '{"schemaVersion": 1, "id": "a", "items": []}\n'
_B = '{"schemaVersion":1,"id":"b","items":[]}'


@pytest.fixture
def project(tmp_path: Path) -> Path:
    legacy = tmp_path / ".pi" / "prompt-stacks"
    write_text(legacy / "b.json", _B)
    write_text(legacy / "a.json", _A)
    write_text(legacy / "notes.txt", "not a stack")
    return tmp_path


def _legacy(root: Path) -> Path:
    return root / ".pi" / "prompt-stacks"


def _current(root: Path) -> Path:
    return root / ".pi" / "forge" / "prompt-stacks"


def test_copies_in_name_order_and_leaves_the_legacy_files(run, project: Path) -> None:
    result = run("migrate-stacks")
    assert result.exit_code == 0, result.output
    assert (_current(project) / "a.json").read_bytes() == _A.encode()
    assert (_current(project) / "b.json").read_bytes() == _B.encode()
    assert not (_current(project) / "notes.txt").exists()
    assert (_legacy(project) / "a.json").exists()
    out = result.stdout
    assert out.startswith(f"# Prompt Stack Migration\n\nSource: {_legacy(project)}\nTarget: {_current(project)}\nMode: write\n")
    assert "Copied: 2\nOverwritten: 0\nSkipped: 0\nErrors: 0\nDeleted legacy files: 0\n" in out
    assert out.index("- copy: a.json") < out.index("- copy: b.json")
    assert f"  from: {_legacy(project) / 'a.json'}\n  to:   {_current(project) / 'a.json'}\n" in out
    assert out.endswith(
        "\nLegacy files were left in place. Re-run with `--delete-legacy` after checking the migrated stacks "
        "if you want to remove them.\n"
    )
    assert result.stderr == "pi-forge: migrated 2 legacy stack file(s), skipped 0, errors 0.\n"


def test_dry_run_writes_nothing_and_counts_as_pi_forge_does(run, project: Path) -> None:
    result = run("migrate-stacks", "--dry-run", "--delete-legacy")
    assert result.exit_code == 0
    assert not _current(project).exists()
    assert "Mode: dry run\n" in result.stdout
    assert "Copied: 2\n" in result.stdout and "Deleted legacy files: 0\n" in result.stdout
    assert result.stdout.count("  legacy delete: yes") == 2  # recorded in a dry run too (C13, verified)
    assert result.stderr == "pi-forge: migration dry run found 2 legacy stack file(s).\n"


def test_an_existing_target_is_kept_unless_overwrite(run, project: Path) -> None:
    write_text(_current(project) / "a.json", "mine")
    result = run("migrate-stacks")
    assert "- skip: a.json (target already exists)" in result.stdout
    assert (_current(project) / "a.json").read_text() == "mine"
    result = run("migrate-stacks", "--overwrite")
    assert "- overwrite: a.json" in result.stdout
    assert "- overwrite: b.json" in result.stdout
    assert (_current(project) / "a.json").read_bytes() == _A.encode()


def test_delete_legacy_removes_only_verified_copies(run, project: Path) -> None:
    write_text(_current(project) / "a.json", "mine")
    result = run("migrate-stacks", "--delete-legacy")
    assert result.exit_code == 0
    assert (_legacy(project) / "a.json").exists()  # skipped: its legacy file stays
    assert not (_legacy(project) / "b.json").exists()
    assert (_current(project) / "b.json").read_bytes() == _B.encode()
    assert "Deleted legacy files: 1\n" in result.stdout


def test_a_failed_copy_is_an_error_entry_and_keeps_the_legacy_file(run, project: Path) -> None:
    (_current(project) / "a.json").mkdir(parents=True)  # a folder where the copy must go
    result = run("migrate-stacks", "--overwrite", "--delete-legacy")
    assert result.exit_code == 1
    assert "- error: a.json (Is a directory)" in result.stdout
    assert (_legacy(project) / "a.json").read_bytes() == _A.encode()
    assert not (_legacy(project) / "b.json").exists()
    assert result.stderr == "pi-forge: migrated 1 legacy stack file(s), skipped 0, errors 1.\n"
    assert not [p.name for p in _current(project).iterdir() if p.name.endswith(".tmp")]  # no debris


def test_no_legacy_folder_is_an_empty_report(run, tmp_path: Path) -> None:
    result = run("migrate-stacks")
    assert result.exit_code == 0
    assert result.stdout.endswith("## Files\n\nNo legacy prompt-stack JSON files found.\n")
