"""The ``localeCompare`` order without PyICU (issue 15, point 9): :func:`forgec.js.collation.fallback_key`
against ICU's root collator, on the corpus's variable names and on generated identifier-like names.

When the run blocks PyICU (``FORGEC_BLOCK_ICU=1``, .ci/run) the comparisons with ICU skip and the
tests that need the fallback in place run instead; otherwise both kinds run (the fallback is forced
by blocking ``icu`` inside the test).
"""

from __future__ import annotations

import json
import os
import random
import sys
from collections.abc import Iterator, Sequence
from importlib.abc import MetaPathFinder
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from forgec.js import collation
from forgec.report import compile_report

CASES = Path(os.environ.get("FORGEC_SHARED_CASES", Path(__file__).resolve().parents[4] / "shared" / "oracle" / "cases"
                            / "public"))
LOCAL_CASES = Path(__file__).resolve().parents[2] / "conformance" / "cases"


def _icu_key() -> Any:
    try:
        import icu
    except ImportError:
        pytest.skip("PyICU is not importable here: nothing to compare the fallback with")
    collator = icu.Collator.createInstance(icu.Locale.getRoot())
    collator.setAttribute(icu.UCollAttribute.NORMALIZATION_MODE, icu.UCollAttributeValue.ON)
    return collator.getSortKey


def _case_dirs() -> list[Path]:
    for root in (CASES, LOCAL_CASES):
        if root.is_dir():
            return sorted(p for p in root.iterdir() if (p / "expected.json").is_file())
    return []


def _corpus_names() -> list[str]:
    names: set[str] = set()
    for case in _case_dirs():
        for name in ("stack.json", "context.json", "expected.json"):
            path = case / name
            if not path.is_file():
                continue
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
            except ValueError:
                continue
            if not isinstance(data, dict):
                continue
            variables = data.get("variables")
            if isinstance(variables, dict):
                names.update(variables)
                for scope in ("session", "turn"):
                    if isinstance(variables.get(scope), dict):
                        names.update(variables[scope])
    return sorted(names)


def test_the_corpus_names_sort_as_icu_sorts_them() -> None:
    icu_key = _icu_key()
    names = _corpus_names()
    assert len(names) > 50
    assert sorted(names, key=collation.fallback_key) == sorted(names, key=icu_key)


_ALPHABETS = {
    "ascii identifiers": "aAbByYzZ019_-. ",
    "latin accents and special letters": "aAeEoOsSzZ_-1 éÉèüÜñçåÅąčřőıİßøØæÆœþđłħǅﬁＡ２",
    "punctuation and symbols": "aZ1 .-_$€£¥©®°±×÷§¶•‰′″‹›“”„‚«»–—…·!?@#%&*",
}


@pytest.mark.parametrize("alphabet", sorted(_ALPHABETS))
def test_generated_names_sort_as_icu_sorts_them(alphabet: str) -> None:
    icu_key = _icu_key()
    rng = random.Random(alphabet)
    chars = _ALPHABETS[alphabet]
    names = ["".join(rng.choice(chars) for _ in range(rng.randint(1, 6))) for _ in range(3000)]
    assert sorted(names, key=collation.fallback_key) == sorted(names, key=icu_key)


class _Block(MetaPathFinder):
    def find_spec(self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None,
                  ) -> ModuleSpec | None:
        if fullname == "icu" or fullname.startswith("icu."):
            raise ImportError(f"import of {fullname} blocked by the test", name=fullname)
        return None


@pytest.fixture()
def no_icu(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """``import icu`` fails, and :func:`collation.locale_key` is asked afresh."""
    for name in [n for n in sys.modules if n == "icu" or n.startswith("icu.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setattr(sys, "meta_path", [_Block(), *sys.meta_path])
    collation.locale_key.cache_clear()
    yield
    collation.locale_key.cache_clear()


@pytest.mark.usefixtures("no_icu")
def test_without_icu_the_fallback_is_used() -> None:
    assert not collation.icu_available()
    assert collation.locale_key() is collation.fallback_key


def _variables_slot_cases() -> list[Path]:
    return [c for c in _case_dirs() if (c / "stack.json").is_file() and '"variables"' in (c / "stack.json").read_text(
        encoding="utf-8") and '"slot": "variables"' in (c / "stack.json").read_text(encoding="utf-8")]


@pytest.mark.usefixtures("no_icu")
@pytest.mark.parametrize("case", _variables_slot_cases(), ids=lambda p: p.name)
def test_variables_slot_cases_match_without_icu(case: Path) -> None:
    expected = json.loads((case / "expected.json").read_text(encoding="utf-8"))
    report = compile_report(case / "stack.json", case / "context.json").to_report()
    assert report["system"] == expected["system"]


def test_there_are_variables_slot_cases() -> None:
    if not _case_dirs():
        pytest.skip("no corpus here")
    assert _variables_slot_cases()


def test_order_examples() -> None:
    """The fallback's order for a few names, as Node 20.20.2's ``localeCompare`` sorts them."""
    key = collation.fallback_key
    words = ["b", "B", "_private", "beta10", "beta2", "b-flag", "Émile", "emile", "straße", "strasse", "øre", "ore",
             "zebra", "\u200bhidden", "ærø", "aero"]
    # node -e 'console.log(JSON.stringify(words.sort((a, b) => a.localeCompare(b))))'
    assert sorted(words, key=key) == ["_private", "aero", "ærø", "b", "B", "b-flag", "beta10", "beta2", "emile", "Émile",
                                      "\u200bhidden", "ore", "øre", "strasse", "straße", "zebra"]
