"""Context files are read by forgec.source: same guards, FG0xx messages naming file:line:col."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from forgec.codecs.context import CONTEXT_MAX_DEPTH, ContextError, load_context


def _alias_bomb_variables() -> str:
    lines = ["a: &a [x,x,x,x,x,x,x,x,x]"]
    lines += [f"{c}: &{c} [" + ",".join(["*" + p] * 9) + "]" for p, c in zip("abcdefgh", "bcdefghi", strict=True)]
    return "variables:\n" + "".join(f"  {line}\n" for line in lines)


def test_alias_bomb_in_variables_is_refused_quickly(tmp_path: Path) -> None:
    path = tmp_path / "ctx.yaml"
    path.write_text(_alias_bomb_variables(), encoding="utf-8")
    start = time.perf_counter()
    with pytest.raises(ContextError) as caught:
        load_context(path)
    assert time.perf_counter() - start < 2
    assert caught.value.code == "FG006"
    assert str(caught.value).startswith(f"{path}:8:6: FG006 [error] YAML aliases expand to more than")


def test_yaml_errors_name_the_file(tmp_path: Path) -> None:
    path = tmp_path / "ctx.yaml"
    path.write_text("now: 2026-01-01T00:00:00Z\nnow: 2026-01-02T00:00:00Z\n", encoding="utf-8")
    with pytest.raises(ContextError) as caught:
        load_context(path)
    assert str(caught.value) == f"{path}:2:1: FG003 [error] Duplicate YAML key: now"
    assert "<unicode string>" not in str(caught.value)


def test_deep_flow_yaml_context_is_refused_quickly(tmp_path: Path) -> None:
    path = tmp_path / "ctx.yaml"
    path.write_text("variables:\n  a: " + "[" * 5000 + "]" * 5000 + "\n", encoding="utf-8")
    start = time.perf_counter()
    with pytest.raises(ContextError, match=r"ctx\.yaml:2:1006: FG004 \[error\] YAML flow collections"):
        load_context(path)
    assert time.perf_counter() - start < 1


@pytest.mark.parametrize("depth", [CONTEXT_MAX_DEPTH + 10, 3000, 6000])
def test_too_deep_json_context_gives_a_clear_message(tmp_path: Path, depth: int) -> None:
    path = tmp_path / "ctx.json"
    path.write_text('{"variables": {"a": ' + "[" * depth + "]" * depth + "}}", encoding="utf-8")
    with pytest.raises(ContextError) as caught:
        load_context(path)
    message = str(caught.value)
    assert caught.value.code == "FG004" and message.startswith(f"{path}:1:")
    assert "nested deeper than forgec's limit" in message
    assert "recursion" not in message


def test_nesting_up_to_the_limit_is_accepted(tmp_path: Path) -> None:
    depth = CONTEXT_MAX_DEPTH - 3  # the root object and "variables"/"a" count as levels
    path = tmp_path / "ctx.json"
    path.write_text('{"variables": {"a": ' + "[" * depth + "]" * depth + "}}", encoding="utf-8")
    load_context(path)


def test_invalid_utf8_context_reads_as_replacement_characters(tmp_path: Path) -> None:
    path = tmp_path / "ctx.json"
    path.write_bytes(b'{"baseSystemPrompt": "caf\xe9"}')
    assert load_context(path).data["baseSystemPrompt"] == "caf\ufffd"
