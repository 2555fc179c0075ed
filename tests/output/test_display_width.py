"""Display width of text in a terminal (forgec.output.full), which places the ``full`` format's carets:
wide East Asian characters, emoji presentation, ZWJ sequences, skin tones, flags, combining marks.
"""

from __future__ import annotations


def test_display_width() -> None:
    from forgec.output.full import _width

    assert _width("日本") == 4
    assert _width("❤️") == 2  # VS16 emoji presentation
    assert _width("👨\u200d👩\u200d👧") == 2  # ZWJ family
    assert _width("👍🏽") == 2  # skin tone
    assert _width("e\u0301") == 1  # combining accent
    assert _width("🇯🇵") == 2
