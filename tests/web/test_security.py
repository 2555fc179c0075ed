"""The editor's security promises, against a real server on 127.0.0.1: the token, Host/Origin,
writes confined to stack storage, conflicts instead of lost updates, loopback only."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.web.conftest import Running, copy_examples, start, stop

STACK = "project/pair-programmer.json"


@pytest.mark.parametrize("path", ["/", "/static/app.js", "/api/state", f"/api/stack?ref={STACK}"])
def test_no_token_is_401(editor: Running, path: str) -> None:
    status, body = editor.get(path, token=False)
    assert status == 401
    assert "token" in body


def test_wrong_token_is_401_and_writes_nothing(editor: Running) -> None:
    before = (editor.root / ".pi/forge/prompt-stacks/pair-programmer.json").read_bytes()
    status, _ = editor.post("/api/save", {"ref": STACK, "text": "{}", "hash": None}, token=False,
                            headers={"X-Forgec-Token": "x" * 43})  # fmt: skip
    assert status == 401
    assert (editor.root / ".pi/forge/prompt-stacks/pair-programmer.json").read_bytes() == before


def test_token_in_url_becomes_a_strict_http_only_cookie(editor: Running) -> None:
    status, _, response = editor.request("GET", f"/?token={editor.token}", token=False)
    assert status == 303 and response.getheader("Location") == "/"
    cookie = response.getheader("Set-Cookie") or ""
    assert cookie.startswith(f"forgec_token_{editor.port}={editor.token}")  # one cookie per editor port
    assert "HttpOnly" in cookie and "SameSite=strict" in cookie
    status, body = editor.get("/", token=False, headers={"Cookie": f"forgec_token_{editor.port}={editor.token}"})
    assert status == 200 and "<title>forgec ui</title>" in body


@pytest.mark.parametrize("host", ["evil.example", "evil.example:{port}", "127.0.0.1.evil.example:{port}", "127.0.0.1:1", ""])
def test_foreign_host_is_refused_even_with_the_token(editor: Running, host: str) -> None:
    status, _body = editor.get("/api/state", headers={"Host": host.format(port=editor.port)})
    assert status in (400, 403)  # an empty Host never reaches the app (the HTTP server refuses it)


def test_localhost_host_is_accepted(editor: Running) -> None:
    assert editor.get("/api/state", headers={"Host": f"localhost:{editor.port}"})[0] == 200


@pytest.mark.parametrize("origin", ["http://evil.example", "http://127.0.0.1:1", "null", "https://127.0.0.1:{port}"])
def test_foreign_origin_is_refused(editor: Running, origin: str) -> None:
    target = editor.root / ".pi/forge/prompt-stacks/new-one.json"
    status, _ = editor.post("/api/new", {"id": "new-one"}, headers={"Origin": origin.format(port=editor.port)})
    assert status == 403
    assert not target.exists()


def test_own_origin_is_accepted(editor: Running) -> None:
    status, body = editor.post("/api/new", {"id": "new-one"}, headers={"Origin": f"http://127.0.0.1:{editor.port}"})
    assert status == 200, body
    assert (editor.root / ".pi/forge/prompt-stacks/new-one.json").is_file()


@pytest.mark.parametrize("ref", [
    "project/../../escape.json", "project/..%2Fescape.json", "../escape.json", "/tmp/escape.json",
    "elsewhere/escape.json", "project/sub/escape.json", "project/.hidden.json", "project/escape.txt",
    "project/", "project/..json",
])  # fmt: skip
def test_a_path_outside_storage_is_refused(editor: Running, tmp_path: Path, ref: str) -> None:
    status, body = editor.post("/api/save", {"ref": ref, "text": "{}", "hash": None})
    assert status == 403, body
    assert not (tmp_path / "escape.json").exists() and not Path("/tmp/escape.json").exists()
    assert editor.get(f"/api/stack?ref={ref}")[0] == 403


def test_a_symbolic_link_out_of_storage_is_refused(editor: Running, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "x.json").write_text('{"id": "x", "items": []}')
    legacy = editor.root / ".pi" / "prompt-stacks"
    legacy.symlink_to(outside, target_is_directory=True)
    status, body = editor.get("/api/stack?ref=legacy/x.json")
    assert status == 403 and "symbolic link" in body["error"]
    status, _ = editor.post("/api/save", {"ref": "legacy/y.json", "text": "{}", "hash": None})
    assert status == 403 and not (outside / "y.json").exists()


def test_imports_and_contexts_only_from_inside_the_project(editor: Running, tmp_path: Path) -> None:
    status, body = editor.post("/api/import", {"path": "../../../etc/passwd"})
    assert status == 403 and "not a SillyTavern preset of this project" in body["error"]
    status, body = editor.post("/api/analyze", {"text": "{}", "context": "../outside.yaml"})
    assert status == 403 and "not a context file" in body["error"]


def test_global_storage_needs_the_global_flag(editor: Running) -> None:
    status, body = editor.post("/api/new", {"id": "mine", "location": "global"})
    assert status == 403 and "--global" in body["error"]


def test_concurrent_external_edit_is_a_conflict_and_nothing_is_lost(editor: Running) -> None:
    path = editor.root / ".pi/forge/prompt-stacks/pair-programmer.json"
    status, loaded = editor.get(f"/api/stack?ref={STACK}")
    assert status == 200
    external = loaded["text"].replace("pair", "PAIR", 1)
    path.write_text(external, encoding="utf-8")  # someone else edits the file meanwhile
    mine = loaded["text"].replace('"items"', '"name": "mine", "items"', 1)
    status, body = editor.post("/api/save", {"ref": STACK, "text": mine, "hash": loaded["hash"]})
    assert status == 409 and body["conflict"] is True
    assert path.read_text(encoding="utf-8") == external  # the external edit survives
    assert body["current"]["text"] == external  # and the browser is shown it
    # the user decides to keep theirs: a save naming the disk version's hash goes through
    status, _saved = editor.post("/api/save", {"ref": STACK, "text": mine, "hash": body["current"]["hash"]})
    assert status == 200 and path.read_text(encoding="utf-8") == mine


def test_stale_delete_is_refused(editor: Running) -> None:
    path = editor.root / ".pi/forge/prompt-stacks/pair-programmer.json"
    _, loaded = editor.get(f"/api/stack?ref={STACK}")
    path.write_text(loaded["text"] + "\n", encoding="utf-8")
    status, _body = editor.post("/api/delete", {"ref": STACK, "hash": loaded["hash"]})
    assert status == 409 and path.exists()


def test_new_file_never_replaces_an_existing_one(editor: Running) -> None:
    status, _body = editor.post("/api/save", {"ref": STACK, "text": "{}", "hash": None})
    assert status == 409
    assert (editor.root / ".pi/forge/prompt-stacks/pair-programmer.json").read_text() != "{}"


def test_read_only_refuses_every_write(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PI_FORGE_GLOBAL_DIR", str(tmp_path / "global"))
    running = start(copy_examples(tmp_path), tmp_path / "global", read_only=True)
    try:
        _, loaded = running.get(f"/api/stack?ref={STACK}")
        for path, body in [
            ("/api/save", {"ref": STACK, "text": loaded["text"], "hash": loaded["hash"]}),
            ("/api/new", {"id": "x"}), ("/api/fork", {"ref": STACK, "id": "y"}),
            ("/api/delete", {"ref": STACK, "hash": loaded["hash"]}),
            ("/api/profile/config", {"id": "reviewer", "update": {"enabled": True}}),
        ]:  # fmt: skip
            status, answer = running.post(path, body)
            assert status == 403 and "read-only" in answer["error"], path
        assert running.get("/api/state")[1]["readOnly"] is True
    finally:
        stop(running)


def test_the_server_listens_on_loopback_only(editor: Running) -> None:
    address, port = editor.editor.sock.getsockname()
    assert address == "127.0.0.1"
    others = _non_loopback_addresses()
    for other in others:
        with socket.socket() as probe, pytest.raises(OSError):
            probe.settimeout(2)
            probe.connect((other, port))


def _non_loopback_addresses() -> list[str]:
    try:
        names = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        names = []
    found = {info[4][0] for info in names}
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as udp:
        try:  # no packet is sent: connecting a UDP socket only picks the outgoing interface
            udp.connect(("10.255.255.255", 1))
            found.add(udp.getsockname()[0])
        except OSError:
            pass
    return sorted(a for a in found if not a.startswith("127."))


def _listening(port: int) -> list[str]:
    """Local addresses of listening TCP sockets on ``port`` (from /proc/net/tcp and tcp6)."""
    out = []
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except OSError:
            continue
        for line in lines:
            fields = line.split()
            address, hexport = fields[1].rsplit(":", 1)
            if int(hexport, 16) == port and fields[3] == "0A":  # LISTEN
                out.append(address)
    return out


@pytest.mark.skipif(not Path("/proc/net/tcp").exists(), reason="needs Linux's /proc/net/tcp")
def test_the_command_prints_a_token_url_and_binds_loopback(tmp_path: Path) -> None:
    root = copy_examples(tmp_path)
    env = {**os.environ, "PI_FORGE_GLOBAL_DIR": str(tmp_path / "global")}
    proc = subprocess.Popen([sys.executable, "-m", "forgec", "ui", str(root), "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)  # fmt: skip
    try:
        url = None
        deadline = time.monotonic() + 60
        while url is None and time.monotonic() < deadline:
            line = proc.stdout.readline() if proc.stdout else ""
            if not line:
                break
            match = re.search(r"http://127\.0\.0\.1:(\d+)/\?token=([\w-]{40,})", line)
            url = match
        assert url is not None, proc.stderr.read() if proc.stderr else ""
        port = int(url.group(1))
        assert _listening(port) == ["0100007F"]  # 127.0.0.1, and nothing else (no 0.0.0.0, no ::)
    finally:
        proc.terminate()
        proc.wait(20)


def test_configured_port_is_used_and_a_busy_one_replaced(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from forgec.web.server import prepare

    monkeypatch.setenv("PI_FORGE_GLOBAL_DIR", str(tmp_path / "global"))
    root = copy_examples(tmp_path)
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        taken = busy.getsockname()[1]
        (root / ".pi/forge/config.json").write_text(f'{{"webEditor": {{"port": {taken}}}}}')
        editor = prepare(root)
        try:
            assert editor.port != taken
            assert any(str(taken) in w for w in editor.warnings)
        finally:
            editor.sock.close()
    editor = prepare(root)  # now free: the configured port is used
    try:
        assert editor.port == taken and editor.warnings == []
    finally:
        editor.sock.close()
