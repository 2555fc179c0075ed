"""Golden-file testing of compiled prompts: a pytest plugin and a syrupy extension.

The plugin is registered through the ``pytest11`` entry point, so installing forgec makes the
``forgec_compile`` and ``prompt_snapshot`` fixtures available in every test suite.
"""
