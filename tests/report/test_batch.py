"""forgec.batch: the same reports as compile_report, with inputs loaded once per run."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

from forgec.batch import Batch
from forgec.codecs.context import load_context
from forgec.js.values import dumps_report
from forgec.report import _path_text, compile_report

CASES = Path(__file__).resolve().parents[1] / "conformance" / "cases"
STACK_CASES = sorted(c for c in CASES.iterdir() if (c / "stack.json").is_file() and (c / "context.json").is_file())


def _report(result: object) -> str:
    return dumps_report(result.to_report())  # type: ignore[attr-defined]


def test_one_context_many_stacks_gives_compile_reports() -> None:
    context = CASES / "slot-tools-xml" / "context.json"
    stacks = [case / "stack.json" for case in STACK_CASES]
    results = list(Batch(finalize=True).stacks(stacks, context))
    assert len(results) == len(stacks)
    for stack, result in zip(stacks, results, strict=True):
        assert _report(result) == _report(compile_report(stack, context, finalize=True))


def test_one_stack_many_contexts_gives_compile_reports() -> None:
    stack = CASES / "regex-history-roles" / "stack.json"
    contexts = [case / "context.json" for case in STACK_CASES]
    results = list(Batch(payloads=True).contexts(stack, contexts))
    for context, result in zip(contexts, results, strict=True):
        assert _report(result) == _report(compile_report(stack, context, payloads=True))
    assert all(r.loaded is results[0].loaded for r in results)  # loaded once


def test_a_stack_in_a_stack_folder_keeps_its_other_files(tmp_path: Path) -> None:
    case = CASES / "loader-duplicate-stack-ids"
    folder = tmp_path / ".pi" / "forge" / "prompt-stacks"
    folder.mkdir(parents=True)
    for extra in (case / "extra-stacks").glob("*.json"):
        shutil.copyfile(extra, folder / extra.name)
    shutil.copyfile(case / "stack.json", folder / "stack.json")
    [result] = Batch().contexts(folder / "stack.json", [case / "context.json"])
    report = result.to_report()
    assert report["validation"]["otherFiles"]
    assert report == compile_report(folder / "stack.json", case / "context.json").to_report()


def test_a_context_file_is_read_once_per_batch(tmp_path: Path) -> None:
    path = tmp_path / "context.json"
    data = json.loads((CASES / "slot-date-cwd" / "context.json").read_text(encoding="utf-8"))
    path.write_text(json.dumps(data), encoding="utf-8")
    batch = Batch()
    stack = CASES / "slot-date-cwd" / "stack.json"
    first = _report(batch.compile(stack, path))
    path.write_text(json.dumps(dict(data, cwd="/somewhere/else")), encoding="utf-8")
    assert _report(batch.compile(stack, path)) == first  # the run's snapshot of the file
    assert _report(Batch().compile(stack, path)) != first  # a new run reads it again
    assert batch.context(path) is batch.context(str(path))
    loaded = load_context(path)
    assert batch.context(loaded) is loaded


def test_path_text_is_str_of_path() -> None:
    rng = random.Random(22)
    parts = ["a", ".", "..", "", "b.json", "//", "/", "x y", ".pi", "prompt-stacks"]
    for _ in range(20_000):
        text = "".join(rng.choice([*parts, "/", "/"]) for _ in range(rng.randint(1, 7)))
        assert _path_text(text) == str(Path(text)), text
        assert _path_text(Path(text)) == str(Path(text))


def test_path_text_edge_spellings() -> None:
    """The substring tests against ``str(Path(text))`` on the spellings a regular expression got
    wrong most easily: a line break before the end, the root, a lone dot, two leading slashes."""
    for text in ["a/\n", "a/.\n", ".", "/", "/.", "//", "//a", "///a", "./a", "a/.", "a/./b", "a/", "a//b",
                 "..", "../a", "a/..", ".a", "a.", "a./", "/a/b.json", "x y/.pi/prompt-stacks/s.json", "\n", "a\n/"]:
        assert _path_text(text) == str(Path(text)), repr(text)
