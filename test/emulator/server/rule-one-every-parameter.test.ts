import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startConformanceEmulator, type Emulator } from "../../support/conformance-emulator.js";
import { basic, CONTACTS, DataApi, DB, expectOk, p, PASSWORD, USER, type HttpResult } from "../../support/data-api-http.js";

// No parameter is silently ignored, the other half (docs/emulator.md, "The wider Data API of real servers"):
// every query parameter and body key that page names is implemented.
// Each row sends one name of the page (with what it needs) on a call that takes it and expects success; the row
// list is the page's names, section by section, so a name dropped from a route's accepted list fails here, and
// rule-one-unknown-parameters.test.ts proves the same names are refused where the page does not put them.

let emu: Emulator;
let api: DataApi;
let token: string;

const SCRIPTS = { Prepare: () => "p", Mark: () => "m", After: ({ param }: { param: string }) => `after ${param}` };

beforeAll(async () => {
  ({ emu, api } = await startConformanceEmulator({ scripts: SCRIPTS as never }));
  token = await api.login();
});
afterAll(async () => {
  await emu.close();
});

const LAYOUT = p`/databases/${DB}/layouts/${CONTACTS}`;
const enc = (value: string) => encodeURIComponent(value);
const get = (path: string) => api.call("GET", path, { token });
const send = (method: string, path: string, json: unknown) => api.call(method, path, { token, json });
const newRecord = async () => (await api.createOk(token, CONTACTS, { fieldData: { "First Name": "Param", "Last Name": `R${Math.random()}` } })).recordId;

/** The script keys (section 2), as query parameters or body keys, each with the script it needs. */
const SCRIPT_QUERY = [
  ["script", "script=After"],
  ["script.param", "script=After&script.param=x"],
  ["script.prerequest", "script.prerequest=Prepare"],
  ["script.prerequest.param", "script.prerequest=Prepare&script.prerequest.param=x"],
  ["script.presort", "script.presort=Mark"],
  ["script.presort.param", "script.presort=Mark&script.presort.param=x"],
] as const;
const SCRIPT_BODY: readonly [string, Record<string, string>][] = SCRIPT_QUERY.map(([name, query]) => [name, Object.fromEntries(new URLSearchParams(query))]);

type Row = [section: string, call: string, name: string, run: () => Promise<HttpResult>];

const ROWS: Row[] = [
  // the base Data API and section 1
  ["1", "login", "fmDataSource", () => api.call("POST", p`/databases/${DB}/sessions`, { json: { fmDataSource: [] }, headers: { Authorization: basic(USER, PASSWORD) } })],
  ["base", "list", "_offset", () => get(`${LAYOUT}/records?_offset=1`)],
  ["base", "list", "_limit", () => get(`${LAYOUT}/records?_limit=1`)],
  ["1", "list", "_sort (sortOrder optional)", () => get(`${LAYOUT}/records?_sort=${enc('[{"fieldName":"First Name"}]')}`)],
  ["base", "create", "fieldData", () => send("POST", `${LAYOUT}/records`, { fieldData: { "First Name": "A" } })],
  ["base", "find", "query", () => send("POST", `${LAYOUT}/_find`, { query: [{ "First Name": "*" }] })],
  ["1", "find", "sort (sortOrder optional)", () => send("POST", `${LAYOUT}/_find`, { query: [{ "First Name": "*" }], sort: [{ fieldName: "First Name" }] })],
  ["base", "find", "offset", () => send("POST", `${LAYOUT}/_find`, { query: [{ "First Name": "*" }], offset: "1" })],
  ["base", "find", "limit", () => send("POST", `${LAYOUT}/_find`, { query: [{ "First Name": "*" }], limit: "1" })],
  ["base", "edit", "modId", async () => send("PATCH", `${LAYOUT}/records/${await newRecord()}`, { fieldData: { "Last Name": "B" }, modId: "0" })],
  // section 2: scripts on list, get, delete (query); create, find, edit, duplicate (body); standalone
  ...SCRIPT_QUERY.map(([name, query]): Row => ["2", "list", name, () => get(`${LAYOUT}/records?_limit=1&${query}`)]),
  ...SCRIPT_QUERY.map(([name, query]): Row => ["2", "get", name, () => get(`${LAYOUT}/records/1?${query}`)]),
  ...SCRIPT_QUERY.map(([name, query]): Row => ["2", "delete", name, async () => api.call("DELETE", `${LAYOUT}/records/${await newRecord()}?${query}`, { token })]),
  ...SCRIPT_BODY.map(([name, keys]): Row => ["2", "create", name, () => send("POST", `${LAYOUT}/records`, { fieldData: { "First Name": "S" }, ...keys })]),
  ...SCRIPT_BODY.map(([name, keys]): Row => ["2", "find", name, () => send("POST", `${LAYOUT}/_find`, { query: [{ "First Name": "*" }], ...keys })]),
  ...SCRIPT_BODY.map(([name, keys]): Row => ["2", "edit", name, async () => send("PATCH", `${LAYOUT}/records/${await newRecord()}`, { fieldData: {}, ...keys })]),
  ...SCRIPT_BODY.map(([name, keys]): Row => ["2", "duplicate", name, async () => send("POST", `${LAYOUT}/records/${await newRecord()}`, keys)]),
  ["2", "standalone script", "script.param", () => get(`${LAYOUT}/script/After?script.param=x`)],
  // section 3: portals
  ["3", "list", "portal", () => get(`${LAYOUT}/records?_limit=1&portal=${enc('["Invoices"]')}`)],
  ["3", "list", "_offset.<portal>", () => get(`${LAYOUT}/records?_limit=1&_offset.Invoices=1`)],
  ["3", "list", "_limit.<portal>", () => get(`${LAYOUT}/records?_limit=1&_limit.Invoices=1`)],
  ["3", "get", "portal", () => get(`${LAYOUT}/records/1?portal=${enc('["Invoices"]')}`)],
  ["3", "get", "_offset.<portal>", () => get(`${LAYOUT}/records/1?_offset.Invoices=1`)],
  ["3", "get", "_limit.<portal>", () => get(`${LAYOUT}/records/1?_limit.Invoices=1`)],
  ["3", "find", "portal", () => send("POST", `${LAYOUT}/_find`, { query: [{ "First Name": "*" }], portal: ["Invoices"] })],
  ["3", "find", "offset.<portal>", () => send("POST", `${LAYOUT}/_find`, { query: [{ "First Name": "*" }], "offset.Invoices": 1 })],
  ["3", "find", "limit.<portal>", () => send("POST", `${LAYOUT}/_find`, { query: [{ "First Name": "*" }], "limit.Invoices": 1 })],
  // section 4: layout.response
  ["4", "list", "layout.response", () => get(`${LAYOUT}/records?_limit=1&layout.response=${enc(CONTACTS)}`)],
  ["4", "get", "layout.response", () => get(`${LAYOUT}/records/1?layout.response=${enc(CONTACTS)}`)],
  ["4", "find", "layout.response", () => send("POST", `${LAYOUT}/_find`, { query: [{ "First Name": "*" }], "layout.response": CONTACTS })],
  // section 5: dateformats
  ["5", "list", "dateformats", () => get(`${LAYOUT}/records?_limit=1&dateformats=2`)],
  ["5", "get", "dateformats", () => get(`${LAYOUT}/records/1?dateformats=2`)],
  ["5", "find", "dateformats", async () => {
    await api.createOk(token, CONTACTS, { fieldData: { "First Name": "Born", Birthday: "02/03/2001" } });
    return send("POST", `${LAYOUT}/_find`, { query: [{ Birthday: "2001-02-03" }], dateformats: 2 });
  }],
  ["5", "create", "dateformats", () => send("POST", `${LAYOUT}/records`, { fieldData: { "First Name": "D", Birthday: "2001-02-03" }, dateformats: 2 })],
  ["5", "edit", "dateformats", async () => send("PATCH", `${LAYOUT}/records/${await newRecord()}`, { fieldData: { Birthday: "2001-02-03" }, dateformats: 2 })],
  // section 6: globals
  ["6", "globals", "globalFields", () => send("PATCH", p`/databases/${DB}/globals`, { globalFields: { "Contacts::Site Banner": "hello" } })],
  // section 7: portal rows, deleteRelated, options, the upload's modId
  ["7", "create", "portalData", () => send("POST", `${LAYOUT}/records`, { fieldData: { "First Name": "P" }, portalData: { Invoices: [{ "Invoices::Amount": 1 }] } })],
  ["7", "edit", "portalData", async () => send("PATCH", `${LAYOUT}/records/${await newRecord()}`, { fieldData: {}, portalData: { Invoices: [{ "Invoices::Amount": 2 }] } })],
  ["7", "edit", "fieldData.deleteRelated", async () => {
    const id = (await api.createOk(token, CONTACTS, { fieldData: { "First Name": "R" }, portalData: { Invoices: [{ "Invoices::Amount": 3 }] } })).recordId;
    const row = expectOk(await get(`${LAYOUT}/records/${id}`)).data[0].portalData.Invoices[0].recordId as string;
    return send("PATCH", `${LAYOUT}/records/${id}`, { fieldData: { deleteRelated: `Invoices.${row}` } });
  }],
  ["7", "create", "options.entrymode", () => send("POST", `${LAYOUT}/records`, { fieldData: { "First Name": "O" }, options: { entrymode: "script" } })],
  ["7", "create", "options.prohibitmode", () => send("POST", `${LAYOUT}/records`, { fieldData: { "First Name": "O" }, options: { prohibitmode: "script" } })],
  ["7", "edit", "options", async () => send("PATCH", `${LAYOUT}/records/${await newRecord()}`, { fieldData: {}, options: { entrymode: "script", prohibitmode: "user" } })],
  ["7", "upload", "modId", async () => {
    const form = new FormData();
    form.append("upload", new Blob([new Uint8Array([1, 2, 3])], { type: "image/png" }), "p.png");
    return api.call("POST", `${LAYOUT}/records/${await newRecord()}/containers/Photo/1?modId=0`, { token, body: form });
  }],
  // section 8: layout metadata of a record
  ["8", "layout metadata", "recordId", () => get(`${LAYOUT}?recordId=1`)],
];

describe("rule one: every parameter name of the wider Data API is implemented where docs/emulator.md puts it", () => {
  it.each(ROWS)("section %s, %s: %s", async (_section, _call, _name, run) => {
    const res = await run();
    expect(res.code, res.text.slice(0, 300)).not.toBe("960");
    expectOk(res);
  });

  it("the rows name every parameter of the page at least once", () => {
    const names = new Set(ROWS.map(([, , name]) => name.split(" ")[0]!));
    const PAGE = [
      "fmDataSource", "_sort", "sort", "script", "script.param", "script.prerequest", "script.prerequest.param", "script.presort",
      "script.presort.param", "portal", "_offset.<portal>", "_limit.<portal>", "offset.<portal>", "limit.<portal>", "layout.response",
      "dateformats", "globalFields", "fieldData.deleteRelated", "portalData", "options.entrymode", "options.prohibitmode", "modId", "recordId",
    ];
    expect(PAGE.filter((name) => !names.has(name))).toEqual([]);
  });
});
