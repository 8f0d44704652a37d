#!/usr/bin/env node
// Full-size load run: 50 clients x 2,000 operations (100,000) against an emulator on 127.0.0.1.
// Needs `npm run build` first (it imports dist/). Stops by itself; exits 1 if any check fails.
//   node --expose-gc test/load/load.mjs [clients] [opsPerClient]
import { fileURLToPath } from "node:url";
import * as runtime from "../../packages/runtime/dist/index.js";
import { seededRandom } from "../../dist/emulator/faults.js";
import { startEmulator } from "../../dist/emulator/index.js";
import { runLoad } from "./load-core.mjs";

const clients = Number(process.argv[2] ?? 50);
const opsPerClient = Number(process.argv[3] ?? 2000);
const layoutsDir = fileURLToPath(new URL("../../examples/contacts/layouts/", import.meta.url));
const deadline = setTimeout(() => {
  console.error("load run exceeded 10 minutes; stopping");
  process.exit(2);
}, 10 * 60_000);
deadline.unref();

const result = await runLoad({ runtime, startEmulator, seededRandom, layoutsDir, clients, opsPerClient, seed: 1 });
console.log(JSON.stringify(result, null, 2));
const ok = result.fake306 === 0 && result.fake101 === 0 && result.lostRecords === 0 && result.extraRecords === 0 && result.duplicatedRecords === 0 && result.wrongValues === 0 && result.counts.lostUpdates === 0 && result.counts.otherErrors === 0;
console.log(ok ? "load: all checks passed" : "load: CHECKS FAILED");
process.exit(ok ? 0 : 1);
