"""``forgec fingerprint`` reads files through forgec.source, as ``validate`` and the compiler do."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from forgec.cli.fingerprint import fingerprint

_CASES = Path(__file__).resolve().parents[1] / "conformance" / "cases"
_STACK_CASES = sorted(
    p.parent for p in _CASES.glob("*/expected.json") if (p.parent / "stack.json").is_file()
)[:12]


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(fingerprint, list(args))
    return result.exit_code, result.stdout, result.stderr


def _alias_bomb() -> str:
    lines = ["a: &a [x,x,x,x,x,x,x,x,x]"]
    lines += [f"{c}: &{c} [" + ",".join(["*" + p] * 9) + "]" for p, c in zip("abcdefgh", "bcdefghi", strict=True)]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("case", _STACK_CASES, ids=lambda p: p.name)
def test_stack_fingerprint_is_the_reports_prompt_stack_fingerprint(case: Path) -> None:
    expected = json.loads((case / "expected.json").read_text(encoding="utf-8"))
    wanted = (expected.get("fingerprints") or {}).get("promptStack")
    if wanted is None:
        pytest.skip("no promptStack fingerprint in this case")
    code, out, _ = _run("--as", "stack", str(case / "stack.json"))
    if code == 1:  # a stack the loader refuses is not fingerprinted (it is never used by pi-forge)
        assert expected["validation"]["usable"] is False
        return
    assert code == 0
    assert out.split()[0] == wanted


def test_empty_yaml_is_refused_as_validate_refuses_it(tmp_path: Path) -> None:
    path = tmp_path / "empty.yaml"
    path.write_text("", encoding="utf-8")
    code, out, err = _run(str(path))
    assert (code, out) == (1, "")
    assert f"{path}:1:1: FG124 [error] Prompt stack root must be a JSON object." in err


def test_non_utf8_json_is_read_as_pi_forge_reads_it(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    path.write_bytes(b'{"id": "s", "name": "caf\xe9", "items": []}')
    code, out, err = _run(str(path))
    assert code == 0 and out.startswith("sha256:v1:")
    assert f"{path}:1:25: FG010 [warning]" in err
    same = tmp_path / "t.json"
    same.write_text('{"id": "s", "name": "caf\ufffd", "items": []}', encoding="utf-8")
    assert _run(str(same))[1].split()[0] == out.split()[0]


def test_missing_file_is_a_diagnostic_with_exit_2(tmp_path: Path) -> None:
    path = tmp_path / "nope.json"
    code, out, err = _run(str(path))
    assert code == 2 and out == ""
    assert f"{path}:1:1: FG002 [error] " in err and "ENOENT: no such file or directory" in err
    assert "Errno" not in err


@pytest.mark.parametrize(
    ("text", "line"),
    [("id: a\nitems:\n\t- x\n", 3), ("id: a\nid: b\nitems: []\n", 2)],
    ids=["tab", "duplicate-key"],
)
def test_bad_yaml_is_fg003_not_an_internal_error(tmp_path: Path, text: str, line: int) -> None:
    path = tmp_path / "s.yaml"
    path.write_text(text, encoding="utf-8")
    code, _, err = _run(str(path))
    assert code == 1
    assert f"{path}:{line}:1: FG003 [error] " in err
    assert "internal error" not in err and "<unicode string>" not in err


def test_bom_json_keeps_the_v8_message_and_adds_a_hint(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    path.write_bytes(b'\xef\xbb\xbf{"items": []}')
    code, _, err = _run("--as", "json", str(path))
    assert code == 1
    assert "FG001 [error] Failed to parse JSON: Unexpected token '\ufeff'" in err
    assert f"{path}:1:1: FG009 [info] " in err


def test_alias_bomb_is_refused_quickly(tmp_path: Path) -> None:
    path = tmp_path / "lol.yaml"
    path.write_text(_alias_bomb(), encoding="utf-8")
    start = time.perf_counter()
    code, out, err = _run(str(path))
    assert time.perf_counter() - start < 3
    assert (code, out) == (1, "")
    assert f"{path}:7:4: FG006 [error] YAML aliases expand to more than" in err


def test_deep_flow_yaml_is_refused_quickly(tmp_path: Path) -> None:
    path = tmp_path / "deep.yaml"
    path.write_text("id: x\nitems: " + "[" * 30_000 + "]" * 30_000 + "\n", encoding="utf-8")
    start = time.perf_counter()
    code, _, err = _run(str(path))
    assert time.perf_counter() - start < 3
    assert code == 1
    assert f"{path}:2:1008: FG004 [error] YAML flow collections" in err and "limit of 1000 levels" in err
