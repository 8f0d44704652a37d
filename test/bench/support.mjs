// What the benchmark scripts share: a seeded PRNG, the generation benchmarks' layouts, the emulator started as its
// own process, the type-checking usage file, memory peaks, and the machine table results files open with.
import { spawn } from "node:child_process";
import { readFile } from "node:fs/promises";
import { cpus, loadavg, platform, release, totalmem } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const BIN = `${ROOT}dist/cli/bin.js`;

/** The emulator's seeded PRNG (mulberry32): the same seed gives the same data on every run. */
export { seededRandom } from "../../dist/emulator/http/faults.js";

const TYPES = ["text", "number", "date", "time", "timestamp", "container"];

/**
 * Layout description `i` of the generation benchmarks: `fieldCount` fields of every type, repetitions, value
 * lists, a portal in one layout of five; field descriptions (JSDoc) unless a metadata endpoint is the source,
 * which has none.
 */
export function benchDescription(i, fieldCount, { descriptions = true } = {}) {
  const fields = Array.from({ length: fieldCount }, (_, j) => {
    const type = TYPES[j % TYPES.length];
    const field = { name: j % 3 === 0 ? `Field ${j}` : `field_${j}`, type };
    if (j === 0) Object.assign(field, { readOnly: true, autoEnter: "serial", type: "number" });
    if (type === "text" && j % 4 === 0) field.valueList = ["Active", "Inactive", "Pending"];
    if (j % 10 === 7 && type !== "container") field.repetitions = 3;
    if (descriptions && j % 9 === 1) field.description = `Field ${j} of layout ${i}.`;
    return field;
  });
  const portals = i % 5 === 0 ? [{ name: "Lines", table: "Lines", fields: [{ name: "Lines::Amount", type: "number" }, { name: "Lines::Note", type: "text" }] }] : [];
  return { database: "Bench", layout: `Bench Layout ${i}`, table: `Table${i}`, fields, portals };
}

/**
 * Starts `fmgen serve` in its own process on loopback and resolves once its first stdout line (the URL) arrives.
 * `layouts` may be left out when `serveArgs` names table descriptions (`["--tables", dir]`: OData only).
 * `stop()` sends SIGTERM, then SIGKILL after 10 s; the caller calls it in a `finally`.
 */
export async function spawnEmulator({ layouts, data, execArgv = [], serveArgs = [], timeoutMs }) {
  const t0 = performance.now();
  const args = [...execArgv, BIN, "serve", ...(layouts === undefined ? [] : ["--layouts", layouts]), ...serveArgs, "--data", data, "--port", "0"];
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (chunk) => {
    if (stderr.length < 20_000) stderr += chunk;
  });
  const exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve({ code, signal })));
  const lines = createInterface({ input: child.stdout });
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the emulator printed no URL within ${timeoutMs} ms`)), timeoutMs);
    lines.once("line", (line) => {
      clearTimeout(timer);
      resolve(line.trim());
    });
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`the emulator exited before printing its URL (code ${code}, signal ${signal}):\n${stderr}`));
    });
  });
  const startupMs = performance.now() - t0;
  // Keep draining stdout so the child never blocks on a full pipe.
  lines.on("line", () => {});
  if (!/^http:\/\/127\.0\.0\.1:\d+$/.test(url)) throw new Error(`expected http://127.0.0.1:PORT as the first stdout line, got ${JSON.stringify(url)}`);

  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return exited;
    child.kill("SIGTERM");
    const outcome = await Promise.race([exited, new Promise((resolve) => setTimeout(() => resolve(undefined), 10_000).unref())]);
    if (outcome) return outcome;
    child.kill("SIGKILL");
    return exited;
  };
  return { child, pid: child.pid, url, startupMs, stop, stderr: () => stderr };
}

/**
 * The layout definitions a generated folder exports (read from its index and modules; a database module has none)
 * and the runtime module they import.
 */
export async function generatedLayouts(generatedDir) {
  const index = await readFile(join(generatedDir, "index.ts"), "utf8");
  const names = [];
  let specifier = "@fmgen/runtime";
  for (const [, file] of index.matchAll(/from "\.\/(.+)\.js"/g)) {
    const text = await readFile(join(generatedDir, `${file}.ts`), "utf8");
    const m = /export const (\w+) = defineLayout/.exec(text);
    if (m) names.push(m[1]);
    specifier = /from "((?:@fmgen|fmgen)\/runtime)"/.exec(text)?.[1] ?? specifier;
  }
  return { names, specifier };
}

/** The type-checking benchmarks' usage file: get, create and find with a sort on every layout. */
export function typecheckUsage(specifier, names) {
  return [
    `import { createClient } from "${specifier}";`,
    `import { ${names.join(", ")} } from "./generated/index.js";`,
    `const fm = createClient({ server: "https://fms.example.com", database: "Bench", auth: { username: "u", password: "p" } });`,
    ...names.map(
      (n, i) => `export async function use${i}() {
  const c = fm.layout(${n});
  const r = await c.get(1);
  const v: string = r.fieldData["Field 6"];
  const { recordId } = await c.create({ fieldData: { field_1: 2, "Field 6": "x" } });
  const found = await c.find({ query: [{ "Field 6": "x" }], sort: [{ fieldName: "field_2", sortOrder: "descend" }], limit: 10 });
  return [v, recordId, found.data[0]?.fieldData.field_1] as const;
}`,
    ),
  ].join("\n");
}

/**
 * The peak heap and RSS of a stretch of work, and what they were when it started (after a collection): sampled every
 * 20 ms and at each `sample()`. `live()` forces a collection (`--expose-gc`) and reads the heap then, what the work
 * keeps reachable, whatever the collector's timing: `peakLive` is the highest of those (the base until the first).
 * `stop()` takes a last sample and returns the figures.
 */
export function memoryPeaks() {
  globalThis.gc?.();
  const { rss: baseRss, heapUsed: baseHeap } = process.memoryUsage();
  const peaks = { baseRss, baseHeap, peakRss: baseRss, peakHeap: baseHeap, peakLive: baseHeap };
  const sample = () => {
    const m = process.memoryUsage();
    if (m.heapUsed > peaks.peakHeap) peaks.peakHeap = m.heapUsed;
    if (m.rss > peaks.peakRss) peaks.peakRss = m.rss;
  };
  const timer = setInterval(sample, 20);
  return {
    sample,
    live() {
      globalThis.gc?.();
      peaks.peakLive = Math.max(peaks.peakLive, process.memoryUsage().heapUsed);
    },
    stop() {
      clearInterval(timer);
      sample();
      return peaks;
    },
  };
}

/**
 * The Markdown table of the machine a benchmark ran on, as every results file opens: CPU, Node, OS and memory, and
 * the load average (the 1-minute figure now, unless the benchmark gives its own row, such as start and end).
 */
export function machineTable(load = ["load average (1 min) at start", loadavg()[0].toFixed(2)]) {
  return [
    "| machine | |",
    "|---|---|",
    `| CPU | ${cpus()[0]?.model.trim() ?? "?"} (${cpus().length} logical cores) |`,
    `| Node | ${process.version} |`,
    `| OS | ${platform()} ${release()}, ${(totalmem() / 2 ** 30).toFixed(1)} GiB RAM |`,
    `| ${load[0]} | ${load[1]} |`,
  ];
}
