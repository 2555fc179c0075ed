"""Throughput of forgec.js.regex.transform_string on typical rule patterns.

Run: ``.venv/bin/python benchmarks/bench_regex.py``.  Each case transforms a ~100 KB text (prose with
OOC notes, think blocks, emoji) once per repetition; best of 5.  Compile time is reported separately
(patterns are LRU-cached, so a prompt compile pays it once per distinct pattern).
"""

from __future__ import annotations

import time

from forgec.js.regex import compile_js, transform_string

PARA = ("The knight said hello to the SECRET keeper (OOC: keep it short) and smiled 😺. "
        "<think>plan the next move\nthen act</think>\nToken-12345 was used. Colour me impressed!\n")
TEXT = PARA * (100_000 // len(PARA))

CASES = [
    ("literal g", "SECRET", "g", "[redacted]"),
    ("OOC strip", r"\s*\(OOC:[^)]+\)", "g", ""),
    ("think block gs", r"<think>[\s\S]*?</think>\n?", "g", ""),
    ("word i", "colour", "gi", "color"),
    ("groups $1", r"Token-(\d+)", "g", "[token $1]"),
    ("dot g (emoji units)", r"\p{L}+", "gu", "$&"),
    ("anchors gm", "^The", "gm", "A"),
    ("capture in loop", r"(?:(\w)\s?)+", "g", "$1"),
]


def best(fn, reps: int = 5) -> float:
    times = []
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def main() -> None:
    print(f"text: {len(TEXT):,} characters  (*compile: parse + emit; regex.compile hits its own cache)")
    print(f"{'case':24} {'compile*':>9} {'transform':>10} {'MB/s':>7} {'matches':>8}")
    for name, pattern, flags, replace in CASES:
        from forgec.js.regex.pattern import _compile

        _compile.cache_clear()
        t_compile = best(lambda p=pattern, f=flags: (_compile.cache_clear(), compile_js(p, f)), 3)
        pat = compile_js(pattern, flags)
        result: list[int] = []
        t = best(lambda p=pat, r=replace, out=result: out.append(transform_string(p, TEXT, r, timeout=30.0)[1]))
        print(f"{name:24} {t_compile * 1000:8.2f}ms {t * 1000:9.1f}ms {len(TEXT) / t / 1e6:7.1f} "
              f"{result[-1]:8}")


if __name__ == "__main__":
    main()
