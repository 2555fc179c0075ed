"""Macro expansion speed: a 1 MB block with 10,000 mixed macros, and 1 MB without any ``{{``.

Run: ``.venv/bin/python benchmarks/bench_macros.py``.  Prints cold (parse + expand, parse cache
cleared) and warm (cached parse, expansion only) times, best of several runs; results go to the
"Macros" section of docs/performance-log.md.
"""

from __future__ import annotations

import random
import time

from forgec.compile.macros import expand_block, grammar
from forgec.model.runtime import Runtime
from forgec.model.variables import VariableStore

WORDS = ["lorem", "ipsum", "dolor", "sit", "amet:", "consectetur", "adipiscing", "elit", "sed", "do", "eiusmod", "tempor"]
MACROS = (
    "{{setvar::v%d::{{upper::value}}}}",
    "{{ifvar::v%d::{{getvar::v1}}::{{lower::NO}}}}",
    "{{v%d}}",
    "{{ifeq::v%d::VALUE::{{trim:: yes }}::no}}",
    "{{json::{{getvar::v%d}}}}",
    "{{date}} {{time}}",
    "{{iftools::read::{{xml::<r>}}::none}}",
)


def make_text(macros: int = 10_000, size: int = 1_000_000, seed: int = 7) -> str:
    rng = random.Random(seed)
    filler = size // macros
    parts = []
    for _ in range(macros):
        template = rng.choice(MACROS)
        macro = template % rng.randint(0, 99) if "%d" in template else template
        words = []
        length = len(macro) + 2
        while length < filler:
            word = rng.choice(WORDS)
            words.append(word)
            length += len(word) + 1
        parts.append(" ".join(words) + " " + macro + "\n")
    return "".join(parts)


def run(text: str, cold: bool) -> float:
    if cold:
        grammar._CACHE.clear()
    store = VariableStore(session={f"v{i}": "VALUE" for i in range(0, 100, 3)})
    diagnostics: list = []
    stack = {"variables": {"v2": "static"}, "defaults": {"unresolvedMacroPolicy": "keep"}}
    start = time.perf_counter()
    expand_block(
        text, item_id="bench", stack=stack, runtime=Runtime(options={"cwd": "/w"}), store=store,
        diagnostics=diagnostics, selected_tools=["read", "bash"],
    )
    return time.perf_counter() - start


def best(fn, repeat: int = 5) -> float:
    return min(fn() for _ in range(repeat))


def main() -> None:
    text = make_text()
    plain = make_text().replace("{{", "{ {")
    print(f"mixed: {len(text):,} chars, {text.count('{{'):,} '{{{{' ({10_000:,} top-level macros)")
    print(f"  cold (parse + expand): {best(lambda: run(text, True)) * 1000:8.1f} ms")
    print(f"  warm (cached parse):   {best(lambda: run(text, False)) * 1000:8.1f} ms")
    grammar._CACHE.clear()
    start = time.perf_counter()
    grammar.parse_with_lark(text)
    print(f"  lark LALR parse alone: {(time.perf_counter() - start) * 1000:8.1f} ms (not used above 16 KiB)")
    print(f"plain: {len(plain):,} chars without '{{{{'")
    print(f"  expand:                {best(lambda: run(plain, True), 20) * 1e6:8.1f} µs")
    copy = best(lambda: _timed(lambda: bytearray(plain.encode())), 20)
    print(f"  (memcpy-like reference: encode+copy {copy * 1e6:.1f} µs)")


def _timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


if __name__ == "__main__":
    main()
