"""Every loader rule is registered with a unique code and name and real examples."""

from __future__ import annotations

import re
from pathlib import Path

from forgec.rules import all_rules, rule_for

_ROOT = Path(__file__).resolve().parents[3] / "forgec"
_MODULES = [*(f"source/{p.name}" for p in sorted((_ROOT / "source").glob("*.py"))), "codecs/stack.py", "codecs/regex_config.py"]


def test_codes_used_by_the_loader_are_registered() -> None:
    from forgec.rules import loader, regex_config

    constants = {name: getattr(mod, name) for mod in (loader, regex_config) for name in dir(mod) if name.isupper()}
    for module in _MODULES:
        text = (_ROOT / module).read_text(encoding="utf-8")
        for name in re.findall(r"codes\.([A-Z0-9_]+)", text):
            code = constants[name]
            rule = rule_for(code)
            assert rule.bad and rule.good and rule.summary, code


def test_loader_rules_are_complete() -> None:
    # FG15x are forgec's typo hints (forgec/lint/hints.py), not loader rules
    rules = [
        r
        for r in all_rules()
        if (r.code[:3] in ("FG0", "FG1") and not "FG150" <= r.code <= "FG159")
        or "FG601" <= r.code <= "FG619"
        or "FG631" <= r.code <= "FG640"
    ]
    assert len(rules) == 12 + 48 + 29  # FG012 invalid-settings: [tool.forgec] (the language server shows it)
    assert len({r.name for r in rules}) == len(rules)
    assert all(re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", r.name) for r in rules)
    assert rule_for("duplicate-item-id").code == "FG135" and rule_for("FG001").name == "json-parse-error"
