"""Hypothesis strategies for forgec's inputs: stacks, contexts, macro text, regex rules, presets.

They generate *plausible but hostile* values: the right shapes most of the time, wrong types,
JavaScript-awkward strings (lone surrogates, astral characters, NUL, ``__proto__``), huge numbers,
deep nesting and macro syntax in every string, so that the invariant of the suite -- diagnostics
and an exit code, never a traceback, a hang or runaway memory -- is tested where it breaks.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from forgec.model import BUILTIN_MACRO_NAMES, BUILTIN_SLOT_NAMES, MESSAGE_ROLES, MODES, ROLES, THINKING_LEVELS

AWKWARD = st.sampled_from(
    ["", " ", "\ud800", "\udfff", "😀", "\u2028", "\x00", "__proto__", "constructor", "toString", "{{", "}}", "::",
     "$&", "$1", "\\", '"', "\n", "CON", "é", "\ufeff", "1e400", "-0"]
)  # fmt: skip
MACRO_NAMES = st.sampled_from([*BUILTIN_MACRO_NAMES, "nope", "acme.x", "", " trim "])


@st.composite
def macro_text(draw: st.DrawFn, depth: int = 0) -> str:
    """Text with macros, nested macros, unclosed braces and separators."""
    parts: list[str] = []
    for _ in range(draw(st.integers(0, 6))):
        kind = draw(st.integers(0, 5))
        if kind == 0:
            parts.append(draw(st.text(max_size=12)))
        elif kind == 1:
            parts.append(draw(AWKWARD))
        elif depth < 3:
            args = [draw(macro_text(depth + 1)) for _ in range(draw(st.integers(0, 3)))]
            parts.append("{{" + "::".join([draw(MACRO_NAMES), *args]) + "}}")
        else:
            parts.append("{{" + draw(MACRO_NAMES) + "}}")
    return "".join(parts)


def json_scalars() -> st.SearchStrategy[Any]:
    return st.one_of(
        st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.floats(allow_nan=False, allow_infinity=False),
        st.text(max_size=20), AWKWARD,
    )  # fmt: skip


def json_values(max_leaves: int = 12) -> st.SearchStrategy[Any]:
    return st.recursive(
        json_scalars(),
        lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=8), inner, max_size=4)),
        max_leaves=max_leaves,
    )


def maybe(value: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """Mostly the plausible value, sometimes anything at all."""
    return st.one_of(value, value, value, json_values(4))


@st.composite
def regex_rules(draw: st.DrawFn) -> dict[str, Any]:
    pattern = draw(st.one_of(st.sampled_from(["a+", "(a|)*b", r"\p{L}+", "(?<n>x)\\k<n>", "[", "(?=a)", "^$", "\\d{2,}"]),
                             st.text(alphabet="ab()[]|*+?{}^$.\\-123,", max_size=14)))  # fmt: skip
    rule: dict[str, Any] = {
        "id": draw(maybe(st.text(min_size=1, max_size=6))),
        "stage": draw(maybe(st.sampled_from(["history", "compiled", "system", "finalize", "import"]))),
        "pattern": draw(maybe(st.just(pattern))),
        "replace": draw(maybe(st.sampled_from(["", "$&", "$1$2", "[$<n>]", "x"]))),
    }
    if draw(st.booleans()):
        rule["flags"] = draw(maybe(st.sampled_from(["g", "gi", "gu", "giu", "gy", "gg", "x"])))
    if draw(st.booleans()):
        rule["trimStrings"] = draw(maybe(st.lists(st.text(max_size=3), max_size=3)))
    return rule


@st.composite
def stack_items(draw: st.DrawFn) -> dict[str, Any]:
    if draw(st.booleans()):
        item: dict[str, Any] = {"kind": "block", "id": draw(maybe(st.text(min_size=1, max_size=6))),
                                "role": draw(maybe(st.sampled_from(ROLES))), "content": draw(maybe(macro_text()))}
    else:
        item = {"kind": "slot", "id": draw(maybe(st.text(min_size=1, max_size=6))),
                "slot": draw(maybe(st.sampled_from([*BUILTIN_SLOT_NAMES, "weather"])))}
        if draw(st.booleans()):
            item["role"] = draw(maybe(st.sampled_from(ROLES)))
        if draw(st.booleans()):
            item["options"] = draw(maybe(st.fixed_dictionaries({}, optional={
                "format": st.sampled_from(["plain", "xml", "json"]), "maxMessages": st.integers(-2, 5),
                "roles": st.lists(st.sampled_from(MESSAGE_ROLES), max_size=3), "toolMode": st.sampled_from(["keep", "drop"]),
                "includeTime": st.booleans()})))  # fmt: skip
    if draw(st.integers(0, 5)) == 0:
        item["enabled"] = draw(maybe(st.booleans()))
    return item


@st.composite
def stacks(draw: st.DrawFn) -> Any:
    """A stack document: usually an object with items, sometimes not a stack at all."""
    if draw(st.integers(0, 15)) == 0:
        return draw(json_values())
    stack: dict[str, Any] = {"schemaVersion": draw(maybe(st.just(1))), "id": draw(maybe(st.text(min_size=1, max_size=8))),
                             "items": draw(maybe(st.lists(stack_items(), max_size=6)))}  # fmt: skip
    if draw(st.booleans()):
        stack["mode"] = draw(maybe(st.sampled_from(MODES)))
    if draw(st.booleans()):
        stack["variables"] = draw(maybe(st.dictionaries(st.one_of(st.text(max_size=6), AWKWARD), macro_text(), max_size=4)))
    if draw(st.booleans()):
        stack["tools"] = draw(maybe(st.fixed_dictionaries({}, optional={"allow": st.lists(st.text(max_size=5), max_size=3),
                                                                          "deny": st.lists(st.text(max_size=5), max_size=3)})))
    if draw(st.booleans()):
        stack["regex"] = draw(maybe(st.fixed_dictionaries({"rules": st.lists(regex_rules(), max_size=3)})))
    return stack


@st.composite
def messages(draw: st.DrawFn) -> dict[str, Any]:
    role = draw(st.sampled_from(MESSAGE_ROLES))
    message: dict[str, Any] = {"role": role, "timestamp": draw(st.integers(0, 2**40))}
    content = draw(st.one_of(macro_text(), st.lists(st.one_of(
        st.fixed_dictionaries({"type": st.just("text"), "text": macro_text()}),
        st.fixed_dictionaries({"type": st.just("thinking"), "thinking": st.text(max_size=10)}),
        st.fixed_dictionaries({"type": st.just("toolCall"), "id": maybe(st.text(max_size=6)), "name": maybe(st.text(max_size=6)),
                               "arguments": st.dictionaries(st.text(max_size=4), json_scalars(), max_size=2)}),
        st.fixed_dictionaries({"type": st.just("image"), "data": st.text(max_size=8), "mimeType": st.just("image/png")}),
    ), max_size=3)))  # fmt: skip
    message["content"] = content
    if role == "assistant":
        message.update({"provider": "p", "model": "m", "api": "openai-completions", "stopReason": "stop",
                        "usage": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "totalTokens": 0,
                                  "cost": {"input": 0, "output": 0, "cacheRead": 0, "cacheWrite": 0, "total": 0}}})
    if role == "toolResult":
        message.update({"toolCallId": draw(maybe(st.text(max_size=6))), "toolName": draw(st.text(max_size=6)),
                        "isError": draw(st.booleans())})
    return message


@st.composite
def contexts(draw: st.DrawFn) -> Any:
    """A context file's data: mostly valid, often slightly wrong."""
    if draw(st.integers(0, 20)) == 0:
        return draw(json_values())
    context: dict[str, Any] = {"messages": draw(st.lists(messages(), max_size=5))}
    if draw(st.booleans()):
        context["tools"] = draw(st.lists(st.fixed_dictionaries({"name": maybe(st.text(min_size=1, max_size=6))},
                                                               optional={"active": st.booleans(), "snippet": st.text(max_size=8)}),
                                         max_size=3))  # fmt: skip
    if draw(st.booleans()):
        context["variables"] = draw(st.dictionaries(st.text(max_size=6), json_values(4), max_size=3))
    if draw(st.booleans()):
        context["thinkingLevel"] = draw(maybe(st.sampled_from(THINKING_LEVELS)))
    if draw(st.booleans()):
        context["timezone"] = draw(maybe(st.sampled_from(["UTC", "Europe/Moscow", "Nowhere/City"])))
    if draw(st.integers(0, 4)) == 0:
        context[draw(st.text(max_size=5))] = draw(json_scalars())
    return context


@st.composite
def presets(draw: st.DrawFn) -> Any:
    """A SillyTavern preset: prompts, an order, regex scripts, in shapes real exports have and do not have."""
    if draw(st.integers(0, 15)) == 0:
        return draw(json_values())
    identifiers = draw(st.lists(st.sampled_from(["main", "chatHistory", "jailbreak", "x", "__proto__"]), max_size=5))
    prompts = [{"identifier": i, "name": draw(maybe(st.text(max_size=8))), "role": draw(maybe(st.sampled_from(["system", "user", "assistant"]))),
                "content": draw(maybe(macro_text())), "marker": draw(st.booleans())} for i in identifiers]  # fmt: skip
    order = [{"identifier": i, "enabled": draw(maybe(st.booleans()))} for i in identifiers]
    preset: dict[str, Any] = {"prompts": draw(maybe(st.just(prompts))),
                              "prompt_order": draw(maybe(st.just([{"character_id": 100001, "order": order}])))}  # fmt: skip
    if draw(st.booleans()):
        preset["extensions"] = {"regex_scripts": draw(st.lists(st.fixed_dictionaries({
            "scriptName": st.text(max_size=6), "findRegex": st.sampled_from(["/a/g", "/(x)/gi", "b", "/[/"]),
            "replaceString": st.sampled_from(["", "$1", "{{match}}"]), "placement": st.lists(st.integers(0, 6), max_size=2)}),
            max_size=2))}  # fmt: skip
    return preset


#: the shapes of issue 13's "small input, unbounded work" families, each a template repeated n times:
#: (prefix, repeated part, suffix); n is drawn, so the input size varies and the work must follow it
_HOSTILE_TEMPLATES = [
    ("", "{{", ""),  # family 6: openers without closers
    ("", "{{trim}}{{", ""),  # family 7: macros and unclosed openers
    ("", "{{json::", "x"),  # family 8: nested escaping (closed by the suffix below)
    ("{{setvar::x::😀}}", "{{setvar::x::{{getvar::x}}{{getvar::x}}}}", "{{trim::{{getvar::x}}}}{{upper::{{getvar::x}}}}"),  # 9
    ("{{setvar::x::\ude00\ud83d}}", "{{setvar::x::{{getvar::x}}{{getvar::x}}}}", "{{json::{{getvar::x}}}}"),  # lone surrogates
    ("", "{{nope}}", ""),  # did-you-mean hints
    ("", "{{setvar::v::{{getvar::v}}}}", ""),
    ("", "{{trim::", "a"),
    ("", "}}{{::", ""),
]


@st.composite
def hostile_blocks(draw: st.DrawFn) -> str:
    """Block text built from one of the pathological shapes, repeated up to ~40 KB."""
    prefix, part, suffix = draw(st.sampled_from(_HOSTILE_TEMPLATES))
    times = draw(st.integers(1, 40_000 // len(part)))
    if part.startswith("{{setvar::x::"):
        times = min(times, 40)  # doubling: 40 steps reach every limit
    text = prefix + part * times + suffix
    if part in ("{{json::", "{{trim::"):
        text += "}}" * times
    return text


_BIG_CLASSES = [r"\p{L}", r"\P{L}", r"[^\p{L}]", r"[\p{L}\p{Nd}]", r"\p{Lu}", r"\w", r"[^a]", r"\S", "."]


@st.composite
def hostile_patterns(draw: st.DrawFn) -> tuple[str, str]:
    """Regex rules whose compile work hides in big classes: repeats of repeats, classes written many times."""
    atom = draw(st.sampled_from(_BIG_CLASSES))
    shape = draw(st.integers(0, 2))
    if shape == 0:
        inner, outer = draw(st.integers(1, 700)), draw(st.integers(1, 300))
        pattern = f"(?:{atom}{{{inner}}}){{{outer}}}"
    elif shape == 1:
        pattern = "(?:" + atom * draw(st.integers(1, 2500)) + ")"
    else:
        pattern = f"{atom}{{{draw(st.integers(1, 10_000))}}}"
    return pattern, draw(st.sampled_from(["giu", "gu", "gi", "g"]))
