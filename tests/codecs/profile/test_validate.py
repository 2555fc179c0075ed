"""Post-validation (§1.3 step 4) on profiles about to be written, and the write-time scope guard (§1.7)."""

from __future__ import annotations

from typing import Any

import pytest

from forgec.codecs.profile import (
    MalformedProfileError,
    check_stack_scope,
    serialize_profile,
    validate_profile,
)

GOOD: dict[str, Any] = {
    "schemaVersion": 1,
    "type": "pi-forge.agent-profile",
    "id": "writer",
    "model": {"provider": "anthropic", "id": "claude-sonnet-4-5"},
    "thinkingLevel": "low",
    "promptStack": None,
}


def texts(found: list[Any]) -> list[tuple[str | None, str]]:
    return [(d.field, d.message) for d in found]


def test_a_good_profile_passes() -> None:
    assert validate_profile(GOOD) == []


def test_every_post_validation_check() -> None:
    bad = {"schemaVersion": 2, "type": "x", "id": "bad id", "model": {"provider": " ", "id": ""},
           "thinkingLevel": "turbo", "promptStack": "  "}  # fmt: skip
    assert texts(validate_profile(bad)) == [
        ("schemaVersion", "schemaVersion must be 1."),
        ("type", 'type must be "pi-forge.agent-profile".'),
        (
            "id",
            "Profile id must start with a letter or number and contain only letters, numbers, dots, underscores, and hyphens.",
        ),
        ("model.provider", "model.provider must not be empty."),
        ("model.id", "model.id must not be empty."),
        ("thinkingLevel", "Unsupported thinkingLevel: turbo"),
        ("promptStack", "promptStack must be a non-empty stack id or null."),
    ]
    assert all(d.level == "error" for d in validate_profile(bad))


def test_the_id_check_reads_string_of_the_id_as_regexp_test_does() -> None:
    assert validate_profile({**GOOD, "id": 42}) == []
    assert (
        validate_profile({k: v for k, v in GOOD.items() if k != "id"}) == []
    )  # String(undefined) is "undefined"
    assert texts(validate_profile({**GOOD, "id": {"a": 1}}))[0][0] == "id"


@pytest.mark.parametrize(
    ("profile", "message"),
    [
        (None, "Cannot read properties of null (reading 'schemaVersion')"),
        ({**GOOD, "model": None}, "Cannot read properties of null (reading 'provider')"),
        (
            {k: v for k, v in GOOD.items() if k != "model"},
            "Cannot read properties of undefined (reading 'provider')",
        ),
        ({**GOOD, "model": {"provider": 5, "id": "x"}}, "profile.model.provider.trim is not a function"),
        ({**GOOD, "model": {"provider": "a"}}, "Cannot read properties of undefined (reading 'trim')"),
        ({**GOOD, "promptStack": 7}, "profile.promptStack.trim is not a function"),
    ],
)
def test_shapes_the_original_cannot_read_raise(profile: Any, message: str) -> None:
    with pytest.raises(MalformedProfileError) as raised:
        validate_profile(profile)
    assert str(raised.value) == message


@pytest.mark.parametrize(
    ("scope", "reference", "expected"),
    [
        ("project", None, []),
        ("global", None, []),
        ("project", "x", []),
        ("project", "project:x", []),
        ("project", "global:x", []),
        ("global", "x", []),
        ("global", "global:x", []),
        ("global", "project:x", ["Global profile writer cannot reference project prompt stack x."]),
        ("global", "user:x", ['Unknown scope prefix: user. Expected "project" or "global".']),
        (
            "project",
            "global:-x",
            [
                "Invalid resource id: -x. Ids must start with a letter or number and contain only letters, numbers, dots, "
                "underscores, and hyphens."
            ],
        ),
        ("project", " ", ["Resource selector must not be empty."]),
    ],
)
def test_write_time_scope_guard(scope: str, reference: str | None, expected: list[str]) -> None:
    found = check_stack_scope({**GOOD, "promptStack": reference}, scope)
    assert [d.message for d in found] == expected
    assert all(d.field == "promptStack" and d.level == "error" for d in found)


def test_serialisation_is_two_space_json_in_the_objects_order() -> None:
    text = serialize_profile({"schemaVersion": 1, "id": "é", "model": {}, "list": [], "n": None})
    assert text == '{\n  "schemaVersion": 1,\n  "id": "é",\n  "model": {},\n  "list": [],\n  "n": null\n}\n'
