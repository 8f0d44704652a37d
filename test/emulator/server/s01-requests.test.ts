import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startConformanceEmulator, type Emulator } from "../../support/conformance-emulator.js";
import { basic, CONTACTS, DataApi, DB, expectError, expectOk, INVOICES, p, PASSWORD, USER, type HttpResult } from "../../support/data-api-http.js";
import { rawHttp, type RawAnswer } from "../../support/raw-http.js";

// docs/emulator.md, "1. Requests every client sends": requests every client sends that the base contract is strict
// about. One test per row of its table, over loopback HTTP, under the contract's statuses and (where they differ) real
// servers'.

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
  ["the contract's statuses", () => ({ emu, api })],
  ["real servers' statuses", () => ({ emu: serverEmu, api: serverApi })],
] as const;

const sessionsPath = (version: string) => `/fmi/data/${version}${p`/databases/${DB}/sessions`}`;
const AUTH = { Authorization: basic(USER, PASSWORD) };

function expectRawToken(res: RawAnswer): string {
  expect({ status: res.status, code: res.code }, res.text).toEqual({ status: 200, code: "0" });
  const token = res.body.response.token as string;
  expect(token).toMatch(/^\S+$/);
  expect(res.headers["x-fm-data-access-token"]).toBe(token);
  return token;
}

describe("1. login body", () => {
  it.each(VERSIONS)("1. login body: no body at all (Content-Length: 0), no Content-Type, means {} (%s)", async (version) => {
    const res = await rawHttp(emu.url, "POST", sessionsPath(version), { ...AUTH, "Content-Length": "0" });
    const token = expectRawToken(res);
    expectOk(await api.withVersion(version).list(token, CONTACTS, { _limit: 1 }));
  });

  it.each(VERSIONS)("1. login body: no body with Content-Type: application/json means {} (%s)", async (version) => {
    const res = await rawHttp(emu.url, "POST", sessionsPath(version), { ...AUTH, "Content-Type": "application/json", "Content-Length": "0" });
    expectRawToken(res);
  });

  it("1. login body: an empty chunked body means {} too", async () => {
    const res = await rawHttp(emu.url, "POST", sessionsPath("vLatest"), { ...AUTH, "Content-Type": "application/json", "Transfer-Encoding": "chunked" }, "0\r\n\r\n");
    expectRawToken(res);
  });

  it("1. login body: {} and { fmDataSource: [...] } sign in", async () => {
    expectOk(await api.loginRaw(USER, PASSWORD, DB, {}));
    expectOk(await api.loginRaw(USER, PASSWORD, DB, { fmDataSource: [{ database: "Other", username: "u", password: "p" }] }));
  });

  it.each(BOTH)("1. login body: a non-empty body that is not JSON is 400 / 1708 and signs nobody in (%s)", async (_, which) => {
    const { emu, api } = which();
    const logins = emu.stats().logins;
    for (const body of ["x", " ", "{", "\r\n", "fmDataSource=1"]) {
      expectError(await api.call("POST", p`/databases/${DB}/sessions`, { body, headers: { ...AUTH, "Content-Type": "application/json" } }), 400, "1708");
    }
    expect(emu.stats().logins).toBe(logins);
  });

  it("1. login body: an empty body still needs credentials (401 / 212)", async () => {
    const res = await rawHttp(emu.url, "POST", sessionsPath("vLatest"), { "Content-Length": "0" });
    expect({ status: res.status, code: res.code }).toEqual({ status: 401, code: "212" });
    const wrong = await rawHttp(emu.url, "POST", sessionsPath("vLatest"), { Authorization: basic(USER, "nope"), "Content-Length": "0" });
    expect({ status: wrong.status, code: wrong.code }).toEqual({ status: 401, code: "212" });
  });
});

describe("1. Content-Type on JSON calls", () => {
  it.each(BOTH)("1. Content-Type: a wrong one on a JSON call is HTTP 415 / 1708, nothing changed (%s)", async (_, which) => {
    const { emu, api } = which();
    const token = await api.login();
    const before = emu.stats().records;
    const body = JSON.stringify({ fieldData: { "First Name": "Typed" } });
    expectError(await api.call("POST", p`/databases/${DB}/layouts/${CONTACTS}/records`, { token, body, headers: { "Content-Type": "text/plain" } }), 415, "1708");
    expectError(await api.call("POST", p`/databases/${DB}/layouts/${CONTACTS}/_find`, { token, body: '{"query":[{"Age":"36"}]}', headers: { "Content-Type": "application/xml" } }), 415, "1708");
    // A login with a body must say it is JSON; only an empty one needs no Content-Type.
    expectError(await api.call("POST", p`/databases/${DB}/sessions`, { body: "{}", headers: { ...AUTH, "Content-Type": "text/plain" } }), 415, "1708");
    expect(emu.stats().records).toEqual(before);
  });
});

describe("1. sortOrder", () => {
  let token: string;
  const lastNames = (res: HttpResult) => expectOk(res).data.map((r: { fieldData: Record<string, unknown> }) => r.fieldData["Last Name"]);
  const sortList = (sort: unknown, version = "vLatest") => api.withVersion(version).list(token, CONTACTS, { _sort: JSON.stringify(sort) });
  const sortFind = (sort: unknown, version = "vLatest") => api.withVersion(version).find(token, CONTACTS, { query: [{ Age: ">0" }], sort });

  beforeAll(async () => {
    token = await api.login();
  });

  it.each(VERSIONS)("1. sortOrder: optional, default ascend, on list and find (%s)", async (version) => {
    const ascending = ["Hopper", "Johnson", "Lovelace", "Smith", "Turing"];
    expect(lastNames(await sortList([{ fieldName: "Last Name" }], version))).toEqual(ascending);
    expect(lastNames(await sortFind([{ fieldName: "Last Name" }], version))).toEqual(ascending);
    expect(lastNames(await sortList([{ fieldName: "Last Name", sortOrder: "ascend" }], version))).toEqual(ascending);
    expect(lastNames(await sortFind([{ fieldName: "Last Name", sortOrder: "descend" }], version))).toEqual([...ascending].reverse());
  });

  it("1. sortOrder: a value-list name sorts by the list's order (in list order, then values not in it, then empty)", async () => {
    // "Status Values" is the value list of the Status field (Active, Inactive), as the layout metadata names it.
    const metadata = expectOk(await api.call("GET", p`/databases/${DB}/layouts/${CONTACTS}`, { token }));
    expect(metadata.valueLists).toContainEqual({ name: "Status Values", type: "customList", values: [{ value: "Active", displayValue: "Active" }, { value: "Inactive", displayValue: "Inactive" }] });
    const pending = await api.createOk(token, CONTACTS, { fieldData: { "First Name": "Pat", "Last Name": "Pending", Status: "Pending", Age: 1 } });
    const archived = await api.createOk(token, CONTACTS, { fieldData: { "First Name": "Arch", "Last Name": "Archived", Status: "archived", Age: 2 } });
    try {
      // Active: Lovelace, Turing, Johnson (creation order within a value); Inactive: Hopper; not in the list:
      // archived, Pending (by their own order); empty: Smith.
      const expected = ["Lovelace", "Turing", "Johnson", "Hopper", "Archived", "Pending", "Smith"];
      expect(lastNames(await sortList([{ fieldName: "Status", sortOrder: "Status Values" }]))).toEqual(expected);
      expect(lastNames(await sortFind([{ fieldName: "Status", sortOrder: "Status Values" }]))).toEqual(expected);
      // A later key breaks ties within a value of the list.
      expect(lastNames(await sortList([{ fieldName: "Status", sortOrder: "Status Values" }, { fieldName: "Last Name", sortOrder: "descend" }]))).toEqual(["Turing", "Lovelace", "Johnson", "Hopper", "Archived", "Pending", "Smith"]);
      // The list may order another field: values of Last Name are in no list, so they keep their own order.
      expect(lastNames(await sortList([{ fieldName: "Last Name", sortOrder: "Status Values" }]))).toEqual(["Archived", "Hopper", "Johnson", "Lovelace", "Pending", "Smith", "Turing"]);
    } finally {
      expectOk(await api.delete(token, CONTACTS, pending.recordId));
      expectOk(await api.delete(token, CONTACTS, archived.recordId));
    }
  });

  it.each(BOTH)("1. sortOrder: anything else (not ascend, descend or a value list of the layout) is 400 / 1708 (%s)", async (_, which) => {
    const { api } = which();
    const token = await api.login();
    for (const sortOrder of ["up", "Ascend", "No Such Values", "", 1, null, ["ascend"]]) {
      expectError(await api.list(token, CONTACTS, { _sort: JSON.stringify([{ fieldName: "Age", sortOrder }]) }), 400, "1708");
      expectError(await api.find(token, CONTACTS, { query: [{ Age: ">0" }], sort: [{ fieldName: "Age", sortOrder }] }), 400, "1708");
    }
  });
});

describe("1. numbers sent as strings", () => {
  it.each(VERSIONS)("1. numbers sent as strings: accepted for number fields on create, edit and find (%s)", async (version) => {
    const v = api.withVersion(version);
    const token = await v.login();
    const { recordId } = await v.createOk(token, CONTACTS, { fieldData: { "First Name": "Stringy", Age: "42" } });
    expect((await v.getOk(token, CONTACTS, recordId)).fieldData.Age).toBe(42);
    expectOk(await v.edit(token, CONTACTS, recordId, { fieldData: { Age: " 7.5 " } }));
    expect((await v.getOk(token, CONTACTS, recordId)).fieldData.Age).toBe(7.5);
    const found = expectOk(await v.find(token, CONTACTS, { query: [{ "First Name": "Stringy", Age: 7.5 }] }));
    expect(found.data.map((r: { recordId: string }) => r.recordId)).toEqual([recordId]);
    expectOk(await v.delete(token, CONTACTS, recordId));
  });

  it.each(BOTH)("1. numbers sent as strings: text that is no number is 502 (400, or 500 with real servers' statuses) (%s)", async (label, which) => {
    const { emu, api } = which();
    const token = await api.login();
    const before = emu.stats().records;
    expectError(await api.create(token, CONTACTS, { fieldData: { "First Name": "X", Age: "forty" } }), label.startsWith("real") ? 500 : 400, "502");
    expect(emu.stats().records).toEqual(before);
  });
  // Not the other way round: modId is a string on the wire (docs/emulator.md, "The base Data API"), and a JSON number
  // is refused. fmrest-ruby sent modId back as an integer and found it broke against FileMaker Server 18
  // (beezwax/fmrest-ruby#25, "The API gives us modId as a string and expects us to send it back as a string"), so the
  // emulator refuses it too, rather than let @proofkit/fmdapi's numeric modId pass here and fail on a server.
  it.each(BOTH)("1. numbers sent as strings: a modId sent as a JSON number is 1708, and the edit is not made (%s)", async (_label, which) => {
    const { api } = which();
    const token = await api.login();
    const { recordId } = await api.createOk(token, CONTACTS, { fieldData: { "First Name": "NumericModId" } });
    for (const modId of [0, 1]) {
      const res = await api.edit(token, CONTACTS, recordId, { fieldData: { "First Name": "Changed" }, modId });
      expectError(res, 400, "1708");
      expect(res.body.messages[0]!.message).toBe("Parameter value is invalid: modId must be a string");
    }
    const record = await api.getOk(token, CONTACTS, recordId);
    expect({ name: record.fieldData["First Name"], modId: record.modId }).toEqual({ name: "NumericModId", modId: "0" });
    expectOk(await api.delete(token, CONTACTS, recordId));
  });
});

describe("1. JSON null as a field value", () => {
  it.each(BOTH)("1. null as a field value: create, edit, portal rows and find criteria refuse it with 1708 naming the field (%s)", async (label, which) => {
    const { api } = which();
    const status = label.startsWith("real") ? 500 : 400;
    const token = await api.login();
    const before = await api.snapshotAll(token, [CONTACTS, INVOICES]);
    const calls: [string, () => Promise<HttpResult>, string][] = [
      ["create", () => api.create(token, CONTACTS, { fieldData: { "First Name": "Nully", Age: null } }), "Age"],
      ["create, text field", () => api.create(token, CONTACTS, { fieldData: { "First Name": null } }), "First Name"],
      ["create, repetition", () => api.create(token, CONTACTS, { fieldData: { "First Name": "N", "Phone(2)": null } }), "Phone(2)"],
      // null is refused as such before the name is looked up: 1708, not the 102 of an unknown field.
      ["create, a field not on the layout", () => api.create(token, CONTACTS, { fieldData: { "First Name": "N", Nope: null } }), "Nope"],
      ["edit", () => api.edit(token, CONTACTS, "1", { fieldData: { "Last Name": null } }), "Last Name"],
      ["edit, after a good value", () => api.edit(token, CONTACTS, "1", { fieldData: { Age: 1, Birthday: null } }), "Birthday"],
      ["create, portal row", () => api.create(token, CONTACTS, { fieldData: { "First Name": "N" }, portalData: { Invoices: [{ "Invoices::Amount": null }] } }), "Invoices::Amount"],
      ["edit, portal row", () => api.edit(token, CONTACTS, "1", { fieldData: {}, portalData: { Invoices: [{ "Invoices::Amount": null }] } }), "Invoices::Amount"],
      ["find criterion", () => api.find(token, CONTACTS, { query: [{ Age: null }] }), "Age"],
      ["find criterion, omit request", () => api.find(token, CONTACTS, { query: [{ Age: ">0" }, { "Last Name": null, omit: "true" }] }), "Last Name"],
    ];
    for (const [what, send, field] of calls) {
      const res = await send();
      expectError(res, status, "1708");
      expect(res.body.messages[0]!.message, what).toContain(`"${field}"`);
      expect(res.body.messages[0]!.message, what).toContain("null");
    }
    expect(await api.snapshotAll(token, [CONTACTS, INVOICES])).toEqual(before);
  });
});

describe("1. logout", () => {
  it.each(VERSIONS)("1. logout: the token in the path; a Bearer header and a stray body (null, []) are ignored (%s)", async (version) => {
    const v = api.withVersion(version);
    for (const stray of [null, []]) {
      const token = await v.login();
      const other = await v.login();
      // A Bearer header (here another live session's token) does not decide which session ends.
      expectOk(await v.call("DELETE", p`/databases/${DB}/sessions/${token}`, { token: other, json: stray }));
      expectError(await v.list(token, CONTACTS), 401, "952");
      expectOk(await v.list(other, CONTACTS, { _limit: 1 }));
      expectOk(await v.call("DELETE", p`/databases/${DB}/sessions/${other}`, { token: other }));
    }
  });

  it("1. logout: a stray body of any type, or an unknown Bearer token, changes nothing of the answer", async () => {
    const token = await api.login();
    const res = await rawHttp(emu.url, "DELETE", `/fmi/data/vLatest${p`/databases/${DB}/sessions/${token}`}`, { Authorization: "Bearer nope", "Content-Type": "text/plain", "Content-Length": "5" }, "hello");
    expect({ status: res.status, code: res.code }).toEqual({ status: 200, code: "0" });
    // An already-ended token is still 952, stray body or not.
    expectError(await api.call("DELETE", p`/databases/${DB}/sessions/${token}`, { json: [] }), 401, "952");
  });
});
