"""Escaping untrusted text for terminals and JSON documents: the same result as a full translation,
without translating (one dictionary lookup per character) text that has nothing to escape."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from forgec.output import textsafe
from forgec.output.textsafe import escape_controls, escape_json_controls

_TEXT = st.text(alphabet=st.one_of(st.characters(), st.sampled_from(["\t", "\n", "\r", "\x1b", "\x7f", "\x85", "\u202e", "\u2066"])))


@given(_TEXT)
def test_escaping_is_the_translation_of_every_character(text: str) -> None:
    assert escape_controls(text) == text.translate(textsafe._KEEP_TAB)
    assert escape_controls(text, keep_newlines=True) == text.translate(textsafe._KEEP_NEWLINE)
    assert escape_controls(text, keep_newlines=True, keep_cr=True) == text.translate(textsafe._KEEP_LINE_BREAKS)
    assert escape_json_controls(text) == text.translate(textsafe._JSON_ESCAPES)


def test_clean_text_is_returned_untouched() -> None:
    """A 17 MB SARIF document of 20,000 findings took 8 s to translate (issue 13): clean text is
    searched in C and handed back as the same object."""
    document = '{"a": "b\\u0000"}\n' * 100_000
    assert escape_json_controls(document) is document
    assert escape_controls("tab\tonly") == "tab\tonly"
