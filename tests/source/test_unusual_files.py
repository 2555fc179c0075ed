"""Inputs that are not ordinary files: a named pipe without a writer, paths the system cannot take,
and standard input, which gets the size limits of a file."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from forgec.codecs.stack import load_stack_bytes, load_stack_file
from forgec.rules import loader as codes
from forgec.source import MAX_FILE_BYTES, decode_source, read_source


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_a_named_pipe_without_a_writer_reads_as_empty_instead_of_waiting(tmp_path: Path) -> None:
    pipe = tmp_path / "stack.json"
    os.mkfifo(pipe)
    document = read_source(pipe)  # plain open() would block here for ever
    assert not document.parsed
    assert [d.code for d in document.diagnostics] == [codes.JSON_PARSE_ERROR]


@pytest.mark.parametrize("name", ["a\x00b.json", "a\udc80b.json"])
def test_a_path_the_system_cannot_take_is_a_read_diagnostic(name: str) -> None:
    loaded = load_stack_file(name)
    assert [d.code for d in loaded.diagnostics] == [codes.FILE_UNREADABLE]
    assert loaded.diagnostics[0].message.startswith("Failed to parse JSON: ")


def test_a_nul_in_a_path_gets_nodes_text() -> None:
    message = load_stack_file("a\x00b.json").diagnostics[0].message
    assert "must be a string, Uint8Array, or URL without null bytes" in message


def test_standard_input_has_the_limits_of_a_file() -> None:
    too_big = b"[" + b" " * MAX_FILE_BYTES + b"]"
    assert [d.code for d in decode_source(too_big, "-", "json").diagnostics] == [codes.FILE_TOO_LARGE]
    loaded = load_stack_bytes(too_big, "stdin.json", path="-")
    assert [d.code for d in loaded.diagnostics] == [codes.FILE_TOO_LARGE]
    assert not loaded.usable
    yaml = b"items: []\n" + b"#" * (5 * 1024 * 1024)
    assert [d.code for d in load_stack_bytes(yaml, "s.yaml").diagnostics] == [codes.FILE_TOO_LARGE]


@pytest.mark.parametrize("sign", ["", "-"])
def test_a_400_digit_integer_in_yaml_reads_as_javascript_reads_it(sign: str) -> None:
    """Issue 13 family 2: YAML scalar conversion raised ``OverflowError`` (an internal error); a
    number too big for a double is what ``Number()`` makes of it, so the loader checks it as usual."""
    digits = sign + "9" * 400
    stack = f"id: s\nvariables:\n  n: {digits}\nitems:\n- kind: block\n  id: b\n  role: system\n  content: x\n  enabled: {digits}\n"
    loaded = load_stack_bytes(stack.encode(), "s.yaml")
    assert loaded.diagnostics and all(d.code.startswith("FG") for d in loaded.diagnostics)
    document = decode_source(f"variables:\n  n: {digits}\n".encode(), "c.yaml", "yaml")
    assert document.parsed and document.data["variables"]["n"] == float(sign + "inf")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
def test_a_named_pipe_as_the_context_is_refused_instead_of_waiting(tmp_path: Path) -> None:
    from forgec.codecs.context import ContextError, load_context

    pipe = tmp_path / "context.json"
    os.mkfifo(pipe)
    with pytest.raises(ContextError) as caught:
        load_context(str(pipe))
    assert "FG001" in str(caught.value)


@pytest.mark.parametrize("name", ["a\x00b.json", "a\udc80b.json"])
def test_library_calls_on_a_path_the_system_cannot_take_raise_only_forgec_errors(name: str) -> None:
    """Issue 13 family 4: ``compile_report``, ``import_preset`` and ``load_context`` raised
    ``ValueError``/``UnicodeEncodeError`` for such a path; the documented error is an ``InputError``."""
    import forgec
    from forgec.errors import InputError

    for call in (forgec.compile_report, forgec.import_preset, forgec.load_context):
        with pytest.raises(InputError):
            call(name)
