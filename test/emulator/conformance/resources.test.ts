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
  USER,
  PASSWORD,
  WIRE_TIMESTAMP,
} from "../../support/data-api-http.js";

// docs/emulator.md, "The base Data API": the envelope, messages, records, dataInfo, path parameters and
// values on the wire. Changing tests work on records they create themselves.

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

describe("Envelope and Message", () => {
  it("Envelope: a success has a response object and messages [{ code: \"0\", message }]", async () => {
    const res = await api.list(token, CONTACTS, { _limit: 1 });
    expectOk(res);
    expect(res.headers.get("content-type")?.split(";")[0]).toBe("application/json");
    expect(Object.keys(res.body).sort()).toEqual(["messages", "response"]);
    expect(res.body.messages).toEqual([{ code: "0", message: expect.any(String) }]);
  });

  it("Envelope: an error carries messages[0].code as a string and a message", async () => {
    const res = await api.get(token, CONTACTS, "999999");
    expectError(res, 404, "101");
    expect(res.headers.get("content-type")?.split(";")[0]).toBe("application/json");
    expect(typeof res.body.messages[0]?.message).toBe("string");
    expect(res.body.messages[0]?.message).not.toBe("");
    if (res.body.response !== undefined) expect(typeof res.body.response).toBe("object");
  });

  it("Envelope: delete and logout answer an empty response object", async () => {
    const { recordId } = await api.createOk(token, CONTACTS, { fieldData: { "First Name": "Empty" } });
    expect((await api.delete(token, CONTACTS, recordId)).body.response).toEqual({});
    const other = await api.login();
    expect((await api.logout(other)).body.response).toEqual({});
  });
});

describe("Record and wire values", () => {
  it("Wire values: a seeded record reads back exactly as the wire values say", async () => {
    const record = await api.getOk(token, CONTACTS, "1");
    expect(record.recordId).toBe("1");
    expect(record.modId).toBe("0");
    expect(record.fieldData).toEqual({
      id: 1,
      uuid: expect.any(String),
      "First Name": "Ada",
      "Last Name": "Lovelace",
      Email: "ada@example.com",
      Status: "Active",
      Age: 36,
      Birthday: "12/10/1815",
      "Wake Up": "07:30:00",
      "Last Seen": "11/27/1852 15:04:05",
      Created: expect.any(String),
      Modified: expect.any(String),
      Photo: "",
      Attachments: "",
      "Attachments(2)": "",
      Phone: "555-0100",
      "Phone(2)": "555-0101",
      "Phone(3)": "",
      "Site Banner": "",
      "Company::Name": "Analytical Engines Ltd",
    });
  });

  it("Wire values: numbers are JSON numbers, also when sent as numeric strings", async () => {
    const { recordId } = await api.createOk(token, CONTACTS, { fieldData: { "First Name": "Num", Age: "42" } });
    const record = await api.getOk(token, CONTACTS, recordId);
    expect(record.fieldData.Age).toBe(42);
    expect(record.fieldData.id).toEqual(expect.any(Number));
    expectOk(await api.edit(token, CONTACTS, recordId, { fieldData: { Age: -1.25 } }));
    expect((await api.getOk(token, CONTACTS, recordId)).fieldData.Age).toBe(-1.25);
    const invoice = await api.getOk(token, INVOICES, "2");
    expect(invoice.fieldData).toEqual({ ContactID: 1, Amount: 250.5, Issued: "02/01/1850" });
  });

  it("Wire values: dates MM/DD/YYYY, times HH:MM:SS, timestamps MM/DD/YYYY HH:MM:SS (zero-padded)", async () => {
    const { recordId } = await api.createOk(token, CONTACTS, {
      fieldData: { "First Name": "Dates", Birthday: "1/2/2020", "Wake Up": "7:05:09", "Last Seen": "3/4/2021 5:06:07" },
    });
    const record = await api.getOk(token, CONTACTS, recordId);
    expect(record.fieldData).toMatchObject({ Birthday: "01/02/2020", "Wake Up": "07:05:09", "Last Seen": "03/04/2021 05:06:07" });
    expect(record.fieldData.Created).toMatch(WIRE_TIMESTAMP);
    expect(record.fieldData.Modified).toMatch(WIRE_TIMESTAMP);
  });

  it("Wire values: an empty field of any type reads as \"\"", async () => {
    const { recordId } = await api.createOk(token, CONTACTS, { fieldData: { "First Name": "Sparse" } });
    const record = await api.getOk(token, CONTACTS, recordId);
    expect(record.fieldData).toMatchObject({
      "Last Name": "",
      Email: "",
      Status: "",
      Age: "",
      Birthday: "",
      "Wake Up": "",
      "Last Seen": "",
      Photo: "",
      Attachments: "",
      "Attachments(2)": "",
      Phone: "",
      "Phone(2)": "",
      "Phone(3)": "",
      "Company::Name": "",
    });
  });

  it("Repetitions: repetition n > 1 travels as key F(n), written and read", async () => {
    const { recordId } = await api.createOk(token, CONTACTS, {
      fieldData: { "First Name": "Reps", Phone: "one", "Phone(2)": "two", "Phone(3)": "three" },
    });
    expect((await api.getOk(token, CONTACTS, recordId)).fieldData).toMatchObject({ Phone: "one", "Phone(2)": "two", "Phone(3)": "three" });
    expectOk(await api.edit(token, CONTACTS, recordId, { fieldData: { "Phone(2)": "TWO" } }));
    expect((await api.getOk(token, CONTACTS, recordId)).fieldData).toMatchObject({ Phone: "one", "Phone(2)": "TWO", "Phone(3)": "three" });
  });

  it("Repetitions: a repetition beyond the field's count is not a field of the layout (400 / 102)", async () => {
    const before = expectOk(await api.list(token, CONTACTS, { _limit: 1000 }));
    expectError(await api.create(token, CONTACTS, { fieldData: { "First Name": "X", "Phone(4)": "four" } }), 400, "102");
    expect(expectOk(await api.list(token, CONTACTS, { _limit: 1000 }))).toEqual(before);
  });

  it("Record: portalData rows each have recordId and modId, fields keyed TO::Field", async () => {
    const ada = await api.getOk(token, CONTACTS, "1");
    expect(ada.portalData).toEqual({
      Invoices: [
        { recordId: "1", modId: "0", "Invoices::Amount": 100, "Invoices::Issued": "01/15/1850" },
        { recordId: "2", modId: "0", "Invoices::Amount": 250.5, "Invoices::Issued": "02/01/1850" },
      ],
    });
    const katherine = await api.getOk(token, CONTACTS, "5");
    expect(katherine.portalData).toEqual({ Invoices: [] });
  });

  it("Record: a portal row's modId follows edits of the related record", async () => {
    const { recordId } = await api.createOk(token, CONTACTS, {
      fieldData: { "First Name": "Portal" },
      portalData: { Invoices: [{ "Invoices::Amount": 5 }] },
    });
    const row = (await api.getOk(token, CONTACTS, recordId)).portalData.Invoices[0];
    expect(expectOk(await api.edit(token, INVOICES, row.recordId, { fieldData: { Amount: 6 } })).modId).toBe("1");
    expect((await api.getOk(token, CONTACTS, recordId)).portalData.Invoices).toEqual([
      { recordId: row.recordId, modId: "1", "Invoices::Amount": 6, "Invoices::Issued": "" },
    ]);
  });

  it("Record: a related field outside a portal (Company::Name) is written and read under its full name", async () => {
    const { recordId } = await api.createOk(token, CONTACTS, { fieldData: { "First Name": "Co", "Company::Name": "Acme" } });
    expect((await api.getOk(token, CONTACTS, recordId)).fieldData["Company::Name"]).toBe("Acme");
  });

  it("DataInfo: database, layout, table, totalRecordCount, foundCount, returnedCount", async () => {
    const response = expectOk(await api.list(token, INVOICES, { _limit: 2 }));
    const total = response.dataInfo.totalRecordCount;
    expect(response.dataInfo).toEqual({
      database: DB,
      layout: INVOICES,
      table: "Invoices",
      totalRecordCount: total,
      foundCount: total,
      returnedCount: 2,
    });
    const found = expectOk(await api.find(token, INVOICES, { query: [{ ContactID: "1" }], limit: "1" }));
    expect(found.dataInfo).toEqual({ database: DB, layout: INVOICES, table: "Invoices", totalRecordCount: total, foundCount: 2, returnedCount: 1 });
  });
});

describe("Path parameters", () => {
  it("Path: percent-encoded database and layout names with spaces and non-ASCII letters work", async () => {
    const { emu: own, api: ownApi } = await startConformanceEmulator({
      layouts: [
        {
          database: "Sales Data",
          layout: "Open Orders",
          table: "Orders",
          fields: [
            { name: "Item", type: "text" },
            { name: "Qty", type: "number" },
          ],
        },
        { database: "Sales Data", layout: "Übersicht & Co", table: "Orders", fields: [{ name: "Item", type: "text" }] },
      ],
      data: { accounts: [{ username: USER, password: PASSWORD, privileges: ["fmrest"] }], records: { Orders: [{ Item: "Widget", Qty: 2 }] } },
    });
    try {
      const t = await ownApi.login(USER, PASSWORD, "Sales Data");
      expect(p`/databases/${"Sales Data"}/layouts/${"Übersicht & Co"}/records`).toBe(
        "/databases/Sales%20Data/layouts/%C3%9Cbersicht%20%26%20Co/records",
      );
      const list = expectOk(await ownApi.list(t, "Open Orders", undefined, "Sales Data"));
      expect(list.dataInfo).toMatchObject({ database: "Sales Data", layout: "Open Orders", table: "Orders", foundCount: 1 });
      await ownApi.createOk(t, "Open Orders", { fieldData: { Item: "Gadget", Qty: 3 } }, "Sales Data");
      const other = expectOk(await ownApi.list(t, "Übersicht & Co", undefined, "Sales Data"));
      expect(other.dataInfo.layout).toBe("Übersicht & Co");
      expect(other.data.map((r: { fieldData: { Item: string } }) => r.fieldData.Item)).toEqual(["Widget", "Gadget"]);
      expectOk(await ownApi.find(t, "Übersicht & Co", { query: [{ Item: "Gadget" }] }, "Sales Data"));
      expectOk(await ownApi.logout(t, "Sales Data"));
    } finally {
      await own.close();
    }
  });

  it("Path: a record id is the string the create returned, on every record path", async () => {
    const { recordId } = await api.createOk(token, CONTACTS, { fieldData: { "First Name": "Path" } });
    expect(recordId).toMatch(/^\d+$/);
    expect((await api.getOk(token, CONTACTS, recordId)).recordId).toBe(recordId);
    const listed = expectOk(await api.list(token, CONTACTS, { _limit: 1000 }));
    expect(listed.data.map((r: { recordId: string }) => r.recordId)).toContain(recordId);
    expectOk(await api.delete(token, CONTACTS, recordId));
  });
});
