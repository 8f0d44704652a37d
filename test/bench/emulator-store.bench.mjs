#!/usr/bin/env node
// The emulator's data directory and request log (`npm run bench:emulator` runs it after emulator.bench.mjs; or
// `node test/bench/emulator-store.bench.mjs` after `npm run build`). Not a test: it measures and reports, and exits 1
// only when a measurement could not be made or an answer was wrong.
//
// 1. Writes per second: 16 clients at once, each creating records through the Data API (one keep-alive connection
//    each), against `fmgen serve` in memory and with `--data-dir` (every answer waits for its journal line to be on
//    disk: fdatasync, shared by the writes that came in meanwhile). Target: with --data-dir at least half the rate.
// 2. Start-up with 100,000 records in the data directory: the time from spawning `fmgen serve --data-dir` to its first
//    stdout line (the URL), which comes once the directory is read and a fresh snapshot written. Target: under 3 s.
// 3. The request log's cost per request: GET one record, 8 in flight, on an emulator with the inspector (and its log)
//    and on two with `--no-inspector` (one a control), all three at once on one CPU; each one's own CPU time per GET,
//    round by round, in eight trios of fresh processes. Target: under 5 %.
//
// Every loop is bounded in count and in time; every child is stopped in a `finally`. Results: stdout and
// test/bench/results/emulator-store.md.

import { execFileSync } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve, dirname } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { Pool } from "undici";
import { machineTable, spawnEmulator } from "./support.mjs";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const RESULTS_FILE = join(ROOT, "test/bench/results/emulator-store.md");
const LAYOUTS = join(ROOT, "examples/contacts/layouts");
const DB = "Contacts";
const LAYOUT = "Contacts Web";
const BASIC = `Basic ${Buffer.from("web:secret").toString("base64")}`;

const CLIENTS = 16;
const WRITES = Number(process.env.BENCH_STORE_WRITES ?? 4_000);
const STARTUP_RECORDS = Number(process.env.BENCH_STORE_RECORDS ?? 100_000);
const GET_LOG_ROUNDS = 40;
const LOG_TRIOS = 8;
const GET_LOG_PER_ROUND = 2_000;
const PHASE_MAX_MS = 120_000;
const STARTUP_TIMEOUT_MS = 180_000;

const problems = [];
const targets = [];
const stops = [];
const f0 = (x) => (Number.isFinite(x) ? Math.round(x).toLocaleString("en-US") : "n/a");
const f2 = (x) => (Number.isFinite(x) ? x.toFixed(2) : "n/a");
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

function contact(i) {
  return { "First Name": `First${i}`, "Last Name": `Last${i % 997}`, Email: `c${i}@example.com`, Status: i % 3 ? "Active" : "Inactive", Birthday: "12/10/1815" };
}

async function seedFile(dir, records) {
  const file = join(dir, `seed-${records}.json`);
  const rows = Array.from({ length: records }, (_, i) => contact(i));
  await writeFile(file, JSON.stringify({ accounts: [{ username: "web", password: "secret" }], records: { Contacts: rows } }));
  return file;
}

async function start(seed, serveArgs) {
  const emu = await spawnEmulator({ layouts: LAYOUTS, data: seed, serveArgs, timeoutMs: STARTUP_TIMEOUT_MS });
  stops.push(emu.stop);
  return emu;
}

async function login(pool) {
  const res = await pool.request({ method: "POST", path: `/fmi/data/vLatest/databases/${DB}/sessions`, headers: { authorization: BASIC, "content-type": "application/json" }, body: "{}" });
  const json = await res.body.json();
  if (res.statusCode !== 200) throw new Error(`login: HTTP ${res.statusCode}`);
  return json.response.token;
}

/** 16 clients, each creating records one after another, WRITES in all; creates per second. */
async function writeRate(url) {
  const pool = new Pool(url, { connections: CLIENTS, pipelining: 1 });
  try {
    const token = await login(pool);
    const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    const path = `/fmi/data/vLatest/databases/${DB}/layouts/${encodeURIComponent(LAYOUT)}/records`;
    const deadline = performance.now() + PHASE_MAX_MS;
    let next = 0;
    /** `count` creates by 16 clients; each Email unique (the layout says so), from `base` on. */
    const creates = (count, base) => {
      next = 0;
      const client = async () => {
        while (next < count && performance.now() < deadline) {
          const i = next++;
          const res = await pool.request({ method: "POST", path, headers, body: JSON.stringify({ fieldData: contact(base + i) }) });
          const json = await res.body.json();
          if (res.statusCode !== 200) throw new Error(`create: HTTP ${res.statusCode} ${JSON.stringify(json.messages)}`);
        }
      };
      return Promise.all(Array.from({ length: CLIENTS }, client));
    };
    // Warm-up: 200 creates, not counted.
    await creates(200, 2_000_000);
    const t0 = performance.now();
    await creates(WRITES, 1_000_000);
    const seconds = (performance.now() - t0) / 1000;
    if (next < WRITES) problems.push(`writes: stopped after ${next} of ${WRITES} (time bound ${PHASE_MAX_MS} ms)`);
    return Math.min(next, WRITES) / seconds;
  } finally {
    await pool.close();
  }
}

/** `count` GETs of one record, 8 in flight (at most PHASE_MAX_MS: a round stopped short is a problem reported). */
async function getRound(pool, token, count) {
  const headers = { authorization: `Bearer ${token}` };
  const deadline = performance.now() + PHASE_MAX_MS;
  let n = 0;
  const worker = async () => {
    while (n < count && performance.now() < deadline) {
      n++;
      const res = await pool.request({ method: "GET", path: `/fmi/data/vLatest/databases/${DB}/layouts/${encodeURIComponent(LAYOUT)}/records/${1 + (n % 1000)}`, headers });
      await res.body.dump();
      if (res.statusCode !== 200) throw new Error(`get: HTTP ${res.statusCode}`);
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  if (n < count) problems.push(`gets: a round stopped after ${n} of ${count} (time bound ${PHASE_MAX_MS} ms)`);
}

/** A process's CPU time so far in nanoseconds, every thread of it (the collector's helpers too), from /proc (Linux). */
async function processNs(pid) {
  let sum = 0;
  for (const task of await readdir(`/proc/${pid}/task`)) {
    // A thread may end between the listing and the read.
    const stat = await readFile(`/proc/${pid}/task/${task}/schedstat`, "utf8").catch(() => undefined);
    if (stat !== undefined) sum += Number(stat.split(" ")[0]);
  }
  return sum;
}

/** Pins every thread of a process to one CPU; false where taskset is missing or refuses. */
function pinTo(pid, cpu) {
  try {
    execFileSync("taskset", ["-a", "-p", "-c", String(cpu), String(pid)], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/**
 * The log's cost: three emulators under the same load at the same moments: one with the inspector and its log (the
 * default), two with `--no-inspector` (the second a control: what two identical emulators differ by is the method's
 * noise). The three share one CPU and the client has the other, so that what the machine's neighbours do moves the
 * three alike (rounds taken one emulator after the other, as this bench did before, differed by up to 30 % between
 * two identical emulators). Each round runs GET_LOG_PER_ROUND GETs on each at once, 8 in flight each, and takes each
 * emulator's own CPU time (every thread, in ns). Two processes of one build also differ by a few per cent for the
 * whole of their lives (what their compiler made of the code, where their memory lies), so the rounds are taken with
 * LOG_TRIOS trios of fresh processes, GET_LOG_ROUNDS / LOG_TRIOS rounds each (after two rounds to warm up): judged on
 * the median of the trios' median ratios.
 */
async function logCost(seed) {
  const trios = [];
  for (let trio = 0; trio < LOG_TRIOS; trio++) trios.push(await logTrio(seed, GET_LOG_ROUNDS / LOG_TRIOS, trio));
  const quartile = (xs, q) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];
  const names = ["with the log (the default)", "--no-inspector", "--no-inspector, the control"];
  const perGet = names.map((_, i) => median(trios.map((t) => t.perGet[i])));
  const cost = median(trios.map((t) => t.median[0]));
  const noise = median(trios.map((t) => t.median[2]));
  const pinned = trios.every((t) => t.pinned);
  targets.push({ what: "the request log under 5 % per request", measured: `${f2((cost - 1) * 100)} % of the emulator's CPU per GET, the median trio's median round (the control: ${f2((noise - 1) * 100)} %)`, met: cost < 1.05 });
  return [
    "## 3. The request log's cost per request",
    "",
    `GET one record, 8 in flight on each of three emulators at once, ${f0(GET_LOG_PER_ROUND)} GETs each per round; ${LOG_TRIOS} trios of fresh emulators, ${GET_LOG_ROUNDS / LOG_TRIOS} rounds each; ${pinned ? "the three emulators on one CPU, the client on the other" : "**not pinned** (taskset missing or refused: the figures are noisier)"}. CPU: each emulator's own (every thread, from /proc), each round's beside the \`--no-inspector\` emulator's same round; the control is a second \`--no-inspector\` emulator: its ratio is the method's noise.`,
    "",
    "| emulator | CPU µs per GET | each trio's median round x --no-inspector | the median trio | its quartiles |",
    "|---|---|---|---|---|",
    ...names.map((name, i) => {
      const middle = [...trios].sort((a, b) => a.median[i] - b.median[i])[Math.floor(trios.length / 2)];
      return `| ${name} | ${f2(perGet[i])} | ${trios.map((t) => f2(t.median[i])).join(", ")} | ${f2(median(trios.map((t) => t.median[i])))} | ${f2(quartile(middle.ratios[i], 0.25))} to ${f2(quartile(middle.ratios[i], 0.75))} |`;
    }),
    "",
  ];
}

/** One trio of fresh emulators (with the log, without, the control), `rounds` rounds: each one's ratios to the one without. */
async function logTrio(seed, rounds, trio) {
  // Which of the three is started, and loaded, first turns from trio to trio: a place in the order costs no one.
  const order = [0, 1, 2].map((k) => (k + trio) % 3);
  const emus = [];
  for (const i of order) emus[i] = await start(seed, i === 0 ? [] : ["--no-inspector"]);
  const pinned = pinTo(process.pid, 0) && emus.every((emu) => pinTo(emu.pid, 1));
  const pools = emus.map((emu) => new Pool(emu.url, { connections: 8 }));
  try {
    const tokens = await Promise.all(pools.map(login));
    const cpu = emus.map(() => []);
    const roundOfAll = () => Promise.all(order.map((i) => getRound(pools[i], tokens[i], GET_LOG_PER_ROUND)));
    await roundOfAll();
    await roundOfAll();
    for (let round = 0; round < rounds; round++) {
      const before = await Promise.all(emus.map((emu) => processNs(emu.pid)));
      await roundOfAll();
      const after = await Promise.all(emus.map((emu) => processNs(emu.pid)));
      emus.forEach((_, i) => cpu[i].push(after[i] - before[i]));
    }
    const ratios = cpu.map((rows) => rows.map((ns, k) => ns / cpu[1][k]));
    return { pinned, ratios, median: ratios.map(median), perGet: cpu.map((rows) => rows.reduce((a, b) => a + b, 0) / (rounds * GET_LOG_PER_ROUND) / 1000) };
  } finally {
    for (const pool of pools) await pool.close();
    for (const emu of emus) {
      await emu.stop();
      stops.splice(stops.indexOf(emu.stop), 1);
    }
  }
}

async function main() {
  const tmp = await mkdtemp(join(tmpdir(), "fmgen-bench-store-"));
  const out = ["# The emulator's data directory and request log", "", `Run ${new Date().toISOString()} with \`node test/bench/emulator-store.bench.mjs\` (after \`npm run build\`).`, "", ...machineTable(), ""];
  try {
    const small = await seedFile(tmp, 1_000);
    // 1. Writes per second.
    const memory = await start(small, []);
    const inMemory = await writeRate(memory.url);
    await memory.stop();
    const disk = await start(small, ["--data-dir", join(tmp, "writes")]);
    const onDisk = await writeRate(disk.url);
    await disk.stop();
    out.push(
      "## 1. Writes per second, 16 clients at once",
      "",
      `${f0(WRITES)} creates (after 200 not counted), 16 clients each on its own keep-alive connection, one create after another; the Contacts layout of examples/contacts, 1,000 seeded records. With \`--data-dir\` each answer waits until its journal line is on disk (fdatasync), one write serving every create that came in meanwhile.`,
      "",
      "| emulator | creates/s | x in memory |",
      "|---|---|---|",
      `| in memory | ${f0(inMemory)} | 1.00 |`,
      `| --data-dir | ${f0(onDisk)} | ${f2(onDisk / inMemory)} |`,
      "",
    );
    targets.push({ what: "--data-dir: at least half the in-memory write rate", measured: `${f2(onDisk / inMemory)}x (${f0(onDisk)} vs ${f0(inMemory)} creates/s)`, met: onDisk / inMemory >= 0.5 });

    // 2. Start-up with 100,000 records.
    const big = await seedFile(tmp, STARTUP_RECORDS);
    const dir = join(tmp, "startup");
    const first = await start(big, ["--data-dir", dir]);
    const firstMs = first.startupMs;
    await first.stop();
    const times = [];
    for (let run = 0; run < 3; run++) {
      const again = await start(big, ["--data-dir", dir]);
      times.push(again.startupMs);
      const pool = new Pool(again.url, { connections: 1 });
      const token = await login(pool);
      const res = await pool.request({ method: "GET", path: `/fmi/data/vLatest/databases/${DB}/layouts/${encodeURIComponent(LAYOUT)}/records?_limit=1`, headers: { authorization: `Bearer ${token}` } });
      const found = (await res.body.json()).response?.dataInfo?.totalRecordCount;
      await pool.close();
      if (found !== STARTUP_RECORDS) throw new Error(`start-up: the restarted emulator holds ${found} records, not ${STARTUP_RECORDS}`);
      await again.stop();
    }
    const startup = median(times);
    out.push(
      `## 2. Start-up with ${f0(STARTUP_RECORDS)} records`,
      "",
      `From spawning \`fmgen serve --data-dir\` (node's own start-up included) to its first stdout line, the URL, printed once the data directory is read and a new snapshot written; 3 restarts, the median (each checked to hold every record). The first start, which reads the seed and writes the directory, beside it.`,
      "",
      "| start | ms |",
      "|---|---|",
      `| first (seed into an empty directory) | ${f0(firstMs)} |`,
      `| later (from the directory), median of 3 | ${f0(startup)} |`,
      "",
    );
    targets.push({ what: `start-up with ${f0(STARTUP_RECORDS)} records under 3 s`, measured: `${f0(startup)} ms`, met: startup < 3_000 });

    // 3. The request log's cost.
    out.push(...(await logCost(small)));
    out.push("## Targets", "", "| target | measured | met |", "|---|---|---|", ...targets.map((t) => `| ${t.what} | ${t.measured} | ${t.met ? "yes" : "**no**"} |`), "");
    if (problems.length) out.push("## Problems", "", ...problems.map((p) => `- ${p}`), "");
    const report = out.join("\n");
    console.log(report);
    await writeFile(RESULTS_FILE, report);
  } finally {
    for (const stop of stops.splice(0)) await stop().catch(() => {});
    await rm(tmp, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
