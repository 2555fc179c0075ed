"""Compile throughput on fresh inputs: every call gets a context file no earlier call saw.

The workload of issue 14's first row, so no whole-result memo can help: for each round, every public
stack case gets a context file of its own whose clock has moved by the round number (seconds), written to
a temporary folder before timing starts. Each call is ``compile_report(stack_path, context_path)``
without payloads: both files are opened, read, parsed and validated on every call, as pi-forge's runner
reads both per case.

    python benchmarks/bench_fresh.py [--rounds 20] [--profile] [--payloads] [--no-cache] [--batch] [--cpu]
    python benchmarks/bench_fresh.py --reference /work/refbench/pi-forge [--rounds 20] [--repeat 3] [--cpu]

``--reference DIR`` runs the reference side by side on the same folder of inputs: pi-forge's own compiled
JavaScript (a copy of its ``dist/`` kept outside this repository, see docs/performance.md, "The
reference, measured") driven by ``benchmarks/reference_fresh.mjs`` under ``node``, alternating with
forgec ``--repeat`` times, and prints both sides' best and median rounds, the same-run ratios and the load
average. docs/performance.md records the figures.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import tempfile
import time
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

CASES = Path(__file__).resolve().parent.parent / "tests" / "conformance" / "cases"


def _moved(now: str | None, seconds: int) -> str:
    base = datetime.fromisoformat((now or "2026-01-01T00:00:00Z").replace("Z", "+00:00"))
    return (base + timedelta(seconds=seconds)).isoformat()


def write_inputs(root: Path, rounds: int) -> list[list[tuple[Path, Path]]]:
    """``rounds`` lists of (stack, context) paths; every context file differs from every other."""
    cases = [c for c in sorted(CASES.iterdir()) if (c / "stack.json").is_file()]
    plan: list[list[tuple[Path, Path]]] = [[] for _ in range(rounds)]
    for case in cases:
        folder = root / case.name
        folder.mkdir()
        stack = folder / "stack.json"
        stack.write_bytes((case / "stack.json").read_bytes())
        context = json.loads((case / "context.json").read_text(encoding="utf-8"))
        for r in range(rounds):
            fresh = dict(context, now=_moved(context.get("now"), r + 1))
            path = folder / f"context-{r}.json"
            path.write_text(json.dumps(fresh, ensure_ascii=False), encoding="utf-8")
            plan[r].append((stack, path))
    return plan


def _caches_off() -> None:
    """Capacity 0 for every content-keyed cache of the tree being measured (older trees have none)."""
    import forgec.codecs.stack as stack_codec

    cache = getattr(stack_codec, "STACK_CACHE", None)
    if cache is not None:
        cache.capacity = 0


def _run_batch(timed: list[list[tuple[Path, Path]]], payloads: bool, clock: Any) -> None:
    """Every stack compiled under its contexts of all rounds by one ``Batch.contexts`` call, best of three."""
    from forgec.batch import Batch

    by_stack: dict[Path, list[Path]] = {}
    for calls in timed:
        for stack, context in calls:
            by_stack.setdefault(stack, []).append(context)
    total = sum(len(contexts) for contexts in by_stack.values())
    best = float("inf")
    for _ in range(3):
        start = clock()
        for stack, contexts in by_stack.items():
            for result in Batch(payloads=payloads).contexts(stack, contexts):
                result.to_report()
        best = min(best, clock() - start)
    print(f"{len(by_stack)} stacks x {total // len(by_stack)} fresh contexts, Batch.contexts, payloads={'on' if payloads else 'off'}")
    print(f"  best of 3:    {total / best:,.0f} cases/s")


def _time_rounds(timed: list[list[tuple[Path, Path]]], payloads: bool, clock: Any) -> list[float]:
    """Seconds per round over the corpus (sorted), one ``compile_report`` per (stack, context)."""
    from forgec.report import compile_report

    times = []
    for calls in timed:
        start = clock()
        for stack, context in calls:
            compile_report(stack, context, payloads=payloads).to_report()
        times.append(clock() - start)
    times.sort()
    return times


REFERENCE_DRIVER = Path(__file__).resolve().parent / "reference_fresh.mjs"


def _reference_rounds(inputs: Path, reference: Path, first: int, rounds: int, cpu: bool = False) -> dict[str, Any]:
    """One run of the reference driver over ``inputs``: a fresh ``node`` process (start-up not timed) that
    warms up on ``context-0.json`` and times ``context-{first}`` .. ``context-{first + rounds - 1}``."""
    node = shutil.which("node")
    if node is None:
        raise SystemExit("bench_fresh.py --reference: node is not on PATH")
    out = subprocess.run(
        [node, str(REFERENCE_DRIVER), "--ref", str(reference), "fresh", "--inputs", str(inputs),
         "--first", str(first), "--rounds", str(rounds), *(["--clock", "cpu"] if cpu else []), "--json"],
        capture_output=True, text=True,
    )
    if out.returncode != 0:
        raise SystemExit(f"bench_fresh.py --reference: the reference driver failed:\n{out.stderr.strip()[-2000:]}")
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


def _run_reference(inputs: Path, plan: list[list[tuple[Path, Path]]], args: argparse.Namespace, clock: Any) -> None:
    """forgec (this process) and the reference (``node``) alternately, ``--repeat`` runs each: run k of
    both sides compiles the same ``--rounds`` rounds of contexts, which no earlier run of that side saw."""
    n = len(plan[1])
    rows: list[tuple[str, float, float, float]] = []
    loads = [os.getloadavg()[0]]
    for rep in range(args.repeat):
        order = ("forgec", "reference") if rep % 2 == 0 else ("reference", "forgec")
        for side in order:
            first = 1 + rep * args.rounds
            if side == "forgec":
                times = _time_rounds(plan[first : first + args.rounds], args.payloads, clock)
                rows.append(("forgec", n / times[0], n / times[len(times) // 2], n * len(times) / sum(times)))
            else:
                ref = _reference_rounds(inputs, args.reference, first, args.rounds, args.cpu)
                rows.append(("reference", ref["best"], ref["median"], ref["sustained"]))
        loads.append(os.getloadavg()[0])
    print(f"{n} stack cases, fresh context per call, {args.rounds} rounds per run, {args.repeat} runs per side, interleaved"
          + (", process CPU time (every thread) on both sides" if args.cpu else ", wall clock"))
    print(f"load average (1 min) during the run: {min(loads):.2f}-{max(loads):.2f}")
    for rep in range(args.repeat):
        pair = {side: (best, med, sus) for side, best, med, sus in rows[2 * rep : 2 * rep + 2]}
        f, r = pair["forgec"], pair["reference"]
        print(
            f"  run {rep + 1}: forgec best {f[0]:,.0f} / median {f[1]:,.0f} / sustained {f[2]:,.0f} cases/s;"
            f" reference {r[0]:,.0f} / {r[1]:,.0f} / {r[2]:,.0f};"
            f" ratio {f[0] / r[0]:.2f}x / {f[1] / r[1]:.2f}x / {f[2] / r[2]:.2f}x"
        )
    fb = max(row[1] for row in rows if row[0] == "forgec")
    rb = max(row[1] for row in rows if row[0] == "reference")
    fm = statistics.median(row[2] for row in rows if row[0] == "forgec")
    rm = statistics.median(row[2] for row in rows if row[0] == "reference")
    fs = statistics.median(row[3] for row in rows if row[0] == "forgec")
    rs = statistics.median(row[3] for row in rows if row[0] == "reference")
    print(f"  overall (forgec / reference): best round {fb:,.0f} vs {rb:,.0f} cases/s = {fb / rb:.2f}x;"
          f" median of medians {fm:,.0f} vs {rm:,.0f} = {fm / rm:.2f}x;"
          f" median sustained (all calls / all rounds' time) {fs:,.0f} vs {rs:,.0f} = {fs / rs:.2f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rounds", type=int, default=20, help="timed rounds over the corpus (default 20)")
    parser.add_argument("--profile", action="store_true", help="print the top functions by own time")
    parser.add_argument("--payloads", action="store_true", help="include the four provider bodies")
    parser.add_argument(
        "--cpu",
        action="store_true",
        help="time with the thread's CPU clock instead of the wall clock (steadier on a loaded machine); "
        "with --reference, the whole process's CPU time on both sides",
    )
    parser.add_argument(
        "--batch",
        action="store_true",
        help="one forgec.batch.Batch per stack, compiled under all its fresh contexts (Batch.contexts): "
        "the stack is loaded once per run instead of once per call",
    )
    parser.add_argument(
        "--no-cache",
        action="store_true",
        help="turn off the content-keyed stack cache (forgec.codecs.stack.STACK_CACHE)",
    )
    parser.add_argument(
        "--reference",
        type=Path,
        metavar="DIR",
        help="also run the reference (pi-forge's dist/ in DIR, outside this repository) through "
        "benchmarks/reference_fresh.mjs under node, alternating with forgec on the same inputs, and "
        "print the same-run ratio (wall clock only)",
    )
    parser.add_argument("--repeat", type=int, default=3, help="with --reference: runs per side, alternated (default 3)")
    args = parser.parse_args()
    if args.reference and (args.batch or args.profile or args.payloads):
        parser.error("--reference compares the plain workload: drop --batch/--profile/--payloads")
    if args.reference and not any((args.reference / sub / "compiler.js").is_file() for sub in ("dist", ".")):
        parser.error(f"--reference {args.reference}: no dist/compiler.js there (a copy of pi-forge's built dist/)")

    from forgec.report import compile_report

    if args.no_cache:
        _caches_off()

    with tempfile.TemporaryDirectory() as tmp:
        # with --reference every run of forgec gets contexts of its own (no run sees one twice)
        plan = write_inputs(Path(tmp), args.rounds * (args.repeat if args.reference else 1) + 1)
        warm, timed = plan[0], plan[1:]
        for stack, context in warm:
            compile_report(stack, context, payloads=args.payloads).to_report()
        if args.profile:
            import cProfile
            import pstats

            profiler = cProfile.Profile()
            profiler.enable()
            for calls in timed:
                for stack, context in calls:
                    compile_report(stack, context, payloads=args.payloads).to_report()
            profiler.disable()
            pstats.Stats(profiler).sort_stats("tottime").print_stats(35)
            return
        clock = time.thread_time if args.cpu else time.perf_counter
        if args.cpu and args.reference:
            # both sides measured as the whole process's CPU time (Node's GC runs on helper threads)
            clock = time.process_time
        if args.batch:
            _run_batch(timed, args.payloads, clock)
            return
        if args.reference:
            _run_reference(Path(tmp), plan, args, clock)
            return
        times = _time_rounds(timed, args.payloads, clock)
        n = len(timed[0])
        print(
            f"{n} stack cases, fresh context per call, payloads={'on' if args.payloads else 'off'}"
            + (", CPU time" if args.cpu else "")
        )
        print(f"  best round:   {n / times[0]:,.0f} cases/s ({times[0] * 1000:.1f} ms per corpus)")
        print(f"  median round: {n / times[len(times) // 2]:,.0f} cases/s")


if __name__ == "__main__":
    main()
