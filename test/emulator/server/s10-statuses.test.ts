import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startConformanceEmulator, type Emulator } from "../../support/conformance-emulator.js";
import { basic, CONTACTS, DataApi, DB, expectError, expectOk, NO_FMREST_USER, NOTES, p, PASSWORD, rawRequest, USER, type HttpResult } from "../../support/data-api-http.js";

// docs/emulator.md, "10. Statuses on real servers": statuses on real servers. Every code the section names gets its
// status under the contract's statuses (the emulator's default) and under real servers' (serverStatuses: 500 for every
// FileMaker error), on v1, v2 and vLatest; a failed call changes nothing.

const VERSIONS = ["v1", "v2", "vLatest"] as const;
const scripts = { Fails: () => ({ error: 3 }) };

let emu: Emulator;
let serverEmu: Emulator;

beforeAll(async () => {
  ({ emu } = await startConformanceEmulator({ scripts }));
  ({ emu: serverEmu } = await startConformanceEmulator({ scripts, serverStatuses: true }));
});
afterAll(async () => {
  await emu.close();
  await serverEmu.close();
});

const RECORDS = p`/databases/${DB}/layouts/${CONTACTS}/records`;
const FIND = p`/databases/${DB}/layouts/${CONTACTS}/_find`;

/** One call that meets one code: [what, send, the contract's status, real servers' status, code, FileMaker's message]. */
type Case = [string, (api: DataApi, token: string) => Promise<HttpResult>, number, number, string, string];

const HTTP_LEVEL: Case[] = [
  ["960 an unknown parameter", (api, token) => api.list(token, CONTACTS, { bogus: 1 }), 400, 400, "960", "Unknown parameter(s)"],
  ["1708 a bad parameter value", (api, token) => api.list(token, CONTACTS, { _limit: 0 }), 400, 400, "1708", "Parameter value is invalid"],
  ["1708 a body that is not JSON", (api, token) => api.call("POST", RECORDS, { token, body: "{", headers: { "Content-Type": "application/json" } }), 400, 400, "1708", "Parameter value is invalid"],
  ["212 a bad login", (api) => api.loginRaw(USER, "wrong"), 401, 401, "212", "Invalid user account and/or password; please try again"],
  ["952 a dead token", (api) => api.list("not-a-token", CONTACTS), 401, 401, "952", "Invalid FileMaker Data API token (*)"],
  ["952 no token", (api) => api.call("GET", RECORDS), 401, 401, "952", "Invalid FileMaker Data API token (*)"],
  ["9 an account without fmrest", (api) => api.loginRaw(NO_FMREST_USER, PASSWORD), 401, 401, "9", "Insufficient privileges"],
  ["404 a URL that names no resource", (api, token) => api.call("GET", p`/databases/${DB}/layouts/${CONTACTS}/records/1/more`, { token }), 404, 404, "1630", "URL format is incorrect"],
  ["404 an unknown top-level path", (api, token) => api.call("GET", "/nothing", { token }), 404, 404, "1630", "URL format is incorrect"],
  ["405 a wrong method", (api, token) => api.call("PUT", `${RECORDS}/1`, { token, json: { fieldData: {} } }), 405, 405, "1630", "URL format is incorrect"],
  ["405 a wrong method on a server-level path", (api) => api.call("DELETE", "/productInfo"), 405, 405, "1630", "URL format is incorrect"],
  ["415 a wrong Content-Type", (api, token) => api.call("POST", RECORDS, { token, body: '{"fieldData":{}}', headers: { "Content-Type": "text/plain" } }), 415, 415, "1708", "Parameter value is invalid"],
];

const FILEMAKER_ERRORS: Case[] = [
  ["100 file missing", (api, token) => api.list(token, CONTACTS, {}, "NoSuchFile"), 404, 500, "100", "File is missing"],
  ["101 record missing", (api, token) => api.get(token, CONTACTS, "999"), 404, 500, "101", "Record is missing"],
  ["102 field missing", (api, token) => api.create(token, CONTACTS, { fieldData: { Nope: "x" } }), 400, 500, "102", "Field is missing"],
  ["104 script missing", (api, token) => api.list(token, CONTACTS, { script: "No Such Script" }), 400, 500, "104", "Script is missing"],
  ["105 layout missing", (api, token) => api.list(token, "No Such Layout"), 404, 500, "105", "Layout is missing"],
  ["306 modId mismatch", (api, token) => api.edit(token, CONTACTS, "1", { fieldData: { Age: 1 }, modId: "99" }), 400, 500, "306", "Record modification ID does not match"],
  ["401 no records match", (api, token) => api.find(token, CONTACTS, { query: [{ "First Name": "Nobody" }] }), 404, 500, "401", "No records match the request"],
  ["400 find criteria empty", (api, token) => api.find(token, CONTACTS, { query: [{}] }), 400, 500, "400", "Find criteria are empty"],
  ["500 date validation", (api, token) => api.edit(token, CONTACTS, "1", { fieldData: { Birthday: "13/45/2020" } }), 400, 500, "500", "Date value does not meet validation entry options"],
  ["501 time validation", (api, token) => api.edit(token, CONTACTS, "1", { fieldData: { "Wake Up": "25:00:00" } }), 400, 500, "501", "Time value does not meet validation entry options"],
  ["502 number validation", (api, token) => api.edit(token, CONTACTS, "1", { fieldData: { Age: "many" } }), 400, 500, "502", "Number value does not meet validation entry options"],
  ["504 unique validation", (api, token) => api.edit(token, CONTACTS, "1", { fieldData: { Email: "grace@navy.mil" } }), 400, 500, "504", "Value in field is not unique as required in validation entry options"],
  ["509 required validation", (api, token) => api.edit(token, CONTACTS, "1", { fieldData: { "First Name": "" } }), 400, 500, "509", "Field requires a valid value"],
  ["201 field cannot be modified", (api, token) => api.edit(token, CONTACTS, "1", { fieldData: { id: 7 } }), 400, 500, "201", "Field cannot be modified"],
  ["101 a list past the end", (api, token) => api.list(token, NOTES), 404, 500, "101", "Record is missing"],
];

async function checkCases(cases: Case[], serverStatuses: boolean, version: string): Promise<void> {
  const target = serverStatuses ? serverEmu : emu;
  const api = new DataApi(target.url, version);
  const token = await api.login();
  const before = await api.snapshotAll(token, [CONTACTS]);
  const records = target.stats().records;
  for (const [what, send, contractStatus, serverStatus, code, message] of cases) {
    const res = await send(api, token);
    expect(res.isEnvelope, what).toBe(true);
    expect({ what, status: res.status, code: res.code }).toEqual({ what, status: serverStatuses ? serverStatus : contractStatus, code });
    expect(res.body.messages[0]!.message.startsWith(message), `${what}: ${res.body.messages[0]!.message}`).toBe(true);
  }
  expect(target.stats().records).toEqual(records);
  expect(await api.snapshotAll(token, [CONTACTS])).toEqual(before);
}

describe("10. statuses", () => {
  it.each(VERSIONS)("10. 200 success, in both status modes (%s)", async (version) => {
    for (const target of [emu, serverEmu]) {
      const api = new DataApi(target.url, version);
      const token = await api.login();
      const res = await api.list(token, CONTACTS, { _limit: 1 });
      expect({ status: res.status, code: res.code, message: res.body.messages[0]!.message }).toEqual({ status: 200, code: "0", message: "OK" });
    }
  });

  for (const serverStatuses of [false, true]) {
    const mode = serverStatuses ? "real servers' statuses" : "the contract's statuses";
    it.each(VERSIONS)(`10. 400 (960, 1708), 401 (212, 952), 404 no resource, 405 wrong method, 415 wrong Content-Type: the same in both modes (${mode}, %s)`, async (version) => {
      await checkCases(HTTP_LEVEL, serverStatuses, version);
    });
    it.each(VERSIONS)(`10. every FileMaker error (100, 101, 102, 104, 105, 306, 401, 400, 5xx validation, 201) is ${serverStatuses ? "500" : "the contract's 400 / 404"} (${mode}, %s)`, async (version) => {
      await checkCases(FILEMAKER_ERRORS, serverStatuses, version);
    });
  }
});

describe("10. further codes clients meet", () => {
  it("10. 3 command unavailable: a script's error, carried in scriptError of a call that succeeds (section 2)", async () => {
    for (const target of [emu, serverEmu]) {
      const api = new DataApi(target.url);
      const token = await api.login();
      const response = expectOk(await api.list(token, CONTACTS, { _limit: 1, script: "Fails" }));
      expect(response.scriptError).toBe("3");
    }
  });

  it("10. 956 maximum sessions (an injected capacity fault): HTTP 500 with FileMaker's message, in both modes", async () => {
    for (const target of [emu, serverEmu]) {
      target.setFaults({ rates: { capacity956: 1 } });
      try {
        const res = await rawRequest(`${target.url}/fmi/data/vLatest${p`/databases/${DB}/sessions`}`, "POST", { json: {}, headers: { Authorization: basic(USER, PASSWORD) } });
        expectError(res, 500, "956");
        expect(res.body.messages[0]!.message).toBe("Maximum number of database sessions exceeded");
      } finally {
        target.setFaults();
      }
    }
  });

  it("10. 104 and 201 carry FileMaker's messages; 953, 958 and 1710 are known codes the emulator never answers (docs/emulator.md)", async () => {
    const api = new DataApi(emu.url);
    const token = await api.login();
    expect((await api.list(token, CONTACTS, { script: "Nope" })).body.messages[0]!.message).toMatch(/^Script is missing/);
    expect((await api.edit(token, CONTACTS, "1", { fieldData: { Created: "01/01/2020 00:00:00" } })).body.messages[0]!.message).toMatch(/^Field cannot be modified/);
    // A body that does not parse is 1708 (the base contract's code for it), not 1710, in both modes.
    for (const target of [emu, serverEmu]) {
      const v = new DataApi(target.url);
      const t = await v.login();
      expectError(await v.call("POST", FIND, { token: t, body: '{"query": [', headers: { "Content-Type": "application/json" } }), 400, "1708");
    }
  });
});
