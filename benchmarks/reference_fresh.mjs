// Run the reference (pi-forge's own compiled JavaScript) on issue 14's workloads, for same-run ratios.
//
// pi-forge is not on the npm registry, and its code is reference data that this repository never holds:
// point this driver at a copy of its built `dist/` folder kept OUTSIDE the repository (docs/performance.md,
// "The reference, measured", says which files and how it was obtained). The driver imports only the
// compile path from that folder -- `loader.js` (`loadPromptStacks`) and `compiler.js`
// (`compileSystemPrompt`, `compileMessages`, `createPromptVariableStore`, `resetTurnVariables`,
// `getLatestUserMessage`) -- and builds the runtime from a context file exactly as the conformance
// corpus's reference runner does (spec/context-format.md, "How the reference runner builds the runtime").
//
//   node benchmarks/reference_fresh.mjs --ref DIR check [--cases DIR] [--show 1]
//       every stack case of DIR (default $FORGEC_SHARED_CASES): compile, compare with expected.json,
//       print how many agree (system prompt + messages; and every compared field), and each difference
//       (--show 1: both sides of every differing field); preset cases: the importer's output.
//   node benchmarks/reference_fresh.mjs --ref DIR fresh --inputs DIR [--first K] [--rounds N] [--clock cpu] [--json]
//       the fresh-input workload on the folder benchmarks/bench_fresh.py writes (one sub-folder per case
//       with stack.json and context-0.json .. context-N.json): round 0 warms up, rounds K (default 1) to
//       K+N-1 (default: all that follow) are timed, one context file per call. Each call reads and
//       parses the context file and loads the stack folder (read, parse, normalise, validate), then
//       compiles the system prompt and the messages.
//   node benchmarks/reference_fresh.mjs --ref DIR scale --stack FILE --context FILE [--calls N] [--json]
//       one scale row: the stack file is loaded on every call (as forgec's row reads it), the context
//       is parsed once before timing ("context already loaded"); a fresh variable store per call.
//   node benchmarks/reference_fresh.mjs --ref DIR import --preset FILE [--calls N] [--json]
//       the SillyTavern conversion (`sillytavern-importer.js`): `convertSillyTavernPreset` on the parsed
//       preset (forgec's `import-convert` row) and `importSillyTavernPreset` (read, parse, convert) plus
//       writing the stack as `JSON.stringify(stack, null, 2)` (the runner's step; ~ forgec's `import-cli`).
//
// DIR may also come from $PI_FORGE_REF. Timing is wall clock (process.hrtime) unless `fresh --clock cpu`
// asks for the process's CPU time; the load average is printed with --json.
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { createHash } from "node:crypto";
import { loadavg, tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

function parseArgs(argv) {
  const args = { _: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a.startsWith("--")) {
      const key = a.slice(2);
      if (key === "json") args.json = true;
      else args[key] = argv[++i];
    } else args._.push(a);
  }
  return args;
}

const args = parseArgs(process.argv.slice(2));
const REF = args.ref ?? process.env.PI_FORGE_REF;
if (!REF) {
  console.error("reference_fresh.mjs: give --ref DIR (or PI_FORGE_REF): a folder holding pi-forge's dist/ (outside this repository)");
  process.exit(2);
}
const DIST = existsSync(join(REF, "dist", "compiler.js")) ? join(REF, "dist") : REF;
for (const name of ["compiler.js", "loader.js"]) {
  if (!existsSync(join(DIST, name))) {
    console.error(`reference_fresh.mjs: ${join(DIST, name)} not found; --ref must name pi-forge's dist/ or its parent`);
    process.exit(2);
  }
}
const compiler = await import(pathToFileURL(join(DIST, "compiler.js")).href);
const loader = await import(pathToFileURL(join(DIST, "loader.js")).href);
const { compileSystemPrompt, compileMessages, createPromptVariableStore, resetTurnVariables, getLatestUserMessage } = compiler;
const { loadPromptStacks } = loader;
// the importer is optional: a copy holding only the compile path still runs `check` (stack cases) and `fresh`
let importerModule;
if (existsSync(join(DIST, "sillytavern-importer.js"))) {
  importerModule = await import(pathToFileURL(join(DIST, "sillytavern-importer.js")).href);
}

const DEFAULT_NOW = "2026-01-01T00:00:00Z";

/** The runtime the conformance runner builds from a parsed context document (context-format.md). */
function buildRuntime(context) {
  const active = (context.tools ?? []).filter((tool) => tool.active !== false);
  const toolSnippets = {};
  for (const tool of active) {
    if (typeof tool.snippet === "string" && tool.snippet) toolSnippets[tool.name] = tool.snippet;
  }
  const cwd = context.cwd ?? "/home/dev/project";
  const options = {
    cwd,
    selectedTools: active.map((tool) => tool.name),
    toolSnippets,
    promptGuidelines: active.flatMap((tool) => tool.guidelines ?? []),
    appendSystemPrompt: context.appendSystemPrompt ?? undefined,
    contextFiles: (context.contextFiles ?? []).map((file) => ({ path: file.path, content: file.content })),
    skills: context.skills ?? [],
  };
  const messages = context.messages ?? [];
  const variables = createPromptVariableStore(context.variables ?? {});
  resetTurnVariables(variables);
  const latestUserMessage = Object.prototype.hasOwnProperty.call(context, "latestUserMessage")
    ? (context.latestUserMessage ?? undefined)
    : getLatestUserMessage(messages);
  const runtime = {
    options,
    ctx: { cwd, model: context.model ?? undefined },
    latestUserMessage,
    now: new Date(context.now ?? DEFAULT_NOW),
    variables,
  };
  return { runtime, messages, baseSystemPrompt: context.baseSystemPrompt ?? "" };
}

/** The process zone, as the runner pins it; changed only when a context names another zone. */
function useZone(context) {
  const zone = context.timezone ?? "UTC";
  if (process.env.TZ !== zone) process.env.TZ = zone;
}

function compileLoaded(stack, context) {
  useZone(context);
  const { runtime, messages, baseSystemPrompt } = buildRuntime(context);
  const system = compileSystemPrompt(stack, runtime, baseSystemPrompt);
  const compiled = compileMessages(stack, runtime, messages);
  return { system, compiled, variables: runtime.variables };
}

/** One call of the fresh workload: read + parse the context, load the stack folder, compile both parts. */
function compileCall(project, contextPath, stackFile = "stack.json") {
  const context = JSON.parse(readFileSync(contextPath, "utf8"));
  const loaded = loadPromptStacks(project);
  const main = loaded.find((entry) => basename(entry.filePath) === stackFile);
  return { loaded: main, ...compileLoaded(main.stack, context) };
}

function stackFolder(project) {
  return join(project, ".pi", "forge", "prompt-stacks");
}

// --- check: agreement with the corpus -------------------------------------------------------------

function canonical(value) {
  // JSON round trip (drops undefined as the corpus does), then keys sorted at every level
  const sortKeys = (v) => {
    if (Array.isArray(v)) return v.map(sortKeys);
    if (v && typeof v === "object") {
      const out = {};
      for (const key of Object.keys(v).sort()) out[key] = sortKeys(v[key]);
      return out;
    }
    return v;
  };
  return JSON.stringify(sortKeys(JSON.parse(JSON.stringify(value ?? null))));
}

/** The clock frozen at `iso` while `fn` runs (the runner freezes `Date`; the importer stamps `convertedAt`). */
function withFrozenClock(iso, fn) {
  const RealDate = globalThis.Date;
  const frozen = new RealDate(iso).getTime();
  class FrozenDate extends RealDate {
    constructor(...a) {
      if (a.length === 0) super(frozen);
      else super(...a);
    }
    static now() {
      return frozen;
    }
  }
  globalThis.Date = FrozenDate;
  try {
    return fn();
  } finally {
    globalThis.Date = RealDate;
  }
}

/** "" when the importer's {stack, report} (or {error}) equals the case's `import`, else what differs. */
function checkPreset(dir) {
  const importer = loadImporter();
  const expected = JSON.parse(readFileSync(join(dir, "expected.json"), "utf8")).import;
  const options = existsSync(join(dir, "import.json")) ? JSON.parse(readFileSync(join(dir, "import.json"), "utf8")) : {};
  const context = JSON.parse(readFileSync(join(dir, "context.json"), "utf8"));
  const project = mkdtempSync(join(tmpdir(), "refimport-"));
  try {
    const path = join(project, options.fileName ?? "preset.json");
    copyFileSync(join(dir, "preset.json"), path);
    useZone(context);
    const result = withFrozenClock(context.now ?? DEFAULT_NOW, () => importer.importSillyTavernPreset(path, options.characterId));
    const got = JSON.parse(JSON.stringify(result).split(project).join("<project>"));
    const parts = ["error", "stack", "report"].filter((key) => canonical(got[key]) !== canonical(expected?.[key]));
    return parts.join(", ");
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
}

function loadImporter() {
  if (!importerModule) throw new Error("the SillyTavern importer is not loaded");
  return importerModule;
}

function check(casesDir, show = false) {
  const names = readdirSync(casesDir).sort();
  let stackCases = 0;
  let presetCases = 0;
  let presetSame = 0;
  let core = 0;
  let full = 0;
  const fieldMisses = {};
  const differing = [];
  for (const name of names) {
    const dir = join(casesDir, name);
    if (existsSync(join(dir, "preset.json"))) {
      presetCases++;
      const verdict = checkPreset(dir);
      if (verdict === "") presetSame++;
      else differing.push(`${name}: import ${verdict}`);
      continue;
    }
    if (!existsSync(join(dir, "stack.json"))) continue;
    const meta = existsSync(join(dir, "case.json")) ? JSON.parse(readFileSync(join(dir, "case.json"), "utf8")) : {};
    const stackFile = meta.stackFile ?? "stack.json"; // the name the runner gives the file on disk
    stackCases++;
    const expected = JSON.parse(readFileSync(join(dir, "expected.json"), "utf8"));
    const project = mkdtempSync(join(tmpdir(), "refcheck-"));
    try {
      const folder = stackFolder(project);
      mkdirSync(folder, { recursive: true });
      copyFileSync(join(dir, "stack.json"), join(folder, stackFile));
      const extra = join(dir, "extra-stacks");
      if (existsSync(extra)) for (const f of readdirSync(extra)) copyFileSync(join(extra, f), join(folder, f));
      const got = compileCall(project, join(dir, "context.json"), stackFile);
      const fields = {
        "system.prompt": [got.system.systemPrompt, expected.system?.prompt],
        "messages.messages": [got.compiled.messages, expected.messages?.messages],
        "system.diagnostics": [got.system.diagnostics, expected.system?.diagnostics],
        "messages.diagnostics": [got.compiled.diagnostics, expected.messages?.diagnostics],
        "messages.sources": [got.compiled.messageSources, expected.messages?.sources],
        variables: [got.variables, expected.variables],
        "validation.diagnostics": [got.loaded.diagnostics, expected.validation?.diagnostics],
        "validation.stack": [got.loaded.stack, expected.validation?.stack],
      };
      const missed = Object.keys(fields).filter((key) => canonical(fields[key][0]) !== canonical(fields[key][1]));
      if (!missed.includes("system.prompt") && !missed.includes("messages.messages")) core++;
      if (missed.length === 0) full++;
      else differing.push(`${name}: ${missed.join(", ")}`);
      for (const key of missed) fieldMisses[key] = (fieldMisses[key] ?? 0) + 1;
      if (show) {
        for (const key of missed) {
          differing.push(`${name} ${key}\n      reference: ${canonical(fields[key][0]).slice(0, 1500)}\n      corpus:    ${canonical(fields[key][1]).slice(0, 1500)}`);
        }
      }
    } catch (error) {
      differing.push(`${name}: threw ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  }
  console.log(`${stackCases} stack cases in ${casesDir}`);
  console.log(`  system prompt and messages identical: ${core} of ${stackCases}`);
  console.log(`  every compared field identical:       ${full} of ${stackCases}`);
  console.log(`  cases differing per field: ${JSON.stringify(fieldMisses)}`);
  if (presetCases > 0) console.log(`${presetCases} preset cases: import (stack and report, or error) identical: ${presetSame} of ${presetCases}`);
  for (const line of differing) console.log(`  - ${line}`);
}

// --- fresh: the timed workload --------------------------------------------------------------------

function fresh(inputs, first, rounds, json, cpu = false) {
  const cases = readdirSync(inputs).sort().filter((name) => existsSync(join(inputs, name, "stack.json")));
  for (const name of cases) {
    // the loader reads a project's stack folder: lay the case's stack file there (setup, not timed)
    const folder = stackFolder(join(inputs, name));
    mkdirSync(folder, { recursive: true });
    copyFileSync(join(inputs, name, "stack.json"), join(folder, "stack.json"));
  }
  const available = Math.min(...cases.map((name) => readdirSync(join(inputs, name)).filter((f) => /^context-\d+\.json$/.test(f)).length));
  const timedRounds = Math.min(rounds ?? available - first, available - first);
  if (first < 1 || timedRounds < 1) throw new Error(`${inputs}: need context-0.json (warm-up) and context-${first}.json onwards per case`);
  const call = (r) => {
    for (const name of cases) compileCall(join(inputs, name), join(inputs, name, `context-${r}.json`));
  };
  call(0); // warm-up round: module load, JIT, the zone cache
  // wall clock, or with --clock cpu the process's CPU time (user + system, every thread: GC helpers too),
  // the same measure as Python's time.process_time() on the forgec side
  const cpuSeconds = () => {
    const usage = process.cpuUsage();
    return (usage.user + usage.system) / 1e6;
  };
  const clock = cpu ? cpuSeconds : () => Number(process.hrtime.bigint()) / 1e9;
  const times = [];
  for (let r = first; r < first + timedRounds; r++) {
    const start = clock();
    call(r);
    times.push(clock() - start);
  }
  times.sort((a, b) => a - b);
  const n = cases.length;
  const result = {
    cases: n,
    rounds: timedRounds,
    best: n / times[0],
    median: n / times[Math.floor(times.length / 2)],
    // sustained: every timed call over the time of all rounds (garbage collection included)
    sustained: (n * times.length) / times.reduce((a, b) => a + b, 0),
    best_ms: times[0] * 1000,
    load: loadavg()[0],
  };
  if (json) console.log(JSON.stringify(result));
  else {
    console.log(`${n} stack cases, fresh context per call, reference (pi-forge dist under Node ${process.version})`);
    console.log(`  best round:   ${Math.round(result.best).toLocaleString("en-US")} cases/s (${result.best_ms.toFixed(1)} ms per corpus)`);
    console.log(`  median round: ${Math.round(result.median).toLocaleString("en-US")} cases/s`);
  }
}

// --- scale: one row, context already loaded -------------------------------------------------------

function scale(stackPath, contextPath, calls, json) {
  const project = mkdtempSync(join(tmpdir(), "refscale-"));
  try {
    const folder = stackFolder(project);
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, "stack.json"), readFileSync(stackPath));
    const context = JSON.parse(readFileSync(contextPath, "utf8"));
    const run = () => {
      const main = loadPromptStacks(project).find((entry) => basename(entry.filePath) === "stack.json");
      return compileLoaded(main.stack, context);
    };
    const first = run();
    const times = [];
    for (let i = 0; i < calls; i++) {
      const start = process.hrtime.bigint();
      run();
      times.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
    times.sort((a, b) => a - b);
    const result = {
      best_ms: times[0],
      median_ms: times[Math.floor(times.length / 2)],
      // sha256 of {prompt, messages} as compact JSON with sorted keys: benchmarks/bench_reference_scale.py
      // computes the same from forgec's report, so a row's two sides are shown to produce the same text
      digest: createHash("sha256")
        .update(canonical({ prompt: first.system.systemPrompt, messages: first.compiled.messages }))
        .digest("hex"),
      messages: first.compiled.messages.length,
      system_chars: first.system.systemPrompt.length,
      load: loadavg()[0],
    };
    if (json) console.log(JSON.stringify(result));
    else console.log(`reference: best ${result.best_ms.toFixed(1)} ms  median ${result.median_ms.toFixed(1)} ms  (${result.messages} messages out)`);
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
}

// --- import: the SillyTavern conversion of one preset ---------------------------------------------

function importRow(presetPath, calls, json) {
  const importer = loadImporter();
  const raw = JSON.parse(readFileSync(presetPath, "utf8"));
  const convert = () => importer.convertSillyTavernPreset(raw, { sourceName: presetPath, sourcePath: presetPath, characterId: 100001 });
  const whole = () => {
    const result = importer.importSillyTavernPreset(presetPath, 100001);
    return result.stack ? JSON.stringify(result.stack, null, 2) + result.report : result.error;
  };
  const first = convert();
  if (first.error) throw new Error(`import failed: ${first.error}`);
  const timeIt = (fn) => {
    fn();
    const times = [];
    for (let i = 0; i < calls; i++) {
      const start = process.hrtime.bigint();
      fn();
      times.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
    times.sort((a, b) => a - b);
    return { best_ms: times[0], median_ms: times[Math.floor(times.length / 2)] };
  };
  // digest of {stack, report} with the clock stamp pinned to the epoch, as forgec's row converts (now_ms=0)
  const pinned = { stack: { ...first.stack, import: { ...first.stack.import, convertedAt: new Date(0).toISOString() } }, report: first.report };
  const digest = createHash("sha256").update(canonical(pinned)).digest("hex");
  const result = { convert: timeIt(convert), whole: timeIt(whole), digest, items: first.stack.items.length, load: loadavg()[0] };
  if (json) console.log(JSON.stringify(result));
  else {
    console.log(`reference import of ${basename(presetPath)} (${result.items} items)`);
    console.log(`  convert: best ${result.convert.best_ms.toFixed(1)} ms  median ${result.convert.median_ms.toFixed(1)} ms`);
    console.log(`  read + parse + convert + write: best ${result.whole.best_ms.toFixed(1)} ms  median ${result.whole.median_ms.toFixed(1)} ms`);
  }
}

const [command] = args._;
if (command === "check") check(resolve(args.cases ?? process.env.FORGEC_SHARED_CASES ?? "tests/conformance/cases"), args.show === "1");
else if (command === "fresh") {
  if (!args.inputs) throw new Error("fresh needs --inputs DIR (the folder bench_fresh.py writes)");
  fresh(resolve(args.inputs), Number(args.first ?? 1), args.rounds ? Number(args.rounds) : undefined, args.json, args.clock === "cpu");
} else if (command === "scale") {
  if (!args.stack || !args.context) throw new Error("scale needs --stack FILE --context FILE");
  scale(resolve(args.stack), resolve(args.context), Number(args.calls ?? 10), args.json);
} else if (command === "import") {
  if (!args.preset) throw new Error("import needs --preset FILE");
  importRow(resolve(args.preset), Number(args.calls ?? 10), args.json);
} else {
  console.error("usage: node benchmarks/reference_fresh.mjs --ref DIR check|fresh|scale|import ... (see the header)");
  process.exit(2);
}
