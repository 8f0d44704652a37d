import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

// Runs the pending peer-client tests, which the root config leaves out (they are not *.test.ts):
//   npx vitest run -c test/peer-clients/pending/vitest.config.ts [name]
// A test here that passes can move into the suite: rename its file to *.test.ts (or move the test into
// test/peer-clients/<client>.test.ts).
export default defineConfig({
  root: fileURLToPath(new URL("../../..", import.meta.url)),
  test: {
    include: ["test/peer-clients/pending/*.pending.ts"],
    testTimeout: 20_000,
    hookTimeout: 20_000,
    pool: "forks",
  },
});
