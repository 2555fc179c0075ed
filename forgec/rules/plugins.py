"""Rules of plugin loading (FG95x): forgec-only findings about ``forgec.plugins`` entry points."""

from __future__ import annotations

from forgec.rules.registry import Rule, register

PLUGIN_LOAD_FAILED = "FG950"
PLUGIN_NOT_TRUSTED = "FG951"
PLUGIN_NOT_INSTALLED = "FG952"

register(
    Rule(
        PLUGIN_LOAD_FAILED,
        "plugin-load-failed",
        "error",
        "A trusted plugin could not be imported, or its register(registry) raised (for example a macro "
        "name that breaks pi-forge's naming rule, or one that is already registered). The other plugins "
        "still load.",
        bad='registry.register_macro("1bad", render)  # Macro name must start with a letter ...',
        good='registry.register_macro("acme.weather", render)',
        pi_forge=False,
    ),
    Rule(
        PLUGIN_NOT_TRUSTED,
        "plugin-not-trusted",
        "info",
        "An installed forgec plugin was not loaded because it is not trusted; plugins run code, so they "
        "load only with --trust-plugins or when listed in [tool.forgec] plugins.",
        bad="[tool.forgec]\nplugins = []",
        good='[tool.forgec]\nplugins = ["acme"]',
        pi_forge=False,
    ),
    Rule(
        PLUGIN_NOT_INSTALLED,
        "plugin-not-installed",
        "warning",
        "[tool.forgec] plugins names a plugin that no installed package provides (no entry point of "
        "that name in the group forgec.plugins): a typo, or the package is missing from the environment.",
        bad='[tool.forgec]\nplugins = ["acme-forgec"]  # the entry point is called "acme"',
        good='[tool.forgec]\nplugins = ["acme"]',
        pi_forge=False,
    ),
)
