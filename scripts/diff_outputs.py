"""Hash several hundred forgec outputs, so an optimisation can prove it changed none of them.

Speed work must keep every output byte-identical (issue 14). Run this on the tree before a change and
on the tree after it, then compare the two files::

    python scripts/diff_outputs.py --out /tmp/before.json      # on the old tree
    python scripts/diff_outputs.py --out /tmp/after.json       # on the new tree
    python scripts/diff_outputs.py --compare /tmp/before.json /tmp/after.json

What is hashed (each entry: a name and the sha256 of the output text, or of the error text):

* ``report:<case>`` — ``dumps_report(compile_report(stack, context, finalize=True, payloads=True))``
  for every stack case of ``tests/conformance/cases`` and ``$FORGEC_SHARED_CASES``, laid out as the
  conformance tests lay them out (the stack file inside ``.pi/forge/prompt-stacks/`` with its
  ``extra-stacks/``), and once more from a plain folder (``plain:<case>``);
* ``stack:<file>`` / ``context:<file>`` — every ``*.json``/``*.yaml``/``*.yml`` under ``tests/`` (and
  each case's inputs) loaded as a stack (diagnostics, normalised stack, fingerprint) and as a
  context (its data and runtime, or the refusal's problems);
* ``import:<file>`` — ``convert_preset`` on every ``preset.json`` of the corpora and every preset in
  ``$FORGEC_FIXTURES`` (stack and report, or the error).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _stack_cases() -> list[Path]:
    roots = [REPO / "tests" / "conformance" / "cases"]
    shared = os.environ.get("FORGEC_SHARED_CASES")
    if shared:
        roots.append(Path(shared))
    return [
        c for root in roots if root.is_dir() for c in sorted(root.iterdir()) if (c / "stack.json").is_file()
    ]


def _lay_out(case: Path, project: Path) -> Path:
    folder = project / ".pi" / "forge" / "prompt-stacks"
    folder.mkdir(parents=True, exist_ok=True)
    extra = case / "extra-stacks"
    if extra.is_dir():
        for file in sorted(extra.glob("*.json")):
            shutil.copyfile(file, folder / file.name)
    meta = (
        json.loads((case / "case.json").read_text(encoding="utf-8")) if (case / "case.json").is_file() else {}
    )
    target = folder / meta.get("stackFile", "stack.json")
    shutil.copyfile(case / "stack.json", target)
    return target


def _guarded(fn: Any) -> str:
    try:
        return str(fn())
    except Exception as exc:  # the refusal is an output too
        return f"{type(exc).__name__}: {exc}"


def _reports(out: dict[str, str], tmp: Path) -> None:
    from forgec import compile_report
    from forgec.js.values import dumps_report

    for case in _stack_cases():
        context = case / "context.json"
        ctx: Any = context if context.is_file() else None
        stack_path = _lay_out(case, tmp / "laid" / case.parent.name / case.name)
        out[f"report:{case.parent.name}/{case.name}"] = _digest(
            _guarded(
                lambda s=stack_path, c=ctx: dumps_report(
                    compile_report(s, c, finalize=True, payloads=True).to_report()
                )
            )
        )
        plain = case / "stack.json"
        out[f"plain:{case.parent.name}/{case.name}"] = _digest(
            _guarded(lambda s=plain, c=ctx: dumps_report(compile_report(s, c, finalize=True).to_report()))
        )


def _data_files() -> list[Path]:
    files: list[Path] = []
    for root in (REPO / "tests", REPO / "examples"):
        for suffix in ("*.json", "*.yaml", "*.yml"):
            files.extend(p for p in root.rglob(suffix) if p.is_file() and p.stat().st_size < 2_000_000)
    return sorted(set(files))


def _loads(out: dict[str, str]) -> None:
    from forgec.codecs.context import ContextError, load_context
    from forgec.js.values import dumps_report
    from forgec.report import load_stack

    for file in _data_files():
        name = str(file.relative_to(REPO))

        def stack_view(file: Path = file) -> str:
            loaded = load_stack(file)
            from forgec.report import _fingerprints

            return dumps_report(
                {
                    "validation": loaded.validation(),
                    "stack": loaded.stack,
                    "fingerprints": _fingerprints(loaded.stack) if isinstance(loaded.stack, dict) else None,
                }
            )

        def context_view(file: Path = file) -> str:
            try:
                ctx = load_context(file)
            except ContextError as exc:
                return "refused: " + json.dumps(getattr(exc, "problems", str(exc)), default=str)
            return dumps_report({"data": ctx.data, "runtime": repr(ctx.runtime())})

        out[f"stack:{name}"] = _digest(_guarded(stack_view))
        out[f"context:{name}"] = _digest(_guarded(context_view))


def _imports(out: dict[str, str]) -> None:
    from forgec.importers.sillytavern import convert_preset
    from forgec.js.json import loads
    from forgec.js.values import dumps_report

    presets = [
        c / "preset.json"
        for root in _case_roots()
        for c in sorted(root.iterdir())
        if (c / "preset.json").is_file()
    ]
    fixtures = os.environ.get("FORGEC_FIXTURES")
    if fixtures and Path(fixtures).is_dir():
        presets.extend(sorted(Path(fixtures).glob("*.json")))
    for preset in presets:

        def view(preset: Path = preset) -> str:
            raw = loads(preset.read_bytes().decode("utf-8"))
            result = convert_preset(raw, preset.name, now_ms=0)
            return dumps_report({"error": result.error} if result.error else result.import_section())

        out[f"import:{preset.parent.name}/{preset.name}"] = _digest(_guarded(view))


def _case_roots() -> list[Path]:
    roots = [REPO / "tests" / "conformance" / "cases"]
    shared = os.environ.get("FORGEC_SHARED_CASES")
    if shared and Path(shared).is_dir():
        roots.append(Path(shared))
    return [r for r in roots if r.is_dir()]


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--out", type=Path, help="write the hashes here (JSON)")
    parser.add_argument(
        "--compare", nargs=2, type=Path, metavar=("BEFORE", "AFTER"), help="compare two hash files"
    )
    parser.add_argument(
        "--repeat",
        type=int,
        default=2,
        help="compile and load everything this many times in one process; a later round that differs "
        "from the first is recorded as KEY#roundN (default 2: the second round runs on warm caches)",
    )
    args = parser.parse_args()
    if args.compare:
        before, after = (json.loads(p.read_text(encoding="utf-8")) for p in args.compare)
        changed = sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))
        for key in changed:
            print(f"differs: {key}")
        print(f"{len(before)} / {len(after)} outputs, {len(changed)} differ")
        return 1 if changed else 0
    if args.out is None:
        parser.error("give --out FILE or --compare BEFORE AFTER")
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    out: dict[str, str] = {}
    with tempfile.TemporaryDirectory() as tmp:
        _reports(out, Path(tmp))
        _loads(out)
        _imports(out)
        for round_ in range(1, args.repeat):  # warm caches (same paths) must give what a first load gave
            again: dict[str, str] = {}
            _reports(again, Path(tmp))
            _loads(again)
            for key, digest in again.items():
                if out.get(key) != digest:
                    out[f"{key}#round{round_ + 1}"] = digest
    args.out.write_text(json.dumps(out, indent=1, sort_keys=True), encoding="utf-8")
    print(f"{len(out)} outputs hashed -> {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
