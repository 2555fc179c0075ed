"""Cold-start speed of ``forgec validate`` against ``check-jsonschema`` on the same files.

Run: ``.venv/bin/python benchmarks/bench_validate.py`` (``--runs N``, ``--files N``, ``--json``).
``check-jsonschema`` comes with the ``bench`` extra (``pip install -e .[bench]``).

Every measurement is a fresh process, as a pre-commit hook or a CI step runs it:

* **single file** -- ``forgec validate FILE`` and ``check-jsonschema --schemafile
  schemas/prompt-stack.schema.json FILE``, for a plain stack (blocks and slots, no macros) and for a
  stack with macros and regex rules (the storyteller example and a generated one), ``--runs`` times
  each; mean, median and minimum wall-clock time;
* **many files** -- ``--files`` generated stacks in one folder (plain ones, ones with macros and
  regex rules, about one in eight with a loader error or a forgec finding): ``forgec validate DIR``
  against ``check-jsonschema --schemafile … FILE…`` with every file on its command line.

The two tools do not do the same work: check-jsonschema only checks the JSON Schema, forgec runs
pi-forge's loader checks (which include the schema's constraints), its own rules (macro lint, regex
syntax via the V8-parser port) and prints positioned diagnostics.  Files are written to a temporary
folder outside any project, so no ``pyproject.toml`` is read.  Byte-code caches are allowed to be
written (``PYTHONDONTWRITEBYTECODE`` is dropped for the children) and warm-up runs fill them, because
an installed forgec always has them.  Results go to the "Validate" section of docs/performance.md.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SCHEMA = ROOT / "schemas" / "prompt-stack.schema.json"
STORYTELLER = ROOT / "examples" / ".pi" / "forge" / "prompt-stacks" / "storyteller.json"

WORDS = ("the", "reply", "keep", "short", "answer", "user", "code", "review", "tone", "scene", "always",
         "never", "explain", "briefly", "project", "tests", "careful", "story", "chapter", "notes")
SLOTS = ("tools", "tool-guidelines", "project-context", "date-cwd", "skills", "variables")
MACROS = ("{{narrator}}", "{{tone}}", "{{getvar::mood}}", "{{setvar::mood::calm}}", "{{upper::{{tone}}}}",
          "{{ifvar::chapter::Chapter {{getvar::chapter}}.::Opening.}}", "{{date}}", "{{trim:: x }}",
          "{{ifeq::{{getvar::mood}}::calm::Stay calm.::Be lively.}}", "{{setvar::chapter::2}}")
PATTERNS = (
    (r"\s*\(OOC:[^)]*\)", "g", ""),
    (r"<think>[\s\S]*?</think>\n?", "g", ""),
    (r"colou?r", "gi", "colour"),
    (r"Token-(\d+)", "g", "[token $1]"),
    (r"(?<name>[A-Z][a-z]+) said", "g", "$<name> says"),
    (r"\p{Emoji_Presentation}", "gu", ""),
)


def _sentence(rng: random.Random, words: int = 12) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(words)).capitalize() + "."


def make_stack(index: int, rng: random.Random, *, macros: bool, regex: bool, broken: bool) -> dict:
    """A realistic stack: a few system blocks, slots, chat history, optional macros and regex rules."""
    items: list[dict] = []
    for n in range(rng.randint(2, 5)):
        text = " ".join(_sentence(rng) for _ in range(rng.randint(1, 4)))
        if macros:
            text += " " + " ".join(rng.choice(MACROS) for _ in range(rng.randint(1, 4)))
        items.append({"kind": "block", "id": f"block-{n}", "role": "system", "content": text})
    for slot in rng.sample(SLOTS, rng.randint(1, 3)):
        items.append({"kind": "slot", "id": f"slot-{slot}", "role": "system", "slot": slot})
    items.append({"kind": "slot", "id": "history", "slot": "chat-history", "options": {"maxMessages": 40}})
    items.append({"kind": "block", "id": "reminder", "role": "user", "content": _sentence(rng, 8)})
    stack: dict = {
        "schemaVersion": 1,
        "type": "pi-forge.prompt-stack",
        "id": f"stack-{index:04d}",
        "name": f"Stack {index}",
        "mode": "replace",
        "variables": {"narrator": "the Archivist", "tone": "wry", "mood": "calm"},
        "items": items,
    }
    if regex:
        rules = []
        for n, (pattern, flags, replace) in enumerate(rng.sample(PATTERNS, rng.randint(1, 3))):
            rules.append({"id": f"rule-{n}", "stage": rng.choice(("history", "compiled")), "pattern": pattern,
                          "flags": flags, "replace": replace})
        stack["regex"] = {"schemaVersion": 1, "rules": rules}
    if broken:
        kind = (index // 8) % 4
        if kind == 0:
            items[0]["role"] = "narrator"  # invalid role (schema + loader error)
        elif kind == 1:
            items.append(dict(items[0]))  # duplicate item id (loader error, not a schema error)
        elif kind == 2:
            stack.setdefault("regex", {"schemaVersion": 1, "rules": []})["rules"].append(
                {"id": "bad", "stage": "history", "pattern": "(unclosed", "flags": "g", "replace": ""}
            )  # pattern failed to compile (loader error, not a schema error)
        else:
            items[0]["content"] += " {{persona}}"  # SillyTavern macro (forgec warning)
    return stack


def write_files(folder: Path, count: int, seed: int = 11) -> list[Path]:
    rng = random.Random(seed)
    paths = []
    for i in range(count):
        stack = make_stack(i, rng, macros=i % 2 == 0, regex=i % 3 == 0, broken=i % 8 == 7)
        path = folder / f"stack-{i:04d}.json"
        path.write_text(json.dumps(stack, indent=2) + "\n", encoding="utf-8")
        paths.append(path)
    return paths


def _tool(name: str) -> str | None:
    """A console script next to this interpreter (the project's venv), else on PATH."""
    local = Path(sys.executable).with_name(name)
    return str(local) if local.exists() else shutil.which(name)


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["NO_COLOR"] = "1"
    return env


def time_command(argv: list[str], runs: int, warmup: int = 2) -> dict[str, float]:
    """Wall-clock seconds of ``runs`` fresh processes (after ``warmup`` unmeasured ones)."""
    env = _env()
    times = []
    codes = set()
    for i in range(warmup + runs):
        start = time.perf_counter()
        done = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, check=False)
        elapsed = time.perf_counter() - start
        if done.returncode not in (0, 1):
            raise SystemExit(f"{argv[0]} failed ({done.returncode}): {done.stderr.decode(errors='replace')[-500:]}")
        codes.add(done.returncode)
        if i >= warmup:
            times.append(elapsed)
    return {"mean": statistics.fmean(times), "median": statistics.median(times), "min": min(times),
            "exit": float(max(codes))}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=20, help="fresh processes per single-file case (default 20)")
    parser.add_argument("--batch-runs", type=int, default=5, help="fresh processes per many-files case (default 5)")
    parser.add_argument("--files", type=int, default=500, help="files in the many-files case (default 500)")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    args = parser.parse_args()

    forgec, checker = _tool("forgec"), _tool("check-jsonschema")
    if forgec is None:
        raise SystemExit("forgec is not installed in this environment")
    results: list[tuple[str, str, dict[str, float]]] = []
    with tempfile.TemporaryDirectory(prefix="forgec-bench-") as tmp:
        single = Path(tmp) / "single"
        single.mkdir()
        rng = random.Random(3)
        plain = single / "plain.json"
        plain.write_text(json.dumps(make_stack(1, rng, macros=False, regex=False, broken=False), indent=2))
        rich = single / "macros-regex.json"
        rich.write_text(json.dumps(make_stack(2, rng, macros=True, regex=True, broken=False), indent=2))
        story = single / "storyteller.json"
        shutil.copyfile(STORYTELLER, story)
        for label, path in (("plain stack", plain), ("macros + regex (generated)", rich),
                            ("macros + regex (examples/storyteller.json)", story)):
            results.append((label, "forgec validate", time_command([forgec, "validate", str(path)], args.runs)))
            if checker:
                results.append((label, "check-jsonschema",
                                time_command([checker, "--schemafile", str(SCHEMA), str(path)], args.runs)))

        many = Path(tmp) / "many"
        many.mkdir()
        paths = write_files(many, args.files)
        label = f"{args.files} files"
        results.append((label, "forgec validate DIR",
                        time_command([forgec, "validate", str(many)], args.batch_runs, warmup=1)))
        if checker:
            results.append((label, "check-jsonschema FILES",
                            time_command([checker, "--schemafile", str(SCHEMA), *map(str, paths)],
                                         args.batch_runs, warmup=1)))

    if args.json:
        print(json.dumps([{"case": c, "tool": t, **r} for c, t, r in results], indent=2))
        return
    print(f"{'case':<44} {'tool':<24} {'mean':>9} {'median':>9} {'min':>9}")
    for case, tool, r in results:
        print(f"{case:<44} {tool:<24} {r['mean'] * 1000:7.1f}ms {r['median'] * 1000:7.1f}ms {r['min'] * 1000:7.1f}ms")
    if checker is None:
        print("(check-jsonschema not installed: pip install -e .[bench])")


if __name__ == "__main__":
    main()
