"""SillyTavern regex scripts: classification, conversion into pi-forge rules, and the summary (C9).

Only prompt-only scripts whose pattern JavaScript accepts and whose placement reaches chat messages
become rules (``stage: "history"``, ``effect: "outgoing"``); every other script stays in the
report with a note saying why.  Whether a pattern compiles is decided by V8's grammar (E1), through
:func:`_js_compiles`.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from typing import Any, Final

from forgec.js.values import UNDEFINED, is_number, js_number_to_string, js_trim

from .patterns import DOLLAR_ZERO_RE, LINE_SPLIT_RE, MATCH_MACRO_RE, is_blank, slugify

PLACEMENT_LABELS: Final = {
    0: "MD Display (0)",
    1: "User Input (1)",
    2: "AI Output (2)",
    3: "Slash Commands (3)",
    5: "World Info (5)",
    6: "Reasoning (6)",
}

W_MATCH: Final = "converted SillyTavern {{match}} to JavaScript $&"
W_DOLLAR0: Final = "converted SillyTavern-style $0 full match to JavaScript $&"
W_REASONING: Final = "reasoning placement is preserved as metadata; use stripAssistantThinking or manual rules for thinking content"
W_SUBSTITUTE: Final = (
    "substituteRegex is preserved as metadata but dynamic find-regex macro substitution is not executed"
)

_FLAGS: Final = "gimsu"


# --- JavaScript Number() ---------------------------------------------------------------------------

_DECIMAL_RE: Final = re.compile(r"[+-]?(?:(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|Infinity)")
_RADIX_RE: Final = re.compile(r"0(?:[xX]([0-9A-Fa-f]+)|[oO]([0-7]+)|[bB]([01]+))")


def js_string_to_number(text: str) -> float:
    """``Number(string)``: JS whitespace trimmed, decimal/hex/octal/binary literals, else NaN."""
    body = js_trim(text)
    if body == "":
        return 0.0
    if _DECIMAL_RE.fullmatch(body):
        if body.lstrip("+-") == "Infinity":
            return -math.inf if body.startswith("-") else math.inf
        return float(body)
    radix = _RADIX_RE.fullmatch(body)
    if radix:
        hex_digits, oct_digits, bin_digits = radix.groups()
        if hex_digits is not None:
            return float(int(hex_digits, 16))
        if oct_digits is not None:
            return float(int(oct_digits, 8))
        return float(int(bin_digits, 2))
    return math.nan


def _tidy(value: float | int) -> float | int:
    """Integral values as ``int`` (``-0`` becomes ``0``) so they print as JavaScript prints them."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        return int(value)
    return value


def normalize_number(value: Any) -> float | int | None:
    """Number normalisation of C9: finite numbers, numeric strings, booleans; ``None`` on failure."""
    if value is UNDEFINED:  # most fields: absent, or a plain integer
        return None
    if type(value) is int:
        return int(value)
    if value is True:
        return 1
    if value is False:
        return 0
    if is_number(value):
        return _tidy(value) if math.isfinite(value) else None
    if isinstance(value, str) and not is_blank(value):
        number = js_string_to_number(value)
        return _tidy(number) if math.isfinite(number) else None
    return None


def placement_label(value: float | int) -> str:
    """``MD Display (0)`` ... or ``unknown (<n>)``."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    label = PLACEMENT_LABELS.get(value) if isinstance(value, int) else None
    return label or f"unknown ({js_number_to_string(value)})"


# --- the JavaScript compile check ------------------------------------------------------------------


def _js_compiles(pattern: str, flags: str) -> str | None:
    """``None`` when ``new RegExp(pattern, flags)`` succeeds in V8, else V8's error message.

    ``new RegExp`` only *parses* the pattern, so this asks the V8-parser port
    (:func:`forgec.codecs.regex_config.compile_error`, the loader's A3 7d check) and never builds a
    matcher: the decision and the text are then the same as the loader's for the converted rule.
    V8's parser keeps nested groups on a heap stack, so deeply nested patterns are accepted here
    as they are there.
    """
    from forgec.codecs.regex_config import compile_error

    return compile_error(pattern, flags)


# --- classification --------------------------------------------------------------------------------


@dataclass
class Script:
    """One classified SillyTavern regex script (absent fields are ``None``)."""

    index: int
    name: str
    enabled: bool
    prompt_only: bool
    markdown_only: bool
    mode: str
    find_regex: str | None
    replace_string: str | None
    trim_strings: list[str] | None
    placement: list[float | int] | None
    substitute_regex: float | int | None
    min_depth: int | float | None
    max_depth: int | float | None
    note: str | None = None
    rule_id: str | None = None
    warnings: list[str] = field(default_factory=list)
    rule: dict[str, Any] | None = None

    @property
    def converted_cell(self) -> str:
        return f"yes: {self.rule_id}" if self.rule_id is not None else (self.note or "")


@dataclass
class RegexSummary:
    """Counters and scripts of ``extensions.regex_scripts`` (``None`` when the array is missing)."""

    scripts: list[Script] = field(default_factory=list)
    total: int = 0
    enabled: int = 0
    disabled: int = 0
    prompt_only: int = 0
    markdown_only: int = 0
    mixed: int = 0
    unspecified: int = 0
    converted: int = 0

    @property
    def rules(self) -> list[dict[str, Any]]:
        return [s.rule for s in self.scripts if s.rule is not None]


def _script_name(script: dict[str, Any], index: int) -> str:
    for key in ("script_name", "scriptName", "name"):
        value = script.get(key, UNDEFINED)
        if isinstance(value, str) and not is_blank(value):
            return value
    return f"regex-{index + 1}"


def _trim_strings(value: Any) -> list[str] | None:
    if isinstance(value, str):
        pieces = [p for p in LINE_SPLIT_RE.split(value) if p]
    elif isinstance(value, list):
        pieces = [p for p in value if isinstance(p, str) and p]
    else:
        return None
    return pieces or None


def _placement(value: Any) -> list[float | int] | None:
    if not isinstance(value, list):
        return None
    out = [n for n in (normalize_number(v) for v in value) if n is not None]
    return out or None


def _depth(value: Any, minimum: int) -> int | float | None:
    """A normalised integer ``>= minimum``; beyond 2**53 it stays a float so it prints as JS does."""
    number = normalize_number(value)
    if number is None or not float(number).is_integer() or number < minimum:
        return None
    return _tidy(number)


def classify(script: dict[str, Any], index: int) -> Script:
    """The C9 classification of one plain-object script at raw index ``index``."""
    enabled = script.get("disabled", UNDEFINED) is not True
    prompt_only = script.get("promptOnly", UNDEFINED) is True
    markdown_only = script.get("markdownOnly", UNDEFINED) is True
    if not enabled:
        mode = "disabled"
    elif prompt_only and markdown_only:
        mode = "prompt+markdown"
    elif prompt_only:
        mode = "prompt-only"
    elif markdown_only:
        mode = "markdown-only"
    else:
        mode = "unspecified"
    find = script.get("findRegex", UNDEFINED)
    replace = script.get("replaceString", UNDEFINED)
    return Script(
        index=index,
        name=_script_name(script, index),
        enabled=enabled,
        prompt_only=prompt_only,
        markdown_only=markdown_only,
        mode=mode,
        find_regex=find if isinstance(find, str) and not is_blank(find) else None,
        replace_string=replace if isinstance(replace, str) and not is_blank(replace) else None,
        trim_strings=_trim_strings(script.get("trimStrings", UNDEFINED)),
        placement=_placement(script.get("placement", UNDEFINED)),
        substitute_regex=normalize_number(script.get("substituteRegex", UNDEFINED)),
        min_depth=_depth(script.get("minDepth", UNDEFINED), -1),
        max_depth=_depth(script.get("maxDepth", UNDEFINED), 0),
    )


# --- conversion ------------------------------------------------------------------------------------


def parse_find_regex(find: str) -> tuple[str, str] | str:
    """``(pattern, flags)`` or the note text of the first problem (C9 *Parsing*, E1, E11)."""
    text = js_trim(find)
    if text == "":
        return "empty findRegex"
    if not text.startswith("/"):
        pattern, flags = text, ""
    else:
        close = -1
        for i in range(len(text) - 1, 0, -1):
            if text[i] != "/":
                continue
            backslashes = 0
            j = i - 1
            while j >= 0 and text[j] == "\\":
                backslashes += 1
                j -= 1
            if backslashes % 2 == 0:
                close = i
                break
        if close < 0:
            return "could not parse regex literal"
        pattern, flags = text[1:close], text[close + 1 :]
    if pattern == "":
        return "empty regex pattern"
    seen: set[str] = set()
    for char in flags:
        if char not in _FLAGS:
            return f"unsupported regex flag: {char}"
        if char in seen:
            return f"duplicate regex flag: {char}"
        seen.add(char)
    error = _js_compiles(pattern, flags)
    if error is not None:
        return f"regex failed to compile: {error}"
    return pattern, flags


def _unique_rule_id(name: str, used: set[str]) -> str:
    base = slugify(f"st-{name}") or "st-regex"
    candidate, n = base, 2
    while candidate in used:
        candidate = f"{base}-{n}"
        n += 1
    used.add(candidate)
    return candidate


def _convert(script: Script, used: set[str]) -> None:
    """Fill ``note`` or ``rule``/``rule_id``/``warnings`` (first matching outcome wins)."""
    if not script.prompt_only:
        script.note = "not prompt-only" if script.enabled else "disabled non-prompt script"
        return
    if script.markdown_only:
        script.note = "mixed prompt/display script requires review"
        return
    if script.find_regex is None:
        script.note = "missing findRegex"
        return
    parsed = parse_find_regex(script.find_regex)
    if isinstance(parsed, str):
        script.note = parsed
        return
    placement = script.placement
    if placement is not None and 1 not in placement and 2 not in placement:
        script.note = "placement has no pi-forge runtime mapping"
        return
    pattern, flags = parsed
    warnings: list[str] = []
    replace = script.replace_string if script.replace_string is not None else ""
    replaced = MATCH_MACRO_RE.sub("$&", replace)
    if replaced != replace:
        warnings.append(W_MATCH)
    replace, replaced = replaced, DOLLAR_ZERO_RE.sub("$&", replaced)
    if replaced != replace:
        warnings.append(W_DOLLAR0)
    roles: list[str] = []
    if placement is not None:
        if 1 in placement:
            roles.append("user")
        if 2 in placement:
            roles.append("assistant")
        if 6 in placement:
            warnings.append(W_REASONING)
    if script.substitute_regex is not None and script.substitute_regex != 0:
        warnings.append(W_SUBSTITUTE)
    for value in placement or []:
        if value not in (1, 2):
            warnings.append(
                f"placement {placement_label(value)} is preserved as metadata but not directly mapped"
            )
    rule_id = _unique_rule_id(script.name, used)
    metadata: dict[str, Any] = {
        "scriptName": script.name,
        "findRegex": script.find_regex,
        "replaceString": script.replace_string if script.replace_string is not None else "",
        "trimStrings": list(script.trim_strings or []),
        "placement": list(placement or []),
        "placementNames": [placement_label(v) for v in placement or []],
        "promptOnly": True,
        "markdownOnly": False,
        "substituteRegex": script.substitute_regex if script.substitute_regex is not None else 0,
    }
    if script.min_depth is not None:
        metadata["minDepth"] = script.min_depth
    if script.max_depth is not None:
        metadata["maxDepth"] = script.max_depth
    rule: dict[str, Any] = {
        "id": rule_id,
        "name": script.name,
        "enabled": script.enabled,
        "stage": "history",
        "effect": "outgoing",
        "pattern": pattern,
        "replace": replaced,
        "source": {"sillytavern": metadata},
    }
    if flags:
        rule["flags"] = flags
    if script.trim_strings:
        rule["trimStrings"] = list(script.trim_strings)
    if roles:
        rule["roles"] = roles
    if script.min_depth is not None and script.min_depth >= 0:
        rule["minDepth"] = script.min_depth
    if script.max_depth is not None:
        rule["maxDepth"] = script.max_depth
    script.rule, script.rule_id, script.warnings = rule, rule_id, warnings


def summarize(extensions: Any) -> RegexSummary | None:
    """Classify and convert ``extensions.regex_scripts``; ``None`` when there is no such array."""
    if not isinstance(extensions, dict):
        return None
    raw = extensions.get("regex_scripts", UNDEFINED)
    if not isinstance(raw, list):
        return None
    summary = RegexSummary()
    used: set[str] = set()
    for index, element in enumerate(raw):
        if not isinstance(element, dict):
            continue
        script = classify(element, index)
        summary.scripts.append(script)
        summary.total += 1
        if not script.enabled:
            summary.disabled += 1
        else:
            summary.enabled += 1
            if script.mode == "prompt-only":
                summary.prompt_only += 1
            elif script.mode == "markdown-only":
                summary.markdown_only += 1
            elif script.mode == "prompt+markdown":
                summary.mixed += 1
            else:
                summary.unspecified += 1
        _convert(script, used)
        if script.rule is not None:
            summary.converted += 1
    return summary
