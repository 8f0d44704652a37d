import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { configDefaults, defineConfig } from "vitest/config";

const source = (path: string) => fileURLToPath(new URL(path, import.meta.url));

/**
 * Generated modules import "@fmgen/runtime" (and table modules "@fmgen/runtime/odata"): in tests that is the source,
 * as tsconfig.json's paths say, so that tests and the generated code they import share one runtime and need no build.
 * `entry` and `odataEntry` are the files the package's main and odata exports resolve to: index.ts (Node: undici) or
 * fetch.ts (global fetch).
 */
function runtimeAliases(entry: string, odataEntry: string) {
  return [
    { find: /^@fmgen\/runtime$/, replacement: source(entry) },
    { find: /^@fmgen\/runtime\/odata$/, replacement: source(odataEntry) },
    { find: /^@fmgen\/runtime\/odata\/fetch$/, replacement: source("./src/runtime/odata/fetch.ts") },
    { find: /^@fmgen\/runtime\/fetch$/, replacement: source("./src/runtime/fetch.ts") },
    { find: /^@fmgen\/runtime\/schema$/, replacement: source("./src/runtime/schema.ts") },
    { find: /^@fmgen\/runtime\/metadata$/, replacement: source("./src/runtime/metadata.ts") },
    { find: /^@fmgen\/runtime\/webviewer$/, replacement: source("./src/runtime/webviewer.ts") },
  ];
}

/**
 * The runtime's behavioural tests (sessions, records, find, paging, uploads, errors, faults, redaction), run a second
 * time through the fetch entry: the "fetch" project points every import of the runtime (`@fmgen/runtime`, and the
 * tests' own `../src/runtime/index.js`) at src/runtime/fetch.ts, against the same emulator and fake servers.
 * Tests of what only Node's transport has (an undici dispatcher, uploads from a file path) read
 * FMGEN_RUNTIME_ENTRY (test/support/runtime-entry.ts).
 */
export const FETCH_TESTS = [
  "test/runtime/{answer-shapes,database-calls,date-formats,downloads,errors,exact-numbers,list-all,proto-names,protocol,record-schema,records,response-size,scripts,sessions,sign-ins,text-values,token-store,uploads,values}.test.ts",
  "test/runtime/fetch-*.test.ts",
  "test/runtime/exact-round-trip.test.ts",
  "test/runtime/odata-exact.test.ts",
  "test/security/{echoed-secrets,find-injection,fuzz-responses,long-secrets,secrets,security,short-secrets}.test.ts",
  "test/query/builder.test.ts",
  "test/faults/faults.test.ts",
];

/**
 * Every test/**\/*.test.ts is in exactly one of three projects, by what it does (test/structure/test-projects.test.ts
 * checks that each file is in one, and that no unit test starts a process or builds a TypeScript program).
 *
 * types: the tests that build a TypeScript program (ts.createProgram, a language service, test/generate/typecheck.ts,
 * test/types/probe-diagnostics.ts, TypeDoc's conversion, the documentation's snippets) or run tsc. They parse
 * TypeScript's lib files and the runtime's sources, which is what they spend their time on.
 */
export const TYPES_TESTS = [
  "test/types/*.test.ts",
  "test/golden/tsc.test.ts",
  "test/cli/{app-kinds,pull-odata-names,readme-flow}.test.ts",
  "test/generate/{long-names,trojan-source}.test.ts",
  "test/docs/{reference,snippets}.test.ts",
];

/**
 * integration: the tests that start child processes: the built CLI (dist/cli/bin.js), dist/ and packages/runtime/dist/
 * loaded by a fresh node, examples/run.mjs, npm pack and installs, Deno/Bun/workerd (test/runtimes), the peer clients
 * (test/peer-clients), redis-server, the load test, the emulator in a process of its own, scripts run by node, git.
 * Most need `npm run build` first.
 */
export const INTEGRATION_TESTS = [
  "test/peer-clients/*.test.ts",
  "test/runtimes/*.test.ts",
  "test/load/*.test.ts",
  "test/examples.test.ts",
  "test/lint.test.ts",
  "test/bench/scripts.test.ts",
  "test/structure/folder-imports.test.ts",
  "test/cli/{getting-started,serve,serve-export,serve-tables,version}.test.ts",
  "test/emulator/find-wildcard-bound.test.ts",
  "test/emulator/odata/{webhooks-backlog,webhooks-close}.test.ts",
  "test/emulator/store/{kill,serve-kill}.test.ts",
  "test/runtime/{deferred-loading,file-token-store,package,record-decoder,redis-token-store}.test.ts",
  "test/webviewer/*.test.ts",
  "test/inspector/chromium.test.ts",
];

/** The unit tests that import the fetch entry themselves: only the "fetch" project runs them. */
export const FETCH_ONLY_TESTS = ["test/runtime/fetch-*.test.ts"];

/**
 * unit: everything else, in the test's own process: the runtime against the in-process emulator over loopback and
 * fake servers, the generator, the goldens (their tsc is types'), the parsers, the emulator, the CLI run as a function.
 * The "fetch" project (FETCH_TESTS below, FETCH_ONLY_TESTS among them) is in-process too: `npm run test:unit` runs both.
 */
export const UNIT_TESTS = ["test/**/*.test.ts"];
export const UNIT_EXCLUDE = [...TYPES_TESTS, ...INTEGRATION_TESTS, ...FETCH_ONLY_TESTS];

export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: "forks",
    // Vitest's default is one worker fewer than the cores (one worker on a 2-core machine); most tests wait on
    // loopback sockets and child processes, and two workers on 2 cores halve the run (unit: 84 s to 50 s).
    maxWorkers: availableParallelism(),
    projects: [
      {
        extends: true,
        resolve: { alias: runtimeAliases("./src/runtime/index.ts", "./src/runtime/odata/index.ts") },
        // isolate: false: a worker runs its files one after another in one module graph, so the sources, zod and undici
        // are loaded once per worker rather than once per file (unit and fetch: 109 s isolated, 50 s not).
        test: { name: "unit", include: UNIT_TESTS, exclude: [...configDefaults.exclude, ...UNIT_EXCLUDE], isolate: false },
      },
      {
        extends: true,
        resolve: { alias: runtimeAliases("./src/runtime/index.ts", "./src/runtime/odata/index.ts") },
        // isolate: false: TypeScript, and the lib files test/generate/typecheck.ts caches, are loaded once per worker
        // (28 s isolated, 20 s not).
        test: { name: "types", include: TYPES_TESTS, exclude: [...configDefaults.exclude], isolate: false },
      },
      {
        extends: true,
        resolve: { alias: runtimeAliases("./src/runtime/index.ts", "./src/runtime/odata/index.ts") },
        test: { name: "integration", include: INTEGRATION_TESTS, exclude: [...configDefaults.exclude] },
      },
      {
        extends: true,
        resolve: {
          alias: [{ find: /^(?:\.\.\/)+src\/runtime\/index\.js$/, replacement: source("./src/runtime/fetch.ts") }, ...runtimeAliases("./src/runtime/fetch.ts", "./src/runtime/odata/fetch.ts")],
        },
        test: { name: "fetch", include: FETCH_TESTS, env: { FMGEN_RUNTIME_ENTRY: "fetch" }, isolate: false },
      },
    ],
  },
});
