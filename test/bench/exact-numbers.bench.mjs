#!/usr/bin/env node
// Exact numbers on the wire (`npm run bench:exact`: builds, then `node test/bench/exact-numbers.bench.mjs`).
// Not a test: it measures and reports, and exits 1 only when a measurement could not be made or an answer was wrong.
//
// One emulator child (`fmgen serve`, its own process, 127.0.0.1 only) hosts two tables of the same shape, 1,000
// records each: Ledger, whose `id` is a 58-digit number (a `Get ( UUIDNumber )` key) and `Amount` a 30-digit decimal,
// both `"exact": true`; and Plain, whose `id` and `Amount` are short numbers (what a double holds), not exact.
// 1. Per call, a page of 100 records (the Data API's `_limit=100`, OData's `$top=100`): raw undici + JSON.parse (the
//    floor: it rounds Ledger's numbers, so it does less than fmgen must), fmgen on Plain (no long number travels: the
//    cost the lossless reading adds there is its scan), fmgen on Ledger (every record holds two long numbers: the
//    lossless parse and the decimal text). Interleaved rounds, medians, ratios to the floor of the same table.
// 2. In this process, without the network, one 100-record page of each table: JSON.parse against the runtime's
//    parseJson (the scan alone on Plain's page; the marking parse on Ledger's).
//
// Results: stdout and test/bench/results/exact-numbers.md. Every loop is bounded in count and time; the child is
// stopped in a `finally`.

import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";
import { machineTable, seededRandom, spawnEmulator } from "./support.mjs";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const RESULTS_FILE = join(ROOT, "test/bench/results/exact-numbers.md");
const RUNTIME = join(ROOT, "packages/runtime/dist");

const RECORDS = 1_000;
const DATABASE = "Bench";
const ACCOUNT = { username: "web", password: "secret" };
const STARTUP_TIMEOUT_MS = 120_000;
const WARMUP = 150;
const ROUNDS = 15;
const CALLS_PER_ROUND = 30;
const PHASE_MAX_MS = 60_000;
const DECODE_RUNS = 5;
const DECODE_READS = 1_000;

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const f2 = (x) => (Number.isFinite(x) ? x.toFixed(2) : "n/a");
const f0 = (x) => (Number.isFinite(x) ? Math.round(x).toLocaleString("en-US") : "n/a");
const problems = [];
const check = (ok, message) => {
  if (!ok) throw new Error(message);
};

/** A layout of `table`: the same four fields, `id` and `Amount` exact on Ledger. */
function layoutOf(table, exact) {
  return {
    database: DATABASE,
    layout: `${table} Web`,
    table,
    fields: [
      { name: "id", type: "number", unique: true, ...(exact ? { exact: true } : {}) },
      { name: "Amount", type: "number", ...(exact ? { exact: true } : {}) },
      { name: "Name", type: "text" },
      { name: "Qty", type: "number" },
    ],
  };
}

/** Seeded records: Ledger's numbers as raw JSON tokens (58 and 30 digits), Plain's short. */
function seedText() {
  const rnd = seededRandom(7);
  const digits = (n) => Array.from({ length: n }, (_, i) => (i === 0 ? 1 + Math.floor(rnd() * 9) : Math.floor(rnd() * 10))).join("");
  const ledger = [];
  const plain = [];
  for (let i = 0; i < RECORDS; i++) {
    ledger.push(`{"id":${digits(58)},"Amount":${digits(28)}.${digits(2)},"Name":"Entry ${i}","Qty":${i % 50}}`);
    plain.push(`{"id":${i + 1},"Amount":${(i * 7) % 1000}.25,"Name":"Entry ${i}","Qty":${i % 50}}`);
  }
  return `{"accounts":[{"username":"${ACCOUNT.username}","password":"${ACCOUNT.password}","privileges":["fmrest","fmodata"]}],"records":{"Ledger":[${ledger.join(",")}],"Plain":[${plain.join(",")}]}}`;
}

async function main() {
  const tmp = await mkdtemp(join(tmpdir(), "fmgen-bench-exact-"));
  let emu;
  try {
    const layouts = join(tmp, "layouts");
    await import("node:fs/promises").then((fs) => fs.mkdir(layouts));
    await writeFile(join(layouts, "Ledger.layout.json"), JSON.stringify(layoutOf("Ledger", true)));
    await writeFile(join(layouts, "Plain.layout.json"), JSON.stringify(layoutOf("Plain", false)));
    const seed = join(tmp, "seed.json");
    await writeFile(seed, seedText());
    emu = await spawnEmulator({ layouts, data: seed, timeoutMs: STARTUP_TIMEOUT_MS });
    const calls = await benchCalls(emu.url);
    const decode = await benchDecode(emu.url);
    const report = [
      "# Exact numbers: a page of 100 records with long numbers",
      "",
      `Run ${new Date().toISOString()} with \`node test/bench/exact-numbers.bench.mjs\` (after \`npm run build\`).`,
      "",
      ...machineTable(),
      "",
      ...calls,
      ...decode,
      ...(problems.length ? ["## Problems", "", ...problems.map((p) => `- ${p}`), ""] : []),
    ].join("\n");
    console.log(report);
    await writeFile(RESULTS_FILE, report);
  } finally {
    await emu?.stop();
    await rm(tmp, { recursive: true, force: true });
  }
}

/** The clients of one API and table: { name, list() -> records }. */
async function clients(url) {
  const undici = await import(pathToFileURL(createRequire(join(ROOT, "package.json")).resolve("undici")).href);
  const { createClient, defineLayout } = await import(pathToFileURL(join(RUNTIME, "index.js")).href);
  const { createODataClient, defineTable } = await import(pathToFileURL(join(RUNTIME, "odata/index.js")).href);
  const dispatcher = new undici.Agent({ keepAliveTimeout: 10_000, connections: 4 });
  const basic = `Basic ${Buffer.from(`${ACCOUNT.username}:${ACCOUNT.password}`).toString("base64")}`;
  const login = await undici.request(`${url}/fmi/data/vLatest/databases/${DATABASE}/sessions`, { method: "POST", dispatcher, headers: { authorization: basic, "content-type": "application/json" }, body: "{}" });
  const token = (await login.body.json()).response.token;
  const raw = async (path, headers) => {
    const res = await undici.request(`${url}${path}`, { dispatcher, headers });
    const parsed = JSON.parse(await res.body.text());
    if (res.statusCode !== 200) throw new Error(`raw ${path}: HTTP ${res.statusCode}`);
    return parsed;
  };
  const fm = createClient({ server: url, database: DATABASE, auth: ACCOUNT });
  const od = createODataClient({ server: url, database: DATABASE, auth: ACCOUNT });
  const fields = (exact) => ({ id: { type: "number", ...(exact ? { exact: true } : {}) }, Amount: { type: "number", ...(exact ? { exact: true } : {}) }, Name: { type: "text" }, Qty: { type: "number" } });
  const out = {};
  for (const [table, exact] of [["Plain", false], ["Ledger", true]]) {
    const layout = fm.layout(defineLayout({ database: DATABASE, layout: `${table} Web`, fields: fields(exact) }));
    const rows = od.table(defineTable()({ database: DATABASE, table, fields: fields(exact) }));
    out[`data-api ${table}`] = {
      raw: async () => (await raw(`/fmi/data/vLatest/databases/${DATABASE}/layouts/${table}%20Web/records?_limit=100`, { authorization: `Bearer ${token}` })).response.data,
      fmgen: async () => (await layout.list({ limit: 100 })).data,
    };
    out[`odata ${table}`] = {
      raw: async () => (await raw(`/fmi/odata/v4/${DATABASE}/${table}?$top=100`, { authorization: basic, accept: "application/json;odata.metadata=none" })).value,
      fmgen: async () => (await rows.list({ top: 100 })).value,
    };
  }
  const close = async () => {
    await fm.close();
    await od.close();
    await dispatcher.close();
  };
  return { out, close };
}

async function benchCalls(url) {
  const { out, close } = await clients(url);
  const lines = [
    "## 1. Per call: a page of 100 records",
    "",
    `One call at a time, warm connection and session; ${WARMUP} warm-up calls each, then ${ROUNDS} interleaved rounds of ${CALLS_PER_ROUND} calls; the median of the rounds' medians. The floor is \`undici.request\` + \`body.text()\` + \`JSON.parse\` of the same page (on Ledger it rounds both long numbers of every record, which fmgen may not). Plain's records hold no number a double cannot hold: fmgen's extra cost there is the scan; Ledger's hold two each (58 and 30 digits).`,
    "",
    "| API, table | client | median ms | x floor |",
    "|---|---|---|---|",
  ];
  try {
    for (const [what, pair] of Object.entries(out)) {
      // Each client's answer once: 100 records, and fmgen's Ledger ids 58 digits as the server wrote them.
      for (const [name, call] of Object.entries(pair)) {
        const records = await call();
        check(records.length === 100, `${what} ${name}: ${records.length} records`);
      }
      if (what.includes("Ledger")) {
        const records = await pair.fmgen();
        const id = what.startsWith("odata") ? records[0].id : records[0].fieldData.id;
        check(typeof id === "string" && /^\d{58}$/.test(id), `${what} fmgen: id ${JSON.stringify(id)} is not 58 digits of text`);
      }
      const medians = { raw: [], fmgen: [] };
      const deadline = performance.now() + PHASE_MAX_MS;
      for (const call of Object.values(pair)) for (let i = 0; i < WARMUP && performance.now() < deadline; i++) await call();
      let rounds = 0;
      for (; rounds < ROUNDS && performance.now() < deadline; rounds++) {
        for (const name of rounds % 2 ? ["fmgen", "raw"] : ["raw", "fmgen"]) {
          const times = [];
          for (let i = 0; i < CALLS_PER_ROUND; i++) {
            const t0 = performance.now();
            await pair[name]();
            times.push(performance.now() - t0);
          }
          medians[name].push(median(times));
        }
      }
      if (rounds < ROUNDS) problems.push(`${what}: stopped after ${rounds} of ${ROUNDS} rounds (time bound ${PHASE_MAX_MS} ms)`);
      const floor = median(medians.raw);
      const fmgen = median(medians.fmgen);
      lines.push(`| ${what} | raw undici (floor) | ${f2(floor)} | 1.00 |`, `| ${what} | fmgen | ${f2(fmgen)} | ${(fmgen / floor).toFixed(2)} |`);
    }
  } finally {
    await close();
  }
  lines.push("");
  return lines;
}

async function benchDecode(url) {
  const { parseJson } = await import(pathToFileURL(join(RUNTIME, "core/json-numbers.js")).href);
  const undici = await import(pathToFileURL(createRequire(join(ROOT, "package.json")).resolve("undici")).href);
  const basic = `Basic ${Buffer.from(`${ACCOUNT.username}:${ACCOUNT.password}`).toString("base64")}`;
  const pages = {};
  for (const table of ["Plain", "Ledger"]) {
    const res = await undici.request(`${url}/fmi/odata/v4/${DATABASE}/${table}?$top=100`, { headers: { authorization: basic, accept: "application/json;odata.metadata=none" } });
    pages[table] = await res.body.text();
  }
  check(/\d{58}/.test(pages.Ledger), "decode: Ledger's page holds no 58-digit number");
  const time = (fn) => {
    const runs = [];
    for (let r = 0; r < DECODE_RUNS; r++) {
      for (let i = 0; i < 100; i++) fn();
      const t0 = performance.now();
      for (let i = 0; i < DECODE_READS; i++) fn();
      runs.push(((performance.now() - t0) / DECODE_READS) * 1000);
    }
    return median(runs);
  };
  const lines = [
    "## 2. Parsing one page, without the network",
    "",
    `One OData page of 100 records of each table (\`$top=100\`, \`odata.metadata=none\`), parsed ${f0(DECODE_READS)} times per run, ${DECODE_RUNS} runs (the median). \`parseJson\` (src/runtime/core/json-numbers.ts) is what both clients parse every answer with: a look at one character in 16 and two searches for `e-` and `E-` first, and JSON.parse alone when they find no run of 16 digits or points and no negative exponent; otherwise one pass marking the long tokens, then JSON.parse with a reviver.`,
    "",
    "| page | JSON.parse µs | parseJson µs | x |",
    "|---|---|---|---|",
  ];
  for (const [table, text] of Object.entries(pages)) {
    const plain = time(() => JSON.parse(text));
    const lossless = time(() => parseJson(text));
    lines.push(`| ${table} (${f0(text.length)} bytes) | ${f0(plain)} | ${f0(lossless)} | ${(lossless / plain).toFixed(2)} |`);
  }
  lines.push("");
  return lines;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
