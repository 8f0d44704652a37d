#!/usr/bin/env node
// Type-checking 200 generated layouts (`npm run bench:typecheck`, which builds first). Not a test: it measures
// and reports.
//
// Writes 200 layout descriptions of 60 fields each (test/bench/support.mjs, as the generation benchmark), runs
// `fmgen generate` on them, writes a usage file that calls get, create and find with a sort on every layout (the
// usage of the peers benchmark's type-checking part), and runs `tsc --noEmit --extendedDiagnostics` over it three
// times against the runtime's built declarations, as an app would. Reports check time, total time, types,
// instantiations and memory per run; the program must have no diagnostics.
//
// `--root <dir>` measures another checkout of fmgen (built) instead; `--baseline <dir>` measures this checkout and
// another one (built) alternately, run by run, so that both see the same machine load, and reports both:
// `node test/bench/typecheck.bench.mjs --baseline /tmp/fmgen-before`.
// Results go to stdout and, unless `--no-write`, to test/bench/results/typecheck.md.

import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { benchDescription, generatedLayouts, machineTable, typecheckUsage } from "./support.mjs";

const HERE = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const args = process.argv.slice(2);
const rootAt = args.indexOf("--root");
const ROOT = rootAt >= 0 ? resolve(args[rootAt + 1]) : HERE;
const baselineAt = args.indexOf("--baseline");
const BASELINE = baselineAt >= 0 ? resolve(args[baselineAt + 1]) : undefined;
const WRITE = !args.includes("--no-write");
const LAYOUTS = 200;
const FIELDS = 60;
const runsAt = args.indexOf("--runs");
const RUNS = runsAt >= 0 ? Number(args[runsAt + 1]) : 3;
const run = promisify(execFile);

/** The built declarations of a runtime entry of checkout `ROOT`: the runtime package's, or (before the split) fmgen's own dist/runtime. */
function declarations(ROOT, entry) {
  for (const candidate of [join(ROOT, "packages/runtime/dist", `${entry}.d.ts`), join(ROOT, "dist/runtime", `${entry}.d.ts`)]) if (existsSync(candidate)) return candidate;
  return undefined;
}

/** Generates the layouts with checkout `ROOT`'s generator and writes the app; returns a function that type-checks it once. */
async function prepare(ROOT, dir) {
  await mkdir(dir, { recursive: true });
  const layouts = join(dir, "layouts");
  await mkdir(layouts);
  await Promise.all(Array.from({ length: LAYOUTS }, (_, i) => writeFile(join(layouts, `bench-${i}.layout.json`), JSON.stringify(benchDescription(i, FIELDS)))));
  const app = join(dir, "app");
  await run(process.execPath, [join(ROOT, "dist/cli/bin.js"), "generate", "--layouts", layouts, "--out", join(app, "generated")]);
  await symlink(join(ROOT, "node_modules"), join(app, "node_modules"), "dir");
  await writeFile(join(app, "package.json"), JSON.stringify({ type: "module" }));

  const { names, specifier } = await generatedLayouts(join(app, "generated"));
  if (names.length !== LAYOUTS) throw new Error(`found ${names.length} layout definitions, expected ${LAYOUTS}`);
  const usage = typecheckUsage(specifier, names);
  await writeFile(join(app, "usage.ts"), usage);
  const paths = {};
  for (const [name, entry] of [
    ["@fmgen/runtime", "index"],
    ["@fmgen/runtime/schema", "schema"],
  ]) {
    const file = declarations(ROOT, entry);
    if (file) paths[name] = [file];
  }
  const compilerOptions = {
    target: "ES2022",
    lib: ["ES2023", "DOM"],
    module: "NodeNext",
    moduleResolution: "NodeNext",
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    typeRoots: [join(ROOT, "node_modules/@types")],
    types: ["node"],
    paths,
  };
  await writeFile(join(app, "tsconfig.json"), JSON.stringify({ compilerOptions, files: ["usage.ts"] }));
  const tsc = createRequire(join(ROOT, "package.json")).resolve("typescript/lib/tsc.js");
  return async () => {
    let stdout = "";
    try {
      ({ stdout } = await run(process.execPath, [tsc, "-p", app, "--extendedDiagnostics"], { cwd: app, maxBuffer: 64 * 2 ** 20 }));
    } catch (error) {
      stdout = error.stdout ?? "";
      const errors = stdout.split("\n").filter((l) => /error TS\d+/.test(l));
      throw new Error(`tsc failed with ${errors.length} errors:\n${errors.slice(0, 10).join("\n")}`);
    }
    const value = (label) => {
      const m = new RegExp(`^${label}:\\s+([\\d.]+)`, "m").exec(stdout);
      if (!m) throw new Error(`tsc printed no "${label}"`);
      return Number(m[1]);
    };
    return { check: value("Check time"), total: value("Total time"), types: value("Types"), instantiations: value("Instantiations"), memoryK: value("Memory used") };
  };
}

const dir = await mkdtemp(join(tmpdir(), "fmgen-typecheck-"));
const measured = [{ root: ROOT, rows: [] }, ...(BASELINE ? [{ root: BASELINE, rows: [] }] : [])];
try {
  for (const [i, m] of measured.entries()) m.check = await prepare(m.root, join(dir, String(i)));
  for (let r = 0; r < RUNS; r++) for (const m of measured) m.rows.push(await m.check());
} finally {
  await rm(dir, { recursive: true, force: true });
}

const median = (rows, key) => [...rows].map((r) => r[key]).sort((a, b) => a - b)[Math.floor(rows.length / 2)];
const name = (m) => (m.root === HERE ? "this checkout" : m.root);
const lines = [
  `# Type-checking ${LAYOUTS} generated layouts`,
  "",
  `Run ${new Date().toISOString()} with \`node test/bench/typecheck.bench.mjs\`${rootAt >= 0 ? ` --root ${ROOT}` : ""}${BASELINE ? ` --baseline ${BASELINE}` : ""}: ${LAYOUTS} layouts x ${FIELDS} fields generated by fmgen, a usage file calling get, create and find with a sort on each, \`tsc --noEmit --extendedDiagnostics\` (strict, skipLibCheck) against the runtime's built declarations, ${RUNS} runs${BASELINE ? " of each checkout, alternating" : ""}.`,
  "",
  ...machineTable(),
  "",
  "| checkout | run | check s | total s | types | instantiations | memory MiB |",
  "|---|---|---|---|---|---|---|",
  ...measured.flatMap((m) => m.rows.map((r, i) => `| ${name(m)} | ${i + 1} | ${r.check.toFixed(2)} | ${r.total.toFixed(2)} | ${r.types} | ${r.instantiations} | ${(r.memoryK / 1024).toFixed(0)} |`)),
  "",
  ...measured.map((m) => `Median, ${name(m)}: check ${median(m.rows, "check").toFixed(2)} s, total ${median(m.rows, "total").toFixed(2)} s, ${median(m.rows, "instantiations")} instantiations, ${median(m.rows, "types")} types.`),
  ...(BASELINE
    ? ["", `This checkout against the baseline: check time x${(median(measured[0].rows, "check") / median(measured[1].rows, "check")).toFixed(2)}, instantiations x${(median(measured[0].rows, "instantiations") / median(measured[1].rows, "instantiations")).toFixed(3)}.`]
    : []),
  "",
];
console.log(lines.join("\n"));
console.log(JSON.stringify(measured.map((m) => ({ root: m.root, check: median(m.rows, "check"), total: median(m.rows, "total"), instantiations: median(m.rows, "instantiations"), types: median(m.rows, "types") }))));
if (WRITE) await writeFile(join(HERE, "test/bench/results/typecheck.md"), lines.join("\n"));
