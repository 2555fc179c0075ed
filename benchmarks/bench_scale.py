"""The scale rows of issue 14: large histories and large stacks, one compile at a time.

Each row builds its inputs once (outside the clock), warms up once, then times ``--calls`` calls of
one workload and prints the best and the median call.  Rows are registered in :data:`ROWS` (name ->
builder); ``--row NAME`` picks some (repeatable), the default runs them all.

* ``history-50k``: the public ``example-default`` stack (the file is read, parsed and validated on
  every call) under a context that is *already loaded* (a :class:`~forgec.codecs.context.Context`,
  as a host hands pi-forge its runtime) holding 50,000 messages: user turns, assistant turns with
  thinking and tool calls, tool results.  ``compile_report(stack_path, context).to_report()``.
* ``history-50k-filters``: the same with the slot's history filters on (``stripAssistantThinking``,
  ``roles``, ``maxChars`` above the total, so the tool-pair repair walks every message too).
* ``history-50k-payloads``: ``history-50k`` with the four provider request bodies.
* ``history-50k-all-filters``: all seven history options on (:data:`ALL_FILTERS`).
* ``history-50k-fresh``: ``history-50k`` where every call reads a stack file no call read before, whose
  chat-history item is named after the call: the records of a long history are shared between
  compiles of the same history and item (``forgec.compile.assemble.shared_history_sources``), so
  this row times the compile that makes them -- a first preview of a conversation, or a host whose
  history changed since the last compile.
* ``load-50k``: ``load_context`` of the same 50,000-message context given as data (a host that
  passes its conversation as Python objects): the copy the context keeps, validation, defaults and
  the history's layout; the row's report is the loaded ``context.data``.
* ``items-1000``: a stack file of 1,000 distinct blocks (every third one a user or assistant
  message), each with a few macros (``setvar``/``getvar``, a filter, a conditional, an unknown
  macro), compiled again and again as an editor or a test run does.

Compare two trees interleaved in one run (the only kind of timing this project reports)::

    python benchmarks/bench_scale.py --compare /tmp/base-tree [--rounds 3]

which runs every row in a child process per tree (``PYTHONPATH`` set to the tree), alternating
base and this tree ``--rounds`` times, and prints both best and median figures side by side with the
load average.  ``--digest`` prints a sha256 of each row's report text instead of timing it (the
differential check: both trees must print the same digests).
"""

from __future__ import annotations

import argparse
import copy
import hashlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
CASES = HERE.parent / "tests" / "conformance" / "cases"


@dataclass
class Workload:
    """One row's prepared inputs: ``run()`` is one timed call and returns the report document."""

    run: Callable[[], Any]
    label: str
    #: every call reads new inputs, so two calls print different reports
    fresh: bool = False


# --- inputs ------------------------------------------------------------------------------------


def _history(count: int) -> list[dict[str, Any]]:
    """``count`` messages cycling through user, assistant (thinking + text + tool call), tool result,
    assistant (text), with distinct texts (no two messages alike)."""
    usage = {
        "input": 1200,
        "output": 85,
        "cacheRead": 0,
        "cacheWrite": 0,
        "totalTokens": 1285,
        "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0},
    }
    out: list[dict[str, Any]] = []
    t = 1773476001000
    for i in range(count):
        kind = i % 4
        t += 1000
        if kind == 0:
            out.append({"role": "user", "content": [{"type": "text", "text": f"Question {i}: what does line {i} of main.py do?"}], "timestamp": t})
        elif kind == 1:
            out.append(
                {
                    "role": "assistant",
                    "content": [
                        {"type": "thinking", "thinking": f"Let me read main.py around line {i}.", "thinkingSignature": "sig"},
                        {"type": "text", "text": f"I will read the file first ({i})."},
                        {"type": "toolCall", "id": f"call-{i}", "name": "read", "arguments": {"path": "main.py", "offset": i}},
                    ],
                    "api": "anthropic-messages",
                    "provider": "anthropic",
                    "model": "claude-sonnet-4-5",
                    "usage": copy.deepcopy(usage),
                    "stopReason": "toolUse",
                    "timestamp": t,
                }
            )
        elif kind == 2:
            out.append(
                {
                    "role": "toolResult",
                    "toolCallId": f"call-{i - 1}",
                    "toolName": "read",
                    "content": [{"type": "text", "text": f"{i}: print('line {i}')"}],
                    "isError": False,
                    "timestamp": t,
                }
            )
        else:
            out.append(
                {
                    "role": "assistant",
                    "content": [{"type": "text", "text": f"Line {i - 3} prints a greeting — ünïcödé 😀 ok."}],
                    "api": "anthropic-messages",
                    "provider": "anthropic",
                    "model": "claude-sonnet-4-5",
                    "usage": copy.deepcopy(usage),
                    "stopReason": "stop",
                    "timestamp": t,
                }
            )
    return out


def _context_data(messages: int) -> dict[str, Any]:
    data = json.loads((CASES / "adapted-strip-thinking-tools" / "context.json").read_text(encoding="utf-8"))
    data["messages"] = _history(messages)
    data["variables"] = {"mood": "focused", "turns": 12}
    return data


def _items_stack(count: int, salt: str = "") -> dict[str, Any]:
    """``count`` distinct blocks with macros, then the chat history; ``salt`` is put in every block's
    text (distinct salts: no text in common)."""
    items: list[dict[str, Any]] = []
    for i in range(count):
        role = ("system", "user", "assistant")[i % 3] if i % 3 else "system"
        if i % 3 == 1:
            role = "user" if i % 2 else "assistant"
        content = (
            f"Rule {i}{salt}: {{{{setvar::k{i}::value {i}}}}}keep answer {i} short. "
            f"Previous: {{{{getvar::k{max(i - 1, 0)}}}}}; mood {{{{getvar::mood}}}}; "
            f"{{{{upper::section {i}}}}} {{{{if::{{{{getvar::k{i}}}}}::set {i}::unset}}}} "
            f"{{{{unknown{i % 7}}}}} and some plain text after the macros for item {i}."
        )
        items.append({"kind": "block", "id": f"item-{i}", "name": f"Item {i}", "role": role, "content": content})
    items.append({"kind": "slot", "id": "chat-history", "slot": "chat-history"})
    return {
        "schemaVersion": 1,
        "type": "pi-forge.prompt-stack",
        "id": "thousand",
        "name": "A thousand items",
        "mode": "replace",
        "variables": {"mood": "calm"},
        "items": items,
    }


# --- rows ----------------------------------------------------------------------------------------


#: the chat-history options of ``history-50k-filters``
FILTERS: dict[str, Any] = {
    "stripAssistantThinking": True,
    "roles": ["user", "assistant", "toolResult"],
    "maxChars": 100_000_000,
}

#: the options of ``history-50k-all-filters``: all seven, each doing its work (``maxMessages`` trims
#: a fifth, so the tool-pair repair reads the trimmed list again; ``maxChars`` measures every message)
ALL_FILTERS: dict[str, Any] = {
    "includeLastUserMessage": False,
    "includeSummaries": False,
    "roles": ["user", "assistant", "toolResult"],
    "toolMode": "keep",
    "stripAssistantThinking": True,
    "maxMessages": 40_000,
    "maxChars": 100_000_000,
}


def history_stack(options: dict[str, Any] | None) -> dict[str, Any]:
    """``example-default`` with ``options`` on its chat-history slot (none: as it is)."""
    stack: dict[str, Any] = json.loads((CASES / "example-default" / "stack.json").read_text(encoding="utf-8"))
    if options is not None:
        for item in stack["items"]:
            if item.get("slot") == "chat-history":
                item["options"] = copy.deepcopy(options)
    return stack


def _history_row(tmp: Path, *, filters: bool, payloads: bool, options: dict[str, Any] | None = None) -> Workload:
    from forgec.codecs.context import load_context
    from forgec.report import compile_report

    if options is None and filters:
        options = FILTERS
    stack = history_stack(options)
    path = tmp / ("history-filters.json" if options is not None else "history.json")
    path.write_text(json.dumps(stack), encoding="utf-8")
    context = load_context(_context_data(50_000))

    def run() -> Any:
        return compile_report(path, context, payloads=payloads).to_report()

    shown = ", every filter" if options is ALL_FILTERS else ", filters" if options is not None else ""
    return Workload(run, "50,000 messages, context loaded" + shown + (", payloads" if payloads else ""))


def _history_fresh_row(tmp: Path) -> Workload:
    from forgec.codecs.context import load_context

    paths = []
    for number in range(FRESH_FILES):
        stack = history_stack(None)
        for item in stack["items"]:
            if item.get("slot") == "chat-history":
                item["name"] = f"Chat History (call {number})"
        path = tmp / f"history-{number}.json"
        path.write_text(json.dumps(stack), encoding="utf-8")
        paths.append(path)
    context = load_context(_context_data(50_000))
    return _each_once("history-50k-fresh", paths, context, "50,000 messages, context loaded, a chat-history item no call saw before")


def _load_row(tmp: Path) -> Workload:
    from forgec.codecs.context import load_context

    data = _context_data(50_000)

    def run() -> Any:
        return load_context(data).data

    return Workload(run, "50,000 messages given as data, loaded")


def _items_row(tmp: Path) -> Workload:
    from forgec.codecs.context import load_context
    from forgec.report import compile_report

    path = tmp / "items-1000.json"
    path.write_text(json.dumps(_items_stack(1000)), encoding="utf-8")
    context = load_context(_context_data(40))

    def run() -> Any:
        return compile_report(path, context).to_report()

    return Workload(run, "1,000 distinct blocks, stack file read each call")


#: stack files ``items-1000-fresh`` writes before timing: one per call (the warm-up and ``--calls``)
FRESH_FILES = 64


def _items_fresh_row(tmp: Path) -> Workload:
    from forgec.codecs.context import load_context

    paths = []
    for number in range(FRESH_FILES):
        path = tmp / f"items-1000-{number}.json"
        path.write_text(json.dumps(_items_stack(1000, salt=f" (call {number})")), encoding="utf-8")
        paths.append(path)
    context = load_context(_context_data(40))
    return _each_once("items-1000-fresh", paths, context, "1,000 distinct blocks, a stack file no call read before")


def _each_once(row: str, paths: list[Path], context: Any, label: str) -> Workload:
    """A workload whose every call compiles the next of ``paths``, each once (the warm-up is the first)."""
    from forgec.report import compile_report

    unread = iter(paths)

    def run() -> Any:
        path = next(unread, None)
        if path is None:
            raise SystemExit(f"{row}: at most {len(paths) - 1} calls after the warm-up")
        return compile_report(path, context).to_report()

    return Workload(run, label, fresh=True)


ROWS: dict[str, Callable[[Path], Workload]] = {
    "history-50k": lambda tmp: _history_row(tmp, filters=False, payloads=False),
    "history-50k-filters": lambda tmp: _history_row(tmp, filters=True, payloads=False),
    "history-50k-payloads": lambda tmp: _history_row(tmp, filters=False, payloads=True),
    "history-50k-all-filters": lambda tmp: _history_row(tmp, filters=True, payloads=False, options=ALL_FILTERS),
    "history-50k-fresh": _history_fresh_row,
    "load-50k": _load_row,
    "items-1000": _items_row,
    "items-1000-fresh": _items_fresh_row,
}

# The regex-rules and import rows live in bench_scale_rules.py, with their own command line (their
# timing functions take a repetition count and return a digest, not a Workload).


# --- running -------------------------------------------------------------------------------------


def _digest(doc: Any) -> str:
    from forgec.js.values import dumps_report

    return hashlib.sha256(dumps_report(doc).encode("utf-8", "surrogatepass")).hexdigest()


def measure(name: str, calls: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        workload = ROWS[name](Path(tmp))
        workload.run()  # warm: imports, caches a long-running process would have
        times = []
        for _ in range(calls):
            start = time.perf_counter()
            workload.run()
            times.append(time.perf_counter() - start)
    return {"row": name, "label": workload.label, "best_ms": min(times) * 1e3, "median_ms": statistics.median(times) * 1e3}


def digest(name: str) -> str:
    with tempfile.TemporaryDirectory() as tmp:
        workload = ROWS[name](Path(tmp))
        first = _digest(workload.run())
        if workload.fresh:  # its second call reads other inputs: the first call of a second build instead
            again = Path(tmp) / "again"
            again.mkdir()
            second = _digest(ROWS[name](again).run())
        else:
            second = _digest(workload.run())  # the second call (warm caches) must print the same
        return first if first == second else f"{first} != {second} (warm)"


def compare(base: Path, rows: list[str], rounds: int, calls: int) -> None:
    """Alternate the base tree and this tree, one child process per (tree, row, round)."""
    trees = {"base": base.resolve(), "this": HERE.parent}
    results: dict[tuple[str, str], list[dict[str, Any]]] = {}
    loads = [os.getloadavg()[0]]
    for r in range(rounds):
        for name in rows:
            for label, tree in (trees.items() if r % 2 == 0 else reversed(trees.items())):
                env = dict(os.environ, PYTHONPATH=str(tree))
                out = subprocess.run(
                    [sys.executable, __file__, "--row", name, "--calls", str(calls), "--json"],
                    env=env, capture_output=True, text=True, check=True,
                )
                results.setdefault((label, name), []).append(json.loads(out.stdout))
        loads.append(os.getloadavg()[0])
    print(f"load average during the run: {min(loads):.2f}–{max(loads):.2f}; {rounds} rounds × {calls} calls, interleaved")
    print(f"{'row':24} {'base best':>10} {'this best':>10} {'base med':>10} {'this med':>10} {'speed-up':>9}")
    for name in rows:
        b = results[("base", name)]
        t = results[("this", name)]
        bb = min(x["best_ms"] for x in b)
        tb = min(x["best_ms"] for x in t)
        bm = statistics.median(x["median_ms"] for x in b)
        tm = statistics.median(x["median_ms"] for x in t)
        print(f"{name:24} {bb:9.1f}ms {tb:9.1f}ms {bm:9.1f}ms {tm:9.1f}ms {bb / tb:8.1f}×")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--row", action="append", choices=sorted(ROWS), help="a row to run (repeatable; default: all)")
    parser.add_argument("--calls", type=int, default=10, help="timed calls per row (default 10)")
    parser.add_argument("--json", action="store_true", help="one JSON line per row")
    parser.add_argument("--digest", action="store_true", help="print each row's report digest instead of timing")
    parser.add_argument("--compare", type=Path, metavar="BASE_TREE", help="time a base tree and this one, interleaved")
    parser.add_argument("--rounds", type=int, default=3, help="rounds per tree with --compare (default 3)")
    parser.add_argument("--profile", action="store_true", help="cProfile the row's calls (top 30 by own time)")
    args = parser.parse_args()
    rows = args.row or list(ROWS)
    if args.compare:
        compare(args.compare, rows, args.rounds, args.calls)
        return
    for name in rows:
        if args.digest:
            print(name, digest(name))
        elif args.profile:
            import cProfile
            import pstats

            with tempfile.TemporaryDirectory() as tmp:
                workload = ROWS[name](Path(tmp))
                workload.run()
                profiler = cProfile.Profile()
                profiler.enable()
                for _ in range(args.calls):
                    workload.run()
                profiler.disable()
                pstats.Stats(profiler).sort_stats("tottime").print_stats(30)
        else:
            result = measure(name, args.calls)
            if args.json:
                print(json.dumps(result))
            else:
                print(f"{name:24} best {result['best_ms']:8.1f} ms  median {result['median_ms']:8.1f} ms  ({result['label']})")


if __name__ == "__main__":
    main()
