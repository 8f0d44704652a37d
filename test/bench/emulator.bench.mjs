#!/usr/bin/env node
// Benchmark of the fmgen Data API emulator (`npm run bench`). Not a test: it measures and reports.
//
// 1. writes a seed of 10,000 Contacts records (plus the account web:secret) into a temp dir;
// 2. runs `node dist/cli/bin.js serve ... --port 0` in its own process (loopback only);
// 3. measures GET-one-record throughput (undici Pool, 8 in flight), `_find` latency over a mix of
//    finds, and list (`_limit=100`) latency; checks every answer against what the seed says it must be;
//    then the same hosted file through OData: GET by key (as the Data API GET), a `$filter`ed list of 100 (beside
//    the Data API list) and a `$batch` changeset of 100 operations;
// 4. prints a markdown table and writes it to test/bench/results/emulator.md.
//
// Every loop is bounded in count and in time, and the emulator child is stopped in a `finally`, so the
// script always ends by itself.
//
// Environment knobs (all optional):
//   BENCH_CPU_PROF=<dir>   run the emulator child with `--cpu-prof` into <dir> and print its top
//                          self-time functions at the end
//   BENCH_ONLY=get|find|list|odata|portal   run only one of the measurements (handy with BENCH_CPU_PROF)
//   BENCH_RECORDS=<n>      number of Contacts records (default 10000)
//   BENCH_PORTAL_ROWS=<n,m>   portal rows per write of the portal-write measurement (default 10000,20000);
//                          with other sizes it prints only (the results file keeps the default sizes' figures)

import { mkdtemp, mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { cpus, loadavg, tmpdir, totalmem, platform, release } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { performance } from "node:perf_hooks";
import { Pool } from "undici";
import { seededRandom, spawnEmulator } from "./support.mjs";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const RESULTS_FILE = join(ROOT, "test/bench/results/emulator.md");
const PORTAL_RESULTS_FILE = join(ROOT, "test/bench/results/emulator-portal-writes.md");
const DEFAULT_PORTAL_ROWS = "10000,20000";
const PORTAL_ROWS = (process.env.BENCH_PORTAL_ROWS ?? DEFAULT_PORTAL_ROWS).split(",").map(Number);
const RECORDS = Number(process.env.BENCH_RECORDS ?? 10_000);
const ONLY = process.env.BENCH_ONLY ?? "";
const CPU_PROF_DIR = process.env.BENCH_CPU_PROF ? resolve(process.env.BENCH_CPU_PROF) : undefined;

const DATABASE = "Contacts";
const LAYOUT = "Contacts Web";
const API = `/fmi/data/vLatest/databases/${DATABASE}`;
const RECORDS_PATH = `${API}/layouts/${encodeURIComponent(LAYOUT)}/records`;
const FIND_PATH = `${API}/layouts/${encodeURIComponent(LAYOUT)}/_find`;

// Bounds.
const STARTUP_TIMEOUT_MS = 180_000;
const GET_CONCURRENCY = 8;
const GET_WARMUP_MS = 1_000;
const GET_WINDOW_MS = 5_000;
const GET_MAX_REQUESTS = 500_000;
const FIND_WARMUP_ROUNDS = 20;
const FIND_ROUNDS = 200;
const FIND_PHASE_MAX_MS = 180_000;
const LIST_WARMUP_ROUNDS = 20;
const LIST_ROUNDS = 200;
const LIST_PHASE_MAX_MS = 60_000;
const REQUEST_TIMEOUT_MS = 30_000;
/** One portal write of 20,000 rows took minutes before it was made near-linear (commit history). */
const PORTAL_REQUEST_TIMEOUT_MS = 900_000;
const FIND_TARGET_MS = 20;
const ODATA = `/fmi/odata/v4/${DATABASE}`;
const ODATA_LIST_WARMUP_ROUNDS = 20;
const ODATA_LIST_ROUNDS = 200;
const CHANGESET_OPERATIONS = 100;
const CHANGESET_WARMUP_ROUNDS = 5;
const CHANGESET_ROUNDS = 40;
const ODATA_PHASE_MAX_MS = 120_000;

// ---------------------------------------------------------------------------------------------------
// Seed data: deterministic (seeded PRNG), so runs compare.

const FIRST_NAMES = [
  "Ada", "Adam", "Adele", "Alan", "Alice", "Ángel", "Anna", "Ben", "Bjørn", "Carla", "Chen", "Chloé", "Daniel",
  "Dmitri", "Elif", "Emma", "François", "Grace", "Hannah", "Hiro", "Isabel", "Jamal", "José", "Katherine",
  "Leila", "Liam", "María", "Mateo", "Noah", "Olivia", "Priya", "Quentin", "Rosa", "Sven", "Tomás", "Yuki", "Zoë",
];
// Word-prefix "smi" hits: Smith, SMITH, Smithson, Smits, Van Smit, Smith-Jones, Jones-Smith, Smiley;
// near misses: Goldsmith, Schmidt, Psmith, Sm1th.
const LAST_NAMES = [
  "Smith", "SMITH", "Smithson", "Smits", "Van Smit", "Smith-Jones", "Jones-Smith", "Smiley", "Goldsmith", "Schmidt",
  "Psmith", "Sm1th", "Johnson", "Johnston", "Williams", "Brown", "Jones", "Garcia", "García", "Miller", "Müller",
  "Davis", "Rodriguez", "Martinez", "Hernández", "Lopez", "Gonzalez", "Wilson", "Anderson", "Thomas", "Taylor",
  "Moore", "Jackson", "Martin", "Lee", "O'Brien", "O'Neil", "Nguyen", "Kim", "Park", "Chen", "Wang", "Singh",
  "Patel", "Kowalski", "Novák", "Dubois", "Rossi", "Bianchi", "Lovelace", "Hopper", "Turing", "de la Cruz",
];
const COMPANIES = ["Analytical Engines", "US Navy", "NASA", "Acme", "Globex", "Initech", "Umbrella", "Hooli"];

const pad = (n, w = 2) => String(n).padStart(w, "0");

function generateContacts(count) {
  const rnd = seededRandom(0xf11e3a4e);
  const pick = (list) => list[Math.floor(rnd() * list.length)];
  const phone = () => `555-${pad(Math.floor(rnd() * 10_000), 4)}`;
  const rows = [];
  for (let i = 1; i <= count; i++) {
    const row = {
      "First Name": pick(FIRST_NAMES),
      // Mostly one last name, sometimes empty, sometimes a double-barrelled name.
      "Last Name": rnd() < 0.03 ? "" : pick(LAST_NAMES),
      Email: `user${i}@example.com`,
    };
    const s = rnd();
    if (s < 0.55) row.Status = "Active";
    else if (s < 0.95) row.Status = "Inactive";
    if (rnd() < 0.95) {
      // 1935..2006, every day possible (29 February included on leap years via the day cap).
      const year = 1935 + Math.floor(rnd() * 72);
      const month = 1 + Math.floor(rnd() * 12);
      const dim = [31, year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1];
      row.Birthday = `${pad(month)}/${pad(1 + Math.floor(rnd() * dim))}/${year}`;
    }
    if (rnd() < 0.8) row["Wake Up"] = `${pad(4 + Math.floor(rnd() * 6))}:${pad(Math.floor(rnd() * 60))}:${pad(Math.floor(rnd() * 60))}`;
    const p = rnd();
    if (p < 0.7) row.Phone = phone();
    if (p > 0.4) row["Phone(2)"] = phone();
    if (p > 0.6 || p < 0.1) row["Phone(3)"] = phone();
    if (rnd() < 0.5) row["Company::Name"] = pick(COMPANIES);
    rows.push(row);
  }
  return rows;
}

// ---------------------------------------------------------------------------------------------------
// Client-side model of the expected answers (FileMaker find semantics as docs/emulator.md states them).

const WORD = /[\p{L}\p{N}\p{M}_']+/gu;
const fold = (text) => text.toLowerCase().replaceAll("ς", "σ");
const wordPrefix = (value, prefix) => (fold(value ?? "").match(WORD) ?? []).some((w) => w.startsWith(prefix));
/** MM/DD/YYYY -> YYYYMMDD as a number, or null. */
const dateKey = (value) => {
  if (!value) return null;
  const [m, d, y] = value.split("/").map(Number);
  return y * 10_000 + m * 100 + d;
};

function defineFinds(contacts, rnd) {
  const ids = (predicate) => contacts.flatMap((row, i) => (predicate(row) ? [i + 1] : []));
  return [
    {
      kind: "word prefix",
      label: `{"Last Name": "smi"}`,
      body: () => ({ query: [{ "Last Name": "smi" }] }),
      expectedIds: ids((r) => wordPrefix(r["Last Name"], "smi")),
    },
    {
      kind: "exact (==)",
      label: `{"Email": "==user<n>@example.com"}, n random`,
      body: (n) => ({ query: [{ Email: `==user${n}@example.com` }] }),
      // Varies per call; expectation computed from n.
      expectedIdsFor: (n) => [n],
      pickN: () => 1 + Math.floor(rnd() * contacts.length),
    },
    {
      kind: "date range",
      label: `{"Birthday": "01/01/1980...12/31/1989"}`,
      body: () => ({ query: [{ Birthday: "01/01/1980...12/31/1989" }] }),
      expectedIds: ids((r) => {
        const k = dateKey(r.Birthday);
        return k !== null && k >= 19800101 && k <= 19891231;
      }),
    },
    {
      kind: "OR + omit",
      label: `[{"Last Name": "johnson"}, {"First Name": "ada"}, {"Status": "inactive", "omit": "true"}]`,
      body: () => ({ query: [{ "Last Name": "johnson" }, { "First Name": "ada" }, { Status: "inactive", omit: "true" }] }),
      expectedIds: ids(
        (r) => (wordPrefix(r["Last Name"], "johnson") || wordPrefix(r["First Name"], "ada")) && !wordPrefix(r.Status, "inactive"),
      ),
    },
    {
      kind: "sort desc + limit 100",
      label: `{"Status": "Active"}, sort Birthday descend, limit "100"`,
      body: () => ({ query: [{ Status: "Active" }], sort: [{ fieldName: "Birthday", sortOrder: "descend" }], limit: "100" }),
      // FileMaker order: empty first ascending, so last descending; ties keep creation order.
      expectedIds: contacts
        .map((r, i) => ({ id: i + 1, key: dateKey(r.Birthday), match: wordPrefix(r.Status, "active") }))
        .filter((x) => x.match)
        .sort((a, b) => {
          const order = a.key === b.key ? 0 : a.key === null ? -1 : b.key === null ? 1 : a.key - b.key;
          return order !== 0 ? -order : a.id - b.id;
        })
        .map((x) => x.id),
      ordered: true,
    },
  ];
}

// ---------------------------------------------------------------------------------------------------
// Helpers.

function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1];
}

function summarize(samples) {
  const sorted = Float64Array.from(samples).sort();
  return { n: sorted.length, p50: percentile(sorted, 50), p90: percentile(sorted, 90), p99: percentile(sorted, 99), max: sorted[sorted.length - 1] ?? NaN };
}

const ms = (x) => (Number.isFinite(x) ? x.toFixed(2) : "n/a");
const int = (x) => Math.round(x).toLocaleString("en-US");

class BenchError extends Error {}

function check(condition, message) {
  if (!condition) throw new BenchError(message);
}

async function jsonRequest(pool, { method, path, headers = {}, body, timeoutMs = REQUEST_TIMEOUT_MS }) {
  const t0 = performance.now();
  const res = await pool.request({
    method,
    path,
    headers: body === undefined ? headers : { "content-type": "application/json", ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
  });
  const text = await res.body.text();
  const elapsed = performance.now() - t0;
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    throw new BenchError(`${method} ${path}: HTTP ${res.statusCode}, body is not JSON: ${text.slice(0, 200)}`);
  }
  return { status: res.statusCode, headers: res.headers, json, elapsed };
}

function codeOf(json) {
  return json?.messages?.[0]?.code;
}

// ---------------------------------------------------------------------------------------------------
// The emulator child process.

function startEmulatorChild(seedFile) {
  const execArgv = CPU_PROF_DIR ? ["--cpu-prof", `--cpu-prof-dir=${CPU_PROF_DIR}`] : [];
  return spawnEmulator({ layouts: join(ROOT, "examples/contacts/layouts"), data: seedFile, execArgv, timeoutMs: STARTUP_TIMEOUT_MS });
}

async function childRssMiB(pid) {
  try {
    const status = await readFile(`/proc/${pid}/status`, "utf8");
    const m = /VmRSS:\s+(\d+)\s+kB/.exec(status);
    return m ? Number(m[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------------------------------------------
// Measurements.

/** What the GET measurement asks for and how it spot-checks an answer: the Data API's record, or OData's entity. */
const DATA_API_GET = {
  path: (id) => `${RECORDS_PATH}/${id}`,
  verify: (id, json) => {
    const rec = json.response?.data?.[0];
    return codeOf(json) === "0" && rec?.recordId === String(id) && rec?.fieldData?.Email === `user${id}@example.com`;
  },
};
const ODATA_GET = {
  // The key is `id`, the serial field, which the seed numbers as it numbers the records.
  path: (id) => `${ODATA}/Contacts(${id})`,
  verify: (id, json) => json.id === id && json.Email === `user${id}@example.com`,
};

async function benchGetRecord(pool, auth, count, target = DATA_API_GET) {
  const rnd = seededRandom(42);
  const latencies = new Float64Array(GET_MAX_REQUESTS);
  let measured = 0;
  let errors = 0;
  let firstError;
  let verified = 0;

  const run = async (durationMs, record) => {
    const deadline = performance.now() + durationMs;
    let started = 0;
    let windowEnd = 0;
    const worker = async () => {
      while (performance.now() < deadline && (!record || started < GET_MAX_REQUESTS)) {
        started++;
        const id = 1 + Math.floor(rnd() * count);
        const t0 = performance.now();
        const res = await pool.request({
          method: "GET",
          path: target.path(id),
          headers: auth,
          headersTimeout: REQUEST_TIMEOUT_MS,
          bodyTimeout: REQUEST_TIMEOUT_MS,
        });
        const text = await res.body.text();
        const t1 = performance.now();
        windowEnd = t1;
        if (res.statusCode !== 200) {
          errors++;
          firstError ??= `GET record ${id}: HTTP ${res.statusCode} ${text.slice(0, 200)}`;
          continue;
        }
        // Spot-check 1 answer in 64 (parsing every answer would measure the client).
        if ((id & 63) === 0) {
          const json = JSON.parse(text);
          if (!target.verify(id, json)) {
            errors++;
            firstError ??= `GET record ${id}: unexpected answer ${text.slice(0, 200)}`;
          } else verified++;
        }
        if (record && measured < GET_MAX_REQUESTS) latencies[measured++] = t1 - t0;
      }
    };
    const t0 = performance.now();
    await Promise.all(Array.from({ length: GET_CONCURRENCY }, worker));
    return (windowEnd || performance.now()) - t0;
  };

  await run(GET_WARMUP_MS, false);
  errors = 0;
  firstError = undefined;
  const elapsedMs = await run(GET_WINDOW_MS, true);
  const stats = summarize(latencies.subarray(0, measured));
  return { requests: measured, elapsedMs, rps: (measured / elapsedMs) * 1000, ...stats, errors, firstError, verified };
}

async function benchFinds(pool, auth, contacts) {
  const rnd = seededRandom(7);
  const finds = defineFinds(contacts, rnd);
  const perKind = new Map(finds.map((f) => [f.kind, []]));
  const all = [];
  const found = new Map();
  const problems = [];
  const phaseDeadline = performance.now() + FIND_PHASE_MAX_MS;
  let rounds = 0;

  for (let round = 0; round < FIND_WARMUP_ROUNDS + FIND_ROUNDS; round++) {
    if (performance.now() > phaseDeadline) {
      problems.push(`find phase stopped at its ${FIND_PHASE_MAX_MS} ms bound after ${rounds} measured rounds`);
      break;
    }
    const measuring = round >= FIND_WARMUP_ROUNDS;
    for (const find of finds) {
      const n = find.pickN?.();
      const expected = find.expectedIdsFor ? find.expectedIdsFor(n) : find.expectedIds;
      const { status, json, elapsed } = await jsonRequest(pool, { method: "POST", path: FIND_PATH, headers: auth, body: find.body(n) });
      if (measuring) {
        perKind.get(find.kind).push(elapsed);
        all.push(elapsed);
      }
      // Verify on the first round of each find (and always for the varying exact find).
      if (round === 0 || find.expectedIdsFor) {
        const problem = verifyFind(find, status, json, expected);
        if (problem && problems.length < 10) problems.push(problem);
        if (round === 0) found.set(find.kind, json?.response?.dataInfo?.foundCount ?? 0);
      }
    }
    if (measuring) rounds++;
  }
  return { finds, perKind, all, found, problems, rounds };
}

function verifyFind(find, status, json, expected) {
  const where = `${find.kind} (${find.label})`;
  if (expected.length === 0) {
    return status === 404 && codeOf(json) === "401" ? undefined : `${where}: expected 404/401 (no match), got HTTP ${status} code ${codeOf(json)}`;
  }
  if (status !== 200 || codeOf(json) !== "0") return `${where}: HTTP ${status} code ${codeOf(json)} ${json?.messages?.[0]?.message ?? ""}`;
  const info = json.response.dataInfo;
  const got = json.response.data.map((r) => Number(r.recordId));
  const limit = 100;
  if (info.foundCount !== expected.length) return `${where}: foundCount ${info.foundCount}, expected ${expected.length}`;
  if (info.returnedCount !== Math.min(limit, expected.length)) return `${where}: returnedCount ${info.returnedCount}, expected ${Math.min(limit, expected.length)}`;
  if (info.totalRecordCount !== RECORDS) return `${where}: totalRecordCount ${info.totalRecordCount}, expected ${RECORDS}`;
  const want = expected.slice(0, limit);
  if (find.ordered) {
    const i = want.findIndex((id, k) => got[k] !== id);
    if (i !== -1) return `${where}: record #${i + 1} is ${got[i]}, expected ${want[i]} (sort order)`;
  } else {
    // Unsorted finds come back in creation order.
    const i = want.findIndex((id, k) => got[k] !== id);
    if (i !== -1) return `${where}: record #${i + 1} is ${got[i]}, expected ${want[i]} (creation order)`;
  }
  return undefined;
}

async function benchList(pool, auth, count) {
  const rnd = seededRandom(99);
  const samples = [];
  const problems = [];
  const deadline = performance.now() + LIST_PHASE_MAX_MS;
  for (let round = 0; round < LIST_WARMUP_ROUNDS + LIST_ROUNDS; round++) {
    if (performance.now() > deadline) {
      problems.push(`list phase stopped at its ${LIST_PHASE_MAX_MS} ms bound`);
      break;
    }
    const offset = 1 + Math.floor(rnd() * Math.max(1, count - 99));
    const { status, json, elapsed } = await jsonRequest(pool, { method: "GET", path: `${RECORDS_PATH}?_offset=${offset}&_limit=100`, headers: auth });
    if (round >= LIST_WARMUP_ROUNDS) samples.push(elapsed);
    const data = json?.response?.data;
    if (status !== 200 || codeOf(json) !== "0" || data?.length !== Math.min(100, count - offset + 1) || data[0].recordId !== String(offset)) {
      if (problems.length < 5) problems.push(`list _offset=${offset}: HTTP ${status} code ${codeOf(json)}, ${data?.length} records, first ${data?.[0]?.recordId}`);
    }
  }
  const bytes = Buffer.byteLength(JSON.stringify((await jsonRequest(pool, { method: "GET", path: `${RECORDS_PATH}?_limit=100`, headers: auth })).json));
  return { ...summarize(samples), problems, bytes };
}

/**
 * Portal writes of many rows in one request (docs/emulator.md, "7. Duplicate, delete related rows, edit portal rows,
 * options, upload modId"), one contact per size: one PATCH creates the rows (portalData without recordId), one edits
 * every row (portalData with recordId), one deletes every row (fieldData.deleteRelated). Each is measured once; the
 * portal's row count is checked after each.
 */
/** A request whose answer is read as text (OData's `$count` and `$batch` answers are not JSON). */
async function textRequest(pool, { method, path, headers = {}, body }) {
  const t0 = performance.now();
  const res = await pool.request({ method, path, headers, body, headersTimeout: REQUEST_TIMEOUT_MS, bodyTimeout: REQUEST_TIMEOUT_MS });
  const text = await res.body.text();
  return { status: res.statusCode, headers: res.headers, text, elapsed: performance.now() - t0 };
}

/** OData's `$filter`ed list of 100 (`Status eq 'Active'`, a random `$skip`), checked against the seed, in creation order. */
async function benchODataList(pool, auth, contacts) {
  const rnd = seededRandom(1234);
  const active = contacts.flatMap((row, i) => (row.Status === "Active" ? [i + 1] : []));
  const samples = [];
  const problems = [];
  const deadline = performance.now() + ODATA_PHASE_MAX_MS;
  for (let round = 0; round < ODATA_LIST_WARMUP_ROUNDS + ODATA_LIST_ROUNDS; round++) {
    if (performance.now() > deadline) {
      problems.push(`OData list phase stopped at its ${ODATA_PHASE_MAX_MS} ms bound`);
      break;
    }
    const skip = Math.floor(rnd() * Math.max(1, active.length - 100));
    const path = `${ODATA}/Contacts?$filter=${encodeURIComponent("Status eq 'Active'")}&$top=100&$skip=${skip}`;
    const { status, json, elapsed } = await jsonRequest(pool, { method: "GET", path, headers: auth });
    if (round >= ODATA_LIST_WARMUP_ROUNDS) samples.push(elapsed);
    const got = (json?.value ?? []).map((r) => r.id);
    const want = active.slice(skip, skip + 100);
    if (status !== 200 || got.length !== want.length || got.some((id, k) => id !== want[k])) {
      if (problems.length < 5) problems.push(`OData list $skip=${skip}: HTTP ${status}, ${got.length} records, first ${got[0]}, expected ${want[0]}`);
    }
  }
  const bytes = Buffer.byteLength(JSON.stringify((await jsonRequest(pool, { method: "GET", path: `${ODATA}/Contacts?$filter=${encodeURIComponent("Status eq 'Active'")}&$top=100`, headers: auth })).json));
  return { ...summarize(samples), problems, bytes, matching: active.length };
}

/**
 * One `$batch` changeset of CHANGESET_OPERATIONS operations per round, half creates of Invoices (for contacts past
 * the first two, which the portal measurement uses), half PATCHes of random Contacts by key; every part must answer
 * 204, and the Invoices count must grow by exactly the creates.
 */
async function benchChangeset(pool, auth, count) {
  const { writeBatchRequest } = await import("../../dist/emulator/odata/batch-write.js");
  const { parseBatchResponse } = await import("../../dist/emulator/odata/batch-parse.js");
  const rnd = seededRandom(4321);
  const creates = CHANGESET_OPERATIONS / 2;
  const invoiceCount = async () => Number((await textRequest(pool, { method: "GET", path: `${ODATA}/Invoices/$count`, headers: auth })).text);
  const before = await invoiceCount();
  const samples = [];
  const problems = [];
  const deadline = performance.now() + ODATA_PHASE_MAX_MS;
  let rounds = 0;
  for (let round = 0; round < CHANGESET_WARMUP_ROUNDS + CHANGESET_ROUNDS; round++) {
    if (performance.now() > deadline) {
      problems.push(`changeset phase stopped at its ${ODATA_PHASE_MAX_MS} ms bound`);
      break;
    }
    const requests = [];
    for (let k = 0; k < creates; k++) {
      const contact = 3 + Math.floor(rnd() * Math.max(1, count - 2));
      requests.push({ method: "POST", url: `${ODATA}/Invoices`, headers: [["Content-Type", "application/json"]], body: JSON.stringify({ ContactID: contact, Amount: round * 1000 + k }) });
      const edited = 1 + Math.floor(rnd() * count);
      requests.push({ method: "PATCH", url: `${ODATA}/Contacts(${edited})`, headers: [["Content-Type", "application/json"]], body: JSON.stringify({ "Wake Up": `06:${pad(k % 60)}:00` }) });
    }
    const written = writeBatchRequest([{ kind: "changeset", requests }]);
    const { status, headers, text, elapsed } = await textRequest(pool, { method: "POST", path: `${ODATA}/$batch`, headers: { ...auth, "content-type": written.contentType }, body: Buffer.from(written.body) });
    rounds++;
    if (round >= CHANGESET_WARMUP_ROUNDS) samples.push(elapsed);
    let statuses = [];
    try {
      const [item] = status === 200 ? parseBatchResponse(Buffer.from(text, "utf8"), headers["content-type"]) : [];
      statuses = item?.kind === "changeset" ? item.responses.map((r) => r.status) : [item?.response?.status ?? status];
    } catch (error) {
      statuses = [`unreadable answer: ${error.message}`];
    }
    if (statuses.length !== CHANGESET_OPERATIONS || statuses.some((s) => s !== 204)) {
      if (problems.length < 5) problems.push(`changeset round ${round}: HTTP ${status}, part statuses ${[...new Set(statuses)].join(", ")} (${statuses.length} parts) ${text.slice(0, 200)}`);
    }
  }
  const after = await invoiceCount();
  if (after !== before + rounds * creates) problems.push(`Invoices grew from ${before} to ${after}, expected ${before + rounds * creates}`);
  return { ...summarize(samples), problems, bytes: 0 };
}

async function benchPortalWrites(pool, auth, sizes) {
  const results = [];
  const problems = [];
  const portalCount = async (contact) => {
    const { json } = await jsonRequest(pool, { method: "GET", path: `${RECORDS_PATH}/${contact}?_limit.Invoices=1`, headers: auth });
    return json?.response?.data?.[0]?.portalDataInfo?.find((p) => p.portalObjectName === "Invoices")?.foundCount;
  };
  for (const [i, rows] of sizes.entries()) {
    const contact = i + 1;
    const path = `${RECORDS_PATH}/${contact}`;
    const before = await portalCount(contact);
    const write = async (label, body) => {
      const answer = await jsonRequest(pool, { method: "PATCH", path, headers: auth, body, timeoutMs: PORTAL_REQUEST_TIMEOUT_MS });
      if (answer.status !== 200 || codeOf(answer.json) !== "0") problems.push(`${label} of ${rows} rows: HTTP ${answer.status} code ${codeOf(answer.json)}`);
      return answer;
    };
    const created = await write("create", { fieldData: {}, portalData: { Invoices: Array.from({ length: rows }, (_, k) => ({ "Invoices::Amount": k })) } });
    const ids = (created.json?.response?.newPortalRecordInfo ?? []).map((info) => info.recordId);
    if ((await portalCount(contact)) !== before + rows) problems.push(`create of ${rows} rows: the portal does not hold them`);
    const edited = await write("edit", { fieldData: {}, portalData: { Invoices: ids.map((recordId, k) => ({ recordId, "Invoices::Amount": k + 1 })) } });
    const deleted = await write("delete", { fieldData: { deleteRelated: ids.map((id) => `Invoices.${id}`) } });
    if ((await portalCount(contact)) !== before) problems.push(`delete of ${rows} rows: the portal still holds some`);
    results.push({ rows, createMs: created.elapsed, editMs: edited.elapsed, deleteMs: deleted.elapsed });
    console.log(`  ${int(rows)} rows: create ${ms(created.elapsed)} ms, edit ${ms(edited.elapsed)} ms, delete ${ms(deleted.elapsed)} ms`);
  }
  return { results, problems };
}

function portalWritesReport(portal) {
  const out = [];
  out.push("## Portal writes (`PATCH .../records/{id}` with every row in one request)", "");
  out.push("One request per write, measured once each: `portalData` creating the rows, `portalData` editing every row by `recordId`, `fieldData.deleteRelated` naming every row.", "");
  out.push("| rows | create ms | edit ms | delete ms |", "|---|---|---|---|");
  for (const r of portal.results) out.push(`| ${int(r.rows)} | ${ms(r.createMs)} | ${ms(r.editMs)} | ${ms(r.deleteMs)} |`);
  out.push("");
  return out;
}

// ---------------------------------------------------------------------------------------------------
// CPU profile summary (only with BENCH_CPU_PROF).

async function summarizeProfiles(dir, top = 25) {
  const files = (await readdir(dir)).filter((f) => f.endsWith(".cpuprofile"));
  const lines = [];
  for (const file of files) {
    const profile = JSON.parse(await readFile(join(dir, file), "utf8"));
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    const self = new Map();
    let total = 0;
    for (let i = 0; i < profile.samples.length; i++) {
      const node = byId.get(profile.samples[i]);
      const dt = profile.timeDeltas[i] ?? 0;
      total += dt;
      const cf = node.callFrame;
      const where = cf.url ? `${cf.url.replace(`file://${ROOT}/`, "")}:${cf.lineNumber + 1}` : "";
      const key = `${cf.functionName || "(anonymous)"} ${where}`.trim();
      self.set(key, (self.get(key) ?? 0) + dt);
    }
    lines.push(`\nCPU profile ${file}: ${(total / 1000).toFixed(0)} ms sampled; top self time:`);
    for (const [key, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, top)) {
      lines.push(`  ${(us / 1000).toFixed(1).padStart(9)} ms ${((100 * us) / total).toFixed(1).padStart(5)}%  ${key}`);
    }
  }
  return lines.join("\n");
}

// ---------------------------------------------------------------------------------------------------
// Main.

async function main() {
  const machine = {
    cpu: cpus()[0]?.model?.trim() ?? "unknown",
    cores: cpus().length,
    node: process.version,
    os: `${platform()} ${release()}`,
    memGiB: (totalmem() / 2 ** 30).toFixed(1),
    loadBefore: loadavg()[0].toFixed(2),
  };
  console.log(`fmgen emulator bench: ${RECORDS} records; ${machine.cpu} x${machine.cores}, Node ${machine.node}`);

  const tmp = await mkdtemp(join(tmpdir(), "fmgen-bench-"));
  if (CPU_PROF_DIR) await mkdir(CPU_PROF_DIR, { recursive: true });
  let emulator;
  let pool;
  const onSignal = () => {
    // try/finally does not run on a signal: stop the child and the temp dir here, then leave.
    emulator?.child.kill("SIGKILL");
    rm(tmp, { recursive: true, force: true }).finally(() => process.exit(130));
  };
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);

  try {
    const contacts = generateContacts(RECORDS);
    const seedFile = join(tmp, "seed.json");
    await writeFile(seedFile, JSON.stringify({ accounts: [{ username: "web", password: "secret", privileges: ["fmrest", "fmodata"] }], records: { Contacts: contacts } }));

    emulator = await startEmulatorChild(seedFile);
    console.log(`emulator at ${emulator.url} (pid ${emulator.child.pid}), ready after ${int(emulator.startupMs)} ms`);
    pool = new Pool(emulator.url, { connections: GET_CONCURRENCY, pipelining: 1, keepAliveTimeout: 4_000 });

    const login = await jsonRequest(pool, {
      method: "POST",
      path: `${API}/sessions`,
      headers: { authorization: `Basic ${Buffer.from("web:secret").toString("base64")}` },
      body: {},
    });
    check(login.status === 200 && codeOf(login.json) === "0" && login.json.response?.token, `login failed: HTTP ${login.status} ${JSON.stringify(login.json)}`);
    check(login.headers["x-fm-data-access-token"] === login.json.response.token, "login: X-FM-Data-Access-Token header differs from response.token");
    const auth = { authorization: `Bearer ${login.json.response.token}` };
    const rssAfterLoad = await childRssMiB(emulator.child.pid);

    let get, find, list;
    if (!ONLY || ONLY === "get") {
      console.log(`GET one record: ${GET_CONCURRENCY} in flight, ${GET_WARMUP_MS} ms warm-up, ${GET_WINDOW_MS} ms window...`);
      get = await benchGetRecord(pool, auth, RECORDS);
      console.log(`  ${int(get.rps)} req/s, p50 ${ms(get.p50)} ms, p99 ${ms(get.p99)} ms, ${get.errors} errors`);
    }
    if (!ONLY || ONLY === "find") {
      console.log(`_find: ${FIND_WARMUP_ROUNDS} warm-up + ${FIND_ROUNDS} rounds of 5 finds, sequential...`);
      find = await benchFinds(pool, auth, contacts);
      console.log(`  median ${ms(summarize(find.all).p50)} ms over ${find.all.length} finds`);
    }
    if (!ONLY || ONLY === "list") {
      console.log(`list _limit=100: ${LIST_WARMUP_ROUNDS} warm-up + ${LIST_ROUNDS} rounds...`);
      list = await benchList(pool, auth, RECORDS);
      console.log(`  median ${ms(list.p50)} ms`);
    }
    let odata;
    if (!ONLY || ONLY === "odata") {
      const basic = { authorization: `Basic ${Buffer.from("web:secret").toString("base64")}` };
      console.log(`OData GET by key: ${GET_CONCURRENCY} in flight, ${GET_WARMUP_MS} ms warm-up, ${GET_WINDOW_MS} ms window...`);
      const oget = await benchGetRecord(pool, basic, RECORDS, ODATA_GET);
      console.log(`  ${int(oget.rps)} req/s, p50 ${ms(oget.p50)} ms, p99 ${ms(oget.p99)} ms, ${oget.errors} errors`);
      console.log(`OData $filter list of 100: ${ODATA_LIST_WARMUP_ROUNDS} warm-up + ${ODATA_LIST_ROUNDS} rounds...`);
      const olist = await benchODataList(pool, basic, contacts);
      console.log(`  median ${ms(olist.p50)} ms`);
      console.log(`OData $batch changeset of ${CHANGESET_OPERATIONS} operations: ${CHANGESET_WARMUP_ROUNDS} warm-up + ${CHANGESET_ROUNDS} rounds...`);
      const ochangeset = await benchChangeset(pool, basic, RECORDS);
      console.log(`  median ${ms(ochangeset.p50)} ms`);
      odata = { get: oget, list: olist, changeset: ochangeset };
    }
    let portal;
    if (!ONLY || ONLY === "portal") {
      console.log(`portal writes: ${PORTAL_ROWS.map(int).join(", ")} rows, one request each for create, edit, delete...`);
      portal = await benchPortalWrites(pool, auth, PORTAL_ROWS);
    }
    const rssAtEnd = await childRssMiB(emulator.child.pid);

    // Logout, so the session count is clean (and the endpoint is exercised once).
    const logout = await jsonRequest(pool, { method: "DELETE", path: `${API}/sessions/${login.json.response.token}` });
    const logoutOk = logout.status === 200 && codeOf(logout.json) === "0";

    // ---- Report.
    const out = [];
    out.push("# fmgen emulator benchmark", "");
    out.push(`Run ${new Date().toISOString()} with \`npm run bench\` (test/bench/emulator.bench.mjs).`, "");
    out.push("| machine | |", "|---|---|");
    out.push(`| CPU | ${machine.cpu} (${machine.cores} logical cores) |`);
    out.push(`| Node | ${machine.node} |`, `| OS | ${machine.os}, ${machine.memGiB} GiB RAM |`);
    out.push(`| load average (1 min) at start / end | ${machine.loadBefore} / ${loadavg()[0].toFixed(2)} |`);
    out.push("", "Client and emulator run on the same machine (the emulator in its own process); figures include the client's own CPU use, and vary with whatever else runs on these cores (see the load average).", "");
    out.push("| setup | value |", "|---|---|");
    out.push(`| Contacts records seeded | ${int(RECORDS)} |`);
    out.push(`| emulator start (spawn to URL, seed load included) | ${int(emulator.startupMs)} ms |`);
    out.push(`| emulator RSS after load / at end | ${rssAfterLoad?.toFixed(0) ?? "n/a"} MiB / ${rssAtEnd?.toFixed(0) ?? "n/a"} MiB |`);
    out.push("");

    const failures = [];
    if (get) {
      out.push("## GET one record (`/layouts/Contacts%20Web/records/{random id}`)", "");
      out.push(`undici Pool, ${GET_CONCURRENCY} keep-alive connections, ${GET_CONCURRENCY} requests in flight, ${GET_WARMUP_MS / 1000} s warm-up, ${GET_WINDOW_MS / 1000} s window (at most ${int(GET_MAX_REQUESTS)} requests).`, "");
      out.push("| requests | requests/s | p50 ms | p99 ms | max ms | errors |", "|---|---|---|---|---|---|");
      out.push(`| ${int(get.requests)} | ${int(get.rps)} | ${ms(get.p50)} | ${ms(get.p99)} | ${ms(get.max)} | ${get.errors} |`, "");
      if (get.errors) failures.push(`GET: ${get.errors} errors; first: ${get.firstError}`);
    }
    let findTargetMet;
    if (find) {
      const overall = summarize(find.all);
      findTargetMet = overall.p50 < FIND_TARGET_MS;
      out.push(`## \`_find\` over ${int(RECORDS)} records`, "");
      out.push(`Sequential, one request at a time; ${FIND_WARMUP_ROUNDS} warm-up rounds then ${find.rounds} rounds, each round one find of every kind. Time from request start to the whole body read (default limit 100 records per answer).`, "");
      out.push("| find | found | median ms | p90 ms | p99 ms |", "|---|---|---|---|---|");
      for (const f of find.finds) {
        const s = summarize(find.perKind.get(f.kind));
        out.push(`| ${f.kind}: \`${f.label}\` | ${int(find.found.get(f.kind) ?? 0)} | ${ms(s.p50)} | ${ms(s.p90)} | ${ms(s.p99)} |`);
      }
      out.push(`| **all finds** (${overall.n}) | | **${ms(overall.p50)}** | ${ms(overall.p90)} | ${ms(overall.p99)} |`, "");
      out.push(`Target: median under ${FIND_TARGET_MS} ms per find: **${findTargetMet ? "met" : "NOT met"}** (${ms(overall.p50)} ms).`, "");
      for (const p of find.problems) failures.push(`find: ${p}`);
    }
    if (list) {
      out.push("## List (`GET .../records?_offset={random}&_limit=100`)", "");
      out.push(`Sequential; ${LIST_WARMUP_ROUNDS} warm-up rounds then ${list.n}; one answer is ${int(list.bytes)} bytes.`, "");
      out.push("| median ms | p90 ms | p99 ms |", "|---|---|---|");
      out.push(`| ${ms(list.p50)} | ${ms(list.p90)} | ${ms(list.p99)} |`, "");
      for (const p of list.problems) failures.push(`list: ${p}`);
    }
    if (odata) {
      out.push("## OData (`/fmi/odata/v4/Contacts`), beside the Data API", "");
      out.push("The same hosted file and account (Basic auth on every request, as OData signs in).", "");
      out.push(`### GET one record: OData \`Contacts({random id})\` by key`, "");
      out.push(`As the Data API GET above: ${GET_CONCURRENCY} requests in flight, ${GET_WARMUP_MS / 1000} s warm-up, ${GET_WINDOW_MS / 1000} s window.`, "");
      out.push("| API | requests | requests/s | p50 ms | p99 ms | max ms | errors |", "|---|---|---|---|---|---|---|");
      if (get) out.push(`| Data API | ${int(get.requests)} | ${int(get.rps)} | ${ms(get.p50)} | ${ms(get.p99)} | ${ms(get.max)} | ${get.errors} |`);
      const og = odata.get;
      out.push(`| OData | ${int(og.requests)} | ${int(og.rps)} | ${ms(og.p50)} | ${ms(og.p99)} | ${ms(og.max)} | ${og.errors} |`, "");
      if (og.errors) failures.push(`OData GET: ${og.errors} errors; first: ${og.firstError}`);
      out.push("### List of 100", "");
      out.push(`Sequential; OData \`Contacts?$filter=Status eq 'Active'&$top=100&$skip={random}\` (${int(odata.list.matching)} match; one answer is ${int(odata.list.bytes)} bytes) beside the Data API's unfiltered \`_offset/_limit=100\` list above.`, "");
      out.push("| API | median ms | p90 ms | p99 ms |", "|---|---|---|---|");
      if (list) out.push(`| Data API list | ${ms(list.p50)} | ${ms(list.p90)} | ${ms(list.p99)} |`);
      out.push(`| OData \`$filter\` list | ${ms(odata.list.p50)} | ${ms(odata.list.p90)} | ${ms(odata.list.p99)} |`, "");
      for (const p of odata.list.problems) failures.push(`OData list: ${p}`);
      out.push(`### \`$batch\`: one changeset of ${CHANGESET_OPERATIONS} operations`, "");
      out.push(`Sequential; ${CHANGESET_WARMUP_ROUNDS} warm-up rounds then ${odata.changeset.n}; each changeset ${CHANGESET_OPERATIONS / 2} POSTs of Invoices and ${CHANGESET_OPERATIONS / 2} PATCHes of Contacts by key, all applied atomically (every part answers 204).`, "");
      out.push("| median ms | p90 ms | p99 ms | median per operation ms |", "|---|---|---|---|");
      out.push(`| ${ms(odata.changeset.p50)} | ${ms(odata.changeset.p90)} | ${ms(odata.changeset.p99)} | ${ms(odata.changeset.p50 / CHANGESET_OPERATIONS)} |`, "");
      for (const p of odata.changeset.problems) failures.push(`OData changeset: ${p}`);
    }
    if (portal) {
      out.push(...portalWritesReport(portal));
      for (const p of portal.problems) failures.push(`portal writes: ${p}`);
    }
    if (!logoutOk) failures.push(`logout: HTTP ${logout.status} code ${codeOf(logout.json)}`);
    out.push("## Checks", "");
    out.push(failures.length === 0 ? "Every checked answer matched the seed (found counts, record ids, sort order, list pages)." : failures.map((f) => `- ${f}`).join("\n"));
    out.push("");

    const report = out.join("\n");
    console.log(`\n${report}`);
    if (!ONLY && !CPU_PROF_DIR) {
      await mkdir(dirname(RESULTS_FILE), { recursive: true });
      await writeFile(RESULTS_FILE, report);
      console.log(`written to ${RESULTS_FILE.replace(`${ROOT}/`, "")}`);
    }
    if (portal && !CPU_PROF_DIR && (process.env.BENCH_PORTAL_ROWS ?? DEFAULT_PORTAL_ROWS) === DEFAULT_PORTAL_ROWS) {
      const head = [`# fmgen emulator benchmark: portal writes`, "", `Run ${new Date().toISOString()} with \`BENCH_ONLY=portal node test/bench/emulator.bench.mjs\` (or \`npm run bench\`); machine as in emulator.md, load average ${machine.loadBefore} at start.`, ""];
      await writeFile(PORTAL_RESULTS_FILE, [...head, ...portalWritesReport(portal)].join("\n"));
      console.log(`written to ${PORTAL_RESULTS_FILE.replace(`${ROOT}/`, "")}`);
    }
    if (findTargetMet !== undefined) console.log(`find target (median < ${FIND_TARGET_MS} ms): ${findTargetMet ? "MET" : "NOT MET"}`);
    if (failures.length > 0) process.exitCode = 1;
  } finally {
    await pool?.close().catch(() => {});
    if (emulator) {
      const outcome = await emulator.stop();
      if (outcome && outcome.code !== 0 && outcome.signal !== "SIGTERM") {
        console.error(`emulator exited with code ${outcome.code} signal ${outcome.signal}\n${emulator.stderr()}`);
      }
    }
    await rm(tmp, { recursive: true, force: true });
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }
  if (CPU_PROF_DIR) console.log(await summarizeProfiles(CPU_PROF_DIR));
}

main().catch((error) => {
  console.error(error instanceof BenchError ? `bench failed: ${error.message}` : error);
  process.exitCode = 1;
});
