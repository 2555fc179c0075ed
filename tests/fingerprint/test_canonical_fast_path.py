"""The C-encoder fast path of ``canonical_json`` against the checked writer it shortcuts.

``canonical_json`` prints plain data with ``json``'s C encoder once ``_check_plain`` has vouched for
it and falls back to ``write_canonical`` (which builds error paths) otherwise; both must give the same text,
and the same error, for every value.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from forgec import fingerprint
from forgec.fingerprint import FingerprintError, canonical_json
from forgec.js.values import UNDEFINED


def _checked(value: Any) -> str:
    return fingerprint.write_canonical(
        value, "$", fingerprint.canonical_scalar, fingerprint._canon_members, fingerprint._canon_elements
    )


def _outcome(function: Any, value: Any) -> tuple[str, str]:
    try:
        return ("ok", function(value))
    except FingerprintError as error:
        return ("error", str(error))


# numbers where Python's repr and ECMAScript's Number::toString differ, or nearly do
_NUMBERS = [
    0.5,
    1e-4,
    1.5e-4,
    9.9e-5,
    9.9e15,
    1e16,
    1e21,
    123.456,
    -0.0,
    0,
    2.0,
    1e-7,
    0.1,
    1 / 3,
    2.0**53,
    2**53,
    2**53 - 1,
    -(2**53),
    10**30,
    float("inf"),
    float("nan"),
]
_TEXTS = [
    "",
    "\ud800",
    "a\udc00",
    "\ud83d\ude00",
    "\ue000",
    "\uffff",
    "\U0001f600",
    '\x7f\x00\n"\\',
    "\u2028",
]
_SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**60), max_value=2**60)
    | st.floats()
    | st.text(max_size=6)
    | st.sampled_from(_NUMBERS)
    | st.sampled_from(_TEXTS)
    | st.just(UNDEFINED)
)
_KEYS = st.text(max_size=3) | st.sampled_from(_TEXTS)
_VALUES = st.recursive(
    _SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_KEYS, inner, max_size=4),
    max_leaves=25,
)


@settings(max_examples=400, deadline=None)
@given(_VALUES)
def test_fast_path_prints_exactly_what_the_checked_writer_prints(value: Any) -> None:
    assert _outcome(canonical_json, value) == _outcome(_checked, value)


def _nested(depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = [value]
    return value


def test_values_the_fast_path_refuses_still_print_or_fail_as_the_runtime_does() -> None:
    cases: list[Any] = [
        {"a": 1.0, "b": 1e21, "c": -0.0, "d": 2**60},  # numbers repr prints differently
        {"\ue000": 1, "\U0001f600": 2},  # keys whose code-point order differs from UTF-16 order
        {"s": "x\ud83dy"},  # a lone surrogate
        {"a": UNDEFINED, "b": [UNDEFINED]},
        {1: "non-string key"},
        _nested(70),  # deeper than the fast path goes
    ]
    for value in cases:
        assert _outcome(canonical_json, value) == _outcome(_checked, value)
    cyclic: dict[str, Any] = {}
    cyclic["self"] = cyclic
    assert _outcome(canonical_json, cyclic) == ("error", "Cannot fingerprint cyclic value at $.self.")


def test_the_error_names_the_path_of_the_offending_value() -> None:
    assert _outcome(canonical_json, {"items": [{"n": float("nan")}]}) == (
        "error",
        "Cannot fingerprint non-finite number at $.items[0].n.",
    )


# --- which values the fast path takes: the same as the walk with one generic loop it replaced -------


def _generic_check(value: Any, depth: int) -> None:
    """``_check_plain`` as written before its typed loops: one loop over a dict's values, a list or
    tuple, or the value alone."""
    if depth > fingerprint._PLAIN_DEPTH:
        raise fingerprint._Unusual
    if type(value) is dict:
        try:
            joined = "".join(value)
        except TypeError:
            raise fingerprint._Unusual from None
        if not joined.isascii() and fingerprint._HIGH_KEY_CHAR.search(joined):
            raise fingerprint._Unusual
        items: Any = value.values()
    elif type(value) is list or type(value) is tuple:
        items = value
    else:
        items = (value,)
    for item in items:
        kind = type(item)
        if kind is str or kind is bool or item is None:
            continue
        if kind is dict or kind is list or kind is tuple:
            _generic_check(item, depth + 1)
        elif kind is int:
            if not -(2**53) < item < 2**53:
                raise fingerprint._Unusual
        elif not (kind is float and 1e-4 <= abs(item) < 1e16 and not item.is_integer()):
            raise fingerprint._Unusual


def _verdict(check: Any, value: Any) -> bool:
    try:
        check(value, 0)
    except fingerprint._Unusual:
        return False
    return True


_WITH_TUPLES = st.recursive(
    _SCALARS,
    lambda inner: st.lists(inner, max_size=4)
    | st.lists(inner, max_size=3).map(tuple)
    | st.dictionaries(_KEYS, inner, max_size=4)
    | st.dictionaries(st.integers(0, 3), inner, min_size=1, max_size=2),
    max_leaves=25,
)


@settings(max_examples=600, deadline=None)
@given(_WITH_TUPLES)
def test_the_fast_path_takes_what_the_generic_walk_took(value: Any) -> None:
    assert _verdict(fingerprint._check_plain, value) == _verdict(_generic_check, value)


def test_the_depth_limit_is_where_the_generic_walk_put_it() -> None:
    for depth in range(60, 70):
        for value in (_nested(depth), {"items": [{"k": _nested(depth)}]}, ({"t": (1,)},) * 2):
            assert _verdict(fingerprint._check_plain, value) == _verdict(_generic_check, value), depth
        deep: Any = "x"
        for _ in range(depth):
            deep = {"k": deep}
        assert _verdict(fingerprint._check_plain, deep) == _verdict(_generic_check, deep), depth
    assert _verdict(fingerprint._check_plain, _nested(64)) and not _verdict(fingerprint._check_plain, _nested(66))
