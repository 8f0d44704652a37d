// One of several processes sharing a file token store (test/runtime/file-token-store.test.ts). It imports the built
// package (@fmgen/runtime and @fmgen/runtime/file-token-store, as an app does), lists the database's layouts ten
// times at once per round, and prints one JSON line per round: { ok, layouts }. A round runs at start and at each
// "round" line on stdin; "end" closes the client and exits. It exits by itself after 20 s whatever happens.
//
//   node token-store-child.mjs <server> <database> <store file>     (password in FM_PASSWORD)
import { createInterface } from "node:readline";
import { createClient } from "@fmgen/runtime";
import { fileTokenStore } from "@fmgen/runtime/file-token-store";

setTimeout(() => process.exit(2), 20_000).unref();
const [server, database, path] = process.argv.slice(2);
const fm = createClient({ server, database, auth: { username: "web", password: process.env.FM_PASSWORD }, tokenStore: fileTokenStore(path) });

async function round() {
  try {
    const lists = await Promise.all(Array.from({ length: 10 }, () => fm.layouts()));
    console.log(JSON.stringify({ ok: true, layouts: lists[0].length }));
  } catch (error) {
    console.log(JSON.stringify({ ok: false, error: String(error) }));
  }
}

await round();
for await (const line of createInterface({ input: process.stdin })) {
  if (line === "end") break;
  await round();
}
process.stdin.destroy();
await fm.close();
