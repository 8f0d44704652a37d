import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../src/emulator/index.js";
import { createODataClient, f, NetworkError, ResponseTooLargeError, type ODataClient } from "../../../src/runtime/odata/index.js";
import { Contacts, DB, Invoices, PASSWORD, startOffice, USER } from "../odata/support.js";

// The calls with `entityIds: true` (tables by FMTID, fields by FMFID in URLs, bodies and filters; answers mapped back
// to the definitions' names) against table descriptions with pinned ids; and every call bounded by maxResponseBytes.

let emu: RunningEmulator;
const clients: ODataClient<"Office">[] = [];
beforeAll(async () => {
  emu = await startOffice();
});
afterAll(async () => {
  for (const od of clients) await od.close();
  await emu?.close();
});
const client = (options: { entityIds?: boolean; maxResponseBytes?: number; retry?: { retries: number; baseDelayMs: number } } = {}) => {
  const od = createODataClient({ server: emu.url, database: DB, auth: { username: USER, password: PASSWORD }, ...options });
  clients.push(od);
  return od;
};
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 9, 9, 9]);

describe("the calls with entityIds", () => {
  it("batch: steps addressed by ids, results by the definitions' names", async () => {
    const od = client({ entityIds: true });
    const [created, , count] = await od.batch((b) => [
      b.table(Invoices).create({ ContactId: "C3", Amount: 99.5 }),
      b.table(Contacts).update("B2", { Name: "Bob" }),
      b.table(Invoices).updateWhere(f.eq("ContactId", "A1"), { Amount: 1 }),
    ]);
    expect(created).toEqual({ InvoiceNo: 4, ContactId: "C3", Amount: 99.5 });
    expect(count).toBe(2);
    expect((await od.table(Contacts).get("B2", { select: ["Name"] })).Name).toBe("Bob");
  });

  it("upload and download name the container by its FMFID", async () => {
    const od = client({ entityIds: true });
    await od.table(Contacts).upload("A1", "Photo", PNG, { filename: "ids.png" });
    const file = await od.table(Contacts).download("A1", "Photo");
    expect([file?.name, await file?.bytes()]).toEqual(["ids.png", PNG]);
  });

  it("webhooks: select and filter by FMFID", async () => {
    const od = client({ entityIds: true });
    const { id } = await od.webhooks.add({ url: "http://127.0.0.1:9/hook", table: Contacts, select: ["Name"], filter: f.eq("Name", "Ada") });
    expect(await od.webhooks.get(id)).toMatchObject({ select: Contacts.fields.Name!.id, filter: `${Contacts.fields.Name!.id} eq 'Ada'` });
    await od.webhooks.remove(id);
  });
});

describe("bounded answers", () => {
  it("a batch answer over maxResponseBytes fails as any call does", async () => {
    const od = client({ maxResponseBytes: 2_000 });
    await expect(od.batch((b) => Array.from({ length: 40 }, (_, i) => b.table(Invoices).update(1, { Amount: i })))).rejects.toBeInstanceOf(ResponseTooLargeError);
  });

  it("a download over maxResponseBytes fails while its body is read", async () => {
    await client().table(Contacts).upload("C3", "Photo", new Uint8Array(5_000).fill(7).map((v, i) => (i < PNG.length ? PNG[i]! : v)), { filename: "big.png" });
    const read = await client({ maxResponseBytes: 1_000 })
      .table(Contacts)
      .download("C3", "Photo")
      .then((file) => file?.bytes())
      .catch((e: unknown) => e);
    expect(read).toBeInstanceOf(ResponseTooLargeError);
  });

  it("a batch whose answer is lost is never sent again: applied once, a NetworkError", async () => {
    const od = client({ retry: { retries: 3, baseDelayMs: 1 } });
    emu.setFaults({ rates: { drop: 1 }, afterRate: 1 });
    const before = emu.stats().faults.drop;
    const error = await od.batch((b) => [b.table(Invoices).create({ ContactId: "lost", Amount: 1 })]).catch((e: unknown) => e);
    const played = emu.stats().faults.drop - before;
    emu.setFaults();
    expect(error).toBeInstanceOf(NetworkError);
    expect(played).toBe(1);
    expect(await od.table(Invoices).count({ filter: f.eq("ContactId", "lost") })).toBe(1);
  });
});
