"""Hash every output of ``forgec import-silly``, so an importer optimisation can prove it changed none.

``scripts/diff_outputs.py`` hashes ``convert_preset``'s stack and report; this script adds what the
command prints and writes on top of that: the fidelity document, the fidelity Markdown, the JSON and
text output of dry runs, and the files a real import writes (stack, report with forgec's section,
``<id>.fidelity.json``), for every preset of the corpora, ``tests/importers/data`` and
``$FORGEC_FIXTURES``, under several options and character ids. The clock is frozen
(``SOURCE_DATE_EPOCH``) and the output folder has a fixed name, so two trees print the same text::

    PYTHONPATH=/tmp/base python scripts/diff_imports.py --out /tmp/before.json   # the old tree
    python scripts/diff_imports.py --out /tmp/after.json                         # the new tree
    python scripts/diff_imports.py --compare /tmp/before.json /tmp/after.json
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

REPO = Path(__file__).resolve().parent.parent
OUT_DIR = Path(tempfile.gettempdir()) / "forgec-diff-imports"
#: presets are copied here first: the report names the preset's path, which must not depend on the tree
IN_DIR = Path(tempfile.gettempdir()) / "forgec-diff-imports-in"

#: option sets per preset; each also runs with no CHARACTER_ID and with 100000 / 100001
OPTIONS: tuple[tuple[str, ...], ...] = (
    ("--dry-run", "--format", "json"),
    ("--dry-run", "--format", "json", "--report-format", "json"),
    ("--dry-run", "--format", "text"),
    ("--dry-run", "--format", "text", "--report-format", "json"),
    ("--dry-run", "--format", "text", "--pi-forge-report"),
    ("--format", "json", "--report-format", "json", "--overwrite"),
    ("--format", "text", "--overwrite"),
)
CHARACTERS: tuple[tuple[str, ...], ...] = ((), ("100000",), ("100001",))


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _presets() -> list[Path]:
    roots = [REPO / "tests" / "conformance" / "cases"]
    shared = os.environ.get("FORGEC_SHARED_CASES")
    if shared and Path(shared).is_dir():
        roots.append(Path(shared))
    found = [c / "preset.json" for root in roots for c in sorted(root.iterdir()) if (c / "preset.json").is_file()]
    found += sorted((REPO / "tests" / "importers" / "data").glob("*.json"))
    fixtures = os.environ.get("FORGEC_FIXTURES")
    if fixtures and Path(fixtures).is_dir():
        found += sorted(Path(fixtures).glob("*.json"))
    return found


def _library(preset: Path, out: dict[str, str]) -> None:
    """``convert_preset``'s fidelity document and forgec's Markdown section for it."""
    from forgec.importers.sillytavern import convert_preset
    from forgec.importers.sillytavern.fidelity import fidelity_markdown
    from forgec.js.json import loads
    from forgec.js.values import UNDEFINED, dumps_report

    try:
        raw = loads(preset.read_bytes().decode("utf-8", "replace"))
    except Exception as exc:  # a refusal is an output too
        out[f"lib:{preset.parent.name}/{preset.name}"] = _digest(f"parse: {exc}")
        return
    for character in (UNDEFINED, 100000, 100001):
        result = convert_preset(raw, preset.name, now_ms=0, character_id=character)
        key = f"lib:{preset.parent.name}/{preset.name}:{character}"
        if result.fidelity is None:
            out[key] = _digest(f"error: {result.error}")
            continue
        text = dumps_report(result.fidelity) + fidelity_markdown(result.fidelity, stack_path="x/y.json")
        out[key] = _digest(text + dumps_report(result.import_section()))


def _cli(preset: Path, out: dict[str, str]) -> None:
    from click.testing import CliRunner

    from forgec.cli import cli

    runner = CliRunner()
    for character in CHARACTERS:
        for options in OPTIONS:
            shutil.rmtree(OUT_DIR, ignore_errors=True)
            OUT_DIR.mkdir(parents=True)
            args = ["import-silly", str(preset), *character, *options, "--out-dir", str(OUT_DIR), "--id", "stack"]
            result = runner.invoke(cli, args)
            written = sorted(p for p in OUT_DIR.rglob("*") if p.is_file())
            files = "".join(f"\n== {p.relative_to(OUT_DIR)}\n" + p.read_text("utf-8", "surrogateescape") for p in written)
            text = f"exit {result.exit_code}\n{result.stdout}\n--stderr--\n{result.stderr}{files}"
            if result.exception is not None and not isinstance(result.exception, SystemExit):
                text += f"\nexception {type(result.exception).__name__}: {result.exception}"
            out[f"cli:{preset.parent.name}/{preset.name}:{' '.join(character + options)}"] = _digest(text)


def collect() -> dict[str, str]:
    os.environ["SOURCE_DATE_EPOCH"] = "1700000000"
    out: dict[str, str] = {}
    shutil.rmtree(IN_DIR, ignore_errors=True)
    for preset in _presets():
        copy = IN_DIR / preset.parent.name / preset.name
        copy.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(preset, copy)
        _library(copy, out)
        _cli(copy, out)
    shutil.rmtree(OUT_DIR, ignore_errors=True)
    shutil.rmtree(IN_DIR, ignore_errors=True)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--out", type=Path, help="write the hashes here (JSON)")
    parser.add_argument("--compare", nargs=2, type=Path, metavar=("BEFORE", "AFTER"))
    args = parser.parse_args()
    if args.compare:
        before, after = (json.loads(p.read_text()) for p in args.compare)
        differ = sorted(k for k in before.keys() | after.keys() if before.get(k) != after.get(k))
        for key in differ:
            print(f"differs: {key}")
        print(f"{len(differ)} of {len(before.keys() | after.keys())} differ")
        return 1 if differ else 0
    hashes = collect()
    text = json.dumps(hashes, indent=1, sort_keys=True)
    if args.out:
        args.out.write_text(text)
    print(f"{len(hashes)} outputs hashed", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
