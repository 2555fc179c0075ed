"""Hash several hundred ``forgec validate`` outputs, so a change to validate (its cache, a faster
path) can prove it changed none of them.

Run it on the tree before a change and on the tree after it, then compare::

    PYTHONPATH=/tmp/base python scripts/diff_validate.py --out /tmp/before.json   # the old tree
    python scripts/diff_validate.py --out /tmp/after.json                          # the new tree
    python scripts/diff_validate.py --compare /tmp/before.json /tmp/after.json

Each entry is a run of ``forgec validate`` in process (standard output, standard error and the exit
code, hashed) under one folder layout and one format (full, concise, json), for:

* ``project500`` -- the 500-file Pi project of ``benchmarks/bench_validate.py`` (stacks in JSON and
  YAML, profiles, a forge config, contexts, one in eight with a mistake): ``. contexts``, one stack
  file, the contexts folder;
* ``examples`` -- a copy of ``examples/``: the project, ``broken/typos.yaml``, the contexts, with its
  model catalog;
* ``case:<name>`` -- every stack case of ``$FORGEC_SHARED_CASES`` and ``tests/conformance/cases``, its
  stack in a project stack folder (with ``extra-stacks/``) and its context beside it;
* ``agents:<name>`` -- every case of ``$FORGEC_SHARED_AGENT_CASES``: the project (no PATH) with the
  case's global folder as the user-global one.

A tree whose ``validate`` has a cache is run three times -- ``--no-cache``, then with an empty cache,
then with the cache that run filled -- and the three must agree (else the script says which differ
and exits 1); the ``--no-cache`` hashes are the ones written.  Every layout is rebuilt at the same
place (``/tmp/forgec-diff-validate``), so absolute paths in messages agree between trees.

``--click-free`` (a tree with ``forgec.cli._fast``): the console script's click-free ``validate``
runs every command line it claims -- all of them here -- although standard output is a buffer
(which it otherwise leaves to click); the script says how many runs went that way.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import io
import json
import os
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WORK = Path("/tmp/forgec-diff-validate")
FORMATS = ("full", "concise", "json")


def _layouts() -> Iterator[tuple[str, Path, list[list[str]], dict[str, str]]]:
    """(name, folder to run in, PATH lists, extra environment) -- each folder freshly built."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from bench_validate import write_project

    folder = WORK / "project500"
    write_project(folder, 500)
    yield "project500", folder, [[".", "contexts"], [".pi/forge/prompt-stacks/stack-0003.json"], ["contexts"]], {}
    folder = WORK / "examples"
    shutil.copytree(ROOT / "examples", folder)
    yield "examples", folder, [[], ["broken/typos.yaml"], ["contexts"], [".", "--models", ".pi/forge/models.yaml"]], {}
    roots = [Path(p) for p in (os.environ.get("FORGEC_SHARED_CASES"), str(ROOT / "tests/conformance/cases")) if p]
    for root in roots:
        for case in sorted(p for p in root.iterdir() if (p / "stack.json").is_file()) if root.is_dir() else []:
            folder = WORK / "cases" / f"{root.name}-{case.name}"
            stacks = folder / ".pi/forge/prompt-stacks"
            stacks.mkdir(parents=True)
            shutil.copyfile(case / "stack.json", stacks / "stack.json")
            if (case / "extra-stacks").is_dir():
                for extra in (case / "extra-stacks").iterdir():
                    shutil.copyfile(extra, stacks / extra.name)
            paths = [[".pi/forge/prompt-stacks/stack.json"], ["."]]
            for name in ("context.json", "context.yaml"):
                if (case / name).is_file():
                    shutil.copyfile(case / name, folder / name)
                    paths.append([name])
            yield f"case:{root.name}/{case.name}", folder, paths, {}
    agents = os.environ.get("FORGEC_SHARED_AGENT_CASES")
    if agents and Path(agents).is_dir():
        for case in sorted(p for p in Path(agents).iterdir() if (p / "project").is_dir()):
            folder = WORK / "agents" / case.name
            shutil.copytree(case, folder)
            (folder / "project" / ".pi" / "forge").mkdir(parents=True, exist_ok=True)
            env = {"PI_FORGE_GLOBAL_DIR": str(folder / "global")}
            yield f"agents:{case.name}", folder / "project", [[], ["."]], env


def _run(args: list[str], cwd: Path, env: dict[str, str]) -> str:
    from forgec.cli import main

    out, err = io.StringIO(), io.StringIO()
    saved = dict(os.environ)
    here = Path.cwd()
    os.environ.update(env)
    os.chdir(cwd)
    code: object = 0
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                main(["validate", *args])
            except SystemExit as exc:
                code = exc.code
    finally:
        os.chdir(here)
        os.environ.clear()
        os.environ.update(saved)
    return hashlib.sha256(f"{code}\n{out.getvalue()}\n--\n{err.getvalue()}".encode("utf-8", "surrogatepass")).hexdigest()


def collect() -> tuple[dict[str, str], list[str]]:
    import forgec.cli.validate as validate_module

    has_cache = any("--no-cache" in p.opts for p in validate_module.validate.params)
    shutil.rmtree(WORK, ignore_errors=True)
    WORK.mkdir(parents=True)
    os.environ["NO_COLOR"] = "1"
    os.environ.pop("FORGEC_NO_CACHE", None)
    hashes: dict[str, str] = {}
    problems: list[str] = []
    for name, folder, path_lists, env in _layouts():
        for paths in path_lists:
            for fmt in FORMATS:
                key = f"{name} [{' '.join(paths)}] {fmt}"
                args = [*paths, "--format", fmt]
                if not has_cache:
                    hashes[key] = _run(args, folder, env)
                    continue
                cache = {**env, "FORGEC_CACHE_DIR": str(WORK / "cache" / name.replace("/", "_"))}
                fresh = _run([*args, "--no-cache"], folder, env)
                filled = _run(args, folder, cache)
                warm = _run(args, folder, cache)
                hashes[key] = fresh
                if not fresh == filled == warm:
                    problems.append(f"{key}: --no-cache {fresh[:10]}, empty cache {filled[:10]}, warm {warm[:10]}")
    return hashes, problems


_CLICK_FREE = [0]


def _force_click_free() -> None:
    """Let the click-free path take in-process runs (their standard streams are buffers), and count them."""
    import forgec.cli._echo as echo
    import forgec.cli._fast as fast

    parse = fast.parse_plain_validate
    echo.plain_streams = lambda: True  # type: ignore[assignment]

    def counted(words: list[str]) -> object:
        options = parse(words)
        _CLICK_FREE[0] += options is not None
        return options

    fast.parse_plain_validate = counted  # type: ignore[assignment]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, help="write the hashes here (JSON)")
    parser.add_argument("--compare", nargs=2, type=Path, metavar=("BEFORE", "AFTER"))
    parser.add_argument("--click-free", action="store_true",
                        help="run the plain command lines through the click-free path (forgec.cli._fast)")
    args = parser.parse_args()
    if args.click_free:
        _force_click_free()
    if args.compare:
        before, after = (json.loads(p.read_text()) for p in args.compare)
        differ = sorted(k for k in before.keys() & after.keys() if before[k] != after[k])
        missing = sorted(before.keys() ^ after.keys())
        for key in differ:
            print(f"differs: {key}")
        for key in missing:
            print(f"only in one: {key}")
        print(f"{len(before.keys() & after.keys())} compared, {len(differ)} differ, {len(missing)} in one only")
        sys.exit(1 if differ or missing else 0)
    hashes, problems = collect()
    for line in problems:
        print(f"cache differs: {line}")
    print(f"{len(hashes)} outputs hashed, {len(problems)} where the cache changed the output")
    if args.click_free:
        print(f"{_CLICK_FREE[0]} runs took the click-free path")
    if args.out:
        args.out.write_text(json.dumps(hashes, indent=1, sort_keys=True) + "\n")
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
