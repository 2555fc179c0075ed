"""Issue 14's scale rows for regex rules and import-silly, with a same-run comparison of two trees.

Rows:

``rules``
    100 distinct, realistic regex rules (mixed flags ``g``/``i``/``m``/``s``/``u``, both stages, role,
    depth, ``maxMessages``/``maxChars`` and ``trimStrings`` options; most rules match few messages, as in
    real presets) over a 1,000-message chat history, through the real compile path:
    ``compile_report(stack_data, loaded_context).to_report()`` with the context loaded once (the
    issue's "context already loaded").
``import``
    the largest SillyTavern preset of ``$FORGEC_FIXTURES`` (read from there, never copied into the
    repository): ``convert_preset`` on the parsed preset (``import-convert``), and the CLI path
    ``forgec import-silly PRESET 100001 --dry-run --format json`` in-process (read, JSON parse, convert,
    render; ``import-cli``).

    python benchmarks/bench_scale_rules.py [--rows rules,import] [--reps 7]
    python benchmarks/bench_scale_rules.py --trees base=/tmp/base,branch=. --rounds 3

With ``--trees`` every row runs in a fresh subprocess per tree (``PYTHONPATH`` = that tree), the trees
interleaved round by round, and the best time per tree and row is printed with the ratio and the load
average: the only honest comparison on a shared, loaded machine. ``--cpu`` times the thread's CPU time
instead of the wall clock (on a machine whose load swings, the steadier of the two).
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

FIXTURES = Path(os.environ.get("FORGEC_FIXTURES", "/work/shared/fixtures/sillytavern"))
#: the clock every row reads (``--cpu``: the thread's CPU time)
CLOCK = time.perf_counter

# --- the rules workload ---------------------------------------------------------------------------

WORDS = ["lantern", "harbor", "whisper", "crimson", "meadow", "falcon", "ember", "quartz", "willow", "thunder",
         "velvet", "cobalt", "saffron", "glacier", "orchid", "marble", "tempest", "juniper", "obsidian", "sparrow"]
#: the prose around them: the words the rules look for are ~4 % of a message's words
_PROSE_TEXT = ("the and said was to a of in it she he they we you her his with for on at as but not that this "
         "road night light door hand eyes voice city river stone fire wind sky table window smile moment "
         "looked walked turned answered asked waited knew felt seemed quiet slowly again never always "
         "little old long dark cold warm small great other first last young")
PROSE = _PROSE_TEXT.split()
NAMES = ["Alice", "Bob", "Mira", "Kael", "Sera", "Doran", "Lyra", "Thorn"]


def _rules() -> list[dict[str, Any]]:
    """100 distinct rules of the kinds SillyTavern presets and pi-forge stacks carry."""
    rules: list[dict[str, Any]] = []

    def add(pattern: str, flags: str, replace: str, **extra: Any) -> None:
        n = len(rules)
        rule: dict[str, Any] = {"id": f"r{n:03d}", "stage": "history" if n % 3 else "compiled",
                                "pattern": pattern, "flags": flags, "replace": replace}
        if rule["stage"] == "compiled":
            rule["targets"] = ["messages"] if n % 2 else ["system", "messages"]
        rule.update(extra)
        rules.append(rule)

    # fixed-up prose: distinct words, case-insensitive or not (most never match)
    for i, w in enumerate(WORDS):
        add(w, ["g", "gi", "", "gu", "gim"][i % 5], w.upper())
        add(rf"\b{w}s?\b", ["gi", "g", "giu"][i % 3], f"<{w}>")
    for i, name in enumerate(NAMES):
        add(rf"\b{name}\b(?=[,.!?])", "g", f"{{{{char}}}}{i}")
        add(rf"{name}:\s*", "gm", "", roles=["assistant"])
    add(r"\s*\(OOC:[^)]*\)", "g", "")
    add(r"<think>[\s\S]*?</think>\n?", "g", "", roles=["assistant"])
    add(r"<thinking>.*?</thinking>", "gs", "")
    add(r"\*([^*\n]+)\*", "g", "_$1_")
    add(r"[“”]", "g", '"')
    add(r"[‘’]", "g", "'")
    add(r"\n{3,}", "g", "\n\n")
    add(r"[ \t]+$", "gm", "")
    add(r"^\s+", "gm", "")
    add(r"<[^>\n]{1,40}>", "g", "", maxMessages=50)
    add(r"\p{Extended_Pictographic}", "gu", "")
    add(r"(\d+)\s*(?:gold|coins?)", "gi", "$1 gp")
    add(r"https?://\S+", "g", "[link]")
    add(r"\[(?:Note|Memo): ([^\]]*)\]", "g", "($1)", trimStrings=[" "])
    add(r"(?<=\.)\s{2,}", "g", " ")
    add(r"\.{3,}", "g", "…")
    add(r"--+", "g", "—")
    add(r"(^|\n)> ?", "g", "$1")
    add(r"\b(very|really|quite) ", "gi", "")
    add(r"(?:um+|uh+),? ", "gi", "", roles=["user"])
    add(r"!{2,}", "g", "!")
    add(r"\?{2,}", "g", "?")
    add(r"(\w+) \1\b", "gi", "$1")
    add(r"Token-(\d+)", "g", "[token $1]", maxChars=400)
    add(r"SECRET-\w+", "g", "[redacted]", minDepth=2)
    add(r"^(.)", "", "$1", maxDepth=10)
    add(r"[\u0300-\u036f]", "gu", "")
    add(r"\s+$", "", "")
    add(r"(?<name>[A-Z][a-z]+) the (?<title>Brave|Bold|Wise)", "g", "$<title> $<name>")
    add(r"colou?r", "gi", "color")
    add(r"\bteh\b", "g", "the")
    add(r"[\u200b-\u200d\ufeff]", "g", "")
    add(r"(?:\r\n|\r)", "g", "\n")
    add(r"\t", "g", "  ")
    add(r"^#+ ", "gm", "")
    add(r"\b(\d{1,2}):(\d{2})\b", "g", "$1h$2")
    add(r"(?:smiles|grins|nods)( warmly)?", "gi", "$&", roles=["assistant"])
    add(r"lorem ipsum", "gi", "", maxMessages=20)
    add(r"```[\s\S]*?```", "g", "[code]")
    add(r"<!--[\s\S]*?-->", "g", "")
    add(r"\{\{[^}]*\}\}", "g", "")
    add(r"(?i:xyzzy)", "g", "")  # a syntax error in Node 20: reported, never run
    while len(rules) < 100:
        w = WORDS[len(rules) % len(WORDS)]
        add(rf"{w}-{len(rules)}", "g", "#")
    return rules[:100]


def _message_text(rng: random.Random, i: int) -> str:
    parts: list[str] = []
    for _ in range(rng.randint(3, 7)):
        words = [rng.choice(WORDS) if rng.random() < 0.04 else rng.choice(PROSE) for _ in range(rng.randint(8, 20))]
        sentence = " ".join(words).capitalize()
        if rng.random() < 0.2:
            sentence = f"{rng.choice(NAMES)}, {sentence}"
        parts.append(sentence + rng.choice([".", "!", "?", "...", "."]))
    if rng.random() < 0.15:
        parts.append("(OOC: keep replies short)")
    if rng.random() < 0.1:
        parts.append(f"*{rng.choice(NAMES)} {rng.choice(['smiles warmly', 'nods', 'grins'])}*")
    if rng.random() < 0.1:
        parts.append(rng.choice(["😺", "🎉", "✨", "🐉"]))
    if rng.random() < 0.05:
        parts.append(f"Token-{rng.randint(1, 99999)} and SECRET-{i}")
    if rng.random() < 0.05:
        parts.append("“quoted” text  \n\n\n\nafter gap")
    return " ".join(parts)


def rules_inputs() -> tuple[dict[str, Any], dict[str, Any]]:
    """The stack (100 rules) and the context (1,000 messages) of the ``rules`` row."""
    rng = random.Random(14)
    stack = {
        "schemaVersion": 1, "type": "pi-forge.prompt-stack", "id": "scale-rules",
        "regex": {"rules": _rules()},
        "items": [
            {"kind": "block", "id": "sys", "enabled": True, "role": "system",
             "content": "You are Lyra the Brave, a guide. Colour the world.\n\n\n\nKeep SECRET-1 safe."},
            {"kind": "slot", "id": "history", "enabled": True, "slot": "chat-history"},
        ],
    }
    messages: list[dict[str, Any]] = []
    for i in range(1000):
        text = _message_text(rng, i)
        if i % 2 == 0:
            messages.append({"role": "user", "content": text, "timestamp": 1773476001000 + i})
        else:
            if rng.random() < 0.3:
                text = f"<think>plan {i}\nthen act</think>\n{text}"
            messages.append({
                "role": "assistant", "content": [{"type": "text", "text": text}],
                "api": "anthropic-messages", "provider": "anthropic", "model": "claude-sonnet-4-5",
                "usage": {"input": 1, "output": 1, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 2,
                          "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0}},
                "stopReason": "stop", "timestamp": 1773476001000 + i,
            })
    context = {
        "now": "2026-03-14T09:26:53+01:00", "timezone": "UTC", "cwd": "/home/dev/project",
        "model": {"provider": "anthropic", "id": "claude-sonnet-4-5", "api": "anthropic-messages"},
        "baseSystemPrompt": "You are an expert assistant.", "messages": messages,
    }
    return stack, context


def time_rules(reps: int) -> tuple[float, str]:
    import forgec.compile.passes.regex as rules_pass
    from forgec.codecs.context import load_context
    from forgec.js.values import dumps_report
    from forgec.report import compile_report

    # the per-compile budget (5 s) would skip rules on a slow tree or a loaded machine and change
    # the output with the clock: lifted so both trees do all the work and print the same report
    rules_pass.REGEX_BUDGET_SECONDS = 600.0

    stack, context_data = rules_inputs()
    context = load_context(context_data)
    first = dumps_report(compile_report(stack, context).to_report())  # compiles the 100 patterns once
    times = []
    for _ in range(reps):
        start = CLOCK()
        compile_report(stack, context).to_report()
        times.append(CLOCK() - start)
    import hashlib

    return min(times), hashlib.sha256(first.encode("utf-8", "surrogatepass")).hexdigest()[:12]


# --- the import workload --------------------------------------------------------------------------


def largest_preset() -> Path:
    presets = sorted(FIXTURES.glob("*.json"), key=lambda p: p.stat().st_size, reverse=True)
    if not presets:
        raise SystemExit(f"no presets in {FIXTURES} (set FORGEC_FIXTURES)")
    return presets[0]


def time_import_convert(reps: int) -> tuple[float, str]:
    from forgec.importers.sillytavern import convert_preset
    from forgec.importers.sillytavern.jsonread import parse_json, read_text
    from forgec.js.values import dumps_report

    path = largest_preset()
    raw = parse_json(read_text(path))
    result = convert_preset(raw, str(path), str(path), 100001, now_ms=0)
    times = []
    for _ in range(reps):
        start = CLOCK()
        convert_preset(raw, str(path), str(path), 100001, now_ms=0)
        times.append(CLOCK() - start)
    import hashlib

    digest = dumps_report({"i": result.import_section(), "f": result.fidelity})
    return min(times), hashlib.sha256(digest.encode("utf-8", "surrogatepass")).hexdigest()[:12]


def time_import_cli(reps: int) -> tuple[float, str]:
    from click.testing import CliRunner

    from forgec.cli import cli

    path = largest_preset()
    runner = CliRunner()
    with tempfile.TemporaryDirectory() as tmp:
        args = ["import-silly", str(path), "100001", "--dry-run", "--format", "json", "--out-dir", tmp]
        first = runner.invoke(cli, args)
        if first.exit_code != 0:
            raise SystemExit(f"import-silly failed: {first.output[:500]}")
        times = []
        for _ in range(reps):
            start = CLOCK()
            runner.invoke(cli, args)
            times.append(CLOCK() - start)
    import hashlib
    import re

    stable = re.sub(r'"convertedAt": "[^"]*"', "", first.output)  # the clock moves between runs
    stable = re.sub(r"Converted at: [^\n]*", "", stable)
    return min(times), hashlib.sha256(stable.encode()).hexdigest()[:12]


ROWS = {"rules": time_rules, "import-convert": time_import_convert, "import-cli": time_import_cli}


def _selected(rows: str) -> list[str]:
    names: list[str] = []
    for row in rows.split(","):
        names.extend(n for n in ROWS if n == row or n.startswith(row + "-"))
    return names


def _compare(trees: str, rows: list[str], rounds: int, reps: int, cpu: bool = False) -> None:
    pairs = [t.split("=", 1) for t in trees.split(",")]
    best: dict[tuple[str, str], float] = {}
    digests: dict[tuple[str, str], str] = {}
    for _ in range(rounds):
        for row in rows:
            for label, tree in pairs:
                env = dict(os.environ, PYTHONPATH=str(Path(tree).resolve()))
                out = subprocess.run(
                    [sys.executable, __file__, "--rows", row, "--reps", str(reps), "--raw", *(["--cpu"] if cpu else [])],
                    env=env, check=True, capture_output=True, text=True, cwd=tempfile.gettempdir(),
                ).stdout.split()
                key = (label, row)
                best[key] = min(best.get(key, float("inf")), float(out[0]))
                digests[key] = out[1]
    clock = "thread CPU time" if cpu else "wall time"
    print(f"load average {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f}; best of {rounds}x{reps} per tree ({clock})")
    for row in rows:
        base = best[(pairs[0][0], row)]
        cells = "  ".join(f"{label} {best[(label, row)] * 1000:8.1f} ms [{digests[(label, row)]}]"
                          for label, _ in pairs)
        ratios = "  ".join(f"{base / best[(label, row)]:.2f}x" for label, _ in pairs[1:])
        print(f"{row:15} {cells}  speed-up {ratios}")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rows", default="rules,import", help="rules, import, import-convert, import-cli")
    parser.add_argument("--reps", type=int, default=7, help="timed repetitions per process (best kept)")
    parser.add_argument("--trees", help="label=path,label=path: compare trees, interleaved")
    parser.add_argument("--rounds", type=int, default=3, help="processes per tree and row with --trees")
    parser.add_argument("--cpu", action="store_true", help="time in thread CPU time, not wall time")
    parser.add_argument("--raw", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--profile", action="store_true", help="print the top functions by own time")
    args = parser.parse_args()
    rows = _selected(args.rows)
    if args.cpu:
        global CLOCK
        CLOCK = time.thread_time
    if args.trees:
        _compare(args.trees, rows, args.rounds, args.reps, args.cpu)
        return
    for row in rows:
        if args.profile:
            import cProfile
            import pstats

            profiler = cProfile.Profile()
            profiler.enable()
            ROWS[row](args.reps)
            profiler.disable()
            pstats.Stats(profiler).sort_stats("tottime").print_stats(30)
            continue
        seconds, digest = ROWS[row](args.reps)
        if args.raw:
            print(seconds, digest)
        else:
            print(f"{row:15} {seconds * 1000:8.1f} ms  output {digest}")


if __name__ == "__main__":
    main()
