"""Reading input files with positions: bytes -> text -> JSON data, the same way for every input.

pi-forge reads a stack with ``readFile(path, "utf8")`` and ``JSON.parse`` (compile-core.md §10.2,
§16.10); forgec reads stacks, contexts, catalogs and every other JSON or YAML input the same way,
with the same limits and the same diagnostics, and keeps enough of the text to say where a value
sits.  The room, one job per module:

* :mod:`forgec.source.read` -- bytes and decoding (invalid UTF-8 becomes U+FFFD), size limits,
  Node's ``fs`` error texts, and the choice of parser by suffix;
* :mod:`forgec.source.json` -- ``JSON.parse`` with V8's messages, and JSON positions;
* :mod:`forgec.source.yaml` -- forgec's YAML reading (ruamel.yaml, the JSON data model, guards
  against alias bombs and deep nesting), and YAML positions;
* :mod:`forgec.source.yaml_fast` -- the same node tree composed by libyaml in C (ruamel.yaml.clib)
  wherever it reads a text as ruamel's pure composer does (a differential test proves it);
* :mod:`forgec.source.document` -- :class:`SourceDocument` (the text, the value, the reading
  diagnostics) and :func:`resolve_spans`, which turns diagnostics' pointers into line and column
  once, lazily, through the parser's locator.
"""

from typing import TYPE_CHECKING, Any

from forgec.source.document import Locator, SourceDocument, resolve_spans
from forgec.source.read import (
    MAX_FILE_BYTES,
    MAX_YAML_BYTES,
    decode_source,
    is_yaml_path,
    node_error_text,
    parse_source_text,
    read_file_bytes,
    read_source,
    size_problem,
)

if TYPE_CHECKING:
    from forgec.source.yaml import YAML_MAX_FLOW_DEPTH, YAML_NODE_BUDGET

__all__ = [
    "MAX_FILE_BYTES",
    "MAX_YAML_BYTES",
    "YAML_MAX_FLOW_DEPTH",
    "YAML_NODE_BUDGET",
    "Locator",
    "SourceDocument",
    "decode_source",
    "is_yaml_path",
    "node_error_text",
    "parse_source_text",
    "read_file_bytes",
    "read_source",
    "resolve_spans",
    "size_problem",
]


def __getattr__(name: str) -> Any:
    """``YAML_MAX_FLOW_DEPTH`` and ``YAML_NODE_BUDGET`` from :mod:`forgec.source.yaml`, imported on first use
    (PEP 562): a run that reads only JSON never loads the YAML reader (~2 M instructions of a cold
    ``forgec validate``, docs/performance-log.md "Stop 31: cold validate")."""
    if name not in ("YAML_MAX_FLOW_DEPTH", "YAML_NODE_BUDGET"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from forgec.source import yaml

    value = getattr(yaml, name)
    globals()[name] = value
    return value
