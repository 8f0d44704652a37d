import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type RunningEmulator } from "../../../src/emulator/index.js";
import type { LayoutDescriptionInput } from "../../../src/layout/schema.js";
import { Receiver, sleep } from "../odata/webhook-receiver.js";

// docs/emulator.md, "Hosted files that persist": with a data directory, the OData webhooks' registrations survive a
// restart (ids, URL, headers, select and filter, the id counter), deletions too; a webhook whose table is gone at the
// next start is dropped with a log line; --reset starts over. Deliveries waiting at a stop are not sent again.

const DB = "Shop";
const ACCOUNT = { username: "web", password: "s3cret" };
const BASIC = `Basic ${Buffer.from(`${ACCOUNT.username}:${ACCOUNT.password}`).toString("base64")}`;
const SECRET = "Bearer planted-webhook-secret-4417";
const dirs: string[] = [];
let receiver: Receiver;
beforeAll(async () => {
  receiver = await Receiver.start();
});
afterAll(async () => {
  await receiver.close();
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

const ITEMS: LayoutDescriptionInput = {
  database: DB,
  layout: "Items Web",
  table: "Items",
  fields: [
    { name: "Name", type: "text" },
    { name: "Qty", type: "number" },
  ],
};
const NOTES: LayoutDescriptionInput = { database: DB, layout: "Notes Web", table: "Notes", fields: [{ name: "Text", type: "text" }] };

async function start(dataDir: string, extra: { reset?: boolean; layouts?: LayoutDescriptionInput[]; log?: (line: string) => void } = {}): Promise<RunningEmulator> {
  return startEmulator({
    port: 0,
    layouts: extra.layouts ?? [ITEMS, NOTES],
    data: { accounts: [ACCOUNT] },
    dataDir,
    ...(extra.reset ? { reset: true } : {}),
    log: extra.log ?? (() => {}),
    webhooks: { retryDelayMs: 20 },
  });
}

async function freshDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "fmgen-persist-hooks-"));
  dirs.push(dir);
  return dir;
}

async function odata(emu: RunningEmulator, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${emu.url}/fmi/odata/v4/${DB}/${path}`, {
    method,
    headers: { Authorization: BASIC, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text === "" ? undefined : JSON.parse(text) };
}

const addHook = async (emu: RunningEmulator, body: object) => {
  const added = await odata(emu, "POST", "Webhook.Add", body);
  expect(added.status, JSON.stringify(added.body)).toBe(200);
  return added.body.webhookResult.webhookID as number;
};

/** The deliveries that came for `path` since `from`, waited for (at most 5 s) until there are `n`. */
async function deliveriesTo(path: string, from: number, n: number): Promise<any[]> {
  const end = Date.now() + 5_000;
  for (;;) {
    const got = receiver.got.slice(from).filter((r) => r.path === path);
    if (got.length >= n || Date.now() > end) return got;
    await sleep(10);
  }
}

describe("webhooks with a data directory", () => {
  it("keeps a registration across a restart: same id, URL, headers, select and filter; it fires on a new record", async () => {
    const dir = await freshDir();
    let emu = await start(dir);
    const spec = { webhook: `${receiver.url}/kept`, tableName: "Items", endpointHeaders: { Authorization: SECRET, "X-Tag": "t1" }, select: "Name", filter: "Qty gt 1", notifySchemaChanges: true, maxFailedAttempts: 3 };
    const id = await addHook(emu, spec);
    const before = (await odata(emu, "GET", `Webhook.Get(${id})`)).body;
    await emu.close();

    emu = await start(dir);
    const after = (await odata(emu, "GET", `Webhook.Get(${id})`)).body;
    // The port differs (port 0); all else is as it was.
    expect({ ...after, "@context": undefined }).toEqual({ ...before, "@context": undefined });
    expect(after).toMatchObject({ webhookID: id, tableName: "Items", webhook: spec.webhook, headers: spec.endpointHeaders, select: "Name", filter: "Qty gt 1", notifySchemaChanges: true });
    const from = receiver.got.length;
    expect((await odata(emu, "POST", "Items", { Name: "small", Qty: 1 })).status).toBe(201);
    expect((await odata(emu, "POST", "Items", { Name: "big", Qty: 5 })).status).toBe(201);
    const [delivery] = await deliveriesTo("/kept", from, 1);
    expect(delivery, "the kept webhook delivered nothing").toBeDefined();
    expect(delivery.headers.authorization).toBe(SECRET);
    expect(delivery.headers["x-tag"]).toBe("t1");
    // Its select and filter too: only the record the filter keeps, only the field selected.
    expect(delivery.body.value.map((r: any) => r.Name)).toEqual(["big"]);
    expect(Object.keys(delivery.body.value[0]).filter((k) => !k.startsWith("@"))).toEqual(["Name"]);
    // The id counter is kept: the next webhook gets the next id, never a reused one.
    expect(await addHook(emu, { webhook: `${receiver.url}/second`, tableName: "Items" })).toBe(id + 1);
    await emu.close();
  });

  it("answers Webhook.Add only once it is on disk: an emulator never closed (killed) still has it", async () => {
    const dir = await freshDir();
    const emu = await start(dir);
    const id = await addHook(emu, { webhook: `${receiver.url}/durable`, tableName: "Items", endpointHeaders: { "X-Api-Key": "k-123" } });
    // The journal holds it already, before any close (a kill keeps it); its headers are on disk as they were given.
    const journal = await readFile(join(dir, "journal.log"), "utf8");
    expect(journal).toContain(`${receiver.url}/durable`);
    expect(journal).toContain("k-123");
    await emu.close();
    const again = await start(dir);
    expect((await odata(again, "GET", `Webhook.Get(${id})`)).status).toBe(200);
    await again.close();
  });

  it("keeps a deletion: a deleted webhook stays deleted, and its id is not given again", async () => {
    const dir = await freshDir();
    let emu = await start(dir);
    const a = await addHook(emu, { webhook: `${receiver.url}/a`, tableName: "Items" });
    const b = await addHook(emu, { webhook: `${receiver.url}/b`, tableName: "Items" });
    await emu.close();
    emu = await start(dir);
    expect((await odata(emu, "POST", `Webhook.Delete(${b})`)).status).toBe(200);
    await emu.close();

    emu = await start(dir);
    const all = (await odata(emu, "GET", "Webhook.GetAll")).body.webhooks;
    expect(all.map((h: any) => h.webhookID)).toEqual([a]);
    expect((await odata(emu, "GET", `Webhook.Get(${b})`)).status).toBe(404);
    const from = receiver.got.length;
    expect((await odata(emu, "POST", "Items", { Name: "after delete" })).status).toBe(201);
    expect((await deliveriesTo("/a", from, 1)).length).toBe(1);
    await sleep(50);
    expect(receiver.got.slice(from).filter((r) => r.path === "/b")).toEqual([]);
    expect(await addHook(emu, { webhook: `${receiver.url}/c`, tableName: "Items" })).toBe(b + 1);
    await emu.close();
  });

  it("drops, with a log line, a webhook whose table is not in the descriptions at the next start", async () => {
    const dir = await freshDir();
    let emu = await start(dir);
    const kept = await addHook(emu, { webhook: `${receiver.url}/items`, tableName: "Items" });
    const gone = await addHook(emu, { webhook: `${receiver.url}/notes`, tableName: "Notes" });
    await emu.close();
    const lines: string[] = [];
    emu = await start(dir, { layouts: [ITEMS], log: (line) => lines.push(line) });
    expect((await odata(emu, "GET", "Webhook.GetAll")).body.webhooks.map((h: any) => h.webhookID)).toEqual([kept]);
    expect(lines.filter((l) => l.includes("webhook"))).toEqual([`${DB}: webhook ${gone} (Notes, registered before) was dropped: the file has no table "Notes" now`]);
    await emu.close();
    // Dropped for good once a snapshot was written (close writes one): the table coming back does not bring it back;
    // its id is still not given again.
    emu = await start(dir);
    expect((await odata(emu, "GET", "Webhook.GetAll")).body.webhooks.map((h: any) => h.webhookID)).toEqual([kept]);
    expect(await addHook(emu, { webhook: `${receiver.url}/n`, tableName: "Notes" })).toBe(gone + 1);
    await emu.close();
  });

  it("sends no delivery again after a restart: what waited at the stop is not kept", async () => {
    const dir = await freshDir();
    const failing = await Receiver.start([500]);
    try {
      let emu = await start(dir);
      await addHook(emu, { webhook: `${failing.url}/fails`, tableName: "Items" });
      expect((await odata(emu, "POST", "Items", { Name: "waits" })).status).toBe(201);
      await failing.wait(1);
      await emu.close();
      failing.statuses = [200];
      const seen = failing.got.length;
      emu = await start(dir);
      const [hook] = (await odata(emu, "GET", "Webhook.GetAll")).body.webhooks;
      expect(hook.pendingOperations).toEqual([]);
      await sleep(100);
      expect(failing.got.length).toBe(seen);
      await emu.close();
    } finally {
      await failing.close();
    }
  });

  it("starts over with reset: no webhook, ids from 1", async () => {
    const dir = await freshDir();
    let emu = await start(dir);
    await addHook(emu, { webhook: `${receiver.url}/r1`, tableName: "Items" });
    await addHook(emu, { webhook: `${receiver.url}/r2`, tableName: "Items" });
    await emu.close();
    emu = await start(dir, { reset: true });
    expect((await odata(emu, "GET", "Webhook.GetAll")).body.webhooks).toEqual([]);
    expect(await addHook(emu, { webhook: `${receiver.url}/r3`, tableName: "Items" })).toBe(1);
    await emu.close();
  });
});
