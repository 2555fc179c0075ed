"""JSON documents on standard output: ``compile --target all`` keeps each body's key order exactly as
the single target prints it, and ``import-silly --format json`` lists the files it wrote.
"""

from __future__ import annotations

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CASES = ROOT / "tests" / "conformance" / "cases"


def test_compile_all_keeps_each_body_key_order(run) -> None:
    case = CASES / "payload-thinking-medium"
    args = ("compile", str(case / "stack.json"), "--context", str(case / "context.json"))
    everything = json.loads(run(*args, "--target", "all").stdout, object_pairs_hook=list)
    outer = [key for key, _ in everything]
    assert outer == sorted(outer)
    for api, entry in everything:
        body = dict(entry).get("body")
        if body is None:
            continue
        single = json.loads(run(*args, "--target", api).stdout, object_pairs_hook=list)
        assert [k for k, _ in body] == [k for k, _ in single]


def test_import_silly_json_lists_written_files(run, tmp_path: Path) -> None:
    preset = CASES / "import-storyteller-preset" / "preset.json"
    dry = json.loads(run("import-silly", str(preset), "--dry-run", "--format", "json",
                         "--report-format", "json").stdout)
    assert set(dry) == {"import", "fidelity"} and dry["fidelity"]["entries"]
    done = run("import-silly", str(preset), "--format", "json", "--report-format", "json")
    assert done.exit_code == 0
    doc = json.loads(done.stdout)
    assert set(doc) == {"import", "fidelity", "written"}
    assert set(doc["import"]) == {"stack", "report"}
    assert all(Path(p).is_file() and Path(p).is_absolute() for p in doc["written"])
    assert [Path(p).name for p in doc["written"]] == ["preset.json", "preset.md", "preset.fidelity.json"]
