"""Compare forgec.jsregex with stored Node 20 results (tests/jsregex/vectors.json, see tools/)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from forgec.jsregex import JSRegexError, compile_js, transform_string

VECTORS = json.loads((Path(__file__).parent / "vectors.json").read_text(encoding="utf-8"))


def _id(v: dict) -> str:
    return f"/{v['pattern']}/{v['flags']}".encode("unicode_escape").decode("ascii")[:60]


def _run(v: dict) -> dict:
    out: dict = {}
    try:
        pat = compile_js(v["pattern"], v["flags"])
    except JSRegexError as exc:
        out["error"] = str(exc)
        return out
    out["error"] = None
    if "text" in v:
        result, matches = transform_string(pat, v["text"], v["replace"], trim_strings=v.get("trimStrings"),
                                           max_chars=v.get("maxChars"), timeout=5.0)
        out["result"], out["matches"] = result, matches
        m = pat.search(v["text"])
        out["exec"] = None if m is None else {"groups": [m.text(0), *[m.text(i) for i in
                                                                     range(1, pat.group_count + 1)]]}
    return out


@pytest.mark.parametrize("v", VECTORS, ids=[_id(v) for v in VECTORS])
def test_vector(v: dict) -> None:
    got = _run(v)
    assert got["error"] == v["error"]
    if v["error"] is None and "text" in v:
        assert (got["result"], got["matches"]) == (v["result"], v["matches"])
        exp = v["exec"]
        assert (got["exec"] is None) == (exp is None)
        if exp is not None:
            assert got["exec"]["groups"] == exp["groups"]
