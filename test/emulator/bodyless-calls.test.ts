import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startConformanceEmulator, type Emulator } from "../support/conformance-emulator.js";
import { CONTACTS, DataApi, DB, expectOk, p } from "../support/data-api-http.js";
import { rawHttp } from "../support/raw-http.js";

// A call whose body is optional or unused is not refused for the body's Content-Type: FMDataAPI (PHP, curl) sends
// `DELETE .../records/5?script=...` with `Content-Type: application/x-www-form-urlencoded` and a body, and servers
// delete the record. What the emulator reads from such a body is in docs/emulator.md (section 2): a delete reads
// script keys from a JSON body only; a body of any other type is read to its end (still capped) and not interpreted.

let emu: Emulator;
let api: DataApi;
let token: string;
const ran: string[] = [];

beforeAll(async () => {
  ({ emu, api } = await startConformanceEmulator({ scripts: { Mark: ({ param }: { param: string }) => (ran.push(param), `marked ${param}`) } as never, maxJsonBytes: 4096 }));
  token = await api.login();
});
afterAll(async () => {
  await emu.close();
});

const LAYOUT = `/fmi/data/vLatest${p`/databases/${DB}/layouts/${CONTACTS}`}`;
const newRecord = async () => (await api.createOk(token, CONTACTS, { fieldData: { "First Name": "Body" } })).recordId;

/** [label, Content-Type header (none when undefined), body] */
const FOREIGN_BODIES: [string, string | undefined, string][] = [
  ["form-urlencoded, as FMDataAPI sends it", "application/x-www-form-urlencoded", "script=Other&script.param=ignored"],
  ["form-urlencoded, an empty JSON object as its text", "application/x-www-form-urlencoded", "{}"],
  ["text/plain", "text/plain", "anything at all"],
  ["no Content-Type", undefined, "a=1"],
  ["multipart/form-data", "multipart/form-data; boundary=x", "--x\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1\r\n--x--\r\n"],
];

const headersFor = (type: string | undefined, body: string): Record<string, string> => ({
  Authorization: `Bearer ${token}`,
  ...(type === undefined ? {} : { "Content-Type": type }),
  "Content-Length": String(Buffer.byteLength(body)),
});

describe("DELETE .../records/{id} with a body of another Content-Type", () => {
  it.each(FOREIGN_BODIES)("%s: the record is deleted; the query string's script keys run; the body is not read for keys", async (_label, type, body) => {
    const recordId = await newRecord();
    ran.length = 0;
    const res = await rawHttp(emu.url, "DELETE", `${LAYOUT}/records/${recordId}?script=Mark&script.param=q`, headersFor(type, body), body);
    expect({ status: res.status, code: res.code }, res.text).toEqual({ status: 200, code: "0" });
    expect(res.body.response).toEqual({ scriptResult: "marked q", scriptError: "0" });
    expect(ran).toEqual(["q"]);
    expect((await api.get(token, CONTACTS, recordId)).status).toBe(404);
  });

  it("a body of another type past maxJsonBytes is still 413 / 1708, and the record stays", async () => {
    const recordId = await newRecord();
    const body = "a=".padEnd(5000, "x");
    const res = await rawHttp(emu.url, "DELETE", `${LAYOUT}/records/${recordId}`, headersFor("application/x-www-form-urlencoded", body), body);
    expect({ status: res.status, code: res.code }).toEqual({ status: 413, code: "1708" });
    expectOk(await api.get(token, CONTACTS, recordId));
  });

  it("a JSON body still carries script keys (fms-api-client), and a JSON body that does not parse is still 400 / 1708", async () => {
    const recordId = await newRecord();
    const json = JSON.stringify({ script: "Mark", "script.param": "j" });
    const res = await rawHttp(emu.url, "DELETE", `${LAYOUT}/records/${recordId}`, headersFor("application/json", json), json);
    expect(res.body.response).toEqual({ scriptResult: "marked j", scriptError: "0" });
    const other = await newRecord();
    const bad = await rawHttp(emu.url, "DELETE", `${LAYOUT}/records/${other}`, headersFor("application/json", "a=1"), "a=1");
    expect({ status: bad.status, code: bad.code }).toEqual({ status: 400, code: "1708" });
    expectOk(await api.get(token, CONTACTS, other));
  });
});

describe("the other calls without a body: not refused for a body's Content-Type", () => {
  it.each(FOREIGN_BODIES)("GET list, GET get, GET metadata and logout with a %s body answer as without it", async (_label, type, body) => {
    for (const path of [`${LAYOUT}/records?_limit=1`, `${LAYOUT}/records/1`, LAYOUT, `/fmi/data/vLatest/productInfo`, `/fmi/data/vLatest/databases`]) {
      const res = await rawHttp(emu.url, "GET", path, headersFor(type, body), body);
      expect({ path, status: res.status, code: res.code }, res.text).toEqual({ path, status: 200, code: "0" });
    }
    const session = await api.login();
    const out = await rawHttp(emu.url, "DELETE", `/fmi/data/vLatest${p`/databases/${DB}/sessions/${session}`}`, headersFor(type, body), body);
    expect({ status: out.status, code: out.code }, out.text).toEqual({ status: 200, code: "0" });
  });
});
