#!/usr/bin/env node
// OData clients side by side (`npm run bench:odata`: builds, then `node test/bench/odata.bench.mjs`).
// Not a test: it measures and reports, and exits 1 only when a measurement could not be made or an answer was
// wrong (missed targets are reported, not failed; a call a client cannot make is reported as such).
//
// Against the emulator (`fmgen serve --tables`, its own process, 127.0.0.1 only), one described table of 20 fields
// (test/bench/odata/table.mjs):
// 1. Per call, on a table of CALL_ROWS rows: get one row by key; a filtered list of 100 (`$filter` + `$top=100`);
//    a create; a changeset of 100 PATCHes (`$batch`). Clients (test/bench/odata/clients.mjs): raw undici (the
//    floor), fmgen's @fmgen/runtime/odata, @proofkit/fmodata and fm-odata-client (test/peer-clients, installed by
//    `node scripts/install-peer-clients.mjs`). Interleaved rounds; REPEATS repeats, each on a fresh emulator, so
//    the spread between repeats is shown. Median, p95, calls/s, ratio to the floor, fastest client.
// 2. Streaming STREAM_ROWS rows with fmgen's `table.all({ pageSize: 1000 })` in a child process (--expose-gc):
//    the live heap (after gc()) every 10,000 rows, its ratio at 100,000 to 10,000, and the time per 1,000 rows;
//    raw undici paging the same way as the floor.
// 3. Reading a 100-row page without the network, in this process: JSON.parse, and fmgen's decoding of its rows
//    (where a list's client time goes).
//
// Results: stdout and test/bench/results/odata.md (written on a full run only). Every loop is bounded in count and
// time; every child is stopped in a `finally`. Knobs: BENCH_ONLY=calls,stream,decode; BENCH_REPEATS (default 3);
// BENCH_STREAM_ROWS (default 100000).

import { execFile, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { CannotError, CLIENTS } from "./odata/clients.mjs";
import { key, PASSWORD, seedRows, tableDescription, USERNAME } from "./odata/table.mjs";
import { machineTable, seededRandom, spawnEmulator } from "./support.mjs";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const SELF = fileURLToPath(import.meta.url);
const RESULTS_FILE = join(ROOT, "test/bench/results/odata.md");
const BIN = join(ROOT, "dist/cli/bin.js");
const run = promisify(execFile);

// The live-heap figures need gc(): re-exec with the flag (once; the child has it).
if (typeof globalThis.gc !== "function" && !process.execArgv.includes("--expose-gc")) {
  const r = spawnSync(process.execPath, ["--expose-gc", ...process.execArgv, SELF, ...process.argv.slice(2)], { stdio: "inherit" });
  process.exit(r.status ?? 1);
}

const ONLY = new Set((process.env.BENCH_ONLY ?? "calls,stream,decode").split(",").map((s) => s.trim()));
const REPEATS = Number(process.env.BENCH_REPEATS ?? 3);
const CALL_ROWS = 3_000;
const STREAM_ROWS = Number(process.env.BENCH_STREAM_ROWS ?? 100_000);
const PAGE = 1_000;
const HEAP_EVERY = 10_000;
const BATCH_SIZE = 100;

// Bounds.
const STARTUP_TIMEOUT_MS = 300_000;
/** Per call kind: warm-up calls per client, interleaved rounds, sequential calls per client per round. */
const PLAN = {
  get: { warmup: 150, rounds: 10, perRound: 40 },
  list: { warmup: 50, rounds: 10, perRound: 20 },
  create: { warmup: 100, rounds: 10, perRound: 30 },
  batch: { warmup: 4, rounds: 6, perRound: 3 },
};
const PHASE_MAX_MS = 90_000; // per call kind and repeat
const STREAM_CHILD_MAX_MS = 300_000;

// ---------------------------------------------------------------------------------------------------
// Helpers.

const sorted = (xs) => Float64Array.from(xs).sort();
const median = (xs) => {
  if (xs.length === 0) return NaN;
  const s = sorted(xs);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const pct = (xs, p) => {
  if (xs.length === 0) return NaN;
  const s = sorted(xs);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1))];
};
const f2 = (x) => (Number.isFinite(x) ? x.toFixed(2) : "n/a");
const f0 = (x) => (Number.isFinite(x) ? Math.round(x).toLocaleString("en-US") : "n/a");
const mib = (bytes) => (Number.isFinite(bytes) ? (bytes / 2 ** 20).toFixed(2) : "n/a");
const range = (xs, fmt = f2) => (xs.length > 1 ? `${fmt(Math.min(...xs))}–${fmt(Math.max(...xs))}` : fmt(xs[0]));

class BenchError extends Error {}
const check = (ok, message) => {
  if (!ok) throw new BenchError(message);
};

async function writeFixture(dir, table, rows) {
  await mkdir(join(dir, "tables"), { recursive: true });
  await writeFile(join(dir, "tables", `${table}.table.json`), JSON.stringify(tableDescription(table)));
  await writeFile(join(dir, "seed.json"), JSON.stringify({ accounts: [{ username: USERNAME, password: PASSWORD }], records: { [table]: seedRows(rows) } }));
}

function startEmulator(dir) {
  return spawnEmulator({ serveArgs: ["--tables", join(dir, "tables")], data: join(dir, "seed.json"), timeoutMs: STARTUP_TIMEOUT_MS });
}

// ---------------------------------------------------------------------------------------------------
// Stream worker: `node --expose-gc odata.bench.mjs --stream-worker <client> <url> <table> <expected>`.
// Prints one JSON line: rows, ms (collections excluded), the live heap every HEAP_EVERY rows.

if (process.argv[2] === "--stream-worker") {
  const [, , , which, url, table, expected] = process.argv;
  const heap = {};
  let gcMs = 0;
  let n = 0;
  let ordered = true;
  const onRow = (row) => {
    n++;
    if (row.id !== key(n)) ordered = false;
    if (n % HEAP_EVERY === 0) {
      const s = performance.now();
      globalThis.gc();
      heap[n] = process.memoryUsage().heapUsed;
      gcMs += performance.now() - s;
    }
  };
  const client = await streamClient(which, url, table);
  globalThis.gc();
  const base = process.memoryUsage().heapUsed;
  const t0 = performance.now();
  await client.stream(onRow);
  const ms = performance.now() - t0 - gcMs;
  await client.close?.();
  process.stdout.write(`${JSON.stringify({ which, n, expected: Number(expected), ordered, ms, gcMs, base, heap, maxRss: process.resourceUsage().maxRSS * 1024 })}\n`);
  process.exit(0);
}

/** The streaming clients: fmgen's `all()`, and raw undici paging as the floor. */
async function streamClient(which, url, table) {
  if (which === "fmgen") {
    const { fmgenStream } = await import("./odata/stream.mjs");
    return fmgenStream(url, table, PAGE);
  }
  const { rawStream } = await import("./odata/stream.mjs");
  return which === "raw-json" ? rawStream(url, table, PAGE, "application/json") : rawStream(url, table, PAGE);
}

// ---------------------------------------------------------------------------------------------------
// Main.

const machineLines = machineTable(["load average (1, 5, 15 min) at start", loadavg().map((l) => l.toFixed(2)).join(", ")]);
const out = [];
const problems = [];
const targets = [];
const stops = [];
let tmp;
let interrupted = false;
/** A measurement could not be made: the results file is left as it was. */
let failed = false;
const onSignal = () => {
  interrupted = true;
};

await main();

async function main() {
  tmp = await mkdtemp(join(tmpdir(), "fmgen-odata-bench-"));
  process.once("SIGINT", onSignal);
  process.once("SIGTERM", onSignal);
  const started = new Date();
  try {
    check(existsSync(BIN), "dist/cli/bin.js is missing: run `npm run build` first");
    check(existsSync(join(ROOT, "test/peer-clients/node_modules/@proofkit/fmodata")), "the peer clients are missing: run `node scripts/install-peer-clients.mjs` first");
    if (ONLY.has("calls")) await benchCalls();
    if (ONLY.has("stream") && !interrupted) await benchStream();
    if (ONLY.has("decode") && !interrupted) await benchDecode();
  } catch (error) {
    failed = true;
    problems.push(error instanceof BenchError ? error.message : String(error?.stack ?? error));
  } finally {
    for (const stop of stops.splice(0)) await stop().catch(() => {});
    await rm(tmp, { recursive: true, force: true }).catch(() => {});
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  }

  const report = [
    "# OData clients side by side",
    "",
    `Run ${started.toISOString()} with \`npm run bench:odata\` (\`node test/bench/odata.bench.mjs\` after \`npm run build\`), ${((Date.now() - started.getTime()) / 1000).toFixed(0)} s. The emulator runs in its own process (\`fmgen serve --tables\`, 127.0.0.1); its time is in every figure, equally for every client. A shared machine: other work ran beside it, hence the repeats and their spread.`,
    "",
    ...machineLines,
    `| load average (1, 5, 15 min) at end | ${loadavg().map((l) => l.toFixed(2)).join(", ")} |`,
    "",
    ...out,
    "## Targets",
    "",
    "| target | measured | |",
    "|---|---|---|",
    ...targets.map((t) => `| ${t.what} | ${t.measured} | ${t.met ? "met" : "**missed**"} |`),
    "",
    ...(problems.length ? ["## Problems", "", ...problems.map((p) => `- ${p.replaceAll("\n", "\n  ")}`), ""] : []),
  ].join("\n");
  console.log(`\n${report}`);
  if (ONLY.size === 3 && !interrupted && !failed) {
    await mkdir(dirname(RESULTS_FILE), { recursive: true });
    await writeFile(RESULTS_FILE, report);
    console.log(`written to ${RESULTS_FILE.replace(`${ROOT}/`, "")}`);
  }
  process.exitCode = problems.length ? 1 : 0;
}

// ---------------------------------------------------------------------------------------------------
// 1. Per call.

/** Checks one client's answers once: the same rows, whatever the client. */
async function checkAnswers(name, c, n) {
  const row = await c.get(key(7));
  check(row?.id === key(7) && row.Code === "ITM-000007", `${name} get(7) answered ${JSON.stringify(row)?.slice(0, 200)}`);
  const rows = await c.list(10);
  check(Array.isArray(rows) && rows.length === 100 && rows.every((r) => r.Status === "Active" && r.Qty >= 10), `${name} list answered ${rows?.length} rows, or rows outside the filter`);
  const created = await c.create(n);
  check(/^[0-9A-F-]{36}$/.test(created?.id) && created.Code === `NEW-${String(n).padStart(6, "0")}` && created.Created === "2026-11-27", `${name} create answered ${JSON.stringify(created)?.slice(0, 300)}`);
  const fetched = await c.get(created.id);
  check(fetched?.Email === `new${n}@example.com`, `${name} could not read back its created row ${created.id}`);
}

async function benchCalls() {
  const dir = join(tmp, "calls");
  await writeFixture(dir, "Items", CALL_ROWS);
  // results[op][client] = { medians: [per repeat], ratios: [per repeat], samples: [...pooled], busy, cannot }
  const results = {};
  const versions = {};
  const loads = [];
  for (let repeat = 0; repeat < REPEATS && !interrupted; repeat++) {
    const emu = await startEmulator(dir);
    stops.push(emu.stop);
    try {
      const clients = {};
      for (const [key, make] of Object.entries(CLIENTS)) {
        try {
          clients[key] = await make(emu.url, "Items");
          versions[key] = `${clients[key].name} ${clients[key].version}`;
        } catch (error) {
          if (!(error instanceof CannotError)) throw error;
          if (repeat === 0) problems.push(`${key}: ${error.message}`);
        }
      }
      const names = Object.keys(clients);
      let created = repeat * 100_000;
      let batches = 0;
      for (const name of names) await checkAnswers(name, clients[name], ++created);
      const rnd = seededRandom(42 + repeat);
      const ops = {
        get: (c) => c.get(key(1 + Math.floor(rnd() * CALL_ROWS))),
        list: (c, i) => c.list(i),
        create: (c) => c.create(++created),
        batch: async (c) => {
          const first = ((batches++ * BATCH_SIZE) % CALL_ROWS) + 1;
          const keys = Array.from({ length: BATCH_SIZE }, (_, i) => key(first + i));
          const ok = await c.batch(keys, first);
          if (ok !== BATCH_SIZE) throw new BenchError(`${c.name} batch answered ${ok} results of ${BATCH_SIZE}`);
        },
      };
      for (const [op, fn] of Object.entries(ops)) {
        const plan = PLAN[op];
        const byClient = (results[op] ??= {});
        const live = names.filter((n) => !byClient[n]?.cannot);
        // A client that cannot make the call says so on its first try (and is left out from then on).
        for (const name of [...live]) {
          try {
            await fn(clients[name], 0);
          } catch (error) {
            if (!(error instanceof CannotError)) throw error;
            (byClient[name] ??= { medians: [], ratios: [], samples: [], busy: 0 }).cannot = error.message;
            live.splice(live.indexOf(name), 1);
          }
        }
        const deadline = performance.now() + PHASE_MAX_MS;
        for (const name of live) for (let i = 0; i < plan.warmup && performance.now() < deadline; i++) await fn(clients[name], i);
        const samples = Object.fromEntries(live.map((n) => [n, []]));
        const busy = Object.fromEntries(live.map((n) => [n, 0]));
        const cpu = Object.fromEntries(live.map((n) => [n, 0]));
        let rounds = 0;
        for (let round = 0; round < plan.rounds && performance.now() < deadline && !interrupted; round++) {
          const order = live.map((_, i) => live[(i + round) % live.length]);
          for (const name of order) {
            const t0 = performance.now();
            const cpu0 = process.cpuUsage();
            for (let i = 0; i < plan.perRound; i++) {
              const s = performance.now();
              await fn(clients[name], round * plan.perRound + i);
              samples[name].push(performance.now() - s);
            }
            const used = process.cpuUsage(cpu0);
            cpu[name] += used.user + used.system;
            busy[name] += performance.now() - t0;
          }
          rounds++;
        }
        if (rounds < plan.rounds) problems.push(`repeat ${repeat + 1}, ${op}: stopped after ${rounds} of ${plan.rounds} rounds (time bound ${PHASE_MAX_MS} ms)`);
        for (const name of live) {
          const r = (byClient[name] ??= { medians: [], ratios: [], samples: [], busy: 0 });
          (r.cpu ??= []).push(cpu[name] / samples[name].length);
          r.medians.push(median(samples[name]));
          r.samples.push(...samples[name]);
          r.busy += busy[name];
        }
        if (byClient.raw) for (const name of live) byClient[name].ratios.push(byClient[name].medians.at(-1) / byClient.raw.medians.at(-1));
        console.log(`repeat ${repeat + 1} ${op}: ${live.map((n) => `${n} ${f2(byClient[n].medians.at(-1))} ms`).join(", ")}`);
      }
      for (const c of Object.values(clients)) await c.close?.();
      loads.push(loadavg()[0]);
    } finally {
      await emu.stop();
      stops.splice(stops.indexOf(emu.stop), 1);
    }
  }

  out.push(
    "## Clients",
    "",
    "| client | version |",
    "|---|---|",
    ...Object.values(versions).map((v) => `| ${v.replace(/ (\S+)$/, " | $1")} |`),
    "",
    `## 1. Per call (a table of ${f0(CALL_ROWS)} rows x 20 fields)`,
    "",
    `One call at a time per client, on a warm keep-alive connection; Basic auth on every request (OData has no session). Per repeat (${REPEATS}, each on a freshly started emulator; 1-minute load average after each: ${loads.map((l) => l.toFixed(2)).join(", ")}): warm-up calls per client, then interleaved rounds (the order rotated) of sequential calls per client (get ${PLAN.get.rounds}x${PLAN.get.perRound}, list ${PLAN.list.rounds}x${PLAN.list.perRound}, create ${PLAN.create.rounds}x${PLAN.create.perRound}, batch ${PLAN.batch.rounds}x${PLAN.batch.perRound}). *median* is the median of the repeats' medians, with their range; *p95* over every measured call of every repeat; *calls/s* is sequential throughput (measured calls over their wall time); *x floor* is the median over the repeats of each repeat's median / raw's median, with its range. get: \`Items('K0000042')\`, a random one of the ${f0(CALL_ROWS)} seeded keys (text, FileMaker's usual UUID-style key: @proofkit/fmodata quotes every key, so a numeric key is a call it cannot make, 400 8309); list: \`$filter=Qty ge n and Status eq 'Active'&$top=100\` (n = i mod 50; hundreds match); create: 17 fields, the new row returned (\`return=representation\`, 201); batch: one \`$batch\` with one changeset of ${BATCH_SIZE} \`PATCH Items('K…')\` of 2 fields each. *client CPU* is the benchmark process's own CPU time (user + system, \`process.cpuUsage\`) over a client's measured calls, per call: the client's work (building, sending, reading, decoding; its garbage collection included) without the emulator's, which runs in another process, so it is far less swayed by the machine's load than latency. The floor sends \`Accept: application/json;odata.metadata=none\` (answers without \`@context\`, \`@id\`, \`@editLink\`: the least the server sends); *raw undici, Accept: application/json* is the same code sending the full annotations (what fmgen sent before it asked for \`odata.metadata=none\` too), to show what the annotations cost, and parses bodies with undici's \`body.json()\` (the batch answer is counted, not parsed part by part).`,
    "",
    "| call | client | median ms (range over repeats) | p95 ms | calls/s | x floor (range) | client CPU µs per call (range) | fastest client? |",
    "|---|---|---|---|---|---|---|---|",
  );
  for (const [op, byClient] of Object.entries(results)) {
    const measured = Object.entries(byClient).filter(([, r]) => !r.cannot && r.medians.length);
    const clientsOnly = measured.filter(([n]) => !n.startsWith("raw"));
    const fastest = clientsOnly.reduce((a, b) => (median(b[1].medians) < median(a[1].medians) ? b : a), clientsOnly[0]);
    for (const [name, r] of Object.entries(byClient)) {
      const label = versions[name]?.replace(/ \S+$/, "") ?? name;
      if (r.cannot) {
        out.push(`| ${op} | ${label} | cannot: ${r.cannot.replaceAll("|", "\\|")} | | | | | |`);
        continue;
      }
      const isFastest = name.startsWith("raw") ? "" : fastest?.[0] === name ? "yes" : "no";
      out.push(`| ${op} | ${label} | ${f2(median(r.medians))} (${range(r.medians)}) | ${f2(pct(r.samples, 95))} | ${f0((r.samples.length / r.busy) * 1000)} | ${f2(median(r.ratios))} (${range(r.ratios)}) | ${f0(median(r.cpu))} (${range(r.cpu, f0)}) | ${isFastest} |`);
    }
    const fm = byClient.fmgen;
    if (!fm || fm.cannot) {
      targets.push({ what: `${op}: fmgen within 1.15x of raw undici`, measured: fm?.cannot ?? "fmgen not measured", met: false });
      continue;
    }
    const ratio = median(fm.ratios);
    targets.push({ what: `${op}: fmgen within 1.15x of raw undici (median)`, measured: `${f2(ratio)}x (repeats ${range(fm.ratios)}); ${f2(median(fm.medians))} vs ${f2(median(byClient.raw.medians))} ms`, met: ratio <= 1.15 });
    const peers = clientsOnly.filter(([n]) => n !== "fmgen");
    const bestPeer = peers.reduce((a, b) => (median(b[1].medians) < median(a[1].medians) ? b : a), peers[0]);
    targets.push({
      what: `${op}: fmgen the fastest client`,
      measured: bestPeer ? `fmgen ${f2(median(fm.medians))} ms; fastest peer ${versions[bestPeer[0]]?.replace(/ \S+$/, "")} ${f2(median(bestPeer[1].medians))} ms` : "no peer could make the call",
      met: fastest?.[0] === "fmgen",
    });
  }
  // Where fmgen's gap to the floor lies: the wire it asks for (raw with fmgen's Accept against the floor) and its
  // own code (fmgen against raw on the same wire), in latency and in the client's CPU.
  const split = [];
  for (const [op, byClient] of Object.entries(results)) {
    const [raw, same, fm] = [byClient.raw, byClient["raw-json"], byClient.fmgen];
    if (!raw?.medians.length || !same?.medians.length || !fm?.medians.length) continue;
    const m = (r) => median(r.medians);
    const c = (r) => median(r.cpu);
    split.push(`| ${op} | ${f2(m(fm) - m(raw))} | ${f2(m(same) - m(raw))} | ${f2(m(fm) - m(same))} | ${f0(c(fm) - c(raw))} | ${f0(c(same) - c(raw))} | ${f0(c(fm) - c(same))} |`);
  }
  if (split.length) {
    out.push(
      "",
      "Where fmgen's difference from the floor lies (medians over the repeats; negative: faster). *wire*: raw undici with fmgen's `Accept: application/json` minus the floor (the server's annotations, `@context` and `@id` + `@editLink` per row, built, sent and parsed); *code*: fmgen minus raw undici on that same wire (fmgen's building, dispatching, reading and decoding of values against `request()` + `body.json()`).",
      "",
      "| call | fmgen - floor ms | of it wire ms | of it code ms | fmgen - floor client CPU µs | of it wire µs | of it code µs |",
      "|---|---|---|---|---|---|---|",
      ...split,
    );
  }
  out.push("");
}

// ---------------------------------------------------------------------------------------------------
// 2. Streaming.

async function benchStream() {
  const dir = join(tmp, "stream");
  await writeFixture(dir, "Stream", STREAM_ROWS);
  const emu = await startEmulator(dir);
  stops.push(emu.stop);
  const worker = async (which) => {
    try {
      const { stdout } = await run(process.execPath, ["--expose-gc", SELF, "--stream-worker", which, emu.url, "Stream", String(STREAM_ROWS)], { maxBuffer: 2 ** 20, timeout: STREAM_CHILD_MAX_MS, killSignal: "SIGKILL", cwd: ROOT });
      const res = JSON.parse(stdout.trim().split("\n").at(-1));
      check(res.n === STREAM_ROWS, `stream ${which}: ${res.n} rows, expected ${STREAM_ROWS}`);
      check(res.ordered, `stream ${which}: the rows did not come in key order (a page repeated or skipped rows)`);
      return res;
    } catch (error) {
      if (error instanceof BenchError) throw error;
      throw new BenchError(`stream ${which} failed: ${error.message}\n${String(error.stdout ?? "").slice(-1500)}\n${String(error.stderr ?? "").slice(-1500)}`);
    }
  };
  const runs = { raw: [], "raw-json": [], fmgen: [] };
  try {
    for (let rep = 0; rep < REPEATS && !interrupted; rep++) {
      for (const which of ["raw", "raw-json", "fmgen"]) {
        try {
          runs[which].push(await worker(which));
          console.log(`stream ${which} ${rep + 1}: ${f2(runs[which].at(-1).ms / 1000)} s`);
        } catch (error) {
          if (which !== "fmgen" || rep > 0) throw error;
          problems.push(error.message);
          runs.fmgen = undefined;
          break;
        }
      }
      if (!runs.fmgen) break;
    }
  } finally {
    await emu.stop();
    stops.splice(stops.indexOf(emu.stop), 1);
  }
  out.push(
    `## 2. Streaming ${f0(STREAM_ROWS)} rows (20 fields), pages of ${f0(PAGE)}`,
    "",
    `Each run in its own process (\`node --expose-gc\`), ${REPEATS} runs per client against one emulator. fmgen: \`for await (const row of od.table(Stream).all({ pageSize: ${PAGE} }))\`; raw undici: the same pages fmgen asks for (${"`$orderby=\"id\"&$top=1000&$skip=k`"}), one after another, \`body.json()\`, rows handed out one by one; the floor with \`Accept: application/json;odata.metadata=none\`, and again with fmgen's \`Accept: application/json\` (answers with \`@context\`, and \`@id\` and \`@editLink\` per row). Every ${f0(HEAP_EVERY)} rows the run calls \`gc()\` and reads \`heapUsed\` (the live heap: what the iteration keeps reachable); the collections' time is left out of the times. Rows are checked to come in key order, none repeated or skipped (the i-th row's key is the i-th seeded key).`,
    "",
    "| client | s per run (range) | ms per 1,000 rows (median) | x floor | live heap at 10,000 MiB | at 100,000 MiB | ratio 100,000 / 10,000 | max RSS MiB |",
    "|---|---|---|---|---|---|---|---|",
  );
  const floorMs = median(runs.raw.map((r) => r.ms));
  const rowFor = (label, list) => {
    const ms = list.map((r) => r.ms);
    const at = (n) => list.map((r) => r.heap[n]);
    const small = at(HEAP_EVERY);
    const large = at(STREAM_ROWS);
    const ratios = list.map((r) => r.heap[STREAM_ROWS] / r.heap[HEAP_EVERY]);
    out.push(
      `| ${label} | ${range(ms.map((x) => x / 1000))} | ${f2((median(ms) / STREAM_ROWS) * 1000)} | ${f2(median(ms) / floorMs)} | ${range(small, mib)} | ${range(large, mib)} | ${range(ratios, (x) => x.toFixed(3))} | ${f0(median(list.map((r) => r.maxRss)) / 2 ** 20)} |`,
    );
    return { ms: median(ms), ratio: median(ratios), small: median(small), large: median(large) };
  };
  const series = (label, r) => `${label}'s live heap every ${f0(HEAP_EVERY)} rows (MiB, first run): ${Object.entries(r.heap).map(([n, b]) => `${f0(Number(n))}: ${mib(b)}`).join(", ")}; before the first page: ${mib(r.base)}.`;
  rowFor("raw undici (floor)", runs.raw);
  rowFor("raw undici, Accept: application/json (full annotations)", runs["raw-json"]);
  const fm = runs.fmgen?.length ? rowFor("fmgen `all()`", runs.fmgen) : undefined;
  out.push("", `- ${series("raw undici", runs.raw[0])}`);
  if (fm) {
    out.push(`- ${series("fmgen", runs.fmgen[0])}`);
    targets.push({ what: "streaming: fmgen's live heap flat from 10,000 to 100,000 rows (ratio <= 1.10)", measured: `${mib(fm.small)} MiB -> ${mib(fm.large)} MiB (${fm.ratio.toFixed(3)}x)`, met: fm.ratio <= 1.1 });
    targets.push({ what: "streaming: fmgen within 1.15x of raw paging", measured: `${f2((fm.ms / STREAM_ROWS) * 1000)} vs ${f2((floorMs / STREAM_ROWS) * 1000)} ms per 1,000 rows (${f2(fm.ms / floorMs)}x)`, met: fm.ms / floorMs <= 1.15 });
  }
  out.push("");
}

// ---------------------------------------------------------------------------------------------------
// 3. A page's reading, without the network.

async function benchDecode() {
  // A real 100-row page of the emulator, as fmgen asks for it (Accept: application/json) and as the floor does.
  const dir = join(tmp, "decode");
  await writeFixture(dir, "Items", 200);
  const emu = await startEmulator(dir);
  stops.push(emu.stop);
  const pages = {};
  try {
    for (const accept of ["application/json;odata.metadata=none", "application/json"]) {
      const res = await fetch(`${emu.url}/fmi/odata/v4/Bench/Items?$top=100`, { headers: { authorization: `Basic ${Buffer.from(`${USERNAME}:${PASSWORD}`).toString("base64")}`, accept }, signal: AbortSignal.timeout(30_000) });
      check(res.status === 200, `decode: the page answered HTTP ${res.status}`);
      pages[accept] = new Uint8Array(await res.arrayBuffer());
    }
  } finally {
    await emu.stop();
    stops.splice(stops.indexOf(emu.stop), 1);
  }
  // fmgen's own decoding (an internal module of the built runtime: what the client runs on every row it reads).
  const { decodeRow } = await import(pathToFileURL(join(ROOT, "packages/runtime/dist/odata/values.js")).href);
  const { defineTable } = await import(pathToFileURL(join(ROOT, "packages/runtime/dist/odata/index.js")).href);
  check(typeof decodeRow === "function", "decode: packages/runtime/dist/odata/values.js exports no decodeRow");
  const { tableSpec } = await import("./odata/table.mjs");
  const spec = defineTable()(tableSpec("Items"));
  const full = pages["application/json"];
  const none = pages["application/json;odata.metadata=none"];
  const fullRows = JSON.parse(new TextDecoder().decode(full)).value;
  check(fullRows.length === 100 && decodeRow(spec, fullRows[0], undefined, "decode").id === fullRows[0].id, "decode: the page is not 100 rows fmgen decodes");
  const N = 2_000;
  const time = (fn) => {
    const runs = [];
    for (let r = 0; r < 5; r++) {
      for (let i = 0; i < 200; i++) fn();
      const t0 = performance.now();
      for (let i = 0; i < N; i++) fn();
      runs.push(((performance.now() - t0) / N) * 1000);
    }
    return runs;
  };
  const text = (bytes) => new TextDecoder().decode(bytes);
  const rows = [
    [`JSON.parse of the floor's page (${f0(none.byteLength)} bytes, no annotations)`, time(() => JSON.parse(text(none)))],
    [`JSON.parse of fmgen's page (${f0(full.byteLength)} bytes: \`@context\`, \`@id\` and \`@editLink\` per row)`, time(() => JSON.parse(text(full)))],
    ["fmgen's decodeRow of the 100 parsed rows (values.ts)", time(() => {
      for (const row of fullRows) decodeRow(spec, row, undefined, "decode");
    })],
  ];
  out.push(
    "## 3. Reading one 100-row page, without the network",
    "",
    `A real page of the emulator (\`Items?$top=100\`, 20 fields), read in this process ${f0(N)} times per run, 5 runs (after 200 warm-up reads each): the bytes to a string (TextDecoder) and \`JSON.parse\`, and fmgen's decoding of each row into the app's values (\`decodeRow\` in src/runtime/odata/values.ts: the same checks and values a list call makes). It shows how much of a list call's client time is the decoding.`,
    "",
    "| step | µs per page, median (range over runs) |",
    "|---|---|",
    ...rows.map(([label, runs]) => `| ${label} | ${f0(median(runs))} (${range(runs, f0)}) |`),
    "",
  );
}
