"""The compiler's per-block entry lives in :mod:`forgec.compile.macros.block`, which imports the engine at
module level (native calls in the mypyc build); the package's ``expand_block`` forwards to it, so both give
the same output, findings and variable writes, and importing the package alone does not load it."""

from __future__ import annotations

import subprocess
import sys

from forgec.compile import assemble
from forgec.compile.macros import block, expand_block, grammar, replay
from forgec.model.runtime import Runtime
from forgec.model.variables import VariableStore

TEXTS = (
    "plain text",
    "{{setvar::a::1}}{{getvar::a}} {{upper::x}}",
    "{{unknown}} and {{getvar::missing}}",
    "{{ifvar::a::yes::no}}",
    "{{",
    "",
)


def _run(expand: object, text: str, sights: int) -> list[object]:
    grammar._CACHE.clear()  # each run from a first sight
    replay.REPLAYS.clear()
    outs: list[object] = []
    store = VariableStore({}, {}, False)
    for _ in range(sights):  # first sight, second (recorded), third (replayed)
        diagnostics: list[object] = []
        out = expand(text, item_id="i", stack={"defaults": {"unresolvedMacroPolicy": "warn"}},  # type: ignore[operator]
                     runtime=Runtime(now_ms=0), store=store, diagnostics=diagnostics, selected_tools=[],
                     pointer=("items", 0, "content"))
        outs.append((out, [d.to_pi() for d in diagnostics]))  # type: ignore[attr-defined]
    outs.append(store.snapshot())
    return outs


def test_the_compiler_calls_the_block_module() -> None:
    assert assemble.expand_block is block.expand_block


def test_the_package_forwards_to_the_block_module() -> None:
    for text in TEXTS:
        assert _run(expand_block, text, 3) == _run(block.expand_block, text, 3)


def test_importing_the_package_does_not_load_the_block_module() -> None:
    code = "import sys, forgec.compile.macros.lint; print('forgec.compile.macros.block' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"
