import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { seededRandom } from "../../src/emulator/http/faults.js";
import { startEmulator } from "../../src/emulator/index.js";
import * as runtime from "../../src/runtime/index.js";
// @ts-expect-error: a plain JavaScript module shared with test/load/load.mjs (no declaration file).
import { runLoad } from "./load-core.mjs";

// The load run at suite size: 50 concurrent clients x 100 operations (create, edit with modId, delete) on
// 127.0.0.1. The full 50 x 2,000 run is `node --expose-gc test/load/load.mjs` (after `npm run build`).

const layoutsDir = fileURLToPath(new URL("../../examples/contacts/layouts/", import.meta.url));

interface LoadResult {
  operations: number;
  counts: Record<string, number>;
  fake306: number;
  fake101: number;
  lostRecords: number;
  extraRecords: number;
  duplicatedRecords: number;
  wrongValues: number;
  memory: { before: { heapUsedMiB: number }; afterRun: { heapUsedMiB: number } };
}

describe("load", () => {
  it("50 clients x 100 operations: no lost update, no lost or duplicated record", async () => {
    const result = (await runLoad({ runtime, startEmulator, seededRandom, layoutsDir, clients: 50, opsPerClient: 100, seed: 7 })) as LoadResult;
    console.info(`[load] ${JSON.stringify(result)}`);
    expect(result.counts.otherErrors).toBe(0);
    expect(result.counts.lostUpdates).toBe(0);
    expect(result.fake306).toBe(0);
    expect(result.fake101).toBe(0);
    expect(result.lostRecords).toBe(0);
    expect(result.extraRecords).toBe(0);
    expect(result.duplicatedRecords).toBe(0);
    expect(result.wrongValues).toBe(0);
    expect(result.counts.conflict306).toBeGreaterThan(0); // the clients did contend
    expect(result.memory.afterRun.heapUsedMiB - result.memory.before.heapUsedMiB).toBeLessThan(200);
  }, 60_000);
});
