import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../src/emulator/index.js";
import { createODataClient, f, type ODataClient } from "../../../src/runtime/odata/index.js";
import { Audit, Contacts, Invoices, PASSWORD, startOffice, USER } from "./support.js";

// Writes of @fmgen/runtime/odata against the emulator: create (resolves to the stored row), update, delete by key and
// by ROWID, updateWhere/deleteWhere (the affected count), values of every kind round-tripped, and entityIds (FMTID in
// paths, FMFID in queries and bodies, answers mapped back to names).

let emu: RunningEmulator;
let od: ODataClient<"Office">;

beforeAll(async () => {
  emu = await startOffice();
  od = createODataClient({ server: emu.url, database: "Office", auth: { username: USER, password: PASSWORD } });
});
afterAll(async () => {
  await od.close();
  await emu.close();
});

describe("writes", () => {
  it("creates a row and resolves to it as stored (auto-entered values included); values of every kind round-trip", async () => {
    const t = od.table(Contacts);
    const row = await t.create({ Name: "Émile 'é' \"q\"", Age: 0.1 + 0.2, Born: "2024-02-29", Alarm: "00:00:01", Seen: "2025-10-31T11:13:13", Tags: ["a", "b"] });
    expect(row).toMatchObject({ Name: "Émile 'é' \"q\"", Age: 0.1 + 0.2, Born: "2024-02-29", Alarm: "00:00:01", Seen: "2025-10-31T11:13:13", Tags: ["a", "b"], Label: "Émile 'é' \"q\" (0.30000000000000004)" });
    expect(row.id).toMatch(/^[0-9A-F-]{36}$/i);
    expect(await t.get(row.id)).toEqual(row);
    // Empty values: "" for text, null for the others, and null clears.
    const empty = await t.create({});
    expect(empty).toMatchObject({ Name: "", Age: null, Born: null, Alarm: null, Seen: null, Tags: ["", ""] });
    await t.update(row.id, { Age: null, Born: null, Seen: null, Name: "" });
    expect(await t.get(row.id, { select: ["Age", "Born", "Seen", "Name"] })).toEqual({ Age: null, Born: null, Seen: null, Name: "" });
    // One repetition left out is left as it was.
    await t.update(row.id, { Tags: [undefined, "B"] as unknown as [string, string] });
    expect((await t.get(row.id)).Tags).toEqual(["a", "B"]);
    await t.delete(row.id);
    await t.delete(empty.id);
    expect(await t.count()).toBe(3);
  });

  it("creates in a table whose key is auto-entered and read-only, and in a keyless one (addressed by ROWID)", async () => {
    const invoice = await od.table(Invoices).create({ ContactId: "C3", Amount: 12345678.125 });
    expect(invoice).toEqual({ InvoiceNo: 4, ContactId: "C3", Amount: 12345678.125 });
    await od.table(Invoices).update(4, { Amount: -0.5 });
    expect((await od.table(Invoices).get(4)).Amount).toBe(-0.5);
    const audit = await od.table(Audit).create({ Event: "made", Codes: ["1", ""] });
    expect(audit).toEqual({ Event: "made", Codes: ["1", ""], N: null });
    const [made] = (await od.table(Audit).list({ filter: f.eq("Event", "made"), specialColumns: true })).value;
    await od.table(Audit).update({ rowId: made!.rowId }, { N: 99 });
    expect(await od.table(Audit).get({ rowId: made!.rowId })).toEqual({ Event: "made", Codes: ["1", ""], N: 99 });
    await od.table(Audit).delete({ rowId: made!.rowId });
    await od.table(Invoices).delete(4);
  });

  it("updates and deletes by filter, resolving to how many rows changed", async () => {
    const t = od.table(Audit);
    expect(await t.updateWhere(f.lte("N", 3), { Codes: ["low", ""] })).toBe(3);
    expect(await t.count({ filter: f.eq("Codes", "low") })).toBe(3);
    expect(await t.updateWhere(f.eq("Event", "none"), { N: 1 })).toBe(0);
    expect(await t.deleteWhere(f.gt("N", 3))).toBe(2);
    expect(await t.count()).toBe(3);
  });
});

describe("entityIds", () => {
  it("addresses tables by FMTID and fields by FMFID, and maps answers back to the definition's names", async () => {
    const seen: string[] = [];
    // The Node entry (undici) and the fetch entry (recording what it sends) alike.
    const ids = createODataClient({ server: emu.url, database: "Office", auth: { username: USER, password: PASSWORD }, entityIds: true });
    const { createODataClient: createFetchClient } = await import("../../../src/runtime/odata/fetch.js");
    const record: typeof fetch = async (input, init) => {
      seen.push(`${init?.method} ${String(input)} ${new Headers(init?.headers).get("prefer")}`);
      return fetch(input, init);
    };
    const viaFetch = createFetchClient({ server: emu.url, database: "Office", auth: { username: USER, password: PASSWORD }, entityIds: true, fetch: record });
    for (const client of [ids, viaFetch]) {
      const r = await client.table(Contacts).list({ select: ["Name", "Tags"], filter: f.eq("Name", "Ada"), expand: { Invoices: { select: ["Amount"] } } });
      expect(r.value).toEqual([{ Name: "Ada", Tags: ["x", ""], Invoices: [{ Amount: 10 }, { Amount: 20.25 }] }]);
      const made = await client.table(Invoices).create({ ContactId: "B2", Amount: 1 });
      expect(made).toEqual({ InvoiceNo: expect.any(Number), ContactId: "B2", Amount: 1 });
      await client.table(Invoices).update(made.InvoiceNo, { Amount: 2 });
      expect((await client.table(Invoices).get(made.InvoiceNo)).Amount).toBe(2);
      await client.table(Invoices).delete(made.InvoiceNo);
      expect((await client.table(Contacts).list({ specialColumns: true, top: 1 })).value[0]).toMatchObject({ id: "A1", Name: "Ada", rowId: 1, modId: 0 });
    }
    const name = Contacts.fields.Name!.id;
    const tags = Contacts.fields.Tags!.id;
    expect(seen[0]).toBe(`GET ${emu.url}/fmi/odata/v4/Office/FMTID:1065089?$select=${name},${tags}&$expand=Invoices($select=${Invoices.fields.Amount!.id})&$filter=${name}%20eq%20'Ada' fmodata.entity-ids`);
    expect(seen[1]).toMatch(/^POST .*\/Office\/FMTID:1065200 fmodata.entity-ids, return=representation$/);
    await ids.close();
  });
});
