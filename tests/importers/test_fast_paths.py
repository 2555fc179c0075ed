"""The importer's shortcuts (issue 14, stop 23) against the plain computations they replace.

Each shortcut skips work only where the result cannot change: a regex-table cell computed from a window
of a long value, macro counts taken from the substitutions that strip the text, the fidelity report's
``{{trim}}`` test taken from the scan, and a JSON dry run that renders no file text.  Random texts built
from the fragments the patterns care about compare each one with the straightforward version.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from forgec.importers.sillytavern.macros import MIGRATION_NOTES, MacroScan, ScannedText
from forgec.importers.sillytavern.patterns import (
    COMMENT_RE,
    LAST_USER_RE,
    MACRO_NAME_RE,
    TRIM_RE,
    WS_RUN_RE,
    collapse_newline_runs,
    join_trimmed,
    strip_comments_and_trims,
    trim_left_after_comments,
)
from forgec.importers.sillytavern.project import import_into_project
from forgec.importers.sillytavern.report import cell, collapse_whitespace
from forgec.js.values import js_len, js_trim, utf16_slice

_FRAGMENTS = (
    "{{", "}}", "//", "{{//", "{{ //", "{{trim}}", "{{ TRIM }}", "{{Trim\t}}", "tr", "im}}", "{{char}}",
    "{{user}}", "{{random::a::b}}", "{{lastUserMessage}}", "{{ lastUserMessage", "lastUserMessage-x", "{{{{",
    "{{// c}}", "{{ tRim", "trim", "}}}", "a", "b c", " ", "\n", "\n\n\n", "\u3000",
    "\ufeff", "|", "é", "\U0001f600", "x" * 40,
)  # fmt: skip


def _text(rng: random.Random, size: int) -> str:
    return "".join(rng.choice(_FRAGMENTS) for _ in range(size))


def _plain_cell(value: str) -> str:
    """``cell`` as it was written before the window: collapse and trim the whole value."""
    if js_trim(value) == "":
        return "-"
    text = js_trim(WS_RUN_RE.sub(" ", value))
    if js_len(text) > 96:
        head = utf16_slice(text, 0, 93)
        if head and 0xD800 <= ord(head[-1]) <= 0xDBFF:
            head = head[:-1]
        text = head + "..."
    return text.replace("|", "\\|")


@pytest.mark.parametrize("seed", range(40))
def test_cell_of_a_long_value_matches_the_whole_value(seed: int) -> None:
    rng = random.Random(seed)
    values = [
        _text(rng, rng.randrange(100, 900)),  # longer than the window
        " " * rng.randrange(1000, 1100) + _text(rng, 50),  # a window of whitespace: the whole value decides
        _text(rng, 60) + " " * 2000 + "z",  # text, a long gap, one more character
        "\U0001f600" * rng.randrange(500, 1100),  # astral characters: two units each, cut mid-pair
    ]
    for value in values:
        assert cell(value) == _plain_cell(value)


@pytest.mark.parametrize("seed", range(40))
def test_collapse_whitespace_is_the_pattern_and_trim(seed: int) -> None:
    rng = random.Random(seed)
    spaces = " \t\n\x0b\x0c\r\x1c\x1d\x1e\x1f\x85\xa0\u1680\u2000\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
    for _ in range(50):
        size = rng.randrange(0, 30)
        text = "".join(rng.choice([rng.choice(spaces), "a", "bc", "\U0001f600", "é"]) for _ in range(size))
        assert collapse_whitespace(text) == js_trim(WS_RUN_RE.sub(" ", text)), repr(text)
        assert cell(text) == _plain_cell(text)


@pytest.mark.parametrize("seed", range(200))
def test_macro_scan_counts_match_findall(seed: int) -> None:
    rng = random.Random(seed)
    texts = [_text(rng, rng.randrange(0, 40)) for _ in range(8)]
    scan = MacroScan()
    comments = trims = 0
    names: list[str] = []
    last_user = False
    scanned: list[ScannedText] = []
    expected: list[tuple[str, bool]] = []
    for text in texts:
        scanned.append(scan.scan(text))
        comments += len(COMMENT_RE.findall(text))
        trims += len(TRIM_RE.findall(text))
        cleaned = strip_comments_and_trims(text)
        names += [n.lower() for n in MACRO_NAME_RE.findall(cleaned)]
        expected.append((js_trim(collapse_newline_runs(cleaned)), trim_left_after_comments(text)))
        last_user = last_user or LAST_USER_RE.search(cleaned) is not None
    scan.finish()
    assert [(s.text, s.trim_kept) for s in scanned] == expected
    assert (scan.comments_stripped, scan.trim_stripped) == (comments, trims)
    assert list(scan.detected) == list(dict.fromkeys(names))
    assert scan.migration == {n: names.count(n) for n in dict.fromkeys(names) if n in MIGRATION_NOTES}
    if last_user and "lastusermessage" not in scan.detected:  # skipped only where it would find nothing
        assert scan.last_user_possible


def test_a_trim_joined_across_a_removed_comment_is_stripped_as_pi_forge_does() -> None:
    scan = MacroScan()
    text = "a {{{{// gone }}trim}} b {{ {{//x}}TRIM }}c"
    scanned = scan.scan(text)
    scan.finish()
    assert (scanned.text, scanned.trim_kept) == (strip_comments_and_trims(text), True) == ("a  b c", True)
    assert (scan.comments_stripped, scan.trim_stripped, list(scan.detected)) == (2, 0, [])


@pytest.mark.parametrize("seed", range(20))
def test_join_trimmed_is_trim_of_join(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(100):
        choices = ["", " ", "\n\t", "\ufeff", "\x85", "a", " b ", "c\u3000"]
        pieces = [rng.choice(choices) for _ in range(rng.randrange(1, 6))]
        assert join_trimmed(pieces) == js_trim("".join(pieces)), pieces


def test_join_trimmed_with_blank_runs_at_both_ends() -> None:
    """Blank pieces before the first text and after the last one, blank pieces between, one text
    piece, no text at all: every walk of the two end loops."""
    rng = random.Random(7)
    blanks = ["", " ", "\n", "\ufeff \u2028", "\t\n"]
    texts = ["a", " b\n", "\x85", "\x1c", "c d"]
    for _ in range(3000):
        pieces = [rng.choice(blanks if rng.random() < 0.6 else texts) for _ in range(rng.randrange(1, 9))]
        expected = js_trim("".join(pieces))
        assert join_trimmed(list(pieces)) == expected, pieces


def _preset(tmp_path: Path) -> Path:
    path = tmp_path / "p.json"
    prompts = [{"identifier": "main", "name": "Main", "role": "system", "content": "Hi {{char}} {{trim}}"}]
    order = [{"character_id": 100001, "order": [{"identifier": "main", "enabled": True}]}]
    path.write_text(json.dumps({"prompts": prompts, "prompt_order": order}), "utf-8")
    return path


def test_a_dry_run_without_texts_keeps_the_paths_and_renders_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")  # both imports stamp the same convertedAt
    preset = _preset(tmp_path)
    shown = import_into_project(preset, "100001", out_dir=tmp_path, dry_run=True, fidelity_report=True)
    bare = import_into_project(preset, "100001", out_dir=tmp_path, dry_run=True, fidelity_report=True, texts=False)
    assert shown.rendered and not bare.rendered and bare.with_fidelity
    assert [p for p, _ in bare.files] == [p for p, _ in shown.files]
    assert [t for _, t in bare.files] == ["", "", ""] and all(t for _, t in shown.files)
    assert bare.result.import_section() == shown.result.import_section()


def test_a_real_import_renders_its_files_even_without_texts(tmp_path: Path) -> None:
    done = import_into_project(_preset(tmp_path), "100001", out_dir=tmp_path, texts=False)
    assert done.rendered and done.written
    for path, text in done.files:
        assert text and path.read_text("utf-8") == text


@pytest.mark.parametrize("seed", range(60))
def test_newline_runs_collapse_as_the_plain_substitution(seed: int) -> None:
    # the run test is the pattern's own search (docs/performance-log.md, "Stop 25"): the result is
    # ``text.replace(/\n{3,}/g, "\n\n")`` on texts of every string width
    import re

    rng = random.Random(seed)
    pieces = ("\n", "\n\n", "\n\n\n", "a", " ", "\r\n", "é", "\U0001f600", "\u2028")
    text = "".join(rng.choice(pieces) for _ in range(rng.randrange(0, 80)))
    assert collapse_newline_runs(text) == re.sub(r"\n{3,}", "\n\n", text)


@pytest.mark.parametrize(
    "value",
    ["system", "user", "assistant", " User ", "SYSTEM", "\ufeffassistant\u3000", "tool", "", "System\n",
     "systems", 0, 1, None, True, False, [], ["user"], {"a": 1}],
)  # fmt: skip
def test_a_role_spelled_exactly_takes_the_shortcut_to_the_same_answer(value: object) -> None:
    # _role returns an exact "system"/"user"/"assistant" as it is (docs/performance-log.md, "Stop 27");
    # every other value goes the trimmed, lower-cased way, which must agree with it
    from forgec.importers.sillytavern.convert import _role
    from forgec.importers.sillytavern.preset import ConversionItem, PresetError
    from forgec.js.values import UNDEFINED, js_truthy

    item = ConversionItem({}, 0, UNDEFINED, UNDEFINED, 0)
    if js_truthy(value) and not isinstance(value, str):
        with pytest.raises(PresetError):
            _role(item, value)
        return
    expected = js_trim(value).lower() if isinstance(value, str) and value else None
    assert _role(item, value) == (expected if expected in ("system", "user", "assistant") else None)
