"""Reading a preset file and naming its output (import-regex.md C1, C8, E2, E15b, E17).

Texts are quoted from the spec; ``<path>`` is the path given to ``import_preset``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from forgec.errors import InputError
from forgec.importers.sillytavern import convert_preset, import_preset

PRESET = (
    b'{"prompts":[{"identifier":"a","role":"system","content":"x"}],'
    b'"prompt_order":[{"character_id":1,"order":[{"identifier":"a","enabled":true}]}]}'
)


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b"", "Unexpected end of JSON input"),
        (b'{"a":', "Unexpected end of JSON input"),
        (b"{'a':1}", "Expected property name or '}' in JSON at position 1"),
        (b'{"a":1,}', "Expected double-quoted property name in JSON at position 7"),
        (b'{"a" 1}', "Expected ':' after property name in JSON at position 5"),
        (b'{"a":1 "b"}', "Expected ',' or '}' after property value in JSON at position 7"),
        (b"[1 2]", "Expected ',' or ']' after array element in JSON at position 3"),
        (b'{"a":1}{"b":2}', "Unexpected non-whitespace character after JSON at position 7"),
        (b'"abc', "Unterminated string in JSON at position 4"),
        (b'{"a":"x\ny"}', "Bad control character in string literal in JSON at position 7"),
        (b'{"a":"\\x"}', "Bad escaped character in JSON at position 7"),
        (b'{"a":01}', "Unexpected number in JSON at position 6"),
        (b'{"a": -Infinity}', "No number after minus sign in JSON at position 7"),
        (b"1e", "Exponent part is missing a number in JSON at position 2"),
        (b"1.", "Unterminated fractional number in JSON at position 2"),
        (b"not json {", "Unexpected token 'o', \"not json {\" is not valid JSON"),
        (b'{"a":tru}', "Unexpected token '}', \"{\"a\":tru}\" is not valid JSON"),
        ('{"😀":1,}'.encode(), "Expected double-quoted property name in JSON at position 8"),
        (b'\xef\xbb\xbf{"prompts":[]}', "Unexpected token '\ufeff', \"\ufeff{\"prompts\":[]}\" is not valid JSON"),
        (b"[1," + b" " * 12 + b"x" + b" " * 9 + b"]", "Unexpected token 'x', ...\"          x         \"... is not valid JSON"),
    ],
)  # fmt: skip
def test_parse_errors(tmp_path: Path, data: bytes, reason: str) -> None:
    path = tmp_path / "p.json"
    path.write_bytes(data)
    assert import_preset(path).error == f"Failed to read or parse {path}: {reason}"


def test_read_errors(tmp_path: Path) -> None:
    # no preset at all is the caller's mistake: raised, with pi-forge's text
    missing = tmp_path / "missing.json"
    with pytest.raises(InputError) as caught:
        import_preset(missing)
    assert str(caught.value) == f"Failed to read or parse {missing}: ENOENT: no such file or directory, open '{missing}'"
    with pytest.raises(InputError) as caught:
        import_preset(tmp_path)
    assert str(caught.value) == f"Failed to read or parse {tmp_path}: EISDIR: illegal operation on a directory, read"


@pytest.mark.parametrize("data", [b"[]", b"null", b'"s"', b"5", b"true"])
def test_root_must_be_an_object(tmp_path: Path, data: bytes) -> None:
    path = tmp_path / "p.json"
    path.write_bytes(data)
    assert import_preset(path).error == "Preset root must be a JSON object."


def test_invalid_utf8_becomes_replacement_characters(tmp_path: Path) -> None:
    path = tmp_path / "p.json"
    path.write_bytes(PRESET.replace(b'"x"', b'"\xc0\xaf \xed\xa0\x80 \x80"'))
    content = import_preset(path, 1).stack["items"][0]["content"]
    assert content == b"\xc0\xaf \xed\xa0\x80 \x80".decode("utf-8", errors="replace")
    assert "\ufffd" in content


def test_path_names_the_output(tmp_path: Path) -> None:
    path = tmp_path / "Uploaded Writer.JSON"
    path.write_bytes(PRESET)
    result = import_preset(path, 1)
    assert result.stack["id"] == "uploaded-writer" and result.stack["import"]["sourceFile"] == "Uploaded Writer"
    assert result.stack["name"] == "Uploaded Writer"  # C8: no preset_name/name => fileName
    assert f"- **Source file**: {path}\n" in result.report
    assert result.report.startswith("# SillyTavern Import Report: Uploaded Writer\n")


def test_convert_fallback_name() -> None:
    # C1: preset_name if non-blank string, else name under the same rule, else imported.json (untrimmed)
    base = {"prompts": [{"identifier": "a", "role": "system", "content": "x"}],
            "prompt_order": [{"order": [{"identifier": "a", "enabled": True}]}]}  # fmt: skip
    result = convert_preset({**base, "preset_name": "  ", "name": 5}, now_ms=0)
    assert result.stack["import"]["sourceFile"] == "imported" and result.stack["id"] == "imported"
    assert "- **Source file**: imported.json\n" in result.report
    assert result.stack["name"] == "  "  # C8: first JS-truthy, not trimmed
    result = convert_preset({**base, "preset_name": "", "name": " My Set.json "}, now_ms=0)
    assert result.stack["import"]["sourceFile"] == " My Set.json "  # `.json` is not at the very end
    assert "- **Source file**:  My Set.json \n" in result.report
    assert result.stack["id"] == "my-set-json"
    result = convert_preset({**base, "name": "a/b/Thing.json"}, now_ms=0)
    assert result.stack["import"]["sourceFile"] == "Thing" and result.stack["name"] == "a/b/Thing.json"
