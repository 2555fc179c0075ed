""":data:`forgec.diagnostics.quick.POSITIONED` makes exactly what the ``Diagnostic`` constructor makes.

The factory sets the slots of a pure-Python ``Diagnostic`` directly (the macro engine's unresolved-macro
findings, ~2 per new block); it must give an equal object in every observable way (fields, equality,
hash, repr, pi-forge's view, ``dataclasses.replace``), be on in both builds, and hand any class it does
not know field for field to the fallback that calls the constructor.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from forgec.diagnostics import Diagnostic, quick
from forgec.diagnostics.quick import POSITIONED, ConstructorMaker, positioned_factory
from forgec.diagnostics.twin import twin_factory
from forgec.resources import compiled_modules

PURE_CORE = "diagnostics/core.py" not in compiled_modules()
#: the descriptor maker (what the mypyc build uses; the pure build hands out the twin maker instead)
DESCRIPTORS = positioned_factory(Diagnostic, twin=False)
MAKERS = pytest.mark.parametrize("make", [POSITIONED, DESCRIPTORS], ids=["handed-out", "descriptors"])


def _fields(diagnostic: Diagnostic) -> tuple[Any, ...]:
    return tuple(getattr(diagnostic, field.name) for field in dataclasses.fields(diagnostic))


def test_on_in_both_builds() -> None:
    """A changed ``Diagnostic`` switches the factory off; this notices it (update ``_FIELDS``).  In the
    mypyc build ``Diagnostic`` is a native class (its attributes getset descriptors): on there too."""
    assert not isinstance(POSITIONED, ConstructorMaker)
    assert PURE_CORE or type(Diagnostic.__dict__["level"]).__name__ == "getset_descriptor"


def test_the_twin_maker_is_handed_out_in_the_pure_build_only() -> None:
    """The pure class takes the plain-object-then-``__class__`` maker (the faster one); the native class
    of the mypyc build refuses the assignment, and keeps the descriptor maker."""
    assert not isinstance(POSITIONED, ConstructorMaker) and not isinstance(DESCRIPTORS, ConstructorMaker)
    assert DESCRIPTORS.__module__ == "forgec.diagnostics.quick"
    assert POSITIONED.__module__ == ("forgec.diagnostics.twin" if PURE_CORE else "forgec.diagnostics.quick")


def test_the_native_maker_is_handed_out_in_the_compiled_build_only() -> None:
    """Compiled, ``quick.native_make`` stores straight into the native object (frozen is the dataclass's
    ``__setattr__``, which compiled stores do not call); as Python its first store raises, so the pure
    build never hands it out.  Either way what it makes (when it runs) is the constructor's object."""
    compiled = "diagnostics/quick.py" in compiled_modules() and not PURE_CORE
    assert (POSITIONED is quick.native_make) is compiled
    built = Diagnostic("error", "m", "FG201", item_id="i", pointer=("items", 2, "content"), offset=3, length=4)
    if compiled:
        made = quick.native_make("error", "m", "FG201", "i", ("items", 2, "content"), 3, 4)
        assert type(made) is Diagnostic and made == built and _fields(made) == _fields(built)
        assert hash(made) == hash(built) and repr(made) == repr(built) and made.to_pi() == built.to_pi()
        with pytest.raises(dataclasses.FrozenInstanceError):
            made.level = "warning"  # type: ignore[misc]
    else:
        with pytest.raises(dataclasses.FrozenInstanceError):
            quick.native_make("error", "m", "FG201", "i", None, 3, 4)
        assert not quick._native_stores_work(built)


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


def test_the_twin_refuses_what_it_cannot_become() -> None:
    """Only a class deriving from ``object`` whose ``__slots__`` are exactly the fields, in order, without
    ``__dict__`` or ``__weakref__``: anything else is refused up front or by CPython's layout check."""
    names = ("level", "message", "code", "item_id", "pointer", "offset", "length", "span", "extra", "field",
             "at_key", "fix", "caused_by")

    class Reordered:
        __slots__ = (*names[1:], names[0])

    class WithDict:
        __slots__ = (*names, "__dict__")

    class WithWeakref:
        __slots__ = (*names, "__weakref__")

    class Base:
        __slots__ = ()

    class Derived(Base):
        __slots__ = names

    class Plain:
        pass

    for cls in (Reordered, WithDict, WithWeakref, Derived, Plain, int):
        assert twin_factory(cls, names) is None, cls

    class Exact:
        __slots__ = names

    make = twin_factory(Exact, names)
    assert make is not None
    made = make("error", "m", "c", "i", ("p",), 1, 2)
    assert type(made) is Exact
    assert [getattr(made, name) for name in names] == ["error", "m", "c", "i", ("p",), 1, 2, None, False, None, False, None, None]


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
    assert quick.NATIVE_POSITIONED is ("diagnostics/quick.py" in compiled_modules() and not PURE_CORE)
