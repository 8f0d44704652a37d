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
//    `node scripts/install-peer-clients.mjs`), each in its own process. Interleaved rounds; REPEATS repeats, each on a fresh emulator, so
//    the spread between repeats is shown. Median, p95, calls/s, ratio to the floor, fastest client.
// 2. Streaming STREAM_ROWS rows with fmgen's `table.all({ pageSize: 1000 })` in a child process (--expose-gc):
//    the live heap (after gc()) every 10,000 rows, its ratio at 100,000 to 10,000, and the time per 1,000 rows;
//    raw undici paging the same way as the floor.
// 3. Reading a 100-row page without the network, in this process: JSON.parse, and fmgen's decoding of its rows
//    (where a list's client time goes).
//
// Results: stdout and test/bench/results/odata.md (written on a full run only). Every loop is bounded in count and
// time; every child is stopped in a `finally`. Knobs: BENCH_ONLY=calls,stream,decode; BENCH_CLIENTS=raw,fmgen,...;
// BENCH_REPEATS (default 3);
// BENCH_STREAM_ROWS (default 100000).

import { execFile, fork, spawnSync } from "node:child_process";
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

/** BENCH_CLIENTS=raw,fmgen: only these clients (the keys of clients.mjs CLIENTS), to look at some of them apart. */
const PICKED = process.env.BENCH_CLIENTS ? new Set(process.env.BENCH_CLIENTS.split(",").map((s) => s.trim())) : undefined;
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
  list: { warmup: 200, rounds: 10, perRound: 20 },
  create: { warmup: 100, rounds: 10, perRound: 30 },
  batch: { warmup: 40, rounds: 10, perRound: 5 },
};
const PHASE_MAX_MS = 90_000; // per call kind and repeat
const STREAM_CHILD_MAX_MS = 300_000;
const WORKER_ANSWER_MS = 120_000; // one answer of a calls worker (a warm-up or a round)

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
// Calls worker: `node --expose-gc odata.bench.mjs --calls-worker <client> <url> <repeat>`, forked with an IPC channel.
// Each client runs in its own process, as in an app: no client's garbage is collected (nor its heap grown) in another
// client's calls (@proofkit/fmodata's batch leaves hundreds of ms of garbage per call), and the CPU time measured is
// the client's own. It answers one message at a time: {type: "check", n}, {type: "run", op, indices} (the samples,
// the CPU time and the wall time of those calls), {type: "close"}.

/** The calls, each taking the index the main process gave it (a create's number, a batch's number, a list's n). */
function callOps(c, rnd) {
  return {
    get: () => c.get(key(1 + Math.floor(rnd() * CALL_ROWS))),
    list: (i) => c.list(i),
    create: (n) => c.create(n),
    batch: async (b) => {
      const first = ((b * BATCH_SIZE) % CALL_ROWS) + 1;
      const keys = Array.from({ length: BATCH_SIZE }, (_, i) => key(first + i));
      const ok = await c.batch(keys, first);
      check(ok === BATCH_SIZE, `${c.name} batch answered ${ok} results of ${BATCH_SIZE}`);
    },
  };
}

if (process.argv[2] === "--calls-worker") {
  const [, , , which, url, repeat] = process.argv;
  const failure = (error) =>
    error instanceof CannotError ? { cannot: error.message } : { error: error instanceof BenchError ? error.message : String(error?.stack ?? error), bench: error instanceof BenchError };
  let c;
  try {
    c = await CLIENTS[which](url, "Items");
  } catch (error) {
    process.send(failure(error));
    process.disconnect();
    process.exit(0);
  }
  const ops = callOps(c, seededRandom(42 + Number(repeat)));
  process.on("message", async (m) => {
    try {
      if (m.type === "check") {
        await checkAnswers(which, c, m.n);
        process.send({ ok: true });
      } else if (m.type === "run") {
        const samples = [];
        const cpu0 = process.cpuUsage();
        const t0 = performance.now();
        for (const i of m.indices) {
          const s = performance.now();
          await ops[m.op](i);
          samples.push(performance.now() - s);
        }
        const used = process.cpuUsage(cpu0);
        process.send({ samples, cpu: used.user + used.system, busy: performance.now() - t0 });
      } else if (m.type === "close") {
        await c.close?.();
        process.exit(0);
      }
    } catch (error) {
      process.send(failure(error));
    }
  });
  process.send({ ready: `${c.name} ${c.version}` });
  await new Promise(() => {}); // the IPC channel keeps the process alive until "close"
}

/** Forks a calls worker for one client; `ask` sends a message and resolves to its answer (an error answer throws). */
async function startCallsWorker(which, url, repeat) {
  const child = fork(SELF, ["--calls-worker", which, url, String(repeat)], { execArgv: ["--expose-gc"], stdio: ["ignore", "inherit", "inherit", "ipc"] });
  let pending;
  const exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve(code ?? signal)));
  exited.then((how) => pending?.reject(new BenchError(`the ${which} calls worker exited (${how}) with a question unanswered`)));
  child.on("message", (m) => {
    const p = pending;
    pending = undefined;
    p?.resolve(m);
  });
  const answer = () =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new BenchError(`the ${which} calls worker answered nothing in ${WORKER_ANSWER_MS} ms`)), WORKER_ANSWER_MS);
      pending = { resolve: (m) => (clearTimeout(timer), resolve(m)), reject: (e) => (clearTimeout(timer), reject(e)) };
    });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      if (child.connected) child.send({ type: "close" });
      const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
      await exited;
      clearTimeout(timer);
    }
  };
  const checked = (m) => {
    if (m.error !== undefined) throw m.bench ? new BenchError(m.error) : new Error(`${which}: ${m.error}`);
    return m;
  };
  // The first answer: { ready } or { cannot } (a client that cannot be made here); an error stops the worker.
  const first = await answer()
    .then(checked)
    .catch(async (error) => {
      await stop();
      throw error;
    });
  const ask = async (message) => {
    const next = answer();
    child.send(message);
    return checked(await next);
  };
  return { first, ask, stop };
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
    const workers = {};
    try {
      for (const name of Object.keys(CLIENTS).filter((k) => PICKED === undefined || PICKED.has(k))) {
        const worker = await startCallsWorker(name, emu.url, repeat);
        stops.push(worker.stop);
        if (worker.first.cannot !== undefined) {
          await worker.stop();
          if (repeat === 0) problems.push(`${name}: ${worker.first.cannot}`);
          continue;
        }
        workers[name] = worker;
        versions[name] = worker.first.ready;
      }
      const names = Object.keys(workers);
      let created = repeat * 100_000;
      for (const name of names) await workers[name].ask({ type: "check", n: ++created });
      /**
       * The index each call is given: a list's n, a create's unique number, a batch's number (its 100 keys). A batch's
       * number is its place in the client's own sequence, as a list's is, so that every client's i-th batch writes the
       * same 100 rows: the emulator's time for a PATCH by key grows with the row's place in the table (K0000001-100
       * ~3 ms a batch, K0002901-3000 ~20 ms), and numbers drawn from one counter shared by the clients gave each
       * client other rows (a client identical to raw measured 1.34-1.49x raw that way).
       */
      const indexOf = { get: (i) => i, list: (i) => i, create: () => ++created, batch: (i) => i };
      const indices = (op, from, count) => Array.from({ length: count }, (_, i) => indexOf[op](from + i));
      for (const op of Object.keys(PLAN)) {
        const plan = PLAN[op];
        const byClient = (results[op] ??= {});
        const live = names.filter((n) => !byClient[n]?.cannot);
        // A client that cannot make the call says so on its first try (and is left out from then on).
        for (const name of [...live]) {
          const first = await workers[name].ask({ type: "run", op, indices: indices(op, 0, 1) });
          if (first.cannot === undefined) continue;
          (byClient[name] ??= { medians: [], ratios: [], samples: [], busy: 0 }).cannot = first.cannot;
          live.splice(live.indexOf(name), 1);
        }
        const deadline = performance.now() + PHASE_MAX_MS;
        for (const name of live) await workers[name].ask({ type: "run", op, indices: indices(op, 0, plan.warmup) });
        const samples = Object.fromEntries(live.map((n) => [n, []]));
        const busy = Object.fromEntries(live.map((n) => [n, 0]));
        const cpu = Object.fromEntries(live.map((n) => [n, 0]));
        let rounds = 0;
        for (let round = 0; round < plan.rounds && performance.now() < deadline && !interrupted; round++) {
          const order = live.map((_, i) => live[(i + round) % live.length]);
          for (const name of order) {
            const r = await workers[name].ask({ type: "run", op, indices: indices(op, round * plan.perRound, plan.perRound) });
            samples[name].push(...r.samples);
            cpu[name] += r.cpu;
            busy[name] += r.busy;
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
      for (const worker of Object.values(workers)) {
        await worker.stop();
        stops.splice(stops.indexOf(worker.stop), 1);
      }
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
    `Each client in its own process (forked; the main process orders the rounds), as in an app: no client's garbage is collected in another's calls. One call at a time per client, on a warm keep-alive connection; Basic auth on every request (OData has no session). Per repeat (${REPEATS}, each on a freshly started emulator; 1-minute load average after each: ${loads.map((l) => l.toFixed(2)).join(", ")}): warm-up calls per client, then interleaved rounds (the order rotated) of sequential calls per client (get ${PLAN.get.rounds}x${PLAN.get.perRound}, list ${PLAN.list.rounds}x${PLAN.list.perRound}, create ${PLAN.create.rounds}x${PLAN.create.perRound}, batch ${PLAN.batch.rounds}x${PLAN.batch.perRound}). *median* is the median of the repeats' medians, with their range; *p95* over every measured call of every repeat; *calls/s* is sequential throughput (measured calls over their wall time); *x floor* is the median over the repeats of each repeat's median / raw's median, with its range. get: \`Items('K0000042')\`, a random one of the ${f0(CALL_ROWS)} seeded keys (text, FileMaker's usual UUID-style key: @proofkit/fmodata quotes every key, so a numeric key is a call it cannot make, 400 8309); list: \`$filter=Qty ge n and Status eq 'Active'&$top=100\` (n = i mod 50; hundreds match); create: 17 fields, the new row returned (\`return=representation\`, 201); batch: one \`$batch\` with one changeset of ${BATCH_SIZE} \`PATCH Items('K…')\` of 2 fields each, every client's i-th batch on the same ${BATCH_SIZE} rows (the emulator's time for a PATCH by key grows with the row's place in the table). *client CPU* is the client's process's CPU time (user + system, \`process.cpuUsage\`) over its measured calls, per call: the client's work (building, sending, reading, decoding; its garbage collection included) without the emulator's, which runs in another process, so it is far less swayed by the machine's load than latency. The floor sends \`Accept: application/json;odata.metadata=none\` (answers without \`@context\`, \`@id\`, \`@editLink\`: the least the server sends); *raw undici, Accept: application/json* is the same code sending the full annotations (what fmgen sent before it asked for \`odata.metadata=none\` too), to show what the annotations cost, and parses bodies with undici's \`body.json()\` (the batch answer is counted, not parsed part by part).`,
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
  // fmgen's gap to the floor: since fmgen asks for the floor's wire (odata.metadata=none), all of it is its own code
  // (building, dispatching, reading and decoding), in latency and in the client's CPU.
  const gaps = [];
  for (const [op, byClient] of Object.entries(results)) {
    const [raw, fm] = [byClient.raw, byClient.fmgen];
    if (!raw?.medians.length || !fm?.medians.length) continue;
    gaps.push(`| ${op} | ${f2(median(fm.medians) - median(raw.medians))} | ${f0(median(fm.cpu) - median(raw.cpu))} |`);
  }
  if (gaps.length) {
    out.push(
      "",
      "fmgen's difference from the floor (medians over the repeats; negative: faster). fmgen asks for the floor's wire (`odata.metadata=none`), so all of it is fmgen's code: building, dispatching, reading and decoding values, against `request()` + `body.json()` (the batch answer counted, not parsed part by part). What the annotations cost is the row *raw undici, Accept: application/json* above.",
      "",
      "| call | fmgen - floor ms | fmgen - floor client CPU µs |",
      "|---|---|---|",
      ...gaps,
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
      // The order rotates: the emulator slows over a run of runs (its heap grows), which must not weigh on one client.
      const clients = ["raw", "raw-json", "fmgen"];
      for (const which of clients.map((_, i) => clients[(i + rep) % clients.length])) {
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
    `Each run in its own process (\`node --expose-gc\`), ${REPEATS} runs per client against one emulator, the clients' order rotated from one repeat to the next; *x floor* is the median over the repeats of the run's time / the floor's run's time in the same repeat. fmgen: \`for await (const row of od.table(Stream).all({ pageSize: ${PAGE} }))\`; raw undici: the same pages fmgen asks for (${"`$orderby=\"id\"&$top=1000&$skip=k`"}), one after another, \`body.json()\`, rows handed out one by one; the floor with \`Accept: application/json;odata.metadata=none\` (as fmgen asks), and again with \`Accept: application/json\` (answers with \`@context\`, and \`@id\` and \`@editLink\` per row: what fmgen asked for before). Every ${f0(HEAP_EVERY)} rows the run calls \`gc()\` and reads \`heapUsed\` (the live heap: what the iteration keeps reachable); the collections' time is left out of the times. Rows are checked to come in key order, none repeated or skipped (the i-th row's key is the i-th seeded key).`,
    "",
    "| client | s per run (range) | ms per 1,000 rows (median) | x floor (range) | live heap at 10,000 MiB | at 100,000 MiB | ratio 100,000 / 10,000 | max RSS MiB |",
    "|---|---|---|---|---|---|---|---|",
  );
  const floorMs = median(runs.raw.map((r) => r.ms));
  // x floor: the median over the repeats of the client's run / the floor's run of the same repeat (as for the calls).
  const floorRatios = (list) => list.flatMap((r, rep) => (runs.raw[rep] ? [r.ms / runs.raw[rep].ms] : []));
  const floorRatio = (list) => median(floorRatios(list));
  const rowFor = (label, list) => {
    const ms = list.map((r) => r.ms);
    const at = (n) => list.map((r) => r.heap[n]);
    const small = at(HEAP_EVERY);
    const large = at(STREAM_ROWS);
    const ratios = list.map((r) => r.heap[STREAM_ROWS] / r.heap[HEAP_EVERY]);
    out.push(
      `| ${label} | ${range(ms.map((x) => x / 1000))} | ${f2((median(ms) / STREAM_ROWS) * 1000)} | ${f2(floorRatio(list))} (${range(floorRatios(list))}) | ${range(small, mib)} | ${range(large, mib)} | ${range(ratios, (x) => x.toFixed(3))} | ${f0(median(list.map((r) => r.maxRss)) / 2 ** 20)} |`,
    );
    return { ms: median(ms), ratio: median(ratios), small: median(small), large: median(large), x: floorRatio(list) };
  };
  const series = (label, r) => `${label}'s live heap every ${f0(HEAP_EVERY)} rows (MiB, first run): ${Object.entries(r.heap).map(([n, b]) => `${f0(Number(n))}: ${mib(b)}`).join(", ")}; before the first page: ${mib(r.base)}.`;
  rowFor("raw undici (floor)", runs.raw);
  rowFor("raw undici, Accept: application/json (full annotations)", runs["raw-json"]);
  const fm = runs.fmgen?.length ? rowFor("fmgen `all()`", runs.fmgen) : undefined;
  out.push("", `- ${series("raw undici", runs.raw[0])}`);
  if (fm) {
    out.push(`- ${series("fmgen", runs.fmgen[0])}`);
    targets.push({ what: "streaming: fmgen's live heap flat from 10,000 to 100,000 rows (ratio <= 1.10)", measured: `${mib(fm.small)} MiB -> ${mib(fm.large)} MiB (${fm.ratio.toFixed(3)}x)`, met: fm.ratio <= 1.1 });
    targets.push({ what: "streaming: fmgen within 1.15x of raw paging", measured: `${f2(fm.x)}x (median of the repeats' ratios); ${f2((fm.ms / STREAM_ROWS) * 1000)} vs ${f2((floorMs / STREAM_ROWS) * 1000)} ms per 1,000 rows`, met: fm.x <= 1.15 });
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
  // fmgen asks for the page without annotations (odata.metadata=none), as the floor does: it decodes those rows.
  const noneRows = JSON.parse(new TextDecoder().decode(none)).value;
  check(noneRows.length === 100 && decodeRow(spec, noneRows[0], undefined, "decode").id === noneRows[0].id, "decode: the page is not 100 rows fmgen decodes");
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
    [`JSON.parse of the page fmgen and the floor ask for (${f0(none.byteLength)} bytes, \`odata.metadata=none\`: no annotations)`, time(() => JSON.parse(text(none)))],
    [`JSON.parse of the page with annotations (${f0(full.byteLength)} bytes: \`@context\`, \`@id\` and \`@editLink\` per row; what fmgen asked for before)`, time(() => JSON.parse(text(full)))],
    ["fmgen's decodeRow of the 100 parsed rows (values.ts)", time(() => {
      for (const row of noneRows) decodeRow(spec, row, undefined, "decode");
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
