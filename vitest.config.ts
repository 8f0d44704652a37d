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
  ];
}

/**
 * The runtime's behavioural tests (sessions, records, find, paging, uploads, errors, faults, redaction), run a second
 * time through the fetch entry: the "fetch" project points every import of the runtime (`@fmgen/runtime`, and the
 * tests' own `../src/runtime/index.js`) at src/runtime/fetch.ts, against the same emulator and fake servers.
 * Tests of what only Node's transport has (an undici dispatcher, uploads from a file path) read
 * FMGEN_RUNTIME_ENTRY (test/support/runtime-entry.ts).
 */
const FETCH_TESTS = [
  "test/runtime/{answer-shapes,database-calls,date-formats,downloads,errors,list-all,proto-names,protocol,record-schema,records,response-size,scripts,sessions,sign-ins,text-values,token-store,uploads,values}.test.ts",
  "test/runtime/fetch-*.test.ts",
  "test/security/{echoed-secrets,find-injection,fuzz-responses,long-secrets,secrets,security,short-secrets}.test.ts",
  "test/query/builder.test.ts",
  "test/faults/faults.test.ts",
];

export default defineConfig({
  test: {
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: "forks",
    projects: [
      {
        extends: true,
        resolve: { alias: runtimeAliases("./src/runtime/index.ts", "./src/runtime/odata/index.ts") },
        // fetch-*.test.ts import the fetch entry themselves: the "fetch" project runs them.
        test: { name: "node", include: ["test/**/*.test.ts"], exclude: [...configDefaults.exclude, "test/runtime/fetch-*.test.ts"] },
      },
      {
        extends: true,
        resolve: {
          alias: [{ find: /^(?:\.\.\/)+src\/runtime\/index\.js$/, replacement: source("./src/runtime/fetch.ts") }, ...runtimeAliases("./src/runtime/fetch.ts", "./src/runtime/odata/fetch.ts")],
        },
        test: { name: "fetch", include: FETCH_TESTS, env: { FMGEN_RUNTIME_ENTRY: "fetch" } },
      },
    ],
  },
});
