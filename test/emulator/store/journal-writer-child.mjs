// A child of kill.test.ts: appends entries to a data directory as fast as it can, 16 at a time, and prints each
// entry's number once its append resolved (once it is on disk: what an emulator would then answer). Killed by the test.
import { DataDirectory } from "../../../dist/emulator/store/data-directory.js";
import { NumberToken } from "../../../dist/runtime/core/json-numbers.js";

const [dir, from] = process.argv.slice(2);
const { directory } = await DataDirectory.open(dir);
let next = Number(from);
const KEY = "1234567890123456789012345678901234567890123456789012345678";
async function writer() {
  for (;;) {
    const n = next++;
    // Every tenth entry a bigger one, so that a kill lands inside a long write now and then.
    await directory.append({ n, key: new NumberToken(KEY), pad: n % 10 === 0 ? "x".repeat(20_000) : "" });
    process.stdout.write(`${n}\n`);
    // The snapshot covers every entry appended so far, those of the other writers too: all below `next`.
    if (n % 97 === 0) await directory.snapshot({ upTo: next - 1 });
  }
}
process.stdout.write("ready\n");
await Promise.all(Array.from({ length: 16 }, writer));
