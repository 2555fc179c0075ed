"""The ``forgec`` package namespace: ``dir(forgec)`` offers every name of ``__all__`` and leaks no
implementation names (``Any``, ``annotations``).
"""

from __future__ import annotations


def test_forgec_namespace_is_clean() -> None:
    import forgec

    names = dir(forgec)
    assert "Any" not in names and "annotations" not in names
    assert set(forgec.__all__) <= set(names)
    assert callable(forgec.compile_report)
