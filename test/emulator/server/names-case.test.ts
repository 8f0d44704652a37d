import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startConformanceEmulator, type Emulator } from "../../support/conformance-emulator.js";
import { CONFORMANCE_LAYOUTS, CONTACTS, DataApi, DB, expectError, expectOk, p, qs } from "../../support/data-api-http.js";
import { contactPortals, contactSummary, NOTES_PORTAL, PORTALS_LAYOUT, portalSeed, SUMMARY_LAYOUT } from "./portal-fixtures.js";

// docs/emulator.md, "Names": FileMaker matches the names of layouts, fields, portals, table occurrences, scripts and
// value lists without regard to case, and a client's live suite sent `portal: ["planets"]` for a portal `Planets`
// and got its answer where the emulator answered 960. Each kind of name a Data API request gives is matched so here
// (one helper, hosted-file/name-map.ts), and every answer names things by the file's own spelling.

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
let emu: Emulator;
let api: DataApi;
let token: string;

beforeAll(async () => {
  ({ emu, api } = await startConformanceEmulator({
    layouts: [CONFORMANCE_LAYOUTS, contactPortals, contactSummary],
    data: portalSeed(),
    scripts: { Echo: ({ param }) => `echo ${param}`, "Make Note": ({ param, records }) => records.create("notes", { title: param }).recordId },
  }));
  token = await api.login();
});
afterAll(() => emu.close());

const lower = (name: string) => name.toLowerCase();
const upper = (name: string) => name.toUpperCase();
const PORTALS = p`/databases/${DB}/layouts/${lower(PORTALS_LAYOUT)}`;
const get = (path: string, params?: Record<string, string | number>) => api.call("GET", path + qs(params), { token });

describe("a name spelt in another case", () => {
  it("a layout in the path, and dataInfo names it as the file does", async () => {
    const listed = expectOk(await get(`${PORTALS}/records`, { _limit: 1 }));
    expect(listed.dataInfo.layout).toBe(PORTALS_LAYOUT);
    expect(expectOk(await get(p`/databases/${DB}/layouts/${upper(CONTACTS)}/records/1`)).dataInfo.layout).toBe(CONTACTS);
    expect(expectOk(await get(`${PORTALS}`)).portalMetaData).toHaveProperty("Invoices");
  });

  it("portal, _limit.<portal> and _offset.<portal> on list and get, keyed by the portal's own name", async () => {
    const one = expectOk(await get(`${PORTALS}/records/3`, { portal: JSON.stringify(["invoices"]), "_limit.INVOICES": 2, "_offset.invoices": 3 })).data[0];
    expect(Object.keys(one.portalData)).toEqual(["Invoices"]);
    expect(one.portalData.Invoices.map((r: any) => r["Invoices::Amount"])).toEqual([3, 4]);
    expect(one.portalDataInfo).toEqual([{ portalObjectName: "Invoices", database: DB, table: "Invoices", foundCount: 60, returnedCount: 2 }]);
    const listed = expectOk(await get(`${PORTALS}/records`, { portal: JSON.stringify([lower(NOTES_PORTAL)]), _limit: 1 })).data[0];
    expect(Object.keys(listed.portalData)).toEqual([NOTES_PORTAL]);
  });

  it("portal, limit.<portal> and offset.<portal> in a find body", async () => {
    const found = expectOk(await api.find(token, lower(PORTALS_LAYOUT), { query: [{ "first name": "==alan" }], portal: ["INVOICES"], "limit.invoices": 1, "offset.Invoices": 60 })).data[0];
    expect(found.fieldData["First Name"]).toBe("Alan");
    expect(found.portalData).toEqual({ Invoices: [expect.objectContaining({ "Invoices::Amount": 60 })] });
  });

  it("one portal's range given in two spellings is given twice (1708), as one spelling twice would be", async () => {
    expectError(await get(`${PORTALS}/records/3`, { "_limit.Invoices": 1, "_limit.invoices": 2 }), 400, "1708");
  });

  it("find criteria, sort fields and value-list sort orders", async () => {
    const found = expectOk(await api.find(token, CONTACTS, { query: [{ "FIRST NAME": "a*", "company::name": "*" }], sort: [{ fieldName: "first name", sortOrder: "descend" }] }));
    expect(found.data.map((r: any) => r.fieldData["First Name"])).toEqual(["Ada"]);
    const sorted = expectOk(await get(p`/databases/${DB}/layouts/${CONTACTS}/records`, { _sort: JSON.stringify([{ fieldName: "status", sortOrder: "STATUS VALUES" }, { fieldName: "ID", sortOrder: "ascend" }]) }));
    expect(sorted.data.map((r: any) => r.fieldData.Status)).toEqual(["Active", "Active", "Active", "Inactive", ""]);
  });

  it("fieldData keys, repetitions and portalData on create and edit; answers use the file's names", async () => {
    const { recordId } = await api.createOk(token, lower(PORTALS_LAYOUT), { fieldData: { "first name": "Case", "LAST NAME": "Test" }, portalData: { invoices: [{ "invoices::amount": 5 }] } });
    const made = await api.getOk(token, PORTALS_LAYOUT, recordId);
    expect(made.fieldData).toMatchObject({ "First Name": "Case", "Last Name": "Test" });
    expect(made.portalData.Invoices.map((r: any) => r["Invoices::Amount"])).toEqual([5]);
    const edited = expectOk(await api.edit(token, PORTALS_LAYOUT, recordId, { fieldData: { "last name": "Edited" }, portalData: { INVOICES: [{ "INVOICES::AMOUNT": 6 }] } }));
    expect(edited.newPortalRecordInfo).toEqual([expect.objectContaining({ tableName: "Invoices" })]);
    const row = (await api.getOk(token, PORTALS_LAYOUT, recordId)).portalData.Invoices.find((r: any) => r["Invoices::Amount"] === 6);
    expectOk(await api.edit(token, PORTALS_LAYOUT, recordId, { fieldData: { deleteRelated: `invoices.${row.recordId}` } }));
    expect((await api.getOk(token, PORTALS_LAYOUT, recordId)).portalData.Invoices.map((r: any) => r["Invoices::Amount"])).toEqual([5]);
    // One field in two spellings: written in order, the last kept (as `Phone` and `Phone(1)` are).
    const twice = await api.createOk(token, CONTACTS, { fieldData: { "First Name": "First", "first name": "Second" } });
    expect((await api.getOk(token, CONTACTS, twice.recordId)).fieldData["First Name"]).toBe("Second");
    expectOk(await api.edit(token, CONTACTS, "1", { fieldData: { "phone(2)": "555-0199" } }));
    expect((await api.getOk(token, CONTACTS, "1")).fieldData["Phone(2)"]).toBe("555-0199");
  });

  it("scripts: script, script.prerequest, script.presort and the standalone path", async () => {
    const listed = expectOk(await get(p`/databases/${DB}/layouts/${CONTACTS}/records`, { _limit: 1, script: "echo", "script.param": "a", "script.prerequest": "ECHO", "script.prerequest.param": "b", "script.presort": "Echo", "script.presort.param": "c", _sort: JSON.stringify([{ fieldName: "Age" }]) }));
    expect([listed.scriptResult, listed["scriptResult.prerequest"], listed["scriptResult.presort"]]).toEqual(["echo a", "echo b", "echo c"]);
    expect(expectOk(await get(p`/databases/${DB}/layouts/${CONTACTS}/script/${"make note"}`, { "script.param": "from a script" })).scriptError).toBe("0");
    expectError(await get(p`/databases/${DB}/layouts/${CONTACTS}/script/${"No Such Script"}`), 400, "104");
  });

  it("layout.response, globals and a container field in an upload path", async () => {
    const shaped = expectOk(await get(`${PORTALS}/records/1`, { "layout.response": lower(SUMMARY_LAYOUT) }));
    expect(shaped.dataInfo.layout).toBe(SUMMARY_LAYOUT);
    expect(Object.keys(shaped.data[0].fieldData)).toEqual(["First Name", "Email"]);
    expectOk(await api.call("PATCH", p`/databases/${DB}/globals`, { token, json: { globalFields: { "CONTACTS::site banner": "hello" } } }));
    expect((await api.getOk(token, CONTACTS, "1")).fieldData["Site Banner"]).toBe("hello");
    expectOk(await api.upload(token, lower(CONTACTS), "2", "photo", 1, { bytes: PNG, type: "image/png", filename: "p.png" }));
    expect((await api.getOk(token, CONTACTS, "2")).fieldData.Photo).toMatch(/^http/);
  });

  it("names that differ by more than case are still unknown", async () => {
    expectError(await get(p`/databases/${DB}/layouts/${PORTALS_LAYOUT}/records/3`, { portal: JSON.stringify(["Invoice"]) }), 400, "960");
    expectError(await get(p`/databases/${DB}/layouts/${"Contacts  Web"}/records`), 404, "105");
    expectError(await api.find(token, CONTACTS, { query: [{ "FirstName": "a" }] }), 400, "102");
  });
});
