import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { conformanceSeed, startConformanceEmulator, type Emulator } from "../../support/conformance-emulator.js";
import { CONTACTS, DataApi, expectError, expectOk, INVOICES } from "../../support/data-api-http.js";

// docs/emulator.md, "The base Data API", limits: one test per limit. The seed gets 247 extra invoices (250 in all) so
// that the default limits of 100 are visible. Tests that move the clock log in for themselves.

const MINUTE = 60_000;
const INVOICE_COUNT = 250;

let emu: Emulator;
let api: DataApi;

beforeAll(async () => {
  const seed = conformanceSeed();
  const invoices = seed.records["Invoices"] ?? [];
  for (let i = invoices.length; i < INVOICE_COUNT; i++) invoices.push({ ContactID: 3, Amount: i + 1, Issued: "01/01/2000" });
  seed.records["Invoices"] = invoices;
  ({ emu, api } = await startConformanceEmulator({ data: seed }));
});
afterAll(async () => {
  await emu.close();
});

const ids = (data: { recordId: string }[]) => data.map((r) => r.recordId);
const range = (from: number, count: number) => Array.from({ length: count }, (_, i) => String(from + i));

describe("Limits table", () => {
  it("Limits row: token inactivity time-out 15 minutes; each successful call resets it", async () => {
    const token = await api.login();
    emu.advanceTime(14 * MINUTE + 50_000);
    expectOk(await api.list(token, INVOICES, { _limit: 1 }));
    emu.advanceTime(14 * MINUTE + 50_000);
    expectOk(await api.find(token, INVOICES, { query: [{ Amount: "100" }] }));
    emu.advanceTime(15 * MINUTE + 10_000);
    expectError(await api.list(token, INVOICES, { _limit: 1 }), 401, "952");
  });

  it("Limits row: _offset minimum 1, default 1 (list records)", async () => {
    const token = await api.login();
    const byDefault = expectOk(await api.list(token, INVOICES, { _limit: 3 }));
    const atOne = expectOk(await api.list(token, INVOICES, { _limit: 3, _offset: 1 }));
    expect(ids(byDefault.data)).toEqual(["1", "2", "3"]);
    expect(atOne.data).toEqual(byDefault.data);
    expect(ids(expectOk(await api.list(token, INVOICES, { _limit: 3, _offset: 249 })).data)).toEqual(["249", "250"]);
    expectError(await api.list(token, INVOICES, { _offset: 0 }), 400, "1708");
    expectError(await api.list(token, INVOICES, { _offset: -1 }), 400, "1708");
  });

  it("Limits row: _limit minimum 1, default 100 (list records)", async () => {
    const token = await api.login();
    const byDefault = expectOk(await api.list(token, INVOICES));
    expect(ids(byDefault.data)).toEqual(range(1, 100));
    expect(byDefault.dataInfo).toMatchObject({ totalRecordCount: INVOICE_COUNT, foundCount: INVOICE_COUNT, returnedCount: 100 });
    const secondPage = expectOk(await api.list(token, INVOICES, { _offset: 101 }));
    expect(ids(secondPage.data)).toEqual(range(101, 100));
    const one = expectOk(await api.list(token, INVOICES, { _limit: 1 }));
    expect(ids(one.data)).toEqual(["1"]);
    const more = expectOk(await api.list(token, INVOICES, { _limit: 200 }));
    expect(more.dataInfo.returnedCount).toBe(200);
    expectError(await api.list(token, INVOICES, { _limit: 0 }), 400, "1708");
    expectError(await api.list(token, INVOICES, { _limit: -5 }), 400, "1708");
  });

  it("Limits row: fieldRepetition minimum 1 (container upload)", async () => {
    const token = await api.login();
    const file = { bytes: Uint8Array.from([7, 7, 7]), type: "application/octet-stream", filename: "seven.bin" };
    const before = await api.getOk(token, CONTACTS, "3");
    expectError(await api.upload(token, CONTACTS, "3", "Photo", 0, file), 400, "1708");
    expectError(await api.upload(token, CONTACTS, "3", "Photo", -1, file), 400, "1708");
    expect(await api.getOk(token, CONTACTS, "3")).toEqual(before);
    expect(expectOk(await api.upload(token, CONTACTS, "3", "Photo", 1, file)).modId).toBe("1");
  });

  it("Limits row: offset is a string, default \"1\" (find records)", async () => {
    const token = await api.login();
    const query = [{ ContactID: "3" }];
    const byDefault = expectOk(await api.find(token, INVOICES, { query, limit: "3" }));
    expect(ids(byDefault.data)).toEqual(["4", "5", "6"]);
    const atOne = expectOk(await api.find(token, INVOICES, { query, limit: "3", offset: "1" }));
    expect(atOne.data).toEqual(byDefault.data);
    const later = expectOk(await api.find(token, INVOICES, { query, limit: "3", offset: "4" }));
    expect(ids(later.data)).toEqual(["7", "8", "9"]);
    expectError(await api.find(token, INVOICES, { query, offset: "0" }), 400, "1708");
  });

  it("Limits row: limit is a string, default \"100\" (find records)", async () => {
    const token = await api.login();
    const query = [{ ContactID: "3" }]; // invoices 4..250: 247 records
    const byDefault = expectOk(await api.find(token, INVOICES, { query }));
    expect(ids(byDefault.data)).toEqual(range(4, 100));
    expect(byDefault.dataInfo).toMatchObject({ totalRecordCount: INVOICE_COUNT, foundCount: 247, returnedCount: 100 });
    const five = expectOk(await api.find(token, INVOICES, { query, limit: "5" }));
    expect(ids(five.data)).toEqual(range(4, 5));
    const all = expectOk(await api.find(token, INVOICES, { query, limit: "1000" }));
    expect(all.dataInfo.returnedCount).toBe(247);
    expectError(await api.find(token, INVOICES, { query, limit: "0" }), 400, "1708");
  });
});
