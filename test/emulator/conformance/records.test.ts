import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startConformanceEmulator, type Emulator } from "../../support/conformance-emulator.js";
import {
  CONTACTS,
  DataApi,
  DB,
  expectError,
  expectOk,
  INVOICES,
  p,
  UUID,
  wireTimestampToMs,
} from "../../support/data-api-http.js";

// List, get, create, edit and delete records (docs/reading-and-writing.md), with the validation the
// emulator applies (docs/emulator.md). Tests that change data work on records they create themselves;
// seeded records 1..5 of Contacts and 1..3 of Invoices are only read, so no test depends on another.

let emu: Emulator;
let api: DataApi;
let token: string;

beforeAll(async () => {
  ({ emu, api } = await startConformanceEmulator());
  token = await api.login();
});
afterAll(async () => {
  await emu.close();
});

const SEEDED = ["1", "2", "3", "4", "5"];
const ids = (data: { recordId: string }[]) => data.map((r) => r.recordId);
const seededOnly = (data: { recordId: string }[]) => ids(data).filter((id) => SEEDED.includes(id));

async function listAll(layout = CONTACTS) {
  return expectOk(await api.list(token, layout, { _limit: 100000 }));
}

describe("List records", () => {
  it("List: 200 with dataInfo and data; each record has fieldData, portalData, recordId and modId", async () => {
    const response = expectOk(await api.list(token, CONTACTS));
    const total = response.dataInfo.totalRecordCount;
    expect(total).toBeGreaterThanOrEqual(5);
    expect(response.dataInfo).toMatchObject({
      database: DB,
      layout: CONTACTS,
      table: "Contacts",
      totalRecordCount: total,
      foundCount: total,
      returnedCount: Math.min(total, 100),
    });
    expect(response.data).toHaveLength(response.dataInfo.returnedCount);
    for (const record of response.data) {
      expect(typeof record.recordId).toBe("string");
      expect(typeof record.modId).toBe("string");
      expect(typeof record.fieldData).toBe("object");
      expect(Array.isArray(record.portalData.Invoices)).toBe(true);
    }
  });

  it("List row _offset: default 1 (no _offset starts at the first record)", async () => {
    const response = expectOk(await api.list(token, CONTACTS));
    expect(response.data[0].recordId).toBe("1");
    expect(response.data[0].fieldData["First Name"]).toBe("Ada");
  });

  it("List row _offset: one-based index of the first record returned", async () => {
    expect(ids(expectOk(await api.list(token, CONTACTS, { _offset: 1, _limit: 2 })).data)).toEqual(["1", "2"]);
    expect(ids(expectOk(await api.list(token, CONTACTS, { _offset: 3, _limit: 2 })).data)).toEqual(["3", "4"]);
  });

  it("List row _offset: minimum 1 (_offset=0 is rejected with 400 / 1708)", async () => {
    expectError(await api.list(token, CONTACTS, { _offset: 0 }), 400, "1708");
  });

  it("List row _limit: default 100 (every one of the few records, at most 100)", async () => {
    const response = expectOk(await api.list(token, CONTACTS));
    expect(response.dataInfo.returnedCount).toBe(Math.min(100, response.dataInfo.foundCount));
  });

  it("List row _limit: maximum number of records returned; foundCount stays the whole table", async () => {
    const response = expectOk(await api.list(token, CONTACTS, { _offset: 2, _limit: 2 }));
    expect(ids(response.data)).toEqual(["2", "3"]);
    expect(response.dataInfo.returnedCount).toBe(2);
    expect(response.dataInfo.foundCount).toBe(response.dataInfo.totalRecordCount);
  });

  it("List row _limit: minimum 1 (_limit=1 returns one record, _limit=0 is rejected with 400 / 1708)", async () => {
    const one = expectOk(await api.list(token, CONTACTS, { _limit: 1 }));
    expect(ids(one.data)).toEqual(["1"]);
    expect(one.dataInfo.returnedCount).toBe(1);
    expectError(await api.list(token, CONTACTS, { _limit: 0 }), 400, "1708");
  });

  it("List row _sort: URL-encoded JSON array of SortSpec, descend on a number field", async () => {
    const _sort = JSON.stringify([{ fieldName: "Age", sortOrder: "descend" }]);
    const response = expectOk(await api.list(token, CONTACTS, { _sort, _limit: 1000 }));
    // Ages: Katherine 101, Grace 85, Adam 67, Alan 41, Ada 36
    expect(seededOnly(response.data)).toEqual(["5", "2", "4", "3", "1"]);
  });

  it("List row _sort: ascend on a text field", async () => {
    const _sort = JSON.stringify([{ fieldName: "Last Name", sortOrder: "ascend" }]);
    const response = expectOk(await api.list(token, CONTACTS, { _sort, _limit: 1000 }));
    // Hopper, Johnson, Lovelace, Smith, Turing
    expect(seededOnly(response.data)).toEqual(["2", "5", "1", "4", "3"]);
  });

  it("List row _sort: several SortSpecs apply in order", async () => {
    const _sort = JSON.stringify([
      { fieldName: "Status", sortOrder: "ascend" },
      { fieldName: "Age", sortOrder: "descend" },
    ]);
    const response = expectOk(await api.list(token, CONTACTS, { _sort, _limit: 1000 }));
    // Active: Katherine 101, Alan 41, Ada 36; then Inactive: Grace. (Adam has no Status; not asserted.)
    expect(seededOnly(response.data).filter((id) => id !== "4")).toEqual(["5", "3", "1", "2"]);
  });

  it("List row _sort: descend on a date field, with _offset and _limit applied after sorting", async () => {
    const _sort = JSON.stringify([{ fieldName: "Issued", sortOrder: "descend" }]);
    // Issued: 03/03/1950 (3), 02/01/1850 (2), 01/15/1850 (1). Other tests add invoices, so only the
    // relative order of the seeded ones is asserted.
    const all = expectOk(await api.list(token, INVOICES, { _sort, _limit: 1000 }));
    const seeded = ids(all.data).filter((id) => ["1", "2", "3"].includes(id));
    expect(seeded).toEqual(["3", "2", "1"]);
    const page = expectOk(await api.list(token, INVOICES, { _sort, _offset: 2, _limit: 1 }));
    expect(page.dataInfo.returnedCount).toBe(1);
    expect(page.data[0].recordId).toBe(all.data[1].recordId);
  });

  it("List row _sort: a field missing from the layout is rejected with 400 / 102", async () => {
    const _sort = JSON.stringify([{ fieldName: "Nickname", sortOrder: "ascend" }]);
    expectError(await api.list(token, CONTACTS, { _sort }), 400, "102");
  });

  it("List: 404 / 105 for an unknown layout and 404 / 100 for an unknown database", async () => {
    expectError(await api.list(token, "No Such Layout"), 404, "105");
    expectError(await api.list(token, CONTACTS, undefined, "NoSuchDatabase"), 404, "100");
  });
});

describe("Get record", () => {
  it("Get: 200, same shape as List records; data holds a single element", async () => {
    const response = expectOk(await api.get(token, CONTACTS, "2"));
    expect(response.data).toHaveLength(1);
    expect(response.dataInfo).toMatchObject({ database: DB, layout: CONTACTS, table: "Contacts", returnedCount: 1 });
    const record = response.data[0];
    expect(record.recordId).toBe("2");
    expect(record.modId).toBe("0");
    expect(record.fieldData).toMatchObject({ "First Name": "Grace", "Last Name": "Hopper", Age: 85 });
    expect(record.portalData.Invoices).toHaveLength(1);
  });

  it("Get: 404 / 101 for a record that does not exist", async () => {
    expectError(await api.get(token, CONTACTS, "999999"), 404, "101");
  });
});

describe("Create record", () => {
  it("Create: 200 with recordId and modId \"0\"; the record reads back with what was sent", async () => {
    const res = await api.create(token, CONTACTS, {
      fieldData: { "First Name": "Barbara", "Last Name": "Liskov", Email: "barbara@example.com", Age: 84 },
    });
    const response = expectOk(res);
    expect(typeof response.recordId).toBe("string");
    expect(response.modId).toBe("0");
    const record = await api.getOk(token, CONTACTS, response.recordId);
    expect(record.recordId).toBe(response.recordId);
    expect(record.modId).toBe("0");
    expect(record.fieldData).toMatchObject({
      "First Name": "Barbara",
      "Last Name": "Liskov",
      Email: "barbara@example.com",
      Age: 84,
      Birthday: "",
    });
  });

  it("Create: the new record appears at the end of the list and the counts grow by one", async () => {
    const before = await listAll();
    const { recordId } = await api.createOk(token, CONTACTS, { fieldData: { "First Name": "Edsger" } });
    const after = await listAll();
    expect(after.dataInfo.totalRecordCount).toBe(before.dataInfo.totalRecordCount + 1);
    expect(ids(after.data).at(-1)).toBe(recordId);
    expect(ids(before.data)).not.toContain(recordId);
  });

  it("Create: record ids are distinct and stable", async () => {
    const a = await api.createOk(token, CONTACTS, { fieldData: { "First Name": "Niklaus" } });
    const b = await api.createOk(token, CONTACTS, { fieldData: { "First Name": "Donald" } });
    expect(a.recordId).not.toBe(b.recordId);
    expect((await api.getOk(token, CONTACTS, a.recordId)).fieldData["First Name"]).toBe("Niklaus");
    expect((await api.getOk(token, CONTACTS, b.recordId)).fieldData["First Name"]).toBe("Donald");
  });

  it("Create: Content-Type application/json with a charset parameter is accepted", async () => {
    const res = await api.call("POST", p`/databases/${DB}/layouts/${CONTACTS}/records`, {
      token,
      body: JSON.stringify({ fieldData: { "First Name": "Frances" } }),
      headers: { "Content-Type": "application/json; charset=utf-8" },
    });
    expect(expectOk(res).modId).toBe("0");
  });

  it("Create: a value outside the field's value list is accepted (code 0)", async () => {
    const { recordId } = await api.createOk(token, CONTACTS, { fieldData: { "First Name": "Ida", Status: "Retired" } });
    expect((await api.getOk(token, CONTACTS, recordId)).fieldData.Status).toBe("Retired");
  });

  it("Create with portalData creates related records visible in the parent's portalData rows", async () => {
    const { recordId } = await api.createOk(token, CONTACTS, {
      fieldData: { "First Name": "Hedy" },
      portalData: {
        Invoices: [
          { "Invoices::Amount": 12.5, "Invoices::Issued": "01/02/2020" },
          { "Invoices::Amount": "40", "Invoices::Issued": "02/03/2021" },
        ],
      },
    });
    const record = await api.getOk(token, CONTACTS, recordId);
    const rows = record.portalData.Invoices;
    expect(rows).toHaveLength(2);
    expect(rows[0]).toEqual({
      recordId: expect.any(String),
      modId: "0",
      "Invoices::Amount": 12.5,
      "Invoices::Issued": "01/02/2020",
    });
    expect(rows[1]).toEqual({
      recordId: expect.any(String),
      modId: "0",
      "Invoices::Amount": 40,
      "Invoices::Issued": "02/03/2021",
    });
    expect(rows[0].recordId).not.toBe(rows[1].recordId);
    // the rows are real Invoices records, joined by ContactID = id
    for (const row of rows) {
      const invoice = await api.getOk(token, INVOICES, row.recordId);
      expect(invoice.fieldData.ContactID).toBe(record.fieldData.id);
      expect(invoice.fieldData.Amount).toBe(row["Invoices::Amount"]);
    }
  });

  it("Create: 400 / 102 for a field missing from the layout; nothing is stored", async () => {
    const before = await listAll();
    expectError(await api.create(token, CONTACTS, { fieldData: { "First Name": "Zed", Nickname: "z" } }), 400, "102");
    expect(await listAll()).toEqual(before);
  });
});

describe("Edit record", () => {
  it("Edit: only the fields present in fieldData change; all others stay untouched", async () => {
    const { recordId } = await api.createOk(token, CONTACTS, {
      fieldData: { "First Name": "Margaret", "Last Name": "Hamilton", Age: 50, Birthday: "08/17/1936", Phone: "1", "Phone(2)": "2" },
    });
    const before = await api.getOk(token, CONTACTS, recordId);
    const res = await api.edit(token, CONTACTS, recordId, { fieldData: { Age: 51 } });
    expect(expectOk(res).modId).toBe("1");
    const after = await api.getOk(token, CONTACTS, recordId);
    const { Age: _a, Modified: _m, ...restBefore } = before.fieldData;
    const { Age, Modified: _m2, ...restAfter } = after.fieldData;
    expect(Age).toBe(51);
    expect(restAfter).toEqual(restBefore);
    expect(after.portalData).toEqual(before.portalData);
  });

  it("Edit: modId increments on every edit and the response carries the new modId", async () => {
    const { recordId, modId } = await api.createOk(token, CONTACTS, { fieldData: { "First Name": "Radia" } });
    expect(modId).toBe("0");
    expect(expectOk(await api.edit(token, CONTACTS, recordId, { fieldData: { Age: 1 } })).modId).toBe("1");
    expect(expectOk(await api.edit(token, CONTACTS, recordId, { fieldData: { Age: 2 } })).modId).toBe("2");
    expect(expectOk(await api.edit(token, CONTACTS, recordId, { fieldData: { Age: 3 } })).modId).toBe("3");
    expect((await api.getOk(token, CONTACTS, recordId)).modId).toBe("3");
  });

  it("Edit: with a modId equal to the record's current modId the edit applies", async () => {
    const { recordId } = await api.createOk(token, CONTACTS, { fieldData: { "First Name": "Adele" } });
    expect(expectOk(await api.edit(token, CONTACTS, recordId, { fieldData: { Age: 30 }, modId: "0" })).modId).toBe("1");
    expect(expectOk(await api.edit(token, CONTACTS, recordId, { fieldData: { Age: 31 }, modId: "1" })).modId).toBe("2");
    expect((await api.getOk(token, CONTACTS, recordId)).fieldData.Age).toBe(31);
  });

  it("Edit: with a modId that differs from the current one: 400 / 306 and the record is unchanged", async () => {
    const { recordId } = await api.createOk(token, CONTACTS, { fieldData: { "First Name": "Joan" } });
    expectOk(await api.edit(token, CONTACTS, recordId, { fieldData: { Age: 20 } })); // modId now "1"
    const before = await api.getOk(token, CONTACTS, recordId);
    expectError(await api.edit(token, CONTACTS, recordId, { fieldData: { Age: 99 }, modId: "0" }), 400, "306");
    expectError(await api.edit(token, CONTACTS, recordId, { fieldData: { Age: 99 }, modId: "7" }), 400, "306");
    expect(await api.getOk(token, CONTACTS, recordId)).toEqual(before);
  });

  it("Edit: an empty string clears a field", async () => {
    const { recordId } = await api.createOk(token, CONTACTS, {
      fieldData: { "First Name": "Sophie", Age: 40, Birthday: "01/01/1980", "Wake Up": "08:00:00", Status: "Active" },
    });
    expectOk(await api.edit(token, CONTACTS, recordId, { fieldData: { Age: "", Birthday: "", "Wake Up": "", Status: "" } }));
    expect((await api.getOk(token, CONTACTS, recordId)).fieldData).toMatchObject({ Age: "", Birthday: "", "Wake Up": "", Status: "" });
  });

  it("Edit: the recordId stays the same across edits", async () => {
    const { recordId } = await api.createOk(token, CONTACTS, { fieldData: { "First Name": "Kathleen" } });
    expectOk(await api.edit(token, CONTACTS, recordId, { fieldData: { "Last Name": "Booth" } }));
    const record = await api.getOk(token, CONTACTS, recordId);
    expect(record.recordId).toBe(recordId);
    expect(record.fieldData["Last Name"]).toBe("Booth");
  });

  it("Edit: 404 / 101 for a record that does not exist", async () => {
    expectError(await api.edit(token, CONTACTS, "999999", { fieldData: { Age: 1 } }), 404, "101");
  });
});

describe("Delete record", () => {
  it("Delete: 200 with an empty response; the record is gone (404 / 101) and the count drops", async () => {
    const { recordId } = await api.createOk(token, CONTACTS, { fieldData: { "First Name": "Temporary" } });
    const before = await listAll();
    const res = await api.delete(token, CONTACTS, recordId);
    expectOk(res);
    expect(res.body.response).toEqual({});
    expectError(await api.get(token, CONTACTS, recordId), 404, "101");
    const after = await listAll();
    expect(after.dataInfo.totalRecordCount).toBe(before.dataInfo.totalRecordCount - 1);
    expect(ids(after.data)).toEqual(ids(before.data).filter((id) => id !== recordId));
  });

  it("Delete: cascades to the related Invoices (relation cascadeDelete)", async () => {
    const { recordId } = await api.createOk(token, CONTACTS, {
      fieldData: { "First Name": "Cascade" },
      portalData: { Invoices: [{ "Invoices::Amount": 1 }, { "Invoices::Amount": 2 }] },
    });
    const rows: { recordId: string }[] = (await api.getOk(token, CONTACTS, recordId)).portalData.Invoices;
    expect(rows).toHaveLength(2);
    const invoicesBefore = await listAll(INVOICES);
    expectOk(await api.delete(token, CONTACTS, recordId));
    for (const row of rows) expectError(await api.get(token, INVOICES, row.recordId), 404, "101");
    const invoicesAfter = await listAll(INVOICES);
    expect(invoicesAfter.dataInfo.totalRecordCount).toBe(invoicesBefore.dataInfo.totalRecordCount - 2);
    // other contacts' invoices stay
    expect(ids(invoicesAfter.data)).toEqual(ids(invoicesBefore.data).filter((id) => !rows.some((r) => r.recordId === id)));
    expect(ids(invoicesAfter.data)).toEqual(expect.arrayContaining(["1", "2", "3"]));
  });

  it("Delete: 404 / 101 for a record that does not exist, twice deleted included", async () => {
    const { recordId } = await api.createOk(token, CONTACTS, { fieldData: { "First Name": "Twice" } });
    expectOk(await api.delete(token, CONTACTS, recordId));
    expectError(await api.delete(token, CONTACTS, recordId), 404, "101");
    expectError(await api.delete(token, CONTACTS, "999999"), 404, "101");
  });
});

describe("validation: a rejected create or edit stores nothing", () => {
  async function expectCreateRejected(fieldData: Record<string, unknown>, status: number, code: string) {
    const before = await listAll();
    expectError(await api.create(token, CONTACTS, { fieldData }), status, code);
    expect(await listAll()).toEqual(before);
  }

  async function expectEditRejected(fieldData: Record<string, unknown>, status: number, code: string) {
    const { recordId } = await api.createOk(token, CONTACTS, {
      fieldData: { "First Name": "Valid", Email: `valid-${Math.random()}@example.com`, Age: 10, Birthday: "01/01/2000", "Wake Up": "09:00:00" },
    });
    const before = await api.getOk(token, CONTACTS, recordId);
    expectError(await api.edit(token, CONTACTS, recordId, { fieldData }), status, code);
    expect(await api.getOk(token, CONTACTS, recordId)).toEqual(before);
  }

  it("unique: create duplicating another record's Email -> 400 / 504", async () => {
    await expectCreateRejected({ "First Name": "Copy", Email: "ada@example.com" }, 400, "504");
  });

  it("unique: edit duplicating another record's Email -> 400 / 504", async () => {
    await expectEditRejected({ Email: "grace@navy.mil" }, 400, "504");
  });

  it("required: create without First Name -> 400 / 509", async () => {
    await expectCreateRejected({ "Last Name": "Nameless" }, 400, "509");
    await expectCreateRejected({ "First Name": "" }, 400, "509");
  });

  it("required: edit emptying First Name -> 400 / 509", async () => {
    await expectEditRejected({ "First Name": "" }, 400, "509");
  });

  it("unknown field: create or edit of a field missing from the layout -> 400 / 102", async () => {
    await expectCreateRejected({ "First Name": "X", "No Such Field": "x" }, 400, "102");
    await expectEditRejected({ "No Such Field": "x" }, 400, "102");
  });

  it("wrong type: a malformed date -> 400 / 500", async () => {
    await expectCreateRejected({ "First Name": "X", Birthday: "not a date" }, 400, "500");
    await expectCreateRejected({ "First Name": "X", Birthday: "02/30/2020" }, 400, "500");
    await expectEditRejected({ Birthday: "13/01/2020", Age: 11 }, 400, "500");
  });

  it("wrong type: a malformed time -> 400 / 501", async () => {
    await expectCreateRejected({ "First Name": "X", "Wake Up": "25:00:00" }, 400, "501");
    await expectEditRejected({ "Wake Up": "noon", Age: 11 }, 400, "501");
  });

  it("wrong type: text in a number field -> 400 / 502", async () => {
    await expectCreateRejected({ "First Name": "X", Age: "forty" }, 400, "502");
    await expectEditRejected({ Age: "12abc", "Last Name": "Changed" }, 400, "502");
  });

  it("wrong type: a malformed timestamp -> 400 / 500", async () => {
    await expectCreateRejected({ "First Name": "X", "Last Seen": "yesterday" }, 400, "500");
    await expectEditRejected({ "Last Seen": "01/01/2020 25:00:00" }, 400, "500");
  });

  it("readOnly: create or edit of a readOnly field -> 400 / 201", async () => {
    await expectCreateRejected({ "First Name": "X", id: 1000 }, 400, "201");
    await expectEditRejected({ id: 1000 }, 400, "201");
    await expectEditRejected({ Created: "01/01/2020 00:00:00" }, 400, "201");
  });

  it("container: create or edit of a container field -> 400 / 102", async () => {
    await expectCreateRejected({ "First Name": "X", Photo: "http://example.com/a.png" }, 400, "102");
    await expectEditRejected({ Photo: "" }, 400, "102");
  });

  it("a bad portal row rejects the whole create: neither the parent nor any row is stored", async () => {
    const contacts = await listAll();
    const invoices = await listAll(INVOICES);
    const res = await api.create(token, CONTACTS, {
      fieldData: { "First Name": "Atomic" },
      portalData: { Invoices: [{ "Invoices::Amount": 5 }, { "Invoices::Amount": "five" }] },
    });
    expectError(res, 400, "502");
    expect(await listAll()).toEqual(contacts);
    expect(await listAll(INVOICES)).toEqual(invoices);
  });
});

describe("auto-enter (own emulator with a fixed clock)", () => {
  const START = new Date(2024, 2, 15, 10, 0, 0); // local wall time 03/15/2024 10:00:00
  let clocked: Emulator;
  let capi: DataApi;

  beforeAll(async () => {
    ({ emu: clocked, api: capi } = await startConformanceEmulator({ startTime: START }));
  });
  afterAll(async () => {
    await clocked.close();
  });

  /** The wire timestamp is within a few seconds after the expected emulator time (the clock keeps running). */
  function expectAround(wire: unknown, expectedMs: number) {
    expect(typeof wire).toBe("string");
    const delta = wireTimestampToMs(wire as string) - expectedMs;
    expect(delta).toBeGreaterThanOrEqual(0);
    expect(delta).toBeLessThan(10_000);
  }

  it("serial: ids continue after the highest seeded value, one per new record", async () => {
    const t = await capi.login();
    const a = await capi.getOk(t, CONTACTS, (await capi.createOk(t, CONTACTS, { fieldData: { "First Name": "S1" } })).recordId);
    const b = await capi.getOk(t, CONTACTS, (await capi.createOk(t, CONTACTS, { fieldData: { "First Name": "S2" } })).recordId);
    expect(typeof a.fieldData.id).toBe("number");
    expect(a.fieldData.id).toBeGreaterThanOrEqual(6);
    expect(b.fieldData.id).toBe(a.fieldData.id + 1);
  });

  it("uuid: a new record gets a distinct UUID", async () => {
    const t = await capi.login();
    const a = await capi.getOk(t, CONTACTS, (await capi.createOk(t, CONTACTS, { fieldData: { "First Name": "U1" } })).recordId);
    const b = await capi.getOk(t, CONTACTS, (await capi.createOk(t, CONTACTS, { fieldData: { "First Name": "U2" } })).recordId);
    expect(a.fieldData.uuid).toMatch(UUID);
    expect(b.fieldData.uuid).toMatch(UUID);
    expect(a.fieldData.uuid).not.toBe(b.fieldData.uuid);
  });

  it("creation and modification timestamps follow the emulator clock moved by advanceTime", async () => {
    // Documented order inside this test only: create, move the clock, edit, create again.
    let t = await capi.login();
    const startMs = START.getTime();
    const { recordId } = await capi.createOk(t, CONTACTS, { fieldData: { "First Name": "Clock" } });
    const created = await capi.getOk(t, CONTACTS, recordId);
    const advancedBefore = Date.now();
    expectAround(created.fieldData.Created, startMs);
    expectAround(created.fieldData.Modified, startMs);

    clocked.advanceTime(3 * 60 * 60_000); // three hours: the token expires too
    t = await capi.login();
    const elapsed = Date.now() - advancedBefore;
    expectOk(await capi.edit(t, CONTACTS, recordId, { fieldData: { Age: 1 } }));
    const edited = await capi.getOk(t, CONTACTS, recordId);
    expect(edited.fieldData.Created).toBe(created.fieldData.Created);
    expectAround(edited.fieldData.Modified, startMs + 3 * 60 * 60_000 + Math.max(0, elapsed - 5_000));
    const delta = wireTimestampToMs(edited.fieldData.Modified) - wireTimestampToMs(created.fieldData.Modified);
    expect(delta).toBeGreaterThanOrEqual(3 * 60 * 60_000);
    expect(delta).toBeLessThan(3 * 60 * 60_000 + 10_000);

    const second = await capi.getOk(t, CONTACTS, (await capi.createOk(t, CONTACTS, { fieldData: { "First Name": "Later" } })).recordId);
    expect(wireTimestampToMs(second.fieldData.Created) - wireTimestampToMs(created.fieldData.Created)).toBeGreaterThanOrEqual(3 * 60 * 60_000);
  });
});
