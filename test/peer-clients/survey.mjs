#!/usr/bin/env node
// The wire survey behind WIRE.md: drives every call each peer client offers, unchanged, against `fmgen serve`
// (built CLI; `npm run build` first) through a recording proxy on 127.0.0.1, and prints, per client and call,
// the exact requests it sent (method, path, query, headers, body) and the emulator's answers, as Markdown.
//   node test/peer-clients/survey.mjs [--json out.json] [--scripts] [--as-sent]
// --scripts starts the emulator with `--scripts fixtures/scripts.mjs` (once `fmgen serve` has that option).
// A login sent with no body (both proofkit generations) is recorded with the emulator's answer to it, and, unless
// --as-sent, forwarded once more with the body `{}` (docs/emulator.md, "1. Requests every client sends") so that the
// rest of that client's calls can be surveyed too; the table says where that happened. Not a test: a call that fails is
// recorded with its error, and the survey goes on. Every call has a time limit; the emulator child and the proxy are
// stopped in a `finally`.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startRecordingProxy } from "./support/proxy.mjs";
import { DATABASE, GLOBALS_LAYOUT, LAYOUT, PASSWORD, SCRIPTS, USERNAME, peerImport, peerRequire, peerVersion, startServe } from "./support/serve.mjs";

const CALL_TIMEOUT_MS = 10_000;
const args = process.argv.slice(2);
const jsonOut = args.includes("--json") ? args[args.indexOf("--json") + 1] : undefined;
const withScripts = args.includes("--scripts");
const asSent = args.includes("--as-sent");

const PNG = Buffer.from("89504e470d0a1a0a0000000d4948445200000001000000010806000000", "hex");
const SORT = [{ fieldName: "Last Name", sortOrder: "descend" }];
const FIND_OMIT = [{ Status: "Active" }, { "Last Name": "Hopper", omit: "true" }];
let serial = 0;
const newContact = () => ({ "First Name": "Peer", "Last Name": `Survey${++serial}`, Email: `survey${serial}-${process.pid}@example.com`, Status: "Active" });

function withTimeout(promise, label) {
  let timer;
  return Promise.race([promise, new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`${label}: no answer within ${CALL_TIMEOUT_MS} ms`)), CALL_TIMEOUT_MS)))]).finally(() => clearTimeout(timer));
}

function describeError(error) {
  if (error instanceof Error) return `${error.constructor.name}${error.code ? ` ${error.code}` : ""}: ${error.message.split("\n")[0].slice(0, 160)}`;
  return JSON.stringify(error)?.slice(0, 200);
}

function summarize(value) {
  if (value === undefined) return "undefined";
  const text = JSON.stringify(value);
  return text.length > 160 ? `${text.slice(0, 160)}…` : text;
}

async function drive(proxy, results, client, calls) {
  for (const [label, run] of calls) {
    proxy.mark(`${client}: ${label}`);
    const started = proxy.entries.length;
    let outcome;
    try {
      outcome = { ok: true, value: summarize(await withTimeout(Promise.resolve().then(run), label)) };
    } catch (error) {
      outcome = { ok: false, error: describeError(error) };
    }
    // Let a request still in flight (a client that does not await its own request) land first.
    await new Promise((resolve) => setTimeout(resolve, 20));
    results.push({ client, label, outcome: outcome.ok ? { ...outcome, value: proxy.redact(outcome.value) } : { ...outcome, error: proxy.redact(outcome.error) }, requests: proxy.entries.slice(started) });
  }
}

// ---------------------------------------------------------------------------------------------------
// The clients.

function proofkitCalls(pk, { executeScriptNeedsLayout = false } = {}) {
  let created;
  let modId;
  return [
    ["login (first call) + layouts()", () => pk.layouts()],
    ["scripts()", () => pk.scripts()],
    ["layoutMetadata()", () => pk.layoutMetadata()],
    ["list({ limit, offset, sort })", () => pk.list({ limit: 2, offset: 2, sort: SORT })],
    ["list({ sort }) without sortOrder", () => pk.list({ limit: 2, sort: { fieldName: "Last Name" } })],
    ["list({ portalRanges })", () => pk.list({ limit: 1, portalRanges: { Invoices: { offset: 2, limit: 1 } } })],
    ["list({ script, script.param, script.prerequest, script.presort })", () => pk.list({ limit: 1, script: "Echo Param", "script.param": "p", "script.prerequest": "Nothing", "script.presort": "Count Found" })],
    ['list({ "layout.response" })', () => pk.list({ limit: 1, "layout.response": GLOBALS_LAYOUT })],
    ['list({ dateformats: "ISO8601" })', () => pk.list({ limit: 1, dateformats: "ISO8601" })],
    ["get({ recordId })", () => pk.get({ recordId: 1 })],
    ["get({ recordId, portalRanges, script })", () => pk.get({ recordId: 1, portalRanges: { Invoices: { limit: 1 } }, script: "Echo Param", "script.param": "g" })],
    ["create({ fieldData })", async () => ((created = await pk.create({ fieldData: newContact() })), created)],
    ["create({ fieldData, portalData, script })", () => pk.create({ fieldData: newContact(), portalData: { Invoices: [{ "Invoices::Amount": 5 }] }, script: "Echo Param", "script.param": "c" })],
    ["update({ recordId, fieldData, modId })", async () => ((modId = await pk.update({ recordId: created?.recordId, fieldData: { "Last Name": "Edited" }, modId: Number(created?.modId ?? 0) })), modId)],
    ["update({ recordId, portalData rows })", () => pk.update({ recordId: 1, fieldData: {}, portalData: { Invoices: [{ recordId: "1", "Invoices::Amount": 121 }, { "Invoices::Amount": 7 }] } })],
    ["find({ query with omit, sort })", () => pk.find({ query: FIND_OMIT, sort: [{ fieldName: "First Name", sortOrder: "ascend" }] })],
    ["find({ query, limit, offset })", () => pk.find({ query: { Status: "Active" }, limit: 1, offset: 2 })],
    ["find({ query, portalRanges })", () => pk.find({ query: { Status: "Active" }, portalRanges: { Invoices: { offset: 2, limit: 1 } } })],
    ["find({ query, script, script.prerequest, script.presort })", () => pk.find({ query: { Status: "Active" }, script: "Count Found", "script.prerequest": "Echo Param", "script.prerequest.param": "pre", "script.presort": "Nothing" })],
    ['find({ query, dateformats: "ISO8601" })', () => pk.find({ query: { Birthday: "1815-12-10" }, dateformats: "ISO8601" })],
    ["find({ no match, ignoreEmptyResult })", () => pk.find({ query: { "Last Name": "==Nobody" }, ignoreEmptyResult: true })],
    ["executeScript({ script, scriptParam })", () => pk.executeScript({ ...(executeScriptNeedsLayout ? { layout: LAYOUT } : {}), script: "Echo Param", scriptParam: "standalone" })],
    ["containerUpload({ recordId, containerFieldName, file })", () => pk.containerUpload({ recordId: 1, containerFieldName: "Photo", file: new Blob([PNG], { type: "image/png" }) })],
    ["containerUpload({ ..., containerFieldRepetition: 1 })", () => pk.containerUpload({ recordId: 1, containerFieldName: "Photo", containerFieldRepetition: 1, file: new Blob([PNG], { type: "image/png" }) })],
    ["globals({ globalFields })", () => pk.globals({ globalFields: { "Contacts::gGreeting": "hello" } })],
    ["delete({ recordId, script })", () => pk.delete({ recordId: created?.recordId, script: "Echo Param", "script.param": "d" })],
    ["disconnect()", () => pk.disconnect()],
  ];
}

async function fmsApiClientCalls() {
  const { connect } = peerRequire("marpat");
  await connect("nedb://memory");
  const { Filemaker } = peerRequire("fms-api-client");
  return (url) => {
    const client = Filemaker.create({ name: `survey-${process.pid}`, database: DATABASE, server: url, user: USERNAME, password: PASSWORD, usage: false });
    let created;
    let edited;
    return [
      ["client.save()", () => client.save().then(() => "saved")],
      ["login()", () => client.login()],
      ["productInfo()", () => client.productInfo()],
      ["databases()", () => client.databases()],
      ["layouts()", () => client.layouts()],
      ["scripts()", () => client.scripts()],
      ["layout(name)", () => client.layout(LAYOUT)],
      ["list(layout, { limit, offset, sort })", () => client.list(LAYOUT, { limit: 2, offset: 2, sort: SORT })],
      ['list(layout, { portal, "_offset.P", "_limit.P" })', () => client.list(LAYOUT, { limit: 1, portal: ["Invoices"], "_offset.Invoices": 2, "_limit.Invoices": 1 })],
      ["list(layout, { portals: [{ name, limit, offset }] })", () => client.list(LAYOUT, { limit: 1, portals: [{ name: "Invoices", limit: 1, offset: 2 }] })],
      ["list(layout, { script, script.param, script.prerequest, script.presort })", () => client.list(LAYOUT, { limit: 1, script: "Echo Param", "script.param": "p", "script.prerequest": "Nothing", "script.presort": "Count Found" })],
      ["list(layout, { scripts: [{ name, phase, param }] })", () => client.list(LAYOUT, { limit: 1, scripts: [{ name: "Echo Param", param: "after" }, { name: "Nothing", phase: "prerequest" }] })],
      ['list(layout, { "layout.response" })', () => client.list(LAYOUT, { limit: 1, "layout.response": GLOBALS_LAYOUT })],
      ['get(layout, id, { portal, "_limit.P", script })', () => client.get(LAYOUT, 1, { portal: ["Invoices"], "_limit.Invoices": 1, script: "Echo Param", "script.param": "g" })],
      ["create(layout, data)", async () => ((created = await client.create(LAYOUT, newContact())), created)],
      ["create(layout, data with portalData, { script })", () => client.create(LAYOUT, { ...newContact(), portalData: { Invoices: [{ "Invoices::Amount": 5 }] } }, { script: "Echo Param", "script.param": "c" })],
      ["duplicate(layout, id, { script })", () => client.duplicate(LAYOUT, created?.recordId, { script: "Echo Param", "script.param": "dup" })],
      ["edit(layout, id, data, { modId })", async () => ((edited = await client.edit(LAYOUT, created?.recordId, { "Last Name": "Edited" }, { modId: created?.modId })), edited)],
      ["edit(layout, id, { portalData rows })", () => client.edit(LAYOUT, 1, { portalData: { Invoices: [{ recordId: "1", "Invoices::Amount": 121 }, { "Invoices::Amount": 7 }] } })],
      ["find(layout, query with omit, { sort })", () => client.find(LAYOUT, FIND_OMIT, { sort: [{ fieldName: "First Name", sortOrder: "ascend" }] })],
      ["find(layout, query, { limit, offset })", () => client.find(LAYOUT, { Status: "Active" }, { limit: 1, offset: 2 })],
      ['find(layout, query, { portal, "offset.P", "limit.P" })', () => client.find(LAYOUT, { Status: "Active" }, { portal: ["Invoices"], "offset.Invoices": 2, "limit.Invoices": 1 })],
      ["find(layout, query, { script, script.prerequest, script.presort })", () => client.find(LAYOUT, { Status: "Active" }, { script: "Count Found", "script.prerequest": "Echo Param", "script.prerequest.param": "pre", "script.presort": "Nothing" })],
      ['find(layout, query, { "layout.response" })', () => client.find(LAYOUT, { Status: "Active" }, { "layout.response": GLOBALS_LAYOUT })],
      ["find(layout, no match)", () => client.find(LAYOUT, { "Last Name": "==Nobody" })],
      ["upload({ name, buffer }, layout, field, id)", () => client.upload({ name: "pixel.png", buffer: PNG }, LAYOUT, "Photo", 1)],
      ["upload(..., { fieldRepetition: 1 })", () => client.upload({ name: "pixel.png", buffer: PNG }, LAYOUT, "Photo", 1, { fieldRepetition: 1 })],
      ["containerData(record, field, \"buffer\") (download)", async () => {
        const { containerData } = peerRequire("fms-api-client");
        const got = await client.get(LAYOUT, 1);
        const file = await containerData(got.data[0], "fieldData.Photo", "buffer", "name");
        return { name: file.name, bytes: file.buffer.length };
      }],
      ["globals({ field: value })", () => client.globals({ "Contacts::gGreeting": "hello" })],
      ["run(layout, script, param)", () => client.run(LAYOUT, "Echo Param", "run")],
      ["script(layout, script, param)", () => client.script(LAYOUT, "Echo Param", "standalone")],
      ["delete(layout, id, { script })", () => client.delete(LAYOUT, created?.recordId, { script: "Echo Param", "script.param": "d" })],
      ["logout()", () => client.logout()],
    ];
  };
}

function fmDataApiClientCalls(url) {
  const { Client } = peerRequire("fm-data-api-client");
  const client = new Client(url, DATABASE, USERNAME, PASSWORD);
  const layout = client.layout(LAYOUT);
  let created;
  return [
    ["range({ limit, offset, sort }) (first call: login)", () => layout.range({ limit: 2, offset: 2, sort: SORT })],
    ["range({ sort }) without sortOrder", () => layout.range({ limit: 2, sort: { fieldName: "Last Name" } })],
    ["range({ portalRanges })", () => layout.range({ limit: 1, portalRanges: { Invoices: { offset: 2, limit: 1 } } })],
    ["range({ script, script.param, script.prerequest, script.presort })", () => layout.range({ limit: 1, script: "Echo Param", "script.param": "p", "script.prerequest": "Nothing", "script.presort": "Count Found" })],
    ['range({ "layout.response" })', () => layout.range({ limit: 1, "layout.response": GLOBALS_LAYOUT })],
    ["get(id)", () => layout.get(1)],
    ["get(id, { portalRanges, script })", () => layout.get(1, { portalRanges: { Invoices: { limit: 1 } }, script: "Echo Param", "script.param": "g" })],
    ["create(fieldData)", async () => ((created = await layout.create(newContact())), created)],
    ["create(fieldData, { portalData, script })", () => layout.create(newContact(), { portalData: { Invoices: [{ "Invoices::Amount": 5 }] }, script: "Echo Param", "script.param": "c" })],
    ["update(id, fieldData, { modId })", () => layout.update(created?.recordId, { "Last Name": "Edited" }, { modId: created?.modId })],
    ["update(id, {}, { portalData rows })", () => layout.update(1, {}, { portalData: { Invoices: [{ recordId: "1", "Invoices::Amount": 121 }, { "Invoices::Amount": 7 }] } })],
    ['find(query with omit: "true", { sort })', () => layout.find(FIND_OMIT, { sort: [{ fieldName: "First Name", sortOrder: "ascend" }] })],
    ["find(query with omit: true (boolean, as its types say))", () => layout.find([{ Status: "Active" }, { "Last Name": "Hopper", omit: true }])],
    ["find(query, { limit, offset })", () => layout.find({ Status: "Active" }, { limit: 1, offset: 2 })],
    ["find(query, { portalRanges })", () => layout.find({ Status: "Active" }, { portalRanges: { Invoices: { offset: 2, limit: 1 } } })],
    ["find(query, { script, script.prerequest, script.presort })", () => layout.find({ Status: "Active" }, { script: "Count Found", "script.prerequest": "Echo Param", "script.prerequest.param": "pre", "script.presort": "Nothing" })],
    ["find(no match, {}, ignoreEmptyResult)", () => layout.find({ "Last Name": "==Nobody" }, {}, true)],
    ["upload(path, id, field)", async () => {
      const dir = await mkdtemp(join(tmpdir(), "fmgen-survey-"));
      try {
        await writeFile(join(dir, "pixel.png"), PNG);
        return await layout.upload(join(dir, "pixel.png"), 1, "Photo");
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    }],
    ["upload({ name, buffer }, id, field)", () => layout.upload({ name: "pixel.png", buffer: PNG }, 1, "Photo")],
    ["delete(id, { script })", () => layout.delete(created?.recordId, { script: "Echo Param", "script.param": "d" })],
    ["clearToken()", () => client.clearToken()],
  ];
}


// The section of the wider Data API (docs/emulator.md) each call exercises; the table prefixes "works: " when the call
// succeeded. "client" where the client itself drops or garbles the call, so no emulator change helps.
const WORKS = "works";
const PROOFKIT_NEEDS = {
  "login (first call) + layouts()": "§1 empty login body = `{}`; §8 layouts list works",
  "scripts()": "§2 script list",
  "layoutMetadata()": WORKS,
  "list({ limit, offset, sort })": WORKS,
  "list({ sort }) without sortOrder": "§1 optional sortOrder",
  "list({ portalRanges })": "§3 `_offset.P`/`_limit.P` on list; §3 portalDataInfo",
  "list({ script, script.param, script.prerequest, script.presort })": "§2 scripts on list",
  'list({ "layout.response" })': "§4",
  'list({ dateformats: "ISO8601" })': "client: sends `dateformats=ISO8601` unconverted (only find converts; servers take 0, 1 or 2): 1708 (§5)",
  "get({ recordId })": WORKS,
  "get({ recordId, portalRanges, script })": "client: its adapter's get sends no query string, the options are dropped",
  "create({ fieldData })": WORKS,
  "create({ fieldData, portalData, script })": "§2 scripts in a create body",
  "update({ recordId, fieldData, modId })": "client: `modId` sent as a JSON number, as the client types it; FileMaker Server 18+ refuse it (beezwax/fmrest-ruby#25), the emulator answers 1708 (docs/emulator.md §1)",
  "update({ recordId, portalData rows })": "§7 portal rows in an edit, newPortalRecordInfo",
  "find({ query with omit, sort })": WORKS,
  "find({ query, limit, offset })": `${WORKS} (limit and offset as JSON numbers)`,
  "find({ query, portalRanges })": "§3; ranges on the query string of POST _find, taken (docs/emulator.md §3)",
  "find({ query, script, script.prerequest, script.presort })": "§2 scripts in a find body",
  'find({ query, dateformats: "ISO8601" })': "§5 (body `\"dateformats\": \"2\"`, a string)",
  "find({ no match, ignoreEmptyResult })": WORKS,
  "executeScript({ script, scriptParam })": "§2 standalone script endpoint",
  "containerUpload({ recordId, containerFieldName, file })": "§7: upload URL without a repetition segment, the client's default, goes into repetition 1 (docs/emulator.md §7)",
  "containerUpload({ ..., containerFieldRepetition: 1 })": `${WORKS} (part "upload", filename "blob")`,
  "globals({ globalFields })": "§6 globals",
  "delete({ recordId, script })": "client: its adapter's delete sends no query string, the script is dropped (the delete works)",
  "disconnect()": `${WORKS} (§1: Bearer header and Content-Type on logout, ignored)`,
};
const FMS_NEEDS = {
  "client.save()": "(no request)",
  "login()": WORKS,
  "productInfo()": "§8 productInfo",
  "databases()": "§8 databases (Basic auth)",
  "layouts()": WORKS,
  "scripts()": "§2 script list",
  "layout(name)": WORKS,
  "list(layout, { limit, offset, sort })": WORKS,
  'list(layout, { portal, "_offset.P", "_limit.P" })': "§3 portal selection and ranges",
  "list(layout, { portals: [{ name, limit, offset }] })": "client: its portals-array syntax is dropped (only `_limit` is sent)",
  "list(layout, { script, script.param, script.prerequest, script.presort })": "§2 scripts on list",
  "list(layout, { scripts: [{ name, phase, param }] })": "§2 scripts on list (the client turns its array syntax into the same parameters)",
  'list(layout, { "layout.response" })': "§4",
  'get(layout, id, { portal, "_limit.P", script })': "§3 and §2 on get",
  "create(layout, data)": WORKS,
  "create(layout, data with portalData, { script })": "§2 scripts in a create body (portal values sent as strings: §1, works)",
  "duplicate(layout, id, { script })": "§7 duplicate with script keys: the survey's record holds a unique Email, copied too (Duplicate Record is not data entry, and Email validates during data entry only: docs/emulator.md, When required and unique apply)",
  "edit(layout, id, data, { modId })": WORKS,
  "edit(layout, id, { portalData rows })": "§7 portal rows in an edit, newPortalRecordInfo",
  "find(layout, query with omit, { sort })": WORKS,
  "find(layout, query, { limit, offset })": WORKS,
  'find(layout, query, { portal, "offset.P", "limit.P" })': "§3 portal selection and ranges in a find body",
  "find(layout, query, { script, script.prerequest, script.presort })": "§2 scripts in a find body",
  'find(layout, query, { "layout.response" })': "§4",
  "find(layout, no match)": WORKS,
  "upload({ name, buffer }, layout, field, id)": `${WORKS} (chunked multipart)`,
  "upload(..., { fieldRepetition: 1 })": WORKS,
  'containerData(record, field, "buffer") (download)': `${WORKS}: §11, the container URL names the host the client used (the download goes through the survey proxy), and the client's cookie jar keeps the 302's X-FMS-Session-Key for the second GET`,
  "globals({ field: value })": "§6 globals",
  "run(layout, script, param)": "§2 scripts on list",
  "script(layout, script, param)": "§2 standalone script endpoint",
  "delete(layout, id, { script })": "§2: the client sends a delete's script keys as a JSON body on DELETE, taken (docs/emulator.md §2)",
  "logout()": `${WORKS} (§1: stray body \`{}\` on logout)`,
};
const FDAC_NEEDS = {
  "range({ limit, offset, sort }) (first call: login)": WORKS,
  "range({ sort }) without sortOrder": "§1 optional sortOrder",
  "range({ portalRanges })": "§3 ranges on list",
  "range({ script, script.param, script.prerequest, script.presort })": "§2 scripts on list",
  'range({ "layout.response" })': "§4",
  "get(id)": `${WORKS} (URL ends in a bare \`?\`)`,
  "get(id, { portalRanges, script })": "§3 and §2 on get",
  "create(fieldData)": WORKS,
  "create(fieldData, { portalData, script })": "§2 scripts in a create body",
  "update(id, fieldData, { modId })": WORKS,
  "update(id, {}, { portalData rows })": "§7 portal rows in an edit, newPortalRecordInfo",
  'find(query with omit: "true", { sort })': WORKS,
  "find(query with omit: true (boolean, as its types say))": "`\"omit\": true`, a JSON boolean (docs/emulator.md, \"Find semantics\", has the string \"true\"), is accepted as an omit request",
  "find(query, { limit, offset })": `${WORKS} (JSON numbers)`,
  "find(query, { portalRanges })": "§3 ranges in a find body (`\"offset.P\"`, `\"limit.P\"` as strings)",
  "find(query, { script, script.prerequest, script.presort })": "§2 scripts in a find body",
  "find(no match, {}, ignoreEmptyResult)": WORKS,
  "upload(path, id, field)": `${WORKS} (chunked multipart)`,
  "upload({ name, buffer }, id, field)": "client: Content-Length leaves out the file's bytes (form-data cannot measure a Buffer stream), so the body is cut (1708) and the connection breaks",
  "delete(id, { script })": "§2 scripts on delete, in the query string",
  "clearToken()": WORKS,
};
const NEEDS = { "@proofkit/fmdapi": PROOFKIT_NEEDS, "@proofgeist/fmdapi": PROOFKIT_NEEDS, "fms-api-client": FMS_NEEDS, "fm-data-api-client": FDAC_NEEDS };

// ---------------------------------------------------------------------------------------------------
// Output.

// Control characters (a container's bytes answered where JSON was expected) are shown as U+FFFD.
// eslint-disable-next-line no-control-regex
const cell = (text) => String(text ?? "").replaceAll("|", "\\|").replaceAll("\n", " ").replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, "\ufffd");

function requestCell(entry) {
  const headers = Object.entries(entry.headers)
    .filter(([name]) => name !== "content-length")
    .map(([name, value]) => `${name}: ${name === "content-type" && value.startsWith("multipart/") ? "multipart/form-data; boundary=…" : value}`);
  const length = entry.headers["content-length"] ?? (entry.headers["transfer-encoding"] ? "chunked" : "none");
  return `\`${entry.method} ${entry.url.replace(/^\/fmi\/data\//, "…/")}\`<br>${headers.join("<br>")}<br>body (${length}): ${entry.body ? `\`${entry.body}\`` : "none"}`;
}

function answerCell(entry) {
  if (entry.forwardedAs) {
    const s = entry.answerAsSent;
    return `as sent: HTTP ${s.status}, code ${s.code} "${s.message}"<br>(survey proxy then forwarded body \`${entry.forwardedAs}\`: ${answerCell({ ...entry, forwardedAs: undefined })})`;
  }
  const a = entry.answer ?? {};
  if (a.error || a.notJson) return `${entry.status} ${a.error ?? a.notJson}`;
  const extra = [];
  if (a.keys?.length) extra.push(`response keys: ${a.keys.join(", ")}`);
  if (a.record) extra.push(`record keys: ${a.record.join(", ")}`);
  if (a.portals) extra.push(`portals: ${JSON.stringify(a.portals)}`);
  for (const key of Object.keys(a)) if (/^script(Result|Error)/.test(key)) extra.push(`${key}: ${JSON.stringify(a[key])}`);
  return `HTTP ${entry.status}, code ${a.code} "${a.message}"${extra.length ? `<br>${extra.join("<br>")}` : ""}`;
}

function markdown(results, versions) {
  const out = [];
  for (const [client, version] of Object.entries(versions)) {
    out.push(`### ${client} ${version}`, "", "| call | request(s) sent | emulator's answer | client's result | section (docs/emulator.md); note |", "|---|---|---|---|---|");
    for (const r of results.filter((x) => x.client === client)) {
      const reqs = r.requests.length ? r.requests : [undefined];
      reqs.forEach((entry, i) => {
        const result = i === reqs.length - 1 ? (r.outcome.ok ? `ok: ${r.outcome.value}` : `**throws** ${r.outcome.error}`) : "";
        const note = NEEDS[client]?.[r.label] ?? "?";
        const needs = i === reqs.length - 1 ? (r.outcome.ok && !note.startsWith(WORKS) ? `works: ${note}` : note) : "";
        out.push(`| ${i === 0 ? cell(r.label) : "↳"} | ${entry ? cell(requestCell(entry)) : "(no request)"} | ${entry ? cell(answerCell(entry)) : ""} | ${cell(result)} | ${cell(needs)} |`);
      });
    }
    out.push("");
  }
  return out.join("\n");
}

// ---------------------------------------------------------------------------------------------------

const results = [];
const versions = {
  "@proofkit/fmdapi": peerVersion("@proofkit/fmdapi"),
  "@proofgeist/fmdapi": peerVersion("@proofgeist/fmdapi"),
  "fms-api-client": peerVersion("fms-api-client"),
  "fm-data-api-client": peerVersion("fm-data-api-client"),
};
const serve = await startServe({ extraArgs: withScripts ? ["--scripts", SCRIPTS] : [] });
let proxy;
// Both proofkit generations warn on partial lists through console.warn; keep stdout for the report.
const warn = console.warn;
console.warn = () => {};
try {
  proxy = await startRecordingProxy(serve.url, { emptyLoginAsObject: !asSent });
  {
    const { DataApi, FetchAdapter } = await peerImport("@proofkit/fmdapi/dist/esm/index.js");
    const pk = DataApi({ adapter: new FetchAdapter({ server: proxy.url, db: DATABASE, auth: { username: USERNAME, password: PASSWORD } }), layout: LAYOUT });
    await drive(proxy, results, "@proofkit/fmdapi", proofkitCalls(pk));
  }
  {
    const { DataApi, FetchAdapter } = await peerImport("@proofgeist/fmdapi/dist/index.js");
    const pg = DataApi({ adapter: new FetchAdapter({ server: proxy.url, db: DATABASE, auth: { username: USERNAME, password: PASSWORD } }), layout: LAYOUT });
    await drive(proxy, results, "@proofgeist/fmdapi", proofkitCalls(pg, { executeScriptNeedsLayout: true }));
  }
  await drive(proxy, results, "fms-api-client", (await fmsApiClientCalls())(proxy.url));
  await drive(proxy, results, "fm-data-api-client", fmDataApiClientCalls(proxy.url));
} finally {
  console.warn = warn;
  await proxy?.close();
  await serve.stop();
}
if (jsonOut) await writeFile(jsonOut, JSON.stringify({ versions, results }, null, 2));
console.log(markdown(results, versions));
