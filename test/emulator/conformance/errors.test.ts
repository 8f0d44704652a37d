import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startConformanceEmulator, type Emulator } from "../../support/conformance-emulator.js";
import {
  CONTACTS,
  DataApi,
  DB,
  expectError,
  expectOk,
  INVOICES,
  NO_FMREST_USER,
  p,
  PASSWORD,
  USER,
  type HttpResult,
} from "../../support/data-api-http.js";

// The error codes (docs/emulator.md, "Codes beyond the wire contract"): one test per row, asserting the exact HTTP
// status and messages[0].code. The 952 row moves the emulator clock, so every test logs in for itself.

let emu: Emulator;
let api: DataApi;

beforeAll(async () => {
  ({ emu, api } = await startConformanceEmulator());
});
afterAll(async () => {
  await emu.close();
});

const PNG = { bytes: Uint8Array.from([1, 2, 3]), type: "image/png", filename: "x.png" };

/** Every token-bearing call, sent with the given Authorization value (or none). */
function tokenBearingCalls(authorization: string | undefined): [string, () => Promise<HttpResult>][] {
  const headers: Record<string, string> = authorization === undefined ? {} : { Authorization: authorization };
  const records = p`/databases/${DB}/layouts/${CONTACTS}/records`;
  const form = () => {
    const f = new FormData();
    f.append("upload", new Blob([PNG.bytes], { type: PNG.type }), PNG.filename);
    return f;
  };
  return [
    ["list", () => api.call("GET", records, { headers })],
    ["get", () => api.call("GET", `${records}/1`, { headers })],
    ["create", () => api.call("POST", records, { headers, json: { fieldData: { "First Name": "X" } } })],
    ["edit", () => api.call("PATCH", `${records}/1`, { headers, json: { fieldData: { Age: 1 } } })],
    ["delete", () => api.call("DELETE", `${records}/1`, { headers })],
    ["find", () => api.call("POST", p`/databases/${DB}/layouts/${CONTACTS}/_find`, { headers, json: { query: [{ "First Name": "Ada" }] } })],
    ["upload", () => api.call("POST", `${records}/1/containers/Photo/1`, { headers, body: form() })],
    ["layouts metadata", () => api.call("GET", p`/databases/${DB}/layouts`, { headers })],
    ["layout metadata", () => api.call("GET", p`/databases/${DB}/layouts/${CONTACTS}`, { headers })],
  ];
}

describe("Errors table", () => {
  it("Errors row: 0 / 200 — success", async () => {
    const login = await api.loginRaw(USER, PASSWORD);
    const token = expectOk(login).token as string;
    expect(login.body.messages[0]).toEqual({ code: "0", message: expect.any(String) });
    const list = await api.list(token, CONTACTS);
    expectOk(list);
    expect(list.body.messages[0]?.code).toBe("0");
  });

  it("Errors row: 212 / 401 — login with invalid account name or password", async () => {
    expectError(await api.loginRaw(USER, "not-the-password"), 401, "212");
    expectError(await api.loginRaw("no-such-account", PASSWORD), 401, "212");
  });

  it("Errors row: (code not given) / 401 — login where the privilege set lacks fmrest (emulator: code 9)", async () => {
    const res = await api.loginRaw(NO_FMREST_USER, PASSWORD);
    expectError(res, 401, "9");
    expect(res.headers.get("X-FM-Data-Access-Token")).toBeNull();
  });

  it("Errors row: 952 / 401 — token missing, expired, not found or invalid (all token-bearing calls and logout)", async () => {
    const before = await api.snapshotAll(await api.login());
    const missing = tokenBearingCalls(undefined);
    const notFound = tokenBearingCalls("Bearer 00000000000000000000000000000000");
    const invalid = tokenBearingCalls("Bearer not a token");
    for (const [label, send] of [...missing, ...notFound, ...invalid]) {
      const res = await send();
      expect({ label, status: res.status, code: res.code }).toEqual({ label, status: 401, code: "952" });
    }
    // expired
    const expiring = await api.login();
    emu.advanceTime(16 * 60_000);
    for (const [label, send] of tokenBearingCalls(`Bearer ${expiring}`)) {
      const res = await send();
      expect({ label, status: res.status, code: res.code }).toEqual({ label, status: 401, code: "952" });
    }
    // logout: not found, expired, already invalid
    expectError(await api.logout("00000000000000000000000000000000"), 401, "952");
    expectError(await api.logout(expiring), 401, "952");
    const once = await api.login();
    expectOk(await api.logout(once));
    expectError(await api.logout(once), 401, "952");
    // nothing was changed by the rejected calls
    expect(await api.snapshotAll(await api.login())).toEqual(before);
  });

  it("Errors row: 100 / 404 — database not found (list)", async () => {
    const token = await api.login();
    expectError(await api.list(token, CONTACTS, undefined, "NoSuchFile"), 404, "100");
  });

  it("Errors row: 105 / 404 — layout not found (list)", async () => {
    const token = await api.login();
    expectError(await api.list(token, "NoSuchLayout"), 404, "105");
  });

  it("Errors row: 101 / 404 — record not found (get, edit, delete, container upload)", async () => {
    const token = await api.login();
    expectError(await api.get(token, CONTACTS, "424242"), 404, "101");
    expectError(await api.edit(token, CONTACTS, "424242", { fieldData: { Age: 1 } }), 404, "101");
    expectError(await api.delete(token, CONTACTS, "424242"), 404, "101");
    expectError(await api.upload(token, CONTACTS, "424242", "Photo", 1, PNG), 404, "101");
    // a record of another table is not a record of this layout's table
    expectError(await api.get(token, INVOICES, "5"), 404, "101");
  });

  it("Errors row: 102 / 404 — field not found on the layout (container upload)", async () => {
    const token = await api.login();
    const before = await api.getOk(token, CONTACTS, "1");
    expectError(await api.upload(token, CONTACTS, "1", "Portrait", 1, PNG), 404, "102");
    expect(await api.getOk(token, CONTACTS, "1")).toEqual(before);
  });

  it("Errors row: 102 / 400 — create or find references a field missing from the layout", async () => {
    const token = await api.login();
    const before = await api.snapshotAll(token);
    expectError(await api.create(token, CONTACTS, { fieldData: { "First Name": "X", Nickname: "x" } }), 400, "102");
    expectError(await api.find(token, CONTACTS, { query: [{ Nickname: "x" }] }), 400, "102");
    // a field of another layout of the same table set is still not on this layout
    expectError(await api.create(token, CONTACTS, { fieldData: { "First Name": "X", ContactID: 1 } }), 400, "102");
    expect(await api.snapshotAll(token)).toEqual(before);
  });

  it("Errors row: 504 / 400 — create rejected by validation: a unique field with a duplicate", async () => {
    const token = await api.login();
    const before = await api.snapshotAll(token);
    expectError(await api.create(token, CONTACTS, { fieldData: { "First Name": "Ada II", Email: "ada@example.com" } }), 400, "504");
    expect(await api.snapshotAll(token)).toEqual(before);
  });

  it("Errors row: 306 / 400 — edit with a modId that differs from the record's current modId", async () => {
    const token = await api.login();
    const { recordId } = await api.createOk(token, CONTACTS, { fieldData: { "First Name": "Locked" } });
    const before = await api.getOk(token, CONTACTS, recordId);
    expectError(await api.edit(token, CONTACTS, recordId, { fieldData: { Age: 5 }, modId: "1" }), 400, "306");
    expect(await api.getOk(token, CONTACTS, recordId)).toEqual(before);
  });

  it("Errors row: 401 / 404 — find matched no records", async () => {
    const token = await api.login();
    expectError(await api.find(token, CONTACTS, { query: [{ "Last Name": "Nobody" }] }), 404, "401");
    expectError(await api.find(token, CONTACTS, { query: [{ Age: ">1000" }] }), 404, "401");
  });
});
