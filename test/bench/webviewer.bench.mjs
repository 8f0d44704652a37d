#!/usr/bin/env node
// The Web Viewer transport beside HTTP (`npm run bench:webviewer`: builds, then `node test/bench/webviewer.bench.mjs`).
// Not a test: it measures and reports, and exits 1 only when a measurement could not be made or an answer was wrong.
//
// The contacts example (its layouts, its generated Contact compiled to JavaScript over the built runtime), seeded with
// RECORDS contacts, in this process:
// 1. Per call: get one record; a list of 100; a create. The same call through createWebViewerClient over the
//    emulator's in-process Web Viewer bridge (`startEmulator().webViewer().install(window)`: the page's bridge, the
//    emulated bridge script, the Data API's handlers run in process, no socket) and through createClient over HTTP to
//    the same emulator (loopback, keep-alive). Interleaved rounds; median of the rounds' medians.
// 2. The runtime's own cost per Web Viewer call: the same calls through createWebViewerClient over a window.FileMaker
//    that answers at once (in a microtask) with a canned envelope, so that only the runtime's work counts: the step
//    request built from the call, the parameter's JSON, the bridge's bookkeeping (call ids, queue, timer, callback),
//    parsing and decoding the answer. Beside it, the emulator's side of a bridge call (section 1 minus this).
//
// Results: stdout and test/bench/results/webviewer.md. Every loop is bounded in count and time. Knobs:
// BENCH_ROUNDS (default 12).

import { mkdtemp, mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";
import { machineTable } from "./support.mjs";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const RESULTS_FILE = join(ROOT, "test/bench/results/webviewer.md");
const RECORDS = 1_000;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 12);
/** Per call kind: warm-up calls per transport, then sequential calls per transport per round. */
const PLAN = { get: { warmup: 200, perRound: 40 }, list: { warmup: 60, perRound: 15 }, create: { warmup: 100, perRound: 30 } };
const PHASE_MAX_MS = 60_000;

const median = (xs) => {
  const s = Float64Array.from(xs).sort();
  return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const pct = (xs, p) => {
  const s = Float64Array.from(xs).sort();
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
};
const f2 = (x) => (Number.isFinite(x) ? x.toFixed(2) : "n/a");
const f0 = (x) => (Number.isFinite(x) ? Math.round(x).toLocaleString("en-US") : "n/a");
class BenchError extends Error {}
const check = (ok, message) => {
  if (!ok) throw new BenchError(message);
};

/** The example's generated modules as JavaScript importing the built runtime (as peers.bench.mjs compiles them). */
async function compileGenerated(outDir) {
  const { transform } = await import(pathToFileURL(createRequire(join(ROOT, "package.json")).resolve("esbuild")).href);
  const srcDir = join(ROOT, "examples/contacts/generated");
  await mkdir(outDir, { recursive: true });
  const runtimeUrl = pathToFileURL(join(ROOT, "packages/runtime/dist/index.js")).href;
  const schemaUrl = pathToFileURL(join(ROOT, "packages/runtime/dist/schema-node.js")).href;
  for (const file of await readdir(srcDir)) {
    if (!file.endsWith(".ts")) continue;
    const { code } = await transform(await readFile(join(srcDir, file), "utf8"), { loader: "ts", format: "esm", target: "node20" });
    await writeFile(join(outDir, file.replace(/\.ts$/, ".js")), code.replaceAll(`"@fmgen/runtime/schema"`, JSON.stringify(schemaUrl)).replaceAll(`"@fmgen/runtime"`, JSON.stringify(runtimeUrl)));
  }
}

/** The example's seed with RECORDS contacts (the first four its own). */
async function seed() {
  const data = JSON.parse(await readFile(join(ROOT, "examples/contacts/seed.json"), "utf8"));
  for (let i = data.records.Contacts.length; i < RECORDS; i++) {
    data.records.Contacts.push({ "First Name": `First${i}`, "Last Name": `Last${i}`, Email: `c${i}@example.com`, Status: i % 3 ? "Active" : "Inactive", Birthday: "03/14/1950", "Wake Up": "07:00:00" });
  }
  return data;
}

/** The calls of one client, each checked once before measuring. */
function callsOf(fm, Contact) {
  const contacts = fm.layout(Contact);
  let n = 0;
  return {
    get: async () => {
      const r = await contacts.get(1 + (n++ % RECORDS));
      check(typeof r.fieldData["First Name"] === "string", "get: no First Name");
    },
    list: async () => {
      const page = await contacts.list({ offset: 1 + (n++ % 10) * 50, limit: 100 });
      check(page.data.length === 100, `list: ${page.data.length} records, not 100`);
    },
    create: async () => {
      const { recordId } = await contacts.create({ fieldData: { "First Name": "Bench", "Last Name": `Create${n++}`, Status: "Active" } });
      check(Number(recordId) > 0, "create: no recordId");
    },
  };
}

/** Interleaved rounds of sequential calls, the transports' order rotated each round: per transport, every sample (ms) and each round's median. */
async function measure(transports, op) {
  const { warmup, perRound } = PLAN[op];
  for (const t of transports) for (let i = 0; i < warmup; i++) await t.calls[op]();
  const out = Object.fromEntries(transports.map((t) => [t.name, { samples: [], medians: [] }]));
  const t0 = performance.now();
  for (let round = 0; round < ROUNDS && performance.now() - t0 < PHASE_MAX_MS; round++) {
    for (let k = 0; k < transports.length; k++) {
      const t = transports[(round + k) % transports.length];
      const samples = [];
      for (let i = 0; i < perRound; i++) {
        const s = performance.now();
        await t.calls[op]();
        samples.push(performance.now() - s);
      }
      out[t.name].samples.push(...samples);
      out[t.name].medians.push(median(samples));
    }
  }
  return out;
}

/**
 * A window.FileMaker that answers every call in a microtask with the envelope `answerOf(request)` gives (made once per
 * kind of call, beforehand): no emulator, so what a call costs is the runtime's own work.
 */
function cannedFileMaker(win, answerOf) {
  return {
    PerformScriptWithOption(_script, parameter) {
      const call = JSON.parse(parameter);
      const text = answerOf(call.request);
      queueMicrotask(() => win[call.callback](call.id, text));
    },
  };
}

async function main() {
  const startedAt = new Date();
  const load = loadavg()[0];
  const dir = await mkdtemp(join(tmpdir(), "fmgen-bench-webviewer-"));
  const { startEmulator } = await import(pathToFileURL(join(ROOT, "dist/emulator/index.js")).href);
  const { createClient } = await import(pathToFileURL(join(ROOT, "packages/runtime/dist/index.js")).href);
  const { createWebViewerClient } = await import(pathToFileURL(join(ROOT, "packages/runtime/dist/webviewer.js")).href);
  await compileGenerated(join(dir, "generated"));
  const { Contact, Contacts } = await import(pathToFileURL(join(dir, "generated/index.js")).href);
  const emu = await startEmulator({ layouts: [join(ROOT, "examples/contacts/layouts")], data: await seed(), port: 0, log: () => {} });
  const clients = [];
  try {
    // 1. The same calls through the in-process bridge and over HTTP, on one emulator.
    globalThis.window = {};
    emu.webViewer({ account: "web", webViewer: "fmgen" }).install(globalThis.window);
    const wv = createWebViewerClient({ database: Contacts, script: "fmgen webviewer", timeoutMs: 30_000 });
    const http = createClient({ server: emu.url, database: Contacts, auth: { username: "web", password: "secret" } });
    clients.push(wv, http);
    const transports = [
      { name: "Web Viewer (in-process bridge)", calls: callsOf(wv, Contact) },
      { name: "HTTP (createClient, loopback)", calls: callsOf(http, Contact) },
    ];
    // Both see the same records, decoded the same.
    const [a, b] = [await wv.layout(Contact).get(1), await http.layout(Contact).get(1)];
    check(JSON.stringify(a) === JSON.stringify(b), "get: the Web Viewer's record differs from HTTP's");
    const calls = {};
    for (const op of Object.keys(PLAN)) calls[op] = await measure(transports, op);

    // 2. The runtime's own cost: a bridge answering at once with canned envelopes taken from the emulator.
    const canned = {
      read: JSON.stringify({ response: await rawStep(emu, { action: "read", layouts: "Contacts Web", recordId: 1 }), messages: [{ code: "0", message: "OK" }] }),
      list: JSON.stringify({ response: await rawStep(emu, { action: "read", layouts: "Contacts Web", offset: 1, limit: 100 }), messages: [{ code: "0", message: "OK" }] }),
      create: JSON.stringify({ response: { recordId: "9999", modId: "0" }, messages: [{ code: "0", message: "OK" }] }),
    };
    const page = {};
    page.FileMaker = cannedFileMaker(page, (request) => (request.action === "create" ? canned.create : request.recordId !== undefined ? canned.read : canned.list));
    globalThis.window = page;
    const own = createWebViewerClient({ database: Contacts, script: "fmgen webviewer", timeoutMs: 30_000 });
    clients.push(own);
    const ownCalls = await measure([{ name: "runtime only (canned bridge)", calls: callsOf(own, Contact) }], "get");
    const ownList = await measure([{ name: "runtime only (canned bridge)", calls: callsOf(own, Contact) }], "list");
    const ownCreate = await measure([{ name: "runtime only (canned bridge)", calls: callsOf(own, Contact) }], "create");
    const runtimeOnly = { get: ownCalls, list: ownList, create: ownCreate };

    // Report.
    const rows = [];
    for (const op of Object.keys(PLAN)) {
      for (const [name, { samples, medians }] of Object.entries(calls[op])) rows.push({ op, name, median: median(medians), p90: pct(samples, 90), perS: 1000 / (samples.reduce((x, y) => x + y, 0) / samples.length) });
      const r = Object.values(runtimeOnly[op])[0];
      rows.push({ op, name: "Web Viewer, runtime only (canned bridge)", median: median(r.medians), p90: pct(r.samples, 90), perS: 1000 / (r.samples.reduce((x, y) => x + y, 0) / r.samples.length) });
    }
    const table = ["| call | transport | median ms | p90 ms | calls/s |", "|---|---|---|---|---|", ...rows.map((r) => `| ${r.op} | ${r.name} | ${f2(r.median)} | ${f2(r.p90)} | ${f0(r.perS)} |`)];
    const share = Object.keys(PLAN).map((op) => {
      const bridge = median(calls[op]["Web Viewer (in-process bridge)"].medians);
      const mine = median(Object.values(runtimeOnly[op])[0].medians);
      return `| ${op} | ${f0(mine * 1000)} | ${f0((bridge - mine) * 1000)} | ${f0((mine / bridge) * 100)} % |`;
    });
    const report = [
      "# The Web Viewer transport beside HTTP",
      "",
      `Run ${startedAt.toISOString()} with \`node test/bench/webviewer.bench.mjs\` (after \`npm run build\`). The emulator runs in the bench's own process; the Web Viewer's calls go through its in-process bridge (no socket), the HTTP calls over loopback (keep-alive) to the same emulator. What a real Web Viewer adds (FileMaker's script, the step, Perform JavaScript in Web Viewer) is not in these figures: they are the runtime's and the emulator's work only.`,
      "",
      ...machineTable(["load average (1 min) at start", load.toFixed(2)]),
      "",
      `## 1. Per call (${RECORDS.toLocaleString("en-US")} Contacts records, the example's generated Contact)`,
      "",
      `Sequential calls; warm-up (get ${PLAN.get.warmup}, list ${PLAN.list.warmup}, create ${PLAN.create.warmup} per transport), then ${ROUNDS} interleaved rounds (order rotated) of get ${PLAN.get.perRound}, list ${PLAN.list.perRound}, create ${PLAN.create.perRound} calls per transport; *median* is the median of the rounds' medians. get: one record by id; list: \`offset\`/\`limit: 100\`; create: 3 fields. Both decode and check every record against the layout (the default).`,
      "",
      ...table,
      "",
      "## 2. The runtime's own cost per Web Viewer call",
      "",
      "*runtime only*: createWebViewerClient over a `window.FileMaker` that answers in a microtask with a canned envelope (the emulator's own answer to the same call, taken once): the step request built from the call, the parameter's JSON, the bridge's bookkeeping (id, queue, time limit, callback), parsing and decoding the answer. *emulator*: the rest of an in-process bridge call (the emulated bridge script, the Data API's handlers, the answer's JSON).",
      "",
      "| call | runtime only, median µs | emulator, µs | runtime's share of a bridge call |",
      "|---|---|---|---|",
      ...share,
      "",
    ].join("\n");
    console.log(report);
    await writeFile(RESULTS_FILE, report);
  } finally {
    for (const c of clients) await c.close().catch(() => {});
    delete globalThis.window;
    await emu.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/** The emulator's answer (`response`) to a step request, through a Web Viewer of its own (the canned envelopes' source). */
async function rawStep(emu, request) {
  const page = {};
  const viewer = emu.webViewer({ account: "web" });
  viewer.install(page);
  let text;
  page.cb = (_id, result) => {
    text = result;
  };
  viewer.FileMaker.PerformScriptWithOption("fmgen webviewer", JSON.stringify({ v: 1, id: "1", callback: "cb", request }), 0);
  await viewer.settled();
  const envelope = JSON.parse(text);
  check(envelope.messages[0].code === "0", `canned ${JSON.stringify(request)}: ${text.slice(0, 200)}`);
  return envelope.response;
}

main().catch((error) => {
  console.error(error instanceof BenchError ? `bench: ${error.message}` : error);
  process.exit(1);
});
