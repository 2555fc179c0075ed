"""The regex pass's candidate search against the plain per-message loop (issue 14, regex rules at scale).

The pass keeps a call site's text segments flat and lets each rule pick the segments it may match in
C-level passes (``JSPattern.candidates``), updating only the segments a rule changed. Here a plain
reading of A4/A5.2a -- every eligible message, every text segment, ``transform_string`` on each, rules
in order -- is run on the same inputs, and the outputs, the identity of untouched messages and the
statistics must agree: on hand-picked edge cases and on seeded random stacks and histories (segments
in string and list contents, non-text parts, non-dict messages, case-insensitive runs over ſ/K/Σ/İ,
non-ASCII-only patterns, anchored runs with ``maxChars`` cuts, roles, depths and ``maxMessages``).
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from forgec.compile.passes.regex import apply_to_messages
from forgec.diagnostics import Diagnostic
from forgec.js.regex import JSRegexError, compile_js, transform_string
from forgec.js.values import js_string

PATTERNS: list[tuple[str, str]] = [
    ("ab", "g"), ("ab", "gi"), ("k", "gi"), ("k", "giu"), ("s", "gi"), ("s", "giu"), ("σ", "gi"),
    ("i", "gi"), (r"\bab\b", "gi"), ("ab", ""), (r"[“”]", "g"), (r"\p{Extended_Pictographic}", "gu"),
    (r"é+", "g"), (r"É", "gi"), (r"(very|really) ", "gi"), (r"^\s+", "gm"), (r"\s+$", ""), ("x*", "g"),
    (r"(\w+) \1\b", "gi"), (r"a(?=b)", "g"), (r"(?<=a)b", "gi"), (r"\u0130", "gi"), ("AB", "g"),
    (r"b\.", "g"), ("a\u0000b", "g"), (r"[ab]c", "gi"), ("kS", "gi"), (r"\n{2,}", "g"),
]
REPLACES = ["", "X", "$&$&", "[$1]", "ab", "AB", "k", "ſ", "é"]
PIECES = ["ab", "AB", "aB", " ", "  ", "\n", "\n\n", "k", "K", "\u212a", "s", "S", "\u017f", "σ", "Σ", "ς",
          "İ", "i", "é", "É", "“", "”", "😺", "\ud83d", "x", "b.", "very ", "Really ", "\u0000", "c", "kS"]
ROLES = ["user", "assistant", "system", "tool"]


def _text(rng: random.Random) -> str:
    return "".join(rng.choice(PIECES) for _ in range(rng.randint(0, 12)))


def _message(rng: random.Random) -> Any:
    r = rng.random()
    if r < 0.05:
        return rng.choice(["not a message", 7, None])
    message: dict[str, Any] = {"role": rng.choice(ROLES)}
    if r < 0.1:
        message.pop("role")
    if r < 0.55:
        message["content"] = _text(rng)
    elif r < 0.95:
        parts: list[Any] = []
        for _ in range(rng.randint(0, 4)):
            q = rng.random()
            if q < 0.6:
                parts.append({"type": "text", "text": _text(rng)})
            elif q < 0.7:
                parts.append({"type": "text", "text": 5})
            elif q < 0.8:
                parts.append({"type": "image", "data": "ab"})
            else:
                parts.append("ab")
        message["content"] = parts
    return message


def _rule(rng: random.Random, n: int) -> dict[str, Any]:
    pattern, flags = rng.choice(PATTERNS)
    rule: dict[str, Any] = {"id": f"r{n}", "stage": "history", "pattern": pattern, "flags": flags,
                            "replace": rng.choice(REPLACES)}
    if rng.random() < 0.2:
        rule["roles"] = rng.sample(ROLES, rng.randint(1, 2))
    if rng.random() < 0.15:
        rule["maxMessages"] = rng.randint(1, 4)
    if rng.random() < 0.15:
        rule["minDepth"] = rng.randint(0, 3)
    if rng.random() < 0.15:
        rule["maxDepth"] = rng.randint(0, 5)
    if rng.random() < 0.15:
        rule["maxChars"] = rng.randint(1, 6)
    if rng.random() < 0.1:
        rule["trimStrings"] = ["a"]
    return rule


def _eligible(rule: dict[str, Any], messages: list[Any]) -> list[int]:
    """A4's selection, read plainly: role, minDepth <= depth <= maxDepth, then the last maxMessages."""
    n = len(messages)
    out = []
    for i, message in enumerate(messages):
        depth = n - 1 - i
        if "minDepth" in rule and depth < rule["minDepth"]:
            continue
        if "maxDepth" in rule and depth > rule["maxDepth"]:
            continue
        if "roles" in rule:
            role = message.get("role") if isinstance(message, dict) and "role" in message else None
            role = role if isinstance(role, str) else js_string(role) if role is not None else "undefined"
            if role not in rule["roles"]:
                continue
        out.append(i)
    if "maxMessages" in rule and len(out) > rule["maxMessages"]:
        out = out[len(out) - rule["maxMessages"]:]
    return out


def _reference(rules: list[dict[str, Any]], messages: list[Any]) -> tuple[list[Any], list[str]]:
    """Every eligible message, every text segment, one ``transform_string`` each, rules in order."""
    stats: list[str] = []
    for rule in rules:
        try:
            pattern = compile_js(rule["pattern"], rule["flags"])
        except JSRegexError as exc:
            stats.append(f"Regex rule {rule['id']} failed to compile: {exc}")
            continue
        kwargs: dict[str, Any] = {"max_chars": rule.get("maxChars"), "trim_strings": rule.get("trimStrings"),
                                  "timeout": 10.0}
        total = changed = 0
        current = list(messages)
        for i in _eligible(rule, messages):
            message = messages[i]
            if not isinstance(message, dict):
                continue
            content = message.get("content")
            if isinstance(content, str):
                new, count = transform_string(pattern, content, rule["replace"], **kwargs)
                total += count
                if new != content:
                    changed += 1
                    current[i] = {**message, "content": new}
            elif isinstance(content, list):
                new_content = list(content)
                for j, part in enumerate(content):
                    if isinstance(part, dict) and part.get("type") == "text" and isinstance(part.get("text"), str):
                        new, count = transform_string(pattern, part["text"], rule["replace"], **kwargs)
                        total += count
                        if new != part["text"]:
                            changed += 1
                            new_content[j] = {**part, "text": new}
                if new_content != content:
                    current[i] = {**message, "content": new_content}
        if total:
            stats.append(f"Regex rule {rule['id']} matched {total} time(s) and changed {changed} "
                         "text segment(s) in history/messages.")
        messages = current
    return messages, stats


def _run(rules: list[dict[str, Any]], messages: list[Any]) -> tuple[list[Any], list[str]]:
    diags: list[Diagnostic] = []
    out = apply_to_messages({"regex": {"rules": rules}}, messages, "history", diags)
    return out, [d.message for d in diags]


def _check(rules: list[dict[str, Any]], messages: list[Any]) -> None:
    before = copy.deepcopy(messages)
    expected, expected_stats = _reference(rules, messages)
    got, stats = _run(rules, messages)
    assert messages == before  # the input is never mutated
    assert got == expected
    assert stats == expected_stats
    for old, new, ref in zip(messages, got, expected, strict=True):
        assert (new is old) == (ref is old)  # an untouched message is the same object


@pytest.mark.parametrize("seed", range(40))
def test_random_stacks_agree_with_the_plain_loop(seed: int) -> None:
    rng = random.Random(seed)
    messages = [_message(rng) for _ in range(rng.randint(0, 14))]
    if messages and rng.random() < 0.3:
        messages.append(messages[0])  # one object twice in the history
    rules = [_rule(rng, n) for n in range(rng.randint(1, 10))]
    _check(rules, messages)


def test_rules_see_the_texts_earlier_rules_wrote() -> None:
    """A rule's candidates are found in the texts as the rules before it left them, lower-cased copies
    included: here each rule only matches what the previous one wrote."""
    messages: list[Any] = [
        {"role": "user", "content": "one"},
        {"role": "assistant", "content": [{"type": "text", "text": "one"}, {"type": "tool"}, {"type": "text", "text": "x"}]},
        {"role": "user", "content": "none"},
    ]
    rules = [
        {"id": "a", "stage": "history", "pattern": "one", "flags": "g", "replace": "TWO"},
        {"id": "b", "stage": "history", "pattern": "two", "flags": "gi", "replace": "\u212aK"},
        {"id": "c", "stage": "history", "pattern": "kk", "flags": "gi", "replace": "é"},
        {"id": "d", "stage": "history", "pattern": "kk", "flags": "giu", "replace": "é"},
        {"id": "e", "stage": "history", "pattern": "é", "flags": "gu", "replace": "É"},
        {"id": "f", "stage": "history", "pattern": "x", "flags": "g", "replace": "ab"},
    ]
    _check(rules, messages)
    got, stats = _run(rules, messages)
    assert [got[0]["content"], got[2]["content"]] == ["É", "nÉ"]  # "none" held "one" too
    assert got[1]["content"][0]["text"] == "É" and got[1]["content"][2]["text"] == "ab"
    assert got[1]["content"][1] is messages[1]["content"][1]
    assert [s.split(" matched")[0] for s in stats] == [f"Regex rule {r}" for r in "abdef"]  # c: K is not k without u


def test_restricted_rules_run_only_on_their_messages() -> None:
    messages: list[Any] = [{"role": ("user" if i % 2 else "assistant"), "content": f"ab{i}"} for i in range(9)]
    rules = [
        {"id": "roles", "stage": "history", "pattern": "ab", "flags": "g", "replace": "AB", "roles": ["user"]},
        {"id": "depth", "stage": "history", "pattern": "ab", "flags": "gi", "replace": "c", "minDepth": 2,
         "maxDepth": 6},
        {"id": "last", "stage": "history", "pattern": "c", "flags": "g", "replace": "d", "maxMessages": 2, "minDepth": 3},
    ]
    _check(rules, messages)
    got, _ = _run(rules, messages)
    assert [m["content"] for m in got] == ["ab0", "AB1", "c2", "c3", "d4", "d5", "c6", "AB7", "ab8"]


def test_candidates_equal_may_match_on_each_text() -> None:
    rng = random.Random(7)
    texts = [_text(rng) for _ in range(300)]
    for source, flags in PATTERNS:
        pattern = compile_js(source, flags)
        found = pattern.candidates(texts, lambda: [t.lower() for t in texts], lambda: [t.isascii() for t in texts])
        expected = [k for k, t in enumerate(texts) if pattern.may_match(t)]
        assert (list(range(len(texts))) if found is None else found) == expected, (source, flags)


@pytest.mark.parametrize("count", [0, 1, 2, 5, 31, 32, 33, 64])
def test_candidates_of_a_few_texts_equal_the_pass_over_many(count: int) -> None:
    """Up to ``_FEW_TEXTS`` texts a single-run pattern looks text by text; past it, the ``map`` pass:
    both answer what ``may_match`` answers, on each side of the threshold, with and without ``i``."""
    from forgec.js.regex import pattern as engine

    assert engine._FEW_TEXTS == 32
    rng = random.Random(count)
    texts = [_text(rng) for _ in range(count)]
    for source, flags in [*PATTERNS, ("ab", "gi"), ("K", "i"), ("b", "")]:
        pattern = compile_js(source, flags)
        found = pattern.candidates(texts, lambda: [t.lower() for t in texts], lambda: [t.isascii() for t in texts])
        expected = [k for k, t in enumerate(texts) if pattern.may_match(t)]
        assert (list(range(len(texts))) if found is None else found) == expected, (source, flags)


def test_the_statistics_finding_is_the_one_the_constructor_makes() -> None:
    """FG621 is made through ``diagnostics.quick.POSITIONED`` where it exists: the same class, and every
    field equal and of the same type as ``Diagnostic(...)``'s."""
    import dataclasses

    from forgec.rules import compile as codes

    diagnostics: list[Diagnostic] = []
    rules = [{"id": " r ", "stage": "compiled", "pattern": "a", "flags": "g", "replace": "b"}]
    apply_to_messages({"regex": {"rules": rules}}, [{"role": "user", "content": "aa"}], "compiled", diagnostics)
    expected = Diagnostic(
        "info",
        "Regex rule r matched 2 time(s) and changed 1 text segment(s) in compiled/messages.",
        codes.REGEX_STATISTICS,
        pointer=("regex", "rules", 0),
    )
    assert diagnostics == [expected] and type(diagnostics[0]) is Diagnostic

    def typed(d: Diagnostic) -> list[tuple[Any, type]]:
        return [(getattr(d, f.name), type(getattr(d, f.name))) for f in dataclasses.fields(Diagnostic)]

    assert typed(diagnostics[0]) == typed(expected)
