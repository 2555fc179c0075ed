"""The YAML differential at scale: ruamel.yaml.clib's C composer against the pure one, N mutations.

``tests/source/test_yaml_fast.py`` runs a few thousand cases in CI; this runs as many as asked
(``python scripts/diff_yaml.py --cases 100000 --seed 3``) over the same corpus and mutations, and
prints how many texts the C path took, how many it declined, and every text on which the two
paths' readings differ (exit 1 if any).  Run it after upgrading ruamel.yaml or ruamel.yaml.clib.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main() -> int:
    import pytest

    from tests.source import test_yaml_fast as diff

    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--cases", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    corpus = diff._files() + diff._test_strings() + diff._bench_stacks()
    small = [text for text in corpus if len(text) < 4000]
    rng = random.Random(args.seed)
    taken = declined = 0
    failures = []
    monkeypatch = pytest.MonkeyPatch()
    for number in range(args.cases):
        text = corpus[number] if number < len(corpus) else diff.mutate(rng.choice(small), rng)
        try:
            if diff.check_same(text, monkeypatch):
                taken += 1
            else:
                declined += 1
        except AssertionError as error:
            failures.append(text)
            print(f"DIFFERS: {text!r}\n  {str(error)[:300]}", flush=True)
    print(f"{args.cases} texts: C path {taken}, pure path {declined}, differing {len(failures)}")
    return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
