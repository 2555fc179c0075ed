"""Canonical JSON and ``sha256:v1`` fingerprints (profiles-exec.md §3).

pi-forge identifies prompt stacks, agent profiles and prompt runtimes by a SHA-256 digest of a
canonical serialisation.  Fingerprints are compared across tools (a plan approved in Pi must match
the one forgec computes), so the text must be byte-identical to the runtime's ``canonicalJson``:
keys sorted by UTF-16 code units (not code points), numbers printed as ECMAScript prints them,
``-0`` folded into ``0``, ``undefined`` members dropped and every non-JSON value rejected with the
runtime's error text.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from operator import itemgetter
from typing import TYPE_CHECKING, Any, Final

from forgec.codecs.profile import normalize_profile
from forgec.diagnostics import Diagnostic
from forgec.errors import EXIT_FAILED, ForgecError
from forgec.js.json import dumps_sorted, orjson_in_use
from forgec.js.values import UNDEFINED, JSBigInt, js_number_to_string, json_literal, json_quote, utf16_key
from forgec.model import PROFILE_TYPE
from forgec.resources import is_compiled

if TYPE_CHECKING:
    from forgec.source import SourceDocument

__all__ = [
    "FINGERPRINT_PATTERN",
    "DocumentFingerprint",
    "FingerprintError",
    "canonical_json",
    "canonical_scalar",
    "document_kind",
    "fingerprint_document",
    "is_fingerprint",
    "is_profile",
    "is_runtime",
    "normalize_profile",
    "profile_fingerprint",
    "prompt_runtime_fingerprint",
    "sha256_v1",
    "stack_fingerprint",
    "write_canonical",
    "wrong_kind",
]

#: The shape validator pi-forge applies to every fingerprint it receives.
FINGERPRINT_PATTERN: Final = re.compile(r"^sha256:v1:[a-f0-9]{64}$")
FINGERPRINT_SHAPE_MESSAGE: Final = "Expected sha256:v1 followed by 64 lowercase hex characters."


class FingerprintError(ForgecError, ValueError):
    """A value canonical JSON cannot represent; the message is the runtime's (§3.1)."""

    exit_code = EXIT_FAILED


def _typeof(value: Any) -> str:
    """JavaScript's ``typeof`` of a non-JSON value forgec stands in for (§3.1 step 4 names it)."""
    if value is UNDEFINED:
        return "undefined"
    if isinstance(value, JSBigInt):
        return "bigint"
    if callable(value):
        return "function"
    return "object"


def canonical_scalar(value: Any, path: str) -> str | None:
    """The canonical text of a non-container value (§3.1 steps 1-4); None for a container."""
    literal = json_literal(value)
    if literal is not None:
        return literal
    if isinstance(value, str):
        return json_quote(value)
    if isinstance(value, (int, float)):
        try:
            number = float(value)
        except OverflowError:
            raise FingerprintError(f"Cannot fingerprint non-finite number at {path}.") from None
        if not math.isfinite(number):
            raise FingerprintError(f"Cannot fingerprint non-finite number at {path}.")
        return js_number_to_string(0 if number == 0 else value)
    if isinstance(value, (list, tuple, dict)):
        return None
    kind = _typeof(value)
    if kind != "object":
        raise FingerprintError(f"Cannot fingerprint {kind} at {path}.")
    raise FingerprintError(f"Cannot fingerprint non-plain object at {path}.")


#: ``members(container, path)`` -> the (key, value) pairs a canonical object prints, in order
Members = Callable[[Any, str], list[tuple[str, Any]]]
#: ``elements(container, path)`` -> (separator, child path, child) for each array element
Elements = Callable[[Any, str], Iterator[tuple[str, str, Any]]]
#: ``scalar(value, path)`` -> the text of a non-container value, None for an array or object
Scalar = Callable[[Any, str], "str | None"]


def write_canonical(value: Any, path: str, scalar: Scalar, members: Members, elements: Elements) -> str:
    """The checked canonical writer both fingerprint dialects share: exact messages with a ``$.a[0]``
    path, cycle detection (shared references are fine), containers opened in order.

    The dialects differ only in which values they accept and how they name them — the stack/profile
    digests here, the delegation runtime's ``canonicalSubagentJson``
    (:mod:`forgec.execute.contract.fingerprints`) — so those are the three callables.  Iterative (an
    explicit stack of open containers), so nesting depth is limited only by memory.
    """
    text = scalar(value, path)
    if text is not None:
        return text
    out: list[str] = []
    ancestors: set[int] = set()
    # frames: (iterator of (separator, child path, child), closing bracket, container id)
    stack: list[tuple[Iterator[tuple[str, str, Any]], str, int]] = []

    def open_container(container: Any, where: str) -> None:
        if id(container) in ancestors:
            raise FingerprintError(f"Cannot fingerprint cyclic value at {where}.")
        if isinstance(container, (list, tuple)):
            children = elements(container, where)
            ancestors.add(id(container))
            out.append("[")
            stack.append((children, "]", id(container)))
            return
        pairs = members(container, where)
        ancestors.add(id(container))
        out.append("{")
        keyed = ((("," if i else "") + json_quote(k) + ":", f"{where}.{k}", v) for i, (k, v) in enumerate(pairs))
        stack.append((keyed, "}", id(container)))

    open_container(value, path)
    while stack:
        children, closing, ident = stack[-1]
        for separator, where, child in children:
            out.append(separator)
            text = scalar(child, where)
            if text is not None:
                out.append(text)
                continue
            open_container(child, where)
            break
        else:
            stack.pop()
            ancestors.discard(ident)
            out.append(closing)
    return "".join(out)


def _canon_members(container: dict[Any, Any], where: str) -> list[tuple[str, Any]]:
    members = [(k, v) for k, v in container.items() if v is not UNDEFINED]
    for k, _ in members:
        if not isinstance(k, str):
            raise FingerprintError(f"Cannot fingerprint non-plain object at {where}.")
    members.sort(key=lambda kv: utf16_key(kv[0]))
    return members


def _canon_elements(container: Any, where: str) -> Iterator[tuple[str, str, Any]]:
    return (("," if i else "", f"{where}[{i}]", v) for i, v in enumerate(container))


class _Unusual(Exception):
    """Raised by :func:`_check_plain` for data the C encoder would not print as the runtime does."""


#: containers nested deeper than this take the checked path (which also detects cycles)
_PLAIN_DEPTH: Final = 64
_TWO53: Final = 2**53
#: key characters whose code-point order differs from UTF-16 order (U+E000 and above)
_HIGH_KEY_CHAR: Final = re.compile("[\ue000-\U0010ffff]")
_LONE_SURROGATE: Final = re.compile(r"[\ud800-\udfff]")
_ENCODER: Final = json.JSONEncoder(
    ensure_ascii=False, allow_nan=False, sort_keys=True, separators=(",", ":"), check_circular=False
)
#: the C encoder :meth:`json.JSONEncoder.encode` builds on every call (with ``_ENCODER``'s settings),
#: built once: ``_C_ENCODE(value, 0)`` returns the chunks of the text
_C_MAKE_ENCODER: Any = getattr(json.encoder, "c_make_encoder", None)  # CPython's accelerator (untyped)
_C_ENCODE: Final = (
    None
    if _C_MAKE_ENCODER is None
    else _C_MAKE_ENCODER(None, _ENCODER.default, json.encoder.encode_basestring, None, ":", ",", True, False, False)
)


def _check_plain(value: Any, depth: int) -> None:
    """Raise :class:`_Unusual` unless ``json.dumps`` prints ``value`` exactly as ``canonicalJson``.

    That holds for exact ``dict``/``list``/``tuple``/``str``/``bool``/``None``, integers below
    2**53 and non-integral floats between 1e-4 and 1e16 (where ``repr`` and ECMAScript agree), in
    dicts whose keys are strings that sort the same by code point and by UTF-16 unit (no character
    from U+E000 up).  Lone surrogates are checked on the printed text.  This walk only looks at
    types, so it costs far less than writing the text in Python (docs/performance.md).
    """
    if depth > _PLAIN_DEPTH:
        raise _Unusual
    # each kind of container read through a typed name: compiled, the loops are then the dict's and
    # the list's own iteration, not the generic iterator protocol (a stack's 1,000 items are 1,000 dicts)
    kind = type(value)
    if kind is dict:
        mapping: dict[Any, Any] = value
        if NATIVE_KEYS:  # compiled: each key looked up among the keys seen before (see _check_key)
            for key, item in mapping.items():
                if type(key) is not str or key not in _PLAIN_KEYS:
                    _check_key(key)
                if type(item) is not str:
                    _check_member(item, depth)
            return
        try:
            joined = "".join(mapping)
        except TypeError:  # a non-string key
            raise _Unusual from None
        if not joined.isascii() and _HIGH_KEY_CHAR.search(joined):
            raise _Unusual
        for item in mapping.values():
            if type(item) is not str:
                _check_member(item, depth)
    elif kind is list:
        sequence: list[Any] = value
        for item in sequence:
            if type(item) is dict:
                _check_plain(item, depth + 1)
            elif type(item) is not str:
                _check_member(item, depth)
    elif kind is tuple:
        for item in value:
            if type(item) is not str:
                _check_member(item, depth)
    elif kind is not str:
        _check_member(value, depth)


#: string keys :func:`_check_key` passed (a stack's items repeat a handful of keys), at most
#: :data:`_PLAIN_KEYS_LIMIT`
_PLAIN_KEYS: Final[set[str]] = set()
_PLAIN_KEYS_LIMIT: Final = 4096


def _check_key(key: Any) -> None:
    """Raise :class:`_Unusual` unless ``key`` is a string whose code-point order is its UTF-16 order (no
    character from U+E000 up); remember an exact ``str`` that passes.

    Compiled, :func:`_check_plain` tests each key of an object by ``type`` and a set look-up (the key's
    hash is cached) instead of joining the object's keys into a new string and asking ``isascii`` (a
    list of the keys, a join and a generic method call: ~2,800 of the ~3,400 instructions an item of a
    1,000-item stack cost there, docs/performance-log.md stop 32); as Python the loop's steps cost more
    than the join (:data:`NATIVE_KEYS`)."""
    if not isinstance(key, str) or (not key.isascii() and _HIGH_KEY_CHAR.search(key)):
        raise _Unusual
    if type(key) is str:
        if len(_PLAIN_KEYS) >= _PLAIN_KEYS_LIMIT:
            _PLAIN_KEYS.clear()
        _PLAIN_KEYS.add(key)


def _check_member(item: Any, depth: int) -> None:
    """:func:`_check_plain` of ``item``, held in a container at ``depth`` (or the value itself)."""
    kind = type(item)
    if kind is bool or item is None:
        return
    if kind is dict or kind is list or kind is tuple:
        _check_plain(item, depth + 1)
    elif kind is int:
        if not -_TWO53 < item < _TWO53:
            raise _Unusual
    elif not (kind is float and 1e-4 <= abs(item) < 1e16 and not item.is_integer()):
        raise _Unusual


#: whether this module is compiled (mypyc): :func:`_check_plain` then tests keys one by one (:func:`_check_key`)
NATIVE_KEYS: Final = is_compiled(_check_key)


#: every character the C encoder escapes in a string (``ensure_ascii=False``): C0 controls, ``"``, ``\\``
_ESCAPED_CHARS: Final = (*map(chr, range(0x20)), '"', "\\")
#: each control character -> the encoder's escape of it (taken from the encoder itself)
_CONTROL_ESCAPES: Final = {chr(c): json.encoder.encode_basestring(chr(c))[1:-1] for c in range(0x20)}
#: the encoder's own string writer (``_C_ENCODE`` calls the same C function for each string)
_QUOTE: Final = json.encoder.encode_basestring
#: the JSON literal of each member value a template writes in place (``True == 1``: the type is checked too)
_LITERALS: Final[dict[Any, str]] = {True: "true", False: "false", None: "null"}

#: how objects of one key order are written by template (:func:`_object_shape`)
_Shape = tuple[Any, Any, dict[Any, tuple[str, str]], tuple[Any, ...], tuple[Any, ...]]
#: ``keys of an object, in its order`` -> its shape (:func:`_object_shape`), or None when objects with those
#: keys are not written by template
_SHAPES: dict[tuple[Any, ...], _Shape | None] = {}
#: shapes kept before :data:`_SHAPES` is emptied (a stack's items have a handful)
_SHAPES_LIMIT: Final = 256
#: what :data:`_SHAPES` gives for keys it has not seen
_NO_SHAPE: Final[Any] = object()


def _is_literal(value: Any) -> bool:
    return value is None or type(value) is bool


def _object_shape(keys: tuple[Any, ...], item: dict[Any, Any]) -> _Shape | None:
    """How objects whose keys are ``keys`` (in that order) are written by template, learnt from the
    first such object ``item``: its members that are ``true``/``false``/``null`` there are the
    shape's *fixed* members, written in the template (one template per combination of their values),
    the others are ``"%s"`` slots for strings.  ``(getter of the strings, getter of the fixed values
    or None, templates by fixed values, the keys sorted, the fixed keys)``; None when fewer than two
    members would be strings (a getter of one key gives no tuple).

    Keys are sorted and quoted as the C encoder sorts and quotes them (code points: the caller's
    :func:`_check_plain` has refused keys whose UTF-16 order differs), ``%`` doubled."""
    ordered = tuple(sorted(keys))
    fixed = tuple(key for key in ordered if _is_literal(item[key]))
    strings = [key for key in ordered if key not in fixed]
    if len(_SHAPES) >= _SHAPES_LIMIT:
        _SHAPES.clear()
    if len(strings) < 2:
        _SHAPES[keys] = None
        return None
    fixed_getter = None if not fixed else itemgetter(*fixed)
    templates: dict[Any, tuple[str, str]] = {}
    shape = (itemgetter(*strings), fixed_getter, templates, ordered, fixed)
    _SHAPES[keys] = shape
    return shape


def _template(ordered: tuple[Any, ...], fixed: tuple[Any, ...], values: Any) -> tuple[str, str]:
    """The ``%`` templates of a shape's objects whose fixed members hold ``values`` (one value, or a
    tuple of them for two or more fixed keys): one for its strings as they are (``"%s"``), one for
    its strings quoted by the encoder's own string writer (``%s``)."""
    literals = dict(zip(fixed, (values,) if len(fixed) == 1 else values, strict=True))
    keys = [_QUOTE(key).replace("%", "%%") + ":" for key in ordered]
    plain = [key + (_LITERALS[literals[name]] if name in literals else '"%s"') for key, name in zip(keys, ordered, strict=True)]
    quoted = [key + (_LITERALS[literals[name]] if name in literals else "%s") for key, name in zip(keys, ordered, strict=True)]
    return "{" + ",".join(plain) + "}", "{" + ",".join(quoted) + "}"


def _string_members(item: dict[Any, Any]) -> tuple[tuple[str, str], tuple[str, ...], str] | None:
    """For an object written by template: its ``%`` templates (:func:`_template`), its string values in sorted key order
    and those values joined (the join is also the test that each is a string); None for any other
    object (it takes the encoder)."""
    keys = tuple(item)
    shape = _SHAPES.get(keys, _NO_SHAPE)
    if shape is _NO_SHAPE:
        if len(keys) < 2:
            return None
        shape = _object_shape(keys, item)
    if shape is None:
        return None
    getter, fixed_getter, templates, ordered, fixed = shape
    try:
        if fixed_getter is None:
            template = templates.get(None)
            if template is None:
                template = templates[None] = _template(ordered, fixed, ())
        else:
            fixed_values = fixed_getter(item)
            if len(fixed) == 1:
                if not _is_literal(fixed_values):
                    return None
            elif not all(map(_is_literal, fixed_values)):
                return None
            template = templates.get(fixed_values)
            if template is None:
                template = templates[fixed_values] = _template(ordered, fixed, fixed_values)
        values = getter(item)
        joined = "".join(values)
    except TypeError:  # a member that is not a string
        return None
    return template, values, joined


#: the elements a list's first look takes (:func:`_mostly_quoted`)
_SAMPLE: Final = 16


def _mostly_quoted(made: list[tuple[tuple[str, str], tuple[str, ...], str] | None]) -> bool:
    """Whether more than a quarter of the objects among a list's first elements have a string with
    a ``"`` or ``\\``: then the list goes to the encoder whole (an object with one costs the
    template path about a fifth more than the encoder in the pure build: the encoder's escape pass
    and the template path's own steps)."""
    quoted = 0
    for found in made:
        if found is not None and ('"' in found[2] or "\\" in found[2]):
            quoted += 1
    return quoted * 4 > len(made)


def _plain_list_text(sequence: list[Any], encode: Any, pieces: list[str], controls: list[str]) -> None:
    """Add to ``pieces`` the canonical text of a list :func:`_check_plain` vouched for, but for its
    control characters (added to ``controls``; the caller escapes them in the whole text): its
    objects whose members are strings (and ``true``/``false``/``null``) by their shape's ``%``
    template, every other element by the C encoder ``encode``.

    A stack's items are such objects: 1,000 items are ~320,000 characters of strings, which the
    encoder's escape pass reads twice (~10 M instructions, about half its cost).  Here the strings of
    all those objects are joined and each character the encoder escapes looked for once (a
    ``memchr`` each); the control characters found are escaped afterwards in the whole text (no
    other part of it holds one: the templates' keys are quoted and the encoder's parts escaped); only
    when a ``"`` or ``\\`` is found is each object looked at on its own, and the strings of those
    holding one are quoted by the encoder's own string writer (so a stack whose every item has a
    quote costs about what the encoder costs, not more)."""
    made: list[tuple[tuple[str, str], tuple[str, ...], str] | None] = [
        _string_members(element) if type(element) is dict else None for element in sequence[:_SAMPLE]
    ]
    if _mostly_quoted(made):  # the template path would cost more than the encoder
        pieces.append("".join(encode(sequence, 0)))
        return
    made += [_string_members(element) if type(element) is dict else None for element in sequence[_SAMPLE:]]
    joined = "".join([found[2] for found in made if found is not None])
    present = [char for char in _ESCAPED_CHARS if char in joined]
    quoted = '"' in present or "\\" in present
    for index, found in enumerate(made):
        pieces.append("," if index else "[")
        if found is None:
            pieces.append("".join(encode(sequence[index], 0)))
        elif quoted and ('"' in found[2] or "\\" in found[2]):  # its strings quoted as the encoder does
            pieces.append(found[0][1] % tuple(map(_QUOTE, found[1])))
        else:
            pieces.append(found[0][0] % found[1])
    pieces.append("]" if made else "[]")
    for char in present:
        if char != '"' and char != "\\" and char not in controls:
            controls.append(char)


def _has_long_list(mapping: dict[Any, Any]) -> bool:
    """Whether an object has a list member of :data:`_SAMPLE` elements or more: below that, the
    template path's fixed steps (a ``memchr`` per escaped character, the object split into members)
    cost more than the escapes they save, and the encoder writes the whole value (a small stack)."""
    for member in mapping.values():  # a loop, not any(generator): a small stack's fingerprint asks too
        if type(member) is list and len(member) >= _SAMPLE:
            break
    else:
        return False
    return True


def _plain_text(value: dict[Any, Any], encode: Any) -> str:
    """The canonical text of an object :func:`_check_plain` vouched for with a long list
    (:func:`_has_long_list`), as the C encoder ``encode`` prints it: its list members (a stack's
    ``items``) through :func:`_plain_list_text`, everything else by ``encode`` itself (``tests/fingerprint/test_plain_writer.py`` holds the two equal)."""
    mapping: dict[Any, Any] = value
    # one join at the end: the items' text is ~320,000 characters, and each concatenation copies it
    pieces: list[str] = []
    controls: list[str] = []
    for key in sorted(mapping):
        pieces.append("," if pieces else "{")
        pieces.append(_QUOTE(key))
        pieces.append(":")
        member = mapping[key]
        if type(member) is list:
            _plain_list_text(member, encode, pieces, controls)
        else:
            pieces.append("".join(encode(member, 0)))
    pieces.append("}" if pieces else "{}")
    text = "".join(pieces)
    for char in controls:  # only the templates' strings hold one as it is
        text = text.replace(char, _CONTROL_ESCAPES[char])
    return text


def canonical_json(value: Any) -> str:
    """The runtime's ``canonicalJson(value)``; raises :class:`FingerprintError` on non-JSON values.

    Plain data (nearly every stack) is printed by the C ``json`` encoder once :func:`_check_plain`
    has vouched for it (objects of plain strings in a top-level list, a stack's items, by
    :func:`_plain_text`); anything else goes through :func:`write_canonical`, which also builds the
    value's path for the error message (only then).
    """
    try:
        _check_plain(value, 0)
        if _C_ENCODE is None:
            text = _ENCODER.encode(value)
        elif type(value) is dict and _has_long_list(value):
            text = _plain_text(value, _C_ENCODE)
        else:
            text = "".join(_C_ENCODE(value, 0))
    except _Unusual:
        text = None
    if text is None or (not text.isascii() and _LONE_SURROGATE.search(text)):
        text = write_canonical(value, "$", canonical_scalar, _canon_members, _canon_elements)
    return text


def _plain_bytes(value: Any) -> bytes | None:
    """The UTF-8 bytes of ``canonical_json(value)`` written by orjson, when it is in use and
    :func:`_check_plain` vouches for ``value``; else None (the caller takes :func:`canonical_json`).

    For vouched data orjson's text with sorted keys is the C encoder's byte for byte (every character
    of every string, the floats :func:`_check_plain` lets through, keys sorted by code point; measured
    in ``tests/fingerprint/test_orjson_bytes.py``), and it is written in one pass straight to UTF-8: a
    1,000-item stack's text costs ~2 M instructions there against ~13 M through the template writer
    and the encoder (docs/performance-log.md, stop 32).  A lone surrogate, which the runtime writes as an
    escape, makes orjson refuse the value."""
    try:
        _check_plain(value, 0)
    except _Unusual:
        return None
    return dumps_sorted(value)


def sha256_v1(value: Any) -> str:
    """``sha256:v1:`` + hex SHA-256 of the canonical JSON's UTF-8 bytes."""
    data = _plain_bytes(value) if orjson_in_use() else None
    if data is None:
        data = canonical_json(value).encode("utf-8")
    return "sha256:v1:" + hashlib.sha256(data).hexdigest()


def stack_fingerprint(stack: dict[str, Any]) -> str:
    """pi-forge's ``subagentPromptStackFingerprint``: the digest of the *normalised* stack object."""
    return sha256_v1(stack)


def prompt_runtime_fingerprint(runtime: dict[str, Any]) -> str:
    """The prompt-runtime digest, which excludes the runtime's own ``promptRuntimeFingerprint`` key."""
    return sha256_v1({k: v for k, v in runtime.items() if k != "promptRuntimeFingerprint"})


def is_fingerprint(text: object) -> bool:
    """Whether ``text`` has the ``sha256:v1:<64 hex>`` shape pi-forge accepts."""
    return isinstance(text, str) and FINGERPRINT_PATTERN.match(text) is not None



def profile_fingerprint(doc: Any, fallback_id: str = "") -> str:
    """The host's ``profileFingerprint`` of a profile file's parsed JSON: the digest of the profile
    in the loader's normalised form (:func:`forgec.codecs.profile.normalize_profile`)."""
    return sha256_v1(normalize_profile(doc, fallback_id))


# --- documents: what a file is, and its fingerprint ------------------------------------------------


def is_profile(doc: Any) -> bool:
    """An agent profile (profiles-exec.md §1.2): an object whose ``type`` is the profile type."""
    return isinstance(doc, dict) and doc.get("type") == PROFILE_TYPE


def is_runtime(doc: Any) -> bool:
    """A prompt runtime (profiles-exec.md §3.5): an object with ``baseSystemPrompt`` and ``options``."""
    return isinstance(doc, dict) and "baseSystemPrompt" in doc and isinstance(doc.get("options"), dict)


def document_kind(doc: Any, fmt: str = "json") -> str:
    """How ``forgec fingerprint --as auto`` reads a parsed document: ``profile``, ``runtime``,
    ``stack`` or plain ``json``.  An empty YAML file (``None``) is a stack, as validate reads it."""
    if doc is None and fmt == "yaml":
        return "stack"
    if isinstance(doc, dict):
        if doc.get("type") == PROFILE_TYPE:
            return "profile"
        if "baseSystemPrompt" in doc and "options" in doc:
            return "runtime"
        if "items" in doc:
            return "stack"
    return "json"


_KIND_NAMES = {"stack": "a prompt stack", "profile": "an agent profile", "runtime": "a prompt runtime"}


def wrong_kind(doc: Any, fmt: str, wanted: str) -> str | None:
    """Why ``doc`` cannot be fingerprinted ``--as wanted`` (None when it can)."""
    if wanted == "profile" and not is_profile(doc):
        what = f'an agent profile (no "type": "{PROFILE_TYPE}")'
    elif wanted == "runtime" and not is_runtime(doc):
        what = "a prompt runtime (an object with baseSystemPrompt and an options object)"
    else:
        return None
    seems = document_kind(doc, fmt)
    looks = _KIND_NAMES.get(seems)
    hint = f"; it looks like {looks} (try --as {seems} or --as auto)" if looks else ""
    return f"not {what}{hint}"


@dataclass(frozen=True, slots=True)
class DocumentFingerprint:
    """The fingerprint of one document, or why there is none.

    ``digest`` and ``value`` (what was hashed) are set when it could be fingerprinted;
    ``diagnostics`` are the reader's findings and the refusal, in order; ``exit_code`` is 0, 1
    (invalid, or a value canonical JSON refuses) or 2 (the file could not be read).
    """

    digest: str | None
    value: Any
    diagnostics: tuple[Diagnostic, ...]
    exit_code: int


def fingerprint_document(document: SourceDocument, kind: str = "auto", *, file_name: str | None = None) -> DocumentFingerprint:
    """The ``sha256:v1`` digest of a read document as ``kind`` (``auto``, ``json``, ``stack``,
    ``profile``, ``runtime``), as ``forgec fingerprint`` computes it.

    A stack is hashed in the loader's normalised form (the compile report's
    ``fingerprints.promptStack``), and refused when the loader reports an error; a profile in its
    normalised form (the file name's stem is the fallback id); a runtime without its own
    fingerprint key; anything else as it is.  ``file_name`` is ``None`` for standard input.
    Never raises.
    """
    from forgec.rules import loader as read_codes
    from forgec.rules import payloads as codes

    found = list(document.diagnostics)
    if not document.parsed:
        unreadable = any(d.code == read_codes.FILE_UNREADABLE for d in found)
        return DocumentFingerprint(None, None, tuple(found), 2 if unreadable else 1)
    doc = document.data
    chosen = document_kind(doc, document.format) if kind == "auto" else kind
    problem = wrong_kind(doc, document.format, chosen) if kind in ("profile", "runtime") else None
    if problem is not None:
        found.append(Diagnostic("error", problem, codes.FINGERPRINT_WRONG_KIND, extra=True))
        return DocumentFingerprint(None, None, tuple(found), 1)
    value = doc
    if chosen == "stack":
        from forgec.codecs.stack import load_stack_data
        from forgec.source import resolve_spans

        loaded = load_stack_data(doc, file_name or "stack.json", path=document.path)
        errors = [d for d in loaded.diagnostics if d.level == "error"]
        if errors:
            return DocumentFingerprint(None, None, (*found, *resolve_spans(errors, document)), 1)
        value = loaded.stack
    elif chosen == "profile":
        from pathlib import PurePath

        value = normalize_profile(doc, PurePath(file_name).stem if file_name else "")
    elif chosen == "runtime" and isinstance(doc, dict):
        value = {k: v for k, v in doc.items() if k != "promptRuntimeFingerprint"}
    try:
        digest = sha256_v1(value)
    except FingerprintError as exc:
        found.append(Diagnostic("error", str(exc), codes.FINGERPRINT_NON_JSON, extra=True))
        return DocumentFingerprint(None, None, tuple(found), 1)
    return DocumentFingerprint(digest, value, tuple(found), 0)
