import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    // Generated modules import "@fmgen/runtime": in tests that is the source, as tsconfig.json's paths say, so that
    // tests and the generated code they import share one runtime and need no build.
    alias: [
      { find: /^@fmgen\/runtime$/, replacement: fileURLToPath(new URL("./src/runtime/index.ts", import.meta.url)) },
      { find: /^@fmgen\/runtime\/fetch$/, replacement: fileURLToPath(new URL("./src/runtime/fetch.ts", import.meta.url)) },
      { find: /^@fmgen\/runtime\/schema$/, replacement: fileURLToPath(new URL("./src/runtime/schema.ts", import.meta.url)) },
    ],
  },
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: "forks",
  },
});
