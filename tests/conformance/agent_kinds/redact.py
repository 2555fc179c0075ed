"""The ``redact`` kind: pi-forge's payload capture record (profiles-exec.md §5) for one payload."""

from __future__ import annotations

from typing import Any

from forgec.emit.redact import capture_payload


def run(case: Any) -> dict[str, Any]:
    options = case.input.get("capture") or {}
    capture = capture_payload(case.input.get("payload"), captured_at=case.now, **_options(options))
    return {"capture": capture.to_json()}


def _options(options: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if "stackId" in options:
        out["stack_id"] = options["stackId"]
    if "savePath" in options:
        out["save_path"] = options["savePath"]
    return out
