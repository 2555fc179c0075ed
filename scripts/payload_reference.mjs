// Build provider payloads with the reference's own code (Pi SDK 0.83.0: pi-ai, pi-coding-agent's
// convertToLlm) the way conformance.md's reference runner does, for scripts/gen_payload_shapes.py.
//
// Needs the three packages at 0.83.0 in a scratch folder, and Node v20.20.2 (the reference's engine):
//
//   cd "$(mktemp -d)" && npm install --ignore-scripts @earendil-works/pi-ai@0.83.0 \
//       @earendil-works/pi-agent-core@0.83.0 @earendil-works/pi-coding-agent@0.83.0
//   PI_REF_DIR=$PWD python scripts/gen_payload_shapes.py
//
// stdin: [{id, systemPrompt, messages, tools, thinkingLevel}]; stdout: [{id, payloads: {api: entry}}],
// each entry `{thinkingLevel, body}` or `{thinkingLevel, error}` (the text Pi records).  The error is
// the message of whatever pi-ai throws: synchronously from `streamSimple` (the token estimate) or in
// the stream before `onPayload` (the converters), which ends as the turn's `errorMessage`.
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const ROOT = process.env.PI_REF_DIR;
if (!ROOT) throw new Error("set PI_REF_DIR to a folder with @earendil-works/pi-ai@0.83.0 installed");
const mod = (rel) => import(pathToFileURL(join(ROOT, "node_modules", rel)).href);
// pi-coding-agent's index pulls in a Node 22 HTTP stack; the converter module alone is what Pi runs
const { convertToLlm } = await mod("@earendil-works/pi-coding-agent/dist/core/messages.js");
const { builtinModels, getBuiltinModel } = await mod("@earendil-works/pi-ai/dist/providers/all.js");
const { clampThinkingLevel } = await mod("@earendil-works/pi-ai/dist/index.js");
const version = (await import(pathToFileURL(join(ROOT, "node_modules/@earendil-works/pi-ai/package.json")).href, {
  with: { type: "json" },
})).default.version;
if (version !== "0.83.0") throw new Error(`pi-ai ${version} installed, 0.83.0 expected`);

for (const key of ["ANTHROPIC_API_KEY", "GEMINI_API_KEY", "OPENROUTER_API_KEY", "OPENAI_API_KEY"]) {
  process.env[key] = "dummy-key";
}
const TARGETS = [
  ["anthropic-messages", "anthropic", "claude-sonnet-4-5"],
  ["google-generative-ai", "google", "gemini-2.5-pro"],
  ["openai-completions", "openrouter", "google/gemini-2.5-flash"],
  ["openai-responses", "openai", "gpt-5.1"],
];
const models = builtinModels();
const RECORDED = "payload recorded";

async function payload(model, input) {
  const level = clampThinkingLevel(model, input.thinkingLevel ?? "off");
  const tools = (input.tools ?? [])
    .filter((t) => t.active !== false)
    .map((t) => ({
      name: t.name,
      label: t.name,
      description: t.description ?? "",
      parameters: t.parameters ?? { type: "object", properties: {} },
    }));
  const entry = { thinkingLevel: level };
  let body;
  try {
    const messages = await convertToLlm(structuredClone(input.messages));
    const context = { systemPrompt: input.systemPrompt, messages, tools };
    const options = {
      sessionId: "01950000-0000-7000-8000-000000000000",
      signal: new AbortController().signal,
      transport: "auto",
      onPayload: (params) => {
        const copy = { ...params };
        if (copy.config) copy.config = { ...copy.config, abortSignal: undefined };
        body = JSON.parse(JSON.stringify(copy));
        throw new Error(RECORDED);
      },
    };
    if (level !== "off") options.reasoning = level;
    const result = await models.streamSimple(model, context, options).result();
    if (body === undefined) entry.error = result.errorMessage;
  } catch (error) {
    entry.error = error instanceof Error ? error.message : String(error);
  }
  if (body !== undefined) {
    delete entry.error;
    entry.body = body;
  }
  return entry;
}

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const out = [];
for (const input of JSON.parse(Buffer.concat(chunks).toString("utf8"))) {
  const payloads = {};
  for (const [api, provider, id] of TARGETS) payloads[api] = await payload(getBuiltinModel(provider, id), input);
  out.push({ id: input.id, payloads });
}
process.stdout.write(JSON.stringify(out));
