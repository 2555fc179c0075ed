"""Replacement-template expansion: JavaScript ``GetSubstitution`` and pi-forge's trimStrings expander.

Templates are never handed to a Python template engine (import-regex B1 #30): ``re``/``regex`` would
process backslashes and ``\\g<…>``, JavaScript only knows ``$`` tokens.  All positions are indexes into
``subject`` in whatever representation the caller matched on (UTF-16 units without ``u``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

__all__ = ["expand_js_replacement", "expand_trim_replacement", "prepass_dollar_zero"]


def _is_digit(ch: str) -> bool:
    return "0" <= ch <= "9"


def prepass_dollar_zero(template: str) -> str:
    """A5.4 step 1: ``$0`` not followed by a digit becomes ``$&``; ``$$`` is skipped as a unit."""
    if "$0" not in template:
        return template
    out: list[str] = []
    i, n = 0, len(template)
    while i < n:
        if template.startswith("$$", i):
            out.append("$$")
            i += 2
        elif template.startswith("$0", i) and not (i + 2 < n and _is_digit(template[i + 2])):
            out.append("$&")
            i += 2
        else:
            out.append(template[i])
            i += 1
    return "".join(out)


def expand_js_replacement(
    template: str,
    matched: str,
    position: int,
    subject: str,
    groups: Sequence[str | None],
    named_groups: Mapping[str, str | None] | None = None,
) -> str:
    """ECMAScript ``GetSubstitution`` (A5.4 table).

    ``groups`` are captures 1..m (``None`` = did not participate); ``named_groups`` is ``None`` when the
    pattern has no named groups, which makes ``$<`` literal.
    """
    if "$" not in template:
        return template
    m = len(groups)
    out: list[str] = []
    i, n = 0, len(template)
    while i < n:
        c = template[i]
        if c != "$" or i + 1 >= n:
            out.append(c)
            i += 1
            continue
        d = template[i + 1]
        if d == "$":
            out.append("$")
            i += 2
        elif d == "&":
            out.append(matched)
            i += 2
        elif d == "`":
            out.append(subject[:position])
            i += 2
        elif d == "'":
            out.append(subject[position + len(matched):])
            i += 2
        elif _is_digit(d):
            if i + 2 < n and _is_digit(template[i + 2]):
                nn = int(template[i + 1 : i + 3])
                if 1 <= nn <= m:
                    out.append(groups[nn - 1] or "")
                    i += 3
                    continue
            k = int(d)
            if 1 <= k <= m:
                out.append(groups[k - 1] or "")
            else:
                out.append("$" + d)
            i += 2
        elif d == "<":
            close = template.find(">", i + 2) if named_groups is not None else -1
            if close == -1:
                out.append("$<")
                i += 2
            else:
                assert named_groups is not None
                out.append(named_groups.get(template[i + 2 : close]) or "")
                i = close + 1
        else:
            out.append("$")
            i += 1
    return "".join(out)


def _trim(value: str, trim_strings: Sequence[str]) -> str:
    for t in trim_strings:
        if t:
            value = value.replace(t, "")
    return value


def expand_trim_replacement(
    template: str,
    matched: str,
    position: int,
    subject: str,
    groups: Sequence[str | None],
    named_groups: Mapping[str, str | None] | None,
    trim_strings: Sequence[str],
) -> str:
    """pi-forge's expander for rules with ``trimStrings`` (A5.5); applied to the raw template."""
    out: list[str] = []
    i, n = 0, len(template)
    m = len(groups)
    while i < n:
        c = template[i]
        if c != "$" or i + 1 >= n:
            out.append(c)
            i += 1
            continue
        d = template[i + 1]
        if d == "$":
            out.append("$")
            i += 2
        elif d == "&" or (d == "0" and not (i + 2 < n and _is_digit(template[i + 2]))):
            out.append(_trim(matched, trim_strings))
            i += 2
        elif d == "`":
            out.append(subject[:position])
            i += 2
        elif d == "'":
            out.append(subject[position + len(matched):])
            i += 2
        elif "1" <= d <= "9":
            j = i + 3 if i + 2 < n and _is_digit(template[i + 2]) else i + 2
            k = int(template[i + 1 : j])
            value = groups[k - 1] if k <= m else None
            out.append(_trim(value, trim_strings) if value is not None else "")
            i = j
        elif d == "<":
            close = template.find(">", i + 2)
            if close <= i + 2:
                out.append("$")
                i += 1
            else:
                name = template[i + 2 : close]
                value = named_groups.get(name) if named_groups is not None else None
                out.append(_trim(value, trim_strings) if value is not None else "")
                i = close + 1
        else:
            out.append("$")
            i += 1
    return "".join(out)
