"""A positioned finding built as a plain slotted object, then given the finding's class.

Why: :mod:`.quick` fills a pure-Python ``Diagnostic`` through its 13 slot descriptors, a C call each
(~0.6 µs a finding).  A class with the *same* ``__slots__`` and an ordinary ``__init__`` stores the 13
values with plain attribute stores (~0.15 µs), and assigning ``__class__`` then turns the object into a
``Diagnostic`` (~0.1 µs): CPython allows the assignment only between classes of the same layout (same
base, same slots in the same order), so every value sits where ``Diagnostic``'s own descriptors read it.
The result is a genuine ``Diagnostic`` (its type, equality, hash, repr, frozenness are the class's).

This module is never compiled by mypyc (it is not in ``forgec.resources.COMPILED_MODULES``): the twin
must be an ordinary heap class.  In the mypyc build ``Diagnostic`` is a native class, the assignment is
refused, and :func:`twin_factory` returns None (:mod:`.quick` keeps its descriptor path there).
"""

from __future__ import annotations

from typing import Any

__all__ = ["twin_factory"]


def twin_factory(cls: Any, names: tuple[str, ...]) -> Any:
    """``make(level, message, code, item_id, pointer, offset, length)`` for the slotted class ``cls``
    whose ``__slots__`` are ``names`` (the 13 fields of :data:`.quick._FIELDS`, in order), or None when
    ``cls`` is not such a class or refuses the ``__class__`` assignment.  The caller checks the result
    against the constructor."""
    if type(cls) is not type or cls.__bases__ != (object,) or getattr(cls, "__slots__", None) != names:
        return None
    if "__dict__" in dir(cls) or "__weakref__" in dir(cls):
        return None

    class Twin:
        __slots__ = names

        def __init__(self, level: Any, message: str, code: str, item_id: Any, pointer: Any,
                     offset: int | None, length: int | None) -> None:
            self.level = level
            self.message = message
            self.code = code
            self.item_id = item_id
            self.pointer = pointer
            self.offset = offset
            self.length = length
            self.span = None
            self.extra = False
            self.field = None
            self.at_key = False
            self.fix = None
            self.caused_by = None

    def make(level: Any, message: str, code: str, item_id: Any, pointer: Any,
             offset: int | None, length: int | None) -> Any:
        made: Any = Twin(level, message, code, item_id, pointer, offset, length)
        made.__class__ = cls
        return made

    try:
        make("warning", "m", "FG000", None, None, None, None)
    except TypeError:  # a layout CPython will not assign across (or a native class)
        return None
    return make
