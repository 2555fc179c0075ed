"""``[tool.forgec]`` parsing and the layered select/ignore/severity model (forgec/settings.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from forgec.rules import all_rules
from forgec.settings import (
    RuleSelection,
    Settings,
    SettingsError,
    find_pyproject,
    load_settings,
    parse_selector_list,
    parse_table,
)


@pytest.fixture(scope="module")
def two_rules() -> tuple[str, str]:
    """Two registered codes of different groups (real rules, whatever the stages register)."""
    codes = [r.code for r in all_rules()]
    first = codes[0]
    other = next(c for c in codes if c[:3] != first[:3])
    return first, other


def test_defaults_select_everything(two_rules) -> None:
    selection = RuleSelection()
    assert all(selection.enabled(code) for code in two_rules)
    assert selection.level(two_rules[0], "warning") == "warning"


def test_select_prefix_ignore_code(two_rules) -> None:
    a, b = two_rules
    config = parse_table({"select": [a[:3]], "ignore": [a]})
    selection = RuleSelection(config)
    assert not selection.enabled(a)  # a full code beats a prefix
    assert not selection.enabled(b)  # not selected
    config = parse_table({"select": [a], "ignore": [a[:3]]})
    assert RuleSelection(config).enabled(a)  # the more specific select wins
    config = parse_table({"select": [a], "ignore": [a]})
    assert not RuleSelection(config).enabled(a)  # a tie: ignore wins


def test_extend_select_and_name_selectors(two_rules) -> None:
    a, b = two_rules
    from forgec.rules import rule_for

    config = parse_table({"select": [a], "extend-select": [rule_for(b).name]})
    selection = RuleSelection(config)
    assert selection.enabled(a) and selection.enabled(b)


def test_cli_layer_replaces_select_and_adds_ignore(two_rules) -> None:
    a, b = two_rules
    config = parse_table({"select": [a], "ignore": [b]})
    assert not RuleSelection(config, cli_select=(b,)).enabled(a)
    # file ignore and CLI select are different layers: the later (CLI) layer decides
    assert RuleSelection(config, cli_select=(b,)).enabled(b)
    config = parse_table({})
    assert not RuleSelection(config, cli_ignore=(a[:3],)).enabled(a)
    assert RuleSelection(config, cli_ignore=(a[:3],)).enabled(b)


def test_severity_most_specific_wins(two_rules) -> None:
    a, _ = two_rules
    config = parse_table({"severity": {a[:3]: "info", a: "error"}})
    assert RuleSelection(config).level(a, "warning") == "error"
    config = parse_table({"severity": {"ALL": "info"}})
    assert RuleSelection(config).level(a, "error") == "info"


def test_plugins_and_strict_are_exposed() -> None:
    config = parse_table({"plugins": ["acme.slots"], "strict": True})
    assert config.plugins == ("acme.slots",) and config.strict is True


def test_selector_list_parsing(two_rules) -> None:
    a, b = two_rules
    assert parse_selector_list(f" {a}, {b[:3]} ,,") == (a, b[:3])
    assert parse_selector_list(None) == ()
    with pytest.raises(SettingsError, match="unknown rule selector 'FG12345'"):
        parse_selector_list("FG12345")
    with pytest.raises(SettingsError):
        parse_selector_list("E501")


def test_find_pyproject_skips_files_without_table(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.forgec]\nstrict = true\n")
    inner = tmp_path / "pkg" / "sub"
    inner.mkdir(parents=True)
    (tmp_path / "pkg" / "pyproject.toml").write_text("[project]\nname = 'pkg'\n")
    assert find_pyproject(inner) == tmp_path / "pyproject.toml"
    config = load_settings(inner)
    assert config.strict is True and config.path == tmp_path / "pyproject.toml"


def test_no_pyproject_gives_defaults(tmp_path: Path) -> None:
    assert load_settings(tmp_path) == Settings()
