#!/usr/bin/env bash
# Refresh the screenshots in docs/ui/ that docs/ui.md shows: runs the browser tests
# (tests/web/test_browser.py, Debian's chromium at /usr/bin/chromium driven by Playwright) with
# FORGEC_UI_SCREENSHOTS pointing at docs/ui/. Needs: pip install ".[test,ui]" playwright, the
# chromium package, and the real SillyTavern presets ($FORGEC_FIXTURES) for the import shot.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
export FORGEC_FIXTURES="${FORGEC_FIXTURES:-$repo/../shared/fixtures/sillytavern}"
FORGEC_UI_SCREENSHOTS="$repo/docs/ui" python -m pytest tests/web/test_browser.py -q "$@"
ls -l docs/ui/*.png
