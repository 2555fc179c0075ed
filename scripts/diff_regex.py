"""Differential check of ``forgec.js.regex.transform_string`` between two trees (speed work must not
change one result).

Cases: every Node vector under ``tests/js/regex`` (``vectors.json``, ``capture_vectors.json``) with its
own replacement and with a few more templates, ``maxChars`` cuts and ``trimStrings``; then seeded random
(pattern, flags, text) triples built from pieces chosen to hit the edges: empty matches (``x*``, ``(?:)``,
lookarounds, ``\\b``), astral characters, surrogate pairs held as two halves, lone surrogates, case
classes that are not ASCII (ſ, K, Σσς, İ), every flag subset of ``gimsu`` (and ``y``, which rules refuse),
backreferences, named groups, lookbehind and the ``$`` templates. A case's outcome is the result text and
match count, the ``exec`` groups, or the error text; the digest of each is compared.

    python scripts/diff_regex.py --base /tmp/base-tree [--random 30000] [--seed 14]
    python scripts/diff_regex.py --dump out.txt        # this tree only (one digest per line)

With ``--base``, the script runs itself once under each tree (``PYTHONPATH``), then compares, printing
the first differing cases in full. Exit code 1 when anything differs.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
VECTOR_FILES = [ROOT / "tests" / "js" / "regex" / "vectors.json", ROOT / "tests" / "js" / "regex" / "capture_vectors.json"]

TEMPLATES = ["", "X", "$&", "$1", "[$1|$2]", "$<n>", "$$", "$`", "$'", "$0", "$10", "<$&>"]
TEXT_ALPHABET = ["a", "b", "A", "B", "s", "S", "k", "K", " ", "\n", "\r", "\t", "-", ".", "1", "_", "é", "É",
                 "\u017f", "\u212a", "\u03a3", "\u03c3", "\u03c2", "\u0130", "\u0131", "😺", "\U0001f389",
                 "\ud83d\ude3a", "\ud800", "\udc00", "\u2028", "\ufeff", "\u00a0", "ß", "\u1e9e", "x", "y", "“", "”", "ë", "Ë",
                 "...", "ab", "AB", "kS"]
ATOMS = ["a", "b", "ab", "A", "s", "k", "K", "\\u017f", "\u017f", "\u212a", "\u03c3", "Σ", "ς", "\u0130", "é",
         ".", "\\w", "\\W", "\\d", "\\s", "\\S", "[ab]", "[^a]", "[a-z]", "[\\s\\S]", "\\b", "\\B", "^", "$",
         "\\n", "😺", "\\ud83d", "\\ud83d\\ude3a", "\\u{1F63A}", "\\p{L}", "\\p{Lu}", "[😺a]", "\\x41", "\\.",
         "\\1", "\\2", "\\k<n>", "(?:)", "-", "sS", "kK", "ss", "aa", "[“”]", "\\p{Extended_Pictographic}",
         "[é-ë]", "\\u212a", "[\\u017f]", "(?:ab|k)", "\\.{2,}", "[ëË]", "(?:ss|S)", "ab\\b"]
QUANTS = ["", "", "", "*", "+", "?", "{2}", "{1,3}", "{0,}", "*?", "+?", "??", "{2,}?"]


def _random_pattern(rng: random.Random, depth: int = 0) -> str:
    parts: list[str] = []
    for _ in range(rng.randint(1, 4)):
        r = rng.random()
        if r < 0.2 and depth < 2:
            inner = _random_pattern(rng, depth + 1)
            kind = rng.choice(["(", "(?:", "(?=", "(?!", "(?<=", "(?<!", "(?<n>"])
            atom = f"{kind}{inner})"
        elif r < 0.27 and depth < 2:
            atom = "(?:" + _random_pattern(rng, depth + 1) + "|" + _random_pattern(rng, depth + 1) + ")"
        else:
            atom = rng.choice(ATOMS)
        parts.append(atom + rng.choice(QUANTS))
    if rng.random() < 0.1:
        return "|".join([*parts[:1], "".join(parts[1:])])
    return "".join(parts)


def _random_flags(rng: random.Random) -> str:
    flags = "".join(c for c in "gimsu" if rng.random() < 0.45)
    if rng.random() < 0.02:
        flags += "y"
    return flags


def _random_text(rng: random.Random) -> str:
    return "".join(rng.choice(TEXT_ALPHABET) for _ in range(rng.randint(0, 24)))


def cases(n_random: int, seed: int) -> Iterator[dict[str, Any]]:
    """Every case, in a fixed order (both trees enumerate the same list)."""
    rng = random.Random(seed)
    for path in VECTOR_FILES:
        for v in json.loads(path.read_text(encoding="utf-8")):
            if "text" not in v:
                yield {"pattern": v["pattern"], "flags": v["flags"], "text": "", "replace": ""}
                continue
            yield {k: v[k] for k in ("pattern", "flags", "text", "replace", "trimStrings", "maxChars") if k in v}
            yield {"pattern": v["pattern"], "flags": v["flags"], "text": v["text"] * 3,
                   "replace": rng.choice(TEMPLATES), "maxChars": rng.choice([None, 1, 3, 7])}
            yield {"pattern": v["pattern"], "flags": v["flags"] if "g" in v["flags"] else v["flags"] + "g",
                   "text": v["text"], "replace": rng.choice(TEMPLATES), "trimStrings": rng.choice([None, ["a"], [" ", "b"]])}
    for _ in range(n_random // 5):
        pattern, flags = _random_pattern(rng), _random_flags(rng)
        for _ in range(5):
            yield {"pattern": pattern, "flags": flags, "text": _random_text(rng), "replace": rng.choice(TEMPLATES),
                   "maxChars": rng.choice([None, None, None, 2, 5, 11]),
                   "trimStrings": rng.choice([None, None, None, ["a"], ["s", ""]])}


def outcome(case: dict[str, Any]) -> str:
    from forgec.js.regex import JSRegexError, JSRegexTimeout, compile_js, transform_string

    try:
        pattern = compile_js(case["pattern"], case["flags"])
    except JSRegexError as exc:
        return f"error {exc}"
    try:
        result, matches = transform_string(pattern, case["text"], case["replace"],
                                           trim_strings=case.get("trimStrings"), max_chars=case.get("maxChars"),
                                           timeout=10.0)
        m = pattern.search(case["text"], timeout=10.0)
    except JSRegexTimeout:
        return "timeout"
    groups = None if m is None else [m.start, m.end, *[m.group(i) for i in range(pattern.group_count + 1)]]
    return json.dumps([result, matches, groups], ensure_ascii=True)


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def dump(path: Path, n_random: int, seed: int) -> None:
    with path.open("w", encoding="utf-8") as out:
        for case in cases(n_random, seed):
            out.write(_digest(outcome(case)) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--base", help="the other tree (its root folder)")
    parser.add_argument("--dump", type=Path, help="write this tree's digests (one line per case)")
    parser.add_argument("--random", type=int, default=30000, help="random triples (default 30,000)")
    parser.add_argument("--seed", type=int, default=14)
    args = parser.parse_args()
    if args.dump:
        dump(args.dump, args.random, args.seed)
        return
    if not args.base:
        parser.error("give --base TREE or --dump FILE")
    with tempfile.TemporaryDirectory() as tmp:
        files = []
        for label, tree in (("base", Path(args.base)), ("this", ROOT)):
            target = Path(tmp) / f"{label}.txt"
            env = dict(os.environ, PYTHONPATH=str(tree.resolve()))
            subprocess.run([sys.executable, __file__, "--dump", str(target), "--random", str(args.random),
                            "--seed", str(args.seed)], env=env, check=True, cwd=tmp)
            files.append(target.read_text(encoding="utf-8").splitlines())
    base, this = files
    all_cases = list(cases(args.random, args.seed))
    differing = [i for i, (a, b) in enumerate(zip(base, this, strict=True)) if a != b]
    print(f"{len(all_cases):,} cases, {len(differing)} differ")
    for i in differing[:10]:
        print(json.dumps(all_cases[i], ensure_ascii=True), "->", outcome(all_cases[i]))
    sys.exit(1 if differing else 0)


if __name__ == "__main__":
    main()
