import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startConformanceEmulator, type Emulator } from "../support/conformance-emulator.js";
import { CONTACTS, DataApi, DB, expectError, expectOk, p, type HttpResult } from "../support/data-api-http.js";

// Rule one (docs/emulator.md): nothing is silently ignored. A query parameter given twice would have one of its
// values dropped, whichever the emulator read; so every name, on every call that takes query parameters, given twice
// is HTTP 400, code 1708, naming it, before the call does anything. Each row sends one name twice (both values valid,
// and also the same value twice) on a call that takes it once.

let emu: Emulator;
let api: DataApi;
let serverApi: DataApi;
let serverEmu: Emulator;
let token: string;

const SCRIPTS = { Mark: () => "m" };

beforeAll(async () => {
  ({ emu, api } = await startConformanceEmulator({ scripts: SCRIPTS as never }));
  ({ emu: serverEmu, api: serverApi } = await startConformanceEmulator({ scripts: SCRIPTS as never, serverStatuses: true }));
  token = await api.login();
});
afterAll(async () => {
  await emu.close();
  await serverEmu.close();
});

const LAYOUT = p`/databases/${DB}/layouts/${CONTACTS}`;
const enc = encodeURIComponent;
const SORT_A = enc('[{"fieldName":"First Name"}]');
const SORT_B = enc('[{"fieldName":"Last Name","sortOrder":"descend"}]');
const SCRIPT_QUERY: [string, string, string][] = [
  ["script", "script=Mark", "Mark"],
  ["script.param", "script=Mark&script.param=a", "b"],
  ["script.prerequest", "script.prerequest=Mark", "Mark"],
  ["script.prerequest.param", "script.prerequest=Mark&script.prerequest.param=a", "b"],
  ["script.presort", "script.presort=Mark", "Mark"],
  ["script.presort.param", "script.presort=Mark&script.presort.param=a", "b"],
];

/** [call, name, the query string with the name once, a second value] */
const ROWS: [string, string, string, string][] = [
  ["list", "_offset", "_offset=1", "2"],
  ["list", "_limit", "_limit=1", "2"],
  ["list", "_sort", `_sort=${SORT_A}`, SORT_B],
  ["list", "dateformats", "dateformats=0", "2"],
  ["list", "portal", `portal=${enc('["Invoices"]')}`, enc("[]")],
  ["list", "layout.response", `layout.response=${enc(CONTACTS)}`, enc(CONTACTS)],
  ["list", "_offset.Invoices", "_offset.Invoices=1", "2"],
  ["list", "_limit.Invoices", "_limit.Invoices=1", "2"],
  ...SCRIPT_QUERY.map(([name, once, second]): [string, string, string, string] => ["list", name, once, second]),
  ["get", "dateformats", "dateformats=0", "2"],
  ["get", "portal", `portal=${enc('["Invoices"]')}`, enc("[]")],
  ["get", "layout.response", `layout.response=${enc(CONTACTS)}`, enc(CONTACTS)],
  ["get", "_offset.Invoices", "_offset.Invoices=1", "2"],
  ["get", "_limit.Invoices", "_limit.Invoices=1", "2"],
  ...SCRIPT_QUERY.map(([name, once, second]): [string, string, string, string] => ["get", name, once, second]),
  ...SCRIPT_QUERY.map(([name, once, second]): [string, string, string, string] => ["delete", name, once, second]),
  ["find", "_offset.Invoices", "_offset.Invoices=1", "2"],
  ["find", "_limit.Invoices", "_limit.Invoices=1", "2"],
  ["metadata", "recordId", "recordId=1", "2"],
  ["standalone script", "script.param", "script.param=a", "b"],
  ["upload", "modId", "modId=0", "1"],
];

async function newRecord(): Promise<string> {
  return (await api.createOk(token, CONTACTS, { fieldData: { "First Name": "Twice", "Last Name": `R${Math.random()}` } })).recordId;
}

/** The call with this query string; `recordId` is the record a delete or upload targets. */
function send(a: DataApi, t: string, call: string, query: string, recordId: string): Promise<HttpResult> {
  switch (call) {
    case "list":
      return a.call("GET", `${LAYOUT}/records?${query}`, { token: t });
    case "get":
      return a.call("GET", `${LAYOUT}/records/1?${query}`, { token: t });
    case "delete":
      return a.call("DELETE", `${LAYOUT}/records/${recordId}?${query}`, { token: t });
    case "find":
      return a.call("POST", `${LAYOUT}/_find?${query}`, { token: t, json: { query: [{ "First Name": "*" }] } });
    case "metadata":
      return a.call("GET", `${LAYOUT}?${query}`, { token: t });
    case "standalone script":
      return a.call("GET", p`/databases/${DB}/layouts/${CONTACTS}/script/${"Mark"}` + `?${query}`, { token: t });
    case "upload": {
      const form = new FormData();
      form.append("upload", new Blob([new Uint8Array([1, 2, 3])], { type: "application/octet-stream" }), "x.bin");
      return a.call("POST", `${LAYOUT}/records/${recordId}/containers/Photo/1?${query}`, { token: t, body: form });
    }
    default:
      throw new Error(call);
  }
}

describe("rule one: a query parameter given twice", () => {
  it.each(ROWS)("%s: %s once is taken", async (call, _name, once) => {
    const recordId = await newRecord();
    expectOk(await send(api, token, call, once, recordId));
  });

  it.each(ROWS)("%s: %s given twice (two values, or one value twice) is 400 / 1708 naming it; nothing is done", async (call, name, once, second) => {
    for (const [a, t] of [
      [api, token],
      [serverApi, await serverApi.login()],
    ] as const) {
      const { recordId } = await a.createOk(t, CONTACTS, { fieldData: { "First Name": "Twice" } });
      for (const twice of [`${once}&${enc(name)}=${second}`, `${once}&${once.split("&").at(-1)}`]) {
        const res = await send(a, t, call, twice, recordId);
        expectError(res, 400, "1708");
        expect(res.body.messages[0]!.message).toContain(name);
        // Nothing was done: the record is still there, unchanged (the delete and the upload did not happen).
        const after = expectOk(await a.get(t, CONTACTS, recordId));
        expect(after.data[0].modId).toBe("0");
      }
    }
  });

  it("the first of two different names is not taken for both: `_limit=1&_limit=2` does not answer one record", async () => {
    const res = await api.call("GET", `${LAYOUT}/records?_limit=1&_limit=2`, { token });
    expectError(res, 400, "1708");
    expect(res.body.messages[0]!.message).toMatch(/_limit is given 2 times; give it once/);
  });

  it("a name given twice and an unknown name: the unknown name is 960 first, as for any call", async () => {
    expectError(await api.call("GET", `${LAYOUT}/records?_limit=1&_limit=1&bogus=1`, { token }), 400, "960");
  });
});

describe("rule one: an upload's `upload` part given twice", () => {
  it("two parts named upload are 400 / 1708 naming it; the field keeps its file", async () => {
    const { recordId } = await api.createOk(token, CONTACTS, { fieldData: { "First Name": "Two parts" } });
    const form = new FormData();
    form.append("upload", new Blob([new Uint8Array([1])], { type: "image/png" }), "first.png");
    form.append("upload", new Blob([new Uint8Array([2])], { type: "image/png" }), "second.png");
    const res = await api.call("POST", `${LAYOUT}/records/${recordId}/containers/Photo/1`, { token, body: form });
    expectError(res, 400, "1708");
    expect(res.body.messages[0]!.message).toMatch(/upload/);
    const after = expectOk(await api.get(token, CONTACTS, recordId)).data[0];
    expect({ photo: after.fieldData.Photo, modId: after.modId }).toEqual({ photo: "", modId: "0" });
  });
});

describe("rule one: a container URL takes only its own RCType", () => {
  it("GET /Streaming/... with another parameter, or RCType twice, is 400 / 960 naming it, before the file is looked up", async () => {
    const { recordId } = await api.createOk(token, CONTACTS, { fieldData: { "First Name": "Photo" } });
    const form = new FormData();
    form.append("upload", new Blob([new Uint8Array([7, 8, 9])], { type: "image/png" }), "p.png");
    expectOk(await api.call("POST", `${LAYOUT}/records/${recordId}/containers/Photo/1`, { token, body: form }));
    const url: string = expectOk(await api.get(token, CONTACTS, recordId)).data[0].fieldData.Photo;
    expect(url).toMatch(/\?RCType=EmbeddedRCFileProcessor$/);
    expect((await fetch(url, { redirect: "manual" })).status).toBe(302);
    for (const query of ["&RCType=EmbeddedRCFileProcessor", "&x=1&x=1"]) {
      const res = await fetch(`${url}${query}`, { redirect: "manual", headers: { Authorization: `Bearer ${token}` } });
      expect(res.status).toBe(400);
      const body = (await res.json()) as { messages: { code: string; message: string }[] };
      expect(body.messages[0]!.code).toBe("960");
      expect(body.messages[0]!.message).toContain(query === "&x=1&x=1" ? "x" : "RCType");
    }
  });
});

describe("rule one: a JSON object key given twice", () => {
  const raw = (method: string, path: string, text: string) => api.call(method, path, { token, body: text, headers: { "Content-Type": "application/json" } });

  it.each([
    ["a find's limit", "POST", "/_find", '{"query":[{"First Name":"*"}],"limit":1,"limit":2}', "limit"],
    ["a find request's field", "POST", "/_find", '{"query":[{"First Name":"Ada","First Name":"*"}]}', "First Name"],
    ["a create's fieldData", "POST", "/records", '{"fieldData":{"First Name":"A"},"fieldData":{"First Name":"B"}}', "fieldData"],
    ["a field in a create's fieldData (escaped the second time)", "POST", "/records", '{"fieldData":{"Last Name":"A","Last\\u0020Name":"B","First Name":"C"}}', "Last Name"],
  ])("%s given twice is 400 / 1708 naming it, and nothing is done", async (_label, method, path, text, name) => {
    const { records } = emu.stats();
    const res = await raw(method, `${LAYOUT}${path}`, text);
    expectError(res, 400, "1708");
    expect(res.body.messages[0]!.message).toContain(JSON.stringify(name));
    expect(emu.stats().records).toEqual(records);
  });

  it("in a query parameter's JSON (_sort) too; the same key in two objects is no repetition", async () => {
    const twice = enc('[{"fieldName":"First Name","fieldName":"Last Name"}]');
    expectError(await api.call("GET", `${LAYOUT}/records?_sort=${twice}`, { token }), 400, "1708");
    const apart = enc('[{"fieldName":"First Name"},{"fieldName":"Last Name","sortOrder":"descend"}]');
    expectOk(await api.call("GET", `${LAYOUT}/records?_sort=${apart}`, { token }));
    expectOk(await raw("POST", `${LAYOUT}/_find`, '{"query":[{"First Name":"*"},{"First Name":"A"}],"limit":"1"}'));
  });
});
