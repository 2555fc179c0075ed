"""Text, markdown and JSON of the analyses' results (``--format`` of cache-check, diff, tokens).

Markdown is written to be pasted as a GitHub pull-request comment: a heading, a summary line, a
table, and one collapsed ``<details>`` section per changed message holding a ``diff`` code block.
Fences are made longer than any backtick run in the text, and table cells have ``|`` and line
breaks escaped, so a prompt cannot break the comment's layout.  Text is for a terminal; JSON is
each result's ``to_json()`` (2-space, keys in a fixed order).
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from forgec.analysis.cache import CacheCheck
    from forgec.analysis.diff import PromptDiff, TargetsDiff
    from forgec.analysis.tokens import TokenReport

__all__ = ["render_cache_check", "render_prompt_diff", "render_targets_diff", "render_tokens"]


def _json(value: Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False) + "\n"


def _cell(text: str) -> str:
    """A markdown table cell: pipes escaped, line breaks as spaces, long text shortened."""
    flat = " ".join(str(text).split())
    if len(flat) > 80:
        flat = flat[:77] + "..."
    return flat.replace("|", "\\|") or " "


def _fence(text: str) -> str:
    """A backtick fence longer than any run of backticks in ``text``."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    return "`" * max(3, longest + 1)


# --- cache-check --------------------------------------------------------------------------------


def render_cache_check(check: CacheCheck, fmt: str) -> str:
    if fmt == "json":
        return _json(check.to_json())
    diff = check.difference
    share = f"{check.cached_share:.0%}"
    if fmt == "markdown":
        lines = [
            f"### forgec cache-check: `{check.target}` ({check.model})",
            "",
            f"- common prefix of the two request bodies: **{check.prefix_bytes}** bytes "
            f"(of {check.body_bytes[0]} / {check.body_bytes[1]})",
            f"- estimated cached share of turn 2: **{share}** (~{check.cached_tokens} tokens, chars/4)",
        ]
        if diff is not None:
            lines.append(f"- first difference in cache order: `{diff.part}`: {diff.produced_by}")
        lines.extend(f"- error: {e}" for e in check.errors)
        return "\n".join(lines) + "\n"
    lines = [
        f"cache-check {check.target} ({check.model})",
        f"  common prefix of the bodies: {check.prefix_bytes} bytes (turn 1: {check.body_bytes[0]}, turn 2: {check.body_bytes[1]})",
        f"  estimated cached share of turn 2: {share} (~{check.cached_tokens} tokens of {-(-check.total_chars // 4)}, chars/4)",
    ]
    if diff is None:
        lines.append("  the two requests are the same in cache order")
    else:
        lines.append(f"  first difference (cache order): {diff.part}")
        lines.append(f"    produced by: {diff.produced_by or 'unknown'}")
        if diff.kind != "length":
            from forgec.analysis.cache import CONSEQUENCE

            lines.append(f"    {CONSEQUENCE.get(check.target, '')}")
    lines.extend(f"  error: {e}" for e in check.errors)
    return "\n".join(lines) + "\n"


# --- prompt diff ----------------------------------------------------------------------------------


def _where(index: int | None) -> str:
    return "system" if index == -1 else ("" if index is None else str(index))


def render_prompt_diff(diff: PromptDiff, fmt: str, *, show_equal: bool = False) -> str:
    if fmt == "json":
        return _json(diff.to_json())
    counts = diff.counts
    summary = f"{counts['changed']} changed, {counts['added']} added, {counts['removed']} removed, {counts['equal']} unchanged"
    shown = [c for c in diff.changes if show_equal or c.status != "equal"]
    if fmt == "markdown":
        lines = [f"### forgec diff: `{diff.label_a}` → `{diff.label_b}`", "", f"Context: `{diff.context}` · {summary}", ""]
        if not shown:
            lines.append("The compiled prompts are identical.")
            return "\n".join(lines) + "\n"
        lines.extend(["| # | role | source | change |", "|---|---|---|---|"])
        for c in shown:
            index = _where(c.index_b if c.index_b is not None else c.index_a)
            source = c.source_b or c.source_a
            if c.status == "changed" and c.source_a and c.source_b and c.source_a != c.source_b:
                source = f"{c.source_a} → {c.source_b}"
            lines.append(f"| {index} | {_cell(c.role)} | {_cell(source)} | {c.status} |")
        for c in shown:
            if c.status == "equal":
                continue
            body = "\n".join(c.unified()) if c.status == "changed" else "\n".join(
                ("+" if c.status == "added" else "-") + line for line in (c.text_b or c.text_a).splitlines()
            )
            fence = _fence(body)
            title = f"system prompt ({c.source_b})" if c.index_a == -1 else f"message {_where(c.index_b if c.index_b is not None else c.index_a)} ({c.role}, {c.source_b or c.source_a})"
            lines.extend(["", f"<details><summary>{_html(title)}: {c.status}</summary>", "", f"{fence}diff", body, fence, "", "</details>"])
        return "\n".join(lines) + "\n"
    lines = [f"diff {diff.label_a} -> {diff.label_b} (context {diff.context}): {summary}"]
    for c in shown:
        index = _where(c.index_b if c.index_b is not None else c.index_a)
        lines.append(f"{c.status:>8} {index:>6} {c.role:<10} {c.source_b or c.source_a}")
        if c.status == "changed":
            lines.extend(f"           {line}" for line in c.unified())
        elif c.status in ("added", "removed"):
            mark = "+" if c.status == "added" else "-"
            lines.extend(f"           {mark}{line}" for line in (c.text_b or c.text_a).splitlines())
    return "\n".join(lines) + "\n"


def _html(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


# --- targets --------------------------------------------------------------------------------------


def render_targets_diff(diff: TargetsDiff, fmt: str) -> str:
    if fmt == "json":
        return _json(diff.to_json())
    apis = list(diff.models)
    differs = set(diff.differing_rows())
    if fmt == "markdown":
        lines = [
            f"### forgec diff --targets all: `{diff.label}`",
            "",
            f"Context: `{diff.context}` · rows that differ between providers are marked **≠**",
            "",
            "| | " + " | ".join(f"`{a}`<br>{_cell(diff.models[a])}" for a in apis) + " |",
            "|---|" + "---|" * len(apis),
        ]
        for key, title in diff.row_titles():
            mark = " **≠**" if key in differs else ""
            lines.append(f"| {title}{mark} | " + " | ".join(_cell(diff.rows[key][a]) for a in apis) + " |")
        return "\n".join(lines) + "\n"
    lines = [f"diff --targets all: {diff.label} (context {diff.context})"]
    for key, title in diff.row_titles():
        mark = "≠" if key in differs else " "
        lines.append(f"{mark} {title}:")
        lines.extend(f"    {a:<22} {diff.rows[key][a]}" for a in apis)
    return "\n".join(lines) + "\n"


# --- tokens ---------------------------------------------------------------------------------------


def _nan(estimate: int | None) -> str:
    """An estimate as printed: pi-ai's NaN (``None`` here) as JavaScript prints it."""
    return "NaN" if estimate is None else str(estimate)


def render_tokens(reports: list[TokenReport], fmt: str) -> str:
    if fmt == "json":
        return _json([r.to_json() for r in reports])
    out: list[str] = []
    for r in reports:
        real = r.encoding is not None and r.real_total is not None
        if fmt == "markdown":
            head = "| # | role | source | estimate (chars/4) |" + (f" real ({r.encoding}) |" if real else "")
            out.extend([f"### forgec tokens: `{r.target}` ({r.model})", "", head, "|---|---|---|---|" + ("---|" if real else "")])
            rows: list[tuple[str, str, str, int | None, int | None]] = [
                    ("system", "system", "system prompt", r.system_estimate, r.system_real),
                    ("tools", "", "tool list", r.tools_estimate, r.tools_real)]  # fmt: skip
            rows += [(str(m.index), m.role, m.source, m.estimate, m.real) for m in r.messages]
            for index, role, source, est, count in rows:
                out.append(f"| {index} | {role} | {_cell(source)} | {_nan(est)} |" + (f" {count} |" if real else ""))
            total = f"**{_nan(r.request_estimate)}**" + (" (anchored on reported usage)" if r.anchored else "")
            out.append(f"| | | request | {total} |" + (f" **{r.real_total}** |" if real else ""))
            out.extend(["", f"_{r.real_note}_", ""])
            continue
        out.append(f"tokens {r.target} ({r.model})")
        out.append(f"  {'#':>6}  {'role':<12} {'estimate':>8}  {'real':>6}  source")
        rows2: list[tuple[str, str, int | None, int | None, str]] = [
                 ("system", "system", r.system_estimate, r.system_real, "system prompt"),
                 ("tools", "", r.tools_estimate, r.tools_real, "tool list")]  # fmt: skip
        rows2 += [(str(m.index), m.role, m.estimate, m.real, m.source) for m in r.messages]
        for index, role, est, count, source in rows2:
            out.append(f"  {index:>6}  {role:<12} {_nan(est):>8}  {'-' if count is None else count:>6}  {source}")
        anchored = " (anchored on reported usage)" if r.anchored else ""
        out.append(f"  request estimate (pi-ai, chars/4): {_nan(r.request_estimate)}{anchored}")
        if real:
            out.append(f"  request real ({r.encoding}, text only): {r.real_total}")
        out.append(f"  {r.real_note}")
    return "\n".join(out) + "\n"
