"""FG570-FG599: pi-forge's forge config (``.pi/forge/config.json``, profiles-exec.md §2): the
subagent settings of each file, the web editor's port, the config updater.  pi-forge's warning texts
are kept exactly; the code and the position are forgec's.

One rule per distinct warning pi-forge prints (every one is a warning: a bad value is ignored and
the previous layer's value stays in force, §2.3).  ``<path>`` in a text is the file's path as
pi-forge spells it; ``<entry>`` is ``subagents.profiles.<id>``.  FG570-FG583 come from the subagent
reader (§2.3, §2.4), FG584-FG586 from the web editor's port reader (§2.7), which reads the same
project file on its own and so warns separately about a file it cannot use.  FG587-FG599 are free.
"""

from __future__ import annotations

from forgec.rules.registry import Rule, register

__all__ = [
    "CONFIG_BACKEND_INVALID",
    "CONFIG_PROFILES_NOT_OBJECT",
    "CONFIG_PROFILE_BACKEND_INVALID",
    "CONFIG_PROFILE_ENABLED_INVALID",
    "CONFIG_PROFILE_ENTRY_NOT_OBJECT",
    "CONFIG_PROFILE_ID_INVALID",
    "CONFIG_PROFILE_KEY_UNSUPPORTED",
    "CONFIG_PROFILE_TIMEOUT_INVALID",
    "CONFIG_ROOT_NOT_OBJECT",
    "CONFIG_SUBAGENTS_NOT_OBJECT",
    "CONFIG_SUMMARY_FLAG_INVALID",
    "CONFIG_TIMEOUT_INVALID",
    "CONFIG_UNATTENDED_FLAG_INVALID",
    "CONFIG_UNREADABLE",
    "WEB_EDITOR_CONFIG_UNREADABLE",
    "WEB_EDITOR_PORT_INVALID",
    "WEB_EDITOR_ROOT_NOT_OBJECT",
]

# --- the subagent reader (§2.3, §2.4) -------------------------------------------------------------
CONFIG_UNREADABLE = "FG570"
CONFIG_ROOT_NOT_OBJECT = "FG571"
CONFIG_SUBAGENTS_NOT_OBJECT = "FG572"
CONFIG_BACKEND_INVALID = "FG573"
CONFIG_TIMEOUT_INVALID = "FG574"
CONFIG_SUMMARY_FLAG_INVALID = "FG575"
CONFIG_UNATTENDED_FLAG_INVALID = "FG576"
CONFIG_PROFILES_NOT_OBJECT = "FG577"
CONFIG_PROFILE_ID_INVALID = "FG578"
CONFIG_PROFILE_ENTRY_NOT_OBJECT = "FG579"
CONFIG_PROFILE_KEY_UNSUPPORTED = "FG580"
CONFIG_PROFILE_ENABLED_INVALID = "FG581"
CONFIG_PROFILE_BACKEND_INVALID = "FG582"
CONFIG_PROFILE_TIMEOUT_INVALID = "FG583"
# --- the web editor's port (§2.7) ----------------------------------------------------------------
WEB_EDITOR_CONFIG_UNREADABLE = "FG584"
WEB_EDITOR_ROOT_NOT_OBJECT = "FG585"
WEB_EDITOR_PORT_INVALID = "FG586"


def _sub(body: str) -> str:
    return '{"subagents": {' + body + "}}"


def _entry(body: str) -> str:
    return _sub('"profiles": {"reviewer": {' + body + "}}")


#: (code, name, what it means, pi-forge's text, bad, good)
_TABLE: tuple[tuple[str, str, str, str, str, str], ...] = (
    (CONFIG_UNREADABLE, "config-unreadable",
     "The config file exists but cannot be read, or is not valid JSON (the reason is Node's file error "
     "or V8's JSON.parse message). Nothing in it applies: the other file's values, or the built-in "
     "ones, stay in force.",
     "pi-forge: failed to read <path>; its subagent settings are ignored. <reason>",
     '{"subagents": {"backend": "pi-rpc-readonly",}}', '{"subagents": {"backend": "pi-rpc-readonly"}}'),
    (CONFIG_ROOT_NOT_OBJECT, "config-root-not-object",
     "The config file must hold one JSON object, not an array, a string, a number or null.",
     "pi-forge: <path> must be a JSON object; its subagent settings are ignored.",
     '[{"subagents": {"timeoutMs": 120000}}]', '{"subagents": {"timeoutMs": 120000}}'),
    (CONFIG_SUBAGENTS_NOT_OBJECT, "config-subagents-not-object",
     "subagents must be an object; anything else makes the whole section ignored (an absent section is fine).",
     "pi-forge: <path> subagents must be a JSON object; its subagent settings are ignored.",
     '{"subagents": "pi-rpc-readonly"}', _sub('"backend": "pi-rpc-readonly"')),
    (CONFIG_BACKEND_INVALID, "config-backend-invalid",
     "The default backend must be a string with non-blank content (it is stored untrimmed); the other "
     "file's default, or pi-subprocess-readonly, applies instead.",
     "pi-forge: <path> subagents.backend must be a non-empty string; the configured value is ignored.",
     _sub('"backend": "  "'), _sub('"backend": "pi-rpc-readonly"')),
    (CONFIG_TIMEOUT_INVALID, "config-timeout-invalid",
     "The default timeout is whole milliseconds from 1000 to 3600000: 60000.5, \"60000\" and 999 are "
     "refused (60000.0 and 6e4 are the integer 60000).",
     "pi-forge: <path> subagents.timeoutMs must be an integer from 1000 to 3600000; the configured value is ignored.",
     _sub('"timeoutMs": "60000"'), _sub('"timeoutMs": 60000')),
    (CONFIG_SUMMARY_FLAG_INVALID, "config-summary-flag-invalid",
     "summaryInToolDescription must be true or false; true embeds a short summary of the enabled "
     "profiles in the delegation tool's description.",
     "pi-forge: <path> subagents.summaryInToolDescription must be boolean; the configured value is ignored.",
     _sub('"summaryInToolDescription": "yes"'), _sub('"summaryInToolDescription": true')),
    (CONFIG_UNATTENDED_FLAG_INVALID, "config-unattended-flag-invalid",
     "allowAgentInvocationWithoutApproval must be true or false. It is read only from a trusted "
     "project's file (the global file's value is silently ignored), and a malformed value never grants "
     "unattended runs.",
     "pi-forge: <path> subagents.allowAgentInvocationWithoutApproval must be boolean; per-run subagent "
     "approval remains required.",
     _sub('"allowAgentInvocationWithoutApproval": "yes"'), _sub('"allowAgentInvocationWithoutApproval": true')),
    (CONFIG_PROFILES_NOT_OBJECT, "config-profiles-not-object",
     "profiles must be an object from profile ids to their delegation policy; unlisted profiles are not "
     "delegatable.",
     "pi-forge: <path> subagents.profiles must be a JSON object; its per-profile settings are ignored.",
     _sub('"profiles": ["reviewer"]'), _sub('"profiles": {"reviewer": {"enabled": true}}')),
    (CONFIG_PROFILE_ID_INVALID, "config-profile-id-invalid",
     "A profiles key must be a resource id (a letter or digit, then letters, digits, '.', '_' or '-') "
     "without a scope prefix: the file's own scope is the entry's scope (the global file configures "
     "global:<id>, the project file project:<id>).",
     "pi-forge: <path> <entry> has an invalid profile id; the entry is ignored.",
     _sub('"profiles": {"project:reviewer": {"enabled": true}}'), _sub('"profiles": {"reviewer": {"enabled": true}}')),
    (CONFIG_PROFILE_ENTRY_NOT_OBJECT, "config-profile-entry-not-object",
     "A profile's entry must be an object of enabled, backend and timeoutMs.",
     "pi-forge: <path> <entry> must be a JSON object; the entry is ignored.",
     _sub('"profiles": {"reviewer": true}'), _sub('"profiles": {"reviewer": {"enabled": true}}')),
    (CONFIG_PROFILE_KEY_UNSUPPORTED, "config-profile-key-unsupported",
     "A profile's entry holds only enabled, backend and timeoutMs; any other key is ignored.",
     "pi-forge: <path> <entry>.<key> is unsupported and ignored.",
     _entry('"enabled": true, "timeout": 120000'), _entry('"enabled": true, "timeoutMs": 120000')),
    (CONFIG_PROFILE_ENABLED_INVALID, "config-profile-enabled-invalid",
     "enabled must be true or false; only exactly true makes the profile delegatable.",
     "pi-forge: <path> <entry>.enabled must be boolean; the configured value is ignored.",
     _entry('"enabled": "yes"'), _entry('"enabled": true')),
    (CONFIG_PROFILE_BACKEND_INVALID, "config-profile-backend-invalid",
     "A profile's backend must be a string with non-blank content; the default backend applies instead.",
     "pi-forge: <path> <entry>.backend must be a non-empty string; the configured value is ignored.",
     _entry('"enabled": true, "backend": ""'), _entry('"enabled": true, "backend": "pi-rpc-readonly"')),
    (CONFIG_PROFILE_TIMEOUT_INVALID, "config-profile-timeout-invalid",
     "A profile's timeoutMs is whole milliseconds from 1000 to 3600000; the default timeout applies instead.",
     "pi-forge: <path> <entry>.timeoutMs must be an integer from 1000 to 3600000; the configured value is ignored.",
     _entry('"enabled": true, "timeoutMs": 3600001'), _entry('"enabled": true, "timeoutMs": 3600000')),
    (WEB_EDITOR_CONFIG_UNREADABLE, "web-editor-config-unreadable",
     "The trusted project's config file cannot be read or parsed, so the web editor takes any free port "
     "(the subagent reader warns about the same file separately, FG570).",
     "pi-forge: failed to read <path>; using an available editor port. <reason>",
     '{"webEditor": {"port": 41738},}', '{"webEditor": {"port": 41738}}'),
    (WEB_EDITOR_ROOT_NOT_OBJECT, "web-editor-config-root-not-object",
     "The trusted project's config file is not a JSON object, so the web editor takes any free port.",
     "pi-forge: <path> must be a JSON object; using an available editor port.",
     '[{"webEditor": {"port": 41738}}]', '{"webEditor": {"port": 41738}}'),
    (WEB_EDITOR_PORT_INVALID, "web-editor-port-invalid",
     "The editor's port is webEditor.port, or the legacy top-level webEditorPort when webEditor.port is "
     "absent or null; it must be an integer from 1 to 65535 (the editor always binds 127.0.0.1).",
     "pi-forge: <path> webEditor.port must be an integer from 1 to 65535; using an available editor port.",
     '{"webEditor": {"port": "41738"}}', '{"webEditor": {"port": 41738}}'),
)

register(
    *(
        Rule(code, name, "warning", f"{meaning} pi-forge prints: {text}", bad, good)
        for code, name, meaning, text, bad, good in _TABLE
    )
)
