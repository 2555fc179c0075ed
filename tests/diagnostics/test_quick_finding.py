""":data:`forgec.diagnostics.quick.POSITIONED` makes exactly what the ``Diagnostic`` constructor makes.

The maker (:func:`forgec.diagnostics.records.record_maker`'s, for the macro engine's unresolved-macro
findings, ~2 per new block) must give an equal object in every observable way (fields, equality, hash,
repr, pi-forge's view, ``dataclasses.replace``), be on in both builds, and hand any class it does not know
field for field to the fallback that calls the constructor.  The mechanism's own refusals are held in
``test_records.py``.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from forgec.diagnostics import Diagnostic, quick
from forgec.diagnostics.quick import POSITIONED, ConstructorMaker, positioned_factory
from forgec.resources import compiled_modules

PURE_CORE = "diagnostics/core.py" not in compiled_modules()
COMPILED = "diagnostics/quick.py" in compiled_modules() and not PURE_CORE
#: the descriptor maker (handed out where neither the compiled stores nor the twin run)
DESCRIPTORS = positioned_factory(Diagnostic, twin=False, native=False)
MAKERS = pytest.mark.parametrize("make", [POSITIONED, DESCRIPTORS], ids=["handed-out", "descriptors"])


def _fields(diagnostic: Diagnostic) -> tuple[Any, ...]:
    return tuple(getattr(diagnostic, field.name) for field in dataclasses.fields(diagnostic))


def test_on_in_both_builds() -> None:
    """A changed ``Diagnostic`` switches the fast makers off; this notices it (update ``_GIVEN`` and
    ``_FILLED``).  In the mypyc build ``Diagnostic`` is a native class (its attributes getset descriptors):
    on there too."""
    assert not isinstance(POSITIONED, ConstructorMaker) and not isinstance(DESCRIPTORS, ConstructorMaker)
    assert PURE_CORE or type(Diagnostic.__dict__["level"]).__name__ == "getset_descriptor"
    assert DESCRIPTORS.__name__ == "make_by_descriptors"


def test_the_compiled_stores_are_handed_out_in_the_compiled_build_the_twin_in_the_pure_one() -> None:
    """Compiled, ``quick.native_make`` stores straight into the native object (frozen is the dataclass's
    ``__setattr__``, which compiled stores do not call); as Python its first store raises, so the pure
    build hands out the twin (a plain object of the same slots given ``Diagnostic`` as its class), which
    the native class refuses.  Either way what the compiled stores make (when they run) is the
    constructor's object."""
    assert (POSITIONED is quick.native_make) is COMPILED
    if PURE_CORE:
        assert POSITIONED.__name__ == "make_by_twin"
    built = Diagnostic("error", "m", "FG201", item_id="i", pointer=("items", 2, "content"), offset=3, length=4)
    if COMPILED:
        made = quick.native_make("error", "m", "FG201", "i", ("items", 2, "content"), 3, 4)
        assert type(made) is Diagnostic and made == built and _fields(made) == _fields(built)
        assert hash(made) == hash(built) and repr(made) == repr(built) and made.to_pi() == built.to_pi()
        with pytest.raises(dataclasses.FrozenInstanceError):
            made.level = "warning"  # type: ignore[misc]
    else:
        with pytest.raises(dataclasses.FrozenInstanceError):
            quick.native_make("error", "m", "FG201", "i", None, 3, 4)
        # passed over: without the twin, the descriptors come next
        assert positioned_factory(Diagnostic, twin=False).__name__ == "make_by_descriptors"


@MAKERS
@pytest.mark.parametrize("seed", range(20))
def test_equal_to_the_constructor(seed: int, make: Any) -> None:
    assert make is not None
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
        made = make(*args)
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


@MAKERS
def test_still_frozen(make: Any) -> None:
    assert make is not None
    made = make("warning", "m", "FG201", "item", None, 1, 2)
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.level = "error"
    with pytest.raises((AttributeError, TypeError)):
        made.other = 1  # no __dict__: no new attribute either


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

    for cls in (Fewer, int):  # the fallback fails as the constructor itself does
        fallback = positioned_factory(cls)
        assert isinstance(fallback, ConstructorMaker), cls
        with pytest.raises(TypeError):
            fallback("error", "m", "c", "i", ("p",), 1, 2)
    for cls in (NoSlots, OtherDefault, PostInit):  # the fallback: the constructor's very object
        fallback = positioned_factory(cls)
        assert isinstance(fallback, ConstructorMaker), cls
        made_back: Any = fallback("error", "m", "c", "i", ("p",), 1, 2)
        built = cls("error", "m", "c", item_id="i", pointer=("p",), offset=1, length=2)  # type: ignore[call-arg]
        assert type(made_back) is cls and made_back == built and vars_of(made_back) == vars_of(built), cls
    make = positioned_factory(Same)
    assert not isinstance(make, ConstructorMaker)
    made: Any = make("error", "m", "c", "i", ("p",), 1, 2)
    assert made == Same("error", "m", "c", "i", ("p",), 1, 2)


def vars_of(made: Any) -> list[tuple[Any, type]]:
    """Every field of a dataclass instance with its type."""
    values = [getattr(made, field.name) for field in dataclasses.fields(made)]
    return [(value, type(value)) for value in values]


def test_the_native_flag_names_the_native_maker() -> None:
    """``NATIVE_POSITIONED`` (what the engine asks before calling ``native_make`` by name) is set exactly
    when ``POSITIONED`` is the native maker: in the compiled build only."""
    assert quick.NATIVE_POSITIONED is (quick.POSITIONED is quick.native_make)
    assert quick.NATIVE_POSITIONED is COMPILED
