"""Regenerate ``tests/js/regex/vectors.json`` by running the inputs below through Node 20 (oracle.js).

Run from the repository root: ``.venv/bin/python tests/js/regex/tools/gen_vectors.py`` (needs ``node``).
pytest only reads the committed JSON, so the test suite never needs Node.
"""

from __future__ import annotations

import json
import random
import subprocess
from pathlib import Path

HERE = Path(__file__).resolve().parent
OUT = HERE.parent / "vectors.json"

# Hand-written cases: B0 / B1 / A5 / compile-core §16.2–16.3 / §16.10 examples and their neighbours.
T = "\U0001f63a"  # 😺
G = "\U0001f600"  # 😀
HAND: list[dict] = [
    {"pattern": ".", "flags": "g", "text": f"a{T}b", "replace": "$&"},
    {"pattern": ".", "flags": "gu", "text": f"a{T}b", "replace": "$&"},
    {"pattern": "[^a]", "flags": "g", "text": f"a{T}b", "replace": "-"},
    {"pattern": "[^a]", "flags": "gu", "text": f"a{T}b", "replace": "-"},
    {"pattern": "^..$", "flags": "", "text": T, "replace": "X"},
    {"pattern": "^.$", "flags": "", "text": T, "replace": "X"},
    {"pattern": "^.$", "flags": "u", "text": T, "replace": "X"},
    {"pattern": "x*", "flags": "g", "text": T, "replace": "-"},
    {"pattern": "(?:)", "flags": "g", "text": T + "b", "replace": "|"},
    {"pattern": "(?:)", "flags": "gu", "text": "a" + T, "replace": "|"},
    {"pattern": T + "+", "flags": "", "text": T + "\ude3a" + T, "replace": "[$&]"},
    {"pattern": f"[{T}]", "flags": "g", "text": T + G, "replace": "-"},
    {"pattern": "\\ud83d", "flags": "", "text": T, "replace": "X"},
    {"pattern": "\\ud83d\\ude3a", "flags": "", "text": T, "replace": "X"},
    {"pattern": "^[\\ud83d\\ude3a]$", "flags": "", "text": T, "replace": "X"},
    {"pattern": "^[\\ud83d\\ude3a]$", "flags": "u", "text": T, "replace": "X"},
    {"pattern": "\\ude3a", "flags": "u", "text": T, "replace": "X"},
    {"pattern": "^\\u{2}$", "flags": "", "text": "uu", "replace": "X"},
    {"pattern": "\\p{L}", "flags": "", "text": "p{L}", "replace": "X"},
    {"pattern": "\\p{L}", "flags": "u", "text": "é1", "replace": "X"},
    {"pattern": "x*", "flags": "g", "text": "abxd", "replace": "-"},
    {"pattern": "x*", "flags": "g", "text": "abc", "replace": "-"},
    {"pattern": "|b", "flags": "g", "text": "b", "replace": "-"},
    {"pattern": "a", "flags": "g", "text": "aaa", "replace": "a"},
    {"pattern": "b", "flags": "g", "text": "bbbb", "replace": "B", "maxChars": 2},
    {"pattern": "b", "flags": "g", "text": f"x{T}b", "replace": "B", "maxChars": 2},
    {"pattern": ".", "flags": "g", "text": f"x{T}b", "replace": "$&", "maxChars": 2},
    {"pattern": ".", "flags": "gu", "text": f"x{T}b", "replace": "$&", "maxChars": 2},
    {"pattern": "^b", "flags": "g", "text": "abb", "replace": "B", "maxChars": 2},
    {"pattern": "(?<=a)b", "flags": "g", "text": "abb", "replace": "B", "maxChars": 2},
    {"pattern": "secret", "flags": "g", "text": "prefix secret", "replace": "redacted", "maxChars": 6},
    {"pattern": "(a)(b)", "flags": "", "text": "xaby", "replace": "[$1|$2|$3|$10|$01|$00|$0|$&|$$|$`|$'|$<n>]"},
    {"pattern": "(a)", "flags": "", "text": "a", "replace": "$1$2"},
    {"pattern": "(a)", "flags": "", "text": "a", "replace": "$12"},
    {"pattern": "(?<n>a)(b)", "flags": "", "text": "ab", "replace": "[$<n>|$<m>|$<n]"},
    {"pattern": "(a)|(b)", "flags": "g", "text": "ab", "replace": "[$2]"},
    {"pattern": "A0", "flags": "", "text": "xA0y", "replace": "[$0]"},
    {"pattern": "B0", "flags": "", "text": "B0", "replace": "[$$0|$$$&]"},
    {"pattern": "x", "flags": "", "text": "x", "replace": "$$$0"},
    {"pattern": "\\[([^\\]]+)\\]", "flags": "g", "text": "Status: [OK]", "replace": "**$&**/$1",
     "trimStrings": ["[", "]"]},
    {"pattern": "X", "flags": "", "text": "aXb", "replace": "[$0]", "trimStrings": ["zzz"]},
    {"pattern": "(a)(b)", "flags": "", "text": "xaby", "replace": "[$1|$2|$3|$10|$01|$00|$0|$&|$$|$`|$'|$<n>]",
     "trimStrings": ["zz"]},
    {"pattern": "\\[(?<inner>[^\\]]+)\\]", "flags": "g", "text": "a [x] b [yy]",
     "replace": "<$&|$0|$1|$<inner>|$$|$`|$'|$10|$2|$<missing>|$>", "trimStrings": ["[", "]", ""]},
    {"pattern": "s", "flags": "i", "text": "\u017f", "replace": "X"},
    {"pattern": "s", "flags": "iu", "text": "\u017f", "replace": "X"},
    {"pattern": "k", "flags": "i", "text": "\u212a", "replace": "X"},
    {"pattern": "k", "flags": "iu", "text": "\u212a", "replace": "X"},
    {"pattern": "\u00df", "flags": "i", "text": "\u1e9e", "replace": "X"},
    {"pattern": "\u00df", "flags": "iu", "text": "\u1e9e", "replace": "X"},
    {"pattern": "\u00e5", "flags": "i", "text": "\u212b", "replace": "X"},
    {"pattern": "\u00e5", "flags": "iu", "text": "\u212b", "replace": "X"},
    {"pattern": "\u03c9", "flags": "i", "text": "\u2126", "replace": "X"},
    {"pattern": "\u03f4", "flags": "i", "text": "\u03b8", "replace": "X"},
    {"pattern": "\u1f80", "flags": "i", "text": "\u1f88", "replace": "X"},
    {"pattern": "\u1f80", "flags": "iu", "text": "\u1f88", "replace": "X"},
    {"pattern": "\u03c3", "flags": "i", "text": "\u03c2", "replace": "X"},
    {"pattern": "\u00b5", "flags": "gi", "text": "\u03bc\u039c", "replace": "X"},
    {"pattern": "\u01c5", "flags": "gi", "text": "\u01c6\u01c4", "replace": "X"},
    {"pattern": "\u10d0", "flags": "i", "text": "\u1c90", "replace": "X"},
    {"pattern": "\U00010428", "flags": "i", "text": "\U00010400", "replace": "X"},
    {"pattern": "\U00010428", "flags": "iu", "text": "\U00010400", "replace": "X"},
    {"pattern": "I", "flags": "giu", "text": "\u0131i\u0130", "replace": "X"},
    {"pattern": "i", "flags": "gi", "text": "\u0131I\u0130", "replace": "X"},
    {"pattern": "\u00df", "flags": "iu", "text": "ss", "replace": "X"},
    {"pattern": "[a-z]", "flags": "gi", "text": "\u212aK", "replace": "X"},
    {"pattern": "[^k]", "flags": "gi", "text": "\u212aK", "replace": "X"},
    {"pattern": "[a-z]", "flags": "giu", "text": "\u212a\u017f", "replace": "X"},
    {"pattern": "\\d", "flags": "g", "text": "1\u0663", "replace": "X"},
    {"pattern": "\\w", "flags": "g", "text": "a\u00e9_\u017f\u212a", "replace": "X"},
    {"pattern": "\\w", "flags": "giu", "text": "a\u00e9_\u017f\u212a", "replace": "X"},
    {"pattern": "\\W", "flags": "giu", "text": "S\u017f!", "replace": "X"},
    {"pattern": "\\bé", "flags": "g", "text": "é é", "replace": "X"},
    {"pattern": "a\\b", "flags": "i", "text": "a\u017f", "replace": "X"},
    {"pattern": "a\\b", "flags": "iu", "text": "a\u017f", "replace": "X"},
    {"pattern": "\\s", "flags": "g", "text": "\t\n\v\f\r \u00a0\u1680\u2000\u200a\u2028\u2029\u202f\u205f\u3000\ufeff\x1c\x85\u180e",
     "replace": "X"},
    {"pattern": "a.b", "flags": "", "text": "a\rb", "replace": "X"},
    {"pattern": ".", "flags": "g", "text": "\n\r\u2028\u2029\u0085", "replace": "X"},
    {"pattern": ".", "flags": "gs", "text": "\n\r\u2028\u2029\u0085", "replace": "X"},
    {"pattern": "foo$", "flags": "", "text": "foo\n", "replace": "X"},
    {"pattern": "^b", "flags": "gm", "text": "a\rb\u2028b\u0085b\nb", "replace": "X"},
    {"pattern": "a$", "flags": "gm", "text": "a\ra\u2029a\u0085a", "replace": "X"},
    {"pattern": "(?:(a)|b)+", "flags": "", "text": "ab", "replace": "[$1]"},
    {"pattern": "(?:(a)|(b))+", "flags": "", "text": "ab", "replace": "[$1|$2]"},
    {"pattern": "(a|(b))+", "flags": "", "text": "ba", "replace": "[$1|$2]"},
    {"pattern": "(z)((a+)?(b+)?(c))*", "flags": "", "text": "zaacbbbcac", "replace": "[$1|$2|$3|$4|$5]"},
    {"pattern": "(a*)*", "flags": "", "text": "b", "replace": "[$1]"},
    {"pattern": "(a*)+", "flags": "", "text": "b", "replace": "[$1]"},
    {"pattern": "(a)?b\\1", "flags": "", "text": "b", "replace": "[$&]"},
    {"pattern": "\\1(a)", "flags": "", "text": "aa", "replace": "[$&]"},
    {"pattern": "(a\\1)+", "flags": "", "text": "aaa", "replace": "[$&]"},
    {"pattern": "(?:x\\1)*(a)", "flags": "", "text": "xxa", "replace": "[$&]"},
    {"pattern": "(?<=(\\d+)(\\d+))$", "flags": "", "text": "1053", "replace": "[$1|$2]"},
    {"pattern": "(?<=\\1(a))b", "flags": "", "text": "aab", "replace": "[$&]"},
    {"pattern": "(?<=a+)b", "flags": "g", "text": "aab b", "replace": "X"},
    {"pattern": "\\k<x>", "flags": "", "text": "k<x>", "replace": "X"},
    {"pattern": "\\1", "flags": "", "text": "\x01", "replace": "X"},
    {"pattern": "\\8", "flags": "", "text": "8", "replace": "X"},
    {"pattern": "\\c1", "flags": "", "text": "\\c1", "replace": "X"},
    {"pattern": "\\cJ", "flags": "", "text": "\n", "replace": "X"},
    {"pattern": "[\\c1]", "flags": "", "text": "\x11", "replace": "X"},
    {"pattern": "x{,5}", "flags": "", "text": "x{,5}", "replace": "X"},
    {"pattern": "a{1", "flags": "", "text": "a{1", "replace": "X"},
    {"pattern": "]", "flags": "", "text": "]", "replace": "X"},
    {"pattern": "[]a]", "flags": "", "text": "]a]", "replace": "X"},
    {"pattern": "[^]", "flags": "g", "text": "a\n", "replace": "X"},
    {"pattern": "[\\w-a]", "flags": "g", "text": "-a_", "replace": "X"},
    {"pattern": "[\\d-z]", "flags": "g", "text": "5-zy", "replace": "X"},
    {"pattern": "(?=a)*b", "flags": "", "text": "b", "replace": "X"},
    {"pattern": "(?<$x>a)", "flags": "", "text": "a", "replace": "[$<$x>]"},
    {"pattern": "\\10", "flags": "", "text": "\x08", "replace": "X"},
    {"pattern": "\\0", "flags": "", "text": "\x00", "replace": "X"},
    {"pattern": "\\x4", "flags": "", "text": "x4", "replace": "X"},
    {"pattern": "\\u00e9", "flags": "", "text": "é", "replace": "X"},
    {"pattern": "\\u{1F600}", "flags": "u", "text": G, "replace": ":grin:"},
    {"pattern": "\\p{Lu}{2,}", "flags": "gu", "text": "ABc DEF g", "replace": "<caps>"},
    {"pattern": "\\p{Script=Greek}+", "flags": "gu", "text": "abγδε", "replace": "<g>"},
    {"pattern": "\\P{L}", "flags": "gu", "text": "a1b", "replace": "-"},
    {"pattern": "[\\p{N}x]", "flags": "gu", "text": "a1x", "replace": "-"},
    {"pattern": "\\p{Emoji_Presentation}", "flags": "gu", "text": "a" + T, "replace": "-"},
    {"pattern": "<think>.*?</think>\\n?", "flags": "gs", "text": "a<think>x\ny</think>\nb", "replace": ""},
    {"pattern": "\\s*\\(OOC:[^)]+\\)", "flags": "g", "text": "Visible (OOC: hide)", "replace": ""},
    {"pattern": "(\\w+)\\s(\\w+)", "flags": "", "text": "John Smith", "replace": "$2, $1"},
    {"pattern": "(?<first>\\w+)\\s(?<last>\\w+)", "flags": "", "text": "John Smith", "replace": "$<last>, $<first>"},
    {"pattern": "(a)|b", "flags": "g", "text": "ab", "replace": "\\n$1"},
]

COMPILE = [
    "(", "[", ")", "a)", "*", "+a", "a**", "a++", "?", "{1}", "^*", "\\b+", "(?<=a)*", "a{2,1}", "[b-a]",
    f"[{G}-{T}]", "[\\w-a]", "(?i)a", "(?P<n>a)", "(?#c)", "(?>a)", "(?", "(?<1>x)", "(?<a-b>x)",
    "(?<a>x)(?<a>y)", "(?<a>x)|(?<a>y)", "\\k<b>(?<a>x)", "(?<n>a)\\k<x>", "\\k", "(?<a>x)\\k", "\\",
    "a\\", "[\\", "\\p{Foo}", "\\p{L", "\\p", "[\\p{Foo}]", "\\e", "\\1", "\\x1", "\\u{110000}", "\\u{1",
    "\\c", "\\c1", "{", "}", "]", "a{1", "a{,5}", "\\00", "(?=a)*", "x{,5}", "[]", "[^]", "\\cJ",
    "\\k<x>", "(?<$x>a)", "\\p{L}", "\\u{2}", "[\\d-z]", "(?<=a+)b", "\\-", "[\\-]", "[\\1]", "[\\00]",
    "[\\c1]", "[\\k](?<a>x)", "[\\B]", "(?<a>x)(?<a>y", "\\k<a>(?<a>x)", "(?<\\u0041>x)", "(?<\\u{41}>x)",
    f"(?<{chr(0x1D49C)}>x)", "(?<>x)", "(?<a", "a{99999999999}", "(?:)*", "a|*", "(*)", "a{0}*",
    "(?!a)+", "(?<!a){2}", "a{1}?", "a???", "\\B{1}", "$?", "[a-]", "[-a]", "[\\s-\\d]", "[\\c_]",
    "\\p{Script=Greek}", "\\p{sc=Grek}", "\\p{scx=Latn}", "\\p{General_Category=Lu}", "\\p{gc=L}",
    "\\p{L=Yes}", "\\p{ASCII=Y}", "\\p{Letter}", "\\p{letter}", "\\p{Any}", "\\p{ASCII}",
    "\\p{Assigned}", "\\p{RGI_Emoji}", "\\p{Extended_Pictographic}", "\\p{ExtPict}", "\\p{Greek}",
    "\\p{Script=greek}", "\\p{ID_Start}", "\\p{CWKCF}", "\\P{Any}", "\\p{Lu}", "(a)\\1", "\\8", "\\/",
    "\\]", "[\\]]", "\\q", "\\0", "\\07", "\\400", "[😀-😺]", "\\ud83d\\ude3a",
    "[\\ud83d\\ude3a-\\ud83d\\ude00]", "[\\p{L}-z]", "\\u12", "a{2147483648}", "(?<𝒜𝒜>x)\\k<𝒜𝒜>",
    "(?<a\\u200c>x)", "(?<a>x)\\k<a", "\\k<a", "(?<=a", "(?:", "(?=", "[a-\\d]", "[\\d-\\w]",
]

TOKENS = [
    "a", "b", "ab", ".", "\\d", "\\w", "\\W", "\\s", "\\S", "\\b", "\\B", "^", "$", "[ab]", "[^a]", "[a-c]",
    "[\\w-]", "(", ")", "(?:", "(?=", "(?!", "(?<=", "(?<!", "(?<n>", "(?<m>", "|", "*", "+", "?", "*?",
    "{1,2}", "{2}", "{,2}", "{", "}", "]", "\\1", "\\2", "\\k<n>", "\\u{61}", "\\u0061", "\\x61", "\\p{L}",
    "\\P{Lu}", "\\c", "\\cA", "\\0", "\\-", "\\e", T, "é", "\u017f", "K", "\u212a", "\\n", "\\r", "[^]",
    "[]", "\\ud83d", "\\ude3a", "-", "/", "\\/", "x",
]
ALPHABET = ["a", "b", "A", "B", " ", "\n", "\r", T, "é", "É", "\u017f", "s", "K", "\u212a", "1", "_", "-", "x"]


def random_cases(rng: random.Random, count: int) -> list[dict]:
    cases = []
    for _ in range(count):
        pattern = "".join(rng.choice(TOKENS) for _ in range(rng.randint(1, 6)))
        flags = "".join(f for f in "gimsu" if rng.random() < 0.3)
        text = "".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, 10)))
        replace = rng.choice(["-", "[$&]", "[$1]", "<$1|$2>", "$<n>", "$0", "$`|$'"])
        case = {"pattern": pattern, "flags": flags, "text": text, "replace": replace}
        if rng.random() < 0.15:
            case["maxChars"] = rng.randint(1, 6)
        if rng.random() < 0.15:
            case["trimStrings"] = rng.choice([["a"], ["[", "]"], ["b", ""]])
        cases.append(case)
    return cases


def main() -> None:
    rng = random.Random(20240607)
    inputs = HAND + [{"pattern": p, "flags": f} for p in COMPILE for f in ("", "u")] + random_cases(rng, 3000)
    res = subprocess.run(["node", str(HERE / "oracle.js")], input=json.dumps(inputs), capture_output=True,
                         text=True, check=True)
    vectors = json.loads(res.stdout)
    OUT.write_text(json.dumps(vectors, ensure_ascii=True, indent=0) + "\n", encoding="utf-8")
    print(f"wrote {len(vectors)} vectors to {OUT}")


if __name__ == "__main__":
    main()
