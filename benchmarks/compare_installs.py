"""Time one benchmark under two (or more) installations of forgec, interleaved in one run.

The compiled build (docs/performance.md, "Compiled modules") is the same sources installed another
way, so ``--compare BASE_TREE`` (which swaps ``PYTHONPATH``) cannot measure it: the installations
differ by interpreter, i.e. by virtual environment.  This runs a script of ``benchmarks/`` once per
round under each named interpreter, alternating them, so both see the same load on a shared machine,
and prints each run's output under its label with the load average::

    python benchmarks/compare_installs.py --python pure=/tmp/venv-pure/bin/python \\
        --python compiled=/tmp/venv-mypyc/bin/python --rounds 2 -- bench_fresh.py --rounds 20

Each interpreter first reports how many compiled modules its forgec loads (``compiled 0 of 35`` for a
pure install), so a run that picked up the wrong package shows it.  The children start from this
folder: ``sys.path[0]`` is ``benchmarks/``, never the checkout's root, so each imports its own
installation (an editable install is the checkout's sources, as it should be).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
PROBE = (
    "import forgec, forgec.resources as r; "
    "print(f'compiled {len(r.compiled_modules())} of {len(r.COMPILED_MODULES)}, {forgec.__file__}')"
)


def _load() -> str:
    one, five, _fifteen = os.getloadavg()
    return f"load {one:.2f} / {five:.2f}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--python", action="append", required=True, metavar="LABEL=PATH",
        help="an interpreter whose environment holds a forgec installation (repeatable, at least two)",
    )
    parser.add_argument("--rounds", type=int, default=2, help="alternations (default 2)")
    parser.add_argument("bench", nargs=argparse.REMAINDER, help="-- SCRIPT [ARGS...]: a script of benchmarks/")
    args = parser.parse_args()
    pythons = [tuple(spec.split("=", 1)) for spec in args.python]
    bench = args.bench[1:] if args.bench[:1] == ["--"] else args.bench
    if len(pythons) < 2 or any(len(p) != 2 for p in pythons) or not bench:
        parser.error("give at least two --python LABEL=PATH and a benchmark after --")
    for label, python in pythons:
        probe = subprocess.run([python, "-c", PROBE], cwd=HERE, capture_output=True, text=True, check=False)
        print(f"[{label}] {(probe.stdout or probe.stderr).strip()}")
    for round_ in range(1, args.rounds + 1):
        for label, python in pythons:
            print(f"--- round {round_}, {label} ({_load()})", flush=True)
            done = subprocess.run([python, str(HERE / bench[0]), *bench[1:]], cwd=HERE, check=False)
            if done.returncode:
                return done.returncode
    print(f"--- end ({_load()})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
