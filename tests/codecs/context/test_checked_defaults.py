"""The one-pass check of a well-formed context (``_checked_with_defaults``) against the full rules.

The one-pass check may leave a context to the full checker (answer None) but must never accept one
the full checker refuses, and what it builds must be exactly what ``_with_defaults`` builds (values,
key order, types), with the same parsed ``now``.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from forgec.codecs.context import ContextError, _checked_with_defaults, _validate, _with_defaults

CASES = Path(__file__).resolve().parents[2] / "conformance" / "cases"

_ANY = st.sampled_from([None, True, 0, 1.5, "", "x", [], {}, ["x"], {"a": 1}, [1], [{}], "UTC"])
_STR = st.sampled_from(["", "x", "Read files"]) | _ANY


def _maybe(values: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.one_of(st.just(_MISSING), values)


_MISSING = object()


def _obj(fields: dict[str, st.SearchStrategy[Any]], extra: bool = False) -> st.SearchStrategy[Any]:
    def build(values: dict[str, Any], bogus: bool) -> dict[str, Any]:
        out = {key: value for key, value in values.items() if value is not _MISSING}
        if bogus:
            out["bogus"] = 1
        return out

    return st.builds(
        build, st.fixed_dictionaries({k: _maybe(v) for k, v in fields.items()}), st.booleans() if extra else st.just(False)
    )


_TOOL = _obj(
    {
        "name": _STR,
        "description": _STR,
        "snippet": _STR,
        "guidelines": st.lists(_STR, max_size=2) | _ANY,
        "active": st.booleans() | _ANY,
        "parameters": st.just({"type": "object"}) | _ANY,
    },
    extra=True,
)
_CONTEXT = _obj(
    {
        "$comment": _ANY,
        "now": st.sampled_from(
            ["2026-03-14T09:26:53+01:00", "2026-01-01Z", "2026-13-01T00:00:00Z", "2026-01-01T24:00:00Z", "nope"]
        )
        | _ANY,
        "timezone": st.sampled_from(["UTC", "Europe/Berlin", "Mars/Olympus", ""]) | _ANY,
        "cwd": _STR,
        "model": st.none() | _obj({"provider": _STR, "id": _STR, "api": _STR}, extra=True) | _ANY,
        "baseSystemPrompt": _STR,
        "appendSystemPrompt": _STR,
        "tools": st.lists(_TOOL | _ANY, max_size=3) | _ANY,
        "skills": st.lists(_obj({"name": _STR, "description": _STR, "filePath": _STR}) | _ANY, max_size=2) | _ANY,
        "contextFiles": st.lists(_obj({"path": _STR, "content": _STR}) | _ANY, max_size=2) | _ANY,
        "variables": st.dictionaries(st.sampled_from(["a", "b"]), _ANY, max_size=2) | _ANY,
        "messages": st.lists(st.just({"role": "user", "content": "hi"}) | _ANY, max_size=3) | _ANY,
        "latestUserMessage": _STR,
        "finalizeMessages": st.lists(st.just({"role": "user"}) | _ANY, max_size=2) | _ANY,
        "thinkingLevel": st.sampled_from(["off", "high", "max", "huge"]) | _ANY,
    },
    extra=True,
)

_TEXT = st.sampled_from(["", "x", "Read files"])
_VALID_TOOL = _obj(
    {
        "name": _TEXT,
        "description": _TEXT,
        "snippet": st.none() | _TEXT,
        "guidelines": st.lists(_TEXT, max_size=2),
        "active": st.booleans(),
        "parameters": st.just({"type": "object"}),
    }
)
#: contexts that break no rule (members present or absent), so the accepting branch is exercised
_VALID_CONTEXT = _obj(
    {
        "$comment": _ANY,
        "now": st.sampled_from(["2026-03-14T09:26:53+01:00", "2026-01-01Z", "2026-01-01T24:00:00Z"]),
        "timezone": st.sampled_from(["UTC", "Europe/Berlin"]),
        "cwd": _TEXT,
        "model": st.none() | _obj({"provider": _TEXT, "id": _TEXT, "api": _TEXT}).filter(lambda m: len(m) == 3),
        "baseSystemPrompt": _TEXT,
        "appendSystemPrompt": st.none() | _TEXT,
        "tools": st.lists(_VALID_TOOL.filter(lambda t: "name" in t), max_size=3),
        "skills": st.lists(st.just({"name": "s", "description": "d", "filePath": "/f"}), max_size=2),
        "contextFiles": st.lists(st.just({"path": "p", "content": "c"}), max_size=2),
        "variables": st.dictionaries(st.sampled_from(["a", "b"]), _ANY, max_size=2),
        "messages": st.lists(st.just({"role": "user", "content": "hi"}), max_size=3),
        "latestUserMessage": st.none() | _TEXT,
        "finalizeMessages": st.lists(st.just({"role": "user"}), max_size=2),
        "thinkingLevel": st.sampled_from(["off", "high", "max"]),
    }
)


def _full(data: Any) -> Any:
    try:
        now = _validate(copy.deepcopy(data), None)
    except ContextError as error:
        return ("refused", [d.message for d in error.problems])
    return (repr(_with_defaults(copy.deepcopy(data), owned=True)), now)


def _fast(data: Any) -> Any:
    checked = _checked_with_defaults(copy.deepcopy(data))
    return None if checked is None else (repr(checked[0]), checked[1])


_SEEN = {"accepted": 0, "left": 0}


@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_CONTEXT | _VALID_CONTEXT)
def test_never_looser_and_builds_the_same(data: dict[str, Any]) -> None:
    fast = _fast(data)
    if fast is None:
        _SEEN["left"] += 1
        return
    _SEEN["accepted"] += 1
    assert fast == _full(data)


def test_both_answers_occur() -> None:
    """The generator above reaches both branches (run after it, so the counts are filled in)."""
    test_never_looser_and_builds_the_same()
    assert _SEEN["accepted"] > 100 and _SEEN["left"] > 100, _SEEN


def test_corpus_contexts_take_the_one_pass_check() -> None:
    contexts = sorted(CASES.glob("*/context.json"))
    assert len(contexts) > 100
    for path in contexts:
        data = json.loads(path.read_text(encoding="utf-8"))
        fast = _fast(data)
        assert fast is not None, path  # every corpus context is well formed
        assert fast == _full(data), path


def test_subclasses_and_non_string_keys_go_the_full_way() -> None:
    class Text(str):
        pass

    assert _checked_with_defaults({"cwd": Text("/x")}) is None
    assert _checked_with_defaults({"variables": {1: "x"}}) is None
    assert _checked_with_defaults({"tools": [{"name": "t", "guidelines": [Text("g")]}]}) is None
    assert _full({"variables": {1: "x"}})[0] == "refused"


def test_the_loops_over_guidelines_and_messages_refuse_at_any_position() -> None:
    """The guideline and message checks are loops (not a set test over ``map(type, ...)``): a
    refusal anywhere in the list -- first, middle, last -- hands the context to the full reader,
    and a list the loops accept builds what ``_with_defaults`` builds."""

    class Text(str):
        pass

    class Record(dict):  # type: ignore[type-arg]
        pass

    good_lines = ["a", "b", "c"]
    for position in range(3):
        lines: list[Any] = list(good_lines)
        for odd in (Text("x"), None, 1, ["x"]):
            lines[position] = odd
            assert _checked_with_defaults({"tools": [{"name": "t", "guidelines": list(lines)}]}) is None
        messages: list[Any] = [{"role": "user"}, {"role": "assistant"}, {"role": "user"}]
        for odd in (Record(role="user"), None, "user", [{"role": "user"}]):
            messages[position] = odd
            assert _checked_with_defaults({"messages": list(messages)}) is None
    accepted = {
        "tools": [{"name": "t", "guidelines": []}, {"name": "u", "guidelines": good_lines}],
        "messages": [{"role": "user"}, {"role": "assistant"}],
        "variables": {},
    }
    assert _fast(accepted) == _full(accepted)
    copied = _checked_with_defaults(copy.deepcopy(accepted))
    assert copied is not None and copied[0]["tools"][1]["guidelines"] == good_lines
    empty = _checked_with_defaults({"variables": {}, "messages": []})
    assert empty is not None and empty[0]["variables"] == {} and empty[0]["messages"] == []


def test_a_tool_with_a_key_the_format_lacks_goes_the_full_way() -> None:
    """The tool check takes the merged tool's length as its key-set test: one key more than the
    documented six -- a stray name, a non-string key, next to all six members or to a few, in any
    tool of the list -- leaves the context to the full checker, which refuses it."""
    full = {"name": "t", "description": "d", "snippet": None, "guidelines": [], "active": True, "parameters": {}}
    for stray in ("bogus", "Name", 1, None):
        for base in ({"name": "t"}, dict(full)):
            odd = dict(base)
            odd[stray] = "x"  # type: ignore[index]
            for position in range(3):
                tools: list[Any] = [{"name": "a"}, dict(full), {"name": "c", "guidelines": ["g"]}]
                tools[position] = odd
                data = {"tools": tools}
                assert _checked_with_defaults(copy.deepcopy(data)) is None
                if isinstance(stray, str):
                    assert _full(data)[0] == "refused"
    accepted = {"tools": [dict(full), {"name": "a"}, {"parameters": {}, "name": "b"}]}
    assert _fast(accepted) == _full(accepted)
    checked = _checked_with_defaults(copy.deepcopy(accepted))
    assert checked is not None and [list(tool) for tool in checked[0]["tools"]] == [list(full)] * 3
