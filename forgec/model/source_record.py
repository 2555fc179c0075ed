"""A message source that several compile results share, and therefore cannot be changed.

Why it exists: a compile reports one source per history message (``messages.sources``, §1.4), and
for a long conversation those records are most of the compile's work -- 50,000 dicts made and freed
on every compile cost more than pi-forge's whole call (docs/performance-log.md, *Stop 32*).  Yet they
depend only on the chat-history item's members and the messages' roles, so a host or an editor that
compiles the same long history again gets the very same records.  forgec keeps the last long
history's records and hands them to every compile that would make them again
(:func:`forgec.compile.assemble.shared_history_sources`); a record handed to several results must
not be changeable by one of them, hence this type.

A :class:`SourceRecord` is a ``dict``: JSON, equality, ``isinstance(record, dict)``, reading and the
printed form are a plain dict's.  What would change it raises :class:`TypeError` and says how to
get a copy that can be changed: ``dict(record)``, ``record.copy()``, ``copy.copy`` and
``copy.deepcopy`` all give a plain ``dict``.
"""

from __future__ import annotations

from typing import Any, NoReturn

__all__ = ["SourceRecord"]

_READ_ONLY = (
    "a message source of a long history is shared by every compile of that history and cannot be "
    "changed; dict(record) or copy.deepcopy(report) gives a copy you can change"
)


def _refuse() -> NoReturn:
    raise TypeError(_READ_ONLY)


class SourceRecord(dict[str, Any]):
    """A read-only message source (see the module's docstring); made by ``SourceRecord(mapping)``."""

    __slots__ = ()

    def __setitem__(self, key: str, value: Any) -> NoReturn:
        _refuse()

    def __delitem__(self, key: str) -> NoReturn:
        _refuse()

    def __ior__(self, other: Any) -> NoReturn:  # type: ignore[misc]
        _refuse()

    def clear(self) -> NoReturn:
        _refuse()

    def pop(self, key: str, *default: Any) -> NoReturn:
        _refuse()

    def popitem(self) -> NoReturn:
        _refuse()

    def setdefault(self, key: str, default: Any = None) -> NoReturn:
        _refuse()

    def update(self, *args: Any, **kwargs: Any) -> NoReturn:
        _refuse()

    def copy(self) -> dict[str, Any]:
        """A plain ``dict`` of the same members, yours to change."""
        return dict(self)

    def __copy__(self) -> dict[str, Any]:
        return dict(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> dict[str, Any]:
        # the members are strings, numbers, booleans, null or UNDEFINED (never containers: only such
        # records are shared), so the plain copy is already a deep one
        return dict(self)

    def __reduce__(self) -> tuple[type[SourceRecord], tuple[dict[str, Any]]]:
        return (SourceRecord, (dict(self),))
