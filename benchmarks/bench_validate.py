"""Cold-start speed of ``forgec validate`` against ``check-jsonschema`` on the same files.

Run: ``.venv/bin/python benchmarks/bench_validate.py`` (``--runs N``, ``--files N``, ``--json``);
``--project`` times only the 500-file project (below), ``--cold`` only a cold ``forgec validate
FILE`` (with and without the cache), ``--base DIR`` times a second source tree (``git worktree add
/tmp/base <commit>``) interleaved with this one, run for run, in either.
``check-jsonschema`` comes with the ``bench`` extra (``pip install -e .[bench]``).

Every measurement is a fresh process, as a pre-commit hook or a CI step runs it:

* **single file** -- ``forgec validate FILE`` and ``check-jsonschema --schemafile
  schemas/prompt-stack.schema.json FILE``, for a plain stack (blocks and slots, no macros) and for a
  stack with macros and regex rules (the storyteller example and a generated one), ``--runs`` times
  each; mean, median and minimum wall-clock time;
* **many files** -- ``--files`` generated stacks in one folder (plain ones, ones with macros and
  regex rules, about one in eight with a loader error or a forgec finding): ``forgec validate DIR``
  against ``check-jsonschema --schemafile … FILE…`` with every file on its command line;
* **a project** -- ``--files`` files laid out as a Pi project (:func:`write_project`): stacks in JSON
  and YAML in ``.pi/forge/prompt-stacks/``, agent profiles naming them, ``.pi/forge/config.json`` and
  a ``contexts/`` folder, about one in eight with a mistake.  ``forgec validate . contexts`` run from
  the project root three ways: ``--no-cache`` (every file read and checked), *warm* (the on-disk
  cache of the previous run, nothing changed) and *one edit* (one stack touched before each run,
  so its folder group is checked again); against one ``check-jsonschema`` process per schema (stacks,
  profiles, config, contexts), summed.

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


def _yaml(value: object, indent: int = 0) -> str:
    """Block-style YAML for the generated stacks (scalars as JSON, which YAML reads the same)."""
    pad = " " * indent
    if isinstance(value, dict):
        out = []
        for key, item in value.items():
            if isinstance(item, (dict, list)) and item:
                out.append(f"{pad}{key}:\n{_yaml(item, indent + 2)}")
            else:
                out.append(f"{pad}{key}: {json.dumps(item)}\n")
        return "".join(out)
    if isinstance(value, list):
        out = []
        for item in value:
            text = _yaml(item, indent + 2) if isinstance(item, (dict, list)) and item else f"{pad}  {json.dumps(item)}\n"
            out.append(f"{pad}- {text.lstrip()}")
        return "".join(out)
    return f"{pad}{json.dumps(value)}\n"


def write_project(root: Path, count: int, seed: int = 17) -> dict[str, list[Path]]:
    """A Pi project of ``count`` files: 76 % stacks (a third of them YAML), 12 % agent profiles
    naming them, ``.pi/forge/config.json`` and the rest contexts; about one in eight has a mistake
    (loader errors and forgec findings in stacks, a missing stack or a bad thinking level in a
    profile, an assistant turn without ``usage`` in a context)."""
    rng = random.Random(seed)
    stacks_dir = root / ".pi" / "forge" / "prompt-stacks"
    profiles_dir = root / ".pi" / "forge" / "agent-profiles"
    contexts_dir = root / "contexts"
    for folder in (stacks_dir, profiles_dir, contexts_dir):
        folder.mkdir(parents=True, exist_ok=True)
    n_stacks = count * 76 // 100
    n_profiles = count * 12 // 100
    n_contexts = max(count - n_stacks - n_profiles - 1, 0)
    files: dict[str, list[Path]] = {"stack": [], "profile": [], "config": [], "context": []}
    for i in range(n_stacks):
        stack = make_stack(i, rng, macros=i % 2 == 0, regex=i % 3 == 0, broken=i % 8 == 7)
        if i % 3 == 1:
            path = stacks_dir / f"stack-{i:04d}.yaml"
            path.write_text(f"# generated stack {i}\n" + _yaml(stack), encoding="utf-8")
        else:
            path = stacks_dir / f"stack-{i:04d}.json"
            path.write_text(json.dumps(stack, indent=2) + "\n", encoding="utf-8")
        files["stack"].append(path)
    for i in range(n_profiles):
        profile = {"schemaVersion": 1, "type": "pi-forge.agent-profile", "id": f"agent-{i:03d}",
                   "name": f"Agent {i}", "description": "A generated profile.",
                   "model": {"provider": "anthropic", "id": "claude-sonnet-4-5"},
                   "thinkingLevel": rng.choice(("off", "low", "high")), "promptStack": f"stack-{i:04d}"}
        if i % 8 == 7:
            profile["promptStack" if i % 16 == 7 else "thinkingLevel"] = "no-such-stack" if i % 16 == 7 else "extreme"
        path = profiles_dir / f"agent-{i:03d}.json"
        path.write_text(json.dumps(profile, indent=2) + "\n", encoding="utf-8")
        files["profile"].append(path)
    config = root / ".pi" / "forge" / "config.json"
    config.write_text(json.dumps({"subagents": {"timeoutMs": 90000}}, indent=2) + "\n", encoding="utf-8")
    files["config"].append(config)
    example = (ROOT / "examples" / "contexts" / "coding-session.yaml").read_text(encoding="utf-8")
    for i in range(n_contexts):
        text = example.replace("2026-03-14T09:26:53", f"2026-03-{1 + i % 28:02d}T09:{i % 60:02d}:53")
        if i % 8 == 7:
            text = text.replace("    usage: {", "    cost: {", 1)  # an assistant turn without usage
        path = contexts_dir / f"session-{i:03d}.yaml"
        path.write_text(text, encoding="utf-8")
        files["context"].append(path)
    return files


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


def _python_env(tree: Path | None) -> dict[str, str]:
    env = _env()
    if tree is not None:
        env["PYTHONPATH"] = str(tree)  # the other tree's forgec first on sys.path
    return env


def time_interleaved(cases: list[tuple[str, list[str], dict[str, str], Path]], runs: int, warmup: int = 1,
                     before: dict[str, object] | None = None) -> dict[str, dict[str, float]]:
    """Like :func:`time_command` for several commands at once, run for run in turn (a loaded machine's
    drift hits every case alike).  ``before[label]()`` runs (untimed) before each run of that case."""
    times: dict[str, list[float]] = {label: [] for label, *_ in cases}
    codes: dict[str, set[int]] = {label: set() for label, *_ in cases}
    for i in range(warmup + runs):
        for label, argv, env, cwd in cases:
            hook = (before or {}).get(label)
            if callable(hook):
                hook()
            start = time.perf_counter()
            done = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, cwd=cwd,
                                  check=False)
            elapsed = time.perf_counter() - start
            if done.returncode not in (0, 1):
                raise SystemExit(f"{label} failed ({done.returncode}): {done.stderr.decode(errors='replace')[-500:]}")
            codes[label].add(done.returncode)
            if i >= warmup:
                times[label].append(elapsed)
    return {label: {"mean": statistics.fmean(t), "median": statistics.median(t), "min": min(t),
                    "exit": float(max(codes[label]))} for label, t in times.items()}


def project_results(tmp: Path, count: int, runs: int, base: Path | None) -> list[tuple[str, str, dict[str, float]]]:
    """The project case: ``forgec validate . contexts`` cold (``--no-cache``), warm and after one
    edit, this tree (and ``base``'s after the same edits, from a cache folder of its own), against
    check-jsonschema."""
    root = tmp / "project"
    files = write_project(root, count)
    here = ROOT if base is None else None
    python = sys.executable
    argv = [python, "-m", "forgec", "validate", ".", "contexts"]
    edited = iter(range(10**6))

    def touch_one() -> None:
        path = files["stack"][next(edited) % len(files["stack"])]
        path.write_text(path.read_text(encoding="utf-8") + "\n", encoding="utf-8")

    cases = [("forgec --no-cache", [*argv, "--no-cache"], _python_env(here), root),
             ("forgec warm cache", argv, _python_env(here), root),
             ("forgec warm, one file edited", argv, _python_env(here), root)]
    if base is not None:
        cases = [(f"{label} (this tree)", a, _python_env(ROOT), cwd) for label, a, _, cwd in cases]
        # a cache folder of its own: the cache keys a source checkout by its files' state, so two trees
        # of one version sharing the project's .forgec_cache would evict each other's results every run;
        # each round's edit (before this tree's one-edit case) is new to it, so it compares with that case
        cases.append(("forgec warm, one file edited (base tree)", argv,
                      {**_python_env(base), "FORGEC_CACHE_DIR": str(tmp / "base-cache")}, root))  # fmt: skip
    checker = _tool("check-jsonschema")
    schemas = {"stack": "prompt-stack", "profile": "agent-profile", "config": "forge-config", "context": "context"}
    parts = [(f"check-jsonschema {kind}", [checker, "--schemafile", str(ROOT / "schemas" / f"{schemas[kind]}.schema.json"),
              *map(str, paths)], _env(), root) for kind, paths in files.items() if paths] if checker else []  # fmt: skip
    hooks: dict[str, object] = {label: touch_one for label, *_ in cases if "one file" in label}
    measured = time_interleaved(cases + parts, runs, warmup=1, before=hooks)  # all in one loop, run for run
    label = f"project, {count} files"
    out = [(label, name, r) for name, r in measured.items() if not name.startswith("check-jsonschema")]
    if parts:
        each = [measured[name] for name, *_ in parts]
        total = {key: sum(r[key] for r in each) for key in ("mean", "median", "min")}
        out.append((label, "check-jsonschema (4 schemas, summed)", {**total, "exit": 0.0}))
    return out


def cold_results(tmp: Path, runs: int, base: Path | None) -> list[tuple[str, str, dict[str, float]]]:
    """Cold ``forgec validate FILE`` (the storyteller example, outside any project): this tree with
    its cache (answered from it after the warm-up run) and with ``--no-cache``, and ``base``'s tree,
    run for run in turn; byte code compiled by the warm-up runs."""
    folder = tmp / "cold"
    folder.mkdir()
    story = folder / "storyteller.json"
    shutil.copyfile(STORYTELLER, story)
    past = time.time() - 3600
    os.utime(story, (past, past))
    argv = [sys.executable, "-m", "forgec", "validate", str(story)]
    cases = [("forgec validate FILE (cache)", argv, _python_env(ROOT), folder),
             ("forgec validate FILE --no-cache", [*argv, "--no-cache"], _python_env(ROOT), folder)]
    if base is not None:
        cases.append(("forgec validate FILE (base tree)", argv, _python_env(base), folder))
    return [("cold single file", name, r) for name, r in time_interleaved(cases, runs, warmup=2).items()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=20, help="fresh processes per single-file case (default 20)")
    parser.add_argument("--batch-runs", type=int, default=5, help="fresh processes per many-files case (default 5)")
    parser.add_argument("--files", type=int, default=500, help="files in the many-files case (default 500)")
    parser.add_argument("--json", action="store_true", help="print the results as JSON")
    parser.add_argument("--project", action="store_true", help="only the project case (cold, warm, one edit)")
    parser.add_argument("--base", type=Path, help="a second source tree to time side by side (project case)")
    parser.add_argument("--cold", action="store_true", help="only cold `forgec validate FILE` (--runs, --base)")
    args = parser.parse_args()
    if args.cold:
        with tempfile.TemporaryDirectory(prefix="forgec-bench-") as tmp:
            _print(cold_results(Path(tmp), args.runs, args.base), args.json)
        print(f"load average: {os.getloadavg()}")
        return
    if args.project:
        with tempfile.TemporaryDirectory(prefix="forgec-bench-") as tmp:
            _print(project_results(Path(tmp), args.files, args.batch_runs, args.base), args.json)
        print(f"load average: {os.getloadavg()}")
        return

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

    _print(results, args.json)
    if checker is None:
        print("(check-jsonschema not installed: pip install -e .[bench])")


def _print(results: list[tuple[str, str, dict[str, float]]], as_json: bool) -> None:
    if as_json:
        print(json.dumps([{"case": c, "tool": t, **r} for c, t, r in results], indent=2))
        return
    print(f"{'case':<44} {'tool':<40} {'mean':>9} {'median':>9} {'min':>9}")
    for case, tool, r in results:
        print(f"{case:<44} {tool:<40} {r['mean'] * 1000:7.1f}ms {r['median'] * 1000:7.1f}ms {r['min'] * 1000:7.1f}ms")


if __name__ == "__main__":
    main()
