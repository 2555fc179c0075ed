"""Capture-semantics vectors: a differential fuzzer against Node 20 (``oracle.js``) and their generator.

The random patterns concentrate on what B0 item 7 of import-regex.md describes: quantified groups,
backreferences (numbered, named, forward, inside their own group), lookbehind with captures, alternation,
with the ``i``/``m``/``s``/``u``/``g`` flags (not ``y``/``d``/``v``: pi-forge rejects them before compiling,
so :func:`forgec.js.regex.compile_js` does too), and replacement templates using ``$n``, ``$<name>``,
``$&``, ``$``` and ``$'``.  Run from the repository root (needs ``node``)::

    .venv/bin/python tests/js/regex/tools/gen_capture_vectors.py            # rewrite capture_vectors.json
    .venv/bin/python tests/js/regex/tools/gen_capture_vectors.py --fuzz 5000 --seed 7   # report differences

``--fuzz`` compares forgec with Node directly and prints a count and a sample of the differences; it
writes nothing.  pytest only reads the committed JSON, so the test suite never needs Node.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE.parent / "capture_vectors.json"
SEED = 20261130

TEXT_ALPHABET = ["a", "b", "A", "B", "c", "\u017f", "s", "S", "\u212a", "k", "\n", " "]
REPLACEMENTS = ["[$1|$2|$3]", "<$<n>|$<m>>", "[$&|$`|$']", "$2$1", "($1)", "[$<n>$3$&]", "$'$1$`"]
NAMES = ["n", "m", "o"]


# Targeted cases (B0 item 7 examples and their neighbours); their expected values come from Node too.
_PAIRS = ["s\u017f", "S\u017f", "k\u212a", "\u00df\u1e9e", "I\u0131", "i\u0130", "\u03c3\u03c2",
          "\u03a3\u03c2", "\u00b5\u039c", "\u1f80\u1f88", "\u01c5\u01c6", "\U00010428\U00010400", "aA"]
HAND: list[dict] = [
    *({"pattern": p, "flags": f, "text": t, "replace": "[$&|$1]"}
      for p in ["(.)\\1", "(?<n>.)\\k<n>", "(?:(.)x?)+\\1"] for f in ["i", "iu", "gi", "giu"] for t in _PAIRS),
    {"pattern": "(\\w+) \\1", "flags": "gi", "text": "Kelvin \u212aelvin kelvin KELVIN", "replace": "<$1>"},
    {"pattern": "(\\w+) \\1", "flags": "giu", "text": "Kelvin \u212aelvin kelvin KELVIN", "replace": "<$1>"},
    *({"pattern": p, "flags": f, "text": t, "replace": r}
      for p, t in [
          ("(?:\\1(a)|b)+", "aab"), ("(?:\\1(a)|b)+", "abab"), ("(?:(a)|b)+\\1c", "abc"),
          ("(?:(a)|b)+\\1c", "aac"), ("(?:(a)|b)+\\1", "abX"), ("(?:(a)|b)*\\1", "ba"),
          ("(?:(a)|b)+\\1", "aba"), ("((a)|b)+\\2", "abb"), ("(?:(a)b\\1|c)+", "abacaba"),
          ("(?:(?<n>a)|b)+\\k<n>", "abab"), ("(?:(?<n>a)|b)+\\k<n>c", "abc"),
          ("(?:(?:(a))*b\\1)+", "aabab"), ("(?:(a)?b\\1)+", "abab"), ("((a)|(b))+\\2\\3", "abab"),
          ("(a*)?", "b"), ("(a*)?b", "b"), ("(a)??b", "ab"), ("(a*)??b", "b"), ("(x)?y\\1", "yx"),
          ("(?:(a)|b)?\\1", "ba"), ("(a|(b))?c", "c"), ("(a*)*", "b"), ("(a*)+", "b"), ("(a*){1,3}", "b"),
          ("(?<=(?:(a)|b)+)c", "abc"), ("(?<=(?:(a)|b)+)c", "bac"), ("(?<=(a*)*)c", "c"),
          ("(?<=(?:(a)|(b))+)c", "abc"), ("(?<=\\1(a))b", "ab"), ("(?<=\\1(a))b", "aab"),
          ("(?<=(a)\\1)b", "aab"), ("(?<=(?:(a)|b)+\\1)c", "aabc"), ("(?<=(\\d+)(\\d+))$", "1053"),
          ("(?<=(?:\\1(a)|b)+)c", "aabc"), ("(?<n>a)(?<=\\k<n>)b", "ab"),
          ("(\\1{0,2})??", "Bk"), ("(a)|\\1b", "b"), ("\\1(a)", "aa"), ("(a\\1)+", "aaa"),
          # an iteration beyond the minimum that matches empty fails and backtracks into the body
          ("(?:|a)*", "aab"), ("(?:|a)?", "aab"), ("(?:|a)+", "aab"), ("(?:|a){2}", "aab"),
          ("(?:|a){2,3}", "aab"), ("(|a)*", "aab"), ("(a|)*b", "aab"), ("(?:a*?)+", "aa"),
          ("(\\w??)+", "word"), ("(.*?)+", "abc"), ("(\\w??|x)?", "akK"), ("(a??b??)+", "abab"),
          ("(?:(a)?(b)?)+", "abba"), ("(?:a??|b)+c", "aabc"), ("(?:(?=a)|a)+", "aa"),
          ("(?<=(?:|a)+)b", "aab"), ("(?<=(|a)+)b", "aab"), ("(\\s*\\w*)*", "ab cd"), ("(?:\\b|a)+", "aa"),
          ("(?:(x)|\\1?a)+", "aa"), ("(a)(?:\\1??b)+", "abab"), ("(?:(?=(a))|b)*", "ab"),
          ("((?=k))|\\1", "ab"), ("(?<=(?:a??b??)+)c", "abc"), ("(?<=(a??b??)+)c", "abc"),
          ("(?<=(?:(a)??(b)??)+)c", "abc"), ("(?<=^(?:(a)??(b)??)+)c", "abc"), ("(?<=(?:(a)?(b)??)*)c", "abc"),
          ("((?:|a)(?:b*)*)?", "ab"), ("(()|\\2(.?))*", "k"), ("()(?:\\1|a)+", "aa"), ("(?:()\\1|a)+", "aa"),
          ("(?:|()[^]?\\1)+", "k"), ("()((\\1|[^])+)", "S"),
          ("(a|)(?:\\1|b)+", "b"),  # a known difference (docs/compatibility.md)
      ]
      for f, r in [("", "[$&|$1|$2|$3]"), ("g", "[$&|$1|$<n>|$`|$']")]),
    # a known difference: Node's replace with `gu` stops after the first empty match here (V8 quirk)
    {"pattern": "((?=k))|\\1", "flags": "gu", "text": "ab", "replace": "-"},
]


class _Gen:
    """One random pattern; tracks opened groups so that most references are valid."""

    def __init__(self, rng: random.Random, max_depth: int = 3) -> None:
        self.rng = rng
        self.max_depth = max_depth
        self.groups = 0
        self.names: list[str] = []
        self.depth = 0

    def literal(self) -> str:
        return self.rng.choice(["a", "b", "a", "b", "c", ".", "[ab]", "[^b]", "s", "k", "\\w", "A", "B", "x?"])

    def backref(self) -> str:
        r = self.rng.random()
        if self.names and r < 0.3:
            return f"\\k<{self.rng.choice(self.names)}>"
        # allow forward references: up to two groups beyond what exists so far
        return f"\\{self.rng.randint(1, max(1, min(self.groups + 2, 4)))}"

    def group(self) -> str:
        self.depth += 1
        kind = self.rng.choice(["cap", "cap", "cap", "named", "non", "ahead", "behind", "behind", "nbehind"])
        if kind == "cap":
            self.groups += 1
            head = "("
        elif kind == "named" and len(self.names) < len(NAMES):
            self.groups += 1
            name = NAMES[len(self.names)]
            self.names.append(name)
            head = f"(?<{name}>"
        elif kind == "ahead":
            head = self.rng.choice(["(?=", "(?!"])
        elif kind == "behind":
            head = "(?<="
        elif kind == "nbehind":
            head = "(?<!"
        else:
            head = "(?:"
        body = self.alternation()
        self.depth -= 1
        return head + body + ")"

    def quant(self) -> str:
        return self.rng.choice(["*", "+", "?", "{0,2}", "{2}", "{1,3}", "*?", "+?", "??"])

    def term(self) -> str:
        r = self.rng.random()
        if r < 0.35 and self.depth < self.max_depth:
            atom = self.group()
        elif r < 0.6:
            atom = self.backref()
        else:
            atom = self.literal()
        if self.rng.random() < 0.4 and not atom.startswith(("(?=", "(?!", "(?<")):
            atom += self.quant()
        return atom

    def sequence(self) -> str:
        return "".join(self.term() for _ in range(self.rng.randint(1, 3 if self.max_depth > 1 else 2)))

    def alternation(self) -> str:
        n = 1 if self.rng.random() < 0.6 else self.rng.randint(2, 3)
        return "|".join(self.sequence() for _ in range(n))


def random_cases(rng: random.Random, count: int) -> list[dict]:
    cases = []
    for _ in range(count):
        g = _Gen(rng, rng.choice([1, 2, 2, 3]))
        pattern = g.alternation()
        flags = "".join(f for f in "gimsu" if rng.random() < (0.5 if f in "gi" else 0.2))
        text = "".join(rng.choice(TEXT_ALPHABET) for _ in range(rng.randint(0, 9)))
        cases.append({"pattern": pattern, "flags": flags, "text": text, "replace": rng.choice(REPLACEMENTS)})
    return cases


def node(inputs: list[dict]) -> list[dict]:
    """Node's results for ``inputs``; cases that crash Node itself (V8 11.3 segfaults on a few deeply
    nested lookbehind/backreference patterns) have no reference and are dropped."""
    res = subprocess.run(["node", str(HERE / "oracle.js")], input=json.dumps(inputs), capture_output=True,
                         text=True)
    if res.returncode == 0:
        return json.loads(res.stdout)
    if len(inputs) == 1:
        print("node crashed on", json.dumps(inputs[0], ensure_ascii=False), file=sys.stderr)
        return []
    half = len(inputs) // 2
    return node(inputs[:half]) + node(inputs[half:])


def fuzz(count: int, seed: int, show: int) -> int:
    sys.path.insert(0, str(HERE.parent))
    from test_vectors import _run  # the exact comparison the test suite makes

    vectors = node(HAND + random_cases(random.Random(seed), count))
    bad = []
    for v in vectors:
        try:
            got = _run(v)
        except Exception as exc:  # a crash is a difference worth reporting
            got = {"crash": repr(exc)}
        exp = {k: v.get(k) for k in ("error", "result", "matches")}
        if "text" in v and v["error"] is None:
            exp["exec"] = None if v["exec"] is None else {"groups": v["exec"]["groups"]}
        else:
            exp.pop("result")
            exp.pop("matches")
        if got != exp:
            bad.append((v, got, exp))
    print(f"{len(bad)} of {len(vectors)} differ ({sum(v['error'] is None for v in vectors)} compile in Node)")
    for v, got, exp in bad[:show]:
        print(json.dumps({k: v[k] for k in ("pattern", "flags", "text", "replace")}, ensure_ascii=False))
        print("   node  :", json.dumps(exp, ensure_ascii=False))
        print("   forgec:", json.dumps(got, ensure_ascii=False))
    return len(bad)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--fuzz", type=int, default=0, help="compare this many random cases, write nothing")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--show", type=int, default=15)
    args = ap.parse_args()
    if args.fuzz:
        fuzz(args.fuzz, args.seed, args.show)
        return
    vectors = node(HAND + random_cases(random.Random(SEED), 2500))
    OUT.write_text(json.dumps(vectors, ensure_ascii=True, indent=0) + "\n", encoding="utf-8")
    print(f"wrote {len(vectors)} vectors to {OUT}")


if __name__ == "__main__":
    main()
