"""FG5xx: tool and skill policy (compile-core.md §5, loader checks §10.4–§10.5).

The loader reports these while normalising and validating a stack's ``tools``/``skills`` policy; the
compile-time policy pass itself never reports anything.
"""

from __future__ import annotations

from forgec.rules import Rule, register

POLICY_NOT_OBJECT = Rule(
    code="FG501",
    name="policy-not-object",
    level="error",
    summary="A tools or skills policy must be an object with an allow or a deny list; anything else is dropped.",
    bad='"tools": ["read", "bash"]',
    good='"tools": {"allow": ["read", "bash"]}',
)

POLICY_PATTERNS_NOT_ARRAY = Rule(
    code="FG502",
    name="policy-patterns-not-array",
    level="error",
    summary="allow and deny must be arrays of strings; any other value counts as no patterns.",
    bad='"tools": {"deny": "bash"}',
    good='"tools": {"deny": ["bash"]}',
)

POLICY_PATTERN_BLANK = Rule(
    code="FG503",
    name="policy-pattern-blank",
    level="error",
    summary="Every pattern must be a non-empty string; blank and non-string patterns are skipped.",
    bad='"skills": {"deny": ["release-*", "  ", 7]}',
    good='"skills": {"deny": ["release-*"]}',
)

POLICY_ALLOW_AND_DENY = Rule(
    code="FG504",
    name="policy-allow-and-deny",
    level="error",
    summary="A policy uses either allow or deny. With both, pi-forge keeps only allow and ignores deny.",
    bad='"tools": {"allow": ["read", "bash"], "deny": ["bash"]}',
    good='"tools": {"allow": ["read"]}',
)

POLICY_DUPLICATE_PATTERN = Rule(
    code="FG505",
    name="policy-duplicate-pattern",
    level="warning",
    summary="The same pattern appears twice in one list; the repeat has no effect.",
    bad='"skills": {"deny": ["release-*", "release-*"]}',
    good='"skills": {"deny": ["release-*"]}',
)

SKILLS_POLICY_NOT_SECURITY = Rule(
    code="FG506",
    name="skills-policy-scope",
    level="info",
    summary=(
        "A skills policy only hides skills from pi-forge's skills slots. It does not stop a user from "
        "invoking a skill explicitly and is not a security boundary."
    ),
    bad='"skills": {"deny": ["deploy-*"]}   (expecting deploy skills to be unusable)',
    good='"skills": {"deny": ["deploy-*"]}   (to keep them out of the model-visible list)',
)

SKILLS_POLICY_WITH_BASE_PROMPT = Rule(
    code="FG507",
    name="skills-policy-base-prompt",
    level="warning",
    summary=(
        "In append or prepend mode Pi's base prompt, which lists every skill, stays in the system "
        "prompt, so a skills policy cannot hide skills there. Use mode replace."
    ),
    bad='{"mode": "append", "skills": {"deny": ["internal-*"]}}',
    good='{"mode": "replace", "skills": {"deny": ["internal-*"]}}',
)

POLICY_NO_EFFECT = Rule(
    code="FG510",
    name="policy-no-effect",
    level="info",
    summary=(
        'The policy filters nothing: allow ["*"] (alone) is no policy at all, and an empty allow list '
        "falls back to deny. forgec-only finding."
    ),
    bad='"tools": {"allow": ["*"]}',
    good='"tools": {"deny": ["deploy"]}',
    pi_forge=False,
)

POLICY_LITERAL_QUESTION_MARK = Rule(
    code="FG511",
    name="policy-literal-question-mark",
    level="info",
    summary=(
        "Only * is a wildcard in policy patterns; ? matches a literal question mark. forgec-only finding."
    ),
    bad='"tools": {"allow": ["read?"]}',
    good='"tools": {"allow": ["read*"]}',
    pi_forge=False,
)

register(
    POLICY_NOT_OBJECT,
    POLICY_PATTERNS_NOT_ARRAY,
    POLICY_PATTERN_BLANK,
    POLICY_ALLOW_AND_DENY,
    POLICY_DUPLICATE_PATTERN,
    SKILLS_POLICY_NOT_SECURITY,
    SKILLS_POLICY_WITH_BASE_PROMPT,
    POLICY_NO_EFFECT,
    POLICY_LITERAL_QUESTION_MARK,
)
