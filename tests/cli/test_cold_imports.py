"""``forgec validate`` keeps heavy libraries out of a cold start (docs/performance.md, "Validate").

Not a timing test: it checks *which* modules a fresh interpreter has loaded after validating a stack
with macros, an unknown macro (which triggers the untrusted-plugin note) and regex rules.  lark,
``regex``, ``importlib.metadata`` and the jsregex matcher each cost tens of milliseconds and are not
needed to lint such a stack, and neither is click: the console script runs a plain ``forgec validate``
without it (``forgec.cli._fast``), while any other command line still goes to click.  A clean stack
needs less still: answered from the cache, no diagnostic record, rule catalog, loader or suppression
parser; checked afresh, no slot renderer, macro engine or renderer (the macro lint reads the built-ins'
argument shapes from ``forgec.model``), fix applier, ``difflib``, ``unicodedata``, ``threading`` or
``inspect`` (issue 14's cold-start budget is counted in milliseconds, and each of these costs ~1-3).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

STACK = {
    "schemaVersion": 1,
    "type": "pi-forge.prompt-stack",
    "id": "cold",
    "variables": {"tone": "dry"},
    "items": [
        {"kind": "block", "id": "a", "role": "system",
         "content": "Tone {{tone}}. {{ifvar::chapter::Chapter {{chapter}}.::Start.}} {{weather}}{{setvar::seen::1}}{{getvar::seen}}"},
        {"kind": "slot", "id": "history", "slot": "chat-history"},
    ],
    "regex": {"schemaVersion": 1, "rules": [
        {"id": "ooc", "stage": "history", "pattern": "\\s*\\(OOC:[^)]*\\)", "flags": "g", "replace": ""},
        {"id": "named", "stage": "compiled", "pattern": "(?<who>[A-Z]\\w+) said", "flags": "gi", "replace": "$<who>"},
        {"id": "bad", "stage": "history", "pattern": "(unclosed", "flags": "g", "replace": ""},
    ]},
}

SCRIPT = """
import json, sys
from forgec.cli import main
try:
    main(["validate", "--format", "json", *sys.argv[1:]])
except SystemExit:
    pass
heavy = ("click", "lark", "regex", "importlib.metadata", "ruamel.yaml", "rich", "icu", "jsonschema",
         "forgec.js.regex.pattern", "forgec.js.regex._unicode_data", "hashlib", "orjson",
         "forgec.compile.macros.builtins", "forgec.compile.macros.engine", "inspect")
print(json.dumps(sorted(m for m in heavy if m in sys.modules)), file=sys.stderr)
"""


def test_validate_does_not_import_heavy_modules(tmp_path: Path) -> None:
    """Both with the on-disk cache being filled and answered from it (``hashlib`` too: the cache
    hashes with ``_blake2``, as importing hashlib loads OpenSSL), and with ``--no-cache``."""
    path = tmp_path / "cold.json"
    path.write_text(json.dumps(STACK), encoding="utf-8")
    env = {**os.environ, "FORGEC_CACHE_DIR": str(tmp_path / "cache"), "FORGEC_DEBUG_CACHE": "1"}
    env.pop("FORGEC_NO_CACHE", None)
    env.pop("FORGEC_ORJSON", None)  # orjson, when installed, waits for a megabyte of JSON (forgec.js.json)
    reports = []
    for run, extra in enumerate(((), (), ("--no-cache",))):
        done = subprocess.run([sys.executable, "-c", SCRIPT, str(path), *extra], capture_output=True, text=True,
                              check=False, env=env)  # fmt: skip
        report = json.loads(done.stdout)
        codes = [d["code"] for f in report["files"] for d in f["diagnostics"]]
        assert "FG210" in codes  # {{weather}}: the plugin note path ran
        assert any("Unterminated group" in d["message"] for f in report["files"] for d in f["diagnostics"])
        assert json.loads(done.stderr.strip().splitlines()[-1]) == []
        if run == 1:
            assert "1 target(s) from the cache" in done.stderr
        reports.append(report)
    assert reports[0] == reports[1] == reports[2]


CLEAN = {
    "schemaVersion": 1,
    "type": "pi-forge.prompt-stack",
    "id": "clean",
    "items": [
        {"kind": "block", "id": "role", "role": "system", "content": "Answer briefly."},
        {"kind": "slot", "id": "tools", "slot": "tools", "options": {"format": "plain"}},
        {"kind": "slot", "id": "history", "slot": "chat-history"},
    ],
}

CLEAN_SCRIPT = """
import json, sys
from forgec.cli import main
try:
    main(["validate", *sys.argv[2:]])
except SystemExit:
    pass
print(json.dumps(sorted(m for m in sys.modules if m.startswith(tuple(sys.argv[1].split(","))))), file=sys.stderr)
"""

#: what a clean stack answered from the cache never needs
_CACHED_UNUSED = ("click", "forgec.cli._group", "forgec.diagnostics.core", "forgec.rules", "forgec.lint.suppressions", "forgec.js", "forgec.codecs",
                  "forgec.source", "forgec.compile", "difflib", "unicodedata", "json.tool", "threading", "inspect")  # fmt: skip
#: what checking a clean stack afresh never needs
_FRESH_UNUSED = ("click", "forgec.compile.slots", "forgec.compile.macros.block", "forgec.js.collation", "forgec.lint.suppressions", "forgec.lint.repair", "difflib",
                 "unicodedata", "threading", "inspect", "forgec.compile.macros.builtins", "forgec.compile.macros.engine",
                 "forgec.diagnostics.quick", "forgec.model.runtime", "forgec.model.variables", "forgec.source.yaml",
                 "forgec.compile.macros.replay")


def test_a_clean_stack_loads_only_what_it_uses(tmp_path: Path) -> None:
    """Checked afresh while the cache is filled, answered from the cache, and with ``--no-cache``:
    "All checks passed" each time, and none of the modules that run does not need is loaded."""
    path = tmp_path / "clean.json"
    path.write_text(json.dumps(CLEAN), encoding="utf-8")
    env = {**os.environ, "FORGEC_CACHE_DIR": str(tmp_path / "cache")}
    env.pop("FORGEC_NO_CACHE", None)
    for extra, unused in (((), _FRESH_UNUSED), ((), _CACHED_UNUSED), (("--no-cache",), _FRESH_UNUSED)):
        done = subprocess.run([sys.executable, "-c", CLEAN_SCRIPT, ",".join(unused), *extra, str(path)],
                              capture_output=True, text=True, check=False, env=env)  # fmt: skip
        assert "All checks passed (1 file checked)." in done.stdout, done.stdout + done.stderr
        assert json.loads(done.stderr.strip().splitlines()[-1]) == [], extra


CONSOLE_SCRIPT = """
import json, sys
from forgec.cli import main
loaded = "click" in sys.modules
try:
    main()
except SystemExit as exc:
    print(json.dumps([loaded, "click" in sys.modules, exc.code]), file=sys.stderr)
"""


def test_the_console_script_loads_click_only_for_what_click_runs(tmp_path: Path) -> None:
    """Importing the entry point loads no click; the plain ``validate FILE`` runs without it; an
    option the fast path leaves to click (``--statistics``), ``--help`` and another command load it and work."""
    path = tmp_path / "clean.json"
    path.write_text(json.dumps(CLEAN), encoding="utf-8")
    env = {**os.environ, "FORGEC_CACHE_DIR": str(tmp_path / "cache")}
    env.pop("FORGEC_NO_CACHE", None)
    for args, click_loaded in (
        (["validate", str(path)], False),
        (["validate", "--format", "concise", str(path), "--no-cache"], False),
        (["validate", "--strict", "-q", str(path)], False),
        (["validate", "--statistics", str(path)], True),
        (["validate", "--help"], True),
        (["rule", "FG101"], True),
    ):
        done = subprocess.run([sys.executable, "-c", CONSOLE_SCRIPT, *args], capture_output=True, text=True,
                              check=False, env=env)  # fmt: skip
        assert json.loads(done.stderr.strip().splitlines()[-1]) == [False, click_loaded, 0], (args, done.stderr)
        assert done.stdout


def test_python_dash_m_forgec_takes_the_click_free_path_too(tmp_path: Path) -> None:
    path = tmp_path / "clean.json"
    path.write_text(json.dumps(CLEAN), encoding="utf-8")
    script = ("import atexit, runpy, sys; atexit.register(lambda: print('click' in sys.modules, file=sys.stderr)); "
              "runpy.run_module('forgec', run_name='__main__', alter_sys=True)")
    env = {**os.environ, "FORGEC_CACHE_DIR": str(tmp_path / "cache")}
    for args, click_loaded in ((["validate", str(path)], "False"), (["validate", "--isolated", str(path)], "True")):
        done = subprocess.run([sys.executable, "-c", script, *args], capture_output=True, text=True, check=False,
                              env=env)  # fmt: skip
        assert (done.returncode, done.stderr.split()[-1]) == (0, click_loaded), done.stderr
        assert "All checks passed (1 file checked)." in done.stdout


INSPECT_SCRIPT = """
import json, sys
from forgec.cli import main
try:
    main(sys.argv[1:])
except SystemExit:
    pass
import dataclasses
before = "inspect" in sys.modules

@dataclasses.dataclass(frozen=True)
class NoDoc:
    a: int
    b: str = "x"

import inspect
print(json.dumps([before, NoDoc.__doc__, str(inspect.signature(NoDoc)), hasattr(inspect, "__file__"),
                  sys.modules["inspect"] is inspect, dataclasses.inspect is inspect, callable(inspect.getsource)]),
      file=sys.stderr)
"""


def test_the_console_script_imports_inspect_only_when_it_is_used(tmp_path: Path) -> None:
    """:func:`forgec.cli._defer_inspect`: a clean ``validate`` (from the cache, afresh) never loads
    :mod:`inspect`; afterwards a dataclass without a docstring still gets the one :mod:`dataclasses`
    writes, and ``import inspect`` gets the real module, the one ``dataclasses`` then uses.  ``--help``
    runs click, which imports :mod:`inspect` itself after the stand-in is bound: it gets the real one."""
    path = tmp_path / "clean.json"
    path.write_text(json.dumps(CLEAN), encoding="utf-8")
    env = {**os.environ, "FORGEC_CACHE_DIR": str(tmp_path / "cache")}
    env.pop("FORGEC_NO_CACHE", None)
    expected = ["NoDoc(a: int, b: str = 'x')", "(a: int, b: str = 'x') -> None", True, True, True, True]
    for args, loaded in ((["validate", str(path)], False), (["validate", str(path)], False),
                         (["validate", "--no-cache", str(path)], False), (["--help"], True)):  # fmt: skip
        done = subprocess.run([sys.executable, "-c", INSPECT_SCRIPT, *args], capture_output=True, text=True,
                              check=False, env=env)  # fmt: skip
        assert json.loads(done.stderr.strip().splitlines()[-1]) == [loaded, *expected], (args, done.stderr)


def test_a_library_import_of_forgec_leaves_inspect_alone() -> None:
    """Only the console script's ``main`` puts the stand-in in place: importing forgec and using it as a
    library binds the real :mod:`inspect` in :mod:`dataclasses`, as any other program would."""
    script = ("import sys, forgec.cli, forgec.lint, forgec.workspace; "
              "print(type(sys.modules['dataclasses'].inspect).__name__, 'inspect' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "module True"
