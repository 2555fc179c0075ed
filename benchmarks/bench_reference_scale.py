"""Issue 14's scale rows, forgec against the reference, side by side in one run.

The rows are the ones ``bench_scale.py`` and ``bench_scale_rules.py`` time for forgec, on the very same
inputs: this script builds them with those scripts' own functions and writes them to files that the
reference side reads (``benchmarks/reference_fresh.mjs scale``, pi-forge's compiled JavaScript under
``node``; its ``dist/`` copy lives outside this repository, see docs/performance.md, "The reference,
measured"). Per row and round, forgec runs in a child process (``bench_scale.py --row NAME --json`` or
``bench_scale_rules.py --rows rules --raw``) and the reference in another, alternating which goes first;
the best and median calls are kept, and the ratio is printed with the load average.

* ``history-50k`` / ``history-50k-filters`` / ``history-50k-all-filters``: ``example-default`` (read
  from its file on every call) over a context of 50,000 messages parsed before timing; the second
  with the history filters on, the third with all seven (``bench_scale.ALL_FILTERS``).
* ``history-50k-fresh``: forgec compiles ``history-50k`` with a chat-history item no call saw before on
  every call (``bench_scale.py --row history-50k-fresh``), so the history's shared source records never
  answer and every call makes them; the reference side is ``history-50k``'s (it keeps nothing between
  calls), and so is the output check.
* ``items-1000``: a stack file of 1,000 distinct blocks, read on every call, 40 messages.
* ``items-1000-fresh``: forgec compiles a stack file no call read before on every call (``bench_scale.py
  --row items-1000-fresh``: its blocks carry the call's number, so no parse or replay cache answers); the
  reference side is ``items-1000``'s, since it caches nothing between calls: for it both rows are the
  same work. The output check compares ``items-1000``'s file (the fresh files differ only by that number).
* ``rules``: 100 regex rules over 1,000 messages; forgec's row passes the stack as data (no file read),
  the reference loads it from its file on every call (a little more work on the reference side).
* ``import-convert``: the SillyTavern conversion of the largest preset of ``$FORGEC_FIXTURES``, already
  parsed (forgec ``convert_preset``, the reference ``convertSillyTavernPreset``).
* ``import-cli``: the whole import: forgec ``import-silly PRESET 100001 --dry-run --format json`` in
  process; the reference ``importSillyTavernPreset`` (read, parse, convert) plus the stack written out as
  ``JSON.stringify(stack, null, 2)``. Similar, not identical work: forgec's command also renders its JSON
  document and runs click.

Before timing, both sides' outputs are compared: the sha256 of ``{"prompt", "messages"}`` (the compiled
system prompt and message list, compact JSON with sorted keys) from forgec's report and from the
reference must match; a row whose digests differ is flagged (the inputs use a macro or a rule the two
versions treat differently) and its ratio then compares different work.

    python benchmarks/bench_reference_scale.py --reference /work/refbench/pi-forge [--rows items-1000,rules]
        [--rounds 3] [--calls 10]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
DRIVER = HERE / "reference_fresh.mjs"
ROWS = ("history-50k", "history-50k-fresh", "history-50k-filters", "history-50k-all-filters", "items-1000", "items-1000-fresh", "rules",
        "import-convert", "import-cli")
IMPORT_ROWS = ("import-convert", "import-cli")


def _inputs(row: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """(stack, context) documents of one row, built by the forgec benchmark scripts themselves."""
    sys.path.insert(0, str(HERE))
    try:
        import bench_scale
        import bench_scale_rules
    finally:
        sys.path.remove(str(HERE))
    if row == "rules":
        return bench_scale_rules.rules_inputs()
    if row in ("items-1000", "items-1000-fresh"):
        return bench_scale._items_stack(1000), bench_scale._context_data(40)
    options = {"history-50k-filters": bench_scale.FILTERS, "history-50k-all-filters": bench_scale.ALL_FILTERS}.get(row)
    stack = bench_scale.history_stack(options)
    return stack, bench_scale._context_data(50_000)


def _digest(prompt: Any, messages: Any) -> str:
    text = json.dumps({"prompt": prompt, "messages": messages}, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def forgec_import_digest() -> str:
    """forgec's {stack, report} for the largest preset (clock at the epoch), digested like the driver."""
    sys.path.insert(0, str(HERE))
    try:
        import bench_scale_rules
    finally:
        sys.path.remove(str(HERE))
    from forgec.importers.sillytavern import convert_preset
    from forgec.importers.sillytavern.jsonread import parse_json, read_text
    from forgec.js.values import dumps_report

    path = bench_scale_rules.largest_preset()
    section = convert_preset(parse_json(read_text(path)), str(path), str(path), 100001, now_ms=0).import_section()
    doc = json.loads(dumps_report(section))
    text = json.dumps(doc, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def forgec_digest(stack_path: Path, context: dict[str, Any]) -> str:
    """forgec's compiled prompt and messages for the row, digested like the reference driver does."""
    import forgec.compile.passes.regex as rules_pass
    from forgec.codecs.context import load_context
    from forgec.js.values import dumps_report
    from forgec.report import compile_report

    rules_pass.REGEX_BUDGET_SECONDS = 600.0  # as bench_scale_rules.py: no rule skipped on a slow machine
    doc = json.loads(dumps_report(compile_report(stack_path, load_context(context)).to_report()))
    return _digest(doc["system"]["prompt"], doc["messages"]["messages"])


def _forgec_time(row: str, calls: int) -> tuple[float, float]:
    """(best, median) ms of one forgec child process for ``row``."""
    if row in ("rules", *IMPORT_ROWS):
        times = []
        for _ in range(2):  # bench_scale_rules prints the best of --reps; two processes give a median of 2
            fields = subprocess.run(
                [sys.executable, str(HERE / "bench_scale_rules.py"), "--rows", row, "--reps", str(calls), "--raw"],
                capture_output=True, text=True, check=True,
            ).stdout.split()
            times.append(float(fields[0]) * 1000)
        return min(times), statistics.median(times)
    out = subprocess.run(
        [sys.executable, str(HERE / "bench_scale.py"), "--row", row, "--calls", str(calls), "--json"],
        capture_output=True, text=True, check=True,
    ).stdout
    result = json.loads(out.strip().splitlines()[-1])
    return float(result["best_ms"]), float(result["median_ms"])


def _reference(reference: Path, stack: Path, context: Path, calls: int, row: str = "") -> dict[str, Any]:
    node = shutil.which("node")
    if node is None:
        raise SystemExit("bench_reference_scale.py: node is not on PATH")
    if row in IMPORT_ROWS:
        command = ["import", "--preset", str(stack)]
    else:
        command = ["scale", "--stack", str(stack), "--context", str(context)]
    out = subprocess.run(
        [node, str(DRIVER), "--ref", str(reference), *command, "--calls", str(calls), "--json"],
        capture_output=True, text=True,
    )
    if out.returncode != 0:
        raise SystemExit(f"the reference driver failed:\n{out.stderr.strip()[-2000:]}")
    result: dict[str, Any] = json.loads(out.stdout.strip().splitlines()[-1])
    if row in IMPORT_ROWS:  # one process times both import rows; keep the asked one's figures
        result.update(result["convert" if row == "import-convert" else "whole"])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--reference", type=Path, required=True, metavar="DIR",
                        help="pi-forge's dist/ (or its parent), kept outside this repository")
    parser.add_argument("--rows", default=",".join(ROWS), help=f"comma-separated, from {', '.join(ROWS)}")
    parser.add_argument("--rounds", type=int, default=3, help="child processes per side and row, alternated (default 3)")
    parser.add_argument("--calls", type=int, default=10, help="timed calls per child process (default 10)")
    args = parser.parse_args()
    rows = [r for r in args.rows.split(",") if r]
    unknown = [r for r in rows if r not in ROWS]
    if unknown:
        parser.error(f"unknown row(s): {', '.join(unknown)}")
    loads = [os.getloadavg()[0]]
    with tempfile.TemporaryDirectory() as tmp:
        files: dict[str, tuple[Path, Path]] = {}
        same: dict[str, bool] = {}
        for row in rows:
            if row in IMPORT_ROWS:
                sys.path.insert(0, str(HERE))
                import bench_scale_rules

                sys.path.remove(str(HERE))
                preset = bench_scale_rules.largest_preset()
                files[row] = (preset, preset)
                same[row] = _reference(args.reference, preset, preset, 1, row)["digest"] == forgec_import_digest()
                continue
            stack, context = _inputs(row)
            stack_path, context_path = Path(tmp) / f"{row}.stack.json", Path(tmp) / f"{row}.context.json"
            stack_path.write_text(json.dumps(stack, ensure_ascii=False), encoding="utf-8")
            context_path.write_text(json.dumps(context, ensure_ascii=False), encoding="utf-8")
            files[row] = (stack_path, context_path)
            ref = _reference(args.reference, stack_path, context_path, 1)
            same[row] = ref["digest"] == forgec_digest(stack_path, context)
        results: dict[tuple[str, str], list[tuple[float, float]]] = {}
        for r in range(args.rounds):
            for row in rows:
                for side in (("forgec", "reference") if r % 2 == 0 else ("reference", "forgec")):
                    if side == "forgec":
                        results.setdefault((side, row), []).append(_forgec_time(row, args.calls))
                    else:
                        ref = _reference(args.reference, *files[row], args.calls, row)
                        results.setdefault((side, row), []).append((ref["best_ms"], ref["median_ms"]))
            loads.append(os.getloadavg()[0])
    print(f"load average (1 min) during the run: {min(loads):.2f}-{max(loads):.2f}; "
          f"{args.rounds} rounds x {args.calls} calls per side, alternated")
    print(f"{'row':22} {'forgec best':>12} {'ref best':>10} {'forgec med':>11} {'ref med':>9} {'ratio best':>11} {'ratio med':>10}  output")
    for row in rows:
        f, ref_times = results[("forgec", row)], results[("reference", row)]
        fb, rb = min(b for b, _ in f), min(b for b, _ in ref_times)
        fm, rm = statistics.median(m for _, m in f), statistics.median(m for _, m in ref_times)
        print(f"{row:22} {fb:10.1f}ms {rb:8.1f}ms {fm:9.1f}ms {rm:7.1f}ms {rb / fb:10.2f}x {rm / fm:9.2f}x  "
              + ("same" if same[row] else "DIFFERS"))
    print("ratio = reference time / forgec time (above 1: forgec faster)")


if __name__ == "__main__":
    main()
