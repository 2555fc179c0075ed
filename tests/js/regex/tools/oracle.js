// Node 20 oracle for tests/js/regex/vectors.json. Reads a JSON list of inputs on stdin and writes
// the reference results on stdout. Transform semantics follow pi-forge 0.4.1 src/regex.ts as described
// in import-regex A5.3-A5.6 (maxChars window, $0 pre-pass or the trimStrings expander, match counting).
"use strict";
const input = JSON.parse(require("fs").readFileSync(0, "utf8"));

function prepass(t) {
  let out = "";
  for (let i = 0; i < t.length; ) {
    if (t.startsWith("$$", i)) { out += "$$"; i += 2; }
    else if (t.startsWith("$0", i) && !/[0-9]/.test(t[i + 2] || "")) { out += "$&"; i += 2; }
    else { out += t[i]; i += 1; }
  }
  return out;
}

function trimExpand(template, match, pos, subject, groups, named, trims) {
  const trim = (v) => { for (const t of trims) if (t) v = v.split(t).join(""); return v; };
  return template.replace(/\$(\$|&|`|'|0(?![0-9])|[1-9][0-9]?|<[^>]+>)/g, (tok, body) => {
    if (body === "$") return "$";
    if (body === "&" || body === "0") return trim(match);
    if (body === "`") return subject.slice(0, pos);
    if (body === "'") return subject.slice(pos + match.length);
    if (body[0] === "<") {
      const v = named ? named[body.slice(1, -1)] : undefined;
      return v === undefined ? "" : trim(v);
    }
    const n = Number(body);
    const v = groups[n - 1];
    return v === undefined ? "" : trim(v);
  });
}

function transform(c) {
  const re = new RegExp(c.pattern, c.flags);
  let head = "", body = c.text;
  if (c.maxChars !== undefined && c.text.length > c.maxChars) {
    head = c.text.slice(0, c.text.length - c.maxChars);
    body = c.text.slice(c.text.length - c.maxChars);
  }
  let matches = 0;
  let out;
  if (c.trimStrings && c.trimStrings.length) {
    out = body.replace(re, (...args) => {
      matches++;
      let named = typeof args[args.length - 1] === "object" ? args.pop() : undefined;
      const subject = args.pop(); const pos = args.pop();
      const match = args[0]; const groups = args.slice(1);
      return trimExpand(c.replace, match, pos, subject, groups, named, c.trimStrings);
    });
  } else {
    // count with the same iteration replace uses (the reference's lastIndex loop gives the same count)
    out = body.replace(re, (...args) => { matches++; return "\u0000MARK\u0000"; });
    out = body.replace(re, prepass(c.replace));
  }
  return { result: head + out, matches };
}

function execInfo(c) {
  const re = new RegExp(c.pattern, c.flags.replace("g", ""));
  const m = re.exec(c.text);
  if (!m) return null;
  return { index: m.index, groups: Array.from(m, (v) => (v === undefined ? null : v)) };
}

const out = input.map((c) => {
  const r = { ...c };
  try { new RegExp(c.pattern, c.flags); } catch (e) { r.error = e.message; return r; }
  r.error = null;
  if (c.text !== undefined) {
    const t = transform(c);
    r.result = t.result; r.matches = t.matches;
    r.exec = execInfo(c);
  }
  return r;
});
process.stdout.write(JSON.stringify(out, null, 0));
