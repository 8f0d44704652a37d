import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startConformanceEmulator, type Emulator } from "../../support/conformance-emulator.js";
import {
  basic,
  CONTACTS,
  DataApi,
  DB,
  expectError,
  expectOk,
  NO_FMREST_USER,
  p,
  PASSWORD,
  USER,
  type HttpResult,
} from "../../support/data-api-http.js";

// Signing in (docs/emulator.md, "Sessions" and "Codes beyond the wire contract"): one test per rule. Tests move the
// clock, so each logs in itself.

const MINUTE = 60_000;

let emu: Emulator;
let api: DataApi;

beforeAll(async () => {
  ({ emu, api } = await startConformanceEmulator());
});
afterAll(async () => {
  await emu.close();
});

const FILE = { bytes: Uint8Array.from([9, 8, 7]), type: "application/octet-stream", filename: "f.bin" };

/** One call of every token-bearing endpoint with the given token; each must succeed. */
async function everyTokenBearingCall(token: string): Promise<HttpResult[]> {
  const { recordId } = await api.createOk(token, CONTACTS, { fieldData: { "First Name": "Auth" } });
  return [
    await api.list(token, CONTACTS),
    await api.get(token, CONTACTS, recordId),
    await api.edit(token, CONTACTS, recordId, { fieldData: { Age: 2 } }),
    await api.find(token, CONTACTS, { query: [{ "First Name": "Auth" }] }),
    await api.upload(token, CONTACTS, recordId, "Photo", 1, FILE),
    await api.call("GET", p`/databases/${DB}/layouts`, { token }),
    await api.call("GET", p`/databases/${DB}/layouts/${CONTACTS}`, { token }),
    await api.delete(token, CONTACTS, recordId),
  ];
}

describe("Authentication rules", () => {
  it("Authentication rule 1: login uses HTTP Basic with file account credentials; the privilege set must include fmrest", async () => {
    expectOk(await api.loginRaw(USER, PASSWORD));
    // a password holding colons: only the first colon of the Basic credentials separates the name
    expectOk(await api.loginRaw("colon", "pa:ss:word"));
    expectError(await api.loginRaw("colon", "pa"), 401, "212");
    expectError(await api.loginRaw(USER, "wrong"), 401, "212");
    expectError(await api.loginRaw(NO_FMREST_USER, PASSWORD), 401, "9");
    // Basic is required: no Authorization at all is an invalid login
    expectError(await api.call("POST", p`/databases/${DB}/sessions`, { json: {} }), 401, "212");
  });

  it("Authentication rule 2: login returns the token in the body (response.token) and in the header X-FM-Data-Access-Token", async () => {
    const res = await api.loginRaw(USER, PASSWORD);
    const { token } = expectOk(res);
    expect(typeof token).toBe("string");
    expect(token).not.toBe("");
    expect(res.headers.get("x-fm-data-access-token")).toBe(token);
    expectOk(await api.list(token, CONTACTS));
  });

  it("Authentication rule 3: every other call except logout sends Authorization: Bearer <token>", async () => {
    const token = await api.login();
    for (const res of await everyTokenBearingCall(token)) expectOk(res);
    // the same calls without it are refused
    const records = p`/databases/${DB}/layouts/${CONTACTS}/records`;
    expectError(await api.call("GET", records), 401, "952");
    expectError(await api.call("GET", `${records}/1`), 401, "952");
    expectError(await api.call("POST", p`/databases/${DB}/layouts/${CONTACTS}/_find`, { json: { query: [{ Age: "36" }] } }), 401, "952");
    // Basic credentials are not a substitute for the Bearer token on data calls
    expectError(await api.call("GET", records, { headers: { Authorization: basic(USER, PASSWORD) } }), 401, "952");
  });

  it("Authentication rule 4: logout sends no Authorization header; the token goes in the URL path", async () => {
    const token = await api.login();
    const res = await api.call("DELETE", p`/databases/${DB}/sessions/${token}`);
    expectOk(res);
    expect(res.body.response).toEqual({});
    expectError(await api.list(token, CONTACTS), 401, "952");
  });

  it("Authentication rule 5: a token expires after 15 minutes of inactivity; every successful call resets the timer", async () => {
    const kept = await api.login();
    const idle = await api.login();
    for (let i = 0; i < 4; i++) {
      emu.advanceTime(10 * MINUTE);
      expectOk(await api.get(kept, CONTACTS, "1")); // 40 minutes in all, never 15 idle
    }
    expectError(await api.get(idle, CONTACTS, "1"), 401, "952");
    emu.advanceTime(16 * MINUTE);
    expectError(await api.get(kept, CONTACTS, "1"), 401, "952");
  });

  it("Authentication rule 6: a missing, expired or invalid token gives HTTP 401 with code 952", async () => {
    const records = p`/databases/${DB}/layouts/${CONTACTS}/records`;
    expectError(await api.call("GET", records), 401, "952");
    expectError(await api.call("GET", records, { headers: { Authorization: "Bearer" } }), 401, "952");
    expectError(await api.call("GET", records, { headers: { Authorization: "Bearer " } }), 401, "952");
    expectError(await api.call("GET", records, { token: "forged-token" }), 401, "952");
    const expired = await api.login();
    emu.advanceTime(16 * MINUTE);
    expectError(await api.call("GET", records, { token: expired }), 401, "952");
    expectError(await api.logout(expired), 401, "952");
  });

  it("Authentication: an unknown file answers 404 / 100 to a valid token, which stays usable", async () => {
    const token = await api.login();
    // an unknown file answers 100 (checked first); the token stays usable on its own file
    expectError(await api.list(token, CONTACTS, undefined, "OtherFile"), 404, "100");
    expectOk(await api.list(token, CONTACTS));
  });
});
