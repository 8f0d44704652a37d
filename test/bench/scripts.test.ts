import { execFileSync } from "node:child_process";
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

it("finds the scripts", () => {
  expect(scripts.length).toBeGreaterThanOrEqual(5);
  expect(scripts.some((s) => s.endsWith("/bench/odata.bench.mjs"))).toBe(true);
});
