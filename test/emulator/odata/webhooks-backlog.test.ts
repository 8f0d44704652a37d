import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createState, type RunningEmulator } from "../../../src/emulator/index.js";
import { emitChange } from "../../../src/emulator/hosted-file/change-feed.js";
import { parseWebhookAdd } from "../../../src/emulator/odata/webhook-add.js";
import { MAX_PENDING_BYTES } from "../../../src/emulator/odata/webhook-backlog.js";
import { WebhookRegistry } from "../../../src/emulator/odata/webhook-registry.js";
import { auth, DB, LAYOUTS, send, startOffice } from "./serve-support.js";
import { Receiver, sleep, until } from "./webhook-receiver.js";

// What waiting webhook deliveries cost (docs/emulator.md "Webhooks"): a waiting operation keeps its records' ids,
// not a payload; payloads are built when sent, one per turn of the event loop; a file's backlog is bounded in bytes.
// The receivers here are down (a closed port on 127.0.0.1) and retries are minutes away, so operations wait.

const S = `/fmi/odata/v4/${DB}`;
const NEVER = { retryDelayMs: 600_000, maxRetryDelayMs: 600_000 };

/** A URL on 127.0.0.1 nothing listens on: each attempt fails at once with ECONNREFUSED. */
async function downUrl(): Promise<string> {
  const gone = await Receiver.start();
  await gone.close();
  return gone.url;
}

describe("over HTTP", () => {
  let emu: RunningEmulator;
  let down: string;
  beforeAll(async () => {
    emu = await startOffice(1_000, { webhooks: NEVER });
    down = await downUrl();
  });
  afterAll(() => emu.close());

  it("waiting operations keep row ids: a payload is built per attempt, none for the operations behind it", async () => {
    const hooks = 10;
    for (let i = 0; i < hooks; i++) expect((await send(emu.url, "POST", `${S}/Webhook.Add`, { webhook: down, tableName: "Notes", select: "Text" })).status).toBe(200);
    for (let round = 1; round <= 3; round++) {
      const patched = await send(emu.url, "PATCH", `${S}/Notes?$filter=N%20gt%200`, { Text: `round ${round}` });
      expect(patched.headers.get("fmodata.affected_rows")).toBe("1000");
    }
    type Listed = { pendingOperations: { rowIDs: number[]; sendAttempts: number }[] }[];
    let listed: Listed = [];
    for (let polls = 0; polls < 500; polls++) {
      listed = (await send(emu.url, "GET", `${S}/Webhook.GetAll`)).body.webhooks as Listed;
      if (listed.every((h) => h.pendingOperations[0]?.sendAttempts === 1)) break;
      await sleep(10);
    }
    for (const hook of listed) {
      expect(hook.pendingOperations.map((op) => [op.rowIDs.length, op.sendAttempts])).toEqual([
        [1000, 1],
        [1000, 0],
        [1000, 0],
      ]);
    }
    const stats = emu.stats().webhooks;
    // One payload per attempt made: the two operations behind each first one hold none.
    expect(stats.payloadsBuilt).toBe(hooks);
    // Row ids, a few bytes each, and no payload (a payload of 1,000 notes is some 100 kB).
    expect(stats.pendingBytes).toBeGreaterThanOrEqual(hooks * 3 * 1000 * 8);
    expect(stats.pendingBytes).toBeLessThan(hooks * 3 * 1000 * 16);
  });
});

describe("the registry", () => {
  it("a write builds no payload; the sender builds one per turn of the event loop", async () => {
    const state = await createState({ layouts: LAYOUTS, data: { records: { Notes: Array.from({ length: 50 }, (_, i) => ({ Text: `n${i}`, N: i })) } } });
    const db = state.databases.get(DB)!;
    const registry = new WebhookRegistry({ ...state, log: () => {} }, NEVER);
    try {
      const spec = parseWebhookAdd(Buffer.from(JSON.stringify({ webhook: await downUrl(), tableName: "Notes" })), registry.targets);
      for (let i = 0; i < 5; i++) registry.add(DB, spec);
      for (let id = 1; id <= 50; id++) emitChange(db, { operation: "UPDATE", table: "Notes", rowIDs: [id] });
      // The microtasks after the write (where its changes are sealed into operations) build nothing.
      for (let i = 0; i < 10; i++) await Promise.resolve();
      expect(registry.stats().payloadsBuilt).toBe(0);
      await new Promise((resolve) => setImmediate(resolve));
      expect(registry.stats().payloadsBuilt).toBeLessThanOrEqual(1);
      await until(() => registry.stats().payloadsBuilt === 5);
      expect(registry.list(DB).map((h) => (h.pendingOperations as { rowIDs: number[] }[])[0]!.rowIDs.length)).toEqual([50, 50, 50, 50, 50]);
    } finally {
      registry.close();
    }
  });

  it("a payload tells of the records as they are when sent: one deleted before its ADD went out is left out", async () => {
    const receiver = await Receiver.start();
    const state = await createState({ layouts: LAYOUTS, data: { records: { Notes: [{ Text: "kept", N: 1 }] } } });
    const db = state.databases.get(DB)!;
    const registry = new WebhookRegistry({ ...state, log: () => {} });
    try {
      registry.add(DB, parseWebhookAdd(Buffer.from(JSON.stringify({ webhook: receiver.url, tableName: "Notes", select: "Text" })), registry.targets));
      // Record 2 was added, then deleted before anything was sent: its ADD tells of nothing, its DELETE goes.
      emitChange(db, { operation: "ADD", table: "Notes", rowIDs: [2] });
      await Promise.resolve();
      emitChange(db, { operation: "DELETE", table: "Notes", rowIDs: [2] });
      await Promise.resolve();
      emitChange(db, { operation: "UPDATE", table: "Notes", rowIDs: [1] });
      const got = await receiver.wait(2);
      await sleep(50);
      expect(receiver.got).toHaveLength(2);
      expect(got.map((g) => g.body.value)).toEqual([[{ ROWID: 2 }], [expect.objectContaining({ Text: "kept" })]]);
    } finally {
      registry.close();
      await receiver.close();
    }
  });

  it("bounds the bytes a file's waiting operations hold, across its webhooks: the oldest not tried are dropped, and logged", async () => {
    const state = await createState({ layouts: LAYOUTS });
    const db = state.databases.get(DB)!;
    const logs: string[] = [];
    const registry = new WebhookRegistry({ ...state, log: (l) => logs.push(l) }, NEVER);
    try {
      const spec = parseWebhookAdd(Buffer.from(JSON.stringify({ webhook: await downUrl(), tableName: "Notes" })), registry.targets);
      for (let i = 0; i < 4; i++) registry.add(DB, spec);
      const pending = () => registry.list(DB).map((h) => h.pendingOperations as { rowIDs: number[]; sendAttempts: number }[]);
      const write = (n: number) => emitChange(db, { operation: "DELETE", table: "Notes", rowIDs: Array.from({ length: 10_000 }, (_, i) => n * 10_000 + i + 1) });
      write(0);
      // The first write's operations are tried (and wait for their retry): those are never dropped.
      await until(() => pending().every((ops) => ops[0]?.sendAttempts === 1));
      // 4 webhooks × 60 writes × 10,000 ids: some 19 MB of ids, past the bound (16 MiB).
      for (let n = 1; n < 60; n++) {
        write(n);
        await Promise.resolve();
        expect(registry.stats().pendingBytes).toBeLessThanOrEqual(MAX_PENDING_BYTES);
      }
      for (const ops of pending()) {
        expect(ops[0]!.rowIDs[0]).toBe(1);
        // The newest are kept; older ones not tried yet were dropped.
        expect(ops.at(-1)!.rowIDs[0]).toBe(59 * 10_000 + 1);
        expect(ops.length).toBeLessThan(60);
      }
      expect(logs.length).toBeGreaterThan(0);
      expect(logs[0]).toMatch(/^webhook \d+ \(Notes\): the file's waiting webhook operations hold 16 MiB, the most; dropped DELETE of 10000 record\(s\)$/);
    } finally {
      registry.close();
    }
  });
});

describe("memory, measured", () => {
  it("20 Invokes of 10,000 records and a PATCH of 5,000 to 20 webhooks that are down hold a few MB, not the payloads", async () => {
    // The built emulator (npm run build) in a child process with --expose-gc: the heap before and after, collected.
    const emulator = new URL("../../../dist/emulator/index.js", import.meta.url).href;
    const script = `
      import { createServer, request } from "node:http";
      import { startEmulator } from ${JSON.stringify(emulator)};
      const gone = createServer();
      await new Promise((r) => gone.listen(0, "127.0.0.1", r));
      const down = "http://127.0.0.1:" + gone.address().port + "/";
      await new Promise((r) => gone.close(r));
      const emu = await startEmulator({
        layouts: [{ database: "D", layout: "T", table: "T", fields: [{ name: "A", type: "text" }, { name: "N", type: "number" }] }],
        data: { accounts: [{ username: "u", password: "p" }], records: { T: Array.from({ length: 10000 }, (_, i) => ({ A: "row " + i + " of the table, some text to carry", N: i })) } },
        webhooks: { retryDelayMs: 600000, maxRetryDelayMs: 600000 },
      });
      const call = (method, path, body) => new Promise((resolve, reject) => {
        const req = request(emu.url + "/fmi/odata/v4/D/" + path, { method, agent: false, headers: { Authorization: ${JSON.stringify(auth("u", "p"))}, "Content-Type": "application/json" } }, (res) => {
          const chunks = [];
          res.on("data", (c) => chunks.push(c));
          res.on("end", () => resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString() }));
        });
        req.on("error", reject);
        req.end(body === undefined ? undefined : JSON.stringify(body));
      });
      const tried = async () => {
        for (;;) {
          const all = JSON.parse((await call("GET", "Webhook.GetAll")).body).webhooks;
          if (all.every((h) => h.pendingOperations.every((op, i) => i > 0 || op.sendAttempts > 0))) return;
          await new Promise((r) => setTimeout(r, 20));
        }
      };
      const heap = () => { globalThis.gc(); globalThis.gc(); return process.memoryUsage().heapUsed; };
      for (let i = 0; i < 20; i++) await call("POST", "Webhook.Add", { webhook: down, tableName: "T" });
      // Warm up the paths measured (their code, the filter's), then leave nothing waiting.
      await call("POST", "Webhook.Invoke(1)", { rowIDs: [1] });
      await call("PATCH", "T?$filter=N%20lt%201", { A: "warm" });
      await tried();
      for (let id = 1; id <= 20; id++) { await call("POST", "Webhook.Delete(" + id + ")"); await call("POST", "Webhook.Add", { webhook: down, tableName: "T" }); }
      const before = heap();
      for (let i = 0; i < 20; i++) if ((await call("POST", "Webhook.Invoke(21)")).status !== 200) throw new Error("Invoke failed");
      if ((await call("PATCH", "T?$filter=N%20lt%205000", { A: "patched" })).status >= 300) throw new Error("PATCH failed");
      await tried();
      const grew = heap() - before;
      console.log(JSON.stringify({ grew, stats: emu.stats().webhooks }));
      await emu.close();
    `;
    const child = spawn(process.execPath, ["--expose-gc", "--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "pipe"], timeout: 90_000 });
    let out = "";
    let err = "";
    child.stdout.on("data", (c: Buffer) => (out += c.toString()));
    child.stderr.on("data", (c: Buffer) => (err += c.toString()));
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    expect(code, err).toBe(0);
    const { grew, stats } = JSON.parse(out.trim().split("\n").at(-1)!) as { grew: number; stats: { pendingBytes: number } };
    // Waiting: 20 Invokes × 10,000 ids and 20 × 5,000 ids, some 2.4 MB; the payloads would be well over 100 MB.
    expect(stats.pendingBytes).toBeLessThan(4_000_000);
    expect(grew, `the heap grew by ${grew} bytes`).toBeLessThan(20_000_000);
  }, 120_000);
});
