"""``forgec validate``'s on-disk cache (forgec/lint/result_cache.py) prints exactly what a run
without it prints.

Differential: a small Pi project (JSON and YAML stacks, a stack folder with a duplicate id, agent
profiles naming stacks, a forge config, a context, a YAML suppression comment) is validated by real
``forgec`` processes, with the cache and with ``--no-cache``, after every change a user makes
between runs -- an edit, an edit of a file another file refers to, a rename, a deletion, a new file,
a configuration change, a new forgec version -- and the two runs must agree on standard output,
standard error and the exit code.  ``FORGEC_DEBUG_CACHE`` makes the cache say how many targets it
answered, so the tests also know the cache was really used (or really bypassed).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

STACK_DIR = Path(".pi/forge/prompt-stacks")
PROFILE_DIR = Path(".pi/forge/agent-profiles")


def _stack(stack_id: str, text: str = "Be brief.") -> str:
    return json.dumps({
        "schemaVersion": 1, "type": "pi-forge.prompt-stack", "id": stack_id,
        "items": [{"kind": "block", "id": "a", "role": "system", "content": text},
                  {"kind": "slot", "id": "history", "slot": "chat-history"}],
    }, indent=2) + "\n"  # fmt: skip


def _profile(profile_id: str, stack: str) -> str:
    return json.dumps({
        "schemaVersion": 1, "type": "pi-forge.agent-profile", "id": profile_id, "name": profile_id,
        "model": {"provider": "anthropic", "id": "claude-sonnet-4-5"}, "thinkingLevel": "low",
        "promptStack": stack,
    }, indent=2) + "\n"  # fmt: skip


YAML_STACK = """\
schemaVersion: 1
type: pi-forge.prompt-stack
id: yaml-one
items:
  - kind: block
    id: a
    role: system
    content: "Hello {{persona}}"  # forgec: ignore[FG212]
  - kind: block
    id: b
    role: System
    content: "{{user}} again"
"""

CONTEXT = """\
now: "2026-03-14T09:26:53+01:00"
messages:
  - role: user
    content: hi
    timestamp: 1
  - role: assistant
    content: [{ type: text, text: "hello" }]
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    (root / STACK_DIR).mkdir(parents=True)
    (root / PROFILE_DIR).mkdir(parents=True)
    (root / STACK_DIR / "alpha.json").write_text(_stack("alpha"), encoding="utf-8")
    (root / STACK_DIR / "beta.json").write_text(_stack("beta", "Use {{persona}}."), encoding="utf-8")
    (root / STACK_DIR / "gamma.json").write_text(_stack("alpha", "Duplicate id."), encoding="utf-8")
    (root / STACK_DIR / "yaml-one.yaml").write_text(YAML_STACK, encoding="utf-8")
    (root / PROFILE_DIR / "writer.json").write_text(_profile("writer", "beta"), encoding="utf-8")
    (root / PROFILE_DIR / "lost.json").write_text(_profile("lost", "nowhere"), encoding="utf-8")
    (root / ".pi/forge/config.json").write_text('{"subagents": {"timeoutMs": "soon"}}\n', encoding="utf-8")
    (root / "contexts").mkdir()
    (root / "contexts/session.yaml").write_text(CONTEXT, encoding="utf-8")
    _age(root)
    return root


def _age(root: Path) -> None:
    """Files last modified an hour ago: their ``stat`` is trusted (no racily-clean rehash)."""
    past = time.time() - 3600
    for path in root.rglob("*"):
        if path.is_file() and ".forgec_cache" not in path.parts:
            os.utime(path, (past, past))


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("FORGEC_", "PI_FORGE_"))}
    env.update({"NO_COLOR": "1", "FORGEC_DEBUG_CACHE": "1", "PI_FORGE_GLOBAL_DIR": "/nonexistent-forge"}, **extra)
    return env


def _run(root: Path, *args: str, env: dict[str, str] | None = None, stdin: str | None = None,
         cwd: Path | None = None) -> tuple[int, str, str]:  # fmt: skip
    done = subprocess.run(
        [sys.executable, "-m", "forgec", "validate", *args], cwd=cwd or root, env=env or _env(),
        capture_output=True, text=True, input=stdin, timeout=120, check=False,
    )  # fmt: skip
    return done.returncode, done.stdout, done.stderr


def _debug_line(stderr: str) -> str:
    """The cache's debug lines (``FORGEC_DEBUG_CACHE``), one string."""
    return "\n".join(line for line in stderr.splitlines() if line.startswith("forgec validate: cache:"))


def _without_debug(stderr: str) -> str:
    return "".join(line + "\n" for line in stderr.splitlines() if not line.startswith("forgec validate: cache:"))


def _same(root: Path, *args: str, **kw: object) -> str:
    """Run with the cache, then with ``--no-cache``: the same output and exit code.  Returns the
    cached run's debug line (how many targets came from the cache)."""
    cached = _run(root, *args, **kw)  # type: ignore[arg-type]
    fresh = _run(root, *args, "--no-cache", **kw)  # type: ignore[arg-type]
    assert "Traceback" not in cached[2]
    assert (cached[0], cached[1], _without_debug(cached[2])) == (fresh[0], fresh[1], _without_debug(fresh[2]))
    assert _debug_line(fresh[2]) == ""  # --no-cache: the cache is not even opened
    return _debug_line(cached[2])


ARGS = (".", "contexts", "--format", "concise")


def test_cached_runs_print_what_uncached_runs_print_after_every_change(project: Path) -> None:
    stacks = project / STACK_DIR
    assert "0 target(s) from the cache" in _same(project, *ARGS)
    first = _run(project, *ARGS)
    assert first[0] == 1 and "Duplicate project stack id: alpha" in first[1]
    assert "FG529" in first[1] or "Unknown prompt stack" in first[1]
    # unchanged: every target answered by the cache
    line = _same(project, *ARGS)
    assert ", 0 checked and stored" in line and not line.startswith("forgec validate: cache: 0 ")
    for fmt in ("full", "json", "sarif", "github"):
        _same(project, ".", "contexts", "--format", fmt)
    # an edit (same size, new time): the duplicate id is gone
    (stacks / "gamma.json").write_text(_stack("gamma", "Duplicate id."), encoding="utf-8")
    assert "0 target(s) from the cache" not in _same(project, *ARGS)
    assert "Duplicate" not in _run(project, *ARGS)[1]
    # a file another file refers to: the profile's stack is deleted, then comes back renamed
    (stacks / "beta.json").unlink()
    _same(project, *ARGS)
    assert "writer.json" in _run(project, *ARGS)[1]
    (stacks / "renamed.json").write_text(_stack("beta", "Use {{persona}}."), encoding="utf-8")
    _same(project, *ARGS)
    (stacks / "renamed.json").rename(stacks / "zeta.json")
    _same(project, *ARGS)
    # a new file, a YAML edit under a suppression comment, the context made bad
    (stacks / "new.yaml").write_text(YAML_STACK.replace("yaml-one", "new"), encoding="utf-8")
    _same(project, *ARGS)
    (stacks / "yaml-one.yaml").write_text(YAML_STACK.replace("# forgec: ignore[FG212]", ""), encoding="utf-8")
    _same(project, *ARGS)
    (project / "contexts/session.yaml").write_text(CONTEXT.replace("role: assistant", "role: 7"), encoding="utf-8")
    _same(project, *ARGS)
    # the forge config and a catalog the profiles are checked against
    (project / ".pi/forge/config.json").write_text('{"subagents": {"timeoutMs": 5000}}\n', encoding="utf-8")
    _same(project, *ARGS)
    (project / ".pi/forge/models.json").write_text('{"providers": {}}\n', encoding="utf-8")
    _same(project, *ARGS)
    # rule selection is applied after the cache: configuration changes need no new entries
    (project / "pyproject.toml").write_text('[tool.forgec]\nignore = ["FG135"]\nstrict = true\n', encoding="utf-8")
    _same(project, *ARGS)
    _same(project, *ARGS, "--select", "FG2", "--no-strict")
    # single files, standard input and a folder
    _same(project, str(STACK_DIR / "alpha.json"), "contexts/session.yaml")
    _same(project, "-", "--stdin-filename", "x.json", str(STACK_DIR / "zeta.json"), stdin=_stack("x", "{{persona}}"))
    _same(project, str(STACK_DIR))


def test_a_new_forgec_version_starts_afresh_and_removes_the_old_file(project: Path) -> None:
    _same(project, *ARGS)
    cache = project / ".forgec_cache"
    (old,) = [p for p in cache.iterdir() if p.is_dir()]
    script = ("import sys, forgec.resources as r; r.VERSION = '99.0.0'; from forgec.cli import main; "
              "main(['validate', *sys.argv[1:]])")  # fmt: skip
    bumped = subprocess.run([sys.executable, "-c", script, *ARGS], cwd=project, env=_env(), capture_output=True,
                            text=True, check=False)  # fmt: skip
    fresh = _run(project, *ARGS, "--no-cache")
    assert "0 target(s) from the cache" in _debug_line(bumped.stderr)
    assert (bumped.returncode, bumped.stdout, _without_debug(bumped.stderr)) == (fresh[0], fresh[1], fresh[2])
    assert (cache / "99.0.0" / "validate.json").is_file()
    assert not old.exists()


def test_the_cache_folder_is_tagged_ignored_and_movable(project: Path, tmp_path: Path) -> None:
    sub = project / "contexts"
    _run(project, ".", cwd=sub)  # from a subfolder: still the project root's folder
    cache = project / ".forgec_cache"
    assert (cache / "CACHEDIR.TAG").read_text().startswith("Signature: 8a477f597d28d172789f06886806bc55")
    assert (cache / ".gitignore").read_text().splitlines()[-1] == "*"
    assert not (sub / ".forgec_cache").exists()
    moved = tmp_path / "elsewhere"
    assert "0 target(s)" in _same(project, *ARGS, env=_env(FORGEC_CACHE_DIR=str(moved)))
    assert (moved / "CACHEDIR.TAG").is_file()
    assert ", 0 checked" in _same(project, *ARGS, "--cache-dir", str(moved))
    # [tool.forgec] in a pyproject.toml: the cache sits beside it (ruff's project root)
    (tmp_path / "pyproject.toml").write_text("[tool.forgec]\nstrict = false\n", encoding="utf-8")
    _run(project, *ARGS)
    assert (tmp_path / ".forgec_cache" / "CACHEDIR.TAG").is_file()


def test_no_cache_fix_and_diff_write_no_cache(project: Path) -> None:
    _run(project, *ARGS, "--no-cache")
    _run(project, *ARGS, env=_env(FORGEC_NO_CACHE="1"))
    code, out, _ = _run(project, str(STACK_DIR / "yaml-one.yaml"), "--diff")
    assert code == 1 and "System" in out
    assert not (project / ".forgec_cache").exists()


@pytest.mark.parametrize("damage", ["garbage", "truncated", "wrong-shape", "bad-entry"])
def test_a_damaged_cache_is_ignored(project: Path, damage: str) -> None:
    _run(project, *ARGS)
    (file,) = (project / ".forgec_cache").glob("*/validate.json")
    data = file.read_bytes()
    if damage == "garbage":
        file.write_bytes(b"\x00\xff not json")
    elif damage == "truncated":
        file.write_bytes(data[: len(data) // 2])
    elif damage == "wrong-shape":
        file.write_text("[1, 2, 3]")
    else:
        doc = json.loads(data)
        for entry in doc["targets"].values():
            entry["results"] = [{"p": 1}]
        file.write_text(json.dumps(doc))
    _same(project, *ARGS)
    _same(project, *ARGS)


def test_an_unwritable_cache_folder_is_ignored(project: Path) -> None:
    blocker = project / "not-a-folder"
    blocker.write_text("x")
    line = _same(project, *ARGS, "--cache-dir", str(blocker / "cache"))
    assert "0 target(s) from the cache" in line and "not written (NotADirectoryError" in line


def test_entries_of_deleted_files_are_pruned(project: Path) -> None:
    _run(project, *ARGS)
    (project / STACK_DIR / "gamma.json").unlink()
    _run(project, *ARGS)
    (file,) = (project / ".forgec_cache").glob("*/validate.json")
    doc = json.loads(file.read_text())
    assert not any(name.endswith("gamma.json") for name in doc["files"])
    assert all(not any(d.endswith("gamma.json") for d in e["deps"]) for e in doc["targets"].values())


def test_one_edit_in_a_folder_checks_that_file_again_and_the_duplicate_ids_stay_exact(tmp_path: Path) -> None:
    """Each member of a stack folder is cached on its own, keyed by its content and the names of
    the other files with its id: an edit checks the edited file again, and the files whose
    duplicate-id error it adds or removes, nothing else."""
    root = tmp_path / "stacks-only"
    stacks = root / STACK_DIR
    stacks.mkdir(parents=True)
    for n in range(10):
        (stacks / f"s{n}.json").write_text(_stack(f"s{n}", "Use {{persona}}." if n % 3 == 0 else "Plain."), encoding="utf-8")
    _age(root)
    assert "0 target(s) from the cache, 10 checked" in _same(root, ".")
    assert "10 target(s) from the cache, 0 checked" in _same(root, ".")
    (stacks / "s4.json").write_text(_stack("s4", "Edited {{persona}}."), encoding="utf-8")
    assert "9 target(s) from the cache, 1 checked" in _same(root, ".")
    (stacks / "s5.json").write_text(_stack("s1", "Now a duplicate of s1."), encoding="utf-8")  # s1 and s5 now clash
    assert "8 target(s) from the cache, 2 checked" in _same(root, ".")
    assert _run(root, ".")[1].count("Duplicate project stack id: s1 appears in multiple files (s1.json, s5.json)") == 2
    (stacks / "s9.json").write_text(_stack("s1", "A third."), encoding="utf-8")  # the names of the clash change
    assert "7 target(s) from the cache, 3 checked" in _same(root, ".")
    (stacks / "s5.json").unlink()
    _same(root, ".")
    # a file named on its own inside the folder: its own result, keyed with its group's ids
    _same(root, str(STACK_DIR / "s1.json"), str(STACK_DIR / "s9.json"))
    (stacks / "s1.json").rename(stacks / "s10.json")
    _same(root, str(STACK_DIR / "s10.json"), str(STACK_DIR / "s9.json"))
    _same(root, ".")


def test_entries_of_an_older_content_are_dropped(project: Path) -> None:
    """The cache stays the size of the project, not of its history: after three edits of one stack
    there is one entry for it."""
    beta = project / STACK_DIR / "beta.json"
    for n in range(3):
        beta.write_text(_stack("beta", f"Edit {n}."), encoding="utf-8")
        _run(project, ".")
    (file,) = (project / ".forgec_cache").glob("*/validate.json")
    doc = json.loads(file.read_text())
    assert [e["deps"] for e in doc["targets"].values()].count([str(beta)]) == 1
    assert sum(key.split("\0")[1] == str(beta) for key in doc["ids"]) == 1
