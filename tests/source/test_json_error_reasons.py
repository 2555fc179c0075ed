"""``JSON.parse`` failure reasons (compile-core.md §10.2 and §16.10): every row of the reason table and
the snippet rules of ``Unexpected token`` (texts of 21 and 40 units, bad unit at 9/10/29/30/39, astral
characters whose snippet cuts a surrogate pair), through the stack loader's
``Failed to parse JSON: <reason>``.

The reasons were produced by Node 20.20.2's ``JSON.parse`` (the engine of the reference corpus); the
strings are written with JSON escapes so lone surrogates survive."""

from __future__ import annotations

import json

import pytest

from forgec.codecs.stack import load_stack_data
from forgec.diagnostics import to_pi_list
from forgec.js.json import v8_parse_error
from forgec.source import decode_source

# (text, reason) -- generated with ``node -e`` (JSON.parse(text) -> e.message)
TABLE: list[tuple[str, str]] = [tuple(json.loads(row)) for row in (
    "[\"\", \"Unexpected end of JSON input\"]",
    "[\" \\n\\t\", \"Unexpected end of JSON input\"]",
    "[\"[\", \"Unexpected end of JSON input\"]",
    "[\"{\\\"a\\\":\\\"x\\\\\", \"Unexpected end of JSON input\"]",
    "[\"tru\", \"Unexpected end of JSON input\"]",
    "[\"{\", \"Expected property name or '}' in JSON at position 1\"]",
    "[\"{a:1}\", \"Expected property name or '}' in JSON at position 1\"]",
    "[\"{'a':1}\", \"Expected property name or '}' in JSON at position 1\"]",
    "[\"{,}\", \"Expected property name or '}' in JSON at position 1\"]",
    "[\"{\\\"a\\\":1,}\", \"Expected double-quoted property name in JSON at position 7\"]",
    "[\"{\\\"a\\\" 1}\", \"Expected ':' after property name in JSON at position 5\"]",
    "[\"{\\\"a\\\"}\", \"Expected ':' after property name in JSON at position 4\"]",
    "[\"{\\\"a\\\":1 \\\"b\\\":2}\", \"Expected ',' or '}' after property value in JSON at position 7\"]",
    "[\"{\\\"a\\\":1\", \"Expected ',' or '}' after property value in JSON at position 6\"]",
    "[\"{\\\"a\\\":0x10}\", \"Expected ',' or '}' after property value in JSON at position 6\"]",
    "[\"[1 2]\", \"Expected ',' or ']' after array element in JSON at position 3\"]",
    "[\"[1,2\", \"Expected ',' or ']' after array element in JSON at position 4\"]",
    "[\"[1.5.2]\", \"Expected ',' or ']' after array element in JSON at position 4\"]",
    "[\"{\\\"a\\\":1}}\", \"Unexpected non-whitespace character after JSON at position 7\"]",
    "[\"1 2\", \"Unexpected non-whitespace character after JSON at position 2\"]",
    "[\"\\\"abc\", \"Unterminated string in JSON at position 4\"]",
    "[\"\\\"a\\tb\\\"\", \"Bad control character in string literal in JSON at position 2\"]",
    "[\"\\\"\\\\q\\\"\", \"Bad escaped character in JSON at position 2\"]",
    "[\"\\\"\\\\u12G4\\\"\", \"Bad Unicode escape in JSON at position 5\"]",
    "[\"-\", \"No number after minus sign in JSON at position 1\"]",
    "[\"-x\", \"No number after minus sign in JSON at position 1\"]",
    "[\"1e\", \"Exponent part is missing a number in JSON at position 2\"]",
    "[\"1e+\", \"Exponent part is missing a number in JSON at position 3\"]",
    "[\"1.\", \"Unterminated fractional number in JSON at position 2\"]",
    "[\"1.e3\", \"Unterminated fractional number in JSON at position 2\"]",
    "[\"01\", \"Unexpected number in JSON at position 1\"]",
    "[\"{\\\"a\\\":1,\\\"b\\\" 2}\", \"Unexpected number in JSON at position 11\"]",
    "[\"{\\\"a\\\":1,\\\"b\\\" \\\"c\\\"}\", \"Unexpected string in JSON at position 11\"]",
    "[\"NaN\", \"\\\"NaN\\\" is not valid JSON\"]",
    "[\"Infinity\", \"\\\"Infinity\\\" is not valid JSON\"]",
    "[\"undefined\", \"\\\"undefined\\\" is not valid JSON\"]",
    "[\" NaN\", \"Unexpected token 'N', \\\" NaN\\\" is not valid JSON\"]",
    "[\"{\\\"a\\\":NaN}\", \"Unexpected token 'N', \\\"{\\\"a\\\":NaN}\\\" is not valid JSON\"]",
    "[\"-Infinity\", \"No number after minus sign in JSON at position 1\"]",
    "[\"[1,]\", \"Unexpected token ']', \\\"[1,]\\\" is not valid JSON\"]",
    "[\"{\\\"a\\\":}\", \"Unexpected token '}', \\\"{\\\"a\\\":}\\\" is not valid JSON\"]",
    "[\"{\\\"a\\\":tru}\", \"Unexpected token '}', \\\"{\\\"a\\\":tru}\\\" is not valid JSON\"]",
    "[\"\\ufeff{}\", \"Unexpected token '\\ufeff', \\\"\\ufeff{}\\\" is not valid JSON\"]",
    "[\"'x'\", \"Unexpected token ''', \\\"'x'\\\" is not valid JSON\"]",
    "[\"// c\\n{}\", \"Unexpected token '/', \\\"// c\\n{}\\\" is not valid JSON\"]",
    "[\"[object Object]\", \"\\\"[object Object]\\\" is not valid JSON\"]",
    "[\"[        x                              \", \"Unexpected token 'x', \\\"[        x         \\\"... is not valid JSON\"]",
    "[\"[         x                             \", \"Unexpected token 'x', ...\\\"[         x         \\\"... is not valid JSON\"]",
    "[\"[                            x          \", \"Unexpected token 'x', ...\\\"          x         \\\"... is not valid JSON\"]",
    "[\"[                             x         \", \"Unexpected token 'x', ...\\\"          x         \\\" is not valid JSON\"]",
    "[\"[                                      x\", \"Unexpected token 'x', ...\\\"          x\\\" is not valid JSON\"]",
    "[\"[                   x\", \"Unexpected token 'x', ...\\\"          x\\\" is not valid JSON\"]",
    "[\"[                  x\", \"Unexpected token 'x', \\\"[                  x\\\" is not valid JSON\"]",
    "[\"x                    \", \"Unexpected token 'x', \\\"x         \\\"... is not valid JSON\"]",
    "[\"{\\\"\\ud83d\\ude00\\ud83d\\ude00\\ud83d\\ude00\\ud83d\\ude00\\ud83d\\ude00\\ud83d\\ude00\\\": \\ud83d\\ude00}\", \"Unexpected token '\\ud83d', \\\"{\\\"\\ud83d\\ude00\\ud83d\\ude00\\ud83d\\ude00\\ud83d\\ude00\\ud83d\\ude00\\ud83d\\ude00\\\": \\ud83d\\ude00}\\\" is not valid JSON\"]",
    "[\"[\\\"\\ud83d\\ude00\\ud83d\\ude00\\ud83d\\ude00\\ud83d\\ude00\\ud83d\\ude00\\ud83d\\ude00\\ud83d\\ude00\\ud83d\\ude00\\ud83d\\ude00\\ud83d\\ude00\\\", x]\", \"Unexpected token 'x', ...\\\"\\ude00\\ud83d\\ude00\\ud83d\\ude00\\ud83d\\ude00\\\", x]\\\" is not valid JSON\"]",
    "[\"[\\ud83d\\ude00\\ud83d\\ude00\\ud83d\\ude00\\ud83d\\ude00\\ud83d\\ude00\\ud83d\\ude00\\ud83d\\ude00\\ud83d\\ude00\\ud83d\\ude00\\ud83d\\ude00\\ud83d\\ude00\\ud83d\\ude00]\", \"Unexpected token '\\ud83d', \\\"[\\ud83d\\ude00\\ud83d\\ude00\\ud83d\\ude00\\ud83d\\ude00\\ud83d\\ude00\\\"... is not valid JSON\"]",
    "[\"{\\\"items\\\": [\\n  {\\\"id\\\": \\\"a\\\",},\\n]}\", \"Expected double-quoted property name in JSON at position 25\"]",
    "[\"\\\"\\u0000\\\"\", \"Bad control character in string literal in JSON at position 1\"]",
    "[\"[1]\\u00a0\", \"Unexpected non-whitespace character after JSON at position 3\"]",
    "[\"\\u2028[1]\", \"Unexpected token '\\u2028', \\\"\\u2028[1]\\\" is not valid JSON\"]",
)]


def _units(text: str) -> str:
    """The same UTF-16 units whether a pair is held as one code point or as two surrogates."""
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")


@pytest.mark.parametrize(("text", "reason"), TABLE)
def test_reason_matches_node(text: str, reason: str) -> None:
    error = v8_parse_error(text)
    assert error is not None and _units(error.reason) == _units(reason)


@pytest.mark.parametrize(("text", "reason"), TABLE)
def test_loader_reports_reason_and_fallback(text: str, reason: str) -> None:
    loaded = load_stack_data(text, "broken.json")
    assert [(d["level"], _units(d["message"]), d.get("itemId")) for d in to_pi_list(loaded.diagnostics)] == [
        ("error", _units("Failed to parse JSON: " + reason), None)
    ]
    assert loaded.stack == {"schemaVersion": 1, "type": "pi-forge.prompt-stack", "id": "broken",
                            "name": "broken.json", "items": []}
    assert not loaded.usable


def test_bytes_bom_and_invalid_utf8() -> None:
    # §16.10 "Reading a stack file": the BOM is kept (so parsing fails), invalid bytes become U+FFFD
    bom = decode_source(b"\xef\xbb\xbf{}", "b.json")
    assert [d["message"] for d in to_pi_list(bom.diagnostics)] == [
        "Failed to parse JSON: Unexpected token '\ufeff', \"\ufeff{}\" is not valid JSON"
    ]
    bad = decode_source(b'{"id":"a\xff\xfeb","items":[]}', "c.json")
    assert bad.parsed and bad.data["id"] == "a\ufffd\ufffdb"
    # positions count UTF-16 units of the decoded text: U+FFFD is one unit, an emoji two
    late = decode_source('["\U0001f600", '.encode() + b"\xff]", "d.json")
    assert [d["message"] for d in to_pi_list(late.diagnostics)] == [
        "Failed to parse JSON: Unexpected token '\ufffd', \"[\"\U0001f600\", \ufffd]\" is not valid JSON"
    ]
    empty = decode_source(b"", "e.json")
    assert [d["message"] for d in to_pi_list(empty.diagnostics)] == ["Failed to parse JSON: Unexpected end of JSON input"]
