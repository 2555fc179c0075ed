"""The editor in a real Chromium (Debian's ``chromium``, driven by Playwright), opened from the URL
``forgec ui`` prints: edit, see the preview and findings change, reorder, import a real preset,
save, fork, delete, profiles.  One server and one browser for the whole module.

Screenshots of each workspace, in both themes, are written to ``$FORGEC_UI_SCREENSHOTS`` (default:
a pytest temporary folder, printed at the end); ``scripts/ui_screenshots.sh`` points it at
``docs/ui/``.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import FIXTURES, copy_examples

CHROMIUM = Path("/usr/bin/chromium")
pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed at /usr/bin/chromium")
playwright_api = pytest.importorskip("playwright.sync_api", reason="the browser tests need playwright (pip install playwright)")

PRESET = "marinara-special.json"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]  # fmt: skip


@dataclass
class Session:
    root: Path
    url: str
    page: Any
    shots: Path

    @property
    def stacks(self) -> Path:
        return self.root / ".pi" / "forge" / "prompt-stacks"

    def shot(self, name: str) -> None:
        self.page.screenshot(path=str(self.shots / f"{name}.png"), full_page=False)


@pytest.fixture(scope="module")
def session(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Session]:
    tmp = tmp_path_factory.mktemp("ui")
    root = copy_examples(tmp)
    if (FIXTURES / PRESET).is_file():
        shutil.copy(FIXTURES / PRESET, root / "presets" / PRESET)
    shots = Path(os.environ.get("FORGEC_UI_SCREENSHOTS") or tmp_path_factory.mktemp("ui-screenshots"))
    shots.mkdir(parents=True, exist_ok=True)
    env = {**os.environ, "PI_FORGE_GLOBAL_DIR": str(tmp / "global"), "SOURCE_DATE_EPOCH": "1773476813"}
    proc = subprocess.Popen([sys.executable, "-m", "forgec", "ui", str(root), "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)  # fmt: skip
    url = None
    deadline = time.monotonic() + 60
    while url is None and time.monotonic() < deadline and proc.stdout is not None:
        line = proc.stdout.readline()
        if not line:
            break
        match = re.search(r"(http://127\.0\.0\.1:\d+/\?token=\S+)", line)
        url = match.group(1) if match else None
    if url is None:
        proc.kill()
        pytest.fail(f"forgec ui printed no URL: {proc.stderr.read() if proc.stderr else ''}")
    with playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        context = browser.new_context(viewport={"width": 1440, "height": 900}, accept_downloads=True)
        context.set_default_timeout(20_000)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.on("request", lambda request: _only_local(request.url, url))
        try:
            yield Session(root, url, page, shots)
        finally:
            browser.close()
            proc.terminate()
            proc.wait(20)
            print(f"\nforgec ui screenshots: {shots}")
    assert errors == [], errors


def _only_local(requested: str, base: str) -> None:
    origin = base.split("/?", 1)[0]
    assert requested.startswith(origin), f"the page asked for something beyond the editor: {requested}"


def _ready(page: Any) -> None:
    page.wait_for_selector("body[data-ready=true]")


def _wait_idle(page: Any) -> None:
    """Wait until the page has no request and no debounced analysis in flight (``body[data-busy]``)."""
    page.wait_for_function("() => (document.body.dataset.busy || '0') === '0'")


def _saved(page: Any, name: str) -> None:
    page.wait_for_function(
        "name => { const t = document.querySelector('#status').textContent; return t.startsWith('Saved') && t.endsWith(name); }",
        arg=name,
    )


def _open(page: Any, ref: str) -> None:
    page.click(f'#stack-list button[data-ref="{ref}"]')
    page.wait_for_function("ref => document.querySelector('#current-title').textContent === ref", arg=ref)
    _wait_idle(page)


def test_opens_from_the_printed_url_and_lists_stacks(session: Session) -> None:
    page = session.page
    page.goto(session.url)
    _ready(page)
    assert "token=" not in page.url  # the token moved into a cookie
    refs = page.eval_on_selector_all("#stack-list button", "els => els.map(e => e.dataset.ref)")
    assert {"project/code-reviewer.yaml", "project/pair-programmer.json", "project/storyteller.json"} <= set(refs)
    assert page.inner_text('#stack-list button[data-ref="project/code-reviewer.yaml"] .badge') == "project"


def test_edit_a_block_and_see_the_preview_change(session: Session) -> None:
    page = session.page
    _open(page, "project/pair-programmer.json")
    page.click('[role=tab][data-panel="prompt"]')
    before = page.inner_text("#panel-prompt")
    content = page.locator("#form textarea[name=content]").first
    content.fill("You are Ada, a meticulous pair programmer.")
    page.wait_for_function("() => document.querySelector('#panel-prompt').innerText.includes('You are Ada, a meticulous')")
    assert page.inner_text("#panel-prompt") != before
    assert page.is_visible("#dirty")
    page.wait_for_function("() => document.querySelector('#diff').textContent.includes('+You are Ada')")
    assert "-You are" in (page.text_content("#diff") or "")  # the saved file's line, replaced
    session.shot("stacks-light")


def test_a_typo_shows_the_finding(session: Session) -> None:
    page = session.page
    page.click('[role=tab][data-panel="findings"]')
    content = page.locator("#form textarea[name=content]").first
    content.fill("Answer {{lastUserMesage}} now.")
    page.wait_for_function("() => document.querySelector('#findings').innerText.includes('lastUserMesage')")
    text = page.inner_text("#findings")
    assert re.search(r"FG\d{3}", text)
    assert "lastUserMessage" in text  # validate's did-you-mean
    session.shot("stacks-finding")
    content.fill("You are Ada, a meticulous pair programmer.")
    page.wait_for_function("() => !document.querySelector('#findings').innerText.includes('lastUserMesage')")


def test_reorder_items_by_keyboard_and_drag(session: Session) -> None:
    page = session.page
    ids = lambda: page.eval_on_selector_all("#form .item[data-id]", "els => els.map(e => e.dataset.id)")  # noqa: E731
    first = ids()
    page.locator("#form .item .handle").first.focus()
    page.keyboard.press("Alt+ArrowDown")
    _wait_idle(page)
    assert ids()[:2] == [first[1], first[0]]
    assert page.evaluate("() => document.activeElement.classList.contains('handle')")  # focus follows the item
    page.locator("#form .item").nth(1).drag_to(page.locator("#form .item").nth(0))
    _wait_idle(page)
    assert ids()[:2] == first[:2]


def test_save_writes_what_forgec_would_write(session: Session) -> None:
    from forgec.js.values import json_stringify

    page = session.page
    page.click("#save")
    _saved(page, "pair-programmer.json")
    on_disk = (session.stacks / "pair-programmer.json").read_bytes()
    data = json.loads(on_disk)
    assert data["items"][0]["content"] == "You are Ada, a meticulous pair programmer."
    assert on_disk == (json_stringify(data, 2) or "").encode()
    assert page.is_hidden("#dirty")


def test_raw_yaml_edit_keeps_comments(session: Session) -> None:
    page = session.page
    _open(page, "project/code-reviewer.yaml")
    page.click("#mode-form")
    page.fill("#form input[name=stack-name]", "Code Reviewer, edited")
    _wait_idle(page)
    page.click("#mode-raw")
    raw = page.input_value("#raw")
    assert "# a reviewer reads, it does not change files" in raw and "Code Reviewer, edited" in raw
    page.keyboard.press("Control+s")
    _saved(page, "code-reviewer.yaml")
    assert (session.stacks / "code-reviewer.yaml").read_text() == raw
    page.click("#mode-form")
    _wait_idle(page)


def test_conflict_is_shown_and_nothing_is_lost(session: Session) -> None:
    page = session.page
    _open(page, "project/storyteller.json")
    path = session.stacks / "storyteller.json"
    external = path.read_text().replace('"id": "storyteller"', '"id": "storyteller", "name": "edited elsewhere"', 1)
    path.write_text(external)
    page.locator("#form textarea[name=content]").first.fill("Mine.")
    _wait_idle(page)
    page.click("#save")
    page.wait_for_selector("#dlg-conflict[open]")
    assert "edited elsewhere" in page.inner_text("#conflict-disk")
    assert path.read_text() == external
    page.click("#dlg-conflict button[value=cancel]")
    assert page.locator("#form textarea[name=content]").first.input_value() == "Mine."


def test_import_a_real_sillytavern_preset(session: Session) -> None:
    if not (session.root / "presets" / PRESET).is_file():
        pytest.skip(f"real presets not found at {FIXTURES} (set FORGEC_FIXTURES)")
    page = session.page
    page.once("dialog", lambda dialog: dialog.accept())  # discard the storyteller edit
    page.click("#import-preset")
    page.select_option("#dlg-import [name=path]", f"presets/{PRESET}")
    options = page.eval_on_selector_all("#dlg-import [name=character] option", "els => els.map(e => e.value)")
    assert options == ["100000", "100001"]
    page.select_option("#dlg-import [name=character]", "100001")
    page.click("#dlg-import-ok")
    page.wait_for_function("() => document.querySelector('#import-report').textContent.length > 100")
    session.shot("import-report")
    report = page.inner_text("#import-report")
    page.click("#dlg-import button[value=cancel]")
    page.wait_for_function("() => document.querySelector('#current-title').textContent === 'project/marinara-special.json'")
    stack = session.stacks / PRESET
    cli = session.root.parent / "cli"
    env = {**os.environ, "SOURCE_DATE_EPOCH": "1773476813"}
    subprocess.run([sys.executable, "-m", "forgec", "import-silly", str(session.root / "presets" / PRESET), "100001",
                    "--out-dir", str(cli)], check=True, capture_output=True, env=env)  # fmt: skip
    assert stack.read_bytes() == (cli / ".pi/forge/prompt-stacks" / PRESET).read_bytes()
    assert report.strip() == (cli / ".pi/forge/import-reports/marinara-special.md").read_text().strip()
    _wait_idle(page)
    validate = subprocess.run([sys.executable, "-m", "forgec", "validate", "--format", "json", str(stack)],
                              capture_output=True, text=True, env=env, check=False)  # fmt: skip
    expected = json.loads(validate.stdout)["files"][0]["diagnostics"]
    assert int(page.inner_text("#finding-count")) == len(expected)  # the editor's findings are validate's
    # a pi-forge stack file from anywhere, through the browser's file picker
    page.click("#import-preset")
    page.set_input_files("#import-stack-file", str(session.root / "broken" / "typos.yaml"))
    page.wait_for_function("() => document.querySelector('#current-title').textContent === 'project/typos.yaml'")
    page.click("#dlg-import button[value=cancel]")
    assert (session.stacks / "typos.yaml").read_bytes() == (session.root / "broken" / "typos.yaml").read_bytes()
    page.wait_for_function("() => Number(document.querySelector('#finding-count').textContent) > 0")


def test_fork_then_delete_with_confirmation(session: Session) -> None:
    page = session.page
    _open(page, "project/pair-programmer.json")
    page.click("#fork")
    page.fill("#dlg-fork [name=id]", "pair-programmer-2")
    page.click("#dlg-fork-ok")
    page.wait_for_function("() => document.querySelector('#current-title').textContent === 'project/pair-programmer-2.json'")
    forked = session.stacks / "pair-programmer-2.json"
    assert json.loads(forked.read_text())["id"] == "pair-programmer-2"
    page.click("#delete")
    page.wait_for_selector("#dlg-delete[open]")
    page.click("#dlg-delete button[value=cancel]")  # cancelling keeps the file
    assert forked.exists()
    page.click("#delete")
    page.click("#dlg-delete-ok")
    page.wait_for_function("() => document.querySelector('#status').textContent.startsWith('Deleted')")
    assert not forked.exists()
    assert page.locator('#stack-list button[data-ref="project/pair-programmer-2.json"]').count() == 0


def test_policy_chips_from_the_context(session: Session) -> None:
    page = session.page
    _open(page, "project/pair-programmer.json")
    chip = page.locator("#form fieldset:has(legend:text('Tool policy')) button.chip").first
    name = chip.inner_text().removeprefix("+ ")
    chip.click()
    _wait_idle(page)
    page.click("#mode-raw")
    assert name in page.input_value("#raw")
    page.click("#mode-form")


def test_profile_workspace_and_dark_theme(session: Session) -> None:
    page = session.page
    page.click("#tab-profiles")
    page.click('#profile-list button[data-key="project:reviewer"]')
    page.wait_for_function("() => document.querySelector('#profile-title').textContent.includes('project:reviewer')")
    assert page.input_value("#profile-form [name=id]") == "reviewer"
    page.select_option("#profile-form [name=thinkingLevel]", "low")
    page.click("#profile-save")
    _saved(page, "reviewer.json")
    saved = json.loads((session.root / ".pi/forge/agent-profiles/reviewer.json").read_text())
    assert saved["thinkingLevel"] == "low"
    page.check("#profile-form [name=delegationEnabled]")
    page.click("#delegation-save")
    page.wait_for_function("() => document.querySelector('#status').textContent.startsWith('Delegation settings saved')")
    config = json.loads((session.root / ".pi/forge/config.json").read_text())
    assert config["subagents"]["profiles"]["reviewer"]["enabled"] is True
    assert page.input_value("#profile-form [name=thinkingLevel]") == "low"  # a reload keeps the form
    session.shot("profiles-light")
    page.click("#theme")
    assert page.evaluate("() => document.documentElement.dataset.theme") == "dark"
    session.shot("profiles-dark")
    page.click("#tab-stacks")
    _wait_idle(page)
    session.shot("stacks-dark")
    page.click("#theme")


def test_keyboard_only_new_stack_and_tabs(session: Session) -> None:
    page = session.page
    page.click("#tab-stacks")
    page.once("dialog", lambda dialog: dialog.accept())  # "Discard unsaved changes?" (the chip edit)
    page.focus("#new-stack")
    page.keyboard.press("Enter")
    page.wait_for_selector("#dlg-new[open]")
    page.keyboard.type("typed-by-keyboard")
    page.keyboard.press("Enter")  # the dialog's default button is Create
    page.wait_for_function("() => document.querySelector('#current-title').textContent === 'project/typed-by-keyboard.json'")
    assert (session.stacks / "typed-by-keyboard.json").is_file()
    page.focus('[role=tab][data-panel="findings"]')
    page.keyboard.press("ArrowRight")
    assert page.evaluate("() => document.activeElement.dataset.panel") == "prompt"
    assert page.is_visible("#panel-prompt") and page.is_hidden("#panel-findings")
