import { execFileSync, spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

// The benchmark and load scripts run only on demand (npm run bench, node test/load/load.mjs), never in the suite;
// this at least keeps them parseable, so a broken script is found here rather than at the next measurement.
const folders = ["../bench/", "../bench/odata/", "../load/"].map((f) => fileURLToPath(new URL(f, import.meta.url)));
const scripts = folders.flatMap((folder) => readdirSync(folder).filter((name) => name.endsWith(".mjs")).map((name) => folder + name));

it.each(scripts)("%s parses", (script) => {
  expect(() => execFileSync(process.execPath, ["--check", script], { encoding: "utf8", stdio: "pipe" })).not.toThrow();
});

// The speed bounds' benchmark judges, so its judging is tested: a case over its budget (every budget scaled to 0) exits
// 1 and says so; within its budget, 0. (Needs dist/, as the integration project does.)
it("bench:bounds exits 1 when a case is over its budget, 0 when none is", () => {
  const bench = fileURLToPath(new URL("./bounds.bench.mjs", import.meta.url));
  const run = (scale: string) => spawnSync(process.execPath, [bench], { encoding: "utf8", env: { ...process.env, BENCH_ONLY: "OData URL paths", BENCH_REPEATS: "1", BENCH_BUDGET_SCALE: scale }, timeout: 60_000 });
  const over = run("0");
  expect(over.stdout).toMatch(/OData URL paths: .*\n.*OVER BUDGET/);
  expect(over.status, over.stderr).toBe(1);
  const within = run("1000");
  expect(within.stdout).toContain("every case within its budget");
  expect(within.status, within.stderr).toBe(0);
});

it("finds the scripts", () => {
  expect(scripts.length).toBeGreaterThanOrEqual(5);
  expect(scripts.some((s) => s.endsWith("/bench/odata.bench.mjs"))).toBe(true);
  expect(scripts.some((s) => s.endsWith("/bench/bounds.bench.mjs"))).toBe(true);
  expect(scripts.some((s) => s.endsWith("/bench/webviewer.bench.mjs"))).toBe(true);
});
