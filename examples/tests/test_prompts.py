"""Golden-file tests of the example stacks.

Run ``pytest --snapshot-update`` once to write the golden files under ``__snapshots__/``; afterwards
``pytest`` fails with a per-message diff whenever a stack, a context or forgec changes what a stack
compiles to.
"""

STACKS = "../.pi/forge/prompt-stacks"
CONTEXT = "../contexts/coding-session.yaml"


def test_pair_programmer(forgec_compile, prompt_snapshot):
    assert forgec_compile(f"{STACKS}/pair-programmer.json", context=CONTEXT) == prompt_snapshot


def test_code_reviewer(forgec_compile, prompt_snapshot):
    assert forgec_compile(f"{STACKS}/code-reviewer.yaml", context=CONTEXT) == prompt_snapshot


def test_storyteller(forgec_compile, prompt_snapshot):
    assert forgec_compile(f"{STACKS}/storyteller.json", context=CONTEXT) == prompt_snapshot


def test_code_reviewer_anthropic_body(forgec_compile, prompt_snapshot):
    body = forgec_compile(f"{STACKS}/code-reviewer.yaml", context=CONTEXT, target="anthropic-messages")
    assert body == prompt_snapshot
