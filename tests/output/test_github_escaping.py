"""GitHub workflow-command escaping (forgec.output.github): GitHub's own percent encoding of ``%``,
CR and LF (and ``:`` and ``,`` in properties) is kept, other control characters become visible escapes.
"""

from __future__ import annotations


def test_github_format_keeps_its_own_encoding() -> None:
    from forgec.output.github import escape_data, escape_property

    assert escape_data("50%\r\n\x1b") == "50%25%0D%0A\\x1b"
    assert escape_property("a:b,c\n") == "a%3Ab%2Cc%0A"
