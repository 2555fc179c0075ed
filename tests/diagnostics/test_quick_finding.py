""":data:`forgec.diagnostics.quick.POSITIONED` makes exactly what the ``Diagnostic`` constructor makes.

The factory sets the slots of a pure-Python ``Diagnostic`` directly (the macro engine's unresolved-macro
findings, ~2 per new block); it must give an equal object in every observable way (fields, equality,
hash, repr, pi-forge's view, ``dataclasses.replace``), be on in both builds, and stand aside for any
class it does not know field for field.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from forgec.diagnostics import Diagnostic
from forgec.diagnostics.quick import POSITIONED, positioned_factory
from forgec.resources import compiled_modules

PURE_CORE = "diagnostics/core.py" not in compiled_modules()


def _fields(diagnostic: Diagnostic) -> tuple[Any, ...]:
    return tuple(getattr(diagnostic, field.name) for field in dataclasses.fields(diagnostic))


def test_on_in_both_builds() -> None:
    """A changed ``Diagnostic`` switches the factory off; this notices it (update ``_FIELDS``).  In the
    mypyc build ``Diagnostic`` is a native class (its attributes getset descriptors): on there too."""
    assert POSITIONED is not None
    assert PURE_CORE or type(Diagnostic.__dict__["level"]).__name__ == "getset_descriptor"


@pytest.mark.parametrize("seed", range(20))
def test_equal_to_the_constructor(seed: int) -> None:
    assert POSITIONED is not None
    rng = random.Random(seed)
    for _ in range(50):
        args = (
            rng.choice(["error", "warning", "info"]),
            f"Unresolved macro: {{{{x{rng.randrange(100)}}}}}",
            rng.choice(["FG201", "FG203"]),
            rng.choice([None, "item", 1, True, {"id": 1}, ""]),
            rng.choice([None, ("items", 1, "content"), ("items", True), ()]),
            rng.choice([None, 0, 17]),
            rng.choice([None, 0, 9]),
        )
        made = POSITIONED(*args)  # type: ignore[arg-type]
        level, message, code, item_id, pointer, offset, length = args
        built = Diagnostic(level, message, code, item_id=item_id, pointer=pointer, offset=offset, length=length)  # type: ignore[arg-type]
        assert type(made) is Diagnostic
        assert made == built and built == made
        assert _fields(made) == _fields(built)
        assert [type(value) for value in _fields(made)] == [type(value) for value in _fields(built)]
        if not isinstance(item_id, dict):  # a dict id is unhashable either way
            assert hash(made) == hash(built)
        assert repr(made) == repr(built)
        assert made.to_pi() == built.to_pi()
        assert dataclasses.replace(made, offset=3) == dataclasses.replace(built, offset=3)


def test_still_frozen() -> None:
    assert POSITIONED is not None
    made = POSITIONED("warning", "m", "FG201", "item", None, 1, 2)
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.level = "error"  # type: ignore[misc]


def test_off_for_a_class_it_does_not_know() -> None:
    @dataclasses.dataclass(frozen=True, slots=True)
    class Fewer:
        level: str
        message: str
        code: str

    @dataclasses.dataclass(frozen=True)
    class NoSlots:
        level: str
        message: str
        code: str
        item_id: Any = None
        pointer: Any = None
        offset: Any = None
        length: Any = None
        span: Any = None
        extra: bool = False
        field: Any = None
        at_key: bool = False
        fix: Any = None
        caused_by: Any = None

    @dataclasses.dataclass(frozen=True, slots=True)
    class OtherDefault:
        level: str
        message: str
        code: str
        item_id: Any = None
        pointer: Any = None
        offset: Any = None
        length: Any = None
        span: Any = None
        extra: bool = True
        field: Any = None
        at_key: bool = False
        fix: Any = None
        caused_by: Any = None

    @dataclasses.dataclass(frozen=True, slots=True)
    class PostInit:
        level: str
        message: str
        code: str
        item_id: Any = None
        pointer: Any = None
        offset: Any = None
        length: Any = None
        span: Any = None
        extra: bool = False
        field: Any = None
        at_key: bool = False
        fix: Any = None
        caused_by: Any = None

        def __post_init__(self) -> None:
            pass

    @dataclasses.dataclass(frozen=True, slots=True)
    class Same:
        level: str
        message: str
        code: str
        item_id: Any = None
        pointer: Any = None
        offset: Any = None
        length: Any = None
        span: Any = None
        extra: bool = False
        field: Any = None
        at_key: bool = False
        fix: Any = None
        caused_by: Any = None

    for cls in (Fewer, NoSlots, OtherDefault, PostInit, int):
        assert positioned_factory(cls) is None, cls
    make = positioned_factory(Same)
    assert make is not None
    made: Any = make("error", "m", "c", "i", ("p",), 1, 2)
    assert made == Same("error", "m", "c", "i", ("p",), 1, 2)
