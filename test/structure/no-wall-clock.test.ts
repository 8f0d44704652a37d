import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { globSync } from "tinyglobby";
import { describe, expect, it } from "vitest";

// Speed targets are measured by benchmarks, never by wall-clock assertions in tests: a test that holds elapsed time
// to a budget fails when the machine is busy rather than when the code regresses. A test asserts what the code
// does (the answer, the error, the work counted: parts, rows, attempts); the budget goes to
// test/bench/bounds.bench.mjs (`npm run bench:bounds`). A lower bound (a retry that must wait) cannot fail under load
// and is allowed.

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const CLOCK = String.raw`(?:Date\.now|performance\.now)\(\)|process\.hrtime(?:\.bigint)?\(`;
const UPPER = String.raw`\.(?:not\.)?toBeLessThan(?:OrEqual)?\(|\.toBeWithin\(`;

/** The wall-clock upper bounds in `source`: an expect of a clock difference, or of a name holding one. */
export function wallClockBounds(source: string): string[] {
  const found: string[] = [];
  // expect(Date.now() - started).toBeLessThan(...), the message argument and line breaks allowed.
  for (const m of source.matchAll(new RegExp(String.raw`expect\((?:(?!\bexpect\()[^;])*?(?:${CLOCK})(?:(?!\bexpect\()[^;])*?(?:${UPPER})`, "g"))) found.push(m[0]);
  // const ms = performance.now() - t0; ... expect(ms).toBeLessThan(...), and the same of a property (round.ms).
  const names = [...source.matchAll(new RegExp(String.raw`\b(?:const|let|var)\s+(\w+)\s*=\s*(?:${CLOCK})[^;\n]*-`, "g"))].map((m) => m[1]!);
  for (const name of new Set(names)) {
    for (const m of source.matchAll(new RegExp(String.raw`expect\(\s*${name}\b[^;]*?(?:${UPPER})`, "g"))) found.push(m[0]);
  }
  return found;
}

describe("no test holds elapsed time to a budget", () => {
  const files = globSync(["test/**/*.ts"], { cwd: ROOT, ignore: ["**/node_modules/**", "test/structure/no-wall-clock.test.ts"] });

  it("finds the test files", () => {
    expect(files.length).toBeGreaterThan(100);
  });

  it("none compares a Date.now() or performance.now() difference with toBeLessThan", () => {
    const offenders = files.flatMap((file) => wallClockBounds(readFileSync(`${ROOT}${file}`, "utf8")).map((bound) => `${file}: ${bound.replace(/\s+/g, " ").slice(0, 120)}`));
    expect(offenders).toEqual([]);
  });

  it("recognises the forms it forbids, and leaves lower bounds and clocks read for other reasons", () => {
    expect(wallClockBounds("expect(Date.now() - started).toBeLessThan(2_000);")).toHaveLength(1);
    expect(wallClockBounds("expect(performance.now() - t0, text.slice(0, 40)).toBeLessThan(250);")).toHaveLength(1);
    expect(wallClockBounds("expect(\n  performance.now() - t0,\n).toBeLessThanOrEqual(250);")).toHaveLength(1);
    expect(wallClockBounds("const ms = performance.now() - started;\nlog(ms);\nexpect(ms).toBeLessThan(QUICK_MS);")).toHaveLength(1);
    expect(wallClockBounds("const elapsed = Date.now() - t0;\nexpect(elapsed).toBeLessThan(10);")).toHaveLength(1);
    expect(wallClockBounds("expect(Date.now() - started).toBeGreaterThanOrEqual(140);")).toEqual([]);
    expect(wallClockBounds("plantLock(path, pid, new Date(Date.now() - 60_000));\nexpect(a.length).toBeLessThan(400);")).toEqual([]);
    expect(wallClockBounds("const deadline = Date.now() + 5_000;\nexpect(count).toBeLessThan(5);")).toEqual([]);
  });
});
