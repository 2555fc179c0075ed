""":func:`forgec.diagnostics.records.record_maker`: a fast maker only for a class it knows field for field.

The makers it hands out (the caller's storing function, the plain-slots twin, the descriptors) must make
the constructor's very record; anything it cannot prove that for gets the :class:`ConstructorMaker`, which
calls the constructor.  The two users' own tests (``test_quick_finding.py``, ``tests/report/test_records.py``)
hold their makers on in both builds; these hold every refusal.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any, ClassVar

import pytest

from forgec.diagnostics.records import ConstructorMaker, knows_fields, record_maker

GIVEN = ("name", "value", "where")
FILLED: tuple[tuple[str, Any], ...] = (("note", None), ("flag", False))
PROBE = ("n", 1, ("p", 0))


@dataclasses.dataclass(frozen=True, slots=True)
class Record:
    name: str
    value: Any
    where: Any = None
    note: Any = None
    flag: bool = False


def _fields(made: Any) -> list[tuple[Any, type]]:
    """Every field of a record (a dataclass's fields, another class's slots) with its type."""
    names = [field.name for field in dataclasses.fields(made)] if dataclasses.is_dataclass(made) else type(made).__slots__
    values = [getattr(made, name) for name in names]
    return [(value, type(value)) for value in values]


def _maker_name(make: Any) -> str:
    return type(make).__name__ if isinstance(make, ConstructorMaker) else make.__name__


def test_a_known_class_gets_the_twin_else_the_descriptors() -> None:
    assert _maker_name(record_maker(Record, GIVEN, FILLED, probe=PROBE)) == "make_by_twin"
    assert _maker_name(record_maker(Record, GIVEN, FILLED, probe=PROBE, twin=False)) == "make_by_descriptors"


@pytest.mark.parametrize("twin", [True, False], ids=["twin", "descriptors"])
def test_the_fast_makers_make_the_constructors_record(twin: bool) -> None:
    make = record_maker(Record, GIVEN, FILLED, probe=PROBE, twin=twin)
    assert not isinstance(make, ConstructorMaker)
    rng = random.Random(3)
    for _ in range(200):
        values = tuple(rng.choice([None, 0, 1, True, "", "x", (), ("p", 2), {"k": 1}, 2.5]) for _ in GIVEN)
        made = make(*values)
        built = Record(*values)
        assert type(made) is Record and made == built and _fields(made) == _fields(built)
        assert repr(made) == repr(built)
        if not any(isinstance(value, dict) for value in values):
            assert hash(made) == hash(built)
        assert dataclasses.replace(made, flag=True) == dataclasses.replace(built, flag=True)
    made = make("n", 1, None)
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.name = "m"  # type: ignore[misc]
    with pytest.raises((AttributeError, TypeError)):
        made.other = 1  # type: ignore[attr-defined]
    for wrong in (("n", 1), ("n", 1, None, "note")):  # the filled fields are not the caller's to give
        with pytest.raises(TypeError):
            make(*wrong)


def _unknown_classes() -> dict[str, type]:
    """Classes ``GIVEN`` + ``FILLED`` do not describe exactly, each one way off."""

    @dataclasses.dataclass(frozen=True, slots=True)
    class Fewer:
        name: str
        value: Any
        where: Any = None

    @dataclasses.dataclass(frozen=True, slots=True)
    class Reordered:
        value: Any
        name: str
        where: Any = None
        note: Any = None
        flag: bool = False

    @dataclasses.dataclass(frozen=True)
    class NoSlots:
        name: str
        value: Any
        where: Any = None
        note: Any = None
        flag: bool = False

    @dataclasses.dataclass(frozen=True, slots=True)
    class OtherDefault:
        name: str
        value: Any
        where: Any = None
        note: Any = None
        flag: bool = True

    @dataclasses.dataclass(frozen=True, slots=True)
    class DefaultOfAnotherType:  # 0 == False, but the constructor would store 0
        name: str
        value: Any
        where: Any = None
        note: Any = None
        flag: Any = 0

    @dataclasses.dataclass(frozen=True, slots=True)
    class FactoryDefault:
        name: str
        value: Any
        where: Any = None
        note: Any = dataclasses.field(default_factory=list)
        flag: bool = False

    @dataclasses.dataclass(frozen=True, slots=True)
    class RequiredFilled:
        name: str
        value: Any
        where: Any
        note: Any
        flag: bool

    @dataclasses.dataclass(frozen=True, slots=True)
    class NotInInit:
        name: str
        value: Any
        where: Any = None
        note: Any = dataclasses.field(default=None, init=False)
        flag: bool = False

    @dataclasses.dataclass(frozen=True, slots=True)
    class PostInit:
        name: str
        value: Any
        where: Any = None
        note: Any = None
        flag: bool = False

        def __post_init__(self) -> None:
            pass

    class NotADataclass:
        __slots__ = ("flag", "name", "note", "value", "where")

        def __init__(self, name: str, value: Any, where: Any = None) -> None:
            self.name, self.value, self.where, self.note, self.flag = name, value, where, None, False

    return {cls.__name__: cls for cls in (Fewer, Reordered, NoSlots, OtherDefault, DefaultOfAnotherType,
                                           FactoryDefault, RequiredFilled, NotInInit, PostInit, NotADataclass)}


@pytest.mark.parametrize("name", list(_unknown_classes()))
def test_a_class_it_does_not_know_gets_the_constructor(name: str) -> None:
    cls = _unknown_classes()[name]
    assert not knows_fields(cls, GIVEN, FILLED)
    make = record_maker(cls, GIVEN, FILLED, probe=PROBE)
    assert isinstance(make, ConstructorMaker)
    try:
        built = cls(name="n", value=1, where=("p", 0))
    except TypeError:  # the fallback fails as the constructor itself does
        with pytest.raises(TypeError):
            make("n", 1, ("p", 0))
        return
    made = make("n", 1, ("p", 0))
    assert type(made) is cls and _fields(made) == _fields(built)


def test_what_is_not_a_class_gets_the_constructor() -> None:
    for thing in (int, Record("n", 1), None):
        assert not knows_fields(thing, GIVEN, FILLED)
        assert isinstance(record_maker(thing, GIVEN, FILLED, probe=PROBE), ConstructorMaker)


def test_a_class_variable_or_a_class_with_another_layout_keeps_the_descriptors() -> None:
    """A class variable is no field; a base class or a ``__weakref__`` slot is a layout the twin cannot
    copy (the descriptors still can)."""

    @dataclasses.dataclass(frozen=True, slots=True)
    class WithClassVariable:
        kind: ClassVar[str] = "record"
        name: str
        value: Any
        where: Any = None
        note: Any = None
        flag: bool = False

    class Base:
        __slots__ = ()

    @dataclasses.dataclass(frozen=True, slots=True)
    class Derived(Base):
        name: str
        value: Any
        where: Any = None
        note: Any = None
        flag: bool = False

    @dataclasses.dataclass(frozen=True, slots=True, weakref_slot=True)
    class Weak:
        name: str
        value: Any
        where: Any = None
        note: Any = None
        flag: bool = False

    expected = {WithClassVariable: "make_by_twin", Derived: "make_by_descriptors", Weak: "make_by_descriptors"}
    for cls, maker in expected.items():
        make = record_maker(cls, GIVEN, FILLED, probe=PROBE)
        assert _maker_name(make) == maker, cls
        made = make("n", 1, ("p", 0))
        assert type(made) is cls and _fields(made) == _fields(cls("n", 1, ("p", 0))), cls


def test_a_native_maker_is_handed_out_only_where_it_makes_the_constructors_record() -> None:
    """The caller's storing function comes first, but is passed over when it raises (as Python, its first
    store on a frozen class does), leaves a field out, mixes two up, or makes another class."""

    def by_constructor(name: str, value: Any, where: Any) -> Any:
        return Record(name, value, where)

    def frozen_stores(name: str, value: Any, where: Any) -> Any:
        made = Record.__new__(Record)
        made.name = name  # type: ignore[misc]
        return made

    def swapped(name: str, value: Any, where: Any) -> Any:
        return Record(name, where, value)

    def other_class(name: str, value: Any, where: Any) -> Any:
        return (name, value, where, None, False)

    def a_field_left_out(name: str, value: Any, where: Any) -> Any:
        made = Record.__new__(Record)
        object.__setattr__(made, "name", name)
        return made

    assert record_maker(Record, GIVEN, FILLED, probe=PROBE, native=by_constructor) is by_constructor
    for native in (frozen_stores, swapped, other_class, a_field_left_out):
        make = record_maker(Record, GIVEN, FILLED, probe=PROBE, native=native)
        assert _maker_name(make) == "make_by_twin", native


def test_a_probe_the_constructor_refuses_gets_the_constructor() -> None:
    assert isinstance(record_maker(Record, GIVEN, FILLED, probe=("n",)), ConstructorMaker)


def test_the_constructor_maker_calls_by_name() -> None:
    @dataclasses.dataclass(frozen=True)
    class Named:
        where: Any
        name: str
        value: Any

    make = ConstructorMaker(Named, GIVEN)
    assert make("n", 1, ("p", 0)) == Named(("p", 0), "n", 1)
    with pytest.raises(TypeError):
        make("n", 1)
