import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startConformanceEmulator, type Emulator } from "../support/conformance-emulator.js";
import {
  basic,
  CONTACTS,
  DataApi,
  DB,
  expectError,
  NO_FMREST_USER,
  NOTES,
  p,
  PASSWORD,
  rawRequest,
  USER,
  type CallOptions,
  type HttpResult,
} from "../support/data-api-http.js";

// docs/emulator.md, "Codes beyond the wire contract" and "Security": bad input never crashes the emulator
// and never corrupts its data. Every test asserts the exact status and code, that every table lists the
// same before and after, and (through that listing) that the emulator still answers normal calls.

const MAX_JSON = 1024;
const MAX_UPLOAD = 4096;

let emu: Emulator;
let api: DataApi;
let token: string;

beforeAll(async () => {
  ({ emu, api } = await startConformanceEmulator({ maxJsonBytes: MAX_JSON, maxUploadBytes: MAX_UPLOAD }));
  token = await api.login();
});
afterAll(async () => {
  await emu.close();
});

/** Sends the bad request; asserts status and code, then that no table changed and the server still works. */
async function expectRejected(send: () => Promise<HttpResult>, status: number, code: string): Promise<HttpResult> {
  const before = await api.snapshotAll(token);
  const res = await send();
  expectError(res, status, code);
  expect(await api.snapshotAll(token)).toEqual(before);
  return res;
}

/** A request to `${emu.url}${path}`, path sent exactly as written. */
const raw = (method: string, path: string, options: CallOptions = {}) => rawRequest(emu.url + path, method, options);

const V = "/fmi/data/vLatest";
const RECORDS = p`/databases/${DB}/layouts/${CONTACTS}/records`;
const FIND = p`/databases/${DB}/layouts/${CONTACTS}/_find`;
const SESSIONS = p`/databases/${DB}/sessions`;
const PNG = { bytes: Uint8Array.from([0x89, 0x50, 0x4e, 0x47]), type: "image/png", filename: "p.png" };
const utf8 = (text: string) => new TextEncoder().encode(text);

function uploadForm(part = "upload", bytes: Uint8Array = PNG.bytes): FormData {
  const form = new FormData();
  form.append(part, new Blob([bytes], { type: PNG.type }), PNG.filename);
  return form;
}

describe("unknown paths and unsupported methods", () => {
  it.each([
    "/",
    "/fmi",
    "/fmi/data",
    "/favicon.ico",
    `${V}/databases/${DB}/nothing`,
    `${V}/databases/${DB}/layouts/Contacts%20Web/nothing`,
    `${V}/databases/${DB}/layouts/Contacts%20Web/records/1/extra`,
    `${V}/databases/${DB}/layouts/Contacts%20Web/records/1/containers/Photo/1/extra`,
    `${V}/databases/${DB}/sessions/a/b`,
  ])("unknown path GET %s -> 404 / 1630", async (path) => {
    await expectRejected(() => raw("GET", path, { token }), 404, "1630");
  });

  it("unknown path POST with a JSON body -> 404 / 1630", async () => {
    await expectRejected(() => raw("POST", `${V}/databases/${DB}/layouts/Contacts%20Web/records/1/extra`, { token, json: { fieldData: { Age: 1 } } }), 404, "1630");
  });

  it.each([
    ["PUT", RECORDS],
    ["PATCH", RECORDS],
    ["DELETE", RECORDS],
    ["PUT", `${RECORDS}/1`],
    ["GET", FIND],
    ["PUT", FIND],
    ["GET", SESSIONS],
    ["PATCH", SESSIONS],
    ["DELETE", SESSIONS],
    ["GET", `${SESSIONS}/sometoken`],
    ["POST", `${SESSIONS}/sometoken`],
    ["POST", p`/databases/${DB}/layouts`],
    ["DELETE", p`/databases/${DB}/layouts/${CONTACTS}`],
    ["GET", `${RECORDS}/1/containers/Photo/1`],
    ["PATCH", `${RECORDS}/1/containers/Photo/1`],
  ])("method not supported: %s %s -> 405 / 1630", async (method, path) => {
    const options: CallOptions = method === "GET" || method === "DELETE" ? { token } : { token, json: { fieldData: { Age: 7 } } };
    await expectRejected(() => api.call(method, path, options), 405, "1630");
  });
});

describe("malformed percent-encoding in a path segment -> 400 / 1630", () => {
  it("in the layout segment (list)", async () => {
    await expectRejected(() => raw("GET", `${V}/databases/${DB}/layouts/%E0%A4%A/records`, { token }), 400, "1630");
  });
  it("in the database segment (login)", async () => {
    await expectRejected(
      () => raw("POST", `${V}/databases/%E0%A4%A/sessions`, { json: {}, headers: { Authorization: basic(USER, PASSWORD) } }),
      400,
      "1630",
    );
  });
  it("in the record id segment (edit)", async () => {
    await expectRejected(() => raw("PATCH", `${V}${RECORDS}/%E0%A4%A`, { token, json: { fieldData: { Age: 1 } } }), 400, "1630");
  });
  it("in the container field segment (upload)", async () => {
    await expectRejected(() => raw("POST", `${V}${RECORDS}/1/containers/%ZZ/1`, { token, body: uploadForm() }), 400, "1630");
  });
  it("in the token segment (logout)", async () => {
    await expectRejected(() => raw("DELETE", `${V}${SESSIONS}/%E0%A4%A`), 400, "1630");
  });
  it("a lone % (delete)", async () => {
    await expectRejected(() => raw("DELETE", `${V}${RECORDS}/1%`, { token }), 400, "1630");
  });
});

describe("JSON bodies", () => {
  const endpoints: [string, string, string][] = [
    ["create", "POST", RECORDS],
    ["edit", "PATCH", `${RECORDS}/1`],
    ["find", "POST", FIND],
  ];

  it.each(endpoints)("%s: JSON that does not parse -> 400 / 1708", async (_label, method, path) => {
    const headers = { "Content-Type": "application/json" };
    await expectRejected(() => api.call(method, path, { token, headers, body: '{"fieldData": {' }), 400, "1708");
    await expectRejected(() => api.call(method, path, { token, headers, body: "{fieldData: 1}" }), 400, "1708");
    await expectRejected(() => api.call(method, path, { token, headers, body: "" }), 400, "1708");
  });

  // An empty login body means {} (docs/emulator.md, "1. Requests every client sends";
  // test/emulator/server/s01-requests.test.ts).
  it("login: JSON that does not parse, or only whitespace -> 400 / 1708", async () => {
    const headers = { "Content-Type": "application/json", Authorization: basic(USER, PASSWORD) };
    await expectRejected(() => api.call("POST", SESSIONS, { headers, body: "{" }), 400, "1708");
    await expectRejected(() => api.call("POST", SESSIONS, { headers, body: " " }), 400, "1708");
  });

  it.each(endpoints)("%s: JSON that is not an object -> 400 / 1708", async (_label, method, path) => {
    for (const json of [[], [{ fieldData: { Age: 1 } }], null, "text", 42, true]) {
      await expectRejected(() => api.call(method, path, { token, json }), 400, "1708");
    }
  });

  it("login: JSON that is not an object -> 400 / 1708", async () => {
    for (const json of [[], null, "x", 1]) {
      await expectRejected(() => api.call("POST", SESSIONS, { json, headers: { Authorization: basic(USER, PASSWORD) } }), 400, "1708");
    }
  });

  it.each(endpoints)("%s: no Content-Type, or not application/json -> 415 / 1708", async (_label, method, path) => {
    const body = JSON.stringify({ fieldData: { Age: 1 }, query: [{ Age: "36" }] });
    await expectRejected(() => api.call(method, path, { token, body: utf8(body) }), 415, "1708");
    for (const type of ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/jsonx"]) {
      await expectRejected(() => api.call(method, path, { token, body, headers: { "Content-Type": type } }), 415, "1708");
    }
  });

  it("login: no Content-Type, or not application/json -> 415 / 1708", async () => {
    const headers = { Authorization: basic(USER, PASSWORD) };
    await expectRejected(() => api.call("POST", SESSIONS, { headers, body: utf8("{}") }), 415, "1708");
    await expectRejected(() => api.call("POST", SESSIONS, { headers: { ...headers, "Content-Type": "text/plain" }, body: "{}" }), 415, "1708");
  });

  it.each(endpoints)(`%s: a body larger than maxJsonBytes (${MAX_JSON}) -> 413 / 1708`, async (_label, method, path) => {
    const json = { fieldData: { "First Name": "x".repeat(4 * MAX_JSON) }, query: [{ "First Name": "y".repeat(4 * MAX_JSON) }] };
    await expectRejected(() => api.call(method, path, { token, json }), 413, "1708");
  });

  it(`login: a body larger than maxJsonBytes (${MAX_JSON}) -> 413 / 1708`, async () => {
    const json = { fmDataSource: [{ database: "d", username: "u", password: "p".repeat(4 * MAX_JSON) }] };
    await expectRejected(() => api.call("POST", SESSIONS, { json, headers: { Authorization: basic(USER, PASSWORD) } }), 413, "1708");
  });

  it("a body just under maxJsonBytes is accepted (the limit is not off by much)", async () => {
    const name = "n".repeat(MAX_JSON - 100);
    const res = await api.create(token, CONTACTS, { fieldData: { "First Name": name } });
    expect({ status: res.status, code: res.code }).toEqual({ status: 200, code: "0" });
    expect((await api.getOk(token, CONTACTS, res.body.response.recordId)).fieldData["First Name"]).toBe(name);
    expect((await api.delete(token, CONTACTS, res.body.response.recordId)).status).toBe(200);
  });
});

describe("Authorization", () => {
  const garbledBasic: [string, string | undefined][] = [
    ["missing", undefined],
    ["not base64", "Basic !!!not*base64!!!"],
    ["no colon", `Basic ${Buffer.from("webSecret").toString("base64")}`],
    ["empty", "Basic "],
    ["scheme alone", "Basic"],
    ["empty name and password", `Basic ${Buffer.from(":").toString("base64")}`],
    ["wrong scheme", "Bearer abcdef"],
    ["garbage", "\u00ff\u00fe"],
  ];

  it.each(garbledBasic)("login with Authorization Basic %s -> 401 / 212", async (_label, authorization) => {
    const headers: Record<string, string> = authorization === undefined ? {} : { Authorization: authorization };
    const res = await expectRejected(() => api.call("POST", SESSIONS, { json: {}, headers }), 401, "212");
    expect(res.headers.get("X-FM-Data-Access-Token")).toBeNull();
  });

  it("login with an account that lacks fmrest -> 401 / 9", async () => {
    await expectRejected(() => api.loginRaw(NO_FMREST_USER, PASSWORD), 401, "9");
  });

  const garbledBearer: [string, (t: string) => string | undefined][] = [
    ["missing", () => undefined],
    ["empty", () => "Bearer "],
    ["scheme alone", () => "Bearer"],
    ["wrong scheme (Basic)", () => basic(USER, PASSWORD)],
    ["wrong scheme (Token)", (t) => `Token ${t}`],
    ["unknown token", () => "Bearer 0123456789abcdef0123456789abcdef0123456789abcdef"],
    ["token with a suffix", (t) => `Bearer ${t}x`],
    ["token and trailing garbage", (t) => `Bearer ${t} extra`],
  ];

  it.each(garbledBearer)("data calls with Authorization Bearer %s -> 401 / 952", async (_label, make) => {
    const authorization = make(token);
    const headers: Record<string, string> = authorization === undefined ? {} : { Authorization: authorization };
    await expectRejected(() => api.call("GET", RECORDS, { headers }), 401, "952");
    await expectRejected(() => api.call("PATCH", `${RECORDS}/1`, { headers, json: { fieldData: { Age: 1 } } }), 401, "952");
    await expectRejected(() => api.call("DELETE", `${RECORDS}/1`, { headers }), 401, "952");
    await expectRejected(() => api.call("POST", RECORDS, { headers, json: { fieldData: { "First Name": "Intruder" } } }), 401, "952");
    await expectRejected(() => api.call("POST", FIND, { headers, json: { query: [{ Age: "36" }] } }), 401, "952");
    await expectRejected(() => api.call("POST", `${RECORDS}/1/containers/Photo/1`, { headers, body: uploadForm() }), 401, "952");
  });

  it("logout with an unknown or garbled token in the path -> 401 / 952", async () => {
    await expectRejected(() => api.logout("unknown"), 401, "952");
    await expectRejected(() => api.logout(`${token}x`), 401, "952");
    await expectRejected(() => api.logout(" "), 401, "952");
  });
});

describe("database and layout not found", () => {
  it("login to an unknown database -> 404 / 100", async () => {
    await expectRejected(() => api.loginRaw(USER, PASSWORD, "NoSuchFile"), 404, "100");
  });

  it("every data endpoint on an unknown database -> 404 / 100 (checked before the layout)", async () => {
    const db = "NoSuchFile";
    await expectRejected(() => api.list(token, CONTACTS, undefined, db), 404, "100");
    await expectRejected(() => api.list(token, "NoSuchLayout", undefined, db), 404, "100");
    await expectRejected(() => api.get(token, CONTACTS, "1", db), 404, "100");
    await expectRejected(() => api.create(token, CONTACTS, { fieldData: { "First Name": "X" } }, db), 404, "100");
    await expectRejected(() => api.edit(token, CONTACTS, "1", { fieldData: { Age: 1 } }, db), 404, "100");
    await expectRejected(() => api.delete(token, CONTACTS, "1", db), 404, "100");
    await expectRejected(() => api.find(token, CONTACTS, { query: [{ Age: "36" }] }, db), 404, "100");
    await expectRejected(() => api.upload(token, CONTACTS, "1", "Photo", 1, PNG, db), 404, "100");
    await expectRejected(() => api.call("GET", p`/databases/${db}/layouts`, { token }), 404, "100");
    await expectRejected(() => api.call("GET", p`/databases/${db}/layouts/${CONTACTS}`, { token }), 404, "100");
    await expectRejected(() => api.logout(token, db), 404, "100");
  });

  it("every data endpoint on an unknown layout -> 404 / 105", async () => {
    const layout = "No Such Layout";
    await expectRejected(() => api.list(token, layout), 404, "105");
    await expectRejected(() => api.get(token, layout, "1"), 404, "105");
    await expectRejected(() => api.create(token, layout, { fieldData: { "First Name": "X" } }), 404, "105");
    await expectRejected(() => api.edit(token, layout, "1", { fieldData: { Age: 1 } }), 404, "105");
    await expectRejected(() => api.delete(token, layout, "1"), 404, "105");
    await expectRejected(() => api.find(token, layout, { query: [{ Age: "36" }] }), 404, "105");
    await expectRejected(() => api.upload(token, layout, "1", "Photo", 1, PNG), 404, "105");
    await expectRejected(() => api.call("GET", p`/databases/${DB}/layouts/${layout}`, { token }), 404, "105");
    // A name that differs only by case is the same layout (docs/emulator.md, "Names"): server/names-case.test.ts.
  });
});

describe("record ids", () => {
  it.each(["abc", "0", "-1", "1.5", "1e0", "0x1", "999999999999999999999999", " 1"])(
    "record id %j (not a whole number, or no such record) -> 404 / 101 on get, edit, delete and upload",
    async (recordId) => {
      await expectRejected(() => api.get(token, CONTACTS, recordId), 404, "101");
      await expectRejected(() => api.edit(token, CONTACTS, recordId, { fieldData: { Age: 1 } }), 404, "101");
      await expectRejected(() => api.delete(token, CONTACTS, recordId), 404, "101");
      await expectRejected(() => api.upload(token, CONTACTS, recordId, "Photo", 1, PNG), 404, "101");
    },
  );

  it("list returning no record: an empty table -> 404 / 101", async () => {
    await expectRejected(() => api.list(token, NOTES), 404, "101");
  });

  it("list returning no record: _offset past the end -> 404 / 101", async () => {
    await expectRejected(() => api.list(token, CONTACTS, { _offset: 1000 }), 404, "101");
  });
});

describe("list query parameters", () => {
  const BAD_NUMBERS = ["abc", "0", "-1", "-0", "1.5", "", " ", "1abc", "NaN", "Infinity"];

  it.each(BAD_NUMBERS)("_offset=%j -> 400 / 1708", async (value) => {
    await expectRejected(() => api.call("GET", `${RECORDS}?_offset=${encodeURIComponent(value)}`, { token }), 400, "1708");
  });

  it.each(BAD_NUMBERS)("_limit=%j -> 400 / 1708", async (value) => {
    await expectRejected(() => api.call("GET", `${RECORDS}?_limit=${encodeURIComponent(value)}`, { token }), 400, "1708");
  });

  it("a huge _offset is past the end -> 404 / 101", async () => {
    await expectRejected(() => api.call("GET", `${RECORDS}?_offset=99999999999999999999`, { token }), 404, "101");
  });

  it("a huge _limit returns every record (200)", async () => {
    const before = await api.snapshotAll(token);
    const res = await api.call("GET", `${RECORDS}?_limit=99999999999999999999`, { token });
    expect({ status: res.status, code: res.code }).toEqual({ status: 200, code: "0" });
    expect(res.body.response.dataInfo.returnedCount).toBe(res.body.response.dataInfo.foundCount);
    expect(await api.snapshotAll(token)).toEqual(before);
  });

  it.each([
    ["not JSON", "[{"],
    ["an object, not a list", JSON.stringify({ fieldName: "Age", sortOrder: "ascend" })],
    ["a string", JSON.stringify("Age")],
    ["a list of numbers", "[1]"],
    ["a list holding null", "[null]"],
    ["fieldName missing", JSON.stringify([{ sortOrder: "ascend" }])],
    ["sortOrder not ascend/descend/a value list (optional, section 1 of the wider Data API)", JSON.stringify([{ fieldName: "Age", sortOrder: "up" }])],
    ["fieldName not a string", JSON.stringify([{ fieldName: 5, sortOrder: "ascend" }])],
  ])("_sort %s -> 400 / 1708", async (_label, sort) => {
    await expectRejected(() => api.list(token, CONTACTS, { _sort: sort }), 400, "1708");
  });

  it("_sort on a field not on the layout -> 400 / 102", async () => {
    await expectRejected(() => api.list(token, CONTACTS, { _sort: JSON.stringify([{ fieldName: "ContactID", sortOrder: "ascend" }]) }), 400, "102");
  });
});

describe("find bodies", () => {
  it.each([
    ["query missing", {}],
    ["query an object", { query: { Age: "36" } }],
    ["query a string", { query: "Age=36" }],
    ["query of numbers", { query: [1] }],
    ["query holding null", { query: [null] }],
    ["query of lists", { query: [["Age", "36"]] }],
    ["criterion true", { query: [{ Age: true }] }],
    ["criterion null", { query: [{ Age: null }] }],
    ["criterion an object", { query: [{ Age: { gte: 3 } }] }],
    ["criterion a list", { query: [{ Age: ["36"] }] }],
  ])("find with %s -> 400 / 1708", async (_label, body) => {
    await expectRejected(() => api.find(token, CONTACTS, body), 400, "1708");
  });

  it.each([
    ["an empty query", { query: [] }],
    ["only empty requests", { query: [{}, {}] }],
  ])("find with %s -> 400 / 400", async (_label, body) => {
    await expectRejected(() => api.find(token, CONTACTS, body), 400, "400");
  });

  it("find with a criterion the field's type cannot read (a malformed date) -> 400 / 500", async () => {
    await expectRejected(() => api.find(token, CONTACTS, { query: [{ Birthday: "13/45/2020" }] }), 400, "500");
  });

  it("find on a field not on the layout -> 400 / 102; sort on one -> 400 / 102", async () => {
    await expectRejected(() => api.find(token, CONTACTS, { query: [{ Age: "36", Nope: "x" }] }), 400, "102");
    await expectRejected(
      () => api.find(token, CONTACTS, { query: [{ Age: "36" }], sort: [{ fieldName: "Nope", sortOrder: "ascend" }] }),
      400,
      "102",
    );
  });

  it.each([
    ["sort an object", { fieldName: "Age", sortOrder: "ascend" }],
    ["sort a string", "Age"],
    ["sortOrder not ascend/descend", [{ fieldName: "Age", sortOrder: "down" }]],
  ])("find with %s -> 400 / 1708", async (_label, sort) => {
    await expectRejected(() => api.find(token, CONTACTS, { query: [{ Age: ">0" }], sort }), 400, "1708");
  });

  it.each(["0", "-1", "abc", "1.5", "", " "])("find with offset %j -> 400 / 1708", async (offset) => {
    await expectRejected(() => api.find(token, CONTACTS, { query: [{ Age: ">0" }], offset }), 400, "1708");
  });

  it.each(["0", "-1", "abc", "1.5", "", " "])("find with limit %j -> 400 / 1708", async (limit) => {
    await expectRejected(() => api.find(token, CONTACTS, { query: [{ Age: ">0" }], limit }), 400, "1708");
  });
});

describe("create and edit bodies", () => {
  const shapes: [string, unknown][] = [
    ["fieldData missing", {}],
    ["fieldData a list", { fieldData: [] }],
    ["fieldData a string", { fieldData: "First Name=X" }],
    ["fieldData null", { fieldData: null }],
    ["fieldData a number", { fieldData: 5 }],
  ];
  it.each(shapes)("create with %s -> 400 / 1708", async (_label, body) => {
    await expectRejected(() => api.create(token, CONTACTS, body), 400, "1708");
  });
  it.each(shapes)("edit with %s -> 400 / 1708", async (_label, body) => {
    await expectRejected(() => api.edit(token, CONTACTS, "1", body), 400, "1708");
  });

  it.each([
    ["a string", "Invoices"],
    ["a list", [{ "Invoices::Amount": 1 }]],
    ["rows not a list", { Invoices: { "Invoices::Amount": 1 } }],
    ["rows a string", { Invoices: "x" }],
    ["a row a string", { Invoices: ["x"] }],
    ["a row null", { Invoices: [null] }],
  ])("create with portalData %s -> 400 / 1708", async (_label, portalData) => {
    await expectRejected(() => api.create(token, CONTACTS, { fieldData: { "First Name": "P" }, portalData }), 400, "1708");
  });

  it.each([0, 1, null, true, { id: "0" }])("edit with modId %j (not a string) -> 400 / 1708", async (modId) => {
    await expectRejected(() => api.edit(token, CONTACTS, "1", { fieldData: { Age: 1 }, modId }), 400, "1708");
  });

  it("edit with a modId that differs -> 400 / 306", async () => {
    await expectRejected(() => api.edit(token, CONTACTS, "1", { fieldData: { Age: 1 }, modId: "5" }), 400, "306");
  });

  it.each([
    ["an unknown field", { "First Name": "X", Nickname: "x" }],
    ["__proto__", JSON.parse('{"First Name": "X", "__proto__": "polluted"}') as unknown],
    ["constructor", { "First Name": "X", constructor: "x" }],
    ["a field of another layout", { "First Name": "X", ContactID: 1 }],
    ["a portal field in fieldData", { "First Name": "X", "Invoices::Amount": 1 }],
    ["a container field", { "First Name": "X", Photo: "" }],
    ["a repetition beyond the count", { "First Name": "X", "Phone(4)": "4" }],
    ["repetition zero", { "First Name": "X", "Phone(0)": "0" }],
  ])("create with %s -> 400 / 102", async (_label, fieldData) => {
    await expectRejected(() => api.create(token, CONTACTS, { fieldData }), 400, "102");
  });

  it("create with a portal row naming a field outside the portal -> 400 / 102", async () => {
    await expectRejected(
      () => api.create(token, CONTACTS, { fieldData: { "First Name": "X" }, portalData: { Invoices: [{ "Invoices::Nope": 1 }] } }),
      400,
      "102",
    );
  });

  it.each([
    ["an unknown field", { Nickname: "x" }],
    ["__proto__", JSON.parse('{"__proto__": {"Age": 1}}') as unknown],
    ["a container field", { Photo: "http://x/y.png" }],
  ])("edit with %s -> 400 / 102", async (_label, fieldData) => {
    await expectRejected(() => api.edit(token, CONTACTS, "1", { fieldData }), 400, "102");
  });

  it.each([
    ["create", "id"],
    ["create", "Created"],
    ["edit", "uuid"],
    ["edit", "Modified"],
  ])("%s of the readOnly field %s -> 400 / 201", async (kind, field) => {
    const value = field === "id" ? 77 : field === "uuid" ? "x" : "01/01/2020 00:00:00";
    await expectRejected(
      () =>
        kind === "create"
          ? api.create(token, CONTACTS, { fieldData: { "First Name": "X", [field]: value } })
          : api.edit(token, CONTACTS, "1", { fieldData: { [field]: value } }),
      400,
      "201",
    );
  });

  it.each([
    ["date", "Birthday", "12/32/2020", "500"],
    ["date", "Birthday", "2020-01-01", "500"],
    ["date", "Birthday", 20200101, "500"],
    ["time", "Wake Up", "24:00:00", "501"],
    ["time", "Wake Up", "7am", "501"],
    ["number", "Age", "12 years", "502"],
    ["number", "Age", "1,5", "502"],
    ["timestamp", "Last Seen", "not a timestamp", "500"],
    ["timestamp", "Last Seen", "01/01/2020 12:61:00", "500"],
  ])("a %s field (%s) given %j -> 400 / %s on create and edit", async (_type, field, value, code) => {
    await expectRejected(() => api.create(token, CONTACTS, { fieldData: { "First Name": "X", [field]: value } }), 400, code);
    await expectRejected(() => api.edit(token, CONTACTS, "1", { fieldData: { "Last Name": "Changed", [field]: value } }), 400, code);
  });

  it("required field empty after create or edit -> 400 / 509", async () => {
    await expectRejected(() => api.create(token, CONTACTS, { fieldData: { Age: 1 } }), 400, "509");
    await expectRejected(() => api.edit(token, CONTACTS, "1", { fieldData: { "First Name": "", Age: 2 } }), 400, "509");
  });

  it("unique field duplicating another record -> 400 / 504", async () => {
    await expectRejected(() => api.create(token, CONTACTS, { fieldData: { "First Name": "X", Email: "grace@navy.mil" } }), 400, "504");
    await expectRejected(() => api.edit(token, CONTACTS, "1", { fieldData: { Email: "grace@navy.mil", Age: 2 } }), 400, "504");
  });
});

describe("uploads", () => {
  const upload = (field: string, repetition: string, body: FormData | Uint8Array, headers: Record<string, string> = {}) =>
    api.call("POST", `${RECORDS}/1/containers/${encodeURIComponent(field)}/${encodeURIComponent(repetition)}`, { token, body, headers });

  it("upload to a field missing from the layout, or not a container -> 404 / 102", async () => {
    await expectRejected(() => upload("Nope", "1", uploadForm()), 404, "102");
    await expectRejected(() => upload("First Name", "1", uploadForm()), 404, "102");
    await expectRejected(() => upload("Company::Name", "1", uploadForm()), 404, "102");
  });

  it.each(["abc", "0", "-1", "1.5", "1e0", " "])("upload to repetition %j -> 400 / 1708", async (repetition) => {
    await expectRejected(() => upload("Photo", repetition, uploadForm()), 400, "1708");
  });

  it("upload to a repetition beyond the field's repetitions -> 404 / 102", async () => {
    await expectRejected(() => upload("Photo", "2", uploadForm()), 404, "102");
    await expectRejected(() => upload("Attachments", "3", uploadForm()), 404, "102");
  });

  it("upload that is not multipart/form-data -> 415 / 1708", async () => {
    await expectRejected(() => upload("Photo", "1", PNG.bytes), 415, "1708");
    await expectRejected(() => upload("Photo", "1", PNG.bytes, { "Content-Type": "image/png" }), 415, "1708");
    await expectRejected(() => upload("Photo", "1", utf8("{}"), { "Content-Type": "application/json" }), 415, "1708");
  });

  it("upload with no `upload` part, or a garbled multipart body -> 400 / 1708", async () => {
    await expectRejected(() => upload("Photo", "1", uploadForm("file")), 400, "1708");
    await expectRejected(() => upload("Photo", "1", new FormData()), 400, "1708");
    await expectRejected(
      () => upload("Photo", "1", utf8("this is not a multipart body"), { "Content-Type": "multipart/form-data; boundary=XyZ" }),
      400,
      "1708",
    );
    await expectRejected(
      () =>
        upload("Photo", "1", utf8("--XyZ\r\nContent-Disposition: form-data; name=\"upload\"; filename=\"a.png\"\r\n\r\nunterminated"), {
          "Content-Type": "multipart/form-data; boundary=XyZ",
        }),
      400,
      "1708",
    );
  });

  it(`upload larger than maxUploadBytes (${MAX_UPLOAD}) -> 413 / 1708`, async () => {
    await expectRejected(() => upload("Photo", "1", uploadForm("upload", new Uint8Array(4 * MAX_UPLOAD).fill(7))), 413, "1708");
  });
});

describe("broken connections", () => {
  /** Writes raw bytes on a socket, then closes it; resolves with whatever came back. */
  function sendRaw(payload: string, endEarly: boolean): Promise<string> {
    const { port, hostname } = new URL(emu.url);
    return new Promise((resolve) => {
      const socket = connect(Number(port), hostname);
      let received = "";
      socket.on("data", (chunk) => (received += chunk.toString("latin1")));
      socket.on("error", () => resolve(received));
      socket.on("close", () => resolve(received));
      socket.on("connect", () => {
        socket.write(payload);
        if (endEarly) setTimeout(() => socket.destroy(), 50);
        else socket.end();
      });
      setTimeout(() => {
        socket.destroy();
        resolve(received);
      }, 2_000);
    });
  }

  it("a request whose body stops short of its Content-Length, then disconnects: no change, still answering", async () => {
    const before = await api.snapshotAll(token);
    const body = '{"fieldData":{"First Name":"Half';
    await sendRaw(
      `POST ${V}${RECORDS} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n${body}`,
      true,
    );
    expect(await api.snapshotAll(token)).toEqual(before);
  });

  it("bytes that are not HTTP: no change, still answering", async () => {
    const before = await api.snapshotAll(token);
    await sendRaw("HELLO THERE\r\n\r\n\u0000\u0001\u0002", false);
    expect(await api.snapshotAll(token)).toEqual(before);
  });
});
