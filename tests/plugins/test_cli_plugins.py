"""Trusted plugins through the commands: validate, preview, compile, snapshot.

The stack is pi-forge's shipped example ``custom-system-status`` (corpus case
``example-custom-system-status``): without its extension pi-forge reports the macro as unresolved and
the slot as unsupported (the case's ``expected.json``); with it trusted, both render.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from click.testing import Result

from .conftest import CASE

STACK = "custom-system-status.json"


def _expected() -> dict[str, Any]:
    return json.loads((CASE / "expected.json").read_text(encoding="utf-8"))


def _validate_json(run: Callable[..., Result], *args: str) -> tuple[Result, list[dict[str, Any]]]:
    result = run("validate", "--format", "json", *args, STACK)
    return result, json.loads(result.stdout)["files"][0]["diagnostics"]


# --- untrusted: pi-forge's output without the extension, byte for byte -------------------------


def test_untrusted_plugin_is_not_loaded_and_output_is_pi_forges(run, install_plugins) -> None:
    install_plugins()
    result = run("preview", "--format", "json", "--context", "context.json", STACK)
    assert result.exit_code == 0, result.stderr
    report = json.loads(result.stdout)
    expected = _expected()
    assert report["validation"] == expected["validation"]
    assert report["system"] == expected["system"]
    assert "{{cpuLoad}}" in report["system"]["prompt"]
    # the notes about installed, untrusted plugins go to stderr, never into the report
    assert "Plugin system-status is installed but not trusted" in result.stderr
    assert "[FG951]" in result.stderr
    assert "forgec_test_status" not in sys.modules


def test_untrusted_validate_reports_unsupported_slot_and_unknown_macro(run, install_plugins) -> None:
    install_plugins()
    result, diagnostics = _validate_json(run)
    unsupported = [d for d in diagnostics if d["name"] == "slot-not-registered"]
    assert [(d["message"], d["itemId"]) for d in unsupported] == [("Unsupported slot: machine-status", "machine-status")]
    unknown = [d for d in diagnostics if d["name"] == "unknown-macro"]
    assert len(unknown) == 1 and "{{cpuLoad}}" in unknown[0]["message"]
    assert "registered custom macro" in unknown[0]["message"]
    assert result.exit_code == 0  # warnings only
    assert "not trusted" in result.stderr


def test_untrusted_namespaced_macro_is_a_missing_dependency(run, install_plugins, project: Path) -> None:
    install_plugins()
    stack = json.loads((project / STACK).read_text())
    stack["items"][0]["content"] = "Weather: {{acme.weather}}"
    (project / STACK).write_text(json.dumps(stack))
    _, diagnostics = _validate_json(run)
    missing = [d for d in diagnostics if d["name"] == "missing-macro-plugin"]
    assert len(missing) == 1 and "missing dependency" in missing[0]["message"]
    _, trusted = _validate_json(run, "--trust-plugins")
    assert not [d for d in trusted if d["name"] in ("missing-macro-plugin", "unknown-macro")]


# --- trusted: the macro expands and the slot renders ---------------------------------------------


def test_trust_plugins_flag_expands_macro_and_renders_slot(run, install_plugins) -> None:
    install_plugins()
    result = run("preview", "--format", "json", "--context", "context.json", "--trust-plugins", STACK)
    assert result.exit_code == 0, result.stderr
    report = json.loads(result.stdout)
    assert report["validation"]["diagnostics"] == []
    assert report["system"]["diagnostics"] == []
    assert report["system"]["prompt"] == (
        "You are an expert coding assistant operating inside pi.\n\nBASE PROMPT BODY\n\n"
        "Current rough CPU load: 0.42\n\n"
        "Runtime machine snapshot\nplatform: test-os\ncpus: 8\nmemory: 16 GiB\nuptime: 3 days"
    )
    # everything that does not depend on the plugin is unchanged
    expected = _expected()
    assert report["messages"] == expected["messages"]
    assert report["fingerprints"] == expected["fingerprints"]
    assert result.stderr == ""


def test_trusted_validate_is_clean(run, install_plugins) -> None:
    install_plugins()
    result = run("validate", "--trust-plugins", STACK)
    assert result.exit_code == 0
    assert "All checks passed (1 file checked)." in result.stdout
    assert result.stderr == ""


def test_config_trusts_only_the_named_plugin(run, install_plugins, project: Path) -> None:
    install_plugins("system-status", "weather")
    (project / "pyproject.toml").write_text('[tool.forgec]\nplugins = ["system-status"]\n')
    stack = json.loads((project / STACK).read_text())
    stack["items"][0]["content"] = "Load {{cpuLoad}}, weather {{acme.weather}}"
    (project / STACK).write_text(json.dumps(stack))

    result = run("preview", "--format", "json", STACK)
    report = json.loads(result.stdout)
    assert "Load 0.42, weather {{acme.weather}}" in report["system"]["prompt"]
    assert "Runtime machine snapshot" in report["system"]["prompt"]
    assert report["system"]["diagnostics"] == [
        {"itemId": "cpu-load-macro", "level": "warning", "message": "Unresolved macro: {{acme.weather}}"}
    ]
    assert "Plugin weather is installed but not trusted" in result.stderr
    assert "system-status" not in result.stderr

    result, diagnostics = _validate_json(run)
    assert [d["name"] for d in diagnostics] == ["missing-macro-plugin"]
    # --isolated ignores the configuration, and with it the trust
    _, isolated = _validate_json(run, "--isolated")
    assert "Unsupported slot: machine-status" in [d["message"] for d in isolated]


def test_config_names_a_plugin_that_is_not_installed(run, install_plugins, project: Path) -> None:
    install_plugins("system-status")
    (project / "pyproject.toml").write_text('[tool.forgec]\nplugins = ["system-staus"]\n')
    result = run("validate", STACK)
    assert "Plugin system-staus is trusted in [tool.forgec] plugins but no installed package" in result.stderr
    assert "[FG952]" in result.stderr
    assert result.exit_code == 0


# --- broken plugins: a clear diagnostic, never a traceback ---------------------------------------


def test_plugin_raising_at_import_is_a_diagnostic(run, install_plugins) -> None:
    install_plugins("system-status", "broken")
    result, diagnostics = _validate_json(run, "--trust-plugins")
    assert result.exit_code == 1
    assert diagnostics[0]["code"] == "FG950"
    assert diagnostics[0]["message"] == "Plugin broken failed to load: cannot read /proc/loadavg"
    assert diagnostics[0]["level"] == "error"
    # the other trusted plugin still loaded
    assert "Unsupported slot: machine-status" not in [d["message"] for d in diagnostics]
    assert "Traceback" not in result.output

    preview = run("preview", "--format", "json", "--trust-plugins", STACK)
    assert preview.exit_code == 1
    assert "forgec preview: error: Plugin broken failed to load: cannot read /proc/loadavg [FG950]" in preview.stderr
    report = json.loads(preview.stdout)  # the report itself stays pi-forge's
    assert all(d["message"] != "Plugin broken failed to load" for d in report["system"]["diagnostics"])
    assert "Traceback" not in preview.output


def test_plugin_registering_a_builtin_name_is_a_diagnostic(run, install_plugins) -> None:
    install_plugins("shadow")
    result = run("validate", "--format", "concise", "--trust-plugins", STACK)
    assert result.exit_code == 1
    assert "Plugin shadow failed to load: Macro is already registered: getvar" in result.stdout


def test_untrusted_broken_plugin_is_never_imported(run, install_plugins) -> None:
    install_plugins("broken")
    result = run("validate", STACK)
    assert result.exit_code == 0
    assert "failed to load" not in result.output


# --- compile and snapshot ------------------------------------------------------------------------


def test_compile_body_uses_trusted_plugin(run, install_plugins) -> None:
    install_plugins()
    result = run("compile", "--context", "context.json", "--target", "anthropic-messages", "--trust-plugins", STACK)
    assert result.exit_code == 0, result.stderr
    body = json.loads(result.stdout)
    system_text = json.dumps(body["system"])
    assert "Current rough CPU load: 0.42" in system_text
    assert "Runtime machine snapshot" in system_text
    untrusted = json.loads(run("compile", "--context", "context.json", "--target", "anthropic-messages", STACK).stdout)
    assert "{{cpuLoad}}" in json.dumps(untrusted["system"])


def test_snapshot_update_and_check_with_trusted_plugin(run, install_plugins, project: Path) -> None:
    install_plugins()
    written = run("snapshot", "update", "--trust-plugins", STACK)
    assert written.exit_code == 0, written.output
    golden = (project / "__golden__" / f"{STACK}.prompt.md").read_text(encoding="utf-8")
    assert "Current rough CPU load: 0.42" in golden
    assert run("snapshot", "check", "--trust-plugins", STACK).exit_code == 0
    changed = run("snapshot", "check", STACK)  # without trust the prompt differs
    assert changed.exit_code == 1
    assert "changed" in changed.stdout


def test_snapshot_refuses_to_write_without_a_broken_trusted_plugin(run, install_plugins, project: Path) -> None:
    install_plugins("system-status", "broken")
    result = run("snapshot", "update", "--trust-plugins", STACK)
    assert result.exit_code == 1
    assert "failed to load" in result.stderr
    assert not (project / "__golden__").exists()


def test_every_command_has_the_flag(run) -> None:
    for command in (("validate",), ("preview",), ("compile",), ("snapshot", "check"), ("snapshot", "update")):
        assert "--trust-plugins" in run(*command, "--help").stdout, command


def test_untrusted_note_only_when_a_stack_needs_a_plugin(run, install_plugins, project: Path) -> None:
    """Listing plugins costs start-up time: without trust it happens only for a stack that lacks one."""
    install_plugins()
    stack = json.loads((project / STACK).read_text())
    stack["items"] = [item for item in stack["items"] if item["id"] == "chat-history"]
    (project / STACK).write_text(json.dumps(stack))
    for args in (("validate", STACK), ("preview", "--format", "json", STACK)):
        result = run(*args)
        assert result.exit_code == 0
        assert result.stderr == "", args
