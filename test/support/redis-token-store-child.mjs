// One of several processes sharing a Redis token store (test/runtime/redis-token-store.test.ts). It imports the built
// package (@fmgen/runtime and @fmgen/runtime/redis-token-store, as an app does) and a Redis client (node-redis or
// ioredis), lists the database's layouts five times at once per round, and prints one JSON line per round:
// { ok, layouts, ms, failures } (failures: what the store's onError was told since the last round, as "op kind").
// It prints { ready: true } once set up, then runs a round at each "round" line on stdin; "end" closes the client,
// disconnects from Redis and lets the process exit by itself (an unhandled rejection would end it with code 1). It
// exits with 2 after 20 s whatever happens.
//
//   node redis-token-store-child.mjs <server> <database> <redis url> <node-redis|ioredis> <timeout ms>
//   (password in FM_PASSWORD)
import { createInterface } from "node:readline";
import { createClient } from "@fmgen/runtime";
import { redisTokenStore } from "@fmgen/runtime/redis-token-store";

setTimeout(() => process.exit(2), 20_000).unref();
const [server, database, url, kind, timeout] = process.argv.slice(2);
// Only the client asked for is loaded: a process starts in less time. ioredis retries a lost Redis every 100 ms (its
// default backs off to 2 s, and a retry timer already set outlives disconnect() that long).
const redis = kind === "ioredis" ? new (await import("ioredis")).Redis(url, { lazyConnect: true, retryStrategy: () => 100 }) : (await import("redis")).createClient({ url });
let failures = [];
const tokenStore = redisTokenStore(redis, { timeoutMs: Number(timeout), onError: (_error, failure) => failures.push(`${failure.op} ${failure.kind}`) });
await redis.connect();
const fm = createClient({ server, database, auth: { username: "web", password: process.env.FM_PASSWORD }, tokenStore });

async function round() {
  const start = Date.now();
  try {
    const lists = await Promise.all(Array.from({ length: 5 }, () => fm.layouts()));
    console.log(JSON.stringify({ ok: true, layouts: lists[0].length, ms: Date.now() - start, failures }));
  } catch (error) {
    console.log(JSON.stringify({ ok: false, error: String(error), failures }));
  }
  failures = [];
}

console.log(JSON.stringify({ ready: true }));
for await (const line of createInterface({ input: process.stdin })) {
  if (line === "end") break;
  await round();
}
process.stdin.destroy();
await fm.close();
if (kind === "ioredis") redis.disconnect();
else await redis.destroy();
