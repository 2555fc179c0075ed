// Generate forgec's Unicode data from the reference engine itself (Node v20.20.2: V8 11.3, ICU 78.2,
// Unicode 17.0).  forgec never runs Node; it reads what this script wrote:
//
//   forgec/js/unicode17.txt         the runtime tables (property ranges, accepted names, case folding
//                                   orbits, case mappings, identifier characters)
//   tests/js/unicode17_vectors.txt  further recorded behaviour the tests compare forgec with (iu closures
//                                   of every property, \w/\b/\s, trim, final sigma probes)
//
// Every answer is *measured* in V8 (a RegExp, toUpperCase, trim…), never copied from a UCD file, so the
// tables are what the reference does.  The only outside input is the list of candidate property names,
// from the Unicode 17 alias packages (each candidate is kept only if V8 accepts it):
//
//   cd "$(mktemp -d)" && npm install unicode-property-value-aliases-ecmascript@2.2.1 \
//       unicode-property-aliases-ecmascript@3.0.0 && NODE_PATH=$PWD/node_modules \
//       node /path/to/forgec/scripts/gen_unicode17.mjs
//
// Encoding (both files): one record per line, `key<TAB>value`.  A range list is a space-separated list of
// base-36 numbers, alternating "gap from the end of the previous range" and "length - 1", so
// [(0x41,0x5a),(0x61,0x7a)] is "1t p 6 p".  A mapping list is runs "start count stride delta" in base 36
// (delta signed), each run mapping start + k*stride to itself + delta.

import { createRequire } from "node:module";
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const require = createRequire(import.meta.url);
const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const TOP = 0x10ffff;
const EXPECT = { node: "v20.20.2", icu: "78.2", unicode: "17.0" };
for (const [k, v] of Object.entries(EXPECT)) {
  const got = k === "node" ? process.version : process.versions[k];
  if (got !== v) throw new Error(`run this with the reference engine: ${k} is ${got}, not ${v}`);
}

// --- the subject: every code point once, lone surrogates in an order that never forms a pair -----------
// blocks: 0..D7FF, DC00..DFFF, D800..DBFF, E000..10FFFF (a low surrogate never follows a high one)
const BLOCKS = [[0, 0xd7ff], [0xdc00, 0xdfff], [0xd800, 0xdbff], [0xe000, TOP]];
const pieces = [];
for (const [lo, hi] of BLOCKS) for (let c = lo; c <= hi; c++) pieces.push(String.fromCodePoint(c));
const SUBJECT = pieces.join("");
const unitCp = new Int32Array(SUBJECT.length + 1);
{
  let u = 0;
  for (const [lo, hi] of BLOCKS) for (let c = lo; c <= hi; c++) { unitCp[u++] = c; if (c > 0xffff) unitCp[u++] = c; }
  unitCp[u] = -1;
}

function normalize(ranges) {
  ranges.sort((a, b) => a[0] - b[0]);
  const out = [];
  for (const [lo, hi] of ranges) {
    if (out.length && lo <= out[out.length - 1][1] + 1) out[out.length - 1][1] = Math.max(out[out.length - 1][1], hi);
    else out.push([lo, hi]);
  }
  return out;
}

/** The code points a one-character class matches, as ranges (runs of the subject, split at block edges). */
function membersOf(cls, flags) {
  const re = new RegExp(`(?:${cls})+`, `g${flags}`);
  const ranges = [];
  for (const m of SUBJECT.matchAll(re)) {
    let i = m.index;
    const end = i + m[0].length;
    while (i < end) {
      const start = unitCp[i];
      let block = BLOCKS.find(([lo, hi]) => lo <= start && start <= hi);
      // the run stays in this block until it ends or the block does
      let last = start;
      let j = i;
      while (j < end && unitCp[j] >= block[0] && unitCp[j] <= block[1]) { last = unitCp[j]; j += last > 0xffff ? 2 : 1; }
      ranges.push([start, last]);
      i = j;
    }
  }
  return normalize(ranges);
}

function encodeRanges(ranges) {
  const out = [];
  let prev = -1;
  for (const [lo, hi] of ranges) { out.push((lo - prev - 1).toString(36), (hi - lo).toString(36)); prev = hi; }
  return out.join(" ");
}

function encodeMap(map) { // Map<int,int> -> runs "start count stride delta"
  const keys = [...map.keys()].sort((a, b) => a - b);
  const runs = [];
  let i = 0;
  while (i < keys.length) {
    const start = keys[i];
    const delta = map.get(start) - start;
    let best = 1, bestStride = 1;
    for (const stride of [1, 2]) {
      let n = 1;
      while (i + n < keys.length && keys[i + n] === start + n * stride && map.get(keys[i + n]) - keys[i + n] === delta) n++;
      if (n > best) { best = n; bestStride = stride; }
    }
    runs.push([start, best, bestStride, delta].map((x) => x.toString(36)).join(" "));
    i += best;
  }
  return runs.join(" ");
}

const sameRanges = (a, b) => a.length === b.length && a.every((r, i) => r[0] === b[i][0] && r[1] === b[i][1]);
const accepts = (src, flags = "u") => { try { new RegExp(src, flags); return true; } catch { return false; } };
const union = (...lists) => normalize(lists.flat().map((r) => [...r]));
const complement = (ranges) => {
  const out = [];
  let next = 0;
  for (const [lo, hi] of ranges) { if (lo > next) out.push([next, lo - 1]); next = hi + 1; }
  if (next <= TOP) out.push([next, TOP]);
  return out;
};
const intersect = (a, b) => { // ranges in both (both normalised)
  const out = [];
  let i = 0, j = 0;
  while (i < a.length && j < b.length) {
    const lo = Math.max(a[i][0], b[j][0]), hi = Math.min(a[i][1], b[j][1]);
    if (lo <= hi) out.push([lo, hi]);
    if (a[i][1] < b[j][1]) i++; else j++;
  }
  return out;
};
const minus = (a, b) => intersect(a, complement(b)); // ranges of a not in b
const t0 = Date.now();
const log = (what) => console.error(`${((Date.now() - t0) / 1000).toFixed(1)}s ${what}`);

const runtime = [];
const vectors = [];
const header = `forgec Unicode ${EXPECT.unicode} data, measured in Node ${process.version} (V8 ${process.versions.v8}, ICU ${process.versions.icu}, Unicode ${process.versions.unicode}) by scripts/gen_unicode17.mjs; do not edit`;
runtime.push(`#\t${header}`, `unicode\t${process.versions.unicode}`, `icu\t${process.versions.icu}`, `node\t${process.version}`);
vectors.push(`#\t${header}`, `unicode\t${process.versions.unicode}`);

// --- property names V8 accepts, and their members ----------------------------------------------------
const valueAliases = require("unicode-property-value-aliases-ecmascript");
const propAliases = (await import(pathToFileURL(require.resolve("unicode-property-aliases-ecmascript")).href)).default;

const GC_LEAVES = ["Lu", "Ll", "Lt", "Lm", "Lo", "Mn", "Mc", "Me", "Nd", "Nl", "No", "Pc", "Pd", "Ps", "Pe", "Pi", "Pf",
  "Po", "Sm", "Sc", "Sk", "So", "Zs", "Zl", "Zp", "Cc", "Cf", "Cs", "Co", "Cn"];
const GC_GROUPS = { L: "Lu Ll Lt Lm Lo", LC: "Lu Ll Lt", M: "Mn Mc Me", N: "Nd Nl No", P: "Pc Pd Ps Pe Pi Pf Po",
  S: "Sm Sc Sk So", Z: "Zs Zl Zp", C: "Cc Cf Cs Co Cn" };

// general categories: name -> canonical short name; ranges of the leaves (groups are unions, checked)
const gcNames = new Map();
for (const [alias, canonical] of valueAliases.get("General_Category")) {
  for (const name of new Set([alias, canonical])) {
    if (accepts(`\\p{${name}}`) && accepts(`\\p{gc=${name}}`) && accepts(`\\p{General_Category=${name}}`)) gcNames.set(name, canonical);
    else if (accepts(`\\p{gc=${name}}`)) throw new Error(`gc=${name} accepted only in part`);
  }
}
const gcLong = new Map(); // canonical long name -> short key
for (const [alias, canonical] of valueAliases.get("General_Category")) if ([...GC_LEAVES, ...Object.keys(GC_GROUPS)].includes(alias)) gcLong.set(canonical, alias);
const gcRanges = new Map();
for (const leaf of GC_LEAVES) gcRanges.set(leaf, membersOf(`\\p{gc=${leaf}}`, "u"));
for (const [group, leaves] of Object.entries(GC_GROUPS)) {
  const expected = union(...leaves.split(" ").map((l) => gcRanges.get(l)));
  if (!sameRanges(membersOf(`\\p{${group}}`, "u"), expected)) throw new Error(`gc group ${group} is not the union of ${leaves}`);
}
for (const leaf of GC_LEAVES) runtime.push(`gc.${leaf}\t${encodeRanges(gcRanges.get(leaf))}`);
runtime.push(`names.gc\t${[...gcNames].map(([a, c]) => `${a}=${gcLong.get(c)}`).sort().join(" ")}`);
for (const [name, canonical] of gcNames) {
  const key = gcLong.get(canonical);
  const want = GC_GROUPS[key] ? union(...GC_GROUPS[key].split(" ").map((l) => gcRanges.get(l))) : gcRanges.get(key);
  if (!sameRanges(membersOf(`\\p{${name}}`, "u"), want)) throw new Error(`gc alias ${name} differs from ${key}`);
}

log("general categories");
// scripts: Script and Script_Extensions accept the same names
const scNames = new Map();
for (const [alias, canonical] of valueAliases.get("Script")) {
  for (const name of new Set([alias, canonical])) {
    const sc = accepts(`\\p{sc=${name}}`) && accepts(`\\p{Script=${name}}`);
    const scx = accepts(`\\p{scx=${name}}`) && accepts(`\\p{Script_Extensions=${name}}`);
    if (sc !== scx) throw new Error(`script ${name}: sc ${sc}, scx ${scx}`);
    if (sc) scNames.set(name, canonical);
  }
}
const scripts = [...new Set(scNames.values())].sort();
for (const script of scripts) {
  const sc = membersOf(`\\p{sc=${script}}`, "u");
  const scx = membersOf(`\\p{scx=${script}}`, "u");
  runtime.push(`sc.${script}\t${encodeRanges(sc)}`);
  if (!sameRanges(sc, scx)) runtime.push(`scx.${script}\t${encodeRanges(scx)}`);
}
for (const [name, canonical] of scNames) {
  if (name !== canonical && !sameRanges(membersOf(`\\p{sc=${name}}`, "u"), membersOf(`\\p{sc=${canonical}}`, "u"))) {
    throw new Error(`script alias ${name} differs from ${canonical}`);
  }
}
runtime.push(`names.sc\t${[...scNames].map(([a, c]) => `${a}=${c}`).sort().join(" ")}`);

log("scripts");
// binary properties (lone names that are not general categories)
const binNames = new Map();
for (const [alias, canonical] of [...propAliases, ...["Any", "ASCII", "Assigned"].map((n) => [n, n])]) {
  for (const name of new Set([alias, canonical])) {
    if (accepts(`\\p{${name}}`) && !gcNames.has(name)) binNames.set(name, canonical);
  }
}
for (const name of binNames.keys()) if (binNames.get(name) !== name && !binNames.has(binNames.get(name))) throw new Error(name);
const binaries = [...new Set(binNames.values())].sort();
// Any, ASCII and Assigned are derived by forgec (everything, 0..7F, not Cn): recorded for the tests only
const DERIVED = { Any: [[0, TOP]], ASCII: [[0, 0x7f]], Assigned: complement(gcRanges.get("Cn")) };
for (const prop of binaries) {
  const members = membersOf(`\\p{${prop}}`, "u");
  if (DERIVED[prop]) {
    if (!sameRanges(members, DERIVED[prop])) throw new Error(`${prop} is not what forgec derives`);
    vectors.push(`bin.${prop}\t${encodeRanges(members)}`);
  } else runtime.push(`bin.${prop}\t${encodeRanges(members)}`);
}
for (const [name, canonical] of binNames) {
  if (name !== canonical && !sameRanges(membersOf(`\\p{${name}}`, "u"), membersOf(`\\p{${canonical}}`, "u"))) {
    throw new Error(`binary alias ${name} differs from ${canonical}`);
  }
}
runtime.push(`names.bin\t${[...binNames].map(([a, c]) => `${a}=${c}`).sort().join(" ")}`);
// names that look like properties but V8 refuses (the tests check forgec refuses them too)
const refused = [];
for (const [prop, values] of valueAliases) {
  if (prop === "General_Category" || prop === "Script" || prop === "Script_Extensions") continue;
  for (const [alias] of values) if (!accepts(`\\p{${prop}=${alias}}`)) refused.push(`${prop}=${alias}`);
}
for (const [alias, canonical] of propAliases) if (!binNames.has(alias) && !["gc", "sc", "scx"].includes(alias)) refused.push(alias, canonical);
refused.push("sc=Chis", "Script=Unknown_Script", "gc=L&", "gc=Lc", "lu", "l", "Alpha=Yes", "sc=latin", "Block=Basic_Latin");
vectors.push(`refused\t${[...new Set(refused)].filter((n) => !accepts(`\\p{${n}}`)).sort().join(" ")}`);

log("binary");
// what `i` adds to each property (and to its complement): ECMAScript closes a class over case
const allProps = [
  ...GC_LEAVES.map((n) => `gc=${n}`), ...Object.keys(GC_GROUPS).map((n) => `gc=${n}`),
  ...scripts.flatMap((s) => [`sc=${s}`, `scx=${s}`]), ...binaries,
];
for (const prop of allProps) {
  const plain = membersOf(`\\p{${prop}}`, "u");
  const iu = membersOf(`\\p{${prop}}`, "iu");
  const niu = membersOf(`\\P{${prop}}`, "iu");
  const extra = minus(iu, plain);
  const nextra = minus(niu, complement(plain));
  if (minus(plain, iu).length || minus(complement(plain), niu).length) throw new Error(`iu lost members of ${prop}`);
  vectors.push(`iu.${prop}\t${encodeRanges(extra)}`, `niu.${prop}\t${encodeRanges(nextra)}`);
}

log("iu closures");
// --- case-insensitive equivalence: `iu` over code points, `i` over UTF-16 units ----------------------
function orbits(unicode) {
  const top = unicode ? TOP : 0xffff;
  const parent = new Int32Array(top + 1).map((_, i) => i);
  const find = (x) => { while (parent[x] !== x) { parent[x] = parent[parent[x]]; x = parent[x]; } return x; };
  const join = (a, b) => { a = find(a); b = find(b); if (a !== b) parent[Math.max(a, b)] = Math.min(a, b); };
  const byString = new Map();
  const ch = (c) => (unicode ? String.fromCodePoint(c) : String.fromCharCode(c));
  for (let c = 0; c <= top; c++) {
    if (c >= 0xd800 && c <= 0xdfff) continue;
    const s = ch(c);
    for (const mapped of [s.toUpperCase(), s.toLowerCase()]) {
      const units = unicode ? [...mapped] : mapped.split("");
      if (units.length === 1) { const d = unicode ? mapped.codePointAt(0) : mapped.charCodeAt(0); if (d <= top) join(c, d); }
      else { const other = byString.get(mapped); if (other === undefined) byString.set(mapped, c); else join(c, other); }
    }
  }
  const groups = new Map();
  for (let c = 0; c <= top; c++) { const r = find(c); if (r !== c) { if (!groups.has(r)) groups.set(r, [r]); groups.get(r).push(c); } }
  const esc = (c) => (unicode ? `\\u{${c.toString(16)}}` : `\\u${c.toString(16).padStart(4, "0")}`);
  const flags = unicode ? "iu" : "i";
  const classes = [];
  for (const members of groups.values()) {
    const pending = [...members];
    while (pending.length) {
      const c = pending.shift();
      const re = new RegExp(`^${esc(c)}$`, flags);
      const cls = [c, ...pending.filter((d) => re.test(ch(d)))];
      for (const d of cls) if (pending.includes(d)) pending.splice(pending.indexOf(d), 1);
      for (const d of cls) {
        const back = new RegExp(`^${esc(d)}$`, flags);
        for (const e of members) if (back.test(ch(e)) !== cls.includes(e)) throw new Error(`not an equivalence: ${c} ${d} ${e}`);
      }
      if (cls.length > 1) classes.push(cls.sort((a, b) => a - b));
    }
  }
  // completeness: the case closure of all members adds nothing, and each class matches only itself
  const members = normalize(classes.flat().map((c) => [c, c]));
  const all = new RegExp(`^[${members.map(([lo, hi]) => esc(lo) + "-" + esc(hi)).join("")}]$`, flags);
  for (let c = 0; c <= top; c++) {
    if (c >= 0xd800 && c <= 0xdfff) continue;
    const inside = members.some(([lo, hi]) => lo <= c && c <= hi);
    if (all.test(ch(c)) !== inside) throw new Error(`orbit search missed ${c.toString(16)}`);
  }
  const flat = classes.flat();
  for (const cls of classes) {
    const re = new RegExp(`^[${cls.map(esc).join("")}]$`, flags);
    for (const d of flat) if (re.test(ch(d)) !== cls.includes(d)) throw new Error(`classes overlap at ${d.toString(16)}`);
  }
  // backreferences compare the same way (V8 folds the captured text and the subject)
  for (const cls of classes) {
    for (const a of cls) {
      const re = new RegExp(`^(${esc(a)})\\1$`, flags);
      for (const b of flat) {
        const same = re.test(ch(a) + ch(b));
        if (same !== cls.includes(b)) throw new Error(`backreference ${a.toString(16)} ~ ${b.toString(16)} is ${same}`);
      }
    }
  }
  return classes.sort((a, b) => a[0] - b[0]);
}
for (const [key, unicode] of [["fold.u", true], ["fold.nonu", false]]) {
  const map = new Map();
  for (const cls of orbits(unicode)) for (const c of cls.slice(1)) map.set(c, cls[0]);
  runtime.push(`${key}\t${encodeMap(map)}`);
}
log("orbits");
// the non-`u` Canonicalize function itself (toUpperCase of one unit, never non-ASCII to ASCII)
{
  const canon = new Map();
  for (let u = 0; u < 0x10000; u++) {
    const up = String.fromCharCode(u).toUpperCase();
    if (up.length === 1) { const cu = up.charCodeAt(0); if (cu !== u && !(u >= 128 && cu < 128)) canon.set(u, cu); }
  }
  runtime.push(`canon.nonu\t${encodeMap(canon)}`);
}

// --- String.prototype.toUpperCase / toLowerCase --------------------------------------------------------
for (const [key, fn] of [["upper", (s) => s.toUpperCase()], ["lower", (s) => s.toLowerCase()]]) {
  const single = new Map();
  const multi = [];
  for (let c = 0; c <= TOP; c++) {
    if (c >= 0xd800 && c <= 0xdfff) continue;
    const s = String.fromCodePoint(c);
    const m = fn(s);
    if (m === s) continue;
    const cps = [...m].map((x) => x.codePointAt(0));
    if (cps.length === 1) single.set(c, cps[0]);
    else multi.push(`${c.toString(36)}:${cps.map((x) => x.toString(36)).join(".")}`);
  }
  runtime.push(`${key}\t${encodeMap(single)}`, `${key}.multi\t${multi.join(" ")}`);
}
log("case maps");
// Final_Sigma: which characters count as cased, and which are skipped as case-ignorable, measured
{
  const cased = [], ignorable = [];
  for (let c = 0; c <= TOP; c++) {
    if (c >= 0xd800 && c <= 0xdfff) continue;
    const s = String.fromCodePoint(c);
    const after = ("A\u03a3" + s).toLowerCase()[1] === "\u03c3"; // followed by a cased letter
    const before = (s + "\u03a3").toLowerCase().endsWith("\u03c2"); // preceded by a cased letter
    const skipped = ("A" + s + "\u03a3").toLowerCase().endsWith("\u03c2");
    if (after !== before) throw new Error(`final sigma probes disagree at ${c.toString(16)}`);
    if (before) cased.push([c, c]);
    else if (skipped) ignorable.push([c, c]);
  }
  // forgec derives both from Cased and Case_Ignorable (ICU's rule: ignorable first, then cased)
  vectors.push(`sigma.cased\t${encodeRanges(normalize(cased))}`, `sigma.ignorable\t${encodeRanges(normalize(ignorable))}`);
  const samples = ["\u03a3", "A\u03a3", "A\u03a3B", "A\u03a3.", "A\u0301\u03a3", "A\u03a3\u0301", "A\u03a3\u0301B",
    "\u03a3\u03a3", "A\u03a3\u03a3", "\u0391\u03a3 \u03a3\u0391\u03a3.", "A'\u03a3'", "1\u03a3", "A\u00ad\u03a3\u00ad",
    "\ud835\udc00\u03a3", "A\u03a3\ud835\udc00", "A\u03a3\ud800", "\ud800\u03a3", "A:\u03a3", "\u1c89\u03a3", "\u0130\u03a3"];
  vectors.push(`sigma.samples\t${samples.map((s) => JSON.stringify([s, s.toLowerCase(), s.toUpperCase()])).join("\t")}`);
}

log("sigma");
// --- identifier characters of group names --------------------------------------------------------------
{
  const start = [], part = [];
  for (let c = 0; c <= TOP; c++) {
    // an escaped ">" ends the name (V8 reads the escape first), so it measures nothing about identifiers
    if ((c >= 0xd800 && c <= 0xdfff) || c === 0x3e) continue;
    const hex = c.toString(16);
    const s = accepts(`(?<\\u{${hex}}>)`, "");
    const p = accepts(`(?<a\\u{${hex}}>)`, "");
    if (c >= 0x80 && (accepts(`(?<${String.fromCodePoint(c)}>)`, "") !== s || accepts(`(?<a${String.fromCodePoint(c)}>)`, "u") !== p)) {
      throw new Error(`group name literal and escape disagree at ${hex}`);
    }
    if (s) start.push([c, c]);
    if (p) part.push([c, c]);
  }
  // forgec derives both from ID_Start / ID_Continue plus $ and _ (the tests compare)
  vectors.push(`id.start\t${encodeRanges(normalize(start))}`, `id.part\t${encodeRanges(normalize(part))}`);
}

log("identifiers");
// --- recorded behaviour the runtime tables do not hold ---------------------------------------------------
{
  const units = (test) => { const r = []; for (let u = 0; u < 0x10000; u++) if (test(String.fromCharCode(u))) r.push([u, u]); return normalize(r); };
  vectors.push(`trim\t${encodeRanges(units((s) => s.trim() === ""))}`);
  vectors.push(`trimStart\t${encodeRanges(units((s) => s.trimStart() === ""))}`);
  vectors.push(`trimEnd\t${encodeRanges(units((s) => s.trimEnd() === ""))}`);
  for (const [key, cls, flags] of [
    ["s.u", "\\s", "u"], ["w.iu", "\\w", "iu"], ["W.iu", "\\W", "iu"], ["cw.iu", "[\\w]", "iu"], ["ncw.iu", "[^\\w]", "iu"],
    ["cW.iu", "[\\W]", "iu"], ["ncW.iu", "[^\\W]", "iu"], ["w.u", "\\w", "u"], ["W.u", "\\W", "u"], ["d.iu", "\\d", "iu"],
    ["D.iu", "\\D", "iu"], ["dot.u", ".", "u"], ["dot.su", ".", "su"],
  ]) vectors.push(`${key}\t${encodeRanges(membersOf(cls, flags))}`);
  for (const [key, cls, flags] of [["s", "\\s", ""], ["w.i", "\\w", "i"], ["W.i", "\\W", "i"], ["cW.i", "[\\W]", "i"], ["ncW.i", "[^\\W]", "i"]]) {
    const re = new RegExp(`^${cls}$`, flags);
    vectors.push(`${key}\t${encodeRanges(units((s) => re.test(s)))}`);
  }
  const b = [], B = [];
  for (let c = 0; c <= TOP; c++) {
    if (c >= 0xd800 && c <= 0xdfff) continue;
    const s = "." + String.fromCodePoint(c);
    if (/^.\b/iu.test(s)) b.push([c, c]);
    if (/^.\B/iu.test(s)) B.push([c, c]);
  }
  vectors.push(`b.iu\t${encodeRanges(normalize(b))}`, `B.iu\t${encodeRanges(normalize(B))}`);
}

writeFileSync(join(ROOT, "forgec", "js", "unicode17.txt"), runtime.join("\n") + "\n");
writeFileSync(join(ROOT, "tests", "js", "unicode17_vectors.txt"), vectors.join("\n") + "\n");
console.log(`wrote ${runtime.length} runtime records, ${vectors.length} vector records`);
