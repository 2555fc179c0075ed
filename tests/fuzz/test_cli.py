"""The command line on mutated files, each run bounded by the operating system in time and memory.

A run must end with exit code 0, 1 or 2, within the time bound, without a Python traceback, and
within the memory limit (docs/limits.md): a mutated stack, context or preset is bad input, and bad
input gets a diagnostic.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import CALL_SECONDS, EXAMPLES

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES_DIR = ROOT / "examples"
MEMORY_BYTES = 1536 * 1024 * 1024  # 1.5 GiB of address space: forgec plus its Python

SEEDS = [int(os.environ.get("FORGEC_FUZZ_SEED", "1")) * 1000 + n for n in range(max(4, EXAMPLES // 4))]


def _limit_memory() -> None:  # pragma: no cover - runs in the child
    """Memory and CPU bounds of one run, set by the kernel: an allocation past 1.5 GiB fails, and a
    run that computes longer than the time bound is killed even if the wall-clock timeout is not
    reached (on a loaded machine wall time says little; CPU time is what the input costs)."""
    import resource

    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_BYTES, MEMORY_BYTES))
    resource.setrlimit(resource.RLIMIT_CPU, (CALL_SECONDS, CALL_SECONDS + 5))


def _mutate(data: bytes, rng: random.Random) -> bytes:
    """Byte-level damage of the kinds real files suffer: flips, cuts, duplicated runs, junk."""
    out = bytearray(data)
    for _ in range(rng.randint(1, 6)):
        op = rng.randint(0, 4)
        at = rng.randrange(len(out) + 1)
        if op == 0 and out:
            out[min(at, len(out) - 1)] = rng.randrange(256)
        elif op == 1:
            del out[at : at + rng.randint(1, 40)]
        elif op == 2:
            chunk = out[at : at + rng.randint(1, 60)]
            out[at:at] = chunk * rng.randint(1, 30)
        elif op == 3:
            out[at:at] = rng.choice([b"{{", b"}}", b"\xff\xfe", b"\\ud800", b'"', b"[", b"{", b"\x00", b"\n  - ", b"&a *a"])
        else:
            out = out[:at]
    return bytes(out)


def _run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NO_COLOR": "1"}
    env.pop("FORGEC_DEBUG", None)
    return subprocess.run(
        [sys.executable, "-m", "forgec", *args], cwd=cwd, capture_output=True, text=True, errors="replace",
        timeout=CALL_SECONDS + 20, env=env, stdin=subprocess.DEVNULL,
        preexec_fn=_limit_memory if os.name == "posix" else None,
    )  # fmt: skip


INPUTS = [
    ("stack", EXAMPLES_DIR / ".pi" / "forge" / "prompt-stacks" / "storyteller.json"),
    ("stack", EXAMPLES_DIR / ".pi" / "forge" / "prompt-stacks" / "code-reviewer.yaml"),
    ("context", EXAMPLES_DIR / "contexts" / "coding-session.yaml"),
    ("preset", EXAMPLES_DIR / "presets" / "my-preset.json"),
]


@pytest.mark.parametrize("seed", SEEDS)
def test_mutated_input_gives_a_diagnostic(seed: int, tmp_path: Path) -> None:
    rng = random.Random(seed)
    kind, source = INPUTS[seed % len(INPUTS)]
    damaged = tmp_path / source.name
    damaged.write_bytes(_mutate(source.read_bytes(), rng))
    stack = EXAMPLES_DIR / ".pi" / "forge" / "prompt-stacks" / "storyteller.json"
    commands = {
        "stack": [["validate", str(damaged), "--format", "json"], ["preview", str(damaged)],
                  ["compile", str(damaged), "--target", "all"], ["fingerprint", str(damaged)]],
        "context": [["preview", str(stack), "--context", str(damaged)],
                    ["compile", str(stack), "--context", str(damaged), "--target", "openai-responses"]],
        "preset": [["import-silly", str(damaged), "100001", "--dry-run", "--format", "json"],
                   ["import-silly", str(damaged), "100001", "--out-dir", str(tmp_path / "out")]],
    }[kind]  # fmt: skip
    for args in commands:
        result = _run(args, tmp_path)
        assert result.returncode in (0, 1, 2), (args, result.returncode, result.stderr[-2000:])
        assert "Traceback" not in result.stderr and "internal error" not in result.stderr, (args, result.stderr[-2000:])
        if "--format" in args and "json" in args and result.stdout:
            json.loads(result.stdout)
