import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NotExactlyOneError, RecordMissingError, type FileMakerClient, type LayoutClient } from "../../src/runtime/index.js";
import { collect, connect, counting, startRuntimeEmulator, type Emulator } from "../support/runtime-emulator.js";
import { Contact, DATABASE, Invoice, Weird, WEIRD_DATABASE, WEIRD_LAYOUT, WEIRD_TEXT } from "../support/runtime-layouts.js";

// The layout client's record calls against the example data: list and sort, get with portals, create,
// edit, delete, find / findOne / findFirst / findAll, and names that need percent-encoding.

let emu: Emulator;
let fm: FileMakerClient;
let contacts: LayoutClient<typeof Contact>;

beforeAll(async () => {
  emu = await startRuntimeEmulator();
  fm = connect(emu.url);
  contacts = fm.layout(Contact);
});

afterAll(async () => {
  await fm.close();
  await emu.close();
});

const firstNames = (records: { fieldData: { "First Name": string } }[]) => records.map((r) => r.fieldData["First Name"]);

describe("list", () => {
  it("lists the seeded records with dataInfo", async () => {
    const page = await contacts.list();
    expect(firstNames(page.data)).toEqual(["Ada", "Grace", "Alan", "Katherine"]);
    expect(page.dataInfo).toEqual({ database: DATABASE, layout: "Contacts Web", table: "Contacts", totalRecordCount: 4, foundCount: 4, returnedCount: 4 });
  });

  it("sorts ascending and descending, by text and by date", async () => {
    expect(firstNames((await contacts.list({ sort: [{ fieldName: "First Name", sortOrder: "ascend" }] })).data)).toEqual(["Ada", "Alan", "Grace", "Katherine"]);
    expect(firstNames((await contacts.list({ sort: [{ fieldName: "First Name", sortOrder: "descend" }] })).data)).toEqual(["Katherine", "Grace", "Alan", "Ada"]);
    expect(firstNames((await contacts.list({ sort: [{ fieldName: "Birthday", sortOrder: "descend" }] })).data)).toEqual(["Katherine", "Alan", "Grace", "Ada"]);
    expect(
      firstNames((await contacts.list({ sort: [{ fieldName: "Status", sortOrder: "descend" }, { fieldName: "First Name", sortOrder: "descend" }] })).data),
    ).toEqual(["Alan", "Katherine", "Grace", "Ada"]);
  });

  it("pages with offset and limit", async () => {
    const sort = [{ fieldName: "First Name", sortOrder: "ascend" }] as const;
    const page = await contacts.list({ offset: 2, limit: 2, sort });
    expect(firstNames(page.data)).toEqual(["Alan", "Grace"]);
    expect(page.dataInfo.returnedCount).toBe(2);
    expect(page.dataInfo.foundCount).toBe(4);
  });

  it("an offset past the end is an empty page, not an error", async () => {
    const page = await contacts.list({ offset: 50 });
    expect(page.data).toEqual([]);
  });

  it.each([0, -1, 1.5, Number.NaN])("offset or limit %s is a RangeError before any request", async (n) => {
    const { requests } = await counting(emu, async () => {
      await expect(contacts.list({ offset: n })).rejects.toThrow(RangeError);
      await expect(contacts.list({ limit: n })).rejects.toThrow(RangeError);
      await expect(contacts.find({ query: [{ "First Name": "Ada" }], limit: n })).rejects.toThrow(RangeError);
    });
    expect(requests).toBe(0);
  });

  it("listAll streams every record once, in sort order, across pages", async () => {
    const all = await collect(contacts.listAll({ pageSize: 3, sort: [{ fieldName: "First Name", sortOrder: "descend" }] }));
    expect(firstNames(all)).toEqual(["Katherine", "Grace", "Alan", "Ada"]);
  });

  it("a sort without sortOrder sorts ascending, as the Data API's default (list, find, query)", async () => {
    expect(firstNames((await contacts.list({ sort: [{ fieldName: "First Name" }] })).data)).toEqual(["Ada", "Alan", "Grace", "Katherine"]);
    const found = await contacts.find({ query: [{ "First Name": "Katherine" }, { "First Name": "Ada" }, { "First Name": "Grace" }], sort: [{ fieldName: "First Name" }] });
    expect(firstNames(found.data)).toEqual(["Ada", "Grace", "Katherine"]);
    expect(firstNames(await collect(contacts.listAll({ pageSize: 3, sort: [{ fieldName: "First Name" }] })))).toEqual(["Ada", "Alan", "Grace", "Katherine"]);
  });

  it("listAll with a page size that divides the count exactly stops after an empty page", async () => {
    const { result, requests } = await counting(emu, () => collect(contacts.listAll({ pageSize: 2 })));
    expect(result).toHaveLength(4);
    expect(requests).toBeLessThanOrEqual(3);
  });
});

describe("get, with portals and related fields", () => {
  it("decodes every field and the portal rows", async () => {
    const ada = await contacts.get(1);
    expect(ada.recordId).toBe("1");
    expect(ada.modId).toBe("0");
    expect(ada.fieldData).toMatchObject({
      id: 1,
      "First Name": "Ada",
      "Last Name": "Lovelace",
      Email: "ada@example.com",
      Status: "Active",
      Birthday: "1815-12-10",
      "Wake Up": "07:30:00",
      Photo: null,
      Phone: ["555-0100", "", "555-0199"],
      "Company::Name": "Analytical Engines",
    });
    expect(ada.fieldData.Created).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
    expect(ada.portalData.Invoices).toEqual([
      { recordId: "1", modId: "0", "Invoices::Amount": 120.5, "Invoices::Issued": "2024-01-15" },
      { recordId: "2", modId: "0", "Invoices::Amount": 80, "Invoices::Issued": "2024-02-29" },
    ]);
    expect((await contacts.get("3")).portalData.Invoices).toEqual([]);
  });
});

describe("create, edit, delete", () => {
  it("creates with a related field and portal rows, edits with modId, deletes (cascading)", async () => {
    const invoices = fm.layout(Invoice);
    const invoicesBefore = emu.stats().records[DATABASE]!["Invoices"]!;
    const { recordId, modId } = await contacts.create({
      fieldData: { "First Name": "Mary", "Last Name": "Jackson", Email: "mary@example.com", Status: "Active", Birthday: "1921-04-09", "Company::Name": "NACA", Phone: ["1", undefined, "3"] },
      portalData: { Invoices: [{ "Invoices::Amount": 12.75, "Invoices::Issued": "2024-02-29" }] },
    });
    expect(modId).toBe("0");
    let mary = await contacts.get(recordId);
    expect(mary.fieldData).toMatchObject({ "First Name": "Mary", "Company::Name": "NACA", Birthday: "1921-04-09", Phone: ["1", "", "3"] });
    expect(mary.portalData.Invoices).toHaveLength(1);
    expect(mary.portalData.Invoices[0]).toMatchObject({ "Invoices::Amount": 12.75, "Invoices::Issued": "2024-02-29" });
    expect(emu.stats().records[DATABASE]!["Invoices"]).toBe(invoicesBefore + 1);
    const invoiceId = mary.portalData.Invoices[0]!.recordId;
    expect((await invoices.get(invoiceId)).fieldData.ContactID).toBe(mary.fieldData.id);

    const edited = await contacts.edit(recordId, { fieldData: { Status: "Inactive", "Wake Up": "05:45:00" }, modId: mary.modId });
    expect(Number(edited.modId)).toBe(Number(mary.modId) + 1);
    mary = await contacts.get(recordId);
    expect(mary.modId).toBe(edited.modId);
    // Only the fields sent change.
    expect(mary.fieldData).toMatchObject({ Status: "Inactive", "Wake Up": "05:45:00", "Last Name": "Jackson", Email: "mary@example.com" });

    // A portal row edited through the parent.
    await contacts.edit(recordId, { portalData: { Invoices: [{ recordId: invoiceId, "Invoices::Amount": 99 }] } });
    expect((await invoices.get(invoiceId)).fieldData.Amount).toBe(99);

    await contacts.delete(recordId);
    await expect(contacts.get(recordId)).rejects.toBeInstanceOf(RecordMissingError);
    await expect(invoices.get(invoiceId)).rejects.toBeInstanceOf(RecordMissingError);
  });

  it("an edit without modId applies whatever the record's modId", async () => {
    const { recordId } = await contacts.create({ fieldData: { "First Name": "Dorothy", Email: "dorothy@example.com" } });
    await contacts.edit(recordId, { fieldData: { "Last Name": "Vaughan" } });
    await contacts.edit(recordId, { fieldData: { "Last Name": "Vaughan Johnson" } });
    const record = await contacts.get(recordId);
    expect(record.fieldData["Last Name"]).toBe("Vaughan Johnson");
    expect(record.modId).toBe("2");
    await contacts.delete(recordId);
  });
});

describe("find", () => {
  it("a plain value means equals exactly: a prefix or a single word does not match", async () => {
    expect((await contacts.find({ query: [{ "First Name": "Ada" }] })).data.map((r) => r.recordId)).toEqual(["1"]);
    expect((await contacts.find({ query: [{ "First Name": "Ad" }] })).data).toEqual([]);
    expect((await contacts.find({ query: [{ "Company::Name": "Analytical" }] })).data).toEqual([]);
    expect((await contacts.find({ query: [{ "Company::Name": "Analytical Engines" }] })).data.map((r) => r.recordId)).toEqual(["1"]);
  });

  it("fields in one request are ANDed, requests ORed, omit requests remove", async () => {
    expect(firstNames((await contacts.find({ query: [{ Status: "Active", "Last Name": "Hopper" }] })).data)).toEqual(["Grace"]);
    expect(firstNames((await contacts.find({ query: [{ "First Name": "Ada" }, { "First Name": "Alan" }] })).data)).toEqual(["Ada", "Alan"]);
    expect(firstNames((await contacts.find({ query: [{ Status: "Active" }, { "First Name": "Grace", omit: true }] })).data)).toEqual(["Ada", "Katherine"]);
    // omit: false is an ordinary request.
    expect(firstNames((await contacts.find({ query: [{ "First Name": "Grace", omit: false }] })).data)).toEqual(["Grace"]);
  });

  it("finds by a date, a time and a repeating field's value", async () => {
    expect(firstNames((await contacts.find({ query: [{ Birthday: "1815-12-10" }] })).data)).toEqual(["Ada"]);
    expect(firstNames((await contacts.find({ query: [{ "Wake Up": "06:00:00" }] })).data)).toEqual(["Grace"]);
    expect(firstNames((await contacts.find({ query: [{ Phone: "555-0199" }] })).data)).toEqual(["Ada"]);
  });

  it("finds by a portal field", async () => {
    expect(firstNames((await contacts.find({ query: [{ "Invoices::Amount": 300 }] })).data)).toEqual(["Grace"]);
  });

  it("sorts, offsets and limits a find", async () => {
    const page = await contacts.find({ query: [{ Status: "Active" }], sort: [{ fieldName: "First Name", sortOrder: "descend" }], offset: 2, limit: 1 });
    expect(firstNames(page.data)).toEqual(["Grace"]);
    expect(page.dataInfo.foundCount).toBe(3);
    expect(page.dataInfo.returnedCount).toBe(1);
  });

  it("a find matching nothing is an empty page with foundCount 0", async () => {
    const page = await contacts.find({ query: [{ Email: "nobody@example.com" }] });
    expect(page.data).toEqual([]);
    expect(page.dataInfo.foundCount).toBe(0);
  });

  it("a find on a field the definition lacks is a TypeError before any request", async () => {
    const { requests } = await counting(emu, async () => {
      // @ts-expect-error not a field of Contacts Web
      await expect(contacts.find({ query: [{ Nope: "x" }] })).rejects.toThrow(/Nope/);
    });
    expect(requests).toBe(0);
  });

  it("findAll streams every match across pages in sort order", async () => {
    const all = await collect(contacts.findAll({ query: [{ Status: "Active" }], sort: [{ fieldName: "Birthday", sortOrder: "ascend" }], pageSize: 2 }));
    expect(firstNames(all)).toEqual(["Ada", "Grace", "Katherine"]);
  });
});

describe("findOne and findFirst", () => {
  it("findOne returns the one match", async () => {
    const grace = await contacts.findOne({ query: [{ Email: "grace@example.com" }] });
    expect(grace.fieldData["First Name"]).toBe("Grace");
  });

  it("findOne with no match throws NotExactlyOneError with foundCount 0", async () => {
    const error = await contacts.findOne({ query: [{ Email: "nobody@example.com" }] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotExactlyOneError);
    expect(error).toMatchObject({ layout: "Contacts Web", foundCount: 0 });
  });

  it("findOne with several matches throws NotExactlyOneError with the found count", async () => {
    const error = await contacts.findOne({ query: [{ Status: "Active" }] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotExactlyOneError);
    expect(error).toMatchObject({ layout: "Contacts Web", foundCount: 3 });
    expect((error as Error).message).toContain("3");
  });

  it("findFirst returns the first match in sort order, or undefined", async () => {
    const first = await contacts.findFirst({ query: [{ Status: "Active" }], sort: [{ fieldName: "First Name", sortOrder: "descend" }] });
    expect(first?.fieldData["First Name"]).toBe("Katherine");
    const offset = await contacts.findFirst({ query: [{ Status: "Active" }], sort: [{ fieldName: "First Name", sortOrder: "descend" }], offset: 2 });
    expect(offset?.fieldData["First Name"]).toBe("Grace");
    expect(await contacts.findFirst({ query: [{ Status: "Inactive", "First Name": "Ada" }] })).toBeUndefined();
  });
});

describe("names that need percent-encoding", () => {
  it(`create, get, list, find and edit through layout "${WEIRD_LAYOUT}" of database "${WEIRD_DATABASE}"`, async () => {
    const weirdFm = connect(emu.url, { database: WEIRD_DATABASE });
    try {
      const weird = weirdFm.layout(Weird);
      const value = "a/b ?# 100% é";
      const { recordId } = await weird.create({ fieldData: { [WEIRD_TEXT]: value } });
      expect((await weird.get(recordId)).fieldData[WEIRD_TEXT]).toBe(value);
      const page = await weird.list({ sort: [{ fieldName: WEIRD_TEXT, sortOrder: "ascend" }] });
      expect(page.dataInfo.layout).toBe(WEIRD_LAYOUT);
      expect(page.dataInfo.database).toBe(WEIRD_DATABASE);
      expect(page.data.map((r) => r.recordId)).toContain(recordId);
      expect((await weird.findOne({ query: [{ [WEIRD_TEXT]: value }] })).recordId).toBe(recordId);
      await weird.edit(recordId, { fieldData: { [WEIRD_TEXT]: "changed" } });
      expect((await weird.get(recordId)).fieldData[WEIRD_TEXT]).toBe("changed");
      await weird.delete(recordId);
    } finally {
      await weirdFm.close();
    }
  });

  it("a layout of another database is refused by the client", () => {
    expect(() => fm.layout(Weird)).toThrow(/database/);
  });
});
