// The root collation's order of symbols, punctuation, separators and controls, measured in the
// reference engine (Node v20.20.2, ICU 78.2) with Intl.Collator("en-US") -- for forgec's collation
// fallback where PyICU is not installed (forgec/js/collation.py).  Run: node scripts/gen_collation_symbols.mjs
//
// Output: forgec/js/collation_symbols.txt, one line per primary weight in ascending order, each line
// the code points (hex) sharing it; a first line "#ignorable" lists those the collator ignores entirely.
import { writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

if (process.version !== "v20.20.2" || process.versions.icu !== "78.2") {
  throw new Error(`run this with the reference engine (Node v20.20.2, ICU 78.2), not ${process.version}/${process.versions.icu}`);
}
const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const full = new Intl.Collator("en-US").compare;
const base = new Intl.Collator("en-US", { sensitivity: "base" }).compare;
const wanted = /^[\p{P}\p{S}\p{Z}\p{Cc}\p{Cf}]$/u;
const chars = [];
const ignorable = [];
for (let c = 0; c <= 0x10ffff; c++) {
  if (c >= 0xd800 && c <= 0xdfff) continue;
  const s = String.fromCodePoint(c);
  if (!wanted.test(s) || s.normalize("NFKD") !== s) continue; // compatibility forms are decomposed first
  if (full(s, "") === 0) ignorable.push(c);
  else chars.push(s);
}
chars.sort((a, b) => full(a, b) || a.codePointAt(0) - b.codePointAt(0));
const lines = [`#ignorable\t${ignorable.map((c) => c.toString(16)).join(" ")}`];
let group = [];
for (const s of chars) {
  if (group.length && base(group[0], s) !== 0) { lines.push(group.map((x) => x.codePointAt(0).toString(16)).join(" ")); group = []; }
  group.push(s);
}
if (group.length) lines.push(group.map((x) => x.codePointAt(0).toString(16)).join(" "));
// secondary weights: every combining mark in the order the collator ranks "o" + mark (a mark's weight
// does not depend on its base), and where the Latin letters without a decomposition fall among them
const marks = [];
for (let c = 0; c <= 0x10ffff; c++) {
  if (c >= 0xd800 && c <= 0xdfff) continue;
  const s = String.fromCodePoint(c);
  if (/^\p{M}$/u.test(s) && s.normalize("NFD") === s && full("o" + s, "o") !== 0) marks.push(s);
}
marks.sort((a, b) => full("o" + a, "o" + b) || a.codePointAt(0) - b.codePointAt(0));
const markLines = [];
for (const m of marks) {
  const last = markLines[markLines.length - 1];
  if (last && full("o" + last[0], "o" + m) === 0) last.push(m); else markLines.push([m]);
}
lines.push(`#marks\t${markLines.map((g) => g.map((m) => m.codePointAt(0).toString(16)).join(",")).join(" ")}`);
// for each special letter: how many mark groups sort before it on its base letter
const SPECIAL = { "ø": "o", "Ø": "O", "đ": "d", "Đ": "D", "ł": "l", "Ł": "L", "ħ": "h", "Ħ": "H" };
const special = Object.entries(SPECIAL).map(([letter, baseLetter]) => {
  const before = markLines.filter((g) => full(baseLetter + g[0], letter) < 0).length;
  return `${letter.codePointAt(0).toString(16)}=${before}`;
});
lines.push(`#special\t${special.join(" ")}`);
writeFileSync(join(ROOT, "forgec", "js", "collation_symbols.txt"), lines.join("\n") + "\n");
console.log(`${chars.length} characters in ${lines.length - 1} primary weights, ${ignorable.length} ignorable`);
