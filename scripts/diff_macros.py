"""Hash the macro engine's output on thousands of texts, so engine speed work can prove it changed nothing.

``scripts/diff_outputs.py`` covers whole compiles of the corpora, whose blocks hold few macros; this
script drives :func:`forgec.compile.macros.expand_block` directly on texts built to reach every
branch of the engine: every built-in (set/get/clear in each scope, filters, conditionals), unknown
macros and variables, nesting, unclosed ``{{``, stray ``}}`` and ``::``, surrogate halves, JSON
values, each unresolved-macro policy, a custom macro that fails, and one session per text or a run
of texts sharing a variable store (as a stack's blocks do).  Per text it hashes the output, every
diagnostic (level, message, code, item id, pointer, offset, length) and the store afterwards.  All
texts are expanded in three rounds: the later ones meet the caches the first filled (parsed texts,
findings kept on parsed macros) with item ids and pointers that Python calls equal but JSON prints
differently (``1``/``True``), then exactly the same inputs again.

    python scripts/diff_macros.py --out /tmp/before.json     # on the old tree (PYTHONPATH)
    python scripts/diff_macros.py --out /tmp/after.json      # on the new tree
    python scripts/diff_macros.py --compare /tmp/before.json /tmp/after.json

The texts come from a seeded generator (``--seed``, ``--count``) plus the spec's examples, so both
trees see the same texts.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent

_WORDS = [
    "setvar", "getvar", "var", "setturnvar", "setsessionvar", "getturnvar", "getsessionvar", "clearvar",
    "clearturnvar", "clearsessionvar", "trim", "upper", "lower", "json", "xml", "ifvar", "ifeq", "iftools",
    "ifslot", "cwd", "date", "time", "lastUserMessage", "selectedTools", "tools", "activeModel", "boom",
    "echo", "mood", "topic", "n", "obj", "k", "turn", "session", " ", "  x ", "a", "é", "\ud83d", "\ude00",
    "\ufeff", "chat-history", "read", "\n", "<&>", '"q"', "unknown",
]
_PAIRS = ["{{", "}}", "::", "{", "}", ":"]


def _gen_text(rng: random.Random, depth: int = 0) -> str:
    out: list[str] = []
    for _ in range(rng.randint(1, 6)):
        roll = rng.random()
        if roll < 0.45 and depth < 4:
            parts = [rng.choice(_WORDS)]
            for _ in range(rng.randint(0, 4)):
                parts.append(_gen_text(rng, depth + 1) if rng.random() < 0.5 else rng.choice(_WORDS))
            out.append("{{" + "::".join(parts) + "}}")
        elif roll < 0.6:
            out.append(rng.choice(_PAIRS))
        else:
            out.append(rng.choice(_WORDS))
    return "".join(out)


def _texts(seed: int, count: int) -> list[str]:
    sys.path.insert(0, str(REPO))
    from tests.compile.macros.spec_examples import SPEC_EXAMPLES

    rng = random.Random(seed)
    texts = [row[0] for row in SPEC_EXAMPLES]
    texts += [_gen_text(rng) for _ in range(count)]
    return texts


def _hash(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, ensure_ascii=True, default=repr)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def run(seed: int, count: int) -> dict[str, str]:
    from forgec.compile.macros import expand_block
    from forgec.model.runtime import Runtime
    from forgec.model.variables import VariableStore
    from forgec.plugins import Registry

    registry = Registry()
    registry.register_macro("boom", lambda ctx: (_ for _ in ()).throw(ValueError("bang")))
    registry.register_macro("echo", lambda ctx: [ctx.expand_arg(0), ctx.arg_count, ctx.raw_args, ctx.variables.get("mood")])
    runtime = Runtime(options={"cwd": "/home/dev"}, latest_user_message="last::msg", now_ms=1_700_000_000_000)
    results: dict[str, str] = {}
    texts = _texts(seed, count)
    policies = ["warn", "keep", "error"]
    for round_ in (0, 1, 2):  # later rounds meet the caches (parses, findings) the earlier ones filled
        same = min(round_, 1)  # round 2 repeats round 1 exactly: every cached finding is handed out again
        shared = VariableStore(session={"topic": "t"})
        for index, text in enumerate(texts):
            policy = policies[index % 3]
            stack = {
                "defaults": {"unresolvedMacroPolicy": policy},
                "variables": {"mood": "calm", "n": 3, "obj": {"a": [1, None]}},
                "items": [{"kind": "slot", "slot": "chat-history"}],
            }
            store = shared if index % 5 == 0 else VariableStore(session={"topic": "t"})
            # ids and pointers that a cache must not confuse: equal in Python, different in JSON
            ids: list[Any] = [f"i{index}", index % 2, bool(index % 2), None, [index % 2]]
            item_id = ids[index % 5] if same or index % 4 != 1 else ids[(index + 1) % 5]
            flip = same or index % 4 != 0  # some pointers: (.., True, ..) first, then (.., 1, ..)
            pointer = ("items", index % 2 if flip else bool(index % 2), "content") if index % 3 else None
            diagnostics: list[Any] = []
            out = expand_block(
                text,
                item_id=item_id,
                stack=stack,
                runtime=runtime,
                store=store if index % 7 else None,
                diagnostics=diagnostics,
                selected_tools=["read", "write"],
                registry=registry if index % 2 else None,
                pointer=pointer,
            )
            diags = [
                [d.level, d.message, d.code, repr(d.item_id), repr(d.pointer), d.offset, d.length] for d in diagnostics
            ]
            results[f"text:{round_}:{index}"] = _hash([text, out, diags, store.turn, store.session])
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--out", type=Path, help="write the hashes here")
    parser.add_argument("--compare", nargs=2, type=Path, metavar=("A", "B"), help="compare two --out files")
    parser.add_argument("--seed", type=int, default=14)
    parser.add_argument("--count", type=int, default=5000)
    args = parser.parse_args()
    if args.compare:
        a = json.loads(args.compare[0].read_text(encoding="utf-8"))
        b = json.loads(args.compare[1].read_text(encoding="utf-8"))
        differ = sorted(k for k in a.keys() | b.keys() if a.get(k) != b.get(k))
        print(f"{len(a)} vs {len(b)} entries; {len(differ)} differ")
        for key in differ[:20]:
            print("  differs:", key)
        sys.exit(1 if differ else 0)
    results = run(args.seed, args.count)
    if args.out:
        args.out.write_text(json.dumps(results, indent=0, sort_keys=True), encoding="utf-8")
    print(f"{len(results)} texts hashed")


if __name__ == "__main__":
    main()
