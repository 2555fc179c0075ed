"""The macro examples of compile-core §3.1 and §3.5 (and §16.6, §16.9, §16.13), copied from the spec.

One table serves two levels of test: ``test_engine.py`` expands each row with the engine alone,
``test_macro_expansion.py`` compiles it as a system block end to end (both in ``tests/compile/macros``).
Every row is ``(input, output, unresolved expressions)`` with the session variable
``topic = "session topic"``, the active tool ``read``, ``cwd = /home/dev/project`` and the latest user
message ``middle::value``.
"""

from __future__ import annotations

SESSION_TOPIC = "session topic"
LATEST_USER_MESSAGE = "middle::value"

SPEC_EXAMPLES: list[tuple[str, str, list[str]]] = [
    ("a {{ b", "a {{ b", []),
    ("x }} y", "x }} y", []),
    ("{{}}", "{{}}", []),
    ("{{  }}", "{{  }}", []),
    ("{{::x}}", "{{::x}}", []),
    ("{{ cwd }}", "/home/dev/project", []),
    ("{{cwd}}}", "/home/dev/project}", []),
    ("{{a{{b}}", "{{a{{b}}", ["b"]),
    ("{{{cwd}}}", "{{{cwd}}}", ["{cwd"]),
    ("{{upper::{{zz}}}}", "{{ZZ}}", ["zz"]),
    ("{{getvar}}", "{{getvar}}", ["getvar"]),
    ("{{setvar::::x}}", "{{setvar::::x}}", ["setvar::::x"]),
    ("{{ifeq::topic}}", "{{ifeq::topic}}", ["ifeq::topic"]),
    ("{{setvar::session}}", "{{setvar::session}}", ["setvar::session"]),
    ("{{ifvar:: ::a::b}}", "{{ifvar:: ::a::b}}", ["ifvar:: ::a::b"]),
    ("{{ifvar::nope::a}}", "", []),
    ("{{setvar:: k :: v }}[{{k}}]", "[ v]", []),
    ("{{setvar::turn::y::1::2}}[{{y}}]", "[1::2]", []),
    ("{{setvar:: session ::q::v}}{{getsessionvar::q}}", "v", []),
    ("{{setsessionvar::session::x::y}}{{getsessionvar::session}}", "x::y", []),
    ("{{clearvar::session::topic}}[{{topic}}]", "[{{topic}}]", ["topic"]),
    ("{{getvar::{{x}}}}", "", ["x"]),
    ("{{ifeq::topic::session topic::EQ::NE}}", "EQ", []),
    ("{{ifeq::topic:: session topic ::EQ::NE}}", "NE", []),
    ("{{iftools:: read ::yes::no}}", "yes", []),
    ("{{trim}}", "", []),
    ("{{xml}}", "", []),
    ("{{json::}}", '""', []),
    ("{{json}}", '""', []),
    ("{{Cwd}}", "{{Cwd}}", ["Cwd"]),
    ("{{setvar::a::{{setvar::b::B}}A}}{{a}}{{b}}", "AB", []),
    ('{{json::a"b\\c\n\t}}', '"a\\"b\\\\c"', []),
    ("{{json::a\n\tb}}", '"a\\n\\tb"', []),
    ("{{json:: x }}", '" x"', []),
    ("{{xml::<&>\"'}}", "&lt;&amp;&gt;&quot;&apos;", []),
    ("{{m}}{{m}}{{ m }}", "{{m}}{{m}}{{ m }}", ["m"]),
    ("{{setvar::joined::prefix::{{lastUserMessage}}::suffix}}{{joined}}", "prefix::middle::value::suffix", []),
    ("A {{missing::{{setvar::touched::yes}}}} B", "A {{missing::{{setvar::touched::yes}}}} B", ["missing::{{setvar::touched::yes}}"]),
    ("{{topic::ignored}}", "session topic", []),
    ("{{setturnvar::::v}}", "{{setturnvar::::v}}", ["setturnvar::::v"]),
    ("{{clearsessionvar:: }}", "{{clearsessionvar:: }}", ["clearsessionvar::"]),
    ("a:::b {{upper::a:::b}}", "a:::b A", []),
    ("{{upper::{{upper::x}}}}\r\n{{lower::Y}}\r\n", "X\r\ny\r\n", []),
    ('{{ifeq::  ::a::b}}', '{{ifeq::  ::a::b}}', ['ifeq::  ::a::b']),
    ('{{setsessionvar::  ::v}}', '{{setsessionvar::  ::v}}', ['setsessionvar::  ::v']),
    ('{{clearturnvar}}', '{{clearturnvar}}', ['clearturnvar']),
]
