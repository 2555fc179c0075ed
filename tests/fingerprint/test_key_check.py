""":func:`forgec.fingerprint._check_plain`'s key test, compiled (``NATIVE_KEYS``: each key by ``type`` and a
set of keys passed before, :func:`forgec.fingerprint._check_key`) and as Python (the keys joined): the two
must vouch for exactly the same objects."""

from __future__ import annotations

from types import FunctionType
from typing import Any

import pytest

import forgec.fingerprint as fp
from forgec.resources import compiled_modules


class _Key(str):
    pass


#: objects whose keys are plain, and objects with a key the runtime sorts otherwise or cannot print
_OBJECTS: list[tuple[dict[Any, Any], bool]] = [
    ({"kind": "block", "id": "a", "content": "x"}, True),
    ({"é": 1, "\ud7ff": 2, "\u0000": 3, "": 4}, True),
    ({_Key("k"): "v"}, True),
    ({"a": 1, "\ue000": 2}, False),
    ({"a": 1, "b\U0001f600": 2}, False),
    ({1: "x"}, False),
    ({None: "x"}, False),
    ({(1, 2): "x"}, False),
    ({"a": {"b": {2.5: 1}}}, False),
    ({"items": [{"id": "x", "\uffff": 1}]}, False),
    ({"items": [{"id": "x", "name": "y"}], "z": [{"é": None}]}, True),
]


def _vouched(value: Any) -> bool:
    try:
        fp._check_plain(value, 0)
    except fp._Unusual:
        return False
    return True


def test_native_keys_exactly_when_compiled() -> None:
    assert fp.NATIVE_KEYS is ("fingerprint.py" in compiled_modules())
    assert fp.NATIVE_KEYS is not isinstance(fp._check_key, FunctionType)


@pytest.mark.parametrize(("value", "plain"), _OBJECTS)
def test_both_key_tests_vouch_alike(value: dict[Any, Any], plain: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    """Twice each (the second time the set knows the keys that passed), and as Python both ways."""
    assert _vouched(value) is plain
    assert _vouched(value) is plain
    if not fp.NATIVE_KEYS:  # as Python the flag is read at each call: the compiled loop can run here too
        monkeypatch.setattr(fp, "NATIVE_KEYS", True)
        assert _vouched(value) is plain
        assert _vouched(value) is plain


def test_the_set_keeps_exact_strings_only_and_stays_bounded() -> None:
    fp._check_key(_Key("only-a-subclass"))
    assert "only-a-subclass" not in fp._PLAIN_KEYS
    fp._check_key("exact")
    assert "exact" in fp._PLAIN_KEYS
    for i in range(fp._PLAIN_KEYS_LIMIT + 10):
        fp._check_key(f"k{i}")
    assert len(fp._PLAIN_KEYS) <= fp._PLAIN_KEYS_LIMIT
    for bad in (1, None, b"x", "\ue000", "a\U0010ffff"):
        with pytest.raises(fp._Unusual):
            fp._check_key(bad)
        assert bad not in fp._PLAIN_KEYS
