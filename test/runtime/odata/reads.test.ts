import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../../src/emulator/index.js";
import { createODataClient, f, type ODataClient } from "../../../src/runtime/odata/index.js";
import { Audit, Contacts, Invoices, PASSWORD, startOffice, USER } from "./support.js";

// Reads of @fmgen/runtime/odata against the emulator over loopback: list (select, expand with nested options, filter,
// orderBy, top, skip, count, specialColumns), get (by key and by ROWID), all (pages, stable order), count, related.

let emu: RunningEmulator;
let od: ODataClient<"Office">;

beforeAll(async () => {
  emu = await startOffice({}, 23);
  od = createODataClient({ server: emu.url, database: "Office", auth: { username: USER, password: PASSWORD } });
});
afterAll(async () => {
  await od.close();
  await emu.close();
});

describe("list", () => {
  it("reads every row with the Data API runtime's values (empty text \"\", empty others null, repetitions a tuple)", async () => {
    const { value, count } = await od.table(Contacts).list();
    expect(count).toBeUndefined();
    expect(value).toEqual([
      { id: "A1", Name: "Ada", Age: 36, Born: "1815-12-10", Alarm: "07:30:00", Seen: "2026-11-27T09:15:00", Tags: ["x", ""], Label: "Ada (36)" },
      { id: "B2", Name: "bob", Age: 41, Born: null, Alarm: null, Seen: null, Tags: ["", ""], Label: "bob (41)" },
      { id: "C3", Name: "Cy O'Brien", Age: 7.5, Born: "2020-01-01", Alarm: "23:59:59", Seen: "2020-01-01T00:00:00", Tags: ["", ""], Label: "Cy O'Brien (7.5)" },
    ]);
  });

  it("selects, filters by each kind's literal, orders, pages and counts", async () => {
    const t = od.table(Contacts);
    const r = await t.list({ select: ["Name", "Age"], filter: f.or(f.eq("Name", "Cy O'Brien"), f.gt("Age", 40)), orderBy: [["Age", "desc"]], count: true, top: 1 });
    expect(r).toEqual({ value: [{ Name: "bob", Age: 41 }], count: 2 });
    expect((await t.list({ select: ["id"], filter: f.eq("Born", "2020-01-01") })).value).toEqual([{ id: "C3" }]);
    expect((await t.list({ select: ["id"], filter: f.lt("Seen", "2026-01-01T00:00:00") })).value).toEqual([{ id: "C3" }]);
    expect((await t.list({ select: ["id"], filter: f.gte("Alarm", "08:00:00") })).value).toEqual([{ id: "C3" }]);
    expect((await t.list({ select: ["id"], filter: f.isNull("Born") })).value).toEqual([{ id: "B2" }]);
    expect((await t.list({ select: ["id"], orderBy: ["Name"], skip: 1, top: 1 })).value).toEqual([{ id: "B2" }]);
  });

  it("adds ROWID and ROWMODID as rowId and modId when asked, with and without select", async () => {
    const all = await od.table(Contacts).list({ specialColumns: true, top: 1 });
    expect(all.value[0]).toMatchObject({ id: "A1", rowId: 1, modId: 0 });
    const some = await od.table(Contacts).list({ select: ["id"], specialColumns: true, top: 1 });
    expect(some.value).toEqual([{ id: "A1", rowId: 1, modId: 0 }]);
  });

  it("expands relations with their own select, filter, orderBy, top and a nested expand, decoded by the target's definition", async () => {
    const r = await od.table(Contacts).list({
      select: ["id"],
      filter: f.eq("id", "A1"),
      expand: { Invoices: { select: ["Amount", "InvoiceNo"], orderBy: [["Amount", "desc"]], filter: f.gt("Amount", 1), top: 5, expand: { Contacts: { select: ["Name"] } } } },
    });
    expect(r.value).toEqual([
      {
        id: "A1",
        Invoices: [
          { Amount: 20.25, InvoiceNo: 2, Contacts: [{ Name: "Ada" }] },
          { Amount: 10, InvoiceNo: 1, Contacts: [{ Name: "Ada" }] },
        ],
      },
    ]);
    const plain = await od.table(Invoices).list({ expand: { Contacts: true }, filter: f.eq("ContactId", "B2") });
    expect(plain.value[0]!.Contacts[0]).toMatchObject({ id: "B2", Tags: ["", ""] });
  });
});

describe("get, related, count, all", () => {
  it("gets one row by its key (a string with a quote, a number) and by ROWID", async () => {
    expect(await od.table(Contacts).get("A1", { select: ["Name"] })).toEqual({ Name: "Ada" });
    expect(await od.table(Invoices).get(3)).toEqual({ InvoiceNo: 3, ContactId: "B2", Amount: 5 });
    expect(await od.table(Audit).get({ rowId: 2 }, { specialColumns: true })).toMatchObject({ Event: "e2", rowId: 2 });
    const withExpand = await od.table(Contacts).get("A1", { select: ["id"], expand: { Invoices: { select: ["Amount"] } } });
    expect(withExpand).toEqual({ id: "A1", Invoices: [{ Amount: 10 }, { Amount: 20.25 }] });
  });

  it("reads a row's related rows through a relation", async () => {
    expect(await od.table(Contacts).related("A1", "Invoices", { select: ["Amount"], orderBy: ["Amount"] })).toEqual({ value: [{ Amount: 10 }, { Amount: 20.25 }] });
  });

  it("counts the rows a filter matches", async () => {
    expect(await od.table(Contacts).count()).toBe(3);
    expect(await od.count(Contacts, { filter: f.or(f.contains("Name", "Ad"), f.eq("Age", 41)) })).toBe(2);
  });

  it("iterates every row in pages, in the key's or ROWID's order, whatever the page size", async () => {
    const seen: number[] = [];
    for await (const row of od.table(Audit).all({ pageSize: 5, filter: f.gt("N", 2) })) seen.push(row.N!);
    expect(seen).toEqual(Array.from({ length: 21 }, (_, i) => i + 3));
    const names: string[] = [];
    for await (const row of od.table(Contacts).all({ pageSize: 2, select: ["Name"], orderBy: [["Age", "desc"]] })) names.push(row.Name);
    expect(names).toEqual(["bob", "Ada", "Cy O'Brien"]);
  });
});
