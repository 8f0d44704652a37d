import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startConformanceEmulator, type Emulator } from "../../support/conformance-emulator.js";
import { CONTACTS, DataApi, DB, expectError, expectOk, INVOICES, p, type HttpResult } from "../../support/data-api-http.js";

// docs/emulator.md, "5. `dateformats`": `dateformats` 0 (US, the default), 1 (the file's locale: US here), 2 (ISO
// 8601), on get and list (query string) and find, create and edit (body). One test per row and sentence of the section,
// over loopback HTTP, on v1, v2 and vLatest, under both status modes where they differ.

let emu: Emulator;
let api: DataApi;
let serverEmu: Emulator;
let serverApi: DataApi;

beforeAll(async () => {
  ({ emu, api } = await startConformanceEmulator());
  ({ emu: serverEmu, api: serverApi } = await startConformanceEmulator({ serverStatuses: true }));
});
afterAll(async () => {
  await emu.close();
  await serverEmu.close();
});

const VERSIONS = ["v1", "v2", "vLatest"] as const;
const BOTH = [
  ["the contract's statuses", () => ({ emu, api, validation: 400 })],
  ["real servers' statuses", () => ({ emu: serverEmu, api: serverApi, validation: 500 })],
] as const;

/** Ada, record 1 of the seed: Birthday 12/10/1815, Wake Up 07:30:00, Last Seen 11/27/1852 15:04:05; invoices 1850. */
const ADA = "1";
const adaFields = (res: HttpResult) => expectOk(res).data[0].fieldData;
const getWith = (v: DataApi, token: string, query: string) => v.call("GET", p`/databases/${DB}/layouts/${CONTACTS}/records/${ADA}` + query, { token });
const listWith = (v: DataApi, token: string, query: string) => v.call("GET", p`/databases/${DB}/layouts/${CONTACTS}/records` + query, { token });

describe("5. dateformats on reads (get and list, query string)", () => {
  it.each(VERSIONS)("5. date, time and timestamp read as US by default, and with dateformats=0 and 1 (%s)", async (version) => {
    const v = api.withVersion(version);
    const token = await v.login();
    for (const query of ["", "?dateformats=0", "?dateformats=1"]) {
      expect(adaFields(await getWith(v, token, query))).toMatchObject({ Birthday: "12/10/1815", "Wake Up": "07:30:00", "Last Seen": "11/27/1852 15:04:05" });
      const listed = expectOk(await listWith(v, token, `${query}${query ? "&" : "?"}_limit=1`)).data[0];
      expect(listed.fieldData).toMatchObject({ Birthday: "12/10/1815", "Last Seen": "11/27/1852 15:04:05" });
      expect(listed.portalData.Invoices[0]["Invoices::Issued"]).toBe("01/15/1850");
    }
  });

  it.each(VERSIONS)("5. dateformats=2: dates YYYY-MM-DD, timestamps YYYY-MM-DDTHH:MM:SS, time fields unchanged, portal rows too (%s)", async (version) => {
    const v = api.withVersion(version);
    const token = await v.login();
    const fields = adaFields(await getWith(v, token, "?dateformats=2"));
    expect(fields).toMatchObject({ Birthday: "1815-12-10", "Wake Up": "07:30:00", "Last Seen": "1852-11-27T15:04:05", Age: 36, "First Name": "Ada" });
    const page = expectOk(await listWith(v, token, "?dateformats=2&_limit=2"));
    expect(page.data.map((r: { fieldData: Record<string, unknown> }) => r.fieldData.Birthday)).toEqual(["1815-12-10", "1906-12-09"]);
    expect(page.data[0].portalData.Invoices.map((row: Record<string, unknown>) => row["Invoices::Issued"])).toEqual(["1850-01-15", "1850-02-01"]);
    // Empty values stay "".
    expect(page.data[1].fieldData["Last Seen"]).toBe("");
  });

  it.each(BOTH)("5. dateformats in the query string other than 0, 1 or 2 is 400 / 1708 (%s)", async (_, which) => {
    const { api } = which();
    const token = await api.login();
    for (const query of ["?dateformats=3", "?dateformats=ISO8601", "?dateformats=", "?dateformats=02", "?dateformats=2&dateformats=2"]) {
      expectError(await getWith(api, token, query), 400, "1708");
      expectError(await listWith(api, token, query), 400, "1708");
    }
  });
});

describe("5. dateformats on find (body)", () => {
  it.each(VERSIONS)("5. find criteria on date and timestamp fields are read in the call's date format, and answered in it (%s)", async (version) => {
    const v = api.withVersion(version);
    const token = await v.login();
    const found = async (body: object) => expectOk(await v.find(token, CONTACTS, body)).data.map((r: { fieldData: Record<string, unknown> }) => r.fieldData["Last Name"]);
    expect(await found({ query: [{ Birthday: "12/10/1815" }] })).toEqual(["Lovelace"]);
    expect(await found({ query: [{ Birthday: "12/10/1815" }], dateformats: 0 })).toEqual(["Lovelace"]);
    expect(await found({ query: [{ Birthday: "12/10/1815" }], dateformats: 1 })).toEqual(["Lovelace"]);
    expect(await found({ query: [{ Birthday: "1815-12-10" }], dateformats: 2 })).toEqual(["Lovelace"]);
    expect(await found({ query: [{ Birthday: "1900-01-01...1915-12-31" }], dateformats: 2, sort: [{ fieldName: "Birthday" }] })).toEqual(["Hopper", "Turing"]);
    expect(await found({ query: [{ Birthday: "<1800-01-01" }], dateformats: 2 })).toEqual(["Smith"]);
    expect(await found({ query: [{ Birthday: "1918-08" }], dateformats: 2 })).toEqual(["Johnson"]);
    expect(await found({ query: [{ Birthday: "1906" }], dateformats: 2 })).toEqual(["Hopper"]);
    expect(await found({ query: [{ "Last Seen": "1852-11-27 15:04:05" }], dateformats: 2 })).toEqual(["Lovelace"]);
    expect(await found({ query: [{ "Last Seen": "1852-11-27T15:04:05" }], dateformats: 2 })).toEqual(["Lovelace"]);
    expect(await found({ query: [{ "Last Seen": "1852-11-27" }], dateformats: 2 })).toEqual(["Lovelace"]);
    // Portal fields too, and the answer is in the call's format.
    const answer = expectOk(await v.find(token, CONTACTS, { query: [{ "Invoices::Issued": "1850-02-01" }], dateformats: 2 }));
    expect(answer.data[0].fieldData.Birthday).toBe("1815-12-10");
    expect(answer.data[0].portalData.Invoices[1]["Invoices::Issued"]).toBe("1850-02-01");
    // Time fields are unchanged.
    expect(await found({ query: [{ "Wake Up": "07:30:00" }], dateformats: 2 })).toEqual(["Lovelace"]);
  });

  it.each(BOTH)("5. find: a criterion in the other format is the date type's validation error, 500 (%s)", async (_, which) => {
    const { api, validation } = which();
    const token = await api.login();
    expectError(await api.find(token, CONTACTS, { query: [{ Birthday: "1815-12-10" }] }), validation, "500");
    expectError(await api.find(token, CONTACTS, { query: [{ Birthday: "12/10/1815" }], dateformats: 2 }), validation, "500");
    expectError(await api.find(token, CONTACTS, { query: [{ "Last Seen": "11/27/1852 15:04:05" }], dateformats: 2 }), validation, "500");
  });

  it("5. dateformats in a body as the digit in a string (\"2\") is accepted (a choice: clients send it so)", async () => {
    const token = await api.login();
    const answer = expectOk(await api.find(token, CONTACTS, { query: [{ Birthday: "1815-12-10" }], dateformats: "2" }));
    expect(answer.data[0].fieldData.Birthday).toBe("1815-12-10");
  });

  it.each(BOTH)("5. dateformats in a body other than 0, 1, 2 (or \"0\", \"1\", \"2\") is 400 / 1708, nothing changed (%s)", async (_, which) => {
    const { emu, api } = which();
    const token = await api.login();
    const before = emu.stats().records;
    for (const dateformats of [3, -1, 2.5, "ISO8601", "", " 2", null, true, [2], { iso: true }]) {
      expectError(await api.find(token, CONTACTS, { query: [{ Age: ">0" }], dateformats }), 400, "1708");
      expectError(await api.create(token, CONTACTS, { fieldData: { "First Name": "Bad Format" }, dateformats }), 400, "1708");
      expectError(await api.edit(token, CONTACTS, ADA, { fieldData: { "First Name": "Bad Format" }, dateformats }), 400, "1708");
    }
    expect(emu.stats().records).toEqual(before);
    expect(adaFields(await getWith(api, token, ""))["First Name"]).toBe("Ada");
  });
});

describe("5. dateformats on writes (create and edit, body)", () => {
  it.each(VERSIONS)("5. dateformats 2: a date written YYYY-MM-DD, a timestamp YYYY-MM-DD HH:MM:SS, a time as always (%s)", async (version) => {
    const v = api.withVersion(version);
    const token = await v.login();
    const { recordId } = await v.createOk(token, CONTACTS, {
      fieldData: { "First Name": "Iso", Birthday: "2022-02-22", "Last Seen": "2022-02-22 21:15:55", "Wake Up": "06:45:00" },
      portalData: { Invoices: [{ "Invoices::Amount": 1, "Invoices::Issued": "2022-03-01" }] },
      dateformats: 2,
    });
    const us = await v.getOk(token, CONTACTS, recordId);
    expect(us.fieldData).toMatchObject({ Birthday: "02/22/2022", "Last Seen": "02/22/2022 21:15:55", "Wake Up": "06:45:00" });
    expect(us.portalData.Invoices[0]["Invoices::Issued"]).toBe("03/01/2022");
    expectOk(await v.edit(token, CONTACTS, recordId, { fieldData: { Birthday: "2023-12-31", "Last Seen": "" }, dateformats: 2 }));
    const edited = adaFields(await v.call("GET", p`/databases/${DB}/layouts/${CONTACTS}/records/${recordId}?dateformats=2`, { token }));
    expect(edited).toMatchObject({ Birthday: "2023-12-31", "Last Seen": "", "Wake Up": "06:45:00" });
    expectOk(await v.delete(token, CONTACTS, recordId));
  });

  it.each(BOTH)("5. dateformats 2: a timestamp written with a T is rejected with 500, nothing stored (%s)", async (_, which) => {
    const { emu, api, validation } = which();
    const token = await api.login();
    const before = emu.stats().records;
    expectError(await api.create(token, CONTACTS, { fieldData: { "First Name": "T", "Last Seen": "2022-02-22T21:15:55" }, dateformats: 2 }), validation, "500");
    expectError(await api.edit(token, CONTACTS, ADA, { fieldData: { "Last Seen": "2022-02-22T21:15:55" }, dateformats: 2 }), validation, "500");
    expect(emu.stats().records).toEqual(before);
    expect(adaFields(await getWith(api, token, ""))["Last Seen"]).toBe("11/27/1852 15:04:05");
  });

  it.each(BOTH)("5. an ISO date written without dateformats 2 is a validation error, 500; a US date with it too (%s)", async (_, which) => {
    const { emu, api, validation } = which();
    const token = await api.login();
    const before = emu.stats().records;
    for (const dateformats of [undefined, 0, 1]) {
      const extra = dateformats === undefined ? {} : { dateformats };
      expectError(await api.create(token, CONTACTS, { fieldData: { "First Name": "I", Birthday: "2022-02-22" }, ...extra }), validation, "500");
      expectError(await api.edit(token, CONTACTS, ADA, { fieldData: { Birthday: "2022-02-22" }, ...extra }), validation, "500");
      expectError(await api.edit(token, CONTACTS, ADA, { fieldData: { "Last Seen": "2022-02-22 10:00:00" }, ...extra }), validation, "500");
      expectError(await api.create(token, CONTACTS, { fieldData: { "First Name": "I" }, portalData: { Invoices: [{ "Invoices::Issued": "2022-02-22" }] }, ...extra }), validation, "500");
    }
    expectError(await api.create(token, CONTACTS, { fieldData: { "First Name": "U", Birthday: "02/22/2022" }, dateformats: 2 }), validation, "500");
    expectError(await api.edit(token, CONTACTS, ADA, { fieldData: { "Last Seen": "02/22/2022 10:00:00" }, dateformats: 2 }), validation, "500");
    expect(emu.stats().records).toEqual(before);
    expect(adaFields(await getWith(api, token, ""))).toMatchObject({ Birthday: "12/10/1815", "Last Seen": "11/27/1852 15:04:05" });
  });

  it.each(VERSIONS)("5. US input also takes 2/22/2022 and 9:15:55 PM (dates, times, timestamps; dateformats 0 and 1) (%s)", async (version) => {
    const v = api.withVersion(version);
    const token = await v.login();
    for (const dateformats of [undefined, 0, 1]) {
      const extra = dateformats === undefined ? {} : { dateformats };
      const { recordId } = await v.createOk(token, CONTACTS, { fieldData: { "First Name": "Us", Birthday: "2/22/2022", "Wake Up": "9:15:55 PM", "Last Seen": "2/22/2022 9:15:55 PM" }, ...extra });
      expect((await v.getOk(token, CONTACTS, recordId)).fieldData).toMatchObject({ Birthday: "02/22/2022", "Wake Up": "21:15:55", "Last Seen": "02/22/2022 21:15:55" });
      expectOk(await v.edit(token, CONTACTS, recordId, { fieldData: { "Wake Up": "12:05:00 AM", "Last Seen": "12/31/2021 12:00:01 PM" }, ...extra }));
      expect((await v.getOk(token, CONTACTS, recordId)).fieldData).toMatchObject({ "Wake Up": "00:05:00", "Last Seen": "12/31/2021 12:00:01" });
      // Find criteria take the same forms.
      const found = expectOk(await v.find(token, CONTACTS, { query: [{ "First Name": "Us", "Wake Up": "12:05 AM", "Last Seen": "12/31/2021 12:00:01 PM" }], ...extra }));
      expect(found.data.map((r: { recordId: string }) => r.recordId)).toEqual([recordId]);
      expectOk(await v.delete(token, CONTACTS, recordId));
    }
  });

  it.each(BOTH)("5. a 12-hour time out of range (13:00 PM, 0:10 AM) is the time type's validation error 501 (%s)", async (_, which) => {
    const { emu, api, validation } = which();
    const token = await api.login();
    const before = emu.stats().records;
    expectError(await api.create(token, CONTACTS, { fieldData: { "First Name": "X", "Wake Up": "13:00:00 PM" } }), validation, "501");
    expectError(await api.edit(token, CONTACTS, ADA, { fieldData: { "Wake Up": "0:10 AM" } }), validation, "501");
    expect(emu.stats().records).toEqual(before);
  });

  it("5. dateformats leaves number and text fields alone, and the Invoices layout's dates follow it too", async () => {
    const token = await api.login();
    const invoice = expectOk(await api.call("GET", p`/databases/${DB}/layouts/${INVOICES}/records/1?dateformats=2`, { token })).data[0].fieldData;
    expect(invoice).toEqual({ ContactID: 1, Amount: 100, Issued: "1850-01-15" });
  });
});
