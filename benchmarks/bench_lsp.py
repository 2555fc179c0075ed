"""Latency and memory of ``forgec lsp``: diagnostics of a 200-item stack after a change, 1,000 edits.

Run: ``.venv/bin/python benchmarks/bench_lsp.py`` (``--items N``, ``--edits N``, ``--json``); needs
the ``lsp`` extra.  The server is started as an editor starts it (``forgec lsp`` over stdio, driven by
pygls's own client) on a temporary project holding one YAML stack of ``--items`` items (blocks with
macros, slots with options, a chat-history slot) beside a few other stacks and a profile, so every
check also loads the folder (duplicate ids) as it does in a real project.

* **latency** -- ``--edits`` changes, each a one-word edit of one item's content (every tenth one
  breaks a role and the next repairs it), sent as incremental ``didChange`` with ``debounceMs: 0``;
  the time from sending the change to receiving that file's ``publishDiagnostics`` (the server checks
  every open file and publishes each).  With the default pause (150 ms) an editor sees that much more.
* **in process** -- :meth:`forgec.lsp.project.Project.check` on the same text, without the protocol:
  what the check itself costs.
* **memory** -- the server's resident set size (``/proc/PID/status`` ``VmRSS``) after every 100
  edits: it must stay flat (no buffer, parse or environment kept per edit).  The macro parser's
  cache of 512 distinct texts (:mod:`forgec.compile.macros.grammar`) fills during the first few
  hundred edits of distinct content, and then holds.

Results go to the "Language server" section of docs/performance.md.  Not a test: the machine's load
decides the numbers; compare runs side by side.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

WORDS = ("the", "reply", "keep", "short", "answer", "user", "code", "review", "tone", "scene")
SLOTS = ("tools", "tool-guidelines", "project-context", "date-cwd", "skills", "variables")
MACROS = ("{{lastUserMessage}}", "{{getvar::mood}}", "{{setvar::mood::calm}}", "{{upper::{{getvar::mood}}}}",
          "{{ifvar::chapter::Chapter {{getvar::chapter}}.::Opening.}}", "{{date}}")  # fmt: skip


def stack_text(items: int, seed: int = 7) -> str:
    rng = random.Random(seed)
    lines = ["schemaVersion: 1", "id: big", "name: A big stack", "variables:", "  chapter: '1'", "items:"]
    lines += ["  - kind: slot", "    id: history", "    slot: chat-history"]
    for index in range(items - 1):
        if index % 7 == 3:
            slot = rng.choice(SLOTS)
            lines += ["  - kind: slot", f"    id: slot-{index}", f"    slot: {slot}"]
            if slot not in ("date-cwd",):
                lines += ["    options:", "      format: xml"]
        else:
            words = " ".join(rng.choice(WORDS) for _ in range(12))
            role = "system" if index % 3 else "user"
            content = f"{words.capitalize()} {rng.choice(MACROS)} item {index}."
            lines += [
                "  - kind: block",
                f"    id: block-{index}",
                f"    role: {role}",
                f'    content: "{content}"',
            ]
    return "\n".join(lines) + "\n"


def make_project(root: Path, items: int, fmt: str = "yaml") -> Path:
    stacks = root / ".pi" / "forge" / "prompt-stacks"
    stacks.mkdir(parents=True)
    text = stack_text(items)
    if fmt == "json":  # the same stack, as JSON with one key per line (so the edits below apply)
        from ruamel.yaml import YAML

        data = YAML(typ="safe", pure=True).load(text)
        text = json.dumps(data, indent=2, ensure_ascii=False) + "\n"
    big = stacks / f"big.{fmt}"
    big.write_text(text, encoding="utf-8")
    for name in ("a", "b", "c"):
        (stacks / f"{name}.json").write_text(
            json.dumps(
                {
                    "schemaVersion": 1,
                    "id": name,
                    "items": [{"kind": "slot", "id": "h", "slot": "chat-history"}],
                }
            ),
            encoding="utf-8",
        )
    profiles = root / ".pi" / "forge" / "agent-profiles"
    profiles.mkdir(parents=True)
    (profiles / "rev.json").write_text(
        json.dumps({"schemaVersion": 1, "id": "rev", "promptStack": "big"}), encoding="utf-8"
    )
    return big


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


async def drive(stack: Path, root: Path, edits: int) -> dict[str, Any]:
    from lsprotocol import types
    from pygls.lsp.client import LanguageClient

    client = LanguageClient("bench", "1")
    arrived: asyncio.Queue[tuple[str, float, int]] = asyncio.Queue()

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def published(params: types.PublishDiagnosticsParams) -> None:
        arrived.put_nowait((params.uri, time.perf_counter(), len(params.diagnostics)))

    env = {**os.environ, "PI_FORGE_GLOBAL_DIR": str(root / "no-global")}
    await client.start_io(sys.executable, "-m", "forgec", "lsp", env=env)
    assert client._server is not None
    pid = client._server.pid
    await client.initialize_async(types.InitializeParams(
        capabilities=types.ClientCapabilities(), root_uri=root.as_uri(),
        workspace_folders=[types.WorkspaceFolder(root.as_uri(), "bench")], initialization_options={"debounceMs": 0},
    ))  # fmt: skip
    client.initialized(types.InitializedParams())
    uri = stack.as_uri()
    text = stack.read_text(encoding="utf-8")

    async def wait_for(target: str) -> tuple[float, int]:
        while True:
            got, when, count = await asyncio.wait_for(arrived.get(), 60)
            if got == target:
                return when, count

    language = "yaml" if stack.suffix == ".yaml" else "json"
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(types.TextDocumentItem(uri, language, 1, text))
    )
    await wait_for(uri)
    lines = text.split("\n")
    yaml = stack.suffix == ".yaml"
    content_key = '    content: "' if yaml else '      "content": "'
    role_line = "    role: system" if yaml else '      "role": "system",'
    targets = [i for i, line in enumerate(lines) if line.startswith(content_key)]
    roles = [i for i, line in enumerate(lines) if line == role_line]
    role_at = lines[roles[0]].index("system")
    word_start = len(content_key)
    latencies: list[float] = []
    findings: list[int] = []
    samples: list[int] = []  # RSS after every 100 edits
    for edit in range(edits):
        if edit % 10 == 9:  # break a role, the next edit repairs it
            line = roles[edit % len(roles)]
            start, end, new = role_at, role_at + 6, "Sytsem"
        elif edit % 10 == 0 and edit:
            line = roles[(edit - 1) % len(roles)]
            start, end, new = role_at, role_at + 6, "system"
        else:
            line = targets[edit % len(targets)]
            word_end = lines[line].index(" ", word_start)
            start, end, new = word_start, word_end, random.Random(edit).choice(WORDS).capitalize()
        lines[line] = lines[line][:start] + new + lines[line][end:]
        change = types.TextDocumentContentChangePartial(
            range=types.Range(types.Position(line, start), types.Position(line, end)), text=new
        )
        sent = time.perf_counter()
        client.text_document_did_change(types.DidChangeTextDocumentParams(
            types.VersionedTextDocumentIdentifier(version=edit + 2, uri=uri), [change]))  # fmt: skip
        when, count = await wait_for(uri)
        latencies.append((when - sent) * 1000)
        findings.append(count)
        if edit % 100 == 99:
            samples.append(rss_kib(pid))
    rss_end = rss_kib(pid)
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    ordered = sorted(latencies)
    return {
        "edits": edits,
        "latency_ms": {
            "median": round(statistics.median(latencies), 1),
            "p90": round(ordered[int(len(ordered) * 0.9)], 1),
            "p99": round(ordered[int(len(ordered) * 0.99)], 1),
            "min": round(ordered[0], 1),
            "max": round(ordered[-1], 1),
        },
        "findings_seen": sorted(set(findings)),
        "rss_kib": {"every_100_edits": samples, "after_all_edits": rss_end},
    }


def in_process(stack: Path, root: Path, runs: int = 30) -> dict[str, float]:
    os.environ["PI_FORGE_GLOBAL_DIR"] = str(root / "no-global")
    from forgec.lsp.project import Project

    project = Project([root])
    text = stack.read_text(encoding="utf-8")
    project.open(stack, text)
    project.check()  # warm: imports, the environment
    times = []
    for run in range(runs):
        project.open(stack, text.replace("item 5.", f"item 5 {run}."))
        start = time.perf_counter()
        project.check()
        times.append((time.perf_counter() - start) * 1000)
    return {"median": round(statistics.median(times), 1), "min": round(min(times), 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--items", type=int, default=200)
    parser.add_argument("--edits", type=int, default=1000)
    parser.add_argument(
        "--format", choices=("yaml", "json"), default="yaml", help="the big stack's file format"
    )
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="forgec-bench-lsp-") as folder:
        root = Path(folder)
        stack = make_project(root, args.items, args.format)
        result = {"items": args.items, "format": args.format, "in_process_check_ms": in_process(stack, root)}
        result.update(asyncio.run(drive(stack, root, args.edits)))
    if args.json:
        print(json.dumps(result, indent=2))
        return
    lat = result["latency_ms"]
    rss = result["rss_kib"]
    print(f"{args.items}-item {args.format.upper()} stack, {result['edits']} edits (debounceMs 0)")
    print(
        f"  change -> diagnostics: median {lat['median']} ms, p90 {lat['p90']} ms, p99 {lat['p99']} ms, max {lat['max']} ms"
    )
    print(f"  the check alone (in process): median {result['in_process_check_ms']['median']} ms")
    print(f"  server RSS (KiB) after every 100 edits: {rss['every_100_edits']}")


if __name__ == "__main__":
    main()
