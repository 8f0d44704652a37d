import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { globSync } from "tinyglobby";
import { configDefaults } from "vitest/config";
import { describe, expect, it } from "vitest";
import { FETCH_ONLY_TESTS, FETCH_TESTS, INTEGRATION_TESTS, TYPES_TESTS, UNIT_EXCLUDE, UNIT_TESTS } from "../../vitest.config.js";

// vitest.config.ts sorts every test file into one of three projects by what it does: unit (in process; with the
// "fetch" re-run, the `npm run test:unit` loop), types (builds a TypeScript program or runs tsc) and integration
// (starts child processes). A file in none of them would never run; one in two would run twice. This globs the
// config's own patterns the way Vitest does (tinyglobby, from the repository root, node_modules left out).

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const glob = (patterns: string[], ignore: string[] = []) => globSync(patterns, { cwd: ROOT, ignore: [...configDefaults.exclude, ...ignore] }).sort();

const ALL = glob(["test/**/*.test.ts"]);
const PROJECTS = {
  unit: [...glob(UNIT_TESTS, UNIT_EXCLUDE), ...glob(FETCH_ONLY_TESTS)].sort(),
  types: glob(TYPES_TESTS),
  integration: glob(INTEGRATION_TESTS),
};

/**
 * What marks a file as not a unit test: it starts a process (directly, or through the harness that runs the emulator
 * or redis-server in one), or builds a TypeScript program (directly, or through the harnesses that do).
 */
const NOT_UNIT: [RegExp, string][] = [
  [/node:child_process/, "starts a child process"],
  [/support\/(emulator-process|redis-server)\.js/, "starts a child process (test/support)"],
  [/\b(createProgram|createLanguageService|getPreEmitDiagnostics)\b/, "builds a TypeScript program"],
  [/generate\/typecheck\.js|\.\/typecheck\.js|probe-diagnostics\.js|\.\/snippets\.js|from "typedoc"/, "builds a TypeScript program (a harness)"],
];

describe("vitest.config.ts: the unit, types and integration projects", () => {
  it("put every test file in exactly one project", () => {
    expect(ALL.length).toBeGreaterThan(200);
    const problems = ALL.flatMap((file) => {
      const holders = Object.entries(PROJECTS)
        .filter(([, files]) => files.includes(file))
        .map(([name]) => name);
      return holders.length === 1 ? [] : [`${file}: in ${holders.length ? holders.join(" and ") : "no project"}`];
    });
    expect(problems).toEqual([]);
  });

  it("name only files that exist: every pattern of the lists matches one", () => {
    const stale = [...TYPES_TESTS, ...INTEGRATION_TESTS, ...FETCH_ONLY_TESTS, ...FETCH_TESTS].filter((pattern) => glob([pattern]).length === 0);
    expect(stale).toEqual([]);
  });

  it("re-run through the fetch entry only unit tests: the fetch project is part of the unit loop", () => {
    expect(glob(FETCH_TESTS).filter((file) => !PROJECTS.unit.includes(file))).toEqual([]);
  });

  it("keep in unit no test that starts a process or builds a TypeScript program", () => {
    // This file names the patterns it looks for, so it is left out.
    const misplaced = PROJECTS.unit.filter((file) => file !== "test/structure/test-projects.test.ts").flatMap((file) => {
      const text = readFileSync(`${ROOT}${file}`, "utf8");
      return NOT_UNIT.filter(([pattern]) => pattern.test(text)).map(([, why]) => `${file} ${why}: types or integration`);
    });
    expect(misplaced).toEqual([]);
  });

  it("the guard above sees what it is meant to see", () => {
    const flagged = (text: string) => NOT_UNIT.some(([pattern]) => pattern.test(text));
    expect(flagged('import { spawn } from "node:child_process";')).toBe(true);
    expect(flagged('import { startEmulatorProcess } from "../support/emulator-process.js";')).toBe(true);
    expect(flagged("const program = ts.createProgram(files, options);")).toBe(true);
    expect(flagged('import { typeCheckDir } from "../generate/typecheck.js";')).toBe(true);
    expect(flagged('import { startRuntimeEmulator } from "../support/runtime-emulator.js";')).toBe(false);
  });
});
