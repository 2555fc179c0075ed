// forgec ui: the browser side. Plain JavaScript, no build step, no network beyond this server.
// The server holds the files; this page holds the edit state of one stack (`cur`) and asks the
// server for its text (render), its findings, compile and provider body (analyze) and to save.
"use strict";

const $ = (sel, root = document) => root.querySelector(sel);
const el = (tag, attrs = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "text") node.textContent = value;
    else if (value === true) node.setAttribute(key, "");
    else if (value !== false && value !== null && value !== undefined) node.setAttribute(key, value);
  }
  for (const child of children) if (child !== null && child !== undefined) node.append(child);
  return node;
};

let app = null;      // /api/state
let cur = null;      // {ref, file, format, hash, savedText, text, data, writable}
let mode = "form";   // "form" | "raw"
let analyzeTimer = null;
let renderSeq = 0;
let rendering = Promise.resolve();  // the last structured edit's render: saves and the raw view wait for it
let busy = 0;                       // requests and debounced analyses in flight (body[data-busy])

function setBusy(delta) {
  busy += delta;
  document.body.dataset.busy = String(busy);
}

function status(text, isError = false) {
  const node = $("#status");
  node.textContent = text;
  node.classList.toggle("error", isError);
}

async function api(path, body) {
  const init = body === undefined ? {} : {method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)};
  setBusy(1);
  let response, data;
  try {
    response = await fetch(path, init);
    data = await response.json().catch(() => ({error: response.statusText}));
  } finally { setBusy(-1); }
  if (!response.ok) {
    const error = new Error(data.error || response.statusText);
    error.status = response.status;
    error.data = data;
    throw error;
  }
  return data;
}

// --- theme ------------------------------------------------------------------------------------------

function applyTheme(theme) {
  document.documentElement.dataset.theme = theme;
  localStorage.setItem("forgec-theme", theme);
}
$("#theme").addEventListener("click", () => applyTheme(document.documentElement.dataset.theme === "dark" ? "light" : "dark"));
applyTheme(localStorage.getItem("forgec-theme") || (matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light"));

// --- tabs ---------------------------------------------------------------------------------------------

function selectTab(buttons, chosen) {
  for (const button of buttons) button.setAttribute("aria-selected", String(button === chosen));
}
for (const tab of ["stacks", "profiles"]) {
  $(`#tab-${tab}`).addEventListener("click", (event) => {
    selectTab(document.querySelectorAll(".top [role=tab]"), event.currentTarget);
    $("#ws-stacks").hidden = tab !== "stacks";
    $("#ws-profiles").hidden = tab !== "profiles";
  });
}
for (const button of document.querySelectorAll(".results [role=tab]")) {
  button.addEventListener("click", () => {
    selectTab(document.querySelectorAll(".results [role=tab]"), button);
    for (const panel of document.querySelectorAll(".results .panel")) panel.hidden = panel.id !== `panel-${button.dataset.panel}`;
  });
}

// Arrow keys move between the tabs of a tablist (the WAI-ARIA tabs pattern); Enter/Space activate.
for (const list of document.querySelectorAll("[role=tablist]")) {
  list.addEventListener("keydown", (event) => {
    if (event.key !== "ArrowLeft" && event.key !== "ArrowRight") return;
    const tabs = [...list.querySelectorAll("[role=tab]")];
    const next = tabs[(tabs.indexOf(document.activeElement) + (event.key === "ArrowRight" ? 1 : tabs.length - 1)) % tabs.length];
    if (next) { event.preventDefault(); next.focus(); next.click(); }
  });
}

// --- loading the project --------------------------------------------------------------------------

async function loadState(keepRef) {
  app = await api("/api/state");
  $("#project").textContent = app.project;
  $("#readonly-badge").hidden = !app.readOnly;
  fillSelect($("#context"), [["", "built-in sample"], ...app.contexts.map((c) => [c, c])], $("#context").value);
  fillSelect($("#target"), app.targets.map((t) => [t, t]), $("#target").value || app.targets[0]);
  fillSelect($("#dlg-new [name=template]"), Object.entries(app.templates).map(([k, v]) => [k, `${k}: ${v}`]), $("#dlg-new [name=template]").value);
  fillSelect($("#profile-form [name=thinkingLevel]"), app.thinkingLevels.map((l) => [l, l]), $("#profile-form [name=thinkingLevel]").value);
  for (const select of document.querySelectorAll("dialog [name=location]")) {
    for (const option of select.options) option.disabled = option.value === "global" && !app.globalWritable;
  }
  $("#new-stack").disabled = $("#import-preset").disabled = $("#new-profile").disabled = app.readOnly;
  renderStackList(keepRef);
  renderProfiles();
}

function fillSelect(select, pairs, value) {
  select.replaceChildren(...pairs.map(([v, label]) => el("option", {value: v, text: label})));
  if (value !== undefined && pairs.some(([v]) => v === value)) select.value = value;
}

function renderStackList(activeRef) {
  const list = $("#stack-list");
  list.replaceChildren();
  for (const row of app.stacks) {
    const badges = [el("span", {class: `badge ${row.location === "legacy" ? "legacy" : row.scope}`, text: row.location === "legacy" ? "legacy" : row.scope})];
    if (row.shadowed) badges.push(el("span", {class: "badge warn", text: "shadowed", title: "a project stack with the same id wins"}));
    if (row.errors) badges.push(el("span", {class: "badge err", text: `${row.errors} error${row.errors > 1 ? "s" : ""}`}));
    const button = el("button", {type: "button", "data-ref": row.ref, "aria-current": String(row.ref === activeRef), onclick: () => openStack(row.ref)},
      el("span", {text: row.id}), ...badges);
    list.append(el("li", {class: row.shadowed ? "shadowed" : ""}, button));
  }
  if (!app.stacks.length) list.append(el("li", {class: "muted", text: "No stacks yet: create one or import a preset."}));
  $("#stack-ids").replaceChildren(...app.stacks.map((s) => el("option", {value: s.scope === "global" ? `global:${s.id}` : s.id})));
}

// --- one stack ------------------------------------------------------------------------------------------

async function openStack(ref) {
  if (cur && cur.text !== cur.savedText && !confirm("Discard unsaved changes?")) return;
  const stored = await api(`/api/stack?ref=${encodeURIComponent(ref)}`);
  const row = app.stacks.find((s) => s.ref === ref) || {writable: !app.readOnly};
  cur = {ref, file: ref.split("/")[1], format: stored.format, hash: stored.hash, savedText: stored.text,
         text: stored.text, data: stored.data, writable: row.writable};
  for (const button of document.querySelectorAll("#stack-list button")) button.setAttribute("aria-current", String(button.dataset.ref === ref));
  $("#current-title").textContent = `${ref}`;
  $("#save").disabled = $("#delete").disabled = !cur.writable;
  $("#fork").disabled = app.readOnly;
  $("#export").disabled = false;
  setMode(cur.data === null ? "raw" : mode, true);
  scheduleAnalyze(0);
  status(`Opened ${ref}`);
}

function setMode(next, force = false) {
  if (!cur) return;
  if (next === "form" && mode === "raw" && !force) {
    api("/api/parse", {text: cur.text, file: cur.file}).then((parsed) => {
      if (parsed.data === null) { status(`The raw text does not parse: ${parsed.parseError}`, true); return; }
      cur.data = parsed.data;
      mode = "form";
      showMode();
    });
    return;
  }
  mode = next;
  if (next === "raw") rendering.then(showMode, showMode); else showMode();
}

function showMode() {
  selectTab([$("#mode-form"), $("#mode-raw")], mode === "form" ? $("#mode-form") : $("#mode-raw"));
  $("#raw").hidden = mode !== "raw";
  $("#form").hidden = mode !== "form";
  if (mode === "raw") $("#raw").value = cur.text;
  else renderForm();
}
$("#mode-form").addEventListener("click", () => setMode("form"));
$("#mode-raw").addEventListener("click", () => setMode("raw"));
$("#raw").addEventListener("input", () => { cur.text = $("#raw").value; markDirty(); scheduleAnalyze(); });

function markDirty() {
  $("#dirty").hidden = !cur || cur.text === cur.savedText;
}

// A structured edit changed cur.data: ask the server for the text (comments kept for YAML).
function changed() {
  const seq = ++renderSeq;
  const previous = rendering;
  setBusy(1);
  rendering = (async () => {
    try {
      await previous.catch(() => {});
      const rendered = await api("/api/render", {data: cur.data, format: cur.format, original: cur.savedText});
      if (seq !== renderSeq) return;
      cur.text = rendered.text;
      markDirty();
      scheduleAnalyze();
    } finally { setBusy(-1); }
  })();
  rendering.catch((error) => status(error.message, true));
}

function scheduleAnalyze(delay = 250) {
  if (analyzeTimer === null) setBusy(1);
  clearTimeout(analyzeTimer);
  analyzeTimer = setTimeout(() => { analyzeTimer = null; setBusy(-1); analyze(); }, delay);
}

async function analyze() {
  if (!cur) return;
  const text = cur.text;
  let result;
  try {
    result = await api("/api/analyze", {text, file: cur.file, ref: cur.ref, context: $("#context").value, target: $("#target").value});
  } catch (error) { status(error.message, true); return; }
  if (text !== cur.text) return;  // a newer edit is on its way
  const list = $("#findings");
  list.replaceChildren(...result.findings.map((f) => el("li", {class: f.severity},
    el("span", {class: "code", text: `${f.code} `}), el("span", {text: `[${f.severity}] ${f.message}`}),
    f.line ? el("span", {class: "muted", text: `  ${cur.file}:${f.line}:${f.column}`}) : null)));
  if (!result.findings.length) list.append(el("li", {class: "none", text: "No findings: forgec validate reports nothing for this text."}));
  $("#finding-count").textContent = String(result.findings.length);
  $("#system-prompt").textContent = result.parsed ? result.system : "(the stack does not parse)";
  $("#messages").replaceChildren(...(result.messages || []).map((m) => el("li", {},
    el("div", {class: "source", text: `${m.role} · from ${describeSource(m.source)}`}), el("pre", {text: m.text}))));
  $("#fingerprint").textContent = result.fingerprint || "–";
  const payload = result.payload;
  $("#payload").textContent = !payload ? "" : payload.error ? `error: ${payload.error}` : `// ${payload.model}\n${payload.text}`;
  $("#diff").textContent = result.diff === undefined ? "(new file)" : result.diff || "(no change from the saved file)";

}
$("#context").addEventListener("change", () => { scheduleAnalyze(0); refreshChips(); });
$("#target").addEventListener("change", () => scheduleAnalyze(0));

function describeSource(source) {
  if (!source || typeof source !== "object") return String(source);
  return Object.entries(source).filter(([, v]) => typeof v === "string" || typeof v === "number").map(([k, v]) => `${k} ${v}`).join(", ");
}

// --- the structured form ---------------------------------------------------------------------------

let contextNames = {tools: [], skills: []};
async function refreshChips() {
  try { contextNames = await api(`/api/context?context=${encodeURIComponent($("#context").value)}`); } catch { /* shown by analyze */ }
  if (mode === "form" && cur) renderForm();
}

function input(label, value, onchange, attrs = {}) {
  const field = el("input", {value: value ?? "", ...attrs});
  field.addEventListener("input", () => onchange(field.value));
  return el("label", {}, label, field);
}

function select(label, options, value, onchange) {
  const field = el("select", {});
  fillSelect(field, options.map((o) => [o, o === "" ? "(none)" : o]), value ?? "");
  if (value !== undefined && value !== null && !options.includes(value)) field.append(el("option", {value, text: value, selected: true}));
  field.addEventListener("change", () => onchange(field.value));
  return el("label", {}, label, field);
}

function setKey(object, key, value) {
  if (value === "" || value === undefined) delete object[key]; else object[key] = value;
  changed();
}

function renderForm() {
  const form = $("#form");
  const d = cur && cur.data;
  if (!d || typeof d !== "object" || Array.isArray(d)) {
    form.replaceChildren(el("p", {class: "muted", text: "This file is not a stack object; edit it in the raw editor."}));
    return;
  }
  const header = el("fieldset", {}, el("legend", {text: "Stack"}), el("div", {class: "grid"},
    input("Id (fork for a new id)", d.id, () => {}, {readonly: true, name: "stack-id"}),
    input("Name", d.name, (v) => setKey(d, "name", v), {name: "stack-name"}),
    select("Mode", ["", "append", "prepend", "replace"], d.mode, (v) => setKey(d, "mode", v)),
    el("label", {class: "check"}, checkbox(d.autoActivate === true, (on) => setKey(d, "autoActivate", on ? true : undefined)), "Auto-activate")),
    el("label", {}, "Description", textarea(d.description, (v) => setKey(d, "description", v), 2)),
    el("div", {class: "grid"}, jsonField("Defaults (JSON)", d, "defaults"), jsonField("Context (JSON)", d, "context")));
  form.replaceChildren(header, itemsEditor(d), policyEditor(d, "tools"), policyEditor(d, "skills"), variablesEditor(d), regexEditor(d));
}

function checkbox(checked, onchange, attrs = {}) {
  const box = el("input", {type: "checkbox", ...attrs});
  box.checked = checked;
  box.addEventListener("change", () => onchange(box.checked));
  return box;
}

function textarea(value, onchange, rows = 4, attrs = {}) {
  const area = el("textarea", {rows, ...attrs});
  area.value = value ?? "";
  area.addEventListener("input", () => onchange(area.value));
  return area;
}

function itemsEditor(d) {
  if (!Array.isArray(d.items)) d.items = [];
  const list = el("ol", {class: "items", "aria-label": "Items (drag, or Alt+Up / Alt+Down, to reorder)"});
  d.items.forEach((item, index) => list.append(itemCard(d, item, index)));
  const add = (kind) => () => {
    const ids = new Set(d.items.map((i) => i && i.id));
    let n = d.items.length + 1;
    while (ids.has(`${kind}-${n}`)) n++;
    d.items.push(kind === "block" ? {kind, id: `${kind}-${n}`, role: "system", content: ""} : {kind, id: `${kind}-${n}`, slot: "chat-history"});
    changed(); renderForm();
  };
  return el("fieldset", {}, el("legend", {text: `Items (${d.items.length})`}), list,
    el("div", {class: "toolbar"}, el("button", {type: "button", onclick: add("block"), text: "Add block"}), el("button", {type: "button", onclick: add("slot"), text: "Add slot"})));
}

function move(d, from, to) {
  if (to < 0 || to >= d.items.length || from === to) return;
  const [item] = d.items.splice(from, 1);
  d.items.splice(to, 0, item);
  changed(); renderForm();
  const card = document.querySelectorAll("#form .item")[to];
  if (card) $(".handle", card).focus();
}

function itemCard(d, item, index) {
  if (!item || typeof item !== "object") {
    return el("li", {class: "item"}, el("pre", {text: JSON.stringify(item)}));
  }
  const handle = el("button", {type: "button", class: "handle", "aria-label": `Move item ${item.id} (Alt+Up/Down)`, text: "⠿"});
  handle.addEventListener("keydown", (event) => {
    if (event.altKey && event.key === "ArrowUp") { event.preventDefault(); move(d, index, index - 1); }
    if (event.altKey && event.key === "ArrowDown") { event.preventDefault(); move(d, index, index + 1); }
  });
  const card = el("li", {class: `item${item.enabled === false ? " disabled" : ""}`, draggable: "true", "data-index": String(index), "data-id": String(item.id)});
  card.addEventListener("dragstart", (event) => { event.dataTransfer.setData("text/plain", String(index)); event.dataTransfer.effectAllowed = "move"; });
  card.addEventListener("dragover", (event) => { event.preventDefault(); card.classList.add("drag-over"); });
  card.addEventListener("dragleave", () => card.classList.remove("drag-over"));
  card.addEventListener("drop", (event) => { event.preventDefault(); move(d, Number(event.dataTransfer.getData("text/plain")), index); });
  const head = el("header", {}, handle,
    el("span", {class: "badge", text: String(item.kind)}),
    el("label", {class: "check"}, checkbox(item.enabled !== false, (on) => { setKey(item, "enabled", on ? undefined : false); card.classList.toggle("disabled", !on); }, {name: "enabled"}), "enabled"),
    input("", item.id, (v) => setKey(item, "id", v), {name: "id", "aria-label": "Item id"}),
    el("span", {class: "spacer"}),
    el("button", {type: "button", "aria-label": "Move up", text: "↑", onclick: () => move(d, index, index - 1)}),
    el("button", {type: "button", "aria-label": "Move down", text: "↓", onclick: () => move(d, index, index + 1)}),
    el("button", {type: "button", class: "danger", "aria-label": `Remove item ${item.id}`, text: "✕", onclick: () => { d.items.splice(index, 1); changed(); renderForm(); }}));
  const fields = el("div", {class: "grid"}, input("Name", item.name, (v) => setKey(item, "name", v)));
  const body = [];
  if (item.kind === "slot") {
    fields.append(select("Slot", app.slots, item.slot, (v) => setKey(item, "slot", v)));
  } else {
    fields.append(select("Role", app.roles, item.role, (v) => setKey(item, "role", v)));
    body.push(el("label", {}, "Content", textarea(item.content, (v) => setKey(item, "content", v), 4, {name: "content", "aria-label": `Content of ${item.id}`})));
  }
  fields.append(input("Tags (comma separated)", Array.isArray(item.tags) ? item.tags.join(", ") : "", (v) => setKey(item, "tags", v.trim() ? v.split(",").map((t) => t.trim()).filter(Boolean) : undefined)));
  body.push(jsonField("Options (JSON)", item, "options"));
  card.append(head, fields, ...body);
  return card;
}

// A JSON-valued key edited as text: applied when it parses, left alone (and flagged) when not.
function jsonField(label, object, key) {
  const area = textarea(object[key] === undefined ? "" : JSON.stringify(object[key], null, 2), (v) => {
    if (!v.trim()) { area.setCustomValidity(""); setKey(object, key, undefined); return; }
    try { const value = JSON.parse(v); area.setCustomValidity(""); object[key] = value; changed(); }
    catch { area.setCustomValidity("not JSON"); area.reportValidity(); }
  }, 2, {"aria-label": label});
  return el("label", {}, label, area);
}

function policyEditor(d, key) {
  const names = key === "tools" ? contextNames.tools : contextNames.skills;
  const policy = d[key] && typeof d[key] === "object" ? d[key] : {};
  const which = Array.isArray(policy.deny) ? "deny" : "allow";
  const patterns = Array.isArray(policy[which]) ? policy[which] : [];
  const listId = `names-${key}`;
  const update = (list, kind) => {
    if (!list.length) delete d[key]; else d[key] = {[kind]: list};
    changed(); renderForm();
  };
  const chips = el("div", {class: "chips", "aria-label": `${key} ${which} patterns`}, ...patterns.map((p, i) => el("span", {class: "chip"}, p,
    el("button", {type: "button", "aria-label": `Remove ${p}`, text: "×", onclick: () => update(patterns.filter((_, j) => j !== i), which)}))));
  const add = el("input", {list: listId, placeholder: "name or pattern*", "aria-label": `Add a ${key} pattern`});
  add.addEventListener("keydown", (event) => {
    if (event.key === "Enter" && add.value.trim()) { event.preventDefault(); update([...patterns, add.value.trim()], which); }
  });
  const kind = select("Policy", ["allow", "deny"], which, (v) => update(patterns, v));
  const suggestions = el("div", {class: "chips"}, el("span", {class: "muted", text: "From the context: "}),
    ...names.filter((n) => !patterns.includes(n)).map((n) => el("button", {type: "button", class: "chip", text: `+ ${n}`, onclick: () => update([...patterns, n], which)})));
  return el("fieldset", {}, el("legend", {text: key === "tools" ? "Tool policy" : "Skill policy"}),
    el("div", {class: "grid"}, kind), chips, add, el("datalist", {id: listId}, ...names.map((n) => el("option", {value: n}))), suggestions);
}

function variablesEditor(d) {
  const vars = d.variables && typeof d.variables === "object" ? d.variables : {};
  const rows = el("div", {class: "rows"});
  const rebuild = (entries) => {
    const next = {};
    for (const [k, v] of entries) if (k) next[k] = v;
    if (Object.keys(next).length) d.variables = next; else delete d.variables;
    changed();
  };
  const entries = Object.entries(vars);
  entries.forEach(([name, value], i) => {
    rows.append(el("div", {},
      inputBare(name, (v) => { entries[i][0] = v; rebuild(entries); }, `Variable ${i + 1} name`),
      inputBare(String(value), (v) => { entries[i][1] = v; rebuild(entries); }, `Variable ${name} value`),
      el("button", {type: "button", text: "✕", "aria-label": `Remove variable ${name}`, onclick: () => { entries.splice(i, 1); rebuild(entries); renderForm(); }})));
  });
  return el("fieldset", {}, el("legend", {text: "Variables"}), rows,
    el("button", {type: "button", text: "Add variable", onclick: () => { entries.push([`var${entries.length + 1}`, ""]); rebuild(entries); renderForm(); }}));
}

function inputBare(value, onchange, label) {
  const field = el("input", {value, "aria-label": label});
  field.addEventListener("change", () => onchange(field.value));
  return field;
}

function regexEditor(d) {
  const regex = d.regex && typeof d.regex === "object" ? d.regex : null;
  const rules = regex && Array.isArray(regex.rules) ? regex.rules : [];
  const box = el("fieldset", {}, el("legend", {text: "Regex and finalize rules"}));
  rules.forEach((rule, i) => {
    if (!rule || typeof rule !== "object") return;
    box.append(el("div", {class: "item"}, el("div", {class: "grid"},
      input("Id", rule.id, (v) => setKey(rule, "id", v)),
      select("Stage", ["history", "compiled"], rule.stage, (v) => setKey(rule, "stage", v)),
      select("Effect", ["", "outgoing", "finalize", "display", "both"], rule.effect, (v) => setKey(rule, "effect", v)),
      input("Pattern", rule.pattern, (v) => setKey(rule, "pattern", v)),
      input("Flags", rule.flags, (v) => setKey(rule, "flags", v)),
      input("Replace", rule.replace, (v) => setKey(rule, "replace", v)),
      el("label", {class: "check"}, checkbox(rule.enabled !== false, (on) => setKey(rule, "enabled", on ? undefined : false)), "enabled"),
      el("button", {type: "button", class: "danger", text: "Remove rule", onclick: () => { rules.splice(i, 1); changed(); renderForm(); }}))));
  });
  box.append(el("button", {type: "button", text: "Add rule", onclick: () => {
    if (!d.regex || typeof d.regex !== "object") d.regex = {schemaVersion: 1, rules: []};
    if (!Array.isArray(d.regex.rules)) d.regex.rules = [];
    d.regex.rules.push({id: `rule-${d.regex.rules.length + 1}`, stage: "compiled", pattern: "x", flags: "g", replace: ""});
    changed(); renderForm();
  }}));
  return box;
}

// --- saving, forking, deleting, exporting, importing ---------------------------------------------------

async function save(overwriteHash) {
  if (!cur || !cur.writable) return;
  await rendering.catch(() => {});
  try {
    const stored = await api("/api/save", {ref: cur.ref, text: cur.text, hash: overwriteHash || cur.hash});
    cur.hash = stored.hash;
    cur.savedText = stored.text;
    markDirty();
    await loadState(cur.ref);
    scheduleAnalyze(0);
    status(`Saved ${stored.path}`);
  } catch (error) {
    if (error.status === 409) showConflict(error);
    else status(`Not saved: ${error.message}`, true);
  }
}
$("#save").addEventListener("click", () => save());
document.addEventListener("keydown", (event) => {
  if ((event.ctrlKey || event.metaKey) && event.key === "s") { event.preventDefault(); save(); }
});

function showConflict(error) {
  const current = error.data.current;
  $("#conflict-message").textContent = error.message;
  $("#conflict-disk").textContent = current ? current.text : "(the file no longer exists)";
  const dialog = $("#dlg-conflict");
  dialog.onclose = () => {
    if (dialog.returnValue === "mine" && current) save(current.hash);
    if (dialog.returnValue === "theirs" && current) { cur.text = cur.savedText = current.text; cur.hash = current.hash; openStackFromCur(); }
  };
  dialog.showModal();
  status(`Conflict: ${error.message}`, true);
}

async function openStackFromCur() {
  const ref = cur.ref;
  cur.savedText = cur.text;
  await openStack(ref);
}

function openDialog(id, onok) {
  const dialog = $(id);
  dialog.onclose = () => { if (dialog.returnValue === "ok") onok(new FormData($("form", dialog))); };
  dialog.returnValue = "";
  dialog.showModal();
}

$("#new-stack").addEventListener("click", () => openDialog("#dlg-new", async (form) => {
  try {
    const stored = await api("/api/new", Object.fromEntries(form));
    await loadState(stored.ref);
    await openStack(stored.ref);
    status(`Created ${stored.path}`);
  } catch (error) { status(`Not created: ${error.message}`, true); }
}));

$("#fork").addEventListener("click", () => openDialog("#dlg-fork", async (form) => {
  try {
    const stored = await api("/api/fork", {ref: cur.ref, ...Object.fromEntries(form)});
    await loadState(stored.ref);
    await openStack(stored.ref);
    status(`Forked into ${stored.path}`);
  } catch (error) { status(`Not forked: ${error.message}`, true); }
}));

$("#delete").addEventListener("click", () => {
  $("#delete-path").textContent = cur.ref;
  openDialog("#dlg-delete", async () => {
    try {
      const done = await api("/api/delete", {ref: cur.ref, hash: cur.hash});
      cur = null;
      $("#form").replaceChildren(); $("#raw").value = ""; $("#current-title").textContent = "No stack open";
      for (const id of ["#save", "#fork", "#export", "#delete"]) $(id).disabled = true;
      await loadState();
      status(`Deleted ${done.deleted}`);
    } catch (error) {
      if (error.status === 409) showConflict(error); else status(`Not deleted: ${error.message}`, true);
    }
  });
});

$("#export").addEventListener("click", () => {
  const link = el("a", {href: `/api/export?ref=${encodeURIComponent(cur.ref)}`, download: cur.file});
  document.body.append(link); link.click(); link.remove();
});

function fillCharacters() {
  const path = $("#dlg-import [name=path]").value;
  const preset = app.presets.find((p) => p.path === path);
  const characters = preset ? preset.characters : [];
  // several characters: pi-forge refuses to guess, so the choice is required (the first is preselected)
  const pairs = characters.map((c) => [c, c]);
  fillSelect($("#dlg-import [name=character]"), characters.length > 1 ? pairs : [["", "(the preset's only one)"], ...pairs]);
}
$("#dlg-import [name=path]").addEventListener("change", fillCharacters);
$("#import-preset").addEventListener("click", () => {
  fillSelect($("#dlg-import [name=path]"), app.presets.map((p) => [p.path, p.path]));
  fillCharacters();
  $("#import-report").textContent = app.presets.length ? "" : "No SillyTavern preset (a JSON file with \"prompts\") was found in the project folder.";
  const dialog = $("#dlg-import");
  dialog.returnValue = "";
  dialog.showModal();
});
$("#dlg-import-ok").addEventListener("click", async (event) => {
  event.preventDefault();  // keep the dialog open to show the report
  const form = Object.fromEntries(new FormData($("#dlg-import form")));
  form.overwrite = form.overwrite === "on";
  try {
    const done = await api("/api/import", form);
    $("#import-report").textContent = done.report + (done.warnings.length ? `\n${done.warnings.join("\n")}` : "");
    await loadState(done.ref);
    await openStack(done.ref);
    status(`Imported into ${done.stackPath}`);
  } catch (error) {
    $("#import-report").textContent = `Import failed: ${error.message}${error.data && error.data.hint ? `\n${error.data.hint}` : ""}`;
  }
});

$("#import-stack-file").addEventListener("change", async (event) => {
  const picker = event.currentTarget;  // (currentTarget is gone after the first await)
  const file = picker.files[0];
  if (!file) return;
  const overwrite = $("#dlg-import [name=overwrite]").checked;
  try {
    const stored = await api("/api/import-stack", {text: await file.text(), file: file.name, overwrite});
    $("#import-report").textContent = `Imported ${file.name} as ${stored.path}`;
    await loadState(stored.ref);
    await openStack(stored.ref);
    status(`Imported ${stored.path}`);
  } catch (error) {
    $("#import-report").textContent = `Import failed: ${error.message}`;
  }
  picker.value = "";
});

// --- profiles -------------------------------------------------------------------------------------------

let profileHash = null;
function renderProfiles() {
  const list = $("#profile-list");
  list.replaceChildren(...app.profiles.map((row) => el("li", {class: row.shadowed ? "shadowed" : ""},
    el("button", {type: "button", "data-key": row.key, onclick: () => openProfile(row)},
      el("span", {text: row.id}), el("span", {class: `badge ${row.scope}`, text: row.scope}),
      el("span", {class: "muted", text: `${row.model} · ${row.thinkingLevel} · ${row.promptStack ?? "no stack"}`}),
      row.usable ? null : el("span", {class: "badge err", text: "invalid"}),
      row.autoActivate ? el("span", {class: `badge ${row.autoActivated ? "global" : "warn"}`, text: row.autoActivated ? "auto-activated" : "auto"}) : null,
      row.shadowed ? el("span", {class: "badge warn", text: "shadowed"}) : null))));
  if (!app.profiles.length) list.append(el("li", {class: "muted", text: "No agent profiles yet."}));
  const auto = app.autoActivation;
  $("#auto-activation").textContent = auto.chosen ? `Auto-activates: ${auto.chosen}`
    : auto.requested ? "Several profiles ask to auto-activate: none is applied."
    : auto.stackFallback ? `No profile auto-activates; the stack ${auto.stackFallback} autoloads.` : "No profile auto-activates.";
}

async function openProfile(row) {
  const form = $("#profile-form");
  const file = await api(`/api/profile?key=${encodeURIComponent(row.key)}`);
  profileHash = file.hash;
  const p = file.profile;
  form.scope.value = row.scope; form.id.value = p.id; form.name.value = p.name || ""; form.description.value = p.description || "";
  form.provider.value = p.model.provider; form.model.value = p.model.id; form.thinkingLevel.value = p.thinkingLevel;
  form.promptStack.value = p.promptStack ?? ""; form.autoActivate.checked = p.autoActivate === true;
  const policy = (app.delegation.profiles || {})[row.key] || {};
  form.delegationEnabled.checked = policy.enabled === true; form.backend.value = policy.backend || ""; form.timeoutMs.value = policy.timeoutMs || "";
  $("#profile-title").textContent = `Profile ${row.key}${row.errors.length ? ` (${row.errors.join("; ")})` : ""}`;
}

$("#new-profile").addEventListener("click", () => {
  const form = $("#profile-form");
  form.reset(); profileHash = null;
  form.provider.value = "anthropic"; form.model.value = "claude-sonnet-4-5"; form.thinkingLevel.value = "medium";
  $("#profile-title").textContent = "New profile";
  form.id.focus();
});

$("#profile-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const form = event.currentTarget;
  const profile = {schemaVersion: 1, type: "pi-forge.agent-profile", id: form.id.value.trim()};
  if (form.name.value) profile.name = form.name.value;
  if (form.description.value) profile.description = form.description.value;
  if (form.autoActivate.checked) profile.autoActivate = true;
  profile.model = {provider: form.provider.value.trim(), id: form.model.value.trim()};
  profile.thinkingLevel = form.thinkingLevel.value;
  profile.promptStack = form.promptStack.value.trim() || null;
  try {
    const done = await api("/api/profile/save", {scope: form.scope.value, profile, hash: profileHash});
    await loadState(cur && cur.ref);
    const row = app.profiles.find((r) => r.key === `${form.scope.value}:${profile.id}`);
    if (row) await openProfile(row);
    status(`Saved ${done.filePath}`);  // last: the form is settled when this shows
  } catch (error) { status(`Profile not saved: ${error.message}`, true); }
});

$("#delegation-save").addEventListener("click", async () => {
  const form = $("#profile-form");
  const update = {enabled: form.delegationEnabled.checked, backend: form.backend.value.trim() || null,
                  timeoutMs: form.timeoutMs.value ? Number(form.timeoutMs.value) : null};
  try {
    const done = await api("/api/profile/config", {scope: form.scope.value, id: form.id.value.trim(), update});
    await loadState(cur && cur.ref);
    status(`Delegation settings saved in ${done.configPath}`);
  } catch (error) { status(`Not saved: ${error.message}`, true); }
});

window.addEventListener("beforeunload", (event) => {
  if (cur && cur.text !== cur.savedText) event.preventDefault();  // the browser asks before unsaved edits are lost
});

// --- start ---------------------------------------------------------------------------------------------------

loadState().then(refreshChips).then(() => {
  const first = app.stacks.find((s) => !s.shadowed);
  if (first) openStack(first.ref);
  document.body.dataset.ready = "true";
}).catch((error) => status(`Cannot load the project: ${error.message}`, true));
