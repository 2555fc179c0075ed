"""Every profile rule (FG500-FG569) is registered once, with a kebab-case name and real examples,
and every code the profile code uses is one of them."""

from __future__ import annotations

import re
from pathlib import Path

from forgec.rules import all_rules, rule_for
from forgec.rules import profiles as codes

_ROOT = Path(__file__).resolve().parents[3] / "forgec"
_USERS = ["codecs/profile.py", "agents/profiles.py"]
#: forgec's own profile rules (not pi-forge texts), and the module that raises each
_OWN = {"CATALOG_NOT_CONFIGURED": "lint/agents.py"}


def test_codes_used_by_the_profile_code_are_registered() -> None:
    constants = {name: getattr(codes, name) for name in dir(codes) if name.isupper() and name[0] != "_"}
    used = set()
    for module in _USERS:
        text = (_ROOT / module).read_text(encoding="utf-8")
        for name in re.findall(r"codes\.([A-Z0-9_]+)", text):
            used.add(name)
            rule = rule_for(constants[name])
            assert rule.bad and rule.good and rule.summary and rule.pi_forge, name
    for name, module in _OWN.items():
        assert re.search(rf"\b{name}\b", (_ROOT / module).read_text(encoding="utf-8")), name
        assert not rule_for(constants[name]).pi_forge, name
        used.add(name)
    assert used == set(constants), set(constants) - used  # no rule is left without a check


def test_profile_rules_are_complete_and_well_named() -> None:
    rules = [r for r in all_rules() if "FG500" <= r.code <= "FG569"]
    assert len(rules) == 33  # 32 pi-forge texts and forgec's FG552 note
    assert len({r.name for r in rules}) == len(rules)
    assert all(re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", r.name) for r in rules)
    assert all(r.level in ("error", "warning") for r in rules if r.pi_forge)
    assert rule_for("model-catalog-not-configured").level == "info"
    assert rule_for("duplicate-profile-id").code == "FG520"
    assert rule_for("FG544").level == "warning"
