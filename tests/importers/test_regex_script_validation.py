"""Load-time validation of ``stack.regex`` (import-regex.md A3), statement by statement.

Every expected text is quoted from the A3 table; levels and order are the table's.
"""

from __future__ import annotations

from typing import Any

import pytest

from forgec.codecs.regex_config import check_regex_config
from forgec.diagnostics import Diagnostic
from forgec.importers.sillytavern.regex_scripts import summarize


def check(regex: Any) -> list[tuple[str, str]]:
    found: list[Diagnostic] = check_regex_config({"regex": regex})
    return [(d.level, d.message) for d in found]


def rule(**fields: Any) -> dict[str, Any]:
    return {"id": "r", "stage": "history", "pattern": "x", **fields}


def messages(*rules: dict[str, Any]) -> list[tuple[str, str]]:
    return check({"rules": list(rules)})


def test_absent_regex_gives_nothing() -> None:
    assert check_regex_config({"items": []}) == []


@pytest.mark.parametrize("value", [None, [], "x", 5, True])
def test_regex_not_an_object(value: Any) -> None:
    assert check(value) == [("warning", "regex must be an object when provided.")]


@pytest.mark.parametrize(("version", "warns"), [(1, False), (1.0, False), (2, True), ("1", True), (None, True), (True, True)])
def test_schema_version(version: Any, warns: bool) -> None:
    expected = [("warning", "Missing or unsupported regex.schemaVersion; assuming 1.")] if warns else []
    assert check({"schemaVersion": version}) == expected


@pytest.mark.parametrize("rules", [None, {}, "x", 1])
def test_rules_not_an_array(rules: Any) -> None:
    assert check({"rules": rules}) == [("error", "regex.rules must be an array when provided.")]


def test_worked_example() -> None:
    assert messages(
        {"id": "bad", "stage": "compiled", "pattern": "("},
        {"id": "flags", "stage": "compiled", "pattern": "x", "flags": "gg"},
        {"id": "bad", "stage": "other", "pattern": "x", "targets": ["payload"]},
    ) == [
        ("error", "Regex rule bad pattern failed to compile: Invalid regular expression: /(/: Unterminated group"),
        ("error", "Regex rule flags has duplicate regex flag: g."),
        ("error", "Duplicate regex rule id: bad."),
        ("error", 'Regex rule bad stage must be "history" or "compiled".'),
        ("error", 'Regex rule bad target must be "system" or "messages": payload.'),
    ]


def test_labels_and_ids() -> None:
    assert messages(5, {"id": "  ", "stage": "x", "pattern": "x"}, {"id": 7, "pattern": "x", "stage": "history"}) == [
        ("error", "regex rule 1 must be an object."),
        ("error", "regex rule 2 must have a non-empty id."),
        ("error", 'regex rule 2 stage must be "history" or "compiled".'),
        ("error", "regex rule 3 must have a non-empty id."),
    ]
    # the trimmed id labels the rule and is what duplicates compare
    assert messages(rule(id=" a ", enabled=1), rule(id="a")) == [
        ("warning", "Regex rule a enabled must be a boolean when provided."),
        ("error", "Duplicate regex rule id: a."),
    ]


def test_effects() -> None:
    assert messages(rule(effect=None), rule(id="d", effect="display"), rule(id="b", effect="both")) == [
        ("error", 'Regex rule r effect must be "outgoing", "display", "both", or "finalize".'),
        ("warning", 'Regex rule d effect "display" is not a runtime effect in pi-forge yet and will be ignored. '
                    'Use "finalize" only when destructive transcript cleanup is intended.'),
        ("warning", 'Regex rule b effect "both" is not implemented and will be ignored; use separate outgoing and '
                    "finalize rules."),
    ]  # fmt: skip


def test_finalize_checks_in_order() -> None:
    assert messages(rule(effect="finalize", targets=["system", "messages", "x"], roles=["user"])) == [
        ("warning", 'Regex rule r effect "finalize" rewrites finalized assistant messages and replaces the original '
                    "model output in the stored transcript."),
        ("error", 'Regex rule r effect "finalize" requires stage "compiled".'),
        ("error", 'Regex rule r effect "finalize" only supports target "messages": system.'),
        ("error", 'Regex rule r target must be "system" or "messages": x.'),
        ("warning", 'Regex rule r effect "finalize" only runs for finalized assistant messages, but roles does not '
                    'include "assistant".'),
    ]  # fmt: skip
    # roles that are not a string array give no #12 warning
    assert ("warning", 'Regex rule r effect "finalize" only runs for finalized assistant messages, but roles does '
            'not include "assistant".') not in messages(rule(stage="compiled", effect="finalize", roles=[1]))  # fmt: skip


def test_pattern_and_flags() -> None:
    assert messages(rule(pattern="", flags=5)) == [("error", "Regex rule r pattern must be a non-empty string.")]
    assert messages(rule(pattern=" ", flags=5)) == [("error", "Regex rule r flags must be a string when provided.")]
    assert messages(rule(flags="gy")) == [("error", "Regex rule r has unsupported regex flag: y.")]
    assert messages(rule(flags="yg")) == [("error", "Regex rule r has unsupported regex flag: y.")]
    assert messages(rule(flags="ggy")) == [("error", "Regex rule r has duplicate regex flag: g.")]
    assert messages(rule(flags="😀")) == [("error", "Regex rule r has unsupported regex flag: 😀.")]
    # engine text: flags print in the order gimsu; the pattern is not escaped
    assert messages(rule(pattern="a/(", flags="ig")) == [
        ("error", "Regex rule r pattern failed to compile: Invalid regular expression: /a/(/gi: Unterminated group")
    ]
    for pattern, flags, reason in [
        ("[", "", "Unterminated character class"),
        ("(?<a>x)(?<a>y)", "", "Duplicate capture group name"),
        ("a{2,1}", "", "numbers out of order in {} quantifier"),
        ("\\p{Foo}", "u", "Invalid property name"),
    ]:
        assert messages(rule(pattern=pattern, flags=flags)) == [
            ("error", f"Regex rule r pattern failed to compile: Invalid regular expression: /{pattern}/{flags}: {reason}")
        ]


def test_replace() -> None:
    assert messages(rule(replace=5)) == [("error", "Regex rule r replace must be a string when provided.")]
    match_warning = (
        "warning",
        "Regex rule r replacement contains SillyTavern {{match}}; use JavaScript $& or re-import the SillyTavern "
        "preset to convert it.",
    )
    for text in ("{{match}}", "{{ MATCH }}", "a{{\ufeffMatch\u00a0}}b"):
        assert messages(rule(replace=text)) == [match_warning]
    for text in ("$0", "{{ma\u017fch}}", "{{\x1cmatch}}", "{match}"):
        assert messages(rule(replace=text)) == []


def test_lists() -> None:
    assert messages(rule(trimStrings=[1], roles="user", targets="messages")) == [
        ("error", "Regex rule r trimStrings must be an array of strings when provided."),
        ("error", "Regex rule r roles must be an array of strings when provided."),
        ("error", "Regex rule r targets must be an array of strings when provided."),
    ]
    assert messages(rule(trimStrings=[], roles=[], targets=[])) == []


def test_numbers() -> None:
    assert messages(rule(maxMessages=0, maxChars=2.5, minDepth=-1, maxDepth="2")) == [
        ("error", "Regex rule r maxMessages must be a positive integer when provided."),
        ("error", "Regex rule r maxChars must be a positive integer when provided."),
        ("error", "Regex rule r minDepth must be a non-negative integer when provided."),
        ("error", "Regex rule r maxDepth must be a non-negative integer when provided."),
    ]
    assert messages(rule(maxMessages=2.0, maxChars=True)) == [
        ("error", "Regex rule r maxChars must be a positive integer when provided.")
    ]
    assert messages(rule(minDepth=3, maxDepth=2)) == [
        ("error", "Regex rule r maxDepth must be greater than or equal to minDepth.")
    ]
    assert messages(rule(minDepth=2.0, maxDepth=2)) == []


def test_imported_rules_validate_cleanly() -> None:
    # C9: a converted rule has stage history, effect outgoing, no targets, and JavaScript replacement syntax,
    # so the loader raises nothing on it (the {{match}} warning is exactly what the conversion removes).
    summary = summarize({"regex_scripts": [
        {"scriptName": "A", "findRegex": "/\\[([^\\]]+)\\]/g", "replaceString": "**{{match}}**/$0/$1",
         "trimStrings": ["[", "]"], "placement": [1, 2, 6], "minDepth": 0, "maxDepth": 4, "substituteRegex": 1,
         "promptOnly": True},
        {"scriptName": "B", "findRegex": "x", "promptOnly": True, "minDepth": 5, "maxDepth": 1},
    ]})  # fmt: skip
    assert summary is not None
    assert check({"schemaVersion": 1, "rules": summary.rules}) == [
        # the importer does not check minDepth <= maxDepth (C9); the loader then does (A3 #17)
        ("error", "Regex rule st-b maxDepth must be greater than or equal to minDepth.")
    ]
