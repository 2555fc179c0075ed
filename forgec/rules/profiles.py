"""FG500-FG569: agent profiles (profiles-exec.md §1): loading, cross-file checks, stack references,
resolution against a model catalog, capture.  Each pi-forge check keeps pi-forge's exact text; the code
and the position are forgec's.

A profile file that cannot be read or parsed is reported by the reader's own rules (FG001
``json-parse-error``, FG002 ``file-unreadable``), exactly as a stack file is.
"""

from __future__ import annotations

from forgec.rules.registry import Rule, register

# --- loading one file (§1.3 steps 2-3) -----------------------------------------------------------
PROFILE_ROOT_NOT_OBJECT = "FG500"
PROFILE_FIELD_UNSUPPORTED = "FG501"
PROFILE_SCHEMA_VERSION = "FG502"
PROFILE_TYPE_INVALID = "FG503"
PROFILE_ID_MISSING = "FG504"
PROFILE_MODEL_NOT_OBJECT = "FG505"
PROFILE_MODEL_FIELD_UNSUPPORTED = "FG506"
PROFILE_THINKING_LEVEL_INVALID = "FG507"
PROFILE_PROMPT_STACK_REQUIRED = "FG508"
PROFILE_PROMPT_STACK_INVALID = "FG509"
PROFILE_NAME_TYPE = "FG510"
PROFILE_DESCRIPTION_TYPE = "FG511"
PROFILE_AUTO_ACTIVATE_TYPE = "FG512"
# --- post-validation (§1.3 step 4) ---------------------------------------------------------------
PROFILE_ID_INVALID = "FG513"
PROFILE_MODEL_PROVIDER_EMPTY = "FG514"
PROFILE_MODEL_ID_EMPTY = "FG515"
PROFILE_THINKING_LEVEL_UNSUPPORTED = "FG516"
# --- cross-file checks (§1.5) --------------------------------------------------------------------
DUPLICATE_PROFILE_ID = "FG520"
MULTIPLE_AUTO_ACTIVATE_PROFILES = "FG521"
# --- the promptStack reference (§1.7) ------------------------------------------------------------
STACK_SELECTOR_EMPTY = "FG525"
STACK_SELECTOR_ID_INVALID = "FG526"
STACK_SELECTOR_SCOPE_UNKNOWN = "FG527"
GLOBAL_PROFILE_PROJECT_STACK = "FG528"
PROFILE_STACK_UNKNOWN = "FG529"
PROFILE_STACK_AMBIGUOUS = "FG530"
# --- resolution against a model catalog (§1.9) ---------------------------------------------------
PROFILE_MODEL_UNKNOWN = "FG540"
PROFILE_MODEL_NO_AUTH = "FG541"
PROFILE_THINKING_LEVEL_CLAMPED = "FG542"
PROFILE_STACK_DIAGNOSTIC = "FG543"
PROFILE_TOOL_PATTERN_UNMATCHED = "FG544"
# --- capture (§1.7) ------------------------------------------------------------------------------
CAPTURE_STACK_SCOPE = "FG550"
CAPTURE_WITHOUT_MODEL = "FG551"
#: forgec-only: validate found profiles but no model catalog to check their models against (§6.2)
CATALOG_NOT_CONFIGURED = "FG552"

_OK = (
    '{"schemaVersion": 1, "type": "pi-forge.agent-profile", "id": "reviewer", '
    '"model": {"provider": "anthropic", "id": "claude-sonnet-4-5"}, "thinkingLevel": "high", "promptStack": "reviewer"}'
)


def _profile(**changes: str) -> str:
    """A complete profile with some members replaced (``"-"`` leaves one out)."""
    members = {
        "schemaVersion": "1",
        "type": '"pi-forge.agent-profile"',
        "id": '"reviewer"',
        "model": '{"provider": "anthropic", "id": "claude-sonnet-4-5"}',
        "thinkingLevel": '"high"',
        "promptStack": '"reviewer"',
    }
    for key, value in changes.items():
        members[key] = value
    return "{" + ", ".join(f'"{k}": {v}' for k, v in members.items() if v != "-") + "}"


_RULES: tuple[tuple[str, str, str, str, str, str], ...] = (
    # (code, name, level, summary, bad, good)
    (
        PROFILE_ROOT_NOT_OBJECT,
        "profile-root-not-object",
        "error",
        "An agent profile file must hold one JSON object. Anything else loads as an empty fallback profile "
        "named after the file (which then also lacks a model).",
        '["reviewer"]',
        _OK,
    ),
    (
        PROFILE_FIELD_UNSUPPORTED,
        "profile-field-unsupported",
        "error",
        "A top-level key that schema v1 does not know. Profiles hold only schemaVersion, type, id, name, "
        "description, model, thinkingLevel, promptStack and autoActivate: tool lists, skills and generation "
        "parameters belong to the referenced prompt stack.",
        _profile(tools='["read"]'),
        _OK,
    ),
    (
        PROFILE_SCHEMA_VERSION,
        "profile-schema-version",
        "error",
        "schemaVersion must be the number 1.",
        _profile(schemaVersion="2"),
        _OK,
    ),
    (
        PROFILE_TYPE_INVALID,
        "profile-type-invalid",
        "error",
        'type must be exactly "pi-forge.agent-profile".',
        _profile(type='"agent-profile"'),
        _OK,
    ),
    (
        PROFILE_ID_MISSING,
        "profile-id-missing",
        "error",
        "The profile has no id, or it is not a string with non-blank content; the file name is used "
        "instead (the id inside a file, not its name, is what selectors match).",
        _profile(id='"  "'),
        _OK,
    ),
    (
        PROFILE_MODEL_NOT_OBJECT,
        "profile-model-not-object",
        "error",
        "model must be an object with provider and id; without it the profile has no model at all "
        "(the two model.* errors follow).",
        _profile(model='"anthropic/claude-sonnet-4-5"'),
        _OK,
    ),
    (
        PROFILE_MODEL_FIELD_UNSUPPORTED,
        "profile-model-field-unsupported",
        "error",
        "model holds only provider and id; generation parameters are not part of a profile.",
        _profile(model='{"provider": "anthropic", "id": "claude-sonnet-4-5", "temperature": 0.2}'),
        _OK,
    ),
    (
        PROFILE_THINKING_LEVEL_INVALID,
        "profile-thinking-level-invalid",
        "error",
        "thinkingLevel must be exactly one of off, minimal, low, medium, high, xhigh, max (lower case, "
        "no spaces); an invalid level loads as off.",
        _profile(thinkingLevel='"High"'),
        _OK,
    ),
    (
        PROFILE_PROMPT_STACK_REQUIRED,
        "profile-prompt-stack-required",
        "error",
        "promptStack must be present: a stack selector, or null for no prompt stack.",
        _profile(promptStack="-"),
        _profile(promptStack="null"),
    ),
    (
        PROFILE_PROMPT_STACK_INVALID,
        "profile-prompt-stack-invalid",
        "error",
        "promptStack must be null or a non-blank string (a stack selector such as reviewer or "
        "global:reviewer); anything else loads as null.",
        _profile(promptStack='""'),
        _profile(promptStack='"reviewer"'),
    ),
    (
        PROFILE_NAME_TYPE,
        "profile-name-type",
        "error",
        "name must be a string when it is given (null counts as given).",
        _profile(name="null"),
        _profile(name='"Reviewer"'),
    ),
    (
        PROFILE_DESCRIPTION_TYPE,
        "profile-description-type",
        "error",
        "description must be a string when it is given (null counts as given).",
        _profile(description='["Reviews code."]'),
        _profile(description='"Reviews code."'),
    ),
    (
        PROFILE_AUTO_ACTIVATE_TYPE,
        "profile-auto-activate-type",
        "error",
        'autoActivate must be a boolean when it is given; a string such as "yes" is ignored.',
        _profile(autoActivate='"yes"'),
        _profile(autoActivate="true"),
    ),
    (
        PROFILE_ID_INVALID,
        "profile-id-invalid",
        "error",
        "A profile id must start with a letter or digit and use only letters, digits, '.', '_' and '-' "
        "(the colon is reserved for scope prefixes such as project:reviewer).",
        _profile(id='"../reviewer"'),
        _OK,
    ),
    (
        PROFILE_MODEL_PROVIDER_EMPTY,
        "profile-model-provider-empty",
        "error",
        "model.provider is missing or blank.",
        _profile(model='{"provider": "", "id": "claude-sonnet-4-5"}'),
        _OK,
    ),
    (
        PROFILE_MODEL_ID_EMPTY,
        "profile-model-id-empty",
        "error",
        "model.id is missing or blank.",
        _profile(model='{"provider": "anthropic"}'),
        _OK,
    ),
    (
        PROFILE_THINKING_LEVEL_UNSUPPORTED,
        "profile-thinking-level-unsupported",
        "error",
        "A profile about to be written (or held in a snapshot) has a thinking level outside the seven levels.",
        _profile(thinkingLevel='"turbo"'),
        _OK,
    ),
    (
        DUPLICATE_PROFILE_ID,
        "duplicate-profile-id",
        "error",
        "Two profile files of the same scope declare the same id; neither can be selected by that id. "
        "A project profile with the id of a global one is not a duplicate: it shadows it.",
        'a.json and b.json in .pi/forge/agent-profiles both with "id": "reviewer"',
        'a.json "id": "reviewer", b.json "id": "writer"',
    ),
    (
        MULTIPLE_AUTO_ACTIVATE_PROFILES,
        "multiple-auto-activate-profiles",
        "error",
        "More than one profile of one scope sets autoActivate: true, so none is auto-activated (and a "
        "global candidate is not used while project candidates exist).",
        'reviewer.json and writer.json in .pi/forge/agent-profiles both with "autoActivate": true',
        'only reviewer.json with "autoActivate": true',
    ),
    (
        STACK_SELECTOR_EMPTY,
        "profile-stack-selector-empty",
        "error",
        "The promptStack selector is blank (use null for no prompt stack).",
        _profile(promptStack='" "'),
        _profile(promptStack="null"),
    ),
    (
        STACK_SELECTOR_ID_INVALID,
        "profile-stack-selector-id-invalid",
        "error",
        "The promptStack selector's id breaks the resource-id grammar (a space, a leading '-' or '.', a "
        "second colon, or nothing after project:/global:). It loads, but cannot be resolved.",
        _profile(promptStack='"project:my stack"'),
        _profile(promptStack='"project:my-stack"'),
    ),
    (
        STACK_SELECTOR_SCOPE_UNKNOWN,
        "profile-stack-selector-scope-unknown",
        "error",
        'The promptStack selector has a scope prefix other than "project" or "global".',
        _profile(promptStack='"team:reviewer"'),
        _profile(promptStack='"global:reviewer"'),
    ),
    (
        GLOBAL_PROFILE_PROJECT_STACK,
        "global-profile-project-stack",
        "error",
        "A global profile is shared by every project, so it cannot reference a project prompt stack.",
        "in ~/.pi/forge/agent-profiles: " + _profile(promptStack='"project:reviewer"'),
        "in ~/.pi/forge/agent-profiles: " + _profile(promptStack='"reviewer"'),
    ),
    (
        PROFILE_STACK_UNKNOWN,
        "profile-stack-unknown",
        "error",
        "No prompt stack of the reference's scope has this id. A bare reference is scope-relative: a "
        "project profile's reviewer never falls back to a global stack (write global:reviewer for that).",
        _profile(promptStack='"reviewr"'),
        _OK,
    ),
    (
        PROFILE_STACK_AMBIGUOUS,
        "profile-stack-ambiguous",
        "error",
        "Several prompt stack files of the reference's scope declare this id, so it resolves to none.",
        '"promptStack": "twin" with twin-a.json and twin-b.json both "id": "twin"',
        '"promptStack": "twin" with one file "id": "twin"',
    ),
    (
        PROFILE_MODEL_UNKNOWN,
        "profile-model-unknown",
        "error",
        "The model catalog has no model with exactly this provider and id (no aliases, case-sensitive).",
        _profile(model='{"provider": "anthropic", "id": "claude-sonnet-4.5"}'),
        _OK,
    ),
    (
        PROFILE_MODEL_NO_AUTH,
        "profile-model-no-auth",
        "error",
        "The model is in the catalog, but its credentials are not configured (forgec: the environment "
        "variable named by the catalog entry's auth.env is not set).",
        'ANTHROPIC_API_KEY unset, catalog entry with "auth": {"env": "ANTHROPIC_API_KEY"}',
        "ANTHROPIC_API_KEY=... in the environment",
    ),
    (
        PROFILE_THINKING_LEVEL_CLAMPED,
        "profile-thinking-level-clamped",
        "error",
        "The model does not support the requested thinking level; Pi would silently use another one, so "
        "the profile is refused rather than applied with a different level.",
        _profile(thinkingLevel='"xhigh"') + "   // a model without an xhigh entry in thinkingLevelMap",
        _OK,
    ),
    (
        PROFILE_STACK_DIAGNOSTIC,
        "profile-stack-diagnostic",
        "error",
        "A finding of the referenced prompt stack, repeated for the profile with the stack's own level "
        "(an error in the stack makes the profile unusable).",
        '"promptStack": "noisy" where noisy.json has two items with "id": "sys"',
        '"promptStack": "noisy" where noisy.json has unique item ids',
    ),
    (
        PROFILE_TOOL_PATTERN_UNMATCHED,
        "profile-tool-pattern-unmatched",
        "warning",
        "The referenced stack allows a tool pattern that matches none of the registered tools (a typo, or "
        "a tool that is not installed).",
        '"tools": {"allow": ["read", "grpe"]}',
        '"tools": {"allow": ["read", "grep"]}',
    ),
    (
        CAPTURE_STACK_SCOPE,
        "capture-stack-scope",
        "error",
        "Capturing the current settings into a global profile while a project prompt stack is active: a "
        "global profile cannot reference a project stack.",
        "capture global:reviewer with project:local active",
        "capture project:reviewer, or activate a global stack",
    ),
    (
        CAPTURE_WITHOUT_MODEL,
        "capture-without-model",
        "error",
        "Capturing the current settings into a profile needs a selected model.",
        "capture reviewer with no model selected",
        "select a model, then capture reviewer",
    ),
)

register(
    *(Rule(code, name, level, summary, bad, good, True) for code, name, level, summary, bad, good in _RULES),
    Rule(
        CATALOG_NOT_CONFIGURED,
        "model-catalog-not-configured",
        "info",
        "forgec validate checked agent profiles without a model catalog (--models, .pi/forge/models.json or "
        "~/.config/forgec/models.json), so their models and thinking levels were not checked: the bundled "
        "catalog knows only the four reference models. forgec profile resolve checks them against it.",
        "forgec validate   (no catalog; profiles name acme/fast-1)",
        "forgec validate --models models.yaml",
        False,
    ),
)
